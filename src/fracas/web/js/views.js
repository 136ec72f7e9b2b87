// What each ruleset adds to the screen, drawn from the viewer's projection only.
import { h, panel, possessive, s, signed, words } from "./dom.js";
import { quote } from "./legal.js";

/** Whose turn it is: {current: ids acting now, waiting: ids still to act, line}; while
 * everyone declares at once (Etherscope), `current` are those still to declare and `ask`
 * what they are asked; `alsoDue`: others with a roll due now besides (a VERS Discipline roll),
 * whose controls the GM's screen shows beside the one acting. */
export function turnOf(view, level) {
  const r = level.ruleset || {};
  // once ended, nobody acts or is still to (the status line says how it ended): no banner,
  // no "acting" tag, whatever go was under way when the GM ended it
  if (level.status === "ended") return { current: [], waiting: [], line: "" };
  if (view.ruleset === "etherscope" && r.phase === "declare") {
    return { current: r.to_declare || [], waiting: [], ask: "Declare your acting initiatives",
             acting: "Still to declare", line: r.phase_text || "" };
  }
  if (view.ruleset === "etherscope" && r.phase === "start") {
    const toRoll = ids(r.to_roll);
    if (!toRoll.length) {  // nobody is asked for anything: ambushes may come, then the moves
      return { current: [], waiting: [], acting: "Awareness", nobody: "every roll is in",
               hint: "To try an ambush, pick the ambusher under Act for.",
               line: "ambushes may be tried now (ES-START-2), then the awareness moves" };
    }
    return { current: toRoll, waiting: [], ask: "Roll awareness",
             acting: "Still to roll awareness", line: r.phase_text || "" };
  }
  if (view.ruleset === "etherscope" && r.phase === "moves") {
    // a mover hidden from all of the viewer's characters moves unnamed: "the GM" (as the
    // view's lines say), not "nobody", which would have the players wait on no one; those
    // still to move after it are named as after any mover (a countdown's "to come")
    return { ordered: true, current: ids([r.mover]), waiting: ids(r.to_move), line: r.phase_text || "",
             nobody: "the GM" };
  }
  if (view.ruleset === "etherscope") {
    // between rounds (before round 1) nobody is waited on: the GM starts the next round
    return { ordered: true, current: ids([r.acting]), waiting: [...new Set(ids(r.to_come))], line: r.phase_text || words(r.phase || ""),
             nobody: r.phase === "countdown" ? "the GM" : undefined, noWaiting: r.phase === "ready" };
  }
  if (view.ruleset === "fabula-ultima") {
    const t = r.tracker || {};
    // before the first round, what comes next (goals, equipment, the Initiative Group Check)
    const setup = (r.lines || []).find((l) => l.startsWith("set-up: "));
    const next = setup ? `next: ${setup.slice("set-up: ".length)}` : "";
    if (level.status === "setup" && (r.leaders || []).length) {
      // the fight waits on one of the PCs to lead the Initiative Group Check (FU-CON-3):
      // each is asked, as the Etherscope declarations ask each
      return { current: r.leaders, waiting: [], ask: "Lead the Initiative Group Check",
               acting: "May lead the initiative", line: next };
    }
    const waiting = Object.values(t.sides || {}).flatMap((side) => Object.keys(side.turns_left || {}));
    // between rounds those who may act open the next one, and nobody is still to act in the
    // round gone (FU-CON-10): "May open round 2: Ada, Bruno", not "Acting: …" beside "Still to
    // act: nobody"
    const opening = t.round_over && !t.ended && t.next_round ? `May open round ${t.next_round}` : undefined;
    return { current: t.may_act || [], waiting, acting: opening,
             line: t.side_on_turn ? `side on turn: ${t.side_on_turn}` : next };
  }
  if (view.ruleset === "vers") {
    // no go under way: a chase roll may be due (its roller's turn), or a go ended with its
    // character out (the server's line, said only to those who see them: VR-TURN-2)
    const due = r.current ? [] : ids(r.due);
    const handoff = (r.lines || []).find((l) => l.startsWith(NOBODY));
    const over = !r.opened && level.round > 0;  // between turns: the next opener is the table's
    // a chase rolling on with no turn open (VR-CHASE-8): nobody is "still to act" in a go
    const chaseOnly = !r.opened && due.length > 0;
    // a chase-only conflict whose chases are all over, no turn ever opened: nothing to roll
    const chasesOver = r.chases_over || "";
    // one waiting at an end of its scale for the GM's turn of stage (VR-CHASE-4/7): no roll
    const chasesWaiting = r.chases_waiting || "";
    // a Discipline roll due first (VR-INJ-3), said where the player acts: the server's
    // sentence names only those the viewer may know it of (their harm in view, or the band)
    const discipline = r.discipline || "";
    const line = r.current ? actionsLeft(r.actions_left) : due.length ? "a chase roll is due"
      : handoff ? handoff.slice(NOBODY.length)
      : chasesOver ? `${chasesOver}: nothing to roll; the GM may open a turn or end the conflict`
      : chasesWaiting ? chasesWaiting
      : over ? `turn ${level.round} is over; the table picks who opens turn ${level.round + 1}`
      : "the table picks who opens the turn";
    const chaseHeld = chaseOnly || Boolean(chasesOver || chasesWaiting);  // no go to wait for
    return { current: r.current ? [r.current] : due, waiting: chaseHeld ? [] : r.not_gone || [],
             noWaiting: chaseHeld, alsoDue: ids(r.enduring || []),
             ask: due.length ? "Your chase roll" : undefined,
             line: [line, discipline].filter(Boolean).join(" · ") };
  }
  return { current: [], waiting: [], line: "" };
}

