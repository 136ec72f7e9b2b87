"""``fracas watch``: a player follows a conflict played elsewhere and sees each new command as
their characters may see it — on SQLite (polled) and PostgreSQL (told of every append)."""

from __future__ import annotations

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.engine.model import Viewer
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO, spawn_fracas


@pytest.mark.timeout(90)
def test_a_player_follows_a_conflict_played_elsewhere(db_url: str) -> None:
    store = SqlEventStore(db_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("watch", cid, "--as", "alice", "--timeout", "30", "--db", db_url,
                         width=120)
    try:
        child.expect("following .* as alice")
        assert " at v" not in child.after  # a player is told no version
        service.execute(cid, "ada: hit bruno dice=3", Viewer.of_player("alice"))
        child.expect("#3")  # a player's log is numbered, not versioned
        child.expect("ada: hit bruno dice=3")
        child.expect("target=bruno")
        service.execute(cid, "note 'the innkeeper is a spy' visibility=gm")
        service.execute(cid, "note 'the fire crackles'")
        child.expect("#4")  # the secret note makes no line at all, nor a gap in the count
        child.expect("the fire crackles")
        assert "spy" not in child.before and "GM acts" not in child.before
    finally:
        child.close(force=True)
    store.close()


@pytest.mark.timeout(90)
def test_a_record_hidden_from_the_player_redraws_nothing(sqlite_url: str) -> None:
    """A GM-only note changes nothing on Alice's terminal: no line and no fresh panel, whose
    timing would tell her that something hidden just happened."""
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("watch", cid, "--as", "alice", "--timeout", "8", "--db", sqlite_url,
                         width=120)
    try:
        child.expect("following .* as alice")
        service.execute(cid, "note 'the innkeeper is a spy' visibility=gm")
        child.expect("stopped", timeout=60)  # idle for 8 seconds after the note
        assert "╭" not in child.before  # the panel was drawn once, before "following"
        assert "spy" not in child.before
    finally:
        child.close(force=True)
    store.close()
