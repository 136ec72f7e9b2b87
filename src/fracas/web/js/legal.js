// Controls built from the server's legal commands, whatever form they come in: structured
// values {verb, actor, params: [{name, kind, allowed, required, fixed}]} (sent back in the
// engine's JSON form), or text templates ("ada: attack TARGET weapon=sword|knife", sent back
// in the text notation). No verb has a hand-written form.
import { h, possessive, words } from "./dom.js";
import { kept } from "./typed.js";

// What a free word of a text template stands for.
const HINTS = {
  WHO: "id", ID: "id", A: "id", B: "id", TARGET: "id", ACTOR: "id", TARGETS: "ids",
  IDS: "ids", ZONE: "zone", DICE: "dice", N: "int", EV: "int", STEPS: "int",
};

/** The legal commands of one actor (strings or objects) as uniform descriptions. */
export function normalize(items) {
  const merged = new Map();
  for (const item of items) {
    const command = typeof item === "string" ? fromTemplate(item) : fromData(item);
    // an offer that names what it is (a spell from its caster's sheet: its name fixed) is a
    // control of its own, its variants (the targets) one choice; not one more spell to type
    const named = command.params.find((p) => p.name === "name" && p.fixed !== null);
    const key = `${command.actor || ""}|${command.verb}|${named ? named.fixed : ""}`;
    const known = merged.get(key);
    merged.set(key, known ? mergeVariants(known, command) : { ...command, variants: [command.params] });
  }
  return [...merged.values()];
}

function fromData(item) {
  return {
    source: "json", verb: item.verb, actor: item.actor || null, rule: item.rule || null,
    summary: item.summary || "", label: item.label || "",
    params: (item.params || []).map((p) => ({
      name: p.name, kind: p.kind, allowed: p.allowed, required: p.required !== false,
      fixed: p.fixed ?? null, positional: false, help: p.help || "", default: p.default ?? null,
      unset: p.unset || "",
      suggested: p.suggested || [],
    })),
  };
}

function fromTemplate(text) {
  let actor = null;
  let rest = text;
  const head = /^([a-z0-9_-]+): (.*)$/.exec(text);
  if (head) [, actor, rest] = head;
  const [verb, ...parts] = rest.split(/\s+/);
  const params = parts.map((part, index) => {
    const eq = part.indexOf("=");
    const named = eq > 0 ? part.slice(0, eq) : null;
    const value = named ? part.slice(eq + 1) : part;
    const base = { name: named || `${index}`, positional: !named, required: !named, fixed: null,
                   allowed: null, label: named || null };
    if (/^[A-Z][A-Z_+]*$/.test(value)) {  // a free value: TARGET, DICE, ATTR+ATTR
      return { ...base, kind: HINTS[value] || "text", label: named || value.toLowerCase() };
    }
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(value);
    if (range) {
      const allowed = [];
      for (let n = Number(range[1]); n <= Number(range[2]); n++) allowed.push(n);
      return { ...base, kind: "int", allowed, label: named || "number" };
    }
    if (value.includes("|")) {
      return { ...base, kind: "choice", allowed: value.split("|"), label: named || "choice" };
    }
    return { ...base, kind: "fixed", fixed: value };
  });
  return { source: "text", verb, actor, rule: null, params };
}

// Variants of one verb ("ada: attack bruno weapon=sword", "ada: attack imp weapon=unarmed",
// "ada: declare 10", "ada: declare SCORES"): one control. A parameter fixed alike in every
// variant stays fixed; one that differs becomes a choice among the values the variants allow
// (free when a variant leaves it free); one missing from a variant is optional.
function mergeVariants(a, b) {
  const names = [...new Set([...a.params, ...b.params].map((p) => p.name))];
  const params = names.map((name) => {
    const p = a.params.find((q) => q.name === name);
    const q = b.params.find((r) => r.name === name);
    if (!p || !q) {
      const x = p || q;
      return x.fixed !== null ? { ...x, fixed: null, allowed: [x.fixed], required: false } : { ...x, required: false };
    }
    if (p.fixed !== null && q.fixed !== null && same(p.fixed, q.fixed)) return p;
    const values = (x) => (x.fixed !== null ? [x.fixed] : x.allowed);
    const [vp, vq] = [values(p), values(q)];
    const allowed = vp && vq ? unique([...vp, ...vq]) : null;
    return { ...p, fixed: null, allowed, kind: p.kind, required: p.required && q.required,
             label: p.label || q.label, merged: true };
  });
  return { ...a, params, label: a.label === b.label ? a.label : "", variants: [...a.variants, b.params] };
}