const NOBODY = "Acting: nobody · ";

/** How far the conflict has come, for the page's head: its round in the game's word
 * (`said.round`: "round 2 of 6", VERS's "turn 2"), or, for a VERS chase before any turn was
 * opened (a chase rolls on without turns: VR-CHASE-8), where each chase stands on its scale
 * ("chase c1: pursuit, position 3 of 5", VR-CHASE-1/2); before the first round, only its
 * limit if it has one ("6 rounds at most": never "round 0"). */
export function progressOf(view, level, said) {
  const chases = Object.entries((level.ruleset || {}).chases || {});
  if (view.ruleset === "vers" && !level.round && chases.length) {
    return chases.map(([id, c]) => `chase ${id}: ${words(c.stage)}, position ${c.position} of ${c.positions}`).join("; ");
  }
  if (!level.round) return level.round_limit ? `${level.round_limit} ${said.round}s at most` : "";
  return `${said.round} ${level.round}${level.round_limit ? ` of ${level.round_limit}` : ""}`;
}

// "1 action left", "2 actions left" ("" when the count is kept from the viewer).
function actionsLeft(n) {
  return n === null || n === undefined ? "" : `${n} ${n === 1 ? "action" : "actions"} left`;
}

function ids(list) {
  return (list || []).filter((x) => x !== null && x !== undefined).map((item) => (Array.isArray(item) ? item.find((x) => typeof x === "string") : item))
    .filter((x) => typeof x === "string");
}

/** The ruleset's own panels for one level of the conflict. */
export function rulesetPanels(view, level, ctx) {
  if (view.ruleset === "etherscope") return etherscope(level, ctx);
  if (view.ruleset === "fabula-ultima") return fabula(level, ctx);
  if (view.ruleset === "vers") return vers(level, ctx);
  return [];
}

// A band the server sent in place of exact harm (see docs/table.md): one word, nothing drawn
// from a number.
function harmTag(p) {
  return p.harm ? h("span", { class: "tag harm" }, p.harm) : null;
}

function bar(label, current, max) {
  return h("span", { class: "bar" }, h("span", { class: "bar-label" }, `${label} ${current}/${max}`),
    h("meter", { min: 0, max, value: current, "aria-label": `${label} ${current} of ${max}` }));
}

// --- Etherscope ------------------------------------------------------------------------
function etherscope(level, ctx) {
  const r = level.ruleset || {};
  const setup = panel("Set-up", h("p", { class: "sentence" }, r.table_line || ""),
    h("ul", { class: "meanings" }, (r.meanings || []).map((m) => h("li", {}, m))));
  const [actingId] = ids([r.acting]);
  // the countdown in the order it acts (ties settled, ES-ROUND-5; "?" a score the viewer may
  // not know); while declaring, the declarations so far, highest first
  const lane = (r.lane || []).length ? r.lane.map(([id, score, when]) => [score, id, when]) : [];
  if (!lane.length) {
    for (const [id, scores] of Object.entries(r.declared || {})) {
      for (const score of scores || []) lane.push([score, id, null]);
    }
    lane.sort((a, b) => b[0] - a[0]);
  }
  const offered = new Set();  // the GM's "act now" on each waiting character's next slot
  const actNow = (id, when) => {
    if (!ctx.send || ctx.ended || id === actingId || r.phase !== "countdown" || when !== "to come" || offered.has(id)) return null;
    offered.add(id);
    return h("button", { type: "button", class: "small", "aria-label": `Let ${ctx.name(id)} act now`,
      onclick: () => ctx.send(`override ruleset.acting ${id}`) }, "act now");
  };
  // (its sentence, said as well in the Round panel, is marked for a TV to leave out)
  const countdown = panel("Countdown",
    h("p", { class: "repeats" }, r.phase_text || words(r.phase || ""), actingId ? ` · acting: ${ctx.name(actingId)}`
      : r.phase === "countdown" && !ctx.ended ? " · acting: the GM" : ""),
    r.phase === "ready" && lane.length ? h("p", { class: "muted" }, "The last round's acting initiatives:") : null,
    // no list while nobody has declared (a screen reader would announce an empty one)
    lane.length ? h("ol", { class: "lane" }, lane.map(([score, id, when]) =>
      h("li", { class: when === "now" ? "chip acting" : "chip" }, h("b", {}, String(score ?? "?")), " ",
        ctx.name(id), actNow(id, when)))) : null);
  const people = level.participants.filter((p) => p.present !== false);
  return [setup, countdown, rangesPanel(level, ctx, "Ranges", true), condensersPanel(people, "Condensers")];
}

/** Who opened a zoomed-in level and why (ES-ACT-1), "Opened by Ada: a fight on the roof", so
 * that each level of a chain, and two zoom-ins from one parent, tell apart at a glance; "" where
 * the viewer may not see the opener (or at the top level). */
export function zoomOrigin(level, ctx) {
  const origin = (level.ruleset || {}).zoom;
  return origin ? `Opened by ${ctx.name(origin.by)}${origin.reason ? `: ${origin.reason}` : ""}` : "";
}

/** What a zoom-in leaves of its parent in view, below the zoom's own panels (ES-ACT-1): the
 * parent's Ranges, read only (commands go to the zoom), and the Condensers of those who wait
 * there (a player's characters outside the zoom among them); titled with the parent's name. */
