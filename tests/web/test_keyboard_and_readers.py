"""The table for a player who uses the keyboard or a screen reader, or a small phone: what
others do is told to a screen reader, the focus stays where the user had it, an alert says
each thing once, messages close (✕ or Escape), and the map is in words too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import (
    command,
    create_from_example,
    invite,
    join,
    start_table,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import FABULA, VERS, vers_crowded_brawl
from tests.web.test_gm_tools import control, control_summary, gm_opens
from tests.web.test_table import table

pytestmark = pytest.mark.timeout(150)

FOCUSED = "() => document.activeElement.id || document.activeElement.dataset.focus || ''"


@pytest.mark.rule("VR-MOVE-1")
def test_the_map_says_in_words_who_stands_where(browser: Browser, served: Served,
                                                tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        for screen in (gm, alice):
            facts = screen.page.locator(".facts")
            expect(facts).to_contain_text("Common room: Ada, Bruno, <img src=x onerror=alert(1)>")
        # the GM puts Bruno in the bar with the keyboard: Enter on the zone of the map
        gm.page.get_by_label("Character to move").select_option("bruno")
        zone = gm.page.locator("[data-focus='zone-bar']")
        zone.focus()
        zone.press("Enter")
        for screen in (gm, alice):
            expect(screen.page.locator(".facts")).to_contain_text("The bar: Bruno")
        assert gm.page.evaluate(FOCUSED) == "zone-bar"  # the focus is where it was


@pytest.mark.rule("VR-MOVE-1")
def test_names_the_map_must_cut_stay_apart(browser: Browser, served: Served,
                                           tmp_path: Path) -> None:
    twins = VERS.replace('name = "Ada"', 'name = "Cutthroat of the Drowned Rat (left)"').replace(
        'name = "Bruno"', 'name = "Cutthroat of the Drowned Rat (right)"')
    gm = start_table(browser, served.url)
    upload_scenario(gm, twins, tmp_path)
    labels = gm.page.locator("svg.zones text.who")
    expect(labels).to_have_count(3)
    shown = [label.evaluate("el => el.lastChild.textContent") for label in labels.all()]
    assert shown[:2] == ["Cutthr… (left)", "Cutthr…(right)"], shown  # not both "Cutthroat of …"
    titles = [label.locator("title").text_content() for label in labels.all()]
    assert titles[:2] == ["Cutthroat of the Drowned Rat (left)",
                          "Cutthroat of the Drowned Rat (right)"]
    gm.context.close()


@pytest.mark.rule("VR-MOVE-1")
def test_names_alike_at_both_ends_stay_apart_on_the_map(browser: Browser, served: Served,
                                                        tmp_path: Path) -> None:
    """Two cutthroats named alike at their start and their end ("Cutthroat of the Left Alley",
    "… Right Alley") read from the word that tells them apart under their zones (before: both
    "Cutthr…t Alley", so the table could not tell which stood where)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_crowded_brawl(), tmp_path)
    labels = gm.page.locator("svg.zones text.who")
    shown = {label.locator("title").text_content(): label.evaluate("el => el.lastChild.textContent")
             for label in labels.all()}
    assert shown["Cutthroat of the Left Alley"] == "…Left Alley", shown
    assert shown["Cutthroat of the Right Alley"] == "…Right Alley", shown
    assert shown["Brother Thorbjorn Ironwhistle-Hammerfell"] == "Brother Thorb…", shown
    gm.context.close()


