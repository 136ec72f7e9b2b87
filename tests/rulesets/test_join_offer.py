"""The GM's ``join`` offers the sides a newcomer may take part on: Fabula Ultima's two sides
to choose from (FU-CON-13: no other takes turns), Etherscope's and VERS's own sides as
suggestions, a new side taken too (before: a free text box in every ruleset)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine import Conflict
from fracas.engine.legal import Choice
from fracas.errors import InvalidInput


def _opened(scenario: str) -> Conflict:
    return play_script(replace(load_scenario(scenario), script=()), "join")


def _side(c: Conflict) -> Choice:
    (join,) = [lc for lc in c.legal() if lc.verb == "join"]
    assert join.text() == "join ID"  # the terminal's template as before
    return join.choice("side")


@pytest.mark.rule("FU-CON-13", "FU-CON-14")
def test_a_fabula_ultima_newcomer_chooses_one_of_the_two_sides() -> None:
    c = _opened("fabula-ultima-ambush")
    side = _side(c)
    assert side.allowed == ("heroes", "bandits") and side.suggested == ()
    stats = {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 20}
    (join,) = [lc for lc in c.legal() if lc.verb == "join"]
    c.execute(join.command(id="wolf", side="bandits", stats=stats), time="")
    assert c.state.participants["wolf"].side == "bandits"
    with pytest.raises(InvalidInput):
        join.command(id="miller", side="townsfolk")  # not offered: it would take no turns
    with pytest.raises(InvalidInput, match="exactly two sides"):
        c.execute(f"join miller side=townsfolk stats='{json.dumps(stats)}'", time="")


@pytest.mark.parametrize(("scenario", "stats"), [
    ("etherscope-car-chase", {"physical": 10, "ether": 10, "society": 10}),
    ("vers-tavern-brawl", {"zone": "street"}),
])
def test_elsewhere_the_conflicts_sides_are_suggested_and_a_new_one_taken(
        scenario: str, stats: dict[str, int]) -> None:
    c = _opened(scenario)
    side = _side(c)
    assert side.allowed is None and side.suggested == tuple(c.state.sides)
    assert len(side.suggested) == 2
    (join,) = [lc for lc in c.legal() if lc.verb == "join"]
    c.execute(join.command(id="stranger", side="onlookers", stats=stats), time="")
    assert c.state.participants["stranger"].side == "onlookers"
    assert _side(c).suggested == (*side.suggested, "onlookers")
