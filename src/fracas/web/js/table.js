// The table's screen: the GM's (set-up, invitations, every command, undo) or a player's (their
// characters' commands only), by the role of the token in the cookie. Everything shown comes
// from the viewer's projection, over the public API and the conflict's WebSocket.
import { api, apiBlob, ApiError } from "./api.js";
import { capitalized, confirmed, copyField, h, panel, possessive, words } from "./dom.js";
import { effectsPanel } from "./effects.js";
import { downloadButton, importForm, MAX_SCENARIO } from "./exchange.js";
import { commandForm, normalize, quote } from "./legal.js";
import { Live, TIMING } from "./live.js";
import { logEntry, marked, undoneOf } from "./log.js";
import { setupForm } from "./setup.js";
import { kept, keepIn } from "./typed.js";
import { outWords, parentPanels, progressOf, rulesetPanels, sheetOf, turnOf, zoomOrigin, zonesOf } from "./views.js";

const [, , tableId, pathConflict] = location.pathname.split("/");
const main = document.getElementById("main");
const errorBox = document.getElementById("error");
const banner = document.getElementById("turn-banner");
const state = { me: null, conflicts: [], conflictId: null, view: null, log: [], live: null,
                legalKey: "", actFor: "", myTurn: null, title: "fracas",
                // the moment of the table (one per frame received), the one the controls are
                // drawn for (null: a command of this page just changed it), commands in flight
                moment: 0, drawn: 0, sending: 0,
                // the controls' looks in a row that went unanswered (controlsAwait)
                controlsRetry: 0,
                // the cursor of the table as this screen shows it (the newest frame's, or the
                // answer to this page's own command): a command is sent as decided on it
                cursor: null,
                // a player's other conflicts where a character of theirs acts now
                elsewhere: new Set(),
                // the browser's other tables (GM or player there), and their conflicts where
                // it is the viewer's turn there now ("TABLE/CONFLICT")
                otherTables: [], awayTurns: new Set(),
                // (GM) the next conflict made goes behind the screen
                behindScreen: false };
const regions = {};

// A refusal or failure where the user looks (the foot of the screen), until it is dismissed,
// the next command is sent or a field is changed; the socket's own ("connection": the
// database out of reach) also once the page is live again; the rules' refusal of a command
// ("refusal") also once the table has moved on past it (refusalMovesOn). A refusal of a
// command stays through a reconnection: a server process that died a moment after refusing it
// (its socket reconnecting to another) took back nothing of what it said.
let errorsShown = 0;
function showError(error, about = "") {
  errorBox.hidden = !error;
  errorBox.dataset.about = error ? about : "";
  errorBox.dataset.shown = error ? `${++errorsShown} ${Date.now()}` : "";
  if (!error) {
    for (const field of document.querySelectorAll("[aria-invalid]")) {
      field.removeAttribute("aria-invalid");
      const rest = (field.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== "error");
      if (rest.length) field.setAttribute("aria-describedby", rest.join(" "));  // its own hint stays
      else field.removeAttribute("aria-describedby");
    }
    return errorBox.replaceChildren();
  }
  const unsent = error instanceof TypeError;  // fetch failed: no answer came back
  const text = unsent ? "No answer yet: the server cannot be reached. The page sends it again by "
    + "itself once the connection is back, and says here whether it went through (never twice)."
    : limited(error) ? "Not done: this screen sent more requests than the server takes in a moment, "
      + `so nothing was done. ${error.resent ? "The page sends it again by itself in "
        + `${waitOf(error) / 1000} s and says here when it goes through (never twice).`
        : `Try again in ${waitOf(error) / 1000} s.`}`
    : notYet(error) ? "Not done yet: the server cannot reach its database just now, so nothing "
      + "was done. The page sends it again by itself until it goes through, and says here when "
      + "it does (never twice)."
    : error.code === "stale_version" ? (error.own ? STALE_OWN : STALE)
    : withAdvice(error.message || String(error), error);
  errorBox.replaceChildren(h("span", {}, text), h("button", { type: "button", class: "small dismiss",
    "aria-label": "Dismiss this message", onclick: () => showError(null) }, "✕"));
}

// An answer that says the server could not do it just now and nothing was done (its database
// out of reach: 503; a proxy in front of it without the server: 502, 504): sent again, as a
// command whose answer was lost is.
function notYet(error) {
  return error instanceof ApiError && [502, 503, 504].includes(error.status);
}

// An answer that says this screen asked too much too fast (the server's rate limit, 429):
// nothing was done, and the answer says when to try again.
function limited(error) {
  return error instanceof ApiError && error.status === 429;
}

// How long a rate-limited command waits before it goes again: what the server said (its
// Retry-After, also in the error's values), within 1 to 30 seconds.
function waitOf(error) {
  const seconds = Number(error.values.retry_after) || 1;
  return 1000 * Math.min(Math.max(Math.ceil(seconds), 1), 30);
}

// A command sent from a screen the table had moved past (another tab of the GM, another
// player, a phone that slept): refused, never merged; the screen is brought up to date.
const STALE = "Not sent: the table changed while you chose (someone else acted first). The "
  + "screen now shows it as it is: look again, and send it again if it still fits.";
const STALE_OWN = "Not sent: your command just before it changed the table first (each is "
  + "decided on the screen it was chosen on). The screen now shows it as it is: look again, "
  + "and send it again if it still fits.";

// Copy the link: sent from a phone to a player far away, a link is pasted into a message, and a
// long link in a field is hard to select with a thumb.
function copyLink(field) {
  const status = h("span", { role: "status" });
  const copy = () => copyField(field, status, {
    copied: "Copied: the link is on the clipboard, to paste into a message.",
    selected: "This browser does not let the page copy it: the link is selected, "
      + "copy it yourself (Ctrl+C, ⌘C on a Mac, or Copy on a phone).",
  });
  return h("p", { class: "buttons" }, h("button", { type: "button", onclick: copy }, "Copy the link"), status);
}

// A refusal with what this page adds to it: for an unknown command, where the commands are
// (the terminal's prompt says Tab instead); after a question ("did you mean 'attack'?") as a
// sentence of its own, else after a semicolon.
function withAdvice(message, error) {
  if (!(error.values && error.values.unknown_verb)) return message;
  const advice = "the commands offered above are those the rules allow now";
  return message.endsWith("?") ? `${message} ${capitalized(advice)}` : `${message}; ${advice}`;
}

document.addEventListener("keydown", (e) => {  // Escape closes the message at the foot
  if (e.key !== "Escape") return;
  if (!errorBox.hidden) showError(null);
  else dismissNotice();
});

// The messages at the foot of the screen (a "Done: …", a refusal) stick over the page: a control
// that Tab brings into view is scrolled above them, never left out of sight behind them.
function focusAboveTheFoot() {
  const feet = [document.getElementById("notice"), errorBox];
  const room = () => {
    const height = feet.reduce((sum, foot) => sum + foot.getBoundingClientRect().height, 0);
    document.documentElement.style.scrollPaddingBottom = `${Math.ceil(height)}px`;
  };
  const watch = new ResizeObserver(room);
  for (const foot of feet) watch.observe(foot);
}
focusAboveTheFoot();

function setConnection(kind, text) {
  const el = document.getElementById("connection");
  el.textContent = text;
  el.className = `connection ${kind}`;
}

