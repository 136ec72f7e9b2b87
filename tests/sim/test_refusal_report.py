"""A command the engine refuses in a simulated encounter is counted and named in the report:
its verb, the rule and message of the error, and an example command (docs/sim.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.cli.main import app
from fracas.sim import Runner, SimJob, report_data, simulate

MISJUDGING = (("villains", "tests.sim.tactics:misjudging"),)


@pytest.mark.rule("ES-ACT-4")
def test_refusals_are_listed_by_kind_the_same_whatever_the_workers() -> None:
    sc = load_scenario("etherscope-car-chase")
    job = SimJob(sc.text, sc.path, 6, "refusals", policies=MISJUDGING)
    one = report_data(simulate(job, runner=Runner(1)))
    diag = one["results"][0]["diagnostics"]
    [kind] = diag["refusals"]
    assert diag["refused_commands"] == kind["count"] > 0
    assert (kind["verb"], kind["rule"], kind["error"]) == (
        "attack", "ES-ACT-4", "difficulty -1 is below 0")
    assert kind["example"].startswith("zepcar: attack ") and "difficulty=-1" in kind["example"]
    assert report_data(simulate(job, runner=Runner(2))) == one


def test_the_text_report_prints_each_kind_of_refusal() -> None:
    result = CliRunner().invoke(app, ["sim", "etherscope-car-chase", "-n", "3", "--seed", "r",
                                      "--workers", "1",
                                      "--policy", "villains=tests.sim.tactics:misjudging"])
    assert result.exit_code == 0, result.output
    assert "attack refused (ES-ACT-4): difficulty -1 is below 0" in result.output
    assert "e.g. zepcar: attack" in result.output


def test_the_bundled_scenario_refuses_nothing_its_own_agents_choose() -> None:
    result = CliRunner().invoke(app, ["sim", "etherscope-car-chase", "-n", "20", "--seed",
                                      "clean", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    diag = json.loads(result.output)["results"][0]["diagnostics"]
    assert diag == {"refused_commands": 0, "stalled": 0, "stalled_at": [], "refusals": []}


def test_a_policy_that_insists_on_a_refused_command_stops_the_job_with_a_sentence() -> None:
    result = CliRunner().invoke(app, ["sim", "etherscope-car-chase", "-n", "2", "--seed", "i",
                                      "--workers", "1",
                                      "--policy", "villains=tests.sim.tactics:insisting"])
    assert result.exit_code == 2, result.output
    assert "the policy of side villains chose 65 commands the rules refused" in result.output
    assert "Traceback" not in result.output


@pytest.mark.rule("FU-CON-3")
def test_stalled_encounters_say_where_they_stood(tmp_path: Path) -> None:
    """A Fabula Ultima scenario whose player character is not marked kind = "pc": nobody may
    lead the Initiative check, so every encounter stalls, and the report says why."""
    text = load_scenario("fabula-ultima-ambush").text
    no_pc = re.sub(r'script = """.*?"""', "", text, flags=re.S).replace('kind = "pc"',
                                                                          'kind = "npc"')
    path = tmp_path / "no-pc.toml"
    path.write_text(no_pc, encoding="utf-8")
    result = CliRunner().invoke(app, ["sim", str(path), "-n", "4", "--seed", "s",
                                      "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    diag = json.loads(result.output)["results"][0]["diagnostics"]
    assert diag["stalled"] == 4 and diag["stalled_at"] == [{"count": 4, "state": (
        'set-up: record goals, equip PCs, but heroes has no PC (kind = "pc") to lead the '
        "Initiative Group Check (FU-CON-3)")}]
    shown = CliRunner().invoke(app, ["sim", str(path), "-n", "4", "--seed", "s",
                                     "--workers", "1"])
    assert "4 stalled where nobody could act: set-up" in " ".join(shown.output.split())
