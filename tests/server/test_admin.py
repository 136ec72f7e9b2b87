"""Who may create a table on a real server: anyone on the server's own machine, whoever holds
the admin secret `fracas serve` printed (kept only as a digest), or anyone with --open."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import httpx

from fracas.store import open_store
from tests.server.support import Served, running

#: Seen by the server as a client on the network (uvicorn trusts X-Forwarded-For from the
#: loopback address, as from a reverse proxy on the same machine).
REMOTE = {"X-Forwarded-For": "192.0.2.7"}


def _admin_secret(served: Served) -> str | None:
    found = re.findall(r"admin link .*?/join#([\w-]+)", served.log())
    return found[-1] if found else None


def _create(served: Served, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(served.url + "/api/tables", json={"title": "Friday"}, headers=headers,
                      timeout=30)


def test_only_this_machine_or_the_admin_link_creates_tables(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "a.log")) as served:
        secret = _admin_secret(served)
        assert secret is not None and len(secret) >= 43
        assert _create(served, {}).status_code == 201  # the GM's own machine
        refused = _create(served, REMOTE)
        assert refused.status_code == 401
        assert refused.json()["code"] == "not_authenticated"
        assert "admin" in refused.json()["message"]
        wrong = _create(served, {**REMOTE, "Authorization": "Bearer " + "x" * 43})
        assert wrong.status_code == 401
        made = _create(served, {**REMOTE, "Authorization": f"Bearer {secret}"})
        assert made.status_code == 201 and made.json()["gm_token"] != secret
        # the admin secret opens no table
        assert httpx.get(served.url + "/api/me", headers={"Authorization": f"Bearer {secret}"},
                         timeout=30).status_code == 401
        # a browser opening the admin link keeps it in the cookie, then may create tables
        browser = httpx.Client(base_url=served.url, headers=REMOTE, timeout=30)
        kept = browser.post("/api/session", headers={"Authorization": f"Bearer {secret}"})
        assert kept.json() == {"table": None, "role": "admin", "player": None}
        assert "httponly" in kept.headers["set-cookie"].lower()
        assert browser.post("/api/tables", json={"title": "Saturday"}).status_code == 201
    store = open_store(db, migrate=False)
    try:  # only the digest is stored
        assert store.admin_digest() == hashlib.sha256(secret.encode()).hexdigest()
    finally:
        store.close()
    with running(db, str(tmp_path / "b.log")) as again:  # kept across restarts
        assert _admin_secret(again) is None
        assert _create(again, {**REMOTE, "Authorization": f"Bearer {secret}"}
                       ).status_code == 201
    with running(db, str(tmp_path / "c.log"), args=("--new-admin-secret",)) as renewed:
        new = _admin_secret(renewed)
        assert new is not None and new != secret
        assert _create(renewed, {**REMOTE, "Authorization": f"Bearer {secret}"}
                       ).status_code == 401
        assert _create(renewed, {**REMOTE, "Authorization": f"Bearer {new}"}
                       ).status_code == 201


def test_open_lets_anyone_create_tables(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "a.log"), args=("--open",)) as served:
        assert _create(served, REMOTE).status_code == 201
        assert "--open" in served.log()


def test_the_first_lines_come_out_whole_in_a_log_whatever_its_width(tmp_path: Path) -> None:
    """A log (or a narrow console) gets each first line whole: its links copy as they are."""
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "a.log"), env={"COLUMNS": "40"}) as served:
        lines = served.log().splitlines()
    serving = next(line for line in lines if line.startswith("fracas serving"))
    assert serving.endswith(f"open {served.url}/ to start a table in your browser "
                            "(docs/table.md)"), lines
    admin = next(line for line in lines if line.startswith("tables may be created"))
    assert re.search(r"makes another\): http://127\.0\.0\.1:\d+/join#[\w-]{43}$", admin), lines
