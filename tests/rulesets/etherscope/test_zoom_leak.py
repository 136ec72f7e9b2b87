"""Issue 11: a zoom-in by an ally against a character hidden from the viewer shows nothing of
it — not its participants, round lines, damage, nor its entry in the set-up record."""

from __future__ import annotations

import contextlib
import json

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from tests.rulesets.etherscope.helpers import make, pc
from tests.rulesets.etherscope.test_audit import lurking_carl, to_countdown

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")


def alice_sees(c: object) -> str:
    return json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE)) + json.dumps(  # type: ignore[arg-type]
        log_lines(c, ALICE)) + json.dumps(log_lines(c, ALICE, raw=True))  # type: ignore[arg-type]


@pytest.mark.rule("ES-RNG-6", "ES-ACT-1")
def test_an_allys_zoom_against_a_character_hidden_from_the_viewer_shows_none_of_it() -> None:
    c = lurking_carl()
    to_countdown(c)
    assert "carl" not in alice_sees(c).lower()
    while c.state.ext.countdown.current.actor != "bruno":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("bruno: zoom carl reason='Bruno corners the shape'", BOB)
    assert c.state.innermost.depth == 1
    for line in ["round", "countdown", "bruno: attack carl successes=3",
                 "carl: attack bruno successes=2"]:
        with contextlib.suppress(FracasError):
            c.execute(line)
    seen = alice_sees(c)
    assert "carl" not in seen.lower()
    # she sees her ally zoom in, alone: the zoom holds no one else she may know
    assert [p["id"] for p in view(c, ALICE)["zoom"][0]["participants"]] == ["bruno"]
    # Bob, whose Bruno sees Carl, sees the zoom and its rounds
    assert "Carl" in json.dumps(log_view(c, BOB))
    c.execute("end 'the shape escapes'")
    assert "carl" not in alice_sees(c).lower()


def _refusal(c: object, command: str, viewer: Viewer) -> str:
    with pytest.raises(FracasError) as info:
        c.execute(command, viewer)  # type: ignore[attr-defined]
    return f"{info.value.code}: {info.value}"


@pytest.mark.rule("ES-ACT-1", "ES-RNG-6")
def test_a_player_acting_for_a_character_outside_the_zoom_is_told_why_and_no_more() -> None:
    """A player's command for their own character waiting outside the zoom was refused as
    "alice does not play 'ada'": where she sees the zoom she is told Ada is not in it; where
    the zoom is among characters she may not know, she reads what she would read with no zoom
    at all while a character hidden from her acts — "not Ada's turn" — and nothing of it."""
    c = lurking_carl()
    to_countdown(c)
    c.execute("conceal dora from=ada")
    while c.state.ext.countdown.current.actor != "bruno":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("bruno: zoom carl reason='Bruno corners the shape'", BOB)
    assert _refusal(c, "ada: attack bruno", ALICE) == (
        "illegal_command: Ada is not in this zoomed-in conflict: play returns to t when it ends")
    c.execute("end 'the shape escapes'")
    c.execute("bruno: done")
    assert c.state.ext.countdown.current.actor == "carl"
    twin = _refusal(c, "ada: attack bruno", ALICE)  # Carl, hidden from her, acts: no zoom
    c.execute("carl: zoom dora reason='a word in private'")
    assert _refusal(c, "ada: attack bruno", ALICE) == twin
    assert twin == "not_your_turn: Ada does not act now; it is not Ada's turn (ES-ROUND-4)"


def _to_brunos_turn() -> Conflict:
    """Carl (GM) hidden from Ada (alice), seen by Bruno (bob), in round 1's countdown at
    Bruno's turn."""
    c = lurking_carl()
    to_countdown(c)
    while c.state.ext.countdown.current.actor != "bruno":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    return c


@pytest.mark.rule("ES-ACT-1", "ES-RNG-6")
def test_an_allys_zoom_is_seen_opening_when_its_reason_names_one_hidden_from_the_viewer(
) -> None:
    """Before: Bob's reason named Carl, hidden from Alice, and her log had no entry for the
    zoom at all (her screen went zoomed in, out of nowhere); a player's own words are read
    as written (docs/server.md), here as when they name nobody."""
    c = _to_brunos_turn()
    c.execute("bruno: zoom carl,dora reason='Bruno corners Carl in the cellar'", BOB)
    assert log_lines(c, ALICE)[-1][2:] == (
        "bruno: zoom dora reason='Bruno corners Carl in the cellar'",
        ["zoom in (quick, battlefield scale, 5 rounds) with Bruno, Dora: Bruno corners Carl "
         "in the cellar"])
    assert [p["id"] for p in view(c, ALICE)["zoom"][0]["participants"]] == ["bruno", "dora"]


@pytest.mark.rule("ES-RNG-6", "ES-DMG-2")
def test_a_players_words_naming_a_hidden_name_stay_in_their_own_log() -> None:
    """Before: Alice's attack said "…while Carl watches" and her log left out that line: her
    own words gone told her Carl is the name of someone hidden from her."""
    c = lurking_carl()
    to_countdown(c)
    c.execute("ada: attack dora successes=2 say='Ada hits Dora while Carl watches'", ALICE)
    assert log_lines(c, ALICE)[-1][3][0] == (
        "Ada: attack Dora — “Ada hits Dora while Carl watches”; 2 successes (table) vs "
        "difficulty 1: success, 1 extra (spent: damage 1)")


