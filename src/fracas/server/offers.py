"""The structured legal commands a viewer is offered (``GET …/legal-commands``).

The engine's :meth:`~fracas.engine.conflict.Conflict.legal` values, as JSON, per actor: for the
GM their own commands (or one character's), for a player each of their own characters'. For
a player nothing names a participant hidden from them: such a value is taken out of the
allowed ones, and a command that fixes one (or has no allowed value left) is not offered.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.projector import offered
from fracas.server import projection


def structured(live: projection.Live, actor: str | None) -> dict[str, list[dict[str, Any]]]:
    """Actor (``gm`` for the GM's own) → the JSON form of their legal commands."""
    conflict, viewer = live.conflict, live.viewer
    if viewer.is_gm:
        if actor is not None:
            projection.character(live, actor)
        return {actor or "gm": [c.to_data() for c in conflict.legal(actor)]}
    known = projection.known_ids(live)
    inner = conflict.state.innermost.participants
    mine = [p for p in known if p in inner and inner[p].owner == viewer.player]
    if actor is not None:
        projection.character(live, actor)
        mine = [a for a in mine if a == actor]
    return {a: [c.to_data() for c in offered(conflict, viewer, a)] for a in mine}


__all__ = ["structured"]
