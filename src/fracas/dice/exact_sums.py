"""Exact distributions built as integer polynomials, faster than icepool's general operations.

A distribution of whole numbers is a polynomial: the quantity of each outcome is the
coefficient of its power. Two shapes the odds need often are built here directly:

* an exploding die, in closed form over one denominator (``sides ** (depth + 1)``), instead of
  icepool's recursive ``explode``;
* the sum of ``count`` copies of a die, by one big-integer power (Kronecker substitution:
  the coefficients are packed into one integer with room enough that none overflow into the
  next, so CPython's multiplication convolves them all at once).

Both give exactly the distributions icepool gives (``tests/dice/test_exact_sums.py``). A sum
of such dice stays a :class:`WholeDie`, the coefficients themselves, through ``+``, ``-`` and
``*`` (a sum of two dice is one big-integer product too): making an icepool ``Die`` of a few
hundred outcomes costs about half a millisecond, so one is made only where an icepool operation
needs it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any


def _times(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials (coefficient lists, lowest power first)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def exploded(sides: int, faces: list[int], depth: int) -> Any:
    """A d``sides`` that rolls again and adds on each face of ``faces``, at most ``depth``
    extra dice (the last extra die never explodes), as icepool's ``explode`` does."""
    import icepool

    top = set(faces)
    every = [0] + [1] * sides  # t^1 + ... + t^sides
    boom = [0] + [1 if f in top else 0 for f in range(1, sides + 1)]
    stop = [0] + [0 if f in top else 1 for f in range(1, sides + 1)]
    total = [0]
    chain = [1]  # E^j: the chains of j exploding faces so far
    for j in range(depth):  # j explosions, then a face that stops: weight sides^(depth - j)
        weight = sides ** (depth - j)
        part = _times(chain, stop)
        total += [0] * (len(part) - len(total))
        for i, c in enumerate(part):
            total[i] += c * weight
        chain = _times(chain, boom)
    part = _times(chain, every)  # depth explosions: the last extra die is any face
    total += [0] * (len(part) - len(total))
    for i, c in enumerate(part):
        total[i] += c
    return icepool.Die({i: c for i, c in enumerate(total) if c})


def _packed(quantities: list[int], size: int) -> int:
    """Coefficients as one integer, ``size`` bytes each, the lowest power first."""
    return int.from_bytes(b"".join(q.to_bytes(size, "little") for q in quantities), "little")


def _unpacked(packed: int, size: int, count: int) -> list[int]:
    raw = packed.to_bytes(size * count, "little")
    return [int.from_bytes(raw[i * size : (i + 1) * size], "little") for i in range(count)]


def _size(bound: int) -> int:
    """Bytes per coefficient for coefficients of at most ``bound``."""
    return bound.bit_length() // 8 + 1


def _lattice(outcomes: Iterable[int]) -> tuple[int, int]:
    """(least outcome, greatest common step between the outcomes; 0 for a single one)."""
    values = list(outcomes)
    low = min(values)
    step = 0
    for o in values:
        step = math.gcd(step, o - low)
    return low, step


