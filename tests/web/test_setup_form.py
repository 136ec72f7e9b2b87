"""The New conflict form gives every set-up a scenario file can, in a real browser: a VERS
battlefield's objects, cover and guards, an Etherscope pair's own starting range, groups and a
character lurking unseen by some characters only, and a Fabula Ultima character's equipment and
spells; a refusal names the field it is about and keeps what was typed; the form stays compact on a
tablet. (Its first tests are in test_gm_tools.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import command, invite, join, leaks, start_table, upload_scenario, wait_log
from tests.web.test_gm_tools import clean, form_with_rows, last_view, vers_form

pytestmark = pytest.mark.timeout(150)
#: A tablet held upright.
TABLET = {"width": 820, "height": 1180}


@pytest.mark.rule("VR-OBJ-1", "VR-ATK-5", "VR-MOVE-5")
def test_the_form_sets_a_vers_battlefields_objects_cover_and_guards(
        browser: Browser, served: Served) -> None:
    """The bundled brawl's tavern rebuilt from the form: its counter and table, Mira in cover
    behind the counter and the bouncer on the way out. Cover behind an object in another zone
    is refused naming the Cover field, which keeps what was typed, and nothing is made. Before,
    the form had no field for any of them: the GM made each with a command after."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, _ = vers_form(gm, "The Drowned Rat", "heroes, toughs",
                           [("ada", "Ada", "heroes", "floor"), ("mira", "Mira", "toughs", "bar"),
                            ("bouncer", "Bouncer", "toughs", "door")],
                           "bar=The bar, floor=Common room, door=Front door, street")
    form.get_by_label(re.compile("^Links")).fill("bar-floor, floor-door, door-street")
    objects = form.get_by_label(re.compile("^Objects"))
    expect(objects).to_have_accessible_description(re.compile("material: .*wood.*iron"))
    objects.fill("counter=Bar counter material=wood zone=bar slots=2, "
                 "table=Oak table material=wod zone=floor")
    cover = form.get_by_label(re.compile("^Cover"))
    cover.fill("mira=3 object=table")
    form.get_by_label(re.compile("^Guards")).fill("bouncer=door-street")
    form.get_by_role("button", name="Create from the form").click()
    error = page.locator("#error")
    expect(error).to_contain_text("Objects: object table: unknown material 'wod'; known: ")
    expect(objects).to_have_attribute("aria-invalid", "true")
    objects.fill(objects.input_value().replace("wod", "wood"))
    form.get_by_role("button", name="Create from the form").click()
    expect(error).to_contain_text("Cover: Mira is in bar and Oak table in floor: a character takes "
                                  "cover behind an object in its own zone (VR-ATK-5)")
    expect(cover).to_have_attribute("aria-invalid", "true")
    expect(cover).to_be_focused()
    expect(cover).to_have_value("mira=3 object=table")
    expect(page.locator(".conflicts li")).to_have_text(["None yet: make one under New conflict."])
    cover.fill("mira=3 object=counter")
    expect(error).to_be_hidden()
    expect(cover).not_to_have_attribute("aria-invalid", "true")
    expect(cover).to_have_accessible_description(re.compile("1: ⅓, 3: ⅔, 5: complete"))
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The Drowned Rat")
    facts = page.locator(".facts")
    # the map in words says what she hides behind, as the GM's lines do (VR-ATK-5)
    expect(facts).to_contain_text("Mira has ⅔ cover (−3 to attacks on them) behind Bar counter")
    expect(facts).to_contain_text("Bouncer guards Front door – street")
    objects_panel = page.locator("section", has=page.get_by_role("heading", name="Objects"))
    expect(objects_panel).to_contain_text("Bar counter · hardness 2 · in The bar")
    expect(objects_panel).to_contain_text("Oak table · hardness 2 · in Common room")
    lines = last_view(gm)["conflict"]["ruleset"]["lines"]
    assert "Cover: Mira has ⅔ cover (−3 to attacks on them) behind Bar counter" in lines
    assert last_view(gm)["conflict"]["ruleset"]["objects"]["counter"]["slots"]["worn"] == 2
    # the map's Set cover hides Ada behind the table, where a miss will strike it
    page.get_by_label("Cover for").select_option(label="Ada")
    page.get_by_label("Cover", exact=True).select_option("1")
    page.get_by_label("behind", exact=True).select_option(label="Oak table (in Common room)")
    page.get_by_role("button", name="Set cover").click()
    expect(page.locator("#notice")).to_contain_text("Done: cover ada 1 object=table")
    expect(facts).to_contain_text("Ada has ⅓ cover")
    assert "Cover: Ada has ⅓ cover (−1 to attacks on them) behind Oak table" in (
        last_view(gm)["conflict"]["ruleset"]["lines"])
    clean(gm, ())


