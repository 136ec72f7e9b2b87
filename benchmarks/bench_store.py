"""Speed of the event store, each figure beside a named baseline in the same process.

    python benchmarks/bench_store.py [--quick] [--pg postgresql+psycopg://…]

1. Latency of one validated command appended (load-free: the conflict is kept in memory, as
   ``fracas play`` and the server do): decide + append transaction + fold, median and p99, on
   SQLite and (with ``--pg`` or ``$FRACAS_TEST_PG_URL``) PostgreSQL. Baseline: a raw INSERT of
   the same record bytes in its own transaction, without validation or version check.
2. Time to load a 100,000-event conflict without and with a snapshot. Baselines: SELECT of the
   same rows without decoding, and a bare fold of the records already in memory.

Uses the test-only toy ruleset (``note`` commands, one event each).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, select  # noqa: E402

from fracas.app.scenario import load_scenario  # noqa: E402
from fracas.app.service import ConflictService  # noqa: E402
from fracas.engine.conflict import Conflict, fold  # noqa: E402
from fracas.engine.events import Record  # noqa: E402
from fracas.rulesets import register  # noqa: E402
from fracas.store import SqlEventStore  # noqa: E402
from fracas.store.schema import records  # noqa: E402
from fracas.store.sql import record_json  # noqa: E402
from tests.support.pg import reset_pg  # noqa: E402
from tests.support.toy import Toy  # noqa: E402

SCENARIO = ROOT / "tests/store/toy.toml"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def _stats(samples: list[float]) -> tuple[float, float]:
    median = statistics.median(samples)
    p99 = statistics.quantiles(samples, n=100)[98] if len(samples) >= 2 else samples[0]
    return median, p99


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_append(url: str, label: str, n: int) -> None:
    """Median and p99 of one validated command appended, and of the raw-INSERT baseline."""
    store = SqlEventStore(url)
    service = ConflictService(store, snapshot_every=100)
    cid, conflict = service.new_from_scenario(load_scenario(SCENARIO))
    validated: list[float] = []
    for i in range(n):
        t0 = time.perf_counter()
        out = service.execute(cid, f'note "benchmark entry {i}"',
                              expected_version=conflict.version, conflict=conflict)
        validated.append(time.perf_counter() - t0)
        conflict = out.conflict
    base_id, _ = service.new_from_scenario(load_scenario(SCENARIO))
    raw: list[float] = []
    for rec in conflict.records[2:]:
        row = {"conflict_id": base_id, "version": rec.version, "command": rec.command,
               "author": rec.author, "time": rec.time, "key": rec.key,
               "data": record_json(rec)}
        t0 = time.perf_counter()
        with store._write() as conn:
            conn.execute(insert(records), [row])
        raw.append(time.perf_counter() - t0)
    for name, samples in (("validated command, append", validated),
                          ("baseline: raw INSERT, same bytes", raw)):
        median, p99 = _stats(samples)
        print(f"  {label:<10} {name:<34} median {_ms(median)}  p99 {_ms(p99)}  (n={n})")
    store.close()


def bench_load(url: str, label: str, events: int) -> None:
    """Load time of a long conflict, without and with a snapshot, beside two baselines."""
    ruleset = Toy()
    store = SqlEventStore(url)
    service = ConflictService(store, snapshot_every=0)
    conflict = Conflict.create(ruleset, load_scenario(SCENARIO).setup, "bench", time="")
    for i in range(events - 1):
        conflict.execute(f'note "entry {i}"', time="")
    cid = store.create(ruleset="toy", seed="bench", title="bench", campaign="bench",
                       records=conflict.records)
    recs: list[Record] = conflict.records

    def raw_select() -> None:
        with store._read() as conn:
            conn.execute(select(records.c.data).where(records.c.conflict_id == cid)
                         .order_by(records.c.version)).scalars().all()

    rows = [
        ("baseline: SELECT rows, no decoding", raw_select),
        ("baseline: bare fold in memory", lambda: fold(ruleset, recs)),
        ("load without snapshot", lambda: service.load(cid)),
    ]
    for name, fn in rows:
        print(f"  {label:<10} {name:<38} {_ms(min(_timed(fn) for _ in range(3)))}"
              f"  ({events} events)")
    service.rebuild_snapshot(cid)
    t = min(_timed(lambda: service.load(cid)) for _ in range(3))
    print(f"  {label:<10} {'load with snapshot at the last version':<38} {_ms(t)}"
          f"  ({events} events)")
    store.close()


def main() -> None:
    """Run the benchmarks and print one line per figure."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--pg", default=os.environ.get("FRACAS_TEST_PG_URL"),
                        help="PostgreSQL URL (default: $FRACAS_TEST_PG_URL); omitted: SQLite only")
    args = parser.parse_args()
    register(Toy())
    commands = 50 if args.quick else 500
    events = 5_000 if args.quick else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        backends = [("sqlite", f"sqlite:///{tmp}/bench.db")]
        if args.pg:
            backends.append(("postgres", args.pg))
        print(f"fracas store benchmark ({'quick' if args.quick else 'full'}), "
              f"python {sys.version.split()[0]}")
        print("append latency:")
        for label, url in backends:
            if label == "postgres":
                reset_pg(url)
            bench_append(url, label, commands)
        print("load time:")
        for label, url in backends:
            bench_load(url, label, events)


if __name__ == "__main__":
    main()
