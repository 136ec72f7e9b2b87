"""Timing spans of a server process's stages, to find where a command's time goes.

Off unless ``$FRACAS_SPANS`` names a file: then each stage a command passes (the request as
a whole, authentication, the wait for the room's lock and for a worker thread, parsing,
deciding and committing, projecting, encoding, the frames' wait and send), every pause of the
cyclic garbage collector and every late wake-up of the event loop are timed, and when the
process stops it writes their count, p50, p99 and maximum (milliseconds) as JSON to that file
(``.PID`` appended, one per process). ``benchmarks/bench_server.py --spans`` prints them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

ENV_SPANS = "FRACAS_SPANS"
#: The signal that makes a measuring process forget its samples so far (the benchmark sends
#: it when the load begins, so that setting up is not counted).
SPANS_RESET = signal.SIGUSR1
#: How often the event loop's lateness is sampled (seconds).
LAG_TICK = 0.005


class Spans:
    """Durations (seconds) by stage name."""

    def __init__(self) -> None:
        """No samples yet."""
        self.samples: defaultdict[str, list[float]] = defaultdict(list)
        self._gc_start = 0.0

    @contextlib.contextmanager
    def span(self, name: str) -> Iterator[None]:
        """Time the block as stage ``name``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.samples[name].append(time.perf_counter() - start)

    def add(self, name: str, seconds: float) -> None:
        """One duration of stage ``name``."""
        self.samples[name].append(seconds)

    def watch_gc(self) -> None:
        """Time every collection of the cyclic garbage collector (by generation)."""
        def callback(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                self._gc_start = time.perf_counter()
            else:
                self.add(f"gc pause, generation {info['generation']}",
                         time.perf_counter() - self._gc_start)
        gc.callbacks.append(callback)

    async def watch_loop(self) -> None:
        """(A task.) How late the event loop wakes a task that slept LAG_TICK: the time it
        was busy with something else. SPANS_RESET starts the samples anew."""
        asyncio.get_running_loop().add_signal_handler(SPANS_RESET, self.samples.clear)
        while True:
            start = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            self.add("event loop late by", time.perf_counter() - start - LAG_TICK)

    def summary(self) -> dict[str, dict[str, float]]:
        """Per stage: count, p50, p99 and maximum in milliseconds."""
        out = {}
        for name, values in sorted(self.samples.items()):
            cuts = statistics.quantiles(values, n=100, method="inclusive") \
                if len(values) > 1 else values * 99
            out[name] = {"count": len(values), "p50": 1000 * cuts[49],
                         "p99": 1000 * cuts[98], "max": 1000 * max(values)}
        return out

    def write(self, path: str) -> None:
        """Write the summary to ``path.PID``."""
        with open(f"{path}.{os.getpid()}", "w", encoding="utf-8") as f:
            json.dump(self.summary(), f, indent=1)


#: The spans of this process (None: not measuring).
SPANS: Spans | None = Spans() if os.environ.get(ENV_SPANS) else None


def span(name: str) -> contextlib.AbstractContextManager[None]:
    """Time the block as stage ``name`` when measuring; otherwise do nothing."""
    return SPANS.span(name) if SPANS is not None else contextlib.nullcontext()


def add(name: str, seconds: float) -> None:
    """One duration of stage ``name``, when measuring."""
    if SPANS is not None:
        SPANS.add(name, seconds)


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` timed as stage ``name`` (for wrapping a store's method when measuring)."""
    def call(*args: Any, **kwargs: Any) -> Any:
        with span(name):
            return fn(*args, **kwargs)
    return call


class RequestTimer:
    """ASGI middleware (added only when measuring): the server-side time of each command
    request, from its first byte seen by the application to its answer's last."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Time a POST of a command; pass everything else through."""
        if scope["type"] != "http" or not scope["path"].endswith("/commands"):
            await self.app(scope, receive, send)
            return
        with span("request (command, server side)"):
            await self.app(scope, receive, send)
