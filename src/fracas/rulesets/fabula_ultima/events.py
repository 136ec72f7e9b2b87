"""The events of the Fabula Ultima ruleset, typed and registered by tag (the engine's
boundary events — rounds, turns, outs — come from :mod:`fracas.engine.events`).

Each field is one key of the JSON data, in the order the log has always written them. The
marks say which secret a field derives from: a weapon from the attacker's GM-only
``equipment``, a damage amount from the target's GM-only ``affinities``, HP and MP left from
those pools. Secrets that depend on the data (a Defense from the sheet or the DEX die and the
gear, the pool a recovery fills) are judged in :mod:`fracas.rulesets.fabula_ultima.views`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Annotated, Any, TypeVar, dataclass_transform

from fracas.engine.events import ENGINE_EVENTS, OMIT_NONE, EventTypes, Key, TypedEvent
from fracas.engine.secrets import Derived, Harm, Names, Stat

#: The dice and bonus of a check give away the roller's GM-only attributes and gear.
ROLLED_FROM = ("dex", "ins", "mig", "wlp", "equipment")
_ROLLED = tuple(Stat("actor", key) for key in ROLLED_FROM)
Rolled = Annotated[dict[str, Any] | None, *_ROLLED, OMIT_NONE]
RollText = Annotated[str | None, Derived("roll"), *_ROLLED, OMIT_NONE]
Dl = Annotated[int | None, OMIT_NONE]  # masked by the views when it is a secret Defense
#: The value tells the target's HP or MP (hidden by its side's harm view).
HARM = Harm("target")
#: Crisis: the band tells as much (hidden only where the view is "none").
CRISIS = Harm("target", band=True)


#: The Fabula Ultima event classes (over the engine's): a Fabula Ultima conflict's records are read
#: with them (another ruleset may use the same tags for other events).
FU_EVENTS = EventTypes("Fabula Ultima", ENGINE_EVENTS)
_E = TypeVar("_E", bound=TypedEvent)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def fu_event(tag: str) -> Callable[[type[_E]], type[_E]]:
    """Declare a Fabula Ultima event class for ``tag`` (frozen, slotted, keyword-only)."""
    return FU_EVENTS.event(tag)


@fu_event("goal_set")
class GoalSet(TypedEvent):
    """FU-CON-2: a character's goal in the conflict (a GM-only goal is the GM's alone)."""

    participant: str
    text: Annotated[str | None, Stat("participant", "goal")]


@fu_event("extra_set")
class ExtraSet(TypedEvent):
    """FU-CON-1: a participant is (or is no longer) an extra."""

    participant: str
    on: bool


@fu_event("side_assigned")
class SideAssigned(TypedEvent):
    """FU-CON-13: a participant moves to one of the two sides."""

    participant: str
    side: str
    was: str | None = None


@fu_event("joined_turns")
class JoinedTurns(TypedEvent):
    """FU-CON-14: a joiner's turns per round and the round they count from."""

    participant: str
    side: str
    turns: int
    round: int


@fu_event("initiative_checked")
class InitiativeChecked(TypedEvent):
    """FU-CON-3/4/5: the Initiative Group Check (NPC Initiatives judged in the views)."""

    leader: str
    dl: Annotated[int | None, OMIT_NONE] = None
    dl_from: Annotated[str | None, OMIT_NONE] = None
    initiatives: dict[str, int] | None = None
    own_modifier: int | None = 0  # None: from GM-only gear or init_mod (masked by the views)
    support: int = 0
    bond: int | None = 0  # None: a supporter's GM-only Bond (masked by the views)
    supporters: tuple[dict[str, Any], ...] = ()
    check: dict[str, Any] | None = None
    success: bool = False
    first_side: str = ""


@fu_event("action")
class Acted(TypedEvent):
    """FU-CON-6: a free-text action that takes the turn."""

    text: str


@fu_event("attack")
class Attacked(TypedEvent):
    """FU-RES-3: a weapon attack, accuracy against the target's Defense."""

    target: str
    weapon: Annotated[str | None, Stat("actor", "equipment")] = None
    roll: Rolled = None
    text: RollText = None
    dl: Dl = None
    total: int | None = None
    hr: int | None = None
    critical: bool = False
    fumble: bool = False
    success: bool = False
    hit: bool = False
    magic: bool = False


