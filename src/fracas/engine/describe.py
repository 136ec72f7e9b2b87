"""Sentences for the log: the engine's own events in words a GM reads at a glance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.engine.concealment import describe_concealment
from fracas.engine.engine_events import (
    ConflictCreated,
    ConflictEnded,
    ConflictStarted,
    EffectAdded,
    EffectExpired,
    GmActs,
    Narration,
    Note,
    Override,
    ParticipantJoined,
    ParticipantLeft,
    ParticipantOut,
    Redone,
    Rolled,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    Undone,
    ZoomClosed,
    ZoomOpened,
)
from fracas.engine.events import Event
from fracas.engine.handlers import Table
from fracas.engine.model import ConflictState
from fracas.engine.ruleset import Ruleset


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
    return f"{kind}{_secret(event)}: {details}" if details else kind


def _secret(event: Event) -> str:
    return "" if event.visibility == "public" else f" [{event.visibility}]"


@SENTENCES.register(ConflictCreated)
def _created(ruleset: Ruleset, e: ConflictCreated, state: ConflictState) -> str:
    return f"conflict set up: {e.title or ruleset.title} ({len(e.participants)} participants)"


@SENTENCES.register(ConflictStarted)
def _started(ruleset: Ruleset, e: ConflictStarted, state: ConflictState) -> str:
    return "the conflict begins"


@SENTENCES.register(ConflictEnded)
def _ended(ruleset: Ruleset, e: ConflictEnded, state: ConflictState) -> str:
    out = f" — {e.outcome}" if e.outcome else ""
    return f"the conflict ends: {e.reason}{out}"


@SENTENCES.register(RoundStarted)
def _round_started(ruleset: Ruleset, e: RoundStarted, state: ConflictState) -> str:
    return f"round {e.round} begins"


@SENTENCES.register(RoundEnded)
def _round_ended(ruleset: Ruleset, e: RoundEnded, state: ConflictState) -> str:
    return f"round {e.round} ends"


@SENTENCES.register(TurnStarted)
def _turn_started(ruleset: Ruleset, e: TurnStarted, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)}'s turn"


@SENTENCES.register(TurnEnded)
def _turn_ended(ruleset: Ruleset, e: TurnEnded, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)} is done"


@SENTENCES.register(ParticipantJoined)
def _joined(ruleset: Ruleset, e: ParticipantJoined, state: ConflictState) -> str:
    return f"{e.name} joins the conflict"


@SENTENCES.register(ParticipantLeft)
def _left(ruleset: Ruleset, e: ParticipantLeft, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)} leaves: {e.reason}"


@SENTENCES.register(ParticipantOut)
def _out(ruleset: Ruleset, e: ParticipantOut, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)} is out of the conflict: {e.reason}"


@SENTENCES.register(Note)
def _note(ruleset: Ruleset, e: Note, state: ConflictState) -> str:
    return f"note{_secret(e)}: {e.text}"


@SENTENCES.register(Narration)
def _narration(ruleset: Ruleset, e: Narration, state: ConflictState) -> str:
    return f"{name_of(state, e.actor)}{_secret(e)}: {e.text}"


@SENTENCES.register(Rolled)
def _rolled(ruleset: Ruleset, e: Rolled, state: ConflictState) -> str:
    why = f" for {e.why}" if e.why else ""
    return f"{name_of(state, e.actor)} rolls{why}{_secret(e)}: {e.text}"


@SENTENCES.register(Override)
def _override(ruleset: Ruleset, e: Override, state: ConflictState) -> str:
    reason = f" ({e.reason})" if e.reason else ""
    return f"GM sets {'.'.join(e.path)} = {e.value!r} (was {e.was!r}){reason}"


@SENTENCES.register(EffectAdded)
def _effect_added(ruleset: Ruleset, e: EffectAdded, state: ConflictState) -> str:
    return f"effect {e.id}{_secret(e)}: {e.text} (until {_until(e, state)})"


@SENTENCES.register(EffectExpired)
def _effect_expired(ruleset: Ruleset, e: EffectExpired, state: ConflictState) -> str:
    return f"effect {e.id} ends: {e.text}"


@SENTENCES.register(ZoomOpened)
def _zoom_opened(ruleset: Ruleset, e: ZoomOpened, state: ConflictState) -> str:
    return f"zoom in: {e.reason or 'a nested conflict'}"


@SENTENCES.register(ZoomClosed)
def _zoom_closed(ruleset: Ruleset, e: ZoomClosed, state: ConflictState) -> str:
    return f"back to the main conflict ({e.reason})"


@SENTENCES.register(Undone, Redone)
def _marker(ruleset: Ruleset, e: Undone | Redone, state: ConflictState) -> str:
    # the GM's marker names versions; a player's names their own entries' commands
    done = [f"v{v}" for v in e.versions or ()] or list(e.commands or ())
    return f"{'undo' if isinstance(e, Undone) else 'redo'}: " + "; ".join(done)


@SENTENCES.register(GmActs)
def _gm_acts(ruleset: Ruleset, e: GmActs, state: ConflictState) -> str:
    return "the GM acts"


def _until(e: EffectAdded, state: ConflictState) -> str:
    times = "" if e.remaining == 1 else f" ×{e.remaining}"
    if e.trigger == "round_end":
        return f"the end of the round{times}"
    edge = "start" if e.trigger == "turn_start" else "end"
    return f"the {edge} of {name_of(state, str(e.participant))}'s turn{times}"
