"""What the log says of extra successes nothing bought (ES-ACT-4, ES-ACT-5): a GM-defined
action's are the GM's to apply, with the command that does; a search's found no one more
(as the reader may know of finds); a Push Back's are left over. They were left without a
word: "1 extra [extras: +1 composure damage per extra]" and nothing after."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view

from .helpers import make, moved, pc, started

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")


def _acting(settings: dict[str, Any] | None = None) -> Conflict:
    """Ada (alice), Bruno (bob) and Carl (the GM's); the countdown begun, Ada's turn."""
    c = started(settings)
    c.execute("countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    return c


def _said(c: Conflict, viewer: Viewer) -> str:
    """The action's line of the viewer's newest log entry."""
    return log_view(c, viewer)[-1]["lines"][0]


@pytest.mark.rule("ES-ACT-4", "ES-ACT-5")
def test_a_gm_defined_actions_unspent_extras_are_the_gms_in_words_every_viewer_reads() -> None:
    c = _acting()
    c.execute("ada: act taunt pool=4 successes=3 target=carl "
              "extras='+1 composure damage per extra'")
    line = ("Ada: taunt Carl; 3 successes (table) vs difficulty 1: success, 2 extra "
            "[extras: +1 composure damage per extra] (2 unspent: for the GM to apply as its "
            "extras say)")
    for viewer in (Viewer.gm(), ALICE, BOB):
        assert _said(c, viewer) == line
    c.execute("damage carl 2 reason='taunted'")  # the GM's damage applies them
    assert log_view(c, Viewer.gm())[-1]["lines"][0] == \
        "Carl takes 2 physical damage (taunted); 8 left"


@pytest.mark.rule("ES-ACT-4")
def test_a_gm_defined_action_with_no_extras_or_target_leaves_them_to_the_gms_ruling() -> None:
    c = _acting()
    c.execute("ada: act rally successes=2")
    assert _said(c, ALICE) == (
        "Ada: rally; 2 successes (table) vs difficulty 1: success, 1 extra (1 unspent: for "
        "the GM to apply as they rule)")


@pytest.mark.rule("ES-ACT-4")
def test_an_action_with_no_extra_success_says_nothing_unspent() -> None:
    c = _acting()
    c.execute("ada: act taunt successes=1 target=carl extras='+1 damage per extra'")
    assert _said(c, ALICE) == ("Ada: taunt Carl; 1 success (table) vs difficulty 1: success "
                               "[extras: +1 damage per extra]")


@pytest.mark.rule("ES-ACT-4")
def test_a_moves_unspent_extras_are_the_gms_to_rule_on() -> None:
    c = _acting()
    c.execute("ada: move carl toward successes=2")
    assert _said(c, ALICE) == ("Ada: move Carl; 2 successes (table) vs difficulty 1: success, "
                               "1 extra (1 unspent: move buys no extras; for the GM to rule on)")


@pytest.mark.rule("ES-ACT-5")
def test_a_push_backs_extras_left_over_from_what_it_asked_are_said_unspent() -> None:
    c = _acting({"ranges": {"default": "close"}})
    c.execute("ada: push carl successes=3 damage=1")
    assert _said(c, ALICE) == ("Ada: push Carl; 3 successes (table) vs difficulty 1: success, "
                               "2 extra (spent: damage 1) (1 unspent)")


def _lurking(settings: dict[str, Any], hidden: list[str]) -> Conflict:
    """Ada (alice), Bruno (bob), and the GM's ``hidden`` hidden from Ada; Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), *(pc(h) for h in hidden)]
    c = make({"lurking": {h: ["ada"] for h in hidden}, **settings}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        *(f"{h}: awareness successes=0" for h in hidden), "moves"])
    moved(c, "round", "countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    return c


@pytest.mark.rule("ES-ACT-5", "ES-RNG-3")
def test_a_searchs_extras_with_no_one_more_hidden_say_so() -> None:
    c = _lurking({}, ["carl"])
    c.execute("ada: search successes=3")
    lines = log_view(c, ALICE)[-1]["lines"]
    assert lines[:2] == ["Ada: search; 3 successes (table) vs difficulty 1: success, 2 extra "
                         "(2 unspent: no one more to find)", "Ada finds Carl (Near)"]


@pytest.mark.rule("ES-ACT-5", "ES-RNG-3")
def test_a_searchs_extras_too_few_for_another_find_say_so() -> None:
    """At 2 extra successes a find, 3 buy one more find (two in all) and leave 1."""
    c = _lurking({"extra_cost": 2}, ["carl", "dan", "eve"])
    c.execute("ada: search successes=4")
    assert _said(c, ALICE) == (
        "Ada: search; 4 successes (table) vs difficulty 1: success, 3 extra (spent: finding "
        "more 2) (1 unspent: too few for another find)")


@pytest.mark.rule("ES-ACT-5", "ES-RNG-6")
def test_a_searchs_unspent_extras_tell_no_gm_only_cost() -> None:
    """With the cost of an extra the GM's, the players read that extras went unspent, not
    whether another find was too dear (that would tell the cost); the GM reads why."""
    c = _lurking({"extra_cost": 2, "gm_only_settings": ["extra_cost"]}, ["carl", "dan"])
    c.execute("ada: search successes=2")
    head = "Ada: search; 2 successes (table) vs difficulty 1: success, 1 extra (1 unspent"
    assert _said(c, ALICE) == f"{head})"
    assert _said(c, Viewer.gm()) == f"{head}: too few for another find)"


@pytest.mark.rule("ES-ACT-4", "ES-RNG-6")
def test_unspent_extras_of_a_gm_only_difficulty_are_not_told() -> None:
    c = _acting({"default_difficulty": 2, "gm_only_settings": ["default_difficulty"]})
    c.execute("ada: act taunt successes=3 target=carl extras='+1 damage per extra'")
    assert _said(c, ALICE) == ("Ada: taunt Carl; 3 successes (table) vs difficulty ?: "
                               "success, ? extra [extras: +1 damage per extra]")
    assert "(1 unspent: for the GM to apply" in _said(c, Viewer.gm())
