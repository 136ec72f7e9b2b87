"""The ``roll`` and ``odds`` commands through Typer's test runner."""

from __future__ import annotations

import json
import sys
import types
from fractions import Fraction

import pytest
import typer
from typer.testing import CliRunner

from fracas.cli.dice import register
from fracas.cli.dice_render import report_to_rich, roll_to_rich
from fracas.dice import DiceRng, OddsReport, from_table, roll

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_roll_with_seed_is_repeatable_and_plain_when_piped() -> None:
    result = runner.invoke(make_app(), ["roll", "4d6kh3+2", "--seed", "table-1"])
    assert result.exit_code == 0
    expected = roll("4d6kh3+2", DiceRng.derive("table-1", 0)).to_text()
    assert result.stdout.strip() == expected


def test_roll_json_includes_seed() -> None:
    result = runner.invoke(make_app(), ["roll", "3d6", "--seed", "7", "--json"])
    data = json.loads(result.stdout)
    assert data["seed"] == "7"
    assert data["expression"] == "3d6"
    assert len(data["dice"]) == 3 and sum(data["dice"]) == data["total"]


@pytest.mark.parametrize("seed, message", [
    ("a\x01b", "the seed holds the control character U+0001"),
    ("x" * 201, "the seed is 201 characters long; at most 200 (the limit on seeds)"),
])
def test_roll_takes_the_seeds_run_takes(seed: str, message: str) -> None:
    result = runner.invoke(make_app(), ["roll", "d6", "--seed", seed])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_roll_without_seed_uses_a_fresh_seed() -> None:
    a = json.loads(runner.invoke(make_app(), ["roll", "d6", "--json"]).stdout)
    b = json.loads(runner.invoke(make_app(), ["roll", "d6", "--json"]).stdout)
    assert a["seed"] != b["seed"]


