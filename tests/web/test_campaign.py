"""A campaign at one table: weeks of sessions leave dozens of conflicts in its list, and the GM
finds an old one again on the page (when each was last played; a field that finds one by its
title, id or ruleset)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served, new_table
from tests.web.browser import DESK, PHONE, open_screen

pytestmark = pytest.mark.timeout(150)

EXAMPLES = ("vers-tavern-brawl", "fabula-ultima-ambush", "etherscope-car-chase")


def test_the_gm_finds_an_old_conflict_in_a_long_list(browser: Browser, served: Served) -> None:
    table = new_table(served.url, "Ashes of Novgorod")
    paths = [table.conflict(EXAMPLES[i % 3], fresh=True) for i in range(9)]
    r = table.gm.post(paths[1] + "/commands", json={"command": "narrate 'Session one ends.'"})
    assert r.status_code == 200, r.text
    listed = {c["id"]: c for c in table.gm.get(f"/api/tables/{table.id}/conflicts").json()}
    ambush = paths[1].rsplit("/", 1)[1]
    played = datetime.fromisoformat(listed[ambush]["updated"]).strftime("%-d %b %Y, %H:%M")
    alice = table.invite("alice").token
    gm = open_screen(browser, f"{served.url}/join#{table.gm.token}", DESK, locale="en-GB")
    items = gm.page.locator(".conflicts li")
    expect(items).to_have_count(9)
    entry = gm.page.locator(f".conflicts [data-conflict='{ambush}']")
    expect(entry).to_contain_text(f"last played {played}")  # in the browser's own words

    find = gm.page.get_by_label("Find a conflict")
    find.fill("ambush")
    expect(items).to_have_count(3)
    expect(items.filter(has_text="Ambush on the Old Bridge")).to_have_count(3)
    expect(gm.page.locator(".find [role=status]")).to_have_text("3 of 9 conflicts")
    find.fill(ambush)  # its id, as `fracas list` prints it
    expect(items).to_have_count(1)
    entry.get_by_role("link").click()
    expect(gm.page.locator(".conflicts [aria-current=page]")).to_have_text(
        "Ambush on the Old Bridge")
    expect(gm.page.locator(".log")).to_contain_text("Session one ends.")
    expect(find).to_have_value(ambush)  # the conflict opened keeps what was looked for
    find.fill("vers wyrm")  # every word must be found
    expect(items).to_have_text(["No conflict has “vers wyrm” in its title, id or ruleset."])
    find.fill("")
    expect(items).to_have_count(9)

    player = open_screen(browser, f"{served.url}/join#{alice}", PHONE, locale="en-GB")
    player.page.get_by_label("Find a conflict").fill("chase")
    expect(player.page.locator(".conflicts li")).to_have_count(3)
    expect(player.page.locator(".conflicts")).not_to_contain_text("last played")  # the GM's
    for screen in (gm, player):
        assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)
        screen.context.close()


def test_a_players_turn_in_several_conflicts_names_each_one_on_a_phone(
        browser: Browser, served: Served) -> None:
    """Two conflicts of one title (an example made twice) where Ada acts: the foot of Alice's
    phone offers each by its title and id, and its words keep their width beside the
    buttons (they stood one letter a line: "Y / o / u / r")."""
    table = new_table(served.url, "Ashes of Novgorod")
    paths = [table.conflict("vers-tavern-brawl", fresh=True) for _ in range(2)]
    ambush = table.conflict("fabula-ultima-ambush", fresh=True)  # where she reads
    alice = open_screen(browser, f"{served.url}/join#{table.invite('alice').token}", PHONE)
    alice.page.wait_for_url(re.compile(r"/table/t"))
    alice.page.goto(served.url + ambush.replace("/api/tables", "/table").replace("/conflicts", ""))
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("Your turn in:")
    for path in paths:
        name = f"Open Brawl at the Drowned Rat · {path.rsplit('/', 1)[1]} (your turn)"
        expect(notice.get_by_role("button", name=name)).to_be_visible()
    words = notice.get_by_text("Your turn in:")
    lines = alice.page.evaluate("""el => el.getBoundingClientRect().height
        / parseFloat(getComputedStyle(el).lineHeight)""", words.element_handle())
    assert lines < 1.5, f"'Your turn in:' stands on {lines:.1f} lines"
    assert alice.errors == [] and alice.console == [], (alice.errors, alice.console)
    alice.context.close()
