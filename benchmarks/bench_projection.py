"""Projection benchmark: a player's live Projector per appended record, at several log
lengths, beside the baseline of re-projecting the whole log per record (what a player's
``log_view`` did before the Projector).

Run from the project root:  .venv/bin/python benchmarks/bench_projection.py [--quick]

Workload: the bundled ``vers-tavern-brawl`` after its script, then public notes, GM-only notes
and an undo every 20 records, up to each length; then 50 more records are timed, one at a
time, for alice (a player): ``Projector.advance`` (live) against a fresh ``Projector``
(re-fold, on fewer records since it is slow). The live figure must stay flat as the log grows.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

try:
    import fracas  # noqa: F401
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Projector

ALICE = Viewer.of_player("alice")


def grow(c: Conflict, length: int) -> None:
    """Append records until the log has ``length`` of them."""
    n = 0
    while c.version < length:
        n += 1
        if n % 20 == 0:
            c.execute("undo", time="")
        elif n % 3 == 0:
            c.execute(f"note 'secret {n}' visibility=gm", time="")
        else:
            c.execute(f"note 'public {n}'", time="")


def per_record(c: Conflict, live: Projector, appends: int) -> float:
    """Mean seconds of ``live.advance()`` per appended record."""
    total = 0.0
    for i in range(appends):
        c.execute(f"note 'timed {i}'" if i % 2 else f"note 'timed {i}' visibility=gm", time="")
        started = time.perf_counter()
        live.advance()
        total += time.perf_counter() - started
    return total / appends


def refold(c: Conflict, appends: int) -> float:
    """Mean seconds of projecting the whole log afresh per appended record (the baseline)."""
    total = 0.0
    for i in range(appends):
        c.execute(f"note 'again {i}'", time="")
        started = time.perf_counter()
        Projector(c, ALICE)
        total += time.perf_counter() - started
    return total / appends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 and 5,000 records")
    args = parser.parse_args()
    lengths = [1_000, 5_000] if args.quick else [1_000, 10_000, 100_000]
    print(f"{'records':>8}  {'live µs/record':>15}  {'re-fold µs/record':>18}")
    for length in lengths:
        c = play_script(load_scenario("vers-tavern-brawl"), "bench")
        grow(c, length)
        live = Projector(c, ALICE)
        live_s = per_record(c, live, 50)
        base_s = refold(c, 2 if length > 10_000 else 5)
        print(f"{length:>8}  {live_s * 1e6:>15.0f}  {base_s * 1e6:>18.0f}")


if __name__ == "__main__":
    main()
