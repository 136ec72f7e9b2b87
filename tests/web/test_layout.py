"""The player's phone screen holds up: 12 participants with long names fit a 390×844 screen
without sideways scrolling, every text meets WCAG AA contrast, and a command can be sent by
keyboard alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import (
    DESK,
    PHONE,
    command,
    create_from_example,
    invite,
    join,
    jumps_take_there,
    open_screen,
    start_table,
    upload_scenario,
)
from tests.web.scenarios import (
    ETHERSCOPE,
    FABULA,
    crowd,
    vers_table_of_eight,
)

pytestmark = pytest.mark.timeout(120)

#: Text whose contrast with the background behind it is below 4.5:1 (WCAG AA, normal text).
LOW_CONTRAST_JS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) bad.push(`${el.tagName}.${el.className}: ${ratio.toFixed(2)}`);
  }
  return bad;
}"""


def test_twelve_long_names_fit_a_phone(browser: Browser, served: Served,
                                       tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, crowd(12), tmp_path)
    alice = join(browser, invite(gm, "alice"))
    page = alice.page
    expect(page.locator(".person")).to_have_count(12)
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    for box in page.locator(".person").all():
        bound = box.bounding_box()
        assert bound is not None and bound["x"] >= 0 and bound["x"] + bound["width"] <= 390
    for screen in (gm, alice):
        assert screen.page.evaluate(LOW_CONTRAST_JS) == []


#: The centre and radius of each zone's circle on the page, in CSS pixels.
ZONE_CIRCLES_JS = """() => [...document.querySelectorAll("svg.zones circle.zone")].map((c) => {
  const b = c.getBoundingClientRect();
  return [b.left + b.width / 2, b.top + b.height / 2, b.width / 2];
})"""


