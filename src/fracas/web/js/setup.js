// The GM's form for a new conflict: ruleset, its set-up choices, sides (with what players see
// of their harm), participants with stats and GM-only stats. It sends a scenario's set-up as
// JSON (POST …/conflicts/form); the server checks it as it checks a scenario file and a
// refusal shows the engine's own words.
import { h } from "./dom.js";

let serial = 0;  // element ids unique on the page (a row's number is its place among those shown)

/** The form; onCreate(body) sends it (a promise, rejected with the server's refusal), and
 * showError(error) shows a refusal, said with the field it is about. */
export function setupForm(rulesets, onCreate, showError) {
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
  // the rest of a VERS battlefield, each as the GM's command in play words it (docs/vers.md)
  const objects = h("input", { id: id("objects"), name: "objects", maxlength: 2000,
    placeholder: "counter=Bar counter material=wood zone=bar slots=2, table material=wood" });
  const objectsField = field("Objects (VERS: id=name, then material=, zone=, slots=; comma-separated)", objects,
    `material: ${(byName.get("vers") || {}).materials?.join(", ")}; or hardness=RANK; zone= where it stands (none: struck from anywhere); slots= for a large one`);
  const cover = h("input", { id: id("cover"), name: "cover", maxlength: 1000,
    placeholder: "mira=3 object=counter, ada=1" });
  const coverField = field("Cover (VERS: who=1, 3 or 5, then object= what they hide behind; comma-separated)", cover,
    "1: ⅓, 3: ⅔, 5: complete (VR-ATK-5); the object stands in their zone, or in none");
  const guards = h("input", { id: id("guards"), name: "guards", maxlength: 1000, placeholder: "bouncer=door-street" });
  const guardsField = field("Guards (VERS: who=the link they guard, comma-separated)", guards,
    "a link as Links writes it; the guard stands in one of its two zones (VR-MOVE-5)");
  const versFields = [zonesField, linksField, objectsField, coverField, guardsField];
  // an Etherscope pair's own starting range and the groups that stand together, both kept
  // from the players (GM-only settings, docs/etherscope.md)
  const pairs = h("input", { id: id("pairs"), name: "pairs", maxlength: 2000,
    placeholder: "ada-zepcar=distant, bruno-zepcar=distant" });
  const pairsField = field("Ranges of pairs (Etherscope: a-b=close, near or distant; comma-separated)", pairs,
    "a pair that starts otherwise than the starting range above (ES-START-3); kept from the players");
  const groups = h("input", { id: id("groups"), name: "groups", maxlength: 2000, placeholder: "pursuers=ada bruno" });
  const groupsField = field("Groups (Etherscope: name=its members' ids, comma-separated)", groups,
    "those who stand together, moved as one (ES-START-6); kept from the players");
  const etherscopeFields = [pairsField, groupsField];
  // which field a refusal is about: the setting its sentence starts with (settings.cover: …)
  const fields = [[zones, "Zones", "settings.zones"], [links, "Links", "settings.links"],
    [objects, "Objects", "settings.objects"], [cover, "Cover", "settings.cover"], [guards, "Guards", "settings.guards"],
    [pairs, "Ranges of pairs", "settings.ranges.pairs"], [groups, "Groups", "settings.groups"]]
    .map(([input, label, key]) => ({ input, label, about: (error) => startsWith(error.message, key) }));
  const choices = h("div", { class: "choices" });
  const harms = h("div", { class: "choices" });
  const people = h("div", { class: "people-setup" });
  // what every row's fields take, said once above the rows (not under each row's field)
  const gearHint = h("small", { id: "setup-equipment-hint" }, "Equipment (Fabula Ultima): kind=name, the kind "
    + "armor, shield, weapon or accessory, then its values as the equip command takes them: a weapon's accuracy=dex+mig, "
    + "bonus=, damage=, type=; any item's init=, defense=, mdef= (FU-CON-2)");
  const spellHint = h("small", { id: "setup-spells-hint" }, "Spells (Fabula Ultima): its name, then its values as the "
    + "spell command takes them: mp=, damage=, type=, target=foe, ally, self or none (left out: foe), accuracy= "
    + "of a check other than ins+wlp, recover= and recover_mp= the HP and MP a heal restores (FU-RES-3), "
    + "status= the status effect a hit puts on its target (FU-RES-4)");
  const peopleHints = h("p", { class: "field hints" },
    h("small", { id: "setup-kind-hint" }, "Kind: pc once a player is named, else npc, unless you choose."), gearHint, spellHint);
  const sideList = () => sides.value.split(",").map((x) => x.trim()).filter(Boolean);
  const zoneEntries = () => zones.value.split(",").map((x) => x.trim()).filter(Boolean).map(zoneOf);
  const zoneList = () => zoneEntries().map((z) => z.id);

  const refreshChoices = () => {
    const rs = byName.get(ruleset.value);
    const was = new Map([...form.querySelectorAll(".choices select")].map((el) => [el.id, el.value]));
    for (const f of versFields) f.hidden = rs.name !== "vers";
    for (const f of etherscopeFields) f.hidden = rs.name !== "etherscope";
    gearHint.hidden = spellHint.hidden = rs.name !== "fabula-ultima";
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
    const rows = [...people.children];
    if (rs.name === "vers") battlefield(settings, objects.value, cover.value, guards.value, zoneList());
    if (rs.name === "etherscope") {
      standing(settings, pairs.value, groups.value, rows.map((row) => row.value().id));
      for (const row of rows) row.lurking(settings);
    }
    const setup = { ruleset: rs.name, title: title.value.trim(), scene: scene.value.trim(),
      sides: sideList(), settings, participants: rows.map((row) => row.value()) };
    onCreate({ setup }).catch((error) => refused(error, [...fields, ...[...people.children].flatMap((row) => row.fields())], showError));
  } },
  field("Ruleset", ruleset), field("Title", title), field("Scene", scene),
  field("Sides (comma-separated)", sides,
    "Etherscope and VERS may have none; Fabula Ultima needs the two that take turns"), ...versFields, choices,
  ...etherscopeFields, harms,
  h("h3", {}, "Participants"), peopleHints, people,
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

