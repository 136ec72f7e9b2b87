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
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import (
    TYPE_CHECKING,
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

_PUBLIC = Visibility.PUBLIC.value  # read once: an enum member's value is slow to look up

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
    visibility: str = _PUBLIC

    def to_data(self) -> dict[str, Any]:
        """The JSON form."""
        out: dict[str, Any] = {"type": self.type, "data": self.data}
        if self.actor is not None:
            out["actor"] = self.actor
        if self.visibility != _PUBLIC:
            out["visibility"] = self.visibility
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any], types: EventTypes | None = None) -> Event:
        """Read the JSON form back: a typed event when ``types`` (a ruleset's, default the
        engine's) declares its tag, else a generic one."""
        return (types or ENGINE_EVENTS).make(
            str(data["type"]), dict(data.get("data", {})), data.get("actor"),
            str(data.get("visibility", _PUBLIC)),
        )

    def to_text(self) -> str:
        """The compact text form: ``[ACTOR:] TYPE [@VISIBILITY] KEY=VALUE …`` where a value is
        bare text when it reads back as itself and JSON otherwise; round-trips through
        :meth:`from_text` (``ada: hit target=gob damage=4``)."""
        parts = [f"{self.actor}:"] if self.actor is not None else []
        parts.append(self.type)
        if self.visibility != _PUBLIC:
            parts.append(f"@{self.visibility}")
        for key, value in self.data.items():
            parts.append(f"{key}={_text_value(value)}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str, types: EventTypes | None = None) -> Event:
        """Read :meth:`to_text` back (raises ValueError on text that is not an event); typed
        by ``types`` as in :meth:`from_data`."""
        tokens = shlex.split(text)
        actor = None
        if tokens and tokens[0].endswith(":"):
            actor = tokens.pop(0)[:-1]
        if not tokens:
            raise ValueError(f"no event type in {text!r}")
        kind = tokens.pop(0)
        visibility = _PUBLIC
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
        return (types or ENGINE_EVENTS).make(kind, data, actor, visibility)


_E = TypeVar("_E", bound="TypedEvent")



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
    field(default_factory=dict)`` for keys no class read declares (its items are written after
    the declared fields); each ruleset declares its keys as typed, marked fields of a subclass
    (:meth:`EventTypes.extends`), read under the same tag with that ruleset's types.

    ``data`` (the JSON data) is built from the fields when first read and then kept: most
    events are folded and never written out again.
    """

    type: str = field(default="", init=False, repr=False)
    # the JSON data, built from the fields on first use (most events are never written out)
    data: dict[str, Any] = field(init=False, repr=False, compare=False)
    TYPE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", self.TYPE)
        if type(self) not in _SPECS:  # the class's declaration is checked on first use
            _spec(type(self))

    if not TYPE_CHECKING:  # (hidden from mypy: it would make every attribute name valid)
        def __getattr__(self, name: str) -> Any:
            """``data`` on first use: built from the fields and kept (an unset slot)."""
            if name != "data":
                raise AttributeError(name)
            data = _payload(self)
            object.__setattr__(self, "data", data)
            return data

    @classmethod
    def from_payload(
        cls: builtins.type[_E], data: dict[str, Any], actor: str | None = None,
        visibility: str = _PUBLIC,
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


@dataclass(frozen=True, slots=True)
class Untold:
    """``Annotated`` metadata of a GM's text (a reason): a player from whom it names someone
    hidden reads ``said`` in its place — the words the command gives where the GM gives none,
    so that nothing tells it was replaced — rather than lose the event it explains."""

    said: str


class _Omit:
    """``Annotated`` metadata: leave the key out of the JSON data while the value is None."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OMIT_NONE"


#: Mark a field whose key is left out of the JSON data while it is None (optional keys)::
#:
#:     why: Annotated[str | None, OMIT_NONE] = None
OMIT_NONE = _Omit()


class _AsJson:
    """``Annotated`` metadata: the field holds its JSON value as it is (lists stay lists)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "AS_JSON"


#: Mark a field that keeps its JSON value unchanged when read (a set-up's participants, an
#: override's value): the state built from it is then the same live and after a reload::
#:
#:     value: Annotated[Any, AS_JSON] = None
AS_JSON = _AsJson()


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    key: str
    omit_none: bool
    marks: tuple[Any, ...]  # the field's other Annotated metadata (secret marks)
    load: Callable[[Any], Any]  # JSON value -> field value
    nullable: bool  # None is one of its values
    untold: str | None  # what a player reads in place of a text naming one hidden (Untold)


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
            marks = tuple(m for m in meta if not isinstance(m, Key | _Omit | _AsJson | Untold))
            untold = next((m.said for m in meta if isinstance(m, Untold)), None)
            # a mark that hides the whole event, or masks a list item by item, puts no None
            masks = [m for m in marks if not getattr(m, "hide_event", False)]
            if masks and not _masked_by_item(hints[f.name]) \
                    and type(None) not in get_args(get_args(hints[f.name])[0]):
                raise TypeError(f"{cls.__name__}.{f.name} carries secret marks, so it must "
                                "accept None (the masked value)")
            raw = any(isinstance(m, _AsJson) for m in meta)
            inner = get_args(hints[f.name])[0] if meta else hints[f.name]
            items.append(_Field(f.name, key, any(isinstance(m, _Omit) for m in meta), marks,
                                _as_is if raw else _loader(hints[f.name]),
                                inner is Any or type(None) in get_args(inner), untold))
        extra = any(f.name == "extra" for f in fields(cls))
        spec = _SPECS[cls] = _Spec(tuple(items), {f.key: f for f in items}, extra)
    return spec


def nullable_keys(cls: type[TypedEvent]) -> frozenset[str]:
    """The JSON keys of a typed event's data whose field may hold None."""
    return frozenset(f.key for f in _spec(cls).fields if f.nullable)


def untold_keys(cls: type[TypedEvent]) -> dict[str, str]:
    """The JSON keys of a typed event's data marked :class:`Untold`, each with what a player
    reads in its place."""
    return {f.key: f.untold for f in _spec(cls).fields if f.untold is not None}


def _masked_by_item(hint: Any) -> bool:
    """Whether a field of type ``hint`` is a tuple of values that mask themselves (roll
    modifiers: each is masked on its own, never the tuple)."""
    inner = get_args(hint)[0] if getattr(hint, "__metadata__", None) else hint
    items = get_args(inner) if get_origin(inner) is tuple else ()
    return bool(items) and hasattr(items[0], "masked")


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


def _as_is(value: Any) -> Any:
    return value


def _from_json(value: Any) -> Any:
    """JSON data as a frozen field value: lists become tuples (recursively)."""
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def _lean_init(cls: type[_E]) -> type[_E]:
    """``cls`` (a typed event dataclass) with an ``__init__`` that does what the dataclass's
    does, about twice as fast: each field is set through its slot's descriptor (not
    ``object.__setattr__``, which looks the name up first), ``type`` once, and the class's
    declaration checked on first use without a ``__post_init__`` call. An event is made for
    every change a command decides. A class with a ``__post_init__`` of its own, or a field
    left out of ``__init__`` with a default (other than ``type``), keeps the dataclass's."""
    own = [f for f in fields(cls) if f.name != "type"]
    if cls.__post_init__ is not TypedEvent.__post_init__ or any(
            not f.init and (f.default is not MISSING or f.default_factory is not MISSING)
            for f in own):
        return cls

    def setter(name: str) -> Any:
        return next(k.__dict__[name].__set__ for k in cls.__mro__ if name in k.__dict__)

    glb: dict[str, Any] = {"_MISSING": MISSING, "_check": _spec, "_SPECS": _SPECS,
                           "_cls": cls, "_TYPE": cls.TYPE, "_s_type": setter("type")}
    positional: list[str] = []
    keyword: list[str] = []
    body = ["if _cls not in _SPECS:", "    _check(_cls)"]
    for f in own:
        if not f.init:  # ``data``: made from the fields when first read
            continue
        glb[f"_s_{f.name}"] = setter(f.name)
        value = f.name
        if f.default is not MISSING:
            glb[f"_d_{f.name}"] = f.default
            param = f"{f.name}=_d_{f.name}"
        elif f.default_factory is not MISSING:
            glb[f"_f_{f.name}"] = f.default_factory
            param = f"{f.name}=_MISSING"
            value = f"_f_{f.name}() if {f.name} is _MISSING else {f.name}"
        else:
            param = f.name
        (keyword if f.kw_only else positional).append(param)
        body.append(f"_s_{f.name}(self, {value})")
    body.append("_s_type(self, _TYPE)")
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    made: dict[str, Any] = {}
    exec(f"def __init__({params}) -> None:\n    " + "\n    ".join(body), glb, made)
    init = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    type.__setattr__(cls, "__init__", init)
    return cls


class EventTypes:
    """The typed event classes one ruleset reads, by tag: its own, then the engine's.

    Two rulesets may each declare an event of the same tag (Fabula Ultima's and VERS's
    ``attack``): a record is always read with the types of its conflict's ruleset
    (:attr:`fracas.engine.ruleset.Ruleset.events`), never guessed from the data.
    """

    def __init__(self, name: str, parent: EventTypes | None = None) -> None:
        self.name = name
        self.parent = parent
        self.own: dict[str, type[TypedEvent]] = {}
        self._final: frozenset[type[Event]] | None = None  # (made when first asked for)

    def final(self) -> frozenset[type[Event]]:
        """The classes these types read their tags as: an event of one of them is typed
        already (:meth:`typed` returns it as it is)."""
        if self._final is None:
            self._final = frozenset(self.classes().values())
        return self._final

    def get(self, tag: str) -> type[TypedEvent] | None:
        """The class declared for ``tag`` here or by the engine (None: none)."""
        cls = self.own.get(tag)
        if cls is None and self.parent is not None:
            return self.parent.get(tag)
        return cls

    def classes(self) -> dict[str, type[TypedEvent]]:
        """Every class these types read, by tag (the ruleset's over the engine's)."""
        base = self.parent.classes() if self.parent is not None else {}
        return {**base, **self.own}

    @dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
    def event(self, tag: str) -> Callable[[type[_E]], type[_E]]:
        """Declare a typed event class under its ``tag`` (the JSON ``type``)."""

        def register(cls: type[_E]) -> type[_E]:
            if tag in self.own or (self.parent is not None and self.parent.get(tag)):
                raise ValueError(f"event type {tag!r} is declared twice in {self.name}")
            cls.TYPE = tag
            made = _lean_init(dataclass(frozen=True, slots=True, kw_only=True)(cls))
            self.own[tag] = made
            self._final = None
            return made

        return register

    @dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
    def extends(self, base: type[TypedEvent]) -> Callable[[type[_E]], type[_E]]:
        """Declare the keys this ruleset writes on one of the ENGINE's events as typed (and
        marked) fields: a subclass of ``base`` read here under its tag, its fields written
        after the engine's; the engine's and the ruleset's handlers of ``base`` apply to it."""

        def register(cls: type[_E]) -> type[_E]:
            if not issubclass(cls, base) or base.TYPE not in (self.parent.classes()
                                                                if self.parent else {}):
                raise ValueError(f"{cls.__name__} does not extend an engine event")
            if base.TYPE in self.own:
                raise ValueError(f"event type {base.TYPE!r} is extended twice in {self.name}")
            made = _lean_init(dataclass(frozen=True, slots=True, kw_only=True)(cls))
            self.own[base.TYPE] = made
            self._final = None
            return made

        return register

    def make(self, kind: str, data: dict[str, Any], actor: str | None = None,
             visibility: str = _PUBLIC) -> Event:
        """The event of tag ``kind`` with JSON ``data``: typed when declared here."""
        cls = self.get(kind)
        if cls is None:
            return Event(kind, data, actor, visibility)
        return cls.from_payload(data, actor, visibility)

    def typed(self, event: Event) -> Event:
        """``event`` as its typed class here (a generic event of a declared tag is read
        again, and so is one typed by the engine's class of a tag this ruleset extends; one
        of the class declared here is returned as it is)."""
        cls = self.get(event.type)
        if cls is None or type(event) is cls:
            return event
        return self.make(event.type, event.data, event.actor, event.visibility)


#: The engine's own event types (every ruleset's types fall back on them).
ENGINE_EVENTS = EventTypes("the engine")


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def event_type(tag: str) -> Callable[[type[_E]], type[_E]]:
    """Declare one of the ENGINE's typed event classes (a ruleset declares its own with its
    :class:`EventTypes`: ``@VERS_EVENTS.event("attack")``)."""
    return ENGINE_EVENTS.event(tag)


class LazyEvents(Sequence["Event"]):
    """The events of a stored record, read from the record's JSON only when first used.

    Loading a long conflict from a snapshot then decodes only the records after the snapshot;
    the others are decoded if undo, redo or the log view needs them.
    """

    __slots__ = ("_items", "_raw", "types")

    def __init__(self, raw: str | Callable[[], str], types: EventTypes | None = None) -> None:
        """``raw``: the record's JSON, or a function that fetches it when first needed (a
        store then reads the rows before a snapshot without their data); ``types``: the
        ruleset's event types (a conflict sets them when the record joins its log)."""
        self._raw = raw
        self._items: tuple[Event, ...] | None = None
        self.types = types

    @property
    def decoded(self) -> bool:
        """Whether the events have been read."""
        return self._items is not None

    def _load(self) -> tuple[Event, ...]:
        if self._items is None:
            raw = self._raw if isinstance(self._raw, str) else self._raw()
            data = json.loads(raw)
            self._items = tuple(Event.from_data(e, self.types) for e in data["events"])
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

    def typed(self, types: EventTypes) -> Record:
        """This record with its events read by ``types`` (a ruleset's): stored events not yet
        decoded will be, generic ones of a declared tag become typed."""
        if isinstance(self.events, LazyEvents):
            if not self.events.decoded:
                self.events.types = types
                return self
            events = tuple(self.events)
        else:
            events = tuple(self.events)
            if all(type(e) is types.get(e.type) for e in events):  # a decided one: as it is
                return self
        again = tuple(types.typed(e) for e in events)
        if all(a is b for a, b in zip(again, events, strict=True)):
            return self
        return replace(self, events=again)

    @classmethod
    def from_data(cls, data: dict[str, Any], types: EventTypes | None = None) -> Record:
        """Read the JSON form back (events typed by ``types``, default the engine's)."""
        return cls(
            version=int(data["version"]),
            command=str(data["command"]),
            events=tuple(Event.from_data(e, types) for e in data["events"]),
            author=str(data.get("author", "gm")),
            time=str(data.get("time", "")),
            key=data.get("key"),
        )


# the engine's typed events (declared in their own module, registered in ENGINE_EVENTS)
from fracas.engine import engine_events as _engine_events  # noqa: E402,F401
