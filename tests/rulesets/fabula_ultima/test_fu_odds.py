"""Exact odds of checks and group checks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine import Viewer
from fracas.engine.commands import Command
from fracas.errors import InvalidInput
from tests.rulesets.fabula_ultima.support import RULESET, make, npc, pc, run


def _brute(a: int, b: int, mod: int, dl: int) -> tuple[Fraction, Fraction, Fraction]:
    win = crit = fum = 0
    for x in range(1, a + 1):
        for y in range(1, b + 1):
            c = x == y and x >= 6
            f = x == y == 1
            crit += c
            fum += f
            win += c or (not f and x + y + mod >= dl)
    n = a * b
    return Fraction(win, n), Fraction(crit, n), Fraction(fum, n)


@pytest.mark.rule("FU-CHK-1", "FU-CHK-3", "FU-CHK-4")
def test_check_odds_are_exact() -> None:
    report = RULESET.odds("{d8 + d10} + 1 vs 13")
    figures = dict(report.figures)
    assert (figures["P(success)"], figures["P(critical)"], figures["P(fumble)"]) == \
        _brute(8, 10, 1, 13)
    assert figures["P(critical)"] == Fraction(3, 80)


@pytest.mark.rule("FU-CHK-3", "FU-CHK-4")
def test_a_check_that_no_sum_reaches_still_succeeds_on_a_critical() -> None:
    """Against a DL no total of the dice can reach, only a critical succeeds: the odds say
    1 in 36 for {d6+d6} (double 6), not a chance below nothing; against a DL every total
    reaches, only a fumble fails."""
    out_of_reach = dict(RULESET.odds("{d6+d6} vs 30").figures)
    assert out_of_reach["P(success)"] == out_of_reach["P(critical)"] == Fraction(1, 36)
    assert out_of_reach["P(failure)"] == Fraction(35, 36)
    assert out_of_reach["P(success)"] == _brute(6, 6, 0, 30)[0]
    sure = dict(RULESET.odds("{d6+d6} vs 2").figures)
    assert sure["P(success)"] == Fraction(35, 36) == _brute(6, 6, 0, 2)[0]
    assert sure["P(failure)"] == sure["P(fumble)"] == Fraction(1, 36)


@pytest.mark.rule("FU-CHK-5", "FU-CHK-3", "FU-CHK-4")
def test_group_odds_combine_supporters_and_bonds() -> None:
    report = RULESET.odds("group {d8+d8}+1 vs 12 supporters {d8+d6},{d10+d10} bonds 2,0")
    figures = dict(report.figures)
    p1 = _brute(8, 6, 0, 10)[0]
    p2 = _brute(10, 10, 0, 10)[0]
    dist = {0: (1 - p1) * (1 - p2), 3: p1 * (1 - p2), 1: (1 - p1) * p2, 4: p1 * p2}
    win = sum(p * _brute(8, 8, 1 + bonus, 12)[0] for bonus, p in dist.items())
    assert figures["P(leader succeeds)"] == win
    assert figures["P(bonus +3)"] == dist[3]
    # help changes the total, never the leader's dice: doubles of 6, 7 or 8 on {d8+d8} are
    # a critical and double 1s a fumble, whatever the supporters add (FU-CHK-3, FU-CHK-4)
    assert figures["P(critical)"] == _brute(8, 8, 0, 99)[1] == Fraction(3, 64)
    assert figures["P(fumble)"] == Fraction(1, 64)


def test_odds_through_the_cli_and_bad_queries() -> None:
    result = CliRunner().invoke(app, ["odds", "--ruleset", "fabula-ultima", "--json",
                                      "{d8+d10}+1 vs 13"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["figures"][0]["fraction"] == "7/20"
    with pytest.raises(InvalidInput):
        RULESET.odds("{d8+d7} vs 10")
    with pytest.raises(InvalidInput):
        RULESET.odds("3d6 vs 10")


@pytest.mark.rule("FU-CHK-1", "FU-RES-4")
def test_a_checks_odds_say_the_dice_a_status_steps_down() -> None:
    """Cid, Slow (DEX d8 → d6), opens **check** `dex+ins 10`: his phone reads the chance of
    the dice he will roll, and why the DEX die shrank — as do his attack's and spell's lines.
    Before, a check's form showed no odds at all, and the other lines the smaller die alone."""
    c = make(pc("cid", dex=8, ins=8, mig=10, wlp=8), pc("bea", wlp=10), npc("orc"))
    run(c, "cid: initiative dice=6,6,6,6", "status cid slow", "status bea poisoned",
        "status bea shaken")
    cid, gm = Viewer.of_player("cid"), Viewer.gm()
    check = Command("check", "cid", {"attributes": "dex+ins", "dl": 10, "bonus": 0})
    win = _brute(6, 8, 0, 10)[0]
    assert RULESET.command_odds(c.state, cid, check) == [
        f"Cid checks {{DEX+INS}} ({{d6+d8}}; DEX d8 → d6 (Slow)) vs DL 10: success "
        f"{float(win):.0%}"]
    sized = Command("check", "cid", {"attributes": "d8+d10", "dl": 12, "bonus": 1})
    assert RULESET.command_odds(c.state, cid, sized) == [
        f"Cid checks {{d8+d10}}+1 vs DL 12: success {float(_brute(8, 10, 1, 12)[0]):.0%}"]
    assert RULESET.command_odds(c.state, Viewer.of_player("bea"), check) == []  # not hers
    assert RULESET.pending_odds(c.state, cid)[0].startswith(
        "Cid attacks with unarmed strike ({d6+d10}; DEX d8 → d6 (Slow)): hit Orc")
    assert any(line.startswith("Bea casts a spell ({d8+d6}; WLP d10 → d6 (Poisoned, Shaken))")
               for line in RULESET.pending_odds(c.state, gm))


@pytest.mark.rule("FU-CHK-1")
def test_a_checks_odds_tell_a_player_no_gm_only_die() -> None:
    """A check of a GM-only die has no line for its own player (it would tell the die)."""
    c = make({**pc("cid", dex=10), "gm_only": ["dex"]}, pc("bea"), npc("orc"))
    run(c, "cid: initiative dice=6,6,6,6")
    check = Command("check", "cid", {"attributes": "dex+ins", "dl": 10, "bonus": 0})
    assert RULESET.command_odds(c.state, Viewer.of_player("cid"), check) == []
    assert RULESET.command_odds(c.state, Viewer.gm(), check)[0].startswith(
        "Cid checks {DEX+INS} ({d10+d8}) vs DL 10: success")
    ins = Command("check", "cid", {"attributes": "ins+wlp", "dl": 10, "bonus": 0})
    assert RULESET.command_odds(c.state, Viewer.of_player("cid"), ins) != []
