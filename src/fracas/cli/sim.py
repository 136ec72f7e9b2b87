"""The ``fracas sim`` command: who wins a scenario's conflict, over many simulated encounters."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from fracas.cli.common import console, err_console, fail
from fracas.errors import FracasError, InvalidInput

if TYPE_CHECKING:
    from fracas.sim.encounter import Encounter
    from fracas.sim.stats import EncounterResult


def _pct(entry: dict[str, Any], sep: str = "  ") -> str:
    low, high = entry["ci95"]
    return f"{100 * entry['p']:5.1f}%{sep}[{100 * low:.1f}–{100 * high:.1f}]"


def _left_out(data: dict[str, Any]) -> str:
    """One line naming the commands the rules offer and the simulated players never play,
    each with who has them (every combination's), or "" when there are none."""
    names = {pid: c["name"] for r in data["results"] for pid, c in r["characters"].items()}
    who: dict[str, dict[str, None]] = {}
    for r in data["results"]:
        for verb, ids in r.get("left_out", {}).items():
            who.setdefault(verb, {}).update(dict.fromkeys(ids))
    groups: dict[tuple[str, ...], list[str]] = {}
    for verb in sorted(who):
        groups.setdefault(tuple(who[verb]), []).append(verb)
    if not groups:
        return ""
    parts = []
    for ids, verbs in groups.items():
        has = "everyone" if set(ids) == set(names) else ", ".join(names[i] for i in ids)
        parts.append(f"{', '.join(verbs)} ({has})")
    return (f"left out: the simulated players never play {'; '.join(parts)} — the rules "
            "offer them, so these figures understate whoever would use them")


def _taken_out_tables(data: dict[str, Any], width: int) -> list[Table]:
    """A sweep's mean rounds and each character's P(taken out), one column per combination
    (numbered as in the win table), one row per character ("–": not in that combination);
    the combinations that do not fit in ``width`` columns go on in a table below."""
    from fracas.sim.report import characters

    results, names = data["results"], characters(data)
    cells = [[_pct(c["taken_out"], "\n") for c in r["characters"].values()] for r in results]
    cell = max(len(line) for texts in cells for text in texts for line in text.split("\n"))
    first = min(24, max(len(name) for name in [*names.values(), "mean rounds"]))
    column = max(cell, len(f"#{len(results)}")) + 3  # a cell, its padding and its border
    per = max(1, (width - first - 4) // column)
    tables = []
    for start in range(0, len(results), per):
        chunk = list(enumerate(results, 1))[start:start + per]
        which = f" (#{chunk[0][0]}–#{chunk[-1][0]})" if len(results) > per else ""
        table = Table(title=f"rounds and P(taken out) per combination, 95% CI{which}",
                      min_width=first + 4 + per * column if which else None)  # all as wide
        table.add_column("character", overflow="fold")
        for i, _ in chunk:
            table.add_column(f"#{i}", justify="right")
        table.add_row("mean rounds", *(f"{r['rounds']['mean']:.1f}" for _, r in chunk),
                      end_section=True)
        for pid, name in names.items():
            table.add_row(escape(name), *(_pct(r["characters"][pid]["taken_out"], "\n")
                                          if pid in r["characters"] else "–" for _, r in chunk))
        tables.append(table)
    return tables


def print_report(out: Console, data: dict[str, Any], shown: bool = False) -> None:
    """The report as tables: one block per combination (a sweep adds a summary table);
    ``shown``: an encounter follows it (``--show``), so no hint to show one."""
    from fracas.sim.report import all_outcomes, label, undecided_at, win_columns

    head, seed = f"{data['scenario']} ({data['ruleset']})", f"seed {data['seed']}"
    if len(head) + len(seed) + 3 <= out.width:
        out.print(f"[bold]{escape(head)}[/] · {escape(seed)}")
    else:  # a long seed (the one made for a run without --seed) whole on its own line
        out.print(f"[bold]{escape(head)}[/]")
        out.print(escape(seed), soft_wrap=True)
    out.print("policies: " + " · ".join(  # a side's policy never breaks across lines
        escape(f"{s}={p}").replace(" ", "\u00a0") for s, p in data["policies"].items()))
    if data.get("prologue"):  # what every encounter starts from (the script is not played)
        out.print("prologue: " + escape(" · ".join(data["prologue"])))
    results, left_out = data["results"], _left_out(data)
    if len(results) > 1:
        table = Table(title="P(side wins) per combination, 95% CI")
        table.add_column("#", justify="right")  # the taken-out table's columns: #1, #2, …
        table.add_column("combination", overflow="fold")  # a long path folds, never cut
        columns, reached, cap = win_columns(data), all_outcomes(data), undecided_at(results)
        for side in columns:
            table.add_column(escape(label(side, reached, "\n", cap)), justify="right",
                             overflow="fold")
        for i, r in enumerate(results, 1):  # each under its own side's column; "–": none
            table.add_row(str(i), escape(r["label"]), *(
                _pct(r["wins"][side], "\n") if side in r["wins"] else "–" for side in columns))
        out.print(table)
        for taken in _taken_out_tables(data, out.width):
            out.print(taken)
        if left_out:
            out.print(escape(left_out))
        return
    r = results[0]
    rounds, limit = r["rounds"], r["rounds"].get("round_limit")
    cap = f"round limit {limit}" if limit and limit <= rounds[
        "max_rounds"] else f"cap {rounds['max_rounds']}"
    out.print(f"{r['n']:,} encounter{'s' if r['n'] != 1 else ''} · rounds: mean "
              f"{rounds['mean']:.1f}, median {rounds['median']}, 90% within {rounds['p90']} "
              f"({cap})")
    wins = Table(title="who wins (95% CI)")
    wins.add_column("side")
    wins.add_column("P(win)", justify="right")
    for side, v in r["wins"].items():
        wins.add_row(escape(label(side, r["outcomes"], cap=undecided_at([r]))), _pct(v))
    out.print(wins)
    seen = {k: v for k, v in r["outcomes"].items() if v["count"]}
    unseen = [k for k in r["outcomes"] if k not in seen]  # one line, not a row of 0.0% each
    outcomes = Table(title="outcome (95% CI)")
    outcomes.add_column("outcome")
    outcomes.add_column("P", justify="right")
    for name, v in seen.items():
        outcomes.add_row(escape(name), _pct(v))
    out.print(outcomes)
    if unseen:
        out.print(f"not seen: {escape(', '.join(unseen))} (each at most "
                  f"{100 * r['outcomes'][unseen[0]]['ci95'][1]:.1f}%, 95% CI)")
    chars = Table(title=f"characters (harm: {data['harm_unit']})")
    for col in ("character", "side", "P(taken out)", "mean harm"):
        chars.add_column(col, justify="left" if col in ("character", "side") else "right")
    for c in r["characters"].values():
        chars.add_row(escape(c["name"]), escape(c["side"]), _pct(c["taken_out"]),
                      f"{c['mean_harm']:.2f}")
    out.print(chars)
    if left_out:
        out.print(escape(left_out))
    diag = r["diagnostics"]
    undecided = r["wins"]["no decision"]["count"]
    if undecided and not shown:  # the way to see why: one of them, played again with its log
        out.print(f"{undecided:,} of {r['n']:,} encounters reached no decision: "
                  "[bold]--show 'no decision'[/] prints the first of them, turn by turn")
    if diag["refused_commands"] or diag["stalled"]:
        out.print(f"[yellow]note:[/] {diag['refused_commands']} chosen commands were refused "
                  f"and {diag['stalled']} encounters stalled (counted as no decision)")
        for s in diag["stalled_at"]:
            out.print(f"  {s['count']} stalled where nobody could act: {escape(s['state'])}")
        for r in diag["refusals"]:
            out.print(f"  {r['count']} × {escape(r['verb'])} refused"
                      f"{' (' + r['rule'] + ')' if r['rule'] else ''}: {escape(r['error'])} "
                      f"— e.g. {escape(r['example'])}")


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """While a run plays: ``kill PID`` (SIGTERM) or a closed terminal (SIGHUP) stops it as
    Ctrl-C does, local workers and all (exit code 128 + the signal's number), instead of
    ending this process alone and leaving its workers playing their chunks."""
    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    kinds = [signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
    before = {kind: signal.signal(kind, stop) for kind in kinds}
    try:
        yield
    finally:
        for kind, handler in before.items():
            signal.signal(kind, handler)


def _ended(r: EncounterResult) -> str:
    """How an encounter ended, in the report's words: ``toughs won (taken out)``."""
    from fracas.sim.stats import NO_DECISION, NO_WINNER

    if r.winner == NO_DECISION:
        return NO_DECISION
    who = "no winner" if r.winner == NO_WINNER else f"{r.winner} won"
    return f"{who} ({r.outcome})"


def _encounter_data(index: int, encounter: Encounter, r: EncounterResult) -> dict[str, Any]:
    """The JSON form of the encounter ``--show`` plays: how it ended and the GM's log."""
    from fracas.engine.model import Viewer
    from fracas.engine.projector import log_data
    from fracas.engine.views import projector

    return {"number": index + 1, "winner": r.winner, "outcome": r.outcome,
            "rounds": r.rounds, "out": list(r.out),
            "log": log_data(projector(encounter.conflict, Viewer.gm()).entries)}


def _print_encounter(out: Console, data: dict[str, Any], index: int, encounter: Encounter,
                     r: EncounterResult) -> None:
    """The encounter ``--show`` plays: a head line, the GM's log and the state at its end."""
    from fracas.cli.render import print_log, print_state
    from fracas.engine.model import Viewer

    out.print()
    out.print(f"[bold]encounter {index + 1:,} of {data['n']:,}[/] (seed "
              f"{escape(data['seed'])}): {escape(_ended(r))}, {r.rounds} "
              f"round{'s' if r.rounds != 1 else ''}")
    print_log(out, encounter.conflict, Viewer.gm())
    print_state(out, encounter.conflict, Viewer.gm())


def sim_command(
    scenario: Annotated[Path, typer.Argument(help="a scenario file (TOML) or a bundled name")],
    n: Annotated[int, typer.Option("-n", help="encounters per combination")] = 1000,
    seed: Annotated[str | None, typer.Option(help="the run seed (same seed, same report)")]
    = None,
    workers: Annotated[int | None, typer.Option(help="local worker processes (default: one "
                                                     "per core)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the JSON form")] = False,
    plot: Annotated[Path | None, typer.Option(help="draw the report to FILE.png or .svg")]
    = None,
    vary: Annotated[list[str] | None, typer.Option(
        help="sweep a value: 'settings.cover.0.value=0,1,3', 'pcs=3,4' (repeatable)")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        help="side=NAME: random, focus-fire, weakest-first, defensive, flee, parley or "
             "module:function (repeatable)")] = None,
    max_rounds: Annotated[int | None, typer.Option(
        help="rounds before an encounter counts as no decision (default 50)")] = None,
    dask: Annotated[str | None, typer.Option(
        help="run on the Dask scheduler at ADDRESS (tcp://host:8786)")] = None,
    show: Annotated[str | None, typer.Option(
        help="also show one encounter's log: its number (1 … N), or a side or outcome for "
             "the first that ended so")] = None,
) -> None:
    """Play a scenario's conflict many times with agent policies; report who wins."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from fracas.app.scenario import load_scenario, unknown_policy
    from fracas.app.script import check_setup
    from fracas.dice.rng import new_seed
    from fracas.engine.limits import check_seed
    from fracas.sim import Runner, SimJob, report_data, simulate
    from fracas.sim.plot import check_target as check_plot_target
    from fracas.sim.runner import default_workers

    try:
        sc = load_scenario(scenario)
        check_setup(sc)  # refused as `fracas run` refuses it, by line
        if n < 1 or n > 100_000_000:
            raise InvalidInput(f"-n {n}: give 1 to 100,000,000 encounters")
        if max_rounds is not None and not 1 <= max_rounds <= 10_000:
            raise InvalidInput(f"--max-rounds {max_rounds}: give 1 to 10,000")
        if plot is not None:
            check_plot_target(plot)
        if workers is not None and not 1 <= workers <= 256:
            raise InvalidInput(f"--workers {workers}: give 1 to 256")
        chosen: list[tuple[str, str]] = []
        for text in policy or []:
            side, eq, name = text.partition("=")
            if not eq or not side.strip() or not name.strip():
                raise InvalidInput(f"--policy {text!r}: write SIDE=NAME (e.g. heroes=focus-fire)")
            if any(side.strip() == s for s, _ in chosen):
                raise InvalidInput(f"--policy {side.strip()} is given twice")
            refusal = unknown_policy(name.strip())
            if refusal:
                raise InvalidInput(f"--policy {side.strip()}={name.strip()}: {refusal}")
            chosen.append((side.strip(), name.strip()))
        job = SimJob(sc.text, sc.path, n, new_seed() if seed is None else check_seed(seed),
                     max_rounds, tuple(chosen))
        runner = Runner(workers or min(default_workers(), max(1, n // 50)), dask)
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
        with Progress(*columns, console=err_console, transient=True,
                      disable=not err_console.is_terminal) as bar:
            task = bar.add_task("simulating", total=None)

            def tick(i: int, combos: int, done: int, total: int) -> None:
                label = "simulating" if combos == 1 else f"combination {i + 1}/{combos}"
                bar.update(task, description=label, completed=done, total=total)

            with contextlib.redirect_stdout(sys.stderr), _stopped_by_signals():
                results = simulate(job, vary, runner, tick)  # a policy's prints: stderr
        data = report_data(results)
        shown = None
        if show is not None:
            if len(results) > 1:
                raise InvalidInput(f"--show {show}: a sweep of {len(results)} combinations "
                                   "has no one encounter to show; give one value per --vary")
            from fracas.sim.encounter import shown_encounter

            with contextlib.redirect_stdout(sys.stderr):
                shown = shown_encounter(results[0].prepared, show, n)
            data["encounter"] = _encounter_data(*shown)
        if plot is not None:
            from fracas.sim.plot import plot_report

            plot_report(data, plot)
    except FracasError as exc:
        fail(exc)
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    print_report(console, data, shown is not None)
    if shown is not None:
        _print_encounter(console, data, *shown)
    if plot is not None:
        console.print(f"[dim]plot written to {escape(str(plot))}[/]")


def register(app: typer.Typer) -> None:
    """Add ``fracas sim`` to the main Typer app."""
    app.command("sim")(sim_command)
