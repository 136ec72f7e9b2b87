"""The ranges of the Fabula Ultima stats fracas counts with (docs/limits.md)."""

from __future__ import annotations

#: The most soldiers a champion may replace (its turns per round, FU-CON-9).
MAX_REPLACED = 20

STAT_RANGES: dict[str, tuple[int, int]] = {
    "hp": (0, 9_999), "mp": (0, 9_999), "ip": (0, 99), "fp": (0, 99),
    "defense": (0, 50), "mdef": (0, 50), "init_mod": (-50, 50), "initiative": (-50, 100),
    "bonds.*": (0, 10), "replaces": (1, MAX_REPLACED),
}
