"""A real ``fracas serve`` in a subprocess on a free loopback port, and small API clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """One running server process."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: str
    db: str

    @property
    def ws(self) -> str:
        """The WebSocket base URL."""
        return "ws" + self.url[len("http"):]

    def log(self) -> str:
        """What the server wrote on its stdout and stderr."""
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Stop the process (kill -9 by default) and wait for it."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        self.process.wait(timeout=20)


def start_server(db: str, log_path: str, *, workers: int = 1, port: int | None = None,
                 env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> Served:
    """Start ``fracas serve`` (with more ``args``) and wait until it answers."""
    port = port or free_port()
    cmd = [sys.executable, "-c", "from fracas.cli import main; main()", "serve",
           "--host", "127.0.0.1", "--port", str(port), "--db", db, "--workers", str(workers),
           *args]
    out = open(log_path, "ab")  # noqa: SIM115 - the child writes to it until it ends
    if not any(a.startswith("--rate-limit") for a in args):
        # the tests send far more than a table would (the default: test_rate_limit.py)
        cmd += ["--rate-limit", "100000"]
    full_env = {**os.environ, "FRACAS_LOG_LEVEL": "warning", **(env or {})}
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=full_env,
                            start_new_session=True)
    served = Served(f"http://127.0.0.1:{port}", proc, log_path, db)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"fracas serve ended early:\n{served.log()}")
        try:
            if httpx.get(served.url + "/api/scenarios", timeout=2).status_code == 200:
                return served
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    served.kill()
    raise RuntimeError(f"fracas serve did not answer:\n{served.log()}")


@contextmanager
def running(db: str, log_path: str, **kwargs: Any) -> Iterator[Served]:
    """A server for the duration of a block (ended by SIGTERM, then SIGKILL)."""
    served = start_server(db, log_path, **kwargs)
    try:
        yield served
    finally:
        if served.process.poll() is None:
            os.killpg(served.process.pid, signal.SIGTERM)
            try:
                served.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(served.process.pid, signal.SIGKILL)
                served.process.wait(timeout=10)


class Api:
    """An httpx client with one token, recording every response for the leak checks."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token
        self.client = httpx.Client(base_url=base, timeout=30)
        self.seen: list[str] = []  # every status line, header and body received

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        r = self.client.request(method, path, headers=headers, **kwargs)
        self.seen.append(json.dumps(dict(r.headers)) + "\n" + r.text)
        return r

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", path, **kwargs)

    def live(self, path: str, cursor: str | None = None) -> ClientConnection:
        ws = "ws" + self.base[len("http"):]
        query = f"?cursor={cursor}" if cursor else ""
        return connect(ws + path + "/live" + query, additional_headers=self.headers(),
                       open_timeout=20, max_size=2**24, legacy=True)


@dataclass
class Table:
    """A table made through the API: its id, the GM's client and helpers for links."""

    id: str
    gm: Api
    base: str

    def invite(self, player: str | None) -> Api:
        body = {"role": "player", "player": player} if player else {"role": "public"}
        r = self.gm.post(f"/api/tables/{self.id}/links", json=body)
        assert r.status_code == 201, r.text
        return Api(self.base, r.json()["token"])

    def conflict(self, scenario: str | None = None, toml: str | None = None,
                 seed: str | None = None, fresh: bool | None = None,
                 shown: bool | None = None) -> str:
        body: dict[str, Any] = {"scenario": scenario} if scenario else {"toml": toml}
        if seed:
            body["seed"] = seed
        if fresh is not None:
            body["fresh"] = fresh
        if shown is not None:
            body["shown"] = shown
        r = self.gm.post(f"/api/tables/{self.id}/conflicts", json=body)
        assert r.status_code == 201, r.text
        return f"/api/tables/{self.id}/conflicts/{r.json()['id']}"


def new_table(base: str, title: str = "Friday night") -> Table:
    """Create a table through the API."""
    r = httpx.post(base + "/api/tables", json={"title": title}, timeout=30)
    assert r.status_code == 201, r.text
    data = r.json()
    return Table(data["table"], Api(base, data["gm_token"]), base)


def frames_until_quiet(ws: ClientConnection, quiet: float = 0.6, limit: float = 20
                       ) -> list[dict[str, Any]]:
    """Every frame that arrives until none came for ``quiet`` seconds."""
    out = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            out.append(json.loads(ws.recv(timeout=quiet)))
        except TimeoutError:
            break
    return out
