"""The one scenario-script runner: create a scenario's conflict and play its script."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from fracas.app.scenario import Scenario, ScriptLine
from fracas.dice import parse
from fracas.engine.conflict import Conflict, command_set
from fracas.engine.limits import MAX_SCRIPT_DICE
from fracas.engine.ruleset import Ruleset
from fracas.errors import FracasError, InvalidInput, located
from fracas.rulesets import get_ruleset


@dataclass(slots=True)
class ScriptRun:
    """A scenario played as far as its script goes: the conflict (None when the set-up itself
    was refused) and the error that stopped it, if any."""

    conflict: Conflict | None
    error: FracasError | None = None


def _too_many_dice(scenario: Scenario, ruleset: Ruleset) -> InvalidInput | None:
    """The refusal of a script whose ``roll`` commands name more than MAX_SCRIPT_DICE dice in
    all (a line that does not read is left to be refused where it is played)."""
    commands, dice = command_set(ruleset), 0
    for line in scenario.script:
        try:
            cmd = commands.parse(line.text)
            if cmd.verb == "roll" and isinstance(cmd.args.get("expression"), str):
                dice += parse(cmd.args["expression"]).dice_count
        except FracasError:
            continue
        if dice > MAX_SCRIPT_DICE:
            return InvalidInput(
                f"{scenario.path}:{line.line}: the script's rolls name more than "
                f"{MAX_SCRIPT_DICE:,} dice by this line; a script rolls at most "
                f"{MAX_SCRIPT_DICE:,} (the limit on a script's dice)", path=scenario.path)
    return None


def opening(scenario: Scenario, stop: frozenset[str] = frozenset({"end"})
            ) -> tuple[ScriptLine, ...]:
    """The GM commands at the head of a scenario's script, up to the first command a
    character gives or a verb of ``stop``: the set-up in play (a chase begun, a sniper
    concealed) without the story a bundled example plays on to."""
    commands = command_set(get_ruleset(scenario.setup.ruleset))
    for i, line in enumerate(scenario.script):
        try:
            cmd = commands.parse(line.text)
        except FracasError:
            return scenario.script[:i]
        if cmd.actor is not None or cmd.verb in stop:
            return scenario.script[:i]
    return scenario.script


def from_the_start(scenario: Scenario) -> Scenario:
    """``scenario`` with only the :func:`opening` of its script."""
    return dataclasses.replace(scenario, script=opening(scenario))


def run_script(scenario: Scenario, seed: str, *, time: str | None = "") -> ScriptRun:
    """Create a scenario's conflict and play its script up to the first refused command;
    errors name the file and the line (of the script, or of the refused setting) and keep
    the rule that refused it. Records are stamped with ``time`` (``""``: no time, as in the
    golden logs; None: now)."""
    ruleset = get_ruleset(scenario.setup.ruleset)
    too_many = _too_many_dice(scenario, ruleset)
    if too_many is not None:
        return ScriptRun(None, too_many)
    try:
        conflict = Conflict.create(ruleset, scenario.setup, seed, time=time)
    except FracasError as exc:
        return ScriptRun(None, located(exc, _setup_where(scenario, exc)))
    for line in scenario.script:
        try:
            conflict.execute(line.text, time=time)
        except FracasError as exc:
            return ScriptRun(conflict, located(exc, f"{scenario.path}:{line.line}: "
                                                    f"{line.text!r}"))
    return ScriptRun(conflict)


def _setup_where(scenario: Scenario, exc: FracasError) -> str:
    """``FILE:LINE`` of what a refused set-up is about: the participant's entry (its stat's
    line) for an error about one, else the setting's line, else the file."""
    ids = {p.id for p in scenario.setup.participants}
    key = exc.values.get("key")
    head = exc.message.partition(": ")[0]  # every ruleset words one's refusal "ada: …"
    if isinstance(key, str) and ".stats." in key and key.split(".")[0] in ids:
        head, key = key.split(".")[0], key.partition(".stats.")[2]  # ada.stats.society
    if head in ids:
        return scenario.where_participant(head, key if isinstance(key, str) else None)
    named = exc.values.get("participant")
    if isinstance(named, str) and scenario.text:  # the settings naming one (hidden) so
        return scenario.where_named(named)
    setting = re.match(r"settings\.(\w+)", exc.message)  # "settings.links: … (VR-MOVE-1)"
    return scenario.where(_settings_key(exc) or (setting[1] if setting else None))


def _settings_key(exc: FracasError) -> str | None:
    """The ``[settings]`` key a set-up error is about, if any: an error about a participant's
    stats names the participant instead (its ``key`` is a stat's, not a setting's)."""
    if "participant" in exc.values:
        return None
    key = exc.values.get("key")
    return key if isinstance(key, str) else None


def check_setup(scenario: Scenario) -> None:
    """Refuse a scenario whose set-up the rules refuse, in the words (file, line, rule) of
    :func:`run_script`: for a door that plays the set-up in its own way (``fracas sim``)."""
    done = run_script(dataclasses.replace(scenario, script=()), "set-up check")
    if done.error is not None:
        raise done.error


def play_script(scenario: Scenario, seed: str, *, time: str | None = "") -> Conflict:
    """Create the conflict of a scenario and play its script; raise the first error."""
    done = run_script(scenario, seed, time=time)
    if done.error is not None:
        raise done.error
    assert done.conflict is not None
    return done.conflict
