// The start page: create a table, then show its GM link (the only way back to the table as
// its GM: the server keeps only a hash of it) until the GM opens the table with it.
import { api } from "./api.js";
import { copyField } from "./dom.js";

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
