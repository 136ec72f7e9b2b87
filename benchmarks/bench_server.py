"""Speed of ``fracas serve``, beside a bare Starlette WebSocket broadcast in the same run.

    python benchmarks/bench_server.py [--conflicts 100] [--seconds 30] [--pause 1.0]
                                      [--pg postgresql+psycopg://…] [--spans]
                                      [--sync full,normal]

For each backend (SQLite, one process, with each ``fracas serve --sync`` setting; PostgreSQL,
two processes, with ``--pg`` or ``$FRACAS_TEST_PG_URL``): CONFLICTS conflicts with six
WebSocket viewers each (GM, two players, public, a second socket of a player and of the GM),
one writer per conflict sending a command, waiting for its answer, then PAUSE seconds.
Figures: p50 / p99 from a command's HTTP request to its entry at every subscribed viewer,
commands per second held, the server's CPU time per command, and its memory per live
conflict (RSS growth from an idle server to every socket subscribed, divided by CONFLICTS).
Baseline: the same fan-out through
``benchmarks/broadcast_baseline.py`` (no engine, no store). All on loopback; it stops by
itself. The load client retries a command whose connection failed (same idempotency key) and
counts those failures. ``--spans`` also prints each server process's timing of its stages
(``fracas.server.spans``): where a command's time goes.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from fracas.server.spans import ENV_SPANS, SPANS_RESET  # noqa: E402
from tests.server.load import LoadResult, http_client, post, run_load  # noqa: E402
from tests.server.support import free_port, running  # noqa: E402
from tests.support.pg import reset_pg  # noqa: E402


def _rss_kib(pid: int) -> int:
    """Resident memory of a process and its children (uvicorn runs in the first)."""
    total = 0
    for p in [pid, *_children(pid)]:
        with open(f"/proc/{p}/status") as f:
            total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    return total


def _cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by processes and their children."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in [q for pid in pids for q in (pid, *_children(pid))]:
        with open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


async def _baseline(base: str, rooms: int, seconds: float, pause: float,
                    on_subscribed: Callable[[], object]) -> LoadResult:
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
    on_subscribed()
    sent: dict[str, float] = {}
    started = time.perf_counter()
    deadline = started + seconds
    errors = 0
    async with http_client(rooms + 10) as http:
        async def write(room: int) -> None:
            nonlocal errors
            k = 0
            await asyncio.sleep(pause * room / rooms)  # writers out of step, as in run_load
            while time.perf_counter() < deadline:
                marker = f"c{room} n{k}"
                t0 = time.perf_counter()
                r, failed = await post(http, f"{base}/rooms/r{room}", json={"text": marker})
                errors += failed
                if r is not None:
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
    return LoadResult(len(sent), elapsed, latencies, [f"{m} lost" for m in lost], errors)


def _line(name: str, r: LoadResult, cpu: float, memory: float | None = None) -> str:
    mem = f" · {memory:,.0f} KiB per live conflict" if memory is not None else ""
    ok = "" if not r.problems else f" · {len(r.problems)} PROBLEMS: {r.problems[:3]}"
    errors = f" · {r.errors} failed connections (retried)" if r.errors else ""
    return (f"{name:<38} p50 {r.quantile(0.5):7.1f} ms · p99 {r.quantile(0.99):7.1f} ms · "
            f"{r.per_second:6.1f} commands/s ({r.commands} in {r.seconds:.0f} s) · "
            f"server CPU {1000 * cpu / max(1, r.commands):.1f} ms a command{mem}"
            f"{errors}{ok}")


def _print_spans(prefix: str) -> None:
    """Print the stage timings the server processes wrote (fracas.server.spans)."""
    for path in sorted(Path(prefix).parent.glob(Path(prefix).name + ".*")):
        print(f"  stages of process {path.suffix[1:]} (ms):")
        for stage, s in json.loads(path.read_text()).items():
            print(f"    {stage:<36} n {s['count']:>7,} · p50 {s['p50']:7.2f} · "
                  f"p99 {s['p99']:7.2f} · max {s['max']:7.1f}")
        path.unlink()


class Meter:
    """What the server processes used while the load ran: CPU seconds, and the memory
    their subscribed sockets took (RSS growth from idle); their stage timings start anew."""

    def __init__(self, pids: list[int], spans: bool = False) -> None:
        self.pids, self.spans = pids, spans
        self.idle = sum(_rss_kib(p) for p in pids)
        self.memory = 0.0
        self.started = 0.0

    def subscribed(self) -> None:
        """Every socket has its snapshot: the load begins."""
        self.memory = sum(_rss_kib(p) for p in self.pids) - self.idle
        self.started = _cpu_seconds(self.pids)
        for p in self.pids if self.spans else ():
            os.kill(p, SPANS_RESET)

    def cpu(self) -> float:
        """CPU seconds since the load began."""
        return _cpu_seconds(self.pids) - self.started


def _fracas(bases_db: tuple[list[str], str], pids: list[int], conflicts: int,
            seconds: float, pause: float, spans: bool) -> tuple[LoadResult, float, float]:
    bases, db = bases_db
    meter = Meter(pids, spans)
    result = asyncio.run(run_load(bases, db, conflicts, seconds, pause,
                                  on_subscribed=meter.subscribed))
    return result, meter.cpu(), meter.memory / conflicts


def main() -> None:
    """Run the figures and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conflicts", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--pg", default=os.environ.get("FRACAS_TEST_PG_URL"))
    parser.add_argument("--sync", default="full,normal",
                        help="the SQLite commit settings to run (fracas serve --sync)")
    parser.add_argument("--spans", action="store_true",
                        help="print the servers' timing of their stages")
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
            meter = Meter([baseline.pid])
            base = asyncio.run(_baseline(f"http://127.0.0.1:{port}", args.conflicts,
                                         args.seconds, args.pause, meter.subscribed))
            cpu = meter.cpu()
        finally:
            baseline.terminate()
            baseline.wait(timeout=10)
        print(_line("baseline: bare Starlette broadcast", base, cpu))
        prefix = f"{tmp}/spans"
        env = {ENV_SPANS: prefix} if args.spans else {}
        for sync in args.sync.split(","):
            db = f"sqlite:///{tmp}/bench-{sync}.db"
            with running(db, f"{tmp}/sqlite.log", env=env, args=("--sync", sync)) as one:
                result, cpu, memory = _fracas(([one.url], db), [one.process.pid],
                                              args.conflicts, args.seconds, args.pause,
                                              args.spans)
            print(_line(f"fracas serve, SQLite --sync {sync}", result, cpu, memory))
            _print_spans(prefix)
        if args.pg:
            reset_pg(args.pg)
            with running(args.pg, f"{tmp}/a.log", env=env) as a, \
                    running(args.pg, f"{tmp}/b.log", env=env) as b:
                result, cpu, memory = _fracas(([a.url, b.url], args.pg),
                                              [a.process.pid, b.process.pid],
                                              args.conflicts, args.seconds, args.pause,
                                          args.spans)
            print(_line("fracas serve, PostgreSQL, 2 processes", result, cpu, memory))
            _print_spans(prefix)
        else:
            print("PostgreSQL skipped: give --pg URL or set FRACAS_TEST_PG_URL")


if __name__ == "__main__":
    main()
