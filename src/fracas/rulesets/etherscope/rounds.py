"""Etherscope decide, the round: base initiative, declarations, the countdown with its ties
(ES-ROUND-*)."""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command
from fracas.engine.components import Slot, tie_groups
from fracas.engine.engine_events import (
    ConflictStarted,
    RoundEnded,
    TurnEnded,
)
from fracas.engine.events import Event
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState, Status, Viewer
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, NotYourTurn
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.common import (
    active,
    actor_of,
    check_rolloffs_used,
    current_condenser,
    ext_of,
    name,
    table_rolloffs,
    unknown_to,
)
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.marks import condenser_secret
from fracas.rulesets.etherscope.rolls import break_ties
from fracas.rulesets.etherscope.settings import condenser_of, min_gap

Events = list[Event]


@HANDLERS.decides("round")
def decide_round(d: Decision, cmd: Command) -> None:
    """ES-ROUND-1: a new round; base initiative = the conflict's condenser now."""
    state = d.state
    ext = ext_of(state)
    if ext.phase in (ph.START, ph.MOVES):
        raise IllegalCommand(
            "finish the start of the conflict first: roll awareness, set ranges, then "
            "`moves` and every awareness move", rule="ES-START-5")
    if ext.phase != ph.READY:
        raise IllegalCommand(f"round {state.round} is still going", rule="ES-ROUND-4")
    out: Events = []
    if state.status == Status.SETUP.value:
        out.append(ConflictStarted())
    base = {p: current_condenser(state, p) for p in state.active_ids()}
    out.append(ev.EsRoundStarted(round=state.round + 1,
                            base=base, condenser=condenser_of(state.settings)))
    d.emit(*out)


@HANDLERS.decides("declare")
def decide_declare(d: Decision, cmd: Command) -> None:
    """ES-ROUND-2, ES-ROUND-3, ES-ROUND-7: validate and record acting initiatives."""
    state = d.state
    ext, actor = ext_of(state), actor_of(cmd)
    scores = list(cmd.args["scores"])
    if ext.phase != ph.DECLARE:
        when = {
            ph.START: "the conflict has not started: after awareness (and the awareness moves) "
                      "the GM starts a round with 'round'",
            ph.MOVES: "the awareness moves are not over; then the GM starts a round with "
                      "'round'",
            ph.READY: "no round is under way; the GM starts the next one with 'round'",
        }.get(ext.phase, "everyone declares before the countdown begins")
        raise IllegalCommand(f"{name(state, actor)} cannot declare now: {when}",
                             rule="ES-ROUND-7")
    if actor not in ext.base:
        raise IllegalCommand(f"{name(state, actor)} joined after the round began",
                             rule="ES-ROUND-7")
    if len(set(scores)) != len(scores):
        raise IllegalCommand(
            f"{possessive(name(state, actor))} acting initiatives "
            f"{', '.join(map(str, scores))} repeat a score; actions must be at least "
            f"{min_gap(state.settings)} apart",
            rule="ES-ROUND-3")
    ext.countdown.check_declare(actor, scores, ext.base[actor], min_gap(state.settings),
                                "ES-ROUND-2", "ES-ROUND-3", "ES-ROUND-2",
                                rule_started="ES-ROUND-7", names=state.names(),
                                base_known=not condenser_secret(state, d.ctx.author, actor))
    d.emit(ev.InitiativeDeclared(participant=actor, scores=tuple(sorted(scores, reverse=True)),
                                 base=ext.base[actor], actor=actor))