// Open the table. A link that does not (or no longer) let its holder in says so; a server that
// cannot answer just now (its database out of reach, the network gone, too many requests) is
// asked again, the page saying so meanwhile, and opens by itself once it answers.
async function boot() {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10000)) {
    try {
      return await enter();
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        main.replaceChildren(h("p", {}, "You are not at this table (yet): open the link your GM gave you. ",
          error.message), h("p", {}, otherTables(await keptTables() || [])));
        setConnection("closed", "not joined");
        return;
      }
      main.replaceChildren(h("p", { class: "unreachable" }, "The table cannot be reached just now: ",
        error instanceof ApiError ? error.message : "no answer from the server",
        ". The page tries again by itself."));
      // no answer at all, or an answer that it cannot just now (its database away, too many
      // requests: the page's own words say which): the head says which of the two
      setConnection("down", `${error instanceof ApiError ? "server busy" : "server unreachable"}: trying again…`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function enter() {
  // this table's link, as this browser keeps it (a link of another table is no matter)
  state.me = await api("GET", `/tables/${encodeURIComponent(tableId)}`);
  document.getElementById("table-title").textContent = state.me.title;
  document.title = tabTitle();
  document.getElementById("who").textContent = state.me.role === "gm" ? "Game master"
    : state.me.role === "player" ? `Player: ${state.me.player}` : "Onlooker";
  markScreen(state.me.role);
  keepIn(tableId, state.me.role, state.me.player);  // what was typed before a reload comes back
  keptTables().then(showOtherTables);
  state.rulesets = await api("GET", "/rulesets");
  layout();
  await loadConflicts(pathConflict);
}

// The tables this browser keeps a link to (each table's link in a cookie of its own: a GM
// running two tables, a player invited to both), for going from one to the other (null: the
// server did not answer).
async function keptTables() {
  try {
    return await api("GET", "/session");
  } catch {
    return null;
  }
}

// The header's links to the other tables, and those whose turns this page tells of.
function showOtherTables(tables) {
  if (!tables) return;
  state.otherTables = tables.filter((t) => t.table !== tableId && t.role !== "public");
  document.getElementById("tables").replaceChildren(otherTables(tables));
}

// The other tables' links, by their names and the role held there ("" when there is none).
function otherTables(tables) {
  const others = tables.filter((t) => t.table !== tableId);
  if (!others.length) return "";
  const as = (t) => (t.role === "gm" ? "GM" : t.role === "player" ? t.player : "onlooker");
  return h("span", {}, "Your other tables: ", ...others.flatMap((t, i) => [i ? ", " : "",
    h("a", { href: `/table/${encodeURIComponent(t.table)}` }, t.title), ` (${as(t)})`]));
}

// The screen's kind, for the style sheet: the GM's, a player's or the public's (a shared screen,
// such as a TV at the table: its type is sized on the root, which every rem follows).
function markScreen(role) {
  document.body.classList.add(role === "gm" ? "gm" : role === "public" ? "public" : "player");
  document.documentElement.classList.toggle("public", role === "public");
}

// The parts of a page, named by their headings, in a bar that stays at the top of the screen:
// a tap scrolls to the part and puts the focus on its heading. What the browser scrolls into
// view (Tab, a jump) stops below the bar, never behind it. A player's page has it always (a
// phone); the GM's only while its parts stand one below the other (a phone: the style sheet
// hides it beside the columns, and its height is then none).
function jumpBar() {
  const nav = h("nav", { class: "jump", "aria-label": "Parts of the page" }, h("ul", { class: "plain" }));
  main.before(nav);
  new ResizeObserver(() => {
    document.documentElement.style.scrollPaddingTop = `${Math.ceil(nav.getBoundingClientRect().height)}px`;
  }).observe(nav);
  return nav;
}

// The bar's buttons, one for each part of the page with a heading (drawn anew only when one's
// heading changes: the focus stays on a button while the table moves on).
function renderJumps() {
  if (!regions.jump) return;
  const parts = [...main.children]  // in the page's order
    .map((region) => [region, region.querySelector(".panel > h2")]).filter(([, heading]) => heading);
  const key = parts.map(([, heading]) => heading.textContent).join("|");
  if (key === regions.jump.dataset.parts) return;
  regions.jump.dataset.parts = key;
  redraw(regions.jump.firstChild, () => parts.map(([region, heading]) => h("li", {},
    h("button", { type: "button", class: "cancel", "data-focus": `jump-${heading.textContent}`,
      onclick: () => jumpTo(region) }, heading.textContent))));
}

function jumpTo(region) {
  const heading = region.querySelector(".panel > h2");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

function layout() {
  regions.table = h("div", { class: "region table-region" });
  regions.round = h("div", { class: "region round-region" });
  regions.field = h("div", { class: "region field-region" });
  regions.log = h("div", { class: "region log-region" });
  // a player's page is one column (a phone): their characters' controls, then what just
  // happened, then the field; each part one tap away from anywhere on it (jumpBar), as on a
  // GM's phone
  const player = state.me.role === "player";
  main.replaceChildren(...(player ? [regions.round, regions.log, regions.field, regions.table]
    : [regions.round, regions.field, regions.log, regions.table]));
  if (state.me.role !== "public") regions.jump = jumpBar();
  main.className = "grid";
  main.addEventListener("input", () => showError(null));  // the user is putting it right
}

async function loadConflicts(wanted) {
  state.conflicts = await api("GET", `/tables/${tableId}/conflicts`);
  setInterval(refreshConflicts, TIMING.conflictsMs);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshConflicts(); });
  const chosen = state.conflicts.find((c) => c.id === wanted) || newestOf(state.conflicts);
  renderTable();
  if (chosen) return openConflict(chosen.id);
  setConnection("idle", "no conflict yet");  // nothing to connect to: not "connecting…" forever
  regions.round.replaceChildren(panel("Round", h("p", {}, state.me.role === "gm"
    ? "No conflict yet: create one below." : "No conflict yet: wait for your GM.")));
}

// The table's conflicts, asked again now and then (a GM starts the next scene, from this page,
// another or the terminal) and on each reconnection: one request however many there are. A
// new one is listed, and the foot of the screen offers to open it; so is a player's turn in
// another conflict of the table (the GM runs two at once), as the list says it from the
// player's own view of each (`your_turn`): tagged **your turn** in the list, and offered
// (with the sound of a turn) as it comes; and, to the GM, another conflict that waits on a
// character no player plays (`gm_turn`, an NPC's go): **waits for you**, with no sound.
async function refreshConflicts() {
  // (never on a shared screen: a TV showing the table tells no one's turns elsewhere)
  if (state.me.role !== "public") tellOtherTables();
  const fresh = await listConflicts();
  const turns = turnsCome();
  const said = state.conflicts.filter((c) => fresh.has(c.id) || turns.has(c.id));
  if (!said.length) return;
  // one notice for all: several started since (the server's times are to the second: which
  // came last may not be told), or a player's turn in some, each with a button of its own
  const open = (c, text) => h("button", { type: "button",
    onclick: () => { state.focusRound = true; openConflict(c.id, true); } }, text);
  const gm = state.me.role === "gm";
  const turn = (c) => (turns.has(c.id) ? ` (${turnWords()})` : "");
  const twice = twiceTitled();
  const name = (c) => (twice.has(c.title) ? `${c.title} · ${c.id}` : c.title);
  const one = said[0];
  const text = said.length === 1 ? (!fresh.has(one.id) ? (gm ? `${one.title} waits for you` : `Your turn in ${one.title}`)
    : `New conflict: ${one.title}${turns.has(one.id) ? (gm ? " — it waits for you" : " — your turn in it") : ""}`)
    : said.every((c) => fresh.has(c.id)) ? "New conflicts:"
      : said.every((c) => turns.has(c.id)) ? (gm ? "Waiting for you:" : "Your turn in:")
        : gm ? "New conflicts, or waiting for you:" : "New conflicts, or your turn:";
  // several: the buttons go under the words, which keep their width (a phone's foot is narrow)
  document.getElementById("notice").replaceChildren(h("p", { class: said.length === 1 ? "done" : "done several" },
    h("span", {}, text), h("span", { class: "buttons" }, said.length === 1 ? open(one, "Open it")
      : said.map((c) => open(c, `Open ${name(c)}${turn(c)}`)), dismissButton())));
  if (turns.size && !gm && soundOn()) signal();  // (the GM's screen makes no sound)
}

// The browser's other tables (a GM running two at once, a player invited to both), asked with
// this table's: a turn of the viewer's there as it comes (a player's character acts; the GM's,
// a character no player plays: the table waits on the GM) is said at the foot of the screen,
// with a link to it; a player hears the turn's sound.
async function tellOtherTables() {
  showOtherTables(await keptTables());  // one opened in another tab since
  const now = new Set();
  const come = [];
  for (const t of state.otherTables) {
    let list;
    try {
      list = await api("GET", `/tables/${encodeURIComponent(t.table)}/conflicts`);
    } catch {
      continue;  // revoked since, or the server out of reach (the connection line says it)
    }
    for (const c of list.filter((c) => c.your_turn || c.gm_turn)) {
      const key = `${t.table}/${c.id}`;
      now.add(key);
      if (!state.awayTurns.has(key)) come.push([t, c]);
    }
  }
  state.awayTurns = now;
  if (!come.length) return;
  const gm = (t) => t.role === "gm";
  const open = ([t, c]) => h("a", { class: "button", href: `/table/${encodeURIComponent(t.table)}/${encodeURIComponent(c.id)}` },
    come.length === 1 ? "Open it" : `Open ${c.title} (${t.title})`);
  const [t, c] = come[0];
  const text = come.length > 1 ? "At your other tables, your turn in:"
    : gm(t) ? `${t.title} waits for you: ${c.title}` : `Your turn at ${t.title}: ${c.title}`;
  document.getElementById("notice").replaceChildren(h("p", { class: come.length === 1 ? "done" : "done several" },
    h("span", {}, text), h("span", { class: "buttons" }, ...come.map(open), dismissButton())));
  if (come.some(([table]) => !gm(table)) && soundOn()) signal();
}

// The table's conflicts asked again; answers the ids of those new since.
async function listConflicts() {
  let now;
  try {
    now = await api("GET", `/tables/${tableId}/conflicts`);
  } catch {
    return new Set();  // the connection line already tells of a server out of reach
  }
  const known = new Set(state.conflicts.map((c) => c.id));
  const fresh = now.filter((c) => !known.has(c.id) && c.id !== state.conflictId);
  // anything of an entry may have changed: whether it is behind the screen, when it was
  // last played (the GM's), how it stands (ended, a player's turn in it)
  const before = new Map(state.conflicts.map((c) => [c.id, JSON.stringify(c)]));
  const same = now.length === state.conflicts.length && now.every((c) => before.get(c.id) === JSON.stringify(c));
  if (same) return new Set();
  state.conflicts = now;
  renderConflicts();
  renderHide();
  return new Set(fresh.map((c) => c.id));
}

// The other conflicts that wait on the viewer now, by the table's list (a player: where a
// character of theirs acts; the GM: where a character no player plays acts); answers those
// that have just come (the open one is never news: its own banner or title says it).
function turnsCome() {
  const now = new Set(state.conflicts.filter((c) => waitsOnMe(c) && c.id !== state.conflictId).map((c) => c.id));
  const come = new Set([...now].filter((id) => !state.elsewhere.has(id)));
  state.elsewhere = now;
  return come;
}

// Whether a conflict of the list waits on the viewer: a player's character acts in it, or (the
// GM) one no player plays; and how the list and the foot of the screen say it.
function waitsOnMe(c) {
  return Boolean(c.your_turn || c.gm_turn);
}

function turnWords() {
  return state.me.role === "gm" ? "waits for you" : "your turn";
}

function newestOf(conflicts) {
  return [...conflicts].sort((a, b) => String(a.created).localeCompare(String(b.created))).at(-1);
}

function dismissNotice() {
  document.getElementById("notice").replaceChildren();
}

function dismissButton() {
  return h("button", { type: "button", class: "small dismiss", "aria-label": "Dismiss this message",
    onclick: dismissNotice }, "✕");
}

// Open a conflict; `step`: a place of its own in the browser's history (a conflict the user
// chose: Back returns to the one before), else the page's own place is taken (opening the
// page, Back and Forward themselves).
function openConflict(id, step = false) {
  if (state.live) state.live.stop();
  dismissNotice();  // what a command did in the conflict left behind is no news in this one
  state.conflictId = id;
  state.cursor = null;
  state.closed = null;
  state.legalKey = "";
  state.roundHead = null;
  state.view = null;
  state.log = [];
  state.logList = null;  // the log's panel is made anew for this conflict
  const path = `/table/${tableId}/${id}`;
  if (step && location.pathname !== path) history.pushState(null, "", path);
  else history.replaceState(null, "", path);
  // the conflict left behind goes at once: its controls would send to this one
  regions.round.replaceChildren(panel("Round", h("p", {}, "Opening the conflict…")));
  regions.field.replaceChildren();
  regions.log.replaceChildren();
  renderTable();
  setConnection("", "connecting…");
  state.live = new Live(`/api/tables/${tableId}/conflicts/${id}/live`, {
    onFrame: receive,
    onStatus: (kind, text, code) => {
      setConnection(kind, text);
      if (kind === "live") {
        if (errorBox.dataset.about === "connection") showError(null);
        refreshConflicts();
        askAgain();  // a command without an answer learns whether it went through
        askUnanswered(id);  // (those of a page reloaded before their answer came)
      }
      // closed as a conflict that does not exist, once seen: the GM took it back
      if (kind === "closed") return code === 4404 && state.view ? takenBack() : shut(text);
    },
  });
  state.live.start();
}

// A link revoked (or a conflict closed to this page) is told at once: its commands go, rather
// than stay live until a send fails.
function shut(text) {
  state.closed = text;
  state.legalKey = "";
  if (state.controls) state.controls.replaceChildren(h("p", { class: "muted" }, `No commands: ${text}.`));
  if (state.view) announce(turnOf(state.view, levels().at(-1)), context(), levels().at(-1));  // no "Your turn"
}

// The GM took the open conflict back behind the screen (its socket closed as for a conflict
// that does not exist): the page says so plainly in its place, keeps nothing of it (the GM
// chose that the players do not see it now) and lists it no more; shown again, it is offered
// at the foot of the screen as a new conflict.
function takenBack() {
  const title = (levels()[0] || {}).title;
  state.live.stop();
  Object.assign(state, { live: null, conflictId: null, view: null, log: [], logList: null,
                         roundHead: null, cursor: null, legalKey: "", closed: null, myTurn: null });
  history.replaceState(null, "", `/table/${tableId}`);
  dismissNotice();
  showError(null);
  banner.hidden = true;
  document.title = tabTitle();
  setConnection("idle", "taken back by the GM");
  regions.round.replaceChildren(panel("Round", h("p", { class: "warning", role: "status" },
    `The GM has taken ${title ? `“${title}”` : "this conflict"} back behind the screen: you cannot `
    + "see it for now. If the GM shows it again, the foot of the screen offers it.")));
  regions.field.replaceChildren();
  regions.log.replaceChildren();
  renderTable();
  refreshConflicts();
}

function receive(frame) {
  // (a conflict taken back while this page reconnected: its close that follows says so)
  if (frame.type === "error" && frame.error.code === "not_found" && state.view) return;
  if (frame.type === "error") return showError(frame.error, "connection");
  if (frame.type === "pong") return;
  state.moment++;  // the table moved on: odds asked of the moment before are of no use now
  if (frame.cursor) state.cursor = frame.cursor;
  for (const asked of oddsAsked) asked.abort();
  if (frame.type === "snapshot") state.log = frame.entries || [];
  else {
    state.log = state.log.concat(frame.entries || []);
    tellOthers(frame.entries || []);
    doneMovesOn(frame.entries || []);
    refusalMovesOn(frame.entries || []);
  }
  const first = !state.view;
  if (frame.view) state.view = frame.view;
  if (first) renderTable();
  render();
}

// What just happened, for a screen reader (a hidden polite region: the log itself is drawn
// anew on every frame, so it cannot announce itself), each line a sentence of its own: read
// out run together, "… — misses Bruno is done round 1 ends" left the listener to guess.
function tell(lines) {
  const sentence = (line) => (/[.!?…]$/.test(line) ? line : `${line}.`);
  if (lines.length) document.getElementById("log-live").textContent = lines.map(sentence).join(" ").replaceAll("**", "");
}

// The new entries of others, for a screen reader: this page's own command is said by its
// "Done: …" (its outcome with it), not twice. While a command of this page is on its way, what
// comes is held until its answer says which entry is its own.
const ownEntries = new Set();  // the conflict and log key of each entry of this page's commands
let heldEntries = [];
function tellOthers(entries) {
  if (state.sending) {
    heldEntries.push(...entries);
    return;
  }
  tell(entries.filter((e) => !ownEntries.has(ownKey(state.conflictId, e))).flatMap((e) => e.lines || []));
}

function ownKey(conflict, entry) {
  return `${conflict}|${state.me.role === "gm" ? entry.version : entry.entry}`;
}

// --- context for names -----------------------------------------------------------------
function levels() {
  return state.view ? [state.view.conflict, ...(state.view.zoom || [])] : [];
}

// Whether the conflict (its outermost level) has ended.
function ended() {
  return (levels()[0] || {}).status === "ended";
}

function context() {
  const all = levels().flatMap((l) => l.participants);
  const byId = new Map(all.map((p) => [p.id, p]));
  const inner = levels().at(-1);
  const zones = inner ? zonesOf(inner) : [];
  const zoneNames = new Map(zones.map((z) => [z.id, z.name || z.id]));
  const objects = (inner && inner.ruleset && inner.ruleset.objects) || {};
  // no view while another conflict opens: an answer arriving then names by ids alone
  const rules = (state.rulesets || []).find((r) => r.name === (state.view || {}).ruleset) || {};
  // what a form keeps is a level's own: a zoom-in's first declaration is not the one chosen
  // in its parent's round, nor the parent's next one the zoom's
  const level = inner && inner.depth ? `${state.conflictId}>${inner.depth}` : state.conflictId;
  return { conflict: level, participants: inner ? inner.participants : [], zones,
           // once the conflict has ended, only notes, narration, rolls, overrides and undo
           // work: the controls of anything else (the map, Expire, Act for) are not drawn
           ended: ended(),
           ladders: rules.ladders || {},
           // what the game calls a round and a turn (VERS: a turn and a go)
           words: rules.words || { round: "round", turn: "turn" },
           // a participant's, an object's or (for a zone parameter) a zone's name; else the id
           name: (id, kind) => (kind === "zone" ? zoneNames.get(id) || id
             : byId.has(id) ? byId.get(id).name : (objects[id] || {}).name || id),
           // the actor's own skills; for a verb whose skill the rules narrow (VERS repair:
           // the repair skill, or a background or special one), those that fit, its own first
           skillsOf: (id, verb) => fitting(Object.keys(((byId.get(id) || {}).stats || {}).skills || {}),
             rules.skills, verb),
           // a GM's command from the field's own controls (the map, "act now"): a form's way
           send: state.me.role === "gm" ? (text, form = null) => submit(text, form) : null,
           choose: state.me.role === "gm" ? choose : null,
           // a control that cannot send yet says why ("choose a character to move first")
           refuse: (text) => showError(text) };
}

// The skills of `own` that fit `verb`'s skill (`skills`: the ruleset's standard skills and
// fits, from /api/rulesets): every one where the ruleset says nothing of the verb.
function fitting(own, skills, verb) {
  const fits = ((skills || {}).fits || {})[verb];
  if (!fits) return own;
  const standard = new Set(skills.standard || []);
  return [...new Set([...fits.skills, ...own.filter((k) => fits.skills.includes(k) || (fits.special && !standard.has(k)))])];
}

// A choice in a list that sends a command (a harm view, a range): picked with the pointer, it
// is sent at once; with the keyboard, a moment after the last change, so that stepping
// through the list with the arrow keys sends one command. A choice still waiting goes before
// any other command (a harm view chosen, then the harm: in that order).
const choices = new Map();  // key → [timer, command]
let byKeyboard = false;
document.addEventListener("keydown", () => { byKeyboard = true; }, true);
document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);

