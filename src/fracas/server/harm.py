"""What players see of others' harm in the view: the GM's choice per side.

A conflict's ``settings.harm_view`` maps each side to ``exact`` (the values, as the projection
has them), ``band`` (one word: ``unhurt``, ``hurt``, ``in crisis`` or ``down``; in VERS the
names of the conditions held, the ruleset's ladder) or ``none`` (nothing of their harm); a side
it does not name (every side of a conflict made before harm views) is ``exact``
(:mod:`fracas.engine.harm_view`). The server writes it at creation (every side ``exact``
unless the set-up says otherwise), and the GM changes it with ``override
settings.harm_view.SIDE band`` like any other value: one event, undone like any other.

The engine's projection already masks every event field marked as harm
(:class:`fracas.engine.secrets.Harm`: the log's sentences are built from the masked events)
and every derived value (odds, base initiatives, penalties). :func:`mask_view` applies the
choice to the participants of a non-GM viewer's view before it leaves the server: one the
viewer does not own, of a side whose view is not ``exact``, loses every harm value (and the
words built from them) and gets at most its band, so the page cannot hold more than the band
(no ratio to draw a width or a colour from).
"""

from __future__ import annotations

import copy
from typing import Any

from fracas.engine.harm_view import EXACT, MODES, SETTING, modes_of
from fracas.engine.model import Viewer
from fracas.errors import InvalidInput

BANDS = ("unhurt", "hurt", "in crisis", "down")

#: The harm values of a participant's view, per ruleset (the summary is built from them).
HARM_KEYS: dict[str, tuple[str, ...]] = {
    "fabula-ultima": ("hp", "mp", "crisis", "summary"),
    "etherscope": ("condensers", "summary"),
    "vers": ("tracks", "penalty", "disabled", "summary"),
}
#: The set-up stats that are harm maxima (they tell a ratio beside a band).
HARM_STATS: dict[str, tuple[str, ...]] = {
    "fabula-ultima": ("hp", "mp"),
    "etherscope": ("physical", "ether", "society"),
    "vers": (),
}


def with_defaults(settings: dict[str, Any], sides: list[str]) -> dict[str, Any]:
    """``settings`` with a harm view for every side (``exact`` unless given); InvalidInput
    for an unknown side or mode."""
    given = settings.get(SETTING, {})
    if not isinstance(given, dict):
        raise InvalidInput(f"settings.{SETTING} maps a side to one of {', '.join(MODES)}")
    for side, mode in given.items():
        if side not in sides:
            raise InvalidInput(f"settings.{SETTING}: no side {side!r} (sides: "
                               f"{', '.join(sides) or 'none'})", side=side)
        if mode not in MODES:
            raise InvalidInput(f"settings.{SETTING}.{side}: {mode!r} is not one of "
                               f"{', '.join(MODES)}", side=side)
    return {**settings, SETTING: modes_of(settings, sides)}


def band(ruleset: str, person: dict[str, Any]) -> str | None:
    """The band of a participant's view (None: the view holds no harm to band)."""
    if person.get("out"):
        return "down"
    if ruleset == "fabula-ultima":
        hp = person.get("hp")
        if not isinstance(hp, dict):
            return None
        if hp["current"] <= 0:
            return "down"
        return "in crisis" if person.get("crisis") else \
            "hurt" if hp["current"] < hp["max"] else "unhurt"
    if ruleset == "etherscope":
        pools = list((person.get("condensers") or {}).values())
        if not pools:
            return None
        if any(cur <= 0 for cur, _ in pools):
            return "down"
        return "hurt" if any(cur < top for cur, top in pools) else "unhurt"
    if ruleset == "vers":
        tracks = person.get("tracks")
        if not isinstance(tracks, dict):
            return None
        if any(t.get("taken_out") for t in tracks.values()):
            return "down"
        names = [name for t in tracks.values() for name in t.get("conditions", {})]
        return ", ".join(names) if names else "unhurt"
    return None


def _masked_people(data: dict[str, Any], viewer: Viewer) -> dict[str, str]:
    """Id → mode of the participants whose harm ``viewer`` may not see exactly (each level
    judged by its own settings, as the engine judges its events)."""
    if viewer.is_gm:
        return {}
    out: dict[str, str] = {}
    for level in [data["conflict"], *data.get("zoom", [])]:
        modes = (level.get("settings") or {}).get(SETTING)
        modes = modes if isinstance(modes, dict) else {}
        for p in level.get("participants", []):
            mode = modes.get(p.get("side"), EXACT)
            if mode != EXACT and not p.get("mine"):
                out[p["id"]] = mode
    return out


def mask_view(ruleset: str, viewer: Viewer, data: dict[str, Any]) -> dict[str, Any]:
    """The view ``data`` with others' harm as their side's harm view allows (a copy when
    anything is masked)."""
    masked = _masked_people(data, viewer)
    if not masked:
        return data
    out = copy.deepcopy(data)
    for level in [out["conflict"], *out.get("zoom", [])]:
        for p in level.get("participants", []):
            mode = masked.get(p["id"])
            if mode is None:
                continue
            shown = band(ruleset, p) if mode == "band" else None
            for key in HARM_KEYS.get(ruleset, ()):
                p.pop(key, None)
            stats = p.get("stats") or {}
            for key in HARM_STATS.get(ruleset, ()):
                stats.pop(key, None)
            p["summary"] = shown or ""
            if shown is not None:
                p["harm"] = shown
    return out


__all__ = ["BANDS", "MODES", "SETTING", "band", "mask_view", "with_defaults"]
