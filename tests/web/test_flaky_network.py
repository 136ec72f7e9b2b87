"""A player on a phone's flaky network: the wifi drops (the browser knows it is offline), an
answer is lost on its way back, a finger taps twice, the page reloads mid-command. The page
says what is going on, catches up by itself, and never applies a command twice."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Route, expect

from tests.server.support import Served, new_table, running
from tests.web.browser import (
    Screen,
    command,
    invite,
    join,
    start_table,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import VERS

pytestmark = pytest.mark.timeout(150)

#: The page's timers, left long: what the page says must come from the network's own news,
#: not from a ping that went unanswered.
SLOW = {"pingMs": 600_000, "deadMs": 600_000, "conflictsMs": 600_000}


def database_away(route: Route) -> None:
    """Answer as the server does while its database is out of reach: 503, nothing done (the
    real answer is asserted by tests/server/test_outage against PostgreSQL)."""
    route.fulfill(status=503, content_type="application/json", body=json.dumps({
        "code": "internal_error", "rule": None, "values": {},
        "message": "nothing was done: the database is out of reach or failed; try again in a "
                   "moment"}))


def brawl(browser: Browser, served: Served, tmp: Path, *gm_says: str) -> tuple[Screen, Screen]:
    """The GM's screen and Alice's phone (its timers long: :data:`SLOW`) at a VERS brawl,
    the GM's commands ``gm_says`` given first."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp)
    for said in gm_says:
        command(gm, "gm", said)
    return gm, join(browser, invite(gm, "alice"), SLOW)


