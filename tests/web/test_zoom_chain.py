"""An Etherscope evening zooming in again and again, run from a GM's tablet with a player on a
phone (ES-ACT-1, ES-ACT-2): each level of the chain says who opened it and why, so that the
levels, and two zoom-ins one after another from the same parent, tell apart at a glance."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.server.support import Served
from tests.web.browser import Screen, command, invite, join, open_screen, upload_scenario

pytestmark = pytest.mark.timeout(180)

#: A tablet held upright, as the GM's screen (touch).
TABLET = {"width": 820, "height": 1180}

#: Tactical, so that it zooms twice (Quick, then Fast); Ada acts first in round 1's countdown.
EVENING = """
ruleset = "etherscope"
title = "The Salford job"
script = '''
ada: awareness successes=2
bruno: awareness successes=1
heavy: awareness successes=0
moves
ada: done
bruno: done
round
countdown
'''

[settings]
nature = "physical"
time_scale = "tactical"
range_scaling = "chase"

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { physical = 12, ether = 8, society = 10, awareness = 3 }

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
player = "bob"
stats = { physical = 9, ether = 7, society = 8, awareness = 2 }

[[participants]]
id = "heavy"
name = "The heavy"
stats = { physical = 10, ether = 6, society = 5, awareness = 2 }
"""


def _evening(browser: Browser, served: Served, tmp_path: Path) -> tuple[Screen, Screen]:
    """The GM's tablet (its table made on it) with the evening in round 1's countdown, and
    Bob's phone."""
    gm = open_screen(browser, served.url + "/", TABLET, touch=True)
    gm.page.get_by_label("Name of the table").fill("Tuesday Etherscope")
    gm.page.get_by_role("button", name="Create the table").click()
    gm.page.get_by_role("link", name="Open the table").click()
    gm.page.wait_for_url("**/table/t*")
    upload_scenario(gm, EVENING, tmp_path)
    return gm, join(browser, invite(gm, "bob"), touch=True)


def _origins(screen: Screen) -> list[str]:
    """The line under each zoomed-in level's title, outermost first."""
    return screen.page.locator(".field-region .zoom-level .zoom-origin").all_inner_texts()


