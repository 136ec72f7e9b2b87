"""A GM running two tables at once from one phone, and a player invited to both, in a real
browser: each table's link is kept beside the other's (a cookie per table), so a tab of one
table goes on working after the other table's link was opened, each tab says which table it
shows, and each page links to the browser's other tables."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.support import Served
from tests.web.browser import PHONE, WAIT_MS, Screen, command, invite, open_screen


def _new_table(context: BrowserContext, base: str, title: str, example: str) -> Page:
    """In a new tab of ``context``: create a table on the start page, open it with its GM
    link and make a conflict of ``example`` there."""
    page = context.new_page()
    page.goto(base + "/")
    page.get_by_label("Name of the table").fill(title)
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("link", name="Open the table").click()
    page.wait_for_url(re.compile(r"/table/t"))
    expect(page.locator("#table-title")).to_have_text(title)
    _example(page, example)
    return page


def _example(page: Page, scenario: str) -> None:
    before = page.url
    page.get_by_label("Bundled example").select_option(scenario)
    page.get_by_role("button", name="Create from the example").click()
    page.wait_for_function("url => location.href !== url", arg=before)
    page.locator(".person").first.wait_for()


def _players_link(page: Page, player: str) -> str:
    page.get_by_label("Player's name (as in the scenario)").fill(player)
    page.get_by_role("button", name="Invite the player").click()
    return page.get_by_label(f"Link for {player}").input_value()


def test_a_gm_runs_two_tables_from_two_tabs_of_one_phone(browser: Browser,
                                                          served: Served) -> None:
    """Before: opening the second table's GM link took the first one's place in the
    browser: the first tab's next command was refused ("no table …"), and a reload took it
    to the second table."""
    gm = open_screen(browser, served.url + "/", PHONE)
    gm.page.close()
    fu = _new_table(gm.context, served.url, "Friday FU", "fabula-ultima-ambush")
    vers = _new_table(gm.context, served.url, "Saturday VERS", "vers-tavern-brawl")
    # the first tab acts at its own table, as it did before the second was opened
    fu.bring_to_front()
    expect(fu).to_have_title("Ambush on the Old Bridge · Friday FU · fracas")
    expect(vers).to_have_title("Brawl at the Drowned Rat · Saturday VERS · fracas")
    fu.locator("#line-gm").fill("note 'the bridge creaks'")
    fu.locator("#line-gm").press("Enter")
    expect(fu.locator("#notice")).to_contain_text("Done: note 'the bridge creaks'")
    expect(fu.locator("#error")).to_be_hidden()
    assert "the bridge creaks" not in vers.locator(".log-region").inner_text()
    # an invitation's QR code is drawn with this table's link
    fu_screen = Screen(gm.context, fu)
    invite(fu_screen, "alice")
    fu.reload()
    expect(fu.locator("#table-title")).to_have_text("Friday FU")
    expect(fu.locator("#who")).to_have_text("Game master")
    # one tab goes from one table to the other by the header's link
    nav = fu.get_by_role("navigation", name="Your other tables")
    expect(nav).to_have_text("Your other tables: Saturday VERS (GM)")
    nav.get_by_role("link", name="Saturday VERS").click()
    expect(fu.locator("#table-title")).to_have_text("Saturday VERS")
    expect(fu.get_by_role("navigation", name="Your other tables")).to_have_text(
        "Your other tables: Friday FU (GM)")
    fu.locator(".person").first.wait_for()
    command(Screen(gm.context, fu), "gm", "note 'the bouncer yawns'")


def test_a_player_at_both_tables_in_one_browser_sees_each_with_its_own_link(
        browser: Browser, served: Served) -> None:
    """Before: the second table's link took the first one's place: the first table's page,
    reloaded, showed the second table and its characters."""
    gm = open_screen(browser, served.url + "/", PHONE)
    gm.page.close()
    fu = _new_table(gm.context, served.url, "Friday FU", "fabula-ultima-ambush")
    vers = _new_table(gm.context, served.url, "Saturday VERS", "vers-tavern-brawl")
    bob_at_fu, alice_at_vers = _players_link(fu, "bob"), _players_link(vers, "alice")
    player = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    player.set_default_timeout(WAIT_MS)
    first, second = player.new_page(), player.new_page()
    first.goto(bob_at_fu)
    first.locator(".person").first.wait_for()
    second.goto(alice_at_vers)
    second.locator(".person").first.wait_for()
    first.reload()
    for page, table, who, mine, theirs in ((first, "Friday FU", "bob", "Bruno", "Ada"),
                                           (second, "Saturday VERS", "alice", "Ada", "Bruno")):
        expect(page.locator("#table-title")).to_have_text(table)
        expect(page.locator("#who")).to_have_text(f"Player: {who}")
        controls = page.locator(".round-region section.actor h3")
        expect(controls.first).to_be_visible()
        assert mine in controls.all_inner_texts() and theirs not in controls.all_inner_texts()
    assert "Brawl at the Drowned Rat" not in first.title()


def test_a_gm_at_one_table_is_told_when_the_other_waits_on_them(browser: Browser,
                                                              served: Served) -> None:
    """Before: nothing on the first table's page told of the other table; a GM looking at one
    left the other's players waiting on an NPC's go."""
    gm = open_screen(browser, served.url + "/", PHONE, timing={"conflictsMs": 500})
    gm.page.close()
    fu = _new_table(gm.context, served.url, "Friday FU", "fabula-ultima-ambush")
    vers = _new_table(gm.context, served.url, "Saturday VERS", "vers-tavern-brawl")
    fu.bring_to_front()
    expect(fu.get_by_role("navigation", name="Your other tables")).to_have_text(
        "Your other tables: Saturday VERS (GM)")  # opened in another tab after this one
    command(Screen(gm.context, vers), "ada", "ada: handoff thug")  # the thug's go: the GM's
    expect(vers).to_have_title("▶ Thug to act · Brawl at the Drowned Rat · Saturday VERS · "
                               "fracas")  # the tab that waits on the GM is marked
    expect(fu).to_have_title(re.compile("^Ambush on the Old Bridge"))
    notice = fu.locator("#notice")
    expect(notice).to_contain_text("Saturday VERS waits for you: Brawl at the Drowned Rat")
    notice.get_by_role("link", name="Open it").click()
    expect(fu).to_have_title("▶ Thug to act · Brawl at the Drowned Rat · Saturday VERS · fracas")


def test_a_player_at_one_table_is_told_of_their_turn_at_the_other(browser: Browser,
                                                                  served: Served) -> None:
    gm = open_screen(browser, served.url + "/", PHONE)
    gm.page.close()
    fu = _new_table(gm.context, served.url, "Friday FU", "fabula-ultima-ambush")
    vers = _new_table(gm.context, served.url, "Saturday VERS", "vers-tavern-brawl")
    alice_at_fu, alice_at_vers = _players_link(fu, "alice"), _players_link(vers, "alice")
    alice = open_screen(browser, alice_at_fu, PHONE, timing={"conflictsMs": 500})
    alice.page.locator(".person").first.wait_for()
    other = alice.context.new_page()
    other.goto(alice_at_vers)  # Ada opens the brawl: Alice's turn there
    other.locator(".person").first.wait_for()
    alice.page.bring_to_front()
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("Your turn at Saturday VERS: Brawl at the Drowned Rat")
    expect(alice.page.locator(".round-region section.actor h3")).to_have_text(["Ada"])


def test_a_shared_screen_tells_no_ones_turn_at_the_browsers_other_tables(
        browser: Browser, served: Served) -> None:
    """The GM's laptop shows one table's public link on the TV and keeps the GM link of the
    other: the TV never says that the other table waits on its GM (nor names its conflict)."""
    gm = open_screen(browser, served.url + "/", PHONE, timing={"conflictsMs": 500})
    gm.page.close()
    fu = _new_table(gm.context, served.url, "Friday FU", "fabula-ultima-ambush")
    vers = _new_table(gm.context, served.url, "Saturday VERS", "vers-tavern-brawl")
    public = invite(Screen(gm.context, fu), None)
    tv = gm.context.new_page()
    tv.add_init_script("window.fracasTiming = {conflictsMs: 500};")
    tv.goto(public)
    expect(tv.locator("#who")).to_have_text("Onlooker")
    command(Screen(gm.context, vers), "ada", "ada: handoff thug")  # the thug's go: the GM's
    expect(vers.locator("#notice")).to_contain_text("Done: ada: handoff thug")
    tv.wait_for_timeout(2000)  # four looks at the tables meanwhile
    expect(tv.locator("#notice")).not_to_contain_text("waits for you")
    assert "Brawl at the Drowned Rat" not in tv.locator("body").inner_text()
