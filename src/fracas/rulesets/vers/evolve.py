"""Evolve for VERS: how each event changes the VERS part of the state, one handler a class.

VERS events and the engine's own events that VERS follows (turns, joins, leaving) dispatch by
class through ``HANDLERS``.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.components import Track
from fracas.engine.engine_events import (
    ParticipantJoined,
    ParticipantLeft,
    ParticipantOut,
    RoundEnded,
)
from fracas.engine.model import ConflictState
from fracas.rulesets.vers import events as ev
from fracas.rulesets.vers.decider import HANDLERS, ext_of
from fracas.rulesets.vers.state import (
    TRACKS,
    Chase,
    VersExt,
    VersObject,
    new_object_ladder,
    new_track,
)


def join(ext: VersExt, pid: str, stats: dict[str, Any]) -> None:
    """A participant's turn slot, harm tracks and zone (mutator)."""
    ext.turns.join(pid)
    ext.harm[pid] = {track: new_track(track) for track in TRACKS}
    zone = stats.get("zone")
    if isinstance(zone, str) and zone in ext.zones.zones:
        ext.zones.place(pid, zone)


def add_object(ext: VersExt, spec: ev.ObjectAdded) -> None:
    """An object from its set-up (mutator)."""
    ext.objects[spec.object] = VersObject(
        name=spec.name, hardness=spec.hardness, ladder=new_object_ladder(spec.slots),
        material=spec.material, penalty=spec.penalty, zone=spec.zone)


# --- the engine's events ------------------------------------------------------------------

@HANDLERS.evolves(ev.VersTurnStarted)
def _turn_started(state: ConflictState, e: ev.VersTurnStarted) -> None:
    ext, pid = ext_of(state), e.participant
    actions = 2 if e.actions is None else e.actions
    if e.opens:
        ext.turns.open(pid, actions)
    else:
        ext.turns.hand_off(pid, actions)
    if ext.disabled(pid) and pid not in ext.pending_discipline:
        ext.pending_discipline.append(pid)


@HANDLERS.evolves(ev.VersTurnEnded)
def _turn_ended(state: ConflictState, e: ev.VersTurnEnded) -> None:
    ext_of(state).turns.end_go()


@HANDLERS.evolves(RoundEnded)
def _round_ended(state: ConflictState, e: RoundEnded) -> None:
    ext_of(state).turns.new_round()


@HANDLERS.evolves(ParticipantJoined)
def _joined(state: ConflictState, e: ParticipantJoined) -> None:
    join(ext_of(state), e.id, e.stats)


@HANDLERS.evolves(ParticipantLeft, ParticipantOut)
def _gone(state: ConflictState, e: ParticipantLeft | ParticipantOut) -> None:
    ext, pid = ext_of(state), e.participant
    ext.turns.leave(pid)
    ext.disengage_all(pid)
    ext.zones.remove_actor(pid)
    if pid in ext.pending_discipline:
        ext.pending_discipline.remove(pid)


# --- VERS events, by class -----------------------------------------------------------------

@HANDLERS.evolves(ev.Condition)
def _condition(state: ConflictState, e: ev.Condition) -> None:
    ext = ext_of(state)
    ladder = ext.harm.get(e.who, {}).get(e.track)
    if ladder is None or e.ev is None:
        return
    ladder.take(e.ev, e.why or "")
    if e.track == "injury" and e.index == 3 and not e.taken_out:
        if e.who not in ext.pending_discipline:
            ext.pending_discipline.append(e.who)
        if ext.turns.current == e.who:
            # one action a turn: an action already spent this go counts
            ext.turns.actions_left = max(0, ext.turns.actions_left - 1)


@HANDLERS.evolves(ev.Endured)
def _endured(state: ConflictState, e: ev.Endured) -> None:
    ext = ext_of(state)
    if e.who in ext.pending_discipline:
        ext.pending_discipline.remove(e.who)


@HANDLERS.evolves(ev.Moved)
def _moved(state: ConflictState, e: ev.Moved) -> None:
    ext_of(state).arrive(e.who, e.to)


@HANDLERS.evolves(ev.Slipped)
def _slipped(state: ConflictState, e: ev.Slipped) -> None:
    if e.check is not None and e.check.success:
        ext_of(state).arrive(e.who, e.to)


@HANDLERS.evolves(ev.Disengaged)
def _disengaged(state: ConflictState, e: ev.Disengaged) -> None:
    if e.check is not None and e.check.success:
        ext_of(state).disengage_all(e.who)


@HANDLERS.evolves(ev.Attack)
def _attack(state: ConflictState, e: ev.Attack) -> None:
    if e.kind == "close" and e.target in state.participants:
        ext_of(state).engage(e.actor or "", e.target)


