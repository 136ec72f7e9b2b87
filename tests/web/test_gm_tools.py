"""The GM's tools and the players' structured controls in a real browser, through the pages
alone: players act with the controls built from the server's structured legal commands, the
GM creates a conflict from the form, chooses per side what players see of harm (enforced in
what the server sends), edits the VERS map and the Etherscope countdown on the diagram, and
sees a zoom-in drawn inside its parent; VERS ladders are drawn with their slots."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.server.support import Served
from tests.web.browser import (
    Screen,
    command,
    create_from_example,
    invite,
    join,
    leaks,
    start_table,
    unlabelled_controls,
    upload_scenario,
    wait_log,
)
from tests.web.scenarios import FABULA, SECRETS, VERS, XSS
from tests.web.test_table import table

pytestmark = pytest.mark.timeout(150)


def control(screen: Screen, actor: str, title: str) -> Locator:
    """The opened control of a legal command (its summary reads ``title``)."""
    group = screen.page.locator(f"section.actor[data-actor='{actor}']")
    details = group.locator("details.command", has=screen.page.locator(
        "summary", has_text=re.compile(f"^{re.escape(title)}$")))
    details.locator("> summary").click()
    return details.locator("form")


def gm_opens(gm: Screen, name: str) -> None:
    """The GM opens a VERS turn with ``name``'s go, from the structured control, and waits
    until the server has taken it (a player's command sent sooner finds no turn open)."""
    opener = control(gm, "gm", "open")
    opener.get_by_label("first").select_option(label=name)
    opener.get_by_role("button", name="open").click()
    expect(gm.page.locator("#notice")).to_contain_text(f"{name} opens the turn")


def control_summary(screen: Screen, actor: str, title: str) -> Locator:
    """The summary of a legal command's control (closed or open)."""
    group = screen.page.locator(f"section.actor[data-actor='{actor}']")
    return group.locator("details.command summary", has_text=re.compile(f"^{re.escape(title)}$"))


def last_view(screen: Screen) -> dict[str, Any]:
    """The newest view the page received (WebSocket frames and API answers)."""
    for text in reversed(screen.received().split("\n")):
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("view"), dict):
            view: dict[str, Any] = data["view"]
            return view
    raise AssertionError("no view received")


def person(view: dict[str, Any], pid: str) -> dict[str, Any]:
    """One participant of a view's top level."""
    found: dict[str, Any] = next(p for p in view["conflict"]["participants"] if p["id"] == pid)
    return found


def clean(gm: Screen, players: tuple[Screen, ...]) -> None:
    """No unlabelled control anywhere, no script error, no secret on a player's page."""
    for screen in (gm, *players):
        assert unlabelled_controls(screen.page) == []
        assert screen.errors == [], screen.errors
        assert screen.console == [], screen.console  # no invalid pattern, no missing file
    for screen in players:
        assert leaks(screen, SECRETS) == []


