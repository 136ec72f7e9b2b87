"""d20's own test expressions, replayed through the d20 reading of fracas.

The expressions and their expected properties are copied as data from the d20 library's public
test suite (avrae/d20, tests/test_dice.py and tests/test_utils.py): a fixed total, a range, or
an error. Each is parsed with the ``d20:`` prefix, rolled, and its exact odds are compared with
a distribution built here directly with icepool (not through fracas), so a wrong reading of an
operator shows up as a wrong distribution, not only as a wrong sample.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import (
    DiceBudgetError,
    DiceRng,
    DiceSyntaxError,
    DiceValueError,
    OddsBudgetError,
    distribution,
    parse,
    roll,
)
from tests.dice.grammar import avrae_expressions

d2, d4, d6, d8, d20 = icepool.d2, icepool.d4, icepool.d6, icepool.d8, icepool.d20


def const(v: int) -> Any:
    return icepool.Die([v])


def chain(die: Any, faces: list[int]) -> Any:
    """A die exploded on ``faces`` up to 20 extra dice, the roller's own cap."""
    return die.explode(faces, depth=20)


def until(die: Any, rerolled: Callable[[int], bool]) -> Any:
    """A die rerolled while it shows a rerolled face: the faces left, equally likely."""
    return icepool.Die([f for f in die.outcomes() if not rerolled(f)])


def half(die: Any) -> Any:
    return die.map(lambda v: Fraction(v, 2))


