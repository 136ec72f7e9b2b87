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
sentence built from the redacted event shows ``?`` in its place; and the projection of the
state gives such a viewer each participant's view without its harm values, with at most its
band (:func:`masked_entry`): every player output — the server's frames, ``fracas show --as``,
the simulator's agents — holds no more than the GM chose to show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fracas.engine.model import ConflictState, Viewer
from fracas.engine.overrides import OverrideTarget, one_of
from fracas.errors import InvalidInput

if TYPE_CHECKING:
    from fracas.engine.ruleset import Ruleset

SETTING = "harm_view"
EXACT = "exact"
NONE = "none"
BAND = "band"
MODES = (EXACT, BAND, NONE)
#: The generic bands (a ruleset may band in its own words, as VERS names the conditions).
BANDS = ("unhurt", "hurt", "in crisis", "down")


def modes_of(settings: dict[str, Any], sides: list[str]) -> dict[str, str]:
    """Every side's harm view in ``settings`` (``exact`` where it names none)."""
    given = settings.get(SETTING)
    given = given if isinstance(given, dict) else {}
    return {side: str(given.get(side, EXACT)) for side in sides}


def with_defaults(settings: dict[str, Any], sides: list[str]) -> dict[str, Any]:
    """``settings`` with a harm view for every side (``exact`` unless given), as a new
    conflict is made with it; InvalidInput for an unknown side or mode."""
    check_setting(settings, sides)
    return {**settings, SETTING: modes_of(settings, sides)}


def check_setting(settings: dict[str, Any], sides: list[str]) -> None:
    """Refuse a ``harm_view`` setting that is not a mapping of known sides to modes (a GM
    who wrote ``harm_view = "band"`` would otherwise show every side exactly)."""
    if SETTING not in settings:
        return
    given = settings[SETTING]
    if not isinstance(given, dict):
        raise InvalidInput(f"settings.{SETTING} maps a side to one of {', '.join(MODES)}")
    for side, mode in given.items():
        if side not in sides:
            raise InvalidInput(f"settings.{SETTING}: no side {side!r} (sides: "
                               f"{', '.join(sides) or 'none'})", side=side)
        if mode not in MODES:
            raise InvalidInput(f"settings.{SETTING}.{side}: {mode!r} is not one of "
                               f"{', '.join(MODES)}", side=side)


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


def masked_entry(ruleset: Ruleset, state: ConflictState, viewer: Viewer,
                 entry: dict[str, Any]) -> dict[str, Any]:
    """A participant's view ``entry`` as ``viewer`` may see its harm: unchanged where they
    see it exactly, else without every harm value (:attr:`Ruleset.harm_keys`,
    :attr:`Ruleset.harm_stats`) and with at most its band (``harm``, and as its summary), so
    what a player receives cannot hold more than the band (no ratio to draw a width or a
    colour from)."""
    if not harm_hidden(state, viewer, entry["id"]):
        return entry
    shown = None
    if mode_of(state, entry.get("side")) == BAND:
        shown = "down" if entry.get("out") else ruleset.harm_band(entry)
    out = {k: v for k, v in entry.items() if k not in ruleset.harm_keys}
    out["stats"] = {k: v for k, v in entry.get("stats", {}).items()
                    if k not in ruleset.harm_stats}
    out["summary"] = shown or ""
    if shown is not None:
        out["harm"] = shown
    return out


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


__all__ = [
    "BAND",
    "BANDS",
    "EXACT",
    "MODES",
    "NONE",
    "SETTING",
    "check_setting",
    "harm_hidden",
    "masked_entry",
    "mode_of",
    "modes_of",
    "override_target",
    "with_defaults",
]
