"""Events (facts that change the state) and records (one command's entry in the log).

An :class:`Event` is deterministic: same seed and same commands give the same events. A
:class:`Record` wraps the events of one command with its version and the envelope (author,
time, idempotency key), which is kept apart from the payload (DESIGN.md principle 2).
"""

from __future__ import annotations

import builtins
import json
import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import (
    Any,
    ClassVar,
    TypeVar,
    dataclass_transform,
    get_args,
    get_origin,
    get_type_hints,
    overload,
)

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
        """Read the JSON form back: a typed event when its tag is registered (see
        :func:`event_type`), else a generic one."""
        return make_event(
            str(data["type"]), dict(data.get("data", {})), data.get("actor"),
            str(data.get("visibility", Visibility.PUBLIC.value)),
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
        return make_event(kind, data, actor, visibility)


_E = TypeVar("_E", bound="TypedEvent")

#: Typed event classes by their tag (filled by :func:`event_type`): the first declared.
EVENT_TYPES: dict[str, type[TypedEvent]] = {}
#: Every class declared for a tag, in declaration order: two rulesets may each declare an
#: event of the same tag (``damage``, ``attack``); the data tells which one it is.
_CLASSES_BY_TAG: dict[str, list[type[TypedEvent]]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class TypedEvent(Event):
    """Base of the typed events: each field is one key of the JSON ``data``, in declaration
    order, so the JSON and text forms are those of a generic :class:`Event` with the same data.

    Declare one with :func:`event_type`::

        @event_type("hit")
        class Hit(TypedEvent):
            target: str
            damage: Annotated[int | None, Stat("actor", "weapons")] = None
            why: Annotated[str | None, OMIT_NONE] = None
            from_: Annotated[str | None, Key("from"), OMIT_NONE] = None

    ``Annotated`` metadata says how a field is written (:data:`OMIT_NONE`, :class:`Key`) and
    from which secret it derives (the marks of :mod:`fracas.engine.secrets`), which the one
    generic redaction reads.

    An engine event that rulesets extend with keys of their own (``turn_started`` with
    Etherscope's ``score`` or VERS's ``actions``) declares a field ``extra: dict[str, Any] =
    field(default_factory=dict)``: its items are written after the declared fields, and keys
    the class does not declare are read into it.
    """

    type: str = field(default="", init=False, repr=False)
    data: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    TYPE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", self.TYPE)
        object.__setattr__(self, "data", _payload(self))

    @classmethod
    def from_payload(
        cls: builtins.type[_E], data: dict[str, Any], actor: str | None = None,
        visibility: str = Visibility.PUBLIC.value,
    ) -> _E:
        """Build the event from its JSON ``data`` (keys the class does not declare are an
        error: the data does not belong to this event type)."""
        spec = _spec(cls)
        unknown = {k: v for k, v in data.items() if k not in spec.by_key}
        if unknown and not spec.extra:
            raise ValueError(f"{cls.TYPE} has no field {', '.join(sorted(unknown))}")
        values = {(f := spec.by_key[k]).name: f.load(v) for k, v in data.items()
                  if k in spec.by_key}
        if unknown:
            values["extra"] = unknown
        return cls(actor=actor, visibility=visibility, **values)


@dataclass(frozen=True, slots=True)
class Key:
    """``Annotated`` metadata: the field's JSON key, where it differs from its name (``from``)."""

    name: str


class _Omit:
    """``Annotated`` metadata: leave the key out of the JSON data while the value is None."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OMIT_NONE"


#: Mark a field whose key is left out of the JSON data while it is None (optional keys)::
#:
#:     why: Annotated[str | None, OMIT_NONE] = None
OMIT_NONE = _Omit()


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    key: str
    omit_none: bool
    marks: tuple[Any, ...]  # the field's other Annotated metadata (secret marks)
    load: Callable[[Any], Any]  # JSON value -> field value


@dataclass(frozen=True, slots=True)
class _Spec:
    fields: tuple[_Field, ...]
    by_key: dict[str, _Field]
    extra: bool  # the class keeps undeclared keys in its ``extra`` field


_SPECS: dict[type[TypedEvent], _Spec] = {}
_BASE_FIELDS = frozenset({"type", "data", "actor", "visibility"})


def _spec(cls: type[TypedEvent]) -> _Spec:
    spec = _SPECS.get(cls)
    if spec is None:
        hints = get_type_hints(cls, include_extras=True)
        items = []
        for f in fields(cls):
            if f.name in _BASE_FIELDS or f.name == "extra":
                continue
            meta = getattr(hints[f.name], "__metadata__", ())
            key = next((m.name for m in meta if isinstance(m, Key)), f.name)
            marks = tuple(m for m in meta if not isinstance(m, Key | _Omit))
            if marks and type(None) not in get_args(get_args(hints[f.name])[0]):
                raise TypeError(f"{cls.__name__}.{f.name} carries secret marks, so it must "
                                "accept None (the masked value)")
            items.append(_Field(f.name, key, any(isinstance(m, _Omit) for m in meta), marks,
                                _loader(hints[f.name])))
        extra = any(f.name == "extra" for f in fields(cls))
        spec = _SPECS[cls] = _Spec(tuple(items), {f.key: f for f in items}, extra)
    return spec


def event_fields(cls: type[TypedEvent]) -> tuple[tuple[str, str, tuple[Any, ...]], ...]:
    """(field name, JSON key, marks) of each data field of a typed event class."""
    return tuple((f.name, f.key, f.marks) for f in _spec(cls).fields)


def _payload(event: TypedEvent) -> dict[str, Any]:
    spec = _spec(type(event))
    out: dict[str, Any] = {}
    for f in spec.fields:
        value = getattr(event, f.name)
        if value is None and f.omit_none:
            continue
        out[f.key] = _to_json(value)
    if spec.extra:
        extra: dict[str, Any] = getattr(event, "extra")  # noqa: B009 (declared by subclasses)
        for key, value in extra.items():
            if key in out:
                raise ValueError(f"{event.TYPE}: extra key {key!r} is a declared field")
            out[key] = _to_json(value)
    return out


def _to_json(value: Any) -> Any:
    """A field value in its JSON-native form (tuples as lists, values with ``to_json``)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    raise TypeError(f"{value!r} has no JSON form")


def _loader(hint: Any) -> Callable[[Any], Any]:
    """How a JSON value becomes the value of a field of type ``hint``: a value class with
    ``from_json`` (alone or as the items of a tuple) is read by it; lists become tuples."""
    args = get_args(hint)
    inner = args[0] if getattr(hint, "__metadata__", None) else hint  # strip Annotated
    for option in (inner, *get_args(inner)):
        read = getattr(option, "from_json", None)
        if read is not None:
            return lambda v: None if v is None else read(v)
        if get_origin(option) is tuple:
            item = get_args(option)[0] if get_args(option) else None
            read_item = getattr(item, "from_json", None)
            if read_item is not None:
                return lambda v: None if v is None else tuple(read_item(i) for i in v)
    return _from_json


def _from_json(value: Any) -> Any:
    """JSON data as a frozen field value: lists become tuples (recursively)."""
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def event_type(tag: str) -> Callable[[type[_E]], type[_E]]:
    """Declare and register a typed event class under its ``tag`` (the JSON ``type``)."""

    def register(cls: type[_E]) -> type[_E]:
        same = _CLASSES_BY_TAG.setdefault(tag, [])
        if any(c.__module__.rpartition(".")[0] == cls.__module__.rpartition(".")[0]
               for c in same):
            raise ValueError(f"event type {tag!r} is declared twice")
        cls.TYPE = tag
        made = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        EVENT_TYPES.setdefault(tag, made)
        same.append(made)
        return made

    return register


def make_event(
    kind: str, data: dict[str, Any], actor: str | None = None,
    visibility: str = Visibility.PUBLIC.value,
) -> Event:
    """The event of tag ``kind`` with JSON ``data``: typed when the tag is registered (of the
    first class declared for it whose fields the data fits)."""
    classes = _CLASSES_BY_TAG.get(kind)
    if not classes:
        return Event(kind, data, actor, visibility)
    first: Exception | None = None
    for cls in classes:
        try:
            return cls.from_payload(data, actor, visibility)
        except (TypeError, ValueError) as exc:  # not this class's data
            first = first or exc
    if all(c.__module__.startswith(_RULESETS) for c in classes):
        # a tag another ruleset uses for an event it has not typed (yet): read it generic
        return Event(kind, data, actor, visibility)
    assert first is not None
    raise first


_RULESETS = "fracas.rulesets."


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
