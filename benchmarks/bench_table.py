"""The table in a browser: time from a GM's click to the change on two players' pages, beside
the server's own figure for the same path without browsers (an HTTP command → its entry at two
WebSocket clients), and the page weight of the GM's and a player's screen.

Real ``fracas serve`` on loopback, Debian's Chromium driven by Playwright, three contexts.
Run: ``.venv/bin/python benchmarks/bench_table.py [--commands 40]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.server.support import running  # noqa: E402
from tests.web.browser import (  # noqa: E402
    Screen,
    chromium,
    invite,
    join,
    start_table,
    upload_scenario,
)
from tests.web.scenarios import VERS  # noqa: E402


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _weight(screen: Screen) -> int:
    """Bytes of the HTML, JavaScript and CSS the page loaded (its images and API excluded)."""
    total = 0
    for entry in json.loads(screen.page.evaluate(
            "() => JSON.stringify(performance.getEntriesByType('resource')"
            ".concat(performance.getEntriesByType('navigation'))"
            ".map(e => [e.name, e.decodedBodySize]))")):
        name, size = entry
        if name.endswith((".js", ".css")) or "/table/" in name:
            total += int(size)
    return total


def browser_figures(url: str, commands: int, tmp: Path) -> tuple[list[float], int, int]:
    """GM click → the entry on both players' pages (ms), and the two page weights."""
    with chromium() as browser:
        gm = start_table(browser, url)
        upload_scenario(gm, VERS, tmp)
        alice = join(browser, invite(gm, "alice"))
        bob = join(browser, invite(gm, "bob"))
        line = gm.page.locator("section.actor[data-actor='gm'] form.command-line")
        times = []
        for i in range(commands):
            text = f"narrate 'bench {i:03d}'"
            line.locator("input").fill(text)
            start = time.perf_counter()
            line.get_by_role("button", name="Send").click()
            for p in (alice, bob):
                p.page.locator(".log .said", has_text=f"bench {i:03d}").first.wait_for()
            times.append((time.perf_counter() - start) * 1000)
        return times, _weight(gm), _weight(alice)


def api_figures(url: str, commands: int) -> list[float]:
    """The same path without browsers: an HTTP command → its entry at two WebSocket clients."""
    client = httpx.Client(base_url=url, timeout=30)
    made = client.post("/api/tables", json={"title": "bench"}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    t = made["table"]
    cid = client.post(f"/api/tables/{t}/conflicts", headers=gm, json={"toml": VERS}).json()["id"]
    tokens = [client.post(f"/api/tables/{t}/links", headers=gm,
                          json={"role": "player", "player": p}).json()["token"]
              for p in ("alice", "bob")]
    ws_url = url.replace("http", "ws", 1) + f"/api/tables/{t}/conflicts/{cid}/live"
    times = []
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(
            ws_url, additional_headers={"Authorization": f"Bearer {tok}"})) for tok in tokens]
        for s in sockets:
            s.recv()  # the snapshot
        for i in range(commands):
            start = time.perf_counter()
            client.post(f"/api/tables/{t}/conflicts/{cid}/commands", headers=gm,
                        json={"command": f"narrate 'api {i:03d}'"})
            for s in sockets:
                while f"api {i:03d}" not in str(s.recv()):
                    pass
            times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            running(f"sqlite:///{tmp}/bench.db", f"{tmp}/server.log") as served:
        api = api_figures(served.url, args.commands)
        clicks, gm_bytes, player_bytes = browser_figures(served.url, args.commands, Path(tmp))
    print(f"GM click → entry on 2 players' pages: p50 {_p(clicks, .5):.0f} ms, "
          f"p95 {_p(clicks, .95):.0f} ms ({len(clicks)} commands)")
    print(f"baseline, HTTP command → entry at 2 WebSocket clients: p50 {_p(api, .5):.0f} ms, "
          f"p95 {_p(api, .95):.0f} ms (mean {statistics.mean(api):.0f} ms)")
    print(f"page weight (HTML+JS+CSS, uncompressed): GM {gm_bytes:,} B · player "
          f"{player_bytes:,} B")


if __name__ == "__main__":
    main()
