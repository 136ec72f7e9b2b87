"""The d20 / Avrae operations, the two readings, annotations, and their hostile-input budgets."""

from __future__ import annotations

import re
from fractions import Fraction

import icepool
import pytest

from fracas.dice import (
    DiceBudgetError,
    DiceRng,
    DiceSyntaxError,
    OddsBudgetError,
    Roll,
    distribution,
    from_table,
    parse,
    roll,
)
from tests.dice.work import icepool_calls


@pytest.mark.parametrize(
    ("expr", "dice", "total", "text"),
    [
        ("2d6ro<3", [1, 5, 4], 9, "2d6ro<3 → [~~1~~, 4, 5] = 9"),
        ("1d20ro1", [1, 1], 1, "1d20ro1 → [~~1~~, 1] = 1"),
        ("1d20rr<3", [1, 2, 7], 7, "1d20rr<3 → [~~1~~, ~~2~~, 7] = 7"),
        ("1d6ra6", [6, 4], 10, "1d6ra6 → [6!, 4] = 10"),
        ("1d20mi10", [3], 10, "1d20mi10 → [3→10] = 10"),
        ("8d6mi2k>3", [1, 2, 3, 4, 5, 6, 1, 6], 21,
         "8d6mi2k>3 → [~~1→2~~, ~~2~~, ~~3~~, 4, 5, 6, ~~1→2~~, 6] = 21"),
        ("4d6e6kh3", [6, 2, 3, 1, 5], 14, "4d6e6kh3 → [6!, ~~2~~, 3, ~~1~~, 5] = 14"),
        ("4d6!kh3", [6, 2, 3, 1, 5], 16, "4d6!kh3 → [6!, 2, 3, ~~1~~, 5] = 16"),
        ("4d6kh3kl1", [6, 5, 3, 1], 15, "4d6kh3kl1 → [6, 5, 3, 1] = 15"),
        ("4d6p<3", [6, 2, 3, 1], 9, "4d6p<3 → [6, ~~2~~, 3, ~~1~~] = 9"),
        ("4d6k6", [6, 2, 6, 1], 12, "4d6k6 → [6, ~~2~~, 6, ~~1~~] = 12"),
        ("4d12kh5", [1, 2, 3, 4], 10, "4d12kh5 → [1, 2, 3, 4] = 10"),
        ("(1d4+1, 3, 2d6kl1)kh1", [2, 6, 5], 5,
         "(1d4+1,3,2d6kl1)kh1 → (~~[2] + 1~~, ~~3~~, [~~6~~, 5]) = 5"),
        ("(1d20, 1d20)kh1", [4, 17], 17, "(1d20,1d20)kh1 → (~~[4]~~, [17]) = 17"),
        ("d%", [100], 100, "d% → [100] = 100"),
        ("0d6+2", [], 2, "0d6+2 → [] + 2 = 2"),
        ("d20:1d20 >= 15", [15], 1, "d20:1d20>=15 → [15] >= 15 = 1"),
        ("1d20+5 >= 15", [9], 0, "1d20+5>=15 → [9] + 5 >= 15 = 0"),
        ("15/2+d4", [1], 8, "15/2+d4 → 15 / 2 + [1] = 8"),
        ("10d10c>=8", [8, 7, 10, 1, 1, 1, 1, 1, 1, 1], 2,
         "10d10>=8 → [**8**, 7, **10**, 1, 1, 1, 1, 1, 1, 1] = 2"),
    ],
)
def test_operations_roll_as_d20_does(expr: str, dice: list[int], total: int, text: str) -> None:
    r = from_table(expr, dice)
    assert (r.total, r.to_text()) == (total, text)
    assert Roll.from_data(r.to_data()) == r


def test_the_two_readings_of_a_comparison_after_dice() -> None:
    faces = [7, 1, 10, 6, 9, 2, 3, 4, 5, 8]
    assert from_table("10d10>=7", faces).total == 4  # fracas: four dice show 7 or more
    assert from_table("10d10c>=7", faces).total == 4  # the explicit form, in both readings
    assert from_table("d20:10d10c>=7", faces).total == 4
    assert from_table("d20:10d10>=7", faces).total == 1  # d20: the total 55 is at least 7
    assert from_table("(10d10)>=7", faces).total == 1  # fracas, comparing the total
    assert parse("d20:10d10c>=7").text == "d20:10d10c>=7"


def test_single_faces_and_whole_chains_keep_differently() -> None:
    # e6: every extra die is a die of its own; '!': a chain is one die (its sum)
    single = distribution("4d6e6kh3")
    chains = distribution("4d6!kh3")
    assert single.max == 18 and chains.max > 18
    assert single.mean < chains.mean


