"""A convention table: a GM and eight players, each on their own page, and a public screen,
on one ``fracas serve``; beside it, in the same run, the same commands to ten bare WebSocket
clients (what ``bench_server.py`` measures: no page asks anything after a frame).

A Fabula Ultima ambush of eight heroes (their side on turn, so every hero's page offers its
attack, spell and check), the GM narrating COMMANDS times. Figures: the GM's click → the
entry on all nine other pages (p50 / p95), the requests the pages make per command, and the
server's CPU time per command — with pages, and with bare sockets.

Real ``fracas serve`` on loopback, Debian's Chromium driven by Playwright (one browser, a
context per person). Run: ``.venv/bin/python benchmarks/bench_crowd.py [--commands 30]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from benchmarks.bench_server import _cpu_seconds  # noqa: E402
from benchmarks.bench_table import _p  # noqa: E402
from playwright.sync_api import Request  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.server.support import Served, running  # noqa: E402
from tests.web.browser import (  # noqa: E402
    PHONE,
    chromium,
    command,
    invite,
    join,
    open_screen,
    start_table,
    upload_scenario,
)
from tests.web.scenarios import EIGHT, fabula_table_of_eight  # noqa: E402

#: The heroes' initiative, led by Ada with every other hero's support: two dice of each
#: supporter, then the leader's two (they act first).
INITIATIVE = "ada: initiative dice=" + ",".join(["6"] * 2 * len(EIGHT))


def with_pages(served: Served, commands: int, tmp: Path) -> tuple[list[float], float, float]:
    """Click → entry on nine pages (ms), requests per command, server CPU ms per command."""
    asked: list[str] = []

    def record(request: Request) -> None:
        if "/api/" in request.url:
            asked.append(request.url)

    with chromium() as browser:
        gm = start_table(browser, served.url)
        upload_scenario(gm, fabula_table_of_eight(), tmp)
        command(gm, "gm", INITIATIVE)
        others = [join(browser, invite(gm, player)) for player, _ in EIGHT]
        others.append(open_screen(browser, invite(gm, None), {"width": 1920, "height": 1080}))
        for screen in others[:-1]:
            screen.page.set_viewport_size(PHONE)
        for screen in (gm, *others):
            screen.page.on("request", record)
        line = gm.page.locator("section.actor[data-actor='gm'] form.command-line")
        time.sleep(2)  # every page settled
        asked.clear()
        cpu = _cpu_seconds([served.process.pid])
        times = []
        for i in range(commands):
            line.locator("input").fill(f"narrate 'crowd {i:03d}'")
            start = time.perf_counter()
            line.get_by_role("button", name="Send").click()
            for screen in others:
                screen.page.locator(".log .said", has_text=f"crowd {i:03d}").first.wait_for()
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(1.0)  # the load test's pace: every page's asking done
        cpu = _cpu_seconds([served.process.pid]) - cpu
        return times, len(asked) / commands, cpu * 1000 / commands


def with_sockets(served: Served, commands: int) -> tuple[list[float], float]:
    """The same commands to ten WebSocket clients: HTTP command → entry at all (ms), and the
    server's CPU ms per command."""
    client = httpx.Client(base_url=served.url, timeout=30)
    made = client.post("/api/tables", json={"title": "bench"}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    t = made["table"]
    cid = client.post(f"/api/tables/{t}/conflicts", headers=gm,
                      json={"toml": fabula_table_of_eight()}).json()["id"]
    path = f"/api/tables/{t}/conflicts/{cid}"
    client.post(path + "/commands", headers=gm, json={"command": INITIATIVE})
    links = [{"role": "player", "player": p} for p, _ in EIGHT] + [{"role": "public"}]
    tokens = [made["gm_token"], *(client.post(f"/api/tables/{t}/links", headers=gm,
                                              json=link).json()["token"] for link in links)]
    ws_url = served.ws + path + "/live"
    times = []
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(
            ws_url, additional_headers={"Authorization": f"Bearer {tok}"})) for tok in tokens]
        for s in sockets:
            s.recv()  # the snapshot
        cpu = _cpu_seconds([served.process.pid])
        for i in range(commands):
            start = time.perf_counter()
            client.post(path + "/commands", headers=gm,
                        json={"command": f"narrate 'api {i:03d}'"})
            for s in sockets:
                while f"api {i:03d}" not in str(s.recv()):
                    pass
            times.append((time.perf_counter() - start) * 1000)
        cpu = _cpu_seconds([served.process.pid]) - cpu
    return times, cpu * 1000 / commands


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            running(f"sqlite:///{tmp}/bench.db", f"{tmp}/server.log") as served:
        api, api_cpu = with_sockets(served, args.commands)
        clicks, requests, pages_cpu = with_pages(served, args.commands, Path(tmp))
    print(f"GM click → entry on 9 pages (8 phones, a TV): p50 {_p(clicks, .5):.0f} ms, "
          f"p95 {_p(clicks, .95):.0f} ms ({len(clicks)} commands)")
    print(f"  the pages' API requests per command: {requests:.1f}; "
          f"server CPU per command: {pages_cpu:.1f} ms")
    print(f"baseline, HTTP command → entry at 10 WebSocket clients: p50 {_p(api, .5):.0f} ms, "
          f"p95 {_p(api, .95):.0f} ms; server CPU per command: {api_cpu:.1f} ms")


if __name__ == "__main__":
    main()
