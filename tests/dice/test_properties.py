"""Property tests: parsing never crashes, rolls stay in bounds, seeds replay, table dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import (
    DiceBudgetError,
    DiceRng,
    DiceSyntaxError,
    TableDiceError,
    from_table,
    parse,
    roll,
)
from fracas.dice.syntax import MAX_EXPLOSIONS

ALPHABET = "0123456789dDkhl!<>=+-*(){} ,x"


@given(st.text(alphabet=ALPHABET, max_size=40) | st.text(max_size=20))
def test_any_string_parses_or_raises_a_positioned_error(text: str) -> None:
    try:
        e = parse(text)
    except (DiceSyntaxError, DiceBudgetError) as error:
        assert 0 <= error.position <= len(text)
        assert f"position {error.position}" in str(error)
    else:
        assert parse(e.text) == e


def dice_terms() -> st.SearchStrategy[str]:
    @st.composite
    def term(draw: st.DrawFn) -> str:
        count = draw(st.integers(1, 6))
        sides = draw(st.sampled_from([2, 4, 6, 8, 10, 12, 20]))
        text = f"{count}d{sides}" if count > 1 or draw(st.booleans()) else f"d{sides}"
        explode = draw(st.sampled_from(["", "!", f"!>={max(2, sides - 1)}"]))
        keep = ""
        if count > 1 and draw(st.booleans()):
            kind = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
            keep = f"{kind}{draw(st.integers(1, count - 1))}"
        success = ""
        if draw(st.integers(0, 3)) == 0:
            success = draw(st.sampled_from([">=", "<="])) + str(draw(st.integers(1, sides)))
            if explode == "!" and not keep:
                explode = f"!>={sides}"  # a bare '!' then '>=' would read as the explode face
        text += explode + keep + success
        return text

    return term()


def expressions() -> st.SearchStrategy[str]:
    leaves = dice_terms() | st.integers(0, 20).map(str)
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map("".join),
            inner.map(lambda s: f"({s})"),
            inner.map(lambda s: f"{{{s}}}"),
            inner.map(lambda s: f"-{s}"),
        ),
        max_leaves=5,
    )


@given(expressions(), st.integers(0, 2**32), st.integers(0, 1000))
def test_rolls_stay_within_bounds_and_round_trip(expr: str, seed: int, stream: int) -> None:
    e = parse(expr)
    r = roll(e, DiceRng.derive(seed, stream))
    assert e.minimum <= r.total <= e.maximum
    again = from_table(e.text, r.dice)
    assert again.total == r.total
    assert again.dice == r.dice
    assert again.to_text() == r.to_text()
    assert r.to_text().endswith(f" = {r.total}")


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
