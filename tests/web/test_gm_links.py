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
    open_screen,
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

