"""The ``fracas roll`` and ``fracas odds`` commands, added to the main Typer app."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console

from fracas.cli.common import fail
from fracas.errors import FracasError

D20_HELP = "Read the expression as the d20 library and Avrae do (10d10>=7 compares the total)."


def _reading(expr: str, d20: bool) -> str:
    """The expression with the ``d20:`` prefix when ``--d20`` asks for d20's reading."""
    if d20 and not expr.lstrip().lower().startswith("d20:"):
        return "d20:" + expr
    return expr


def _words(words: list[str] | None, default: str | None = None) -> str:
    """The expression of the words given, joined by spaces, as Avrae's ``!roll`` takes the rest
    of the message: ``fracas roll 1d20 + 5 adv`` needs no quotes."""
    text = " ".join(words or [])
    if not text.strip() and default is not None:
        return default
    return text


def _console() -> Console:
    return Console(file=sys.stdout)


MAX_TIMES = 100  # as Avrae's !rr


def _target(value: int, option: str) -> None:
    """Refuse a --dc or --vs past the dice limits (as the odds of the library refuse it)."""
    from fracas.dice.errors import check_target

    try:
        check_target(value, option)
    except FracasError as error:
        fail(str(error))


def roll_command(
    words: Annotated[list[str] | None, typer.Argument(
        metavar="EXPR", show_default=False,
        help="Dice expression, e.g. 4d6kh3+2 or 1d20 + 5 adv to hit, quoted or not "
             "(none: 1d20, as Avrae's !r).")]
    = None,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Seed for a repeatable roll (default: fresh).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    d20: Annotated[bool, typer.Option("--d20", help=D20_HELP)] = False,
    times: Annotated[int | None, typer.Option(
        "--times", help=f"Roll it N times (1 to {MAX_TIMES}), as Avrae's !rr N.")] = None,
    dc: Annotated[int | None, typer.Option(
        "--dc", help="Count the rolls whose total is DC or more, as Avrae's !rrr N EXPR DC.")]
    = None,
) -> None:
    """Roll a dice expression and show every die (--times N: N rolls and their sum)."""
    expr = _reading(_words(words, "1d20"), d20)
    from fracas.cli.dice_render import roll_to_rich
    from fracas.dice.rng import DiceRng, new_seed
    from fracas.dice.roller import roll

    if times is not None and not 1 <= times <= MAX_TIMES:
        fail(f"--times {times}: give 1 to {MAX_TIMES} rolls")
    if dc is not None:
        _target(dc, "--dc")
    if seed is not None:
        from fracas.engine.limits import check_seed  # the engine only when a seed is given

        try:
            check_seed(seed)  # as run --seed and new --seed check it
        except FracasError as error:
            fail(str(error))
    used_seed = seed if seed is not None else new_seed()
    count = 1 if times is None else times
    try:  # roll i is the i-th of the seed's (the first is the single roll's)
        results = [roll(expr, DiceRng.derive(used_seed, i)) for i in range(count)]
    except FracasError as error:
        fail(str(error))
    several = times is not None or dc is not None
    total = sum(r.total for r in results)
    met = None if dc is None else sum(1 for r in results if r.total >= dc)
    if as_json:
        if not several:
            (single,) = results
            typer.echo(json.dumps({**single.to_data(), "seed": used_seed}))
            return
        typer.echo(json.dumps({"rolls": [r.to_data() for r in results], "sum": total,
                               "dc": dc, "successes": met, "seed": used_seed}))
        return
    console = _console()
    for result in results:
        if console.is_terminal:
            console.print(roll_to_rich(result))
        else:
            typer.echo(result.to_text())
    if several:
        at = "" if dc is None else f"{met} of {count} at DC {dc} or more · "
        typer.echo(f"{at}{count} roll{'s' if count != 1 else ''}, sum {total}")


def odds_command(
    words: Annotated[list[str], typer.Argument(
        metavar="EXPR", help="Dice expression, or a ruleset query, quoted or not.")],
    vs: Annotated[
        int | None, typer.Option("--vs", help="Difficulty: chance that the total is at least DL.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="Ask a ruleset's own odds query instead.")
    ] = None,
    d20: Annotated[bool, typer.Option("--d20", help=D20_HELP)] = False,
) -> None:
    """Show the exact odds of a dice expression (or of a ruleset's check)."""
    expr = _words(words)
    if ruleset is not None and (vs is not None or d20):
        fail(f"--{'vs' if vs is not None else 'd20'} goes with a dice expression, not with "
              "--ruleset: a ruleset's query says its own target (e.g. '3d6 vs 12 -2')")
    if ruleset is None:
        expr = _reading(expr, d20)
    if vs is not None:
        _target(vs, "--vs")
    from fracas.cli.dice_render import report_to_rich
    from fracas.dice.odds import OddsReport, odds_of

    try:
        if ruleset is not None:
            report: Any = _ruleset_odds(ruleset, expr)
            if not isinstance(report, OddsReport):
                fail(f"ruleset '{ruleset}' did not answer the odds query '{expr}'")
        else:
            report = odds_of(expr, vs)
    except FracasError as error:
        fail(str(error))
    if as_json:
        typer.echo(json.dumps(report.to_data()))
        return
    console = _console()
    if console.is_terminal:
        console.print(report_to_rich(report))
    else:
        typer.echo(report.to_text())


def _ruleset_odds(name: str, query: str) -> Any:
    try:
        from fracas.rulesets import get_ruleset  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        fail(f"rulesets are not available, so '--ruleset {name}' cannot answer odds")
    found = get_ruleset(name)
    odds = getattr(found, "odds", None)
    if not callable(odds):
        fail(f"ruleset '{name}' has no odds queries")
    return odds(query)


def register(app: typer.Typer) -> None:
    """Add the ``roll`` and ``odds`` commands to the main ``fracas`` Typer app."""
    # an expression may start with a sign: "-1d4+2" is an expression, not an unknown option
    negative = {"ignore_unknown_options": True}
    app.command("roll", context_settings=negative)(roll_command)
    app.command("odds", context_settings=negative)(odds_command)
