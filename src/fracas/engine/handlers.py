"""The one decide pattern: handlers registered per verb and per event class.

A ruleset (and the engine, for its own verbs and events) keeps one :class:`Handlers` table::

    HANDLERS = Handlers()

    @HANDLERS.decides("attack")
    def attack(d: Decision, cmd: Command) -> None:
        ...checks on d.state; raise a FracasError to refuse...
        d.fold(Hit(target=..., actor=cmd.actor))   # later steps see its effect in d.state
        d.emit(Narrated(...))                      # recorded, not needed by later steps

    @HANDLERS.evolves(Hit)
    def _hit(state: ConflictState, event: Hit) -> None: ...

    @HANDLERS.describes(Hit)
    def _say_hit(event: Hit, state: ConflictState) -> str: ...

    HANDLERS.says({Missed: "{who.actor} misses {who.target}"}, name_of)  # template sentences

A ruleset follows the engine's own events the same way (``@HANDLERS.evolves(TurnStarted)``);
the engine's evolve and describe handlers, which also need the ruleset, are tables of their
own (a :class:`Table` each: ``generic.EVOLVERS``, ``describe.SENTENCES``).

``decide`` stays pure: :meth:`Decision.fold` applies events to a working copy of the state, never
to the live one, so a command refused half-way changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from fracas.engine.commands import Command
from fracas.engine.context import DecideContext
from fracas.engine.events import Event
from fracas.engine.model import ConflictState, copy_state
from fracas.engine.sentences import NameFn, fill
from fracas.errors import IllegalCommand

if TYPE_CHECKING:
    from fracas.engine.ruleset import Ruleset

E = TypeVar("E", bound=Event)
DecideFn = Callable[["Decision", Command], None]
EvolveFn = Callable[[ConflictState, Any], None]
DescribeFn = Callable[[Any, ConflictState], "str | None"]
_F = TypeVar("_F", bound=Callable[..., Any])
K = TypeVar("K")
F = TypeVar("F", bound=Callable[..., Any])


class Decision:
    """One command being decided: the events so far and the state as they leave it.

    ``state`` is the live state until the first :meth:`fold`, then a private copy that each
    folded event is applied to, exactly as the engine will apply it after the command.
    """

    __slots__ = ("_copied", "ctx", "events", "root", "ruleset", "state")

    def __init__(self, ruleset: Ruleset, state: ConflictState, ctx: DecideContext) -> None:
        self.ruleset = ruleset
        self.state = state
        self.root = state
        self.ctx = ctx
        self.events: list[Event] = []
        self._copied = False

    def emit(self, *events: Event) -> None:
        """Add events to the command's result without applying them to :attr:`state`."""
        self.events.extend(events)

    def fold(self, *events: Event) -> None:
        """Add events and apply them to :attr:`state`, so later steps of the command see them."""
        if not self._copied:
            self.state = copy_state(self.state)
            self._copied = True
        from fracas.engine.conflict import evolve

        for event in events:
            self.events.append(event)
            evolve(self.ruleset, self.state, event)


class _Template:
    """A describe handler that fills one template."""

    __slots__ = ("name", "template")

    def __init__(self, template: str, name: NameFn) -> None:
        self.template = template
        self.name = name

    def __call__(self, event: Event, state: ConflictState) -> str:
        return fill(self.template, event, state, self.name)


_UNSEEN = object()  # a class not asked for yet


class Table(Generic[K, F]):
    """Handlers by key (a verb, an event class), each key registered once."""

    __slots__ = ("_fns", "_found", "what")

    def __init__(self, what: str) -> None:
        self.what = what
        self._fns: dict[K, F] = {}
        self._found: dict[K, F | None] = {}  # by class without one: its nearest base's

    def register(self, *keys: K) -> Callable[[F], F]:
        """Register the decorated function as the handler of ``keys``."""
        def register(fn: F) -> F:
            for key in keys:
                if key in self._fns:
                    name = getattr(key, "__name__", repr(key))
                    raise ValueError(f"{name} has two {self.what} handlers")
                self._fns[key] = fn
            self._found.clear()
            return fn
        return register

    def get(self, key: K) -> F | None:
        """The handler of ``key`` (None: none registered); for an event class without one,
        its nearest base class's (a ruleset's typed keys on an engine event, such as
        Etherscope's ``turn_started``, are a subclass of the engine's event)."""
        fn = self._fns.get(key)
        if fn is not None or not isinstance(key, type):
            return fn
        found = self._found.get(key, _UNSEEN)
        if found is _UNSEEN:
            found = self._found[key] = next(
                (self._fns[b] for b in key.__mro__[1:] if b in self._fns), None)
        return found  # type: ignore[return-value]

    def keys(self) -> frozenset[K]:
        """The keys with a handler."""
        return frozenset(self._fns)


class Handlers:
    """A table of decide handlers by verb and of evolve and describe handlers by event class."""

    def __init__(self) -> None:
        self.deciders: Table[str, DecideFn] = Table("decide")
        self.evolvers: Table[type[Event], EvolveFn] = Table("evolve")
        self.describers: Table[type[Event], DescribeFn] = Table("describe")

    @property
    def verbs(self) -> frozenset[str]:
        """The verbs this table decides."""
        return self.deciders.keys()

    def decides(self, *verbs: str) -> Callable[[_F], _F]:
        """Register the decide handler of ``verbs``."""
        return self.deciders.register(*verbs)  # type: ignore[return-value]

    def evolves(self, *kinds: type[E]) -> Callable[[_F], _F]:
        """Register the evolve handler of the event classes ``kinds``."""
        return self.evolvers.register(*kinds)  # type: ignore[return-value]

    def describes(self, *kinds: type[E]) -> Callable[[_F], _F]:
        """Register the sentence of the event classes ``kinds``."""
        return self.describers.register(*kinds)  # type: ignore[return-value]

    def says(self, templates: dict[type[Event], str], name: NameFn) -> None:
        """Register the sentences that are templates of their event's fields (the forms of
        :func:`fracas.engine.sentences.fill`; ``name`` names a participant)."""
        for kind, template in templates.items():
            self.describes(kind)(_Template(template, name))

    def decide(self, ruleset: Ruleset, state: ConflictState, command: Command,
               ctx: DecideContext) -> list[Event]:
        """The events of ``command``, from its verb's handler."""
        handler = self.deciders.get(command.verb)
        if handler is None:
            raise IllegalCommand(f"{ruleset.title or ruleset.name} has no command "
                                 f"{command.verb!r}", verb=command.verb)
        decision = Decision(ruleset, state, ctx)
        handler(decision, command)
        return decision.events

    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply ``event`` with its class's handler (events without one change nothing)."""
        handler = self.evolvers.get(type(event))
        if handler is not None:
            handler(state, event)

    def describe(self, event: Event, state: ConflictState) -> str | None:
        """The sentence of ``event`` from its class's handler (None: none registered)."""
        handler = self.describers.get(type(event))
        return None if handler is None else handler(event, state)