export function parentPanels(view, parent, inner, ctx) {
  if (view.ruleset !== "etherscope") return [];
  const zoomed = new Set(inner.participants.map((p) => p.id));
  const waiting = parent.participants.filter((p) => p.present !== false && !p.out && !zoomed.has(p.id));
  return [rangesPanel(parent, ctx, `Ranges in ${parent.title}`, false),
    waiting.length ? condensersPanel(waiting, `Condensers in ${parent.title}`,
      h("p", { class: "muted" }, "Those waiting outside the zoom-in.")) : null];
}

// The matrix of who is Close, Near, Distant or Hidden from whom at `level`, as the viewer may
// know it; the GM changes a range above the diagonal where `editable` (the level in play).
function rangesPanel(level, ctx, title, editable) {
  const r = level.ruleset || {};
  const people = level.participants.filter((p) => p.present !== false);
  const band = new Map();
  for (const [a, b, value] of r.ranges || []) {
    band.set(`${a}|${b}`, value);
    band.set(`${b}|${a}`, value);
  }
  // ES-RNG-1: who is hidden from whom, as the viewer may know it ("a|b": b is hidden from a)
  const unseen = new Set();
  for (const [who, from] of Object.entries(r.hidden || {})) for (const x of from || []) unseen.add(`${x}|${who}`);
  // one out of the conflict has no range to anyone (the rules refuse to set one): not in the
  // matrix, as not in the view's lines
  const ranged = people.filter((p) => !p.out);
  const anyHidden = ranged.some((a) => ranged.some((b) => unseen.has(`${a.id}|${b.id}`)));
  // a band a player is not told: one of the two is hidden from the other (ES-RNG-1), in a
  // way they may not know (an ally's flag) or the other way round from theirs
  const anyUnknown = !ctx.send && ranged.some((a) => ranged.some((b) => a.id !== b.id
    && !unseen.has(`${a.id}|${b.id}`) && !band.has(`${a.id}|${b.id}`)));
  // the caption stands above the box that scrolls sideways, so a phone reads it whole
  const caption = `matrix-caption-${++matrices}`;
  return panel(title, h("p", { class: "muted matrix-caption", id: caption },
    "Who is Close, Near, Distant or Hidden from whom"),
  h("div", { class: "scroll" }, h("table", { class: "matrix", "aria-labelledby": caption },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "from \\ to"),
      ranged.map((p) => h("th", { scope: "col" }, p.name)))),
    h("tbody", {}, ranged.map((a, i) => h("tr", {}, h("th", { scope: "row" }, a.name),
      ranged.map((b, j) => h("td", {}, a.id === b.id ? "—"
        : rangeCell(a, b, band.get(`${a.id}|${b.id}`), ctx, editable && i < j, unseen.has(`${a.id}|${b.id}`))))))))),
    anyHidden ? h("p", { class: "muted" }, "hidden: the column's character is hidden from the row's "
      + "(they cannot target it but to reveal it; ES-RNG-2)") : null,
    anyUnknown ? h("p", { class: "muted" }, `?: ${UNKNOWN_BAND}`) : null,
    groupsLine(r.groups, ctx));
}

let matrices = 0;  // the captions' ids, unique on the page

// Each one's condensers and awareness, and whether they are out (a TV shows no Participants to
// say it), under what `note` says of them.
function condensersPanel(people, title, note = null) {
  return panel(title, note, h("ul", { class: "plain" }, people.map((p) =>
    h("li", {}, h("b", {}, p.name), " ", Object.entries(p.condensers || {}).map(([name, [cur, max]]) => bar(name, cur, max)),
      harmTag(p), p.awareness != null ? h("span", { class: "tag" }, `awareness ${p.awareness}`) : null,
      outWords(p) ? h("span", { class: "tag" }, outWords(p)) : null))));
}

// The groups that stand together (ES-START-6), named as ranges and targets name them: all of
// them for the GM; for a player, those the server's view holds (two members or more they see).
function groupsLine(groups, ctx) {
  const all = Object.entries(groups || {});
  if (!all.length) return null;
  return h("p", { class: "groups" }, h("b", {}, "Groups: "),
    all.map(([g, members]) => `${g} (${members.map((m) => ctx.name(m)).join(", ")})`).join("; "));
}

const BANDS = ["close", "near", "distant"];

// What a player's "?" in the Ranges stands for.
const UNKNOWN_BAND = "a range only the GM knows: one of the two is hidden from the other (ES-RNG-1)";

// The GM edits a range in its cell above the diagonal (the rules decide: `set-range A B BAND`);
// others read it. `hidden`: b is hidden from a — Hidden is its range from a (ES-SET-5); the GM
// also sees the band kept under it, a player only that (ES-RNG-1: the band is the GM's).
function rangeCell(a, b, value, ctx, editable, hidden) {
  const flag = hidden ? h("span", { class: "tag secret", title: `${b.name} is hidden from ${a.name}` }, "hidden") : null;
  if (!ctx.send) return hidden ? flag : value ? words(value) : h("span", { title: UNKNOWN_BAND }, "?");
  if (!editable || ctx.ended) return [words(value || "?"), flag];  // ended: read only
  const select = h("select", { "aria-label": `Range from ${a.name} to ${b.name}`,
    "data-focus": `range-${a.id}-${b.id}`,
    onchange: (e) => ctx.choose(`range-${a.id}-${b.id}`, `set-range ${a.id} ${b.id} ${e.target.value}`) },
    BANDS.includes(value) ? null : h("option", { value: "" }, words(value || "?")),
    BANDS.map((band) => h("option", { value: band, selected: band === value }, band)));
  return [select, flag];
}

