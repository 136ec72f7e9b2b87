"""Etherscope ``evolve``: events → state, one handler per event class. Never raises."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import RangeBands, ResourcePool, Slot
from fracas.engine.engine_events import (
    ParticipantJoined,
    ParticipantLeft,
    ParticipantOut,
    RoundEnded,
)
from fracas.engine.model import ConflictState
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.state import EsExt

CONDENSERS = ("physical", "ether", "society")
H = HANDLERS


def condensers_of(stats: dict[str, Any]) -> dict[str, ResourcePool]:
    """A character's three condensers from its stats (0 when missing)."""
    out = {}
    for c in CONDENSERS:
        value = stats.get(c, 0)
        n = int(value) if isinstance(value, int) else 0
        out[c] = ResourcePool(current=n, maximum=n)
    return out


def init_ext(state: ConflictState) -> EsExt:
    """The ext of a new conflict: ranges from the settings, groups, lurking ambushers."""
    s = state.settings
    ext = EsExt()
    ids = list(state.participants)
    ext.ranges = RangeBands()
    for pid in ids:
        ext.ranges.add(pid, s["ranges"]["default"])
        ext.condenser[pid] = condensers_of(state.participants[pid].stats)
    for a, b, band in s["ranges"]["pairs"]:
        ext.ranges.set(a, b, band)
    ext.groups = {g: list(m) for g, m in s["groups"].items()}
    for lurker, targets in s["lurking"].items():
        for t in targets:
            ext.ranges.hide(lurker, t)
    return ext


def _ext(state: ConflictState) -> EsExt:
    ext: EsExt = state.ext
    return ext


@H.evolves(ev.AwarenessRolled)
def _awareness(state: ConflictState, e: ev.AwarenessRolled) -> None:
    _ext(state).awareness[e.participant] = int(e.successes)
    if e.pool is not None:
        _ext(state).awareness_pools[e.participant] = int(e.pool)
        _ext(state).awareness_skills[e.participant] = e.skill


@H.evolves(ev.AmbushResolved)
def _ambush(state: ConflictState, e: ev.AmbushResolved) -> None:
    ext = _ext(state)
    tried = ext.ambushed.setdefault(e.ambusher, [])
    for r in e.targets or ():
        tried.append(r["target"])
        if r["ambushed"]:
            ext.ranges.hide(e.ambusher, r["target"])
        else:
            ext.ranges.reveal(e.ambusher, r["target"])


@H.evolves(ev.RangeSet, ev.RangeChanged)
def _range(state: ConflictState, e: ev.RangeSet | ev.RangeChanged) -> None:
    ext = _ext(state)
    ext.ranges.set(e.a, e.b, int(e.band))
    if isinstance(e, ev.RangeChanged) and e.why == "awareness move" and e.b not in ext.stepped:
        ext.stepped.append(e.b)


@H.evolves(ev.GroupFormed)
def _group_formed(state: ConflictState, e: ev.GroupFormed) -> None:
    _ext(state).groups[e.group] = list(e.members)


@H.evolves(ev.GroupDissolved)
def _group_dissolved(state: ConflictState, e: ev.GroupDissolved) -> None:
    _ext(state).groups.pop(e.group, None)


@H.evolves(ev.GroupLeft)
def _group_left(state: ConflictState, e: ev.GroupLeft) -> None:
    _leave_group(_ext(state), e.group, e.participant)


@H.evolves(ev.Hidden)
def _hidden(state: ConflictState, e: ev.Hidden) -> None:
    for x in e.from_:
        _ext(state).ranges.hide(e.participant, x)


@H.evolves(ev.Revealed)
def _revealed(state: ConflictState, e: ev.Revealed) -> None:
    for x in e.from_:
        _ext(state).ranges.reveal(e.participant, x, e.band)


@H.evolves(ev.AwarenessOrder)
def _move_order(state: ConflictState, e: ev.AwarenessOrder) -> None:
    ext = _ext(state)
    ext.phase = ph.MOVES
    ext.move_order = list(e.order)
    ext.mover = -1


