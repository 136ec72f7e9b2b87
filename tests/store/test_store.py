"""The event store and the service, on SQLite and PostgreSQL: append, versions, keys,
undo/redo as events, snapshots as a cache, schema checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text, update

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.engine.conflict import fold
from fracas.engine.serialize import state_to_data
from fracas.errors import InvalidInput, NotFound, StaleVersion
from fracas.store import SchemaMismatch, SqlEventStore
from fracas.store.schema import snapshots
from tests.store.conftest import TOY_SCENARIO


def _new(service: ConflictService, campaign: str = "default") -> str:
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO), campaign=campaign)
    return cid


def test_create_load_list(service: ConflictService) -> None:
    cid = _new(service, "autumn")
    other = _new(service, "winter")
    conflict = service.load(cid)
    assert conflict.version == 2 and conflict.records[1].command == "start ada"
    assert conflict.seed != "store-tests" and len(conflict.seed) == 64  # fresh, secret
    assert {i.id for i in service.store.list()} == {cid, other}
    assert [i.id for i in service.store.list("autumn")] == [cid]
    info = service.store.info(cid)
    assert (info.campaign, info.ruleset, info.title, info.version) == \
        ("autumn", "toy", "Tavern brawl", 2)
    with pytest.raises(NotFound):
        service.load("nope")


def test_stale_append_refused_whole(service: ConflictService) -> None:
    cid = _new(service)
    a = service.load(cid)
    b = service.load(cid)
    service.execute(cid, "ada: hit bruno dice=3", conflict=a, expected_version=2)
    with pytest.raises(StaleVersion):
        service.execute(cid, "ada: hit bruno dice=6", conflict=b, expected_version=2)
    record = b.prepare("ada: hit bruno dice=6")
    with pytest.raises(StaleVersion):
        service.store.append(cid, record, 2)
    loaded = service.load(cid)
    assert loaded.version == 3 and loaded.records[-1].command == "ada: hit bruno dice=3"
    assert service.store.info(cid).version == 3


def test_refused_command_writes_nothing(service: ConflictService) -> None:
    cid = _new(service)
    with pytest.raises(Exception, match="not acting now"):
        service.execute(cid, "bruno: hit ada")
    assert service.load(cid).version == 2


def test_idempotency_key_applies_once(service: ConflictService) -> None:
    cid = _new(service)
    first = service.execute(cid, "ada: hit bruno", key="k-1")
    again = service.execute(cid, "ada: hit bruno", key="k-1")
    assert again.duplicate and again.record == first.record
    assert service.load(cid).version == 3
    with pytest.raises(InvalidInput, match="already used"):
        service.execute(cid, "ada: done", key="k-1")
    # a retry decided on an old version still finds the key instead of being stale
    old = service.load(cid)
    service.execute(cid, 'note "x"')
    retry = service.execute(cid, "ada: hit bruno", key="k-1", conflict=old)
    assert retry.duplicate and retry.record.version == 3


def test_undo_redo_are_events(service: ConflictService) -> None:
    cid = _new(service)
    service.execute(cid, "ada: hit bruno dice=4")
    before = state_to_data(service.load(cid).state)
    service.execute(cid, "ada: hit bruno dice=2")
    undo = service.undo(cid)
    assert undo.record.version == 5 and undo.record.is_meta
    redo = service.redo(cid)
    assert redo.record.version == 6
    service.undo(cid)
    loaded = service.load(cid)
    assert [r.version for r in loaded.records] == list(range(1, 8))
    assert state_to_data(loaded.state) == before


def test_snapshots_are_a_cache(service: ConflictService, store: SqlEventStore) -> None:
    cid = _new(service)
    for i in range(12):
        service.execute(cid, f'note "n{i}"')
    with store.engine.connect() as conn:
        versions = sorted(conn.execute(text(
            "SELECT version FROM snapshots WHERE conflict_id = :c"), {"c": cid}).scalars())
    assert versions == [5, 10]
    loaded = service.load(cid)
    assert state_to_data(loaded.state) == state_to_data(fold(loaded.ruleset, loaded.records))
    # a damaged or foreign snapshot is ignored
    with store.engine.begin() as conn:
        conn.execute(update(snapshots).values(state='{"participants": 5}'))
    assert state_to_data(service.load(cid).state) == state_to_data(loaded.state)
    with store.engine.begin() as conn:
        conn.execute(update(snapshots).values(state="{not json", format="other"))
    assert state_to_data(service.load(cid).state) == state_to_data(loaded.state)
    assert service.rebuild_snapshot(cid) == loaded.version
    assert state_to_data(service.load(cid).state) == state_to_data(loaded.state)


def test_snapshot_before_undo_is_not_used(service: ConflictService) -> None:
    cid = _new(service)
    service.execute(cid, "ada: hit bruno dice=6")
    service.execute(cid, "ada: hit bruno dice=6")  # v4
    service.execute(cid, 'note "five"')  # v5: snapshot
    service.undo(cid, 2)
    loaded = service.load(cid)
    assert loaded.state.innermost.ext.hp["bruno"].current == 24
    assert state_to_data(loaded.state) == state_to_data(fold(loaded.ruleset, loaded.records))


def test_undo_past_a_snapshot_after_loading_from_it(service: ConflictService) -> None:
    cid = _new(service)
    service.execute(cid, "ada: hit bruno dice=6")  # v3
    service.execute(cid, "ada: hit bruno dice=5")  # v4
    service.execute(cid, 'note "five"')  # v5: snapshot
    before_hits = service.load(cid).replay(2)
    loaded = service.load(cid)  # from the snapshot: the older records are read only if needed
    assert loaded.state.innermost.ext.hp["bruno"].current == 30 - 11
    service.execute(cid, "undo 3", conflict=loaded)
    again = service.load(cid)
    assert state_to_data(again.state) == state_to_data(before_hits)
    assert [r.command for r in again.records][-1] == "undo 3"


def test_newer_schema_refused_nothing_written(db_url: str) -> None:
    store = SqlEventStore(db_url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    store.close()
    with pytest.raises(SchemaMismatch, match="newer fracas"):
        SqlEventStore(db_url)
    probe = SqlEventStore(db_url, migrate=False)
    with pytest.raises(SchemaMismatch, match="newer fracas"):
        probe.upgrade()
    assert probe.schema_revision() == "9999_future"
    assert probe.list() == []
    probe.close()


def test_fresh_database_is_migrated(db_url: str) -> None:
    store = SqlEventStore(db_url)
    assert store.schema_state() == "current" and store.schema_revision() == "0005"
    assert store.upgrade() == "0005"  # idempotent
    store.close()


def test_a_store_of_schema_0003_keeps_its_keys_and_makes_them_each_authors_own(
        db_url: str) -> None:
    from alembic import command as alembic_command

    from fracas.engine.model import Viewer
    from fracas.store.sql import alembic_config

    store = SqlEventStore(db_url, migrate=False)
    cfg = alembic_config()
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        alembic_command.upgrade(cfg, "0003")
    assert store.schema_revision() == "0003"
    store.upgrade()  # no conflicts yet made with 0003's index: the upgrade itself is tested
    service = ConflictService(store)
    cid = _new(service)
    first = service.execute(cid, "ada: hit bruno", Viewer.of_player("alice"), key="k")
    assert store.schema_revision() == "0005"
    assert service.execute(cid, "note gm", key="k").record.version == first.record.version + 1
    assert store.find_key(cid, "alice", "k") == first.record
    store.close()


def test_sqlite_pragmas(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    store.close()


def test_sqlite_commits_without_a_disk_wait_only_when_asked(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url, synchronous="NORMAL")  # fracas serve --sync normal
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    store.close()
    with pytest.raises(InvalidInput, match="synchronous is one of FULL, NORMAL"):
        SqlEventStore(sqlite_url, synchronous="OFF")


def test_each_authors_keys_are_their_own_so_a_key_tells_nothing_of_another(
        service: ConflictService) -> None:
    from fracas.engine.model import Viewer

    cid = _new(service)
    gm = service.execute(cid, "roll 1d20 visibility=gm why=ambush", key="k1")
    alice = Viewer.of_player("alice")
    mine = service.execute(cid, "ada: hit bruno", alice, key="k1")  # applied, not refused
    assert not mine.duplicate and mine.record.version == gm.record.version + 1
    again = ConflictService(service.store)  # another process: the store's index finds it
    assert again.execute(cid, "ada: hit bruno", alice, key="k1").duplicate
    assert again.execute(cid, "roll 1d20 visibility=gm why=ambush", key="k1").duplicate
    assert service.store.info(cid).version == mine.record.version


def test_a_store_of_schema_0004_keeps_its_conflicts_shown(db_url: str, tmp_path: Path) -> None:
    """A database written by the fracas before conflicts could be put behind the screen
    (schema 0004, its rows copied from a real conflict) upgrades with every conflict shown,
    its log as it was."""
    from alembic import command as alembic_command

    from fracas.store.sql import alembic_config

    source = SqlEventStore(f"sqlite:///{tmp_path / 'source.db'}")
    made = ConflictService(source, snapshot_every=0)
    cid = _new(made, "t-friday")
    made.execute(cid, "ada: hit bruno dice=4")
    store = SqlEventStore(db_url, migrate=False)
    cfg = alembic_config()
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        alembic_command.upgrade(cfg, "0004")
    with source.engine.connect() as src, store.engine.begin() as dst:
        for table in ("campaigns", "conflicts", "records"):  # as fracas at 0004 wrote them
            columns = [c["name"] for c in inspect(dst).get_columns(table)]
            assert "shown" not in columns
            rows = src.execute(text(f"SELECT {', '.join(columns)} FROM {table}")).mappings()
            dst.execute(text(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                             f"({', '.join(':' + c for c in columns)})"), [dict(r) for r in rows])
    source.close()
    with pytest.raises(SchemaMismatch, match="run `fracas db upgrade`"):
        SqlEventStore(db_url)
    assert store.upgrade() == "0005"
    info = store.info(cid)
    assert info.shown and [i.shown for i in store.list("t-friday")] == [True]
    loaded = ConflictService(store).load(cid)
    assert [r.command for r in loaded.records][-1] == "ada: hit bruno dice=4"
    assert loaded.state.innermost.ext.hp["bruno"].current == 26
    store.close()


def test_a_conflict_behind_the_screen_keeps_its_flag_apart_from_its_log(
        service: ConflictService) -> None:
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO), campaign="t-x",
                                       shown=False)
    shown = _new(service, "t-x")
    assert not service.store.info(cid).shown and service.store.info(shown).shown
    assert {i.id: i.shown for i in service.store.list("t-x")} == {cid: False, shown: True}
    service.execute(cid, "ada: hit bruno dice=4")  # the GM plays it while it is hidden
    service.undo(cid)
    assert not service.store.info(cid).shown  # undo does not bring it out
    assert service.store.set_shown(cid, True).shown
    before = service.load(cid)
    service.undo(cid)
    assert service.store.info(cid).shown  # nor take it back
    assert not service.store.set_shown(cid, False).shown
    assert [r.command for r in service.load(cid).records] == \
        [r.command for r in before.records] + ["undo"]  # no record of showing or hiding
    with pytest.raises(NotFound):
        service.store.set_shown("feedf00d", True)