// --- Fabula Ultima ---------------------------------------------------------------------
function fabula(level, ctx) {
  const r = level.ruleset || {};
  const t = r.tracker || {};
  const sides = level.sides && level.sides.length ? level.sides : Object.keys(t.sides || {});
  const columns = sides.map((side) => {
    const info = (t.sides || {})[side] || {};
    const members = level.participants.filter((p) => p.side === side && p.present !== false);
    return h("div", { class: side === t.side_on_turn ? "side on-turn" : "side" },
      h("h3", {}, side, side === t.side_on_turn ? " (on turn)" : ""),
      h("ul", { class: "plain" }, members.map((p) => {
        const left = (info.turns_left || {})[p.id];
        const acted = (info.acted || []).includes(p.id);
        const out = (info.out || []).includes(p.id);  // out of the conflict: no crisis of it
        // between rounds, what the next round gives (as the summary says), not last round's
        // "acted" beside the player's "Your turn"
        const next = t.round_over && !t.ended ? (t.turns_per_round || {})[p.id] : undefined;
        const state = out ? "out" : left !== undefined ? `${left} ${left === 1 ? "turn" : "turns"} left`
          : next !== undefined ? `${next} ${next === 1 ? "turn" : "turns"} next round` : acted ? "acted" : "";
        return h("li", { class: "member" }, h("b", {}, p.name),
          p.concealed ? h("span", { class: "tag secret" }, "hidden from players") : null,
          state ? h("span", { class: "tag" }, state) : null,
          p.hp ? bar("HP", p.hp.current, p.hp.max) : null, p.mp ? bar("MP", p.mp.current, p.mp.max) : null,
          p.crisis && !out ? h("span", { class: "tag crisis" }, "crisis") : null, harmTag(p),
          // one out keeps its status effects (the rules end none as it leaves): its card's
          // sheet says them, not tags beside "out" of effects that no longer act
          out ? null : (p.statuses || []).map((st) => h("span", { class: "tag" }, st)),
          p.fp !== undefined ? h("span", { class: "tag" }, `FP ${p.fp}`) : null);
      })));
  });
  // the tracker's lines; those the panels already show (the round's, in the Round panel; each
  // side's turns, in its members' tags) are marked, for a TV to leave out: it has no room to
  // spare (a crowded fight's lines ran below its foot) and cannot be scrolled
  const repeats = (line) => /^round \d+[: ]/.test(line) || sides.some((side) => line.startsWith(`${side}: acted `));
  return [panel("Sides", h("div", { class: "sides" }, columns),
    h("ul", { class: "plain tracker" }, (r.lines || []).map((line) =>
      h("li", repeats(line) ? { class: "repeats" } : {}, line))))];
}

// --- VERS ------------------------------------------------------------------------------
function vers(level, ctx) {
  const r = level.ruleset || {};
  const out = [];
  const zones = zonesOf(level);
  if (zones.length) {
    // the GM draws the map until the conflict ends (the rules refuse it after)
    out.push(panel("Zones", zoneMap(level, zones, ctx), zoneFacts(level, zones, ctx),
      ctx.send && !ctx.ended ? mapEditor(level, zones, ctx) : null));
  }
  const objects = Object.entries(r.objects || {});
  if (objects.length) {
    out.push(panel("Objects", h("ul", { class: "plain" }, objects.map(([id, o]) => h("li", {},
      h("b", {}, o.name || id), ` · hardness ${o.hardness ?? "?"}`,
      o.zone ? ` · in ${(r.zone_names || {})[o.zone] || o.zone}` : "", objectState(o))))));
  }
  const over = level.status === "ended";  // a go the GM's end cut short is no one's now
  // no turn open and a chase roll due: the chase rolls on its own, no go is under way
  const chaseOnly = !over && !r.opened && (r.due || []).length > 0;
  const chasesOver = over ? "" : r.chases_over || "";  // nothing rolls, no go was ever opened
  const chasesWaiting = over ? "" : r.chases_waiting || "";  // nothing rolls until the GM turns it
  out.push(panel("Popcorn",
    h("p", {}, over ? "the conflict has ended: nobody acts"
      : chaseOnly ? `no turn open: the chase rolls on its own (${(r.due || []).map(ctx.name).join(", ")} rolls next; VR-CHASE-8)`
      : chasesOver ? `no turn open: ${chasesOver}; nothing rolls until the GM opens a turn`
      : chasesWaiting ? `no turn open: ${chasesWaiting}`
      : r.current ? `acting: ${ctx.name(r.current)}${actionsLeft(r.actions_left) ? ` (${actionsLeft(r.actions_left)})` : ""}`
      : "nobody is acting"),
    chaseOnly || chasesOver || chasesWaiting ? null : h("p", {}, h("b", {}, "Gone: "), (r.gone || []).map(ctx.name).join(", ") || "nobody"),
    chaseOnly || chasesOver || chasesWaiting ? null : h("p", {}, h("b", {}, "Not gone: "), (r.not_gone || []).map(ctx.name).join(", ") || "nobody")));
  out.push(panel("Conditions", h("ul", { class: "plain" }, level.participants.map((p) => ladders(p, ctx)))));
  const chases = Object.entries(r.chases || {});
  if (chases.length) {
    out.push(panel("Chase", chases.map(([id, c]) => h("div", { class: "chase" },
      h("p", {}, `${id}: ${ctx.name(c.hunter)} → ${ctx.name(c.quarry)} · ${words(c.stage)}`),
      // the GM's tactics the next roll takes, read before it is made (VR-CHASE-5)
      c.tactics ? h("p", { class: "tactics" }, `next roll ${signed(c.tactics)} for tactics${c.tactics_why ? `: ${c.tactics_why}` : ""}`) : null,
      h("ol", { class: "scale", "aria-label": `chase scale, position ${c.position} of ${c.positions}` },
        Array.from({ length: c.positions }, (_, i) => h("li", { class: i + 1 === c.position ? "here" : "" },
          i + 1 === c.position ? "●" : String(i + 1)))),
      scaleEnds(c, ctx)))));
  }
  return out;
}

