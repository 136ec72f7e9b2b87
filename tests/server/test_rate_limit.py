"""The per-client request limit against a real server: a token bucket per token and per
address; beyond it 429 with Retry-After and a clear ``rate_limited`` error, nothing done, and
the server keeps serving everyone else."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from fracas.server.limits import REQUEST_BURST, REQUEST_RATE
from fracas.web import ASSETS
from tests.server.support import new_table, running


def _burst(client: httpx.Client, n: int, **kwargs: object) -> list[httpx.Response]:
    return [client.get("/api/me", **kwargs) for _ in range(n)]  # type: ignore[arg-type]


def test_a_token_over_its_limit_is_told_when_to_retry(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "2/8")) as served:
        table = new_table(served.url)
        alice = table.invite("alice")
        path = table.conflict("vers-tavern-brawl")
        gm = httpx.Client(base_url=served.url, headers=table.gm.headers(), timeout=30)
        answers = _burst(gm, 12)
        codes = [r.status_code for r in answers]
        assert codes[:5] == [200] * 5 and 429 in codes, codes
        refused = answers[codes.index(429)]
        assert refused.json()["code"] == "rate_limited"
        assert "at most 2 a second per token (bursts of 8)" in refused.json()["message"]
        retry = int(refused.headers["retry-after"])
        assert 1 <= retry <= 2
        assert refused.headers["x-content-type-options"] == "nosniff"
        # a refused command is not played; the accepted ones are
        played, i = [], 0
        while (r := gm.post(path + "/commands",
                            json={"command": f"narrate 'flood {i}'"})).status_code == 200:
            played.append(f"flood {i}")
            i += 1
        assert r.status_code == 429
        # another token of the same address is not held back by the GM's
        assert alice.get("/api/me").status_code == 200
        time.sleep(retry + 0.6)
        after = gm.get(path)
        assert after.status_code == 200
        told = " ".join(line for e in after.json()["log"] for line in e["lines"])
        assert all(p in told for p in played)
        assert f"flood {i}" not in told


def test_the_default_limit_holds_back_a_flood_and_not_a_table(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "")) as served:
        table = new_table(served.url)
        gm = httpx.Client(base_url=served.url, headers=table.gm.headers(), timeout=30)
        codes = [r.status_code for r in _burst(gm, int(REQUEST_BURST) + 40)]
        assert codes[:int(REQUEST_BURST)] == [200] * int(REQUEST_BURST)
        assert 429 in codes
        time.sleep(2)  # refilled at REQUEST_RATE a second: a table's pace passes
        paced = []
        for _ in range(8):
            paced.append(gm.get("/api/me").status_code)
            time.sleep(2 / REQUEST_RATE)
        assert paced == [200] * 8


def test_floods_without_a_token_are_limited_by_address(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "1/2")) as served:
        anyone = httpx.Client(base_url=served.url, timeout=30)
        # random tokens are no way around it: each request also counts for its address
        codes = [anyone.get("/api/me", headers={"Authorization": f"Bearer x{i}"}).status_code
                 for i in range(30)]
        assert codes[:5] == [401] * 5 and codes[-1] == 429, codes
        assert anyone.get("/api/scenarios").status_code == 429


def _page_files() -> list[str]:
    """The table page's static files (its modules, style sheet and icon)."""
    return sorted("/static/" + p.relative_to(ASSETS).as_posix() for p in ASSETS.rglob("*")
                  if p.suffix in (".js", ".css", ".svg"))


def test_a_page_s_own_files_spend_nothing_of_its_link_s_limit(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "2/8")) as served:
        table = new_table(served.url)
        alice = table.invite("alice")
        browser = httpx.Client(base_url=served.url, timeout=30,
                               cookies={"fracas_token": alice.token or ""})
        files = _page_files()
        assert len(files) > 8  # more than the link's whole burst
        for _ in range(2):  # a page load and a reload, each with every file
            assert browser.get(f"/table/{table.id}").status_code == 200
            assert [browser.get(f).status_code for f in files] == [200] * len(files)
        assert browser.get("/api/me").json()["player"] == "alice"
        # a flood of static files is held back by address, and still leaves the API alone
        codes = [browser.get(files[0]).status_code for _ in range(400)]
        assert 429 in codes
        assert browser.get("/api/me").status_code == 200
        assert alice.get("/api/me").status_code == 200
        # a static path is no way around the limit for the API
        for _ in range(10):
            browser.post(files[0])
        assert browser.get("/api/me").status_code == 429