CORA = Viewer.of_player("cora")


def _vane_house(reason: str = "into the cellar", *, begun: bool = True) -> Conflict:
    """Mrs Vane (GM) hidden from Cyril (cora) only; Ada (alice) has zoomed in with Bruno (bob)
    and Mrs Vane for ``reason``, Cyril waiting outside, and (``begun``) the zoom's countdown
    is at Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("cyril", "cora"), pc("vane")]
    people[3]["name"] = "Mrs Vane"
    c = make({"lurking": {"vane": ["cyril"]}, "time_scale": "tactical"}, people, [
        "ada: awareness successes=4", "bruno: awareness successes=3",
        "vane: awareness successes=2", "cyril: awareness successes=1"])
    to_countdown(c)
    _at_turn_of(c, "ada")
    c.execute(f"ada: zoom bruno,vane reason='{reason}'", ALICE)
    if begun:
        c.execute("round")
        c.execute("countdown")
    return c


def _at_turn_of(c: Conflict, actor: str) -> None:
    while c.state.innermost.ext.countdown.current.actor != actor:
        c.execute(f"{c.state.innermost.ext.countdown.current.actor}: done")


def _sees(c: Conflict, viewer: Viewer) -> str:
    return json.dumps(view(c, viewer)) + json.dumps(log_view(c, viewer)) + json.dumps(
        log_lines(c, viewer))


@pytest.mark.rule("ES-ACT-2", "ES-RNG-6")
def test_a_zoom_deeper_with_one_hidden_from_a_player_outside_tells_them_nothing_of_it(
) -> None:
    """Before: Ada zoomed in a second level deep with Mrs Vane, and the log of Cora (whose
    Cyril waits two levels out, Mrs Vane hidden from him) held the zoom's bands as
    ``{"ada|vane": 1}``: the hidden one's id, and her band to Ada."""
    c = _vane_house()
    _at_turn_of(c, "ada")
    c.execute("ada: zoom vane reason='into the study'", ALICE)
    assert c.state.innermost.depth == 2
    for viewer in (CORA, Viewer.public()):
        assert "vane" not in _sees(c, viewer).lower()
        assert log_lines(c, viewer)[-1][2:] == (  # (its command names one they may not know)
            "» Ada: zoom", ["zoom in (fast, battlefield scale, 5 rounds) with Ada: into the study"])


@pytest.mark.rule("ES-ACT-2", "ES-RNG-6")
def test_a_zoom_deeper_opened_by_one_hidden_from_a_player_outside_is_seen_opening(
) -> None:
    """Before: Mrs Vane (hidden from Cyril) zoomed in a second level deep with Ada, and
    Cora's screen and the public screen went "zoomed in twice" with Ada in it out of nowhere:
    no entry of their logs said so. They read the zoom, not who opened it nor why."""
    c = _vane_house()
    _at_turn_of(c, "vane")
    c.execute("vane: zoom ada reason='Mrs Vane drags Ada into the study'")
    for viewer in (CORA, Viewer.public()):
        assert [p["id"] for p in view(c, viewer)["zoom"][1]["participants"]] == ["ada"]
        assert log_lines(c, viewer)[-1][2:] == (
            "» the GM acts", ["zoom in (fast, battlefield scale, 5 rounds) with Ada"])
        assert "vane" not in _sees(c, viewer).lower()
        assert "study" not in _sees(c, viewer)
    # Alice, whose Ada sees Mrs Vane, reads who opened it and why
    assert log_lines(c, ALICE)[-1][3] == [
        "zoom in (fast, battlefield scale, 5 rounds) with Mrs Vane, Ada: Mrs Vane drags Ada "
        "into the study"]


@pytest.mark.rule("ES-ACT-1", "ES-RNG-6")
def test_a_zoom_whose_reason_names_one_hidden_from_a_player_outside_reads_whole_without_it(
) -> None:
    """Before: Alice's reason "Ada and Bruno corner Mrs Vane, quietly" (Mrs Vane hidden from
    Cyril) read on Cora's view line "zoomed in (depth 1) by Ada: Ada and Bruno corner quietly,
    …" (the net took "Mrs Vane, " for an item of a list of names), and her page lost its
    "Opened by Ada" altogether: the view leaves the reason out, and says who opened it."""
    c = _vane_house("Ada and Bruno corner Mrs Vane, quietly", begun=False)
    for viewer in (CORA, Viewer.public()):
        level = view(c, viewer)["zoom"][0]["ruleset"]
        assert "zoomed in (depth 1) by Ada, 5 rounds at most" in level["lines"]
        assert level["zoom"] == {"by": "ada", "reason": None}
    for viewer in (ALICE, BOB):  # who see her read it as typed
        level = view(c, viewer)["zoom"][0]["ruleset"]
        assert "zoomed in (depth 1) by Ada: Ada and Bruno corner Mrs Vane, quietly, 5 rounds at " \
               "most" in level["lines"]
    # two levels out, a zoom opened by Mrs Vane still says it is one, with no opener
    c.execute("round")
    c.execute("countdown")
    _at_turn_of(c, "vane")
    c.execute("vane: zoom ada reason='Mrs Vane drags Ada into the study'")
    assert "zoomed in (depth 2), 5 rounds at most" in view(c, CORA)["zoom"][1]["ruleset"]["lines"]
    assert view(c, CORA)["zoom"][1]["ruleset"]["zoom"] is None
