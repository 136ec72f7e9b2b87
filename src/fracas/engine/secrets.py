"""Secrets by structure: marks on typed event fields, and the one redaction that reads them.

A field of a :class:`~fracas.engine.events.TypedEvent` says in its ``Annotated`` metadata which
secret it derives from, so that every value computed from a secret is as secret as its
sources (DESIGN.md principle 6), whatever a label or a sentence says::

    @event_type("hit")
    class Hit(TypedEvent):
        target: Annotated[str, Names()]                      # a participant the viewer may not know
        weapon: Annotated[str | None, Stat("actor", "weapons")] = None  # the actor's weapons stat
        ev: Annotated[int | None, Stat("actor", "weapons")] = None
        mods: tuple[Modifier, ...] = ()                      # each modifier carries its own source
        total: Annotated[int | None, Derived("ev", "mods")] = None
        tn: Annotated[int | None, Setting("base_tn")] = None

For a viewer who may not see a source (a GM-only stat or setting, a character hidden from
them, the harm of a character whose side's harm view is not exact: :class:`Harm`),
:func:`redact_marked` puts ``None`` in the field (a masked modifier keeps its label and loses
its value), so every marked field must accept None; a sentence shows such a value as ``?``
(:func:`shown`). A :class:`Names` (or :class:`Harm`) field that names someone the viewer may
not know (or whose harm they may not see) hides the field, or the whole event with
``hide_event=True``. No view code matches label text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fracas.engine.events import Event, TypedEvent, event_fields
from fracas.engine.harm_view import harm_hidden
from fracas.engine.model import ConflictState, Viewer

#: What a sentence shows in place of a value the viewer may not know.
MASK = "?"


@dataclass(frozen=True, slots=True)
class Stat:
    """The value derives from a participant's stat: secret from players while that stat is
    GM-only. ``who`` names the field holding the participant id (``actor``: the event's)."""

    who: str
    stat: str


@dataclass(frozen=True, slots=True)
class Setting:
    """The value derives from a conflict setting: secret while it is a GM-only setting."""

    name: str


@dataclass(frozen=True, slots=True, init=False)
class Derived:
    """The value is computed from other fields of the same event: secret when any is."""

    sources: tuple[str, ...]

    def __init__(self, *sources: str) -> None:
        object.__setattr__(self, "sources", sources)


@dataclass(frozen=True, slots=True)
class Names:
    """The field holds a participant id (or a tuple of them). For a viewer who may not know
    one of them, the field is masked — or, with ``hide_event``, the whole event is hidden."""

    hide_event: bool = False


@dataclass(frozen=True, slots=True)
class Harm:
    """The value tells the harm of the participant(s) in field ``who`` (``actor``: the
    event's): secret from a viewer who may not see their harm exactly — not theirs, of a side
    whose harm view is not ``exact`` (:mod:`fracas.engine.harm_view`). With ``hide_event``
    the whole event is hidden then (it tells harm by happening at all); with ``band``, only
    where the view is ``none`` (the band tells as much). A list of modifiers it masks is
    left empty: a condition penalty carries no source of its own, and its label (the
    condition's name) and the list's length tell the harm as well."""

    who: str
    hide_event: bool = False
    band: bool = False  # the band tells it too (a VERS condition): hidden only under "none"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One labelled modifier of a roll, with the stat it comes from when it has one.

    JSON form: ``[label, value]``, or ``[label, value, participant, stat]`` for a modifier
    taken from a participant's stat (so the redaction knows its source without reading the
    label). A masked modifier is ``[label, null]``, or ``["GM-only", null]`` where the viewer
    may not know of the participant it comes from.
    """

    label: str
    value: int | None
    of: str | None = None
    stat: str | None = None

    def to_json(self) -> list[Any]:
        """The JSON form."""
        if self.of is None:
            return [self.label, self.value]
        return [self.label, self.value, self.of, self.stat]

    @classmethod
    def from_json(cls, data: Any) -> Modifier:
        """Read the JSON form (a list or tuple of 2 or 4 items)."""
        items = list(data)
        if len(items) not in (2, 4):
            raise ValueError(f"a modifier is [label, value] or [label, value, who, stat]: {data!r}")
        label, value = str(items[0]), items[1]
        if len(items) == 2:
            return cls(label, None if value is None else int(value))
        return cls(label, None if value is None else int(value), str(items[2]), str(items[3]))

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON schema of the JSON form."""
        label, value = {"type": "string"}, {"type": ["integer", "null"]}
        return {"type": "array", "minItems": 2, "maxItems": 4,
                "prefixItems": [label, value, {"type": "string"}, {"type": "string"}]}

    def masked(self) -> Modifier:
        """The modifier without its value (for a viewer who may not know it)."""
        return Modifier(self.label, None)

    def unsourced(self) -> Modifier:
        """The modifier without its value or its label (for a viewer who may not know the
        participant it comes from: its label may say what they do, "target engaged")."""
        return Modifier(UNSOURCED, None)


SECRET_MARKS = (Stat, Setting, Derived, Names, Harm)
#: The label of a masked modifier whose source a viewer may not know of.
UNSOURCED = "GM-only"

CanSee = Callable[[str], bool]


