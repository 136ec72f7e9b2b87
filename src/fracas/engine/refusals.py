"""A refusal is an output like any other (DESIGN.md principle 6): what a player is told when
the rules refuse their command is built from what that player may know.

By structure: a command naming a participant the player may not know is refused, before any
rule is asked, as naming no one (``Conflict._check_known_ids``); and a turn check's refusal
(:class:`~fracas.errors.NotYourTurn`, every ruleset's) is rebuilt here from the player's
projection of the turn order — "Ada does not act now; it is not Ada's turn", and who may act
now among those the player may know — so no ruleset's wording can name a hidden actor, its
side or its score.
The belt under both: a refusal's values never hold an id the player may not know, and a
message that still names one is replaced by a plain "the rules do not allow this now".
"""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.redaction import Knowledge
from fracas.engine.ruleset import Ruleset
from fracas.engine.turns import turn_view
from fracas.engine.words import possessive
from fracas.errors import FracasError, IllegalCommand, NotYourTurn


def refusal_for(ruleset: Ruleset, root: ConflictState, author: Viewer, command: Command,
                error: FracasError) -> FracasError:
    """``error`` (the rules' refusal of ``command``) as the player ``author`` may read it."""
    if author.is_gm:
        return error
    knowledge = Knowledge(ruleset, root, author)
    if isinstance(error, NotYourTurn):
        error = _turn_refusal(ruleset, root, knowledge, command, error)
    typed = _typed(command)  # what the player wrote is echoed back, hidden or missing alike
    values = {k: _without_unknown_items(v, knowledge, typed) for k, v in error.values.items()}
    values = {k: v for k, v in values.items() if not _names_unknown(v, knowledge, typed)}
    unknown = knowledge.unknowns().echoing(typed)
    # a list of names reads as if the hidden ones did not exist ("Bruno, Zq have not gone":
    # "Bruno has not gone" would be the rules' own words then, but the list is theirs)
    message = unknown.text(error.message)
    if message is None:  # the belt: no wording names a hidden one
        return IllegalCommand("the rules do not allow this command now", rule=error.rule)
    if values == error.values and message == error.message:
        return error
    return type(error)(message, rule=error.rule, **values)


def _without_unknown_items(value: Any, knowledge: Knowledge, typed: set[str]) -> Any:
    """A list of participant ids without those the player may not know (who has not gone:
    as if the hidden ones did not exist); any other value as it is."""
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return [v for v in value if not _names_unknown(v, knowledge, typed)]
    return value


def _turn_refusal(ruleset: Ruleset, root: ConflictState, knowledge: Knowledge,
                  command: Command, error: NotYourTurn) -> NotYourTurn:
    """"It is not Ada's turn", and who may act now as the player's view shows it (Ada may
    be waiting outside a zoomed-in conflict the player does not see)."""
    state = root.innermost
    actor = next((level.participants[command.actor] for level in reversed(root.chain())
                  if command.actor in level.participants), None)
    who = actor.name if actor is not None else "your character"
    turns = turn_view(ruleset, state, knowledge.knows)
    names = [state.participants[p].name for p in turns.may_act if p in state.participants]
    now = f"; {', '.join(names)} may act now" if names else ""
    return NotYourTurn(f"{who} does not act now; it is not {possessive(who)} turn{now}",
                       rule=error.rule, participant=command.actor)


def _typed(command: Command) -> set[str]:
    words = {command.actor} if command.actor else set()
    for value in command.args.values():
        words |= {v for v in (value if isinstance(value, list) else [value])
                  if isinstance(v, str)}
    return words


def _names_unknown(value: Any, knowledge: Knowledge, typed: set[str]) -> bool:
    if isinstance(value, str):
        return value not in typed and not knowledge.knows(value)
    if isinstance(value, list | tuple | set | frozenset):
        return any(_names_unknown(v, knowledge, typed) for v in value)
    if isinstance(value, dict):
        return any(_names_unknown(k, knowledge, typed) or _names_unknown(v, knowledge, typed)
                   for k, v in value.items())
    return False
