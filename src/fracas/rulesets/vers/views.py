"""What VERS shows: log sentences, the turn tracker, battlefield, harm and legal commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine.commands import Command
from fracas.engine.context import DecideContext
from fracas.engine.describe import name_of
from fracas.engine.events import ROUND_ENDED, ROUND_STARTED, TURN_ENDED, TURN_STARTED, Event
from fracas.engine.model import ConflictState, Viewer
from fracas.errors import FracasError
from fracas.rulesets.vers.checks import breakdown, check_text, signed
from fracas.rulesets.vers.odds import p_success
from fracas.rulesets.vers.state import ATTRIBUTES, VersExt, weapons_of

if TYPE_CHECKING:
    from fracas.rulesets.vers.ruleset import Vers


def _n(state: ConflictState, pid: str | None) -> str:
    ext: VersExt | None = state.ext
    if pid and ext is not None and pid in ext.objects and pid not in state.participants:
        return ext.objects[pid].name
    return name_of(state, pid)


def describe(event: Event, state: ConflictState) -> str | None:
    """A one-line sentence for each VERS event (None: the engine's own text)."""
    t, d = event.type, event.data
    who = _n(state, event.actor)
    if t == TURN_STARTED:
        say = f' — "{d["say"]}"' if d.get("say") else ""
        how = "opens the turn" if d.get("opens") else (
            f"takes the hand-off from {_n(state, d['from'])}" if d.get("from") else
            "takes the hand-off from the GM" if d.get("by_gm") else "acts")
        n = int(d.get("actions", 2))
        return f"{_n(state, d['participant'])} {how} ({n} action{'s' if n != 1 else ''}){say}"
    if t == TURN_ENDED and d.get("out"):
        return f"{_n(state, d['participant'])}'s go ends (out of the conflict)"
    if t == ROUND_STARTED:
        return f"turn {d.get('round')} begins"
    if t == ROUND_ENDED:
        return f"turn {d.get('round')} ends; the table picks who opens the next ('open WHO')"
    if t == "attack":
        free = "free attack: " if d.get("free") else ""
        res = "hit" if d["hit"] else ("strikes the cover" if d.get("cover_hit") else "miss")
        need = f", needs {d['min_dos']} DoS to reach" if d.get("min_dos") else ""
        net = f"; net EV {d['ev']} − RV {d['rv']} = {d['net']}" if "net" in d else ""
        need = need if d.get("target_number") is not None else (
            ", needs 3 DoS per zone beyond the next" if d.get("min_dos") else "")
        if d.get("track"):
            return (f"{who} strikes at {_n(state, d['target'])}'s {d['track']} with "
                    f"{d['weapon']} ({d['kind']}): {check_text(d)} → {res}{net}")
        return (f"{free}{who} attacks {_n(state, d['target'])} with {d['weapon']} "
                f"({d['kind']}): {check_text(d)}{need} → {res}{net}")
    if t == "condition":
        if d.get("taken_out") and d.get("level") is None:
            ev = f" for net EV {d['ev']}" if "ev" in d else ""
            return f"{_n(state, d['who'])} has no free {d['track']} level left{ev}: taken out"
        up = f" (upgraded from {d['landed']})" if d.get("upgraded") else ""
        ev = f", net EV {d['ev']}" if "ev" in d else ""
        return f"{_n(state, d['who'])} is {d['level']}{up} ({d['track']}{ev})"
    if t == "object_damaged":
        if d.get("level") is None:
            return f"{_n(state, d['object'])} shrugs off EV {d['ev']} (hardness {d['hardness']})"
        up = " (upgraded)" if d.get("upgraded") else ""
        sheltered = [_n(state, p) for p in d.get("uncovered", [])]
        broken = (" — it no longer works" + (f"; no more cover for {', '.join(sheltered)}"
                                             if sheltered else "")) if d.get("broken") else ""
        return (f"{_n(state, d['object'])} is {d['level']}{up}: EV {d['ev']} − hardness "
                f"{d['hardness']} = {d['net']}{broken}")
    if t == "moved":
        how = f" ({check_text(d['check'])}: {d['result']})" if d.get("check") else ""
        return f"{_n(state, d['who'])} moves from {d['from']} to {d['to']}{how}"
    if t == "slipped":
        res = "gets past" if d["check"]["success"] else "is stopped"
        guards = ", ".join(_n(state, g) for g in d["guards"])
        return f"{_n(state, d['who'])} tries to slip past {guards} to {d['to']}: " \
               f"{check_text(d['check'])} → {res}"
    if t == "disengaged":
        res = "breaks away" if d["check"]["success"] else "fails to break away"
        return f"{_n(state, d['who'])} disengages: {check_text(d['check'])} → {res}"
    if t == "endured":
        res = "stays conscious" if d["success"] else "passes out"
        return f"{_n(state, d['who'])} rolls to stay conscious: {check_text(d)} → {res}"
    if t == "recovered":
        res = f"removes {d['level']}" if d.get("level") else "no recovery"
        return f"{who} recovers {_n(state, d['who'])} ({d['track']}): " \
               f"{check_text(d['check'])} → {res}"
    if t == "repaired":
        res = f"mends {d['level']}" if d.get("level") else "no repair"
        return f"{who} repairs {_n(state, d['object'])}: {check_text(d['check'])} → {res}"
    return _describe_more(event, state)


def _describe_more(event: Event, state: ConflictState) -> str | None:
    t, d = event.type, event.data
    who = _n(state, event.actor)
    if t == "zone_added":
        return f"zone {d['zone']} ({d['name']}) drawn"
    if t == "zones_linked":
        return f"zones {d['a']} and {d['b']} joined"
    if t == "placed":
        return f"{_n(state, d['who'])} is placed in {d['zone']}"
    if t == "guard_posted":
        return f"{_n(state, d['who'])} guards the way {d['link'].replace('|', '–')}"
    if t == "guard_left":
        return f"{_n(state, d['who'])} stops guarding"
    if t == "cover_set":
        obj = f" behind {_n(state, d['object'])}" if d.get("object") else ""
        part = COVER_SHARE.get(int(d["value"]), "")
        return (f"{_n(state, d['who'])} has {part} cover ({signed(int(d['value']))} to attacks "
                f"on them){obj}") if d["value"] else f"{_n(state, d['who'])} has no cover"
    if t == "object_added":
        return f"object {d['name']}: hardness {d['hardness']}, {d['slots']} slot(s) a level"
    if t == "object_restored":
        return f"the GM restores {_n(state, d['object'])}"
    if t == "chase_started":
        what = f"race for {d['prize']}" if d.get("prize") else d["stage"]
        return (f"chase {d['id']} ({what}): {_n(state, d['hunter'])} hunts "
                f"{_n(state, d['quarry'])}, position {d['position']} of {d['positions']}; "
                f"{_n(state, d['roller'])} rolls")
    if t == "chase_stage":
        return f"chase {d['id']} turns to {d['stage']}: position {d['position']} of " \
               f"{d['positions']}"
    if t in ("chase_roll", "chase_interpose"):
        kind = "interposes" if t == "chase_interpose" else (
            "seeks for an hour" if d.get("stage") == "tracking" else "runs")
        why = f" — {d['why']}" if d.get("why") else ""
        return (f"{who} {kind} (chase {d['id']}): {check_text(d['check'])}; position "
                f"{d['from']} → {d['to']}, {d['new_stage']}{why}")
    return None


# --- projection --------------------------------------------------------------------------

#: GM-only stats behind a character's own TNs, and behind the penalty it imposes as defender.
_SHEET = frozenset({"tn", "skills", *ATTRIBUTES})
_DEFENCE = frozenset({"dodge", "skills", "resolve", "poise", *ATTRIBUTES})
_ARMOR = frozenset({"rv", "focus_rv", "morale_rv"})
_CHECKS = {"moved": "who", "slipped": "who", "disengaged": "who", "recovered": None,
           "repaired": None, "chase_roll": None, "chase_interpose": None}


def _secret(state: ConflictState, viewer: Viewer, pid: Any, keys: frozenset[str]) -> bool:
    p = state.participants.get(pid) if isinstance(pid, str) else None
    mine = viewer.player is not None and p is not None and p.owner == viewer.player
    return p is not None and not mine and bool(set(p.gm_only) & keys)


def _mask(state: ConflictState, viewer: Viewer, c: dict[str, Any], roller: Any,
          others: list[Any], reach_hidden: bool = False) -> dict[str, Any] | None:
    """``c`` (a check) with what GM-only stats give away hidden, or None if nothing is."""
    hide_tn = _secret(state, viewer, roller, _SHEET)
    names = [state.participants[o].name for o in others
             if _secret(state, viewer, o, _DEFENCE)]
    mods = []
    changed = hide_tn
    for label, value in c.get("mods") or []:
        text = str(label)
        if any(text.startswith(f"{n}'s") or (text.startswith("guarded by") and n in text)
               for n in names) or (text == "reach" and reach_hidden):
            mods.append([label, None])
            changed = True
        else:
            mods.append([label, value])
    if not changed:
        return None
    out = {**c, "mods": mods, "modifier": None, "target_number": None, "dos": None,
           "dof": None, "breakdown": breakdown(mods)}
    if hide_tn:
        out["tn"] = None
    return out


def redact(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """Hide from a player what GM-only stats give away: an NPC's TNs, the Dodge, Close
    Combat, Athletics or Stealth it imposes as a penalty, its reach, armor and weapon EVs
    (and the totals and margins that would reveal them)."""
    if viewer.is_gm:
        return event
    t, d = event.type, dict(event.data)
    changed = False
    if t == "attack":
        target = d.get("target")
        reach_hidden = _secret(state, viewer, event.actor, frozenset({"reach"})) or \
            _secret(state, viewer, target, frozenset({"reach"}))
        masked = _mask(state, viewer, d, event.actor, [target], reach_hidden)
        if masked is not None:
            d, changed = masked, True
        drop = set()
        if _secret(state, viewer, event.actor, frozenset({"weapons"})):
            drop |= {"ev", "rv", "net"}
        if _secret(state, viewer, target, _ARMOR):
            drop |= {"rv", "net"}
        if drop & set(d):
            d = {k: v for k, v in d.items() if k not in drop}
            changed = True
    elif t == "endured":
        masked = _mask(state, viewer, d, d.get("who"), [])
        if masked is not None:
            d, changed = masked, True
    elif t == "condition":
        if _secret(state, viewer, d.get("who"), _ARMOR) and "ev" in d:
            d.pop("ev")
            changed = True
    elif t in _CHECKS and isinstance(d.get("check"), dict):
        key = _CHECKS[t]
        roller = d.get(key) if key else event.actor
        others: list[Any] = list(d.get("guards") or [])
        if t in ("chase_roll", "chase_interpose"):
            chase = state.ext.chases.get(d.get("id")) if state.ext is not None else None
            if chase is not None:
                others.append(chase.opponent)
        masked = _mask(state, viewer, d["check"], roller, others)
        if masked is not None:
            d["check"], changed = masked, True
    if not changed:
        return event
    return Event(event.type, d, event.actor, event.visibility)


# --- participants and tracker ------------------------------------------------------------

def view_participant(state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
    """Harm at a glance plus tracks, zone, engagement, cover and pending rolls."""
    ext: VersExt = state.ext
    tracks: dict[str, Any] = {}
    parts: list[str] = []
    for track, ladder in ext.ladders(pid).items():
        held = {lvl.name: len(ladder.marks[i]) for i, lvl in enumerate(ladder.levels)
                if ladder.marks[i]}
        tracks[track] = {"conditions": held, "penalty": ladder.total_penalty(),
                         "taken_out": ladder.taken_out}
        parts += [f"{name}{' ×' + str(n) if n > 1 else ''}" for name, n in held.items()]
    penalty = ext.harm_penalty(pid)
    summary = ", ".join(parts) if parts else "unhurt"
    if penalty:
        summary += f" ({penalty} to rolls)"
    if pid in ext.pending_discipline:
        summary += "; must roll to stay conscious"
    return {"summary": summary, "tracks": tracks, "penalty": penalty,
            "zone": ext.zones.zone_of(pid), "engaged": ext.engaged_with(pid),
            "cover": ext.cover.get(pid, 0), "disabled": ext.disabled(pid)}


#: How much of a character its cover hides, by the attack penalty it gives (VR-ATK-5).
COVER_SHARE = {-1: "⅓", -3: "⅔", -5: "complete"}


def view_ext(state: ConflictState, viewer: Viewer) -> dict[str, Any]:
    """The turn tracker, zones, guards, objects and chases as lines plus data."""
    ext: VersExt = state.ext
    turns = ext.turns

    def n(pid: str) -> str:
        return _n(state, pid)

    lines: list[str] = []
    openers = ", ".join(f"{n(p)} (turn {i + 1})" for i, p in enumerate(turns.openers))
    if turns.round_opened:
        head = f"Turn {state.round}"
    elif state.round:
        head = f"Turn {state.round} over · the table picks who opens turn {state.round + 1}"
    else:
        head = "Turn 1 not opened yet · the table picks who opens it"
    ended = state.status == "ended"
    if ended:
        head = f"Ended during turn {state.round}"
    lines.append(head + (f" · opened by {openers}" if openers else ""))
    if turns.current and not ended:
        lines.append(f"Acting: {n(turns.current)} ({turns.actions_left} action(s) left)")
    gone = [p for p in turns.gone if p in turns.members and p != turns.current]
    if not ended:
        not_gone = ", ".join(n(p) for p in turns.not_gone()) or "nobody"
        lines.append(f"Gone: {', '.join(n(p) for p in gone) or 'nobody'} · not gone: {not_gone}")
    for zid, zone in ext.zones.zones.items():
        here = ", ".join(n(p) for p in ext.zones.occupants(zid)) or "empty"
        near = ", ".join(ext.zones.neighbours(zid))
        lines.append(f"Zone {zid} ({zone.name}): {here}" + (f" → {near}" if near else ""))
    for key, guards in ext.zones.guards.items():
        lines.append(f"Guarded way {key.replace('|', '–')}: {', '.join(n(g) for g in guards)}")
    for key in ext.engaged:
        a, _, b = key.partition("|")
        lines.append(f"Engaged: {n(a)} and {n(b)}")
    for pid, value in ext.cover.items():
        behind = ext.cover_object.get(pid)
        share = COVER_SHARE.get(value, "")
        lines.append(f"Cover: {n(pid)} has {share} cover ({signed(value)} to attacks on them)"
                     + (f" behind {n(behind)}" if behind else ""))
    for oid, obj in ext.objects.items():
        held = [lvl.name for i, lvl in enumerate(obj.ladder.levels) if obj.ladder.marks[i]]
        state_txt = "broken" if obj.broken else (", ".join(held) or "intact")
        lines.append(f"Object {obj.name} ({oid}, hardness {obj.hardness}): {state_txt}")
    for cid, chase in ext.chases.items():
        scale = "".join("●" if i == chase.track.position else "·"
                        for i in range(1, chase.track.length + 1))
        lines.append(f"Chase {cid} [{chase.stage}]: {n(chase.hunter)} → {n(chase.quarry)} "
                     f"{scale} {chase.track.position}/{chase.track.length}")
    options = attack_options(state) if viewer.is_gm else []
    data: dict[str, Any] = {
        "options": options,
        "lines": lines, "turn": state.round, "current": turns.current,
        "actions_left": turns.actions_left, "gone": gone, "not_gone": turns.not_gone(),
        "openers": list(turns.openers), "positions": dict(ext.zones.positions),
        "zones": {z: ext.zones.neighbours(z) for z in ext.zones.zones},
        "guards": {k: list(v) for k, v in ext.zones.guards.items()},
        "engaged": list(ext.engaged), "cover": dict(ext.cover),
        "objects": {o: {"name": v.name, "hardness": v.hardness, "broken": v.broken,
                        "conditions": [lv.name for i, lv in enumerate(v.ladder.levels)
                                       if v.ladder.marks[i]]}
                    for o, v in ext.objects.items()},
        "chases": {c: {"hunter": v.hunter, "quarry": v.quarry, "roller": v.roller,
                       "stage": v.stage, "position": v.track.position,
                       "positions": v.track.length} for c, v in ext.chases.items()},
    }
    return data


# --- legal commands ----------------------------------------------------------------------

def attack_preview(ruleset: Vers, state: ConflictState, attacker: str, target: str,
                   weapon: str | None = None) -> dict[str, Any]:
    """The skill, TN and modifier breakdown of an attack before it is rolled."""
    from fracas.rulesets.vers.decider import Decider

    d = Decider(state, Command("attack", attacker, {"target": target}),
                DecideContext("preview", 0), ruleset, preview=True)
    plan = d.attack_plan(attacker, target, weapon)
    mods = [m for m in plan["mods"] if m[1]]
    total = sum(int(m[1]) for m in mods)
    plan["breakdown"] = breakdown(mods)
    plan["target_number"] = plan["tn"] + total
    return plan


def attack_options(state: ConflictState) -> list[dict[str, Any]]:
    """Every attack the acting character could make now, with its breakdown (GM view)."""
    from fracas.rulesets import get_ruleset

    ext: VersExt = state.ext
    actor = ext.turns.current
    if actor is None or ext.turns.actions_left < 1:
        return []
    ruleset: Any = get_ruleset("vers")
    out = []
    for t in state.active_ids():
        if t == actor:
            continue
        for w in weapons_of(state.participants[actor]):
            try:
                plan = attack_preview(ruleset, state, actor, t, w)
            except FracasError:
                continue
            text = (f"{_n(state, actor)} → {_n(state, t)} ({w}): TN {plan['tn']}, "
                    f"{plan['breakdown']} → {plan['target_number']}")
            out.append({"target": t, "weapon": w, "tn": plan["tn"],
                        "mods": plan["mods"], "target_number": plan["target_number"],
                        "text": text})
    return out


def pending_odds(state: ConflictState, viewer: Viewer) -> list[str]:
    """Each attack the acting character could make, with its breakdown and exact chance to
    succeed on 3d6 (GM only: the numbers can come from GM-only stats)."""
    if not viewer.is_gm:
        return []
    out = []
    for o in attack_options(state):
        p = float(p_success(o["target_number"]))
        out.append(f"{o['text']}: success {p:.0%}")
    return out


def legal_commands(ruleset: Vers, state: ConflictState, actor: str | None) -> list[str]:
    """Concrete commands the GM (None) or ``actor`` may give now."""
    ext: VersExt = state.ext
    turns = ext.turns
    out: list[str] = []
    if actor is None:
        if turns.round_opened and turns.current is None:
            out += [f"handoff {p} say=TEXT" for p in turns.not_gone()
                    if state.participants[p].active]
        elif not turns.round_opened:
            out += [f"open {p}" for p in turns.members if state.participants[p].active]
        out += ["zone ID NAME", "link ZONE ZONE", "place WHO ZONE", "guard WHO ZONE ZONE",
                "cover WHO 1|3|5 object=OBJECT", "object ID material=MATERIAL",
                "harm WHO EV track=injury|focus|morale",
                "chase ID hunter=WHO quarry=WHO length=2..6"]
        for cid, chase in ext.chases.items():
            if chase.stage == "escaped":
                out.append(f"track {cid} length=N")
            if chase.stage == "contact":
                out.append(f"pursue {cid} length=N")
        return out
    p = state.participants.get(actor)
    if p is None or not p.active:
        return []
    if actor in ext.pending_discipline:
        out.append(f"{actor}: endure dice=DICE")
    for cid, chase in ext.chases.items():
        if chase.roller == actor and (not turns.round_opened or turns.current == actor):
            if chase.stage == "interpose" or (chase.stage == "pursuit"
                                              and chase.track.position == 1):
                out.append(f"{actor}: interpose {cid} dice=DICE")
            elif chase.stage in ("pursuit", "tracking"):
                out.append(f"{actor}: run {cid} mod=N why=TEXT dice=DICE")
    if turns.current != actor:
        return out
    if turns.actions_left > 0 and actor not in ext.pending_discipline:
        out += _actions(ruleset, state, actor)
    rest = [m for m in turns.not_gone() if m != actor and state.participants[m].active]
    out += [f"{actor}: handoff {m} say=TEXT" for m in rest] or [f"{actor}: handoff"]
    return out


def _actions(ruleset: Vers, state: ConflictState, actor: str) -> list[str]:
    ext: VersExt = state.ext
    out: list[str] = []
    foes = ext.engaged_with(actor)
    here = ext.zones.zone_of(actor)
    if foes:
        out.append(f"{actor}: disengage dice=DICE")
    elif here is not None:
        for z in ext.zones.zones:
            dist = ext.zones.distance(here, z)
            if dist is None or dist == 0 or dist > 2:
                continue
            path = ext.zones.path(here, z) or []
            guarded = [g for g in ext.zones.guards_on_path(path)
                       if g in state.participants and state.participants[g].active
                       and g != actor]
            if guarded and dist == 1:
                out.append(f"{actor}: slip {z} dice=DICE")
            elif not guarded:
                out.append(f"{actor}: move {z}" + (" dice=DICE" if dist == 2 else ""))
    p = state.participants[actor]
    for t in state.active_ids():
        if t == actor:
            continue
        for w in weapons_of(p):
            try:
                plan = attack_preview(ruleset, state, actor, t, w)
            except FracasError:
                continue
            if plan["target"] == t:
                out.append(f"{actor}: attack {t} weapon={w} dice=DICE")
    for track, lad in ext.ladders(actor).items():
        if lad.highest() is not None:
            out.append(f"{actor}: recover {actor} track={track} dice=DICE")
    for oid, obj in ext.objects.items():
        if obj.ladder.highest() is not None and not obj.broken:
            out.append(f"{actor}: repair {oid} dice=DICE")
    return out
