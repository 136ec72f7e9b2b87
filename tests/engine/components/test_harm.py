"""Tests for condition ladders and resource pools."""

from __future__ import annotations

import pytest

from fracas.engine.components import ConditionLadder, ResourcePool, ladder_from_spec
from fracas.errors import IllegalCommand, InvalidInput

INJURY = [
    ("grazed", 2, 0, 0, False),
    ("wounded", 2, 3, -1, True),
    ("impaired", 1, 6, -2, False),
    ("disabled", 1, 9, -4, False),
]


def _injury() -> ConditionLadder:
    return ladder_from_spec(INJURY)


def test_level_for_bands() -> None:
    ladder = _injury()
    assert ladder.level_for(-1) is None
    assert [ladder.level_for(v) for v in (0, 2, 3, 5, 6, 8, 9, 30)] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_value_below_zero_nothing() -> None:
    ladder = _injury()
    result = ladder.take(-2, "scratch")
    assert result.level is None and not result.upgraded and not result.taken_out
    assert ladder.total() == 0 and ladder.highest() is None


def test_third_graze_upgrades_to_wounded() -> None:
    ladder = _injury()
    assert ladder.take(1, "g1").level == 0
    assert ladder.take(2, "g2").level == 0
    assert ladder.is_full(0)
    third = ladder.take(0, "g3")
    assert (third.level, third.landed, third.upgraded) == (1, 0, True)
    assert ladder.marks == [["g1", "g2"], ["g3"], [], []]


def test_full_top_level_takes_out() -> None:
    ladder = _injury()
    first = ladder.take(9, "d1")
    assert first.level == 3 and not first.taken_out
    second = ladder.take(10, "d2")
    assert second.taken_out and second.level is None and ladder.taken_out
    assert ladder.take(0, "more").taken_out  # stays out


def test_upgrade_skips_to_free_slot_then_out() -> None:
    ladder = _injury()
    ladder.take(6, "i1")  # impaired full
    r = ladder.take(7, "i2")
    assert r.level == 3 and r.upgraded
    r = ladder.take(6, "i3")
    assert r.taken_out


def test_taken_out_when_full_option() -> None:
    ladder = ladder_from_spec(INJURY, taken_out_when_full=True)
    assert ladder.take(9, "d").taken_out


def test_penalties_and_removal() -> None:
    ladder = _injury()
    for v in (3, 4, 6):
        ladder.take(v, str(v))
    assert ladder.total_penalty() == -1 * 2 + -2
    assert ladder.highest() == 2 and ladder.highest_name() == "impaired"
    ladder.check_remove()
    assert ladder.remove_highest() == "6"
    assert ladder.remove(1) == "4"
    assert ladder.remove(0) is None
    assert ladder.remove(17) is None
    assert ladder.count(1) == 1 and ladder.total_penalty() == -1
    ladder.clear()
    with pytest.raises(IllegalCommand) as err:
        ladder.check_remove(rule="VR-INJ-4", owner="ada", names={"ada": "Ada"})
    assert "Ada has no conditions" in str(err.value)


@pytest.mark.parametrize(
    "spec",
    [
        [],
        [("a", 0, 0, 0)],
        [("a", 1, 3, 0), ("b", 1, 3, 0)],
        [("a", 1)],
        [("a", "1", 0, 0)],
    ],
)
def test_bad_spec_refused(spec: list[tuple[str | int | bool, ...]]) -> None:
    with pytest.raises(InvalidInput):
        ladder_from_spec(spec)


def test_pool_at_zero() -> None:
    pool = ResourcePool(current=0, maximum=10)
    assert pool.is_empty
    assert pool.damage(5) == 0 and pool.current == 0
    with pytest.raises(IllegalCommand) as err:
        pool.check_spend(1, rule="FU-RES-1", what="MP", owner="ada")
    assert "only 0 MP" in str(err.value)
    pool.check_spend(0)


def test_pool_heal_past_max_and_damage() -> None:
    pool = ResourcePool(current=8, maximum=10)
    assert pool.heal(5) == 2 and pool.current == 10 and pool.is_full
    assert pool.damage(4) == 4 and pool.current == 6
    assert pool.damage(100) == 6 and pool.is_empty
    pool.set(42)
    assert pool.current == 10
    pool.set(-3)
    assert pool.current == 0
    with pytest.raises(InvalidInput):
        pool.check_spend(-1)
    pool.set(7)
    pool.set_maximum(5)
    assert (pool.current, pool.maximum) == (5, 5)


def test_pool_floor() -> None:
    pool = ResourcePool(current=3, maximum=6, floor=1)
    assert pool.available == 2
    with pytest.raises(IllegalCommand):
        pool.check_spend(3)
    assert pool.spend(5) == 2 and pool.is_empty
