"""An exact distribution of integer totals: what an odds query answers."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterator, Mapping
from fractions import Fraction


class Distribution:
    """An exact probability distribution of integer totals.

    Held as integer quantities over one denominator with prefix sums, so ``p_at_least`` and
    ``p_at_most`` are a bisection and one Fraction each.
    """

    __slots__ = (
        "_cum",
        "_den",
        "_outcomes",
        "_quantities",
        "explode_depth",
        "expression",
        "truncated",
    )

    def __init__(
        self,
        probabilities: Mapping[int, Fraction],
        *,
        expression: str = "",
        truncated: Fraction = Fraction(0),
        explode_depth: int | None = None,
    ) -> None:
        den = math.lcm(*(p.denominator for p in probabilities.values())) if probabilities else 1
        pairs = sorted(probabilities.items())
        self._set([o for o, _ in pairs], [int(p * den) for _, p in pairs], den)
        self.expression = expression
        self.truncated = truncated
        self.explode_depth = explode_depth

    def _set(self, outcomes: list[int], quantities: list[int], denominator: int) -> None:
        self._outcomes = outcomes
        self._quantities = quantities
        self._den = denominator
        self._cum = [0, *itertools.accumulate(quantities)]

    @classmethod
    def _from_quantities(
        cls,
        outcomes: list[int],
        quantities: list[int],
        denominator: int,
        *,
        expression: str,
        truncated: Fraction,
        explode_depth: int | None,
    ) -> Distribution:
        self = cls.__new__(cls)
        self._set(outcomes, quantities, denominator)
        self.expression = expression
        self.truncated = truncated
        self.explode_depth = explode_depth
        return self

    def items(self) -> list[tuple[int, Fraction]]:
        """(total, probability) pairs in increasing total."""
        den = self._den
        return [
            (o, Fraction(q, den)) for o, q in zip(self._outcomes, self._quantities, strict=True)
        ]

    def to_dict(self) -> dict[int, Fraction]:
        """A plain dict total → probability."""
        return dict(self.items())

    def __getitem__(self, total: int) -> Fraction:
        i = bisect.bisect_left(self._outcomes, total)
        if i < len(self._outcomes) and self._outcomes[i] == total:
            return Fraction(self._quantities[i], self._den)
        return Fraction(0)

    def __len__(self) -> int:
        return len(self._outcomes)

    def __iter__(self) -> Iterator[int]:
        return iter(self._outcomes)

    def p_exactly(self, x: int) -> Fraction:
        """P(total = x)."""
        return self[x]

    def p_at_least(self, x: int) -> Fraction:
        """P(total ≥ x)."""
        i = bisect.bisect_left(self._outcomes, x)
        return Fraction(self._cum[-1] - self._cum[i], self._den)

    def p_at_most(self, x: int) -> Fraction:
        """P(total ≤ x)."""
        return Fraction(self._cum[bisect.bisect_right(self._outcomes, x)], self._den)

    @property
    def mean(self) -> Fraction:
        """The expected total."""
        weighted = sum(o * q for o, q in zip(self._outcomes, self._quantities, strict=True))
        return Fraction(weighted, self._den)

    @property
    def min(self) -> int:
        """The least possible total."""
        return self._outcomes[0]

    @property
    def max(self) -> int:
        """The greatest possible total."""
        return self._outcomes[-1]

    def __repr__(self) -> str:
        return f"Distribution({self.expression!r}, {len(self)} outcomes)"