def test_every_zone_of_the_map_is_in_view_on_a_phone(browser: Browser, served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")  # five zones
    alice = join(browser, invite(gm, "alice"))
    expect(alice.page.locator("svg.zones circle.zone")).to_have_count(5)
    circles = alice.page.evaluate(ZONE_CIRCLES_JS)
    for x, _, r in circles:
        assert r >= 25, f"a zone drawn too small to read on a phone: {circles}"
        assert x - r >= 0 and x + r <= 390, f"a zone out of the phone's screen: {circles}"
    assert len({round(y) for _, y, _ in circles}) > 2, "the zones are not wrapped into rows"
    wide = [round(y) for _, y, _ in gm.page.evaluate(ZONE_CIRCLES_JS)]
    assert len(set(wide)) == 2, f"the GM's wide map is not one zigzag row: {wide}"


#: Every text of the VERS map (zone names, who stands where) that is not wholly inside the
#: map, and every two of them drawn over each other, by their boxes on the page.
MAP_TEXT_CLASHES_JS = """() => {
  const map = document.querySelector("svg.zones").getBoundingClientRect();
  const texts = [...document.querySelectorAll("svg.zones text")]
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = texts.filter(([, b]) => b.top < map.top - 1 || b.bottom > map.bottom + 1
    || b.left < map.left - 1 || b.right > map.right + 1).map(([t]) => `outside: ${t}`);
  texts.forEach(([a, p], i) => texts.slice(i + 1).forEach(([b, q]) => {
    const across = p.left < q.right - 1 && q.left < p.right - 1;
    if (across && p.top < q.bottom - 1 && q.top < p.bottom - 1) out.push(`${a} over ${b}`);
  }));
  return out;
}"""


def test_nine_in_one_zone_all_show_on_the_map(browser: Browser, served: Served,
                                              tmp_path: Path) -> None:
    """Eight heroes and a thug in the common room: the map names all nine under it, inside
    the map and clear of the zone below, on a phone (rows of three) and on the GM's wide map
    (before: three names, the rest cut at the map's foot or drawn over The street's name)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, vers_table_of_eight(), tmp_path)
    alice = join(browser, invite(gm, "alice"))
    for screen in (alice, gm):
        who = screen.page.locator("svg.zones text.who")
        expect(who).to_have_count(9)
        assert screen.page.evaluate(MAP_TEXT_CLASHES_JS) == []
        for name in ("Ada", "Hal", "Thug"):
            box = who.filter(has_text=name).bounding_box()
            assert box is not None and box["height"] > 0, name


def test_a_long_list_of_odds_folds_on_a_phone_until_opened(browser: Browser,
                                                          served: Served) -> None:
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")
    alice = join(browser, invite(gm, "alice"))
    for p in (gm, alice):  # each object says where it stands, by the zone's name
        expect(p.page.locator("li", has_text="Bar counter · hardness 2")
               ).to_contain_text("in The bar")
    # the example starts with Ada's go opened (its opening GM command, the only line played):
    # her attacks, three weapons on five targets and two objects
    box = alice.page.locator(".odds-box")
    # folded, it says what its number counts (a screen reader read a bare "(8)")
    expect(box.locator("summary")).to_have_text(
        re.compile(r"^Odds of the pending roll \(\d+ lines\)$"))
    expect(box.locator("li").first).to_be_hidden()  # her commands come first on the phone
    box.locator("summary").click()
    expect(box.locator("li").first).to_contain_text("Ada → ")
    # the dice field says how many the ruleset rolls: VERS rolls 3d6
    expect(alice.page.locator("details.command", has_text="attack").first
           ).to_contain_text("3d6 rolled at the table")
    command(alice, "ada", "ada: attack thug weapon=knife dice=6,6,6")
    expect(alice.page.locator(".log .entry").first).to_contain_text("[6, 6, 6]")
    expect(box.locator("li").first).to_be_visible()  # as she left it, though the odds changed


def test_a_command_by_keyboard_alone(browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, crowd(4), tmp_path)
    alice = join(browser, invite(gm, "alice"))
    page = alice.page
    field = page.get_by_label("Another command for Participant 00", exact=False)
    for _ in range(60):  # Tab through the page until the command field has the focus
        page.keyboard.press("Tab")
        if field.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("the command field cannot be reached with Tab")
    page.keyboard.type("p00: initiative dice=5,6")
    page.keyboard.press("Enter")
    expect(gm.page.locator(".log .entry").first).to_contain_text("initiative")


@pytest.mark.rule("FU-CON-3", "VR-TURN-3")
def test_every_bundled_example_opens_on_both_screens(browser: Browser, served: Served) -> None:
    from fracas.app.scenario import bundled_scenarios

    gm = start_table(browser, served.url)
    names = list(bundled_scenarios())
    create_from_example(gm, names[0])
    player = join(browser, invite(gm, "alice"))
    for name in names:
        if name != names[0]:
            create_from_example(gm, name)
        title = gm.page.locator(".round-region .status")
        # its round in the game's word (a VERS Turn), none before the first (an example
        # starts fresh: 'Ambush on the Old Bridge · setup'); a VERS chase, where no turn is
        # opened, where the chase stands instead
        expect(title).not_to_contain_text(re.compile(r"(round|turn) 0"))
        if name == "vers-chase":
            expect(title).to_contain_text(" · chase c1: ")
        elif name.startswith("vers"):
            expect(title).to_contain_text(" · turn 1 · running")
        elif name == "fabula-ultima-ambush":  # and what comes next (FU-CON-2, FU-CON-3)
            expect(title).to_have_text("Ambush on the Old Bridge · setup")
            expect(gm.page.locator(".round-region")).to_contain_text(
                "May lead the initiative: Ada, Bruno · next: record goals, equip PCs, then Ada "
                "or Bruno leads the Initiative Group Check (FU-CON-3)")
        expect(gm.page.locator(".round-region h2")).to_have_text(
            "Turn" if name.startswith("vers") else "Round")
        player.page.goto(gm.page.url)  # the same conflict's address
        expect(player.page.locator(".round-region .status")).to_have_text(title.inner_text())
        expect(player.page.locator(".field-region .panel").first).to_be_visible()
    assert gm.errors == [] and player.errors == []


def test_a_command_heading_keeps_its_marker_and_height_on_a_touch_screen(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, FABULA, tmp_path)
    alice = join(browser, invite(gm, "alice"), touch=True)
    assert alice.page.evaluate("matchMedia('(pointer: coarse)').matches")
    heading = alice.page.locator("section.actor[data-actor='ada'] details.command > summary")
    expect(heading.first).to_be_visible()
    for summary in heading.all():  # Chromium draws the ▸ of a summary that is a list item
        display, height = summary.evaluate(
            "el => [getComputedStyle(el).display, el.getBoundingClientRect().height]")
        assert display == "list-item", summary.inner_text()
        assert height >= 44, summary.inner_text()  # still a finger's size to tap


#: The words of the Ranges table's headings that the page breaks across two lines.
BROKEN_WORDS_JS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll("table.matrix th")) {
    const text = th.firstChild;
    if (!text || text.nodeType !== 3) continue;
    for (const m of text.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.mark.rule("ES-RNG-1")
def test_the_ranges_table_never_breaks_a_name_mid_word(browser: Browser, served: Served,
                                                      tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    gm.page.set_viewport_size({"width": 1280, "height": 800})
    upload_scenario(gm, ETHERSCOPE, tmp_path)
    command(gm, "gm", "join bartholomew name='Sir Bartholomew Featherstonehaugh' side=crew "
            "'stats={\"physical\": 8, \"ether\": 8, \"society\": 8}'")
    matrix = gm.page.locator("table.matrix")
    expect(matrix.locator("thead th")).to_have_count(6)  # "from \\ to" and five characters
    assert gm.page.evaluate(BROKEN_WORDS_JS) == []
    width = gm.page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"  # the table may, alone
    # a newcomer who has not rolled awareness yet shows no "awareness null"
    expect(gm.page.locator("main")).not_to_contain_text("awareness null")
    expect(gm.page.locator("main")).to_contain_text("Sir Bartholomew")
    gm.context.close()


def test_a_stats_gm_only_box_sits_beside_its_label_in_the_set_up_form(
        browser: Browser, served: Served) -> None:
    """Before: each stat's GM only checkbox was drawn as wide as the stat's field (6rem), its
    box floating in the middle, a thumb's width away from the words it ticks."""
    gm = start_table(browser, served.url)
    gm.page.set_viewport_size(PHONE)
    gm.page.get_by_text("Set up a conflict (form)").click()
    for stat in ("physical", "awareness"):
        check = gm.page.get_by_label(f"{stat} GM only")
        box = check.bounding_box()
        label = gm.page.locator(f"label[for='{check.get_attribute('id')}']").bounding_box()
        assert box and label and box["width"] <= 30, box
        assert 0 <= label["x"] - (box["x"] + box["width"]) <= 12, (box, label)


def test_a_gm_on_an_upright_tablet_has_the_log_beside_the_controls(browser: Browser,
                                                                   served: Served) -> None:
    """At 768×1024 the GM's controls stand in one column, the field and the log in the other,
    the log beside the controls (before: one column as on a phone, the log some 5,000px down,
    below every control); sideways scrolling never comes of it."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-agents-domain")
    gm.page.set_viewport_size({"width": 768, "height": 1024})
    expect(gm.page.locator(".round-region")).to_contain_text("Behind the screen")
    expect(gm.page.locator(".log-region")).to_contain_text("conflict set up")
    round_box = gm.page.locator(".round-region").bounding_box()
    log_box = gm.page.locator(".log-region").bounding_box()
    assert round_box and log_box
    assert log_box["x"] >= round_box["x"] + round_box["width"], (round_box, log_box)
    assert log_box["y"] < round_box["y"] + round_box["height"], (round_box, log_box)
    assert gm.page.evaluate("document.documentElement.scrollWidth") <= 768
    gm.context.close()


def test_a_gm_on_a_phone_has_every_part_a_tap_away(browser: Browser, served: Served) -> None:
    """The GM runs the brawl from a 390×844 phone: a bar at the top of the screen, wherever
    the GM has scrolled, takes them in one tap to the Turn, the Zones, the Log (its Undo) or
    the Conflicts (to switch scenes), the heading focused and in view below the bar (before:
    the log ≈ 4,600 px down, under every GM command and card, the conflicts further still).
    On a screen wide enough for the columns side by side there is no bar."""
    gm = open_screen(browser, served.url + "/", PHONE, touch=True)
    gm.page.get_by_label("Name of the table").fill("Saturday VERS")
    gm.page.get_by_role("button", name="Create the table").click()
    gm.page.get_by_role("link", name="Open the table").tap()
    create_from_example(gm, "vers-tavern-brawl")
    page = gm.page
    bar = page.get_by_role("navigation", name="Parts of the page")
    expect(bar.get_by_role("button")).to_have_text(["Turn", "Zones", "Log", "Conflicts"])
    jumps_take_there(page, [("Turn", "#h-turn", "section.actor[data-actor='ada'] h3"),
                            ("Log", "#h-log", ".log-region button:text-is('Undo')"),
                            ("Zones", "#h-zones", "svg.zones"),
                            ("Conflicts", "#h-conflicts", ".conflicts li")])
    page.set_viewport_size(DESK)
    expect(bar).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.documentElement).scrollPaddingTop") \
        in ("auto", "0px")
    assert gm.errors == [] and gm.console == [], (gm.errors, gm.console)
    gm.context.close()


#: The size in CSS pixels of the text of each element matched (its computed font size).
FONT_SIZES_JS = """(selector) => [...document.querySelectorAll(selector)]
  .map((el) => parseFloat(getComputedStyle(el).fontSize))"""


def test_the_public_screen_on_a_tv_reads_from_across_the_room(browser: Browser,
                                                              served: Served) -> None:
    """A public link on a 1920×1080 TV at the table: the round, the map and the newest of
    the log stand side by side in view, in text large enough to read from across the room
    (24 px at least, where the browser's default is 16), and it follows the play as it comes;
    an onlooker has no turn, so no setting of a turn's sound (before: one column of 16 px
    text as on a phone stretched across the screen, the log 1,800 px down, out of view)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "vers-tavern-brawl")
    tv = open_screen(browser, invite(gm, None), {"width": 1920, "height": 1080})
    try:
        page = tv.page
        expect(page.locator("#who")).to_have_text("Onlooker")
        command(gm, "gm", "narrate 'The lamps gutter.'")
        newest = page.locator(".log .entry").first
        expect(newest).to_contain_text("the GM: The lamps gutter.")
        for part in (page.locator(".round-region"), page.locator("svg.zones"), newest):
            box = part.bounding_box()
            assert box and box["y"] + box["height"] <= 1080, f"out of view: {box}"
        for text in (".round-region p", ".log .events li", ".person .name", ".facts li"):
            sizes = page.evaluate(FONT_SIZES_JS, text)
            assert sizes and min(sizes) >= 24, (text, sizes)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        expect(page.get_by_label("Sound and vibration when it is my turn")).to_have_count(0)
    finally:
        for screen in (gm, tv):
            screen.context.close()
