"""The engine's concealment: a GM keeps a participant hidden from every player but its own,
in any ruleset, and reveals it later (``conceal WHO``, ``reveal WHO``, ``join … hidden=yes``).

A concealed participant does not exist for the players it is hidden from: the base
:meth:`~fracas.engine.ruleset.Ruleset.can_see` honours :attr:`ConflictState.concealed`, so
the projection leaves it (and every event naming it) out of their views and logs. A ruleset
with its own ``conceal``/``reveal`` verbs (Etherscope's directional hiding) keeps them: the
engine's verbs apply only where a ruleset does not define those verbs, and ``join …
hidden=yes`` conceals through the ruleset's own ``conceal`` where there is one.
"""

from __future__ import annotations

from typing import Annotated

from fracas.engine.commands import Command, CommandSpec, Param
from fracas.engine.context import DecideContext
from fracas.engine.events import Event, TypedEvent, event_type
from fracas.engine.model import ConflictState, copy_state
from fracas.engine.ruleset import Ruleset
from fracas.engine.secrets import Names
from fracas.errors import IllegalCommand

CONCEAL, REVEAL = "conceal", "reveal"

CONCEALMENT_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(CONCEAL, (Param("who", "id"),),
                "GM hides a participant from every player but its own (it no longer exists "
                "for them, and nothing tells them so)", actor="gm"),
    CommandSpec(REVEAL, (Param("who", "id"),), "GM reveals a concealed participant",
                actor="gm"),
)


@event_type("participant_concealed")
class ParticipantConcealed(TypedEvent):
    """The GM hid ``participant`` from every player but its own."""

    participant: Annotated[str | None, Names(hide_event=True)] = None


@event_type("participant_revealed")
class ParticipantRevealed(TypedEvent):
    """The GM revealed the concealed ``participant``."""

    participant: str | None = None


def engine_verbs(ruleset: Ruleset) -> tuple[CommandSpec, ...]:
    """The engine's concealment commands a ruleset does not define itself."""
    own = {spec.verb for spec in ruleset.commands}
    return tuple(spec for spec in CONCEALMENT_COMMANDS if spec.verb not in own)


def concealed_from(state: ConflictState, pid: str, other: str | None) -> bool:
    """Whether the engine's ``conceal`` hides ``pid`` from the player of character ``other``
    (as :meth:`~fracas.engine.ruleset.Ruleset.can_see` judges it; nothing is hidden from
    the GM's characters, ``other`` None or owned by no one)."""
    me = state.participants.get(other or "")
    if me is None or me.owner is None or pid not in state.concealed:
        return False
    p = state.participants.get(pid)
    return p is None or p.owner != me.owner


def decide_concealment(state: ConflictState, cmd: Command) -> list[Event]:
    """Events of the engine's ``conceal WHO`` or ``reveal WHO``."""
    p = state.participant(cmd.args["who"])
    hidden = p.id in state.concealed
    if cmd.verb == CONCEAL:
        if hidden:
            raise IllegalCommand(f"{p.name} is already concealed", participant=p.id)
        return [ParticipantConcealed(participant=p.id)]
    if not hidden:
        raise IllegalCommand(f"{p.name} is not concealed", participant=p.id)
    return [ParticipantRevealed(participant=p.id)]


def concealing(
    ruleset: Ruleset, state: ConflictState, joined: list[Event], pid: str, ctx: DecideContext
) -> list[Event]:
    """The events that conceal ``pid`` as it joins (``joined``: its join events, not yet in
    ``state``): the ruleset's own ``conceal`` where it has one, decided on the state after
    the join, else the engine's."""
    if any(spec.verb == CONCEAL for spec in ruleset.commands):
        from fracas.engine.conflict import evolve

        after = copy_state(state)
        for event in joined:
            evolve(ruleset, after, event)
        return ruleset.decide(after.innermost, Command(CONCEAL, None, {"who": pid}), ctx)
    return [ParticipantConcealed(participant=pid)]


def evolve_concealment(chain: list[ConflictState], event: Event) -> bool:
    """Apply a concealment event to every level of the conflict that holds its participant
    (a zoomed-in conflict inherits its parent's); False for any other event."""
    if not isinstance(event, ParticipantConcealed | ParticipantRevealed):
        return False
    pid = event.participant
    for level in chain:
        if pid not in level.participants:
            continue
        if isinstance(event, ParticipantConcealed) and pid not in level.concealed:
            level.concealed.append(pid)
        elif isinstance(event, ParticipantRevealed) and pid in level.concealed:
            level.concealed.remove(pid)
    return True


def inherit(parent: ConflictState, child: ConflictState) -> None:
    """A zoomed-in conflict keeps its parent's concealment of the participants it holds."""
    child.concealed = [p for p in parent.concealed if p in child.participants]


def describe_concealment(event: Event, state: ConflictState) -> str | None:
    """Sentences of the concealment events (None for any other)."""
    from fracas.engine.describe import name_of

    if isinstance(event, ParticipantConcealed):
        return f"{name_of(state, event.participant)} is concealed from the players"
    if isinstance(event, ParticipantRevealed):
        return f"{name_of(state, event.participant)} is revealed"
    return None