// What each end of a running chase's scale means, under it: a hunter's success moves toward 1,
// the quarry's toward the top (VR-CHASE-3); at 1 the hunter may interpose, at the top the
// quarry has got away (VR-CHASE-4); tracking: contact at 1, completely away at the top
// (VR-CHASE-7). None for a race for a prize or a chase that is over. At 1 of a pursuit whose
// quarry rolls (a player character fleeing a GM's character), the interpose is the quarry's
// roll, to evade the hunter (VR-CHASE-6, VR-CHASE-8): the end says so, not that the hunter
// may interpose.
const ENDS = {
  pursuit: ["may interpose", "gets away"],
  tracking: ["makes contact", "is completely away"],
};
function scaleEnds(c, ctx) {
  const ends = ENDS[c.stage];
  if (!ends) return null;
  const bottom = c.stage === "pursuit" && c.roller === c.quarry
    ? `${ctx.name(c.quarry)} interposes to evade ${ctx.name(c.hunter)}` : `${ctx.name(c.hunter)} ${ends[0]}`;
  return h("p", { class: "scale-ends muted" }, `1: ${bottom} · ${c.positions}: ${ctx.name(c.quarry)} ${ends[1]}`);
}

// An object's conditions, the worst last: "broken" once (a condition and a state alike); a
// large object's level of several slots with how many it holds, "damaged (2 of 2 slots)".
function objectState(o) {
  const slots = (c) => ((o.slots || {})[c] || 1);
  const held = (o.conditions || []).filter((c) => c !== "broken").map((c) => (slots(c) > 1
    ? `${words(c)} (${(o.marks || {})[c] || 1} of ${slots(c)} slots)` : words(c)));
  if (o.broken) held.push("broken");
  return held.length ? ` · ${held.join(", ")}` : "";
}

// Whose ladders (and which of their tracks) the viewer opened or closed against the default
// (open while the character, or the track, holds a condition), kept across redraws.
const laddersChosen = new Map();

// A details element open by default while `held`, or as the viewer left it (`key`).
function folding(key, held, summary, body, attrs = {}) {
  const open = laddersChosen.has(key) ? laddersChosen.get(key) : held;
  const toggled = (e) => {
    if (e.target !== e.currentTarget) return;  // a track's own toggle is not its character's
    if (e.target.open === held) laddersChosen.delete(key); else laddersChosen.set(key, e.target.open);
  };
  return h("details", { ...attrs, open, ontoggle: toggled }, h("summary", {}, summary), body);
}

/** A character out of the conflict, in words: "out" and why ("out: unconscious"); "" when in. */
export function outWords(p) {
  if (!p.out) return "";
  return p.out === "out" ? "out" : `out: ${p.out}`;
}

// A character's sheet as the server words it for the viewer (docs/table.md), folded to
// "sheet" until opened; on the GM's, what its player (the table, for an NPC) does not read
// is tagged "GM only" (a line they read part of: "alice reads: zed 1"), and a stat of the
// GM's own that no rule reads says so.
export function sheetOf(p) {
  const items = p.sheet || [];
  if (!items.length) return null;
  const secret = (i) => (i.reads === undefined ? "GM only" : `${p.player || "the table"} reads: ${i.reads}`);
  return folding(`sheet|${p.id}`, false, "sheet", h("dl", { class: "sheet" }, items.flatMap((i) => [
    h("dt", {}, i.label),
    h("dd", {}, i.value, i.secret ? [" ", h("span", { class: "tag gm-only" }, secret(i))] : null,
      i.own ? [" ", h("span", { class: "tag" }, "no rule reads it")] : null)])),
  { class: "sheet-fold", "aria-label": `${possessive(p.name)} sheet` });
}

// Whether a track holds a condition (or has taken its character out).
function holds(info) {
  return Boolean(info.taken_out || Object.values(info.conditions || {}).some((n) => n > 0));
}

// One character's condition ladders, folded to a line (name, harm, summary) unless the
// character holds a condition or the viewer opened them; inside, only the tracks that hold
// a condition are open, each other one a line of its own ("focus: none"), openable.
function ladders(p, ctx) {
  const tracks = Object.entries(p.tracks || {});
  const said = p.summary && p.summary !== p.harm ? p.summary : "";  // a band is said once
  // one out of the conflict says so, and why, before its conditions: taken out, passed out
  const out = p.out ? h("span", { class: "tag" }, outWords(p)) : null;
  const head = [h("b", {}, p.name), " ", out, harmTag(p), said ? h("span", { class: "muted" }, ` ${said}`) : null];
  if (!tracks.length) return h("li", { class: "ladders" }, head);
  const held = tracks.some(([, info]) => holds(info));
  return h("li", { class: "ladders" }, folding(p.id, held, head,
    tracks.map(([track, info]) => folding(`${p.id}|${track}`, holds(info), trackLine(track, info),
      ladder(p, track, info, ctx), { class: "track" }))));
}

