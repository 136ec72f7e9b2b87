"""What the log tells of a search, and to whom (ES-RNG-3, ES-RNG-6, ES-RNG-1): the searcher's
player reads whom it found and at which band; a player from whose characters the one found
is still hidden reads the search as one that found no one."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view

from .helpers import make, pc

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")


def lurking(hidden: dict[str, list[str]], ranges: str = "distant") -> Conflict:
    """Ada (alice) and Bruno (bob), with Carl and Dan (the GM's) hidden as ``hidden`` says;
    the countdown begun, Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
    c = make({"ranges": {"default": ranges}, "lurking": hidden}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dan: awareness successes=0", "moves"])
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done", time="")
    c.execute("round", time="")
    c.execute("countdown", time="")
    assert c.state.ext.countdown.current.actor == "ada"
    return c


def last_entry(c: Conflict, viewer: Viewer) -> dict[str, Any]:
    """The viewer's newest log entry, without its number."""
    entry = dict(log_view(c, viewer)[-1])
    entry.pop("entry", None)
    entry.pop("version", None)
    return entry


@pytest.mark.rule("ES-RNG-3", "ES-RNG-6")
def test_the_searchers_player_reads_whom_the_search_found_and_at_which_band() -> None:
    c = lurking({"carl": ["ada", "bruno"]})
    c.execute("ada: search successes=1 band=near", time="")
    assert "Ada finds Carl (Near)" in last_entry(c, ALICE)["lines"]
    assert "Ada finds Carl (Near)" in last_entry(c, Viewer.gm())["lines"]
    # Ada sees Carl now, at the band the log said
    assert ["ada", "carl", "near"] in view(c, ALICE)["conflict"]["ruleset"]["ranges"]


@pytest.mark.rule("ES-RNG-3")
def test_a_search_that_keeps_the_band_says_the_band_it_found_them_at() -> None:
    c = lurking({"carl": ["ada"], "dan": ["ada"]})
    c.execute("ada: search successes=2", time="")
    lines = last_entry(c, ALICE)["lines"]
    assert lines[1:3] == ["Ada finds Carl (Distant)", "Ada finds Dan (Distant)"]
    # what the extra bought, in words (it read "spent: more 1")
    assert lines[0].endswith("success, 1 extra (spent: finding more 1)")
    assert last_entry(c, Viewer.gm())["lines"][0] == lines[0]
    # hidden from Ada alone, they are now hidden from no one: every viewer reads of them
    assert "Ada finds Carl (Distant)" in last_entry(c, BOB)["lines"]
    assert "Ada finds Dan (Distant)" in last_entry(c, Viewer.public())["lines"]


@pytest.mark.rule("ES-RNG-6", "ES-RNG-3")
def test_a_search_finding_only_those_hidden_from_a_player_reads_as_finding_no_one() -> None:
    """The same search, once finding Carl and Dan (still hidden from Bruno) and once finding
    no one (hidden from Bruno only): Bob and the public read the very same entry, and see
    the same view — no name, no count of finds, no extra success spent on them."""
    found = lurking({"carl": ["ada", "bruno"], "dan": ["ada", "bruno"]})
    nobody = lurking({"carl": ["bruno"], "dan": ["bruno"]})
    for c in (found, nobody):
        c.execute("ada: search successes=2", time="")
    assert "Ada finds Dan (Distant)" in last_entry(found, ALICE)["lines"]
    for viewer in (BOB, Viewer.public()):
        seen = last_entry(found, viewer)
        assert seen == last_entry(nobody, viewer)
        assert seen["command"] == "ada: search successes=2"
        assert seen["lines"][0] == ("Ada: search; 2 successes (table) vs difficulty 1: "
                                    "success, 1 extra (1 unspent: no one more to find)")
        assert {k: v for k, v in view(found, viewer).items() if k != "cursor"} == \
            {k: v for k, v in view(nobody, viewer).items() if k != "cursor"}


@pytest.mark.rule("ES-RNG-6", "ES-RNG-3")
def test_a_player_who_sees_one_of_two_finds_reads_of_that_one_alone() -> None:
    """Dan stays hidden from Bruno, Carl never was: Bob reads Ada found Carl, and nothing
    spent on a second find."""
    c = lurking({"carl": ["ada"], "dan": ["ada", "bruno"]})
    c.execute("ada: search successes=2", time="")
    lines = last_entry(c, BOB)["lines"]
    assert lines[:2] == ["Ada: search; 2 successes (table) vs difficulty 1: success, 1 extra "
                         "(1 unspent: no one more to find)", "Ada finds Carl (Distant)"]
    assert not any("Dan" in line for line in lines)
    assert "Ada finds Dan (Distant)" in last_entry(c, ALICE)["lines"]


@pytest.mark.rule("ES-RNG-1", "ES-RNG-3")
def test_a_find_still_hiding_the_searcher_from_it_keeps_their_band_the_gms() -> None:
    """Carl and Ada hide from each other: Ada finds Carl, who still does not see her, so the
    band between them is the GM's (ES-RNG-1) — the log names Carl without it."""
    c = lurking({"carl": ["ada"], "ada": ["carl"]})
    c.execute("ada: search successes=1", time="")
    assert "Ada finds Carl" in last_entry(c, ALICE)["lines"]
    assert "Ada finds Carl (Distant)" in last_entry(c, Viewer.gm())["lines"]


@pytest.mark.rule("ES-RNG-3", "ES-RNG-6")
def test_the_gms_reveal_is_read_by_the_player_it_reveals_to() -> None:
    c = lurking({"carl": ["ada", "bruno"]})
    c.execute("reveal carl from=ada band=close", time="")
    assert last_entry(c, ALICE)["lines"] == ["Carl is revealed to Ada at Close"]
    assert all("Carl" not in line for e in log_view(c, BOB) for line in e["lines"])


@pytest.mark.rule("ES-RNG-3", "ES-RNG-6")
def test_a_search_that_finds_the_one_whose_slot_comes_next_tells_the_finder_its_turn() -> None:
    """Bruno finds Carl, whose slot comes next: Bob reads "Carl's turn" in the same entry,
    as the GM does (it was left out, judged as if Carl were still hidden from him); Alice,
    from whose Ada Carl is still hidden, reads the search as one that found no one, and of
    no one's turn."""
    c = lurking({"carl": ["ada", "bruno"]})
    c.execute("ada: done", time="")
    c.execute("bruno: search successes=1 band=near", time="")
    assert last_entry(c, Viewer.gm())["lines"][1:] == [
        "Bruno finds Carl (Near)", "Bruno is done", "Carl's turn"]
    assert last_entry(c, BOB)["lines"][1:] == [
        "Bruno finds Carl (Near)", "Bruno is done", "Carl's turn"]
    assert last_entry(c, ALICE)["lines"][1:] == ["Bruno is done"]