def _dense(quantities: dict[int, int], low: int, step: int) -> list[int]:
    """The quantities of ``low, low + step, ...`` up to the greatest outcome, zeros between."""
    out = [0] * ((max(quantities) - low) // step + 1)
    for o, q in quantities.items():
        out[(o - low) // step] = q
    return out


class WholeDie:
    """A distribution of whole numbers as a mapping outcome → quantity, added and multiplied
    without icepool: two dice whose outcomes lie close enough on a common step are added as one
    big-integer product of their coefficients, sparse ones pair by pair."""

    __slots__ = ("quantities",)

    def __init__(self, quantities: dict[int, int]) -> None:
        self.quantities = quantities  # every quantity positive

    @classmethod
    def of(cls, die: Any) -> WholeDie:
        """An icepool die of whole numbers (or a WholeDie) as a WholeDie."""
        return die if isinstance(die, WholeDie) else cls.from_items(die.items())

    @classmethod
    def from_items(cls, pairs: Iterable[tuple[int, int]]) -> WholeDie:
        """From (outcome, quantity) pairs; an outcome given twice adds its quantities."""
        out: dict[int, int] = {}
        for o, q in pairs:
            if q:
                out[o] = out.get(o, 0) + q
        return cls(out)

    @classmethod
    def constant(cls, value: int) -> WholeDie:
        """The die that always shows ``value``."""
        return cls({value: 1})

    def items(self) -> list[tuple[int, int]]:
        """(outcome, quantity) of every possible outcome, lowest first."""
        return sorted(self.quantities.items())

    def outcomes(self) -> list[int]:
        """Every possible outcome, lowest first."""
        return sorted(self.quantities)

    def denominator(self) -> int:
        """The sum of the quantities."""
        return sum(self.quantities.values())

    def __len__(self) -> int:
        return len(self.quantities)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self.quantities

    def die(self) -> Any:
        """The icepool die."""
        import icepool

        return icepool.Die(dict(self.items()))

    def map(self, fn: Callable[[int], Any]) -> Any:
        """The icepool die of ``fn`` of each outcome (``fn`` gives a number)."""
        import icepool

        out: dict[Any, int] = {}
        for o, q in self.items():
            v = fn(o)
            out[v] = out.get(v, 0) + q
        return icepool.Die(out)

    def regrouped(self, fn: Callable[[int], int]) -> WholeDie:
        """The WholeDie of ``fn`` of each outcome (``fn`` gives a whole number)."""
        return WholeDie.from_items((fn(o), q) for o, q in self.quantities.items())

    def __add__(self, other: object) -> WholeDie:
        if type(other) is int:
            return WholeDie({o + other: q for o, q in self.quantities.items()})
        if not isinstance(other, WholeDie):
            return NotImplemented
        a, b = self.quantities, other.quantities
        low_a, step_a = _lattice(a)
        low_b, step_b = _lattice(b)
        step = math.gcd(step_a, step_b) or 1
        span = (max(a) - low_a + max(b) - low_b) // step + 2  # the coefficients of both
        if len(a) * len(b) <= 64 or span > 8 * (len(a) + len(b)) + 1024:
            out: dict[int, int] = {}
            for o, q in a.items():
                for p, r in b.items():
                    out[o + p] = out.get(o + p, 0) + q * r
            return WholeDie(out)
        dense_a, dense_b = _dense(a, low_a, step), _dense(b, low_b, step)
        size = _size(sum(a.values()) * sum(b.values()))
        packed = _packed(dense_a, size) * _packed(dense_b, size)
        coefficients = _unpacked(packed, size, len(dense_a) + len(dense_b) - 1)
        low = low_a + low_b
        return WholeDie({low + i * step: q for i, q in enumerate(coefficients) if q})

    __radd__ = __add__

    def __neg__(self) -> WholeDie:
        return WholeDie({-o: q for o, q in self.quantities.items()})

    def __sub__(self, other: object) -> WholeDie:
        if type(other) is not int and not isinstance(other, WholeDie):
            return NotImplemented
        return self + -other

    def __rsub__(self, other: object) -> WholeDie:
        if type(other) is not int:
            return NotImplemented
        return -self + other

    def __mul__(self, other: object) -> WholeDie:
        if type(other) is int:
            if other == 0:
                return WholeDie.constant(0) if self.quantities else self
            return WholeDie({o * other: q for o, q in self.quantities.items()})
        if not isinstance(other, WholeDie):
            return NotImplemented
        return WholeDie.from_items((o * p, q * r) for o, q in self.quantities.items()
                                   for p, r in other.quantities.items())

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"WholeDie({self.items()})"


def power_bits(die: Any, count: int) -> int:
    """The bits of the big integer :func:`sum_power` raises (the cost of the sum grows with
    them: as many coefficients as totals, each as long as the ``count``-th power of the
    denominator)."""
    whole = WholeDie.of(die)
    if count <= 1:
        return 0
    low, step = _lattice(whole.quantities)
    span = (max(whole.quantities) - low) // (step or 1)
    return (count * span + 1) * (whole.denominator().bit_length() * count // 8 + 1) * 8


def sum_power(die: Any, count: int) -> WholeDie:
    """The sum of ``count`` independent copies of a die of whole numbers."""
    whole = WholeDie.of(die)
    if count == 1:
        return whole
    low, step = _lattice(whole.quantities)
    step = step or 1
    quantities = _dense(whole.quantities, low, step)
    size = _size(sum(quantities) ** count)  # no coefficient overflows into the next
    power = _unpacked(_packed(quantities, size) ** count, size,
                      count * (len(quantities) - 1) + 1)
    return WholeDie({count * low + i * step: q for i, q in enumerate(power) if q})
