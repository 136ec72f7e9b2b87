"""Loading from a snapshot reads only the records after it (SQLite and PostgreSQL): the
older ones stay in the store until undo past the snapshot, a projector or an export needs
them, and the loaded conflict plays on exactly as the one that stayed in memory."""

from __future__ import annotations

from sqlalchemy import text

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.engine import Viewer
from fracas.engine.serialize import state_to_data
from fracas.engine.views import log_view
from tests.store.conftest import TOY_SCENARIO


def _played(service: ConflictService) -> str:
    """A conflict at version 8 (snapshots every 5 versions: the newest at 5), with an undo
    and a redo before the snapshot and an idempotency key on version 3."""
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    service.execute(cid, "ada: hit bruno dice=6", key="first-hit")  # v3
    service.undo(cid)  # v4
    service.redo(cid)  # v5: snapshot
    service.execute(cid, "ada: hit bruno dice=2")  # v6
    service.execute(cid, 'note "seven"')  # v7
    service.execute(cid, 'note "eight"')  # v8
    return cid


def _take_out_rows_up_to(service: ConflictService, cid: str, version: int) -> None:
    with service.store.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(text("DELETE FROM records WHERE conflict_id = :c AND version <= :v"),
                     {"c": cid, "v": version})


def test_a_load_reads_no_record_before_the_snapshot(service: ConflictService) -> None:
    cid = _played(service)
    whole = service.store.load(cid)  # (the default: every record)
    assert [r.version for r in whole.records] == list(range(1, 9))
    stored = service.store.load(cid, after_snapshot=True)
    assert [r.version for r in stored.records] == [6, 7, 8]
    assert stored.earlier is not None and [r.version for r in stored.earlier()] == [1, 2, 3,
                                                                                     4, 5]
    _take_out_rows_up_to(service, cid, 5)  # had the load read them, it could not now
    loaded = service.load(cid)
    assert loaded.version == 8
    assert loaded.state.innermost.ext.hp["bruno"].current == 30 - 6 - 2
    assert loaded.undoable(3) == [8, 7, 6] and loaded.redoable() == []
    assert "undo" in loaded.legal_commands(None)


def test_a_loaded_conflict_plays_on_like_the_live_one(service: ConflictService) -> None:
    cid = _played(service)
    live = service.load(cid)
    live.records  # noqa: B018  (read the whole log: the conflict a full load gives)
    loaded = service.load(cid)
    for command in ["ada: done bruno", "bruno: hit ada dice=3", "undo 4", "redo 1"]:
        for conflict in (live, loaded):
            conflict.execute(command, time="t")
    assert state_to_data(loaded.state) == state_to_data(live.state)
    assert [r.payload() for r in loaded.records] == [r.payload() for r in live.records]
    assert loaded.redoable() == live.redoable() and loaded.undoable() == live.undoable()
    player = Viewer.of_player("alice")
    assert log_view(loaded, player) == log_view(live, player)


def test_a_key_from_before_the_snapshot_still_applies_once(service: ConflictService) -> None:
    cid = _played(service)
    done = service.execute(cid, "ada: hit bruno dice=6", key="first-hit")
    assert done.duplicate and done.record.version == 3
    assert service.store.info(cid).version == 8  # nothing appended
    assert service.load(cid).execute("ada: hit bruno dice=6", key="first-hit").version == 3