@H.evolves(ev.MoverStarted)
def _mover(state: ConflictState, e: ev.MoverStarted) -> None:
    # found by name: an index would tell a player how many hidden movers came before
    ext = _ext(state)
    who = e.participant
    ext.mover = ext.move_order.index(who) if who in ext.move_order else int(
        e.index if e.index is not None else ext.mover + 1)
    ext.stepped = []


@H.evolves(ev.MovesDone)
def _moves_done(state: ConflictState, e: ev.MovesDone) -> None:
    ext = _ext(state)
    ext.phase = ph.READY
    ext.mover = len(ext.move_order)
    ext.stepped = []


@H.evolves(ev.InitiativeDeclared)
def _declared(state: ConflictState, e: ev.InitiativeDeclared) -> None:
    ext = _ext(state)
    ext.countdown.declare(e.participant, list(e.scores or ()))
    if e.default and e.participant not in ext.defaulted:
        ext.defaulted.append(e.participant)


@H.evolves(ev.CountdownStarted)
def _countdown(state: ConflictState, e: ev.CountdownStarted) -> None:
    ext = _ext(state)
    ext.phase = ph.COUNTDOWN
    ext.countdown.start([Slot(a, int(s or 0)) for a, s in e.order or ()])
    ext.countdown.position = -1


@H.evolves(ev.ActionResolved)
def _action(state: ConflictState, e: ev.ActionResolved) -> None:
    _ext(state).acted = True


@H.evolves(ev.Damage)
def _damage(state: ConflictState, e: ev.Damage) -> None:
    pool = _ext(state).condenser.get(e.participant, {}).get(e.condenser)
    if pool is not None:
        pool.damage(int(e.amount or 0))


@H.evolves(ev.Recovered)
def _recovered(state: ConflictState, e: ev.Recovered) -> None:
    pool = _ext(state).condenser.get(e.participant, {}).get(e.condenser)
    if pool is not None:
        pool.heal(int(e.amount or 0))


# --- the engine's events, in Etherscope's state ---------------------------------------------
@H.evolves(ev.EsRoundStarted)
def _round_started(state: ConflictState, e: ev.EsRoundStarted) -> None:
    ext = _ext(state)
    ext.phase = ph.DECLARE
    ext.base = {k: int(v) for k, v in (e.base or {}).items()}
    ext.countdown.new_round()
    ext.defaulted = []
    ext.acted = False


@H.evolves(ev.EsTurnStarted)
def _turn_started(state: ConflictState, e: ev.EsTurnStarted) -> None:
    ext = _ext(state)
    cd, score = ext.countdown, e.score
    ext.acted = False
    start = max(0, cd.position + 1) if cd.position >= 0 else 0
    for i in range(start, len(cd.queue)):
        if cd.queue[i].actor == e.participant and cd.queue[i].score == score:
            cd.position = i
            return
    cd.position = min(e.slot or 0, len(cd.queue))


@H.evolves(RoundEnded)
def _round_ended(state: ConflictState, e: RoundEnded) -> None:
    ext = _ext(state)
    ext.phase = ph.READY
    ext.countdown.position = len(ext.countdown.queue)


@H.evolves(ev.EsZoomOpened)
def _zoom_opened(state: ConflictState, e: ev.EsZoomOpened) -> None:
    _ext(state).acted = True


@H.evolves(ParticipantJoined)
def _joined(state: ConflictState, e: ParticipantJoined) -> None:
    ext, pid = _ext(state), e.id
    if pid not in ext.ranges.actors:
        ext.ranges.add(pid, state.settings["ranges"]["default"])
    ext.condenser[pid] = condensers_of(e.stats)
    ext.countdown.add(pid)  # it rolls awareness when it likes; till then it ties at 0


@H.evolves(ParticipantLeft, ParticipantOut)
def _gone(state: ConflictState, e: ParticipantLeft | ParticipantOut) -> None:
    ext, pid = _ext(state), e.participant
    ext.countdown.remove(pid)
    for g in [g for g, m in ext.groups.items() if pid in m]:
        _leave_group(ext, g, pid)


def _leave_group(ext: EsExt, group: str, pid: str) -> None:
    members = ext.groups.get(group)
    if members is None:
        return
    if pid in members:
        members.remove(pid)
    if len(members) < 2:
        ext.groups.pop(group, None)