// Whether one variant's parameters take `text` (a field's value; "" for none) for `name`.
function admits(variant, name, text) {
  const p = variant.find((q) => q.name === name);
  if (!p) return text === "";
  if (text === "") return !p.required;
  if (p.fixed !== null) return textOf(p.fixed) === text;
  return !p.allowed || p.allowed.some((v) => textOf(v) === text);
}

// The value one variant fixes for `name` as a field holds it ("" for none; null: free).
function fixedIn(variant, name) {
  const p = variant.find((q) => q.name === name);
  if (!p) return "";
  return p.fixed !== null ? textOf(p.fixed) : null;
}

function textOf(value) {
  return Array.isArray(value) ? value.join(",") : String(value);
}

// A merged command's choices narrowed to the variants that take what is chosen before them:
// once the target is chosen, only the weapons that can strike it are offered; a value no
// such variant has is hidden. A choice the user has not made follows the server's order of
// what is left (a VERS attack: the first of the actor's weapons that can strike the target,
// the one the engine takes when none is named), never the first of another target's; a
// choice no longer offered gives way to the first one left.
function narrow(command, fields) {
  if (!command.variants || command.variants.length < 2) return;
  let open = command.variants;
  for (const f of fields) {
    const name = f.param.name;
    const takes = (text) => open.some((v) => admits(v, name, text));
    if (f.input.tagName === "SELECT") {
      for (const o of f.input.options) {
        o.hidden = o.disabled = !takes(o.value);
        if (o.disabled && f.input.multiple) o.selected = false;  // not offered: not sent
      }
      const first = open.length && open.length < command.variants.length && !f.input.dataset.chosen
        ? fixedIn(open[0], name) : null;
      if (!f.input.multiple && first !== null && takes(first)) f.input.value = first;
      else if (!f.input.multiple && f.input.selectedOptions[0]?.disabled) {
        const left = [...f.input.options].find((o) => !o.disabled);
        if (left) f.input.value = left.value;
      }
    }
    const unused = open.every((v) => !v.some((q) => q.name === name));
    f.wrap.hidden = f.input.disabled = unused;  // a disabled field is neither checked nor sent
    if (unused && !f.input.multiple) f.input.value = "";
    // a value still to type (a check's attributes, an item's name) rules no variant out: the
    // fields after it stay in view while it is empty
    const untyped = f.input.tagName === "INPUT" && valueOf(f) === "";
    if (!f.input.multiple && !untyped) open = open.filter((v) => admits(v, name, valueOf(f)));
    // several picked (an Etherscope move's targets): the variants that take each of them (a
    // step toward, once one picked is Close, is no longer offered)
    const picked = f.input.multiple ? [...f.input.selectedOptions].map((o) => o.value) : [];
    if (picked.length) open = open.filter((v) => picked.every((x) => admits(v, name, x)));
  }
  // the fold of rarely needed values names those left in view (a weapon's accuracy, not an
  // armour's Defense), and goes while none is
  const fold = fields.map((f) => f.wrap.closest("details.more")).find(Boolean);
  if (fold) {
    const shown = fields.filter((f) => fold.contains(f.wrap) && !f.wrap.hidden);
    fold.hidden = !shown.length;
    fold.querySelector("summary").textContent = moreOptions(shown);
  }
}

function same(x, y) {
  return JSON.stringify(x) === JSON.stringify(y);
}

function unique(values) {
  const seen = new Map(values.map((v) => [JSON.stringify(v), v]));
  return [...seen.values()];
}

