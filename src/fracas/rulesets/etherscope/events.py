"""The events of the Etherscope ruleset, typed and registered by tag (the engine's boundary
events — rounds, turns, zooms — come from :mod:`fracas.engine.events`).

Each field is one key of the JSON data, in the order the log has always written them. The
marks say which secret a field derives from: the engine's (:class:`Names`, :class:`Setting`,
:class:`Derived`) and Etherscope's own (:mod:`fracas.rulesets.etherscope.marks`): a pool that
shows a rating, a value of the conflict's condenser, the score of a default declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Annotated, Any, TypeVar, dataclass_transform

from fracas.engine.engine_events import RoundStarted, TurnStarted, ZoomOpened
from fracas.engine.events import (
    AS_JSON,
    ENGINE_EVENTS,
    OMIT_NONE,
    EventTypes,
    Key,
    TypedEvent,
    Untold,
)
from fracas.engine.secrets import Derived, Harm, Names, Setting
from fracas.rulesets.etherscope.marks import (
    Bases,
    Condenser,
    DefaultScore,
    DefaultSlots,
    PoolOf,
    RollOf,
    RollsOf,
)

#: The settings a roll's expression and dice give away.
_DIE = Setting("die_size")
_THRESHOLD = Setting("threshold")

Pool = Annotated[int | None, PoolOf("participant", "skill"), _DIE, _THRESHOLD, OMIT_NONE]
Roll = Annotated[dict[str, Any] | None, Derived("pool"), _DIE, _THRESHOLD, OMIT_NONE]
RollText = Annotated[str | None, Derived("pool", "roll"), OMIT_NONE]
Flag = Annotated[bool | None, OMIT_NONE]


#: The Etherscope event classes (over the engine's): a Etherscope conflict's records are read
#: with them (another ruleset may use the same tags for other events).
ES_EVENTS = EventTypes("Etherscope", ENGINE_EVENTS)
_E = TypeVar("_E", bound=TypedEvent)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def es_event(tag: str) -> Callable[[type[_E]], type[_E]]:
    """Declare a Etherscope event class for ``tag`` (a frozen, slotted, keyword-only dataclass)."""
    return ES_EVENTS.event(tag)


@es_event("awareness_rolled")
class AwarenessRolled(TypedEvent):
    """ES-START-1: the awareness roll, kept for the whole conflict."""

    participant: str
    unrated: Annotated[bool | None, PoolOf("participant", "skill"), OMIT_NONE] = None
    pool: Pool = None
    skill: str = ""
    roll: Roll = None
    text: RollText = None
    successes: int = 0
    table: Flag = None


@es_event("ambush_resolved")
class AmbushResolved(TypedEvent):
    """ES-START-2, ES-START-4: an ambush against each target's counter roll."""

    ambusher: str
    roll: Annotated[dict[str, Any] | None, RollOf("ambusher")] = None
    targets: Annotated[tuple[dict[str, Any], ...] | None, RollsOf("target")] = ()


@es_event("counter_rolled")
class CounterRolled(TypedEvent):
    """What a player's characters rolled against an ambush they never saw (ES-START-4)."""

    targets: Annotated[tuple[dict[str, Any], ...] | None, RollsOf("target")] = ()


@es_event("range_set")
class RangeSet(TypedEvent):
    """ES-START-3: the GM sets a range band."""

    a: str
    b: str
    band: int
    was: int | None = None
    by: str = "gm"


@es_event("range_changed")
class RangeChanged(TypedEvent):
    """ES-START-5, ES-RNG-4, ES-ACT-5: a range band moves one or two steps."""

    a: str
    b: str
    band: int
    was: int | None = None
    by: str | None = None
    why: Annotated[str | None, OMIT_NONE] = None


@es_event("group_formed")
class GroupFormed(TypedEvent):
    """ES-START-6: characters who stand together."""

    group: str
    members: tuple[str, ...]


@es_event("group_dissolved")
class GroupDissolved(TypedEvent):
    """ES-START-6: the GM dissolves a group."""

    group: str


