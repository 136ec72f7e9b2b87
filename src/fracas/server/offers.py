"""The structured legal commands a viewer is offered (``GET …/legal-commands``).

The engine's :meth:`~fracas.engine.conflict.Conflict.legal` values, as JSON, per actor: for the
GM their own commands (or one character's), for a player each of their own characters'. For
a player nothing names a participant hidden from them: such a value is taken out of the
allowed ones, and a command that fixes one (or has no allowed value left) is not offered.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.engine.conflict import Conflict
from fracas.engine.legal import Choice, LegalCommand
from fracas.server import projection


def structured(live: projection.Live, actor: str | None) -> dict[str, list[dict[str, Any]]]:
    """Actor (``gm`` for the GM's own) → the JSON form of their legal commands."""
    conflict, viewer = live.conflict, live.viewer
    if viewer.is_gm:
        if actor is not None:
            projection.character(live, actor)
        return {actor or "gm": [c.to_data() for c in conflict.legal(actor)]}
    known = set(projection.known_ids(live))
    inner = conflict.state.innermost.participants
    mine = [p for p in known if p in inner and inner[p].owner == viewer.player]
    if actor is not None:
        projection.character(live, actor)
        mine = [a for a in mine if a == actor]
    hidden = _hidden_words(conflict, known)
    out: dict[str, list[dict[str, Any]]] = {}
    for a in mine:
        kept = (_without(c, hidden) for c in conflict.legal(a))
        out[a] = [c.to_data() for c in kept if c is not None]
    return out


def _hidden_words(conflict: Conflict, known: set[str]) -> set[str]:
    """The ids and names (lower case) of the participants a viewer may not know of."""
    return {w.lower() for s in conflict.state.chain() for p in s.participants.values()
            if p.id not in known for w in (p.id, p.name)}


def _names_hidden(value: Any, hidden: set[str]) -> bool:
    items = value if isinstance(value, list | tuple) else [value]
    return any(isinstance(v, str) and v.lower() in hidden for v in items)


def _without(command: LegalCommand, hidden: set[str]) -> LegalCommand | None:
    """``command`` without the hidden values (None: nothing of it may be offered)."""
    if not hidden:
        return command
    if command.actor is not None and command.actor.lower() in hidden:
        return None
    params: list[Choice] = []
    for c in command.params:
        if c.is_fixed and _names_hidden(c.fixed, hidden):
            return None
        if c.allowed is not None:
            allowed = tuple(v for v in c.allowed if not _names_hidden(v, hidden))
            if not allowed and c.required:
                return None
            c = dataclasses.replace(c, allowed=allowed)
        params.append(c)
    return dataclasses.replace(command, params=tuple(params))


__all__ = ["structured"]
