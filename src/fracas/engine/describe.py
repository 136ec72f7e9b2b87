"""Sentences for the log: the engine's own events in words a GM reads at a glance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.engine import engine_events as ee
from fracas.engine.concealment import describe_concealment
from fracas.engine.effects import lasts
from fracas.engine.events import Event
from fracas.engine.handlers import Table
from fracas.engine.limits import spelled
from fracas.engine.model import ConflictState
from fracas.engine.ruleset import Ruleset
from fracas.engine.sentences import fill, secret_mark


def name_of(state: ConflictState, pid: str | None) -> str:
    """A participant's display name: "the GM" for no one, "someone" for an id ``state`` does
    not hold (a player's projected state holds no hidden participant, so no hidden id is
    ever printed in its place)."""
    if pid is None:
        return "the GM"
    p = state.participants.get(pid)
    return p.name if p else "someone"


DescribeFn = Callable[[Ruleset, Any, ConflictState], str]
#: The engine's sentence for each of its events, by class.
SENTENCES: Table[type[Event], DescribeFn] = Table("describe")


def describe(ruleset: Ruleset, event: Event, state: ConflictState) -> str:
    """One line for ``event``: the ruleset's sentence, or the engine's generic one."""
    event = ruleset.events.typed(event)
    text = ruleset.describe(event, state)
    if text is None:
        text = describe_concealment(event, state)
    if text is not None:
        return text
    engine = SENTENCES.get(type(event))
    if engine is not None:
        return engine(ruleset, event, state)
    details = ", ".join(f"{k}={v}" for k, v in event.data.items())
    kind = event.type.replace("_", " ")
    return f"{kind}{secret_mark(event)}: {details}" if details else kind


def _part(text: str, value: str | None) -> str:
    """``text`` around an optional value ("" without one)."""
    return text.format(value) if value else ""


@SENTENCES.register(ee.ConflictCreated)
def _created(ruleset: Ruleset, e: ee.ConflictCreated, state: ConflictState) -> str:
    return f"conflict set up: {e.title or ruleset.title} ({len(e.participants)} participants)"


@SENTENCES.register(ee.ConflictEnded)
def _ended(ruleset: Ruleset, e: ee.ConflictEnded, state: ConflictState) -> str:
    return f"the conflict ends: {e.reason}{_part(' — {}', e.outcome)}"


@SENTENCES.register(ee.Rolled)
def _rolled(ruleset: Ruleset, e: ee.Rolled, state: ConflictState) -> str:
    return f"{name_of(state, e.actor)} rolls{_part(' for {}', e.why)}{secret_mark(e)}: {e.text}"


@SENTENCES.register(ee.Override)
def _override(ruleset: Ruleset, e: ee.Override, state: ConflictState) -> str:
    # values as a scenario or the override command writes them (true, "routed", [7, 2])
    was = "unset" if e.was is None else spelled(e.was)
    return (f"GM sets {'.'.join(e.path)} = {spelled(e.value)} (was {was})"
            f"{_part(' ({})', e.reason)}")


@SENTENCES.register(ee.EffectAdded)
def _effect_added(ruleset: Ruleset, e: ee.EffectAdded, state: ConflictState) -> str:
    # the effect lives in the conflict being played (a zoomed-in one: its rounds, not its
    # parent's)
    return (f"effect {e.id}{secret_mark(e)}: {e.text} "
            f"({lasts(e.effect(), state.innermost, ruleset.round_word, ruleset.turn_word)})")


@SENTENCES.register(ee.ZoomOpened)
def _zoom_opened(ruleset: Ruleset, e: ee.ZoomOpened, state: ConflictState) -> str:
    return f"zoom in: {e.reason or 'a nested conflict'}"


@SENTENCES.register(ee.Undone, ee.Redone)
def _marker(ruleset: Ruleset, e: ee.Undone | ee.Redone, state: ConflictState) -> str:
    # the GM's marker names versions, with their commands; a player's names their own
    # entries' commands
    commands = list(e.commands or ())
    done = commands
    if e.versions:
        named = commands + [""] * (len(e.versions) - len(commands))
        done = [f"v{v} ({c})" if c else f"v{v}" for v, c in zip(e.versions, named, strict=True)]
    return f"{'undo' if isinstance(e, ee.Undone) else 'redo'}: " + "; ".join(done)


@SENTENCES.register(ee.ParticipantLeft, ee.ParticipantOut)
def _gone(ruleset: Ruleset, e: ee.ParticipantLeft | ee.ParticipantOut,
          state: ConflictState) -> str:
    # without a reason typed, the command stored its verb as the reason: not said again
    left = isinstance(e, ee.ParticipantLeft)
    said = None if e.reason == ("leave" if left else "out") else e.reason
    what = "leaves" if left else "is out of the conflict"
    return f"{name_of(state, e.participant)} {what}{_part(': {}', said)}"


#: The sentences that are templates of the event's fields (see :func:`.sentences.fill`).
TEMPLATES: dict[type[Event], str] = {
    ee.ConflictStarted: "the conflict begins",
    ee.RoundStarted: "round {e.round} begins",
    ee.RoundEnded: "round {e.round} ends",
    ee.TurnStarted: "{whose.participant} turn",
    ee.TurnEnded: "{who.participant} is done",
    ee.ParticipantJoined: "{e.name} joins the conflict",
    ee.Note: "note{secret}: {e.text}",
    ee.Narration: "{who.actor}{secret}: {e.text}",
    ee.EffectExpired: "effect {e.id} ends: {e.text}",
    ee.ZoomClosed: "back to the main conflict ({e.reason})",
    ee.GmActs: "the GM acts",
}


@SENTENCES.register(*TEMPLATES)
def _templated(ruleset: Ruleset, e: Event, state: ConflictState) -> str:
    kind = next(c for c in type(e).__mro__ if c in TEMPLATES)  # a ruleset's subclass: its base's
    return fill(TEMPLATES[kind], e, state, name_of)
