"""The public screen on a TV through a crowded VERS brawl, in a real browser against a real
server: read from across the room, everything the table asks of it stands in view at once
(a TV cannot be scrolled), and nothing tells of what only the GM may see."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.support import Served
from tests.web.browser import (
    Screen,
    command,
    create_from_example,
    invite,
    leaks,
    open_screen,
    start_table,
    upload_scenario,
)
from tests.web.scenarios import etherscope_warehouse, fabula_table_of_eight, vers_crowded_brawl
from tests.web.test_layout import MAP_TEXT_CLASHES_JS

pytestmark = pytest.mark.timeout(180)

TV = {"width": 1920, "height": 1080}
#: Many living-room TVs and projectors: the same glass as a 1920×1080 TV in fewer pixels.
TV_720 = {"width": 1280, "height": 720}
TVS = pytest.mark.parametrize("tv", [TV, TV_720], ids=["1080p", "720p"])
#: What the hidden lurker and the GM-only stats would give away on the public screen.
SECRETS = ("zqlurker", "rafters")

#: The size in CSS pixels of the text of each element matched (its computed font size).
FONT_SIZES_JS = """(selector) => [...document.querySelectorAll(selector)]
  .map((el) => parseFloat(getComputedStyle(el).fontSize))"""


#: The elements matched by a selector that are not wholly inside a w×h screen.
OUT_OF_VIEW_JS = """([selector, w, h]) => [...document.querySelectorAll(selector)]
  .map((el) => [el.textContent.slice(0, 40), el.getBoundingClientRect()])
  .filter(([, r]) => r.bottom > h || r.right > w || r.width === 0)
  .map(([t, r]) => `${t} @ ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.bottom)}`)"""


#: The size in CSS pixels at which each text of the VERS map is drawn (its font size in the
#: map's units, times the map's scale on the page).
MAP_TEXT_SIZES_JS = """() => {
  const svg = document.querySelector("svg.zones");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll("text")]
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
}"""


def readable(tv: dict[str, int]) -> float:
    """The least text size read from across the room on a TV: 24 px on a 1920×1080 one, as
    high on the glass on any other (16 px on a 1280×720 one)."""
    return 24 * tv["height"] / TV["height"]


def brawl(gm: Screen) -> None:
    """Half a turn of the brawl: blows exchanged, several hurt, the oak table damaged."""
    for text in ("open ada", "ada: attack thug dice=3,3,2", "ada: handoff thug",
                 "thug: attack ada dice=2,2,3", "harm thor 1", "harm thor 1", "harm ysolde 4",
                 "harm cutleft 7", "harm bruno 2", "thug: handoff thor",
                 "thor: attack table dice=2,2,2"):
        command(gm, "gm", text)


def out_of_view(page: Page, selector: str, size: dict[str, int]) -> list[str]:
    """The elements matched that do not stand wholly inside the screen (with their boxes)."""
    found: list[str] = page.evaluate(OUT_OF_VIEW_JS, [selector, size["width"], size["height"]])
    return found


@TVS
@pytest.mark.rule("VR-INJ-1", "VR-MOVE-1")
def test_a_crowded_vers_brawl_stands_whole_on_a_tv(browser: Browser, served: Served,
                                                   tmp_path: Path, tv: dict[str, int]) -> None:
    """Ten characters in five zones on a 1920×1080 TV and on a 1280×720 one: the map and who
    stands where, every character's conditions, the objects, whose turn it is and the newest
    of the log are all in view at once, in text read from across the room, the map's names
    as large as the text beside them (before: the map alone filled the screen, the conditions
    began 1,500 px down, each hurt character's ladders a table 250 px tall; then, on a 720p
    TV, the objects and the map's last lines below its foot, the map's names 10-12 px, and
    17 px on a 1080p one)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_crowded_brawl(), tmp_path)
    screen = open_screen(browser, invite(gm, None), tv)
    try:
        brawl(gm)
        page = screen.page
        expect(page.locator(".log .entry").first).to_contain_text("Oak table is")
        lines = page.locator("li.ladders")
        expect(lines).to_have_count(9)  # the lurker hidden from the players is not among them
        expect(lines.filter(has_text="Sister Ysolde")).to_contain_text("wounded (−1 to rolls)")
        for selector in ("svg.zones", ".facts li", "li.ladders",
                         "[aria-labelledby='h-objects'] li", ".round-region p",
                         ".log .entry:first-child"):
            assert out_of_view(page, selector, tv) == [], selector
        for text in ("li.ladders", "[aria-labelledby='h-objects'] li", ".facts li"):
            sizes = page.evaluate(FONT_SIZES_JS, text)
            assert sizes and min(sizes) >= readable(tv), (text, sizes)
        expect(page.locator("svg.zones text.who")).to_have_count(9)
        drawn = page.evaluate(MAP_TEXT_SIZES_JS)
        assert min(drawn) >= readable(tv), drawn
        assert page.evaluate(MAP_TEXT_CLASHES_JS) == []  # each name inside the map, apart
        assert page.evaluate("document.documentElement.scrollWidth") <= tv["width"]
        assert leaks(screen, SECRETS) == []
        assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)
    finally:
        for each in (gm, screen):
            each.context.close()


