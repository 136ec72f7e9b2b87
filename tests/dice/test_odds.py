"""Exact odds: known values, agreement with the roller, budget, reports."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import pytest

from fracas.dice import (
    DiceRng,
    OddsBudgetError,
    distribution,
    odds_builder,
    odds_of,
    parse,
    roll,
)
from fracas.dice.nodes import Sel, Value
from fracas.dice.odds import pair_odds


def test_known_exact_values() -> None:
    assert distribution("2d6")[7] == Fraction(1, 6)
    assert distribution("3d6").p_at_most(10) == Fraction(1, 2)
    assert distribution("{d8+d10}+1").p_at_least(13) == Fraction(7, 20)
    assert distribution("4d6kh3").mean == Fraction(15869, 1296)
    assert distribution("5d6>=5").p_at_least(1) == 1 - Fraction(2, 3) ** 5
    assert distribution("2d20kl1").p_at_least(20) == Fraction(1, 400)
    assert distribution("7").items() == [(7, Fraction(1))]
    assert distribution("-d4").min == -4


def test_exploding_odds_report_truncation() -> None:
    full = distribution("d6!", explode_depth=20)
    assert full.truncated == 0
    assert full[3] == Fraction(1, 6)
    assert full[6 + 2] == Fraction(1, 36)
    shallow = distribution("d6!", explode_depth=2)
    assert shallow.truncated == Fraction(1, 6) ** 3
    auto = distribution("3d6!")
    assert 0 < auto.truncated <= Fraction(1, 10**9)
    assert "cut there" in odds_of("3d6!").to_text()


@pytest.mark.parametrize(
    ("expr", "seed"),
    [("4d6kh3", "a"), ("10d10>=7", "b"), ("3d6!", "c"), ("{d8+d10}+1", "d"), ("4d6dl1-d4", "e")],
)
def test_exact_odds_agree_with_a_seeded_sample(expr: str, seed: str) -> None:
    n = 20_000
    e = parse(expr)
    rng = DiceRng.derive(seed, 0)
    totals = [roll(e, rng).total for _ in range(n)]
    dist = distribution(e)
    for threshold in sorted(set(totals))[:: max(1, len(set(totals)) // 12)]:
        p = float(dist.p_at_least(threshold))
        observed = sum(1 for t in totals if t >= threshold) / n
        bound = 4 * math.sqrt(p * (1 - p) / n) + 1e-9
        assert abs(observed - p) < bound, (expr, threshold, observed, p)


def test_pair_odds_for_a_fabula_style_check() -> None:
    def classify(a: int, b: int) -> str:
        if a == b == 1:
            return "fumble"
        if a == b and a >= 6:
            return "crit"
        return "hit" if a + b + 1 >= 13 else "miss"

    odds = pair_odds(8, 10, classify)
    assert odds["fumble"] == Fraction(1, 80)
    assert odds["crit"] == Fraction(3, 80)
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("expr", ["1000d1000", "100d20kh50", "(2d100)*(2d100)"])
def test_odds_budget_refuses_large_queries(expr: str) -> None:
    with pytest.raises(OddsBudgetError, match="too large"):
        distribution(expr)


@pytest.mark.parametrize("expr, what", [
    ("(1d1000)kh1", "dice of 1,000 outcomes together; at most 500"),
    ("1d1000ra>1", "dice of 1,000 outcomes together"),
    ("(-80d20)kh1", "dice of 1,521 outcomes together"),
    ("(100d100/3)kh1", "dice of 9,901 outcomes together"),
    ("(999d1000/999)kl2", "summing the dice would make 998,002 totals; at most 20,000"),
])
def test_a_pool_of_too_many_outcomes_is_refused_at_once(expr: str, what: str) -> None:
    # icepool weighs a kept or rerolled pool one outcome deeper at a time: these took minutes
    # or ran out of stack; the roller still rolls them
    with pytest.raises(OddsBudgetError, match=re.escape(what)):
        distribution(expr)
    assert isinstance(roll(expr, DiceRng(b"s")).total, int)


def test_a_pool_of_few_outcomes_still_gets_its_exact_odds() -> None:
    highest = distribution("(1d300,1d300)kh1")
    assert highest[300] == Fraction(599, 90000) and len(highest) == 300


def test_a_sum_of_far_apart_values_is_refused_before_it_is_built() -> None:
    """A sum counts up to one total per pair of its sides' totals: 1d1000×1,000,000 + 1d1000
    has a million, refused by the estimate up front (not after a second of building them),
    while a small sparse sum still gets its exact odds."""
    with pytest.raises(OddsBudgetError, match="too large to compute quickly"):
        distribution("1d1000*1000000 + 1d1000")
    small = distribution("1d20*100 + 1d20")
    assert len(small) == 400 and small[2020] == Fraction(1, 400) and small.max == 2020


def test_many_exploding_dice_counted_are_refused_up_front_few_get_their_odds() -> None:
    """Counting successes of exploding dice sums weights as long as each die's chain: a
    thousand of them is refused by the estimate (not after seconds of work); a hundred is
    answered, every die a success with chance 3/10 (the explosion adds to the die's face)."""
    with pytest.raises(OddsBudgetError, match=r"about 1,001 totals and [\d,]+ steps"):
        distribution("1000d10!c>=8")
    hundred = distribution("100d10!c>=8")
    assert hundred.max == 100 and hundred[100] == Fraction(3, 10) ** 100


def test_a_reroll_checks_each_face_once_and_builds_its_new_die_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``1d1000rr<999`` rerolls 998 faces into the same two: each face is checked once (not
    once per rerolled face, a million checks), and twelve such dice kept highest are answered
    (they were refused for the work of rebuilding the two faces); ``ro`` likewise."""
    checks = 0
    real = odds_builder.picks

    def counted(sels: tuple[Sel, ...], value: Value) -> bool:
        nonlocal checks
        checks += 1
        return real(sels, value)

    monkeypatch.setattr(odds_builder, "picks", counted)
    half = Fraction(1, 2)
    assert distribution("1d1000rr<999").items() == [(999, half), (1000, half)]
    assert checks <= 3 * 1000
    twelve = distribution("(" + ",".join(["1d1000rr<999"] * 12) + ")kh1")
    assert twelve.items() == [(999, half**12), (1000, 1 - half**12)]
    once = distribution("1d200ro<199")  # a face below 199 rerolled once, into any face
    assert once[1] == Fraction(198, 200**2) and once[200] == Fraction(200 + 198, 200**2)


def test_a_sum_of_long_exploding_weights_is_refused_before_it_is_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting 200d10e10 sums the dice as one big-integer power of some 19 million bits
    (each die's weights span a dozen explosions): refused before the power is taken."""
    def never(die: object, count: int) -> None:
        raise AssertionError("the power was taken")

    monkeypatch.setattr(odds_builder, "sum_power", never)
    for expr in ["200d10e10c>=8", "100d10e>5c>=8"]:
        with pytest.raises(OddsBudgetError, match="summing the dice would bring the work"):
            distribution(expr)
    monkeypatch.undo()
    assert distribution("50d10e10c>=8").min == 0


def test_explode_depth_is_bounded() -> None:
    with pytest.raises(OddsBudgetError):
        distribution("d6!", explode_depth=50)


def test_odds_of_with_a_difficulty() -> None:
    report = odds_of("2d6+1", vs=8)
    assert report.figures[0] == ("P(total ≥ 8)", Fraction(7, 12))
    assert report.rows[0] == (3, Fraction(1, 36))
    text = report.to_text()
    assert "58.33%" in text and "(7/12)" in text
    assert "█" in text
    assert "P(successes ≥ 2)" in odds_of("5d6>=5", vs=2).to_text()


def test_report_data_is_json_native_and_exact() -> None:
    data = json.loads(json.dumps(odds_of("3d6", vs=10).to_data()))
    assert data["figures"][0]["fraction"] == "5/8"
    assert len(data["rows"]) == 16
    assert Fraction(data["rows"][0]["fraction"]) == Fraction(1, 216)


def test_a_difficulty_past_the_dice_limits_is_refused() -> None:
    """odds_of serves the CLI, the server and the rulesets: 'vs' has the dice's limit."""
    from fracas.errors import InvalidInput

    with pytest.raises(InvalidInput, match=r"vs 1000001 is past the dice limits"):
        odds_of("2d6", 1_000_001)
    assert dict(odds_of("2d6", -1_000_000).figures)["P(total ≥ -1000000)"] == 1