@HANDLERS.evolves(ev.Recovered)
def _recovered(state: ConflictState, e: ev.Recovered) -> None:
    if not e.level:
        return
    ext = ext_of(state)
    ext.harm[e.who][e.track].remove_highest()
    if not ext.disabled(e.who) and e.who in ext.pending_discipline:
        ext.pending_discipline.remove(e.who)


@HANDLERS.evolves(ev.ObjectDamaged)
def _object_damaged(state: ConflictState, e: ev.ObjectDamaged) -> None:
    ext = ext_of(state)
    obj = ext.objects.get(e.object)
    if e.level is None or obj is None or e.net is None:
        return
    obj.ladder.take(e.net, e.why or "")
    for pid in e.uncovered or ():  # broken cover shelters nobody
        ext.cover.pop(pid, None)
        ext.cover_object.pop(pid, None)


@HANDLERS.evolves(ev.Repaired)
def _repaired(state: ConflictState, e: ev.Repaired) -> None:
    if e.level:
        ext_of(state).objects[e.object].ladder.remove_highest()


@HANDLERS.evolves(ev.ObjectRestored)
def _restored(state: ConflictState, e: ev.ObjectRestored) -> None:
    ext_of(state).objects[e.object].ladder.clear()


@HANDLERS.evolves(ev.ObjectAdded)
def _object_added(state: ConflictState, e: ev.ObjectAdded) -> None:
    add_object(ext_of(state), e)


@HANDLERS.evolves(ev.ZoneAdded)
def _zone_added(state: ConflictState, e: ev.ZoneAdded) -> None:
    ext_of(state).zones.add_zone(e.zone, e.name)


@HANDLERS.evolves(ev.ZonesLinked)
def _zones_linked(state: ConflictState, e: ev.ZonesLinked) -> None:
    ext_of(state).zones.link(e.a, e.b)


@HANDLERS.evolves(ev.Placed)
def _placed(state: ConflictState, e: ev.Placed) -> None:
    ext_of(state).arrive(e.who, e.zone)


@HANDLERS.evolves(ev.GuardPosted)
def _guard_posted(state: ConflictState, e: ev.GuardPosted) -> None:
    ext_of(state).zones.place_guard(e.link, e.who)


@HANDLERS.evolves(ev.GuardLeft)
def _guard_left(state: ConflictState, e: ev.GuardLeft) -> None:
    ext_of(state).zones.remove_guard(e.who)


@HANDLERS.evolves(ev.CoverSet)
def _cover_set(state: ConflictState, e: ev.CoverSet) -> None:
    ext = ext_of(state)
    if e.value:
        ext.cover[e.who] = e.value
    else:
        ext.cover.pop(e.who, None)
    if e.object:
        ext.cover_object[e.who] = e.object
    else:
        ext.cover_object.pop(e.who, None)


@HANDLERS.evolves(ev.ChaseStarted)
def _chase_started(state: ConflictState, e: ev.ChaseStarted) -> None:
    ext_of(state).chases[e.id] = Chase(
        hunter=e.hunter, quarry=e.quarry, roller=e.roller, stage=e.stage,
        track=Track(length=e.positions, position=e.position), length=e.length, prize=e.prize)


@HANDLERS.evolves(ev.ChaseStage)
def _chase_stage(state: ConflictState, e: ev.ChaseStage) -> None:
    chase = ext_of(state).chases[e.id]
    chase.stage = e.stage
    chase.length = e.length
    chase.track = Track(length=e.positions, position=e.position)
    if e.lapsed:  # only a record that says so: an older one folds as it was played
        chase.tactics, chase.tactics_why = 0, ""


@HANDLERS.evolves(ev.ChaseAbandoned)
def _chase_abandoned(state: ConflictState, e: ev.ChaseAbandoned) -> None:
    chase = ext_of(state).chases[e.id]
    chase.stage = "over"
    if e.lapsed:
        chase.tactics, chase.tactics_why = 0, ""


@HANDLERS.evolves(ev.ChaseTactics)
def _chase_tactics(state: ConflictState, e: ev.ChaseTactics) -> None:
    chase = ext_of(state).chases[e.id]
    chase.tactics, chase.tactics_why = e.mod, (e.why or "") if e.mod else ""


@HANDLERS.evolves(ev.ChaseRoll, ev.ChaseInterpose)
def _chase_moved(state: ConflictState, e: ev.ChaseRoll | ev.ChaseInterpose) -> None:
    chase = ext_of(state).chases[e.id]
    chase.track.set(e.to)
    chase.stage = e.new_stage
    chase.tactics, chase.tactics_why = 0, ""  # the roll took the GM's tactics (VR-CHASE-5)
