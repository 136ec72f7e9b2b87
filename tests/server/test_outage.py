"""The database going away under a running ``fracas serve`` on PostgreSQL (its database
closed to connections, every connection to it cut, then opened again): requests are refused
with a 503 and a sentence, a page's socket opened meanwhile is told so and closed for a retry,
the server's log holds no traceback, and everything works again once the database is back."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import pg_url_or_skip
from tests.server.support import frames_until_quiet, new_table, running
from tests.support.pg import reset_pg

OUT_OF_REACH = ("nothing was done: the database is out of reach or failed; try again in a "
                "moment")


@contextmanager
def database_away(url: str) -> Iterator[None]:
    """The database of ``url`` refuses connections and every open one is cut, until the end
    of the block (the cluster itself keeps running: other databases are untouched)."""
    name = make_url(url).database
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = :name AND pid <> pg_backend_pid()"),
                         {"name": name})
        yield
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()


@pytest.mark.timeout(300)
def test_the_database_going_away_is_said_and_got_over(tmp_path: Path) -> None:
    url = pg_url_or_skip()
    reset_pg(url)
    with running(url, str(tmp_path / "server.log")) as served:
        table = new_table(served.url)
        path = table.conflict("vers-tavern-brawl")
        alice = table.invite("alice")
        watching = alice.live(path)
        watching.recv(timeout=20)
        with database_away(url):
            read = alice.get(path)
            assert read.status_code == 503 and read.json()["message"] == OUT_OF_REACH
            sent = table.gm.post(path + "/commands", json={"command": "narrate 'meanwhile'"})
            assert sent.status_code == 503 and sent.json()["message"] == OUT_OF_REACH
            late = alice.live(path)  # a page (re)opened meanwhile: told why, closed to retry
            frame = json.loads(late.recv(timeout=30))
            assert frame == {"type": "error", "error": {
                "code": "internal_error", "message": OUT_OF_REACH, "rule": None,
                "values": {}}}
            with pytest.raises(ConnectionClosed) as closed:
                late.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        answer = None
        for _ in range(100):  # the pool's connections were cut: it opens new ones
            answer = table.gm.post(path + "/commands", json={"command": "narrate 'back'"})
            if answer.status_code == 200:
                break
            time.sleep(0.2)
        assert answer is not None and answer.status_code == 200, answer.text
        said = [e["command"] for f in frames_until_quiet(watching, quiet=2)
                for e in f["entries"]]
        assert said == ["narrate back"]  # the socket open all along hears of it
        assert json.loads(alice.live(path).recv(timeout=20))["type"] == "snapshot"
        assert "Traceback" not in served.log()


@pytest.mark.timeout(300)
def test_the_servers_log_says_what_keeps_the_database_away(tmp_path: Path) -> None:
    """Whoever runs the server reads in its log why requests are refused, in PostgreSQL's own
    words (not a password, not a value), and when it is over. Before: *database error:
    OperationalError* and *listening for changes failed (OperationalError)*, with nothing to
    say what to look at, nor that the server had got over it."""
    url = pg_url_or_skip()
    reset_pg(url)
    name = make_url(url).database
    with running(url, str(tmp_path / "server.log")) as served:
        table = new_table(served.url)
        path = table.conflict("vers-tavern-brawl")
        with database_away(url):
            assert table.gm.get(path).status_code == 503
            for _ in range(100):  # the listening connection, cut, tries again every second
                if "listening for changes failed (OperationalError: " in served.log():
                    break
                time.sleep(0.2)
        for _ in range(100):  # and says when it is over
            if "listening for changes again" in served.log():
                break
            time.sleep(0.2)
        log = served.log()
    refused = f'database "{name}" is not currently accepting connections'
    said = [line for line in log.splitlines() if line.startswith("database error: ")]
    assert said and all(refused in line for line in said), said
    assert "listening for changes failed (OperationalError: " in log
    assert log.rindex("listening for changes again") > log.rindex("listening for changes failed")
    assert "Traceback" not in log and "[SQL:" not in log
