"""A bounded load on real servers (loopback only, stops by itself): conflicts with six
WebSocket viewers each, commands flowing from one writer per conflict. Used by the load test
and by benchmarks/bench_server.py.

Every command is a narration with a marker ("c3 n17"); the time from its HTTP request to its
entry at every subscribed viewer is its latency. Every second command is a GM-only note,
which the players' sockets must never hear of.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect

from fracas.engine.model import Viewer
from tests.server.leakcheck import followed, stored_projection
from tests.server.scenarios import LURKING, SEED

#: The six viewers of every conflict.
VIEWERS = ("gm", "alice", "bob", "public", "alice", "gm")
#: Tries of one command whose connection failed (with the same idempotency key each time).
TRIES = 5
#: Seconds an idle connection of the load client is kept: less than uvicorn's keep-alive
#: (5 s), so the client never reuses a connection the server is closing.
KEEPALIVE = 2.0


def viewer_of(name: str) -> Viewer:
    """The engine's viewer of a load client."""
    return Viewer.gm() if name == "gm" else Viewer.public() if name == "public" \
        else Viewer.of_player(name)


@dataclass
class Client:
    """One subscribed socket: its viewer and every frame it received, kept as text until
    the end (millions of parsed objects held by the load client would make its own garbage
    collector pause for longer and longer, and those pauses would count as latency)."""

    viewer: str
    texts: list[str] = field(default_factory=list)
    arrivals: dict[str, float] = field(default_factory=dict)  # marker → time of arrival

    def frames(self) -> list[dict[str, Any]]:
        """Every frame received, parsed."""
        return [json.loads(t) for t in self.texts]


@dataclass
class LoadResult:
    """What a load run measured and what it checked."""

    commands: int
    seconds: float
    latencies: list[float]  # seconds, one per public command: request → every viewer
    problems: list[str]
    errors: int = 0  # failed connections of the load client (each command retried)

    @property
    def per_second(self) -> float:
        """Commands stored per second."""
        return self.commands / self.seconds

    def quantile(self, q: float) -> float:
        """A latency quantile in milliseconds."""
        if not self.latencies:
            return float("nan")
        cuts = statistics.quantiles(self.latencies, n=100, method="inclusive")
        return 1000 * cuts[max(0, min(98, round(q * 100) - 1))]


def http_client(connections: int) -> httpx.AsyncClient:
    """The load's HTTP client: one connection per writer, each kept alive KEEPALIVE s."""
    return httpx.AsyncClient(timeout=60, limits=httpx.Limits(
        max_connections=connections, max_keepalive_connections=connections,
        keepalive_expiry=KEEPALIVE))


async def post(http: httpx.AsyncClient, url: str, **kwargs: Any
               ) -> tuple[httpx.Response | None, int]:
    """POST, trying again (up to TRIES times) when the connection fails: the answer (None if
    every try failed) and how many tries failed. Sent again only with an idempotency key or
    to a server that applies it once."""
    failed = 0
    while failed < TRIES:
        try:
            return await http.post(url, **kwargs), failed
        except httpx.TransportError:
            failed += 1
    return None, failed


async def _listen(url: str, headers: dict[str, str], client: Client, stop: asyncio.Event
                  ) -> None:
    async with connect(url, additional_headers=headers, max_size=2**24,
                       open_timeout=60) as ws:
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                if stop.is_set():
                    return
                continue
            now = time.perf_counter()
            client.texts.append(text if isinstance(text, str) else text.decode())
            for entry in json.loads(text).get("entries", []):
                for event in entry.get("events", []):
                    marker = str(event.get("data", {}).get("text", ""))
                    if marker.startswith("c"):
                        client.arrivals.setdefault(marker, now)


