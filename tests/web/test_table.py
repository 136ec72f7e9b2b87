"""The table in a real browser: a GM and two players (three Chromium contexts) play a round
of each ruleset through the pages alone, against a real ``fracas serve``.

Each test checks what the people at the table would notice: every page follows the round,
undo takes a step back on every page, a player's page reconnects by itself after a drop and
misses nothing, a name that is markup shows as text, every control has a label, and no
player's page holds a hidden character or a GM-only value in any channel (DOM with all its
attributes, title, storage, WebSocket frames, API answers).
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

import fracas
from tests.server.support import Served, start_server
from tests.web.browser import (
    Screen,
    command,
    create_from_example,
    invite,
    join,
    leaks,
    sent_log,
    shown_log,
    start_table,
    undo,
    unlabelled_controls,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import BY_RULESET, SECRETS, VERS, XSS

pytestmark = pytest.mark.timeout(150)


@contextmanager
def table(browser: Browser, served: Served, ruleset: str, tmp: Path
          ) -> Iterator[tuple[Screen, Screen, Screen]]:
    """The GM's screen with a conflict of ``ruleset`` (uploaded as a scenario file) and the
    phone screens of alice and bob, who joined by the links the GM issued."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, BY_RULESET[ruleset], tmp)
    alice = join(browser, invite(gm, "alice"))
    bob = join(browser, invite(gm, "bob"))
    try:
        yield gm, alice, bob
    finally:
        for screen in (gm, alice, bob):
            screen.context.close()


def everyone_sees(screens: tuple[Screen, ...], text: str) -> None:
    """Every screen's log shows ``text``."""
    for screen in screens:
        try:
            wait_log(screen, text)
        except Exception as exc:
            said = screen.page.locator(".log .said").all_inner_texts()[:4]
            raise AssertionError(f"{text!r} not in the log of {screen.page.title()!r}: "
                                 f"{said}") from exc


def acting(screen: Screen) -> str:
    """The "Acting:" line of the screen's round panel."""
    return screen.page.locator(".round-region p", has_text="Acting:").inner_text()


def readable(screen: Screen) -> str:
    """What a player reads of the conflict: the title, the round's head, the field and the log
    (the controls are left out: they are rebuilt with new element ids when the legal commands
    arrive)."""
    page = screen.page
    parts = [page.title(), page.locator(".round-region .panel > div").first.inner_html(),
             page.locator(".field-region").inner_html(), page.locator(".log-region").inner_html()]
    return "\n".join(parts)


def check_the_table_holds(gm: Screen, players: tuple[Screen, ...]) -> None:
    """What must hold on every screen at the end of a round."""
    for screen in (gm, *players):
        assert unlabelled_controls(screen.page) == []
        assert screen.dialogs == [], "a name's markup ran as a script"
        assert screen.errors == [], screen.errors
        assert screen.console == [], screen.console  # no invalid pattern, no missing file
        assert screen.page.locator("img[src='x']").count() == 0
        expect(screen.page.locator(".person .name", has_text=XSS)).to_have_count(1)
        assert shown_log(screen) == sent_log(screen)  # the rulesets' sentences, each one
    for screen in players:
        assert leaks(screen, SECRETS) == []


