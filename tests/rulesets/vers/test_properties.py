"""Random legal play never breaks evolve; replay and snapshots agree with the live state."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.serialize import state_from_data, state_to_data
from fracas.errors import FracasError

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