// A refusal's sentence without the "the form: " it starts with (as a file's starts with its
// name).
function bare(message) {
  return String(message || "").replace(/^the form(:\d+)?: /, "");
}

// Whether a refusal's sentence is about key (settings.cover: …, settings.lurking.agent2 …).
function startsWith(message, key) {
  return [":", " ", ".", "["].some((next) => bare(message).startsWith(key + next));
}

// A refusal of the form said with the field it is about ("Cover: mira: no object …"), that
// field marked invalid and described by it, and the focus put there to mend it; all that is
// typed stays. One about no field of the form's (a participant's id twice) is said as it is.
function refused(error, fields, showError) {
  const field = error && error.code ? fields.find((f) => f.about(error)) : null;
  if (!field) return showError(error);
  const message = bare(error.message).replace(/^settings\.[a-z_]+(\.[a-z]+)?:\s*/, "");
  showError({ code: error.code, rule: error.rule, values: error.values, message: `${field.label}: ${message}` });
  field.input.setAttribute("aria-invalid", "true");
  const hint = field.input.getAttribute("aria-describedby");
  field.input.setAttribute("aria-describedby", hint ? `error ${hint}` : "error");
  field.input.focus();
}

// Whether a refusal of a Fabula Ultima character's stats is about its equipment: an entry or
// item in general, or one of the items named ("ada: Twin daggers: accuracy must …").
function aboutGear(message, names) {
  const rest = bare(message).replace(/^[^:]*: /, "");
  return /^(an? )?(equipment|item)/.test(rest) || names.some((n) => rest.startsWith(`${n}: `));
}

// Whether a refusal of a Fabula Ultima character's stats is about its spells: spells or a
// spell in general ("ada: the spell 'fire' is listed twice"), or one of the spells named
// ("ada: Fire blast: a spell has no 'dammage'…").
function aboutSpells(message, names) {
  const rest = bare(message).replace(/^[^:]*: /, "");
  return /^(spells|a spell|the spell)\b/.test(rest) || names.some((n) => rest.startsWith(`${n}: `));
}

// The spells typed "Fire blast mp=10 damage=15 type=fire, Heal mp=10 target=ally": each its
// name, then its values as the spell command takes them (FU-RES-3).
function spellsOf(text) {
  return entriesOf(text).map((e) => ({ name: e.value ? `${e.key}=${e.value}` : e.key, ...typedPairs(e.pairs) }));
}

