"""The engine's own events, typed: set-up, start and end, rounds and turns, joins and outs,
notes, rolls, timed effects, overrides, zooms and the undo/redo markers.

Each class is registered in :data:`~fracas.engine.events.ENGINE_EVENTS` under its tag; its
fields are the keys of the JSON data in the order they are written. A ruleset that writes keys
of its own on one of them (a turn's Etherscope ``score``, VERS ``actions``) declares them as
typed, marked fields of a subclass (``@ES_EVENTS.extends(TurnStarted)``), read under the same
tag with that ruleset's types; ``extra`` holds only keys that no class read declares (a record
read with the engine's types alone), written after the declared fields as they were given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fracas.engine.events import (
    AS_JSON,
    CONFLICT_CREATED,
    CONFLICT_ENDED,
    CONFLICT_STARTED,
    EFFECT_ADDED,
    EFFECT_EXPIRED,
    GM_ACTS,
    NARRATION,
    NOTE,
    OMIT_NONE,
    OVERRIDE,
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    REDONE,
    ROLL,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    UNDONE,
    ZOOM_CLOSED,
    ZOOM_OPENED,
    Key,
    TypedEvent,
    Untold,
    event_type,
)
from fracas.engine.model import TimedEffect, Visibility

Json = Annotated[Any, AS_JSON]
#: Keys no class declares (a ruleset's, read with the engine's types alone): kept as read.
Extra = dict[str, Any]

#: An ending's reason naming someone hidden from a player reads as the GM's own call.
UNTOLD_BY_GM = Untold("the GM's call")


@event_type(CONFLICT_CREATED)
class ConflictCreated(TypedEvent):
    """The validated set-up (:class:`~fracas.engine.setup.Setup` as JSON): version 1."""

    ruleset: str
    title: str = ""
    scene: str = ""
    round_limit: int | None = None
    settings: Annotated[dict[str, Any], AS_JSON] = field(default_factory=dict)
    sides: Annotated[list[str], AS_JSON] = field(default_factory=list)
    participants: Annotated[list[dict[str, Any]], AS_JSON] = field(default_factory=list)


@event_type(CONFLICT_STARTED)
class ConflictStarted(TypedEvent):
    """Play begins."""


@event_type(CONFLICT_ENDED)
class ConflictEnded(TypedEvent):
    """The conflict is over, with its reason (and outcome)."""

    reason: Annotated[str, UNTOLD_BY_GM]
    outcome: Annotated[str | None, OMIT_NONE] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundBoundary(TypedEvent):
    """The start or the end of round ``round`` (a ruleset's own keys: in its subclass)."""

    round: int
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnBoundary(TypedEvent):
    """The start or the end of ``participant``'s turn (a ruleset's own keys: in its
    subclass)."""

    participant: str
    extra: Extra = field(default_factory=dict)


@event_type(ROUND_STARTED)
class RoundStarted(RoundBoundary):
    """A round begins (Etherscope's base initiatives: ``EsRoundStarted``)."""


@event_type(TURN_STARTED)
class TurnStarted(TurnBoundary):
    """Whose turn it is now (Etherscope's score, VERS's actions, opens…: their subclasses)."""


@event_type(TURN_ENDED)
class TurnEnded(TurnBoundary):
    """A participant's turn is over."""


@event_type(ROUND_ENDED)
class RoundEnded(RoundBoundary):
    """A round ends."""


@event_type(PARTICIPANT_JOINED)
class ParticipantJoined(TypedEvent):
    """A participant joins mid-conflict (its :class:`~fracas.engine.setup.ParticipantSetup`)."""

    id: str
    name: str
    kind: str = "npc"
    side: str | None = None
    player: str | None = None
    stats: Annotated[dict[str, Any], AS_JSON] = field(default_factory=dict)
    gm_only: Annotated[list[str], AS_JSON] = field(default_factory=list)


@event_type(PARTICIPANT_LEFT)
class ParticipantLeft(TypedEvent):
    """A participant leaves the conflict."""

    participant: str
    reason: Annotated[str | None, OMIT_NONE] = None


@event_type(PARTICIPANT_OUT)
class ParticipantOut(TypedEvent):
    """A participant is out (defeated, fled, surrendered)."""

    participant: str
    reason: Annotated[str | None, OMIT_NONE] = None


@event_type(NOTE)
class Note(TypedEvent):
    """A note in the log."""

    text: str


@event_type(NARRATION)
class Narration(TypedEvent):
    """Narration of an action or its effects."""

    text: str


@event_type(ROLL)
class Rolled(TypedEvent):
    """Any dice rolled (a :class:`~fracas.dice.Roll`'s JSON, its text and why)."""

    expression: str
    dice: Json = None
    total: Json = None
    annotations: Annotated[Any, AS_JSON, OMIT_NONE] = None
    comment: Annotated[str | None, OMIT_NONE] = None
    text: str = ""
    why: Annotated[str | None, OMIT_NONE] = None


@event_type(OVERRIDE)
class Override(TypedEvent):
    """A GM correction: the value at ``path`` (and what it was)."""

    path: Annotated[list[str], AS_JSON]
    value: Json = None
    was: Json = None
    reason: Annotated[str | None, OMIT_NONE] = None


@event_type(EFFECT_ADDED)
class EffectAdded(TypedEvent):
    """A timed effect or reminder (the fields of a :class:`TimedEffect`)."""

    id: str
    text: str
    trigger: str
    remaining: int = 1
    participant: str | None = None
    shown_to: Annotated[str, Key("visibility")] = Visibility.PUBLIC.value
    owner: str | None = None

    def effect(self) -> TimedEffect:
        """The effect it adds (a new object each time: the state's own)."""
        return TimedEffect(id=self.id, text=self.text, trigger=self.trigger,
                           remaining=self.remaining, participant=self.participant,
                           visibility=self.shown_to, owner=self.owner)


@event_type(EFFECT_EXPIRED)
class EffectExpired(TypedEvent):
    """A timed effect ends (it names whom it watched, for redaction)."""

    id: str
    text: str = ""
    reason: str = ""
    participant: str | None = None


@event_type(ZOOM_OPENED)
class ZoomOpened(TypedEvent):
    """A nested conflict opens (the ruleset's description of it: ``EsZoomOpened``)."""

    reason: Annotated[str | None, OMIT_NONE] = None
    extra: Extra = field(default_factory=dict)


@event_type(ZOOM_CLOSED)
class ZoomClosed(TypedEvent):
    """Back to the conflict around the zoomed-in one."""

    reason: Annotated[str, UNTOLD_BY_GM] = ""
    early: Annotated[bool | None, OMIT_NONE] = None


@event_type(UNDONE)
class Undone(TypedEvent):
    """The marker of an undo: the versions taken back (a player's: their commands, and the
    numbers of their entries)."""

    versions: Annotated[list[int] | None, AS_JSON, OMIT_NONE] = None
    commands: Annotated[list[str] | None, AS_JSON, OMIT_NONE] = None
    entries: Annotated[list[int] | None, AS_JSON, OMIT_NONE] = None


@event_type(REDONE)
class Redone(TypedEvent):
    """The marker of a redo: the versions brought back (a player's: their commands, and the
    numbers of their entries)."""

    versions: Annotated[list[int] | None, AS_JSON, OMIT_NONE] = None
    commands: Annotated[list[str] | None, AS_JSON, OMIT_NONE] = None
    entries: Annotated[list[int] | None, AS_JSON, OMIT_NONE] = None


@event_type(GM_ACTS)
class GmActs(TypedEvent):
    """What a player sees in place of an event hidden from them."""
