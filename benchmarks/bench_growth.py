"""Costs that must not grow with the log, against the code before the typed model as baseline.

    .venv/bin/python benchmarks/bench_growth.py [--sizes 1000,10000,100000,1000000]
        [--base-upto 100000] [--base REV]

For logs of each size (records of a toy brawl: popcorn turns, 1d6 hits with dice typed in),
in the same run for this checkout and for the baseline commit (default: the last commit before
the typed-model work, extracted with ``git archive`` into a temporary folder and run in a
subprocess with the same script):

* undo and redo of the last command (``Conflict.execute("undo")`` / ``"redo"``),
* ``legal_commands()`` for the GM,
* an append with an idempotency key through the service into SQLite (conflict kept loaded),
* a player's projection after one more record: ``log_view(conflict, player, since=N)``, the
  entries after those the player has read, as a live viewer (or the server's per-viewer
  Projector) reads them (the baseline has no ``since``: its ``log_view`` returns the whole log),
* loading the stored conflict with a snapshot at its last version (``ConflictService.load``;
  this checkout reads only the rows after the snapshot).

Each figure is the median of several repeats. A cost "stays flat" when it changes by less
than 2× from the smallest size to 100,000 records (the baseline is run up to there); the
growth to 1,000,000 records is printed beside it. The last row is no cost but the size of the
state itself (its pickle, in KiB): what undo (a checkpoint) and a load (the snapshot) read
back.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "58da975"  # main before the typed-model work (issue 10)
PEOPLE = ["ada", "bruno", "gob"]
FIGURES = ["undo", "redo", "legal (GM)", "append + key", "player projection", "load + snapshot",
           "state KiB"]


def commands(n: int) -> list[str]:
    """``n`` commands of a toy brawl, round after round."""
    out: list[str] = []
    rnd = 0
    while len(out) < n:
        order = PEOPLE[rnd % 3:] + PEOPLE[: rnd % 3]
        out.append(f"start {order[0]}")
        for i, who in enumerate(order):
            victim = order[(i + 1) % 3]
            out.append(f"{who}: hit {victim} dice={(rnd + i) % 6 + 1}")
            out.append(f"{who}: done {order[i + 1]}" if i < 2 else f"{who}: done")
        rnd += 1
    return out[:n]


def _median(fn: Callable[[], object], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def measure(size: int, repeats: int) -> dict[str, float]:
    """The figures for a log of ``size`` records, with whatever fracas is importable."""
    sys.path.insert(0, os.getcwd())
    from fracas.engine import Conflict, Setup, Viewer
    from fracas.engine.views import log_view
    from fracas.rulesets import register
    from fracas.store import SqlEventStore
    from tests.support.toy import Toy

    try:
        from fracas.app.service import ConflictService
    except ImportError:  # the baseline's layout
        from fracas.store.service import ConflictService  # type: ignore[no-redef]

    toy = Toy()
    register(toy)
    setup = Setup(ruleset="toy", participants=[
        {"id": p, "name": p.title(), "stats": {"hp": 10**6}, "player": f"{p}-player"}
        for p in PEOPLE])
    conflict = Conflict.create(toy, setup, "bench", time="")
    script = commands(size + 200)
    for line in script[:size - 1]:
        conflict.execute(line, time="")
    spare = iter(script[size - 1:])

    def undo_redo() -> tuple[float, float]:
        t0 = time.perf_counter()
        conflict.execute("undo", time="")
        t1 = time.perf_counter()
        conflict.execute("redo", time="")
        return t1 - t0, time.perf_counter() - t1

    state_kib = len(pickle.dumps(conflict.state, pickle.HIGHEST_PROTOCOL)) / 1024 / 1000
    pairs = [undo_redo() for _ in range(repeats)]
    out = {"undo": statistics.median(p[0] for p in pairs),
           "redo": statistics.median(p[1] for p in pairs),
           "legal (GM)": _median(lambda: conflict.legal_commands(None), repeats)}
    player = Viewer.of_player("ada-player")
    seen = len(log_view(conflict, player))
    try:
        log_view(conflict, player, since=seen)
        since: bool = True
    except TypeError:  # the baseline: no cursor, the whole log each time
        since = False

    def project_one() -> None:
        nonlocal seen
        conflict.execute(next(spare), time="")
        if since:
            seen += len(log_view(conflict, player, since=seen))
        else:
            log_view(conflict, player)

    out["player projection"] = _median(project_one, max(1, repeats // 2))
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlEventStore(f"sqlite:///{tmp}/bench.sqlite3")
        service = ConflictService(store, snapshot_every=0)
        cid = store.create(ruleset="toy", seed="bench", title="bench", records=conflict.records)
        keys = iter(range(10**9))
        out["append + key"] = _median(lambda: service.execute(
            cid, next(spare), key=f"k{next(keys)}", conflict=conflict), repeats)
        service.rebuild_snapshot(cid)
        out["load + snapshot"] = _median(lambda: service.load(cid), max(1, repeats // 2))
        store.close()
    out["state KiB"] = state_kib  # (printed by _ms, which multiplies by 1000)
    return out


def run_baseline(rev: str, sizes: list[int], repeats: int) -> dict[int, dict[str, float]]:
    """The same measurements on commit ``rev``, in a subprocess over an extracted copy."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src", "tests"],
                                 check=True, capture_output=True).stdout
        tar_path = Path(tmp) / "base.tar"
        tar_path.write_bytes(archive)
        with tarfile.open(tar_path) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": f"{tmp}/src:{tmp}"}
        done = subprocess.run(
            [sys.executable, __file__, "--worker", "--sizes", ",".join(map(str, sizes)),
             "--repeats", str(repeats)], cwd=tmp, env=env, check=True, capture_output=True,
            text=True)
        return {int(k): v for k, v in json.loads(done.stdout).items()}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--base-upto", type=int, default=100_000,
                        help="the largest size the baseline is run at (it re-folds the log "
                        "per operation: at 1,000,000 records it would take hours)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--base", default=BASELINE, help="the baseline commit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        print(json.dumps({s: measure(s, args.repeats) for s in sizes}))
        return
    ours = {s: measure(s, args.repeats) for s in sizes}
    base_sizes = [s for s in sizes if s <= args.base_upto]
    base = run_baseline(args.base, base_sizes, args.repeats) if base_sizes else {}
    flat = max(base_sizes or sizes)  # the criterion: flat from the smallest to this
    print(f"python {sys.version.split()[0]} · median of {args.repeats} · ms per operation · "
          f"baseline {args.base} (up to {args.base_upto:,} records)")
    head = "".join(f"{s:>22,}" for s in sizes)
    print(f"{'figure':<20}{head}   growth {sizes[0]:,}→{flat:,}"
          + (f" · →{sizes[-1]:,}" if sizes[-1] != flat else ""))
    for fig in FIGURES:
        cells = "".join(f"{_ms(ours[s][fig]):>10} ({_ms(base[s][fig]) if s in base else '—':>9})"
                        for s in sizes)
        growth = ours[flat][fig] / ours[sizes[0]][fig]
        line = f"{fig:<20}{cells}   {growth:5.1f}×"
        if flat in base:
            line += f" (baseline {base[flat][fig] / base[sizes[0]][fig]:.1f}×)"
        if sizes[-1] != flat:
            line += f" · {ours[sizes[-1]][fig] / ours[sizes[0]][fig]:.1f}×"
        print(line)
    print("each cell: fracas (baseline)")


if __name__ == "__main__":
    main()
