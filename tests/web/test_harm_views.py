"""Harm views in a real browser, as a player's phone shows them: in VERS a band is the names of
the conditions held and "nothing" is nothing — the page (DOM, attributes, frames, storage)
holds no net EV, no slot and no penalty of the masked character, and its log line is the one
the engine built from the masked event; and a conflict made before harm views (imported from
an export of records main wrote) gets the GM's harm panel, every side exact until the GM
chooses otherwise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.rulesets.test_harm_views import _old_export
from tests.server.support import Served
from tests.web.browser import command, invite, join, leaks, start_table, wait_log
from tests.web.test_gm_tools import clean, control_summary, gm_opens, last_view, person
from tests.web.test_table import table

pytestmark = pytest.mark.timeout(150)


@pytest.mark.rule("VR-INJ-1", "VR-INJ-2")
def test_vers_band_and_nothing_on_a_players_phone(browser: Browser, served: Served,
                                                 tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        imp = alice.page.locator(".ladders", has_text="onerror")  # the imp's name is markup
        gm.page.get_by_label("Harm of toughs").select_option("band")
        command(gm, "gm", "harm imp 6")
        wait_log(alice, "is impaired (injury, net EV ?)")  # the band's word; the EV masked
        expect(imp.locator(".tag.harm")).to_have_text("impaired")
        seen = person(last_view(alice), "imp")
        assert seen["harm"] == "impaired" and not {"tracks", "penalty", "disabled"} & set(seen)
        secret = ("net EV 6", '"ev":6', '"index":2')
        expect(gm.page.locator(".log")).to_contain_text("net EV 6")  # the GM sees it all
        assert leaks(gm, secret) == list(secret)
        assert leaks(alice, (*secret, "to rolls")) == []
        gm.page.get_by_label("Harm of toughs").select_option("none")
        command(gm, "gm", "harm imp 1")
        harmed = alice.page.locator(".log .entry", has_text="(injury")
        expect(harmed).to_have_count(2)
        expect(harmed.first).to_contain_text("takes harm (injury)")  # the newest: nothing of it
        expect(harmed.first).not_to_contain_text("net EV")
        expect(gm.page.locator(".log .entry").first).to_contain_text("(injury, net EV 1)")
        expect(imp.locator(".tag.harm")).to_have_count(0)
        assert "harm" not in person(last_view(alice), "imp")
        expect(imp).not_to_contain_text("impaired")  # (the ladder of her own Ada names all levels)
        assert leaks(alice, ('"ev":1', "net EV 1")) == []
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-RES-1")
def test_an_old_conflict_gets_the_harm_panel_and_its_bands(browser: Browser, served: Served,
                                                          tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    table_id = gm.page.url.rstrip("/").rsplit("/", 1)[-1].split("#")[0].split("?")[0]
    text, _ = _old_export()
    path = tmp_path / "old.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "fracas"), "import", str(path), "--trust", "--new-id",
         "--campaign", table_id, "--db", served.db], capture_output=True, text=True,
        timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    gm.page.reload()
    expect(gm.page.get_by_label("Harm of heroes")).to_have_value("exact")  # no key: exact
    bob = join(browser, invite(gm, "bob"))
    ada = bob.page.locator(".member", has_text="Ada")
    expect(ada.locator("meter")).not_to_have_count(0)
    gm.page.get_by_label("Harm of heroes").select_option("band")
    expect(ada.locator(".tag.harm")).to_have_text(re.compile("unhurt|hurt|in crisis|down"))
    expect(ada.locator("meter")).to_have_count(0)
    assert "hp" not in person(last_view(bob), "ada")
    expect(gm.page.get_by_label("Harm of heroes")).to_have_value("band")
    for screen in (gm, bob):
        assert screen.errors == [], screen.errors
        screen.context.close()


@pytest.mark.rule("VR-INJ-3")
def test_the_gm_finds_an_npcs_discipline_roll_beside_the_go_under_way(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """The imp, disabled on Ada's go, must roll to stay conscious: the GM's screen shows its
    roll beside Ada's controls, as acting for the one acting now (before: the Round's line
    said so, but the GM had to choose the imp under Act for to find the roll)."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        command(gm, "gm", "harm imp 9")
        expect(gm.page.locator(".round-region")).to_contain_text(
            "must roll Discipline to stay conscious (VR-INJ-3)")
        expect(control_summary(gm, "imp", "roll Discipline to stay conscious")).to_be_visible()
        expect(gm.page.locator("section.actor[data-actor='ada']")).to_be_visible()
        command(gm, "imp", "imp: endure dice=1,1,1")
        expect(gm.page.locator("section.actor[data-actor='imp']")).to_have_count(0)
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-INJ-3")
def test_a_discipline_roll_due_is_said_where_the_player_acts_and_only_to_those_who_may_know(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Disabled Ada must roll to stay conscious: Alice reads it on the Turn line and in the
    offer's title (before: "1 action left" and a bare "endure", the reason only under the
    conditions); Bob, who sees nothing of his side's harm, reads the turn as if she were
    unhurt, and with the band (which names "disabled") reads it too. Two at once are one
    sentence, the view's (before, the page worded one per character itself)."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm.page.get_by_label("Harm of heroes").select_option("none")
        command(gm, "gm", "harm ada 9")
        gm_opens(gm, "Ada")
        due = "Ada must roll Discipline to stay conscious (VR-INJ-3)"
        for screen in (gm, alice):
            expect(screen.page.locator(".round-region")).to_contain_text(due)
        expect(control_summary(alice, "ada", "roll Discipline to stay conscious")).to_be_visible()
        expect(bob.page.locator(".round-region")).to_contain_text("Acting: Ada")
        expect(bob.page.locator(".round-region")).not_to_contain_text("must roll")
        assert leaks(bob, ("roll Discipline", "stay conscious")) == []
        gm.page.get_by_label("Harm of heroes").select_option("band")
        expect(bob.page.locator(".round-region")).to_contain_text(due)
        command(gm, "gm", "harm bruno 9")
        both = "Ada and Bruno must roll Discipline to stay conscious (VR-INJ-3)"
        for screen in (gm, alice, bob):
            expect(screen.page.locator(".round-region")).to_contain_text(both)
        clean(gm, (alice, bob))
