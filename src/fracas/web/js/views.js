// What each ruleset adds to the screen, drawn from the viewer's projection only.
import { h, panel, s, words } from "./dom.js";

/** Whose turn it is: {current: ids acting now, waiting: ids still to act, line}. */
export function turnOf(view, level) {
  const r = level.ruleset || {};
  if (view.ruleset === "etherscope") {
    return { ordered: true, current: ids([r.acting]), waiting: [...new Set(ids(r.to_come))], line: `phase: ${words(r.phase || "")}` };
  }
  if (view.ruleset === "fabula-ultima") {
    const t = r.tracker || {};
    const waiting = Object.values(t.sides || {}).flatMap((side) => Object.keys(side.turns_left || {}));
    return { current: t.may_act || [], waiting, line: t.side_on_turn ? `side on turn: ${t.side_on_turn}` : "" };
  }
  if (view.ruleset === "vers") {
    return { current: r.current ? [r.current] : [], waiting: r.not_gone || [],
             line: r.current ? `${r.actions_left} action(s) left` : "the table picks who opens the turn" };
  }
  return { current: [], waiting: [], line: "" };
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
  const lane = [];
  for (const [id, scores] of Object.entries(r.declared || {})) {
    for (const score of scores || []) lane.push([score, id]);
  }
  lane.sort((a, b) => b[0] - a[0]);
  const countdown = panel("Countdown",
    h("p", {}, `phase: ${words(r.phase || "")}`, actingId ? ` · acting: ${ctx.name(actingId)}` : ""),
    h("ol", { class: "lane" }, lane.map(([score, id]) =>
      h("li", { class: id === actingId ? "chip acting" : "chip" }, h("b", {}, String(score)), " ", ctx.name(id)))));
  const people = level.participants.filter((p) => p.present !== false);
  const band = new Map();
  for (const [a, b, value] of r.ranges || []) {
    band.set(`${a}|${b}`, value);
    band.set(`${b}|${a}`, value);
  }
  const matrix = panel("Ranges", h("div", { class: "scroll" }, h("table", { class: "matrix" },
    h("caption", {}, "Who is Close, Near, Distant or Hidden from whom"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "from \\ to"),
      people.map((p) => h("th", { scope: "col" }, p.name)))),
    h("tbody", {}, people.map((a) => h("tr", {}, h("th", { scope: "row" }, a.name),
      people.map((b) => h("td", {}, a.id === b.id ? "—" : rangeCell(a, b, band.get(`${a.id}|${b.id}`), ctx)))))))));
  const condensers = panel("Condensers", h("ul", { class: "plain" }, people.map((p) =>
    h("li", {}, h("b", {}, p.name), " ", Object.entries(p.condensers || {}).map(([name, [cur, max]]) => bar(name, cur, max)),
      p.awareness !== undefined ? h("span", { class: "tag" }, `awareness ${p.awareness}`) : null))));
  return [setup, countdown, matrix, condensers];
}

const BANDS = ["close", "near", "distant"];

// The GM edits a range in its cell (the rules decide: `set-range A B BAND`); others read it.
function rangeCell(a, b, value, ctx) {
  if (!ctx.send || a.id > b.id) return words(value || "?");
  const select = h("select", { "aria-label": `Range from ${a.name} to ${b.name}`,
    onchange: (e) => ctx.send(`set-range ${a.id} ${b.id} ${e.target.value}`) },
    BANDS.includes(value) ? null : h("option", { value: "" }, words(value || "?")),
    BANDS.map((band) => h("option", { value: band, selected: band === value }, band)));
  return select;
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
        const state = (info.out || []).includes(p.id) ? "out" : left !== undefined
          ? `${left} turn(s) left` : acted ? "acted" : "";
        return h("li", { class: "member" }, h("b", {}, p.name), state ? h("span", { class: "tag" }, state) : null,
          p.hp ? bar("HP", p.hp.current, p.hp.max) : null, p.mp ? bar("MP", p.mp.current, p.mp.max) : null,
          p.crisis ? h("span", { class: "tag crisis" }, "crisis") : null,
          (p.statuses || []).map((st) => h("span", { class: "tag" }, st)),
          p.fp !== undefined ? h("span", { class: "tag" }, `FP ${p.fp}`) : null);
      })));
  });
  return [panel("Sides", h("div", { class: "sides" }, columns),
    h("ul", { class: "plain" }, (r.lines || []).map((line) => h("li", {}, line))))];
}