def test_roll_many_times_sums_them_and_counts_those_at_the_dc() -> None:
    args = ["roll", "1d20+5 adv", "--times", "4", "--dc", "15", "--seed", "rr"]
    rolls = [roll("1d20+5 adv", DiceRng.derive("rr", i)) for i in range(4)]
    result = runner.invoke(make_app(), args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[:4] == [r.to_text() for r in rolls]  # the first is the single roll's
    met = sum(r.total >= 15 for r in rolls)
    assert lines[4] == f"{met} of 4 at DC 15 or more · 4 rolls, sum {sum(r.total for r in rolls)}"
    data = json.loads(runner.invoke(make_app(), [*args, "--json"]).stdout)
    assert [d["total"] for d in data["rolls"]] == [r.total for r in rolls]
    assert (data["sum"], data["successes"], data["dc"]) == (sum(r.total for r in rolls), met, 15)


def test_a_dc_alone_judges_the_one_roll_and_a_total_at_the_dc_reaches_it() -> None:
    single = roll("1d20", DiceRng.derive("dc", 0))
    result = runner.invoke(make_app(), ["roll", "1d20", "--dc", str(single.total), "--seed", "dc"])
    assert result.stdout.strip().splitlines() == [
        single.to_text(), f"1 of 1 at DC {single.total} or more · 1 roll, sum {single.total}"]
    for times in ("1", "100"):  # the bounds are allowed
        out = runner.invoke(make_app(), ["roll", "1d6", "--times", times, "--json"])
        assert len(json.loads(out.stdout)["rolls"]) == int(times)


def test_roll_without_an_expression_rolls_a_d20_as_avrae_does() -> None:
    result = runner.invoke(make_app(), ["roll", "--seed", "r"])
    assert result.stdout.strip() == roll("1d20", DiceRng.derive("r", 0)).to_text()


def test_an_expression_may_start_with_a_minus_sign() -> None:
    result = runner.invoke(make_app(), ["roll", "-1d4+2", "--seed", "neg"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == roll("-1d4+2", DiceRng.derive("neg", 0)).to_text()
    odds = runner.invoke(make_app(), ["odds", "-1d4", "--json"])
    assert odds.exit_code == 0 and len(json.loads(odds.stdout)["rows"]) == 4
    assert runner.invoke(make_app(), ["roll", "1d6", "--bogus"]).exit_code == 2  # still refused


@pytest.mark.parametrize("times", ["0", "101"])
def test_roll_too_few_or_too_many_times_is_refused(times: str) -> None:
    result = runner.invoke(make_app(), ["roll", "1d6", "--times", times])
    assert result.exit_code == 2 and "give 1 to 100 rolls" in result.stderr


@pytest.mark.parametrize(("expr", "where"), [("2d6+)", "position 4"),
                                             ("1d6+0/0", "'/' at position 5")])
def test_bad_expression_exits_2_with_message_not_traceback(expr: str, where: str) -> None:
    result = runner.invoke(make_app(), ["roll", expr])
    assert result.exit_code == 2
    assert where in " ".join(result.stderr.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["roll", "1d0"], ["roll", "1d6", "--times", "0"], ["odds", "1d6/0"],
    ["odds", "--ruleset", "no-such-game", "3d6 vs 12"], ["odds", "1d6", "--vs", "99999999"],
])
def test_a_refused_roll_or_odds_reads_error_as_every_command_does(args: list[str]) -> None:
    """`fracas roll 1d0` said only "a die needs at least one face …": no "error:" as `fracas
    do`, `run` and the others write it."""
    result = runner.invoke(make_app(), args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: "), result.stderr


def test_odds_text_and_json() -> None:
    result = runner.invoke(make_app(), ["odds", "2d6+1", "--vs", "8"])
    assert result.exit_code == 0
    assert "58.33%" in result.stdout
    data = json.loads(runner.invoke(make_app(), ["odds", "3d6", "--json"]).stdout)
    assert len(data["rows"]) == 16


@pytest.mark.parametrize("args", [
    ["roll", "2d6", "--times", "3", "--dc", "1000000000000000000000"],
    ["roll", "2d6", "--dc", "-1000001"],
    ["odds", "2d6", "--vs", "1000000000000000000000"],
    ["odds", "2d6", "--vs", "-1000001"],
])
def test_a_dc_or_vs_past_the_dice_limits_is_refused(args: list[str]) -> None:
    """Before: --dc and --vs took 10^21, a number no total can be compared with; now they
    go to 1,000,000 either side, as a number in an expression (docs/limits.md)."""
    result = runner.invoke(make_app(), args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{args[-2]} {args[-1]} is past the dice limits: a total is compared with at most " \
           "1,000,000 either side" in " ".join(result.stderr.split())
    assert result.stdout == ""  # nothing rolled, no odds


def test_a_dc_or_vs_at_the_dice_limits_is_taken() -> None:
    assert runner.invoke(make_app(), ["roll", "2d6", "--dc", "-1000000"]).exit_code == 0
    assert "P(total ≥ 1000000)" in runner.invoke(
        make_app(), ["odds", "2d6", "--vs", "1000000"]).stdout


def test_odds_budget_error_exits_2() -> None:
    result = runner.invoke(make_app(), ["odds", "1000d1000"])
    assert result.exit_code == 2
    assert "too large" in result.stderr


def test_unknown_ruleset_exits_2_with_a_clear_message() -> None:
    result = runner.invoke(make_app(), ["odds", "anything", "--ruleset", "no-such-game"])
    assert result.exit_code == 2
    assert "no-such-game" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("extra", [["--vs", "3"], ["--d20"]])
def test_a_dice_option_with_a_ruleset_query_is_refused_not_ignored(extra: list[str]) -> None:
    result = runner.invoke(make_app(), ["odds", "3d6 vs 12", "--ruleset", "vers", *extra])
    assert result.exit_code == 2
    assert f"{extra[0]} goes with a dice expression, not with --ruleset" in result.stderr


def test_ruleset_odds_are_asked_of_the_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:

    class WithOdds:
        def odds(self, query: str) -> OddsReport:
            return OddsReport(f"Check {query}", [("P(crit)", Fraction(3, 80))])

    class WithoutOdds:
        pass

    fake = types.ModuleType("fracas.rulesets")
    fake.__dict__["get_ruleset"] = lambda name: WithOdds() if name == "game" else WithoutOdds()
    monkeypatch.setitem(sys.modules, "fracas.rulesets", fake)

    result = runner.invoke(make_app(), ["odds", "DEX+INS vs 13", "--ruleset", "game"])
    assert result.exit_code == 0
    assert "Check DEX+INS vs 13" in result.stdout and "3.75%" in result.stdout

    result = runner.invoke(make_app(), ["odds", "x", "--ruleset", "plain"])
    assert result.exit_code == 2
    assert "has no odds" in result.stderr


def test_rich_text_strikes_dropped_dice() -> None:
    text = roll_to_rich(from_table("4d6kh3+2", [6, 5, 3, 1]))
    assert text.plain == "4d6kh3+2 → [6, 5, 3, 1] + 2 = 16"
    struck = [span for span in text.spans if "strike" in str(span.style)]
    assert [text.plain[s.start : s.end] for s in struck] == ["1"]


def test_report_renders_in_rich() -> None:
    from rich.console import Console

    console = Console(record=True, width=80)
    report = OddsReport("Custom", [("P(win)", Fraction(1, 4))], [(1, Fraction(1, 4))], ["a note"])
    console.print(report_to_rich(report))
    out = console.export_text()
    assert "P(win)" in out and "25.00%" in out and "a note" in out


def test_an_exact_fraction_is_never_cut_in_a_narrow_terminal() -> None:
    # at 60 columns 10-again's exact odds, 4678419786333/20000000000000, read
    # "4678419786333/20000000000…"; now the whole number, going on below
    from rich.console import Console

    from fracas.dice.odds import odds_of

    console = Console(record=True, width=60)
    console.print(report_to_rich(odds_of("10d10e10c>=8", 5)))
    out = console.export_text()
    assert "…" not in out
    assert "4678419786333/20000000000000" in "".join(out.split())


@pytest.mark.parametrize("words", [
    ["1d20", "+", "5", "adv", "to", "hit"],  # as typed after Avrae's !r, without quotes
    ["1d20+5", "adv", "to", "hit"],
    ["1d20 + 5 adv to hit"],
])
def test_roll_takes_the_words_of_an_expression_unquoted(words: list[str]) -> None:
    expected = roll("1d20 + 5 adv to hit", DiceRng.derive("words", 0)).to_text()
    result = runner.invoke(make_app(), ["roll", *words, "--seed", "words"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == expected == "2d20kh1+5 to hit" + expected[16:]
    several = runner.invoke(make_app(), ["roll", "--times", "2", "--seed", "words", *words])
    assert several.stdout.splitlines()[0] == expected


def test_odds_take_the_words_of_an_expression_unquoted() -> None:
    result = runner.invoke(make_app(), ["odds", "1d20", "+", "5", "adv", "--vs", "15", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["title"] == "Odds of 2d20kh1+5 vs 15"
    assert data["figures"][0]["fraction"] == "319/400"  # 1 - (9/20)^2