@HANDLERS.decides("countdown")
def decide_countdown(d: Decision, cmd: Command) -> None:
    """ES-ROUND-4, ES-ROUND-5, ES-ROUND-7: defaults, ties, then the first turn."""
    state, ctx = d.state, d.ctx
    ext = ext_of(state)
    if ext.phase != ph.DECLARE:
        when = {
            ph.START: "the conflict has not started: after awareness (and the awareness moves) "
                      "the GM starts a round with 'round'",
            ph.MOVES: "the awareness moves are not over; then the GM starts a round with "
                      "'round'",
            ph.READY: "no round is under way; the GM starts the next one with 'round', then "
                      "the countdown",
        }.get(ext.phase, f"the countdown of round {state.round} is already under way")
        raise IllegalCommand(f"cannot start the countdown now: {when}", rule="ES-ROUND-4")
    out: Events = []
    decl = {a: list(s) for a, s in ext.countdown.declarations.items() if active(state, a)}
    for pid in state.active_ids():
        if pid not in decl and ext.base.get(pid, 0) > 0:
            decl[pid] = [ext.base[pid]]
            out.append(ev.InitiativeDeclared(participant=pid, scores=(ext.base[pid],),
                                             base=ext.base[pid], default=True, actor=pid))
    slots = [Slot(a, s) for a, scores in decl.items() for s in scores]
    table = table_rolloffs(cmd, list(decl))
    order: list[list[Any]] = []
    for group in tie_groups(sorted(slots, key=lambda s: -s.score)):
        if len(group) == 1:
            order.append([group[0].actor, group[0].score])
            continue
        records, ranked = break_ties(state, ctx, [s.actor for s in group], ext.awareness,
                                     group[0].score, table)
        out += tie_events(records)
        order += [[a, group[0].score] for a in ranked]
    check_rolloffs_used(state, table)
    out.append(ev.CountdownStarted(order=tuple((a, s) for a, s in order)))
    if order:
        out.append(ev.EsTurnStarted(participant=order[0][0], score=order[0][1]))
    else:
        out.append(RoundEnded(round=state.round))
    d.emit(*out)


def tie_events(records: list[dict[str, Any]]) -> Events:
    """The ``tie_rolloff`` events of :func:`break_ties`'s records."""
    return [ev.TieRolloff(score=r["score"], awareness=r["awareness"],
                          participants=tuple(r["participants"]), rolls=r["rolls"],
                          successes=r["successes"]) for r in records]


#: What comes before the countdown, by phase (an action refused there says what to type).
_NO_COUNTDOWN = {
    ph.START: "the conflict has not started: awareness first, then the GM's 'round'",
    ph.MOVES: "the awareness moves come first, then the GM's 'round'",
    ph.DECLARE: "round {round} is being declared; the GM's 'countdown' starts the actions",
    ph.READY: "no round is under way; the GM starts the next one with 'round'",
}


def check_turn(state: ConflictState, actor: str, author: Viewer | None = None, *,
               acted_ok: bool = False) -> None:
    """Refuse an action by anyone but the character whose slot of the countdown is now
    (ES-ROUND-4); ``acted_ok`` lets it finish a turn whose action is resolved. The refusal
    says only what ``author`` may know: never the name of a character hidden from all of a
    player's characters, nor the score of a default declaration of a GM-only condenser."""
    ext = ext_of(state)
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur is None or cur.actor != actor:
        now = _NO_COUNTDOWN.get(ext.phase, "no countdown is under way").format(
            round=state.round)
        if cur is not None and unknown_to(state, author, cur.actor):
            now = f"it is not {possessive(name(state, actor))} turn"
        elif cur is not None:
            secret = cur.actor in ext.defaulted and author is not None \
                and condenser_secret(state, author, cur.actor)
            at = "" if secret else f" at {cur.score}"
            now = f"it is {possessive(name(state, cur.actor))} turn{at}"
        raise NotYourTurn(f"{name(state, actor)} does not act now; {now}", rule="ES-ROUND-4")
    if ext.acted and not acted_ok:
        raise IllegalCommand(f"{name(state, actor)} has resolved this action; `done` ends "
                             "the turn", rule="ES-ROUND-4")


def end_turn(state: ConflictState, outs: set[str] | None = None) -> Events:
    """``turn_ended`` and the next ``turn_started`` (or ``round_ended``)."""
    ext = ext_of(state)
    cur = ext.countdown.current
    assert cur is not None
    gone = outs or set()
    out: Events = [TurnEnded(participant=cur.actor)]
    for i in range(ext.countdown.position + 1, len(ext.countdown.queue)):
        slot = ext.countdown.queue[i]
        if active(state, slot.actor) and slot.actor not in gone:
            return [*out, ev.EsTurnStarted(participant=slot.actor, score=slot.score)]
    return [*out, RoundEnded(round=state.round)]
