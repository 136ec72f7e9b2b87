"""The ``fracas`` command: run scenarios, print rules, roll dice, answer odds, keep conflicts.

Starting is kept quick: this module and the command modules it registers import only Typer,
Rich and fracas's errors at load time; each command imports the engine, the rulesets, the
store, the simulator or the server inside its own function, when it runs (so ``fracas roll``
never loads SQLAlchemy, and ``fracas --help`` still lists every command).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from fracas import __version__
from fracas.cli import conflicts, dice, serve, sim, tables
from fracas.cli.common import console, fail
from fracas.errors import FracasError, InvalidInput

if TYPE_CHECKING:
    from fracas.app.scenario import Scenario
    from fracas.app.script import ScriptRun
    from fracas.engine.conflict import Conflict
    from fracas.engine.model import Viewer
    from fracas.engine.ruleset import Ruleset

app = typer.Typer(
    name="fracas",
    help="Run tabletop role-playing conflicts by the rules (unofficial): "
         "Etherscope, Fabula Ultima and VERS.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RUN_FORMAT = "fracas.run/1"


def run_data(conflict: Conflict, scenario: Scenario, seed: str, viewer: Viewer) -> dict[str, Any]:
    """The documented JSON form of ``fracas run`` (see docs/json.md)."""
    from fracas.engine.views import log_view, view

    out: dict[str, Any] = {
        "format": RUN_FORMAT,
        "scenario": scenario.path,
        "ruleset": conflict.ruleset.name,
        "log": log_view(conflict, viewer),
        "state": view(conflict, viewer),
    }
    out["cursor"] = out["state"]["cursor"]
    if viewer.is_gm:  # a player gets no version (it would count the records hidden from them)
        out["version"] = conflict.version
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
    from fracas.app.scenario import load_scenario
    from fracas.app.script import run_script
    from fracas.dice.rng import new_seed
    from fracas.engine.limits import check_seed

    try:
        sc = load_scenario(scenario)
        the_seed = check_seed(seed) if seed is not None else sc.seed or new_seed()
        done = run_script(sc, the_seed)
    except FracasError as exc:
        fail(exc)
    try:  # a conflict that a view cannot show (a bug) is an error sentence, never a traceback
        _show_run(done, sc, the_seed, as_json, as_player, raw)
    except FracasError as exc:
        fail(exc)


def _show_run(done: ScriptRun, sc: Scenario, the_seed: str, as_json: bool,
              as_player: str | None, raw: bool) -> None:
    """The log and final state of a scenario played by ``run`` (or the refusal that stopped
    it, after the log up to it)."""
    from fracas.cli.common import check_viewer, viewer_for
    from fracas.cli.render import print_log, print_state

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
        again = escape(shlex.quote(the_seed))  # as typed in a shell, spaces and all
        # one line, however narrow the terminal: a seed broken in two (a 64-digit one cannot
        # fit 60 columns) would be copied as two words; the terminal wraps it, and a copy
        # of a soft-wrapped line comes back whole
        console.print(f"[dim]seed {escape(the_seed)} (secret; --seed {again} replays these "
                      "rolls)[/]", soft_wrap=True)
    print_log(console, conflict, viewer, raw=raw)
    console.print()
    print_state(console, conflict, viewer)


@app.command()
def rules(
    ruleset: Annotated[str | None, typer.Argument(help="etherscope, fabula-ultima or vers")]
    = None,
    rule_id: Annotated[str | None, typer.Option(
        "--id", help="only this rule, e.g. ES-ROUND-3")] = None,
) -> None:
    """Print a ruleset's numbered rules (ID and text)."""
    from fracas.rulesets import available, get_ruleset

    try:
        rulesets = [get_ruleset(name) for name in ([ruleset] if ruleset else available())]
        wanted = rule_id.strip().upper() if rule_id is not None else None
        if wanted is not None:
            _check_rule_id(wanted, rulesets)
        for rs in rulesets:
            chosen = [r for r in rs.rules() if wanted is None or r.id == wanted]
            if not chosen:  # --id: only the ruleset that holds the rule is shown
                continue
            console.print(f"[bold]{escape(rs.title)}[/] ({rs.name})")
            section = None
            for r in chosen:
                if r.section != section and wanted is None:
                    section = r.section
                    console.print(f"\n[underline]{escape(section)}[/]")
                console.print(f"[bold cyan]{r.id}[/] [dim]\\[{r.mark}][/] {escape(r.text)}")
            console.print()
    except FracasError as exc:
        fail(exc)


