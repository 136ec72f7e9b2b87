// The start page: the tables whose links this browser keeps (to go back to one, or forget
// them all on a shared computer); create a table, then show its GM link (the only way back to
// the table as its GM: the server keeps only a hash of it) until the GM opens the table with it.
import { api } from "./api.js";
import { confirmed, copyField, h } from "./dom.js";

const form = document.getElementById("new-table");
const status = document.getElementById("start-status");
const box = document.getElementById("gm-link-box");
const field = document.getElementById("gm-link");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  status.textContent = "Creating the table…";
  try {
    const made = await api("POST", "/tables", { title: form.title.value });
    showLink(made);
  } catch (error) {
    status.textContent = error.message;
  }
});

// The link, with Copy and Open the table (which goes to the link: it keeps the token in the
// browser's cookie); the form goes, so that a second press makes no second table.
function showLink(made) {
  field.value = made.gm_link;
  document.getElementById("open-table").href = made.gm_link;
  form.hidden = true;
  box.hidden = false;
  status.textContent = `Created the table ${made.title}. Keep your GM link before you open it.`;
  box.focus();
}

field.addEventListener("focus", () => field.select());

document.getElementById("copy-gm-link").addEventListener("click", () => copyField(field, status, {
  copied: "Copied: your GM link is on the clipboard. Paste it somewhere safe.",
  selected: "This browser does not let the page copy it: the link is selected, "
    + "press Ctrl+C (⌘C on a Mac) to copy it.",
}));

const kept = document.getElementById("kept");
const keptStatus = document.getElementById("kept-status");

// What the link held here makes its holder at a table, in a few words.
function role(t) {
  if (t.role === "gm") return "as its GM";
  if (t.role === "player") return `as ${t.player}`;
  return "as an onlooker (a shared screen)";
}

// The kept tables, each a link to it; the section shows only when there is one.
async function showKept() {
  let tables = [];
  try {
    tables = await api("GET", "/session");
  } catch {
    return;  // the server out of reach: the form below says so when it is used
  }
  document.getElementById("kept-tables").replaceChildren(...tables.map((t) => h("li", {},
    h("a", { href: `/table/${encodeURIComponent(t.table)}` }, t.title), ` ${role(t)}`)));
  kept.hidden = tables.length === 0;
}

// Forget every table's link on this browser, once the viewer confirmed it: a GM link forgotten
// here and kept nowhere else is the table lost to its GM.
document.getElementById("forget-tables").addEventListener("click", async () => {
  if (!(await confirmed("Forget the links of these tables on this browser? To come back to a "
    + "table you will need its link again; a GM link kept nowhere else is lost for good.",
  "Forget them"))) return;
  try {
    await api("DELETE", "/session");
  } catch (error) {
    keptStatus.textContent = error.message;
    return;
  }
  document.getElementById("kept-tables").replaceChildren();
  kept.hidden = true;
  status.textContent = "This browser no longer keeps any table's link.";
});

showKept();
