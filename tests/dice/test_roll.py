"""Rolling, the roll tree, text forms, table dice and stored rolls."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from fracas.dice import (
    DiceRng,
    Roll,
    TableDiceError,
    from_table,
    parse,
    parse_dice_list,
    roll,
)


def test_keep_highest_text_matches_issue_example() -> None:
    r = from_table("4d6kh3+2", [6, 5, 3, 1])
    assert r.total == 16
    assert r.kept() == [6, 5, 3]
    assert r.to_text() == "4d6kh3+2 → [6, 5, 3, ~~1~~] + 2 = 16"


@pytest.mark.parametrize(
    ("expr", "dice", "total", "kept"),
    [
        ("4d6kl1", [6, 5, 3, 1], 1, [1]),
        ("4d6dh1", [6, 5, 3, 1], 9, [5, 3, 1]),
        ("4d6dl1", [6, 5, 3, 1], 14, [6, 5, 3]),
        ("4d6kh2", [4, 6, 4, 4], 10, [4, 6]),  # ties keep the earlier die
        ("2d20kl1+5", [17, 3], 8, [3]),
    ],
)
def test_keep_and_drop(expr: str, dice: list[int], total: int, kept: list[int]) -> None:
    r = from_table(expr, dice)
    assert r.total == total
    assert r.kept() == kept


@pytest.mark.parametrize(
    ("expr", "dice", "kept"),
    [  # the fast keeps and drops of one die keep the dice the general steps keep, ties included
        ("4d6kh3", [3, 5, 3, 6], [3, 5, 6]),  # the later of the lowest is dropped
        ("4d6dl1", [3, 5, 3, 6], [3, 5, 6]),
        ("4d6kl3", [6, 5, 3, 6], [6, 5, 3]),  # the later of the highest is dropped
        ("4d6dh1", [6, 5, 3, 6], [6, 5, 3]),
        ("4d6ph1", [6, 5, 3, 6], [5, 3, 6]),  # 'p' drops the earlier of the highest
        ("4d6pl1", [3, 5, 3, 6], [5, 3, 6]),
        ("3d20kh1", [4, 19, 19], [19]),
        ("(1d20, 1d20)kh1", [7, 15], [7, 15]),  # a set's dice stay kept; its value is 15
    ],
)
def test_keeping_or_dropping_one_die_breaks_ties_by_roll_order(
    expr: str, dice: list[int], kept: list[int]
) -> None:
    r = from_table(expr, dice)
    assert r.kept() == kept
    assert [d.face for g in r.groups for d in g.dice if d.kept] == kept


@pytest.mark.parametrize(
    ("expr", "dice", "value", "total"),
    [  # a constant with a fraction at the top of the sum is added exactly, then rounded to 0
        ("15 / 2 + 1d4", [3], Fraction(21, 2), 10),
        ("1d4 - 7.5", [1], Fraction(-13, 2), -6),
        ("0.5 - 1d4", [4], Fraction(-7, 2), -3),
        ("1d4 / 2 + 0.25", [3], Fraction(7, 4), 1),
        ("(1d4 + 0.5) + 1.5", [2], Fraction(4), 4),
    ],
)
def test_fractional_constants_keep_the_exact_value(
    expr: str, dice: list[int], value: Fraction, total: int
) -> None:
    r = from_table(expr, dice)
    assert (r.value, r.total) == (value, total)
    assert r.to_data()["total"] == total


def test_success_counting_total_is_number_of_successes() -> None:
    r = from_table("10d10>=7", [7, 1, 10, 6, 9, 2, 3, 4, 5, 8])
    assert r.total == 4
    assert r.to_text() == "10d10>=7 → [**7**, 1, **10**, 6, **9**, 2, 3, 4, 5, **8**] = 4"
    assert from_table("5d6<=2", [1, 2, 3, 6, 2]).total == 3
    assert from_table("4d10kh2>=7", [9, 8, 10, 1]).total == 2


def test_explosion_adds_a_die_per_exploding_face() -> None:
    r = from_table("3d6!", [6, 6, 2, 3, 4])
    assert r.total == 21
    assert r.to_text() == "3d6! → [6!, 6!, 2, 3, 4] = 21"
    assert [d.face for d in r.die_results()] == [14, 3, 4]
    assert r.die_results()[0].exploded and not r.die_results()[1].exploded
    assert from_table("2d10!>=9", [9, 1, 10, 10, 2]).total == 32


def test_explosion_chain_stops_at_twenty_extra_dice() -> None:
    dice = [6] * 21 + [3]
    r = from_table("2d6!", dice)
    assert r.total == 6 * 21 + 3
    assert from_table("d6!", [6] * 21).total == 126
    with pytest.raises(TableDiceError, match="needs 21 dice"):
        from_table("d6!", [6] * 22)


def test_exploded_chain_sums_before_keeping() -> None:
    r = from_table("2d6!kh1", [6, 1, 5])
    assert r.total == 7
    assert r.to_text() == "2d6!kh1 → [6!, 1, ~~5~~] = 7"


def test_check_dice_expose_faces_sizes_high_roll_and_doubles() -> None:
    r = from_table("{d8 + d10} + 1", [7, 7])
    check = r.check()
    assert check.faces == (7, 7)
    assert check.sizes == (8, 10)
    assert check.high_roll == 7
    assert check.doubles
    assert r.total == 15
    assert r.to_text() == "{d8+d10}+1 → {[7] + [7]} + 1 = 15"
    other = from_table("d8+d10", [2, 9]).check()
    assert (other.high_roll, other.doubles) == (9, False)


def test_arithmetic() -> None:
    assert from_table("2*(d4-1)", [3]).total == 4
    assert from_table("-d6+10", [4]).total == 6
    assert from_table("3", []).total == 3


def test_table_dice_count_and_faces_are_checked() -> None:
    with pytest.raises(TableDiceError, match=r"3d6 needs 3 dice, got 2: \[4, 5\]"):
        from_table("3d6", [4, 5])
    with pytest.raises(TableDiceError, match="a d6 shows 1 to 6"):
        from_table("3d6", [4, 5, 7])
    with pytest.raises(TableDiceError, match="d8"):
        from_table("d8+d10", [9, 9])
    assert from_table("d8+d10", [8, 9]).total == 17
    with pytest.raises(TableDiceError, match="needs more"):
        from_table("3d6!", [6, 1, 1])  # the 6 needs an extra die
    with pytest.raises(TableDiceError, match="needs 3 dice"):
        from_table("3d6!", [5, 1, 1, 2])  # no explosion, so no extra die
    with pytest.raises(TableDiceError):
        from_table("d6", [True])


def test_parse_dice_list() -> None:
    assert parse_dice_list("5,6,2") == [5, 6, 2]
    assert parse_dice_list(" 5, 6 ,2 ") == [5, 6, 2]
    assert parse_dice_list("5 6 2") == [5, 6, 2]
    for bad, fragment in [
        ("", "no dice"),
        ("5,,6", "empty entry at position 2"),
        ("5,x", "'x' at position 2"),
        ("5,-1", "'-1' at position 2"),
        ("0", "dice show 1 or more"),
        ("5,", "empty entry"),
    ]:
        with pytest.raises(TableDiceError, match=fragment):
            parse_dice_list(bad)


def test_to_data_is_json_and_round_trips() -> None:
    r = roll("4d6kh3+2", DiceRng.derive("s", 4))
    data = json.loads(json.dumps(r.to_data()))
    assert data == {"expression": "4d6kh3+2", "dice": r.dice, "total": r.total}
    back = Roll.from_data(data)
    assert back == r
    assert back.to_text() == r.to_text()


def test_from_data_refuses_tampered_total_or_dice() -> None:
    with pytest.raises(TableDiceError, match="does not match"):
        Roll.from_data({"expression": "2d6", "dice": [1, 2], "total": 12})
    with pytest.raises(TableDiceError):
        Roll.from_data({"expression": "2d6", "dice": "1,2"})
    with pytest.raises(TableDiceError):
        Roll.from_data({"dice": [1, 2]})


def test_roll_accepts_a_parsed_expression() -> None:
    e = parse("3d6")
    assert roll(e, DiceRng.derive("a", 1)) == roll("3d6", DiceRng.derive("a", 1))
