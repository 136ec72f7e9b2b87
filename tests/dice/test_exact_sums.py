"""The polynomial shortcuts of the exact odds give exactly icepool's own distributions."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from fracas.dice.exact_sums import exploded, sum_power


def _p(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {o: Fraction(q, total) for o, q in die.items() if q}


@pytest.mark.parametrize(("sides", "faces", "depth"),
                         [(2, [2], 20), (6, [6], 3), (6, [5, 6], 1), (10, [1, 10], 4), (4, [4], 0)])
def test_exploded_die_is_icepools_explode(sides: int, faces: list[int], depth: int) -> None:
    want = icepool.d(sides).explode(faces, depth=depth)
    assert _p(exploded(sides, faces, depth)) == _p(want)


@pytest.mark.parametrize("count", [1, 2, 5, 9])
@pytest.mark.parametrize("die", [icepool.d6, icepool.d2.explode([2], depth=5),
                                 icepool.Die({-3: 1, 0: 2, 4: 7})])
def test_sum_power_is_repeated_addition(die: icepool.Die, count: int) -> None:
    want = die
    for _ in range(count - 1):
        want = want + die
    assert _p(sum_power(die, count)) == _p(want)
