"""The ranges of the VERS stats fracas counts with (docs/limits.md)."""

from __future__ import annotations

from fracas.rulesets.vers.state import ATTRIBUTES

STAT_RANGES: dict[str, tuple[int, int]] = {
    **{attr: (0, 20) for attr in ATTRIBUTES},
    "skills.*": (0, 20), "tn.*": (0, 40), "rv": (0, 20), "focus_rv": (0, 20),
    "morale_rv": (0, 20), "reach": (-10, 10),  # below 0: a shorter reach (VR-ATK-4)
    "dodge": (0, 40), "resolve": (0, 40), "poise": (0, 40), "weapons.*.ev": (0, 100),
}

#: The most slots an object's condition may have (VR-OBJ-2: by its size).
MAX_OBJECT_SLOTS = 20