def test_a_round_of_etherscope(browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "etherscope", tmp_path) as (gm, alice, bob):
        players = (alice, bob)
        # the hidden lurker moves first: nothing on a player's page points at anyone (the move
        # is the GM's, as the view's lines say; before: "Acting: nobody")
        for p in players:
            assert acting(p).startswith("Acting: the GM")
            expect(p.page.locator(".person.acting")).to_have_count(0)
            expect(p.page.locator(".round-region")).to_contain_text(
                "awareness moves, most awareness successes first (ES-START-5)")
        before = readable(alice)
        command(gm, "gm", "note 'zqsecret plan' visibility=gm")
        wait_log(gm, "note 'zqsecret plan' visibility=gm")
        alice.page.wait_for_timeout(600)
        assert readable(alice) == before  # nothing moved
        command(gm, "gm", "zqdora: done")
        command(alice, "ada", "ada: done")
        command(bob, "bruno", "bruno: done")
        everyone_sees((gm, alice, bob), "bruno: done")
        command(gm, "gm", "round")
        expect(alice.page.locator(".round-region")).to_contain_text(
            "declaring acting initiatives (ES-ROUND-2)")
        for p, who in ((alice, "Ada"), (bob, "Bruno")):  # everyone declares at once
            expect(p.page.locator("#turn-banner")).to_have_text(
                f"Declare your acting initiatives: {who}")
        expect(gm.page.locator(".round-region")).to_contain_text(
            re.compile("Still to declare: Ada, Bruno, .*zqlurker", re.IGNORECASE))
        expect(alice.page.locator(".round-region p", has_text="Still to declare:")
               ).to_have_text("Still to declare: Ada, Bruno, " + XSS
                              + " · declaring acting initiatives (ES-ROUND-2)")
        command(alice, "ada", "ada: declare 8")
        expect(alice.page.locator("#turn-banner")).to_be_hidden()
        everyone_sees((gm, alice), "ada: declare 8")  # others learn it at the countdown
        expect(alice.page.locator(".lane")).to_contain_text("8 Ada")
        undo(gm)  # the GM takes the declaration back: with nobody declared, no empty list
        expect(alice.page.locator(".panel", has_text="Countdown").locator("ol")).to_have_count(0)
        command(alice, "ada", "ada: declare 7,1")  # a split initiative
        command(bob, "bruno", "bruno: declare 9")
        command(gm, "gm", "imp: declare 6")
        command(gm, "gm", "zqdora: declare 3")
        command(gm, "gm", "countdown")
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        expect(bob.page.locator("#turn-banner")).to_have_text("Your turn: Bruno")
        expect(bob.page.locator(".round-region")).to_contain_text(
            "the countdown: actions resolve from the highest acting initiative down (ES-ROUND-4)")
        expect(alice.page).not_to_have_title(re.compile("Your turn"))
        # the odds before the roll: of the pending roll, and of the command being typed
        expect(bob.page.locator(".odds-box")).to_contain_text("%")
        line = bob.page.locator("section.actor[data-actor='bruno'] form.command-line")
        line.locator("input").fill("bruno: attack imp")
        expect(line.locator("output")).to_contain_text("%")
        command(bob, "bruno", "bruno: attack imp dice=5,6")
        expect(bob.page.locator("#notice .outcome")).to_contain_text(  # in view on the phone
            "[5, 6] = 2 vs difficulty")
        for p in (gm, alice, bob):  # the result with its breakdown, on every page
            newest = p.page.locator(".log .entry").first
            expect(newest).to_contain_text("Bruno: attack ")  # (the imp's name is markup)
            expect(newest).to_contain_text("[5, 6] = 2 vs difficulty")
            expect(newest.locator("b")).to_have_text(["5", "6"])  # two successes, in bold
        expect(gm.page.locator(".log .entry .label").first).to_have_text(re.compile(r"^v\d+$"))
        expect(alice.page.locator(".log .entry .label").first).to_have_text(re.compile(r"^#\d+$"))
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        command(alice, "ada", "ada: attack imp dice=1,2")
        everyone_sees((gm, alice, bob), "ada: attack imp dice=1,2")
        gm.page.get_by_label("Range from Ada to Bruno").select_option("close")  # the GM edits
        expect(gm.page.locator("#notice")).to_contain_text(  # and reads what it did, at once
            "Done: set-range ada bruno close")
        for p in players:
            row = p.page.locator(".matrix tbody tr", has_text="Bruno").first
            expect(row).to_contain_text("close")
        for p in players:
            expect(p.page.locator(".matrix")).to_be_visible()
            expect(p.page.locator(".matrix")).not_to_contain_text("Zqlurker")
        check_the_table_holds(gm, players)


