"""A campaign at one table: weeks of sessions leave dozens of conflicts in its list, and the GM
finds an old one again on the page (when each was last played; a field that finds one by its
title, id or ruleset)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served, new_table, running
from tests.web.browser import DESK, PHONE, command, join, open_screen

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


def test_one_new_conflict_at_the_foot_of_a_phone_keeps_its_button_whole(
        browser: Browser, served: Served) -> None:
    """The GM starts the evening's second conflict, where Ada may lead the initiative: the foot
    of Alice's phone says so, and its **Open it** stands on one line, wide enough to tap, within
    the screen (it stood one letter or two a line, "O / p / e / n / i / t", squeezed by the
    words beside it)."""
    table = new_table(served.url, "Saturday VERS")
    table.conflict("vers-tavern-brawl", fresh=True)
    alice = join(browser, f"{served.url}/join#{table.invite('alice').token}",
                 timing={"conflictsMs": 500}, touch=True)
    table.conflict("fabula-ultima-ambush", fresh=True)
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("New conflict: Ambush on the Old Bridge — your turn in it")
    button = notice.get_by_role("button", name="Open it")
    lines = alice.page.evaluate("""el => el.getBoundingClientRect().height
        / parseFloat(getComputedStyle(el).lineHeight)""", button.element_handle())
    box = button.bounding_box()
    assert box and box["width"] >= 44 and box["x"] + box["width"] <= PHONE["width"], box
    assert lines < 2, f"'Open it' stands on {lines:.1f} lines"
    button.tap()
    expect(alice.page.locator(".conflicts [aria-current=page]")).to_have_text(
        "Ambush on the Old Bridge")
    assert alice.errors == [] and alice.console == [], (alice.errors, alice.console)
    alice.context.close()


def test_the_gm_is_told_when_the_conflict_they_left_waits_on_them(
        browser: Browser, served: Served) -> None:
    """The GM's phone reads the evening's second conflict while Alice plays on in the first:
    once she hands off to the thug, the table waits on the GM, and the foot of the GM's screen
    says so, tags the brawl in the list and opens it with one tap, on the thug's controls
    (before: nothing told the GM, who learnt it from the players; a player's turn there, Ada's,
    is no news of the GM's)."""
    table = new_table(served.url, "Saturday VERS")
    brawl = table.conflict("vers-tavern-brawl", fresh=True)  # Ada's go
    ambush = table.conflict("fabula-ultima-ambush", fresh=True)  # the GM reads this one
    alice = table.invite("alice")
    gm = open_screen(browser, f"{served.url}/join#{table.gm.token}", PHONE,
                     timing={"conflictsMs": 500}, touch=True)
    page = gm.page
    page.wait_for_url(re.compile(r"/table/t"))
    page.goto(served.url + ambush.replace("/api/tables", "/table").replace("/conflicts", ""))
    expect(page.locator(".conflicts [aria-current=page]")).to_have_text(
        "Ambush on the Old Bridge")
    page.wait_for_timeout(1500)  # a few looks at the table: Ada's go is Alice's, not the GM's
    expect(page.locator("#notice")).to_be_empty()
    r = alice.post(brawl + "/commands", json={"command": "ada: handoff thug"})
    assert r.status_code == 200, r.text
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Brawl at the Drowned Rat waits for you")
    rat = page.locator(".conflicts li", has_text="Brawl at the Drowned Rat")
    expect(rat.locator(".tag.now")).to_have_text("waits for you")
    notice.get_by_role("button", name="Open it").tap()
    expect(page.locator(".conflicts [aria-current=page]")).to_have_text(
        "Brawl at the Drowned Rat")
    expect(page.locator(".round-region section.actor h3").first).to_have_text("Thug")
    expect(rat.locator(".tag.now")).to_have_count(0)  # the open one is no news
    assert gm.errors == [] and gm.console == [], (gm.errors, gm.console)
    gm.context.close()


def test_a_players_page_in_a_long_campaign_leaves_their_requests_to_them(
        browser: Browser, tmp_path: Path) -> None:
    """Sixteen conflicts where Ada acts, at a server whose rate limit is tight (3 requests a
    second, bursts of 40: the page's own files and first requests take about 25): Alice's
    phone looks at the table every second and tags each other conflict **your turn**, and her
    own command goes through. The page asked each conflict in turn, a burst of one request
    each, past what the link may send: refused (429), and her own command with them (at the
    default limit, a table of about 60 conflicts did so every 20 seconds)."""
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "made.log")) as made:  # made without a limit
        table = new_table(made.url, "Ashes of Novgorod")
        for _ in range(16):
            table.conflict("vers-tavern-brawl", fresh=True)
        alice = table.invite("alice").token
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "3/40")) as served:
        player = join(browser, f"{served.url}/join#{alice}", timing={"conflictsMs": 1000})
        tags = player.page.locator(".conflicts li .tag.now")
        expect(tags).to_have_count(15)  # every one but the open one
        expect(player.page.locator("#notice")).to_contain_text("Your turn in:")
        listed = f"/api/tables/{table.id}/conflicts"
        for _ in range(240):  # a few looks at the table go by, each one request
            if sum(r.url.endswith(listed) for r in player.responses) >= 6:
                break
            player.page.wait_for_timeout(250)
        command(player, "ada", "ada: handoff bruno")
        expect(player.page.locator("#notice")).to_contain_text("Done: ada: handoff bruno")
        refused = [r.url for r in player.responses if r.status == 429]
        assert refused == [], refused
        assert player.errors == [] and player.console == [], (player.errors, player.console)
        player.context.close()


