"""Log sentences written as templates of an event's fields: one helper for the engine's own
events and every ruleset's (``Handlers.says``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.engine.events import Event
from fracas.engine.model import ConflictState
from fracas.engine.secrets import shown
from fracas.engine.words import possessive

#: How a ruleset names a participant (or an object) in a sentence.
NameFn = Callable[[ConflictState, Any], str]


class _Fields:
    """``{who.target}``: each field of the event, read through ``read``."""

    __slots__ = ("_event", "_read")

    def __init__(self, event: Event, read: Callable[[Any], str]) -> None:
        self._event = event
        self._read = read

    def __getattr__(self, field: str) -> str:
        return self._read(getattr(self._event, field))


def secret_mark(event: Event) -> str:
    """`` [gm]`` or `` [owner]`` after a secret event's kind; nothing for a public one."""
    return "" if event.visibility == "public" else f" [{event.visibility}]"


def fill(template: str, event: Event, state: ConflictState, name: NameFn) -> str:
    """``template`` filled from ``event``: ``{e.FIELD}`` a field as it is, ``{who.FIELD}``
    the name of the participant it names (``{whose.FIELD}``: its possessive, "Ada's"),
    ``{names.FIELD}`` the names of those it lists, ``{shown.FIELD}`` a value the viewer may
    not know (``?``), ``{secret}`` its mark."""
    return template.format(
        e=event, who=_Fields(event, lambda pid: name(state, pid)),
        whose=_Fields(event, lambda pid: possessive(name(state, pid))),
        names=_Fields(event, lambda ids: ", ".join(name(state, p) for p in ids or ())),
        shown=_Fields(event, shown), secret=secret_mark(event))