@es_event("group_left")
class GroupLeft(TypedEvent):
    """ES-START-6: a member whose range changed alone (its own move or push, a move to it,
    a push toward or away from it) leaves its group."""

    group: str
    participant: str


@es_event("hidden")
class Hidden(TypedEvent):
    """ES-RNG-1, ES-RNG-2: a character is hidden from others."""

    participant: str
    from_: Annotated[tuple[str, ...], Key("from")]
    by: Annotated[str | None, OMIT_NONE] = None


@es_event("revealed")
class Revealed(TypedEvent):
    """ES-RNG-3: a hidden character is revealed (optionally into a band)."""

    participant: str
    from_: Annotated[tuple[str, ...], Key("from")]
    by: Annotated[str | None, OMIT_NONE] = None
    band: int | None = None


@es_event("awareness_order")
class AwarenessOrder(TypedEvent):
    """ES-START-5: the order of the awareness moves, best first."""

    order: tuple[str, ...]


@es_event("mover_started")
class MoverStarted(TypedEvent):
    """ES-START-5: a character's awareness move begins."""

    participant: str
    against: tuple[str, ...] = ()
    index: Annotated[int | None, OMIT_NONE] = None  # logs of early versions only


@es_event("mover_done")
class MoverDone(TypedEvent):
    """ES-START-5: an awareness move is over."""

    participant: str


@es_event("awareness_moves_done")
class MovesDone(TypedEvent):
    """ES-START-5: every awareness move is over."""


@es_event("initiative_declared")
class InitiativeDeclared(TypedEvent):
    """ES-ROUND-2: acting initiatives; a default one is the base, so as secret as it is."""

    participant: str
    scores: Annotated[tuple[int, ...] | None, Derived("default")] = ()
    base: Annotated[int | None, Condenser("participant"), OMIT_NONE] = None
    default: Annotated[bool | None, Condenser("participant"), OMIT_NONE] = None


@es_event("tie_rolloff")
class TieRolloff(TypedEvent):
    """ES-ROUND-5: a roll-off of tied characters (awareness pools)."""

    score: int | None = None
    awareness: int = 0
    participants: tuple[str, ...] = ()
    rolls: Annotated[dict[str, Any] | None, RollsOf()] = None
    successes: dict[str, int] | None = None


@es_event("countdown_started")
class CountdownStarted(TypedEvent):
    """ES-ROUND-4: the countdown's order; a default declaration's score is secret with the
    condenser it equals."""

    order: Annotated[tuple[tuple[str, int | None], ...] | None, DefaultSlots()] = ()


@es_event("action_resolved")
class ActionResolved(TypedEvent):
    """ES-ACT-3..6: an action's roll against its difficulty, the extras and their use."""

    action: str
    doer: Annotated[str, Key("actor")]
    targets: tuple[str, ...] = ()
    difficulty: Annotated[int | None, Setting("default_difficulty"), Setting("actions")] = None
    # whether it has a rating for the skill: told by its skills (GM-only: not to its player)
    unrated: Annotated[bool | None, PoolOf("actor", "skill"), OMIT_NONE] = None
    pool: Annotated[int | None, PoolOf("actor", "skill"), _DIE, _THRESHOLD, OMIT_NONE] = None
    skill: str = ""
    roll: Roll = None
    text: RollText = None
    successes: int = 0
    table: Flag = None
    success: bool = False
    surplus: Annotated[int | None, Key("extra"), Derived("difficulty")] = 0  # extra successes
    nature: str = ""
    toward: Annotated[tuple[str, ...] | None, OMIT_NONE] = None
    away: Annotated[tuple[str, ...] | None, OMIT_NONE] = None
    name: Annotated[str | None, OMIT_NONE] = None
    extras_text: Annotated[str | None, OMIT_NONE] = None
    say: Annotated[str | None, OMIT_NONE] = None
    effect: Annotated[str | None, OMIT_NONE] = None
    spent: dict[str, int] | None = None
    unspent: Annotated[int | None, Derived("difficulty")] = 0
    not_bought: Annotated[tuple[str, ...] | None, OMIT_NONE] = None
    unmoved: Annotated[tuple[str, ...] | None, OMIT_NONE] = None  # ES-ACT-5: at the edge


