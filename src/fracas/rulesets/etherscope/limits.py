"""The ranges of the Etherscope stats fracas counts with (docs/limits.md)."""

from __future__ import annotations

#: Most dice in one pool a roll is made with: a command's ``pool=`` and an odds query's
#: ``pool N`` alike (a sheet's ratings stay far below: ``STAT_RANGES``).
MAX_POOL = 200

STAT_RANGES: dict[str, tuple[int, int]] = {
    "physical": (0, 100), "ether": (0, 100), "society": (0, 100), "awareness": (0, 30),
    "skills.*": (0, 30), "pool": (0, 30),
}
