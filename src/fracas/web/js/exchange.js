// The GM's copy of a conflict and a copy brought back (docs/server.md): the export saved as a
// file (its seed sealed by the server: it never leaves it), and such a file imported as a new
// conflict of the table. The server checks every file and refuses a bad one in its own words.
import { apiBlob, apiDocument } from "./api.js";
import { h } from "./dom.js";

/** The largest file the server takes (its request body limit: server/limits.py MAX_BODY). A
 * larger one is not sent: the server would refuse it unread, and a browser still sending it
 * may see the connection dropped rather than the refusal. */
export const MAX_FILE = 2 * 1024 * 1024;
/** The largest scenario file (engine/limits.py MAX_SCENARIO_BYTES): a larger one is refused
 * on the page, in the words fracas run uses, not sent. */
export const MAX_SCENARIO = 1000000;

/** The file's name: the conflict's title in lower case, words joined by "-", then its id. */
export function fileName(title, id) {
  const slug = String(title || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "");
  return `${slug ? `${slug}-` : ""}${id}.json`;
}

/** The "Download this conflict" button: the export, saved by the browser as a file. */
export function downloadButton(tableId, conflict, refuse) {
  return h("button", { type: "button", id: "download-conflict", onclick: async () => {
    try {
      const blob = await apiBlob("GET", `/tables/${tableId}/conflicts/${encodeURIComponent(conflict.id)}/export`);
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: fileName(conflict.title, conflict.id), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);  // the download has its copy by then
    } catch (error) {
      refuse(error);
    }
  } }, "Download this conflict");
}

/** The form that imports a conflict file; `opened(made)` opens the new conflict; `hidden()`
 * says whether it goes behind the screen (the players do not see it until it is shown). */
export function importForm(tableId, opened, refuse, hidden = () => false) {
  const file = h("input", { type: "file", id: "import-file", accept: ".json,application/json" });
  return h("form", { id: "from-export", onsubmit: async (e) => {
    e.preventDefault();
    const chosen = file.files[0];
    if (!chosen) return refuse("Choose a conflict file first (one saved with Download this conflict).");
    if (chosen.size > MAX_FILE) {
      return refuse(`${chosen.name}: the file is ${chosen.size.toLocaleString("en")} bytes; the server `
        + `takes at most ${MAX_FILE.toLocaleString("en")}; nothing was imported`);
    }
    try {
      const query = hidden() ? "?shown=false" : "";
      opened(await apiDocument("POST", `/tables/${tableId}/imports${query}`, await chosen.text()));
    } catch (error) {
      refuse(error);
    }
  } },
  h("p", { class: "field" }, h("label", { for: "import-file" },
    "Import a conflict file (.json, as downloaded from a GM screen)"), file),
  h("button", { type: "submit" }, "Import the conflict"));
}
