"""Sentences for the log: the engine's own events in words a GM reads at a glance."""

from __future__ import annotations

from fracas.engine.concealment import describe_concealment
from fracas.engine.events import (
    CONFLICT_CREATED,
    CONFLICT_ENDED,
    CONFLICT_STARTED,
    EFFECT_ADDED,
    EFFECT_EXPIRED,
    GM_ACTS,
    NARRATION,
    NOTE,
    OVERRIDE,
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    REDONE,
    ROLL,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    UNDONE,
    ZOOM_CLOSED,
    ZOOM_OPENED,
    Event,
)
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


def describe(ruleset: Ruleset, event: Event, state: ConflictState) -> str:
    """One line for ``event``: the ruleset's sentence, or the engine's generic one."""
    text = ruleset.describe(event, state)
    if text is None:
        text = describe_concealment(event, state)
    if text is not None:
        return text
    d = event.data
    who = name_of(state, event.actor)
    t = event.type
    secret = "" if event.visibility == "public" else f" [{event.visibility}]"
    if t == CONFLICT_CREATED:
        return f"conflict set up: {d.get('title') or ruleset.title} " \
               f"({len(d.get('participants', []))} participants)"
    if t == CONFLICT_STARTED:
        return "the conflict begins"
    if t == CONFLICT_ENDED:
        out = f" — {d['outcome']}" if d.get("outcome") else ""
        return f"the conflict ends: {d.get('reason')}{out}"
    if t == ROUND_STARTED:
        return f"round {d.get('round')} begins"
    if t == ROUND_ENDED:
        return f"round {d.get('round')} ends"
    if t == TURN_STARTED:
        return f"{name_of(state, d.get('participant'))}'s turn"
    if t == TURN_ENDED:
        return f"{name_of(state, d.get('participant'))} is done"
    if t == PARTICIPANT_JOINED:
        return f"{d.get('name')} joins the conflict"
    if t == PARTICIPANT_LEFT:
        return f"{name_of(state, d.get('participant'))} leaves: {d.get('reason')}"
    if t == PARTICIPANT_OUT:
        return f"{name_of(state, d.get('participant'))} is out of the conflict: {d.get('reason')}"
    if t == NOTE:
        return f"note{secret}: {d.get('text')}"
    if t == NARRATION:
        return f"{who}{secret}: {d.get('text')}"
    if t == ROLL:
        why = f" for {d['why']}" if d.get("why") else ""
        return f"{who} rolls{why}{secret}: {d.get('text')}"
    if t == OVERRIDE:
        reason = f" ({d['reason']})" if d.get("reason") else ""
        return f"GM sets {'.'.join(d['path'])} = {d['value']!r} (was {d.get('was')!r}){reason}"
    if t == EFFECT_ADDED:
        return f"effect {d.get('id')}{secret}: {d.get('text')} (until {_until(d, state)})"
    if t == EFFECT_EXPIRED:
        return f"effect {d.get('id')} ends: {d.get('text')}"
    if t == ZOOM_OPENED:
        return f"zoom in: {d.get('reason') or 'a nested conflict'}"
    if t == ZOOM_CLOSED:
        return f"back to the main conflict ({d.get('reason')})"
    if t in (UNDONE, REDONE):
        # the GM's marker names versions; a player's names their own entries' commands
        done = [f"v{v}" for v in d.get("versions", [])] or list(d.get("commands", []))
        return f"{'undo' if t == UNDONE else 'redo'}: " + "; ".join(done)
    if t == GM_ACTS:
        return "the GM acts"
    details = ", ".join(f"{k}={v}" for k, v in d.items())
    return f"{t.replace('_', ' ')}{secret}: {details}" if details else t.replace("_", " ")


def _until(d: dict[str, object], state: ConflictState) -> str:
    count = d.get("remaining", 1)
    times = "" if count == 1 else f" ×{count}"
    trigger = d.get("trigger")
    if trigger == "round_end":
        return f"the end of the round{times}"
    who = name_of(state, str(d.get("participant")))
    edge = "start" if trigger == "turn_start" else "end"
    return f"the {edge} of {who}'s turn{times}"
