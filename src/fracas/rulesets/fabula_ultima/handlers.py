"""The Fabula Ultima handler table: the engine's one decide pattern (decide by verb; evolve
and describe by event class, Fabula Ultima's and the engine's own)."""

from __future__ import annotations

from collections.abc import Callable

from fracas.engine.commands import Command
from fracas.engine.context import DecideContext
from fracas.engine.events import Event
from fracas.engine.handlers import Decision, Handlers
from fracas.engine.model import ConflictState

#: Decide handlers by verb; evolve and describe handlers by event class.
HANDLERS = Handlers()

Decider = Callable[[ConflictState, Command, DecideContext], list[Event]]


def decides(*verbs: str) -> Callable[[Decider], Decider]:
    """Register a function returning a command's events as the decide handler of ``verbs``
    (its events are emitted: a Fabula Ultima command never needs its own events folded)."""
    def register(fn: Decider) -> Decider:
        def handler(d: Decision, cmd: Command) -> None:
            d.emit(*fn(d.state, cmd, d.ctx))
        handler.__doc__ = fn.__doc__
        HANDLERS.decides(*verbs)(handler)
        return fn
    return register
