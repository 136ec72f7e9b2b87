"""Property tests: parsing never crashes, rolls stay in bounds, seeds replay, table dice."""

from __future__ import annotations

import bisect
import math

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from fracas.dice import (
    DiceBudgetError,
    DiceRng,
    DiceSyntaxError,
    DiceValueError,
    OddsBudgetError,
    TableDiceError,
    distribution,
    from_table,
    parse,
    roll,
)
from fracas.dice.nodes import MAX_EXPLOSIONS
from tests.dice.grammar import expressions

ALPHABET = "0123456789dDkhl!<>=+-*(){} ,x"


@given(st.text(alphabet=ALPHABET, max_size=40) | st.text(max_size=20))
@example("0/0")
def test_any_string_parses_or_raises_a_positioned_error(text: str) -> None:
    """Text that does not parse says where; one that parses but cannot be rolled (a division
    by what is or may be 0) says which operator, and where it is."""
    try:
        e = parse(text)
    except (DiceSyntaxError, DiceBudgetError) as error:
        assert 0 <= error.position <= len(text)
        assert f"position {error.position}" in str(error)
    except DiceValueError as error:
        op = error.values["operator"]
        assert text[error.position:].startswith(op)
        assert str(error).startswith(f"division by zero: the right side of '{op}' at position "
                                     f"{error.position} in ")
    else:
        assert parse(e.text) == e


@given(expressions(), st.integers(0, 2**32), st.integers(0, 1000))
def test_rolls_stay_within_bounds_and_round_trip(expr: str, seed: int, stream: int) -> None:
    e = parse(expr)
    r = roll(e, DiceRng.derive(seed, stream))
    assert e.minimum <= r.total <= e.maximum
    again = from_table(e.text, r.dice)
    assert again.total == r.total
    assert again.dice == r.dice
    assert again.to_text() == r.to_text()
    assert r.to_text().endswith(f" = {r.total}{r.labels_text()}")
    assert again.to_data() == r.to_data()


def _chi_square_critical(df: int) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile at z = 4.75 (p about 1e-6)."""
    return df * (1 - 2 / (9 * df) + 4.75 * math.sqrt(2 / (9 * df))) ** 3


@settings(max_examples=40)
@given(expressions("fracas", cheap=True) | expressions("d20", cheap=True))
def test_rolls_follow_the_exact_odds(expr: str) -> None:
    """Pearson chi-square of 2,000 seeded rolls against the exact distribution (p = 1e-6)."""
    e = parse(expr)
    try:
        dist = distribution(e)
    except OddsBudgetError:
        assume(False)
        return
    n = 2000
    rng = DiceRng.derive("chi-square", 0)
    totals = [roll(e, rng).total for _ in range(n)]
    assert set(totals) <= set(dist) or dist.truncated > 0
    # adjacent totals merge into bins expecting at least 10 rolls each
    bins: list[tuple[int, float]] = []  # (highest total of the bin, expected count)
    expected = 0.0
    for total, p in dist.items():
        expected += float(p) * n
        if expected >= 10:
            bins.append((total, expected))
            expected = 0.0
    if expected and bins:
        bins[-1] = (bins[-1][0], bins[-1][1] + expected)
    if len(bins) < 2:  # (nearly) one total: every roll must be one the odds allow
        assert set(totals) <= set(dist)
        return
    tops = [t for t, _ in bins]
    observed = [0] * len(bins)
    for t in totals:
        observed[min(bisect.bisect_left(tops, t), len(bins) - 1)] += 1
    chi2 = sum((o - x) ** 2 / x for o, (_, x) in zip(observed, bins, strict=True))
    assert chi2 < _chi_square_critical(len(bins) - 1), (expr, observed, bins)


@given(expressions("fracas") | expressions("d20"))
def test_parse_text_parse_round_trips(expr: str) -> None:
    e = parse(expr)
    assert parse(e.text) == e
    assert parse(e.text).text == e.text
    assert (e.reading == "d20") == expr.startswith("d20:")


@given(expressions(), st.text(max_size=10), st.integers(0, 100))
def test_same_seed_and_stream_give_the_same_dice(expr: str, seed: str, stream: int) -> None:
    a = roll(expr, DiceRng.derive(seed, stream))
    b = roll(expr, DiceRng.derive(seed, stream))
    assert a.dice == b.dice
    assert a.to_text() == b.to_text()


@given(st.text(max_size=10), st.integers(0, 10_000))
def test_different_streams_differ(seed: str, stream: int) -> None:
    a = roll("20d20", DiceRng.derive(seed, stream)).dice
    b = roll("20d20", DiceRng.derive(seed, stream + 1)).dice
    assert a != b  # 20^-20 chance of a false alarm


@given(
    st.sampled_from(["3d6", "d8+d10", "4d6kh3", "10d10>=7", "2d4!"]),
    st.data(),
)
def test_table_dice_outside_the_faces_are_refused(expr: str, data: st.DataObject) -> None:
    e = parse(expr)
    good = roll(e, DiceRng.derive("t", data.draw(st.integers(0, 999)))).dice
    index = data.draw(st.integers(0, len(good) - 1))
    bad = data.draw(st.sampled_from([0, -1, 11, 12, 100]))
    values = list(good)
    values[index] = bad
    with pytest.raises(TableDiceError, match="shows"):
        from_table(e, values)


@given(st.integers(2, 12), st.integers(1, 30))
@settings(max_examples=50)
def test_explosion_chains_never_exceed_the_cap(sides: int, stream: int) -> None:
    r = roll(f"5d{sides}!", DiceRng.derive("boom", stream))
    assert all(len(d.faces) <= MAX_EXPLOSIONS + 1 for d in r.die_results())
    for d in r.die_results():
        assert all(f == sides for f in d.faces[:-1])


@given(st.builds(lambda piece, times: piece * times,
                 st.text(alphabet=ALPHABET + "\x00é١２🎲[]", min_size=1, max_size=6),
                 st.integers(1, 4000)))
@example("1d20+" * 4000 + "1")  # 20 kB: its message quoted all of it
def test_a_refusal_is_a_sentence_whatever_the_length_of_the_text(text: str) -> None:
    """However long the text, its refusal is a sentence of bounded length that quotes at most
    the 500 characters an expression may hold (before: the length refusal quoted the whole
    text, 20 kB for a 20 kB paste, on the terminal and in the API's answer)."""
    try:
        parse(text)
    except (DiceSyntaxError, DiceBudgetError, DiceValueError) as error:
        assert len(str(error)) < 1500
        assert len(error.values.get("expression", "")) <= 500
        assert f"position {error.position}" in str(error)
