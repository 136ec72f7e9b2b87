"""``fracas play`` driven through a pseudo-terminal (pexpect): panel, completion, undo key,
every command stored as it is made."""

from __future__ import annotations

import pexpect
import pytest

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO, spawn_fracas


@pytest.mark.timeout(90)
def test_play_through_a_terminal(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("play", cid, "--db", sqlite_url)
    try:
        child.expect("HP 30/30")  # the state panel
        child.expect("v2>")
        child.send("ada: h\t")  # completes to the only legal hit
        child.expect("it bruno")  # the completed rest (the terminal may redraw "h" apart)
        child.send(" dice=4\r")
        child.expect("damage")
        child.expect("HP 26/30")
        child.expect("v3>")
        assert store.info(cid).version == 3  # stored as it was made
        child.send("\x1a")  # Ctrl-Z: undo
        child.expect("undo")
        child.expect("HP 30/30")
        child.expect("v4>")
        child.send("\x19")  # Ctrl-Y: redo
        child.expect("HP 26/30")
        child.expect("v5>")
        child.send("bruno: hit ada\r")
        child.expect("refused")
        child.expect("v5>")
        child.send("ada: no")  # half typed when someone else stores a command
        child.expect("ada: no")  # echoed: the prompt holds it
        other = ConflictService(SqlEventStore(sqlite_url))
        other.execute(cid, "note 'the landlord shouts from the cellar'")
        child.expect("stored elsewhere meanwhile")
        child.expect("landlord shouts")
        child.expect("v6> ada: no")  # the panel is fresh and the typing kept
        child.send("te 'I duck'\r")
        child.expect("I duck")
        child.expect("v7>")
        child.send(":quit\r")
        child.expect("stored at version 7")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    loaded = service.load(cid)
    assert [r.command for r in loaded.records[2:]] == [
        "ada: hit bruno dice=4", "undo", "redo", "note 'the landlord shouts from the cellar'",
        "ada: note 'I duck'"]
    store.close()


def test_completion_stops_at_the_first_placeholder() -> None:
    from fracas.cli.play import up_to_placeholder

    assert up_to_placeholder("note TEXT") == "note "
    assert up_to_placeholder("ada: handoff bruno say=TEXT") == "ada: handoff bruno say="
    assert up_to_placeholder("set-range A B BAND") == "set-range "
    assert up_to_placeholder("ada: declare 10") == "ada: declare 10"


def test_a_player_is_offered_only_what_they_may_do(sqlite_url: str) -> None:
    from fracas.cli.play import suggestions
    from fracas.engine.model import Viewer

    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    _, conflict = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    mine = suggestions(conflict, Viewer.of_player("alice"))
    assert ":undo" not in mine and ":quit" in mine
    assert all(s.startswith(("ada:", ":")) for s in mine), mine
    assert ":undo" in suggestions(conflict, Viewer.gm())
    store.close()