@pytest.mark.rule("ES-START-3", "ES-START-6", "ES-RNG-1")
def test_the_form_sets_pairs_ranges_groups_and_a_lurker_hidden_from_some_only(
        browser: Browser, served: Served) -> None:
    """The bundled agents' domain rebuilt from the form: Kim starts Distant from the agents,
    who stand together as a group, and Agent Black lurks unseen by Kim alone. Kate (Kim's
    player) finds no trace of him, nor of the group or the ranges the GM set; Igor, whose Ivan
    he does not hide from, sees him. A lurker naming no participant is refused naming its row's
    field, and nothing is made. Before, the form had none of these: its only hiding hid a
    character from every player, its allies' too."""
    gm = start_table(browser, served.url)
    page = gm.page
    people = (("kim", "Kim", "hackers", "kate"), ("ivan", "Ivan", "hackers", "igor"),
              ("agent1", "Agent Grey", "agents", ""), ("agent2", "Zqagent Black", "agents", ""))
    form, rows = form_with_rows(gm, "etherscope", "A secret domain", "hackers, agents",
                                people)
    for i, (*_, player) in enumerate(people):
        row = rows.nth(i)
        row.get_by_label(re.compile("^Player")).fill(player)
        row.get_by_label("physical", exact=True).fill("10")
    form.get_by_label(re.compile("^Ranges of pairs")).fill("kim-agent1=distant, kim-agent2=distant")
    form.get_by_label(re.compile("^Groups")).fill("agents=agent1 agent2")
    lurk = rows.nth(3).get_by_label(re.compile("^Hidden at the start from"))
    lurk.fill("kym")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator("#error")).to_contain_text(
        "Participant 4: Hidden at the start from: settings.lurking.agent2 names 'kym', who is "
        "not a participant")
    expect(lurk).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".conflicts li")).to_have_text(["None yet: make one under New conflict."])
    lurk.fill("kim")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("A secret domain")
    expect(page.locator(".field-region .groups")).to_contain_text(
        "agents (Agent Grey, Zqagent Black)")
    bands = {frozenset((a, b)): band for a, b, band in last_view(gm)["conflict"]["ruleset"][
        "ranges"]}
    assert bands[frozenset(("kim", "agent1"))] == "distant"
    assert bands[frozenset(("ivan", "agent1"))] == "near"
    kate = join(browser, invite(gm, "kate"))
    igor = join(browser, invite(gm, "igor"))
    wait_log(kate, "conflict set up: A secret domain")
    expect(igor.page.locator(".person", has_text="Zqagent Black")).to_be_visible()
    expect(kate.page.locator(".person")).to_have_count(3)
    assert leaks(kate, ("zqagent", "agent2")) == []
    expect(kate.page.locator(".field-region .groups")).to_have_count(0)
    clean(gm, (kate, igor))