function choose(key, text) {
  clearTimeout((choices.get(key) || [])[0]);
  choices.set(key, [setTimeout(() => flushChoices(), byKeyboard ? 700 : 0), text]);
}

let flushing = Promise.resolve();
function flushChoices() {  // one after another: a choice being sent is waited for too
  flushing = flushing.then(async () => {
    const waiting = [...choices.values()];
    choices.clear();
    for (const [timer, text] of waiting) {
      clearTimeout(timer);
      const sent = await post("/commands", { command: text });
      if (sent) showDone(text, sent);
    }
  });
  return flushing;
}

// --- rendering -------------------------------------------------------------------------
function render() {
  if (!state.view) return;
  const ctx = context();
  const level = levels().at(-1);
  const turn = turnOf(state.view, level);
  document.body.dataset.ruleset = state.view.ruleset;  // the style sheet lays out a TV by it
  renderField(level, turn, ctx);
  renderLog();
  renderRound(level, turn, ctx);
  announce(turn, ctx, level);
  followInList();
  renderJumps();
}

// The open conflict's entry of the list follows its view at once: ended (or run again by an
// undo of the end), it moves between the running ones and the ended ones without waiting for
// the next look at the table.
function followInList() {
  const entry = openConflictInfo();
  const top = levels()[0];
  if (!entry.id || !top) return;
  const now = { status: top.status, end_reason: top.end_reason, outcome: top.outcome };
  if (Object.entries(now).every(([key, value]) => entry[key] === value)) return;
  Object.assign(entry, now);
  renderConflicts();
}

function renderField(level, turn, ctx) {
  const now = new Set(turn.current);
  const parents = levels().slice(0, -1);
  const own = rulesetPanels(state.view, level, ctx);
  redraw(regions.field, () => [
    effectsPanel(levels(), ctx),
    parents.length ? nested(parents, level, own, ctx) : own,
    state.me.role === "gm" ? harmPanel(levels()[0], ctx) : null,
    panel("Participants", h("ul", { class: "people" }, level.participants.map((p) =>
      h("li", { class: ["person", now.has(p.id) ? "acting" : "", p.mine ? "mine" : "", p.out ? "out" : ""].join(" ").trim() },
        h("span", { class: "name" }, p.name), p.mine ? h("span", { class: "tag" }, "yours") : null,
        p.concealed ? h("span", { class: "tag secret" }, "hidden from players") : null,
        // (Etherscope, the GM's: hidden from some players' characters, ES-RNG-1)
        p.hidden_from?.length ? h("span", { class: "tag secret" }, `hidden from ${p.hidden_from.join(", ")}`) : null,
        now.has(p.id) ? h("span", { class: "tag now" }, "acting") : null,
        h("span", { class: "role" }, [p.side, p.kind].filter(Boolean).join(" · ")),
        h("span", { class: "summary" }, outWords(p) || p.summary || ""), sheetOf(p))))),
  ].flat());
}

// A zoomed-in conflict drawn inside its parents: each level a box with its title and round
// count (the zoom's title says it is zoomed in), the innermost holding its own panels, each
// parent below it what it keeps in view of itself (parentPanels: its ranges, who waits there).
function nested(parents, level, inner, ctx) {
  const label = (l) => [l.title, progressOf(state.view, l, ctx.words)].filter(Boolean).join(" · ");
  // under each zoom's title, who opened it and why: the levels of a chain tell apart
  const head = (l) => [h("h2", { class: "zoom-title" }, label(l)),
    zoomOrigin(l, ctx) ? h("p", { class: "zoom-origin" }, zoomOrigin(l, ctx)) : null];
  let box = h("section", { class: "zoom-level innermost", "aria-label": label(level) },
    head(level), inner);
  let child = level;
  for (const parent of [...parents].reverse()) {
    box = h("section", { class: "zoom-level", "aria-label": `parent conflict: ${label(parent)}` },
      head(parent), box, parentPanels(state.view, parent, child, ctx));
    child = parent;
  }
  return box;
}

