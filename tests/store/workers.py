"""Code run in child processes by the reliability tests (imported by name under spawn)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fracas.app.service import ConflictService
from fracas.errors import StaleVersion
from fracas.rulesets import register
from fracas.store import SqlEventStore
from tests.support.toy import Toy


def append_many(url: str, cid: str, who: int, attempts: int) -> tuple[list[int], int]:
    """Try ``attempts`` appends, each decided on a fresh load; (applied versions, stale)."""
    register(Toy())
    store = SqlEventStore(url)
    service = ConflictService(store, snapshot_every=7)
    applied: list[int] = []
    stale = 0
    try:
        for i in range(attempts):
            conflict = service.load(cid)
            try:
                out = service.execute(cid, f'note "writer {who} try {i}"',
                                      expected_version=conflict.version, conflict=conflict)
                applied.append(out.record.version)
            except StaleVersion:
                stale += 1
    finally:
        store.close()
    return applied, stale


def crash_writer(url: str, cid: str) -> None:
    """Append forever, printing each acknowledged version (the parent SIGKILLs us)."""
    register(Toy())
    store = SqlEventStore(url)
    service = ConflictService(store, snapshot_every=3)
    conflict = service.load(cid)
    i = 0
    while True:
        i += 1
        out = service.execute(cid, f'note "entry {i}"', expected_version=conflict.version,
                              conflict=conflict, key=f"crash-{i}")
        conflict = out.conflict
        print(out.record.version, flush=True)


if __name__ == "__main__":
    crash_writer(sys.argv[1], sys.argv[2])
