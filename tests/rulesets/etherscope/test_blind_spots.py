"""Rare paths a mutation test found unguarded in Etherscope (issue 16): a character whose
action a zoom-in resolved does not act again, nor is shown the odds of a roll to come; a
group takes no name already in use, and no joiner takes a group's name."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.views import view
from fracas.errors import IllegalCommand, InvalidInput

from .helpers import make, refused, started

ALICE = Viewer.of_player("alice")


def _finish_zoom(c) -> None:  # type: ignore[no-untyped-def]
    while c.state.zoom is not None:
        inner = c.state.innermost
        if inner.ext.phase == "ready":
            c.execute("round")
        elif inner.ext.phase == "declare":
            c.execute("countdown")
        else:
            c.execute(f"{inner.ext.countdown.current.actor}: done")


@pytest.mark.rule("ES-ROUND-4", "ES-ACT-1", "ES-ACT-4")
def test_a_character_whose_zoom_resolved_its_action_only_ends_its_turn() -> None:
    c = started({"time_scale": "tactical"})
    c.execute("countdown")
    odds = "Ada rolls 2d6 (5+ a success): ≥1 56%, ≥2 11%"
    assert [view(c, v)["conflict"]["odds"] for v in (Viewer.gm(), ALICE)] == [[odds]] * 2
    c.execute("ada: zoom bruno reason=duel")
    # her action is the zoom: the level she zoomed from shows no roll of hers to come, while
    # the zoom is played nor once it has closed (ES-ACT-4)
    assert [view(c, v)["conflict"]["odds"] for v in (Viewer.gm(), ALICE)] == [[], []]
    _finish_zoom(c)
    assert c.state.ext.countdown.current.actor == "ada"
    assert [view(c, v)["conflict"]["odds"] for v in (Viewer.gm(), ALICE)] == [[], []]
    msg = refused(c, "ada: attack bruno successes=2", IllegalCommand, "ES-ROUND-4")
    assert "has resolved this action; `done` ends the turn" in msg
    refused(c, "ada: zoom bruno", IllegalCommand, "ES-ROUND-4")
    assert [lc.text() for lc in c.ruleset.legal_commands(c.state.innermost, "ada")] == [
        "ada: done"]
    c.execute("ada: done")
    assert c.state.ext.countdown.current.actor == "bruno"


@pytest.mark.rule("ES-START-6")
@pytest.mark.parametrize("name", ["carl", "duo"])
def test_a_group_takes_no_name_of_a_participant_or_an_existing_group(name: str) -> None:
    c = make({"groups": {"duo": ["bruno", "carl"]}})
    msg = refused(c, f"group {name} ada,bruno", InvalidInput, "ES-START-6")
    assert f"{name!r} is already a participant or a group" in msg


@pytest.mark.rule("ES-START-6")
def test_a_joiner_takes_no_name_of_a_group() -> None:
    c = make({"groups": {"duo": ["bruno", "carl"]}})
    msg = refused(c, "join duo name=Dora stats='{\"physical\": 8}'", InvalidInput,
                  "ES-START-6")
    assert "duo" in msg and "group" in msg  # the set-up check of a join says it first
    c.execute("join dora name=Dora stats='{\"physical\": 8}'")
    assert "dora" in c.state.participants  # the same join under a free id is taken
