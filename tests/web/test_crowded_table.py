"""A convention table: a GM and eight players on one server. What a crowd adds to a table of
two: every page's requests after every move add up on the server, and many characters share
the screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request, Route, expect

from tests.server.support import Served
from tests.web.browser import (
    command,
    invite,
    join,
    jumps_take_there,
    start_table,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import EIGHT, fabula_table_of_eight, vers_table_of_eight
from tests.web.test_gm_tools import control, gm_opens

pytestmark = pytest.mark.timeout(150)


def test_a_folded_commands_odds_are_asked_once_it_is_opened(browser: Browser, served: Served,
                                                            tmp_path: Path) -> None:
    """Ada's go: her move, attack and handoff are folded on Alice's phone. The table moving
    on (the GM narrates) asks no odds of them — nobody reads them folded, and eight phones
    asking them of every folded command on every move cost the server more than the moves —
    and the attack, opened, shows its own at once (before: every command's odds were asked
    on every frame, folded or not)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_table_of_eight(), tmp_path)
    alice = join(browser, invite(gm, "alice"))
    asked: list[str] = []

    def record(request: Request) -> None:
        if request.url.endswith("/odds"):
            asked.append(request.post_data or "")

    try:
        gm_opens(gm, "Ada")
        expect(alice.page.locator("section.actor[data-actor='ada'] details.command")
               ).to_have_count(6)  # move, attack, handoff, note, narrate, roll: all folded
        alice.page.on("request", record)
        command(gm, "gm", "narrate 'The crowd roars.'")
        wait_log(alice, "The crowd roars.")
        attack = control(alice, "ada", "attack")
        expect(attack.locator("output.odds")).to_contain_text("%")
        verbs = [json.loads(body)["command"]["verb"] for body in asked]
        assert verbs and set(verbs) == {"attack"}, verbs
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("FU-CON-6")
def test_the_gm_asks_every_acting_heroes_commands_at_once(browser: Browser, served: Served,
                                                         tmp_path: Path) -> None:
    """The eight heroes' side is on turn: the GM's screen asks the server for each one's
    commands and its own all at once, not one after another (before: nine round trips in a
    row after every move, the GM's controls a second behind the table on a busy server)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, fabula_table_of_eight(), tmp_path)
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    try:
        gm.page.route("**/legal-commands*", hold)  # none answered until all are asked
        command(gm, "gm", "ada: initiative dice=" + ",".join(["6"] * 2 * len(EIGHT)))
        for _ in range(100):
            if len(held) > len(EIGHT):
                break
            gm.page.wait_for_timeout(100)
        asked = sorted({route.request.url.rsplit("legal-commands", 1)[1] for route in held})
        assert asked == ["", *(f"?actor={name.lower()}" for _, name in sorted(EIGHT))], asked
        holding[0] = False
        for route in held:
            route.continue_()
        for actor in ("ada", "hal", "gm"):  # the controls drawn once answered
            expect(gm.page.locator(f"section.actor[data-actor='{actor}']")).to_have_count(1)
    finally:
        gm.context.close()


#: Where each part of a player's page starts, in the page's order of reading.
PARTS_JS = """() => ["round", "log", "field", "table"].map((part) =>
  document.querySelector(`.${part}-region`).getBoundingClientRect().top + scrollY)"""


def test_a_players_phone_at_a_crowded_table_has_every_part_a_tap_away(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Nine characters on Alice's 390×844 phone: under Ada's controls her state ('unhurt'),
    then what just happened (the log, before the map and everyone's cards), and a bar at the
    top of the screen, wherever she has scrolled, takes her in one tap to the Turn, the Log,
    the Zones or the Conflicts, its heading focused and in view below the bar (before: the
    log ≈ 2,750 px down, below every card, her state only on her card in the Participants)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_table_of_eight(), tmp_path)
    alice = join(browser, invite(gm, "alice"), touch=True)
    page = alice.page
    try:
        gm_opens(gm, "Ada")
        command(gm, "gm", "ada: attack thug dice=3,3,2")
        expect(page.locator(".log .entry").first).to_contain_text("Ada attacks Thug")
        expect(page.locator("section.actor[data-actor='ada'] .own-state")).to_have_text("unhurt")
        parts = page.evaluate(PARTS_JS)
        assert parts == sorted(parts), parts  # the Turn, the log, the field, the conflicts
        assert parts[1] < 844 * 1.5, parts  # what just happened, a short scroll away
        bar = page.get_by_role("navigation", name="Parts of the page")
        expect(bar.get_by_role("button")).to_have_text(["Turn", "Log", "Zones", "Conflicts"])
        jumps_take_there(page, [("Log", "#h-log", ".log .entry:first-child .head"),
                                ("Turn", "#h-turn", "section.actor[data-actor='ada'] h3"),
                                ("Zones", "#h-zones", "svg.zones"),
                                ("Conflicts", "#h-conflicts", ".conflicts li")])
    finally:
        for screen in (gm, alice):
            screen.context.close()
