"""Durability on SQLite: a ``fracas serve`` process killed with SIGKILL while commands flow
loses no acknowledged command, with either commit setting (``--sync full``: every commit
waits for the disk; ``--sync normal``: a commit survives a crash of the process, not of the
machine), and a server started again on the file serves them all."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest

from fracas.engine.model import Viewer
from tests.server.leakcheck import stored_projection
from tests.server.support import new_table, running, start_server


@pytest.mark.timeout(300)
@pytest.mark.parametrize("sync", ["full", "normal"])
def test_kill_9_loses_no_acknowledged_command(tmp_path: Path, sync: str) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    victim = start_server(db, str(tmp_path / "victim.log"), args=("--sync", sync))
    table = new_table(victim.url)
    path = table.conflict("vers-tavern-brawl")
    acked: list[str] = []
    stop = threading.Event()

    def flow() -> None:
        with httpx.Client(timeout=5) as client:
            for n in range(400):
                if stop.is_set():
                    return
                text = f"narrate 'line {n}'"
                try:
                    r = client.post(victim.url + path + "/commands",
                                    headers=table.gm.headers(), json={"command": text})
                except httpx.TransportError:
                    return  # the server is gone
                if r.status_code == 200:
                    acked.append(text.split("'")[1])

    worker = threading.Thread(target=flow)
    worker.start()
    while len(acked) < 40 and worker.is_alive():
        stop.wait(0.01)
    victim.kill()  # SIGKILL, mid-flow
    stop.set()
    worker.join(timeout=60)
    assert len(acked) >= 40
    cid = path.rsplit("/", 1)[1]
    _, log = stored_projection(db, cid, Viewer.gm())
    stored = [e["events"][0]["data"]["text"] for e in log if e["command"].startswith("narrate")]
    for text in acked:  # every acknowledged command is stored exactly once
        assert stored.count(text) == 1, text
    with running(db, str(tmp_path / "again.log"), args=("--sync", sync)) as again:
        r = httpx.get(again.url + path, headers=table.gm.headers(), timeout=30)
        assert r.status_code == 200
        texts = [ev["data"].get("text") for e in r.json()["log"] for ev in e["events"]]
        assert all(t in texts for t in acked)