@pytest.mark.rule("VR-INJ-2", "VR-INJ-3")
def test_the_conditions_say_who_is_out_of_the_brawl(browser: Browser, served: Served,
                                                    tmp_path: Path) -> None:
    """A character taken out (no free level left) or passed out (a failed Discipline roll)
    reads **out** and why on its line of the Conditions, on the TV as on the GM's screen
    (before: only its conditions, 'impaired, disabled (−6 to rolls)', as of one still
    fighting; the Participants that said it are not on a TV)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_crowded_brawl(), tmp_path)
    tv = open_screen(browser, invite(gm, None), TV)
    try:
        for text in ("open thug", "harm cutleft 9", "harm cutleft 9", "harm thug 9",
                     "thug: endure dice=6,6,6"):
            command(gm, "gm", text)
        for page in (tv.page, gm.page):
            lines = page.locator("li.ladders")
            expect(lines.filter(has_text="Cutthroat of the Left Alley")).to_contain_text(
                "out: injury track full")
            expect(lines.filter(has_text="Thug")).to_contain_text("out: unconscious")
            expect(lines.filter(has_text="Cutthroat of the Right Alley")).not_to_contain_text(
                "out")
    finally:
        for screen in (gm, tv):
            screen.context.close()


@TVS
@pytest.mark.rule("VR-CHASE-1")
def test_a_chase_with_no_map_fills_the_tv_from_its_left(browser: Browser, served: Served,
                                                        tv: dict[str, int]) -> None:
    """A VERS chase through the market, with no zones, on a 1920×1080 TV and on a 1280×720
    one: its Conditions and its Chase stand at the left of the screen, no empty column where
    a map would be, the newest of the log in view (before: the brawl's columns left the left
    third of the screen blank; then, on a 720p TV, the newest entry ran below its foot)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-chase", story=True)
    screen = open_screen(browser, invite(gm, None), tv)
    try:
        chase = screen.page.locator("[aria-labelledby='h-chase']")
        expect(chase).to_contain_text("captured")
        for part in (chase, screen.page.locator("[aria-labelledby='h-conditions']")):
            box = part.bounding_box()
            assert box and box["x"] < 100 and box["y"] + box["height"] <= tv["height"], box
        for selector in (".log .entry:first-child", "li.ladders", ".round-region p"):
            assert out_of_view(screen.page, selector, tv) == [], selector
        sizes = screen.page.evaluate(FONT_SIZES_JS, "li.ladders")
        assert min(sizes) >= readable(tv), sizes
    finally:
        for each in (gm, screen):
            each.context.close()


@TVS
def test_a_tv_shows_every_member_of_a_crowded_fight_without_scrolling(
        browser: Browser, served: Served, tmp_path: Path, tv: dict[str, int]) -> None:
    """Eight heroes against five bandits on the public screen of a 1920×1080 TV and of a
    1280×720 one: every member of both sides, with their bars, stands in view, as do the
    round and the newest of the log (before: the heroes' side, one member under another, ran
    past the foot of the screen, and a TV cannot be scrolled; then, on a 720p TV, the
    bandits did; and the tracker's lines under the sides, which repeat the Round panel and
    the members' tags, ran below the foot of a 720p one: a TV leaves those out, and keeps the
    initiative's, which says which side opens every round)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, fabula_table_of_eight(), tmp_path)
    command(gm, "gm", "ada: initiative dice=" + ",".join(["6"] * 16))  # each: turns left
    screen = open_screen(browser, invite(gm, None), tv)
    try:
        members = screen.page.locator(".side .member")
        expect(members).to_have_count(13)
        expect(members.first).to_contain_text("1 turn left")
        lines = screen.page.locator("ul.tracker > li")
        expect(lines.filter(visible=True)).to_have_text(
            ["initiative: the PCs succeeded (19 vs DL 8); side heroes opens every round"])
        for selector in (".side .member", ".round-region p", ".log .entry:first-child",
                         "ul.tracker > li:not(.repeats)"):
            assert out_of_view(screen.page, selector, tv) == [], selector
        # nothing stands half cut at the foot: the Participants would repeat the Sides
        expect(screen.page.locator(".field-region > .panel").filter(visible=True)).to_have_count(1)
        sizes = screen.page.evaluate(FONT_SIZES_JS, ".side .member b")
        assert min(sizes) >= readable(tv), sizes  # still read from across the room
    finally:
        for each in (gm, screen):
            each.context.close()


#: What the TV must show of an Etherscope level: the Round panel, the countdown's order, the
#: Ranges, each one's Condensers and the newest of the log (its head and first line: a
#: countdown's entry, a line for each character, runs on in the log's own box).
NEWEST = (".log .entry:first-child .head", ".log .entry:first-child .events li:first-child")
ETHERSCOPE_ESSENTIALS = ("ol.lane > li", "table.matrix", "[aria-labelledby='h-condensers'] li",
                         ".round-region p", *NEWEST)


def in_view_and_read(screen: Screen, selectors: tuple[str, ...], tv: dict[str, int]) -> None:
    """Each part matched stands wholly on the TV's glass, its text read from across the room."""
    for selector in selectors:
        assert screen.page.locator(selector).count(), selector
        assert out_of_view(screen.page, selector, tv) == [], selector
    for text in ("ol.lane > li", "table.matrix td", "[aria-labelledby^='h-condensers'] li"):
        sizes = screen.page.evaluate(FONT_SIZES_JS, text)
        assert sizes and min(sizes) >= readable(tv), (text, sizes)