/** The words of the text notation for a value (quoted as the engine's quote() does). */
export function quote(text) {
  if (text && !/[\s'"\\#;&|<>()$`*?[\]{}~!]/.test(text)) return text;
  if (!text.includes("'")) return `'${text}'`;
  if (!/["\\$`]/.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A form for one legal command; onSubmit(command, form, done) gets the text or JSON command
 * (and the words that say what it did, "" for the text's own) and answers (or promises)
 * whether it was accepted. */
export function commandForm(command, context, { onSubmit, onChange }) {
  const free = command.params.filter((p) => p.fixed === null);
  const title = titleOf(command, context);
  const uid = `c${++serial}`;
  const fields = free.map((p, i) => field(p, `${uid}-${i}`, context, command.actor, command.verb));
  const odds = h("output", { class: "odds", "aria-live": "polite", for: fields.map((f) => f.id).join(" ") || null });
  const about = aboutOf(command);
  const key = `${context.conflict || ""}|${command.actor || ""}|${command.verb}|${title}`;
  for (const f of fields) {
    keep(f, `${key}|${f.param.name}`);
    f.input.dataset.focus = `${key}|${f.param.name}`;  // a redraw gives the focus back to it
  }
  const form = h("form", { class: "command", "data-verb": command.verb },
    free.length && about ? h("p", { class: "about", id: `${uid}-about` }, about) : null,
    folded(fields, `${key}|more`, command.verb),
    h("button", { type: "submit", title: free.length ? null : about, "data-focus": `${key}|send` },
      free.length ? buttonOf(command, context) : title), odds);
  const build = () => buildCommand(command, free, fields);
  narrow(command, fields);
  form.addEventListener("change", () => narrow(command, fields));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const built = build();
    if (await onSubmit(built, form, doneOf(command, built, context))) forget(fields, key, command.verb);
  });
  if (onChange) {
    form.addEventListener("change", () => onChange(build, odds));
    onChange(build, odds);
  }
  if (!free.length) return form;
  // kept at the click itself, not only at the toggle that follows it: a frame arriving in
  // between redraws the controls, and the command opened would be drawn closed again
  // (its odds are asked once it is opened: a folded command's are of no one's use, and eight
  // players' pages asking them of every folded command on every move cost the server more
  // than the moves themselves)
  const details = h("details", { class: "command", open: kept.get(key) === "open",
    ontoggle: (e) => {
      kept.set(key, e.target.open ? "open" : "");
      if (e.target.open && onChange) onChange(build, odds);
    } },
  h("summary", { "data-focus": `${key}|open`, "aria-describedby": about ? `${uid}-about` : null,  // said as it is reached
    onclick: () => kept.set(key, details.open ? "" : "open") }, title), form);
  return details;
}

// The fields of a form, its rarely needed ones (two or more optional values typed in freely,
// such as an EV or a difficulty; not the dice or the skill, nor those IN_VIEW) folded under
// "more options"; open while one of them holds a value, or when the viewer opened it.
function folded(fields, key, verb) {
  const rare = fields.filter((f) => !f.param.required && f.input.tagName === "INPUT" && f.param.kind !== "dice"
    && f.param.name !== "skill" && !(IN_VIEW[verb] || []).includes(f.param.name));
  if (rare.length < 2) return fields.map((f) => f.wrap);
  const open = kept.get(key) === "open" || rare.some((f) => valueOf(f) !== "");
  const more = h("details", { class: "more", open, ontoggle: (e) => kept.set(key, e.target.open ? "open" : "") },
    h("summary", {}, moreOptions(rare)),
    h("div", { class: "fields" }, rare.map((f) => f.wrap)));
  return [...fields.filter((f) => !rare.includes(f)).map((f) => f.wrap), more];
}

// The optional fields typed in freely that stay in view, by verb: what a rule spends
// successes on or the action is defined by (an Etherscope act's difficulty, extras and hurt,
// ES-ACT-4; a Push Back's damage, ES-ACT-5), a spell's MP cost and damage (a cast at 0 MP by
// oversight would leave it unpaid, a hit with no damage typed would deal none), a Fabula
// Ultima item's damage, initiative and Defense (an armour declared with its name alone
// changes nothing) and a newcomer's name, player and stats (a PC joining mid-session has a
// player; an Etherscope join needs its condenser).
const IN_VIEW = {
  act: ["difficulty", "extras", "hurt"], push: ["damage"], spell: ["mp", "damage"],
  equip: ["damage", "init", "defense"], join: ["name", "player", "stats"],
};

// The title of a fold of rarely needed `fields`: "more options: ev, difficulty".
function moreOptions(fields) {
  return `more options: ${fields.map((f) => words(f.param.label || f.param.name)).join(", ")}`;
}

// "Ada: attack Bruno": the actor (unless the controls are under the actor's own heading,
// `context.group`), then the offer's label ("get past the guard into {to}", with the value
// of `to` named, or "…" while it is still to choose), or its verb and fixed values.
function titleOf(command, context) {
  const what = command.label ? [labelOf(command, context).text] : [words(command.verb),
    ...command.params.filter((p) => p.fixed !== null).map((p) =>
      (typeof p.fixed === "boolean" ? `${words(p.name)} ${p.fixed ? "yes" : "no"}`
        : p.positional || command.source === "json" ? label(p.fixed, context, p.kind)
          : `${p.name}=${label(p.fixed, context, p.kind)}`))];
  const actor = command.actor && command.actor !== context.group ? context.name(command.actor) + ":" : null;
  return [actor, ...what].filter(Boolean).join(" ");
}

// The words on a form's button: the label where it is whole, else the verb as a button says
// it (BUTTON_WORDS: a spell is cast).
function buttonOf(command, context) {
  const named = command.label ? labelOf(command, context) : { open: true };
  return named.open ? BUTTON_WORDS[command.verb] || words(command.verb) : named.text;
}

// The word on the button of a verb that is not itself what the user does: the `spell`
// command's button casts it ("cast Fire blast (10 MP) on …" under it, FU-RES-3).
const BUTTON_WORDS = { spell: "cast" };

// What the foot of the screen says was done once the command `sent` is accepted: its
// actor and the offer's label, with the values sent in its slots ("Ada: spend a Fabula
// Point"); "" where the offer has no label of its own (a form merging offers of one verb:
// the log's own words for the command say it) and for one sent in the text notation (its
// text says it).
function doneOf(command, sent, context) {
  if (typeof sent === "string" || !command.label) return "";
  const what = command.label.replace(/\{(\w+)\}/g, (_, name) => {
    const p = command.params.find((q) => q.name === name);
    return name in sent.args ? label(sent.args[name], context, p && p.kind) : "…";
  });
  return command.actor ? `${context.name(command.actor)}: ${what}` : what;
}

// The offer's label with its slots filled in; `open` when one is still to choose.
function labelOf(command, context) {
  let open = false;
  const text = command.label.replace(/\{(\w+)\}/g, (_, name) => {
    const p = command.params.find((q) => q.name === name);
    if (p && p.fixed !== null) return label(p.fixed, context, p.kind);
    open = true;
    return "…";
  });
  return { text, open };
}

// What a command does, from the server's summary of it, with the rule it serves:
// "Gain or spend Fabula Points (FU-CHK-4)".
function aboutOf(command) {
  const text = (command.summary || "").replace(/^\[[a-z]+\]\s*/i, "").trim();  // no "[default]"
  if (!text) return null;
  return text[0].toUpperCase() + text.slice(1) + (command.rule ? ` (${command.rule})` : "");
}

// The choices that describe what was typed beside them, by verb, cleared with it: a spell's,
// an item's or dealt damage's type (the next spell is another: a fire type kept would send
// "Tail sweep" out as fire, against the affinities the GM set).
const GOES_WITH_TYPED = { spell: ["type"], equip: ["type"], damage: ["type"] };

// What was typed or chosen, and which commands were open (`kept`, typed.js), survive a
// redraw of the controls (they are rebuilt when someone else's action changes the legal
// commands) and a reload of the page, in one conflict (the key begins with its id: another
// conflict's Ada starts afresh).
//
// Once a command is accepted, what was typed in its form (dice, words said, a reason) is
// gone: the next go starts empty, never rolls the same dice or says the same words again. A
// choice from a list (a target, a weapon) stays, but for one that belongs with what was typed
// (GOES_WITH_TYPED); a refused command keeps all, to be put right.
function forget(fields, key, verb) {
  const withTyped = GOES_WITH_TYPED[verb] || [];
  for (const f of fields) {
    if (f.input.tagName !== "INPUT" && !withTyped.includes(f.param.name)) continue;
    kept.delete(`${key}|${f.param.name}`);
    f.input.value = "";
    delete f.input.dataset.chosen;
  }
}

function keep(f, key) {
  const input = f.input;
  input.dataset.kept = key;  // (what a reload clears once the command sent is accepted)
  if (kept.has(key)) {
    const value = kept.get(key);
    if (input.multiple) for (const o of input.options) o.selected = value.split(",").includes(o.value);
    else input.value = value;
    input.dataset.chosen = "yes";  // the user's: narrowing the choices keeps it while it can
  }
  const chosen = () => {
    input.dataset.chosen = "yes";
    kept.set(key, valueOf(f));
  };
  input.addEventListener("input", chosen);
  input.addEventListener("change", chosen);
}

let serial = 0;

// A value as the viewer reads it: a character's (an object's, a zone's) name for its id, the
// names of a list of characters joined ("Bruno, The zepcar driver").
function label(value, context, kind) {
  if (Array.isArray(value)) return value.map((v) => label(v, context, kind === "ids" ? "id" : kind)).join(", ");
  return context.name(String(value), kind) || String(value);
}

function field(param, id, context, actor, verb) {
  const name = param.label || param.name;
  const text = words(name) + (param.required ? "" : " (optional)");
  let input;
  let suggestions = null;
  let about = param.help;
  const options = foesFirst(param, inOrder(param, param.allowed, context) || optionsOf(param.kind, context), context, actor);
  if (options) {
    // a list of characters offered one at a time ("move toward Bruno", "… toward the
    // zepcar") is one choice; a free list, several (at least one when it is required)
    const one = options.every((v) => Array.isArray(v) && v.length === 1);
    const multiple = param.kind === "ids" && !one;
    input = h("select", { id, name: param.name, multiple, required: param.required });
    if (!param.required && !multiple) input.append(h("option", { value: "" }, unset(param, context)));
    for (const value of options) {
      input.append(h("option", { value: textOf(value) }, param.kind === "choice" ? words(textOf(value))
        : param.kind === "bool" ? (value === true || value === "true" ? "yes" : "no")
          : label(value, context, param.kind)));
    }
  } else if (param.kind === "bool") {
    input = h("select", { id, name: param.name },
      h("option", { value: "" }, unset(param, context)), h("option", { value: "yes" }, "yes"), h("option", { value: "no" }, "no"));
  } else if (param.kind === "int") {
    input = h("input", { id, name: param.name, type: "number", inputmode: "numeric", required: param.required });
  } else if (param.kind === "new-id" || param.kind === "keys") {
    // a new participant's id (join), or names of stats (join's gm_only): typed, never picked
    // from the characters already there
    const one = "[A-Za-z0-9][A-Za-z0-9_\\-]*";
    input = h("input", { id, name: param.name, type: "text", maxlength: 1000, required: param.required,
      autocapitalize: "none", spellcheck: "false",
      pattern: param.kind === "keys" ? `\\s*${one}(\\s*,\\s*${one})*\\s*` : `\\s*${one}\\s*`,
      placeholder: param.kind === "keys" ? "hp,mp" : null });
    about = [param.help, param.kind === "keys" ? "stat names separated by commas"
      : "a new id: letters, digits, - and _"].filter(Boolean).join("; ");
  } else if (param.kind === "dice" || param.kind === "ints") {
    input = h("input", { id, name: param.name, inputmode: "numeric", pattern: "\\s*\\d+(\\s*,\\s*\\d+)*\\s*",
      placeholder: param.kind === "dice" ? "empty: fracas rolls" : "7,1", required: param.required });
  } else {
    // a skill the rules leave open (any skill may be tried): the actor's own as suggestions,
    // those that fit the verb where the rules narrow it (a repair: the repair skill, or a
    // background or special one); the values the rules name for a free one (the ways a
    // conflict ends): offered, the first filled in, any other typed over it; what an empty
    // optional field stands for in its placeholder
    const skills = param.name === "skill" && actor && context.skillsOf ? context.skillsOf(actor, verb) : [];
    const named = (param.suggested || []).map(textOf);
    const listed = skills.length ? skills : named;
    const empty = !param.required && param.kind !== "text" && param.default !== null && param.default !== undefined && param.default !== ""
      ? `empty: ${textOf(param.default)}` : null;
    input = h("input", { id, name: param.name, type: "text", maxlength: 1000, required: param.required,
      list: listed.length ? `${id}-suggested` : null, placeholder: empty });
    if (listed.length) suggestions = h("datalist", { id: `${id}-suggested` }, listed.map((k) => h("option", { value: k })));
    if (skills.length) {
      const own = new Set(context.skillsOf(actor));  // of the suggestions, those on the sheet
      const mine = skills.filter((k) => own.has(k));
      about = [param.help, empty, mine.length ? `${possessive(context.name(actor))}: ${mine.join(", ")}` : null]
        .filter(Boolean).join("; ");
    } else if (named.length) {
      if (param.default !== null && param.default !== undefined) input.value = textOf(param.default);
      // (led by what the value is, where the command says: "the side the newcomer takes
      // part on: heroes; bandits")
      about = `${param.help || "the rules name"}: ${named.join("; ")} (or any other)`;
    } else if (empty) {
      about = [param.help, empty].filter(Boolean).join("; ");
    }
  }
  // the ruleset says how many dice (VERS: "3d6 rolled at the table (4,3,2)")
  // (read with the field by a screen reader, which Tab takes past the text under it)
  const hint = param.kind === "dice" ? h("small", { id: `${id}-hint` }, param.help || "faces rolled at the table, e.g. 5,6,2")
    : about ? h("small", { id: `${id}-hint` }, about) : null;
  if (hint) input.setAttribute("aria-describedby", hint.id);
  const wrap = h("p", { class: "field" }, h("label", { for: id }, text), input, suggestions, hint);
  return { id, input, wrap, param };
}

// The empty choice of an optional list: what leaving it stands for, where the rules say
// ("— (public)", "— (round end)", "— (no)"; in words where no value says it: "— (the band
// kept while hidden)"), else a dash.
function unset(param, context) {
  const d = param.default;
  if (d === null || d === undefined || d === "") return param.unset ? `— (${param.unset})` : "—";
  const said = typeof d === "boolean" ? (d ? "yes" : "no")
    : param.kind === "choice" ? words(textOf(d)) : label(d, context, param.kind);
  return `— (${said})`;
}

// A list of characters each offer lists its own part of (a conceal's from=, a push's
// toward=, narrowed to the one chosen before): in the order of the participants, not in the
// order the offers came in.
function inOrder(param, allowed, context) {
  if (!allowed || !param.merged || param.kind !== "ids") return allowed;
  const at = new Map(context.participants.map((p, i) => [p.id, i]));
  const place = (v) => at.get(String(v)) ?? at.size;
  return [...allowed].sort((a, b) => place(a) - place(b));
}

// A target's choices with the actor's foes first (the first is the one chosen at first);
// the order is otherwise the server's.
function foesFirst(param, options, context, actor) {
  if (!options || !actor || !["target", "targets"].includes(param.name)) return options;
  const sideOf = new Map(context.participants.map((p) => [p.id, p.side]));
  const mine = sideOf.get(actor);
  const ally = (value) => (mine !== undefined && sideOf.get(String(value)) === mine ? 1 : 0);
  return [...options].sort((a, b) => ally(a) - ally(b));
}

function optionsOf(kind, context) {
  if (kind === "id" || kind === "ids") return context.participants.map((p) => p.id);
  if (kind === "zone" && context.zones.length) return context.zones.map((z) => z.id);
  return null;
}

function valueOf(f) {
  if (f.input.multiple) return [...f.input.selectedOptions].map((o) => o.value).join(",");
  return f.input.value.trim();
}

function buildCommand(command, free, fields) {
  const values = new Map(fields.map((f) => [f.param, valueOf(f)]));
  if (command.source === "json") {
    const args = {};
    for (const p of command.params) {
      if (p.fixed !== null) args[p.name] = p.fixed;
      else if (values.get(p) !== "") args[p.name] = typed(p.kind, values.get(p));
    }
    return { actor: command.actor, verb: command.verb, args };
  }
  const parts = command.actor ? [`${command.actor}:`, command.verb] : [command.verb];
  for (const p of command.params) {
    const value = p.fixed !== null ? p.fixed : values.get(p);
    if (value === "" || value === undefined) continue;
    const word = p.fixed !== null ? value : quote(value);
    parts.push(p.positional ? word : `${p.name}=${word}`);
  }
  return parts.join(" ");
}

function typed(kind, raw) {
  if (kind === "int") return Number(raw);
  if (kind === "ints" || kind === "dice") return raw.split(",").map((x) => Number(x.trim()));
  if (kind === "ids" || kind === "keys") return raw.split(",").map((x) => x.trim()).filter(Boolean);
  if (kind === "bool") return raw === "yes" || raw === "true";
  if (kind === "value") {
    try { return JSON.parse(raw); } catch { return raw; }
  }
  return raw;
}

/** Whether a command (as built) has every required value. */
export function complete(form) {
  return form.checkValidity();
}
