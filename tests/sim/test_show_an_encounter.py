"""``fracas sim --show``: one encounter of the run, played again with its log, so a GM can
check by hand what the figures count."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.cli.main import app
from fracas.sim import SimJob
from fracas.sim.encounter import Encounter, Prepared, play_encounter, prepare

runner = CliRunner()


def _sim(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["sim", *args, "--workers", "1"])
    return result.exit_code, result.output


def _prepared(name: str, n: int, seed: str) -> Prepared:
    sc = load_scenario(name)
    return prepare(SimJob(sc.text, sc.path, n, seed))


def test_show_n_prints_the_log_of_that_encounter_of_the_run() -> None:
    """Encounter 3 of the run with seed 'gm': the commands of its log are the ones the
    simulator played in it, each with its dice, then the end and the state at the end."""
    code, out = _sim("vers-chase", "-n", "4", "--seed", "gm", "--show", "3")
    assert code == 0, out
    trace: list[str] = []
    played = Encounter(_prepared("vers-chase", 4, "gm"), 2, trace).play()
    report, _, shown = out.partition("\nencounter 3 of 4 (seed gm): ")
    assert "who wins" in report and shown, out
    ended = f"{played.winner} won ({played.outcome}), {played.rounds} round"
    assert shown.startswith(ended)
    commands = [line.split(None, 1)[1] for line in shown.splitlines()
                if line[:1] == "v" and line[1:2].isdigit()]
    assert commands[:3] == ["create", "chase c1 hunter=ada quarry=cutpurse length=2",
                            commands[2]]  # the set-up, the prologue, then the play
    assert commands[2:-1] == trace
    assert commands[-1].startswith("end ")
    assert "rolled [" in shown  # the dice of each roll, as the table's log gives them
    assert "Chase c1" in shown  # the state at the end


def test_show_a_side_finds_the_first_encounter_it_won() -> None:
    code, out = _sim("etherscope-agents-domain", "-n", "12", "--seed", "a", "--json",
                     "--show", "agents")
    assert code == 0, out
    data = json.loads(out)
    shown = data["encounter"]
    p = _prepared("etherscope-agents-domain", 12, "a")
    assert shown["winner"] == "agents" and data["results"][0]["wins"]["agents"]["count"] >= 1
    assert shown["number"] > 1  # (not the first encounter: the search is tried)
    earlier = [play_encounter(p, i).winner for i in range(shown["number"] - 1)]
    assert "agents" not in earlier
    assert shown["log"][0]["command"] == "create"
    assert shown["log"][-1]["command"].startswith("end ")
    assert any("Agent Grey" in line for entry in shown["log"] for line in entry["lines"])
    del data["encounter"]  # the report is the one the run gives without --show
    assert data == json.loads(_sim("etherscope-agents-domain", "-n", "12", "--seed", "a",
                                   "--json")[1])


def test_show_an_outcome_finds_the_first_encounter_that_ended_so() -> None:
    code, out = _sim("vers-chase", "-n", "20", "--seed", "gm", "--json", "--show", "escaped")
    assert code == 0, out
    shown = json.loads(out)["encounter"]
    assert shown["outcome"] == "escaped" and shown["winner"] == "npcs"


@pytest.mark.parametrize("show, message", [
    ("0", "--show 0: the run plays encounters 1 to 3"),
    ("4", "--show 4: the run plays encounters 1 to 3"),
    ("villains", "--show villains: give an encounter's number (1 to 3), a side or an "
                 "outcome: pcs, npcs, taken out, captured, escaped, no decision"),
    ("taken out", "--show taken out: none of the 3 encounters ended in taken out"),
])
def test_a_bad_show_is_a_clear_error_without_traceback(show: str, message: str) -> None:
    code, out = _sim("vers-chase", "-n", "3", "--seed", "gm", "--show", show)
    assert code == 2, out
    assert message in " ".join(out.split()) and "Traceback" not in out


def test_show_in_a_sweep_of_several_combinations_is_refused() -> None:
    code, out = _sim("vers-chase", "-n", "2", "--seed", "gm", "--show", "1",
                     "--vary", "pcs=1,2")
    assert code == 2 and "--show 1: a sweep of 2 combinations has no one encounter" in \
        " ".join(out.split())
    code, out = _sim("vers-chase", "-n", "2", "--seed", "gm", "--show", "1", "--vary", "pcs=2")
    assert code == 0 and "encounter 1 of 2" in out


def test_a_report_with_undecided_encounters_says_how_to_see_one() -> None:
    """Many "no decision" encounters mean the sides stall each other, or cannot reach one
    another: the report points at the encounter that shows which."""
    code, out = _sim("vers-tavern-brawl", "-n", "2", "--seed", "gm", "--max-rounds", "1")
    assert code == 0, out
    assert "2 of 2 encounters reached no decision: --show 'no decision' prints the first of " \
           "them, turn by turn" in " ".join(out.split())
    code, out = _sim("vers-tavern-brawl", "-n", "2", "--seed", "gm", "--max-rounds", "1",
                     "--show", "no decision")
    assert code == 0 and "encounter 1 of 2 (seed gm): no decision, 1 round" in out
    assert "reached no decision" not in out
    decided = _sim("vers-chase", "-n", "3", "--seed", "gm")[1]
    assert "reached no decision" not in decided
