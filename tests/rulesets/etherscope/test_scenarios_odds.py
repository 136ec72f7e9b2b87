"""The four seed scenarios through `fracas run`, and `fracas odds --ruleset etherscope`."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.errors import InvalidInput

from .helpers import ES, make, refused

SCEN = Path(__file__).resolve().parents[3] / "src" / "fracas" / "scenarios"


def run(name: str, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["run", str(SCEN / name), "--seed", "s", "--json", *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def events(out: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for r in out["log"] for e in r["events"]]


@pytest.mark.rule("ES-SET-7", "ES-ACT-5", "ES-DMG-2")
def test_car_chase() -> None:
    out = run("etherscope-car-chase.toml")
    lines = out["state"]["conflict"]["ruleset"]["lines"]
    assert lines[0] == "This is a prime, physical, quick, chase scale conflict."
    acts = [e["data"] for e in events(out) if e["type"] == "action_resolved"]
    assert [a["action"] for a in acts] == ["push", "attack", "move"]
    assert acts[0]["spent"] == {"damage": 2}
    assert ["ada", "zepcar", "near"] in out["state"]["conflict"]["ruleset"]["ranges"]
    dmg = [e["data"] for e in events(out) if e["type"] == "damage"]
    assert dmg == [{"participant": "ada", "amount": 2, "condenser": "physical", "left": 10,
                    "reason": "push back", "source": "zepcar"},
                   {"participant": "zepcar", "amount": 2, "condenser": "physical", "left": 8,
                    "reason": "attack", "source": "bruno"}]


@pytest.mark.rule("ES-START-4", "ES-RNG-3", "ES-RNG-6")
def test_agents_in_a_domain() -> None:
    out = run("etherscope-agents-domain.toml")
    assert "This is an ether, physical, fast, battlefield scale conflict." in \
        out["state"]["conflict"]["ruleset"]["lines"]
    assert any(e["type"] == "revealed" for e in events(out))
    kate = run("etherscope-agents-domain.toml", "--as", "kate")
    early = json.dumps(kate["log"][1:5])  # awareness, ambush, counter roll
    assert "agent2" not in early and "Agent Black" not in early


@pytest.mark.rule("ES-SET-3", "ES-ACT-4")
def test_war_of_words() -> None:
    out = run("etherscope-war-of-words.toml")
    dmg = [e["data"] for e in events(out) if e["type"] == "damage"]
    assert dmg[-1]["participant"] == "vera" and dmg[-1]["condenser"] == "society"
    assert "acting physical" in dmg[-1]["reason"]


@pytest.mark.rule("ES-ACT-1")
def test_novgorod_plot_zooms_and_carries_damage_back() -> None:
    out = run("etherscope-novgorod-plot.toml")
    types = [e["type"] for e in events(out)]
    assert "zoom_opened" in types and "zoom_closed" in types
    opened = next(e for e in events(out) if e["type"] == "zoom_opened")
    assert opened["data"]["time_scale"] == "strategic"
    dealer = next(p for p in out["state"]["conflict"]["participants"] if p["id"] == "dealer")
    assert dealer["condensers"]["society"] == [2, 5]


@pytest.mark.rule("ES-ACT-4")
def test_odds_query_is_exact() -> None:
    report = ES.odds("pool 2 vs 1")
    figures = dict(report.figures)
    assert figures["P(success)"] == 1 - Fraction(2, 3) ** 2
    assert sum(p for _, p in report.rows) == 1
    assert any("expected extra successes" in n for n in report.notes)
    assert dict(ES.odds("pool 1 vs 1 die 10 threshold 8").figures)["P(success)"] == \
        Fraction(3, 10)
    with pytest.raises(InvalidInput):
        ES.odds("five dice please")
    result = CliRunner().invoke(app, ["odds", "--ruleset", "etherscope", "pool 5 vs 2"])
    assert result.exit_code == 0, result.output
    assert "P(success)" in result.output


@pytest.mark.rule("ES-ACT-4")
@pytest.mark.parametrize("query,pool,difficulty", [("pool 3 vs 1", 3, 1), ("pool 4 vs 2", 4, 2),
                                                   ("pool 2", 2, 1), ("pool 3 vs 0", 3, 0)])
def test_every_figure_of_a_pools_odds_is_counted_die_by_die(
        query: str, pool: int, difficulty: int) -> None:
    """Each line of the odds of a pool of d6 (5+ a success) is what counting every face of
    every die gives: the chance of success and of failure, of 1, 2 and 3 extra successes
    (those the pool can reach), each number of successes, and the expected successes and
    extra successes."""
    rolls = [sum(face >= 5 for face in faces)
             for faces in itertools.product(range(1, 7), repeat=pool)]

    def share(test: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(1 for n in rolls if test(n)), len(rolls))

    report = ES.odds(query)
    win = share(lambda n: n >= difficulty)
    assert report.figures == [("P(success)", win), ("P(failure)", 1 - win)] + [
        (f"P({k}+ extra)", share(lambda n, k=k: n >= difficulty + k))
        for k in (1, 2, 3) if difficulty + k <= pool]
    assert report.rows == [(n, share(lambda m, n=n: m == n)) for n in range(pool + 1)]
    mean = Fraction(sum(rolls), len(rolls))
    extra = Fraction(sum(max(0, n - difficulty) for n in rolls), len(rolls))
    assert report.notes[:2] == [f"expected successes: {float(mean):.3f} ({mean})",
                                f"expected extra successes: {float(extra):.3f} ({extra})"]


@pytest.mark.rule("ES-ACT-4")
def test_a_pool_has_one_limit_for_a_command_and_for_its_odds() -> None:
    """Before: 'awareness pool=1000' rolled a thousand dice while the odds of that pool were
    refused past 200; now both take at most 200 dice (docs/limits.md) with the same words."""
    from fracas.rulesets.etherscope.limits import MAX_POOL

    words = rf"a pool of {MAX_POOL + 1} dice is too large: at most {MAX_POOL} \(the limit " \
            r"on pools\) \(ES-ACT-4\)"
    c = make()
    message = refused(c, f"ada: awareness pool={MAX_POOL + 1}", InvalidInput, "ES-ACT-4")
    assert message == f"a pool of {MAX_POOL + 1} dice is too large: at most {MAX_POOL} (the " \
                      "limit on pools) (ES-ACT-4)"
    with pytest.raises(InvalidInput, match=words):
        ES.odds(f"pool {MAX_POOL + 1} vs 1")
    result = CliRunner().invoke(app, ["odds", "--ruleset", "etherscope",
                                      f"pool {MAX_POOL + 1} vs 1"])
    assert result.exit_code == 2 and message in " ".join(result.output.split())
    c.execute(f"ada: awareness pool={MAX_POOL}")  # the limit itself is a pool
    assert c.state.ext.awareness_pools["ada"] == MAX_POOL