// A track in one line: its name, the conditions held ("wounded ×2") or none, its penalty.
function trackLine(track, info) {
  const held = Object.entries(info.conditions || {}).filter(([, n]) => n > 0)
    .map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  return `${track}: ${held.join(", ") || "none"}${info.penalty ? ` (${signed(info.penalty)} to rolls)` : ""}`
    + (info.taken_out ? " · taken out" : "");
}

// One condition ladder: its levels from least to greatest, each with its slots (filled as
// many as the conditions held there) and its penalty, and the track's total penalty.
function ladder(p, track, info, ctx) {
  const levels = (ctx.ladders || {})[track] || Object.keys(info.conditions || {}).map((name) => ({ name, slots: 1, penalty: 0 }));
  const held = info.conditions || {};
  return h("table", { class: "ladder" },
    h("caption", {}, `${p.name}: ${track}`, info.penalty ? ` (${signed(info.penalty)} to rolls)` : "", info.taken_out ? " · taken out" : ""),
    h("tbody", {}, levels.map((lvl) => {
      const n = held[lvl.name] || 0;
      return h("tr", { class: n ? "held" : "" }, h("th", { scope: "row" }, lvl.name),
        h("td", { class: "slots", "aria-label": `${n} of ${lvl.slots} slots filled` },
          Array.from({ length: lvl.slots }, (_, i) => h("span", { class: i < n ? "slot full" : "slot" }, i < n ? "■" : "□"))),
        h("td", {}, lvl.penalty ? `${lvl.penalty}${lvl.each ? " each" : ""}` : "—"));
    })));
}

// The map in words: who stands where (whole names: the map shortens them), who is engaged,
// in cover or guarding a way.
function zoneFacts(level, zones, ctx) {
  const r = level.ruleset || {};
  const zoneName = (id) => (zones.find((z) => z.id === id) || {}).name || id;
  const people = standing(level);
  const facts = zones.map((z) => [z, people.filter((p) => p.zone === z.id)]).filter(([, here]) => here.length)
    .map(([z, here]) => `${z.name || z.id}: ${here.map((p) => p.name).join(", ")}`);
  for (const pair of r.engaged || []) {  // "ada|thug" (the server's key of a pair)
    const two = Array.isArray(pair) ? pair : String(pair).split("|");
    facts.push(`${two.map((id) => ctx.name(id)).join(" and ")} are engaged`);
  }
  for (const [who, value] of Object.entries(r.cover || {})) {
    const amount = typeof value === "object" && value !== null ? value.value : value;
    const share = { "-1": "⅓", "-3": "⅔", "-5": "complete" }[String(amount)];
    // behind what: a miss by the penalty strikes it (VR-ATK-5)
    const object = ((r.objects || {})[(r.cover_behind || {})[who]] || {}).name;
    const behind = object ? ` behind ${object}` : "";
    facts.push(share ? `${ctx.name(who)} has ${share} cover (${String(amount).replace("-", "−")} to attacks on them)${behind}`
      : `${ctx.name(who)} has cover ${amount}${behind}`);
  }
  for (const [between, guards] of Object.entries(r.guards || {})) {
    const [a, b] = between.split("|");
    facts.push(`${(guards || []).map(ctx.name).join(", ")} guards ${zoneName(a)} – ${zoneName(b)}`);
  }
  return facts.length ? h("ul", { class: "facts" }, facts.map((f) => h("li", {}, f))) : null;
}

// The GM edits the map through the rules' own GM commands (VR-MOVE-1/5, VR-ATK-5): who stands
// where (choose a character, then a zone on the map or in the list), links and cover (behind an
// object or none). What the GM chose in its lists is kept across redraws (a frame arriving
// between a choice and its button would put the list back on its first entry), while the
// choice is still offered.
const edits = {};

