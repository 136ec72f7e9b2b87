"""The polynomial shortcuts of the exact odds give exactly icepool's own distributions."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from fracas.dice.exact_sums import WholeDie, exploded, sum_power


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


DICE = [icepool.d6, icepool.d2.explode([2], depth=20), icepool.Die({-3: 1, 0: 2, 4: 7}),
        icepool.Die({0: 1, 1_000_000: 3}), 3 @ icepool.d8 * 4, icepool.d100 * 1_000_000]


@pytest.mark.parametrize("a", DICE)
@pytest.mark.parametrize("b", [*DICE, 5, -2])
def test_whole_die_arithmetic_is_icepools(a: icepool.Die, b: icepool.Die | int) -> None:
    # dense dice go through one big-integer product, sparse or tiny ones pair by pair
    x = WholeDie.of(a)
    y = b if isinstance(b, int) else WholeDie.of(b)
    assert _p(x + y) == _p(a + b)
    assert _p(y + x) == _p(b + a)
    assert _p(x - y) == _p(a - b)
    assert _p(y - x) == _p(b - a)
    assert _p(x * y) == _p(a * b)
    assert _p(-x) == _p(-a)
    assert _p(x * 0) == {0: 1}


def test_whole_die_regrouping_and_membership() -> None:
    x = WholeDie.of(icepool.d6 - 3)
    assert _p(x.regrouped(lambda v: v // 2)) == _p((icepool.d6 - 3).map(lambda v: v // 2))
    assert (-2 in x, 4 in x, len(x)) == (True, False, 6)
    assert _p(x.die()) == _p(icepool.d6 - 3)
