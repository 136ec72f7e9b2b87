"""Live updates against a real server: resuming from an opaque cursor misses and doubles
nothing; a cursor tells nothing; another process's append (``fracas do`` on the same SQLite
file) reaches the sockets; SQLite refuses several workers."""

from __future__ import annotations

import json
import subprocess
import sys

from fracas.app.service import ConflictService
from fracas.engine.model import Viewer
from fracas.store import open_store
from tests.server.leakcheck import followed, stored_projection
from tests.server.scenarios import LURKING, SEED
from tests.server.support import ROOT, Served, frames_until_quiet, new_table


def test_resume_from_a_cursor_misses_and_doubles_nothing(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    cid = path.rsplit("/", 1)[1]
    alice = table.invite("alice")
    ws = alice.live(path)
    frames = [json.loads(ws.recv(timeout=20))]
    for n in range(3):
        table.gm.post(path + "/commands", json={"command": f"narrate 'first {n}'"})
    frames += frames_until_quiet(ws)
    ws.close()
    cursor = frames[-1]["cursor"]
    for n in range(3):
        table.gm.post(path + "/commands", json={"command": f"narrate 'away {n}'"})
        table.gm.post(path + "/commands", json={"command": "note 'hidden' visibility=gm"})
    again = alice.live(path, cursor=cursor)
    resumed = json.loads(again.recv(timeout=20))
    assert resumed["type"] == "resume"
    assert [e["events"][0]["data"].get("text") for e in resumed["entries"]
            if e["command"].startswith("narrate")] == ["away 0", "away 1", "away 2"]
    frames.append(resumed)
    table.gm.post(path + "/commands", json={"command": "narrate 'after'"})
    frames += frames_until_quiet(again)
    view, entries = followed(frames)
    want_view, want_log = stored_projection(server.db, cid, Viewer.of_player("alice"))
    assert (view, entries) == (want_view, want_log)
    # resuming from the newest cursor sends nothing to catch up on
    latest = alice.live(path, cursor=frames[-1]["cursor"])
    assert json.loads(latest.recv(timeout=20))["entries"] == []


def test_a_cursor_tells_nothing(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    alice = table.invite("alice")
    first = alice.get(path).json()["cursor"]
    for _ in range(20):  # records wholly hidden from Alice
        table.gm.post(path + "/commands", json={"command": "note 'x' visibility=gm"})
    later = alice.get(path).json()["cursor"]
    assert len(first) == len(later) and first != later  # sealed afresh every time
    ws = alice.live(path, cursor=first)
    assert json.loads(ws.recv(timeout=20))["entries"] == [], "hidden records add nothing"


def test_an_append_by_another_process_reaches_the_sockets(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict("vers-tavern-brawl")
    cid = path.rsplit("/", 1)[1]
    ws = table.invite("alice").live(path)
    ws.recv(timeout=20)
    subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()", "do", cid,
                    "narrate 'from the terminal'", "--db", server.db], cwd=ROOT, check=True,
                   capture_output=True, timeout=60)
    frames = frames_until_quiet(ws, quiet=2)
    assert any("from the terminal" in json.dumps(f) for f in frames)


def test_a_refused_command_still_brings_the_sockets_the_appends_it_read(server: Served) -> None:
    """A command that meets another process's append before this process heard of it (a
    terminal's ``fracas do``; on PostgreSQL, the other server process) reads that append and
    is then refused (from a screen the table moved past): the append still reaches every
    socket, once, as it reaches them when nothing is refused."""
    table = new_table(server.url)
    path = table.conflict("vers-tavern-brawl")
    cid = path.rsplit("/", 1)[1]
    ws = table.invite("alice").live(path)
    ws.recv(timeout=20)
    stale = table.gm.get(path).json()["cursor"]
    store = open_store(server.db, migrate=False)
    try:
        for n in range(5):  # each sent before the server's next look at the file, mostly
            ConflictService(store).execute(cid, f"narrate 'from the terminal {n}'")
            late = table.gm.post(path + "/commands",
                                 json={"command": "narrate 'late'", "cursor": stale})
            assert late.status_code == 409 and late.json()["code"] == "stale_version"
    finally:
        store.close()
    said = [e["events"][0]["data"]["text"] for f in frames_until_quiet(ws, quiet=2)
            for e in f["entries"]]
    assert said == [f"from the terminal {n}" for n in range(5)]


def test_sqlite_refuses_several_workers_with_a_reason(tmp_path: object) -> None:
    done = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                           "serve", "--workers", "2", "--db", "sqlite:///x.db"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "SQLite serves one process only" in " ".join(done.stderr.split())


def test_a_command_from_a_stale_screen_is_refused_and_its_retry_is_not(server: Served) -> None:
    """Two screens of the GM act on the table as they show it (their cursor): the second is
    refused, never merged; the answer's cursor is the screen after the command, and a retry of
    an applied command (its answer lost) is answered as applied, not as stale."""
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    seen = table.gm.get(path).json()["cursor"]
    first = table.gm.post(path + "/commands",
                          json={"command": "narrate 'from tab one'", "cursor": seen, "key": "k1"})
    assert first.status_code == 200, first.text
    late = table.gm.post(path + "/commands",
                         json={"command": "narrate 'from tab two'", "cursor": seen, "key": "k2"})
    assert late.status_code == 409 and late.json()["code"] == "stale_version"
    again = table.gm.post(path + "/commands",
                          json={"command": "narrate 'from tab one'", "cursor": seen, "key": "k1"})
    assert again.status_code == 200 and again.json()["duplicate"] is True
    follow = table.gm.post(path + "/commands", json={"command": "narrate 'next'",
                                                     "cursor": first.json()["cursor"]})
    assert follow.status_code == 200, follow.text
    said = [e["command"] for e in table.gm.get(path).json()["log"]]
    assert "narrate 'from tab two'" not in said and said.count("narrate 'from tab one'") == 1


def test_a_glance_at_a_conflict_leaves_its_log_out(server: Served) -> None:
    """A player's page glances at the table's other conflicts (is it her turn there?) without
    fetching their logs: the view is the one she may see, the log is not sent."""
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    alice = table.invite("alice")
    for n in range(30):
        table.gm.post(path + "/commands", json={"command": f"narrate 'line {n}'"})
    whole, glance = alice.get(path).json(), alice.get(path + "?log=false")
    assert glance.status_code == 200 and "log" not in glance.json()
    assert glance.json()["view"] == whole["view"] and len(whole["log"]) > 30
    assert len(glance.content) * 2 < len(alice.get(path).content)