// Entries typed "id=name key=value key=value, …" (a VERS object "counter=Bar counter
// material=wood zone=bar", a cover "mira=3 object=counter", a Fabula Ultima item "weapon=Twin
// daggers damage=4"): each its id (before the first =), the words after it up to the first
// key=value, and those pairs (a value of several words runs on to the next pair).
function entriesOf(text) {
  return text.split(",").map((x) => x.trim()).filter(Boolean).map((entry) => {
    const words = entry.split(/\s+/);
    const at = words.findIndex((w, i) => i > 0 && /^[a-z_]+=/.test(w));
    const head = (at < 0 ? words : words.slice(0, at)).join(" ");
    const pairs = {};
    let last = null;
    for (const w of at < 0 ? [] : words.slice(at)) {
      const m = /^([a-z_]+)=(.*)$/.exec(w);
      if (m) [last, pairs[m[1]]] = [m[1], m[2]];
      else pairs[last] += ` ${w}`;
    }
    const eq = head.indexOf("=");
    return { key: (eq < 0 ? head : head.slice(0, eq)).trim(), value: eq < 0 ? "" : head.slice(eq + 1).trim(), pairs };
  });
}

// The pairs of an entry, each value a number where it reads as one.
function typedPairs(pairs) {
  return Object.fromEntries(Object.entries(pairs).map(([k, v]) => [k, typedValue(v.trim())]));
}

// A VERS battlefield's objects, cover and guards as typed (VR-OBJ-1, VR-ATK-5, VR-MOVE-5),
// put into settings (those left empty are left out): the server checks them as a file's.
function battlefield(settings, objects, cover, guards, zones) {
  const items = entriesOf(objects).map((e) => ({ id: e.key, ...(e.value ? { name: e.value } : {}), ...typedPairs(e.pairs) }));
  const covers = entriesOf(cover).map((e) => ({ who: e.key, value: typedValue(e.value), ...e.pairs }));
  const posts = entriesOf(guards).map((e) => ({ who: e.key, between: linksOf(e.value, zones)[0] || [] }));
  if (items.length) settings.objects = items;
  if (covers.length) settings.cover = covers;
  if (posts.length) settings.guards = posts;
}

