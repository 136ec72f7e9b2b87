"""Golden dice: the exact faces a seed gives. A change here breaks every stored replay."""

from __future__ import annotations

import pytest

from fracas.dice import DiceRng, roll


@pytest.mark.parametrize(
    ("expr", "dice", "total"),
    [
        ("4d6kh3+2", [4, 3, 3, 6], 15),
        ("10d10>=7", [10, 5, 6, 10, 10, 5, 10, 8, 5, 10], 6),
        ("3d6!", [4, 3, 3], 10),
        ("{d8+d10}+1", [8, 4], 13),
        ("d20", [5], 5),
    ],
)
def test_golden_dice_of_a_fixed_seed(expr: str, dice: list[int], total: int) -> None:
    r = roll(expr, DiceRng.derive("golden", 1))
    assert r.dice == dice
    assert r.total == total


def test_golden_below() -> None:
    rng = DiceRng.derive("golden", 1)
    assert [rng.below(n) for n in (2, 6, 1000)] == [1, 1, 681]
    assert rng.below(2**300) == int(
        "1995005084178469119699511693666567228007867671889879495383412370539386059145491767586388258"
    )


def test_dice_is_repeated_die() -> None:
    a, b = DiceRng.derive(7, 3), DiceRng.derive(7, 3)
    assert a.dice(50, 6) == [b.die(6) for _ in range(50)]
    assert a.dice(5, 1000) == [b.die(1000) for _ in range(5)]


def test_int_and_str_seeds_agree_and_streams_differ() -> None:
    assert DiceRng.derive(42, 1).dice(20, 20) == DiceRng.derive("42", 1).dice(20, 20)
    assert DiceRng.derive(42, 1).dice(20, 20) != DiceRng.derive(42, 2).dice(20, 20)


def test_below_rejects_non_positive_bound() -> None:
    with pytest.raises(ValueError):
        DiceRng.derive("x").below(0)