@pytest.mark.rule("VR-ATK-1")
def test_players_act_with_the_structured_controls(browser: Browser, served: Served,
                                                  tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        attack = control(alice, "ada", "attack")
        targets = attack.get_by_label("target").evaluate(
            "el => [...el.options].map(o => o.text)")
        assert "Bruno" in targets and "zqdora" not in " ".join(targets).lower()
        attack.get_by_label("target", exact=True).select_option("imp")
        attack.get_by_label(re.compile("^weapon")).select_option("sword")
        attack.get_by_label(re.compile("^dice")).fill("3,3,2")
        attack.get_by_role("button", name="attack").click()
        for p in (gm, alice, bob):
            expect(p.page.locator(".log .entry").first).to_contain_text("[3, 3, 2]")
        handoff = control(alice, "ada", "handoff")
        handoff.get_by_label(re.compile("^to")).select_option(label="Bruno")
        handoff.get_by_role("button", name="handoff").click()
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        expect(alice.page).not_to_have_title(re.compile("Your turn"))
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-TURN-1")
def test_what_a_player_is_typing_survives_the_table_moving_on(browser: Browser, served: Served,
                                                              tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        line = alice.page.locator("section.actor[data-actor='ada'] form.command-line input")
        line.click()
        line.press_sequentially("ada: attack im")
        gm_opens(gm, "Ada")  # her controls are redrawn
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        expect(control_summary(alice, "ada", "attack")).to_be_visible()
        expect(line).to_have_value("ada: attack im")
        assert alice.page.evaluate("document.activeElement.id") == "line-ada"
        line.press("End")
        line.press_sequentially("p dice=3,3,2")  # she goes on typing where she was
        line.press("Enter")
        for p in (gm, alice, bob):
            expect(p.page.locator(".log .entry").first).to_contain_text("[3, 3, 2]")
        expect(line).to_have_value("")


@pytest.mark.rule("FU-RES-1")
def test_harm_views_per_side_are_enforced_by_the_server(browser: Browser, served: Served,
                                                        tmp_path: Path) -> None:
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        ada = bob.page.locator(".member", has_text="Ada")
        expect(ada.locator("meter")).to_have_count(2)  # exact by default: HP and MP bars
        gm.page.get_by_label("Harm of heroes").select_option("band")
        expect(gm.page.locator("#notice")).to_contain_text(  # the GM's page says it is done
            "Done: override settings.harm_view.heroes band")
        expect(ada.locator(".tag.harm")).to_have_text("unhurt")
        expect(ada.locator("meter")).to_have_count(0)
        expect(ada).not_to_contain_text("HP")
        seen = person(last_view(bob), "ada")  # the server sent the band, not the numbers
        assert seen["harm"] == "unhurt" and "hp" not in seen and "hp" not in seen["stats"]
        mine = alice.page.locator(".member", has_text="Ada")  # a player's own: exact
        expect(mine.locator("meter")).to_have_count(2)
        command(alice, "ada", "ada: initiative dice=5,5,6,4")
        command(gm, "gm", "override ada.hp.current 30")
        expect(ada.locator(".tag.harm")).to_have_text("hurt")
        expect(mine).to_contain_text("HP 30/45")
        assert "30/45" not in bob.page.content()
        gm.page.get_by_label("Harm of heroes").select_option("none")
        expect(ada.locator(".tag.harm")).to_have_count(0)
        seen = person(last_view(bob), "ada")
        assert "harm" not in seen and "hp" not in seen and seen["summary"] == ""
        expect(gm.page.locator(".member", has_text="Ada")).to_contain_text("HP 30/45")
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-CON-3")
def test_before_the_first_round_each_pc_is_asked_to_lead_the_initiative(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """The fight waits on one of the PCs to lead the Initiative Group Check; nothing told the
    players so (no banner, nothing a screen reader said): the hint was on the Round's line
    alone. Each is asked, until one has led it."""
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        for screen, name in ((alice, "Ada"), (bob, "Bruno")):
            expect(screen.page.locator("#turn-banner")).to_have_text(
                f"Lead the Initiative Group Check: {name}")
            expect(screen.page).to_have_title(re.compile(f"^▶ Lead the Initiative Group "
                                                         f"Check: {name}"))
        expect(gm.page.locator(".round-region p", has_text="May lead the initiative:")
               ).to_contain_text("Ada, Bruno")
        command(alice, "ada", "ada: initiative dice=6,6,6,6")
        expect(alice.page.locator("#turn-banner")).not_to_contain_text("Initiative")
        expect(bob.page.locator("#turn-banner")).not_to_contain_text("Initiative")
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-CON-12", "FU-RES-2")
def test_a_character_taken_out_shows_no_crisis_badge(browser: Browser, served: Served) -> None:
    """A cutthroat at 0 HP is "out", not "out" and "crisis" (before: the red badge stayed);
    one at a quarter of its HP is in Crisis."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    command(gm, "gm", "ada: initiative dice=5,5,6,4")
    command(gm, "gm", "damage cut1 20")
    command(gm, "gm", "damage cut2 15")
    sides = gm.page.get_by_role("region", name="Sides")
    out, hurt = (sides.locator(".member", has_text=f"Cutthroat {n}") for n in (1, 2))
    expect(out.locator(".tag").first).to_have_text("out")
    expect(out.locator(".tag.crisis")).to_have_count(0)
    expect(hurt.locator(".tag.crisis")).to_have_text("crisis")
    gm.context.close()


@pytest.mark.rule("FU-CON-12", "FU-RES-4")
def test_a_character_taken_out_keeps_its_statuses_on_its_card_not_as_tags(
        browser: Browser, served: Served) -> None:
    """A Dazed and Weak cutthroat taken out reads "out" in the Sides, with no status tags
    beside it (before: "out", "dazed", "weak", as if they still acted); its card's sheet
    keeps them, as the rules end none. One still fighting keeps its tag."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    for line in ("ada: initiative dice=5,5,6,4", "status cut1 dazed", "status cut1 weak",
                 "status cut2 slow", "damage cut1 20"):
        command(gm, "gm", line)
    sides = gm.page.get_by_role("region", name="Sides")
    out, fighting = (sides.locator(".member", has_text=f"Cutthroat {n}") for n in (1, 2))
    expect(out.locator(".tag").first).to_have_text("out")
    expect(out.locator(".tag", has_text=re.compile("dazed|weak"))).to_have_count(0)
    expect(fighting.locator(".tag", has_text="slow")).to_have_count(1)
    card = gm.page.locator(".person", has_text="Cutthroat 1")
    card.locator("summary", has_text="sheet").click()
    expect(card.locator(".sheet")).to_contain_text("status effectsDazed, Weak")
    gm.context.close()


@pytest.mark.rule("FU-RES-1")
def test_a_spells_mp_cost_and_damage_are_in_view(browser: Browser, served: Served) -> None:
    """A spell's form shows its MP field with what it is (before: folded under "more
    options", so a cast at 0 MP went unnoticed) and its damage (folded, so an offensive spell
    that hit dealt none unnoticed); its rare values stay folded."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    command(gm, "gm", "ada: initiative dice=5,5,6,4")
    spell = gm.page.locator("details.command", has=gm.page.locator("form[data-verb='spell']")
                            ).first
    spell.locator("> summary").click()
    mp = spell.locator("form > p.field", has=gm.page.get_by_label("mp", exact=False))
    expect(mp).to_be_visible()
    expect(mp).to_contain_text("the MP the spell costs")
    expect(spell.locator("form > p.field", has=gm.page.get_by_label("damage (optional)"))
           ).to_be_visible()
    expect(spell.locator("details.more > summary")).to_have_text(
        "more options: accuracy, bonus, recover, recover mp")  # a heal's HP and MP (FU-RES-1)
    gm.context.close()


@pytest.mark.rule("FU-CON-2")
def test_an_items_damage_type_is_cleared_with_its_name_once_declared(browser: Browser,
                                                                     served: Served) -> None:
    """Once an item (a spell, damage dealt) is sent, its damage type goes with the name and
    damage typed beside it (the next is another: before, a "Tail sweep" went out as the fire
    of the "Flame" before it); its kind, a choice of what the form is for, stays."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    gm.page.get_by_label("Act for").select_option(label="Ada")
    equip = gm.page.locator("section.actor[data-actor='ada'] details.command",
                            has=gm.page.locator("form[data-verb='equip']"))
    equip.locator("> summary").click()
    form = equip.locator("form")
    form.get_by_label("kind").select_option("weapon")
    form.get_by_label("name").fill("Flame sword")
    form.get_by_label("damage (optional)").fill("5")
    form.get_by_label("type (optional)").select_option("fire")
    form.get_by_role("button").last.click()
    expect(gm.page.locator(".log .entry").first).to_contain_text("Flame sword")
    form = gm.page.locator("section.actor[data-actor='ada'] form[data-verb='equip']")
    expect(form.get_by_label("name")).to_have_value("")
    expect(form.get_by_label("type (optional)")).to_have_value("")
    expect(form.get_by_label("kind")).to_have_value("weapon")
    gm.context.close()


def test_the_forms_participants_are_numbered_as_shown(browser: Browser, served: Served
                                                     ) -> None:
    """After a switch of ruleset the one row left is Participant 1 (before: Participant 4, a
    count of every row made); a row removed renumbers those after it."""
    gm = start_table(browser, served.url)
    gm.page.get_by_text("Set up a conflict (form)").click()
    form = gm.page.locator("#from-form")
    legends = form.locator("fieldset legend")
    form.get_by_role("button", name="Add a participant").click()
    expect(legends).to_have_text(["Participant 1", "Participant 2"])
    form.get_by_label("Ruleset").select_option("fabula-ultima")
    expect(legends).to_have_text(["Participant 1"])
    form.get_by_role("button", name="Add a participant").click()
    form.get_by_role("button", name="Add a participant").click()
    form.get_by_role("button", name="Remove participant 1").click()
    expect(legends).to_have_text(["Participant 1", "Participant 2"])
    expect(form.get_by_role("button", name=re.compile("^Remove participant"))).to_have_count(2)
    gm.context.close()


def test_the_forms_kind_follows_the_player_until_the_gm_chooses_one(browser: Browser,
                                                                    served: Served) -> None:
    """Before: every row's Kind read "pc" unless changed, so a GM's thug with no player was
    made a PC; now a row with a player is a pc, one without an npc, until the GM chooses."""
    gm = start_table(browser, served.url)
    page = gm.page
    page.get_by_text("Set up a conflict (form)").click()
    form = page.locator("#from-form")
    form.get_by_label("Ruleset").select_option("etherscope")
    form.get_by_label("Title").fill("The docks")
    form.get_by_label("Sides (comma-separated)").fill("crew, thugs")
    form.get_by_role("button", name="Add a participant").click()
    form.get_by_role("button", name="Add a participant").click()
    rows = form.locator("fieldset")
    kind = rows.nth(0).get_by_label("Kind")
    expect(kind).to_have_value("npc")
    expect(kind).to_have_accessible_description(
        "Kind: pc once a player is named, else npc, unless you choose.")
    player = rows.nth(0).get_by_label(re.compile("^Player"))
    player.fill("alice")
    expect(kind).to_have_value("pc")
    player.fill("")
    expect(kind).to_have_value("npc")
    third = rows.nth(2)
    third.get_by_label("Kind").select_option("pc")  # the GM's own choice stays
    third.get_by_label(re.compile("^Player")).fill("bob")
    third.get_by_label(re.compile("^Player")).fill("")
    expect(third.get_by_label("Kind")).to_have_value("pc")
    for row, (pid, name, side, who) in zip(
            (rows.nth(0), rows.nth(1), third),
            (("ada", "Ada", "crew", "alice"), ("thug", "Thug", "thugs", ""),
             ("cat", "Cat", "crew", "")), strict=True):
        row.get_by_label("Id", exact=True).fill(pid)
        row.get_by_label("Name", exact=True).fill(name)
        row.get_by_label("Side", exact=True).select_option(side)
        if who:
            row.get_by_label(re.compile("^Player")).fill(who)
        for stat in ("physical", "ether", "society", "awareness"):
            row.get_by_label(stat, exact=True).fill("8")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The docks")
    roles = page.locator(".people .person .role")
    expect(roles).to_have_text(["crew · pc", "thugs · npc", "crew · pc"])
    gm.context.close()


def form_with_rows(gm: Screen, ruleset: str, title: str, sides: str,
                   people: Sequence[Sequence[str]]) -> tuple[Locator, Locator]:
    """The New conflict form set to ``ruleset`` with ``title`` and ``sides``, a row filled in
    for each of ``people`` (id, name, side, then what the caller fills); the form and its
    rows, to be filled on."""
    gm.page.get_by_text("Set up a conflict (form)").click()
    form = gm.page.locator("#from-form")
    form.get_by_label("Ruleset").select_option(ruleset)
    form.get_by_label("Title").fill(title)
    form.get_by_label("Sides (comma-separated)").fill(sides)
    rows = form.locator("fieldset")
    for i, (pid, name, side, *_) in enumerate(people):
        if i:
            form.get_by_role("button", name="Add a participant").click()
        row = rows.nth(i)
        row.get_by_label("Id", exact=True).fill(pid)
        row.get_by_label("Name", exact=True).fill(name)
        if side:  # (none where the form has no sides)
            row.get_by_label("Side", exact=True).select_option(side)
    return form, rows


def vers_form(gm: Screen, title: str, sides: str, people: list[tuple[str, ...]],
              zones: str | None = None) -> tuple[Locator, Locator]:
    """The New conflict form set to VERS with ``title``, ``sides`` and ``zones`` (if given),
    a row filled in for each of ``people`` (id, name, side and, if given, zone); the form and
    its rows, to be sent."""
    form, rows = form_with_rows(gm, "vers", title, sides, people)
    if zones is not None:
        form.get_by_label(re.compile("^Zones")).fill(zones)
    for i, (_, _, _, *zone) in enumerate(people):
        if zone:
            rows.nth(i).get_by_label("Zone", exact=True).select_option(zone[0])
    return form, rows


@pytest.mark.rule("VR-ROLL-2")
def test_a_vers_character_from_the_form_is_armed_as_the_forms_example_says(
        browser: Browser, served: Served) -> None:
    """A VERS row's 'Other stats' shows how to give skills and a weapon, in VERS's words;
    what it shows, typed in, arms the character: Ada attacks with her sword. Before, it read
    'skills.brawl=2, fp=3' (Etherscope's skill, Fabula Ultima's points) and a GM had no
    way to learn how a VERS character gets a weapon other than bare hands (EV 0)."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = vers_form(gm, "The form's brawl", "heroes, toughs",
                           [("ada", "Ada", "heroes"), ("thug", "Thug", "toughs")])
    other = rows.nth(0).get_by_label("Other stats (name=value, comma-separated)")
    example = other.get_attribute("placeholder") or ""
    assert "weapons.sword.kind=close" in example and "fp=" not in example
    other.fill(example)
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The form's brawl")
    gm_opens(gm, "Ada")
    command(gm, "ada", "ada: attack thug weapon=sword dice=1,1,1")
    expect(page.locator(".log .entry").first).to_contain_text("with sword (close)")
    clean(gm, ())


def test_a_character_hidden_from_the_start_on_the_form_leaves_no_trace(
        browser: Browser, served: Served) -> None:
    """A sniper the GM hides from the start on the form is nowhere on a player's page: not in
    the set-up the log shows (nor in its count of participants), not in what the server sent,
    until the GM reveals it. Before, the form could only make it seen and the GM conceal it
    after, and every player's log kept its whole sheet and '(3 participants)'."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = vers_form(gm, "The warehouse", "crew, gang",
                           [("ada", "Ada", "crew", "dock"), ("rook", "Rook", "gang", "dock"),
                            ("zqvex", "Zqsniper Vex", "gang", "catwalk")], "dock, catwalk")
    rows.nth(0).get_by_label(re.compile("^Player")).fill("alice")
    rows.nth(2).get_by_label(re.compile("^Hidden from the players at the start")).check()
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The warehouse")
    expect(page.locator(".person", has_text="Zqsniper Vex")).to_contain_text(
        "hidden from players")
    alice = join(browser, invite(gm, "alice"))
    wait_log(alice, "conflict set up: The warehouse (2 participants)")
    expect(alice.page.locator(".person")).to_have_count(2)
    assert leaks(alice, ("zqvex", "zqsniper")) == []
    command(gm, "gm", "reveal zqvex")
    expect(alice.page.locator(".person", has_text="Zqsniper Vex")).to_be_visible()
    clean(gm, (alice,))


@pytest.mark.rule("VR-MOVE-1")
def test_the_forms_links_draw_a_map_that_is_no_chain(browser: Browser, served: Served) -> None:
    """A warehouse whose loading dock leads to the catwalk (by its ladder), the office and the
    street is drawn from the form's Links, a dash between two zones (an id may hold one).
    Before, the form linked the zones in the order given, a chain, and a link once drawn
    cannot be taken off the map: the catwalk led on to the office."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, _ = vers_form(gm, "The warehouse", "crew", [("ada", "Ada", "crew", "catwalk")],
                        "dock, catwalk, back-office, street")
    links = form.get_by_label(re.compile("^Links"))
    expect(links).to_have_accessible_description(re.compile("empty: each zone linked to the next"))
    links.fill("dock-catwalk, dock-back-office, back-office-street, street - dock")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The warehouse")
    expect(page.locator("svg.zones line.link")).to_have_count(4)
    zones = last_view(gm)["conflict"]["ruleset"]["zones"]
    assert zones == {"back-office": ["dock", "street"], "catwalk": ["dock"],
                     "dock": ["back-office", "catwalk", "street"],
                     "street": ["back-office", "dock"]}
    clean(gm, ())


@pytest.mark.rule("VR-MOVE-1")
def test_the_forms_zones_take_their_names(browser: Browser, served: Served) -> None:
    """A tavern's zones typed as 'bar=The bar, floor=Common room, door' are drawn with those
    names (the door by its id), and a row's Zone lists them by name. Before, a zone could only
    be named by its id: the map read 'bar' and 'floor' where the bundled brawl reads 'The bar'
    and 'Common room'."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = vers_form(gm, "The Drowned Rat", "heroes",
                           [("ada", "Ada", "heroes", "floor")],
                           "bar=The bar, floor=Common room, door")
    zone = rows.nth(0).get_by_label("Zone", exact=True)
    expect(zone.locator("option:checked")).to_have_text("Common room (floor)")
    expect(form.get_by_label(re.compile("^Zones"))).to_have_accessible_description(
        re.compile("a name after = "))
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The Drowned Rat")
    expect(page.locator("svg.zones")).to_contain_text("Common room")
    names = last_view(gm)["conflict"]["ruleset"]["zone_names"]
    assert names == {"bar": "The bar", "floor": "Common room", "door": "door"}
    clean(gm, ())


