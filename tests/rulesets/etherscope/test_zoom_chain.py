"""A long chain of zoom-ins, as an evening plays it (ES-ACT-1, ES-ACT-2): four levels deep from
a Logistic conflict, each closed in turn, the log naming the level play returns to (it once
said "back to the main conflict" on leaving a zoom inside a zoom, and one level too far out
deeper down)."""

from __future__ import annotations

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer

from .helpers import make, moved, pc

ALICE = Viewer.of_player("alice")


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
