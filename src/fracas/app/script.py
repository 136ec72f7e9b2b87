"""The one scenario-script runner: create a scenario's conflict and play its script."""

from __future__ import annotations

from dataclasses import dataclass

from fracas.app.scenario import Scenario
from fracas.engine.conflict import Conflict
from fracas.errors import FracasError, ScriptError
from fracas.rulesets import get_ruleset


@dataclass(slots=True)
class ScriptRun:
    """A scenario played as far as its script goes: the conflict (None when the set-up itself
    was refused) and the error that stopped it, if any."""

    conflict: Conflict | None
    error: FracasError | None = None


def run_script(scenario: Scenario, seed: str, *, time: str | None = "") -> ScriptRun:
    """Create a scenario's conflict and play its script up to the first refused command;
    errors name the file and the line (of the script, or of the refused setting) and keep
    the rule that refused it. Records are stamped with ``time`` (``""``: no time, as in the
    golden logs; None: now)."""
    ruleset = get_ruleset(scenario.setup.ruleset)
    try:
        conflict = Conflict.create(ruleset, scenario.setup, seed, time=time)
    except FracasError as exc:
        return ScriptRun(None, ScriptError(scenario.where(exc.values.get("key")), exc))
    for line in scenario.script:
        try:
            conflict.execute(line.text, time=time)
        except FracasError as exc:
            return ScriptRun(conflict, ScriptError(f"{scenario.path}:{line.line}: "
                                                   f"{line.text!r}", exc))
    return ScriptRun(conflict)


def play_script(scenario: Scenario, seed: str, *, time: str | None = "") -> Conflict:
    """Create the conflict of a scenario and play its script; raise the first error."""
    done = run_script(scenario, seed, time=time)
    if done.error is not None:
        raise done.error
    assert done.conflict is not None
    return done.conflict