def test_chronicles_of_darkness_ten_again() -> None:
    """10 dice, 8+ a success, a 10 adds a die that counts on its own: icepool's 23.39%."""
    p = distribution("10d10e10c>=8", explode_depth=20).p_at_least(5)
    assert f"{float(p):.2%}" == "23.39%"
    # the same built directly with icepool: each die's successes, a 10 rolling one more die
    def again(deeper: icepool.Die) -> icepool.Die:
        return icepool.d10.map(lambda f: deeper + 1 if f == 10 else int(f >= 8))

    successes = icepool.d10.map(lambda f: int(f >= 8))
    for _ in range(20):
        successes = again(successes)
    assert p == Fraction((10 @ successes).probability(">=", 5))
    chain_sum = distribution("10d10!>=10>=8").p_at_least(5)
    assert chain_sum == distribution("10d10>=8").p_at_least(5)  # a chain counts once


@pytest.mark.parametrize(
    ("expr", "error", "fragment"),
    [
        # rerolls that never end
        ("1d20rr<21", DiceBudgetError, "every face"),
        ("1d6rr1rr2rr3rr4rr5rr6", DiceBudgetError, "every face"),
        ("3d6rrh1", DiceBudgetError, "never end"),
        ("3d6rrl2", DiceBudgetError, "never end"),
        ("1000d1000rr<1000", DiceBudgetError, "rerolls would take"),
        ("60d100rr<100+60d100rr<100", DiceBudgetError, "rerolls would take"),
        # explosions that never end or roll too many dice
        ("1d1e1", DiceBudgetError, "every face"),
        ("1d20e<21", DiceBudgetError, "every face"),
        ("4d6eh1", DiceBudgetError, "never end"),
        ("1000d2e2e1", DiceBudgetError, "every face"),
        ("1000d6e6ro1e5", DiceBudgetError, "dice in this group"),
        # selectors that do not fit the operation
        ("10d6mil1", DiceSyntaxError, "plain number"),
        ("10d6ma>3", DiceSyntaxError, "plain number"),
        ("4d6!e6", DiceSyntaxError, "cannot follow '!'"),
        ("4d6c>=3kh1", DiceSyntaxError, "nothing can follow"),
        ("(4d6c>=3)kh1", DiceSyntaxError, "nothing can follow"),
        # huge sets and inputs
        ("(" + ",".join(["1"] * 260) + ")", DiceBudgetError, "characters long"),
        ("(" * 40 + "1,2" + ")" * 40, DiceBudgetError, "deeper than 32"),
        ("9999999d6", DiceBudgetError, "too large"),
        ("1.123456789", DiceBudgetError, "decimals"),
    ],
)
def test_hostile_operations_are_refused_before_rolling(
    expr: str, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=fragment) as info:
        parse(expr)
    assert 0 <= info.value.position <= len(expr)  # type: ignore[attr-defined]


def test_an_expression_of_exactly_the_longest_length_is_read() -> None:
    text = "1d20+5 " + "x" * 493
    assert len(text) == 500 and parse(text).comment == "x" * 493
    with pytest.raises(DiceBudgetError, match="501 characters long"):
        parse(text + "x")


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%", "<", ">=", "=="])
def test_a_hundred_operators_are_read_and_the_hundred_and_first_refused(op: str) -> None:
    text = "(1d6)" + f"{op}1" * 100
    assert from_table(text, [3]).expression == str(parse(text))
    with pytest.raises(DiceBudgetError, match="more than 100 operators"):
        parse(text + f"{op}1")


@pytest.mark.parametrize(
    ("expr", "most_calls"),
    [
        ("1000d6ro1", 1_000),
        ("1000d6mi2", 1_000),
        ("60d6kh3kl3", 1_000),
        ("(" + ",".join(["d6"] * 30) + ")kh1kl1", 250_000),
        ("20d20e20kh3", 250_000),
        ("6d6e>4kh1kl1", 250_000),
        ("100d20ra20ro1kh50", 1_000),
        ("500d6e6", 1_000),
    ],
)
def test_odds_budget_refuses_every_new_operation_after_bounded_work(
    expr: str, most_calls: int
) -> None:
    with pytest.raises(OddsBudgetError, match="too large"):
        distribution(expr)
    # counted, not timed: each would take minutes (millions of icepool calls) if computed
    refused, calls = icepool_calls(expr)
    assert refused
    assert calls <= most_calls


@pytest.mark.parametrize("expr", ["1000d6ro1", "1000d20rr1", "500d6e6", "1000d6mi2ma5k>3",
                                  "(" + ",".join(["10d6"] * 40) + ")kh1",
                                  # long chains: every part worked out once, not 2^n times
                                  "1" + "+1" * 100, "1d6" + "+1" * 99, "(" * 31 + "1d2" +
                                  "*1" * 99 + ")" * 31])
def test_rolling_the_largest_allowed_expressions_finishes(expr: str) -> None:
    r = roll(expr, DiceRng.derive("big", 1))
    assert parse(expr).minimum <= r.total <= parse(expr).maximum
    assert from_table(expr, r.dice) == r