def test_the_lists_keep_the_ended_conflicts_apart_and_say_how_each_ended(
        browser: Browser, served: Served) -> None:
    """Weeks of play end conflicts: the GM's list and a player's put the running ones first
    and, under **Ended**, those that have ended, each saying how. One the GM ends moves there
    at once on the GM's page, and on a player's within their next look at the table."""
    table = new_table(served.url, "Ashes of Novgorod")
    over = table.conflict("fabula-ultima-ambush", fresh=True)
    r = table.gm.post(over + "/commands", json={
        "command": "end 'the watch arrives' outcome='the brawlers scatter'"})
    assert r.status_code == 200, r.text
    table.conflict("etherscope-car-chase", fresh=True)
    brawl = table.conflict("vers-tavern-brawl", fresh=True)
    gm = open_screen(browser, f"{served.url}/join#{table.gm.token}", DESK)
    alice = join(browser, f"{served.url}/join#{table.invite('alice').token}",
                 timing={"conflictsMs": 1000})
    for screen in (gm, alice):
        running_list = screen.page.locator("ul.conflicts:not(.ended) > li")
        ended = screen.page.locator("ul.conflicts.ended > li")
        expect(screen.page.get_by_role("heading", name="Ended (1)")).to_be_visible()
        expect(running_list).to_have_count(2)
        for title in ("Brawl at the Drowned Rat", "A car chase"):
            expect(running_list.filter(has_text=title)).to_have_count(1)
        expect(ended).to_have_text(re.compile(
            r"^Ambush on the Old Bridge \(fabula ultima\)\s*ended\s*the watch arrives — the "
            r"brawlers scatter"))

    # the GM ends the brawl on their page: it goes under Ended there at once (long before the
    # next look at the table, 20 seconds on), and on Alice's within her next look
    gm.page.locator(f".conflicts [data-conflict='{brawl.rsplit('/', 1)[1]}'] a").click()
    command(gm, "gm", "end 'the bouncer throws everyone out'")
    for screen in (gm, alice):
        expect(screen.page.get_by_role("heading", name="Ended (2)")).to_be_visible()
        rat = screen.page.locator("ul.conflicts.ended > li", has_text="Drowned Rat")
        expect(rat).to_contain_text(
            "Brawl at the Drowned Rat (vers) ended the bouncer throws everyone out")
        expect(screen.page.locator("ul.conflicts:not(.ended) > li")).to_have_text(
            [re.compile(r"^A car chase \(etherscope\)")])
    for screen in (gm, alice):
        assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)
        screen.context.close()
