// The GM's form for a new conflict: ruleset, its set-up choices, sides (with what players see
// of their harm), participants with stats and GM-only stats. It sends a scenario's set-up as
// JSON (POST …/conflicts/form); the server checks it as it checks a scenario file and a
// refusal shows the engine's own words.
import { h } from "./dom.js";

let serial = 0;  // element ids unique on the page (a row's number is its place among those shown)

/** The form; onCreate(body) sends it (and shows any refusal). */
export function setupForm(rulesets, onCreate) {
  const byName = new Map(rulesets.map((r) => [r.name, r]));
  const id = (name) => `setup-${name}`;
  const ruleset = h("select", { id: id("ruleset"), name: "ruleset" },
    rulesets.map((r) => h("option", { value: r.name }, r.title)));
  const title = h("input", { id: id("title"), name: "title", maxlength: 200, required: true });
  const scene = h("input", { id: id("scene"), name: "scene", maxlength: 2000 });
  const sides = h("input", { id: id("sides"), name: "sides", maxlength: 400,
    pattern: "\\s*[a-z][a-z0-9_\\-]*(\\s*,\\s*[a-z][a-z0-9_\\-]*)*\\s*", placeholder: "heroes, foes" });
  const zones = h("input", { id: id("zones"), name: "zones", maxlength: 1000,
    placeholder: "bar=The bar, floor=Common room, door" });
  const zonesField = field("Zones (VERS: ids, comma-separated)", zones,
    "each id may be given a name after = (bar=The bar), shown on the map; else the id is");
  const links = h("input", { id: id("links"), name: "links", maxlength: 1000,
    placeholder: "dock-catwalk, dock-office, dock-street" });
  const linksField = field("Links (VERS: pairs of zones, comma-separated)", links,
    "empty: each zone linked to the next, in the order given");
  const choices = h("div", { class: "choices" });
  const harms = h("div", { class: "choices" });
  const people = h("div", { class: "people-setup" });
  const sideList = () => sides.value.split(",").map((x) => x.trim()).filter(Boolean);
  const zoneEntries = () => zones.value.split(",").map((x) => x.trim()).filter(Boolean).map(zoneOf);
  const zoneList = () => zoneEntries().map((z) => z.id);

  const refreshChoices = () => {
    const rs = byName.get(ruleset.value);
    const was = new Map([...form.querySelectorAll(".choices select")].map((el) => [el.id, el.value]));
    zonesField.hidden = rs.name !== "vers";
    linksField.hidden = rs.name !== "vers";
    choices.replaceChildren(...rs.choices.map((c) => {
      const allowed = c.allowed === "sides" ? sideList() : c.allowed;
      const select = h("select", { id: id(`choice-${c.name}`), name: c.name, "data-choice": c.name },
        h("option", { value: "" }, `— (${c.default || "the rules' default"})`),
        allowed.map((v) => h("option", { value: v }, v)));
      select.value = was.get(select.id) || "";
      return field(c.label, select);
    }));
    harms.replaceChildren(...sideList().map((side) => field(`What players see of the harm of ${side}`,
      h("select", { id: id(`harm-${side}`), "data-side": side },
        rs.harm_views.map((v) => h("option", { value: v, selected: was.get(id(`harm-${side}`)) === v }, HARM_WORDS[v] || v))))));
    for (const row of people.children) row.refresh();
  };

  // the rows shown are numbered 1, 2, … whatever was added and removed before
  const renumber = () => [...people.children].forEach((row, i) => row.renumber(i + 1));
  const addPerson = () => {
    const row = personRow(() => byName.get(ruleset.value), sideList, zoneEntries, () => {
      row.remove();
      renumber();
    });
    people.append(row);
    renumber();
    row.refresh();
  };

  ruleset.addEventListener("change", () => {
    people.replaceChildren();
    addPerson();
    refreshChoices();
  });
  sides.addEventListener("input", refreshChoices);
  zones.addEventListener("input", refreshChoices);

  const form = h("form", { id: "from-form", class: "setup", onsubmit: (e) => {
    e.preventDefault();
    const rs = byName.get(ruleset.value);
    const settings = {};
    for (const select of choices.querySelectorAll("select[data-choice]")) {
      if (select.value) put(settings, select.dataset.choice, select.value);  // ranges.default
    }
    const harm = {};
    for (const select of harms.querySelectorAll("select[data-side]")) harm[select.dataset.side] = select.value;
    settings.harm_view = harm;
    if (rs.name === "vers" && zoneList().length) {
      const list = zoneList();
      settings.zones = zoneEntries();
      settings.links = links.value.trim() ? linksOf(links.value, list)
        : list.slice(1).map((z, i) => [list[i], z]);
    }
    const setup = { ruleset: rs.name, title: title.value.trim(), scene: scene.value.trim(),
      sides: sideList(), settings, participants: [...people.children].map((row) => row.value()) };
    onCreate({ setup });
  } },
  field("Ruleset", ruleset), field("Title", title), field("Scene", scene),
  field("Sides (comma-separated)", sides,
    "Etherscope and VERS may have none; Fabula Ultima needs the two that take turns"), zonesField, linksField, choices, harms,
  h("h3", {}, "Participants"), people,
  h("p", { class: "buttons" },
    h("button", { type: "button", onclick: addPerson }, "Add a participant"),
    h("button", { type: "submit" }, "Create from the form")));
  addPerson();
  refreshChoices();
  return form;
}