# (expression, expected: int total | (low, high) range | None, icepool builder or None)
D20_EXPRESSIONS: list[tuple[str, int | tuple[int, int] | None, Callable[[], Any] | None]] = [
    # STANDARD_EXPRESSIONS, test_sane_totals
    ("1d20", (1, 20), lambda: d20),
    ("1+1", 2, None),
    ("4d6kh3", (3, 18), lambda: d6.pool(4).highest(3).sum()),
    ("(1)", 1, None),
    ("(1,)", 1, None),
    ("((1d6))", (1, 6), lambda: d6),
    ("(((1d6)))", (1, 6), lambda: d6),
    ("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", None,
     lambda: (4 * (d8.pool(3).highest(2).sum() + 9 + half(9 @ chain(d2, [2]) + 3))).map(
         lambda v: int(v))),
    ("(1d4, 2+2, 3d6kl1)kh1", (4, 6),
     lambda: icepool.Pool([d4, const(4), d6.pool(3).lowest(1).sum()]).highest(1).sum()),
    ("((10d6kh5)kl2)kh1", (1, 6), lambda: d6.pool(10)[6]),  # the 4th highest of 10
    # test_pemdas
    ("1 + 3 * 6", 19, None),
    ("1 + (3 * 6)", 19, None),
    ("(1 + 3) * 6", 24, None),
    ("1 + 2 + 3", 6, None),
    ("(1 + 2) + 3", 6, None),
    ("1 + (2 + 3)", 6, None),
    ("1 + 2 == 2", 0, None),
    ("1 + (2 == 2)", 2, None),
    # test_chaining_operators
    ("10d6k1k2k3", (0, 30), lambda: 10 @ d6.map(lambda v: v if v <= 3 else 0)),
    ("10d6k1ph1", (0, 9), lambda: (10 @ d6.map(lambda v: int(v == 1))).map(
        lambda n: max(n - 1, 0))),
    ("(1, 2, 3)k1k2", 3, None),
    # test_crit
    ("1d20", (1, 20), lambda: d20),
    # test_literal
    ("1", 1, None),
    ("10000", 10000, None),
    ("1.5", 1, None),
    ("0.5", 0, None),
    (".5", 0, None),
    # test_dice
    ("0d6", 0, None),
    ("d6", (1, 6), lambda: d6),
    ("1d6", (1, 6), lambda: d6),
    ("2d6", (2, 12), lambda: 2 @ d6),
    # test_set
    ("(1, 1)", 2, None),
    # test_unop
    ("+1", 1, None),
    ("-1", -1, None),
    ("--1", 1, None),
    ("-+-++---+1", -1, None),
    # test_binop
    ("2 + 2", 4, None),
    ("2 - 2", 0, None),
    ("2 * 5", 10, None),
    ("15 / 2", 7, None),
    ("15 // 2", 7, None),
    ("13 % 2", 1, None),
    # test_comparison
    ("1 == 1", 1, None),
    ("1 == 2", 0, None),
    ("1 > 1", 0, None),
    ("2 > 1", 1, None),
    ("1 < 1", 0, None),
    ("1 < 2", 1, None),
    ("1 >= 1", 1, None),
    ("1 >= 2", 0, None),
    ("1 <= 1", 1, None),
    ("2 <= 1", 0, None),
    ("1 != 1", 0, None),
    ("1 != 2", 1, None),
    # test_selectors, test_k_op, test_p_op
    ("(1, 2, 3, 4, 5)k3", 3, None),
    ("(1, 2, 3, 4, 5)k<3", 3, None),
    ("(1, 2, 3, 4, 5)k>3", 9, None),
    ("(1, 2, 3, 4, 5)kl2", 3, None),
    ("(1, 2, 3, 4, 5)kh2", 9, None),
    ("(1)k1", 1, None),
    ("(1)k2", 0, None),
    ("(1, 2, 3, 4, 5)k1k2", 3, None),
    ("(1, 2, 3, 4, 5)kh1kl1", 6, None),
    ("(1, 2, 3, 4, 5)p3", 12, None),
    ("(1, 2, 3, 4, 5)p1p2", 12, None),
    ("(1, 2, 3, 4, 5)ph1pl1", 9, None),
    # test_rr_op, test_ro_op, test_ra_op, test_e_op
    ("1d20rr<20", 20, None),
    ("1d20rr>1", 1, None),
    ("1d1ro1", 1, None),
    ("1d6rol1", (1, 6), lambda: d6),
    ("1d1ra1", 2, None),
    ("1d6ral1", (2, 12), lambda: d6 + d6),
    ("1d2e2", None, lambda: chain(d2, [2])),
    # test_mi_op, test_ma_op
    ("10d6mi6", 60, None),
    ("10d6mi10", 100, None),
    ("10d6mi2", (20, 60), lambda: 10 @ d6.map(lambda v: max(v, 2))),
    ("10d6ma1", 10, None),
    ("10d6ma0", 0, None),
    ("10d6ma5", (10, 50), lambda: 10 @ d6.map(lambda v: min(v, 5))),
    # tests/test_utils.py
    ("1d20+1", (2, 21), lambda: d20 + 1),
    ("d20-1d4", (-3, 19), lambda: d20 - d4),
    ("1d20ro1", (1, 20), lambda: d20.reroll([1], depth=1)),
    ("1 [a] + 2 + 3 [b] + 4", 10, None),
    ("1 [a] + 2 + 3", 6, None),
    ("1 + 2 + 3 + 4", 10, None),
    ("8d6", (8, 48), lambda: 8 @ d6),
    ("8d6 [fire]", (8, 48), lambda: 8 @ d6),
    ("1d20 + 4d6 + 3", (8, 47), lambda: d20 + 4 @ d6 + 3),
    ("-1d8 + 4 - (3, 1d4)kh1", (-8, 0), lambda: -d8 + 4 - d4.map(lambda v: max(v, 3))),
    # the issue's own examples of what Avrae users type
    ("2d6ro<3", (2, 12), lambda: 2 @ d6.reroll([1, 2], depth=1)),
    ("8d6mi2k>3", (0, 48), lambda: 8 @ d6.map(lambda v: v if v > 3 else 0)),
    ("(1d20, 1d20)kh1", (1, 20), lambda: d20.pool(2).highest(1).sum()),
    ("1d20rr<2", (2, 20), lambda: until(d20, lambda f: f < 2)),
    ("1d6ra6", (1, 12), lambda: d6.map(lambda v: v + d6 if v == 6 else v)),
    ("1d20mi10", (10, 20), lambda: d20.map(lambda v: max(v, 10))),
    # d20 joins k h3 and k l1 into one keep: the dice either selector picks. Both pick the
    # earlier of equal dice, so when the lowest two are equal they pick the same die
    ("4d6kh3kl1", (3, 23), lambda: d6.pool(4).expand().map(
        lambda t: sum(t[1:]) if t[0] == t[1] else sum(t))),
    ("d%", (1, 100), lambda: icepool.d(100)),
    ("1d20 >= 15", None, lambda: d20.map(lambda v: int(v >= 15))),
    ("10d10>=7", None, lambda: (10 @ icepool.d10).map(lambda v: int(v >= 7))),
]

# d20 refuses these (TooManyRolls / RollValueError); fracas refuses them before rolling
D20_ERRORS = [
    ("1001d6", DiceBudgetError),
    ("6d0", DiceSyntaxError),
    ("10d6mil1", DiceSyntaxError),
    ("1d20rr<21", DiceBudgetError),
    ("1d1rr1", DiceBudgetError),
    ("1d20e<21", DiceBudgetError),
    ("1d1e1", DiceBudgetError),
]
D20_DIVISION_BY_ZERO = ["10 / 0", "10 // 0", "10 % 0"]


def _icepool_dict(die: Any) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    den = die.denominator()
    for o, q in die.items():
        out[int(o)] = out.get(int(o), Fraction(0)) + Fraction(q, den)
    return out


@pytest.mark.parametrize(("expr", "expected", "build"), D20_EXPRESSIONS,
                         ids=[e for e, _, _ in D20_EXPRESSIONS])
