"""Rare Etherscope paths: the turn after a zoom-in resolved the action, group names that are
taken, and which refusal wins when two apply."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import Conflict
from fracas.errors import IllegalCommand, InvalidInput

from .helpers import make, pc, refused, started


def zoom_through(c: Conflict) -> None:
    """Play the zoomed-in conflict to its round limit, each character doing nothing."""
    while c.state.zoom is not None:
        zs = c.state.zoom
        if zs.ext.phase == "countdown":
            cur = zs.ext.countdown.current
            assert cur is not None
            c.execute(f"{cur.actor}: done", time="")
        elif zs.ext.phase == "declare":
            c.execute("countdown", time="")
        else:
            c.execute("round", time="")


@pytest.mark.rule("ES-ROUND-4", "ES-ACT-1")
def test_after_a_zoom_in_resolved_the_action_the_character_only_ends_its_turn() -> None:
    c = started({"time_scale": "tactical"})
    c.execute("countdown", time="")
    assert c.state.ext.countdown.current.actor == "ada"
    c.execute("ada: zoom bruno reason=duel", time="")
    zoom_through(c)
    assert c.state.ext.countdown.current.actor == "ada"
    msg = refused(c, "ada: attack bruno successes=1", IllegalCommand, "ES-ROUND-4")
    assert "`done` ends the turn" in msg
    refused(c, "ada: zoom bruno reason=again", IllegalCommand, "ES-ROUND-4")
    c.execute("ada: done", time="")
    assert c.state.ext.countdown.current.actor != "ada"


def four() -> Conflict:
    return make(people=[pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")])


@pytest.mark.rule("ES-START-6")
def test_a_group_may_not_take_the_name_of_a_participant_or_a_group() -> None:
    c = four()
    msg = refused(c, "group carl bruno,dora", InvalidInput, "ES-START-6")
    assert "'carl' is already a participant or a group" in msg
    c.execute("group duo bruno,carl", time="")
    refused(c, "group duo ada,dora", InvalidInput, "ES-START-6")
    c.execute("group pair ada,dora", time="")
    assert c.state.ext.groups == {"duo": ["bruno", "carl"], "pair": ["ada", "dora"]}


@pytest.mark.rule("ES-START-6")
def test_a_taken_name_wins_over_a_member_already_grouped() -> None:
    c = four()
    c.execute("group duo bruno,carl", time="")
    refused(c, "group duo bruno,dora", InvalidInput, "ES-START-6")  # both are wrong
    msg = refused(c, "group trio bruno,dora", IllegalCommand, "ES-START-6")
    assert "Bruno already stands in group duo" in msg


@pytest.mark.rule("ES-ROUND-2", "ES-ROUND-3")
def test_a_declaration_past_the_base_wins_over_scores_too_close() -> None:
    c = started()
    msg = refused(c, "ada: declare 9,6", IllegalCommand, "ES-ROUND-2")  # 15 > 10, 3 apart
    assert "add up to 15" in msg
    msg = refused(c, "ada: declare 0,6", IllegalCommand, "ES-ROUND-2")  # not positive first
    assert "positive" in msg
