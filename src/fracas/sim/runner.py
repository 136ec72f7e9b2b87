"""Running a job: encounters in chunks, in this process, in local worker processes or on a
Dask distributed cluster. Every encounter's dice and choices depend only on the run seed and
its index, and a tally is a sum, so the totals are the same whatever runs the chunks.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from fracas.errors import InvalidInput
from fracas.sim.encounter import Prepared, play_encounter, prepare
from fracas.sim.job import SIM_EXTRA, SimJob
from fracas.sim.stats import Tally

#: Progress callback: (encounters done, encounters in all).
Progress = Callable[[int, int], None]

_PREPARED: dict[str, Prepared] = {}  # per process: a job is prepared once per worker


def prepared(job: SimJob) -> Prepared:
    """The job made ready to play, cached in this process."""
    key = repr(job)
    p = _PREPARED.get(key)
    if p is None:
        if len(_PREPARED) > 16:
            _PREPARED.clear()
        p = _PREPARED[key] = prepare(job)
    return p


def run_chunk(job: SimJob, start: int, stop: int) -> Tally:
    """Play encounters ``start`` … ``stop - 1`` of a job and tally them."""
    p = prepared(job)
    tally = Tally()
    for index in range(start, stop):
        tally.add(play_encounter(p, index))
    return tally


def _worker_started() -> None:
    """A local worker leaves Ctrl-C to the main process (which stops it), dies of the main
    process's ``terminate`` (SIGTERM: not the handler ``fracas sim`` gives the main process,
    which a forked worker inherits), and what a policy prints goes to standard error, never
    into the report on standard output."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for kind in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if kind is not None:
            signal.signal(kind, signal.SIG_DFL)
    sys.stdout = sys.stderr


def chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Ranges of encounter indices: small enough for a smooth progress bar and an even load,
    large enough that the overhead per task stays small."""
    size = max(1, min(2000, n // max(1, workers * 16)))
    return [(i, min(n, i + size)) for i in range(0, n, size)]


@dataclass(slots=True)
class Runner:
    """Where chunks run: ``workers`` local processes (1: this process) or a Dask cluster."""

    workers: int = 1
    dask: Any = None  # the address of a Dask scheduler, or a distributed.Client
    connect_timeout: float = 10.0  # seconds to reach the scheduler
    _executor: Executor | None = None
    _client: Any = None

    def __enter__(self) -> Runner:
        if self.dask is not None:
            self._client = _dask_client(self.dask, self.connect_timeout)
        elif self.workers > 1:
            self._executor = ProcessPoolExecutor(self.workers, initializer=_worker_started)
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._executor is not None:
            if kind is not None and not issubclass(kind, Exception):  # Ctrl-C: stop now
                workers = list(getattr(self._executor, "_processes", {}).values())
                manager = getattr(self._executor, "_executor_manager_thread", None)
                self._executor.shutdown(wait=False, cancel_futures=True)
                for process in workers:  # a chunk may hold minutes of play
                    process.terminate()
                if manager is not None:  # ended before the interpreter's exit wakes it: a
                    manager.join(timeout=10)  # race there printed a traceback on `kill`
            else:
                self._executor.shutdown(cancel_futures=True)
        if self._client is not None and isinstance(self.dask, str):
            self._client.close()

    def run(self, job: SimJob, progress: Progress | None = None) -> Tally:
        """Play the job's encounters and tally them; ``progress`` is told as chunks finish."""
        if job.n < 1:
            raise InvalidInput("-n must be at least 1", n=job.n)
        prepared(job)  # a bad scenario, variation or policy fails here, once, clearly
        parts = chunks(job.n, self.workers if self.dask is None else 8)
        total = Tally()
        done = 0
        for tally in self._each(job, parts):
            total = total.merge(tally)
            done += tally.n
            if progress is not None:
                progress(done, job.n)
        return total

    def _each(self, job: SimJob, parts: list[tuple[int, int]]) -> Iterator[Tally]:
        if self._client is not None:
            from distributed import as_completed as dask_completed

            futures = self._client.map(run_chunk, [job] * len(parts),
                                       [a for a, _ in parts], [b for _, b in parts],
                                       pure=False)
            for future in dask_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
            return
        if self._executor is not None:
            pending = [self._executor.submit(run_chunk, job, a, b) for a, b in parts]
            for future in as_completed(pending):
                yield future.result()
            return
        for a, b in parts:
            yield run_chunk(job, a, b)


def _dask_client(address: Any, timeout: float) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise InvalidInput(f"--dask needs Dask distributed, {SIM_EXTRA}") from None
    if not isinstance(address, str):
        return address  # a Client (or LocalCluster) made by the caller
    try:
        return Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except Exception as exc:  # a refused, unreachable or misconfigured scheduler (tls://…)
        raise InvalidInput(f"--dask {address}: cannot reach the scheduler: {exc}") from None


def default_workers() -> int:
    """Local worker processes by default: one per core."""
    return max(1, os.cpu_count() or 1)