// What the players see of each side's harm: the GM's choice, kept in the conflict's settings
// (`override settings.harm_view.SIDE MODE`); the server enforces it in what it sends. A side
// the setting does not name (every side of a conflict made before harm views) is exact.
const HARM_MODES = { exact: "exact values", band: "a band only", none: "nothing" };

function harmPanel(level, ctx) {
  const given = (level.settings || {}).harm_view || {};
  const modes = Object.fromEntries((level.sides || []).map((side) => [side, given[side] || "exact"]));
  if (!Object.keys(modes).length) return null;
  return panel("What players see of harm", Object.entries(modes).map(([side, mode]) => {
    const id = `harm-view-${side}`;
    return h("p", { class: "field" }, h("label", { for: id }, `Harm of ${side}`),
      h("select", { id, onchange: (e) => ctx.choose(id, `override settings.harm_view.${side} ${e.target.value}`) },
        Object.entries(HARM_MODES).map(([value, text]) => h("option", { value, selected: value === mode }, text))));
  }));
}

// The log, newest first: its panel made once per conflict, each entry's item once (again only
// when a snapshot sends it anew or an undo or redo takes it back or brings it): a frame adds
// its entries at the top, so a long log costs a frame no more than a short one, and whoever
// reads further down keeps their place.
const logItems = new Map();  // the log key → [entry, undone, item]
function renderLog() {
  const gm = state.me.role === "gm";
  const undone = undoneOf(state.log, gm);
  followUndo(undone);
  if (!state.logList) {
    logItems.clear();
    state.logList = h("ol", { class: "log", "aria-label": "log, newest first" });
    regions.log.replaceChildren(panel("Log",
      gm ? h("p", { class: "buttons" },
        h("button", { type: "button", id: "undo", onclick: () => submit("undo", null, "", "/undo") }, "Undo"),
        h("button", { type: "button", id: "redo", onclick: () => submit("redo", null, "", "/redo") }, "Redo")) : null,
      state.logList));
  }
  const items = [];
  for (let i = state.log.length - 1; i >= 0; i--) {
    const entry = state.log[i];
    const key = gm ? entry.version : entry.entry;
    const taken = undone.has(key);
    const made = logItems.get(key);
    if (made && made[0] === entry && made[1] === taken) {
      items.push(made[2]);
    } else {
      const item = logEntry(entry, gm, undone);
      logItems.set(key, [entry, taken, item]);
      items.push(item);
    }
  }
  const list = state.logList;
  const shown = list.children;
  const added = items.length - shown.length;  // the usual frame: new entries on top, the rest kept
  if (added >= 0 && items.slice(added).every((item, i) => shown[i] === item)) {
    list.prepend(...items.slice(0, added));
  } else {
    list.replaceChildren(...items);
    if (logItems.size > items.length * 2) {  // entries a snapshot replaced: forget them
      const keep = new Set(items);
      for (const [key, made] of logItems) if (!keep.has(made[2])) logItems.delete(key);
    }
  }
}

async function renderRound(level, turn, ctx) {
  const gm = state.me.role === "gm";
  const over = level.status === "ended";
  const head = [
    h("p", { class: "status" }, [level.title, progressOf(state.view, level, ctx.words), words(level.status)]
      .filter(Boolean).join(" · "),
      level.end_reason ? ` (${[level.end_reason, level.outcome].filter(Boolean).join(" — ")})` : ""),
    zoomOrigin(level, ctx) ? h("p", { class: "zoom-origin" }, zoomOrigin(level, ctx)) : null,
    // once ended, nobody acts or is still to: the status line says how it ended
    over ? null : h("p", {}, h("b", {}, `${turn.acting || "Acting"}: `), turn.current.map(ctx.name).join(", ") || turn.nobody || "nobody", turn.line ? ` · ${turn.line}` : ""),
    turn.acting || over || turn.noWaiting ? null : h("p", {}, h("b", {}, "Still to act: "), turn.waiting.map(ctx.name).join(", ") || "nobody"),
    (level.odds || []).length ? oddsBox(level.odds) : null,
    gm && openConflictInfo().shown === false ? h("p", { class: "warning" }, "Behind the screen: the "
      + "players do not see this conflict until you show it to them (in the list of conflicts).") : null,
  ];
  if (!state.roundHead) {
    state.roundHead = h("div", {});
    state.controls = h("div", { class: "controls" });
    regions.round.replaceChildren(panel(capitalized(ctx.words.round), state.roundHead, state.controls));
    if (state.focusRound) {  // opened from the notice, whose button is gone: the focus goes here
      state.focusRound = false;
      const heading = regions.round.querySelector("h2");
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
  }
  redraw(state.roundHead, () => head);
  const moment = state.moment;
  const seq = (state.seq = (state.seq || 0) + 1);
  let legal;
  try {
    legal = await legalCommands(turn, ctx, gm);
  } catch (error) {
    if (seq !== state.seq || state.closed) return null;  // a newer look has the last word
    return unanswered(error) ? controlsAwait(seq) : showError(error);
  }
  if (seq !== state.seq || state.closed) return;
  state.controlsRetry = 0;
  const key = JSON.stringify([legal, state.actFor, ctx.ended, ctx.participants.map((p) => [p.id, p.name])]);
  state.drawn = moment;  // the controls in view are those of this moment (kept or drawn anew)
  if (key === state.legalKey) return oddsAgain();  // kept: their odds are of the moment before
  state.legalKey = key;
  oddsShown.clear();  // the forms drawn anew ask their own
  const watching = state.me.role === "player" && !ctx.participants.some((p) => p.mine)
    ? h("p", { class: "muted" }, watchingWords()) : null;
  redraw(state.controls, () => [...(gm ? [ctx.ended ? null : actForChooser(ctx, turn)].flat() : [watching]), ...Object.entries(legal).map(([actor, items]) => {
    const commands = normalize(items);
    const title = actor === "gm" ? "GM commands" : `${ctx.name(actor)}`;
    return h("section", { class: "actor", "data-actor": actor }, h("h3", { tabindex: -1 }, title),
      gm ? null : ownState(ctx.participants.find((p) => p.id === actor)),
      commands.length ? commands.map((c) => commandForm(c, { ...ctx, group: actor }, { onSubmit: submit, onChange: oddsFor }))
        : h("p", {}, "nothing to do now"), commandLine(actor, ctx));
  }), gm ? (state.behind ||= behindTheScreen()) : null]);  // built once: what is typed stays
}

// Whether a request went unanswered for now (no answer at all: a server process killed in the
// middle of it, the server restarting; or the server could not answer: its database out of
// reach, too many requests), rather than refused.
function unanswered(error) {
  return error instanceof TypeError
    || (error instanceof ApiError && (error.status >= 500 || error.status === 429));
}

// The controls of the table as it is could not be asked for (unanswered): those of the moment
// before would offer what may no longer be done (and leave out what now may), so they go; the
// page says so where they stood, and asks again by itself (sooner once the socket is live
// again: its frame draws them), 1, 2, 4… then every 10 seconds. Nothing the user sent is
// concerned: the foot of the screen is left to their commands.
function controlsAwait(seq) {
  state.legalKey = "";
  redraw(state.controls, () => [h("p", { class: "muted", role: "status" }, "Bringing the controls "
    + "up to date: the server did not answer just now. The page asks again by itself.")]);
  const wait = Math.min(1000 * 2 ** state.controlsRetry, 10000);
  state.controlsRetry += 1;
  setTimeout(() => { if (seq === state.seq && !state.closed && state.view) render(); }, wait);
}

// Where a player's character stands, under its controls (as its card in the field says it):
// "wounded (−1 to rolls)", "HP 32/40 · MP 30/30", "out: unconscious".
function ownState(p) {
  const said = p && (outWords(p) || p.summary || p.harm);
  return said ? h("p", { class: "own-state muted" }, said) : null;
}

// What a player with no character in the conflict in view reads: a zoomed-in conflict their
// characters take no part in is watched until play returns to the one they are in (ES-ACT-1).
function watchingWords() {
  const all = levels();
  const back = all.slice(0, -1).reverse().find((l) => l.participants.some((p) => p.mine));
  if (!back) return "You have no character in this conflict: you are watching.";
  const mine = back.participants.filter((p) => p.mine).map((p) => p.name);
  const are = mine.length > 1 ? "are" : "is";
  return `${mine.join(", ")} ${are} not in this zoomed-in conflict: you are watching it until `
    + `play returns to ${back.title}.`;
}

// The odds of the pending roll: open while they are few; a long list (a VERS fighter with
// three weapons and six targets) folds to its title on a phone until opened, and stays as
// the reader left it while the table moves on.
const FEW_ODDS = 4;
function oddsBox(lines) {
  const open = state.oddsOpen ?? lines.length <= FEW_ODDS;
  const box = h("details", { class: "odds-box", open },
    h("summary", { "data-focus": "odds", onclick: () => { state.oddsOpen = !box.open; } },  // the reader's choice
      h("h3", {}, "Odds of the pending roll"), lines.length > FEW_ODDS ? ` (${lines.length} lines)` : ""),
    h("ul", {}, lines.map((line) => h("li", {}, line))));
  return box;
}

// A command typed in the text notation (docs/scenarios.md): what the rules allow but the list
// does not offer yet, or any value the GM overrides. The server decides it like any other.
// One field per actor of a conflict, made once and moved into each redraw: what is being
// typed (and where the caret is) survives whatever happens at the table meanwhile, and stays
// with its conflict (another conflict's Ada has a field of her own).
const lines = new Map();

// The GM's example in the empty field: an override this ruleset takes, on the first character.
function overrideExample() {
  const rules = (state.rulesets || []).find((r) => r.name === (state.view || {}).ruleset) || {};
  const path = (rules.override_paths || [])[0];
  const first = (((state.view || {}).conflict || {}).participants || [])[0];
  return path && first ? `override ${path.replace("ID", first.id)} …` : "override PATH VALUE";
}

function commandLine(actor, ctx) {
  const label = actor === "gm" ? "Any command (text notation)"
    : `Another command for ${ctx.name(actor)} (text notation)`;
  const placeholder = actor === "gm" ? overrideExample() : `${actor}: …`;
  const made = lines.get(`${state.conflictId}|${actor}`);
  if (made) {
    made.querySelector("label").textContent = label;
    made.querySelector("input").placeholder = placeholder;
    return made;
  }
  const id = `line-${actor}`;
  const key = `${state.conflictId}|${actor}|line`;  // what is typed in it outlasts a reload
  const input = h("input", { id, name: "command", class: "line", maxlength: 4000, required: true,
    placeholder, value: kept.get(key) || null, "data-kept": key,
    oninput: () => {
      if (input.value) kept.set(key, input.value); else kept.delete(key);
      oddsFor(() => fullText(actor, input.value.trim()), output);
    } });
  const output = h("output", { class: "odds", "aria-live": "polite", for: id });
  const form = h("form", { class: "command command-line", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    submit(fullText(actor, text), form).then((ok) => {
      if (ok && input.value.trim() === text) {
        input.value = "";
        kept.delete(key);
      }
    });
  } }, h("p", { class: "field" }, h("label", { for: id }, label), input),
  h("button", { type: "submit" }, "Send"), output);
  lines.set(`${state.conflictId}|${actor}`, form);
  return form;
}

