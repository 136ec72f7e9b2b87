"""Timed effects and reminders: when a turn or round boundary makes them expire.

An effect watches one kind of boundary (``round_end``, ``turn_start`` or ``turn_end`` of a
named participant) and expires at the ``remaining``-th such boundary after it was added. The
same :func:`matches` decides expiry in ``decide`` (which logs an ``effect_expired`` event) and
the count-down in ``evolve``, so the two never disagree.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from typing import TYPE_CHECKING

from fracas.engine.engine_events import (
    EffectAdded,
    EffectExpired,
    RoundEnded,
    TurnBoundary,
    TurnEnded,
    TurnStarted,
    ZoomClosed,
)
from fracas.engine.events import Event
from fracas.engine.model import ConflictState, TimedEffect
from fracas.engine.words import possessive

if TYPE_CHECKING:
    from fracas.engine.context import DecideContext

TRIGGERS = ("round_end", "turn_start", "turn_end")
_BOUNDARY: dict[type[Event], str] = {
    RoundEnded: "round_end", TurnStarted: "turn_start", TurnEnded: "turn_end"}


def boundary(event: Event) -> str | None:
    """The trigger of a boundary event (None: none), by its class or a base's (a ruleset's
    typed keys on the engine's ``turn_ended`` are a subclass of it)."""
    return next((_BOUNDARY[c] for c in type(event).__mro__ if c in _BOUNDARY), None)


def new_id(ctx: DecideContext, effects: list[TimedEffect]) -> str:
    """A short id for a new effect (``ekqzt``: letters, so it never reads as a number) that is
    neither a version nor a count, so no player learns from it how many records or (secret)
    effects came before: derived from the secret seed and the command's version (the same
    command always names it the same), longer only where it would clash with one in play."""
    digest = hmac.new(ctx.seed.encode(), f"effect:{ctx.version}".encode(),
                      hashlib.sha256).digest()
    letters = "".join(_LETTERS[b % 26] for b in digest)
    taken = {e.id for e in effects}
    size = 4
    while f"e{letters[:size]}" in taken:
        size += 1
    return f"e{letters[:size]}"


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def matches(effect: TimedEffect, event: Event) -> bool:
    """Whether ``event`` is a boundary that counts for ``effect``."""
    trigger = boundary(event)
    if trigger is None or trigger != effect.trigger:
        return False
    if trigger == "round_end":
        return True
    return isinstance(event, TurnBoundary) and event.participant == effect.participant


def tick(effects: list[TimedEffect], event: Event) -> None:
    """Count one boundary down on every effect it matches (``evolve``; never raises)."""
    for effect in effects:
        if matches(effect, event) and effect.remaining > 0:
            effect.remaining -= 1


def expired(effect: TimedEffect, reason: str) -> EffectExpired:
    """The event that ends ``effect`` (it names whom the effect watched, for redaction)."""
    return EffectExpired(id=effect.id, text=effect.text, reason=reason,
                         participant=effect.participant, actor=effect.owner,
                         visibility=effect.visibility)


def lasts(effect: TimedEffect, state: ConflictState, round_word: str = "round",
          turn_word: str = "turn") -> str:
    """How long ``effect`` lasts, in words, in the game's words for a round and a turn (VERS:
    turn and go): "until the end of round 3", "until Ada's next go starts", "until the end
    of Ada's turn", "until Ada's go has ended 2 more times"."""
    n = effect.remaining
    if effect.trigger == "round_end":  # round 0: not begun, the first to end is round 1
        return f"until the end of {round_word} {max(state.round, 1) + n - 1}"
    pid = effect.participant
    who = state.participants[pid].name if pid in state.participants else "the"
    whose = possessive(who) if pid in state.participants else who
    start = effect.trigger == "turn_start"
    if n == 1:
        return f"until {whose} next {turn_word} starts" if start else \
            f"until the end of {whose} {turn_word}"
    return f"until {whose} {turn_word} has {'started' if start else 'ended'} {n} more times"


def with_expiries(effects: list[TimedEffect], events: list[Event]) -> list[Event]:
    """``events`` with an ``effect_expired`` event after each boundary that ends an effect."""
    if not effects and not any(isinstance(e, EffectAdded) for e in events):
        return events  # nothing can expire (the common case: no copy)
    live = copy.deepcopy(effects)
    out: list[Event] = []
    for event in events:
        out.append(event)
        if isinstance(event, EffectAdded):
            live.append(event.effect())
        elif isinstance(event, EffectExpired):
            live = [e for e in live if e.id != event.id]
        elif boundary(event) is not None:
            tick(live, event)
            for effect in [e for e in live if e.remaining <= 0]:
                out.append(expired(effect, event.type))
                live.remove(effect)
        elif isinstance(event, ZoomClosed):
            # the zoomed-in conflict's effects end with it (they are logged as ending, just
            # before it closes)
            out[-1:-1] = [expired(e, "the zoomed-in conflict ended") for e in live]
            live = []
    return out
