"""The two plan families roll alike: the lean plan of a roll (its total and kept dice) and the
breakdown plan that rebuilds each die from the faces draw the same dice in the same order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import DiceRng, from_table, parse, roll
from tests.dice.grammar import expressions


@settings(max_examples=300)
@given(expressions("fracas") | expressions("d20"), st.integers(0, 2**32))
def test_breakdown_plan_draws_the_lean_plans_dice_and_total(expr: str, seed: int) -> None:
    e = parse(expr)
    r = roll(e, DiceRng.derive(seed, 1))
    faces: list[int] = []
    groups: list[object] = []
    total = e.breakdown_plan()(DiceRng.derive(seed, 1), faces, groups)
    assert faces == r.dice
    assert total == r.value
    assert r.kept() == [d.face for g in r.groups for d in g.dice if d.kept]


@pytest.mark.parametrize(
    ("expr", "faces", "kept", "total"),
    [
        ("2d6pl1", [3, 3], [3], 3),  # the earlier of equal dice is dropped
        ("2d6ph1", [3, 3], [3], 3),
        ("3d6kh2", [4, 6, 4], [4, 6], 10),  # the earlier of equal dice is kept
        ("3d6kl1", [5, 2, 2], [2], 2),
        ("3d6dh1", [4, 4, 1], [4, 1], 5),
        ("4d6kh3kl1", [5, 2, 6, 5], [5, 2, 6, 5], 18),  # selectors of one 'k' select together
        ("(4d6kh3)kl1", [5, 2, 6, 5], [5], 5),
        ("2d6ro<3", [1, 5, 6], [6, 5], 11),
        ("1d6rr<3", [1, 2, 4], [4], 4),
        ("1d6ra6", [6, 3], [6, 3], 9),
        ("3d6e6kh2", [6, 1, 2, 6, 4], [6, 6], 12),
        ("8d6mi2k>3", [1, 4, 2, 6, 3, 5, 1, 4], [4, 6, 5, 4], 19),
        ("(1d20, 1d20)kh1", [7, 15], [7, 15], 15),
        ("((10d6kh5)kl2)kh1", [6, 1, 5, 2, 4, 3, 6, 2, 5, 1], [5], 5),
        ("4d6p<2c>3", [1, 4, 6, 3], [4, 6, 3], 2),
        ("d20:2d1ma0c>=0", [1, 1], [0, 0], 2),  # a clamp below every face is still counted
        ("(1d6, 1d6, 1d6)kh2c>3", [2, 5, 6], [2, 5, 6], 2),  # a set's count after its keep
        ("(1d6, 1d6)c>3", [4, 5], [4, 5], 2),  # a set's count alone (it once rolled again)
    ],
)
def test_lean_and_breakdown_agree_on_ties_and_added_dice(
    expr: str, faces: list[int], kept: list[int], total: int
) -> None:
    r = from_table(expr, faces)
    assert (r.kept(), r.total) == (kept, total)
    assert [d.face for g in r.groups for d in g.dice if d.kept] == kept