// Replace ``box``'s children by what ``build()`` makes, keeping the focus where the user had it:
// in a field it moves along, with its caret (moving a field out of the page, even for a
// moment, takes its focus); else on the new control of the same name (its id or data-focus:
// a command's field built anew as the table moves on, with the caret where it was),
// else on the heading of the actor's group it was in, else on the heading of the panel it was
// in (an effect expired: its button is gone), else (that character acts no more) on the
// first actor's heading or the heading of the box's panel, never lost to the page's body.
function redraw(box, build) {
  const active = box.contains(document.activeElement) ? document.activeElement : null;
  const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  const name = active && (active.dataset.focus ? `[data-focus="${CSS.escape(active.dataset.focus)}"]`
    : active.id ? `#${CSS.escape(active.id)}` : null);
  const group = active && active.closest("[data-actor]");
  const actor = group && `[data-actor="${CSS.escape(group.dataset.actor)}"] h3`;
  const section = active && active.closest("section.panel[aria-labelledby]");
  const heading = section && `#${CSS.escape(section.getAttribute("aria-labelledby"))}`;
  box.replaceChildren(...build().filter(Boolean));
  if (!active || active === document.activeElement) return;
  if (active.isConnected) {
    active.focus();
    if (caret && caret[0] !== null) active.setSelectionRange(caret[0], caret[1]);
    return;
  }
  const next = (name && box.querySelector(name)) || (actor && box.querySelector(actor))
    || (heading && box.querySelector(heading)) || box.querySelector("[data-actor] h3") || (box.closest(".panel") || box).querySelector("h2, h3");
  if (!next) return;
  if (next.tabIndex < 0 && !next.hasAttribute("tabindex")) next.setAttribute("tabindex", "-1");
  next.focus();
  if (caret && caret[0] !== null && next.matches(name) && typeof next.setSelectionRange === "function") {
    try {
      next.setSelectionRange(caret[0], caret[1]);
    } catch {
      // a number field has no caret to set
    }
  }
}

// What a player typed in their character's field, as sent: with the character before it,
// unless it names one itself ("bruno: done": the server says whom she plays, in the same words
// for any id) or is one of the GM's own verbs ("undo": the server says it is the GM's).
function fullText(actor, text) {
  const [head] = text.split(/\s/);
  if (actor === "gm" || head.includes(":")) return text;
  const rules = (state.rulesets || []).find((r) => r.name === (state.view || {}).ruleset) || {};
  return (rules.gm_verbs || []).includes(head.toLowerCase()) ? text : `${actor}: ${text}`;
}

// A roll the players never see the dice of: wholly unseen (no frame reaches them), or as a
// "ghost" they see happen (a public line that the GM rolled, without the dice or the reason).
// Its reason is cleared once the roll is made (the dice stay, to roll them again).
function behindTheScreen() {
  const expr = h("input", { id: "secret-roll", required: true, maxlength: 200, value: "1d20" });
  const why = h("input", { id: "secret-why", maxlength: 200 });
  const how = h("select", { id: "secret-how" }, h("option", { value: "unseen" }, "wholly unseen"),
    h("option", { value: "ghost" }, "players see that the GM rolled"));
  return h("section", { class: "actor behind" }, h("h3", {}, "Behind the screen"),
    h("form", { class: "command", onsubmit: async (e) => {
      e.preventDefault();
      const reason = why.value.trim() ? ` why=${quote(why.value.trim())}` : "";
      const roll = `roll ${quote(expr.value.trim())}${reason} visibility=gm`;
      if (!(await submit(roll, e.target))) return;
      why.value = "";  // once rolled, as a form's words once accepted: the next roll's own
      if (how.value !== "ghost") return;
      const notice = document.getElementById("notice");
      const result = [...notice.childNodes];  // the roll's result stays in view
      if (await send("/commands", { command: "narrate 'a roll behind the screen'" })) {
        notice.replaceChildren(...result);
      }
    } },
    h("p", { class: "field" }, h("label", { for: "secret-roll" }, "Dice"), expr),
    h("p", { class: "field" }, h("label", { for: "secret-why" }, "Why (GM only)"), why),
    h("p", { class: "field" }, h("label", { for: "secret-how" }, "Players"), how),
    h("button", { type: "submit" }, "Roll behind the screen")));
}

// The characters the GM may act for: those in play, then those out of the conflict (taken
// out, gone), who may still take notes, narrate and roll (the engine's out-of-play verbs)
// and nothing else, apart under a heading that says so.
function actForChooser(ctx, turn) {
  const option = (p) => h("option", { value: p.id, selected: state.actFor === p.id }, p.name);
  const out = ctx.participants.filter((p) => p.out || p.present === false);
  const select = h("select", { id: "act-for", onchange: (e) => { state.actFor = e.target.value; render(); } },
    h("option", { value: "" }, "the one acting now"),
    ctx.participants.filter((p) => !out.includes(p)).map(option),
    out.length ? h("optgroup", { label: "out of the conflict (notes, narration, rolls only)" }, out.map(option)) : null);
  const field = h("p", { class: "field" }, h("label", { for: "act-for" }, "Act for"), select);
  // a step that no one is asked for (an Etherscope ambush) is taken for a character chosen here
  return turn.hint && !state.actFor ? [field, h("p", { class: "muted", id: "act-for-hint" }, turn.hint)] : field;
}

async function legalCommands(turn, ctx, gm) {
  const base = `/tables/${tableId}/conflicts/${state.conflictId}/legal-commands`;
  if (state.me.role === "public") return {};  // an onlooker never acts
  if (!gm) return api("GET", base);
  // a character chosen under Act for who is not in this conflict (the GM went into a zoom-in
  // without it) is chosen no more: the one acting now is acted for
  if (state.actFor && !ctx.participants.some((p) => p.id === state.actFor)) state.actFor = "";
  // once ended, nobody is acted for (the choice comes back with an undo of the end)
  const acting = turn.current.length ? turn.current : turn.waiting.slice(0, 1);
  // with the one acting now, those with a roll due besides (a VERS Discipline roll, VR-INJ-3)
  const actors = ended() ? [] : state.actFor ? [state.actFor] : [...new Set([...acting, ...(turn.alsoDue || [])])];
  // asked all at once, not one after another: with eight heroes on turn, one by one kept the
  // GM's controls nine round trips behind the table
  const [own, ...theirs] = await Promise.all([base, ...actors.map((a) => `${base}?actor=${encodeURIComponent(a)}`)]
    .map((path) => api("GET", path)));
  const out = Object.assign({}, ...theirs);
  // the GM's list also holds commands of characters: those shown in their own group once
  for (const [who, items] of Object.entries(own)) {
    out[who] = items.filter((item) => !actors.includes(actorOf(item)));
  }
  return out;
}

function actorOf(item) {
  if (typeof item !== "string") return item.actor || null;
  const head = /^([a-z0-9_-]+): /.exec(item);
  return head ? head[1] : null;
}

// The odds of what a form would send, asked a moment after its last change (one timer per
// form: every form in view shows its own odds as soon as it is drawn, a folded one once it is
// opened). Only of the table as it is: a form gone from the page asks nothing; while a command
// is on its way, or the controls are not yet those of the newest frame, the asking waits; one
// asked when the table moves on is cancelled and asked again (an answer of a moment gone by
// would be a refusal, in red in the browser's console, or odds no longer true).
const oddsTimers = new WeakMap();
const oddsAsked = new Set();  // the AbortControllers of the odds on their way
const oddsShown = new Map();  // each output of odds in view → how its command is built
function oddsFor(build, output) {
  oddsShown.set(output, build);
  clearTimeout(oddsTimers.get(output));
  oddsTimers.set(output, setTimeout(async () => {
    if (!output.isConnected) return;
    const fold = output.closest("details.command");
    if (fold && !fold.open) return output.replaceChildren();  // asked once opened (legal.js)
    if (state.sending || state.drawn !== state.moment) return oddsFor(build, output);
    const form = output.form || output.closest("form");
    if (!form || !form.checkValidity()) return;
    const command = build();
    const hasActor = typeof command === "string" ? /^[a-z0-9_-]+: /.test(command) : command.actor;
    if (!hasActor) return;
    const asked = new AbortController();
    oddsAsked.add(asked);
    try {
      const answer = await api("POST", `/tables/${tableId}/conflicts/${state.conflictId}/odds`, { command },
        asked.signal);
      showOdds(output, answer.odds);
    } catch {
      if (asked.signal.aborted) oddsFor(build, output);  // the table moved on: ask of it as it is
      else output.replaceChildren();
    } finally {
      oddsAsked.delete(asked);
    }
  }, 250));
}

// The odds in a form's output, a live region: rewritten only when they change, so that a screen
// reader says them as they come and as they change, not again after everyone else's command.
function showOdds(output, lines) {
  const shown = [...output.children].map((line) => line.textContent);
  if (shown.length === lines.length && shown.every((line, i) => line === lines[i])) return;
  output.replaceChildren(...lines.map((line) => h("span", { class: "odds-line" }, line)));
}

