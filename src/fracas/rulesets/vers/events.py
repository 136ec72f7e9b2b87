"""Every VERS event, typed: one frozen class per tag, its fields the keys of the JSON data in
the order they are written, marked with the secrets they derive from.

A value computed from a GM-only stat or setting carries a mark (:mod:`fracas.engine.secrets`)
so that the one generic redaction hides it from players: a weapon's EV and name
(``Stat(…, "weapons")``), armour (``rv``), a TN (:data:`~fracas.rulesets.vers.checks.TN`),
and every total, net EV and margin computed from them (``Derived``). Where the EV of harm
comes from an attacker's GM-only weapon, the event names the attacker in ``by`` (written
only then, so that logs without GM-only weapons read exactly as before).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, TypeVar, dataclass_transform

from fracas.engine.engine_events import TurnEnded, TurnStarted
from fracas.engine.events import (
    ENGINE_EVENTS,
    OMIT_NONE,
    Event,
    EventTypes,
    Key,
    TypedEvent,
    Untold,
)
from fracas.engine.secrets import Derived, Harm, Stat
from fracas.rulesets.vers.checks import Check, CheckFields

#: The VERS event classes (over the engine's): a VERS conflict's records are read with them.
VERS_EVENTS = EventTypes("VERS", ENGINE_EVENTS)
_E = TypeVar("_E", bound=TypedEvent)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def vers_event(tag: str) -> Callable[[type[_E]], type[_E]]:
    """Declare a VERS event class for ``tag`` (a frozen, slotted, keyword-only dataclass)."""
    return VERS_EVENTS.event(tag)


def typed(event: Event) -> Event:
    """``event`` as its VERS class (records of a VERS conflict are read so; this reads again
    an event built elsewhere as a generic one)."""
    return VERS_EVENTS.typed(event)


#: Armour of the event's ``target`` against any track (VR-ROLL-2, VR-INJ-5).
TargetRV = Annotated[int | None, Stat("target", "rv"), Stat("target", "focus_rv"),
                     Stat("target", "morale_rv")]
#: An EV dealt by the GM-only weapon of the participant in ``by`` (None: no such weapon).
ByWeapon = Annotated[int | None, Stat("by", "weapons")]
#: The value tells the conditions of ``who`` (hidden by its side's harm view).
HARM = Harm("who")
#: A condition's name, or taken out: the band tells as much (hidden only under "none").
NAMED = Harm("who", band=True)
#: The value tells an object's conditions: objects are on no side, so their harm view is
#: always exact (the mark says the field is harm, for the day one is carried by a side).
OBJECT_HARM = Harm("object")


# --- attacks and harm ----------------------------------------------------------------------

@vers_event("attack")
class Attack(CheckFields, TypedEvent):
    """An attack roll and what it hit (VR-ROLL-2, VR-ATK-*); the check's fields come first."""

    target: str
    weapon: Annotated[str | None, Stat("actor", "weapons")] = None
    kind: str = "close"
    ev: Annotated[int | None, Stat("actor", "weapons")] = None
    distance: int | None = None
    min_dos: int = 0
    hit: bool = False
    cover_hit: bool = False
    free: bool = False
    spend: int = 0
    track: Annotated[str | None, OMIT_NONE] = None
    rv: Annotated[TargetRV, OMIT_NONE] = None
    net: Annotated[int | None, OMIT_NONE, Derived("ev", "rv"), Harm("target")] = None


@vers_event("condition")
class Condition(TypedEvent):
    """A condition marked on a harm track for a net EV (VR-INJ-1/2/5)."""

    who: str
    track: str
    ev: Annotated[int | None, Stat("by", "weapons"), Stat("who", "rv"), Stat("who", "focus_rv"),
                  Stat("who", "morale_rv"), HARM] = None
    why: Annotated[str | None, Stat("by", "weapons")] = None
    landed: Annotated[str | None, HARM] = None
    level: Annotated[str | None, NAMED] = None
    index: Annotated[int | None, HARM] = None
    upgraded: Annotated[bool | None, HARM] = False
    taken_out: Annotated[bool | None, NAMED] = False
    by: Annotated[str | None, OMIT_NONE] = None