def test_annotations_and_comments_survive_into_text_and_json() -> None:
    r = from_table("2d6 [fire] + 1d8 [radiant] + 3 sneak attack", [3, 4, 8])
    assert r.total == 18
    assert r.to_text() == (
        "2d6[fire]+1d8[radiant]+3 sneak attack → [3, 4] [fire] + [8] [radiant] + 3 = 18 "
        "(fire 7, radiant 8, unlabelled 3)"
    )
    assert r.by_annotation() == {"fire": 7, "radiant": 8, "": 3}
    data = r.to_data()
    assert data["annotations"] == {"fire": 7, "radiant": 8, "": 3}
    assert data["comment"] == "sneak attack"
    assert Roll.from_data(data) == r
    minus = from_table("1d20+5 - 1d4 [bane]", [12, 3])
    assert minus.by_annotation() == {"": 17, "bane": -3}
    assert from_table("(1d6+3) [fire]", [2]).by_annotation() == {"fire": 5}


def test_one_label_over_the_whole_roll_is_not_totalled_again() -> None:
    """A GM's secret `roll 2d6[x]` read "2d6[x] → [4, 1] [x] = 5 (x 5)": the label three times,
    its total the roll's own. The totals by label are for a roll labelled in parts."""
    assert from_table("2d6[x]", [4, 1]).to_text() == "2d6[x] → [4, 1] [x] = 5"
    assert from_table("(1d6+3) [fire]", [2]).to_text() == "(1d6+3)[fire] → ([2] + 3) [fire] = 5"
    assert from_table("2d6[fire]+3", [4, 1]).to_text().endswith(" = 8 (fire 5, unlabelled 3)")
    assert from_table("2d6[fire]", [4, 1]).to_data()["annotations"] == {"fire": 5}  # JSON keeps it


def test_a_comment_needs_a_space_and_a_letter() -> None:
    assert parse("1d20+5 to hit").comment == "to hit"
    assert parse("1d20 poison").comment == "poison"  # 'p' is no drop without a selector
    with pytest.raises(DiceSyntaxError, match="unexpected '3'"):
        parse("2d6 3")
    with pytest.raises(DiceSyntaxError, match="unexpected 'x'"):
        parse("2d6x")


def test_adv_and_dis_roll_the_leading_d20_twice_as_avrae_does() -> None:
    adv = from_table("1d20+5 adv to hit", [4, 17])
    assert (adv.total, adv.to_data()["comment"]) == (22, "to hit")
    assert adv.to_text() == "2d20kh1+5 to hit → [~~4~~, 17] + 5 = 22"
    assert from_table("1d20-3 dis", [4, 17]).total == 1
    assert from_table("d20:1d20+5 ADV >= 15", [3, 9]).total == 0  # the d20 reading too
    assert str(parse("d20 adv")) == str(parse("2d20kh1"))
    assert distribution("1d20 adv").to_dict()[20] == Fraction(39, 400)
    assert parse("1d20 advance").comment == "advance"  # only the word itself
    assert parse("1d20 to  dis arm").comment == "to arm"  # out of the comment, gap and all
    assert parse("1d20 adv to hit").comment == "to hit"
    assert str(parse("adv 1d20+5")) == "2d20kh1+5"  # anywhere in the text, as Avrae finds it
    assert str(parse("d20:adv 1d20+5")) == "d20:2d20kh1+5"  # right after the prefix too
    assert str(parse("1d20+5 [adv] poison")) == "1d20+5[adv] poison"  # a label is a label
    for text, read in [("-1d20 adv", "-2d20kh1"), ("(1d20+2) dis", "(2d20kl1+2)"),
                       ("(1d20, 1d4, 3)kh1 adv", "(2d20kh1,1d4,3)kh1"),
                       ("1d20 [luck] adv", "2d20kh1[luck]"), ("{d20+d8} adv", "{2d20kh1+d8}")]:
        assert str(parse(text)) == read, text  # the leftmost die, at any depth


@pytest.mark.parametrize(("text", "message"), [
    ("5+1d20 adv", "does not start with a single 1d20"),
    ("2d20 adv", "does not start with a single 1d20"),
    ("1d20 adv dis", "'adv' and 'dis' both given"),
])
def test_adv_or_dis_that_avrae_would_ignore_is_refused(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError, match=re.escape(message)):
        parse(text)


def test_division_and_decimals_are_exact_and_the_total_rounds_toward_zero() -> None:
    assert from_table("d20:-15/2", []).total == -7
    assert from_table("d20:(15/2)*2", []).total == 15
    assert distribution("d6/2").to_dict() == {0: Fraction(1, 6), 1: Fraction(1, 3),
                                             2: Fraction(1, 3), 3: Fraction(1, 6)}
    assert from_table("2.5*2", []).total == 5


def test_reroll_and_add_marks_the_first_matching_die() -> None:
    """``ra`` adds one die for the FIRST die that matches, and the breakdown marks that one:
    with two sixes the first carries the mark, the second is an ordinary die."""
    roll = from_table("3d6ra6", [2, 6, 6, 4])
    assert str(roll).endswith("[2, 6!, 6, 4] = 18")