// The table moved on and the controls stayed (what may be done is the same): the odds they
// show are asked again, of the table as it is now (a supporter's new armour changes the
// initiative's chance though the leader's form is the same).
function oddsAgain() {
  for (const [output, build] of oddsShown) {
    if (output.isConnected) oddsFor(build, output);
    else oddsShown.delete(output);
  }
}

// Send a command from a form (or a button of its own: the map, Undo and Redo, whose path is
// `path`); once done, the foot of the screen says what came of it (the sentences of its log
// entry: on a phone the log is far below the controls).
async function submit(command, form, done = "", path = "/commands") {
  const output = form && form.querySelector("output");
  if (output) {
    clearTimeout(oddsTimers.get(output));  // its odds are of no use once it is sent
    output.replaceChildren();
  }
  await flushChoices();
  const typed = form ? [...form.querySelectorAll("input[data-kept]")].map((i) => i.dataset.kept) : [];
  const sent = await post(path, path === "/commands" ? { command } : {},
    { said: done || (typeof command === "string" ? command : null), typed });
  if (sent) {
    showDone(done || (typeof command === "string" ? command : wholeCommand(command, sent)), sent);
  } else if (form && !errorBox.hidden) {  // the refusal belongs to this form's fields: a screen
    for (const field of form.querySelectorAll("input, select")) {  // reader reads it with them
      const hint = field.getAttribute("aria-describedby");  // (and the field's own hint after it)
      field.setAttribute("aria-invalid", "true");
      if (!(hint || "").split(" ").includes("error")) field.setAttribute("aria-describedby", hint ? `error ${hint}` : "error");
    }
  }
  return sent !== null;
}

// A form's command that its control's title does not say whole (a form merging a check on the
// turn with one outside it, an attack on any foe) as the log says it, "Ada: check dex+ins 10
// turn=no", its character by name as the form's heading has it; else its verb.
function wholeCommand(command, sent) {
  const who = command.actor ? `${context().name(command.actor)}: ` : "";
  const said = (sent.entry && sent.entry.command) || "";
  const head = command.actor ? `${command.actor}: ` : "";
  if (said && said.startsWith(head)) return who + said.slice(head.length);
  return who + words(command.verb);
}

// The foot of the screen says what a command did: "Done: …" and the sentences of its log entry
// (kept by its log key, the GM's version or a player's entry number, until it is undone). Its
// ✕ stands beside the "Done" but comes after the sentences, so that a screen reader says the
// message whole before "Dismiss this message".
function showDone(said, sent) {
  const lines = (sent.entry && sent.entry.lines) || [];
  const key = sent.entry ? (state.me.role === "gm" ? sent.entry.version : sent.entry.entry) : null;
  document.getElementById("notice").replaceChildren(h("div", { class: "said" },
    h("p", { class: "done", "data-entry": key ?? null, "data-said": said, "data-shown": Date.now() },
      h("span", {}, `Done: ${said}`)),
    lines.length ? h("ul", { class: "outcome" }, lines.map((line) => h("li", {}, marked(line)))) : null,
    dismissButton()));
}

// A "Done: …" goes on its own once the table has moved on past it — an entry after its own
// that neither takes it back nor brings it back (those it follows, below) — after it has been
// in view a moment (TIMING.doneMs: read, and said by a screen reader, which the log's polite
// region then tells of what followed). Turns later, it would cover the foot of a phone's
// screen with what is old news: the log keeps it.
function doneMovesOn(entries) {
  const done = document.querySelector("#notice p.done[data-entry]");
  if (!done) return;
  const gm = state.me.role === "gm";
  const undoing = (e) => (e.events || []).some((ev) => ev.type === "undone" || ev.type === "redone");
  if (!entries.some((e) => (gm ? e.version : e.entry) > Number(done.dataset.entry) && !undoing(e))) return;
  const wait = Math.max(0, Number(done.dataset.shown) + TIMING.doneMs - Date.now());
  setTimeout(() => { if (done.isConnected) dismissNotice(); }, wait);
}

// The rules' refusal of a command goes on its own, as a "Done: …" does, once the table has
// moved on past it — any entry after it, an undo or a redo too — after it has been in view a
// moment (TIMING.doneMs): what it said of the table ("Bea has taken their only turn this
// round; The Bone Duchess may act now") is no longer true, and rounds later, the conflict
// ended, it still covered the foot of a phone's screen. What was typed stays in its field.
// ("Not sent: the table changed…", or no answer yet, stay until the command goes through.)
function refusalMovesOn(entries) {
  if (errorBox.hidden || errorBox.dataset.about !== "refusal" || !entries.length) return;
  const shown = errorBox.dataset.shown;
  const wait = Math.max(0, Number(shown.split(" ")[1]) + TIMING.doneMs - Date.now());
  setTimeout(() => { if (errorBox.dataset.shown === shown) showError(null); }, wait);
}

// A "Done: …" whose entry was taken back (the GM's undo, on any page) says so instead, its
// outcome hidden (it no longer holds); brought back by a redo, it reads as done again, with
// its outcome.
function followUndo(undone) {
  const done = document.querySelector("#notice p.done[data-entry]");
  if (!done) return;
  const taken = undone.has(Number(done.dataset.entry));
  if (taken === (done.dataset.undone === "yes")) return;
  done.dataset.undone = taken ? "yes" : "no";
  done.firstChild.textContent = `${taken ? "Undone" : "Done"}: ${done.dataset.said}`;
  const outcome = document.querySelector("#notice ul.outcome");
  if (outcome) outcome.hidden = taken;
}

// A command (or undo, redo) goes with an idempotency key of its own and the cursor of the
// screen it was chosen on: when its answer is lost on the way (a phone's wifi drops, the
// server restarts) or says nothing was done just now (the database away: notYet), it is sent
// again as it was, and the server applies it once; one refused for too many requests (limited)
// goes again when the server's answer says
// (docs/server.md) — twice at once, then whenever the page is live again or the network back
// (every AGAIN_MS at the latest), until an answer says whether it went through: its "Done: …",
// or why not (the table changed meanwhile). The same command sent again while it is on its way
// (a double tap, Send pressed again after "No answer yet") joins it: never sent twice. Kept in
// the tab's storage until answered, it is asked again after a reload of the page.
const RETRIES = [600, 2000];  // ms before each new try
const AGAIN_MS = 10000;  // then, at the latest, between tries
const onTheirWay = new Map();  // the conflict, path and body of each command → its answer
const asleep = new Set();  // the wake-ups of the commands without an answer
window.addEventListener("online", () => askAgain());

function newKey() {  // crypto.randomUUID is for https only: a table on the LAN is plain http
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

async function send(path, body) {
  await flushChoices();
  return post(path, body);
}

// Send the commands without an answer again now (the page is live again, the network back,
// or the user asks again).
function askAgain() {
  for (const wake of [...asleep]) wake(true);
}

// Resolves once it is time to try again: true when woken by askAgain, false after AGAIN_MS.
function nextTry() {
  return new Promise((resolve) => {
    const wake = (woken) => {
      clearTimeout(timer);
      asleep.delete(wake);
      resolve(woken);
    };
    const timer = setTimeout(() => wake(false), AGAIN_MS);
    asleep.add(wake);
  });
}

/** Send a command (`said`: its words for "Done: …" after a reload; `typed`: the kept keys of
 * what was typed for it, gone once it is accepted); answers the server's answer, or null. */
function post(path, body, { said = null, typed = [] } = {}) {
  const same = `${state.conflictId}|${path}|${JSON.stringify(body)}`;
  if (onTheirWay.has(same)) {  // a double tap: the one on its way answers both
    askAgain();
    return onTheirWay.get(same);
  }
  document.getElementById("notice").textContent = "";
  showError(null);
  // decided on the table as this screen shows it: refused (stale_version) if it changed since
  const keyed = { ...body, key: newKey(), ...(state.cursor ? { cursor: state.cursor } : {}) };
  return deliver(same, { conflict: state.conflictId, path, body, keyed, said, typed });
}

function deliver(same, pending) {
  const answer = answerOf(pending).finally(() => onTheirWay.delete(same));
  onTheirWay.set(same, answer);
  return answer;
}

async function answerOf(pending) {
  const { conflict, path, keyed } = pending;
  // another of this page's commands on its way: if this one is refused as chosen on a screen
  // the table moved past, that command is what moved it (tapped one after the other)
  const behindOwn = [...onTheirWay.keys()].some((other) => other.startsWith(`${conflict}|`));
  const slot = `${conflict}|unanswered|${keyed.key}`;
  kept.set(slot, JSON.stringify(pending));  // a reload asks again
  const moment = state.moment;
  state.sending++;  // no odds are asked meanwhile: they would be of the moment it changes
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await api("POST", `/tables/${tableId}/conflicts/${conflict}${path}`, keyed);
        kept.delete(slot);
        showError(null);
        if (answer.cursor && state.conflictId === conflict) state.cursor = answer.cursor;
        if (answer.entry) ownEntries.add(ownKey(conflict, answer.entry));
        if (state.moment === moment) stale();  // its frame is still on its way
        return answer;
      } catch (error) {
        if (limited(error)) {  // too many requests: nothing done; again once the server says
          showError(Object.assign(error, { resent: true }));
          state.sending--;  // seconds, maybe: meanwhile the screen follows the table as ever
          await new Promise((resolve) => setTimeout(resolve, waitOf(error)));
          state.sending++;
          continue;
        }
        if (error instanceof TypeError || notYet(error)) {  // no answer, or not yet: try again, as it was
          if (attempt < RETRIES.length) {
            await new Promise((resolve) => setTimeout(resolve, RETRIES[attempt]));
            continue;
          }
          if (attempt === RETRIES.length) showError(error);
          state.sending--;  // meanwhile the screen follows the table as ever
          const woken = await nextTry();
          state.sending++;
          if (woken) attempt = RETRIES.length - 1;  // said again if this try fails too
          continue;
        }
        kept.delete(slot);
        if (error.code !== "stale_version") showError(error, "refusal");
        else showError(behindOwn ? Object.assign(error, { own: true }) : error);
        // a screen the table moved past: make sure its socket is alive (else it reconnects
        // and catches up) so that the fresh screen the message promises comes
        if (error.code === "stale_version" && state.live) state.live.check();
        return null;
      }
    }
  } finally {
    state.sending--;
    if (!state.sending && heldEntries.length) tellOthers(heldEntries.splice(0));
  }
}

