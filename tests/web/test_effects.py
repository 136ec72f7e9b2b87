"""Timed effects on the pages, in a real browser against a real ``fracas serve``: each page's
Effects panel shows the effects its viewer may see (what each says, whom it is on, when it
ends), the GM's Expire ends one on every page, and an effect hidden from a player never reaches
their page in any channel — not as a line, a count or an empty panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.server.support import Served
from tests.web.browser import Screen, command, everything_on, leaks, unlabelled_controls
from tests.web.scenarios import SECRETS
from tests.web.test_gm_tools import gm_opens
from tests.web.test_table import table

pytestmark = pytest.mark.timeout(150)


def effects(screen: Screen) -> Locator:
    """The items of the page's Effects panel."""
    return screen.page.locator(".field-region .effects > li")


def effect(screen: Screen, text: str) -> Locator:
    """The item of one effect, by its text."""
    return screen.page.locator(".field-region .effects > li", has_text=text)


def no_effects_panel(screen: Screen) -> None:
    """The page has no Effects panel at all (not even an empty one)."""
    expect(screen.page.get_by_role("heading", name="Effects")).to_have_count(0)
    expect(effects(screen)).to_have_count(0)


def test_the_pages_show_timed_effects_and_the_gm_expires_them(browser: Browser, served: Served,
                                                             tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        everyone = (gm, alice, bob)
        for screen in everyone:
            no_effects_panel(screen)
        command(gm, "gm", "effect 'pinned down' until=turn_end who=ada")
        command(gm, "gm", "effect 'smoke fills the room' count=2")
        command(gm, "gm", "effect 'dazed' until=turn_start who=bruno")
        for screen in everyone:
            expect(effect(screen, "pinned down")).to_contain_text(
                "pinned down · on Ada · until the end of Ada's go")
            expect(effect(screen, "smoke")).to_contain_text(  # the turn it ends with
                "smoke fills the room · until the end of turn 2")
            expect(effect(screen, "dazed")).to_contain_text(
                "dazed · on Bruno · until Bruno's next go starts")
        for screen in (alice, bob):  # only the GM expires an effect
            expect(screen.page.get_by_role("button", name="Expire")).to_have_count(0)
        # the turn boundary it waits for ends it on every page (the engine's count-down)
        gm_opens(gm, "Bruno")
        for screen in everyone:
            expect(effect(screen, "dazed")).to_have_count(0)
            expect(effects(screen)).to_have_count(2)
        gm.page.get_by_role("button", name="Expire pinned down").click()
        expect(gm.page.locator("#notice")).to_contain_text("Done: expire e")
        for screen in everyone:
            expect(effect(screen, "pinned down")).to_have_count(0)
            expect(effects(screen)).to_have_count(1)
        assert gm.page.evaluate("document.activeElement !== document.body")  # focus kept
        gm.page.get_by_role("button", name="Expire smoke fills the room").click()
        for screen in everyone:
            no_effects_panel(screen)
        assert gm.page.evaluate("document.activeElement !== document.body")
        for screen in everyone:
            assert unlabelled_controls(screen.page) == []
            assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)


def test_an_effect_reaches_only_those_who_may_see_it(browser: Browser, served: Served,
                                                      tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        command(gm, "gm", "effect 'zqsecret ambush at dusk' visibility=gm")
        secret = effect(gm, "zqsecret ambush")
        expect(secret).to_contain_text("until the end of turn 1")
        expect(secret.locator(".tag")).to_have_text("gm only")
        secret_id = secret.get_by_role("button", name="Expire").get_attribute("data-focus")
        assert secret_id and secret_id.startswith("expire-e")
        command(gm, "gm", "ada: effect 'zqowner blessed by the saint' visibility=owner")
        expect(effect(gm, "blessed")).to_contain_text("on Ada")
        expect(effect(gm, "blessed").locator(".tag")).to_have_text("owner: Ada")
        # Ada's player sees her own effect (and nothing tells her of the GM's)
        expect(effects(alice)).to_have_count(1)
        expect(effect(alice, "blessed")).to_contain_text(
            "zqowner blessed by the saint · on Ada · until the end of turn 1")
        expect(effect(alice, "blessed").locator(".tag")).to_have_count(0)
        # a public effect after both: once it is on bob's page, anything sent before is too
        command(gm, "gm", "effect 'the lamps gutter'")
        expect(effects(alice)).to_have_count(2)
        expect(effects(bob)).to_have_count(1)
        expect(effect(bob, "lamps")).to_be_visible()
        assert "zqowner" not in everything_on(bob).lower()
        for screen in (alice, bob):
            assert leaks(screen, SECRETS) == []
            seen = everything_on(screen)
            assert secret_id not in seen and f'"{secret_id.removeprefix("expire-")}"' not in seen
        # the public effect ends: the players' panels go with their last effect they see,
        # though the GM's secret one is still in play
        gm.page.get_by_role("button", name="Expire the lamps gutter").click()
        # the GM's screen catches up before the next click: one sent on the table as it was
        # would be refused as sent on a table that changed meanwhile (a flake under load)
        expect(effects(gm)).to_have_count(2)
        gm.page.get_by_role("button", name="Expire zqowner blessed by the saint").click()
        expect(effects(gm)).to_have_count(1)
        for screen in (alice, bob):
            no_effects_panel(screen)
            assert leaks(screen, SECRETS) == []
