"""Events (facts that change the state) and records (one command's entry in the log).

An :class:`Event` is deterministic: same seed and same commands give the same events. A
:class:`Record` wraps the events of one command with its version and the envelope (author,
time, idempotency key), which is kept apart from the payload (DESIGN.md principle 2).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

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
#: The verbs whose records are log markers (and the only ones that make marker events).
META_VERBS = frozenset({"undo", "redo"})


def _text_value(value: Any) -> str:
    """One value of an event's text form, quoted only as much as needed."""
    from fracas.engine.commands import quote

    if isinstance(value, str) and value:
        try:
            json.loads(value)
        except ValueError:
            return quote(value)  # bare text that cannot be mistaken for JSON
    return quote(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


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

    def to_text(self) -> str:
        """The compact text form: ``[ACTOR:] TYPE [@VISIBILITY] KEY=VALUE …`` where a value is
        bare text when it reads back as itself and JSON otherwise; round-trips through
        :meth:`from_text` (``ada: hit target=gob damage=4``)."""
        parts = [f"{self.actor}:"] if self.actor is not None else []
        parts.append(self.type)
        if self.visibility != Visibility.PUBLIC.value:
            parts.append(f"@{self.visibility}")
        for key, value in self.data.items():
            parts.append(f"{key}={_text_value(value)}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Event:
        """Read :meth:`to_text` back (raises ValueError on text that is not an event)."""
        tokens = shlex.split(text)
        actor = None
        if tokens and tokens[0].endswith(":"):
            actor = tokens.pop(0)[:-1]
        if not tokens:
            raise ValueError(f"no event type in {text!r}")
        kind = tokens.pop(0)
        visibility = Visibility.PUBLIC.value
        if tokens and tokens[0].startswith("@"):
            visibility = tokens.pop(0)[1:]
        data: dict[str, Any] = {}
        for token in tokens:
            key, eq, raw = token.partition("=")
            if not eq:
                raise ValueError(f"{token!r} is not KEY=VALUE in {text!r}")
            try:
                data[key] = json.loads(raw)
            except ValueError:
                data[key] = raw
        return cls(kind, data, actor, visibility)


class LazyEvents(Sequence["Event"]):
    """The events of a stored record, read from the record's JSON only when first used.

    Loading a long conflict from a snapshot then decodes only the records after the snapshot;
    the others are decoded if undo, redo or the log view needs them.
    """

    __slots__ = ("_items", "_raw")

    def __init__(self, raw: str) -> None:
        self._raw = raw
        self._items: tuple[Event, ...] | None = None

    def _load(self) -> tuple[Event, ...]:
        if self._items is None:
            data = json.loads(self._raw)
            self._items = tuple(Event.from_data(e) for e in data["events"])
            self._raw = ""
        return self._items

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        return self._load()[index]

    def __len__(self) -> int:
        return len(self._load())

    def __iter__(self) -> Iterator[Event]:
        return iter(self._load())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyEvents | tuple | list):
            return self._load() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._load())

    def __repr__(self) -> str:
        return repr(self._load()) if self._items is not None else "LazyEvents(…)"


@dataclass(frozen=True, slots=True)
class Record:
    """One command's entry in the log: its version, text, events and envelope."""

    version: int
    command: str
    events: Sequence[Event]  # a tuple, or LazyEvents for records read from a store
    author: str = "gm"
    time: str = ""
    key: str | None = None

    @property
    def is_meta(self) -> bool:
        """True for undo and redo markers (known from the command, without the events)."""
        return self.command.partition(" ")[0] in META_VERBS

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