// After a reload: the commands of this conflict that had no answer yet are asked again (with
// their own key: applied once), and the page says what it would have said of them.
function askUnanswered(conflict) {
  for (const [slot, text] of kept) {
    if (!slot.startsWith(`${conflict}|unanswered|`)) continue;
    let pending;
    try {
      pending = JSON.parse(text);
    } catch {
      kept.delete(slot);
      continue;
    }
    const same = `${conflict}|${pending.path}|${JSON.stringify(pending.body)}`;
    if (onTheirWay.has(same)) continue;
    deliver(same, pending).then((sent) => {
      if (!sent || state.conflictId !== conflict) return;
      showDone(pending.said || (sent.entry && sent.entry.command) || "your command", sent);
      for (const key of pending.typed || []) forgetTyped(key);
    });
  }
}

// What was typed for a command accepted, gone from the tab's storage and from its field.
function forgetTyped(key) {
  kept.delete(key);
  for (const input of document.querySelectorAll("input[data-kept]")) {
    if (input.dataset.kept === key) input.value = "";
  }
}

// The controls are of a moment this page's own command changed: odds wait for its frame (or
// two seconds, should none come).
function stale() {
  state.drawn = null;
  setTimeout(() => { if (state.drawn === null) state.drawn = state.moment; }, 2000);
}

// --- whose turn: title, banner, sound ----------------------------------------------------
// The tab's title: the conflict's and the table's (two tables in two tabs are told apart).
function tabTitle(conflict = "") {
  return [conflict, state.me.title, "fracas"].filter(Boolean).join(" · ");
}

function announce(turn, ctx, level) {
  const mine = new Set(ctx.participants.filter((p) => p.mine).map((p) => p.id));
  const now = state.closed ? [] : turn.current.filter((id) => mine.has(id));  // a revoked link acts no more
  const next = !now.length && !state.closed && turn.ordered && turn.waiting.length > 0 && mine.has(turn.waiting[0]);
  const myTurn = now.length > 0;
  const base = tabTitle(level.title);
  const ask = `${turn.ask || "Your turn"}: ${now.map(ctx.name).join(", ")}`;
  // the GM's tab: marked while the table waits on a character no player plays (a GM running
  // two tables in two tabs sees which one waits on them)
  const byGm = state.me.role === "gm" && !state.closed ? turn.current.filter((id) => {
    const p = ctx.participants.find((q) => q.id === id);
    return p && !p.player;
  }) : [];
  const title = myTurn ? `▶ ${ask} · ${base}` : next ? `You are next · ${base}`
    : byGm.length ? `▶ ${byGm.map(ctx.name).join(", ")} to act · ${base}` : base;
  if (document.title !== title) document.title = title;
  if (state.me.role === "gm") {
    banner.hidden = true;
  } else {  // an alert: rewritten only when it says something new
    const text = myTurn ? ask : next ? "You are next" : "";
    banner.hidden = !text;
    if (banner.textContent !== text) banner.textContent = text;
  }
  if (myTurn && state.myTurn === false && soundOn()) signal();  // not on opening the page
  state.myTurn = myTurn;
}

function soundOn() {
  return localStorage.getItem("fracas.sound") !== "off";
}

// One sound for the page, made when first needed; a browser plays it only once the page has
// been touched (until then it stays silent, and so does vibration).
let audio = null;
function signal() {
  if (!navigator.userActivation || !navigator.userActivation.hasBeenActive) return;
  if (navigator.vibrate) navigator.vibrate(200);
  try {
    audio ||= new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 660;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    // no sound on this device
  }
}

// --- the table: conflicts, new conflict, invitations (GM) --------------------------------
// The running conflicts first, the last made first, in an order that stays put while the
// table plays on; under them, apart, those that have ended (each says how, in the viewer's
// own words): in a long campaign the ones still played are found at once.
function renderConflicts() {
  regions.find.hidden = state.conflicts.length < FIND_FROM && !state.find;
  regions.ended.replaceChildren();
  if (!state.conflicts.length) {  // an empty panel says why, and what to do
    return regions.conflicts.replaceChildren(h("li", { class: "muted" }, state.me.role === "gm"
      ? "None yet: make one under New conflict." : "None yet: the GM has not started one."));
  }
  const listed = [...state.conflicts].sort((a, b) => String(b.created).localeCompare(String(a.created))
    || String(b.id).localeCompare(String(a.id))).filter(found);
  const focused = document.activeElement && document.activeElement.closest(".conflicts [data-conflict]");
  regions.found.textContent = state.find ? `${listed.length} of ${state.conflicts.length} conflicts` : "";
  const twice = twiceTitled();
  const item = (c) => conflictItem(c, twice);
  const over = listed.filter(isOver);
  regions.conflicts.replaceChildren(...listed.filter((c) => !isOver(c)).map(item));
  if (over.length) {
    regions.ended.replaceChildren(h("h3", { id: "h-ended" }, `Ended (${over.length})`),
      h("ul", { class: "plain conflicts ended", "aria-labelledby": "h-ended" }, ...over.map(item)));
  }
  if (!listed.length) {
    regions.conflicts.replaceChildren(h("li", { class: "muted" }, `No conflict has “${state.find.trim()}” `
      + "in its title, id or ruleset."));
  }
  // a list drawn anew (a conflict begun, one played on) keeps the focus on the link it was on
  const again = focused && conflictLink(focused.dataset.conflict);
  if (again) again.focus();
}

function isOver(c) {
  return c.status === "ended";
}

// One conflict of the list: its link, its ruleset (and id, if its title is twice there), how
// it ended, when the GM last played it, a player's turn in it (the GM's: an NPC's), and the
// GM's screen.
function conflictItem(c, twice) {
  const how = [c.end_reason, c.outcome].filter(Boolean).join(" — ");
  return h("li", { "data-conflict": c.id },
    h("a", { href: `/table/${tableId}/${c.id}`, "aria-current": c.id === state.conflictId ? "page" : null,
      onclick: (e) => { e.preventDefault(); openConflict(c.id, true); } }, c.title),
    ` (${words(c.ruleset)}${twice.has(c.title) ? ` · ${c.id}` : ""})`,
    isOver(c) ? [" ", h("span", { class: "tag over" }, "ended"), how ? h("span", { class: "muted" }, ` ${how}`) : null] : null,
    c.updated ? h("span", { class: "muted when" }, ` · last played ${when(c.updated)}`) : null,
    waitsOnMe(c) && c.id !== state.conflictId ? h("span", { class: "tag now" }, turnWords()) : null,
    state.me.role === "gm" ? screenControls(c) : null);
}

// The link of a conflict in the list (running or ended), if it is listed.
function conflictLink(id) {
  return [regions.conflicts, regions.ended].map((list) => list.querySelector(`[data-conflict="${CSS.escape(id)}"] a`))
    .find(Boolean);
}

// The titles two conflicts of the table share (an example made twice, a copy imported): each
// is told apart by its id wherever it is named.
function twiceTitled() {
  const titles = state.conflicts.map((c) => c.title);
  return new Set(titles.filter((t, i) => titles.indexOf(t) !== i));
}

// A campaign's list grows long: from FIND_FROM conflicts on, a field above it finds one by the
// words of its title, its id or its ruleset (each word typed, in any order).
const FIND_FROM = 8;

function findField() {
  regions.found = h("span", { class: "muted", role: "status" });
  const input = h("input", { type: "search", id: "find-conflict", autocomplete: "off",
    oninput: () => { state.find = input.value; renderConflicts(); } });
  input.value = state.find || "";
  return h("p", { class: "field find" }, h("label", { for: "find-conflict" }, "Find a conflict"),
    input, regions.found);
}

function found(c) {
  const text = `${c.title} ${c.id} ${words(c.ruleset)}`.toLowerCase();
  return (state.find || "").toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w));
}

// (GM) When a conflict was last played, in the browser's own words for a date and a time.
function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso
    : date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

// The open conflict's entry of the table's list ({} while there is none).
function openConflictInfo() {
  return state.conflicts.find((c) => c.id === state.conflictId) || {};
}

// The GM's screen in the list of conflicts: one behind it is marked so, with the button that
// shows it to the players.
function screenControls(c) {
  if (c.shown !== false) return null;
  return [h("span", { class: "tag secret" }, "behind the screen"),
    h("button", { type: "button", class: "small", "aria-label": `Show it to the players: ${c.title}`,
      onclick: () => setShown(c, true) }, "Show it to the players")];
}

// Beside the open conflict's download: taking it back behind the screen, once the GM confirms
// (the players lose it at once). Drawn on its own: the panels beside it keep what is typed.
function renderHide() {
  const open = state.conflicts.find((c) => c.id === state.conflictId);
  if (regions.hide) regions.hide.replaceChildren(...[open && hideControls(open)].filter(Boolean));
}

function hideControls(open) {
  if (open.shown === false) return null;
  const hide = async () => {
    if (await confirmed(`Take ${open.title} behind the screen? The players lose it at once, until `
      + "you show it again.", "Yes, take it behind the screen")) setShown(open, false);
  };
  return h("button", { type: "button", id: "hide-conflict", onclick: hide }, "Take it behind the screen");
}

async function setShown(c, shown) {
  try {
    await api("PUT", `/tables/${tableId}/conflicts/${encodeURIComponent(c.id)}/shown`, { shown });
    state.conflicts = await api("GET", `/tables/${tableId}/conflicts`);
  } catch (error) {
    return showError(error);
  }
  renderConflicts();
  renderHide();
  if (c.id === state.conflictId) render();  // the round's head says whether it is
  const link = conflictLink(c.id);
  if (link) link.focus();  // the button pressed is gone
  document.getElementById("notice").replaceChildren(h("p", { class: "done" }, h("span", {}, shown
    ? `Shown to the players: ${c.title}` : `Taken behind the screen: ${c.title} (the players' pages lost it)`),
  dismissButton()));
}

