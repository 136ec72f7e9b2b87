"""Parsing: grammar, canonical text, error positions and the budget."""

from __future__ import annotations

import pytest

from fracas.dice import DiceBudgetError, DiceSyntaxError, DiceValueError, parse
from fracas.errors import InvalidInput


@pytest.mark.parametrize(
    ("source", "canonical", "low", "high"),
    [
        ("d6", "d6", 1, 6),
        ("1d6", "1d6", 1, 6),
        ("2d6 + 3", "2d6+3", 5, 15),
        ("4d6kh3", "4d6kh3", 3, 18),
        ("4d6KL", "4d6kl1", 1, 6),
        ("4d6dh1", "4d6dh1", 3, 18),
        ("4d6dl1", "4d6dl1", 3, 18),
        ("10d10>=7", "10d10>=7", 0, 10),
        ("10d10<=3", "10d10<=3", 0, 10),
        ("3d6!", "3d6!", 3, 3 * 6 * 21),
        ("3d6!>=5", "3d6!>=5", 3, 3 * 6 * 21),
        ("10d10!>=10>=8", "10d10!>=10>=8", 0, 10),
        ("{d8 + d10} + 1", "{d8+d10}+1", 3, 19),
        ("2*(d4-1)", "2*(d4-1)", 0, 6),
        ("-d6", "-d6", -6, -1),
        ("3 - 2d6", "3-2d6", -9, 1),
        ("7", "7", 7, 7),
    ],
)
def test_parses_to_canonical_text_and_bounds(
    source: str, canonical: str, low: int, high: int
) -> None:
    e = parse(source)
    assert e.text == canonical
    assert (e.minimum, e.maximum) == (low, high)
    assert parse(e.text) == e


def test_precedence_multiplication_binds_tighter() -> None:
    assert parse("1+2*3").maximum == 7
    assert parse("(1+2)*3").maximum == 9
    assert parse("10-2-3").maximum == 5


def test_parse_is_cached() -> None:
    assert parse("4d6kh3+2") is parse("4d6kh3+2")


@pytest.mark.parametrize(
    ("source", "position", "fragment"),
    [
        ("2d6+)", 4, "unexpected ')'"),
        ("", 0, "empty"),
        ("2d", 2, "number of sides"),
        ("2d6 3", 4, "unexpected '3'"),
        ("(2d6", 4, "expected ')'"),
        ("{d8+d10)", 7, "expected '}'"),
        ("2d6)", 3, "nothing to close"),
        ("2d6>7", 3, "'c>N', '>=N' or '<=N'"),
        ("2d6>=7", 3, "a d6 never shows 7 or more, so '>=7' never counts a success"),
        ("2d6c<1", 3, "a d6 never shows less than 1"),
        ("10d6mil1", 4, "'mi' takes a plain number"),
        ("4d6!ro1", 4, "'ro' cannot follow '!'"),
        ("4d6ro1!", 6, "'!' explodes whole chains and must come first"),
        ("4d6c>3kh1", 6, "nothing can follow a success count"),
        ("4d6rx", 3, "expected an operation"),
        ("(1, 2", 5, "expected ')'"),
        ("2d6 [fire", 4, "never closed"),
        ("2d0", 2, "at least one face"),
        ("3d6!>=7", 3, "never explodes"),
        ("2d6+x", 4, "unexpected 'x'"),
        ("4d6kh3+", 7, "unexpected end"),
    ],
)
def test_syntax_errors_say_where_and_what(source: str, position: int, fragment: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(source)
    assert info.value.position == position
    assert f"at position {position}" in str(info.value)
    assert fragment in str(info.value)
    assert isinstance(info.value, InvalidInput)


@pytest.mark.parametrize(
    ("source", "position", "fragment"),
    [
        ("0/0", 1, "the right side of '/' at position 1 in '0/0' is 0"),
        ("2d6 // (3-3)", 4, "'//' at position 4 in '2d6 // (3-3)' is 0"),
        ("1d6 % 0 + 5/0", 4, "'%' at position 4"),  # the first, left to right
        ("5 + (10 / 0)", 8, "'/' at position 8"),  # inside brackets
        ("d20: 1d20 / (1d6-1d6) adv", 10, "'/' at position 10 in 'd20: 1d20 / (1d6-1d6) adv'"
                                          " may be 0 (it lies between -5 and 5)"),
    ],
)
def test_a_division_by_zero_says_where_its_operator_is(source: str, position: int,
                                                       fragment: str) -> None:
    """Like a syntax error, a division by what is or may be 0 points at its place in the text:
    the offset of its operator (before: the message named the operator alone, and a long
    expression with several divisions left the user to find which)."""
    with pytest.raises(DiceValueError) as info:
        parse(source)
    assert info.value.position == position
    assert info.value.values["position"] == position
    assert info.value.values["expression"] == source
    assert fragment in str(info.value)
    assert isinstance(info.value, InvalidInput)


def test_example_message_from_the_issue() -> None:
    with pytest.raises(DiceSyntaxError, match=r"unexpected '\)'.* at position 4 in '2d6\+\)'"):
        parse("2d6+)")


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("1000000d1000000", "at most 1000"),
        ("600d6+600d6", "at most 1000 in all"),
        ("d1001", "at most 1000"),
        ("(" * 40 + "1" + ")" * 40, "deeper than 32"),
        ("-" * 40 + "1", "deeper than 32"),
        ("1+" * 300 + "1", "at most 500"),
        ("99999999", "too large"),
        ("3d1!", "never end"),
    ],
)
def test_budget_refuses_hostile_expressions(source: str, fragment: str) -> None:
    with pytest.raises(DiceBudgetError) as info:
        parse(source)
    assert fragment in str(info.value)
    assert 0 <= info.value.position <= len(source)
    assert isinstance(info.value, InvalidInput)