def stat_is_secret(state: ConflictState, viewer: Viewer, pid: str | None, stat: str) -> bool:
    """Whether ``viewer`` may not know stat ``stat`` of participant ``pid`` (None: the value
    comes from nobody's stat)."""
    if viewer.is_gm or pid is None:
        return False
    p = state.participants.get(pid or "")
    return p is None or stat in p.gm_only


def setting_is_secret(state: ConflictState, viewer: Viewer, name: str) -> bool:
    """Whether ``viewer`` may not know the conflict setting ``name``."""
    if viewer.is_gm:
        return False
    return name in state.settings.get("gm_only_settings", ())


class _Judge:
    """Decides, field by field, what one viewer may know of one typed event."""

    def __init__(self, event: TypedEvent, state: ConflictState, viewer: Viewer,
                 can_see: CanSee) -> None:
        self.event = event
        self.state = state
        self.viewer = viewer
        self.can_see = can_see
        self.marks = {name: marks for name, _, marks in event_fields(type(event))}
        self._secret: dict[str, bool] = {}

    def value(self, name: str) -> Any:
        return self.event.actor if name == "actor" else getattr(self.event, name)

    def unknown_ids(self, value: Any) -> bool:
        ids = value if isinstance(value, tuple) else (value,)
        return any(isinstance(i, str) and not self.can_see(i) for i in ids)

    def secret(self, name: str) -> bool:
        """Whether field ``name`` (or, for a modifier list, any of its modifiers) is secret."""
        if name not in self._secret:
            self._secret[name] = False  # a cycle of Derived marks counts as not secret
            self._secret[name] = self._judge(name)
        return self._secret[name]

    def _judge(self, name: str) -> bool:
        value = self.value(name)
        if _modifiers(value) and any(self.modifier_secret(m) for m in value):
            return True
        for mark in self.marks.get(name, ()):
            if isinstance(mark, Stat) and stat_is_secret(
                    self.state, self.viewer, self.value(mark.who), mark.stat):
                return True
            if isinstance(mark, Setting) and setting_is_secret(self.state, self.viewer, mark.name):
                return True
            if isinstance(mark, Derived) and any(self.secret(s) for s in mark.sources):
                return True
            if isinstance(mark, Names) and self.unknown_ids(value):
                return True
            if isinstance(mark, Harm) and self.harm_of(mark):
                return True
        return False

    def harm_of(self, mark: Harm) -> bool:
        """Whether the harm ``mark`` names (of the participant(s) in its field) is hidden."""
        value = self.value(mark.who)
        ids = value if isinstance(value, tuple) else (value,)
        return any(harm_hidden(self.state, self.viewer, i, band=mark.band) for i in ids)

    def harm_masks(self, name: str) -> bool:
        """Whether a :class:`Harm` mark of field ``name`` masks it for the viewer."""
        return any(isinstance(m, Harm) and self.harm_of(m) for m in self.marks.get(name, ()))

    def modifier_secret(self, m: Modifier) -> bool:
        if m.of is None or m.stat is None:
            return False
        return not self.can_see(m.of) or stat_is_secret(self.state, self.viewer, m.of, m.stat)

    def hides_event(self) -> bool:
        return any(
            (isinstance(mark, Names) and mark.hide_event and self.unknown_ids(self.value(name)))
            or (isinstance(mark, Harm) and mark.hide_event and self.harm_of(mark))
            for name, marks in self.marks.items() for mark in marks
        )


def _modifiers(value: Any) -> bool:
    return isinstance(value, tuple) and bool(value) and isinstance(value[0], Modifier)


def redact_marked(
    event: Event, state: ConflictState, viewer: Viewer, can_see: CanSee
) -> Event | None:
    """``event`` as ``viewer`` may know it by the marks on its fields: the same typed event
    with ``None`` in each field the viewer may not know (and masked modifiers), the event
    itself when nothing is secret, or None when it names someone the viewer may not know and
    is marked to hide. ``can_see(pid)`` says whether the viewer may know a participant
    exists. Generic events carry no marks and pass unchanged."""
    if viewer.is_gm or not isinstance(event, TypedEvent):
        return event
    judge = _Judge(event, state, viewer, can_see)
    if judge.hides_event():
        return None
    changes: dict[str, Any] = {}
    for name, _, marks in event_fields(type(event)):
        value = judge.value(name)
        if value is None:
            continue
        if _modifiers(value) and judge.harm_masks(name):  # labels and count tell harm too
            changes[name] = ()
        elif _modifiers(value):  # each modifier is masked on its own, never the list
            masked = tuple(m if not judge.modifier_secret(m) else m.masked()
                           if m.of is None or judge.can_see(m.of) else m.unsourced()
                           for m in value)
            if masked != value:
                changes[name] = masked
        elif marks and value != () and judge.secret(name):  # (): an emptied list of them
            changes[name] = None
    return dataclasses.replace(event, **changes) if changes else event


def shown(value: Any) -> str:
    """A value for a sentence: :data:`MASK` for a value the viewer may not know."""
    return MASK if value is None else str(value)


__all__ = [
    "MASK", "SECRET_MARKS", "Derived", "Harm", "Modifier", "Names", "Setting", "Stat",
    "redact_marked", "setting_is_secret", "shown", "stat_is_secret",
]