function mapEditor(level, zones, ctx) {
  const people = level.participants.filter((p) => !p.out);
  const pick = (id, text, options, value) => {
    const chosen = options.some(([v]) => v === edits[id]) ? edits[id] : value;
    return h("p", { class: "field" }, h("label", { for: id }, text),
      h("select", { id, onchange: (e) => { edits[id] = e.target.value; } },
        options.map(([v, label]) => h("option", { value: v, selected: v === chosen }, label))));
  };
  const zoneOptions = zones.map((z) => [z.id, z.name || z.id]);
  const whoOptions = [["", "—"], ...people.map((p) => [p.id, p.name])];
  // what a cover hides behind, a miss striking it (VR-ATK-5): an object where it stands
  const zoneName = new Map(zoneOptions);
  const objectOptions = [["", "— (no object)"], ...Object.entries((level.ruleset || {}).objects || {})
    .map(([id, o]) => [id, `${o.name || id}${o.zone ? ` (in ${zoneName.get(o.zone) || o.zone})` : ""}`])];
  const value = (id) => document.getElementById(id).value;
  // a form with no character chosen ("—") says so rather than nothing
  const forWho = (id, text, form) => (value(id) ? ctx.send(text, form) : ctx.refuse("Choose a character first."));
  return h("div", { class: "map-editor" }, h("h3", {}, "Edit the map"),
    h("form", { class: "command", onsubmit: (e) => { e.preventDefault(); forWho("map-who", `place ${value("map-who")} ${value("map-zone")}`, e.target); } },
      pick("map-who", "Character to move", whoOptions), pick("map-zone", "Zone", zoneOptions),
      h("button", { type: "submit" }, "Place")),
    h("form", { class: "command", onsubmit: (e) => { e.preventDefault(); ctx.send(`link ${value("map-a")} ${value("map-b")}`, e.target); } },
      // the second list starts on another zone: a zone linked to itself links nothing
      pick("map-a", "Link zone", zoneOptions), pick("map-b", "with zone", zoneOptions, (zones[1] || {}).id),
      h("button", { type: "submit" }, "Link")),
    h("form", { class: "command", onsubmit: (e) => {
      e.preventDefault();
      const behind = value("cover-object") ? ` object=${value("cover-object")}` : "";
      forWho("cover-who", `cover ${value("cover-who")} ${value("cover-value")}${behind}`, e.target);
    } },
      pick("cover-who", "Cover for", whoOptions), pick("cover-value", "Cover", [["0", "none"], ["1", "⅓ (1)"], ["3", "⅔ (3)"], ["5", "complete (5)"]]),
      pick("cover-object", "behind", objectOptions), h("button", { type: "submit" }, "Set cover")),
    h("form", { class: "command", onsubmit: (e) => {
      e.preventDefault();
      forWho("guard-who", `guard ${value("guard-who")} ${value("guard-a")} ${value("guard-b")}`, e.target);
    } },
      pick("guard-who", "Guard", whoOptions), pick("guard-a", "the way from zone", zoneOptions),
      pick("guard-b", "to zone", zoneOptions, (zones[1] || {}).id), h("button", { type: "submit" }, "Post guard")),
    h("form", { class: "command", onsubmit: (e) => { e.preventDefault(); forWho("unguard-who", `unguard ${value("unguard-who")}`, e.target); } },
      pick("unguard-who", "Stop guarding", whoOptions), h("button", { type: "submit" }, "Stop")),
    h("form", { class: "command", onsubmit: (e) => {
      e.preventDefault();
      const id = value("zone-id").trim().toLowerCase();
      const name = value("zone-name").trim();
      if (id) ctx.send(`zone ${id}${name ? ` name=${quote(name)}` : ""}`, e.target);
    } },
      h("p", { class: "field" }, h("label", { for: "zone-id" }, "New zone (id)"),
        h("input", { id: "zone-id", required: true, maxlength: 40, pattern: "[A-Za-z0-9_\\-]+",
          placeholder: "cellar" })),
      h("p", { class: "field" }, h("label", { for: "zone-name" }, "its name (optional)"),
        h("input", { id: "zone-name", maxlength: 80, placeholder: "The cellar" })),
      h("button", { type: "submit" }, "Add zone")));
}

// The zones as they are now (the ruleset's live map: the GM may have drawn more), by their
// names (those of the set-up, and of the zones drawn since). A set-up may list a zone by its
// id alone ("bar") or as { id, name }.
export function zonesOf(level) {
  const named = new Map((((level.settings || {}).zones) || []).map((z) =>
    (typeof z === "string" ? [z, z] : [z.id, z.name || z.id])));
  for (const [id, name] of Object.entries((level.ruleset || {}).zone_names || {})) named.set(id, name);
  const live = Object.keys((level.ruleset || {}).zones || {});
  const ids = live.length ? [...new Set([...named.keys(), ...live])] : [...named.keys()];
  return ids.map((id) => ({ id, name: named.get(id) || id }));
}

// Where each zone is drawn: in one row, zigzag, on a wider screen; on a phone in rows of
// three, each row running back the way the one above came, so that zones listed next to each
// other stay next to each other and every zone is in view without scrolling. A row is as
// deep as the longest list of names under its zones (`crowd`: how many stand in each), so
// that a crowded zone's last names are neither cut at the map's foot nor drawn over the row
// below (eight heroes around one thug).
const PHONE = "(max-width: 599px)";
// The public screen on a TV (fracas.css): the map in a column of its own, 29rem wide, where a
// name is drawn as large as the text beside it, and so cut shorter (NAME_TV letters)
const TV = "(min-width: 1200px)";
const NAME = 14;
const NAME_TV = 12;
const ROW = 220;
const WHO = 20;  // a line of the names under a zone
const WHO_TV = 22;  // (18 px on a TV: fracas.css)

/** How far apart the lines of names under a zone are drawn. */
function whoLine() {
  return onTv() ? WHO_TV : WHO;
}

/** Whether the map is drawn for a TV: the public screen, 1,200 px wide or more. */
function onTv() {
  return document.body.classList.contains("public") && window.matchMedia(TV).matches;
}

function zonePlaces(zones, crowd) {
  const phone = window.matchMedia(PHONE).matches;
  const cols = Math.max(1, phone ? Math.min(3, zones.length) : zones.length);
  const width = phone ? 384 : onTv() ? 560 : 640;
  // how much lower every other zone of a row stands: on a TV's narrower steps, less, so that
  // a zone's name clears the names under the zone beside it
  const zig = onTv() ? 60 : 80;
  const step = width / cols;
  // a name wider than its column in lines of its words (the map's edge would cut it), the
  // whole map lower by the lines it takes
  const names = new Map(zones.map((z) => [z.id, nameLines(z.name || z.id, Math.floor((step - 8) / LETTER))]));
  const top = (Math.max(1, ...[...names.values()].map((l) => l.length)) - 1) * LINE;
  // how far below its zone's centre a zone's last name reaches
  const under = (z) => 62 + Math.max(0, (crowd.get(z.id) || 0) - 1) * whoLine();
  const rows = [];
  zones.forEach((z, i) => (rows[Math.floor(i / cols)] ||= []).push(z));
  // each row below the one above it, far enough that the next row's names (at most `top`
  // lines above its zones) clear the names above in the same column
  const lineOf = [top + 70];
  rows.slice(0, -1).forEach((row, r) => lineOf.push(lineOf[r]
    + Math.max(ROW, 62 + top + Math.max(...row.map(under)))));
  const at = new Map(zones.map((z, i) => {
    const row = Math.floor(i / cols);
    const col = row % 2 ? cols - 1 - (i % cols) : i % cols;
    return [z.id, { x: step * col + step / 2, y: lineOf[row] + (col % 2 ? zig : 0), lines: names.get(z.id) }];
  }));
  const foot = Math.max(...zones.map((z) => at.get(z.id).y + under(z) + 8));
  return { at, width, height: Math.max(lineOf[rows.length - 1] + 180, foot) };
}

