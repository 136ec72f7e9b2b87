"""Secrecy follows derivation in Etherscope (issue 17): a refusal never names a character the
player may not know, a default declaration is as secret as the GM-only condenser it equals,
a GM-only default difficulty reads ``?``; a Push Back at the edge of the bands says so; the
end of a zoom names the conflict play returns to."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError, NotYourTurn

from .helpers import make, moved, pc, started

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")


def _lines(c: Conflict, viewer: Viewer) -> list[str]:
    return [line for _, _, _, ls in log_lines(c, viewer) for line in ls]


def _seen(c: Conflict, viewer: Viewer) -> str:
    return json.dumps(log_view(c, viewer)) + json.dumps(view(c, viewer)) + json.dumps(
        _lines(c, viewer))


def _table(settings: dict[str, Any] | None = None) -> Conflict:
    """Ada (alice), Bruno (bob), Boris (GM-only physical 17, never declares) and Kimberly
    Lurk, hidden from both PCs; awareness rolled, moves done, round 1 declared and counting."""
    boris = {**pc("boris", physical=17), "gm_only": ["physical"]}
    kim = {**pc("kim", physical=10), "name": "Kimberly Lurk"}
    c = make({"time_scale": "tactical", "lurking": {"kim": ["ada", "bruno"]}, **(settings or {})},
             [pc("ada", "alice"), pc("bruno", "bob"), boris, kim],
             ["ada: awareness successes=3", "bruno: awareness successes=2",
              "boris: awareness successes=1", "kim: awareness successes=4", "moves"])
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    for line in ("round", "ada: declare 10", "bruno: declare 5", "kim: declare 10",
                 "countdown"):
        c.execute(line)
    return c


def _refusals(c: Conflict) -> list[str]:
    """What each player is told when they give a command now (refused ones)."""
    out = []
    for viewer, me in ((ALICE, "ada"), (BOB, "bruno")):
        for line in (f"{me}: done", f"{me}: attack boris successes=1", f"{me}: declare 3",
                     f"{me}: step boris toward", f"{me}: hide"):
            try:
                c.execute(line, viewer, time="")
            except FracasError as exc:
                out.append(str(exc))
            else:  # it was their turn: take it back, the GM goes on
                c.execute("undo")
    return out


@pytest.mark.rule("ES-ROUND-4", "ES-RNG-6")
def test_no_refusal_at_any_turn_names_a_character_hidden_from_the_player() -> None:
    c = _table()
    seen_lurker_turn = False
    while c.state.ext.countdown.current is not None:
        who = c.state.ext.countdown.current.actor
        seen_lurker_turn |= who == "kim"
        for msg in _refusals(c):
            assert "Kimberly" not in msg and "kim" not in msg.lower(), msg
        c.execute(f"{who}: done")
    assert seen_lurker_turn


@pytest.mark.rule("ES-ROUND-4")
def test_at_the_lurkers_turn_a_player_hears_only_that_it_is_not_their_turn() -> None:
    c = _table()
    while c.state.ext.countdown.current.actor != "kim":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    with pytest.raises(NotYourTurn) as info:
        c.execute("bruno: done", BOB, time="")
    assert str(info.value) == "Bruno does not act now; it is not Bruno's turn (ES-ROUND-4)"
    with pytest.raises(NotYourTurn) as info:  # the GM hears everything
        c.execute("bruno: done", time="")
    assert "Kimberly Lurk's turn at 10" in str(info.value)


@pytest.mark.rule("ES-ROUND-2", "ES-ROUND-7")
def test_a_default_declaration_of_a_gm_only_condenser_reads_as_a_mask() -> None:
    c = _table()
    lines = _lines(c, BOB)
    assert "Boris acts at ?" in lines
    assert any(line.startswith("countdown: Boris ?, ") for line in lines), lines
    ext = view(c, BOB)["conflict"]["ruleset"]
    assert ext["declared"]["boris"] is None
    assert "17" not in _seen(c, BOB)
    c.execute("boris: done")
    assert "17" not in _seen(c, BOB)
    # the players' own declarations and the GM's view keep every number
    assert view(c, BOB)["conflict"]["ruleset"]["declared"]["bruno"] == [5]
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]
    assert gm["declared"]["boris"] == [17]
    assert "Boris acts at 17 (base 17) (nothing declared: acts once at base)" in _lines(
        c, Viewer.gm())


@pytest.mark.rule("ES-ROUND-4")
def test_the_acting_slot_of_a_secret_default_shows_no_score() -> None:
    c = _table()
    assert c.state.ext.countdown.current.actor == "boris"
    ext = view(c, BOB)["conflict"]["ruleset"]
    assert ext["acting"] == ["boris", None]
    assert "acting now: Boris at ?" in " ".join(ext["lines"])
    turns = [e["data"] for r in log_view(c, BOB) for e in r["events"]
             if e["type"] == "turn_started"]
    assert turns == [{"participant": "boris", "score": None}]


@pytest.mark.rule("ES-ACT-4")
def test_a_gm_only_default_difficulty_reads_as_a_mask() -> None:
    c = _table({"default_difficulty": 2, "gm_only_settings": ["default_difficulty"]})
    while c.state.ext.countdown.current.actor != "ada":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("ada: attack boris successes=3")
    said = [line for line in _lines(c, ALICE) if line.startswith("Ada: attack")]
    assert said and "vs difficulty ?: success, ? extra" in said[0], said
    assert "difficulty 2" not in _seen(c, ALICE)
    event = next(e["data"] for r in log_view(c, ALICE) for e in r["events"]
                 if e["type"] == "action_resolved")
    assert event["difficulty"] is None and event["extra"] is None
    assert any("vs difficulty 2: success, 1 extra" in line for line in _lines(c, Viewer.gm()))


@pytest.mark.rule("ES-ACT-5")
def test_a_push_back_that_cannot_push_further_says_so() -> None:
    c = started({"ranges": {"default": "distant"}})
    c.execute("countdown")
    c.execute("ada: push bruno successes=2")
    text = " ".join(_lines(c, Viewer.gm()))
    assert "Bruno cannot be pushed any further relative to Ada: already at the last band" \
        in text
    event = next(e for e in c.records[-1].events if e.type == "action_resolved")
    assert event.data["unmoved"] == ["ada"]


@pytest.mark.rule("ES-ACT-1")
def test_the_end_of_an_inner_zoom_names_the_zoom_play_returns_to() -> None:
    c = started({"time_scale": "tactical"})
    c.execute("countdown")
    c.execute("ada: zoom bruno reason=duel")
    c.execute("round")
    c.execute("countdown")
    first = c.state.innermost.ext.countdown.current.actor
    c.execute(f"{first}: zoom {'bruno' if first == 'ada' else 'ada'} reason=feint")
    assert c.state.innermost.depth == 2
    while c.state.innermost.depth == 2:
        inner = c.state.innermost
        if inner.ext.phase == "ready":
            c.execute("round")
        elif inner.ext.phase == "declare":
            c.execute("countdown")
        else:
            c.execute(f"{inner.ext.countdown.current.actor}: done")
    assert "back to the zoomed-in conflict at depth 1 (5 rounds played)" in _last(c)
    while c.state.zoom is not None:
        inner = c.state.innermost
        if inner.ext.phase == "ready":
            c.execute("round")
        elif inner.ext.phase == "declare":
            c.execute("countdown")
        else:
            c.execute(f"{inner.ext.countdown.current.actor}: done")
    assert "back to the main conflict (5 rounds played)" in _last(c)


def _last(c: Conflict) -> list[str]:
    """The sentences of the log's last entry, as the GM reads them."""
    return log_lines(c, Viewer.gm())[-1][3]


