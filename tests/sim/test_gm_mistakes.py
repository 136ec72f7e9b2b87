"""What a GM preparing a session gets wrong with ``fracas sim``: each refused at once, in
plain words, nothing run."""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.cli.main import app
from tests.sim import tactics

runner = CliRunner()


def test_a_prologue_that_ends_the_conflict_is_refused_not_counted_as_no_decision(
        tmp_path: Path) -> None:
    """Every encounter would start ended: the report read 100% "no decision (round cap)" in
    0 rounds, as if the sides had stalled each other."""
    text = load_scenario("fabula-ultima-ambush").text
    path = tmp_path / "ended.toml"
    path.write_text(text + '\n[sim]\nprologue = """\nnote "they meet"\nend "over"\n"""\n')
    result = runner.invoke(app, ["sim", str(path), "-n", "3", "--seed", "x"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    lines = text.count("\n") + 1
    assert f"ended.toml:{lines + 4}: [sim] prologue holds 'end \"over\"': a prologue that " \
           "ends the conflict leaves nothing to simulate" in said, said
    assert "Traceback" not in result.output and "who wins" not in said


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (its local workers)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_kill_or_a_closed_terminal_stops_the_local_workers_too(signum: int) -> None:
    """``kill PID`` (SIGTERM) or closing the terminal (SIGHUP) ended the main process only:
    its two workers went on playing their chunks (minutes of a brawl), unseen."""
    run = subprocess.Popen(
        [sys.executable, "-c", "from fracas.cli import main; main()", "sim", "vers-tavern-brawl",
         "-n", "100000", "--seed", "t", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: list[int] = []
    try:
        for _ in range(600):  # both workers are playing
            workers = _children(run.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        time.sleep(1)
        os.kill(run.pid, signum)  # the main process alone, as `kill PID` does
        _, err = run.communicate(timeout=60)
        for _ in range(50):
            if not any(map(_alive, workers)):
                break
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
    assert len(workers) >= 2
    assert run.returncode == 128 + signum, err
    assert "Traceback" not in err
    assert left == []


def _line_of(function: object, text: str) -> str:
    """``file:line`` of the line of ``function``'s source holding ``text``, relative to the
    working folder (as the error names it)."""
    lines, start = inspect.getsourcelines(function)  # type: ignore[arg-type]
    at = start + next(i for i, line in enumerate(lines) if text in line)
    path = Path(inspect.getfile(function)).resolve()  # type: ignore[arg-type]
    return f"{path.relative_to(Path.cwd().resolve())}:{at}"


@pytest.mark.parametrize("name, text", [
    ("broken", 'raise ZeroDivisionError("oops")'),
    ("exits", "raise SystemExit(3)"),
    ("picks_from_nothing", "return turn.pick([])"),  # raised inside fracas: the call is blamed
])
def test_a_failing_policy_of_your_own_is_named_with_the_line_it_failed_at(
        name: str, text: str) -> None:
    """Before, only the exception: 'the policy of side heroes failed: IndexError(...)', and a
    GM with a policy of a hundred lines had to guess where."""
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--workers", "1",
                                 "--policy", f"heroes=tests.sim.tactics:{name}"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    where = _line_of(getattr(tactics, name), text)
    assert "the policy of side heroes failed: " in said and f" at {where} in {name}" in said, said
    assert "Traceback" not in result.output


def test_a_policy_module_that_fails_as_it_loads_is_named_with_its_line() -> None:
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--policy",
                                 "heroes=tests.sim.tactics_that_fail_to_load:p"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    source = Path(tactics.__file__).with_name("tactics_that_fail_to_load.py")
    at = next(i for i, line in enumerate(source.read_text().splitlines(), 1) if "1 / 0" in line)
    where = source.resolve().relative_to(Path.cwd().resolve())
    assert f"ZeroDivisionError: division by zero at {where}:{at} in <module>" in said, said


def test_the_rounds_line_names_the_scenarios_round_limit_when_it_ends_the_encounters() -> None:
    """With round_limit = 2 every encounter is "no decision" after 2 rounds; the line read
    '(cap 50)', the --max-rounds default, as though the policies had stalled each other."""
    args = ["sim", "vers-tavern-brawl", "-n", "2", "--seed", "lim", "--workers", "1"]
    result = runner.invoke(app, [*args, "--vary", "round_limit=2"])
    assert result.exit_code == 0, result.output
    head = " ".join(result.output.split())
    assert "2 encounters · rounds: mean 2.0, median 2, 90% within 2 (round limit 2)" in head
    data = json.loads(runner.invoke(app, [*args, "--vary", "round_limit=2", "--json"]).output)
    assert data["results"][0]["rounds"]["round_limit"] == 2
    one = runner.invoke(app, [*args[:2], "-n", "1", *args[4:], "--max-rounds", "1"])
    assert "1 encounter · rounds: mean 1.0, median 1, 90% within 1 (cap 1)" in \
        " ".join(one.output.split()), one.output


def test_the_win_table_and_the_plot_say_a_round_limit_left_the_encounters_undecided(
        tmp_path: Path) -> None:
    """With round_limit = 2 the win table's row (and the plot's bar) still read "no decision
    (round cap)", beside a rounds line saying the round limit ended them."""
    args = ["sim", "vers-tavern-brawl", "-n", "2", "--seed", "lim", "--workers", "1"]
    one = runner.invoke(app, [*args, "--vary", "round_limit=2"], env={"COLUMNS": "120"})
    assert one.exit_code == 0, one.output
    assert "│ no decision (round limit) │ 100.0%" in one.output, one.output
    assert "round cap" not in one.output
    plot = tmp_path / "sweep.svg"
    sweep = runner.invoke(app, [*args, "--vary", "round_limit=2,null", "--plot", str(plot)],
                          env={"COLUMNS": "120"})
    wins = sweep.output.split("P(taken out)")[0]  # the win table, not the one below it
    heads = [line.split("┃")[-2].strip() for line in wins.splitlines()
             if line.startswith("┃")]  # the last column's head, its gloss on its own line
    assert heads == ["no decision", "(round limit or cap)"], sweep.output
    assert "no decision (round limit or cap)" in plot.read_text()
    plain = runner.invoke(app, args, env={"COLUMNS": "120"})  # no limit: the cap, as before
    assert "│ no decision (round cap) │" in plain.output, plain.output


def test_a_mistyped_policy_names_the_option_and_side_it_was_given_for() -> None:
    """Before: 'unknown policy 'focus-fir': …', with nothing to say which --policy of several
    was at fault."""
    result = runner.invoke(app, ["sim", "vers-tavern-brawl", "-n", "2", "--policy",
                                 "heroes=defensive", "--policy", "toughs=focus-fir"])
    assert result.exit_code == 2, result.output
    assert "--policy toughs=focus-fir: unknown policy 'focus-fir'; did you mean " \
           "'focus-fire'?" in " ".join(result.output.split())


def test_the_report_names_the_prologue_every_encounter_starts_from(tmp_path: Path) -> None:
    """The script is not played, only its head of GM commands (or [sim] prologue): the
    report said neither, so a GM could not tell the chase was begun, or that it was not."""
    args = ["-n", "1", "--seed", "pro", "--workers", "1"]
    chase = runner.invoke(app, ["sim", "vers-chase", *args])
    assert "\nprologue: chase c1 hunter=ada quarry=cutpurse length=2\n" in chase.output
    text = load_scenario("vers-chase").text
    path = tmp_path / "hidden.toml"
    path.write_text(text + '\n[sim]\nprologue = """\nchase c1 hunter=ada quarry=cutpurse '
                    'length=3\nconceal cutpurse\n"""\n')
    data = json.loads(runner.invoke(app, ["sim", str(path), *args, "--json"]).output)
    assert data["prologue"] == ["chase c1 hunter=ada quarry=cutpurse length=3",
                                "conceal cutpurse"]
    plain = runner.invoke(app, ["sim", "fabula-ultima-ambush", *args])
    assert plain.exit_code == 0 and "prologue" not in plain.output
    assert json.loads(runner.invoke(app, ["sim", "fabula-ultima-ambush", *args, "--json"]
                                    ).output)["prologue"] == []