def test_a_phone_gone_offline_says_so_at_once_and_catches_up_when_back(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the page said "live" for up to a minute after the phone lost its network (until
    a ping went unanswered), while what others did never reached it."""
    gm, alice = brawl(browser, served, tmp_path)
    status = alice.page.locator("#connection")
    expect(status).to_have_text("live")
    alice.context.set_offline(True)
    expect(status).to_have_text(re.compile("^offline"))
    command(gm, "gm", "narrate 'The roof caves in!'")
    alice.context.set_offline(False)
    expect(status).to_have_text("live again (reconnected)")
    wait_log(alice, "The roof caves in!")
    expect(alice.page.locator(".log .entry", has_text="The roof caves in!")).to_have_count(1)
    assert alice.errors == [] and gm.errors == [], (alice.errors, gm.errors)
    alice.context.close()
    gm.context.close()


def attack_typed(screen: Screen) -> Locator:
    """Ada's command line with an attack typed in it (Ada has two actions: a second attack
    would be taken)."""
    line = screen.page.locator("section.actor[data-actor='ada'] form.command-line")
    line.locator("input").fill("ada: attack imp weapon=sword dice=3,3,2")
    return line


def attacks(screen: Screen) -> Locator:
    """The log's entries of Ada's attack."""
    return screen.page.locator(".log .entry", has_text="[3, 3, 2]")


def test_a_double_tap_sends_the_command_once_and_says_it_is_done(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the second tap was sent too, refused as made on a screen the table had moved
    past, and its red "Not sent: … someone else acted first" stood beside the "Done"."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    held: list[Route] = []
    alice.page.route("**/commands", lambda route: held.append(route))  # (still on its way)
    send = attack_typed(alice).get_by_role("button", name="Send")
    send.click()
    send.click()
    alice.page.wait_for_timeout(500)
    for route in held:
        route.continue_()
    expect(alice.page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    assert len(held) == 1, f"sent {len(held)} times"
    expect(alice.page.locator("#error")).to_be_hidden()
    expect(attacks(alice)).to_have_count(1)
    alice.context.close()
    gm.context.close()


def test_a_second_command_tapped_before_the_firsts_answer_is_refused_in_the_players_words(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Two different commands sent one after the other, the second before the first's answer:
    the first moves the table, the second (chosen on the screen before it) is refused as stale
    — and the player is told it was their own command that went first. Before: "someone else
    acted first", when nobody else had."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    held: list[Route] = []
    alice.page.route("**/commands", lambda route: held.append(route))  # (still on its way)
    line = attack_typed(alice)
    line.get_by_role("button", name="Send").click()
    line.locator("input").fill("ada: attack imp weapon=sword dice=1,1,1")
    line.get_by_role("button", name="Send").click()
    alice.page.wait_for_timeout(300)
    assert len(held) == 2, f"sent {len(held)}"
    held[0].continue_()
    expect(alice.page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    held[1].continue_()
    error = alice.page.locator("#error")
    expect(error).to_contain_text("Not sent: your command just before it changed the table first")
    expect(error).not_to_contain_text("someone else")
    expect(attacks(alice)).to_have_count(1)
    alice.context.close()
    gm.context.close()


def test_a_command_whose_answer_never_comes_is_settled_once_the_phone_is_back(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the page said "No answer" and, once live again, nothing more: the command was
    still typed in, and sending it again attacked a second time."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page

    def reaches_the_server_but_its_answer_is_lost(route: Route) -> None:
        route.fetch()
        route.abort("internetdisconnected")

    page.route("**/commands", reaches_the_server_but_its_answer_is_lost)
    line = attack_typed(alice)
    line.get_by_role("button", name="Send").click()
    expect(page.locator("#error")).to_contain_text("No answer")
    wait_log(alice, "[3, 3, 2]")  # it went through: the socket tells, the answer did not
    page.unroute("**/commands")
    alice.context.set_offline(True)  # the phone goes away, and comes back
    expect(page.locator("#connection")).to_have_text(re.compile("^offline"))
    alice.context.set_offline(False)
    expect(page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    expect(page.locator("#error")).to_be_hidden()
    expect(line.locator("input")).to_have_value("")  # nothing left to send by mistake
    expect(attacks(alice)).to_have_count(1)
    expect(page.locator(".round-region")).to_contain_text("1 action left")
    assert alice.errors == [], alice.errors
    alice.context.close()
    gm.context.close()


def test_sending_again_after_no_answer_is_answered_done_not_applied_twice(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page
    page.route("**/commands", lambda route: (route.fetch(), route.abort()))
    line = attack_typed(alice)
    line.get_by_role("button", name="Send").click()
    expect(page.locator("#error")).to_contain_text("No answer")
    wait_log(alice, "[3, 3, 2]")
    page.unroute("**/commands")
    line.get_by_role("button", name="Send").click()  # the player tries again
    expect(page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    expect(attacks(alice)).to_have_count(1)
    expect(attacks(gm)).to_have_count(1)
    alice.context.close()
    gm.context.close()


def test_a_reload_in_the_middle_of_a_command_says_whether_it_went_through(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: after the reload the attack stood in the log and still typed in its field, with
    nothing said: Send again attacked twice."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page
    # applied; its answer lost on the way back, each time the page asks again
    page.route("**/commands", lambda route: (route.fetch(), route.abort()))
    line = attack_typed(alice)
    line.get_by_role("button", name="Send").click()
    wait_log(alice, "[3, 3, 2]")
    # its quick tries spent, the page waits a while before the next: then the reload
    expect(page.locator("#error")).to_contain_text("No answer yet")
    page.unroute("**/commands")
    page.reload()
    expect(page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    expect(line.locator("input")).to_have_value("")
    expect(attacks(alice)).to_have_count(1)
    expect(page.locator(".round-region")).to_contain_text("1 action left")
    assert "unanswered" not in alice.storage()
    alice.context.close()
    gm.context.close()


def test_a_reload_while_the_server_cannot_answer_waits_for_it_not_turned_away(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: a player who reloaded while the server's database was out of reach (every
    request a 503) was told "You are not at this table (yet): open the link your GM gave you"
    and the page stayed so once the database was back, as if their link no longer counted.
    Then its head read "server unreachable" where the server had answered."""
    gm, alice = brawl(browser, served, tmp_path)
    page = alice.page

    table = re.compile(r"/api/tables/[^/?]+$")  # what the page asks first: its link there
    page.route(table, database_away)
    page.reload()
    expect(page.locator("main")).to_contain_text("The table cannot be reached just now: "
                                                 "nothing was done: the database is out of reach")
    # the server answered, that it cannot just now: not "server unreachable"
    expect(page.locator("#connection")).to_have_text("server busy: trying again…")
    expect(page.locator("main")).not_to_contain_text("not at this table")
    page.unroute(table)  # the database is back: the page, asking again, opens by itself
    expect(page.locator(".person").first).to_be_visible()
    expect(page.locator("#connection")).to_have_text(re.compile("^live"))
    command(gm, "gm", "narrate 'Back in business'")
    wait_log(alice, "Back in business")
    alice.context.close()
    gm.context.close()