def _tied(boris_declares: str | None = None, ada_aware: int = 3) -> Conflict:
    """Boris and Carl, both GM-only physical 17, tie at their default of 17 (awareness 1
    each, so a roll-off); Ada (alice, 10, awareness ``ada_aware``) declares 10."""
    boris = {**pc("boris", physical=17), "gm_only": ["physical"]}
    carl = {**pc("carl", physical=17), "gm_only": ["physical"]}
    c = make({}, [pc("ada", "alice"), pc("bruno", "bob"), boris, carl],
             [f"ada: awareness successes={ada_aware}", "bruno: awareness successes=2",
              "boris: awareness successes=1", "carl: awareness successes=1", "moves"])
    return moved(c, "round", "ada: declare 10",
                 *([boris_declares] if boris_declares else []), "countdown")


@pytest.mark.rule("ES-ROUND-5", "ES-ROUND-2")
def test_a_tie_between_secret_default_declarations_is_not_shown_with_their_base() -> None:
    c = _tied()
    gm = _lines(c, Viewer.gm())
    assert any(line.startswith("tie at initiative 17 (awareness 1): roll-off Boris")
               for line in gm), gm
    lines = _lines(c, ALICE)
    # before: "tie at initiative 17 (awareness 1): roll-off Boris 1, Carl 0" beside
    # "Boris acts at ?" — the tie told the GM-only base the other lines mask
    assert not any(line.startswith("tie at initiative") for line in lines), lines
    assert any(line.startswith("countdown: Boris ?, Carl ?, Ada 10") or
               line.startswith("countdown: Carl ?, Boris ?, Ada 10") for line in lines), lines
    assert "17" not in _seen(c, ALICE)


@pytest.mark.rule("ES-ROUND-5")
def test_a_tie_at_a_score_the_player_knows_is_still_shown_to_them() -> None:
    # Boris declares 10 himself: his score is no default, so the tie with Ada is the table's
    c = _tied("boris: declare 10", ada_aware=1)
    lines = _lines(c, ALICE)
    assert any(line.startswith("tie at initiative 10 (awareness ") and "Ada" in line
               for line in lines), lines


@pytest.mark.rule("ES-ROUND-5", "ES-RNG-6")
def test_the_lane_is_the_countdowns_order_as_each_may_know_it() -> None:
    """The view's lane (the browser's Countdown panel) is the order the countdown acts in:
    Kimberly before Ada at 10 (her better awareness), each slot done, now or to come; a player
    reads no lurker in it, and Boris's default score as None."""
    c = _table()
    c.execute("boris: done")
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]["lane"]
    assert gm == [["boris", 17, "done"], ["kim", 10, "now"], ["ada", 10, "to come"],
                  ["bruno", 5, "to come"]]
    bob = view(c, BOB)["conflict"]["ruleset"]["lane"]
    assert bob == [["boris", None, "done"], ["ada", 10, "to come"], ["bruno", 5, "to come"]]
