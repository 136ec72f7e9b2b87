"""Values of the exact odds held as whole numbers over one denominator (``x / scale``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


def _denominator(value: Any) -> int:
    """The least common denominator of a number's or a die's outcomes."""
    import icepool

    den = 1
    for o in value.outcomes() if isinstance(value, icepool.Die) else (value,):
        if type(o) is not int:
            den = math.lcm(den, o.denominator)
    return den


def _times(value: Any, k: int) -> Any:
    """A number or a die of numbers times ``k``."""
    import icepool

    if k == 1:
        return value
    if isinstance(value, icepool.Die):
        return value.map(lambda v: int(v * k))
    return int(value * k)


@dataclass(frozen=True, slots=True)
class Scaled:
    """A value held as whole numbers over one denominator, ``x / scale`` (``x`` an int or a
    die of ints): icepool adds Fractions far slower than ints, and ``/ 2`` is then free."""

    x: Any
    scale: int

    @classmethod
    def of(cls, value: Any) -> Scaled:
        if isinstance(value, Scaled):
            return value
        den = _denominator(value)
        return cls(_times(value, den), den)

    def combine(self, op: str, other: Scaled) -> Any:
        """``self op other`` for ``+ - *``."""
        if op == "*":
            return Scaled(self.x * other.x, self.scale * other.scale).simplest()
        unit = math.lcm(self.scale, other.scale)
        x, y = _times(self.x, unit // self.scale), _times(other.x, unit // other.scale)
        return Scaled(x + y if op == "+" else x - y, unit).simplest()

    def simplest(self) -> Any:
        """Plain whole numbers when the denominator is 1."""
        return self.x if self.scale == 1 else self

    def value(self) -> Any:
        """The number or die of exact values (Fractions where not whole)."""
        import icepool

        scale = self.scale
        if isinstance(self.x, icepool.Die):
            return self.x.map(lambda v: Fraction(v, scale) if v % scale else v // scale)
        return Fraction(self.x, scale) if self.x % scale else self.x // scale

    def totals(self) -> Any:
        """The die of totals: each value rounded toward zero."""
        import icepool

        scale = self.scale
        if not isinstance(self.x, icepool.Die):
            return icepool.Die([_toward_zero(self.x, scale)])
        return self.x.map(lambda v: _toward_zero(v, scale))


def _toward_zero(v: int, scale: int) -> int:
    return v // scale if v >= 0 else -(-v // scale)