@pytest.mark.rule("ES-ROUND-2")
def test_between_rounds_the_lane_shows_the_last_rounds_initiatives(browser: Browser,
                                                                   served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase", story=True)  # its script ends round 1
    alice = join(browser, invite(gm, "alice"))
    for screen in (gm, alice):
        countdown = screen.page.get_by_role("region", name="Countdown")
        expect(countdown).to_contain_text("between rounds: the GM starts the next one")
        expect(countdown).to_contain_text("The last round's acting initiatives:")
        expect(countdown.locator(".lane li")).not_to_have_count(0)


def test_a_round_of_fabula_ultima(browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        players = (alice, bob)
        command(alice, "ada", "ada: initiative dice=5,5,6,4")  # Bruno supports, Ada leads
        everyone_sees((gm, alice, bob), "ada: initiative dice=5,5,6,4")
        expect(alice.page.locator(".side.on-turn h3")).to_contain_text("heroes")
        command(alice, "ada", "ada: attack imp dice=6,5")
        for p in (gm, alice, bob):
            expect(p.page.locator(".log .entry").first).to_contain_text("attack")
        off_turn = alice.page.locator("section.actor[data-actor='ada'] summary")  # foes' turn
        expect(off_turn).to_contain_text(["check outside the turn",  # under her name
                                          "spend a Fabula Point", "spend MP, IP or HP"])
        command(gm, "gm", "imp: attack ada dice=3,4")
        everyone_sees((gm, alice, bob), "imp: attack ada dice=3,4")
        command(bob, "bruno", "bruno: attack imp dice=5,4")
        for p in (gm, alice, bob):  # the roll and its breakdown (the foe's HP stays hidden)
            expect(p.page.locator(".log .entry").first).to_contain_text("[5] + [4]")
        undo(gm)
        for p in (gm, alice, bob):  # the attack taken back is struck through on every page
            expect(p.page.locator(".log .entry").first).to_contain_text("undo")
            expect(p.page.locator(".log .entry.undone")).to_have_count(1)
            expect(p.page.locator(".log .entry.undone .said")).to_have_text(  # Alice: a label
                re.compile(r"^(bruno: attack imp dice=5,4|Bruno: attack)$"))
            expect(p.page.locator(".log .entry.undone .tag")).to_have_text("undone")
        # Bob's foot of the screen no longer says his attack was done (before: a stale
        # "Done: …" with its hit stayed there)
        expect(bob.page.locator("#notice")).to_have_text(re.compile(
            r"^Undone: bruno: attack imp dice=5,4"))
        expect(bob.page.locator("#notice .outcome")).to_be_hidden()
        # brought back, it reads as done again, with its outcome (before: "Undone: …" stayed)
        gm.page.locator(".log-region").get_by_role("button", name="Redo").click()
        expect(bob.page.locator("#notice .done")).to_have_text(re.compile(
            r"^Done: bruno: attack imp dice=5,4"))
        expect(bob.page.locator("#notice .outcome")).to_contain_text("[5] + [4]")
        undo(gm)
        expect(bob.page.locator("#notice .done")).to_have_text(re.compile(r"^Undone: "))
        command(bob, "bruno", "bruno: attack imp dice=5,4")
        for p in (gm, alice, bob):
            expect(p.page.locator(".log .entry").first).to_contain_text("[5] + [4]")
        for p in players:  # the GM's exact HP of the foe never reaches a player
            expect(p.page.locator(".member", has_text="Ada")).to_contain_text("HP")
            expect(p.page.locator(".member", has_text=XSS)).not_to_contain_text("HP")
        expect(gm.page.locator(".member", has_text=XSS)).to_contain_text("HP")
        check_the_table_holds(gm, players)
        # rolls behind the screen: unseen changes nothing on a player's page; a ghost roll
        # shows that the GM rolled, never the dice or why
        before = readable(alice)
        gm.page.get_by_label("Why (GM only)").fill("zqsecret ambush check")
        gm.page.get_by_role("button", name="Roll behind the screen").click()
        expect(gm.page.locator(".log .entry").first).to_contain_text("zqsecret ambush check")
        alice.page.wait_for_timeout(600)
        assert readable(alice) == before
        gm.page.get_by_label("Players", exact=True).select_option("ghost")
        gm.page.get_by_role("button", name="Roll behind the screen").click()
        for p in players:
            expect(p.page.locator(".log .entry").first).to_contain_text(
                "the GM: a roll behind the screen")
            expect(p.page.locator(".log .entry").first).not_to_contain_text("1d20")
        # a shared screen by the public link: it follows the conflict and can do nothing
        shared = join(browser, invite(gm, None))
        expect(shared.page.locator("#who")).to_have_text("Onlooker")
        expect(shared.page.locator(".member", has_text="Bruno")).to_be_visible()
        assert shared.page.locator("section.actor").count() == 0
        assert leaks(shared, SECRETS) == []
        shared.context.close()
        # the GM revokes Bob's link: his page is told at once, Alice's stays live
        gm.page.get_by_role("button", name="Revoke the link of bob").click()
        gm.page.get_by_role("dialog").get_by_role("button", name="Revoke bob's link").click()
        expect(bob.page.locator("#connection")).to_contain_text("revoked")
        expect(alice.page.locator("#connection")).to_have_text("live")


@pytest.mark.rule("VR-TURN-3", "VR-MOVE-2")
def test_a_round_of_vers_with_a_dropped_connection(browser: Browser, served: Served,
                                                   tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        players = (alice, bob)
        command(gm, "gm", "open ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        ada = alice.page.locator("section.actor[data-actor='ada']")  # a zone by its name
        # a step to the next zone: one button, nothing to roll or fill in (VR-MOVE-2)
        expect(ada.get_by_role("button", name="move The bar")).to_have_count(1)
        expect(ada.locator("summary", has_text="move The bar")).to_have_count(0)
        attack = alice.page.locator("summary", has_text=re.compile("^attack$"))
        target = ada.locator("details", has=attack).locator("select[name='target']")
        expect(target).to_have_value("imp")  # the foe first, then Bruno, her friend
        expect(target.locator("option")).to_have_count(2)
        command(alice, "ada", "ada: attack imp weapon=sword dice=3,3,2")
        for p in (gm, alice, bob):
            expect(p.page.locator(".log .entry").first).to_contain_text("[3, 3, 2]")
        command(alice, "ada", "ada: handoff bruno")
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        undo(gm)
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        expect(bob.page).not_to_have_title(re.compile("Your turn"))
        expect(gm.page.locator(".log .entry.undone .said")).to_have_text("ada: handoff bruno")
        gm.page.locator(".log-region").get_by_role("button", name="Redo").click()
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        expect(gm.page.locator(".log .entry.undone")).to_have_count(0)  # brought back
        # the server goes away mid-round and comes back: every page reconnects by itself
        port = int(served.url.rsplit(":", 1)[1])
        served.kill(signal.SIGKILL)
        for p in (gm, alice, bob):
            expect(p.page.locator("#connection")).to_contain_text("reconnecting")
        again = start_server(served.db, served.log_path, port=port)
        served.process = again.process  # the fixture stops this one
        for p in (gm, alice, bob):
            expect(p.page.locator("#connection")).to_have_text("live again (reconnected)")
        command(bob, "bruno", "bruno: handoff imp")
        everyone_sees((gm, alice, bob), "bruno: handoff imp")
        command(gm, "gm", "imp: attack ada dice=4,4,4")
        command(gm, "gm", "imp: handoff")
        everyone_sees((gm, alice, bob), "imp: handoff")
        for p in (gm, alice, bob):  # between turns: the head says the turn is over (VR-TURN-3)
            expect(p.page.locator(".round-region")).to_contain_text(
                "Acting: nobody · turn 1 is over; the table picks who opens turn 2")
        for p in players:  # each entry once: nothing missed or doubled over the drop
            expect(p.page.locator(".log .said", has_text=re.compile("^bruno: handoff imp$"))
                   ).to_have_count(1)
            expect(p.page.locator("svg.zones")).to_contain_text("Common room")
        check_the_table_holds(gm, players)


@pytest.mark.rule("VR-MOVE-1")
def test_zones_listed_by_their_ids_alone_are_drawn_once_each(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """A scenario may list its zones as ids alone (zones = ["bar", "floor", "door"]): the map
    draws each once, named by its id (before: an extra circle with no name beside them)."""
    named = VERS[VERS.index("zones = ["):VERS.index("links = ")]
    plain = VERS.replace(named, 'zones = ["bar", "floor", "door"]\n')
    assert plain != VERS
    gm = start_table(browser, served.url)
    try:
        upload_scenario(gm, plain, tmp_path)
        expect(gm.page.locator("svg.zones circle.zone")).to_have_count(3)
        expect(gm.page.locator("svg.zones text.zone-name")).to_have_text(["bar", "floor", "door"])
    finally:
        gm.context.close()


def test_a_command_whose_answer_is_lost_is_sent_again_and_applied_once(
        browser: Browser, served: Served) -> None:
    gm = start_table(browser, served.url)
    try:
        create_from_example(gm, "vers-tavern-brawl")
        sent: list[dict[str, object]] = []

        def lose_the_first_answer(route: Route) -> None:
            sent.append(route.request.post_data_json)
            if len(sent) == 1:
                route.fetch()  # the command reaches the server, which applies it,
                route.abort()  # and its answer is lost on the way back (a phone's wifi)
            else:
                route.continue_()

        gm.page.route("**/commands", lose_the_first_answer)
        command(gm, "gm", "note 'only once'")
        expect(gm.page.locator("#notice")).to_contain_text("Done: note 'only once'")
        assert len(sent) == 2 and sent[0]["key"] == sent[1]["key"] and sent[0]["key"]
        expect(gm.page.locator(".log .entry", has_text="only once")).to_have_count(1)
        assert gm.errors == [] and gm.console == []
    finally:
        gm.context.close()


def test_a_players_field_sends_what_she_typed_and_the_server_says_why_not(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, BY_RULESET["etherscope"], tmp_path)
    alice = join(browser, invite(gm, "alice"))
    line = alice.page.locator("section.actor[data-actor='ada'] form.command-line input")
    error = alice.page.locator("#error")

    def refused(text: str) -> tuple[str, str]:
        """The refusal shown for ``text`` and the server's whole answer."""
        line.fill(text)
        line.press("Enter")
        expect(error).to_be_visible()
        shown = error.locator("span").inner_text()
        answers = [r for r in alice.responses if r.url.endswith("/commands")]
        body = answers[-1].text()
        alice.page.keyboard.press("Escape")
        expect(error).to_be_hidden()
        return shown, body

    shown, _ = refused("undo")  # she wrote no actor: the page puts none before a GM's verb
    assert "GM only" in shown and "without an actor" not in shown, shown
    answers = {who: refused(f"{who}: done") for who in ("bruno", "zqdora", "nobody")}
    for who, (shown, body) in answers.items():
        assert shown == f"alice does not play '{who}'", shown  # not "'bruno:' is not a command"
        # a hidden character (zqdora), another's (bruno) and none at all: the same answer
        assert body.replace(who, "ID") == answers["bruno"][1].replace("bruno", "ID"), body
    line.fill("note ready")  # without her character's name: Ada's
    line.press("Enter")
    expect(alice.page.locator("#notice")).to_contain_text("Done: ada: note ready")
    wait_log(gm, "ada: note ready")
    assert leaks(alice, tuple(s for s in SECRETS if s != "zqdora")) == []  # (she typed it)
    alice.context.close()
    gm.context.close()


def test_a_revoked_link_loses_its_commands_at_once(browser: Browser, served: Served,
                                                   tmp_path: Path) -> None:
    """Before: Revoke acted at once, without asking: a misclick cut a player off mid-game."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        expect(bob.page.locator("section.actor[data-actor='bruno']")).to_have_count(1)
        command(gm, "gm", "open bruno")
        banner = bob.page.locator("#turn-banner")
        expect(banner).to_have_text("Your turn: Bruno")
        # asked first, naming whose link it is: a misclick (Cancel, or Escape) cuts no one off
        revoke = gm.page.get_by_role("button", name="Revoke the link of bob")
        for answer in ("Cancel", "Escape"):
            revoke.click()
            asked = gm.page.get_by_role("dialog")
            expect(asked).to_contain_text("Revoke bob's link (")
            expect(asked).to_contain_text("Bob's page loses its commands at once")
            expect(asked.get_by_role("button", name="Cancel")).to_be_focused()
            if answer == "Cancel":
                asked.get_by_role("button", name="Cancel").click()
            else:
                gm.page.keyboard.press("Escape")
            expect(asked).to_have_count(0)
        expect(bob.page.locator("#connection")).to_have_text("live")
        expect(revoke).to_be_visible()
        expect(gm.page.locator(".links")).not_to_contain_text("revoked")
        revoke.click()
        gm.page.get_by_role("dialog").get_by_role("button", name="Revoke bob's link").click()
        expect(bob.page.locator("#connection")).to_contain_text("revoked")
        expect(bob.page.locator("section.actor")).to_have_count(0)  # not live until a send fails
        expect(bob.page.locator(".round-region")).to_contain_text(
            "No commands: this link was revoked")
        expect(banner).to_be_hidden()  # his turn is no more his to take from this page
        expect(bob.page).not_to_have_title(re.compile("Your turn"))
        expect(alice.page.locator("section.actor[data-actor='ada']")).to_have_count(1)


@pytest.mark.rule("VR-CHASE-1", "VR-CHASE-2", "VR-CHASE-3")
def test_a_chase_roll_due_is_the_rollers_turn_on_the_page(browser: Browser,
                                                          served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase")  # the chase begun, nobody's go opened
    alice = join(browser, invite(gm, "alice"))
    banner = alice.page.locator("#turn-banner")
    expect(banner).to_have_text("Your chase roll: Ada")  # was: no banner, "picks who opens"
    expect(gm.page.locator(".round-region")).to_contain_text("a chase roll is due")
    expect(gm.page.locator(".round-region")).not_to_contain_text("picks who opens")
    # no turn is ever opened in a chase alone: the head tells the chase's own progress on its
    # scale (length 2: 5 positions, from the centre), not "round 0"
    for screen in (gm, alice):
        expect(screen.page.locator(".round-region .status")).to_have_text(
            "Through the market · chase c1: pursuit, position 3 of 5 · running")
    command(alice, "ada", "ada: run c1 dice=2,2,2")  # the hunter gains: one toward 1
    for screen in (gm, alice):
        expect(screen.page.locator(".round-region .status")).to_have_text(
            "Through the market · chase c1: pursuit, position 2 of 5 · running")
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("VR-CHASE-3", "VR-CHASE-4", "VR-CHASE-7", "VR-CHASE-8")
def test_a_chase_says_what_the_ends_of_its_scale_mean_and_that_no_go_is_under_way(
        browser: Browser, served: Served) -> None:
    """The scale is boxes 1 to 5 with a dot: under it, what each end means for this chase
    (pursuit: the hunter may interpose at 1, the quarry gets away at the top; tracking:
    contact, completely away). With no turn open the Popcorn says the chase rolls on its own
    and the head lists nobody 'still to act'; before, the Popcorn read 'nobody is acting' and
    'Not gone: Ada, The cutpurse' under the head's 'Acting: Ada · a chase roll is due'."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase")
    alice = join(browser, invite(gm, "alice"))
    for screen in (gm, alice):
        expect(screen.page.locator(".chase .scale-ends")).to_have_text(
            "1: Ada may interpose · 5: The cutpurse gets away")
        popcorn = screen.page.locator("section.panel", has_text="Popcorn")
        expect(popcorn).to_have_text(re.compile(
            r"no turn open: the chase rolls on its own \(Ada rolls next; VR-CHASE-8\)$"))
        expect(screen.page.locator(".round-region")).not_to_contain_text("Still to act")
    command(gm, "gm", "track c1 length=2")  # the cutpurse slips into the crowd
    for screen in (gm, alice):
        expect(screen.page.locator(".chase .scale-ends")).to_have_text(
            "1: Ada makes contact · 5: The cutpurse is completely away")
    command(gm, "gm", "open ada")  # a go under way: the Popcorn counts it as ever
    for screen in (gm, alice):
        expect(screen.page.locator("section.panel", has_text="Popcorn")).to_contain_text(
            "acting: Ada (2 actions left)")
        expect(screen.page.locator(".round-region")).to_contain_text("Still to act")
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("VR-CHASE-6", "VR-CHASE-8")
def test_a_chase_only_conflict_whose_chase_is_over_says_nothing_is_to_roll(
        browser: Browser, served: Served) -> None:
    """The cutpurse is captured and no turn was ever opened: the Round says the chase is
    over and nothing is to roll, the GM may open a turn or end, and lists nobody still to act
    (before: 'the table picks who opens the turn · Still to act: Ada, The cutpurse', and the
    Popcorn 'Not gone: Ada, The cutpurse')."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase", story=True)
    alice = join(browser, invite(gm, "alice"))
    for screen in (gm, alice):
        round_ = screen.page.locator(".round-region")
        expect(round_).to_contain_text(
            "Acting: nobody · the chase is over (c1: captured): nothing to roll; the GM may "
            "open a turn or end the conflict")
        expect(round_).not_to_contain_text("Still to act")
        expect(screen.page.locator("section.panel", has_text="Popcorn")).to_have_text(re.compile(
            r"no turn open: the chase is over \(c1: captured\); nothing rolls until the GM "
            r"opens a turn$"))
    command(gm, "gm", "open ada")  # a go under way: the turn reads as ever
    expect(alice.page.locator(".round-region")).to_contain_text("Still to act")
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("VR-CHASE-4", "VR-CHASE-8")
def test_a_chase_whose_quarry_got_away_says_it_waits_on_the_gm(browser: Browser,
                                                                served: Served) -> None:
    """The cutpurse gets away at the top of the scale, no turn ever opened: the Round and the
    Popcorn say the chase waits on the GM's turn to tracking. They said "the table picks who
    opens the turn", "Still to act: Ada, The cutpurse" and "Not gone: Ada, The cutpurse",
    though nobody has a go to take."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase")
    alice = join(browser, invite(gm, "alice"))
    for dice in ("6,6,6", "6,6,6"):  # from the centre, 3 → 4 → 5: escaped
        command(alice, "ada", f"ada: run c1 dice={dice}")
    waiting = ("chase c1: The cutpurse got away; the GM may turn it to tracking or abandon it "
               "(VR-CHASE-4)")
    for screen in (gm, alice):
        round_ = screen.page.locator(".round-region")
        expect(round_).to_contain_text(f"Acting: nobody · {waiting}")
        expect(round_).not_to_contain_text("Still to act")
        expect(round_).not_to_contain_text("picks who opens")
        expect(screen.page.locator("section.panel", has_text="Popcorn")).to_have_text(
            re.compile(rf"no turn open: {re.escape(waiting)}$"))
    command(gm, "gm", "track c1 length=2")  # the trail: Ada rolls again
    expect(alice.page.locator("#turn-banner")).to_have_text("Your chase roll: Ada")
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("VR-CHASE-5")
def test_the_gms_tactics_show_on_the_chase_before_the_players_roll(browser: Browser,
                                                                  served: Served) -> None:
    """Tactics are the GM's (the seed: "The GM should impose bonuses or penalties"): the GM
    sets them from its own controls, Alice reads them on the chase before she rolls, and her
    chase roll's form has no modifier of her own to fill in (the GM's has)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase")
    alice = join(browser, invite(gm, "alice"))
    expect(gm.page.locator("section.actor[data-actor='gm'] form[data-verb=tactics]")
           ).to_have_count(1)
    command(gm, "gm", "tactics c1 -2 why='the crowded festival'")
    for screen in (gm, alice):
        expect(screen.page.locator(".chase .tactics")).to_have_text(
            "next roll −2 for tactics: the crowded festival")
    run = alice.page.locator("section.actor[data-actor='ada'] form[data-verb=run]")
    expect(run).to_have_count(1)
    expect(run.locator("[name=mod]")).to_have_count(0)
    expect(gm.page.locator("section.actor[data-actor='ada'] form[data-verb=run] [name=mod]")
           ).to_have_count(1)
    command(alice, "ada", "ada: run c1 dice=2,2,2")
    for screen in (gm, alice):
        expect(screen.page.locator(".chase .tactics")).to_have_count(0)  # taken by the roll
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("ES-START-1")
def test_who_still_rolls_awareness_is_asked_on_the_page(browser: Browser,
                                                        served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")  # fresh: nobody has rolled awareness
    alice = join(browser, invite(gm, "alice"))
    round_region = gm.page.locator(".round-region")
    expect(round_region).to_contain_text(
        "Still to roll awareness: Ada, Bruno, The zepcar driver")  # was "Acting: nobody"
    banner = alice.page.locator("#turn-banner")
    expect(banner).to_have_text("Roll awareness: Ada")
    command(alice, "ada", "ada: awareness dice=5,6,1")
    expect(banner).to_be_hidden()
    expect(round_region).to_contain_text("Still to roll awareness: Bruno, The zepcar driver")
    hint = gm.page.locator("#act-for-hint")
    expect(hint).to_have_count(0)
    command(gm, "bruno", "bruno: awareness dice=5,1")
    command(gm, "zepcar", "zepcar: awareness dice=2,2")
    # nobody is asked for anything now: the GM is told where an ambush is tried (ES-START-2)
    # (before: "Awareness: nobody · every roll is in: …")
    expect(round_region).to_contain_text("Awareness: every roll is in · ambushes may be tried "
                                         "now (ES-START-2), then the awareness moves")
    expect(hint).to_have_text("To try an ambush, pick the ambusher under Act for.")
    gm.page.select_option("#act-for", label="The zepcar driver")
    expect(gm.page.locator('[data-actor="zepcar"] summary', has_text="ambush")).to_have_count(1)
    expect(hint).to_have_count(0)
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


def test_each_characters_sheet_opens_on_its_card_and_the_gms_marks_what_players_do_not_read(
        browser: Browser, served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")  # the Thug's skills are GM-only
    alice = join(browser, invite(gm, "alice"))

    def sheet(screen: Screen, name: str) -> str:
        fold = screen.page.get_by_role("group", name=f"{name}'s sheet")
        fold.locator("summary").click()
        expect(fold.locator("dl.sheet")).to_be_visible()
        return " ".join(fold.locator("dl.sheet").inner_text().split())

    thug = sheet(gm, "Thug")
    assert "skills close combat 2, athletics 1 GM only" in thug, thug
    assert "weapons club (EV 4, close)" in thug and thug.count("GM only") == 1, thug
    seen = sheet(alice, "Thug")
    assert "weapons club (EV 4, close)" in seen and "skills" not in seen, seen
    assert "close combat 2" not in alice.page.content()
    ada = sheet(alice, "Ada")
    assert "skills athletics 2, close combat 3, discipline 1" in ada, ada
    assert "weapons sword (EV 5, close), knife (EV 2, thrown)" in ada, ada
    command(alice, "ada", "ada: move bar")  # a redraw keeps the sheet she opened open
    wait_log(alice, "Ada moves")
    expect(alice.page.get_by_role("group", name="Ada's sheet").locator("dl.sheet")).to_be_visible()
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


def test_the_gms_sheet_says_what_a_player_reads_of_a_bond_with_one_hidden_from_them(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: Ada's bonds line was tagged "GM only" as a whole on the GM's screen, though
    Alice reads her bond with Zed (only the one with the concealed captain is the GM's)."""
    bundled = Path(fracas.__file__).parent / "scenarios" / "fabula-ultima-ambush.toml"
    toml = re.sub(r'(?s)script = """.*?"""', 'script = "conceal captain"',
                  bundled.read_text(encoding="utf-8"), count=1)
    toml = toml.replace("bonds = { bruno = 2 }", "bonds = { captain = 2, zed = 1 }", 1)
    gm = start_table(browser, served.url)
    upload_scenario(gm, toml, tmp_path)
    alice = join(browser, invite(gm, "alice"))

    def bonds(screen: Screen) -> str:
        fold = screen.page.get_by_role("group", name="Ada's sheet")
        fold.locator("summary").click()
        line = fold.locator("dd").filter(has_text=re.compile("zed 1"))
        return " ".join(line.inner_text().split())

    assert bonds(gm) == "Bandit Captain 2, zed 1 alice reads: zed 1"
    assert bonds(alice) == "zed 1"
    assert leaks(alice, ("captain 2",)) == []


def test_a_long_log_keeps_the_readers_place_as_the_table_moves_on(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    # a story of 150 entries; Alice reads far down it on her phone when the GM narrates: the
    # new entry goes on top and what she reads stays where it was (the log was drawn anew on
    # every frame: her place went back to the top, and a long log cost every frame its length)
    story = "\n".join(f"narrate 'Line {n} of the tale'" for n in range(150))
    gm = start_table(browser, served.url)
    script = f'\n[script]\ncommands = """\n{story}\n"""\n'
    upload_scenario(gm, BY_RULESET["vers"] + script, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    log = alice.page.locator(".log")
    reading = log.locator(".entry", has_text="Line 100 of the tale")
    reading.scroll_into_view_if_needed()
    before = reading.bounding_box()
    assert before is not None and log.evaluate("el => el.scrollTop") > 0
    command(gm, "gm", "narrate 'The roof caves in!'")
    expect(log.locator(".entry").first).to_contain_text("The roof caves in!")
    after = reading.bounding_box()
    assert after is not None and abs(after["y"] - before["y"]) < 2, (before, after)
    assert shown_log(alice) == sent_log(alice)
    for screen in (gm, alice):
        assert screen.errors == [], screen.errors
        screen.context.close()


FLIGHT = """
ruleset = "vers"
title = "Out of the Drowned Rat"
script = "chase c1 hunter=bouncer quarry=ada length=2"

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { agility = 2, skills = { athletics = 2 } }

[[participants]]
id = "bouncer"
name = "The bouncer"
stats = { agility = 1, skills = { athletics = 1 } }
"""


@pytest.mark.rule("VR-CHASE-6", "VR-CHASE-8")
def test_a_fleeing_player_character_reads_that_at_1_it_rolls_to_evade(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Ada, the quarry, makes the chase's rolls: at 1 the interpose is hers, to evade the
    bouncer (before: '1: The bouncer may interpose', a roll nobody makes)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, FLIGHT, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    for screen in (gm, alice):
        expect(screen.page.locator(".chase .scale-ends")).to_have_text(
            "1: Ada interposes to evade The bouncer · 5: Ada gets away")
        screen.context.close()