def test_a_screen_reader_hears_what_others_do_and_each_alert_once(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        gm_opens(gm, "Ada")
        banner = alice.page.locator("#turn-banner")
        expect(banner).to_have_text("Your turn: Ada")
        alice.page.evaluate("""() => { window.rewrites = 0;
            new MutationObserver((m) => { window.rewrites += m.length; })
              .observe(document.getElementById("turn-banner"),
                       { childList: true, characterData: true, subtree: true }); }""")
        command(gm, "gm", "narrate 'The roof caves in!'")
        told = alice.page.locator("#log-live")
        expect(told).to_have_text("the GM: The roof caves in!")
        expect(told).to_have_attribute("aria-live", "polite")
        command(gm, "gm", "narrate 'Dust everywhere.'")
        expect(told).to_have_text("the GM: Dust everywhere.")
        assert alice.page.evaluate("window.rewrites") == 0  # still her turn: said once
        expect(banner).to_have_text("Your turn: Ada")


@pytest.mark.rule("VR-TURN-1")
def test_messages_close_and_say_names(browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        gm_opens(gm, "Ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        handoff = control(alice, "ada", "handoff")
        handoff.get_by_label(re.compile("^to")).select_option(label="Bruno")
        handoff.get_by_role("button", name="handoff").click()
        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text("Done: Ada: handoff")  # her name, not her id
        # said whole, then its ✕ (it stood between "Done" and what the command did), which
        # still stands beside the "Done", at its right
        order = notice.evaluate("""el => [...el.querySelectorAll('span, li, button')]
          .map((x) => x.tagName === 'BUTTON' ? 'close' : x.textContent)""")
        assert order[0].startswith("Done: Ada: handoff") and order[-1] == "close", order
        assert len(order) > 2, order  # what the hand-off did, before the close
        done = notice.locator("p.done").bounding_box()
        close = notice.get_by_role("button", name="Dismiss this message").bounding_box()
        assert done and close and close["x"] > done["x"] + done["width"] - 1
        assert close["y"] < done["y"] + done["height"], (done, close)
        notice.get_by_role("button", name="Dismiss this message").click()
        expect(notice).to_be_hidden()
        line = alice.page.locator("section.actor[data-actor='ada'] form.command-line input")
        line.fill("ada: fly")
        line.press("Enter")
        error = alice.page.locator("#error")
        expect(error).to_contain_text("unknown command 'fly'")
        expect(error).to_contain_text("the commands offered above")  # the page's advice,
        expect(error).not_to_contain_text("fracas play")  # not the terminal's
        line.fill("ada: atack bruno")  # a near miss: the question, then the advice
        line.press("Enter")
        expect(error).to_contain_text(
            "did you mean 'attack'? The commands offered above are those the rules allow now")
        expect(line).to_have_attribute("aria-invalid", "true")  # read out with the field
        expect(line).to_have_attribute("aria-describedby", "error")
        alice.page.keyboard.press("Escape")
        expect(error).to_be_hidden()
        expect(line).not_to_have_attribute("aria-invalid", "true")


def test_the_gm_keeps_the_focus_and_sends_one_choice_from_the_keyboard(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        command(gm, "gm", "narrate 'The roof caves in!'")
        undo = gm.page.locator(".log-region").get_by_role("button", name="Undo")
        undo.focus()
        undo.press("Enter")
        expect(gm.page.locator(".log .entry.undone")).to_have_count(1)
        assert gm.page.evaluate(FOCUSED) == "undo"
        # stepping through the harm view with the arrow keys sends the choice, once
        harm = gm.page.get_by_label("Harm of heroes")
        harm.focus()
        harm.press("ArrowDown")
        harm.press("ArrowDown")
        said = gm.page.locator(".log .said", has_text="harm_view")
        expect(said).to_have_text(["override settings.harm_view.heroes none"])
        expect(harm).to_have_value("none")
        assert gm.page.evaluate(FOCUSED) == "harm-view-heroes"
        gm.page.wait_for_timeout(1000)  # nothing more comes of the first step
        expect(said).to_have_count(1)


def test_the_gms_focus_stays_in_the_controls_when_the_acting_character_changes(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        gm_opens(gm, "Ada")
        handoff = control(gm, "ada", "handoff")
        handoff.get_by_label(re.compile("^to")).select_option(label="Bruno")
        handoff.get_by_role("button", name="handoff").press("Enter")  # Ada's controls go
        expect(gm.page.locator("section.actor[data-actor='ada']")).to_have_count(0)
        focused = gm.page.locator(":focus")
        expect(focused).to_have_count(1)  # not the page's body
        expect(focused).to_have_text("Bruno")  # the heading of the one acting now


def test_escape_closes_what_a_command_did(browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    try:
        command(gm, "gm", "narrate 'The roof caves in!'")
        notice = gm.page.locator("#notice")
        expect(notice).to_contain_text("Done: narrate")  # over the foot of a phone's screen
        gm.page.keyboard.press("Escape")
        expect(notice).to_be_hidden()
    finally:
        gm.context.close()


def test_the_gm_typing_in_a_form_keeps_the_focus_and_caret_while_a_player_acts(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        gm_opens(gm, "Ada")
        expect(alice.page.locator("#turn-banner")).to_have_text("Your turn: Ada")
        note = control(gm, "gm", "note").get_by_label("text")
        note.click()
        note.type("The lamps gutter")
        note.press("Home")  # the caret at the start: the GM goes on typing there
        # Ada's attack changes what the GM may do (her actions left): the controls are built anew
        command(alice, "ada", "ada: attack imp dice=3,3,2")
        acting = gm.page.locator(".round-region p", has_text="Acting:")
        expect(acting).to_contain_text("1 action left")
        expect(note).to_be_focused()  # not the heading of the GM's commands
        gm.page.keyboard.type("Suddenly, ")
        expect(note).to_have_value("Suddenly, The lamps gutter")


@pytest.mark.rule("VR-MOVE-3")
def test_the_map_says_who_is_engaged(browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        command(alice, "ada", "ada: attack imp dice=6,6,6")  # a close attack, hit or miss
        for screen in (gm, alice, bob):
            expect(screen.page.locator(".facts")).to_contain_text(
                "Ada and <img src=x onerror=alert(1)> are engaged")
        command(alice, "ada", "ada: disengage dice=1,1,1")
        for screen in (gm, alice, bob):
            expect(screen.page.locator(".facts")).not_to_contain_text("engaged")


@pytest.mark.rule("VR-TURN-2")
def test_a_done_notice_goes_once_the_table_has_moved_on_past_it(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """A player's "Done: …" stays while it is the news, taken back or not; once someone else's
    command follows it, it goes from the foot of the phone (before: it stayed there, over the
    page, turns later, until closed); the log keeps what it said."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    alice = join(browser, invite(gm, "alice"), timing={"doneMs": 0})
    bob = join(browser, invite(gm, "bob"), timing={"doneMs": 0})
    try:
        gm_opens(gm, "Ada")
        command(alice, "ada", "ada: handoff bruno")
        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text("Done: ada: handoff bruno")
        expect(notice).to_have_attribute("role", "status")  # said by a screen reader
        gm.page.locator(".log-region").get_by_role("button", name="Undo").click()
        expect(notice).to_contain_text("Undone: ada: handoff bruno")  # an undo is news of it
        gm.page.locator(".log-region").get_by_role("button", name="Redo").click()
        expect(notice).to_contain_text("Done: ada: handoff bruno")
        command(bob, "bruno", "bruno: handoff imp")  # the table moves on
        expect(notice).to_be_hidden()
        wait_log(alice, "Bruno takes the hand-off from Ada")  # what it said stays in the log
        expect(bob.page.locator("#notice")).to_contain_text("Done: bruno: handoff imp")
        command(gm, "gm", "imp: handoff")
        expect(bob.page.locator("#notice")).to_be_hidden()
    finally:
        for screen in (gm, alice, bob):
            screen.context.close()


@pytest.mark.rule("FU-CON-8")
def test_a_refusal_goes_once_the_table_has_moved_on_past_it(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Ada, her turn taken, tries another: the refusal, with its rule, stays while nothing
    happens; once someone acts it goes from the foot of her phone, as a "Done: …" does (before:
    rounds later, the conflict ended, it still said "… The Bone Duchess may act now"), and what
    she typed stays in her field."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, FABULA, tmp_path)
    alice = join(browser, invite(gm, "alice"), timing={"doneMs": 0})
    try:
        command(alice, "ada", "ada: initiative dice=5,5,6,4")
        command(alice, "ada", "ada: attack imp dice=6,5")
        line = alice.page.locator("section.actor[data-actor='ada'] form.command-line input")
        line.fill("act 'strikes again'")
        line.press("Enter")
        error = alice.page.locator("#error")
        expect(error).to_contain_text("Ada has taken their only turn this round")
        expect(error).to_contain_text("(FU-CON-8)")
        alice.page.wait_for_timeout(500)  # nothing happened: it stays
        expect(error).to_be_visible()
        command(gm, "gm", "imp: act")  # the table moves on
        expect(error).to_be_hidden()
        expect(line).to_have_value("act 'strikes again'")
        expect(line).not_to_have_attribute("aria-invalid", "true")
    finally:
        for screen in (gm, alice):
            screen.context.close()


def test_a_screen_reader_hears_an_open_forms_odds_once_not_on_every_frame(
        browser: Browser, served: Served) -> None:
    """The odds under an open command are a live region: the table moving on (the GM narrates)
    asks them again, and unchanged they are not rewritten, so a screen reader does not say
    them again after everyone else's command (before: once per frame)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")  # Ada's go is open
    alice = join(browser, invite(gm, "alice"))
    try:
        command(gm, "gm", "place ada stairs")  # her knife thrown at the thug: odds she may read
        odds = control(alice, "ada", "attack").locator("output.odds")
        expect(odds).to_contain_text("%")
        expect(odds).to_have_attribute("aria-live", "polite")
        said = odds.inner_text()
        odds.evaluate("""(el) => { window.rewrites = 0;
            new MutationObserver((m) => { window.rewrites += m.length; })
              .observe(el, { childList: true, characterData: true, subtree: true }); }""")
        for words in ("The roof caves in!", "Dust everywhere."):
            with alice.page.expect_response(lambda r: r.url.endswith("/odds")) as asked:
                command(gm, "gm", f"narrate '{words}'")
            assert asked.value.ok  # asked again of the table as it is now
            expect(alice.page.locator("#log-live")).to_have_text(f"the GM: {words}")
            alice.page.wait_for_timeout(300)  # (the answer drawn, if it were)
        assert alice.page.evaluate("window.rewrites") == 0
        expect(odds).to_have_text(said)
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("VR-TURN-1")
def test_a_screen_reader_hears_what_ones_own_command_did_once(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """What a player's command did is said once, by its "Done:" notice; the polite region
    that tells of the log's new sentences tells of everyone else's (before: her own
    sentences were said a second time, by the log's region)."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        gm_opens(gm, "Ada")
        alice.page.evaluate("""() => { window.told = [];
            const live = document.getElementById("log-live");
            new MutationObserver(() => { window.told.push(live.textContent); })
              .observe(live, { childList: true, characterData: true, subtree: true }); }""")
        handoff = control(alice, "ada", "handoff")
        handoff.get_by_label(re.compile("^to")).select_option(label="Bruno")
        handoff.get_by_role("button", name="handoff").press("Enter")
        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text("Done: Ada: handoff")
        expect(notice).to_contain_text("Bruno takes the hand-off from Ada")
        wait_log(alice, "Bruno takes the hand-off from Ada")
        command(gm, "gm", "narrate 'The roof caves in!'")  # after hers: told, and hers came first
        expect(alice.page.locator("#log-live")).to_have_text("the GM: The roof caves in!")
        told = alice.page.evaluate("window.told")
        assert not [t for t in told if "hand-off" in t], told


#: Whether the focused element lies under the message at the foot of the screen (or the
#: refusal), null when the focus is on the page's body or in the message itself.
UNDER_THE_FOOT_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const covered = [];
  for (const foot of [document.getElementById("notice"), document.getElementById("error")]) {
    const a = el.getBoundingClientRect(), b = foot.getBoundingClientRect();
    if (foot.contains(el)) return null;
    if (b.height && a.bottom > b.top && a.top < b.bottom) covered.push(foot.id);
  }
  return [el.textContent.trim().slice(0, 40), covered];
}"""


def test_a_control_reached_by_tab_is_never_under_the_message_at_the_foot(
        browser: Browser, served: Served) -> None:
    """Tabbing down a phone's page while a "Done:" notice is at its foot: each control the
    focus lands on is scrolled above the notice, never under it (before: a control at the
    foot of the screen got the focus out of sight, behind the notice)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")
    alice = join(browser, invite(gm, "alice"))
    try:
        command(alice, "ada", "ada: note 'The stairs creak.'")
        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text("Done: ada: note")
        alice.page.locator("h1").click()  # from the top of the page
        covered = []
        for _ in range(80):
            alice.page.keyboard.press("Tab")
            where = alice.page.evaluate(UNDER_THE_FOOT_JS)
            if where is None and alice.page.evaluate("document.activeElement === document.body"):
                break  # past the last control
            if where and where[1]:
                covered.append(where[0])
        assert covered == []
        expect(notice).to_contain_text("Done: ada: note")  # still there all along
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("FU-CON-3")
def test_a_screen_reader_hears_what_a_command_and_its_fields_ask_for(
        browser: Browser, served: Served) -> None:
    """Tab goes from a command's name to its fields past the words under them: the command's
    line on what it does is said with its name, and each field's hint with the field (the
    order of the dice typed in for an initiative; before: neither was tied to its control, so
    a screen reader skipped them); a refusal of the form is said with each field before its
    hint."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    alice = join(browser, invite(gm, "alice"))
    try:
        expect(control_summary(alice, "ada", "initiative")).to_have_accessible_description(
            re.compile("^The leader's {DEX \\+ INS} Initiative Group Check"))
        initiative = control(alice, "ada", "initiative")
        expect(initiative.get_by_label("dice")).to_have_accessible_description(
            "the faces rolled at the table: each supporter's two in order, then the leader's two"
            " (5,5,6,4)")
        expect(initiative.get_by_label("supporters")).to_have_accessible_description(
            re.compile("none picked: every other PC"))
        initiative.get_by_label("dice").fill("5,5,6")  # one die short
        initiative.get_by_role("button", name="initiative").press("Enter")
        expect(alice.page.locator("#error")).to_contain_text("initiative needs 4 dice")
        expect(initiative.get_by_label("dice")).to_have_accessible_description(
            re.compile("^initiative needs 4 dice.* the faces rolled at the table: each supporter"))
        alice.page.keyboard.press("Escape")  # the refusal closed, the hint stays
        expect(initiative.get_by_label("dice")).to_have_accessible_description(
            re.compile("^the faces rolled at the table"))
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("FU-CON-6")
def test_a_screen_reader_hears_the_foes_turn_sentence_by_sentence(
        browser: Browser, served: Served) -> None:
    """The foes' turn is told to a player in the log's words, each line a sentence of its
    own (before: run together, "… — misses Bandit Captain is done", with no pause between)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    alice = join(browser, invite(gm, "alice"))
    try:
        command(gm, "gm", "ada: initiative dice=5,5,6,4")
        command(gm, "gm", "ada: attack cut1 dice=6,5")
        command(gm, "gm", "captain: attack ada dice=3,4")
        expect(alice.page.locator("#log-live")).to_have_text(
            "Bandit Captain's turn. Bandit Captain attacks with Saber against Ada: {d8+d10} → "
            "{[3] + [4]} = 7 vs 10, HR 4 — misses. Bandit Captain is done.")
        command(gm, "gm", "narrate 'The bridge sways!'")  # a sentence already: as it is
        expect(alice.page.locator("#log-live")).to_have_text("the GM: The bridge sways!")
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("FU-CON-10")
def test_between_rounds_the_sides_say_the_next_rounds_turns(
        browser: Browser, served: Served) -> None:
    """Once a round is over, the Sides panel says what the next round gives each (as their
    summary does), not last round's "acted" beside the player's "Your turn" (before: "Ada
    acted" while the banner said her turn had come), and the Round says who may open the
    next round."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    alice = join(browser, invite(gm, "alice"))
    try:
        for line in ("ada: initiative dice=5,5,6,4", "ada: attack cut1 dice=6,5",
                     "captain: attack ada dice=3,4", "bruno: act 'waits'", "captain: act 'x'",
                     "cut2: act 'y'", "cut1: act 'z'"):
            command(gm, "gm", line)
        expect(alice.page.locator("#turn-banner")).to_have_text("Your turn: Ada")
        sides = alice.page.locator(".sides")
        expect(sides.locator("li", has_text="Ada")).to_contain_text("1 turn next round")
        expect(sides.locator("li", has_text="Bandit Captain")).to_contain_text(
            "2 turns next round")
        expect(sides).not_to_contain_text("acted")
        # the Round's head likewise: who may open the next round, nobody "still to act" in the
        # round gone (before: "Acting: Ada, Bruno" beside "Still to act: nobody")
        round_ = alice.page.locator(".round-region")
        expect(round_).to_contain_text("May open round 2: Ada, Bruno · side on turn: heroes")
        expect(round_).not_to_contain_text("Still to act")
        command(gm, "gm", "ada: act 'opens round 2'")
        expect(round_).to_contain_text("Still to act:")
        expect(sides.locator("li", has_text="Ada")).to_contain_text("acted")
        expect(sides.locator("li", has_text="Bandit Captain")).to_contain_text("2 turns left")
    finally:
        for screen in (gm, alice):
            screen.context.close()
