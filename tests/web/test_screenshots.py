"""Pictures of the product for README.md and docs/table.md: the GM's screen and a player's
phone screen of each ruleset, made through the pages like any other browser test.

Run (writes docs/images/*.png): ``FRACAS_SCREENSHOTS=1 .venv/bin/pytest tests/web -k screenshots``
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import (
    command,
    create_from_example,
    invite,
    join,
    start_table,
    upload_scenario,
)
from tests.web.scenarios import FABULA, XSS

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
pytestmark = pytest.mark.skipif(os.environ.get("FRACAS_SCREENSHOTS") != "1",
                                reason="pictures only on demand: FRACAS_SCREENSHOTS=1")


@pytest.mark.parametrize("ruleset", ["etherscope", "fabula-ultima", "vers"])
def test_screenshots(browser: Browser, served: Served, tmp_path: Path, ruleset: str) -> None:
    gm = start_table(browser, served.url, "Friday night")
    if ruleset == "fabula-ultima":  # the bundled examples end their conflict: show a round
        for_docs = FABULA.replace(XSS, "Red imp").replace("hp = 3917, mp = 2953",
                                                          "hp = 40, mp = 20")
        assert "Red imp" in for_docs and "hp = 40" in for_docs  # not the leak tests' markers
        upload_scenario(gm, for_docs, tmp_path)
    else:
        create_from_example(gm, {"etherscope": "etherscope-car-chase",
                                 "vers": "vers-tavern-brawl"}[ruleset], story=True)
    alice = join(browser, invite(gm, "alice"))
    if ruleset == "fabula-ultima":
        command(alice, "ada", "ada: initiative dice=5,5,6,4")
        command(alice, "ada", "ada: attack imp dice=6,5")
        command(gm, "gm", "imp: attack ada dice=3,4")
    if ruleset == "vers":
        command(gm, "gm", "open ada")
        expect(alice.page.locator("#turn-banner")).to_be_visible()
    for screen in (gm, alice):  # once the pages are still (a sent command may scroll them)
        screen.page.wait_for_timeout(500)
        screen.page.evaluate("window.scrollTo(0, 0)")
        screen.page.wait_for_function("window.scrollY === 0")
    IMAGES.mkdir(parents=True, exist_ok=True)
    gm.page.screenshot(path=str(IMAGES / f"{ruleset}-gm.png"))
    alice.page.screenshot(path=str(IMAGES / f"{ruleset}-player.png"))
    assert (IMAGES / f"{ruleset}-player.png").stat().st_size > 10_000
