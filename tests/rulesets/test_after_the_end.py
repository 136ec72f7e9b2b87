"""Once the GM ends a conflict, its state says so and no longer claims whose turn it is."""

from __future__ import annotations

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.engine import Viewer
from fracas.engine.views import view

PENDING = ("acting", "declaring", "may act", "still to", "awareness move:", "not gone")


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_an_ended_conflict_shows_no_pending_turn(name: str) -> None:
    conflict = play_script(load_scenario(name), "end")
    if conflict.state.status != "ended":
        conflict.execute("end 'goal achieved: the scene is over' outcome='the heroes win'")
    level = view(conflict, Viewer.gm())["conflict"]
    assert level["status"] == "ended"
    lines = [line.lower() for line in level["ruleset"].get("lines", [])]
    assert not [line for line in lines if any(p in line for p in PENDING)], lines
    assert level["odds"] == []
