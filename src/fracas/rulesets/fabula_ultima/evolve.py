"""Fabula Ultima ``evolve``: events → state, one handler per event class (Fabula Ultima's, and
its part of the engine's rounds, turns, joins and outs). Never raises."""

from __future__ import annotations

from fracas.engine import engine_events as engine
from fracas.engine.components import AlternatingSides
from fracas.engine.model import ConflictState
from fracas.rulesets.fabula_ultima import events as ev
from fracas.rulesets.fabula_ultima.handlers import HANDLERS
from fracas.rulesets.fabula_ultima.state import (
    FabulaExt,
    Item,
    add_participant,
    is_extra,
    roster,
    turns_per_round,
)

H = HANDLERS


def _ext(state: ConflictState) -> FabulaExt:
    ext: FabulaExt = state.ext
    return ext


@H.evolves(ev.InitiativeChecked)
def _initiative(state: ConflictState, e: ev.InitiativeChecked) -> None:
    ext = _ext(state)
    check = e.check or {}
    ext.initiative = {"leader": e.leader, "dl": e.dl, "total": check.get("total"),
                      "success": e.success, "first_side": e.first_side}
    members, turns = roster(state)
    new = AlternatingSides(sides=[ext.pc_side, ext.foe_side], first_side=e.first_side,
                           side_on_turn=e.first_side)
    for pid, side in members.items():
        new.side_of[pid] = side
        new.turns_per_round[pid] = turns[pid]
        new.taken[pid] = 0
    new.settle()
    ext.order = new


@H.evolves(ev.GoalSet)
def _goal(state: ConflictState, e: ev.GoalSet) -> None:
    if e.text is not None:  # a record's own (a player's view masks a GM-only one)
        _ext(state).goals[e.participant] = e.text


@H.evolves(ev.ItemEquipped)
def _equipped(state: ConflictState, e: ev.ItemEquipped) -> None:
    item = Item(**e.item)
    items = _ext(state).equipment.setdefault(e.participant, [])
    single = item.kind in ("armor", "shield")
    items[:] = [i for i in items if not (
        (single and i.kind == item.kind) or i.name.lower() == item.name.lower())]
    items.append(item)


@H.evolves(ev.ExtraSet)
def _extra(state: ConflictState, e: ev.ExtraSet) -> None:
    extras = _ext(state).extras
    if e.on and e.participant not in extras:
        extras.append(e.participant)
    elif not e.on and e.participant in extras:
        extras.remove(e.participant)


@H.evolves(ev.SideAssigned)
def _assigned(state: ConflictState, e: ev.SideAssigned) -> None:
    ext = _ext(state)
    p = state.participants.get(e.participant)
    if p is None:
        return
    p.side = e.side
    order = ext.order
    if order is None or is_extra(ext, p) or not p.active:
        return
    if p.id in order.side_of:
        order.move(p.id, e.side)
    else:
        join_order(ext, p.id, e.side, turns_per_round(p))


@H.evolves(ev.Cast)
def _cast(state: ConflictState, e: ev.Cast) -> None:
    pool = _ext(state).mp.get(e.actor or "")
    if e.mp and pool is not None:
        pool.set(pool.current - int(e.mp))


@H.evolves(ev.Damaged)
def _damaged(state: ConflictState, e: ev.Damaged) -> None:
    hp = _ext(state).hp
    if e.target in hp and e.hp_after is not None:
        hp[e.target].set(int(e.hp_after))


@H.evolves(ev.Recovered, ev.Spent)
def _pool_changed(state: ConflictState, e: ev.Recovered | ev.Spent) -> None:
    ext = _ext(state)
    pid = e.target if isinstance(e, ev.Recovered) else e.participant
    pools = {"hp": ext.hp, "mp": ext.mp, "ip": ext.ip}.get(e.pool, {})
    if pid in pools and e.after is not None:
        pools[pid].set(int(e.after))


@H.evolves(ev.StatusChanged)
def _status(state: ConflictState, e: ev.StatusChanged) -> None:
    have = _ext(state).statuses.setdefault(e.target, [])
    if e.on and e.effect not in have:
        have.append(e.effect)
    elif not e.on and e.effect in have:
        have.remove(e.effect)


@H.evolves(ev.FabulaChanged)
def _fabula(state: ConflictState, e: ev.FabulaChanged) -> None:
    if e.fp_after is not None:  # a record's own (a player's view masks GM-only points)
        _ext(state).fp[e.participant] = max(0, int(e.fp_after))


# --- the engine's events, in Fabula Ultima's state -------------------------------------------
@H.evolves(engine.RoundStarted)
def _round_started(state: ConflictState, e: engine.RoundStarted) -> None:
    ext = _ext(state)
    if ext.order is not None:
        ext.order.new_round()
        ext.round_closed = False


@H.evolves(engine.RoundEnded)
def _round_ended(state: ConflictState, e: engine.RoundEnded) -> None:
    _ext(state).round_closed = True


@H.evolves(engine.TurnStarted)
def _turn_started(state: ConflictState, e: engine.TurnStarted) -> None:
    order = _ext(state).order
    if order is not None:
        order.take_turn(e.participant)


@H.evolves(engine.TurnEnded)
def _turn_ended(state: ConflictState, e: engine.TurnEnded) -> None:
    order = _ext(state).order
    if order is not None:
        order.end_turn()  # settled as it ends


@H.evolves(engine.ParticipantLeft, engine.ParticipantOut)
def _gone(state: ConflictState, e: engine.ParticipantLeft | engine.ParticipantOut) -> None:
    order = _ext(state).order
    if order is not None:
        order.leave(e.participant)  # settled as it leaves


@H.evolves(engine.ParticipantJoined)
def _joined(state: ConflictState, e: engine.ParticipantJoined) -> None:
    ext = _ext(state)
    p = state.participants.get(e.id)
    if p is None:
        return
    add_participant(ext, p)
    if ext.order is not None and not is_extra(ext, p) and p.side in ext.order.sides:
        join_order(ext, p.id, p.side, turns_per_round(p))


def join_order(ext: FabulaExt, pid: str, side: str, turns: int) -> None:
    """Add ``pid`` to the turn order; after the round has ended its turns count from the
    next round, so it does not reopen the finished one (FU-CON-14)."""
    assert ext.order is not None
    ext.order.join(pid, side, turns)
    if ext.round_closed:
        ext.order.taken[pid] = ext.order.turns_per_round[pid]
    ext.order.settle()
