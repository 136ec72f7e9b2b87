"""Legal commands are a view of decide (DESIGN.md principle 5): a legal command filled in with
values it lists as allowed is accepted, it asks for no value its command leaves optional (the
browser would demand it), and all actors' legal commands asked at once are each actor's
own — in random play of every bundled scenario deep into
its conflict (awareness moves, declarations, countdowns, zoom-ins, VERS chases, Fabula Ultima
turns), and in the simulator's play with every built-in policy (the choices its agents make
are the ones the browser table offers as buttons)."""

from __future__ import annotations

import os
import random

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.conflict import Conflict
from fracas.engine.legal import LegalCommand
from fracas.engine.model import Status
from fracas.rulesets import get_ruleset
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.job import SimJob
from fracas.sim.policies import BUILT_IN

STEPS = int(os.environ.get("FUZZ_N", "150"))
SEEDS = range(int(os.environ.get("FUZZ_SEEDS", "4")))
#: Encounters the simulator plays per scenario and policy.
ENCOUNTERS = int(os.environ.get("FUZZ_ENCOUNTERS", "6"))
#: The engine's own GM tools (their values are the GM's to pick, not the rules').
SKIPPED = frozenset({"undo", "redo", "end", "out", "leave", "join", "override", "effect",
                     "note", "narrate", "roll", "conceal", "reveal"})
#: What a free text value is filled with (any text is allowed: a reason, an action's name).
TEXT = "for the test"
#: The rules each scenario's play reaches (legal commands of these rules are checked).
RULES = {
    "etherscope": ("ES-START-1", "ES-START-2", "ES-START-5", "ES-START-6", "ES-RNG-2",
                   "ES-RNG-4", "ES-RNG-5", "ES-ROUND-2", "ES-ROUND-3", "ES-ACT-1",
                   "ES-ACT-2", "ES-ACT-5"),
    "fabula-ultima": ("FU-CHK-4", "FU-CON-6", "FU-CON-8", "FU-CON-12"),
    "vers": ("VR-ATK-1", "VR-INJ-5", "VR-MOVE-2", "VR-MOVE-5", "VR-TURN-2", "VR-CHASE-4",
             "VR-CHASE-8"),
}


def _playable(lc: LegalCommand) -> bool:
    """Every value still to choose is one of a list the rules give, or free text."""
    return lc.verb not in SKIPPED and all(
        p.is_fixed or not p.required or p.kind == "text"
        or (p.allowed is not None and not p.placeholder)
        for p in lc.params)


def _fill(lc: LegalCommand, rng: random.Random) -> dict[str, object]:
    """Values for ``lc``: a listed one for each required value (free text for a text), and
    now and then one of the listed values of an optional parameter, none picked for another
    already (a push goes toward or away from each character, not both: ES-ACT-5)."""
    values: dict[str, object] = {}
    for p in lc.params:
        if p.is_fixed:
            continue
        if p.allowed:
            left = [v for v in p.allowed if p.required or v not in values.values()]
            if left and (p.required or rng.random() < 0.3):
                values[p.name] = rng.choice(left)
        elif p.required and p.kind == "text":
            values[p.name] = TEXT
    return values


def _rules_of(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.rule(r) for r in RULES[load_scenario(name).setup.ruleset]]


SCENARIOS = [pytest.param(name, marks=_rules_of(name)) for name in sorted(bundled_scenarios())]


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_legal_command_with_allowed_values_is_accepted(name: str, seed: int) -> None:
    sc = load_scenario(name)
    conflict = Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, f"seed{seed}", time="")
    for cmd in prepare(SimJob(sc.text, name, 1, "legal")).prologue:  # e.g. VERS: a chase
        conflict.execute(cmd, time="")
    rng = random.Random(seed)
    played: list[str] = []
    for _ in range(STEPS):
        if conflict.state.status == Status.ENDED.value:
            break
        state, ruleset = conflict.state.innermost, conflict.ruleset
        everyone = [None, *state.participants]  # asked all at once (the simulator's way)
        assert ruleset.legal_commands_of(state, everyone) == {
            actor: ruleset.legal_commands(state, actor) for actor in everyone}
        by_actor = {actor: options for actor in conflict.state.innermost.participants
                    if (options := [lc for lc in conflict.legal(actor) if _playable(lc)])}
        gm = [lc for lc in conflict.legal(None) if _playable(lc)]
        if gm and (not by_actor or rng.random() < 0.2):  # the characters play most of it
            by_actor[None] = gm  # type: ignore[index]
        if not by_actor:
            break
        for lc in [lc for options in by_actor.values() for lc in options]:
            spec = conflict.commands.spec(lc.verb)
            demanded = {p.name for p in lc.params if p.required and not p.is_fixed}
            assert demanded <= {p.name for p in spec.params if p.required}, lc.text()
        options = by_actor[rng.choice(list(by_actor))]
        lc = rng.choice(options)
        command = lc.command(**_fill(lc, rng))
        conflict.execute(command, time="")  # must not be refused
        played.append(lc.verb)
    assert played, "nothing was legal at the start"


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("policy", sorted(BUILT_IN))
def test_no_choice_of_a_simulated_side_is_refused(name: str, policy: str) -> None:
    text = load_scenario(name).text
    base = prepare(SimJob(text, name, 1, "legal"))
    job = SimJob(text, name, ENCOUNTERS, f"legal-{policy}",
                 policies=tuple((side, policy) for side in base.sides.sides))
    p = prepare(job)
    refusals = [r for i in range(ENCOUNTERS) for r in Encounter(p, i).play().refusals]
    assert refusals == []


@pytest.mark.rule("ES-START-5")
@pytest.mark.rule("ES-START-6")
def test_an_awareness_step_against_a_group_moves_all_its_members() -> None:
    sc = load_scenario("etherscope-car-chase")  # ada and bruno stand together: pursuers
    conflict = Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, "group", time="")
    for line in ("zepcar: awareness dice=6,6", "ada: awareness dice=1,1,1",
                 "bruno: awareness dice=1,1", "moves"):
        conflict.execute(line, time="")
    steps = [lc for lc in conflict.legal("zepcar") if lc.verb == "step"]
    assert [lc.text() for lc in steps] == ["zepcar: step ada,bruno toward"]  # both Distant
    conflict.execute(steps[0].command(), time="")
    bands = conflict.state.ext.ranges
    assert bands.get("zepcar", "ada") == bands.get("zepcar", "bruno") == 1  # both Near now