def _check_rule_id(wanted: str, rulesets: list[Ruleset]) -> None:
    """Refuse a rule ID that none of ``rulesets`` has, naming the closest one (or the ruleset
    that has it, when a ruleset was named and the rule is another's)."""
    from fracas.engine.suggest import did_you_mean
    from fracas.rulesets import available, get_ruleset

    if any(r.id == wanted for rs in rulesets for r in rs.rules()):
        return
    where, listing = "no ruleset has a rule", "fracas rules"
    if len(rulesets) == 1:
        named = rulesets[0].name
        where, listing = f"{named} has no rule", f"fracas rules {named}"
        for name in available():
            if any(r.id == wanted for r in get_ruleset(name).rules()):
                raise InvalidInput(f"{where} {wanted!r}: it is a rule of {name} "
                                   f"(fracas rules {name} --id {wanted})")
    known = [r.id for rs in rulesets for r in rs.rules()]
    hint = did_you_mean(wanted, known, cutoff=0.5) or f"; `{listing}` lists them"
    raise InvalidInput(f"{where} {wanted!r}{hint}")


@app.command()
def scenarios() -> None:
    """List the example scenarios that ship with fracas (run one with `fracas run NAME`)."""
    from fracas.app.scenario import bundled_scenarios

    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("name", no_wrap=True)
    table.add_column("title")  # wraps in its own column on a narrow terminal
    for name, title in bundled_scenarios().items():
        table.add_row(escape(name), escape(title))
    console.print(table)


@app.command()
def schema(
    part: Annotated[str, typer.Argument(help="commands, events, legal or error")] = "commands",
    ruleset: Annotated[str | None, typer.Option(
        help="commands or events of this ruleset (default: the engine's own)")] = None,
) -> None:
    """Print the JSON schema of commands, events, legal commands or errors (for tools)."""
    from fracas.engine.commands import CommandSet
    from fracas.engine.conflict import command_set
    from fracas.engine.generic import GENERIC_COMMANDS
    from fracas.engine.schema import commands_schema, error_schema, events_schema, legal_schema
    from fracas.rulesets import get_ruleset

    makers = {"legal": legal_schema, "error": error_schema}
    try:
        if part == "commands":
            out = commands_schema(command_set(get_ruleset(ruleset)) if ruleset
                                  else CommandSet(GENERIC_COMMANDS))
        elif part == "events":
            out = events_schema(get_ruleset(ruleset).events) if ruleset else events_schema()
        elif part in makers:
            out = makers[part]()
        else:
            raise InvalidInput(f"no schema {part!r}; use commands, events, legal or error",
                               part=part)
    except FracasError as exc:
        fail(exc)
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


@app.command()
def version() -> None:
    """Print fracas's version."""
    console.print(f"fracas {__version__}")


def _eager_version(wanted: bool) -> None:
    """``fracas --version``: the text of ``fracas version``, before any command is read."""
    if wanted:
        version()
        raise typer.Exit()


@app.callback()
def _options(
    show_version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_eager_version,
        help="print fracas's version and exit (as `fracas version`)")] = False,
) -> None:
    """Options of ``fracas`` itself, before a command (the app's help is its own)."""


dice.register(app)
conflicts.register(app)
sim.register(app)
serve.register(app)
tables.register(app)


def main() -> None:
    """Entry point of the console script."""
    app()


__all__ = ["RUN_FORMAT", "app", "main", "run_data"]
