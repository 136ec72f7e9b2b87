"""The same job on a Dask cluster, and the ``fracas sim`` command (report, JSON, plot, sweep)."""

from __future__ import annotations

import io
import json
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
    unseen = [k for k, v in outcomes.items() if v["count"] == 0]
    assert outcomes["taken out"]["count"] == 3 and "captured" in unseen  # a brawl, no chase
    terminal = Console(width=200, file=io.StringIO())
    print_report(terminal, data)
    text = terminal.file.getvalue()  # type: ignore[attr-defined]
    assert "│ taken out │" in text and "│ captured" not in text
    top = 100 * outcomes["captured"]["ci95"][1]
    assert f"not seen: {', '.join(unseen)} (each at most {top:.1f}%, 95% CI)" in text


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
])
def test_bad_input_is_a_clear_error_without_traceback(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output


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
    assert "plots need matplotlib: pip install 'fracas[sim]'" in " ".join(result.output.split())
    assert "P(" not in result.output and "Traceback" not in result.output
    assert not plot.exists()


@pytest.mark.parametrize("extra, said", [
    (["--plot", "/nonexistent-fracas/x.png"], "there is no folder /nonexistent-fracas"),
    (["--policy", "heroes=random", "--policy", "heroes=flee"], "--policy heroes is given twice"),
    (["--vary", "ada.stats.dex=6,8,10,12,6,8,10,12,6,8,10,12,6,8,10,12,6",
      "--vary", "bruno.stats.dex=6,8,10,12,6,8,10,12,6,8,10,12,6,8,10,12,6"],
     "17 × 17 = 289 combinations; a sweep takes at most 256"),
])
def test_a_run_that_could_not_finish_well_is_refused_before_it_starts(
        extra: list[str], said: str) -> None:
    result = runner.invoke(app, ["sim", "fabula-ultima-ambush", "-n", "2", "--workers", "1",
                                 *extra])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())
    assert "P(" not in result.output and "Traceback" not in result.output