@TVS
@pytest.mark.rule("ES-ROUND-4", "ES-RNG-1", "ES-ACT-1")
def test_an_etherscope_fight_and_its_zoom_in_stand_whole_on_a_tv(
        browser: Browser, served: Served, tmp_path: Path, tv: dict[str, int]) -> None:
    """Six characters (and a watcher hidden from the players) in a warehouse, on a 1920×1080 TV
    and on a 1280×720 one: whose turn it is, the countdown's order, the Ranges, everyone's
    Condensers and the newest of the log are in view at once; zoomed in, the zoom's own and,
    under its parent's title, those who wait there with their Condensers; back out, the
    fight's again (before: the Set-up's meanings and the Countdown's sentence stood above the
    Ranges, which began halfway down the screen, the Condensers and the Participants below
    its foot, 1,880 px of page on a 720-px TV; a zoom's, 2,150 px)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, etherscope_warehouse(), tmp_path)
    screen = open_screen(browser, invite(gm, None), tv)
    page = screen.page
    try:
        for text in ("round", "ada: declare 9,3", "countdown",
                     "bruno: attack enforcer successes=3", "cora: search successes=2"):
            command(gm, "gm", text)
        expect(page.locator(".log .entry").first).to_contain_text("Cora Whitfield: search")
        expect(page.locator("ol.lane > li")).to_have_count(7)  # Ada twice, no watcher
        expect(page.locator("ol.lane > li.acting")).to_have_text("9 Ada Lovelace")
        expect(page.locator("[aria-labelledby='h-condensers'] li")).to_have_count(6)
        expect(page.locator("table.matrix tbody tr")).to_have_count(6)
        in_view_and_read(screen, ETHERSCOPE_ESSENTIALS, tv)
        command(gm, "gm", "ada: zoom dmitri,enforcer reason='a fight on the crates'")
        for text in ("round", "countdown"):
            command(gm, "gm", text)
        zoom = page.locator(".innermost")
        expect(zoom.locator("ol.lane > li")).to_have_count(3)
        waiting = page.locator(".zoom-level:not(.innermost) > .panel:has(ul) li")
        expect(waiting).to_have_count(3)  # Bruno, Cora and Fenella wait in the warehouse
        in_view_and_read(screen, (*[f".innermost {part}" for part in ETHERSCOPE_ESSENTIALS[:3]],
                                  *ETHERSCOPE_ESSENTIALS[3:], ".zoom-title",
                                  ".zoom-level:not(.innermost) > .panel:has(ul) li"), tv)
        command(gm, "gm", "end 'the heavy yields'")
        expect(page.locator(".zoom-level")).to_have_count(0)
        expect(page.locator("table.matrix tbody tr")).to_have_count(6)
        in_view_and_read(screen, ETHERSCOPE_ESSENTIALS, tv)
        assert page.evaluate("document.documentElement.scrollWidth") <= tv["width"]
        assert leaks(screen, ("zqlurker",)) == []
        assert screen.errors == [] and screen.console == [], (screen.errors, screen.console)
    finally:
        for each in (gm, screen):
            each.context.close()


@pytest.mark.rule("ES-DMG-1")
def test_the_condensers_say_who_is_out_of_an_etherscope_fight(browser: Browser,
                                                            served: Served) -> None:
    """A character taken out reads **out** and why on its line of the Condensers, on the TV
    as on the GM's screen (before: only its condensers, as of one still in the chase; the
    Participants that said it are not on a TV)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    tv = open_screen(browser, invite(gm, None), TV)
    try:
        command(gm, "gm", "out ada reason=crashed")
        for page in (tv.page, gm.page):
            lines = page.locator("[aria-labelledby='h-condensers'] li")
            expect(lines.filter(has_text="Ada")).to_contain_text("out: crashed")
            expect(lines.filter(has_text="Bruno")).not_to_contain_text("out")
    finally:
        for screen in (gm, tv):
            screen.context.close()
