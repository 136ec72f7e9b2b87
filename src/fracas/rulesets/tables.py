"""Handler tables a ruleset keeps beside its :class:`~fracas.engine.handlers.Handlers`: its
part of the engine's own events (rounds, turns, joins, zooms), which are generic events and
so are found by tag, not by class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fracas.engine.events import Event
from fracas.engine.model import ConflictState

_F = TypeVar("_F", bound=Callable[..., Any])
EvolveFn = Callable[[ConflictState, Event], None]
DescribeFn = Callable[[Event, ConflictState], "str | None"]


class EngineEvents:
    """A ruleset's evolve and describe handlers of engine events, by tag."""

    def __init__(self) -> None:
        self.evolvers: dict[str, EvolveFn] = {}
        self.describers: dict[str, DescribeFn] = {}

    def evolves(self, *tags: str) -> Callable[[_F], _F]:
        """Register the ruleset's evolve handler of the engine events ``tags``."""
        def register(fn: _F) -> _F:
            for tag in tags:
                if tag in self.evolvers:
                    raise ValueError(f"{tag!r} has two evolve handlers")
                self.evolvers[tag] = fn
            return fn
        return register

    def describes(self, *tags: str) -> Callable[[_F], _F]:
        """Register the ruleset's sentence for the engine events ``tags``."""
        def register(fn: _F) -> _F:
            for tag in tags:
                if tag in self.describers:
                    raise ValueError(f"{tag!r} has two describe handlers")
                self.describers[tag] = fn
            return fn
        return register