def test_budget_limits_are_inclusive() -> None:
    assert parse("1000d1000").dice_count == 1000
    assert parse("(" * 32 + "1" + ")" * 32).maximum == 1


@pytest.mark.parametrize(("source", "fragment"), [
    # a comparison right after dice, in the text's own words, with Avrae's reading named
    ("1d20 >= 15", "write '(1d20) >= 15', or start with 'd20:' to read it as Avrae does "
                   "('d20:1d20 >= 15')"),
    ("1d20+1d20 >= 15", "write '(1d20+1d20) >= 15'"),
    ("1d20 < 10", "'1d20c<10' counts the dice that show less than 10; to compare the total, "
                  "write '(1d20) < 10'"),
    ("4d6kh3 > 12", "'4d6kh3c>12' counts the dice that show more than 12"),
    # Roll20's braces around a set
    ("{1d20, 2d10}kh1", "a set of several is written in parentheses: '(1d20, 2d10)kh1'"),
    # Avrae's commands pasted with their dice
    ("!r 1d20+5 adv", "'!r' is Avrae's command, not dice: type the dice alone, '1d20+5 adv'"),
    ("!roll", "type the dice alone, '1d20'"),
    ("!rr 6 4d6kh3", "type the dice alone, '4d6kh3' (fracas roll --times 6 4d6kh3 rolls it 6 "
                     "times)"),
    ("!rrr 3 1d20+5 15 adv", "type the dice alone, '1d20+5 adv' (fracas roll --times 3 --dc 15 "
                             "1d20+5 adv rolls it 3 times against DC 15)"),
    # advantage with nothing to roll twice
    ("adv", "'adv' rolls a 1d20 twice, and there is no dice expression: write '1d20 adv'"),
    # what a phone or a word processor types for an operator
    ("1d20 − 2", "unexpected '−': write '-' for minus"),
    ("2d6 – 1", "unexpected '–': write '-' for minus"),
    ("1d20×2", "unexpected '×': write '*' for times"),
    ("10 ÷ 2", "unexpected '÷': write '/' to divide"),
])
def test_what_an_avrae_user_types_otherwise_is_refused_with_what_to_type(
        source: str, fragment: str) -> None:
    """A text fracas reads otherwise than Avrae, or not at all, says what to type instead
    (before: a comparison's message gave '(2d6) >= 7' whatever was typed, and the others said
    only which character was unexpected)."""
    with pytest.raises(DiceSyntaxError) as info:
        parse(source)
    assert fragment in str(info.value)
    assert f"at position {info.value.position} in '{source}'" in str(info.value)


@pytest.mark.parametrize(("source", "text"), [
    ("d20:1d20 >= 15", "d20:1d20>=15"),  # what the messages offer is read as they say
    ("(1d20+1d20) >= 15", "(1d20+1d20)>=15"),
    ("1d20c<10", "1d20c<10"),
    ("(1d20, 2d10)kh1", "(1d20,2d10)kh1"),
    ("1d20+5 adv", "2d20kh1+5"),
])
def test_what_the_messages_offer_parses(source: str, text: str) -> None:
    assert parse(source).text == text
