"""What VERS shows: log sentences (built from the typed, possibly redacted, event), the turn
tracker, battlefield, harm and the odds of the attacks the acting character could make."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fracas.engine.describe import name_of
from fracas.engine.engine_events import (
    RoundBoundary,
    RoundEnded,
    RoundStarted,
)
from fracas.engine.events import Event
from fracas.engine.harm_view import harm_hidden
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.secrets import redact_marked, shown
from fracas.engine.sheet import SheetItem, item, stat_items, worded, words
from fracas.engine.words import listed, possessive
from fracas.rulesets.vers.chases import ENDED, HALTED, roll_of, tactics_mods
from fracas.rulesets.vers.checks import Check, breakdown, check_text, signed
from fracas.rulesets.vers.decider import (
    HANDLERS,
    Plan,
    attack_choices,
    attacks_open_to,
    plan_known,
    readable,
)
from fracas.rulesets.vers.events import (
    OF_A_CHASE,
    ROLLS,
    Attack,
    ChaseAbandoned,
    ChaseInterpose,
    ChaseRoll,
    ChaseStage,
    ChaseStarted,
    ChaseTactics,
    Condition,
    CoverSet,
    Disengaged,
    Endured,
    GuardLeft,
    GuardPosted,
    Moved,
    ObjectAdded,
    ObjectDamaged,
    ObjectRestored,
    Placed,
    Recovered,
    Repaired,
    Slipped,
    VersTurnEnded,
    VersTurnStarted,
    ZoneAdded,
    ZonesLinked,
    typed,
)
from fracas.rulesets.vers.odds import capture_chain, contact_chance, p_success
from fracas.rulesets.vers.state import ATTRIBUTES, Chase, VersExt, skill_tn

if TYPE_CHECKING:
    from fracas.rulesets.vers.ruleset import Vers


def _n(state: ConflictState, pid: str | None) -> str:
    ext: VersExt | None = state.ext
    if pid and ext is not None and pid in ext.objects and pid not in state.participants:
        return ext.objects[pid].name
    return name_of(state, pid)


def _zone(state: ConflictState, zid: str) -> str:
    """A zone as a sentence names it: by its name (one drawn without a name has its id)."""
    ext: VersExt | None = state.ext
    zone = ext.zones.zones.get(zid) if ext is not None else None
    return zid if zone is None else zone.name


# --- sentences -----------------------------------------------------------------------------

@HANDLERS.describes(VersTurnStarted)
def _turn_started(e: VersTurnStarted, state: ConflictState) -> str:
    say = f' — "{e.say}"' if e.say else ""
    how = "opens the turn" if e.opens else (
        f"takes the hand-off from {_n(state, e.from_)}" if e.from_ else
        "takes the hand-off from the GM" if e.by_gm else "acts")
    n = shown(e.actions)  # hidden where it tells a disabled character's harm (VR-TURN-4)
    return f"{_n(state, e.participant)} {how} ({n} action{'s' if n != '1' else ''}){say}"


@HANDLERS.describes(VersTurnEnded)
def _turn_ended(e: VersTurnEnded, state: ConflictState) -> str | None:
    if not e.out:
        return None
    return f"{possessive(_n(state, e.participant))} go ends (out of the conflict)"


#: What a VERS turn (the engine's round) does at each of its boundaries.
_TURN_SAYS: dict[type[RoundBoundary], str] = {
    RoundStarted: "begins", RoundEnded: "ends; the table picks who opens the next ('open WHO')"}


@HANDLERS.describes(*_TURN_SAYS)
def _round(e: RoundBoundary, state: ConflictState) -> str:
    return f"turn {e.round} {_TURN_SAYS[type(e)]}"


def describe(event: Event, state: ConflictState) -> str | None:
    """A one-line sentence for each VERS event (None: the engine's own text)."""
    return HANDLERS.describe(typed(event), state)


@HANDLERS.describes(Attack)
def _attack(e: Attack, state: ConflictState) -> str:
    who = _n(state, e.actor)
    res = "hit" if e.hit else ("strikes the cover" if e.cover_hit else "miss")
    need = ""
    if e.min_dos:
        need = (f", needs {e.min_dos} DoS to reach" if e.target_number is not None
                else ", needs 3 DoS per zone beyond the next")
    net = (f"; net EV {shown(e.ev)} − RV {shown(e.rv)} = {shown(e.net)}"
           if e.hit and e.target in state.participants else "")
    weapon = shown(e.weapon)
    if e.track:
        return (f"{who} strikes at {possessive(_n(state, e.target))} {e.track} with {weapon} "
                f"({e.kind}): {check_text(e)} → {res}{net}")
    free = "free attack: " if e.free else ""
    return (f"{free}{who} attacks {_n(state, e.target)} with {weapon} ({e.kind}): "
            f"{check_text(e)}{need} → {res}{net}")


@HANDLERS.describes(Condition)
def _condition(e: Condition, state: ConflictState) -> str:
    if e.taken_out and e.level is None:
        return (f"{_n(state, e.who)} has no free {e.track} level left for net EV "
                f"{shown(e.ev)}: taken out")
    if e.taken_out is None:  # the harm view hides even the condition's name
        return f"{_n(state, e.who)} takes harm ({e.track})"
    up = f" (upgraded from {e.landed})" if e.upgraded else ""
    return f"{_n(state, e.who)} is {shown(e.level)}{up} ({e.track}, net EV {shown(e.ev)})"


@HANDLERS.describes(ObjectDamaged)
def _object_damaged(e: ObjectDamaged, state: ConflictState) -> str:
    if e.level is None:
        return f"{_n(state, e.object)} shrugs off EV {shown(e.ev)} (hardness {e.hardness})"
    up = " (upgraded)" if e.upgraded else ""
    sheltered = [_n(state, p) for p in e.uncovered or ()]
    broken = (" — it no longer works" + (f"; no more cover for {', '.join(sheltered)}"
                                         if sheltered else "")) if e.broken else ""
    return (f"{_n(state, e.object)} is {e.level}{up}: EV {shown(e.ev)} − hardness "
            f"{e.hardness} = {shown(e.net)}{broken}")


@HANDLERS.describes(Moved)
def _moved(e: Moved, state: ConflictState) -> str:
    how = f" ({check_text(e.check)}: {e.result})" if e.check is not None else ""
    return f"{_n(state, e.who)} moves from {_zone(state, e.from_)} to {_zone(state, e.to)}{how}"


@HANDLERS.describes(Slipped)
def _slipped(e: Slipped, state: ConflictState) -> str:
    assert e.check is not None
    res = "gets past" if e.check.success else "is stopped"
    guards = ", ".join(_n(state, g) for g in e.guards)
    return (f"{_n(state, e.who)} tries to slip past {guards} to {_zone(state, e.to)}: "
            f"{check_text(e.check)} → {res}")


@HANDLERS.describes(Disengaged)
def _disengaged(e: Disengaged, state: ConflictState) -> str:
    assert e.check is not None
    res = "breaks away" if e.check.success else "fails to break away"
    return f"{_n(state, e.who)} disengages: {check_text(e.check)} → {res}"


@HANDLERS.describes(Endured)
def _endured(e: Endured, state: ConflictState) -> str:
    res = "stays conscious" if e.success else "passes out"
    return f"{_n(state, e.who)} rolls to stay conscious: {check_text(e)} → {res}"


@HANDLERS.describes(Recovered)
def _recovered(e: Recovered, state: ConflictState) -> str:
    assert e.check is not None
    res = f"removes {e.level}" if e.level else "no recovery" if not e.check.success else \
        "removes a condition"  # its name hidden by the harm view
    return (f"{_n(state, e.actor)} recovers {_n(state, e.who)} ({e.track}): "
            f"{check_text(e.check)} → {res}")


@HANDLERS.describes(Repaired)
def _repaired(e: Repaired, state: ConflictState) -> str:
    assert e.check is not None
    res = f"mends {e.level}" if e.level else "no repair"
    return f"{_n(state, e.actor)} repairs {_n(state, e.object)}: {check_text(e.check)} → {res}"


HANDLERS.says({
    ZoneAdded: "zone {e.zone} ({e.name}) drawn",
    GuardLeft: "{who.who} stops guarding",
}, _n)


@HANDLERS.describes(ZonesLinked)
def _zones_linked(e: ZonesLinked, state: ConflictState) -> str:
    return f"zones {_zone(state, e.a)} and {_zone(state, e.b)} joined"


@HANDLERS.describes(Placed)
def _placed(e: Placed, state: ConflictState) -> str:
    return f"{_n(state, e.who)} is placed in {_zone(state, e.zone)}"


@HANDLERS.describes(GuardPosted)
def _guard_posted(e: GuardPosted, state: ConflictState) -> str:
    way = " – ".join(_zone(state, z) for z in e.link.split("|"))
    return f"{_n(state, e.who)} guards the way {way}"


@HANDLERS.describes(CoverSet)
def _cover_set(e: CoverSet, state: ConflictState) -> str:
    if not e.value:
        return f"{_n(state, e.who)} has no cover"
    obj = f" behind {_n(state, e.object)}" if e.object else ""
    return (f"{_n(state, e.who)} has {COVER_SHARE.get(e.value, '')} cover "
            f"({signed(e.value)} to attacks on them){obj}")


@HANDLERS.describes(ObjectAdded)
def _object_added(e: ObjectAdded, state: ConflictState) -> str:
    return f"object {e.name}: hardness {e.hardness}, {e.slots} slot(s) a level"


@HANDLERS.describes(ObjectRestored)
def _object_restored(e: ObjectRestored, state: ConflictState) -> str:
    return f"the GM restores {_n(state, e.object)}"


@HANDLERS.describes(ChaseStarted)
def _chase_started(e: ChaseStarted, state: ConflictState) -> str:
    what = f"race for {e.prize}" if e.prize else e.stage
    return (f"chase {e.id} ({what}): {_n(state, e.hunter)} hunts {_n(state, e.quarry)}, "
            f"position {e.position} of {e.positions}; {_n(state, e.roller)} rolls")


@HANDLERS.describes(ChaseStage)
def _chase_stage(e: ChaseStage, state: ConflictState) -> str:
    return (f"chase {e.id} turns to {e.stage}: position {e.position} of {e.positions}"
            + _lapsed(e.lapsed))


@HANDLERS.describes(ChaseAbandoned)
def _chase_abandoned(e: ChaseAbandoned, state: ConflictState) -> str:
    return f"chase {e.id} is over" + (f": {e.why}" if e.why else "") + _lapsed(e.lapsed)


def _lapsed(mod: int | None) -> str:
    """The GM's tactics that lapse with a change of stage (VR-CHASE-5), as the log says it."""
    return f"; the {signed(mod)} for tactics lapses with it" if mod else ""


@HANDLERS.describes(ChaseTactics)
def _chase_tactics(e: ChaseTactics, state: ConflictState) -> str:
    ext: VersExt = state.ext
    chase = ext.chases.get(e.id)
    whose = possessive(_n(state, chase.roller)) if chase is not None else "the"
    if not e.mod:
        return f"chase {e.id}: the GM lifts the tactics; {whose} next roll takes none"
    why = f": {e.why}" if e.why else ""
    return f"chase {e.id}: {whose} next roll takes {signed(e.mod)} for tactics{why}"


@HANDLERS.describes(ChaseRoll)
def _chase_roll(e: ChaseRoll, state: ConflictState) -> str:
    assert e.check is not None
    kind = "seeks for an hour" if e.stage == "tracking" else "runs"
    why = f" — {e.why}" if e.why else ""
    return (f"{_n(state, e.actor)} {kind} (chase {e.id}): {check_text(e.check)}; position "
            f"{e.from_} → {e.to}, {e.new_stage}{why}")


@HANDLERS.describes(ChaseInterpose)
def _chase_interpose(e: ChaseInterpose, state: ConflictState) -> str:
    assert e.check is not None
    why = f" — {e.why}" if e.why else ""
    ext: VersExt = state.ext
    chase = ext.chases.get(e.id)
    outcome = e.new_stage
    if chase is not None and chase.prize and e.new_stage in ("won", "lost"):
        taker = chase.roller if e.new_stage == "won" else chase.opponent
        outcome += f": {_n(state, taker)} takes {chase.prize}"
    return (f"{_n(state, e.actor)} interposes (chase {e.id}): {check_text(e.check)}; position "
            f"{e.from_} → {e.to}, {outcome}{why}")


# --- projection ----------------------------------------------------------------------------

def redact(ruleset: Vers, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """The generic redaction by marks, applied to the VERS class of the event (a stored event
    is read as one here: see :func:`~fracas.rulesets.vers.events.typed`), and to a check
    nested in it (``check``), whose roller is the event's actor. No label is read."""
    if viewer.is_gm:
        return event

    def can_see(pid: str) -> bool:
        return ruleset.can_see(state, viewer, pid)

    event = typed(event)
    if isinstance(event, OF_A_CHASE) and not chase_seen(state, event.id, can_see):
        return None  # a chase with a side hidden from the viewer does not exist for them
    if isinstance(event, VersTurnStarted) and event.from_ is not None \
            and not can_see(event.from_) and can_see(event.participant):
        # a hand-off from one hidden from the viewer to one they see: the GM's, in its words
        # (what the hidden one said goes with them), not nothing while the other acts at once
        event = dataclasses.replace(event, from_=None, by_gm=True, say=None, actor=None)
    seen = redact_marked(event, state, viewer, can_see)
    if not isinstance(seen, ROLLS) or seen.check is None:
        return seen
    rolled = dataclasses.replace(seen.check, actor=seen.actor)
    check = redact_marked(rolled, state, viewer, can_see)
    if check is rolled or not isinstance(check, Check):
        return seen
    return dataclasses.replace(seen, check=dataclasses.replace(check, actor=None))


def chase_seen(state: ConflictState, cid: str, can_see: Callable[[str], bool]) -> bool:
    """Whether the viewer of ``can_see`` may see both sides of chase ``cid``."""
    chase = state.ext.chases.get(cid)
    return chase is None or (can_see(chase.hunter) and can_see(chase.quarry))


# --- participants and tracker ------------------------------------------------------------

#: A VERS sheet's order (docs/vers.md), and its labels where the key's words are not its own.
_SHEET = (*ATTRIBUTES, "skills", "tn", "dodge", "resolve", "poise", "rv", "focus_rv",
          "morale_rv", "reach")
_LABELS = {"tn": "TN", "rv": "RV", "focus_rv": "focus RV", "morale_rv": "morale RV"}


def sheet(ruleset: Vers, entry: dict[str, Any]) -> list[SheetItem]:
    """A character's sheet from its view ``entry``: attributes, skills, TNs written on it,
    defences and RVs, reach, weapons (EV and kind first) and the GM's own stats. Its
    starting ``zone`` is left to the map, which shows where it stands now."""
    stats = entry["stats"]
    out = stat_items(stats, _SHEET, _LABELS)
    if stats.get("weapons"):
        out.append(item("weapons", "weapons", ", ".join(
            _weapon(name, w) for name, w in stats["weapons"].items())))
    return out + stat_items(stats, [k for k in stats if k not in ruleset.stats_read])


def _weapon(name: str, w: dict[str, Any]) -> str:
    """``sword (EV 5, close)`` as the rules read it (a sheet's weapon is a table, VR-ROLL-2:
    EV 0 and close when it gives none), what else the sheet gives it after."""
    rest = {k: v for k, v in w.items() if k not in ("ev", "kind")}
    parts = [f"EV {w.get('ev', 0)}", str(w.get("kind", "close")), *([worded(rest)] if rest else [])]
    return f"{words(name)} ({', '.join(parts)})"


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
        summary += f" ({signed(penalty)} to rolls)"
    if pid in ext.pending_discipline:
        summary += "; must roll to stay conscious"
    return {"summary": summary, "tracks": tracks, "penalty": penalty,
            "zone": ext.zones.zone_of(pid), "engaged": ext.engaged_with(pid),
            "cover": ext.cover.get(pid, 0), "disabled": ext.disabled(pid)}


#: How much of a character its cover hides, by the attack penalty it gives (VR-ATK-5).
COVER_SHARE = {-1: "⅓", -3: "⅔", -5: "complete"}


def _chases_over(state: ConflictState, can_see: Callable[[str], bool]) -> str:
    """Where no turn was ever opened and every chase the viewer knows of is over (a
    chase-only conflict, done): "the chase is over (c1: captured)"; "" otherwise."""
    ext: VersExt = state.ext
    seen = {cid: c for cid, c in ext.chases.items() if can_see(c.hunter) and can_see(c.quarry)}
    if ext.turns.round_opened or state.round or not seen or any(
            c.stage not in ENDED for c in seen.values()):
        return ""
    each = ", ".join(f"{cid}: {'completely away' if c.stage == 'away' else c.stage}"
                     for cid, c in seen.items())
    return f"the chase{'s are' if len(seen) > 1 else ' is'} over ({each})"


#: What each stage of :data:`~fracas.rulesets.vers.chases.HALTED` (where nothing rolls until
#: the GM turns the chase or abandons it) says of the chase, and what the GM may turn it to.
HALTED_SAID = {"escaped": ("{quarry} got away", "tracking", "VR-CHASE-4"),
               "contact": ("{hunter} made contact", "pursuit", "VR-CHASE-7")}


def _chases_waiting(state: ConflictState, can_see: Callable[[str], bool]) -> str:
    """Where no turn was ever opened and no chase the viewer knows of rolls, but one waits at
    an end of its scale for the GM (a chase-only conflict): "chase c1: The cutpurse got
    away; the GM may turn it to tracking or abandon it (VR-CHASE-4)"; "" otherwise."""
    ext: VersExt = state.ext
    seen = {cid: c for cid, c in ext.chases.items() if can_see(c.hunter) and can_see(c.quarry)}
    if ext.turns.round_opened or state.round or not any(
            c.stage in HALTED for c in seen.values()) or any(
            c.stage not in ENDED and c.stage not in HALTED for c in seen.values()):
        return ""
    said = []
    for cid, c in seen.items():
        if c.stage not in HALTED:
            said.append(f"chase {cid} is over ({c.stage})")
            continue
        what, turn, rule = HALTED_SAID[c.stage]
        said.append(f"chase {cid}: "
                    + what.format(quarry=_n(state, c.quarry), hunter=_n(state, c.hunter))
                    + f"; the GM may turn it to {turn} or abandon it ({rule})")
    return "; ".join(said)


def _discipline_due(state: ConflictState, due: list[str]) -> str:
    """Who must roll Discipline to stay conscious (VR-INJ-3), in the order they came to it:
    "Ada and Bruno must roll Discipline to stay conscious (VR-INJ-3)"; "" for nobody."""
    if not due:
        return ""
    who = listed([_n(state, pid) for pid in due])
    return f"{who} must roll Discipline to stay conscious (VR-INJ-3)"


def view_ext(state: ConflictState, viewer: Viewer,
             can_see: Callable[[str], bool] = lambda pid: True) -> dict[str, Any]:
    """The turn tracker, zones, guards, objects and chases as lines plus data. The lines
    leave out whom the viewer may not know of (``can_see``), so that a line naming them is
    written without them, never dropped whole: no line comes or goes with a hidden one."""
    ext: VersExt = state.ext
    turns = ext.turns

    def n(pid: str) -> str:
        return _n(state, pid)

    def names(pids: Iterable[str]) -> str:
        return ", ".join(n(p) for p in pids if can_see(p))

    lines: list[str] = []
    due = chase_due(state, can_see)
    opened = [(r, p) for r, p in turns.recent_openers() if can_see(p)]
    if turns.round_opened:
        head = f"Turn {state.round}"
    elif state.round:
        head = f"Turn {state.round} over · the table picks who opens turn {state.round + 1}"
    else:
        head = "Turn 1 not opened yet · the table picks who opens it"
    if due and not turns.round_opened:  # a chase rolls on without a turn (VR-CHASE-8)
        head = (f"No turn open · {names(dict.fromkeys(due.values()))} rolls the chase; the "
                "table opens a turn only when others act")
    chases_over = _chases_over(state, can_see)
    if chases_over:
        head = (f"No turn open · {chases_over}: nothing to roll; the GM may open a turn or end "
                "the conflict")
    chases_waiting = _chases_waiting(state, can_see)
    if chases_waiting:
        head = f"No turn open · {chases_waiting}"
    ended = state.status == "ended"
    listed, before = opened, "opened by"
    if ended:
        head = f"Ended during turn {state.round}"
    elif turns.round_opened:  # this turn's opener is named once, in the head
        head += "".join(f" · opened by {n(p)}" for r, p in opened if r == state.round)
        listed, before = [(r, p) for r, p in opened if r < state.round], "earlier openers:"
    openers = ", ".join(f"{n(p)} (turn {r})" for r, p in listed)
    lines.append(head + (f" · {before} {openers}" if openers else ""))
    # a disabled character's go has one action (VR-TURN-4): the count tells its harm
    left = None if harm_hidden(state, viewer, turns.current, band=True) or (
        turns.current and not can_see(turns.current)) else turns.actions_left
    if turns.current and not ended:
        lines.append(f"Acting: {n(turns.current)}" + (
            f" ({left} action{'' if left == 1 else 's'} left)" if left is not None else ""))
    # a Discipline roll due (VR-INJ-3) tells that the character is disabled: said only to a
    # viewer who may know that much of its harm (its own player, the GM, a band or better)
    enduring = [] if ended else [pid for pid in ext.pending_discipline
                                 if can_see(pid) and not harm_hidden(state, viewer, pid, band=True)]
    discipline = _discipline_due(state, enduring)
    if discipline:
        lines.append(discipline)
    if turns.round_opened and turns.current is None and not ended and turns.not_gone():
        # a go ended with its character out (VR-TURN-2 default): the turn is still on. Said
        # only to a viewer who sees that character: to another, this moment must read as
        # the one before it (a hidden character acting) did, or it would tell of their fall
        last = turns.gone[-1] if turns.gone else None
        if last is not None and last in state.participants and can_see(last) \
                and not state.participants[last].active:
            lines.append(f"Acting: nobody · {n(last)} is out; the GM hands off for them to "
                         "one not gone yet (VR-TURN-2)")
        elif viewer.is_gm and last is not None and last in state.participants:
            # a player ended the go when all those left were hidden from them
            lines.append(f"Acting: nobody · {n(last)} is done; the GM hands off for them to "
                         "one not gone yet (VR-TURN-2)")
    gone = [p for p in turns.gone if p in turns.members and p != turns.current]
    if not ended and not chases_over and not chases_waiting:  # no go in a turn never opened
        not_gone = names(turns.not_gone()) or "nobody"
        lines.append(f"Gone: {names(gone) or 'nobody'} · not gone: {not_gone}")
    for zid, zone in ext.zones.zones.items():
        here = names(ext.zones.occupants(zid)) or "empty"
        near = ", ".join(ext.zones.neighbours(zid))
        lines.append(f"Zone {zid} ({zone.name}): {here}" + (f" → {near}" if near else ""))
    for key, guards in ext.zones.guards.items():
        if seen_guards := names(guards):
            lines.append(f"Guarded way {key.replace('|', '–')}: {seen_guards}")
    engaged = [key for key in ext.engaged if all(map(can_see, key.split("|")))]
    for key in engaged:
        a, _, b = key.partition("|")
        lines.append(f"Engaged: {n(a)} and {n(b)}")
    for pid, value in ext.cover.items():
        behind = ext.cover_object.get(pid)
        share = COVER_SHARE.get(value, "")
        lines.append(f"Cover: {n(pid)} has {share} cover ({signed(value)} to attacks on them)"
                     + (f" behind {n(behind)}" if behind else ""))
    for oid, obj in ext.objects.items():
        marks = obj.ladder.marks
        held = [lvl.name + (f" ×{len(marks[i])}" if len(marks[i]) > 1 else "")
                for i, lvl in enumerate(obj.ladder.levels) if marks[i]]
        state_txt = "broken" if obj.broken else (", ".join(held) or "intact")
        where = f" in {ext.zones.zones[obj.zone].name or obj.zone}" if obj.zone else ""
        lines.append(f"Object {obj.name} ({oid}, hardness {obj.hardness}){where}: {state_txt}")
    for cid, chase in ext.chases.items():
        scale = "".join("●" if i == chase.track.position else "·"
                        for i in range(1, chase.track.length + 1))
        roll = f" · {n(due[cid])} rolls next" if cid in due else ""
        lines.append(f"Chase {cid} [{chase.stage}]: {n(chase.hunter)} → {n(chase.quarry)} "
                     f"{scale} {chase.track.position}/{chase.track.length}{roll}"
                     + (f" · {tactics_text(chase)}" if chase.tactics else ""))
    options = attack_options(state) if viewer.is_gm else []
    data: dict[str, Any] = {
        "options": options,
        "lines": lines, "turn": state.round, "opened": turns.round_opened,
        "current": turns.current if turns.current and can_see(turns.current) else None,
        "actions_left": left, "gone": gone, "not_gone": turns.not_gone(),
        # who must roll Discipline to stay conscious now (VR-INJ-3), of those the viewer may
        # know it of: "Ada must roll Discipline to stay conscious (VR-INJ-3)", or ""
        "discipline": discipline,
        "enduring": enduring,  # their ids: the GM's screen shows their roll beside the go
        # a chase-only conflict whose chases are all over: "the chase is over (c1: captured)"
        "chases_over": chases_over,
        # a chase-only conflict whose chases wait on the GM at an end of a scale (an escape,
        # a contact): "chase c1: The cutpurse got away; the GM may turn it to tracking …"
        "chases_waiting": chases_waiting,
        # who makes a chase roll now, by chase (VR-CHASE-8): that character's due
        "due": sorted(set(due.values())),
        "openers": [[r, p] for r, p in opened],  # (turn, who opened it)
        "positions": dict(ext.zones.positions),
        "zones": {z: ext.zones.neighbours(z) for z in ext.zones.zones},
        "zone_names": {z: zone.name or z for z, zone in ext.zones.zones.items()},
        # a way's key and a pair's name those on it: none comes with someone hidden
        "guards": {k: seen for k, v in ext.zones.guards.items()
                   if (seen := [g for g in v if can_see(g)])},
        "engaged": engaged, "cover": dict(ext.cover),
        "cover_behind": dict(ext.cover_object),  # the object each one's cover is (VR-ATK-5)
        "objects": {o: {"name": v.name, "hardness": v.hardness, "broken": v.broken,
                        "zone": v.zone,
                        "conditions": [lv.name for i, lv in enumerate(v.ladder.levels)
                                       if v.ladder.marks[i]],
                        # a large object's levels hold more than one (VR-OBJ-2): how many
                        # each holds, of how many slots
                        "marks": {lv.name: len(v.ladder.marks[i])
                                  for i, lv in enumerate(v.ladder.levels) if v.ladder.marks[i]},
                        "slots": {lv.name: lv.slots for lv in v.ladder.levels}}
                    for o, v in ext.objects.items()},
        "chases": {c: {"hunter": v.hunter, "quarry": v.quarry, "roller": v.roller,
                       "stage": v.stage, "position": v.track.position,
                       "positions": v.track.length, "tactics": v.tactics,
                       "tactics_why": v.tactics_why} for c, v in ext.chases.items()},
    }
    return data



def tactics_text(chase: Chase) -> str:
    """The GM's tactics the chase's next roll takes (VR-CHASE-5): "next roll −2 for tactics:
    the crowded festival"."""
    why = f": {chase.tactics_why}" if chase.tactics_why else ""
    return f"next roll {signed(chase.tactics)} for tactics{why}"


# --- odds ----------------------------------------------------------------------------------

def attack_options(state: ConflictState,
                   keep: Callable[[Plan], bool] | None = None) -> list[dict[str, Any]]:
    """Every attack the acting character could make now (those ``keep`` keeps), with its
    breakdown (GM view): on its foes and objects first, then on its own side."""
    ext: VersExt = state.ext
    actor = ext.turns.current
    if actor is None or ext.turns.actions_left < 1:
        return []
    side = state.participants[actor].side
    ally = {pid for pid, p in state.participants.items() if p.side == side}
    out = []
    for t, w, plan in attacks_open_to(state, actor):
        if keep is not None and not keep(plan):
            continue
        text = (f"{_n(state, actor)} → {_n(state, t)} ({w}): TN {plan.tn}, "
                f"{breakdown([m for m in plan.mods if m.value])} → {plan.target_number}")
        out.append({"target": t, "weapon": w, "tn": plan.tn,
                    "mods": [m.to_json() for m in plan.mods if m.value],
                    "target_number": plan.target_number, "min_dos": plan.min_dos,
                    "text": text, "ally": t in ally})
    return sorted(out, key=lambda o: o["ally"])


def hit_chance(target_number: int, min_dos: int) -> float:
    """P(hit): 3d6 at most the target number less the degrees of success a hit needs."""
    return float(p_success(target_number - min_dos))


def _odds_read(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool]
               ) -> tuple[bool, Callable[[Plan], bool] | None]:
    """Whether ``viewer`` may read the odds of any attack of the acting character, and of
    which (None: every one, to the GM): to its own player, those whose every number they may
    know (:func:`plan_known`), none with the character's weapons GM-only; to anyone else,
    none."""
    if viewer.is_gm:
        return True, None
    actor = state.ext.turns.current
    p = state.participants.get(actor) if actor else None
    if (p is None or viewer.player is None or p.owner != viewer.player
            or "weapons" in p.gm_only):
        return False, None
    return True, functools.partial(plan_known, state, viewer, can_see)


def readable_attacks(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
                     choices: Iterable[tuple[str, str]] | None = None
                     ) -> list[tuple[str, str, Plan]]:
    """(target, weapon, plan) of the attacks the acting character may make now (of those
    (target, weapon) ``choices`` alone, if given) whose odds ``viewer`` may read: those
    :func:`pending_odds` gives, as values (for :func:`hit_chance`) rather than lines."""
    ext: VersExt = state.ext
    actor = ext.turns.current
    reads, keep = _odds_read(state, viewer, can_see)
    if not reads or actor is None or ext.turns.actions_left < 1:
        return []
    return [(t, w, plan) for t, w, plan in attacks_open_to(state, actor, choices)
            if keep is None or keep(plan)]


def pending_odds(state: ConflictState, viewer: Viewer,
                 can_see: Callable[[str], bool],
                 only: tuple[str | None, str | None] = (None, None)) -> list[str]:
    """Each attack the acting character could make, with its breakdown and exact chance to
    hit on 3d6 (a thrown weapon beyond the next zone needs degrees of success). A player reads
    those of their own character, on what they may see, and only where the roll would show
    them every number of it (the same marks, the same redaction as the roll's: no GM-only stat
    or setting, no penalty of a harm they do not see); with the character's weapons GM-only,
    none (each weapon's odds would tell it). ``only``: the attacks on that target, with that
    weapon (None: any)."""
    reads, keep = _odds_read(state, viewer, can_see)
    if not reads:
        return []

    def wanted(target: str, weapon: str) -> bool:
        return all(want is None or got == want
                   for got, want in zip((target, weapon), only, strict=True))

    out = []  # (on its own side, line): the foes' and objects' first
    for o in attack_options(state, keep):
        if wanted(o["target"], o["weapon"]):
            need = f" (needs {o['min_dos']} DoS)" if o["min_dos"] else ""
            out.append((o["ally"], f"{o['text']}: hit "
                        f"{hit_chance(o['target_number'], o['min_dos']):.0%}{need}"))
    if keep is not None:
        actor = state.ext.turns.current
        out += [(ally, f"{_n(state, actor)} → {_n(state, t)} ({w}): odds the GM keeps")
                for t, w, ally in _kept_attacks(state, can_see, keep) if wanted(t, w)]
    return [line for _, line in sorted(out, key=lambda item: item[0])]


def _kept_attacks(state: ConflictState, can_see: Callable[[str], bool],
                  keep: Callable[[Plan], bool]) -> list[tuple[str, str, bool]]:
    """(target, weapon, on the attacker's side) of each attack the acting character may make
    now on one the viewer may see, whose numbers are not all theirs to know (a foe's GM-only
    Dodge): the player is offered it (a throw out of reach too, where a number of it is
    hidden, as the offers have it), so its line says the GM keeps its odds rather than leave
    a player reading only the odds of hitting an ally."""
    ext: VersExt = state.ext
    actor = ext.turns.current
    if actor is None or ext.turns.actions_left < 1:
        return []
    seen = [(t, w) for t, w in attack_choices(state, actor, keep)
            if t in ext.objects or can_see(t)]
    side = state.participants[actor].side
    return [(t, w, t in state.participants and state.participants[t].side == side)
            for t, w, plan in attacks_open_to(state, actor, seen) if not keep(plan)]


def chase_due(state: ConflictState, can_see: Callable[[str], bool] = lambda pid: True
              ) -> dict[str, str]:
    """Chase id → its roller, for each chase whose roller may roll now (outside the turns,
    or acting with an action left: VR-CHASE-8) and whose two sides ``can_see`` (a chase with
    a hidden side does not exist for the viewer)."""
    ext: VersExt = state.ext
    turns = ext.turns
    out = {}
    for cid, chase in ext.chases.items():
        sides = (chase.hunter, chase.quarry)
        if (chase.stage in ("pursuit", "tracking", "interpose")
                and all(state.participants[q].active and can_see(q) for q in sides)
                and (not turns.round_opened or (turns.current == chase.roller
                                                and turns.actions_left > 0))):
            out[cid] = chase.roller
    return out


def tracking_chance(chase: Chase, chance: Fraction) -> str:
    """A tracking roll's "contact before the quarry is away 62% (every roll alike,
    VR-CHASE-7)": the chance that the hunter reaches 1 before the quarry the top, from where
    the chase stands, were every roll to succeed with ``chance``."""
    contact = contact_chance(chase.track.length, chance, chase.roller_is_hunter)
    return (f"contact before the quarry is away {float(contact[chase.track.position - 1]):.0%}"
            " (every roll alike, VR-CHASE-7)")


def chase_odds(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
               only: tuple[str, str] | None = None) -> list[str]:
    """The roll each chase (``only``: that chase's, if it waits for that verb) waits for now,
    where its roller may make it
    (VR-CHASE-8): the command, the breakdown and exact chance of success on 3d6, and in a
    pursuit the chance of a capture before an escape were every roll alike (VR-CHASE-3/4/6,
    as ``fracas odds 'chase …'``). A player reads those of their own character's chases with
    both sides known to them, only where the roll would show them every number of it."""
    ext: VersExt = state.ext
    out = []
    for cid, roller_id in chase_due(state, can_see).items():
        chase = ext.chases[cid]
        at_one = chase.stage == "interpose" or (chase.stage == "pursuit"
                                                and chase.track.position == 1)
        verb = "interpose" if at_one else "run"
        if only is not None and only != (cid, verb):
            continue
        roller = state.participants[roller_id]
        if not viewer.is_gm and (viewer.player is None or roller.owner != viewer.player):
            continue
        skill, mods = roll_of(state, chase)
        mods = [*mods, *tactics_mods(chase)]  # the GM's tactics, set before the roll
        tn = skill_tn(state, roller, skill)
        target = tn + sum(m.value or 0 for m in mods)
        if not viewer.is_gm and not readable(state, viewer, can_see, Check(
                actor=roller.id, skill=skill, tn=tn, mods=tuple(mods), target_number=target)):
            continue
        chance = p_success(target)
        text = (f"{roller.name}: {verb} {cid} ({skill.replace('_', ' ')}): TN {tn}, "
                f"{breakdown([m for m in mods if m.value])} → {target}: "
                f"success {float(chance):.0%}")
        if chase.stage == "pursuit":
            captured = capture_chain(chase.track.length, chance, chase.roller_is_hunter)[0]
            text += (f"; capture before escape {float(captured[chase.track.position - 1]):.0%}"
                     " (every roll alike)")
        elif chase.stage == "tracking":
            text += f"; {tracking_chance(chase, chance)}"
        out.append(text)
    return out
