"""Appends made at once by many threads of one process (the server's case) share commits on
SQLite: each caller still gets its own answer, a refused append changes nothing, and nothing
is stored twice or lost."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.errors import StaleVersion
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO

THREADS = 12
APPENDS = 15


@pytest.mark.timeout(120)
def test_threads_appending_at_once_each_get_their_own_answer(tmp_path: Path) -> None:
    store = SqlEventStore(f"sqlite:///{tmp_path / 'fracas.db'}")
    service = ConflictService(store, snapshot_every=0)
    own = [service.new_from_scenario(load_scenario(TOY_SCENARIO))[0] for _ in range(THREADS)]
    shared, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    start = service.load(shared).version
    acked: dict[str, list[int]] = {cid: [] for cid in [*own, shared]}
    stale: list[int] = []
    gate = threading.Barrier(THREADS)

    def write(i: int) -> None:
        conflict = service.load(own[i])
        gate.wait()
        for k in range(APPENDS):
            out = service.execute(own[i], f'note "t{i} n{k}"', conflict=conflict,
                                  key=f"t{i}-{k}")
            acked[own[i]].append(out.record.version)
            # every thread also races for the same next version of one shared conflict
            theirs = service.load(shared)
            try:
                done = service.execute(shared, f'note "t{i} race {k}"', conflict=theirs,
                                       expected_version=theirs.version)
                acked[shared].append(done.record.version)
            except StaleVersion:
                stale.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    for cid in own:
        records = service.load(cid).records
        assert [r.version for r in records] == list(range(1, len(records) + 1))
        assert acked[cid] == [r.version for r in records[-APPENDS:]]
        assert [r.command for r in records[-APPENDS:]] == [
            r.command for r in sorted(records[-APPENDS:], key=lambda r: r.version)]
    race = service.load(shared).records[start:]
    assert sorted(acked[shared]) == [r.version for r in race], "an append lost or doubled"
    assert len(acked[shared]) + len(stale) == THREADS * APPENDS
    assert len({r.command for r in race}) == len(race)
    store.close()