// A zone's name (20 px, bold: about LETTER px a letter) drawn in lines of at most `room`
// letters, broken between words; a word longer than that keeps a line of its own.
const LETTER = 12.5;
const LINE = 22;
// about how wide a letter of a name under a zone is (17 px; 18 on a TV: fracas.css)
const WHO_LETTER = 9.5;
const WHO_LETTER_TV = 10;
function nameLines(name, room) {
  const lines = [];
  for (const word of name.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= room) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [name];
}

// Where a line of a name is centred: under its zone, or nearer the middle where it would run
// over the map's edge (a word longer than its column).
function inside(x, text, width, letter = LETTER) {
  const half = (text.length * letter) / 2 + 2;
  return half * 2 >= width ? width / 2 : Math.min(Math.max(x, half), width - half);
}

function zoneMap(level, zones, ctx) {
  const r = level.ruleset || {};
  const live = Object.entries(r.zones || {}).flatMap(([a, near]) => (Array.isArray(near) ? near : [])
    .filter((b) => a < b).map((b) => [a, b]));
  const links = live.length ? live : (level.settings || {}).links || [];
  const people = standing(level);
  const crowd = new Map(zones.map((z) => [z.id, people.filter((p) => p.zone === z.id).length]));
  const { at, width, height } = zonePlaces(zones, crowd);
  const [room, letter] = onTv() ? [NAME_TV, WHO_LETTER_TV] : [NAME, WHO_LETTER];
  return h("div", { class: "scroll" }, s("svg", { viewBox: `0 0 ${width} ${height}`, class: "zones", role: "img",
    "aria-label": "zone map" },
    links.filter(([a, b]) => at.has(a) && at.has(b)).map(([a, b]) =>
      s("line", { x1: at.get(a).x, y1: at.get(a).y, x2: at.get(b).x, y2: at.get(b).y, class: "link" })),
    zones.map((z) => {
      const { x, y, lines } = at.get(z.id);
      const here = people.filter((p) => p.zone === z.id);
      const place = ctx.send && !ctx.ended ? () => {
        const who = document.getElementById("map-who");
        if (who && who.value) ctx.send(`place ${who.value} ${z.id}`);
        else ctx.refuse("Choose a character to move first (Character to move, under Edit the map).");
      } : null;
      const attrs = place ? { class: "zone-target", role: "button", tabindex: 0, "data-focus": `zone-${z.id}`,
        "aria-label": `Put the chosen character in ${z.name || z.id}`, onclick: place,
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); place(); } } } : {};
      return s("g", attrs, s("circle", { cx: x, cy: y, r: 34, class: "zone" }),
        s("text", { x, y: y - 40 - (lines.length - 1) * LINE, "text-anchor": "middle", class: "zone-name" },
          // (a space between the lines: the name reads whole, to a screen reader and in a copy)
          lines.map((line, i) => s("tspan", { x: inside(x, line, width), dy: i ? LINE : 0 },
            i < lines.length - 1 ? `${line} ` : line))),
        here.map((p, i) => {  // below the circle, inside the map (a zone at its edge)
          const name = shorten(p.name, people, room);
          return s("text", { x: inside(x, name, width, letter), y: y + 56 + i * whoLine(), "text-anchor": "middle",
            class: "who" }, s("title", {}, p.name), name);
        }));
    })));
}

// Who stands in a zone: the participants of the level with their zone.
function standing(level) {
  const where = (level.ruleset || {}).positions || {};
  return level.participants.map((p) => ({ ...p, zone: where[p.id] || p.zone })).filter((p) => p.zone);
}

// A name cut to fit under its zone; where two names would be cut alike ("Cutthroat of …"),
// each keeps its start and its end ("Cutthr…(left)"); where those are alike too ("Cutthroat of
// the Left Alley" and "… Right Alley"), it reads from the first word that tells it apart
// ("…Left Alley"); at most `room` letters.
function shorten(name, people, room) {
  const start = Math.floor((room - 1) / 2);
  const head = (n) => (n.length > room ? n.slice(0, room - 1) + "…" : n);
  const ends = (n) => (n.length > room ? `${n.slice(0, start)}…${n.slice(start + 1 - room)}` : n);
  if (name.length <= room) return name;
  const others = people.map((p) => p.name).filter((n) => n !== name);
  const alike = others.filter((n) => head(n) === head(name));
  if (!alike.length) return head(name);
  if (!alike.some((n) => ends(n) === ends(name))) return ends(name);
  let same = 0;  // how far the name runs as the others cut alike do
  for (const n of alike) {
    let i = 0;
    while (i < name.length && n[i] === name[i]) i++;
    same = Math.max(same, i);
  }
  const rest = name.slice(name.lastIndexOf(" ", same) + 1);
  return `…${rest.length > room - 1 ? rest.slice(0, room - 2) + "…" : rest}`;
}