// A zone typed as "bar=The bar" (its id and name) or "bar" (named by its id).
function zoneOf(text) {
  const at = text.indexOf("=");
  const zid = (at < 0 ? text : text.slice(0, at)).trim();
  return { id: zid, name: (at < 0 ? "" : text.slice(at + 1).trim()) || zid };
}

// The links typed as "dock-catwalk, dock-office": each pair split at the dash that leaves two
// of the zones (an id may hold a dash itself: "back-room-hall"); one that leaves none is sent
// split at its first dash, for the server to refuse in its own words.
function linksOf(text, zones) {
  const known = new Set(zones);
  return text.split(",").map((x) => x.trim()).filter(Boolean).map((pair) => {
    const cuts = [...pair.matchAll(/-/g)].map((m) => m.index);
    const at = cuts.find((i) => known.has(pair.slice(0, i).trim()) && known.has(pair.slice(i + 1).trim()))
      ?? cuts[0] ?? pair.length;
    return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
  });
}

// node with value at its dotted path ("skills.drive": node.skills.drive).
function put(node, key, value) {
  const path = key.split(".");
  for (const part of path.slice(0, -1)) node = node[part] = node[part] || {};
  node[path.at(-1)] = value;
}

// A value typed as name=value: a number, yes or no (true/false: Fabula Ultima's extra=true),
// else the text as typed.
function typedValue(raw) {
  if (raw !== "" && !Number.isNaN(Number(raw))) return Number(raw);
  const word = raw.toLowerCase();
  return ["true", "yes"].includes(word) ? true : ["false", "no"].includes(word) ? false : raw;
}

const HARM_WORDS = { exact: "exact values", band: "a band (unhurt / hurt / in crisis / down)", none: "nothing" };

function field(text, input, hint = null) {
  const label = h("label", { for: input.id }, text);
  if (hint) input.setAttribute("aria-describedby", `${input.id}-hint`);
  return h("p", { class: "field" }, label, input, hint ? h("small", { id: `${input.id}-hint` }, hint) : null);
}

// A row's Kind follows its Player until the GM chooses a kind: a row with a player is a pc,
// one without an npc (a thug typed in is never made a PC unasked).
function kindFollowsPlayer(kind, player) {
  let chosen = false;
  kind.value = "npc";
  kind.addEventListener("change", () => { chosen = true; });
  player.addEventListener("input", () => {
    if (!chosen) kind.value = player.value.trim() ? "pc" : "npc";
  });
}

// A character concealed from the start (an ambusher, a sniper): the server leaves it out of
// the set-up every player reads and has it join concealed at once (join … hidden=yes).
function hiddenAtStart(id) {
  const box = h("input", { type: "checkbox", id });
  const wrap = h("p", { class: "field inline" }, box,
    h("label", { for: id }, "Hidden from the players at the start (reveal it in play)"));
  return { box, wrap };
}

// Other stats kept from the players (an NPC's skills and weapons, its Defense), typed as
// "Other stats" are: each is GM-only by its first name ("skills.close_combat=3" keeps all of
// skills), while those typed in "Other stats" stay in view (a thug's weapon beside his secret
// skills).
const OTHER_SECRET_EXAMPLE = {
  etherscope: "skills.stealth=4, pool=3",
  "fabula-ultima": "defense=11, affinities.fire=absorb",
  vers: "skills.close_combat=3, weapons.club.ev=4, weapons.club.kind=close",
  default: "name=value",
};

// The name=value pairs of a field, each put into stats; answers their first names.
function readStats(text, stats) {
  const keys = [];
  for (const pair of text.split(",").map((x) => x.trim()).filter(Boolean)) {
    const [key, raw = ""] = pair.split("=").map((x) => x.trim());
    put(stats, key, typedValue(raw));
    keys.push(key.split(".")[0]);
  }
  return keys;
}

// What "Other stats" takes, in each ruleset's own words, each one that works typed in as it
// reads: an Etherscope character's skill ratings and pool (docs/etherscope.md), a Fabula
// Ultima PC's IP, Fabula Points and an affinity (docs/fabula-ultima.md), a VERS character's
// skills and weapons (docs/vers.md); never another game's.
const OTHER_EXAMPLE = {
  etherscope: "skills.drive=4, skills.brawl=3, pool=2",
  "fabula-ultima": "ip=6, fp=3, affinities.ice=vulnerable",
  vers: "skills.close_combat=3, weapons.sword.ev=5, weapons.sword.kind=close",
  default: "name=value",
};