@vers_event("object_damaged")
class ObjectDamaged(TypedEvent):
    """An object takes EV against its hardness (VR-OBJ-2/3)."""

    object: str
    ev: ByWeapon = None
    hardness: int = 0
    net: Annotated[int | None, Derived("ev"), OBJECT_HARM] = None
    why: Annotated[str | None, Stat("by", "weapons")] = None
    level: Annotated[str | None, OBJECT_HARM] = None
    upgraded: Annotated[bool | None, OBJECT_HARM] = False
    broken: Annotated[bool | None, OBJECT_HARM] = False
    uncovered: Annotated[tuple[str, ...] | None, OMIT_NONE] = None
    by: Annotated[str | None, OMIT_NONE] = None


@dataclass(frozen=True, kw_only=True)
class _Disabled:
    who: Annotated[str, Harm("who", hide_event=True, band=True)]  # rolled only while disabled


@vers_event("endured")
class Endured(CheckFields, _Disabled, TypedEvent):
    """A disabled character's Discipline roll to stay conscious (VR-INJ-3); ``who`` first.
    Hidden whole from a viewer who sees nothing of ``who``'s harm (a harm view "none": it is
    only rolled while ``who`` is disabled, a condition the band already tells)."""


# --- movement ------------------------------------------------------------------------------

@vers_event("moved")
class Moved(TypedEvent):
    """A move of one zone, or two with an Athletics roll (VR-MOVE-1/2)."""

    who: str
    from_: Annotated[str, Key("from")]
    to: str
    goal: Annotated[str | None, OMIT_NONE] = None
    path: tuple[str, ...] = ()
    check: Annotated[Check | None, OMIT_NONE] = None
    result: Annotated[str | None, OMIT_NONE] = None
    spend: int = 0


@vers_event("slipped")
class Slipped(TypedEvent):
    """An Athletics roll to get past the guards of a way (VR-MOVE-5)."""

    who: str
    from_: Annotated[str, Key("from")]
    to: str
    guards: tuple[str, ...] = ()
    check: Check | None = None
    spend: int = 0


@vers_event("disengaged")
class Disengaged(TypedEvent):
    """An Athletics roll to break away from close combat (VR-MOVE-4)."""

    who: str
    from_: Annotated[tuple[str, ...], Key("from")] = ()
    check: Check | None = None
    spend: int = 0


# --- recovery and repair -------------------------------------------------------------------

@vers_event("recovered")
class Recovered(TypedEvent):
    """A recovery action on a harm track (VR-INJ-4)."""

    who: str
    by: str
    track: str
    level: Annotated[str | None, NAMED] = None
    check: Check | None = None
    spend: int = 0


@vers_event("repaired")
class Repaired(TypedEvent):
    """A repair action on an object (VR-OBJ-5)."""

    object: str
    by: str
    check: Check | None = None
    spend: int = 0
    level: Annotated[str | None, OBJECT_HARM] = None


# --- the GM's battlefield ------------------------------------------------------------------

@vers_event("zone_added")
class ZoneAdded(TypedEvent):
    """A zone drawn (VR-MOVE-1)."""

    zone: str
    name: str = ""


@vers_event("zones_linked")
class ZonesLinked(TypedEvent):
    """Two zones joined (VR-MOVE-1)."""

    a: str
    b: str


@vers_event("placed")
class Placed(TypedEvent):
    """A character put in a zone by the GM (VR-MOVE-1)."""

    who: str
    zone: str


@vers_event("guard_posted")
class GuardPosted(TypedEvent):
    """A character guards a way between two zones (VR-MOVE-5)."""

    who: str
    link: str


@vers_event("guard_left")
class GuardLeft(TypedEvent):
    """A character stops guarding (VR-MOVE-5)."""

    who: str


@vers_event("cover_set")
class CoverSet(TypedEvent):
    """A character's cover, maybe behind an object (VR-ATK-5)."""

    who: str
    value: int
    object: str | None = None


@vers_event("object_added")
class ObjectAdded(TypedEvent):
    """An object that can be damaged (VR-OBJ-1/2)."""

    object: str
    name: str
    material: str = ""
    hardness: int = 0
    slots: int = 1
    penalty: int = 0
    zone: Annotated[str | None, OMIT_NONE] = None