def test_d20_expression_rolls_and_has_the_exact_odds(
    expr: str, expected: int | tuple[int, int] | None, build: Callable[[], Any] | None
) -> None:
    e = parse("d20:" + expr)
    totals = {roll(e, DiceRng.derive("d20 suite", i)).total for i in range(50)}
    dist = distribution(e, explode_depth=20)
    if isinstance(expected, int):
        assert totals == {expected}
        assert dist.to_dict() == {expected: 1}
    elif expected is not None:
        low, high = expected
        assert all(low <= t <= high for t in totals)
        assert (dist.min, dist.max) == (low, high)
    if build is not None:
        assert dist.to_dict() == _icepool_dict(build())
    assert set(totals) <= set(dist.to_dict())


def test_d20_1d2e2_is_odd_except_a_chain_cut_at_the_cap() -> None:
    # d20: r("1d2e2") % 2 == 1 — a chain of 2s ends with a 1, unless 20 extra dice all show 2
    dist = distribution("d20:1d2e2", explode_depth=20)
    assert {t for t in dist if t % 2 == 0} == {42}
    assert dist[42] == Fraction(1, 2**21)


@pytest.mark.parametrize(("expr", "error"), D20_ERRORS)
def test_d20_refusals_are_refused_before_rolling(expr: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse("d20:" + expr)


@pytest.mark.parametrize("expr", D20_DIVISION_BY_ZERO)
def test_d20_division_by_zero_is_a_clear_error(expr: str) -> None:
    with pytest.raises(DiceValueError, match="zero"):
        roll("d20:" + expr, DiceRng.derive("z", 0))
    with pytest.raises(DiceValueError, match="zero"):
        distribution("d20:" + expr)


def test_d20_annotations_give_totals_by_label() -> None:
    r = roll("d20:1 [a] + 2 + 3 [b] + 4", DiceRng.derive("a", 0))
    assert r.by_annotation() == {"a": 1, "": 6, "b": 3}
    assert r.to_text() == "d20:1[a]+2+3[b]+4 → 1 [a] + 2 + 3 [b] + 4 = 10 (a 1, unlabelled 6, b 3)"


@pytest.mark.parametrize(
    "expr",
    ["4d6e6kh3", "2d6ro<3", "1d20rr1", "4d6kh3kl1", "10d6k1ph1", "8d6mi2k>3", "1d6ra6",
     "(1d4+1, 3, 2d6kl1)kh1", "3d6rol1", "4d6ph1pl1", "3d4e>2", "3d6ral1kh2"],
)
def test_the_d20_library_itself_rolls_what_the_exact_odds_say(expr: str) -> None:
    """Pearson chi-square of 4,000 rolls by d20 (seeded) against fracas's exact odds."""
    import math
    import random
    from collections import Counter

    d20lib = pytest.importorskip("d20")
    state = random.getstate()
    random.seed(15)  # d20 rolls with the random module
    try:
        counts = Counter(d20lib.roll(expr).total for _ in range(4000))
    finally:
        random.setstate(state)
    dist = distribution("d20:" + expr, explode_depth=20)
    chi2, bins, rest_e, rest_o = 0.0, 0, 0.0, 0
    for total, p in dist.items():
        e = float(p) * 4000
        if e >= 10:
            chi2 += (counts.get(total, 0) - e) ** 2 / e
            bins += 1
        else:
            rest_e += e
            rest_o += counts.get(total, 0)
    rest_o += sum(n for t, n in counts.items() if t not in dist)
    if rest_e >= 10:
        chi2 += (rest_o - rest_e) ** 2 / rest_e
        bins += 1
    df = bins - 1
    assert df >= 1
    critical = df * (1 - 2 / (9 * df) + 4.75 * math.sqrt(2 / (9 * df))) ** 3  # p about 1e-6
    assert chi2 < critical, (expr, chi2, critical)


@settings(max_examples=150, deadline=None)
@given(avrae_expressions(), st.integers(0, 2**32 - 1))
def test_what_the_d20_library_rolls_of_any_avrae_text_fracas_reads_and_calls_possible(
        expr: str, seed: int) -> None:
    """A random text in the d20 library's own syntax (what an Avrae user types): fracas reads
    it (the d20 reading) and every total d20 itself rolls for it, five times, has a nonzero
    chance in fracas's exact odds. A total fracas calls impossible would be an operation the
    two read differently."""
    import random

    d20lib = pytest.importorskip("d20")
    try:
        dist = distribution("d20:" + expr, explode_depth=20)
    except OddsBudgetError:  # odds too large to work out at once: the text still rolls
        roll("d20:" + expr, DiceRng.derive("avrae", seed))
        return
    state = random.getstate()
    random.seed(seed)  # d20 rolls with the random module
    try:
        totals = [d20lib.roll(expr).total for _ in range(5)]
    finally:
        random.setstate(state)
    possible = [float(total) for total in dist]
    impossible = [t for t in totals if not any(abs(t - p) < 1e-9 for p in possible)]
    assert not impossible, (expr, impossible, sorted(possible)[:12])
