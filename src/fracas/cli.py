"""The ``fracas`` command: run scenarios, print rules, roll dice, answer odds, keep conflicts."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from fracas import __version__
from fracas.dice.rng import new_seed
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from fracas.render import print_log, print_state
from fracas.rulesets import available, get_ruleset
from fracas.scenario import Scenario, bundled_scenarios, load_scenario

app = typer.Typer(
    name="fracas",
    help="Run tabletop role-playing conflicts by the rules (unofficial): "
         "Etherscope, Fabula Ultima and VERS.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

RUN_FORMAT = "fracas.run/1"


def fail(error: FracasError | str, code: int = 2) -> NoReturn:
    """Print an error on stderr and exit with ``code`` (never a traceback)."""
    err_console.print(f"[bold red]error:[/] {escape(str(error))}")
    raise typer.Exit(code)


def viewer_for(player: str | None) -> Viewer:
    """The viewer of ``--as NAME`` (the GM without it; ``public`` for an onlooker)."""
    return Viewer.gm() if player is None else Viewer.named(player)


@dataclass(slots=True)
class ScriptRun:
    """A scenario played as far as its script goes: the conflict (None when the set-up itself
    was refused) and the error that stopped it, if any."""

    conflict: Conflict | None
    error: FracasError | None = None


def run_script(scenario: Scenario, seed: str) -> ScriptRun:
    """Create a scenario's conflict and play its script up to the first refused command;
    errors name the file and the line (of the script, or of the refused setting)."""
    ruleset = get_ruleset(scenario.setup.ruleset)
    try:
        conflict = Conflict.create(ruleset, scenario.setup, seed, time="")
    except FracasError as exc:
        exc.message = f"{scenario.where(exc.values.get('key'))}: {exc.message}"
        return ScriptRun(None, exc)
    for line in scenario.script:
        try:
            conflict.execute(line.text, time="")
        except FracasError as exc:
            exc.message = f"{scenario.path}:{line.line}: {line.text!r}: {exc}"
            exc.rule = None
            return ScriptRun(conflict, exc)
    return ScriptRun(conflict)


def play_script(scenario: Scenario, seed: str) -> Conflict:
    """Create the conflict of a scenario and play its script; raise the first error."""
    done = run_script(scenario, seed)
    if done.error is not None:
        raise done.error
    assert done.conflict is not None
    return done.conflict


def check_viewer(conflict: Conflict, viewer: Viewer) -> None:
    """Warn (on stderr) when ``--as NAME`` names nobody's player in this conflict."""
    if viewer.role != "player" or viewer.player is None:
        return
    if not conflict.state.owned_by(viewer.player):
        players = sorted({p.owner for p in conflict.state.participants.values() if p.owner})
        err_console.print(
            f"[yellow]warning:[/] nobody in this conflict is played by {viewer.player!r} "
            f"(players: {', '.join(players) or 'none'}); showing what an onlooker sees")


def run_data(conflict: Conflict, scenario: Scenario, seed: str, viewer: Viewer) -> dict[str, Any]:
    """The documented JSON form of ``fracas run`` (see docs/json.md)."""
    out: dict[str, Any] = {
        "format": RUN_FORMAT,
        "scenario": scenario.path,
        "ruleset": conflict.ruleset.name,
        "version": conflict.version,
        "log": log_view(conflict, viewer),
        "state": view(conflict, viewer),
    }
    if viewer.is_gm:
        out["seed"] = seed
    return out


@app.command()
def run(
    scenario: Annotated[
        Path, typer.Argument(help="a scenario file (TOML) or a bundled scenario's name")
    ],
    seed: Annotated[str | None, typer.Option(help="the secret seed of the dice")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the JSON form")] = False,
    as_player: Annotated[str | None, typer.Option("--as", help="show what PLAYER sees")] = None,
    raw: Annotated[bool, typer.Option("--raw", help="events in their text form")] = False,
) -> None:
    """Play a scenario's script and print the log and the final state."""
    try:
        sc = load_scenario(scenario)
        the_seed = seed or sc.seed or new_seed()
        done = run_script(sc, the_seed)
    except FracasError as exc:
        fail(exc)
    viewer = viewer_for(as_player)
    if done.error is not None:
        if done.conflict is not None and not as_json:
            console.print("[dim]the log up to the refused command:[/]")
            print_log(console, done.conflict, viewer, raw=raw)
        fail(done.error)
    conflict = done.conflict
    assert conflict is not None
    check_viewer(conflict, viewer)
    if as_json:
        sys.stdout.write(json.dumps(run_data(conflict, sc, the_seed, viewer), indent=2) + "\n")
        return
    if viewer.is_gm:
        console.print(f"[dim]seed {the_seed} (secret; --seed {the_seed} replays these rolls)[/]")
    print_log(console, conflict, viewer, raw=raw)
    console.print()
    print_state(console, conflict, viewer)


@app.command()
def rules(
    ruleset: Annotated[str | None, typer.Argument(help="etherscope, fabula-ultima or vers")]
    = None,
    rule_id: Annotated[str | None, typer.Option("--id", help="only this rule")] = None,
) -> None:
    """Print a ruleset's numbered rules (ID and text)."""
    names = [ruleset] if ruleset else available()
    try:
        for name in names:
            rs = get_ruleset(name)
            console.print(f"[bold]{escape(rs.title)}[/] ({rs.name})")
            section = None
            for r in rs.rules():
                if rule_id and r.id != rule_id.upper():
                    continue
                if r.section != section and not rule_id:
                    section = r.section
                    console.print(f"\n[underline]{escape(section)}[/]")
                console.print(f"[bold cyan]{r.id}[/] [dim]\\[{r.mark}][/] {escape(r.text)}")
            console.print()
    except FracasError as exc:
        fail(exc)


@app.command()
def scenarios() -> None:
    """List the example scenarios that ship with fracas (run one with ``fracas run NAME``)."""
    for name, title in bundled_scenarios().items():
        console.print(f"[bold]{name}[/]  {escape(title)}")




@app.command()
def version() -> None:
    """Print fracas's version."""
    console.print(f"fracas {__version__}")


def _register_optional() -> None:
    from fracas.dice.cli import register as register_dice

    register_dice(app)
    try:
        from fracas.store.cli import register as register_store
    except ImportError:  # pragma: no cover - during development only
        return
    register_store(app)


_register_optional()


def main() -> None:
    """Entry point of the console script."""
    app()


__all__ = [
    "app", "check_viewer", "fail", "main", "play_script", "print_log", "print_state",
    "run_script", "viewer_for",
]