def test_a_link_that_does_not_let_its_holder_in_says_so_at_once(
        browser: Browser, served: Served) -> None:
    """A page opened without a token of the table (its cookie gone) is told to open its link,
    not left waiting for a server that answered."""
    gm = start_table(browser, served.url)
    stranger = browser.new_context(viewport={"width": 390, "height": 844})
    page = stranger.new_page()
    page.goto(gm.page.url)
    expect(page.locator("main")).to_contain_text("You are not at this table (yet)")
    expect(page.locator("#connection")).to_have_text("not joined")
    stranger.close()
    gm.context.close()


def test_a_refusal_stays_in_view_when_the_page_reconnects(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """A server process killed a moment after it refused a command (its socket reconnecting to
    another), a phone changing networks: the page is live again and its user still reads why
    their command was not done. Before: the refusal went the moment the page was live again,
    and the command had vanished without a word."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page
    line = page.locator("section.actor[data-actor='ada'] form.command-line")
    line.locator("input").fill("ada: move nowhere")
    line.get_by_role("button", name="Send").click()
    refusal = page.locator("#error")
    expect(refusal).to_be_visible()
    said = refusal.inner_text()
    alice.context.set_offline(True)
    expect(page.locator("#connection")).to_have_text(re.compile("^offline"))
    alice.context.set_offline(False)
    expect(page.locator("#connection")).to_have_text("live again (reconnected)")
    command(gm, "gm", "narrate 'The door bangs'")  # the page has caught up since
    wait_log(alice, "The door bangs")
    expect(refusal).to_be_visible()
    assert refusal.inner_text() == said
    alice.context.close()
    gm.context.close()


def test_controls_the_server_did_not_answer_for_are_asked_again_never_left_stale(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """The GM hands the go to Ada while the server cannot answer Alice's page for its controls
    (the process it asked killed in the middle, the server restarting). Before: the page said
    "No answer yet … says here whether it went through" of a command Alice never sent, and
    kept the controls of the moment before, without her attack, until something else
    happened at the table."""
    gm, alice = brawl(browser, served, tmp_path)
    page = alice.page
    ada = page.locator("section.actor[data-actor='ada']")
    attack = ada.locator("form.command[data-verb='attack']")
    expect(ada).to_be_visible()
    expect(attack).to_have_count(0)  # not her go yet
    asked: list[str] = []
    page.route("**/legal-commands**", lambda route: (asked.append(route.request.url),
                                                     route.abort()))
    command(gm, "gm", "open ada")
    expect(page.locator(".controls")).to_contain_text(
        "Bringing the controls up to date: the server did not answer just now")
    expect(ada).to_have_count(0)  # none of the moment before
    expect(page.locator("#error")).to_be_hidden()  # nothing of hers is on its way
    assert asked
    page.unroute("**/legal-commands**")  # the server answers again: the page asks by itself
    expect(attack).to_have_count(1)
    expect(page.locator(".controls")).not_to_contain_text("Bringing the controls")
    expect(page.locator("#error")).to_be_hidden()
    assert alice.errors == [], alice.errors
    alice.context.close()
    gm.context.close()


def test_a_command_the_server_could_not_do_just_now_is_sent_again_by_itself(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """While the server's database restarts, a command is answered 503 "nothing was done …
    try again in a moment" (tests/server/test_outage). Before: the page showed that and
    dropped the command, and the player had to send it again; now it says it is not done
    yet and sends it again by itself, once, until it goes through."""
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page
    refused = []

    def database_restarting(route: Route) -> None:  # the server's own 503, twice
        if len(refused) < 2:
            refused.append(route.request.post_data)
            database_away(route)
        else:
            route.continue_()

    page.route("**/commands", database_restarting)
    line = attack_typed(alice)
    line.get_by_role("button", name="Send").click()
    expect(page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    assert len(refused) == 2 and refused[0] == refused[1]  # the same command, the same key
    expect(page.locator("#error")).to_be_hidden()
    expect(attacks(gm)).to_have_count(1)
    wait_log(alice, "[3, 3, 2]")
    assert alice.errors == [], alice.errors
    alice.context.close()
    gm.context.close()


def test_while_the_database_stays_away_the_page_says_the_command_is_not_done_yet(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm, alice = brawl(browser, served, tmp_path, "open ada")
    page = alice.page
    page.route("**/commands", database_away)
    attack_typed(alice).get_by_role("button", name="Send").click()
    expect(page.locator("#error")).to_contain_text(
        "Not done yet: the server cannot reach its database just now, so nothing was done. "
        "The page sends it again by itself")
    page.unroute("**/commands")  # the database is back: the next try goes through
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#notice")).to_contain_text("Done: ada: attack imp")
    expect(page.locator("#error")).to_be_hidden()
    expect(attacks(gm)).to_have_count(1)
    alice.context.close()
    gm.context.close()


def test_a_command_refused_for_too_many_requests_is_sent_again_when_the_server_says(
        browser: Browser, tmp_path: Path) -> None:
    """A phone that asked too much too fast (the server's rate limit: one request in five
    seconds once its burst is spent) sends a command: the server answers 429, nothing done,
    try again in 5 s. Before: the page showed the server's "too many requests: at most 0.2 a
    second per token …" and dropped the command; now it says it is not done, sends it again
    by itself when the server said (5 s at most: less where part of the next request's turn
    has passed), and it is applied once."""
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    with running(db, str(tmp_path / "server.log"), args=("--rate-limit", "0.2/40")) as served:
        table = new_table(served.url)
        brawl = table.conflict(toml=VERS)
        assert table.gm.post(brawl + "/commands", json={"command": "open ada"}).status_code == 200
        alice = join(browser, f"{served.url}/join#{table.invite('alice').token}", SLOW)
        expect(alice.page.locator("section.actor[data-actor='ada']")).to_be_visible()
        listed = f"{served.url}/api/tables/{table.id}/conflicts"
        for _ in range(60):  # the phone's burst spent (its cookie: its token's bucket)
            if alice.context.request.get(listed).status == 429:
                break
        else:
            pytest.fail("the rate limit never answered 429")
        attack_typed(alice).get_by_role("button", name="Send").click()
        expect(alice.page.locator("#error")).to_contain_text(re.compile(
            "Not done: this screen sent more requests than the server takes in a moment, so "
            r"nothing was done\. The page sends it again by itself in [1-5] s"))
        expect(alice.page.locator("#notice")).to_contain_text("Done: ada: attack imp",
                                                              timeout=30_000)
        expect(alice.page.locator("#error")).to_be_hidden()
        r = table.gm.get(brawl)
        assert r.status_code == 200, r.text
        assert r.text.count("[3, 3, 2]") == 1, r.text  # applied once
        assert alice.errors == [], alice.errors
        alice.context.close()
