"""Random legal play never breaks evolve; replay and snapshots agree with the live state."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.model import ConflictState
from fracas.engine.serialize import state_from_data, state_to_data
from fracas.errors import FracasError
from fracas.rulesets.vers.decider import attack_choices, attack_plan
from fracas.rulesets.vers.state import weapons_of

from .helpers import ruleset

BRAWL = Path(__file__).parents[3] / "src/fracas/scenarios/vers-tavern-brawl.toml"
SCENARIO = load_scenario(BRAWL)


@given(st.lists(st.tuples(st.integers(0, 10_000), st.lists(st.integers(1, 6), min_size=3,
                                                           max_size=3)), max_size=25))
def test_random_legal_commands_keep_state_consistent(picks):
    conflict = play_script(SCENARIO, "prop")
    rs = ruleset()
    for pick, dice in picks:
        state = conflict.state
        options = list(rs.legal_commands(state, None)[:1])
        for pid in state.active_ids():
            options += rs.legal_commands(state, pid)
        options = [o for o in options
                   if all(c.is_fixed or not c.required for c in o.params)]
        if not options:
            break
        legal = options[pick % len(options)]
        free = {c.name: dice if c.kind == "dice" else "go"
                for c in legal.params if c.listed and not c.is_fixed
                and c.kind in ("dice", "text")}
        try:
            conflict.execute(legal.command(**free))
        except FracasError as exc:  # e.g. free attacks without enough table dice
            assert exc.rule is None or exc.rule.startswith("VR-"), legal.text()
    snap = state_to_data(conflict.state)
    assert state_to_data(conflict.replay()) == snap
    assert state_to_data(state_from_data(rs, snap)) == snap


def _planned(state: ConflictState, attacker: str, target: str, weapon: str) -> bool:
    """Whether the rules would plan this attack (rather than refuse it)."""
    try:
        attack_plan(state, attacker, target, weapon)
    except FracasError:
        return False
    return True


@pytest.mark.rule("VR-ATK-1", "VR-MOVE-1", "VR-MOVE-3", "VR-OBJ-4", "VR-INJ-5")
@pytest.mark.parametrize("name", ["vers-tavern-brawl", "vers-chase"])
@settings(max_examples=25)
@given(picks=st.lists(st.integers(0, 10_000), max_size=30))
def test_the_attacks_listed_are_exactly_those_the_rules_would_plan(
    name: str, picks: list[int]
) -> None:
    """The attacks a character is offered (found by the checks alone, the zone distances from
    one search) are every (target, weapon) whose plan the rules would make, on a character or
    an object not yet broken, and no other —
    through random play that moves, engages, covers and takes characters out."""
    conflict = play_script(load_scenario(name), "prop")
    rs = ruleset()
    for pick in [*picks, 0]:
        state = conflict.state
        ext = state.ext
        for zone in ext.zones.zones:
            assert ext.zones.distances(zone) == {
                z: d for z in ext.zones.zones
                if (d := ext.zones.distance(zone, z)) is not None}
        for pid in state.active_ids():
            weapons = weapons_of(state.participants[pid])
            targets = [*(t for t in state.active_ids() if t != pid),
                       *(o for o, obj in ext.objects.items() if not obj.broken)]
            planned = [(t, w) for t in targets for w in weapons if _planned(state, pid, t, w)]
            assert attack_choices(state, pid) == planned
        options = [o for pid in state.active_ids() for o in rs.legal_commands(state, pid)
                   if all(c.is_fixed or not c.required for c in o.params)]
        if not options:
            break
        legal = options[pick % len(options)]
        free = {c.name: [4, 4, 4] if c.kind == "dice" else "go"
                for c in legal.params if c.listed and not c.is_fixed
                and c.kind in ("dice", "text")}
        with contextlib.suppress(FracasError):
            conflict.execute(legal.command(**free))