async def run_load(bases: list[str], db: str, conflicts: int, seconds: float,
                   pause: float = 0.2, on_subscribed: Callable[[], object] | None = None
                   ) -> LoadResult:
    """Create ``conflicts`` conflicts, subscribe six viewers to each (spread over
    ``bases``), send commands for ``seconds`` (each writer waits ``pause`` after each
    answer) and check every viewer's frames. ``on_subscribed`` is called once every socket
    has its snapshot (the benchmark measures memory there)."""
    async with http_client(conflicts + 10) as http:
        made = (await http.post(bases[0] + "/api/tables", json={"title": "load"})).json()
        table, gm = made["table"], {"Authorization": f"Bearer {made['gm_token']}"}
        tokens = {"gm": made["gm_token"]}
        for who in ("alice", "bob"):
            r = await http.post(f"{bases[0]}/api/tables/{table}/links", headers=gm,
                                json={"role": "player", "player": who})
            tokens[who] = r.json()["token"]
        r = await http.post(f"{bases[0]}/api/tables/{table}/links", headers=gm,
                            json={"role": "public"})
        tokens["public"] = r.json()["token"]
        paths = []
        for _ in range(conflicts):
            r = await http.post(f"{bases[0]}/api/tables/{table}/conflicts", headers=gm,
                                json={"toml": LURKING, "seed": SEED})
            paths.append(f"/api/tables/{table}/conflicts/{r.json()['id']}")
        stop = asyncio.Event()
        problems: list[str] = []
        clients: dict[str, list[Client]] = {p: [] for p in paths}
        tasks = []
        n = 0
        for path in paths:
            for who in VIEWERS:
                client = Client(who)
                clients[path].append(client)
                url = "ws" + bases[n % len(bases)][4:] + path + "/live"
                n += 1
                tasks.append(asyncio.create_task(_listen(
                    url, {"Authorization": f"Bearer {tokens[who]}"}, client, stop)))
        while sum(len(c.texts) for cs in clients.values() for c in cs) < len(tasks):
            await asyncio.sleep(0.05)  # every socket has its snapshot
        if on_subscribed is not None:
            on_subscribed()
        sent: dict[str, tuple[str, float]] = {}  # marker → (path, time of request)
        acked: list[str] = []
        errors = 0
        started = time.perf_counter()
        deadline = started + seconds

        async def write(i: int, path: str) -> None:
            nonlocal errors
            k = 0
            await asyncio.sleep(pause * i / len(paths))  # writers out of step
            while time.perf_counter() < deadline:
                base = bases[(i + k) % len(bases)]
                marker = f"c{i} n{k}"
                secret = k % 2 == 1
                text = f"note 'h{marker}' visibility=gm" if secret else f"narrate '{marker}'"
                t0 = time.perf_counter()
                r, failed = await post(http, base + path + "/commands", headers=gm,
                                       json={"command": text, "key": marker})
                errors += failed
                if r is None:
                    problems.append(f"{marker}: no answer after {TRIES} tries")
                elif r.status_code == 200:
                    acked.append(marker)
                    if not secret:
                        sent[marker] = (path, t0)
                else:
                    problems.append(f"{marker}: answered {r.status_code} {r.text[:200]}")
                k += 1
                await asyncio.sleep(pause)

        await asyncio.gather(*(write(i, p) for i, p in enumerate(paths)))
        elapsed = time.perf_counter() - started
        await asyncio.sleep(2.0)  # let the last frames arrive
        stop.set()
        await asyncio.gather(*tasks)
    latencies = []
    for marker, (path, t0) in sent.items():
        times = [c.arrivals.get(marker) for c in clients[path]]
        if any(t is None for t in times):
            problems.append(f"{marker} did not reach every viewer")
        else:
            latencies.append(max(t for t in times if t is not None) - t0)
    for path, cs in clients.items():
        cid = path.rsplit("/", 1)[1]
        want = {who: stored_projection(db, cid, viewer_of(who)) for who in set(VIEWERS)}
        for c in cs:
            if followed(c.frames()) != want[c.viewer]:
                problems.append(f"{path} {c.viewer}: last view or log is not the projection")
            if c.viewer not in ("gm",) and any(m.startswith("h") for m in c.arrivals):
                problems.append(f"{path} {c.viewer}: a GM-only note reached a player")
        stored = [str(ev.get("data", {}).get("text", "")) for e in want["gm"][1]
                  for ev in e["events"]]
        for marker in (m for m in acked if m.startswith(f"c{paths.index(path)} ")):
            found = stored.count(marker) + stored.count("h" + marker)
            if found != 1:
                problems.append(f"{marker} stored {found} times")
    return LoadResult(len(acked), elapsed, latencies, problems, errors)