// One participant: id, name, kind, side, player, the ruleset's stats (each may be GM-only),
// other stats as name=value.
function personRow(ruleset, sides, zones, remove) {
  const n = ++serial;
  const id = (name) => `p${n}-${name}`;
  const pid = h("input", { id: id("id"), required: true, maxlength: 40, pattern: "[a-z][a-z0-9_\\-]*",
    placeholder: "ada" });
  const name = h("input", { id: id("name"), required: true, maxlength: 200, placeholder: "Ada" });
  const kind = h("select", { id: id("kind") }, ["pc", "npc", "group"].map((k) => h("option", { value: k }, k)));
  const side = h("select", { id: id("side") });
  const player = h("input", { id: id("player"), maxlength: 40, pattern: "[a-z][a-z0-9_\\-]*",
    placeholder: "alice (for a pc)" });
  kindFollowsPlayer(kind, player);
  const hidden = hiddenAtStart(id("hidden"));
  const zone = h("select", { id: id("zone") });
  const zoneField = field("Zone", zone);
  const stats = h("div", { class: "stats" });
  const other = h("input", { id: id("other"), maxlength: 1000 });
  const otherSecret = h("input", { id: id("other-gm"), maxlength: 1000 });
  const legend = h("legend", {});
  const removal = h("button", { type: "button", onclick: remove }, "Remove");
  const row = h("fieldset", { class: "person-setup" }, legend,
    field("Id", pid), field("Name", name), field("Kind", kind, "pc once a player is named, else npc, unless you choose"), field("Side", side),
    field("Player (their link's name)", player), hidden.wrap, zoneField, stats,
    field("Other stats (name=value, comma-separated)", other),
    field("Other stats GM only (name=value: kept from every player, theirs too)", otherSecret), removal);
  row.renumber = (k) => {
    legend.textContent = `Participant ${k}`;
    removal.setAttribute("aria-label", `Remove participant ${k}`);
  };
  row.refresh = () => {
    const rs = ruleset();
    const keep = side.value;
    side.replaceChildren(h("option", { value: "" }, "—"), ...sides().map((s) => h("option", { value: s, selected: s === keep }, s)));
    zoneField.hidden = rs.name !== "vers" || !zones().length;
    const z = zone.value;
    zone.replaceChildren(h("option", { value: "" }, "—"),
      ...zones().map((s) => h("option", { value: s.id, selected: s.id === z }, s.name === s.id ? s.id : `${s.name} (${s.id})`)));
    if (stats.dataset.ruleset === rs.name) return;
    stats.dataset.ruleset = rs.name;
    other.placeholder = OTHER_EXAMPLE[rs.name] || OTHER_EXAMPLE.default;
    otherSecret.placeholder = OTHER_SECRET_EXAMPLE[rs.name] || OTHER_SECRET_EXAMPLE.default;
    stats.replaceChildren(...rs.stats.map((st) => {
      const input = st.allowed
        ? h("select", { id: id(`stat-${st.name}`), "data-stat": st.name },
          h("option", { value: "" }, st.default ? `— (${st.default})` : "—"),
          st.allowed.map((v) => h("option", { value: v }, String(v))))
        : h("input", { id: id(`stat-${st.name}`), "data-stat": st.name, type: "number", min: st.min, max: st.max,
          inputmode: "numeric" });
      const secret = h("input", { type: "checkbox", id: id(`gm-${st.name}`), "data-gm": st.name });
      return h("p", { class: "field stat" }, h("label", { for: input.id }, st.name), input,
        h("span", { class: "inline" }, secret, h("label", { for: secret.id }, `${st.name} GM only`)));
    }));
  };
  row.value = () => {
    const out = { id: pid.value.trim(), name: name.value.trim(), kind: kind.value, stats: {}, gm_only: [] };
    if (side.value) out.side = side.value;
    if (player.value.trim()) out.player = player.value.trim();
    if (hidden.box.checked) out.hidden = true;
    for (const input of stats.querySelectorAll("[data-stat]")) {
      if (input.value !== "") out.stats[input.dataset.stat] = typedValue(input.value);  // rank: a text
    }
    if (zone.value && !zoneField.hidden) out.stats.zone = zone.value;
    readStats(other.value, out.stats);
    for (const box of stats.querySelectorAll("[data-gm]")) {
      if (box.checked) out.gm_only.push(box.dataset.gm);
    }
    for (const key of readStats(otherSecret.value, out.stats)) {
      if (!out.gm_only.includes(key)) out.gm_only.push(key);
    }
    return out;
  };
  return row;
}
