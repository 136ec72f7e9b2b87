"""Fabula Ultima (unofficial): group initiative, alternating sides, HP/MP with Crisis."""

from fracas.rulesets.fabula_ultima.ruleset import FabulaUltima

__all__ = ["FabulaUltima"]
