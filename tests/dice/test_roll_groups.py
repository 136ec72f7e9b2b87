"""The roll tree a renderer draws (``Roll.groups``) agrees with the total; an expression prints
as typed; a stored roll is re-evaluated from its dice, and refused when they are not whole
numbers."""

from __future__ import annotations

import pytest

from fracas.dice import Roll, from_table, parse
from fracas.dice.errors import TableDiceError


def test_a_success_pool_counts_its_successes_and_marks_each_die() -> None:
    r = from_table("4d6kh3>=5", [5, 2, 6, 6])
    (g,) = r.groups
    assert g.notation == "4d6kh3>=5" and g.value == 3 == r.total
    assert [(d.face, d.kept, d.success) for d in g.dice] == [
        (5, True, True), (2, False, False), (6, True, True), (6, True, True)]


def test_a_roll_under_pool_counts_faces_at_most_the_target() -> None:
    (g,) = from_table("3d10<=4", [4, 5, 1]).groups
    assert g.value == 2 and [d.success for d in g.dice] == [True, False, True]


def test_a_sum_group_adds_its_kept_dice_and_explosions_chain() -> None:
    r = from_table("4d6kh3+2", [6, 5, 3, 1])
    (g,) = r.groups
    assert g.value == 14 and r.total == 16
    assert [d.kept for d in g.dice] == [True, True, True, False]
    assert all(d.success is None for d in g.dice)
    (x,) = from_table("2d6!", [6, 2, 3]).groups
    assert x.value == 11
    assert [(d.faces, d.exploded) for d in x.dice] == [((6, 2), True), ((3,), False)]


@pytest.mark.parametrize(("expr", "dice", "const"),
                         [("2d8+1d4", [3, 8, 2], 0), ("3d6-2", [1, 1, 1], -2), ("d20+5", [7], 5)])
def test_group_values_and_constants_make_the_total(expr: str, dice: list[int], const: int) -> None:
    r = from_table(expr, dice)
    assert sum(g.value for g in r.groups) + const == r.total


def test_an_expression_prints_as_typed() -> None:
    assert str(parse("4d6kh3+2")) == "4d6kh3+2"
    assert f"{parse('{d8+d10}+1')}" == "{d8+d10}+1"


def test_a_stored_roll_without_its_total_is_re_evaluated() -> None:
    back = Roll.from_data({"expression": "2d6+1", "dice": [3, 4]})
    assert back.total == 8 and back.dice == [3, 4]


@pytest.mark.parametrize("dice", [[1, True], [1, "2"], [1, 2.0], "1,2", None])
def test_a_stored_roll_with_dice_that_are_not_whole_numbers_is_refused(dice: object) -> None:
    with pytest.raises(TableDiceError, match="list of whole numbers"):
        Roll.from_data({"expression": "2d6", "dice": dice})
