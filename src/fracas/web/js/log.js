// One log entry as its viewer may read it: its label and command, then a sentence per event —
// the ruleset's own words, the same as the terminal's log (a success die's **marks** in bold, a
// dropped die's ~~marks~~ struck through).

import { h } from "./dom.js";

/** The list item of one log entry; the GM's carries its version, author and time. An entry
 * taken back (``undone``: from {@link undoneOf}) is struck through and says so. */
export function logEntry(entry, gm, undone = new Set()) {
  const label = gm ? `v${entry.version}` : `#${entry.entry}`;
  const key = gm ? entry.version : entry.entry;
  const when = gm && entry.time ? new Date(entry.time) : null;
  // played inside a zoom: set in, one step further for each level (up to Etherscope's four),
  // so that deep in a chain the log shows which level each entry was played at
  const classes = ["entry", entry.depth ? "inner" : "", entry.depth > 1 ? `depth-${Math.min(entry.depth, 4)}` : "",
    undone.has(key) ? "undone" : ""];
  return h("li", {
    class: classes.filter(Boolean).join(" "),
    title: when ? `by ${entry.author}, ${when.toLocaleString()}` : null,
  },
  h("p", { class: "head" }, h("span", { class: "label" }, label), " ",
    h("span", { class: "said" }, entry.command),
    undone.has(key) ? h("span", { class: "tag" }, "undone") : null),
  h("ul", { class: "events" }, (entry.lines || []).map((line) => h("li", {}, marked(line)))));
}

/** The entries taken back now, by the undo and redo entries of a whole log (in order): the
 * GM's by version, a player's by their entry numbers. */
export function undoneOf(log, gm) {
  const out = new Set();
  for (const entry of log) {
    for (const event of entry.events || []) {
      if (event.type !== "undone" && event.type !== "redone") continue;
      const keys = (gm ? event.data.versions : event.data.entries) || [];
      for (const key of keys) {
        if (event.type === "undone") out.add(key);
        else out.delete(key);
      }
    }
  }
  return out;
}

/** A sentence's pieces: its **marked** runs (a success die) as bold elements and its ~~marked~~
 * runs (a die dropped or rerolled away: `[~~1~~, 5]`) struck through — text, never markup. */
export function marked(line) {
  return String(line).split(/(\*\*[^*]*\*\*|~~[^~]*~~)/).filter(Boolean).map((part) => {
    if (part.length > 4 && part.startsWith("**") && part.endsWith("**")) return h("b", {}, part.slice(2, -2));
    if (part.length > 4 && part.startsWith("~~") && part.endsWith("~~")) {
      return h("s", { class: "dropped", title: "dropped" }, part.slice(2, -2));
    }
    return part;
  });
}
