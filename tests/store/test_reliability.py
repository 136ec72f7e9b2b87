"""Crash safety (SIGKILL mid-append) and 4 concurrent writers, on both backends."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.engine.conflict import fold
from fracas.engine.serialize import state_to_data
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO
from tests.store.workers import append_many

ROOT = Path(__file__).resolve().parents[2]


def _check_log(store: SqlEventStore, service: ConflictService, cid: str) -> list[int]:
    """No gap, no duplicate, header version = last record, stored state = replay."""
    loaded = service.load(cid)
    versions = [r.version for r in loaded.records]
    assert versions == list(range(1, len(versions) + 1))
    assert store.info(cid).version == versions[-1] == store.count_records(cid)
    assert state_to_data(loaded.state) == state_to_data(fold(loaded.ruleset, loaded.records))
    return versions


@pytest.mark.timeout(120)
def test_sigkill_loses_no_acknowledged_event(db_url: str) -> None:
    store = SqlEventStore(db_url)
    service = ConflictService(store, snapshot_every=3)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    for round_ in range(3):
        child = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/store/workers.py"), db_url, cid],
            stdout=subprocess.PIPE, text=True, cwd=ROOT,
        )
        assert child.stdout is not None
        acked: list[int] = []
        wanted = 15 + 7 * round_
        while len(acked) < wanted:
            line = child.stdout.readline()
            assert line, "the writer died on its own"
            acked.append(int(line))
        os.kill(child.pid, signal.SIGKILL)  # in the middle of the next append
        child.wait()
        versions = _check_log(store, service, cid)
        assert set(acked) <= set(versions)
        # no half-written command: every record's events are whole and it replays
        loaded = service.load(cid)
        assert all(r.events and r.command.startswith(("note", "create", "start"))
                   for r in loaded.records)
    store.close()


@pytest.mark.timeout(300)
def test_four_concurrent_writers(db_url: str) -> None:
    store = SqlEventStore(db_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    attempts = 25
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        results = pool.starmap(append_many, [(db_url, cid, w, attempts) for w in range(4)])
    applied = [v for done, _ in results for v in done]
    stale = sum(s for _, s in results)
    assert len(applied) + stale == 4 * attempts
    assert len(applied) == len(set(applied)), "a version was acknowledged twice"
    versions = _check_log(store, service, cid)
    assert sorted(applied) == versions[2:]  # every stored command was acknowledged once
    with store.engine.connect() as conn:
        texts = conn.execute(text("SELECT command FROM records WHERE conflict_id = :c"),
                             {"c": cid}).scalars().all()
    assert len(texts) == len(set(texts)), "a command was stored twice"
    store.close()