@fu_event("spell")
class Cast(TypedEvent):
    """FU-RES-1/3: a spell, its MP and (with a target) the magic check."""

    name: str
    mp: int = 0
    mp_after: Annotated[int | None, Stat("actor", "mp"), Harm("actor"), OMIT_NONE] = None
    target: Annotated[str | None, OMIT_NONE] = None
    roll: Rolled = None
    text: RollText = None
    dl: Dl = None
    total: Annotated[int | None, OMIT_NONE] = None
    hr: Annotated[int | None, OMIT_NONE] = None
    critical: Annotated[bool | None, OMIT_NONE] = None
    fumble: Annotated[bool | None, OMIT_NONE] = None
    success: Annotated[bool | None, OMIT_NONE] = None
    hit: Annotated[bool | None, OMIT_NONE] = None
    magic: Annotated[bool | None, OMIT_NONE] = None
    #: FU-RES-4: the status effect it puts on its target (a GM-only sheet's spell tells it)
    status: Annotated[str | None, Stat("actor", "spells"), OMIT_NONE] = None
    #: the target held that status already as the spell took effect: nothing added
    held: Annotated[bool | None, Stat("actor", "spells"), OMIT_NONE] = None


@fu_event("check")
class Checked(TypedEvent):
    """FU-CHK-1..4: a check of two attributes against a DL."""

    attributes: str
    roll: Rolled = None
    text: RollText = None
    dl: int = 0
    total: int | None = None
    hr: int | None = None
    critical: bool = False
    fumble: bool = False
    success: bool = False


@fu_event("damage")
class Damaged(TypedEvent):
    """FU-RES-1/2/3: damage after affinities, HP left and Crisis."""

    target: str
    raw: Annotated[int | None, HARM]
    damage_type: Annotated[str, Key("type")] = "physical"
    affinity: Annotated[str | None, Stat("target", "affinities")] = None
    source: Annotated[str | None, Names(), OMIT_NONE] = None
    amount: Annotated[int | None, Derived("affinity"), Stat("target", "affinities"),
                      HARM] = None
    healed: Annotated[int | None, Derived("affinity"), Stat("target", "affinities"),
                      Stat("target", "hp"), HARM, OMIT_NONE] = None
    hp_after: Annotated[int | None, Stat("target", "hp"), HARM, OMIT_NONE] = None
    crisis: Annotated[bool | None, CRISIS] = False
    entered_crisis: Annotated[bool | None, CRISIS] = False


@fu_event("recovered")
class Recovered(TypedEvent):
    """FU-RES-1: HP, MP or IP recovered up to the maximum (a GM-only pool: judged in the
    views)."""

    target: str
    pool: str
    amount: Annotated[int | None, HARM, OMIT_NONE] = None
    after: Annotated[int | None, HARM, OMIT_NONE] = None


@fu_event("spent")
class Spent(TypedEvent):
    """FU-RES-1: HP, MP or IP spent."""

    participant: str
    pool: str
    amount: Annotated[int | None, Harm("participant")]
    after: Annotated[int | None, Harm("participant"), OMIT_NONE] = None
    why: Annotated[str | None, OMIT_NONE] = None


@fu_event("status_changed")
class StatusChanged(TypedEvent):
    """FU-RES-4: a status effect on or off."""

    target: str
    effect: str
    on: bool
    attributes: tuple[str, ...] = ()


@fu_event("fabula_changed")
class FabulaChanged(TypedEvent):
    """FU-CHK-4: Fabula Points gained or spent."""

    participant: str
    delta: int
    fp_after: Annotated[int | None, Stat("participant", "fp")]
    why: Annotated[str | None, OMIT_NONE] = None


@fu_event("item_equipped")
class ItemEquipped(TypedEvent):
    """FU-CON-2: an item declared before the start (hidden with GM-only equipment)."""

    participant: str
    item: dict[str, Any]


CLASSES: tuple[type[TypedEvent], ...] = (
    GoalSet, ExtraSet, SideAssigned, JoinedTurns, InitiativeChecked, Acted, Attacked, Cast,
    Checked, Damaged, Recovered, Spent, StatusChanged, FabulaChanged, ItemEquipped,
)
