"""Rare Etherscope paths: the turn after a zoom-in resolved the action, group names that are
taken, and which refusal wins when two apply."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

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


@pytest.mark.rule("ES-START-6")
def test_a_group_needs_two_members() -> None:
    c = four()
    msg = refused(c, "group solo ada", InvalidInput, "ES-START-6")
    assert "at least two members" in msg


def moving() -> Conflict:
    """Awareness ada 3, bruno 2, carl 1, dora 0: the moves in that order, ada first."""
    return make(people=[pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")],
                script=["ada: awareness successes=3", "bruno: awareness successes=2",
                        "carl: awareness successes=1", "dora: awareness successes=0",
                        "moves"])


@pytest.mark.rule("ES-START-5")
def test_characters_taken_out_during_the_moves_are_moved_against_by_nobody() -> None:
    c = moving()
    c.execute("out carl 'falls'", time="")
    c.execute("out dora 'falls'", time="")
    c.execute("ada: done", time="")  # bruno would move against nobody still here
    assert c.state.ext.phase != "moves"


@pytest.mark.rule("ES-START-5")
def test_a_mover_who_leaves_passes_the_move_to_the_next_with_someone_to_face() -> None:
    c = moving()
    c.execute("leave ada 'gone'", time="")
    assert c.ruleset.view_ext(c.state, Viewer.gm())["mover"] == "bruno"


@pytest.mark.rule("ES-START-5")
def test_moving_out_of_order_says_whether_ones_move_is_over_or_still_to_come() -> None:
    c = moving()
    c.execute("ada: done", time="")
    msg = refused(c, "ada: step carl toward", NotYourTurn, "ES-START-5")
    assert msg.startswith("Ada's awareness move is over; Bruno is moving now")
    msg = refused(c, "dora: step ada toward", NotYourTurn, "ES-START-5")
    assert msg.startswith("Dora has not had its awareness move yet; Bruno is moving now")


@pytest.mark.rule("ES-START-6")
def test_a_character_who_leaves_leaves_its_group_and_a_group_of_one_is_no_group() -> None:
    c = four()
    c.execute("group trio ada,bruno,carl", time="")
    c.execute("leave carl", time="")
    assert c.state.ext.groups == {"trio": ["ada", "bruno"]}
    c.execute("leave bruno", time="")
    assert c.state.ext.groups == {}
