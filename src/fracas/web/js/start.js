// The start page: create a table, then go to the GM's link (which keeps the token in a cookie).
import { api } from "./api.js";

const form = document.getElementById("new-table");
const status = document.getElementById("start-status");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  status.textContent = "Creating the table…";
  try {
    const made = await api("POST", "/tables", { title: form.title.value });
    status.textContent = "Created. Keep your GM link secret: " + made.gm_link;
    location.assign(made.gm_link);
  } catch (error) {
    status.textContent = error.message;
  }
});
