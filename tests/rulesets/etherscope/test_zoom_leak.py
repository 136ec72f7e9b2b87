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
