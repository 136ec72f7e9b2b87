"""Values of the exact odds held as whole numbers over one denominator (``x / scale``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.dice.exact_sums import WholeDie


def _denominator(value: Any) -> int:
    """The least common denominator of a number's or a die's outcomes."""
    if type(value) is int or isinstance(value, WholeDie):
        return 1
    den = 1
    for o in value.outcomes() if hasattr(value, "outcomes") else (value,):
        if type(o) is not int:
            den = math.lcm(den, o.denominator)
    return den


def _whole(value: Any, k: int) -> Any:
    """A number or a die of numbers times ``k``, whose values are then whole: an int or a
    WholeDie."""
    if type(value) is int or isinstance(value, WholeDie):
        return value * k
    if hasattr(value, "items"):  # an icepool die
        return WholeDie.from_items((int(o * k), q) for o, q in value.items())
    return int(value * k)


@dataclass(frozen=True, slots=True)
class Scaled:
    """A value held as whole numbers over one denominator, ``x / scale`` (``x`` an int or a
    :class:`WholeDie`): icepool adds Fractions far slower than ints, and ``/ 2`` is then free."""

    x: Any
    scale: int

    @classmethod
    def of(cls, value: Any) -> Scaled:
        """A number or die as whole numbers over their least common denominator."""
        if isinstance(value, Scaled):
            return value
        den = _denominator(value)
        return cls(_whole(value, den), den)

    def combine(self, op: str, other: Scaled) -> Any:
        """``self op other`` for ``+ - *``."""
        if op == "*":
            return Scaled(self.x * other.x, self.scale * other.scale).simplest()
        unit = math.lcm(self.scale, other.scale)
        x, y = self.x * (unit // self.scale), other.x * (unit // other.scale)
        return Scaled(x + y if op == "+" else x - y, unit).simplest()

    def simplest(self) -> Any:
        """Plain whole numbers when the denominator is 1."""
        return self.x if self.scale == 1 else self

    def value(self) -> Any:
        """The number or (icepool) die of exact values (Fractions where not whole)."""
        scale = self.scale
        if isinstance(self.x, WholeDie):
            return self.x.map(lambda v: Fraction(v, scale) if v % scale else v // scale)
        return Fraction(self.x, scale) if self.x % scale else self.x // scale

    def totals(self) -> WholeDie:
        """The die of totals: each value rounded toward zero."""
        scale = self.scale
        if not isinstance(self.x, WholeDie):
            return WholeDie.constant(_toward_zero(self.x, scale))
        return self.x.regrouped(lambda v: _toward_zero(v, scale))


def _toward_zero(v: int, scale: int) -> int:
    return v // scale if v >= 0 else -(-v // scale)
