// One log entry as its viewer may read it: its label and command, then a sentence per event —
// the ruleset's own words, the same as the terminal's log (a success die's **marks** in bold).

import { h } from "./dom.js";

/** The list item of one log entry; the GM's carries its version, author and time. */
export function logEntry(entry, gm) {
  const label = gm ? `v${entry.version}` : `#${entry.entry}`;
  const when = gm && entry.time ? new Date(entry.time) : null;
  return h("li", {
    class: entry.depth ? "entry inner" : "entry",
    title: when ? `by ${entry.author}, ${when.toLocaleString()}` : null,
  },
  h("p", { class: "head" }, h("span", { class: "label" }, label), " ",
    h("span", { class: "said" }, entry.command)),
  h("ul", { class: "events" }, (entry.lines || []).map((line) => h("li", {}, marked(line)))));
}

/** A sentence's pieces: its **marked** runs as bold elements (text, never markup). */
export function marked(line) {
  return String(line).split("**").map((part, i) => (i % 2 ? h("b", {}, part) : part));
}