@vers_event("object_restored")
class ObjectRestored(TypedEvent):
    """The GM makes an object whole again (VR-OBJ-5)."""

    object: str


# --- chases --------------------------------------------------------------------------------

@vers_event("chase_started")
class ChaseStarted(TypedEvent):
    """A chase on a scale, or a race for a prize (VR-CHASE-1/2/8)."""

    id: str
    hunter: str
    quarry: str
    roller: str
    stage: str
    length: int
    positions: int
    position: int
    prize: str = ""


@vers_event("chase_stage")
class ChaseStage(TypedEvent):
    """Escaped → tracking, or contact → pursuit, on a new scale (VR-CHASE-4/7). ``lapsed``:
    the GM's tactics pending for the next roll, which lapse with the old stage (VR-CHASE-5;
    a record written before has none, and folds as played: its tactics stay pending)."""

    id: str
    stage: str
    length: int
    positions: int
    position: int
    lapsed: Annotated[int | None, OMIT_NONE] = None


@vers_event("chase_abandoned")
class ChaseAbandoned(TypedEvent):
    """The GM ends a chase as events end it: no more rolls on its scale (VR-CHASE-1), and
    the tactics pending for its next roll lapse (``lapsed``, as for :class:`ChaseStage`)."""

    id: str
    why: Annotated[str | None, OMIT_NONE] = None
    lapsed: Annotated[int | None, OMIT_NONE] = None


@vers_event("chase_tactics")
class ChaseTactics(TypedEvent):
    """The GM's bonus or penalty for tactics, taken by the chase's next roll (VR-CHASE-5);
    ``mod`` 0 lifts one set before."""

    id: str
    mod: int
    why: Annotated[str | None, OMIT_NONE] = None


@vers_event("chase_roll")
class ChaseRoll(TypedEvent):
    """A pursuit roll or an hour of tracking (VR-CHASE-3/5/7)."""

    id: str
    stage: str
    check: Check | None = None
    from_: Annotated[int, Key("from")] = 0
    to: int = 0
    new_stage: str = ""
    why: Annotated[str, Untold("")] = ""
    spend: int = 0
    hours: int = 0


@vers_event("chase_interpose")
class ChaseInterpose(TypedEvent):
    """Capture, evasion or the seizing of a prize at position 1 (VR-CHASE-6)."""

    id: str
    check: Check | None = None
    from_: Annotated[int, Key("from")] = 0
    to: int = 0
    new_stage: str = ""
    why: Annotated[str, Untold("")] = ""
    spend: int = 0


# --- VERS's keys on the engine's events -----------------------------------------------------

@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def vers_extends(base: type[TypedEvent]) -> Callable[[type[_E]], type[_E]]:
    """Declare VERS's typed keys on one of the engine's events (a subclass of it)."""
    return VERS_EVENTS.extends(base)


@vers_extends(TurnStarted)
class VersTurnStarted(TurnStarted):
    """A go begins (VR-TURN-1/2): opening the turn, a hand-off (from whom, or the GM's), or
    a go resumed, with the actions it has and what its character says."""

    from_: Annotated[str | None, Key("from"), OMIT_NONE] = None
    by_gm: Annotated[bool | None, OMIT_NONE] = None
    #: one for a disabled character (VR-TURN-4): as secret as its conditions
    actions: Annotated[int | None, Harm("participant", band=True), OMIT_NONE] = None
    say: Annotated[str | None, OMIT_NONE] = None
    opens: Annotated[bool | None, OMIT_NONE] = None
    resumed: Annotated[bool | None, OMIT_NONE] = None


@vers_extends(TurnEnded)
class VersTurnEnded(TurnEnded):
    """A go ends; ``out`` when its character is out of the conflict (VR-TURN-2)."""

    out: Annotated[bool | None, OMIT_NONE] = None


#: The events of one chase, named by its id alone (they exist only for those who may see
#: both of its sides).
OF_A_CHASE = (ChaseStage, ChaseTactics, ChaseRoll, ChaseInterpose, ChaseAbandoned)
#: The events with a nested check, rolled by their actor.
ROLLS = (Moved, Slipped, Disengaged, Recovered, Repaired, ChaseRoll, ChaseInterpose)
#: The events that spend the actor's actions (their ``spend``).
SPENDING = (Attack, *ROLLS)