@pytest.mark.rule("ES-ACT-1", "ES-ACT-2")
def test_each_level_of_a_chain_says_who_opened_it_and_why(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: every level read "The Salford job — zoomed in", "… zoomed in twice", whatever it
    was about, and the next zoom-in from the same parent read as the one before it: what each
    was (a fight on the roof, a struggle on the ledge) was in the log alone."""
    gm, bob = _evening(browser, served, tmp_path)
    command(gm, "gm", "ada: zoom heavy reason='a fight on the roof'")
    for screen in (gm, bob):
        expect(screen.page.locator(".round-region .zoom-origin")).to_have_text(
            "Opened by Ada: a fight on the roof")
        expect(screen.page.locator(".zoom-level.innermost > .zoom-origin")).to_have_text(
            "Opened by Ada: a fight on the roof")
    for line in ("round", "countdown", "ada: zoom heavy reason='a struggle on the ledge'"):
        command(gm, "gm", line)
    for screen in (gm, bob):
        expect(screen.page.locator(".zoom-level.innermost > .zoom-title")).to_contain_text(
            "zoomed in twice")
        expect(screen.page.locator(".field-region .zoom-origin")).to_have_text(
            ["Opened by Ada: a fight on the roof", "Opened by Ada: a struggle on the ledge"])
    # back out one level; the heavy, next to act there, zooms in from the same parent
    for line in ("end 'Ada hangs on'", "ada: done",
                 "heavy: zoom ada reason='the heavy strikes back'"):
        command(gm, "gm", line)
    for screen in (gm, bob):
        expect(screen.page.locator(".field-region .zoom-origin")).to_have_text(
            ["Opened by Ada: a fight on the roof", "Opened by The heavy: the heavy strikes back"])
        expect(screen.page.locator(".round-region .zoom-origin")).to_have_text(
            "Opened by The heavy: the heavy strikes back")
    # and none at the top level, once play is back there
    for line in ("end 'Ada breaks free'", "heavy: done", "end 'off the roof'"):
        command(gm, "gm", line)
    for screen in (gm, bob):
        expect(screen.page.locator(".round-region .status")).to_contain_text(
            "The Salford job · round 1")
        expect(screen.page.locator(".zoom-origin")).to_have_count(0)


def _end_control(gm: Screen) -> tuple[Locator, Locator]:
    """The GM's own end control, opened with a tap: its fold and its form."""
    own = gm.page.locator("section.actor[data-actor='gm']")
    form = own.locator("form.command[data-verb='end']")
    fold = own.locator("details.command", has=gm.page.locator("form[data-verb='end']"))
    if not fold.evaluate("d => d.open"):
        fold.locator("> summary").tap()
    return fold, form


@pytest.mark.rule("ES-ACT-1")
def test_inside_a_zoom_the_gms_end_says_it_ends_the_zoom_and_where_play_returns(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: deep in a chain the GM's end read "end" and "End the conflict with a reason",
    as at the top (would it end the whole evening?), with an outcome field whose words the
    zoom's end dropped."""
    gm, _ = _evening(browser, served, tmp_path)
    for line in ("ada: zoom heavy reason='a fight on the roof'", "round", "countdown",
                 "ada: zoom heavy reason='a struggle on the ledge'"):
        command(gm, "gm", line)
    fold, form = _end_control(gm)
    expect(fold.locator("> summary")).to_have_text("end the zoom-in")
    expect(form.locator(".about")).to_have_text(
        "End this zoomed-in conflict early, with a reason: play returns to The Salford job — "
        "zoomed in")
    expect(form.get_by_label("outcome (optional)")).to_have_count(0)
    form.get_by_label("reason").fill("Ada hangs on")
    form.get_by_role("button", name="end the zoom-in").tap()
    expect(gm.page.locator(".round-region .status")).to_contain_text(
        "The Salford job — zoomed in · round 1 of 5")
    for line in ("ada: done", "heavy: done"):
        command(gm, "gm", line)
    command(gm, "gm", "end 'the heavy is cornered'")
    fold, form = _end_control(gm)  # at the top: the conflict's own end, with its outcome
    expect(fold.locator("> summary")).to_have_text("end")
    expect(form.get_by_label("outcome (optional)")).to_have_count(1)


def _set_in(screen: Screen, command_text: str) -> float:
    """How far the log sets in the entry of ``command_text`` from the log's own left edge."""
    log = screen.page.locator(".log")
    entry = log.locator(".entry", has=screen.page.locator(".said", has_text=command_text))
    box, edge = entry.first.bounding_box(), log.bounding_box()
    assert box is not None and edge is not None
    return box["x"] - edge["x"]


@pytest.mark.rule("ES-ACT-1", "ES-ACT-2")
def test_the_log_sets_each_level_of_a_chain_further_in(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: every entry played inside a zoom was set in by the same step, at depth 1 as at
    depth 2, so that deep in a chain the log did not show which level an entry was played at
    (the terminal marks each level with a "»")."""
    gm, bob = _evening(browser, served, tmp_path)
    for line in ("ada: zoom heavy reason='a fight on the roof'", "round", "countdown",
                 "ada: zoom heavy reason='a struggle on the ledge'", "round"):
        command(gm, "gm", line)
    for screen in (gm, bob):
        expect(screen.page.locator(".log .entry").first).to_contain_text("round")
        top = _set_in(screen, "reason='a fight on the roof'")
        once = _set_in(screen, "reason='a struggle on the ledge'")
        twice = _set_in(screen, "round")  # the newest "round": the one at depth 2
        assert top < once < twice, (top, once, twice)
