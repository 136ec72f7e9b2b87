"""What each viewer may see, as one-call functions over the :class:`Projector`.

Nothing leaves fracas except through a projector (DESIGN.md principle 6). These functions
keep one projector per viewer of each live :class:`Conflict` object, advanced to the end of its
log on every call, so calling them again after an append costs O(1) in the log's length.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Projector, log_data
from fracas.engine.redaction import may_see_event, public_settings


def projector(conflict: Conflict, viewer: Viewer) -> Projector:
    """The projector of ``viewer`` on ``conflict``, advanced to the end of its log (kept
    with the conflict object, and gone with it; made anew if the log no longer extends what
    it projected)."""
    mine = conflict.projectors
    p = mine.get(viewer)
    if p is None or not p.follows(conflict):
        p = mine[viewer] = Projector(conflict, viewer)
    else:
        p.advance()
    return p


def view(conflict: Conflict, viewer: Viewer) -> dict[str, Any]:
    """The state as ``viewer`` may see it, as JSON-native data (a player's has a ``cursor``
    and no ``version``)."""
    return projector(conflict, viewer).view()


def log_view(conflict: Conflict, viewer: Viewer, since: int = 0) -> list[dict[str, Any]]:
    """The log as ``viewer`` may see it (see :class:`~fracas.engine.projector.Entry`): the
    GM's entries carry their versions, a player's are numbered 1, 2, … and records wholly
    hidden from them are not there at all. ``since``: only the entries after the viewer's
    entry number ``since`` (what a viewer who has read that far has not seen: its cost is
    that of the new entries, however long the log)."""
    return log_data(projector(conflict, viewer).after(since))


__all__ = ["log_view", "may_see_event", "projector", "public_settings", "view"]
