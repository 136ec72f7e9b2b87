"""A GM never loses their table, in a real browser: the start page shows the new table's GM
link (with Copy and Open the table) instead of leaving at once, and the GM screen makes a GM
link for another device that opens the table as its GM there, listed and revocable like the
others (but never by the page that uses it), and never seen by a player."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.server.support import Served
from tests.web.browser import (
    DESK,
    PHONE,
    create_from_example,
    invite,
    join,
    leaks,
    open_screen,
    start_table,
    unlabelled_controls,
)


def create(page: Page, title: str = "Friday night") -> str:
    """Press Create the table on the start page; the GM link shown."""
    page.get_by_label("Name of the table").fill(title)
    page.get_by_role("button", name="Create the table").click()
    box = page.locator("#gm-link-box")
    expect(box).to_be_visible()
    link = page.get_by_label("Your GM link (secret)").input_value()
    assert "/join#" in link
    return link


def test_the_start_page_shows_the_gm_link_until_the_gm_opens_the_table(
        browser: Browser, served: Served) -> None:
    """Before: the page went on to the link at once, and the link was never seen again."""
    gm = open_screen(browser, served.url + "/", DESK)
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.url)
    page = gm.page
    link = create(page)
    assert link.startswith(served.url + "/join#") and len(link.split("#")[1]) >= 43
    assert page.url == served.url + "/"  # still here: nothing left before the GM kept it
    box = page.locator("#gm-link-box")
    expect(box).to_contain_text("the only way back to this table as its GM")
    expect(box).to_contain_text("keep it secret")
    expect(box).to_contain_text("bookmark it or save it somewhere safe")
    expect(page.get_by_role("status")).to_have_text(
        "Created the table Friday night. Keep your GM link before you open it.")
    assert page.evaluate("document.activeElement.id") == "gm-link-box"  # focus moved there
    expect(page.get_by_role("button", name="Create the table")).to_be_hidden()  # made once
    assert unlabelled_controls(page) == []
    page.get_by_role("button", name="Copy the link").click()
    expect(page.get_by_role("status")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.get_by_role("link", name="Open the table").click()
    page.wait_for_url(re.compile(r"/table/t"))
    expect(page.locator("#who")).to_have_text("Game master")
    expect(page.locator("#table-title")).to_have_text("Friday night")
    # the link kept opens the table as its GM anywhere else (another device)
    other = open_screen(browser, link, DESK)
    other.page.wait_for_url(re.compile(r"/table/t"))
    expect(other.page.locator("#who")).to_have_text("Game master")
    other.context.close()
    gm.context.close()


def test_without_the_clipboard_api_copy_selects_the_link(browser: Browser,
                                                          served: Served) -> None:
    gm = open_screen(browser, served.url + "/", DESK)
    gm.page.add_init_script("Object.defineProperty(navigator, 'clipboard', "
                            "{value: undefined})")  # as over plain http from another machine
    gm.page.reload()
    link = create(gm.page)
    gm.page.get_by_role("button", name="Copy the link").click()
    expect(gm.page.get_by_role("status")).to_contain_text(
        "the link is selected, press Ctrl+C")
    selected = gm.page.evaluate("""() => { const f = document.activeElement;
        return [f.id, f.value.slice(f.selectionStart, f.selectionEnd)]; }""")
    assert selected == ["gm-link", link]
    gm.context.close()


def test_the_gm_makes_a_gm_link_for_a_tablet_and_runs_the_table_there(
        browser: Browser, served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")
    alice = join(browser, invite(gm, "alice"))
    page = gm.page
    page.get_by_label("Your other device (optional)").fill("tablet")
    page.get_by_role("button", name="GM link for another device").click()
    expect(page.get_by_alt_text("QR code of the link for GM (tablet)")).to_be_visible()
    expect(page.locator(".issued")).to_contain_text("whoever opens it runs this table")
    link = page.get_by_label("Link for GM (tablet)").input_value()
    secret = link.split("#", 1)[1]
    assert link.startswith(served.url + "/join#") and len(secret) >= 43
    links = page.locator(".links")
    expect(links).to_contain_text("GM (tablet) · GM link · k")
    expect(links.locator("li", has_text="yours, in this browser")).to_contain_text("GM · GM link")
    # the page's own link has no Revoke: a GM never locks themselves out by a misclick
    expect(page.get_by_role("button", name="Revoke the link of GM", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Revoke the link of GM (tablet)")).to_be_visible()
    # the tablet opens the table as its GM, with the GM's controls
    tablet = open_screen(browser, link, DESK)
    tablet.page.wait_for_url(re.compile(r"/table/t"))
    expect(tablet.page.locator("#who")).to_have_text("Game master")
    tablet.page.locator(".person").first.wait_for()
    expect(tablet.page.get_by_role("heading", name="Invite players")).to_be_visible()
    expect(tablet.page.locator(".links li", has_text="yours, in this browser")).to_contain_text(
        "GM (tablet)")
    expect(tablet.page.get_by_role("button", name="Revoke the link of GM", exact=True)
           ).to_be_visible()
    # no player's page ever holds it
    alice.page.reload()
    alice.page.locator(".person").first.wait_for()
    assert leaks(alice, (secret,)) == []
    # revoked from the laptop (asked first, naming it): the tablet is told at once
    page.get_by_role("button", name="Revoke the link of GM (tablet)").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Revoke the GM link “GM (tablet)” (k")
    expect(dialog).to_contain_text("The device that opened it loses the GM screen at once")
    dialog.get_by_role("button", name="Revoke the GM link “GM (tablet)”").click()
    expect(tablet.page.locator("#connection")).to_contain_text("revoked")
    expect(links.locator("li", has_text="GM (tablet)")).to_contain_text("revoked")
    expect(page.locator("#connection")).to_have_text("live")
    for screen in (gm, alice, tablet):
        screen.context.close()


def test_a_gm_on_a_phone_copies_a_players_link_to_send_it(browser: Browser,
                                                           served: Served) -> None:
    """A GM running the table from a phone sends a far-away player their link in a message:
    Copy the link beside the invitation puts it on the clipboard (a long link in a field is
    hard to select with a thumb); where the page may not copy, it selects the link."""
    gm = open_screen(browser, served.url + "/", PHONE, touch=True)
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.url)
    gm.page.goto(create(gm.page))
    gm.page.wait_for_url(re.compile(r"/table/t"))
    create_from_example(gm, "etherscope-car-chase")
    link = invite(gm, "alice")
    issued = gm.page.locator(".issued")
    issued.get_by_role("button", name="Copy the link").click()
    expect(issued.get_by_role("status")).to_have_text(
        "Copied: the link is on the clipboard, to paste into a message.")
    assert gm.page.evaluate("navigator.clipboard.readText()") == link
    gm.page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    link = invite(gm, "bob")  # as over plain http from another machine: nothing to copy with
    issued.get_by_role("button", name="Copy the link").click()
    expect(issued.get_by_role("status")).to_contain_text("the link is selected, copy it yourself")
    selected = gm.page.evaluate("""() => { const f = document.activeElement;
        return [f.getAttribute("aria-label") || f.labels[0].textContent,
                f.value.slice(f.selectionStart, f.selectionEnd)]; }""")
    assert selected == ["Link for bob", link]
    assert unlabelled_controls(gm.page) == []
    gm.context.close()


def test_the_start_page_lists_the_tables_this_browser_keeps_and_forgets_them(
        browser: Browser, served: Served) -> None:
    """A GM who closed the tab goes back to the server's address and finds the table there;
    a player on a shared computer forgets the links when done. Before: the start page offered
    only Start a table, and nothing forgot a link."""
    gm = start_table(browser, served.url, "Friday night")
    create_from_example(gm, "vers-tavern-brawl")
    link = invite(gm, "alice")
    gm.page.goto(served.url + "/")
    kept = gm.page.get_by_role("region", name="Your tables")
    expect(kept.get_by_role("listitem")).to_have_text(["Friday night as its GM"])
    kept.get_by_role("link", name="Friday night").click()
    gm.page.wait_for_url(re.compile(r"/table/t"))
    expect(gm.page.locator("#who")).to_have_text("Game master")

    shared = open_screen(browser, link, PHONE)  # a player on a library's computer
    shared.page.wait_for_url(re.compile(r"/table/t"))
    table = shared.page.url
    shared.page.goto(served.url + "/")
    kept = shared.page.get_by_role("region", name="Your tables")
    expect(kept.get_by_role("listitem")).to_have_text(["Friday night as alice"])
    assert unlabelled_controls(shared.page) == []
    kept.get_by_role("button", name="Forget them on this browser…").click()
    dialog = shared.page.get_by_role("dialog")
    expect(dialog).to_contain_text("you will need its link again")
    dialog.get_by_role("button", name="Cancel").click()
    expect(kept.get_by_role("listitem")).to_have_count(1)  # Cancel keeps them
    kept.get_by_role("button", name="Forget them on this browser…").click()
    shared.page.get_by_role("dialog").get_by_role("button", name="Forget them").click()
    expect(shared.page.get_by_role("status").first).to_have_text(
        "This browser no longer keeps any table's link.")
    expect(kept).to_be_hidden()
    shared.page.reload()
    expect(shared.page.get_by_role("heading", name="Start a table")).to_be_visible()
    expect(shared.page.locator("#kept")).to_be_hidden()
    shared.page.goto(table)
    expect(shared.page.locator("main")).to_contain_text("You are not at this table (yet)")
    # the GM's own browser keeps its link: forgetting is this browser's alone
    gm.page.goto(served.url + "/")
    expect(gm.page.get_by_role("region", name="Your tables")).to_contain_text("Friday night")
    shared.context.close()
    gm.context.close()


def test_a_browser_with_no_table_sees_only_start_a_table(browser: Browser,
                                                          served: Served) -> None:
    fresh = open_screen(browser, served.url + "/", PHONE)
    expect(fresh.page.get_by_role("heading", name="Start a table")).to_be_visible()
    fresh.page.wait_for_load_state("networkidle")  # the kept tables asked and answered
    expect(fresh.page.locator("#kept")).to_be_hidden()
    assert fresh.errors == [] and fresh.console == []
    fresh.context.close()
