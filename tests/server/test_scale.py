"""Scale-out against real processes on one PostgreSQL: a command sent to one process reaches
the sockets of the other (LISTEN/NOTIFY), a revocation closes sockets on every process, and a
process killed with SIGKILL mid-play loses no acknowledged command while its clients resume
on the other process from their cursors."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from fracas.engine.model import Viewer
from tests.server.leakcheck import followed, stored_projection
from tests.server.support import (
    Api,
    Served,
    frames_until_quiet,
    free_port,
    new_table,
    start_server,
)

pytestmark = pytest.mark.postgres


def test_a_command_on_one_process_reaches_sockets_on_the_other(
        pg_servers: tuple[Served, Served]) -> None:
    a, b = pg_servers
    table = new_table(a.url)
    path = table.conflict("vers-tavern-brawl")
    alice = table.invite("alice")
    alice_b = Api(b.url, alice.token)
    ws = alice_b.live(path)
    ws.recv(timeout=20)
    assert table.gm.post(path + "/commands",
                         json={"command": "narrate 'heard everywhere'"}).status_code == 200
    frames = frames_until_quiet(ws, quiet=2)
    assert any("heard everywhere" in json.dumps(f) for f in frames)
    # a link revoked on one process closes its sockets on the other at once
    link = next(x["id"] for x in table.gm.get(f"/api/tables/{table.id}/links").json()
                if x["player"] == "alice")
    table.gm.delete(f"/api/tables/{table.id}/links/{link}")
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_kill_9_loses_no_acknowledged_command(pg_servers: tuple[Served, Served],
                                             tmp_path: object) -> None:
    from tests.server.support import start_server

    a, b = pg_servers
    victim = start_server(b.db, str(a.log_path) + ".victim")
    table = new_table(victim.url)
    path = table.conflict("vers-tavern-brawl")
    cid = path.rsplit("/", 1)[1]
    alice = table.invite("alice")
    ws = Api(victim.url, alice.token).live(path)
    frames = [json.loads(ws.recv(timeout=20))]
    acked: list[str] = []
    stop = threading.Event()

    def flow() -> None:
        n = 0
        client = httpx.Client(timeout=5)
        while not stop.is_set() and n < 400:
            key, text = f"k{n}", f"narrate 'line {n}'"
            for base in (victim.url, b.url):  # on failure, retry the same key elsewhere
                try:
                    r = client.post(base + path + "/commands", headers=table.gm.headers(),
                                    json={"command": text, "key": key})
                except httpx.TransportError:
                    continue
                if r.status_code == 200:
                    acked.append(text)
                    break
            n += 1

    worker = threading.Thread(target=flow)
    worker.start()
    while len(acked) < 30:
        frames.append(json.loads(ws.recv(timeout=20)))
    victim.kill()  # SIGKILL, mid-flow
    with pytest.raises(ConnectionClosed):
        while True:
            frames.append(json.loads(ws.recv(timeout=20)))
    resumed = Api(b.url, alice.token).live(path, cursor=frames[-1]["cursor"])
    frames.append(json.loads(resumed.recv(timeout=20)))
    assert frames[-1]["type"] == "resume"
    while len(acked) < 60:
        frames += frames_until_quiet(resumed, quiet=0.3)
    stop.set()
    worker.join(timeout=60)
    frames += frames_until_quiet(resumed, quiet=2)
    view, entries = followed(frames)
    want_view, want_log = stored_projection(b.db, cid, Viewer.of_player("alice"))
    assert (view, entries) == (want_view, want_log), "missed or doubled entries"
    texts = [e["events"][0]["data"]["text"] for e in want_log
             if e["command"].startswith("narrate")]
    for text in acked:  # every acknowledged command is stored exactly once
        assert texts.count(text.split("'")[1]) == 1, text


def test_workers_2_serves_one_postgresql(pg_servers: tuple[Served, Served],
                                         tmp_path: object) -> None:
    from tests.server.support import running

    a, _ = pg_servers
    with running(a.db, str(a.log_path) + ".workers", workers=2) as served:
        table = new_table(served.url)
        path = table.conflict("vers-tavern-brawl")
        sockets = [table.invite("alice").live(path) for _ in range(6)]
        for ws in sockets:
            ws.recv(timeout=20)
        for n in range(4):
            r = table.gm.post(path + "/commands", json={"command": f"narrate 'w{n}'"})
            assert r.status_code == 200
        for ws in sockets:  # whichever worker each socket landed on
            text = json.dumps(frames_until_quiet(ws, quiet=2))
            assert all(f"w{n}" in text for n in range(4))



def _free(port: int) -> bool:
    """Whether a server could listen on ``port`` now (as ``fracas serve`` asks first)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _stop(served: Served) -> None:
    """End a server's whole process group (its workers, whoever their parent now is)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(served.process.pid, signal.SIGKILL)
    served.process.wait(timeout=20)


@pytest.mark.timeout(180)
def test_a_server_whose_main_process_is_killed_can_be_started_again(
        pg_servers: tuple[Served, Served], tmp_path: Path) -> None:
    """``kill -9`` of ``fracas serve --workers 2`` (the process that started the workers):
    its workers stop too, and the server starts again on the same port, every command kept.
    Before: the workers went on serving, unseen, holding the port, so that starting the server
    again was refused (*port … is already in use*) until someone found and killed them."""
    a, _ = pg_servers
    port = free_port()
    log = str(tmp_path / "workers.log")
    served = start_server(a.db, log, workers=2, port=port)
    again = None
    try:
        table = new_table(served.url)
        path = table.conflict("vers-tavern-brawl")
        said = table.gm.post(path + "/commands", json={"command": "narrate 'before the crash'"})
        assert said.status_code == 200
        served.kill()  # `kill -9 PID` of the process `fracas serve` is: not its workers
        deadline = time.monotonic() + 90
        while not _free(port):  # once the workers have noticed and stopped
            assert time.monotonic() < deadline, "the killed server's workers hold its port"
            time.sleep(1)
        again = start_server(a.db, log, workers=2, port=port)
        assert again.process.poll() is None, again.log()
        assert "before the crash" in json.dumps(table.gm.get(path).json()["log"])
    finally:
        _stop(served)
        if again is not None:
            _stop(again)