@es_event("damage")
class Damage(TypedEvent):
    """ES-DMG-1: damage to the conflict's condenser."""

    participant: str
    amount: Annotated[int | None, Harm("participant")]
    condenser: str
    left: Annotated[int | None, Condenser("participant"), Harm("participant"), OMIT_NONE] = None
    reason: Annotated[str, Untold("GM")] = ""  # "GM": the damage command's, given none
    source: Annotated[str | None, Names()] = None


@es_event("recovered")
class Recovered(TypedEvent):
    """ES-DMG-1: condenser points recovered (capped by the secret maximum, so as secret)."""

    participant: str
    amount: Annotated[int | None, Condenser("participant"), Harm("participant")] = None
    condenser: str = ""
    # what the roll bought (1 + 1 per extra), of which the condenser's room took ``amount``
    bought: Annotated[int | None, Setting("recover_amount"), Setting("extra_cost"),
                      Setting("default_difficulty"), Setting("actions"), OMIT_NONE] = None


# --- Etherscope's keys on the engine's events ---------------------------------------------

@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def es_extends(base: type[TypedEvent]) -> Callable[[type[_E]], type[_E]]:
    """Declare Etherscope's typed keys on one of the engine's events (a subclass of it)."""
    return ES_EVENTS.extends(base)


@es_extends(RoundStarted)
class EsRoundStarted(RoundStarted):
    """ES-ROUND-1: a round begins; each character's base initiative is its condenser now."""

    base: Annotated[dict[str, int] | None, Bases(), AS_JSON, OMIT_NONE] = None
    condenser: Annotated[str | None, OMIT_NONE] = None


@es_extends(TurnStarted)
class EsTurnStarted(TurnStarted):
    """ES-ROUND-4: a countdown slot begins, at its score (a default declaration's: the base)."""

    score: Annotated[int | None, DefaultScore("participant")] = None
    slot: Annotated[int | None, OMIT_NONE] = None  # logs of early versions only


_Json = Annotated[Any, AS_JSON, OMIT_NONE]


@es_extends(ZoomOpened)
class EsZoomOpened(ZoomOpened):
    """ES-ACT-1/2: a zoomed-in conflict of some characters, one time scale faster."""

    opened_by: Annotated[str | None, Names(), OMIT_NONE] = None  # (to one who may not know
    # it: the zoom they see, opened by no one they know, redaction.redact)
    participants: _Json = None
    # one faster than the conflict's, and its round limit: as secret as those settings
    time_scale: Annotated[str | None, Setting("time_scale"), OMIT_NONE] = None
    round_limit: Annotated[int | None, Setting("zoom_rounds"), OMIT_NONE] = None
    depth: Annotated[int | None, OMIT_NONE] = None
    settings: _Json = None  # its settings: the GM's (a player's view has none)
    awareness: _Json = None
    bands: _Json = None
    hidden: _Json = None
    start: Annotated[bool | None, OMIT_NONE] = None
    range_scaling: Annotated[str | None, Setting("range_scaling"), OMIT_NONE] = None


#: Every Etherscope event class.
CLASSES: tuple[type[TypedEvent], ...] = (
    AwarenessRolled, AmbushResolved, RangeSet, RangeChanged, GroupFormed, GroupDissolved,
    GroupLeft, Hidden, Revealed, AwarenessOrder, MoverStarted, MoverDone, MovesDone,
    InitiativeDeclared, TieRolloff, CountdownStarted, ActionResolved, Damage, Recovered,
)
#: Their tags (``counter_rolled`` is a player's view of an ambush, never in the log).
ALL = tuple(c.TYPE for c in CLASSES)
