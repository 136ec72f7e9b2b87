"""Harm views: what players see of others' harm, the GM's choice per side.

A conflict's setting ``harm_view`` maps each side to ``exact`` (the values), ``band`` (one
word: unhurt, hurt, in crisis, down — in VERS the conditions held) or ``none`` (nothing).
A side it does not name is ``exact``, so a conflict stored before harm views existed (no
``harm_view`` at all) shows every side exactly, and ``override settings.harm_view.SIDE MODE``
works on it like on any other: one ``override`` event, replayed and undone like any other,
that writes the whole mapping (every side, the one changed included); no stored record is
rewritten.

A field that tells a participant's harm carries the mark :class:`~fracas.engine.secrets.Harm`;
the one generic redaction (:func:`~fracas.engine.secrets.redact_marked`) masks it for a
viewer who may not see that participant's harm exactly (:func:`harm_hidden`), so a log
sentence built from the redacted event shows ``?`` in its place.
"""

from __future__ import annotations

from typing import Any

from fracas.engine.model import ConflictState, Viewer
from fracas.engine.overrides import OverrideTarget, one_of
from fracas.errors import InvalidInput

SETTING = "harm_view"
EXACT = "exact"
NONE = "none"
MODES = (EXACT, "band", NONE)


def modes_of(settings: dict[str, Any], sides: list[str]) -> dict[str, str]:
    """Every side's harm view in ``settings`` (``exact`` where it names none)."""
    given = settings.get(SETTING)
    given = given if isinstance(given, dict) else {}
    return {side: str(given.get(side, EXACT)) for side in sides}


def mode_of(state: ConflictState, side: str | None) -> str:
    """The harm view of ``side`` in ``state`` (``exact`` where the setting names none)."""
    given = state.settings.get(SETTING)
    if side is None or not isinstance(given, dict):
        return EXACT
    return str(given.get(side, EXACT))


def harm_hidden(state: ConflictState, viewer: Viewer, pid: Any, *, band: bool = False) -> bool:
    """Whether ``viewer`` may not see the harm of participant ``pid`` exactly: it is not
    theirs and its side's harm view is not ``exact`` (never for the GM, nor for a value that
    is no participant's, such as a VERS object's). ``band``: a value the band tells as well
    (a VERS condition's name), hidden only where the view is ``none``."""
    if viewer.is_gm or not isinstance(pid, str):
        return False
    p = state.participants.get(pid)
    if p is None or (viewer.player is not None and p.owner == viewer.player):
        return False
    mode = mode_of(state, p.side)
    return mode == NONE if band else mode != EXACT


def override_target(state: ConflictState, parts: list[str]) -> OverrideTarget | None:
    """The target of ``override settings.harm_view.SIDE MODE`` (None: another path)."""
    if len(parts) != 3 or parts[:2] != ["settings", SETTING]:
        return None
    side = parts[2]
    path = ".".join(parts)
    if side not in state.sides:
        raise InvalidInput(f"override: {path}: no side {side!r} (sides: "
                           f"{', '.join(state.sides) or 'none'})", path=path)
    pick = one_of(path, MODES, "a harm view")

    def apply(value: Any) -> None:  # a new mapping: the old one may be shared with a copy
        state.settings[SETTING] = {**modes_of(state.settings, state.sides), side: value}

    return OverrideTarget(path, mode_of(state, side), pick, apply)


__all__ = ["EXACT", "MODES", "NONE", "SETTING", "harm_hidden", "mode_of", "modes_of",
           "override_target"]
