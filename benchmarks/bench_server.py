"""Speed of ``fracas serve``, beside a bare Starlette WebSocket broadcast in the same run.

    python benchmarks/bench_server.py [--conflicts 100] [--seconds 30] [--pause 1.0]
                                      [--pg postgresql+psycopg://…]

For each backend (SQLite, one process; PostgreSQL, two processes, with ``--pg`` or
``$FRACAS_TEST_PG_URL``): CONFLICTS conflicts with six WebSocket viewers each (GM, two
players, public, a second socket of a player and of the GM), one writer per conflict sending
a command, waiting for its answer, then PAUSE seconds. Figures: p50 / p99 from a command's
HTTP request to its entry at every subscribed viewer, commands per second held, and the
server's memory per live conflict (RSS growth from an idle server to every socket
subscribed, divided by CONFLICTS). Baseline: the same fan-out through
``benchmarks/broadcast_baseline.py`` (no engine, no store). All on loopback; it stops by
itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.server.load import LoadResult, run_load  # noqa: E402
from tests.server.support import free_port, running  # noqa: E402
from tests.support.pg import reset_pg  # noqa: E402


def _rss_kib(pid: int) -> int:
    """Resident memory of a process and its children (uvicorn runs in the first)."""
    total = 0
    for p in [pid, *_children(pid)]:
        with open(f"/proc/{p}/status") as f:
            total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    return total


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


async def _baseline(base: str, rooms: int, seconds: float, pause: float) -> LoadResult:
    """The same shape of load through the bare broadcast."""
    arrivals: dict[str, list[float]] = {}
    stop = asyncio.Event()
    ready = 0

    async def listen(room: int) -> None:
        nonlocal ready
        async with connect(f"ws{base[4:]}/rooms/r{room}/live") as ws:
            await ws.recv()
            ready += 1
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    if stop.is_set():
                        return
                    continue
                now = time.perf_counter()
                for entry in json.loads(text)["entries"]:
                    arrivals.setdefault(entry["events"][0]["data"]["text"], []).append(now)

    tasks = [asyncio.create_task(listen(r)) for r in range(rooms) for _ in range(6)]
    while ready < len(tasks):
        await asyncio.sleep(0.05)
    sent: dict[str, float] = {}
    started = time.perf_counter()
    deadline = started + seconds
    async with httpx.AsyncClient(timeout=60) as http:
        async def write(room: int) -> None:
            k = 0
            await asyncio.sleep(pause * room / rooms)  # writers out of step, as in run_load
            while time.perf_counter() < deadline:
                marker = f"c{room} n{k}"
                t0 = time.perf_counter()
                await http.post(f"{base}/rooms/r{room}", json={"text": marker})
                sent[marker] = t0
                k += 1
                await asyncio.sleep(pause)

        await asyncio.gather(*(write(r) for r in range(rooms)))
    elapsed = time.perf_counter() - started
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*tasks)
    latencies = [max(arrivals[m]) - t0 for m, t0 in sent.items()
                 if len(arrivals.get(m, [])) == 6]
    lost = [m for m in sent if len(arrivals.get(m, [])) != 6]
    return LoadResult(len(sent), elapsed, latencies, [f"{m} lost" for m in lost])


def _line(name: str, r: LoadResult, memory: float | None = None) -> str:
    mem = f" · {memory:,.0f} KiB per live conflict" if memory is not None else ""
    ok = "" if not r.problems else f" · {len(r.problems)} PROBLEMS: {r.problems[:3]}"
    return (f"{name:<36} p50 {r.quantile(0.5):7.1f} ms · p99 {r.quantile(0.99):7.1f} ms · "
            f"{r.per_second:6.1f} commands/s ({r.commands} in {r.seconds:.0f} s){mem}{ok}")


def _fracas(bases_db: tuple[list[str], str], pids: list[int], conflicts: int,
            seconds: float, pause: float) -> tuple[LoadResult, float]:
    bases, db = bases_db
    before = sum(_rss_kib(p) for p in pids)
    after: list[int] = []
    result = asyncio.run(run_load(bases, db, conflicts, seconds, pause,
                                  on_subscribed=lambda: after.append(
                                      sum(_rss_kib(p) for p in pids))))
    return result, (after[0] - before) / conflicts


def main() -> None:
    """Run the figures and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conflicts", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--pg", default=os.environ.get("FRACAS_TEST_PG_URL"))
    args = parser.parse_args()
    print(f"{args.conflicts} conflicts x 6 viewers, one writer each pausing {args.pause} s, "
          f"{args.seconds:.0f} s per run (Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        baseline = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "broadcast_baseline:app", "--port", str(port),
             "--log-level", "warning"], cwd=ROOT / "benchmarks")
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            base = asyncio.run(_baseline(f"http://127.0.0.1:{port}", args.conflicts,
                                         args.seconds, args.pause))
        finally:
            baseline.terminate()
            baseline.wait(timeout=10)
        print(_line("baseline: bare Starlette broadcast", base))
        db = f"sqlite:///{tmp}/bench.db"
        with running(db, f"{tmp}/sqlite.log") as one:
            result, memory = _fracas(([one.url], db), [one.process.pid], args.conflicts,
                                     args.seconds, args.pause)
        print(_line("fracas serve, SQLite, 1 process", result, memory))
        if args.pg:
            reset_pg(args.pg)
            with running(args.pg, f"{tmp}/a.log") as a, running(args.pg, f"{tmp}/b.log") as b:
                result, memory = _fracas(([a.url, b.url], args.pg),
                                         [a.process.pid, b.process.pid], args.conflicts,
                                         args.seconds, args.pause)
            print(_line("fracas serve, PostgreSQL, 2 processes", result, memory))
        else:
            print("PostgreSQL skipped: give --pg URL or set FRACAS_TEST_PG_URL")


if __name__ == "__main__":
    main()
