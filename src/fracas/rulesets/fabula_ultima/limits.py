"""The ranges of the Fabula Ultima stats fracas counts with (docs/limits.md)."""

from __future__ import annotations

STAT_RANGES: dict[str, tuple[int, int]] = {
    "hp": (0, 9_999), "mp": (0, 9_999), "ip": (0, 99), "fp": (0, 99),
    "defense": (0, 50), "mdef": (0, 50), "init_mod": (-50, 50), "initiative": (-50, 100),
    "bonds.*": (0, 10),
}
