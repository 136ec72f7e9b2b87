"""The browser table's assets: shipped in the package, written for the project, offline, and
served with a policy that lets no other script run."""

from __future__ import annotations

import math
import re

import httpx
from playwright.sync_api import Browser, expect

from fracas.engine.limits import MAX_SCENARIO_BYTES
from fracas.server.limits import MAX_BODY
from fracas.web import ASSETS
from tests.server.support import Served

SOURCES = sorted(p for p in ASSETS.rglob("*") if p.suffix in {".html", ".js", ".css"})


def test_the_pages_fetch_nothing_from_another_origin() -> None:
    assert {p.name for p in SOURCES} >= {"index.html", "table.html", "table.js", "fracas.css"}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path  # no CDN, works offline
        assert "import(" not in text and "from \"http" not in text, path


def test_no_script_ever_parses_text_as_markup() -> None:
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{path.name} uses {sink}: names must go in as text"


def test_the_gm_screen_knows_the_servers_limit_on_an_imported_file() -> None:
    # a larger file is refused on the page, not sent to be refused unread (exchange.js)
    text = (ASSETS / "js" / "exchange.js").read_text(encoding="utf-8")
    found = re.search(r"export const MAX_FILE = ([0-9 *]+);", text)
    assert found, "exchange.js names its limit"
    assert math.prod(int(n) for n in found.group(1).split("*")) == MAX_BODY
    scenario = re.search(r"export const MAX_SCENARIO = ([0-9]+);", text)
    assert scenario and int(scenario.group(1)) == MAX_SCENARIO_BYTES  # a scenario file's


def test_the_pages_are_served_with_a_strict_policy(served: Served) -> None:
    for path in ("/", "/table/tnothere", "/table/tnothere/c1"):
        answer = httpx.get(served.url + path)
        assert answer.status_code == 200
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
    js = httpx.get(served.url + "/static/js/table.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert httpx.get(served.url + "/static/js/nothere.js").status_code == 404


def test_only_the_gm_draws_qr_codes(served: Served) -> None:
    made = httpx.post(served.url + "/api/tables", json={"title": "qr"}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    svg = httpx.post(served.url + "/api/qr", json={"text": made["gm_link"]}, headers=gm)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<svg") and "<script" not in svg.text
    link = httpx.post(f"{served.url}/api/tables/{made['table']}/links", headers=gm,
                      json={"role": "player", "player": "alice"}).json()
    player = {"Authorization": f"Bearer {link['token']}"}
    refused = httpx.post(served.url + "/api/qr", json={"text": "x"}, headers=player)
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert httpx.post(served.url + "/api/qr", json={"text": "x"}).status_code == 401
    too_long = httpx.post(served.url + "/api/qr", json={"text": "x" * 1001}, headers=gm)
    assert too_long.status_code == 422
    overflow = httpx.post(served.url + "/api/qr", json={"text": "\U0001F600" * 1000},
                          headers=gm)
    assert overflow.status_code == 422 and "a QR code holds" in overflow.json()["message"]
    for control in ("http://x/\x00", "line\nbreak", "\u202eevil"):
        refused = httpx.post(served.url + "/api/qr", json={"text": control}, headers=gm)
        assert refused.status_code == 422
        assert "control or text-direction characters" in refused.json()["message"]


def test_the_api_documentation_page_works_offline(served: Served, browser: Browser) -> None:
    # /docs (Swagger UI) is served from this server: on a table with no internet it draws the
    # API, and asks no other origin for anything
    context = browser.new_context()
    elsewhere: list[str] = []
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:)"),
                  lambda route: (elsewhere.append(route.request.url), route.abort()))
    page = context.new_page()
    try:
        page.goto(served.url + "/docs")
        expect(page.locator(".opblock-summary-path", has_text="/api/tables").first
               ).to_be_visible()
    finally:
        context.close()
    assert elsewhere == []
