"""The GM prepares conflicts behind the screen, in a real browser against a real server: a
player's page never hears of one until the GM shows it; shown, it is offered at the foot of
the page like any new conflict; taken back, the page open on it says so plainly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import (
    Screen,
    command,
    create_from_example,
    everything_on,
    invite,
    join,
    start_table,
    unlabelled_controls,
    upload_scenario,
)
from tests.web.scenarios import VERS

pytestmark = pytest.mark.timeout(180)

#: The page's look at the table's conflicts, hurried (by default every 20 s).
FAST = {"conflictsMs": 500}
BEHIND = "Prepare it behind the screen (the players do not see it until you show it)"
RAT = "Brawl at the Drowned Rat"


def looks_at_the_table(screen: Screen) -> int:
    """How many times the page has asked for the table's conflicts."""
    return sum(r.url.endswith("/conflicts") for r in screen.responses)


def after_looks(screen: Screen, more: int = 3) -> None:
    """Wait until the page has looked at the table's conflicts ``more`` times again."""
    seen = looks_at_the_table(screen)
    while looks_at_the_table(screen) < seen + more:
        screen.page.wait_for_timeout(100)


def test_a_conflict_prepared_behind_the_screen_is_shown_then_taken_back(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)  # the fight the table plays meanwhile
    alice = join(browser, invite(gm, "alice"), FAST)
    try:
        box = gm.page.get_by_label(BEHIND)
        expect(box).not_to_be_checked()  # made for the players unless asked
        box.check()
        create_from_example(gm, "vers-tavern-brawl")
        hidden = gm.page.url.rsplit("/", 1)[-1]
        rat = gm.page.locator(".conflicts li", has_text=RAT)
        expect(rat.locator(".tag")).to_have_text("behind the screen")
        expect(gm.page.locator(".round-region")).to_contain_text(
            "Behind the screen: the players do not see this conflict")
        expect(gm.page.get_by_label(BEHIND)).not_to_be_checked()  # the next is theirs again
        command(gm, "gm", "narrate 'The lamps are lit.'")  # the GM plays it meanwhile
        after_looks(alice)
        expect(alice.page.locator(".conflicts li")).to_have_text(["Brawl at the ford inn (vers)"])
        expect(alice.page.locator("#notice")).to_be_empty()
        text = everything_on(alice)
        assert RAT not in text and hidden not in text, "nothing of it reached her page"

        gm.page.get_by_role("button", name=f"Show it to the players: {RAT}").click()
        expect(gm.page.locator("#notice")).to_contain_text(f"Shown to the players: {RAT}")
        expect(rat.locator(".tag")).to_have_count(0)
        expect(gm.page.locator(".round-region")).not_to_contain_text("Behind the screen: the")
        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text(f"New conflict: {RAT} — your turn in it")
        notice.get_by_role("button", name="Open it").click()
        expect(alice.page.locator("#turn-banner")).to_have_text("Your turn: Ada")
        expect(alice.page.locator(".log")).to_contain_text("The lamps are lit.")

        gm.page.get_by_role("button", name="Take it behind the screen", exact=True).click()
        question = gm.page.get_by_role("dialog")
        expect(question).to_contain_text(f"Take {RAT} behind the screen? The players lose it")
        question.get_by_role("button", name="Cancel").click()  # changed their mind
        expect(question).to_have_count(0)
        expect(gm.page.locator("#hide-conflict")).to_be_focused()
        gm.page.get_by_role("button", name="Take it behind the screen", exact=True).click()
        gm.page.get_by_role("button", name="Yes, take it behind the screen").click()
        expect(gm.page.locator("#notice")).to_contain_text(f"Taken behind the screen: {RAT}")
        expect(rat.locator(".tag")).to_have_text("behind the screen")

        expect(alice.page.locator(".round-region")).to_contain_text(
            f"The GM has taken “{RAT}” back behind the screen: you cannot see it for now.")
        expect(alice.page.locator("#connection")).to_have_text("taken back by the GM")
        expect(alice.page.locator("#error")).to_be_hidden()  # no refusal, no traceback
        expect(alice.page.locator("#turn-banner")).to_be_hidden()
        expect(alice.page.locator(".person")).to_have_count(0)  # nothing of it stays
        expect(alice.page.locator(".conflicts li")).to_have_text(["Brawl at the ford inn (vers)"])
        expect(alice.page).to_have_title("Friday night · fracas")  # no conflict, the table

        gm.page.get_by_role("button", name=f"Show it to the players: {RAT}").click()
        expect(notice).to_contain_text(f"New conflict: {RAT} — your turn in it")
        notice.get_by_role("button", name="Open it").click()
        expect(alice.page.locator("#turn-banner")).to_have_text("Your turn: Ada")
        expect(alice.page.locator("#connection")).to_have_text("live")
        assert unlabelled_controls(gm.page) == []
        for screen in (gm, alice):
            assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)
    finally:
        for screen in (gm, alice):
            screen.context.close()


def test_every_way_of_making_a_conflict_may_keep_it_behind_the_screen(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    try:
        page = gm.page
        page.get_by_label(BEHIND).check()
        upload_scenario(gm, VERS, tmp_path)  # a scenario file
        with page.expect_download() as made:
            page.get_by_role("button", name="Download this conflict").click()
        exported = tmp_path / "brawl.json"
        made.value.save_as(exported)
        page.get_by_label(BEHIND).check()
        page.get_by_label(re.compile("^Import a conflict file")).set_input_files(str(exported))
        before = page.url
        page.get_by_role("button", name="Import the conflict").click()  # a conflict file
        page.wait_for_function("url => location.href !== url", arg=before)
        page.locator(".person").first.wait_for()  # opened: its panels are drawn
        expect(page.locator(".conflicts li")).to_have_count(2)
        page.get_by_label(BEHIND).check()
        page.get_by_text("Set up a conflict (form)").click()
        form = page.locator("#from-form")
        form.get_by_label("Ruleset").select_option("vers")
        form.get_by_label("Title").fill("The boss fight")
        form.get_by_label("Sides (comma-separated)").fill("heroes")
        row = form.locator("fieldset").nth(0)
        row.get_by_label("Id", exact=True).fill("ada")
        row.get_by_label("Name", exact=True).fill("Ada")
        form.get_by_role("button", name="Create from the form").click()  # the form
        expect(page.locator(".round-region .status")).to_contain_text("The boss fight")
        expect(page.locator(".conflicts li")).to_have_count(3)
        create_from_example(gm, "vers-chase")  # the box unchecked: the players'
        items = page.locator(".conflicts li")
        expect(items).to_have_count(4)
        expect(items.filter(has_text="behind the screen")).to_have_count(3)
        expect(items.filter(has_text="The boss fight").locator(".tag")).to_have_text(
            "behind the screen")
        alice = join(browser, invite(gm, "alice"))
        try:
            listed = next(json.loads(r.text()) for r in alice.responses
                          if r.url.endswith("/conflicts"))
            assert [c["title"] for c in listed] == ["Through the market"], listed
            expect(alice.page.locator(".conflicts li")).to_have_count(1)
        finally:
            alice.context.close()
    finally:
        gm.context.close()
