"""PostgreSQL announces every append (NOTIFY) with the record itself when it fits, so that the
other server processes project it without reading it back; a longer one is announced
without it (they read it from the store)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.store import SqlEventStore
from fracas.store.port import NOTE_RECORD_LIMIT, read_append_note
from fracas.store.sql import NOTIFY_CHANNEL, record_json
from tests.store.conftest import pg_url_or_skip
from tests.support.pg import reset_pg

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_store() -> Iterator[SqlEventStore]:
    url = pg_url_or_skip()
    reset_pg(url)
    store = SqlEventStore(url)
    yield store
    store.close()


def test_an_append_is_announced_with_its_record_when_it_fits(pg_store: SqlEventStore
                                                             ) -> None:
    service = ConflictService(pg_store)
    cid, _ = service.new_from_scenario(load_scenario("vers-tavern-brawl"))
    notes: list[str] = []
    listening, stop = threading.Event(), threading.Event()

    def listen() -> None:
        for channel, payload in pg_store.notifications(stop, timeout=0.2):
            if not channel:
                listening.set()
            elif channel == NOTIFY_CHANNEL:
                notes.append(payload)

    thread = threading.Thread(target=listen)
    thread.start()
    try:
        assert listening.wait(20)
        short = service.execute(cid, "narrate 'a short line'").record
        long = service.execute(cid, "narrate '" + "x" * 3900 + "'").record
        assert len(record_json(long).encode()) > NOTE_RECORD_LIMIT
        for _ in range(100):
            if len(notes) >= 2:
                break
            stop.wait(0.1)
    finally:
        stop.set()
        thread.join(timeout=20)
    (c1, v1, r1), (c2, v2, r2) = (read_append_note(n) for n in notes)
    assert (c1, v1, c2, v2) == (cid, short.version, cid, long.version)
    assert r1 is not None and r1.payload() == short.payload() and r1.key == short.key
    assert r2 is None  # too long to come along: the listener reads it back
    stored = pg_store.records_after(cid, short.version - 1)
    assert [r.payload() for r in stored] == [short.payload(), long.payload()]
