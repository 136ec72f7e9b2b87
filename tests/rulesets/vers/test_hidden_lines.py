"""A VERS tracker line that would name a participant hidden from the viewer is written without
them, never dropped: no line of a player's view comes or goes when a hidden one joins."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.projector import Projector
from tests.rulesets.test_fuzz_commands import played
from tests.rulesets.test_secret_properties import _hidden_join


@pytest.mark.rule("VR-TURN-3")
def test_a_hidden_newcomer_changes_no_line_of_the_public_view() -> None:
    c = played("vers-tavern-brawl")
    c.execute("undo", time="")  # back in the turn: the "not gone" line is shown
    follow = Projector(c, Viewer.public())
    lines = follow.view()["conflict"]["ruleset"]["lines"]
    assert any(line.startswith("Gone: ") for line in lines)
    c.execute(_hidden_join(c), time="")
    update = follow.advance()
    assert update.entries == () and update.view is None
    assert follow.view()["conflict"]["ruleset"]["lines"] == lines
    gm = Projector(c, Viewer.gm()).view()["conflict"]["ruleset"]["lines"]
    assert any("Zqhidden" in line for line in gm)  # the GM's tracker does name it