@pytest.mark.rule("FU-CON-2")
def test_the_form_gives_a_fabula_ultima_character_equipment(browser: Browser,
                                                           served: Served) -> None:
    """The bundled ambush's Ada with her twin daggers and armour, and a bandit whose saber
    the GM keeps from the players, from the form's Equipment, written as the equip command
    takes it. An item's mistyped value is refused naming the row's Equipment, which keeps what
    was typed. Before, a character's equipment could not be given on the form (Other stats
    takes no list): each item was declared with a command after."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = form_with_rows(gm, "fabula-ultima", "The Old Bridge", "heroes, bandits", [
        ("ada", "Ada", "heroes"), ("captain", "Bandit Captain", "bandits")])
    form.get_by_label("The player characters' side").select_option("heroes")
    form.get_by_label("The foes' side").select_option("bandits")
    for row in (rows.nth(0), rows.nth(1)):
        row.get_by_label("hp", exact=True).fill("40")
        for stat in ("dex", "ins", "mig", "wlp"):
            row.get_by_label(stat, exact=True).select_option("8")
    rows.nth(0).get_by_label(re.compile("^Player")).fill("alice")
    gear = rows.nth(0).get_by_label(re.compile("^Equipment"))
    expect(gear).to_have_accessible_description(re.compile("armor, shield, weapon or accessory"))
    gear.fill("weapon=Twin daggers accuracy=dex+ins bonus=1 damage=4, "
              "armor=Bronze plate init=-2 defense=1")
    saber = rows.nth(1).get_by_label(re.compile("^Equipment"))
    saber.fill("weapon=Zqsaber accuracy=dex+mig dammage=6")
    rows.nth(1).get_by_label("equipment GM only").check()
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator("#error")).to_contain_text(
        "Participant 2: Equipment: captain: Zqsaber: an item has no 'dammage'")
    expect(saber).to_have_attribute("aria-invalid", "true")
    expect(saber).to_have_value("weapon=Zqsaber accuracy=dex+mig dammage=6")
    saber.fill("weapon=Zqsaber accuracy=dex+mig damage=6")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The Old Bridge")
    ada = page.locator(".person", has_text="Ada")
    ada.get_by_text("sheet").click()
    expect(ada.locator(".sheet")).to_contain_text("Twin daggers")
    expect(ada.locator(".sheet")).to_contain_text("Bronze plate")
    alice = join(browser, invite(gm, "alice"))
    wait_log(alice, "conflict set up: The Old Bridge")
    assert leaks(alice, ("zqsaber",)) == []
    clean(gm, (alice,))


@pytest.mark.rule("FU-RES-3")
def test_the_form_gives_a_fabula_ultima_character_spells(browser: Browser,
                                                        served: Served) -> None:
    """A mage with her Fire blast and Heal, and a witch whose hex the GM keeps from the
    players, from the form's Spells, written as the spell command takes them (her Heal
    restores 40 HP: before, ``recover`` was refused as no key of a spell). A spell's
    mistyped value is refused naming the row's Spells, which keeps what was typed. The mage's
    sheet lists her spells and her player's phone casts them in one control each. Before, the
    form gave equipment but no spells: a caster made on it had none on her sheet."""
    gm = start_table(browser, served.url)
    page = gm.page
    form, rows = form_with_rows(gm, "fabula-ultima", "The Coven", "heroes, coven", [
        ("iris", "Iris", "heroes"), ("witch", "Witch", "coven")])
    form.get_by_label("The player characters' side").select_option("heroes")
    form.get_by_label("The foes' side").select_option("coven")
    for row in (rows.nth(0), rows.nth(1)):
        row.get_by_label("hp", exact=True).fill("40")
        row.get_by_label("mp", exact=True).fill("30")
        for stat in ("dex", "ins", "mig", "wlp"):
            row.get_by_label(stat, exact=True).select_option("8")
    rows.nth(0).get_by_label(re.compile("^Player")).fill("alice")
    mage = rows.nth(0).get_by_label(re.compile("^Spells"))
    expect(mage).to_have_accessible_description(re.compile(
        "target=foe, ally, self or none.*recover= and recover_mp= the HP and MP a heal restores"))
    mage.fill("Fire blast mp=10 damage=15 type=fire, Heal mp=10 target=ally recover=40")
    hex_ = rows.nth(1).get_by_label(re.compile("^Spells"))
    hex_.fill("Zqhex bolt mp=10 dammage=15 type=dark")
    rows.nth(1).get_by_label("spells GM only").check()
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator("#error")).to_contain_text(
        "Participant 2: Spells: witch: Zqhex bolt: a spell has no 'dammage'; did you mean "
        "'damage'?")
    expect(hex_).to_have_attribute("aria-invalid", "true")
    expect(hex_).to_have_value("Zqhex bolt mp=10 dammage=15 type=dark")
    hex_.fill("Zqhex bolt mp=10 damage=15 type=dark")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.locator(".round-region .status")).to_contain_text("The Coven")
    iris = page.locator(".person", has_text="Iris")
    iris.get_by_text("sheet").click()
    expect(iris.locator(".sheet")).to_contain_text(
        "Fire blast (10 MP, a foe, {INS+WLP}, HR+15 fire); Heal (10 MP, an ally, recovers 40 "
        "HP)")
    alice = join(browser, invite(gm, "alice"))
    wait_log(alice, "conflict set up: The Coven")
    command(alice, "iris", "iris: initiative dice=6,6")
    controls = alice.page.locator("section.actor[data-actor='iris']")
    expect(controls.get_by_role("button", name="cast Heal (10 MP) on Iris")).to_be_visible()
    expect(controls.locator("summary", has_text="cast Fire blast (10 MP) on Witch")).to_be_visible()
    assert leaks(alice, ("zqhex",)) == []
    clean(gm, (alice,))


def test_the_form_keeps_a_participant_compact_on_a_tablet(browser: Browser,
                                                         served: Served) -> None:
    """On a tablet held upright a VERS participant's row takes at most 440 px (its id, name,
    kind, side and player on one line; each stat's GM-only box beside it), and the hint of what
    Kind follows is said once, above the rows, not under every row. Before, a row ran ~620 px
    and a GM with six characters scrolled through four screens of form."""
    gm = start_table(browser, served.url)
    gm.page.set_viewport_size(TABLET)
    gm.page.get_by_text("Set up a conflict (form)").click()
    form = gm.page.locator("#from-form")
    form.get_by_label("Ruleset").select_option("vers")
    form.get_by_role("button", name="Add a participant").click()
    rows = form.locator("fieldset")
    for i in range(2):
        box = rows.nth(i).bounding_box()
        assert box is not None and box["height"] <= 440, box
        first = [rows.nth(i).get_by_label(label, exact=True).bounding_box()
                 for label in ("Id", "Name", "Kind", "Side")]
        player = rows.nth(i).get_by_label(re.compile("^Player")).bounding_box()
        assert len({round(b["y"]) for b in (*first, player) if b}) == 1  # one line
    expect(form.get_by_text("pc once a player is named")).to_have_count(1)
    expect(rows.nth(1).get_by_label("Kind", exact=True)).to_have_accessible_description(
        re.compile("pc once a player is named"))
    clean(gm, ())


@pytest.mark.rule("VR-MOVE-1")
def test_a_long_zone_name_stays_whole_on_a_phones_map(browser: Browser, served: Served,
                                                     tmp_path: Path) -> None:
    """A watch tower drawn at the right of a phone's map, and a keep's great hall, keep their
    whole names, in lines of their words inside the map. Before, a name was one line centred on
    its zone, cut at the map's edge: "Watch towe"."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, TOWER, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    svg = alice.page.locator("svg.zones")
    names = svg.locator("text.zone-name")
    expect(names).to_have_text(["Courtyard", "Gate", "Watch tower",
                                "The great hall of the old keep"])
    edge = svg.bounding_box()
    assert edge is not None
    for line in names.all():
        box = line.bounding_box()
        assert box is not None
        assert edge["x"] <= box["x"] and box["x"] + box["width"] <= edge["x"] + edge["width"], (
            line.text_content(), box, edge)
    clean(gm, (alice,))


TOWER = """
ruleset = "vers"
title = "The keep"
[settings]
zones = [{ id = "yard", name = "Courtyard" }, { id = "gate", name = "Gate" },
         { id = "tower", name = "Watch tower" },
         { id = "keep", name = "The great hall of the old keep" }]
links = [["yard", "tower"], ["yard", "gate"], ["tower", "keep"]]
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { zone = "tower" }
"""