// --- VERS ------------------------------------------------------------------------------
function vers(level, ctx) {
  const r = level.ruleset || {};
  const out = [];
  const zones = zonesOf(level);
  if (zones.length) out.push(panel("Zones", zoneMap(level, zones, ctx), zoneFacts(r, zones, ctx)));
  const objects = Object.entries(r.objects || {});
  if (objects.length) {
    out.push(panel("Objects", h("ul", { class: "plain" }, objects.map(([id, o]) => h("li", {},
      h("b", {}, o.name || id), ` · hardness ${o.hardness ?? "?"}`, o.broken ? " · broken" : "",
      (o.conditions || []).length ? ` · ${o.conditions.map(words).join(", ")}` : "")))));
  }
  out.push(panel("Popcorn",
    h("p", {}, r.current ? `acting: ${ctx.name(r.current)} (${r.actions_left} action(s) left)` : "nobody is acting"),
    h("p", {}, h("b", {}, "Gone: "), (r.gone || []).map(ctx.name).join(", ") || "nobody"),
    h("p", {}, h("b", {}, "Not gone: "), (r.not_gone || []).map(ctx.name).join(", ") || "nobody")));
  out.push(panel("Conditions", h("ul", { class: "plain" }, level.participants.map((p) =>
    h("li", {}, h("b", {}, p.name), " ", Object.entries(p.tracks || {}).map(([track, info]) =>
      h("span", { class: "ladder" }, `${track}: `,
        Object.entries(info.conditions || {}).map(([c, n]) => `${c}${n > 1 ? " ×" + n : ""}`).join(", ") || "—",
        info.penalty ? ` (${info.penalty})` : "", info.taken_out ? " taken out" : "")))))));
  const chases = Object.entries(r.chases || {});
  if (chases.length) {
    out.push(panel("Chase", chases.map(([id, c]) => h("div", { class: "chase" },
      h("p", {}, `${id}: ${ctx.name(c.hunter)} → ${ctx.name(c.quarry)} · ${words(c.stage)}`),
      h("ol", { class: "scale", "aria-label": `chase scale, position ${c.position} of ${c.positions}` },
        Array.from({ length: c.positions }, (_, i) => h("li", { class: i + 1 === c.position ? "here" : "" },
          i + 1 === c.position ? "●" : String(i + 1))))))));
  }
  return out;
}

function zoneFacts(r, zones, ctx) {
  const zoneName = (id) => (zones.find((z) => z.id === id) || {}).name || id;
  const facts = [];
  for (const pair of r.engaged || []) {
    if (Array.isArray(pair)) facts.push(`${pair.map(ctx.name).join(" and ")} are engaged`);
  }
  for (const [who, value] of Object.entries(r.cover || {})) {
    const amount = typeof value === "object" && value !== null ? value.value : value;
    facts.push(`${ctx.name(who)} has cover ${amount}`);
  }
  for (const [between, guards] of Object.entries(r.guards || {})) {
    const [a, b] = between.split("|");
    facts.push(`${(guards || []).map(ctx.name).join(", ")} guards ${zoneName(a)} – ${zoneName(b)}`);
  }
  return facts.length ? h("ul", { class: "facts" }, facts.map((f) => h("li", {}, f))) : null;
}

function zonesOf(level) {
  const fromSettings = (level.settings || {}).zones;
  if (Array.isArray(fromSettings)) return fromSettings;
  return Object.entries((level.ruleset || {}).zones || {}).map(([id, name]) => ({ id, name: typeof name === "string" ? name : id }));
}

function zoneMap(level, zones, ctx) {
  const width = 640;
  const step = width / zones.length;
  const at = new Map(zones.map((z, i) => [z.id, { x: step * i + step / 2, y: i % 2 ? 150 : 70 }]));
  const r = level.ruleset || {};
  const links = (level.settings || {}).links
    || Object.entries(r.zones || {}).flatMap(([a, near]) => (Array.isArray(near) ? near : [])
      .filter((b) => a < b).map((b) => [a, b]));
  const where = r.positions || {};
  const people = level.participants.map((p) => ({ ...p, zone: where[p.id] || p.zone })).filter((p) => p.zone);
  return h("div", { class: "scroll" }, s("svg", { viewBox: `0 0 ${width} 240`, class: "zones", role: "img",
    "aria-label": "zone map" },
    links.filter(([a, b]) => at.has(a) && at.has(b)).map(([a, b]) =>
      s("line", { x1: at.get(a).x, y1: at.get(a).y, x2: at.get(b).x, y2: at.get(b).y, class: "link" })),
    zones.map((z) => {
      const { x, y } = at.get(z.id);
      const here = people.filter((p) => p.zone === z.id);
      return s("g", {}, s("circle", { cx: x, cy: y, r: 34, class: "zone" }),
        s("text", { x, y: y - 40, "text-anchor": "middle", class: "zone-name" }, z.name || z.id),
        here.map((p, i) => s("text", { x, y: y + 4 + i * 15 - (here.length - 1) * 7, "text-anchor": "middle",
          class: "who" }, shorten(p.name))));
    })));
}

function shorten(name) {
  return name.length > 14 ? name.slice(0, 13) + "…" : name;
}
