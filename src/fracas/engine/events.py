"""Events (facts that change the state) and records (one command's entry in the log).

An :class:`Event` is deterministic: same seed and same commands give the same events. A
:class:`Record` wraps the events of one command with its version and the envelope (author,
time, idempotency key), which is kept apart from the payload (DESIGN.md principle 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fracas.engine.model import Visibility

# Event types the engine itself understands; everything else belongs to a ruleset.
CONFLICT_CREATED = "conflict_created"
CONFLICT_STARTED = "conflict_started"
CONFLICT_ENDED = "conflict_ended"
ROUND_STARTED = "round_started"
ROUND_ENDED = "round_ended"
TURN_STARTED = "turn_started"
TURN_ENDED = "turn_ended"
PARTICIPANT_JOINED = "participant_joined"
PARTICIPANT_LEFT = "participant_left"
PARTICIPANT_OUT = "participant_out"
NOTE = "note"
NARRATION = "narration"
OVERRIDE = "override"
EFFECT_ADDED = "effect_added"
EFFECT_EXPIRED = "effect_expired"
ZOOM_OPENED = "zoom_opened"
ZOOM_CLOSED = "zoom_closed"
ROLL = "roll"
UNDONE = "undone"
REDONE = "redone"
GM_ACTS = "gm_acts"  # what a player sees in place of an event hidden from them

#: Log markers that the fold reads to decide which records count; they change no state.
META_EVENTS = frozenset({UNDONE, REDONE})


@dataclass(frozen=True, slots=True)
class Event:
    """A fact: ``type`` plus JSON-native ``data``, with who did it and who may see it."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    actor: str | None = None
    visibility: str = Visibility.PUBLIC.value

    def to_data(self) -> dict[str, Any]:
        """The JSON form."""
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.actor is not None:
            out["actor"] = self.actor
        if self.visibility != Visibility.PUBLIC.value:
            out["visibility"] = self.visibility
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Event:
        """Read the JSON form back."""
        return cls(
            type=str(data["type"]),
            data=dict(data.get("data", {})),
            actor=data.get("actor"),
            visibility=str(data.get("visibility", Visibility.PUBLIC.value)),
        )


@dataclass(frozen=True, slots=True)
class Record:
    """One command's entry in the log: its version, text, events and envelope."""

    version: int
    command: str
    events: tuple[Event, ...]
    author: str = "gm"
    time: str = ""
    key: str | None = None

    @property
    def is_meta(self) -> bool:
        """True for undo and redo markers."""
        return bool(self.events) and self.events[0].type in META_EVENTS

    def payload(self) -> dict[str, Any]:
        """The deterministic part: version, command and events (no envelope)."""
        return {
            "version": self.version,
            "command": self.command,
            "events": [e.to_data() for e in self.events],
        }

    def to_data(self) -> dict[str, Any]:
        """The JSON form, envelope included."""
        out = self.payload()
        out.update({"author": self.author, "time": self.time, "key": self.key})
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Record:
        """Read the JSON form back."""
        return cls(
            version=int(data["version"]),
            command=str(data["command"]),
            events=tuple(Event.from_data(e) for e in data["events"]),
            author=str(data.get("author", "gm")),
            time=str(data.get("time", "")),
            key=data.get("key"),
        )