function renderTable() {
  const gm = state.me.role === "gm";
  const list = regions.conflicts = h("ul", { class: "plain conflicts" });
  regions.ended = h("div", {});
  regions.find = findField();
  renderConflicts();
  const sound = state.me.role !== "player" ? null : h("p", { class: "field inline" },  // (no turn: no sound)
    h("input", { type: "checkbox", id: "sound", checked: soundOn(),
      onchange: (e) => localStorage.setItem("fracas.sound", e.target.checked ? "on" : "off") }),
    h("label", { for: "sound" }, "Sound and vibration when it is my turn"));
  const open = state.conflicts.find((c) => c.id === state.conflictId);
  regions.hide = h("span", { class: "buttons" });
  renderHide();
  // redrawn when a conflict opens: the focus stays (a conflict imported: on its panel)
  redraw(regions.table, () => [panel("Conflicts", regions.find, list, regions.ended,
    gm && open ? h("p", { class: "buttons" }, downloadButton(tableId, open, showError), regions.hide) : null),
  gm ? newConflictPanel() : null, gm ? invitePanel() : null, sound ? panel("Settings", sound) : null]);
}

function newConflictPanel() {
  // the example chosen stays chosen while the panel is drawn anew (a conflict opening)
  const select = h("select", { id: "scenario", name: "scenario", onchange: () => { state.example = select.value; } });
  api("GET", "/scenarios").then((items) => select.replaceChildren(
    ...items.map((s) => h("option", { value: s.name, selected: s.name === state.example }, `${s.title} (${s.name})`))));
  const file = h("input", { type: "file", id: "scenario-file", accept: ".toml,text/plain" });
  // an example starts fresh unless the GM asks for its story; a GM's own file plays its script
  const story = h("input", { type: "checkbox", id: "example-story" });
  const script = h("input", { type: "checkbox", id: "file-script", checked: true });
  // any of the ways below may make it behind the screen (kept while the panel is drawn anew;
  // once it is made, the next one is the players' again unless asked)
  const hidden = h("input", { type: "checkbox", id: "behind-screen", checked: state.behindScreen,
    onchange: () => { state.behindScreen = hidden.checked; } });
  const opened = async (made, fromForm = false) => {
    state.behindScreen = false;
    if (fromForm) state.setup = null;  // the next conflict's form starts empty
    state.conflicts = await api("GET", `/tables/${tableId}/conflicts`);
    state.roundHead = null;
    openConflict(made.id, true);
  };
  const created = async (body, how = "") => {
    try {
      await opened(await api("POST", `/tables/${tableId}/conflicts${how}`, { ...body, shown: !state.behindScreen }),
        how === "/form");
    } catch (error) {
      if (how === "/form") throw error;  // the form says it with the field it is about
      showError(error);
    }
  };
  // the form is made once and kept, open or closed, with all that is typed in it, while the
  // panel is drawn anew (the GM opens another conflict to look something up, or makes one
  // another way), until it makes one itself
  state.setup = state.setup || h("details", { class: "setup" }, h("summary", {}, "Set up a conflict (form)"),
    setupForm(state.rulesets, (body) => created(body, "/form"), showError));
  return panel("New conflict",
    h("p", { class: "field inline" }, hidden,
      h("label", { for: "behind-screen" }, "Prepare it behind the screen (the players do not see it until you show it)")),
    state.setup,
    h("form", { id: "from-example", onsubmit: (e) => {
      e.preventDefault();
      created({ scenario: select.value, fresh: !story.checked });
    } },
      h("p", { class: "field" }, h("label", { for: "scenario" }, "Bundled example"), select),
      h("p", { class: "field inline" }, story,
        h("label", { for: "example-story" }, "Play the example's story too (a demonstration: the fight is already under way, or over)")),
      h("button", { type: "submit" }, "Create from the example")),
    h("form", { id: "from-file", onsubmit: async (e) => {
      e.preventDefault();
      const chosen = file.files[0];
      if (!chosen) return showError("Choose a scenario file first (.toml, docs/scenarios.md).");
      if (chosen.size > MAX_SCENARIO) {
        return showError(`${chosen.name}: the file is longer than ${MAX_SCENARIO.toLocaleString("en")} bytes `
          + "(the limit on file size); nothing was created");
      }
      created({ toml: await chosen.text(), filename: chosen.name, fresh: !script.checked });
    } },
    h("p", { class: "field" }, h("label", { for: "scenario-file" }, "Scenario file (.toml, docs/scenarios.md)"), file),
    h("p", { class: "field inline" }, script,
      h("label", { for: "file-script" }, "Play the file's whole script (off: only the GM commands at its head)")),
    h("button", { type: "submit" }, "Create from the file")),
    importForm(tableId, (made) => opened(made).catch(showError), showError, () => hidden.checked));
}

const PLAYER_NAME = "lower-case letters, digits, _ and -, beginning with a letter";

function invitePanel() {
  const players = [...new Set(levels().flatMap((l) => l.participants).map((p) => p.player).filter(Boolean))];
  // a player's name is lower case (as their characters' `player` field): "Alicia" is alicia
  const name = h("input", { id: "invite-player", name: "player", list: "players", maxlength: 40,
    pattern: "[a-z][a-z0-9_\\-]*", required: true, autocapitalize: "none", spellcheck: "false",
    title: PLAYER_NAME, "aria-describedby": "invite-hint", value: state.inviteName || "", oninput: () => {
      const lower = name.value.toLowerCase();
      if (lower !== name.value) {
        const [from, to] = [name.selectionStart, name.selectionEnd];
        name.value = lower;
        name.setSelectionRange(from, to);
      }
      state.inviteName = name.value;  // kept while the panel is drawn anew
    } });
  // the link last issued (and its QR code) stays while the panel is drawn anew (a conflict
  // opening): the GM may still be reading it out or showing it to a phone
  const issued = state.issued || (state.issued = h("div", { class: "issued", "aria-live": "polite" }));
  const links = h("ul", { class: "plain links" });
  const refresh = async () => {
    const all = await api("GET", `/tables/${tableId}/links`);
    links.replaceChildren(...all.map((l) => h("li", {}, `${linkName(l)}${l.role === "gm" ? " · GM link" : ""} · ${l.id}`,
      l.revoked ? " · revoked" : l.yours ? " · yours, in this browser (it cannot revoke itself)" : " ",
      l.revoked || l.yours ? null : h("button", { type: "button", "aria-label": `Revoke the link of ${linkName(l)}`,
        onclick: () => revoke(l) }, "Revoke"))));
  };
  // a misclick must not cut a player (or the GM's other device) off mid-game: asked first,
  // naming whose link it is; the link this page uses has no Revoke (the server refuses it)
  const revoke = async (l) => {
    const whose = l.role === "gm" ? `the GM link “${l.label}”` : l.player ? `${possessive(l.player)} link` : "the public link";
    const page = l.role === "gm" ? "the device that opened it loses the GM screen"
      : l.player ? `${possessive(l.player)} page loses its commands` : "every screen opened with it goes dark";
    if (!(await confirmed(`Revoke ${whose} (${l.id})? ${capitalized(page)} at once, and the link `
      + "opens the table no more (a new one can be made).", `Revoke ${whose}`))) return;
    try {
      await api("DELETE", `/tables/${tableId}/links/${l.id}`);
    } catch (error) {
      showError(error);
    }
    refresh();
  };
  const invite = async (body) => {
    try {
      const made = await api("POST", `/tables/${tableId}/links`, body);
      const qr = URL.createObjectURL(await apiBlob("POST", `/tables/${tableId}/qr`, { text: made.link }));
      const who = made.role === "gm" ? made.label : made.player || "the public";
      // a name no character's `player` field holds: the link works, but acts for no one (yet)
      const known = levels().flatMap((l) => l.participants).map((p) => p.player);
      const nobody = made.player && levels().length > 0 && !known.includes(made.player)
        ? h("p", { class: "warning", role: "status" }, `No character in this conflict is played by `
          + `${made.player}: the link only watches until a character's player is ${made.player}.`) : null;
      const secret = made.role === "gm" ? h("p", { class: "warning" }, "A GM link: whoever opens it "
        + "runs this table as you do. Open it on your own device only, and keep it secret.") : null;
      const field = h("input", { id: `link-${made.id}`, class: "link", readonly: true, value: made.link });
      issued.replaceChildren(...[nobody, secret, h("p", { class: "field" }, h("label", { for: field.id }, `Link for ${who}`),
        field), copyLink(field),
        h("img", { src: qr, alt: `QR code of the link for ${who}`, class: "qr", width: 180, height: 180 })].filter(Boolean));
      refresh();
    } catch (error) {
      if (how === "/form") throw error;  // the form says it with the field it is about
      showError(error);
    }
  };
  refresh();
  return panel("Invite players",
    h("form", { id: "invite", onsubmit: (e) => { e.preventDefault(); invite({ role: "player", player: name.value }); } },
      h("p", { class: "field" }, h("label", { for: "invite-player" }, "Player's name (as in the scenario)"), name,
        h("datalist", { id: "players" }, players.map((p) => h("option", { value: p }))),
        h("small", { id: "invite-hint" }, PLAYER_NAME)),
      h("p", { class: "buttons" }, h("button", { type: "submit" }, "Invite the player"),
        h("button", { type: "button", onclick: () => invite({ role: "public" }) }, "Public link"))),
    gmLinkForm(invite), issued, links);
}

// How the list of links names one: the player's name, the public, or a GM link's label.
function linkName(l) {
  return l.role === "gm" ? l.label : l.role === "player" ? l.player : "the public";
}

// A GM link for another device of the GM's (a tablet beside the laptop), labelled after it.
function gmLinkForm(invite) {
  const device = h("input", { id: "gm-device", name: "device", maxlength: 40, placeholder: "tablet",
    "aria-describedby": "gm-device-hint", value: state.gmDevice || "",
    oninput: () => { state.gmDevice = device.value; } });  // kept while the panel is drawn anew
  return h("form", { id: "gm-invite", onsubmit: (e) => {
    e.preventDefault();
    invite({ role: "gm", label: `GM (${device.value.trim() || "another device"})` });
  } },
  h("p", { class: "field" }, h("label", { for: "gm-device" }, "Your other device (optional)"), device,
    h("small", { id: "gm-device-hint" }, "A GM link opens this table as its GM, as yours does: for "
      + "your tablet or phone, or to keep in a safe place. It is shown once; Revoke stops it.")),
  h("p", { class: "buttons" }, h("button", { type: "submit" }, "GM link for another device")));
}

// Back and Forward between the conflicts opened on this page: the conflict of the address
window.addEventListener("popstate", () => {
  const [, , table, id] = location.pathname.split("/");
  if (table !== tableId) return location.reload();
  if (id && id !== state.conflictId && state.conflicts.some((c) => c.id === id)) openConflict(id);
});

window.addEventListener("error", (e) => showError(e.error || e.message));
boot();
