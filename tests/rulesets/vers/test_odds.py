"""Exact odds: 3d6 roll-under and pursuit capture chances (Markov chain, not sampled)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.errors import InvalidInput

from .helpers import ruleset


@pytest.mark.rule("VR-ROLL-1")
def test_check_odds_and_margin_distribution():
    report = ruleset().odds("3d6 vs 12 -2")
    figures = dict(report.figures)
    assert figures["P(success)"] == Fraction(1, 2)  # 3d6 ≤ 10
    assert dict(report.rows)[7] == Fraction(1, 216)  # rolled 3: 7 DoS
    assert dict(report.rows)[-8] == Fraction(1, 216)
    assert sum(p for _, p in report.rows) == 1
    assert dict(ruleset().odds("3d6 vs 14 -2 +1").figures)["P(success)"] == Fraction(
        sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
            if a + b + c <= 13), 216)


@pytest.mark.rule("VR-CHASE-3", "VR-CHASE-6")
def test_chase_capture_chance_matches_hand_solution():
    # p = 1/2 on 5 positions from 3: x4 = 1/5, x3 = 2/5 (solved by hand)
    for role in ("hunter", "quarry"):
        report = ruleset().odds(f"chase length 2 tn 10 vs 0 as {role}")
        assert dict(report.figures)["P(capture before escape)"] == Fraction(2, 5)
    sure = ruleset().odds("chase length 6 tn 18 vs 0 as hunter")
    assert dict(sure.figures)["P(capture before escape)"] == 1
    never = ruleset().odds("chase length 4 tn 2 vs 0 as hunter")
    assert dict(never.figures)["P(capture before escape)"] == 0


@pytest.mark.rule("VR-CHASE-2")
def test_chase_odds_start_and_refusals():
    near = dict(ruleset().odds("chase length 3 tn 12 vs 1 as hunter start 2").figures)
    mid = dict(ruleset().odds("chase length 3 tn 12 vs 1 as hunter").figures)
    assert near["P(capture before escape)"] > mid["P(capture before escape)"]
    with pytest.raises(InvalidInput):
        ruleset().odds("chase length 7 tn 12 vs 1 as hunter")
    with pytest.raises(InvalidInput):
        ruleset().odds("what are my chances")


def test_odds_through_the_cli():
    result = CliRunner().invoke(app, ["odds", "--ruleset", "vers", "3d6 vs 12 -2", "--json"])
    assert result.exit_code == 0, result.output
    assert '"1/2"' in result.output
