"""A long chain of zoom-ins, as an evening plays it (ES-ACT-1, ES-ACT-2): four levels deep from
a Logistic conflict, each closed in turn, the log naming the level play returns to (it once
said "back to the main conflict" on leaving a zoom inside a zoom, and one level too far out
deeper down); each level's view says who opened it and why, as the viewer may know it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import view
from fracas.errors import InvalidInput
from tests.rulesets.etherscope.test_audit import lurking_carl, to_countdown

from .helpers import make, moved, pc, refused

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")


def _four_deep() -> Conflict:
    """Ada (alice) and the heavy, Logistic: Ada zooms in with the heavy at every level, down
    to Fast (depth 4)."""
    c = moved(make({"time_scale": "logistic"}, [pc("ada", "alice", physical=12), pc("heavy")],
                   ["ada: awareness successes=2", "heavy: awareness successes=0", "moves"]),
              "round", "countdown")
    for why in ("a week", "an evening", "the warehouse", "the roof"):
        c.execute(f"ada: zoom heavy reason='{why}'")
        c.execute("round")
        c.execute("countdown")
    assert c.state.innermost.depth == 4
    return c


@pytest.mark.rule("ES-ACT-1", "ES-ACT-2")
def test_each_end_in_a_chain_names_the_level_play_returns_to() -> None:
    c = _four_deep()
    for depth, where in ((3, "the zoomed-in conflict at depth 3"),
                         (2, "the zoomed-in conflict at depth 2"),
                         (1, "the zoomed-in conflict at depth 1"),
                         (0, "the main conflict")):
        c.execute(f"end 'over at {depth}'")
        for viewer in (Viewer.gm(), ALICE):
            said = log_lines(c, viewer)[-1][3]
            assert said == [f"back to {where} (over at {depth})"], (depth, viewer)
        assert c.state.innermost.depth == depth
        if depth:
            c.execute("ada: done")  # her turn at the level she zoomed from goes on


def _zoom_level(c: Conflict, viewer: Viewer) -> dict[str, Any]:
    """The zoomed-in level of ``viewer``'s view (its ruleset part): the one in play."""
    level: dict[str, Any] = view(c, viewer)["zoom"][-1]["ruleset"]
    return level


@pytest.mark.rule("ES-ACT-1", "ES-RNG-1")
def test_a_zooms_opener_and_reason_are_told_as_the_viewer_may_know_them() -> None:
    """The view heads a zoomed-in level with who opened it and why (the page's "Opened by …");
    a reason naming someone hidden from the player is left out (who opened it is told), and a
    zoom opened by someone hidden from them is not told them at all."""
    c = lurking_carl()
    to_countdown(c)
    while c.state.ext.countdown.current.actor != "bruno":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("bruno: zoom carl,ada reason='Bruno and Ada corner Carl in the cellar'", BOB)
    assert _zoom_level(c, Viewer.gm())["zoom"] == {
        "by": "bruno", "reason": "Bruno and Ada corner Carl in the cellar"}
    assert _zoom_level(c, BOB)["zoom"] == _zoom_level(c, Viewer.gm())["zoom"]
    assert _zoom_level(c, ALICE)["zoom"] == {"by": "bruno", "reason": None}  # it names Carl
    c.execute("round")
    c.execute("countdown")
    while c.state.innermost.ext.countdown.current.actor != "carl":
        c.execute(f"{c.state.innermost.ext.countdown.current.actor}: done")
    c.execute("carl: zoom ada reason='Carl drags Ada into the dark'")
    assert _zoom_level(c, Viewer.gm())["zoom"] == {
        "by": "carl", "reason": "Carl drags Ada into the dark"}
    assert _zoom_level(c, ALICE).get("zoom") is None
    assert "dark" not in json.dumps(view(c, ALICE))


@pytest.mark.rule("ES-ACT-1")
def test_an_outcome_given_to_the_end_of_a_zoom_is_refused_not_dropped() -> None:
    """Before: ``end REASON outcome=…`` inside a zoom closed it and dropped the outcome without
    a word (a zoom ends with a reason alone); now it is refused, changing nothing, and the
    GM's offer there takes no outcome."""
    c = _four_deep()
    said = refused(c, "end 'the heavy falls' outcome='Ada wins'", InvalidInput, None)
    assert said == ("a zoomed-in conflict ends with a reason alone (end REASON): an outcome "
                    "is said when the whole conflict ends")
    offer = next(lc for lc in c.legal() if lc.verb == "end")
    assert [p.name for p in offer.params] == ["reason"]
    assert offer.label == "end the zoom-in"
    assert offer.summary == ("end this zoomed-in conflict early, with a reason: play returns "
                             "to t — zoomed in 3 times")
    c.execute("end 'the heavy falls'")
    assert c.state.innermost.depth == 3