// An Etherscope conflict's pairs that start at a range of their own and its groups, as typed
// (ES-START-3, ES-START-6), put into settings (those left empty are left out).
function standing(settings, pairs, groups, ids) {
  const ranged = entriesOf(pairs).map((e) => [...(linksOf(e.key, ids)[0] || [e.key, ""]), e.value]);
  const grouped = entriesOf(groups).map((e) => [e.key, e.value.split(/\s+/).filter(Boolean)]);
  if (ranged.length) settings.ranges = { ...(settings.ranges || {}), pairs: ranged };
  if (grouped.length) settings.groups = Object.fromEntries(grouped);
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

// A field that takes a line's room it shares (a row's Other stats: two side by side on a tablet).
function wide(p) {
  p.classList.add("wide");
  return p;
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
  // sized to what they hold, so that a row's id, name, kind, side and player share a line
  const pid = h("input", { id: id("id"), required: true, maxlength: 40, pattern: "[a-z][a-z0-9_\\-]*",
    placeholder: "ada", size: 10 });
  const name = h("input", { id: id("name"), required: true, maxlength: 200, placeholder: "Ada", size: 16 });
  const kind = h("select", { id: id("kind"), "aria-describedby": "setup-kind-hint" },
    ["pc", "npc", "group"].map((k) => h("option", { value: k }, k)));
  const side = h("select", { id: id("side") });
  const player = h("input", { id: id("player"), maxlength: 40, pattern: "[a-z][a-z0-9_\\-]*",
    placeholder: "alice (for a pc)", size: 14 });
  kindFollowsPlayer(kind, player);
  const hidden = hiddenAtStart(id("hidden"));
  const zone = h("select", { id: id("zone") });
  const zoneField = field("Zone", zone);
  // an Etherscope lurker, hidden from those it names only (its allies see it, ES-RNG-1)
  const lurk = h("input", { id: id("lurk"), maxlength: 1000, placeholder: "kim, bruno" });
  const lurkField = field("Hidden at the start from (Etherscope: ids, comma-separated)", lurk);
  // a Fabula Ultima character's equipment, each item as its equip command words it (FU-CON-2)
  const equip = h("input", { id: id("equip"), maxlength: 2000, "aria-describedby": "setup-equipment-hint",
    placeholder: "weapon=Twin daggers accuracy=dex+ins bonus=1 damage=4, armor=Bronze plate init=-2 defense=1" });
  const equipSecret = h("input", { type: "checkbox", id: id("equip-gm"), "aria-label": "equipment GM only" });
  const equipField = h("p", { class: "field wide" }, h("label", { for: equip.id }, "Equipment (Fabula Ultima: items, comma-separated)"),
    h("span", { class: "inline with-box" }, equip, equipSecret, h("label", { for: equipSecret.id }, "GM only")));
  // its spells, each as its spell command words it, cast from the table in one tap (FU-RES-3)
  const spells = h("input", { id: id("spells"), maxlength: 2000, "aria-describedby": "setup-spells-hint",
    placeholder: "Fire blast mp=10 damage=15 type=fire, Heal mp=10 target=ally" });
  const spellsSecret = h("input", { type: "checkbox", id: id("spells-gm"), "aria-label": "spells GM only" });
  const spellsField = h("p", { class: "field wide" }, h("label", { for: spells.id }, "Spells (Fabula Ultima: spells, comma-separated)"),
    h("span", { class: "inline with-box" }, spells, spellsSecret, h("label", { for: spellsSecret.id }, "GM only")));
  const stats = h("div", { class: "stats" });
  const other = h("input", { id: id("other"), maxlength: 1000 });
  const otherSecret = h("input", { id: id("other-gm"), maxlength: 1000 });
  const legend = h("legend", {});
  const removal = h("button", { type: "button", onclick: remove }, "Remove");
  const row = h("fieldset", { class: "person-setup" }, legend,
    field("Id", pid), field("Name", name), field("Kind", kind), field("Side", side),
    field("Player (their link's name)", player), hidden.wrap, lurkField, zoneField, stats, equipField, spellsField,
    wide(field("Other stats (name=value, comma-separated)", other)),
    wide(field("Other stats GM only (name=value: kept from every player, theirs too)", otherSecret)), removal);
  row.renumber = (k) => {
    legend.textContent = `Participant ${k}`;
    removal.setAttribute("aria-label", `Remove participant ${k}`);
  };
  row.refresh = () => {
    const rs = ruleset();
    const keep = side.value;
    side.replaceChildren(h("option", { value: "" }, "—"), ...sides().map((s) => h("option", { value: s, selected: s === keep }, s)));
    zoneField.hidden = rs.name !== "vers" || !zones().length;
    lurkField.hidden = rs.name !== "etherscope";
    equipField.hidden = spellsField.hidden = rs.name !== "fabula-ultima";
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
      // its GM-only box beside it, named with the stat for a screen reader ("hp GM only")
      const secret = h("input", { type: "checkbox", id: id(`gm-${st.name}`), "data-gm": st.name,
        "aria-label": `${st.name} GM only` });
      return h("p", { class: "field stat" }, h("label", { for: input.id }, st.name),
        h("span", { class: "inline" }, input, secret, h("label", { for: secret.id }, "GM only")));
    }));
  };
  row.fields = () => [{ input: lurk, label: `${legend.textContent}: Hidden at the start from`,
    about: (error) => startsWith(error.message, `settings.lurking.${pid.value.trim()}`) },
  { input: equip, label: `${legend.textContent}: Equipment`, about: (error) => !equipField.hidden
    && (error.values || {}).participant === pid.value.trim() && aboutGear(error.message, items().map((i) => i.name || i.kind)) },
  { input: spells, label: `${legend.textContent}: Spells`, about: (error) => !spellsField.hidden
    && (error.values || {}).participant === pid.value.trim() && aboutSpells(error.message, spellsOf(spells.value).map((x) => x.name)) }];
  const items = () => entriesOf(equip.value).map((e) => ({ kind: e.key, ...(e.value ? { name: e.value } : {}), ...typedPairs(e.pairs) }));
  row.lurking = (settings) => {
    const from = lurk.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (from.length && !lurkField.hidden) settings.lurking = { ...settings.lurking, [pid.value.trim()]: from };
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
    if (!equipField.hidden && items().length) {
      out.stats.equipment = items();
      if (equipSecret.checked) out.gm_only.push("equipment");
    }
    if (!spellsField.hidden && spellsOf(spells.value).length) {
      out.stats.spells = spellsOf(spells.value);
      if (spellsSecret.checked) out.gm_only.push("spells");
    }
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
