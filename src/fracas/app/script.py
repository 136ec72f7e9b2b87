"""The one scenario-script runner: create a scenario's conflict and play its script."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.app.scenario import Scenario
from fracas.engine.conflict import Conflict
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset


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
