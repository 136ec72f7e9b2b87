"""What players see of others' harm: the GM's choice per side, enforced in what is sent.

A conflict's ``settings.harm_view`` maps each side to ``exact`` (the values, as the projection
has them), ``band`` (one word: ``unhurt``, ``hurt``, ``in crisis`` or ``down``; in VERS the
names of the conditions held, the ruleset's ladder) or ``none`` (nothing of their harm). The
server writes it at creation (every side ``exact`` unless the set-up says otherwise), and the
GM changes it with ``override settings.harm_view.SIDE band`` like any other value: one event,
undone like any other.

:func:`mask_view` and :func:`mask_entry` apply it to a non-GM viewer's projection before it
leaves the server: a participant the viewer does not own, of a side whose view is not
``exact``, loses every harm value (and the words built from them) and gets at most its band,
so the page cannot hold more than the band (no ratio to draw a width or a colour from).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from fracas.engine.model import Viewer
from fracas.errors import InvalidInput

SETTING = "harm_view"
MODES = ("exact", "band", "none")
BANDS = ("unhurt", "hurt", "in crisis", "down")

#: The harm values of a participant's view, per ruleset (the summary is built from them).
HARM_KEYS: dict[str, tuple[str, ...]] = {
    "fabula-ultima": ("hp", "mp", "crisis", "summary"),
    "etherscope": ("condensers", "summary"),
    "vers": ("tracks", "penalty", "summary"),
}
#: The set-up stats that are harm maxima (they tell a ratio beside a band).
HARM_STATS: dict[str, tuple[str, ...]] = {
    "fabula-ultima": ("hp", "mp"),
    "etherscope": ("physical", "ether", "society"),
    "vers": (),
}
#: Event fields that count harm (a log line built from them is withheld).
HARM_FIELDS = ("amount", "raw", "hp", "mp", "current", "was", "damage", "value", "level",
               "conditions", "penalty", "left", "crisis", "entered_crisis")


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
    return {**settings, SETTING: {side: given.get(side, "exact") for side in sides}}


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
    """Id → mode of the participants whose harm ``viewer`` may not see exactly."""
    if viewer.is_gm:
        return {}
    out: dict[str, str] = {}
    modes = (data["conflict"].get("settings") or {}).get(SETTING) or {}  # for every level
    for level in [data["conflict"], *data.get("zoom", [])]:
        for p in level.get("participants", []):
            mode = modes.get(p.get("side"), "exact")
            if mode != "exact" and not p.get("mine"):
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


def masked_names(ruleset: str, viewer: Viewer, data: dict[str, Any]) -> list[str]:
    """The names of the participants ``viewer`` sees no exact harm of (for the log)."""
    masked = _masked_people(data, viewer)
    return [p["name"] for level in [data["conflict"], *data.get("zoom", [])]
            for p in level.get("participants", []) if p["id"] in masked]


def mask_log(ruleset: str, viewer: Viewer, data: dict[str, Any],
             entries: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """The log ``entries`` (with their versions) as :func:`mask_entry` leaves them, for the
    participants the view ``data`` masks."""
    ids = set(_masked_people(data, viewer))
    if not ids:
        return entries
    names = masked_names(ruleset, viewer, data)
    return [(v, mask_entry(e, ids, names)) for v, e in entries]


def mask_entry(entry: dict[str, Any], ids: set[str], names: list[str]) -> dict[str, Any]:
    """A log entry without the harm values of the participants ``ids`` (named ``names``):
    their harm events lose the fields that count harm, and a line naming one of them with a
    number in it is withheld."""
    if not ids:
        return entry
    events = []
    changed = False
    for event in entry.get("events", []):
        data = event.get("data") or {}
        about = {str(data.get(k)) for k in ("target", "participant", "patient", "who")}
        if about & ids and any(f in data for f in HARM_FIELDS):
            event = {**event, "data": {k: v for k, v in data.items() if k not in HARM_FIELDS}}
            changed = True
        events.append(event)
    lines = entry.get("lines")
    kept = lines
    if isinstance(lines, list) and names:
        pattern = re.compile("|".join(re.escape(n) for n in names))
        kept = [line for line in lines if not (pattern.search(line) and re.search(r"\d", line)
                                               and _harm_line(line))]
        changed = changed or kept != lines
    if not changed:
        return entry
    return {**entry, "events": events, **({"lines": kept} if lines is not None else {})}


_HARM_WORDS = re.compile(r"damage|\bHP\b|\bMP\b|heal|recover|\bleft\b|crisis", re.IGNORECASE)


def _harm_line(line: str) -> bool:
    return bool(_HARM_WORDS.search(line))


__all__ = ["BANDS", "MODES", "SETTING", "band", "mask_entry", "mask_log", "mask_view",
           "masked_names", "with_defaults"]
