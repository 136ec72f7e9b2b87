"""Legal commands are a view of decide (DESIGN.md principle 5): in random play of every
bundled scenario, a legal command filled in with values it lists as allowed is accepted."""

from __future__ import annotations

import os
import random

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.conflict import Conflict
from fracas.engine.legal import LegalCommand
from fracas.rulesets import get_ruleset

STEPS = int(os.environ.get("FUZZ_N", "60"))
#: The engine's own GM tools (their values are the GM's to pick, not the rules').
SKIPPED = frozenset({"undo", "redo", "end", "out", "leave", "join", "override", "effect",
                     "note", "narrate", "roll", "conceal", "reveal"})


def _exact(lc: LegalCommand) -> bool:
    """Every value still to choose is one of a list the rules give (none typed freely)."""
    return lc.verb not in SKIPPED and all(
        p.is_fixed or not p.required or (p.allowed is not None and not p.placeholder)
        for p in lc.params)


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_legal_command_with_allowed_values_is_accepted(name: str, seed: int) -> None:
    sc = load_scenario(name)
    conflict = Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, "seed", time="")
    rng = random.Random(seed)
    played = 0
    for _ in range(STEPS):
        options = [lc for actor in [None, *conflict.state.innermost.participants]
                   for lc in conflict.legal(actor) if _exact(lc)]
        if not options:
            break
        lc = rng.choice(options)
        values = {p.name: rng.choice(p.allowed) for p in lc.params
                  if not p.is_fixed and p.required and p.allowed}
        conflict.execute(lc.command(**values), time="")  # must not be refused
        played += 1
    assert played > 0
