"""A player's page keeps up with the table on a poor connection: a socket that went silent
(a phone that changed networks keeps it open, but nothing reaches it) is noticed and replaced,
and a conflict the GM starts later reaches the pages already open."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.server.support import Served
from tests.support.relay import Relay
from tests.web.browser import (
    PHONE,
    Screen,
    command,
    create_from_example,
    invite,
    join,
    open_screen,
    start_table,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import VERS

pytestmark = pytest.mark.timeout(150)

#: The page's timers, shortened (by default: a ping every 15 s, silent for 40 s is dead, the
#: list of conflicts asked for every 20 s).
FAST = {"pingMs": 300, "deadMs": 2000, "conflictsMs": 700}


@contextmanager
def through_a_relay(browser: Browser, served: Served, tmp_path: Path
                    ) -> Iterator[tuple[Screen, Screen, Relay]]:
    """The GM's screen with a VERS conflict, and Alice's phone, live, through a relay."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    link = invite(gm, "alice")
    with Relay(int(served.url.rsplit(":", 1)[1])) as relay:
        alice = join(browser, link.replace(served.url, relay.url), FAST)
        expect(alice.page.locator("#connection")).to_have_text("live")
        try:
            yield gm, alice, relay
        finally:
            alice.context.close()
            gm.context.close()