@pytest.mark.rule("VR-ROLL-2")
def test_the_forms_other_stats_may_be_gm_only(browser: Browser, served: Served) -> None:
    """A fence's skills and revolver, typed in 'Other stats GM only', are kept from the
    players: his attack reads to them with no weapon, TN or EV, while his armour, typed in
    'Other stats', is on his sheet for them. Before, only the nine attributes had a GM-only
    box, and then one box made every stat typed in Other stats GM-only or none (the bundled
    brawl's thug keeps his skills secret and shows his club)."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = vers_form(gm, "The office", "crew, gang",
                           [("ada", "Ada", "crew"), ("marlo", "Marlo", "gang")])
    rows.nth(0).get_by_label(re.compile("^Player")).fill("alice")
    rows.nth(1).get_by_label("Other stats (name=value, comma-separated)").fill("rv=1")
    secret = rows.nth(1).get_by_label(re.compile("^Other stats GM only"))
    expect(secret).to_have_attribute("placeholder", re.compile("skills.close_combat=3"))
    secret.fill("skills.ranged_combat=7, skills.zqknifework=3, weapons.zqrevolver.ev=9, "
                "weapons.zqrevolver.kind=ranged")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The office")
    alice = join(browser, invite(gm, "alice"))
    assert person(last_view(alice), "marlo")["stats"] == {"rv": 1}
    gm_opens(gm, "Marlo")
    command(gm, "marlo", "marlo: attack ada dice=1,1,1")
    wait_log(alice, "Marlo: attack")
    expect(alice.page.locator(".log .entry").first).to_contain_text("TN ?")
    assert leaks(alice, ("zqrevolver", "zqknifework")) == []
    clean(gm, (alice,))


def test_a_conflict_from_the_form(browser: Browser, served: Served) -> None:
    gm = start_table(browser, served.url)
    page = gm.page
    page.get_by_text("Set up a conflict (form)").click()
    form = page.locator("#from-form")
    form.get_by_label("Ruleset").select_option("fabula-ultima")
    form.get_by_label("Title").fill("The form's ambush")
    form.get_by_label("Sides (comma-separated)").fill("heroes, bandits")
    form.get_by_label("The player characters' side").select_option("heroes")
    form.get_by_label("The foes' side").select_option("bandits")
    form.get_by_label("What players see of the harm of bandits").select_option("band")

    def fill(row: Locator, pid: str, name: str, side: str, hp: str, stats: dict[str, str]
             ) -> None:
        row.get_by_label("Id", exact=True).fill(pid)
        row.get_by_label("Name", exact=True).fill(name)
        row.get_by_label("Side", exact=True).select_option(side)
        row.get_by_label("hp", exact=True).fill(hp)
        for stat, size in stats.items():
            row.get_by_label(stat, exact=True).select_option(size)

    dice = {"dex": "8", "ins": "8", "mig": "8", "wlp": "8"}
    fill(form.locator("fieldset").nth(0), "ada", "Ada", "heroes", "45", dice)
    form.locator("fieldset").nth(0).get_by_label("Kind").select_option("pc")
    form.locator("fieldset").nth(0).get_by_label(re.compile("^Player")).fill("alice")
    form.get_by_role("button", name="Add a participant").click()
    fill(form.locator("fieldset").nth(1), "ada", "Brute", "bandits", "3917", dice)
    form.locator("fieldset").nth(1).get_by_label("hp GM only").check()
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator("#error")).to_contain_text("ada")  # the engine's words: a second ada
    expect(page.locator(".conflicts li")).to_have_text(["None yet: make one under New conflict."])
    form.locator("fieldset").nth(1).get_by_label("Id", exact=True).fill("brute")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The form's ambush")
    expect(page.locator(".member", has_text="Brute")).to_contain_text("HP 3917/3917")
    alice = join(browser, invite(gm, "alice"))
    expect(alice.page.locator(".member", has_text="Ada")).to_contain_text("HP 45/45")
    expect(alice.page.locator(".member", has_text="Brute").locator(".tag.harm")
           ).to_have_count(0)  # GM-only HP: not even a band can be drawn from it
    assert leaks(alice, ("3917",)) == []
    clean(gm, (alice,))
    alice.context.close()
    gm.context.close()


@pytest.mark.rule("VR-MOVE-1")
def test_the_gm_edits_the_vers_map_and_ladders_show_their_slots(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm.page.get_by_label("Character to move").select_option(label="Ada")
        gm.page.get_by_role("button", name="Put the chosen character in The bar").click()
        bar = alice.page.locator("svg.zones g", has_text="The bar")
        expect(bar).to_contain_text("Ada")
        expect(alice.page.locator("svg.zones line")).to_have_count(1)
        for first, second in (("Link zone", "with zone"), ("the way from zone", "to zone")):
            assert gm.page.get_by_label(first).input_value() == "bar"  # never to itself
            assert gm.page.get_by_label(second, exact=True).input_value() == "floor"
        gm.page.get_by_label("Link zone").select_option("floor")
        gm.page.get_by_label("with zone").select_option("door")
        gm.page.locator(".map-editor").get_by_role("button", name="Link").click()
        expect(alice.page.locator("svg.zones line")).to_have_count(2)
        gm.page.get_by_label("Cover for").select_option(label="Bruno")
        gm.page.get_by_label("Cover", exact=True).select_option("3")
        gm.page.get_by_role("button", name="Set cover").click()
        expect(bob.page.locator(".facts")).to_contain_text("Bruno has ⅔ cover")
        gm.page.get_by_label("Guard", exact=True).select_option(label="Bruno")
        gm.page.get_by_label("the way from zone").select_option("floor")
        gm.page.get_by_label("to zone", exact=True).select_option("door")
        gm.page.get_by_role("button", name="Post guard").click()
        expect(alice.page.locator(".facts")).to_contain_text("Bruno guards")
        gm.page.get_by_label("Stop guarding").select_option(label="Bruno")
        # a frame arrives between the GM's choice and the button: the choice stays
        command(alice, "ada", "ada: note 'Hold on'")
        wait_log(gm, "Hold on")
        expect(gm.page.get_by_label("Stop guarding")).to_have_value("bruno")
        gm.page.get_by_role("button", name="Stop", exact=True).click()
        expect(alice.page.locator(".facts")).not_to_contain_text("Bruno guards")
        zone_id = gm.page.get_by_label("New zone (id)")
        zone_id.fill("the cellar")  # two words would be two zones: the form refuses it
        assert zone_id.evaluate("el => el.validity.patternMismatch")
        gm.page.get_by_role("button", name="Add zone").click()
        zone_id.fill("cellar")
        gm.page.get_by_label("its name (optional)").fill("The 'wet' cellar")
        gm.page.get_by_role("button", name="Add zone").click()
        for p in (gm, alice):  # a zone drawn in play goes by its name, as the set-up's do
            expect(p.page.locator("svg.zones g", has_text="The 'wet' cellar")).to_have_count(1)
        expect(alice.page.locator("svg.zones .zone-name")).to_have_count(4)  # not "the"
        expect(gm.page.get_by_label("Link zone").locator("option", has_text="The 'wet' cellar")
               ).to_have_count(1)
        ada_ladders = alice.page.locator(".ladders > details", has_text="Ada: injury")
        bruno_ladders = alice.page.locator(".ladders > details", has_text="Bruno: injury")
        for folded in (ada_ladders, bruno_ladders):  # unhurt: folded to a line each
            expect(folded).not_to_have_attribute("open", "")
        expect(bruno_ladders.locator("> summary")).to_contain_text("unhurt")
        bruno_ladders.locator("> summary").click()  # opened by hand: kept open over redraws
        injury = alice.page.locator("table.ladder", has_text="Ada: injury")
        expect(injury.locator("tr")).to_have_count(4)  # grazed, wounded, impaired, disabled
        expect(injury.locator("tr", has_text="wounded")).to_contain_text("-1 each")
        command(gm, "gm", "harm ada 4")
        expect(ada_ladders).to_have_attribute("open", "")  # a condition opens them
        expect(injury.locator("tr", has_text="wounded").locator(".slot.full")).to_have_count(1)
        # only the track that holds one: focus and morale stay a line each, openable
        track = ada_ladders.locator("details.track")
        expect(track.filter(has_text="injury: wounded (−1 to rolls)")).to_have_attribute("open", "")
        for empty in ("focus: none", "morale: none"):
            expect(track.filter(has_text=empty)).not_to_have_attribute("open", "")
        track.filter(has_text="focus: none").locator("> summary").click()
        expect(alice.page.locator("table.ladder", has_text="Ada: focus")).to_be_visible()
        expect(injury.locator("caption")).to_contain_text("(−1 to rolls)")  # the log's minus
        expect(bruno_ladders).to_have_attribute("open", "")
        command(gm, "gm", "conceal imp")  # the GM sees at a glance whom the players do not
        expect(gm.page.locator(".person", has_text=XSS)).to_contain_text("hidden from players")
        expect(alice.page.locator(".person", has_text=XSS)).to_have_count(0)
        expect(gm.page.locator(".person .tag.secret")).to_have_count(1)
        # the GM's field for any command suggests an override VERS takes (not a path of
        # another ruleset's), on the first character
        example = gm.page.locator("section.actor[data-actor='gm'] form.command-line input")
        expect(example).to_have_attribute("placeholder",
                                          "override ada.tracks.injury.conditions.wounded …")
        command(gm, "gm", "override ada.tracks.injury.conditions.wounded 2")
        expect(injury.locator("tr", has_text="wounded").locator(".slot.full")).to_have_count(2)
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-MOVE-1")
def test_the_map_and_undo_say_what_they_did(browser: Browser, served: Served,
                                            tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        page = gm.page
        bar = page.get_by_role("button", name="Put the chosen character in The bar")
        bar.click()  # nobody chosen yet: it says so rather than nothing
        expect(page.locator("#error")).to_contain_text("Choose a character to move first")
        page.get_by_label("Character to move").select_option(label="Ada")
        bar.click()
        notice = page.locator("#notice")
        expect(notice).to_contain_text("Done: place ada bar")
        expect(page.locator("#error")).to_be_hidden()
        page.locator(".log-region").get_by_role("button", name="Undo").click()
        expect(notice).to_contain_text("Done: undo")
        page.locator(".log-region").get_by_role("button", name="Redo").click()
        expect(notice).to_contain_text("Done: redo")


@pytest.mark.rule("ES-ACT-2")
def test_the_gm_edits_the_countdown_and_a_zoom_in_sits_inside_its_parent(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "etherscope", tmp_path) as (gm, alice, bob):
        for actor, text in (("gm", "zqdora: done"), ("ada", "ada: done"),
                            ("bruno", "bruno: done"), ("gm", "round")):
            command({"gm": gm, "ada": alice, "bruno": bob}[actor], actor, text)
        declare = control(alice, "ada", "declare")
        declare.get_by_label(re.compile("^scores")).select_option("7,1")  # a split
        declare.get_by_role("button", name="declare").click()
        wait_log(alice, "declare")
        command(bob, "bruno", "bruno: declare 9")
        command(gm, "gm", "imp: declare 6")
        command(gm, "gm", "zqdora: declare 3")
        command(gm, "gm", "countdown")
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        gm.page.get_by_role("button", name="Let Ada act now").click()
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        expect(bob.page).not_to_have_title(re.compile("Your turn"))
        command(alice, "ada", "ada: zoom who=ada,bruno reason='a scuffle in the dark'")
        for p in (gm, alice, bob):
            outer = p.page.locator("section.zoom-level", has_text="A lurker in the vault")
            inner = outer.locator("section.zoom-level.innermost")
            # the parent's round; the zoom, not begun, its limit (never "round 0")
            expect(outer.locator(".zoom-title").first).to_contain_text(re.compile(r"round 1$"))
            expect(inner.locator(".zoom-title")).to_contain_text(
                re.compile(r"zoomed in · \d+ rounds at most$"))
            expect(inner.locator(".panel").first).to_be_visible()
        clean(gm, (alice, bob))


def test_the_gm_adds_a_new_participant_with_the_join_form(browser: Browser, served: Served,
                                                          tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, FABULA, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    form = control(gm, "gm", "join")
    new_id = form.get_by_label("id", exact=True)
    assert new_id.evaluate("el => el.tagName") == "INPUT"  # a new id: typed, not picked
    new_id.fill("Zqrogue")  # a capital is lowered by the engine, as in the text notation
    form.get_by_label("name (optional)").fill("The rogue")  # in view, beside the id
    side = form.get_by_label("side (optional)")  # the two sides, not a box to type in
    assert side.evaluate("el => [...el.options].map(o => o.text)") == [
        "—", "heroes", "bandits"]
    side.select_option("bandits")
    form.get_by_label("stats (optional)").fill(
        '{"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 3917, "mp": 10}')
    gm_only = form.get_by_label("gm only (optional)")
    assert gm_only.evaluate("el => el.tagName") == "INPUT"  # stat names, not characters
    gm_only.fill("hp, mp")
    form.get_by_role("button", name="join").click()
    expect(gm.page.locator(".member", has_text="The rogue")).to_contain_text("HP 3917/3917")
    expect(alice.page.locator(".member", has_text="The rogue")).to_have_count(1)
    expect(alice.page.locator(".member", has_text="The rogue")).not_to_contain_text("HP")
    assert leaks(alice, ("3917",)) == []
    clean(gm, (alice,))
    alice.context.close()
    gm.context.close()


def test_a_players_name_typed_with_a_capital_is_invited_in_lower_case(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, FABULA, tmp_path)
    page = gm.page
    name = page.get_by_label("Player's name (as in the scenario)")
    expect(page.locator("#invite-hint")).to_contain_text("lower-case letters")
    boxes = [page.get_by_role("button", name=n).bounding_box()
             for n in ("Invite the player", "Public link")]
    assert boxes[0] and boxes[1]  # side by side with a gap, never touching
    assert boxes[1]["x"] - (boxes[0]["x"] + boxes[0]["width"]) >= 4 or \
        boxes[1]["y"] >= boxes[0]["y"] + boxes[0]["height"] + 4, boxes
    name.fill("Alicia")
    expect(name).to_have_value("alicia")
    page.get_by_role("button", name="Invite the player").click()
    expect(page.get_by_alt_text("QR code of the link for alicia")).to_be_visible()
    warning = page.locator(".issued .warning")  # a warning, not a refusal: the link is made
    expect(warning).to_contain_text("No character in this conflict is played by alicia")
    name.fill("Alice")
    page.get_by_role("button", name="Invite the player").click()
    expect(page.get_by_alt_text("QR code of the link for alice")).to_be_visible()
    expect(warning).to_have_count(0)  # Ada's player
    expect(page.locator(".issued")).not_to_contain_text("null")  # nothing in its place
    link = page.get_by_label("Link for alice").input_value()
    create_from_example(gm, "vers-tavern-brawl")  # the panel is drawn anew: the link stays
    expect(page.get_by_alt_text("QR code of the link for alice")).to_be_visible()
    expect(name).to_have_value("alice")  # and so does the name typed
    expect(page.get_by_label("Link for alice")).to_have_value(link)
    alice = join(browser, link)
    expect(alice.page.locator("#who")).to_have_text("Player: alice")
    clean(gm, (alice,))
    alice.context.close()
    gm.context.close()


@pytest.mark.rule("VR-TURN-2")
def test_no_page_asks_the_odds_of_a_moment_gone_by(browser: Browser, served: Served,
                                                  tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        attack = control(alice, "ada", "attack")
        # the odds as she chooses (on Bruno: the imp's close combat is the GM's secret, so the
        # odds of striking it are not hers to read: the GM keeps them)
        attack.get_by_label("target", exact=True).select_option("bruno")
        expect(attack.locator("output")).to_contain_text("Ada → Bruno (sword)")
        attack.get_by_label("target", exact=True).select_option("imp")
        expect(attack.locator("output")).to_have_text(re.compile(r"\(sword\): odds the GM keeps$"))
        attack.get_by_label(re.compile("^dice")).fill("3,3,2")
        attack.get_by_role("button", name="attack").click()  # at once: her odds not yet asked
        handoff = control(alice, "ada", "handoff")
        handoff.get_by_label(re.compile("^to")).select_option(label="Bruno")
        handoff.get_by_role("button", name="handoff").click()
        expect(bob.page).to_have_title(re.compile("^▶ Your turn: Bruno"))
        command(bob, "bruno", "bruno: handoff imp")
        expect(control_summary(gm, "imp", "attack")).to_be_visible()
        gm.page.wait_for_timeout(500)  # the new forms' odds asked
        for p in (gm, alice, bob):  # a refusal of the odds is a red line in the console
            refused = [(r.status, r.request.post_data) for r in p.responses
                       if r.url.endswith("/odds") and r.status >= 400]
            assert refused == [], refused
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-RES-3")
def test_a_spells_form_shows_the_odds_of_its_magic_check(browser: Browser, served: Served,
                                                         tmp_path: Path) -> None:
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        command(alice, "ada", "ada: initiative dice=6,6,6,6")
        spell = control(alice, "ada", "spell")
        spell.get_by_label("name").fill("Fire blast")
        spell.get_by_label("target (optional)").select_option("imp")
        # {INS + WLP} against the imp's Magic Defense (its INS die: 8); before: nothing
        expect(spell.locator("output")).to_have_text(
            re.compile(r"^Ada casts a spell \(\{d8\+d8\}\): hit .+ 67%$"))
        spell.get_by_label("target (optional)").select_option("bruno")  # an ally: no check's
        expect(spell.locator("output")).to_be_empty()
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-CON-3", "FU-CHK-5")
def test_the_initiative_form_shows_the_chance_the_pcs_act_first(browser: Browser,
                                                                 served: Served,
                                                                 tmp_path: Path) -> None:
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        # Ada {d10+d8} led, Bruno {d8+d8} supporting, against the imp's Initiative 8; before:
        # no odds under the initiative at all
        form = control(alice, "ada", "initiative")
        expect(form.locator("output")).to_have_text(re.compile(
            r"^Ada leads the Initiative Group Check \(\{d10\+d8\} vs DL 8; supported by "
            r"Bruno \{d8\+d8\}\): side heroes acts first \d+%$"))
        # and the odds box before the start: each player their own leader's, the GM both
        expect(alice.page.locator(".odds-box")).to_contain_text(
            "Ada leads the Initiative Group Check")
        expect(alice.page.locator(".odds-box")).not_to_contain_text("Bruno leads")
        expect(bob.page.locator(".odds-box")).to_contain_text(
            "Bruno leads the Initiative Group Check")
        expect(gm.page.locator(".odds-box")).to_contain_text(re.compile(
            "Ada leads the Initiative Group Check.*Bruno leads the Initiative Group Check"))
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-CON-3", "FU-CHK-5")
def test_a_forms_odds_follow_the_table_when_its_controls_stay(browser: Browser,
                                                              served: Served,
                                                              tmp_path: Path) -> None:
    """Bruno's armour lowers his support: Ada's open initiative form, whose controls the
    armour does not change, shows the new chance (before: the chance of the moment it was
    drawn, beside the right one in the odds box)."""
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        form = control(alice, "ada", "initiative")
        expect(form.locator("output")).to_contain_text("supported by Bruno {d8+d8})")
        command(bob, "bruno", "bruno: equip armor Plate init=-2")
        expect(alice.page.locator(".odds-box")).to_contain_text("Bruno {d8+d8}-2")
        expect(form.locator("output")).to_contain_text("supported by Bruno {d8+d8}-2)")
        assert form.locator("output").inner_text() in alice.page.locator(
            ".odds-box").inner_text()
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-TURN-2")
def test_the_actions_left_are_counted_in_words(browser: Browser, served: Served,
                                               tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        popcorn = alice.page.locator("section.panel", has_text="Popcorn")
        expect(popcorn).to_contain_text("acting: Ada (2 actions left)")
        expect(alice.page.locator(".round-region")).to_contain_text("2 actions left")
        command(alice, "ada", "ada: attack imp weapon=sword dice=3,3,2")
        expect(popcorn).to_contain_text("acting: Ada (1 action left)")
        expect(gm.page.locator(".round-region")).to_contain_text("1 action left")
        clean(gm, (alice, bob))


def test_a_go_the_gm_ends_the_conflict_in_is_nobodys_turn_any_more(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """The GM ends the brawl while Ada is acting: Alice's page no longer says 'Your turn:
    Ada' (in its banner or its title), nobody is tagged acting, the Popcorn says the conflict
    has ended, and Ada is offered no attack. Before, all of it stayed as if the go went on."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        gm_opens(gm, "Ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        command(gm, "gm", "end 'the watch arrives'")
        popcorn = alice.page.locator("section.panel", has_text="Popcorn")
        for screen in (gm, alice, bob):
            expect(screen.page.locator(".round-region .status")).to_contain_text("ended")
            expect(screen.page.locator("section.panel", has_text="Popcorn")).to_contain_text(
                "the conflict has ended: nobody acts")
            expect(screen.page.locator(".person.acting")).to_have_count(0)
        expect(popcorn).not_to_contain_text("acting: Ada")
        expect(alice.page).not_to_have_title(re.compile("Your turn"))
        expect(alice.page.locator("#turn-banner")).to_be_hidden()
        expect(alice.page.locator("section.actor[data-actor='ada'] form[data-verb=attack]")
               ).to_have_count(0)
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-ATK-1")
def test_dice_typed_for_a_go_are_not_kept_once_it_is_sent(browser: Browser, served: Served,
                                                          tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        gm_opens(gm, "Ada")
        expect(alice.page).to_have_title(re.compile("^▶ Your turn: Ada"))
        attack = control(alice, "ada", "attack")
        attack.get_by_label("target", exact=True).select_option("imp")
        attack.get_by_label(re.compile("^dice")).fill("9,9,9")
        attack.get_by_role("button", name="attack").click()
        expect(alice.page.locator("#error")).to_be_visible()
        expect(attack.get_by_label(re.compile("^dice"))).to_have_value("9,9,9")  # to put right
        attack.get_by_label(re.compile("^dice")).fill("3,3,2")
        attack.get_by_role("button", name="attack").click()
        expect(alice.page.locator(".log .entry").first).to_contain_text("[3, 3, 2]")
        attack = alice.page.locator("section.actor[data-actor='ada'] form[data-verb=attack]")
        expect(attack.get_by_label(re.compile("^dice"))).to_have_value("")  # not rolled again
        expect(attack.get_by_label("target", exact=True)).to_have_value("imp")  # still her foe


def test_what_is_typed_for_a_character_stays_with_its_conflict(browser: Browser, served: Served,
                                                               tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    alice = join(browser, invite(gm, "alice"), timing={"conflictsMs": 500})
    try:
        line = alice.page.locator("section.actor[data-actor='ada'] form.command-line input")
        line.fill("ada: attack imp dice=6,6,6")
        upload_scenario(gm, VERS, tmp_path)  # the next scene: Ada again, with the same id
        alice.page.locator("#notice").get_by_role("button", name="Open it").click()
        expect(alice.page.locator(".conflicts [aria-current=page]")).to_have_count(1)
        expect(alice.page).to_have_url(gm.page.url)
        expect(line).to_have_value("")  # not the words meant for the first scene
        alice.page.locator(".conflicts a:not([aria-current])").click()
        expect(line).to_have_value("ada: attack imp dice=6,6,6")  # back where they were typed
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("ES-START-6")
def test_the_gm_names_a_new_group_and_each_page_shows_the_groups_it_may_see(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "etherscope", tmp_path) as (gm, alice, bob):
        group = control(gm, "gm", "group")
        name = group.get_by_label("name")
        expect(name).to_have_attribute("type", "text")  # a new name, not a character
        name.fill("vaulters")
        group.get_by_label("members").select_option(["imp", "zqdora"])
        group.get_by_role("button", name="group").click()
        expect(gm.page.locator("#notice")).to_contain_text("Done:")
        groups = gm.page.locator(".field-region .groups")
        expect(groups).to_contain_text("vaulters")
        expect(groups).to_contain_text("Zqlurker Dora")
        command(gm, "gm", "group duo ada,bruno")
        expect(groups).to_contain_text("duo (Ada, Bruno)")
        for p in (alice, bob):  # the lurker's group: one member they see, not a group to them
            expect(p.page.locator(".field-region .groups")).to_have_text("Groups: duo (Ada, Bruno)")
        clean(gm, (alice, bob))


@pytest.mark.rule("VR-OBJ-3")
def test_a_broken_object_is_said_broken_once(browser: Browser, served: Served,
                                             tmp_path: Path) -> None:
    smashing = VERS.replace(
        'links = [["bar", "floor"]]',
        'links = [["bar", "floor"]]\n'
        'objects = [{ id = "vase", name = "Vase", material = "glass", zone = "floor" }]',
    ).replace('weapons = { sword = { ev = 5, kind = "close" } }',
              'weapons = { hammer = { ev = 12, kind = "close" } }')
    gm = start_table(browser, served.url)
    upload_scenario(gm, smashing, tmp_path)
    try:
        objects = gm.page.locator("section[aria-labelledby='h-objects'] li")
        expect(objects).to_have_text("Vase · hardness 1 · in Common room")
        gm_opens(gm, "Ada")
        command(gm, "gm", "ada: attack vase weapon=hammer dice=1,1,1")  # net EV 11: broken
        expect(objects).to_have_text("Vase · hardness 1 · in Common room · broken")
    finally:
        gm.context.close()


@pytest.mark.rule("VR-OBJ-2", "VR-OBJ-3")
def test_a_large_objects_conditions_say_how_many_of_its_slots_they_fill(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """The bar counter has two slots a level: a second blow that fills its damaged level
    read "damaged" as the first had, so nobody could tell that the next one upgrades it. Now
    every page says "damaged (2 of 2 slots)"; a one-slot object's conditions read as ever."""
    smashing = VERS.replace(
        'links = [["bar", "floor"]]',
        'links = [["bar", "floor"]]\n'
        'objects = [{ id = "counter", name = "Bar counter", material = "wood", slots = 2, '
        'zone = "floor" }]')
    gm = start_table(browser, served.url)
    upload_scenario(gm, smashing, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    try:
        gm_opens(gm, "Ada")
        command(alice, "ada", "ada: attack counter weapon=sword dice=1,1,1")  # 5 − 2: damaged
        for screen in (gm, alice):
            expect(screen.page.locator("section[aria-labelledby='h-objects'] li")).to_have_text(
                "Bar counter · hardness 2 · in Common room · damaged (1 of 2 slots)")
        command(alice, "ada", "ada: attack counter weapon=sword dice=1,1,1")
        for screen in (gm, alice):
            expect(screen.page.locator("section[aria-labelledby='h-objects'] li")).to_have_text(
                "Bar counter · hardness 2 · in Common room · damaged (2 of 2 slots)")
        clean(gm, (alice,))
    finally:
        for screen in (gm, alice):
            screen.context.close()


def test_a_conflict_ended_says_its_reason_and_outcome(browser: Browser, served: Served,
                                                      tmp_path: Path) -> None:
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, _bob):
        end = control(gm, "gm", "end")
        end.get_by_label("reason").fill("the bandits flee")
        end.get_by_label("outcome (optional)").fill("the ford is open")
        end.get_by_role("button", name="end").click()
        for screen in (gm, alice):
            expect(screen.page.locator(".round-region .status")).to_have_text(
                "Ambush at the ford · ended (the bandits flee — the ford is open)")


def test_the_example_chosen_stays_chosen_while_another_conflict_opens(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    upload_scenario(gm, FABULA, tmp_path)
    try:
        example = gm.page.get_by_label("Bundled example")
        example.select_option("vers-chase")
        gm.page.locator(".conflicts a", has_text="Brawl at the ford inn").click()  # drawn anew
        expect(gm.page.locator(".person", has_text="Bruno")).to_be_visible()
        expect(gm.page.locator(".round-region .status")).to_contain_text("Brawl at the ford inn")
        expect(example).to_have_value("vers-chase")
    finally:
        gm.context.close()


def test_a_half_typed_form_stays_while_the_gm_opens_another_conflict(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """A GM halfway through the form makes a conflict from a file and opens another to look up
    a stat: the form is still open with all they typed, and once it makes a conflict itself it
    starts empty again. Before, the panel drawn anew for the conflict opened closed the form and
    emptied it."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    try:
        page = gm.page
        form, rows = vers_form(gm, "The docks", "crew", [("ada", "Ada", "crew", "dock")], "dock")
        upload_scenario(gm, FABULA, tmp_path)
        expect(page.locator(".round-region .status")).to_contain_text("Ambush at the ford")
        page.locator(".conflicts a", has_text="Brawl at the ford inn").click()  # drawn anew
        expect(page.locator(".round-region .status")).to_contain_text("Brawl at the ford inn")
        expect(form).to_be_visible()
        expect(form.get_by_label("Title")).to_have_value("The docks")
        expect(form.get_by_label("Ruleset")).to_have_value("vers")
        expect(rows.nth(0).get_by_label("Id", exact=True)).to_have_value("ada")
        form.get_by_role("button", name="Create from the form").click()
        expect(page.locator(".round-region .status")).to_contain_text("The docks")
        page.get_by_text("Set up a conflict (form)").click()
        expect(page.locator("#from-form").get_by_label("Title")).to_have_value("")
    finally:
        gm.context.close()


@pytest.mark.rule("VR-OBJ-5")
def test_a_repairs_skill_suggests_the_skills_that_fit_and_says_what_empty_is(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Ada's repair suggests the repair skill and her special one (smithing), never her close
    combat, and its empty field reads 'empty: repair' (before: every skill on her sheet, and
    nothing said of an empty field)."""
    stool = '\nobjects = [{ id = "stool", name = "Stool", material = "wood" }]'
    scenario = VERS.replace("skills = { close_combat = 3 }",
                            "skills = { close_combat = 3, smithing = 1 }").replace(
        'links = [["bar", "floor"]]', 'links = [["bar", "floor"]]' + stool)
    gm = start_table(browser, served.url)
    upload_scenario(gm, scenario, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    try:
        gm_opens(gm, "Ada")
        command(alice, "ada", "ada: attack stool weapon=sword dice=1,1,1")  # damaged
        repair = control(alice, "ada", "repair Stool")
        skill = repair.get_by_label("skill (optional)")
        assert skill.evaluate("el => [...el.list.options].map(o => o.value)") == [
            "repair", "smithing"]
        expect(skill).to_have_attribute("placeholder", "empty: repair")
        expect(repair).to_contain_text("empty: repair; Ada's: smithing")
        clean(gm, (alice,))
    finally:
        for screen in (gm, alice):
            screen.context.close()


@pytest.mark.rule("VR-MOVE-1")
def test_once_ended_the_gm_is_offered_no_control_the_rules_refuse_and_undo_brings_them_back(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """After the end, the GM's screen draws no 'Edit the map', no clickable zone and no 'Act
    for' (the rules refuse their commands once ended); a note still goes through, and an undo
    of the end brings them all back, Bruno still acted for. Before, they stayed, each to be
    refused."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        page = gm.page
        page.get_by_label("Act for").select_option(label="Bruno")
        bruno = page.locator("section.actor[data-actor='bruno']")
        expect(bruno).to_have_count(1)
        command(gm, "gm", "end 'the watch arrives'")
        expect(page.locator(".round-region .status")).to_contain_text("ended")
        for gone in (page.locator(".map-editor"), page.locator("#act-for"), bruno,
                     page.locator("svg.zones .zone-target")):
            expect(gone).to_have_count(0)
        command(gm, "gm", "note 'the inn falls quiet'")  # what still works stays
        wait_log(alice, "the inn falls quiet")
        command(gm, "gm", "undo 2")
        expect(page.locator(".map-editor")).to_have_count(1)
        expect(page.get_by_label("Act for")).to_have_value("bruno")
        expect(bruno).to_have_count(1)
        expect(page.locator("svg.zones .zone-target")).to_have_count(3)
        clean(gm, (alice, bob))


def test_an_etherscope_conflict_without_sides_is_made_from_the_form(browser: Browser,
                                                                    served: Served) -> None:
    """A plot against a crime boss has no sides (like the bundled Novgorod plot): the form
    makes it with the Sides left empty, which says it may be. Before, the browser refused to
    send the form until a side was typed, and a GM had to invent one."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = form_with_rows(gm, "etherscope", "The Novgorod plot", "",
                                [("ivan", "Ivan", ""), ("boss", "Boss", "")])
    expect(form.get_by_label("Sides (comma-separated)")).to_have_accessible_description(
        re.compile("Etherscope and VERS may have none"))
    form.get_by_label("Nature").select_option("social")
    for i in range(2):
        rows.nth(i).get_by_label("society", exact=True).fill("12")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The Novgorod plot")
    assert last_view(gm)["conflict"]["sides"] == []
    clean(gm, ())


@pytest.mark.rule("ES-START-3")
def test_the_forms_starting_range_sets_every_pair_and_the_gm_sets_one_on_the_table(
        browser: Browser, served: Served) -> None:
    """A ballroom where everyone starts Distant (the bundled war of words): the form's
    Starting range sets it, and the countess's Close to the guests is set on the table's Ranges
    before anyone rolls, as its label says. Before, the form had no starting range: every pair
    began Near."""
    gm = start_table(browser, served.url)
    page = gm.page
    page.get_by_text("Set up a conflict (form)").click()
    form = page.locator("#from-form")
    form.get_by_label("Ruleset").select_option("etherscope")
    form.get_by_label("Title").fill("A war of words")
    starting = form.get_by_label(re.compile("^Starting range"))
    expect(starting.locator("option:checked")).to_have_text("— (near)")
    starting.select_option("distant")
    rows = form.locator("fieldset")
    for i, pid in enumerate(("vera", "countess", "guests")):
        if i:
            form.get_by_role("button", name="Add a participant").click()
        rows.nth(i).get_by_label("Id", exact=True).fill(pid)
        rows.nth(i).get_by_label("Name", exact=True).fill(pid.title())
        rows.nth(i).get_by_label("physical", exact=True).fill("8")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("A war of words")
    assert {band for _, _, band in last_view(gm)["conflict"]["ruleset"]["ranges"]} == {
        "distant"}
    page.get_by_label("Range from Countess to Guests").select_option("close")
    expect(page.locator("#notice")).to_contain_text("Done:")
    bands = {frozenset((a, b)): band for a, b, band in last_view(gm)["conflict"]["ruleset"][
        "ranges"]}
    assert bands == {frozenset(("countess", "guests")): "close",
                     frozenset(("vera", "countess")): "distant",
                     frozenset(("vera", "guests")): "distant"}
    clean(gm, ())


@pytest.mark.rule("FU-CON-9")
def test_a_foes_rank_is_chosen_on_the_form(browser: Browser, served: Served) -> None:
    """A bandit captain is an elite, a wyrm a champion replacing three soldiers: each row's
    rank lists the ranks the rules take, empty for a soldier, and the conflict is made with
    them. Before, a rank could only be typed in Other stats, which never said so."""
    gm = start_table(browser, served.url)
    page = gm.page
    people = (("ada", "heroes", ""), ("captain", "foes", "elite"), ("wyrm", "foes", "champion 3"))
    form, rows = form_with_rows(gm, "fabula-ultima", "The lair", "heroes, foes",
                                [(pid, pid.title(), side) for pid, side, _ in people])
    for i, (_, _, rank) in enumerate(people):
        row = rows.nth(i)
        row.get_by_label("hp", exact=True).fill("40")
        for attr in ("dex", "ins", "mig", "wlp"):
            row.get_by_label(attr, exact=True).select_option("8")
        if rank:
            row.get_by_label("rank", exact=True).select_option(rank)
    expect(rows.nth(0).get_by_label("rank", exact=True).locator("option:checked")
           ).to_have_text("— (soldier)")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The lair")
    view = last_view(gm)
    assert [person(view, p)["stats"].get("rank") for p in ("ada", "captain", "wyrm")] == [
        None, "elite", "champion 3"]
    clean(gm, ())


@pytest.mark.rule("FU-CON-1")
def test_an_extra_is_made_from_the_forms_other_stats(browser: Browser, served: Served) -> None:
    """A pack mule that takes no turns is an extra: 'extra=true' in its Other stats makes it one,
    with its HP alone. Before, the form sent the text "true" and the server refused it ('mule:
    extra is true or false, not "true"'), so no extra could be made from the form."""
    gm = start_table(browser, served.url)
    page = gm.page
    people = (("ada", "heroes", "40"), ("cut", "bandits", "20"), ("mule", "bandits", "10"))
    form, rows = form_with_rows(gm, "fabula-ultima", "The old bridge", "heroes, bandits",
                                [(pid, pid.title(), side) for pid, side, _ in people])
    for i, (pid, _, hp) in enumerate(people):
        row = rows.nth(i)
        row.get_by_label("hp", exact=True).fill(hp)
        if pid != "mule":
            for attr in ("dex", "ins", "mig", "wlp"):
                row.get_by_label(attr, exact=True).select_option("8")
    rows.nth(2).get_by_label("Other stats (name=value, comma-separated)").fill("extra=true")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The old bridge")
    assert person(last_view(gm), "mule")["stats"] == {"hp": 10, "extra": True}
    clean(gm, ())


@pytest.mark.rule("ES-ACT-4", "FU-RES-1")
def test_the_forms_other_stats_example_is_each_rulesets_own_and_works_typed_in(
        browser: Browser, served: Served) -> None:
    """An Etherscope row's 'Other stats' shows skill ratings and a pool, a Fabula Ultima
    row's IP, Fabula Points and an affinity; typed in as shown, each makes the character with
    them. Before, both read 'skills.brawl=2, fp=3' (an Etherscope skill beside Fabula Ultima's
    points)."""
    gm = start_table(browser, served.url)
    page = gm.page
    page.get_by_text("Set up a conflict (form)").click()
    form = page.locator("#from-form")
    stats = {"etherscope": {"physical": "10", "ether": "10", "society": "10"},
             "fabula-ultima": {"dex": "8", "ins": "8", "mig": "8", "wlp": "8", "hp": "40"}}
    made = {"etherscope": {"skills": {"drive": 4, "brawl": 3}, "pool": 2},
            "fabula-ultima": {"ip": 6, "fp": 3, "affinities": {"ice": "vulnerable"}}}
    for ruleset, own in stats.items():
        form.get_by_label("Ruleset").select_option(ruleset)
        form.get_by_label("Title").fill(f"The form's {ruleset}")
        form.get_by_label("Sides (comma-separated)").fill("heroes, foes")
        if ruleset == "fabula-ultima":
            form.get_by_label("The player characters' side").select_option("heroes")
            form.get_by_label("The foes' side").select_option("foes")
        row = form.locator("fieldset").nth(0)
        row.get_by_label("Id", exact=True).fill("ada")
        row.get_by_label("Name", exact=True).fill("Ada")
        row.get_by_label("Kind").select_option("pc")
        row.get_by_label("Side", exact=True).select_option("heroes")
        for stat, value in own.items():
            field = row.get_by_label(stat, exact=True)
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        other = row.get_by_label("Other stats (name=value, comma-separated)")
        example = other.get_attribute("placeholder") or ""
        assert "brawl=2" not in example
        other.fill(example)
        form.get_by_role("button", name="Create from the form").click()
        expect(page.locator(".round-region .status")).to_contain_text(f"The form's {ruleset}")
        sheet = person(last_view(gm), "ada")["stats"]
        assert {k: sheet[k] for k in made[ruleset]} == made[ruleset], sheet
        page.get_by_text("Set up a conflict (form)").click()
    clean(gm, ())
    gm.context.close()


@pytest.mark.rule("FU-CHK-4")
def test_a_fabula_point_spent_says_what_it_did(browser: Browser, served: Served,
                                               tmp_path: Path) -> None:
    """The Fabula Point control says what it does without an N the form has no field for
    (before: "Gain (+N) or spend (-N) Fabula Points"), and once sent the foot of the screen
    names it as offered (before: "Done: Ada: fabula")."""
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        command(alice, "ada", "ada: initiative dice=5,5,6,4")
        form = control(alice, "ada", "spend a Fabula Point")
        expect(form.locator(".about")).to_have_text("Gain or spend Fabula Points (FU-CHK-4)")
        form.get_by_label("why (optional)").fill("a sudden parry")
        form.get_by_role("button", name="spend a Fabula Point").click()
        notice = alice.page.locator("#notice")
        expect(notice.locator(".done")).to_have_text(
            re.compile(r"^Done: Ada: spend a Fabula Point"))
        expect(notice.locator(".outcome")).to_have_text(
            "Ada spends 1 Fabula Point for a sudden parry; 2 left")
        clean(gm, (alice, bob))


@pytest.mark.rule("FU-CHK-1")
def test_a_merged_forms_done_says_the_whole_command_as_the_log_does(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """A form merging offers of one verb (a check on the turn, or outside it) has no title of
    its own; once sent, the foot of the screen says the command whole, as the log has it
    (before: "Done: Ada: check", the verb alone)."""
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        command(alice, "ada", "ada: initiative dice=5,5,6,4")
        form = control(alice, "ada", "check")
        form.get_by_label("attributes").fill("dex+ins")
        form.get_by_label("dl").fill("10")
        form.get_by_label("dice (optional)").fill("6,5")
        form.get_by_role("button", name="check").click()
        notice = alice.page.locator("#notice")
        expect(notice.locator(".done")).to_have_text(
            re.compile(r"^Done: Ada: check dex\+ins 10 dice=6,5"))
        expect(notice.locator(".outcome")).to_contain_text("Ada checks {DEX+INS}")
        clean(gm, (alice, bob))


def test_the_sides_tag_one_concealed_as_the_participants_do(browser: Browser, served: Served,
                                                            tmp_path: Path) -> None:
    """The GM's Sides panel tags a character concealed from the players **hidden from
    players**, as the Participants panel does (before: only the latter); a player's has no
    trace of it."""
    with table(browser, served, "fabula-ultima", tmp_path) as (gm, alice, bob):
        command(gm, "gm", "conceal imp")
        sides = gm.page.get_by_role("region", name="Sides")
        expect(sides.locator(".member", has_text=XSS).locator(".tag.secret")).to_have_text(
            "hidden from players")
        expect(sides.locator(".member", has_text="Ada").locator(".tag.secret")).to_have_count(0)
        expect(alice.page.locator(".member", has_text=XSS)).to_have_count(0)
        expect(alice.page.get_by_role("region", name="Sides")).not_to_contain_text("hidden")
        clean(gm, (alice, bob))


def test_behind_the_screen_forgets_why_once_the_roll_is_made(browser: Browser,
                                                              served: Served) -> None:
    """The reason of a secret roll is cleared once it is rolled, so the next roll (in this
    conflict or another) does not give it again (before: it stayed, into the next scene); the
    dice stay to be rolled again."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    try:
        why = gm.page.get_by_label("Why (GM only)")
        gm.page.locator("#secret-roll").fill("2d6")
        why.fill("the ambushers' patience")
        gm.page.get_by_role("button", name="Roll behind the screen").click()
        expect(gm.page.locator(".log .entry").first).to_contain_text("the ambushers' patience")
        expect(why).to_have_value("")
        expect(gm.page.locator("#secret-roll")).to_have_value("2d6")
        gm.page.get_by_role("button", name="Roll behind the screen").click()
        expect(gm.page.locator("#notice")).to_contain_text("Done: roll 2d6 visibility=gm")
    finally:
        gm.context.close()


def test_avrae_rolls_at_the_table_show_their_dropped_dice_struck_and_secret_rolls_stay_secret(
        browser: Browser, served: Served) -> None:
    """What an Avrae user types after ``!r`` rolls as it reads: behind the screen
    ``1d20 + 5 adv [Ada's blade]`` is 2d20kh1+5 (before: the box sent the words unquoted, so
    the apostrophe was refused and ``adv`` went unread), and a player's phone shows a die
    dropped or rerolled away struck through (before: ``[~~1~~, 2, 3, 4]`` as typed marks)."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "fabula-ultima-ambush")
    alice = join(browser, invite(gm, "alice"))
    try:
        gm.page.set_viewport_size({"width": 1366, "height": 768})
        gm.page.locator("#secret-roll").fill("1d20 + 5 adv [Ada's blade]")
        gm.page.get_by_label("Why (GM only)").fill("zqsecret-adv")
        gm.page.get_by_role("button", name="Roll behind the screen").click()
        newest = gm.page.locator(".log .entry").first
        expect(newest).to_contain_text("the GM rolls for zqsecret-adv [gm]: 2d20kh1+5[Ada's blade]")
        expect(newest.locator("s.dropped")).to_have_count(1)  # the lower d20
        command(gm, "gm", "roll 4d6kh3 + 1d20ro1 dice=1,2,3,4,1,15")
        for screen in (gm, alice):
            newest = screen.page.locator(".log .entry").first
            expect(newest).to_contain_text("4d6kh3+1d20ro1 → [1, 2, 3, 4] + [1, 15] = 24")
            expect(newest.locator("s.dropped")).to_have_text(["1", "1"])
            expect(newest).not_to_contain_text("~~")
        assert "zqsecret-adv" not in alice.page.content()
        assert "Ada's blade" not in alice.page.content()
        clean(gm, (alice,))
    finally:
        gm.context.close()
        alice.context.close()


def test_the_vers_gm_conceals_and_reveals_from_the_controls(browser: Browser, served: Served,
                                                            tmp_path: Path) -> None:
    """A VERS GM hides a character from the players and shows it again with **conceal** and
    **reveal** among the GM commands, each listing whom it may name, as in Fabula Ultima
    (before: both had to be typed in **Any command**)."""
    with table(browser, served, "vers", tmp_path) as (gm, alice, bob):
        conceal = control(gm, "gm", "conceal")
        expect(conceal.get_by_label("who").locator("option")).to_have_text(
            ["Ada", "Bruno", XSS])
        expect(control_summary(gm, "gm", "reveal")).to_have_count(0)  # nobody to show
        conceal.get_by_label("who").select_option(label=XSS)
        conceal.get_by_role("button", name="conceal").click()
        expect(gm.page.locator(".person", has_text=XSS)).to_contain_text("hidden from players")
        expect(alice.page.locator(".person", has_text=XSS)).to_have_count(0)
        reveal = control(gm, "gm", "reveal")
        expect(reveal.get_by_label("who").locator("option")).to_have_text([XSS])
        reveal.get_by_role("button", name="reveal").click()
        expect(alice.page.locator(".person", has_text=XSS)).to_have_count(1)
        expect(gm.page.locator(".person", has_text=XSS)).not_to_contain_text(
            "hidden from players")
        clean(gm, (alice, bob))
