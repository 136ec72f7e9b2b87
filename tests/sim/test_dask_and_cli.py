"""The same job on a Dask cluster, and the ``fracas sim`` command (report, JSON, plot, sweep)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.cli.main import app
from fracas.cli.sim import print_report
from fracas.errors import InvalidInput
from fracas.sim import Runner, SimJob, report_data, simulate

runner = CliRunner()


def test_a_dask_cluster_gives_the_local_report() -> None:
    distributed = pytest.importorskip("distributed")
    sc = load_scenario("fabula-ultima-ambush")
    job = SimJob(sc.text, sc.path, 10, "dask")
    local = report_data(simulate(job, runner=Runner(1)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = report_data(simulate(job, runner=Runner(dask=client)))
    assert remote == local


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    pytest.importorskip("distributed")
    sc = load_scenario("vers-chase")
    with pytest.raises(InvalidInput, match=r"tcp://127\.0\.0\.1:9: cannot reach the scheduler"):
        simulate(SimJob(sc.text, sc.path, 2, "s"),
                 runner=Runner(dask="tcp://127.0.0.1:9", connect_timeout=1))


def test_sim_json_is_the_documented_report_and_repeats_with_the_seed() -> None:
    args = ["sim", "fabula-ultima-ambush", "-n", "6", "--seed", "cli", "--json",
            "--policy", "heroes=weakest-first", "--workers", "1"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["format"] == "fracas.sim/1" and data["seed"] == "cli"
    assert data["policies"] == {"heroes": "weakest-first", "bandits": "focus-fire"}
    r = data["results"][0]
    assert r["n"] == 6 and sum(v["count"] for v in r["wins"].values()) == 6
    assert set(r["characters"]) == {"ada", "bruno", "captain", "cut1", "cut2"}  # no extra
    assert runner.invoke(app, args).output == first.output


def test_sim_prints_tables_and_draws_a_plot(tmp_path: Path) -> None:
    plot = tmp_path / "report.svg"
    result = runner.invoke(app, ["sim", "etherscope-car-chase", "-n", "4", "--seed", "p",
                                 "--plot", str(plot), "--workers", "1"])
    assert result.exit_code == 0, result.output
    for text in ("who wins (95% CI)", "pursuers", "villains", "no decision", "P(taken out)",
                 "The zepcar driver"):
        assert text in result.output
    assert plot.read_text().lstrip().startswith("<?xml") and "<svg" in plot.read_text()


def test_the_report_header_keeps_the_seed_whole_and_the_policies_apart_in_80_cols() -> None:
    result = runner.invoke(app, ["sim", "vers-tavern-brawl", "-n", "2", "--seed", "w",
                                 "--workers", "1", "--json"])
    data = json.loads(result.output)
    terminal = Console(width=80, file=io.StringIO())
    print_report(terminal, data)
    lines = terminal.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[0] == "vers-tavern-brawl (vers) · seed w"
    assert lines[1] == "policies: heroes=focus-fire · toughs=focus-fire"
    terminal = Console(width=80, file=io.StringIO())
    print_report(terminal, {**data, "seed": "d5" * 32})  # as long as one made for the run
    lines = terminal.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines[:2] == ["vers-tavern-brawl (vers)", "seed " + "d5" * 32]  # whole, copyable


def test_outcomes_no_encounter_reached_are_named_on_one_line_not_as_rows() -> None:
    result = runner.invoke(app, ["sim", "vers-tavern-brawl", "-n", "3", "--seed", "w",
                                 "--workers", "1", "--json"])
    data = json.loads(result.output)
    outcomes = data["results"][0]["outcomes"]
    assert outcomes["taken out"]["count"] == 3 and outcomes["no decision"]["count"] == 0
    terminal = Console(width=200, file=io.StringIO())
    print_report(terminal, data)
    text = terminal.file.getvalue()  # type: ignore[attr-defined]
    table = text.split("outcome (95% CI)")[1].split("not seen")[0]
    assert "│ taken out │" in table and "no decision" not in table
    top = 100 * outcomes["no decision"]["ci95"][1]
    assert f"not seen: no decision (each at most {top:.1f}%, 95% CI)" in text


def test_the_report_names_the_commands_the_rules_offer_and_the_agents_never_play() -> None:
    # the ambush's heroes fight without their spells and win ~1%: the report says so, for
    # those who have the means (the cutthroats have no MP: no spell of theirs is named)
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "3", "--seed", "l",
                                 "--workers", "1", "--json"])
    data = json.loads(result.output)
    everyone = ["ada", "bruno", "captain", "cut1", "cut2"]  # the mule, an extra, is no one
    assert data["results"][0]["left_out"] == {
        "check": everyone, "equip": everyone, "fabula": ["ada", "bruno"], "goal": everyone,
        "spell": ["ada", "bruno", "captain"], "spend": everyone}
    terminal = Console(width=300, file=io.StringIO())
    print_report(terminal, data)
    assert ("left out: the simulated players never play check, equip, goal, spend (everyone); "
            "fabula (Ada, Bruno); spell (Ada, Bruno, Bandit Captain) — the rules offer them, so "
            "these figures understate whoever would use them") in terminal.file.getvalue()  # type: ignore[attr-defined]
    # (Mira is offered a repair once the counter she hides behind is struck: in 3 brawls)
    sweep = runner.invoke(app, ["sim", "vers-tavern-brawl", "-n", "3", "--seed", "l",
                                "--workers", "1", "--vary", "pcs=1,2"], env={"COLUMNS": "300"})
    assert "left out: the simulated players never play repair (Mira the knife) — " in sweep.output
    # a side called "agents": the line must not read as if only they never played it
    agents = runner.invoke(app, ["sim", "etherscope-agents-domain", "-n", "1", "--seed", "l",
                                 "--workers", "1"], env={"COLUMNS": "300"})
    assert "left out: the simulated players never play act (everyone) — " in agents.output
    chase = runner.invoke(app, ["sim", "vers-chase", "-n", "2", "--seed", "l", "--workers",
                                "1", "--json"])  # nothing the rules offer is left out there
    assert json.loads(chase.output)["results"][0]["left_out"] == {}


def test_a_sweep_reports_each_combination(tmp_path: Path) -> None:
    plot = tmp_path / "sweep.png"
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "3", "--seed", "s",
                                 "--vary", "captain.stats.hp=10,60", "--vary", "pcs=1,2",
                                 "--json", "--plot", str(plot), "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    labels = [r["label"] for r in data["results"]]
    assert labels == ["captain.stats.hp=10 pcs=1", "captain.stats.hp=10 pcs=2",
                      "captain.stats.hp=60 pcs=1", "captain.stats.hp=60 pcs=2"]
    assert "bruno" not in data["results"][0]["characters"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--vary",
                                "captain.stats.hp=10,60", "--vary", "pcs=1,2", "--workers",
                                "1"], env={"COLUMNS": "80"})
    assert "P(side wins) per combination" in table.output
    for label in labels:  # each combination whole on an 80-column terminal, none cut short
        assert f"│ {label} " in table.output, table.output
    assert "…" not in table.output


def _cells(line: str, bar: str = "│") -> list[str]:
    return [c.strip() for c in line.split(bar)[1:-1]]


def test_a_sweep_says_how_long_each_combination_lasts_and_who_is_taken_out() -> None:
    """"One PC more: does Ada still drop?" A sweep's report said who wins alone; the mean
    rounds and each character's P(taken out) per combination were only in --json. They now
    come in a table below, one column per combination (numbered as the win table's rows),
    one row per character, with its interval, within 80 columns."""
    args = ["sim", "fabula-ultima-ambush", "-n", "4", "--seed", "t", "--workers", "1",
            "--vary", "pcs=1,2"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    terminal = Console(width=80, file=io.StringIO())
    print_report(terminal, data)
    lines = terminal.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(map(len, lines)) <= 80
    assert [_cells(line)[:2] for line in lines if "│ pcs=" in line] == [
        ["1", "pcs=1"], ["2", "pcs=2"]]  # the win table's rows, numbered
    taken = lines[next(i for i, line in enumerate(lines) if line.strip() ==
                       "rounds and P(taken out) per combination, 95% CI"):]
    assert _cells(next(line for line in taken if line.startswith("┃")), "┃") == [
        "character", "#1", "#2"]
    rows = {_cells(line)[0]: i for i, line in enumerate(taken) if line.startswith("│ ")
            and _cells(line)[0]}
    assert _cells(taken[rows["mean rounds"]])[1:] == [
        f"{r['rounds']['mean']:.1f}" for r in data["results"]]
    for pid, name in [("ada", "Ada"), ("captain", "Bandit Captain"), ("bruno", "Bruno")]:
        shown = [(f"{100 * c['p']:.1f}%", f"[{100 * c['ci95'][0]:.1f}–{100 * c['ci95'][1]:.1f}]")
                 if pid in r["characters"] else ("–", "") for r in data["results"]
                 for c in [r["characters"].get(pid, {}).get("taken_out")]]
        i = rows[name]
        assert list(zip(_cells(taken[i])[1:], _cells(taken[i + 1])[1:], strict=True)) == shown
    assert list(rows) == ["mean rounds", "Ada", "Bruno", "Bandit Captain", "Cutthroat 1",
                          "Cutthroat 2"]  # Bruno, of pcs=2 alone, beside Ada, not last
    first = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert first.exit_code == 0 and "rounds and P(taken out)" in first.output
    assert runner.invoke(app, args, env={"COLUMNS": "80"}).output == first.output  # same seed


@pytest.mark.rule("ES-RNG-1")
def test_a_pcs_sweep_of_a_scenario_whose_settings_name_its_pcs_runs() -> None:
    """"What if Bruno does not come?" in the car chase, whose ranges name Bruno: refused
    before ('settings.ranges.pairs[1] names 'bruno', who is not a participant')."""
    result = runner.invoke(app, ["sim", "etherscope-car-chase", "-n", "2", "--seed", "t",
                                 "--workers", "1", "--vary", "pcs=1,3", "--json"])
    assert result.exit_code == 0, result.output
    cast = [sorted(r["characters"]) for r in json.loads(result.output)["results"]]
    assert cast == [["ada", "zepcar"], ["ada", "bruno", "bruno-2", "zepcar"]]


@pytest.mark.parametrize("scenario, setting, said", [
    ("etherscope-car-chase", "settings.ranges.pairs=5", "ranges.pairs must be a list of [A, B, "),
    ("etherscope-car-chase", 'settings.ranges.pairs=[["ada"]]', "ranges.pairs[0] must be [A, "),
    ("etherscope-car-chase", 'settings.groups={"g":5}', "groups.g needs at least two members"),
    ("etherscope-car-chase", 'settings.groups={"g":["ada"]}', "groups.g needs at least two"),
    ("etherscope-car-chase", 'settings.lurking={"zepcar":"ada"}', "lurking.zepcar must list"),
    ("etherscope-car-chase", 'settings.lurking={"zepcar":[]}', "lurking.zepcar must list"),
    ("vers-tavern-brawl", "settings.cover=[5]", "cover: 5 must be a table such as"),
    ("vers-tavern-brawl", "settings.guards=5", "guards must be a list, got 5"),
])
def test_a_bad_setting_swept_with_pcs_is_refused_by_its_own_words(
        scenario: str, setting: str, said: str) -> None:
    """``pcs=N`` recasts the settings that name PCs: one of a shape the set-up refuses is left
    for it to refuse, with its words, whichever comes first (never a traceback)."""
    for vary in ([setting, "pcs=1"], ["pcs=1", setting]):
        result = runner.invoke(app, ["sim", scenario, "-n", "1", "--workers", "1",
                                     *[a for v in vary for a in ("--vary", v)]])
        assert result.exit_code == 2 and said in " ".join(result.output.split()), result.output


def test_a_long_sweeps_taken_out_table_goes_on_below_rather_than_past_the_edge() -> None:
    result = runner.invoke(app, ["sim", "vers-chase", "-n", "1", "--seed", "t", "--workers",
                                 "1", "--vary", "ada.stats.agility=" + ",".join(
                                     map(str, range(10)))], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= 80
    heads = [cell for line in lines if line.startswith("┃ character")
             for cell in _cells(line, "┃")[1:]]
    assert heads == [f"#{i}" for i in range(1, 11)]  # each combination once, in order
    titles = [line.strip() for line in lines if "P(taken out) per combination" in line]
    assert titles[0] == "rounds and P(taken out) per combination, 95% CI (#1–#4)"
    assert titles[-1].endswith("(#9–#10)")


def test_a_sweep_that_moves_a_character_to_another_side_keeps_each_side_in_its_column(
        tmp_path: Path) -> None:
    args = ["sim", "vers-tavern-brawl", "-n", "12", "--seed", "a", "--workers", "1",
            "--vary", "ada.side=heroes,toughs"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert data["sides"] == ["heroes", "toughs"]
    moved = data["results"][1]  # Ada among the toughs: her side is first seen there
    assert list(moved["wins"]) == ["toughs", "heroes", "no decision"]
    out = io.StringIO()
    print_report(Console(file=out, width=120), data)
    row = next(line for line in out.getvalue().splitlines() if 'ada.side="toughs"' in line)
    cells = [c.strip() for c in row.split("│")[3:-1]]  # heroes, toughs, no decision
    assert cells == [f"{100 * moved['wins'][s]['p']:.1f}%" for s in data["sides"] +
                     ["no decision"]]
    # a side a combination does not have is "–", and the plot draws no bar for it; the
    # columns and the policies keep the scenario's order (heroes, toughs), whichever
    # combination comes first: Ada on a side of her own, a third one, comes after them
    plot = tmp_path / "sweep.svg"
    result = runner.invoke(app, ["sim", "vers-tavern-brawl", "-n", "4", "--seed", "a",
                                 "--workers", "1", "--vary", "ada.side=rogue,heroes",
                                 "--plot", str(plot)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "policies: heroes=focus-fire · toughs=focus-fire · rogue=focus-fire" in lines
    wins = lines[:next(i for i, line in enumerate(lines) if "P(taken out)" in line)]
    heads = [line.split("┃")[1:-1] for line in wins if line.startswith("┃")]
    assert [" ".join(c.strip() for c in cells).strip() for cells in zip(*heads, strict=True)
            ] == ["#", "combination", "heroes", "toughs", "rogue", "no decision (round cap)"]
    row = next(line for line in lines if 'ada.side="heroes"' in line)
    assert row.split("│")[5].strip() == "–"  # no rogue when Ada is among the heroes
    assert plot.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("scenario, vary, said", [
    ("fabula-ultima-ambush", ["pcs=2,0"], "--vary pcs=0: only bandits (Bandit Captain, "
                                          "Cutthroat 1, Cutthroat 2) takes part"),
    ("vers-chase", ["cutpurse.side=npcs,pcs"], "--vary cutpurse.side=pcs: only pcs (Ada, The "
                                               "cutpurse) takes part"),
    ("fabula-ultima-ambush", ["pcs=0", "captain.side=heroes,bandits"],
     "--vary pcs=0 captain.side=bandits: only bandits"),
])
def test_a_combination_that_leaves_one_side_is_refused_before_any_is_run(
        scenario: str, vary: list[str], said: str) -> None:
    # before, the side left alone "won" 100% of the encounters in 0 or 1 rounds
    args = [a for v in vary for a in ("--vary", v)]
    result = runner.invoke(app, ["sim", scenario, "-n", "4", "--seed", "a", "--workers", "1",
                                 *args])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert said in text and "one side would win every encounter unopposed" in text
    assert "P(" not in text and "Traceback" not in text


@pytest.mark.parametrize("args, message", [
    (["-n", "0"], "give 1 to"),
    (["--vary", "nobody.stats.hp=1"], "not a participant"),
    (["--policy", "heroes"], "SIDE=NAME"),
    (["--policy", "heroes=nonsense"], "unknown policy"),
    (["--policy", "heroes=mytactics:fn"], "run with PYTHONPATH=DIR, DIR the folder that holds "
                                          "mytactics.py"),
    (["--plot", "out.gif"], ".png or .svg"),
    (["--max-rounds", "0"], "give 1 to 10,000"),
    (["--policy", "heroes=tests.sim.tactics:broken"], "the policy of side heroes failed"),
    # a typo in a policy of one's own: its module, its function (they read "No module named
    # 'tests.sim.tactic'" and "module 'tests.sim.tactics' has no attribute 'brokn'")
    (["--policy", "heroes=tests.sim.tactic:broken"],
     "No module named 'tests.sim.tactic'; did you mean 'tests.sim.tactics'?"),
    (["--policy", "heroes=tests.sim.tactics:brokn"],
     "cannot be loaded: tests.sim.tactics has no 'brokn'; did you mean 'broken'?"),
    (["--policy", "heroes=tests.sim.tactics_that_fail_to_load:p"],
     "cannot be loaded: ZeroDivisionError: division by zero"),
    (["--policy", "heroes=tests.sim.tactics:not_a_choice"],
     "returned Option(legal='hello', values=()), not one of turn.options"),
    (["--policy", "heroes=tests.sim.tactics:exits"],
     "the policy of side heroes failed: SystemExit(3)"),
    # each read "initiative has no parameter target" (or "unknown command 'fly'"), naming
    # neither the side nor its policy
    (["--policy", "heroes=tests.sim.tactics:names_a_parameter_it_lacks"],
     "the policy of side heroes returned an option that makes no command (initiative has no "
     "parameter target): Option("),
    (["--policy", "heroes=tests.sim.tactics:makes_up_a_verb"],
     "the policy of side heroes returned an option that makes no command (unknown command "
     "'fly'"),
    (["--vary", "captain.name=,,,"], "captain.name: give at least one value"),
    (["--vary", "captain.stats.hp=10,10"], "the value 10 is given twice"),
    (["--vary", 'captain.name="Grim, the'], "starts like JSON but is not JSON"),
    (["--vary", "settings.pc_sid=heroes"], "settings.pc_sid is not a setting of Fabula "
                                           "Ultima; did you mean 'pc_side'?"),
    (["--vary", "settings.mood=grim,calm"], "Fabula Ultima reads no setting 'mood', so the "
                                            "sweep would change nothing"),
    (["--seed", ""], "the seed is empty"),
    (["--dask", "tls://127.0.0.1:9"], "tls://127.0.0.1:9: cannot reach the scheduler"),
])
def test_bad_input_is_a_clear_error_without_traceback(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output


@pytest.mark.parametrize("vary, said", [
    (["captain.stats.hp=abc"], '--vary captain.stats.hp=abc: hp must be a whole number, not '
                               '"abc"'),
    (["pcs=1,2", "captain.stats.hp=60,-3"], "--vary captain.stats.hp=-3: hp is -3; it goes "
                                            "from 0 to 9999"),
    (["captain.stats=3"], "--vary captain.stats=3: a participant's stats are a table of KEY = "
                          "value, not one value; sweep one stat: --vary captain.stats.KEY="),
    (["captain.name=7"], "--vary captain.name=7: name: Input should be a valid string"),
])
def test_a_bad_sweep_value_names_the_option_and_the_value_not_the_scenario(
        vary: list[str], said: str) -> None:
    # the walkthrough read "ambush: the simulated set-up is refused: captain: stats.hp …",
    # blaming the scenario file, and "participants.2.stats: Input should be a valid dictionary"
    args = [a for v in vary for a in ("--vary", v)]
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "50", "--workers", "1",
                                 *args])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert said in text
    assert "set-up is refused" not in text and "participants." not in text
    assert "P(" not in text and "Traceback" not in text  # nothing run


def test_a_value_with_a_comma_is_swept_whole_and_a_name_like_a_formula_is_drawn_as_text(
        tmp_path: Path) -> None:
    plot = tmp_path / "names.svg"
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--seed", "s",
                                 "--workers", "1", "--json", "--plot", str(plot), "--vary",
                                 'captain.name="Grim, the Bold",$5 Sam^{$'])
    assert result.exit_code == 0, result.output
    names = [r["characters"]["captain"]["name"] for r in json.loads(result.output)["results"]]
    assert names == ["Grim, the Bold", "$5 Sam^{$"]
    assert "$5 Sam^{$" in plot.read_text()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_a_policy_prints_stays_out_of_the_json_report(workers: str) -> None:
    result = CliRunner().invoke(app, ["sim", "fabula-ultima-ambush", "-n", "4", "--seed", "s",
                                      "--json", "--workers", workers, "--policy",
                                      "heroes=tests.sim.tactics:chatty"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["n"] == 4
    if workers == "1":  # this process: told on standard error instead
        assert "thinking about heroes" in result.stderr


@pytest.mark.parametrize("scenario, side", [("vers-tavern-brawl", "heroes"),
                                            ("etherscope-car-chase", "pursuers")])
def test_a_policy_that_scribbles_over_its_view_changes_nothing_of_the_conflict(
        scenario: str, side: str) -> None:
    def report(policy: str) -> dict[str, object]:
        result = runner.invoke(app, ["sim", scenario, "-n", "6", "--seed", "v", "--json",
                                     "--workers", "1", "--policy", f"{side}={policy}"])
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.output)["results"]
        return data
    assert report("tests.sim.tactics:vandal") == report("tests.sim.tactics:first")


def test_a_policy_of_your_own_plugs_in_from_the_command_line() -> None:
    # the bandits only bide their time (tests/sim/tactics.py): the heroes cannot lose
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "3", "--seed", "own",
                                 "--json", "--workers", "1",
                                 "--policy", "bandits=tests.sim.tactics:only_pass"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["policies"]["bandits"] == "tests.sim.tactics:only_pass"
    r = data["results"][0]
    assert r["wins"]["heroes"]["count"] == 3
    assert r["characters"]["ada"]["mean_harm"] == 0 == r["characters"]["bruno"]["mean_harm"]


def test_a_plot_without_matplotlib_is_refused_before_the_run(tmp_path: Path) -> None:
    # as on a machine without the sim extra: the import of matplotlib fails
    plot = tmp_path / "report.png"
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(__import__("sys").modules, "matplotlib", None)
        result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--workers", "1",
                                     "--plot", str(plot)])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert ("plots need matplotlib, the sim extra: in a checkout of fracas, bash "
            "scripts/setup.sh sim; else pip install 'fracas[sim]'") in said
    assert "P(" not in result.output and "Traceback" not in result.output
    assert not plot.exists()


@pytest.mark.parametrize("extra, said", [
    (["--plot", "/nonexistent-fracas/x.png"], "there is no folder /nonexistent-fracas"),
    (["--policy", "heroes=random", "--policy", "heroes=flee"], "--policy heroes is given twice"),
    (["--vary", "ada.stats.hp=" + ",".join(str(hp) for hp in range(10, 27)),
      "--vary", "bruno.stats.hp=" + ",".join(str(hp) for hp in range(10, 27))],
     "17 × 17 = 289 combinations; a sweep takes at most 256"),
])
def test_a_run_that_could_not_finish_well_is_refused_before_it_starts(
        extra: list[str], said: str) -> None:
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--workers", "1",
                                 *extra])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())
    assert "P(" not in result.output and "Traceback" not in result.output


def _in_session(sid: int) -> list[int]:
    """The processes of session ``sid`` (Linux /proc)."""
    found = []
    for name in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except (OSError, ValueError):
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if name.isdigit() and fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(name))
    return found


def test_ctrl_c_stops_a_run_with_local_workers_at_once() -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", "from fracas.cli import main; main()", "sim", "vers-tavern-brawl",
         "-n", "100000", "--seed", "c", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        for _ in range(600):  # the two workers are playing (their chunks hold minutes)
            if len(_in_session(run.pid)) >= 3:
                break
            time.sleep(0.1)
        time.sleep(1)
        os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C does: the whole group
        _, err = run.communicate(timeout=60)  # without the fix: minutes
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err
    assert "Traceback" not in err
    for _ in range(50):  # no worker left behind
        if not _in_session(run.pid):
            break
        time.sleep(0.1)
    assert _in_session(run.pid) == []


def test_ctrl_c_stops_a_run_on_a_dask_cluster_and_frees_the_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        tasks = cluster.scheduler.tasks
        run = subprocess.Popen(
            [sys.executable, "-c", "from fracas.cli import main; main()", "sim",
             "vers-tavern-brawl", "-n", "2000", "--seed", "c", "--dask",
             cluster.scheduler_address],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            for _ in range(600):  # the job's chunks have reached the scheduler
                if tasks:
                    break
                time.sleep(0.1)
            assert tasks, "the job never reached the cluster"
            os.killpg(run.pid, signal.SIGINT)
            _, err = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
        assert run.returncode == 130, err
        assert "Traceback" not in err
        for _ in range(100):  # the cluster lets go of the job's chunks
            if not tasks:
                break
            time.sleep(0.1)
        assert not tasks