def test_a_connection_gone_silent_is_noticed_and_the_page_catches_up(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with through_a_relay(browser, served, tmp_path) as (gm, alice, relay):
        status = alice.page.locator("#connection")
        relay.freeze()  # open on both ends, but nothing passes: no close ever comes
        command(gm, "gm", "narrate 'The roof caves in!'")
        expect(status).to_have_text("live again (reconnected)")
        wait_log(alice, "The roof caves in!")  # missed nothing
        command(gm, "gm", "narrate 'Dust everywhere.'")
        wait_log(alice, "Dust everywhere.")


def test_a_conflict_started_later_is_offered_on_the_pages_already_open(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    alice = join(browser, invite(gm, "alice"), FAST)
    current = alice.page.locator(".conflicts [aria-current=page]")
    expect(current).to_have_text("Brawl at the ford inn")
    gm.page.get_by_label("Bundled example").select_option("vers-tavern-brawl")
    gm.page.get_by_role("button", name="Create from the example").click()
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("New conflict: Brawl at the Drowned Rat")
    expect(alice.page.locator(".conflicts li")).to_have_count(2)
    expect(current).to_have_text("Brawl at the ford inn")  # she is not moved mid-read
    notice.get_by_role("button", name="Open it").click()
    expect(current).to_have_text("Brawl at the Drowned Rat")
    expect(alice.page.locator(".person", has_text="Ada")).to_be_visible()
    expect(notice).to_be_hidden()
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


def test_a_hidden_page_is_judged_when_it_is_shown_again(browser: Browser, served: Served,
                                                         tmp_path: Path) -> None:
    # a hidden tab's timers run once a minute: silence then says nothing of the connection
    with through_a_relay(browser, served, tmp_path) as (gm, alice, relay):
        status = alice.page.locator("#connection")
        alice.page.evaluate("""() => Object.defineProperty(document, "hidden",
            { configurable: true, get: () => true })""")
        relay.freeze()
        command(gm, "gm", "narrate 'The roof caves in!'")
        alice.page.wait_for_timeout(3 * FAST["deadMs"])
        expect(status).to_have_text("live")  # not given up while nobody looks
        alice.page.evaluate("""() => { Object.defineProperty(document, "hidden",
            { configurable: true, get: () => false });
            document.dispatchEvent(new Event("visibilitychange")); }""")
        expect(status).to_have_text("live again (reconnected)")
        wait_log(alice, "The roof caves in!")


def test_a_table_without_a_conflict_is_not_connecting_forever(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    status = gm.page.locator("#connection")
    expect(gm.page.locator(".round-region")).to_contain_text("No conflict yet")
    expect(status).to_have_text("no conflict yet")
    expect(gm.page.locator(".conflicts li")).to_have_text(  # says what to do
        ["None yet: make one under New conflict."])
    alice = open_screen(browser, invite(gm, "alice"), PHONE)  # a player joining early reads why
    expect(alice.page.locator(".conflicts li")).to_have_text(
        ["None yet: the GM has not started one."])
    upload_scenario(gm, VERS, tmp_path)
    expect(status).to_have_text("live")
    assert gm.errors == [] and alice.errors == [], (gm.errors, alice.errors)
    alice.context.close()
    gm.context.close()


def test_several_conflicts_started_meanwhile_are_each_offered(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    # her page asks for the list only when it is looked at again (not on a timer meanwhile)
    alice = join(browser, invite(gm, "alice"), {"conflictsMs": 600_000})
    command(gm, "gm", "narrate 'The roof caves in!'")
    for example, title in (("vers-tavern-brawl", "Brawl at the Drowned Rat"),
                           ("fabula-ultima-ambush", "Ambush on the Old Bridge")):
        create_from_example(gm, example)
        expect(gm.page.locator(".conflicts [aria-current=page]")).to_have_text(title)
        # what a command did in the conflict before is no news in the one opened
        expect(gm.page.locator("#notice")).to_be_hidden()
    alice.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("New conflicts:")
    expect(notice.get_by_role("button", name="Open Brawl at the Drowned Rat")).to_be_visible()
    notice.get_by_role("button", name="Open Ambush on the Old Bridge").press("Enter")
    expect(alice.page.locator(".conflicts [aria-current=page]")).to_have_text(
        "Ambush on the Old Bridge")
    expect(notice).to_be_hidden()
    focused = alice.page.locator(":focus")
    expect(focused).to_have_text("Round")  # the heading of what she opened, not the page's body
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


def test_a_command_from_a_screen_the_table_moved_past_is_refused_not_merged(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    # two tabs of the GM; the second's socket has gone silent (its screen is of the table before
    # the first tab acted): what it sends is refused in plain words, and its screen catches up
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    sockets = 0

    def first_one_silent(ws: WebSocketRoute) -> None:
        nonlocal sockets
        sockets += 1
        server = ws.connect_to_server()
        if sockets == 1:  # a socket that nothing reaches any more, once the screen is drawn
            server.on_message(lambda m: ws.send(m) if "snapshot" in str(m)[:20] else None)
    tab = gm.context.new_page()
    tab.add_init_script(f"window.fracasTiming = {json.dumps(FAST)};")
    tab.route_web_socket(re.compile("/live"), first_one_silent)
    tab.goto(gm.page.url)
    tab.locator(".person").first.wait_for()
    command(gm, "gm", "narrate 'The roof caves in!'")
    line = tab.locator("section.actor[data-actor='gm'] form.command-line")
    line.locator("input").fill("narrate 'All is calm.'")
    line.get_by_role("button", name="Send").click()
    expect(tab.locator("#error")).to_contain_text("Not sent: the table changed while you chose")
    tab.locator(".log").get_by_text("The roof caves in!").first.wait_for()  # caught up
    expect(line.locator("input")).to_have_value("narrate 'All is calm.'")  # kept to send again
    expect(gm.page.locator(".log")).not_to_contain_text("All is calm.")
    line.get_by_role("button", name="Send").click()  # from the screen as it is now: taken
    wait_log(gm, "All is calm.")
    gm.context.close()


def test_back_and_forward_go_between_the_conflicts_opened(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    create_from_example(gm, "vers-tavern-brawl")
    gm.page.locator(".conflicts").get_by_role("link", name="Brawl at the ford inn").click()
    current = gm.page.locator(".conflicts [aria-current=page]")
    status = gm.page.locator(".round-region .status")
    for go, title in ((gm.page.go_back, "Brawl at the Drowned Rat"),
                      (gm.page.go_back, "Brawl at the ford inn"),
                      (gm.page.go_forward, "Brawl at the Drowned Rat")):
        go()
        expect(current).to_have_text(title)  # still the table's page, the conflict of the step
        expect(status).to_contain_text(title)
        expect(gm.page.locator("#connection")).to_have_text("live")
    assert gm.errors == [], gm.errors
    gm.context.close()


def test_a_players_turn_in_another_conflict_is_offered_where_she_reads(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    # the GM runs two conflicts; Alice reads the first when Ada's go opens in the second
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    alice = join(browser, invite(gm, "alice"), FAST)
    upload_scenario(gm, VERS.replace("Brawl at the ford inn", "Second fight"), tmp_path)
    expect(gm.page.locator(".conflicts [aria-current=page]")).to_have_text("Second fight")
    expect(gm.page.locator(".round-region .status")).to_contain_text("Second fight")
    command(gm, "gm", "open ada")
    notice = alice.page.locator("#notice")
    # (said as new, or as begun a while ago: by when the page looked) — was: nothing, ever
    expect(notice).to_contain_text(re.compile(
        "^(Your turn in Second fight|New conflict: Second fight — your turn in it)"))
    second = alice.page.locator(".conflicts li", has_text="Second fight")
    expect(second.locator(".tag")).to_have_text("your turn")
    expect(alice.page.locator("#turn-banner")).to_be_hidden()  # not her turn where she reads
    notice.get_by_role("button", name="Open it").click()
    expect(alice.page.locator("#turn-banner")).to_have_text("Your turn: Ada")
    expect(second.locator(".tag")).to_have_count(0)  # the one open says so itself
    assert alice.errors == [] and gm.errors == [], (alice.errors, gm.errors)
    alice.context.close()
    gm.context.close()


def test_what_is_typed_outlasts_a_reload_in_the_tab_until_it_is_sent(
        browser: Browser, served: Served) -> None:
    """Before: a reload (a phone reloading a background tab) lost the dice typed into a form
    and the words typed into the command line."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    page = alice.page
    mine = page.locator("section.actor[data-actor='ada']")
    mine.locator("details.command", has=page.locator("form[data-verb='awareness']")) \
        .locator("> summary").click()
    dice = mine.locator("form[data-verb='awareness']").get_by_label("dice (optional)")
    line = mine.get_by_label("Another command for Ada (text notation)")
    dice.fill("5,6,1")
    line.fill("note the brakes squeal")
    page.reload()
    expect(dice).to_have_value("5,6,1")  # its form open as she left it
    expect(line).to_have_value("note the brakes squeal")
    assert "brakes" not in page.evaluate("JSON.stringify(Object.entries(localStorage))")
    mine.locator("form[data-verb='awareness']").get_by_role("button", name="awareness").click()
    wait_log(alice, "Ada rolls awareness")
    line.press("Enter")
    wait_log(alice, "the brakes squeal")
    page.reload()
    expect(page.locator(".person").first).to_be_visible()
    expect(line).to_have_value("")  # sent: gone
    assert "brakes" not in page.evaluate("JSON.stringify(Object.entries(sessionStorage))")
    # kept by this tab alone: another tab of the same browser starts with nothing typed
    line.fill("note words never sent")
    other = alice.context.new_page()
    other.goto(page.url)
    expect(other.get_by_label("Another command for Ada (text notation)")).to_be_visible()
    expect(other.get_by_label("Another command for Ada (text notation)")).to_have_value("")
