// Building the page: every text goes in as a text node, never as markup.

/** An element with attributes (on* names add listeners) and children (text or nodes). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, like h(). */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A titled section of the screen. */
export function panel(title, ...children) {
  const id = "h-" + title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return h("section", { class: "panel", "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

/** A name owning what follows, as the server's sentences write it: "Ada's"; one ending in s
 * with an apostrophe alone ("The party guests'"), but one ending in ss, a singular noun,
 * with 's ("The Novgorod boss's"). */
export function possessive(name) {
  return /[^s]s$|^s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** Words for a machine name: "turn_started" → "turn started". */
export function words(name) {
  return String(name).replace(/[_-]+/g, " ");
}

/** The text with a capital first letter: "turn" → "Turn" (a heading). */
export function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A number with its sign, as the log writes it: "+2", "−1" (the minus sign, not a hyphen). */
export function signed(n) {
  return n < 0 ? `−${-n}` : `+${n}`;
}

/** Put a field's text on the clipboard where the browser lets the page (a secure page:
 * localhost or HTTPS), else select it for the user's own copy; `status` says which, in the
 * words of `said` ({copied, selected}). */
export async function copyField(field, status, said) {
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = said.copied;
  } catch {
    field.focus();
    field.setSelectionRange(0, field.value.length);
    status.textContent = said.selected;
  }
}

let asked = 0;

/** Ask before a step a misclick must not take (a link revoked mid-game): a modal dialog in
 * the page's style saying `question`, with Cancel (focused first; Escape too) and `yes`;
 * answers (a promise) whether `yes` was chosen. */
export function confirmed(question, yes) {
  const id = `confirm-${++asked}`;
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": id },
      h("p", { id }, question),
      h("form", { method: "dialog", class: "buttons" },
        h("button", { value: "no", class: "cancel" }, "Cancel"),
        h("button", { value: "yes", class: "bad" }, yes)));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
