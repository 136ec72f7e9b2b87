"""The controls built from legal commands, in the browser: the structured form the engine's
``LegalCommand.to_data()`` gives (sent back in the engine's JSON form) and the text templates
(sent back in the text notation), filled in as a user would."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from tests.server.support import Served
from tests.web.browser import DESK, open_screen

BUILD_JS = """async (legal) => {
  const { normalize, commandForm } = await import("/static/js/legal.js");
  const ctx = { participants: [{ id: "ada", name: "Ada" }, { id: "imp", name: "<b>Imp</b>" }],
                zones: [{ id: "bar", name: "The bar" }, { id: "door", name: "Front door" }],
                name: (id, kind) => (kind === "zone" ? { bar: "The bar", door: "Front door" }
                  : { ada: "Ada", imp: "<b>Imp</b>" })[id] || id,
                skillsOf: (id) => (id === "ada" ? ["brawl", "stealth"] : []) };
  window.sent = [];
  const box = document.createElement("div");
  box.id = "controls";
  for (const command of normalize(legal)) {
    box.append(commandForm(command, ctx, { onSubmit: (c) => window.sent.push(c) }));
  }
  document.body.replaceChildren(box);
  for (const d of document.querySelectorAll("details")) d.open = true;
}"""


@pytest.fixture
def page(browser: Browser, served: Served) -> Page:
    """A page of the server (for its scripts and its policy), emptied."""
    return open_screen(browser, served.url + "/", DESK).page


def build(page: Page, legal: list[Any]) -> None:
    page.evaluate(BUILD_JS, legal)


def test_a_structured_command_is_sent_in_the_json_form(page: Page) -> None:
    build(page, [{"verb": "attack", "actor": "ada", "rule": "VR-ATK-1", "text": "…", "params": [
        {"name": "target", "kind": "id", "allowed": ["imp", "ada"], "required": True,
         "fixed": None},
        {"name": "weapon", "kind": "choice", "allowed": ["sword", "knife"], "required": False,
         "fixed": None},
        {"name": "dice", "kind": "dice", "allowed": None, "required": False, "fixed": None},
        {"name": "mode", "kind": "word", "allowed": None, "required": True, "fixed": "melee"},
    ]}])
    assert page.get_by_label("target").evaluate("el => [...el.options].map(o => o.text)") == [
        "<b>Imp</b>", "Ada"]  # names as text, the allowed values only
    assert page.locator("b").count() == 0
    page.get_by_label("weapon (optional)").select_option("knife")
    page.get_by_label("dice (optional)").fill("5,6,2")
    page.get_by_role("button", name="attack").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "attack", "args": {
        "target": "imp", "weapon": "knife", "dice": [5, 6, 2], "mode": "melee"}}]


def test_text_templates_become_the_same_controls(page: Page) -> None:
    build(page, ["ada: attack TARGET weapon=sword|knife", "ada: awareness",
                 "ada: awareness dice=DICE", "cover WHO 1|3|5 object=OBJECT",
                 "place WHO ZONE", "chase ID hunter=WHO quarry=WHO length=2..6"])
    assert page.locator("details > summary").all_inner_texts() == [
        "Ada: attack", "Ada: awareness", "cover", "place", "chase"]  # one awareness control
    attack = page.locator("form[data-verb=attack]")
    attack.get_by_label("target").select_option("imp")
    attack.get_by_label("weapon (optional)").select_option("knife")
    attack.get_by_role("button", name="attack").click()
    page.locator("form[data-verb=awareness]").get_by_role("button").click()
    cover = page.locator("form[data-verb=cover]")
    cover.get_by_label("choice").select_option("3")
    cover.get_by_label("who").select_option("ada")
    cover.get_by_label("object (optional)").fill("the oak table")
    cover.get_by_role("button").click()
    place = page.locator("form[data-verb=place]")
    assert place.get_by_label("zone").evaluate("el => [...el.options].map(o => o.text)") == [
        "The bar", "Front door"]  # the zones by their names
    chase = page.locator("form[data-verb=chase]")
    assert chase.get_by_label("length (optional)").evaluate(
        "el => [...el.options].map(o => o.value)") == ["", "2", "3", "4", "5", "6"]
    assert page.evaluate("window.sent") == [
        "ada: attack imp weapon=knife", "ada: awareness", "cover ada 3 object='the oak table'"]


def test_an_open_skill_suggests_the_actors_own_skills(page: Page) -> None:
    build(page, [{"verb": "act", "actor": "ada", "rule": "ES-ACT-4", "text": "…", "params": [
        {"name": "name", "kind": "text", "allowed": None, "required": True, "fixed": None},
        {"name": "skill", "kind": "word", "allowed": None, "required": True, "fixed": None},
    ]}])
    skill = page.get_by_label("skill")
    assert skill.evaluate("el => [...el.list.options].map(o => o.value)") == ["brawl", "stealth"]
    page.get_by_label("name").fill("climb the wall")
    skill.fill("athletics")  # any skill may be tried (a default pool without a rating)
    page.get_by_role("button", name="act").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "act", "args": {
        "name": "climb the wall", "skill": "athletics"}}]


@pytest.mark.rule("ES-RNG-4", "ES-ACT-1")
def test_characters_offered_one_at_a_time_are_one_choice_by_name(page: Page) -> None:
    def move(who: str) -> dict[str, Any]:
        return {"verb": "move", "actor": "ada", "rule": "ES-RNG-4", "text": "…", "params": [
            {"name": "targets", "kind": "ids", "allowed": None, "required": True,
             "fixed": [who]},
            {"name": "way", "kind": "choice", "allowed": None, "required": True,
             "fixed": "toward"}]}
    zoom = {"verb": "zoom", "actor": "ada", "rule": "ES-ACT-1", "text": "…", "params": [
        {"name": "who", "kind": "ids", "allowed": None, "required": True, "fixed": ["ada", "imp"]}]}
    build(page, [move("ada"), move("imp"), zoom])
    targets = page.get_by_label("targets")
    assert targets.evaluate("el => [el.multiple, el.required, [...el.options].map(o => o.text)]"
                            ) == [False, True, ["Ada", "<b>Imp</b>"]]
    targets.select_option(label="<b>Imp</b>")
    page.get_by_role("button", name="move").click()
    assert page.get_by_role("button", name="Ada: zoom Ada, <b>Imp</b>").count() == 1
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "move", "args": {
        "targets": ["imp"], "way": "toward"}}]


def test_a_free_list_of_characters_that_is_required_needs_one_chosen(page: Page) -> None:
    build(page, [{"verb": "hide", "actor": "ada", "rule": "ES-RNG-2", "text": "…", "params": [
        {"name": "from", "kind": "ids", "allowed": ["ada", "imp"], "required": True,
         "fixed": None}]}])
    listed = page.get_by_label("from")
    assert listed.evaluate("el => el.multiple")
    page.get_by_role("button", name="hide").click()
    assert page.evaluate("window.sent") == []  # nothing chosen: the browser asks for one
    listed.select_option(["ada", "imp"])
    page.get_by_role("button", name="hide").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "hide", "args": {
        "from": ["ada", "imp"]}}]


def test_a_field_says_what_its_value_is(page: Page) -> None:
    build(page, [{"verb": "attack", "actor": "ada", "rule": "ES-DMG-2", "text": "…",
                  "summary": "[default] attack: 1 damage + 1 per extra success", "params": [
                      {"name": "skill", "kind": "word", "allowed": None, "required": False,
                       "fixed": None, "help": "the skill rolled (its rating sets the pool)"},
                      {"name": "declared", "kind": "ints", "allowed": None, "required": False,
                       "fixed": None, "help": "at most your base initiative in all"}]}])
    form = page.locator("form[data-verb=attack]")
    assert form.locator(".about").inner_text() == (  # the rules file's tag left out
        "Attack: 1 damage + 1 per extra success (ES-DMG-2)")
    assert form.locator(".field small").all_inner_texts() == [
        "the skill rolled (its rating sets the pool); Ada's: brawl, stealth",
        "at most your base initiative in all"]


def test_a_command_says_what_it_does_and_the_rule_it_serves(page: Page) -> None:
    build(page, [
        {"verb": "fabula", "actor": "ada", "rule": "FU-CHK-4", "text": "…",
         "summary": "gain or spend Fabula Points", "params": [
             {"name": "delta", "kind": "int", "allowed": None, "required": True, "fixed": -1},
             {"name": "why", "kind": "text", "allowed": None, "required": False,
              "fixed": None}]},
        {"verb": "round", "actor": None, "rule": "ES-ROUND-1", "text": "round",
         "summary": "start the next round", "params": []},
    ])
    form = page.locator("form[data-verb=fabula]")
    assert form.locator(".about").inner_text() == "Gain or spend Fabula Points (FU-CHK-4)"
    assert page.get_by_role("button", name="round").get_attribute("title") == (
        "Start the next round (ES-ROUND-1)")


FOLDED_JS = """async (legal) => {
  const { normalize, commandForm } = await import("/static/js/legal.js");
  const ctx = { participants: [], zones: [], name: (id) => ({ ada: "Ada" })[id] || id };
  const form = commandForm(normalize(legal)[0], ctx, { onSubmit: () => {} });
  return form.querySelector("details.more").open;
}"""


def test_rarely_needed_values_fold_under_more_options(page: Page) -> None:
    attack = [{"verb": "attack", "actor": "ada", "rule": "VR-ATK-1", "text": "…", "params": [
        {"name": "target", "kind": "word", "allowed": ["imp"], "required": True, "fixed": None},
        {"name": "skill", "kind": "word", "allowed": None, "required": False, "fixed": None},
        {"name": "ev", "kind": "int", "allowed": None, "required": False, "fixed": None},
        {"name": "difficulty", "kind": "int", "allowed": None, "required": False,
         "fixed": None},
        {"name": "dice", "kind": "dice", "allowed": None, "required": False, "fixed": None},
    ]}]
    assert page.evaluate(FOLDED_JS, attack) is False  # a new form shows them folded
    build(page, attack)
    more = page.locator("form[data-verb=attack] details.more")
    expect(more.locator("summary")).to_have_text("more options: ev, difficulty")
    expect(more.locator("label")).to_have_text(["ev (optional)", "difficulty (optional)"])
    more.get_by_label("ev (optional)").fill("7")  # the target, skill and dice stay in sight
    page.get_by_label("skill (optional)").fill("brawl")  # it sets the pool: never folded
    page.get_by_label("dice (optional)").fill("2,2,2")
    page.get_by_role("button", name="attack").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "attack", "args": {
        "target": "imp", "skill": "brawl", "ev": 7, "dice": [2, 2, 2]}}]
    assert page.evaluate(FOLDED_JS, attack) is True  # a redraw keeps a typed value in sight


def _tavern_offer(actor: str) -> list[Any]:
    """What the engine offers ``actor`` in the tavern brawl once Ada's go has opened."""
    scenario = load_scenario("vers-tavern-brawl")
    conflict = play_script(replace(scenario, script=scenario.script[:1]), "controls")
    return [lc.to_data() for lc in conflict.legal(actor)]


@pytest.mark.rule("VR-ATK-3")
def test_a_chosen_target_narrows_the_weapons_to_those_that_can_strike_it(page: Page) -> None:
    offer = _tavern_offer("ada")
    attacks = [{p["name"]: p["fixed"] for p in c["params"]} for c in offer
               if c["verb"] == "attack"]
    can_strike = {a["target"]: sorted(b["weapon"] for b in attacks if b["target"] == a["target"])
                  for a in attacks}
    assert len({tuple(w) for w in can_strike.values()}) > 1  # the weapons differ by target
    build(page, offer)
    form = page.locator("form[data-verb=attack]")
    shown = "el => [...el.options].filter(o => !o.hidden).map(o => o.value).sort()"
    for target, weapons in can_strike.items():
        form.get_by_label("target").select_option(target)
        assert form.get_by_label(re.compile("^weapon")).evaluate(shown) == weapons, target
    form.get_by_label("target").select_option("thug")
    form.get_by_label(re.compile("^weapon")).select_option("sword")
    form.get_by_label("target").select_option("bruno")  # the sword cannot reach him
    form.get_by_role("button", name="attack").click()
    sent = page.evaluate("window.sent")
    assert [(c["args"]["target"], c["args"]["weapon"]) for c in sent] == [("bruno", "knife")]


@pytest.mark.rule("VR-MOVE-2")
def test_a_step_to_the_next_zone_asks_for_no_dice(page: Page) -> None:
    build(page, [
        {"verb": "move", "actor": "ada", "rule": "VR-MOVE-2", "text": "…", "params": [
            {"name": "to", "kind": "zone", "allowed": None, "required": True, "fixed": "bar"}]},
        {"verb": "move", "actor": "ada", "rule": "VR-MOVE-2", "text": "…", "params": [
            {"name": "to", "kind": "zone", "allowed": None, "required": True, "fixed": "door"},
            {"name": "dice", "kind": "dice", "allowed": None, "required": False, "fixed": None},
            {"name": "onfail", "kind": "choice", "allowed": ["short", "both"], "required": False,
             "fixed": None}]},
    ])
    form = page.locator("form[data-verb=move]")
    form.get_by_label("to").select_option("door")  # a dash: it may be rolled
    expect(form.get_by_label("dice (optional)")).to_be_visible()
    form.get_by_label("dice (optional)").fill("6,6,6")
    form.get_by_label("to").select_option("bar")  # a step: nothing to roll
    expect(form.get_by_label("dice (optional)")).to_be_hidden()
    expect(form.get_by_label("onfail (optional)")).to_be_hidden()
    form.get_by_role("button", name="move").click()
    assert page.evaluate("window.sent") == [
        {"actor": "ada", "verb": "move", "args": {"to": "bar"}}]


@pytest.mark.rule("VR-MOVE-5")
def test_an_offer_is_titled_by_its_label_with_the_value_it_names(page: Page) -> None:
    def slip(to: str) -> dict[str, Any]:
        return {"verb": "slip", "actor": "ada", "rule": "VR-MOVE-5", "text": "…",
                "label": "get past the guard into {to}", "params": [
                    {"name": "to", "kind": "zone", "allowed": None, "required": True,
                     "fixed": to},
                    {"name": "dice", "kind": "dice", "allowed": None, "required": False,
                     "fixed": None}]}

    build(page, [slip("bar")])
    assert page.locator("details > summary").all_inner_texts() == [
        "Ada: get past the guard into The bar"]  # the zone by its name
    page.get_by_role("button", name="get past the guard into The bar").click()
    assert page.evaluate("window.sent") == [
        {"actor": "ada", "verb": "slip", "args": {"to": "bar"}}]
    build(page, [slip("bar"), slip("door")])  # two ways past: the zone is still to choose
    assert page.locator("details > summary").all_inner_texts() == [
        "Ada: get past the guard into …"]
    page.get_by_label("to").select_option("door")
    page.get_by_role("button", name="slip").click()
    assert page.evaluate("window.sent") == [
        {"actor": "ada", "verb": "slip", "args": {"to": "door"}}]


@pytest.mark.rule("VR-ATK-3")
def test_a_weapon_not_chosen_is_the_one_the_engine_would_take(page: Page) -> None:
    scenario = load_scenario("vers-tavern-brawl")
    conflict = play_script(replace(scenario, script=scenario.script[:1]), "controls")
    default = conflict.decide(conflict.to_command("ada: attack thug dice=6,6,6"))  # no weapon
    engine = next(e.data["weapon"] for e in default if "weapon" in e.data)
    build(page, _tavern_offer("ada"))
    form = page.locator("form[data-verb=attack]")
    weapon = form.get_by_label(re.compile("^weapon"))
    form.get_by_label("target").select_option("bruno")  # only the knife reaches him
    expect(weapon).to_have_value("knife")
    form.get_by_label("target").select_option("thug")  # in her zone: not the knife
    expect(weapon).to_have_value(engine)
    form.get_by_role("button", name="attack").click()
    weapon.select_option("knife")  # her own choice stays while it can strike
    form.get_by_label("target").select_option("table")
    expect(weapon).to_have_value("knife")
    form.get_by_role("button", name="attack").click()
    sent = page.evaluate("window.sent")
    assert [(c["args"]["target"], c["args"]["weapon"]) for c in sent] == [
        ("thug", engine), ("table", "knife")]


def test_under_the_actors_heading_a_command_goes_by_its_verb(page: Page) -> None:
    long = "Sir Bartholomew Featherstonehaugh of the Seven Hills"
    page.evaluate("""async ([legal, long]) => {
      const { normalize, commandForm } = await import("/static/js/legal.js");
      const ctx = { participants: [], zones: [], name: (id) => ({ ada: long })[id] || id,
                    group: "ada" };
      document.body.replaceChildren(...normalize(legal).map((c) =>
        commandForm(c, ctx, { onSubmit: () => {} })));
    }""", [["ada: attack TARGET", "ada: note TEXT", "bruno: done", "ada: done"], long])
    assert page.locator("details > summary").all_inner_texts() == ["attack", "note"]
    assert page.locator("form > button").all_text_contents() == [
        "attack", "note", "bruno: done", "done"]  # another's keeps its name


@pytest.mark.rule("FU-CON-11")
def test_an_end_offers_the_ways_the_rules_name_and_takes_any_other(page: Page) -> None:
    """The GM's ``end`` has the seed's reasons to pick from, the one that fits filled in (the
    foes all down: theirs), and any other reason typed over it (before: an empty field)."""
    from fracas.engine import Viewer
    from fracas.server.offers import structured
    from fracas.server.projection import Live
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    c = run(make(pc("ada"), npc("orc")), "ada: initiative dice=6,6", "damage orc 99")
    (end,) = [lc for lc in structured(Live(c, Viewer.gm()), None)["gm"] if lc["verb"] == "end"]
    build(page, [end])
    reason = page.get_by_label("reason", exact=True)
    expect(reason).to_have_value("foes unable or unwilling to go on")
    assert reason.evaluate("el => [...el.list.options].map(o => o.value)") == [
        "foes unable or unwilling to go on", "goal achieved",
        "pcs unable or unwilling to go on", "compromise"]
    page.get_by_role("button", name="end").click()
    reason.fill("the bridge collapses")
    page.get_by_role("button", name="end").click()
    assert [s["args"]["reason"] for s in page.evaluate("window.sent")] == [
        "foes unable or unwilling to go on", "the bridge collapses"]


def _fabula_offer(actor: str, *commands: str) -> list[dict[str, Any]]:
    """What the server offers the GM for ``actor`` in a small Fabula Ultima conflict after
    ``commands`` (structured, with each parameter's help and default)."""
    from fracas.engine import Viewer
    from fracas.server.offers import structured
    from fracas.server.projection import Live
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    c = run(make(pc("ada"), npc("orc")), *commands)
    return structured(Live(c, Viewer.gm()), None if actor == "gm" else actor)[actor]


@pytest.mark.rule("FU-CHK-1")
def test_a_value_still_to_type_hides_none_of_the_fields_after_it(page: Page) -> None:
    """A check on the actor's turn (two variants: a turn, or outside the turn) shows its DL
    and dice before its attributes are typed: before, they stayed hidden until a value was
    typed in the field above and the focus left it, so a player who rolled at the table
    looked for the dice field in vain."""
    build(page, [c for c in _fabula_offer("ada", "ada: initiative dice=6,6")
                 if c["verb"] == "check"])
    form = page.locator("form[data-verb=check]")
    expect(form.get_by_label("dl")).to_be_visible()
    expect(form.get_by_label("dice (optional)")).to_be_visible()
    form.get_by_label("attributes").fill("dex+ins")
    form.get_by_label("dl").fill("10")
    form.get_by_label("dice (optional)").fill("5,6")
    form.get_by_role("button", name="check").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "check", "args": {
        "attributes": "dex+ins", "dl": 10, "dice": [5, 6]}}]


@pytest.mark.rule("FU-CON-2")
def test_a_weapon_is_equipped_with_its_own_accuracy_and_damage(page: Page) -> None:
    """The equip control offers every kind of item, and a weapon's damage (before: hidden
    unless its accuracy was typed as the DEX + MIG the offer fixed) with any accuracy."""
    build(page, [c for c in _fabula_offer("ada") if c["verb"] == "equip"])
    form = page.locator("form[data-verb=equip]")
    assert form.get_by_label("kind").evaluate("el => [...el.options].map(o => o.value)") == [
        "weapon", "armor", "shield", "accessory"]
    form.get_by_label("kind").select_option("weapon")
    form.get_by_label("name").fill("Longbow")
    expect(form.get_by_label("accuracy (optional)")).to_have_attribute(
        "placeholder", "empty: dex+mig")
    form.get_by_label("accuracy (optional)").fill("dex+ins")
    form.get_by_label("damage (optional)").fill("8")
    form.get_by_role("button", name="equip").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "equip", "args": {
        "kind": "weapon", "name": "Longbow", "accuracy": "dex+ins", "damage": 8}}]


@pytest.mark.rule("FU-CON-14")
def test_a_newcomers_stats_say_how_they_are_written(page: Page) -> None:
    """The GM's join tells that its stats are a JSON object (before: nothing, and the
    ``dex=10, hp=15`` of the New conflict form's other stats was refused only once sent)."""
    build(page, [c for c in _fabula_offer("gm", "ada: initiative dice=6,6")
                 if c["verb"] == "join"])
    form = page.locator("form[data-verb=join]")
    expect(form.locator("p.field", has=page.get_by_label("stats (optional)"))).to_contain_text(
        'a JSON object, e.g. {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 30, "mp": 20}')


@pytest.mark.rule("FU-CON-14")
def test_a_newcomers_name_and_player_are_in_view(page: Page) -> None:
    """A third PC joining mid-session needs a name and a player: both stand beside the id
    (before: folded under "more options", as rarely needed values are)."""
    build(page, [c for c in _fabula_offer("gm", "ada: initiative dice=6,6")
                 if c["verb"] == "join"])
    form = page.locator("form[data-verb=join]")
    for label in ("name (optional)", "player (optional)", "stats (optional)"):
        expect(form.get_by_label(label)).to_be_visible()
    expect(form.locator("details.more > summary", has_text="name")).to_have_count(0)


def test_a_join_made_hidden_keeps_hidden_chosen_for_the_next(page: Page) -> None:
    """Once a newcomer joins hidden, the GM's next join is still set hidden while its id is
    cleared: a GM bringing in several hidden newcomers never shows one to every player by
    oversight (a leak no undo takes back); one hidden too many is tagged on the GM's screen."""
    build(page, [c for c in _fabula_offer("gm", "ada: initiative dice=6,6")
                 if c["verb"] == "join"])
    form = page.locator("form[data-verb=join]")
    form.get_by_label("id", exact=True).fill("spy")
    form.get_by_label("hidden (optional)").select_option("yes")
    form.get_by_role("button", name="join").click()
    assert page.evaluate("window.sent")[0]["args"]["hidden"] is True
    expect(form.get_by_label("id", exact=True)).to_have_value("")
    expect(form.get_by_label("hidden (optional)")).to_have_value("yes")


@pytest.mark.rule("FU-CHK-1")
def test_a_checks_words_name_its_turn_field_as_the_page_shows_it(page: Page) -> None:
    """A check says what it does and what its **turn** field's "no" means beside that field
    (before: "turn=no for a check outside the turn order", the text notation's words, above
    a form whose field is called turn); outside the turn, with no such field, it says
    nothing of it."""
    build(page, [c for c in _fabula_offer("ada", "ada: initiative dice=6,6")
                 if c["verb"] == "check"])
    form = page.locator("form[data-verb=check]")
    expect(form.locator(".about")).to_have_text(
        "A check of two attributes (dex+ins, or die sizes d8+d10) against a DL (FU-CHK-1)")
    turn = form.locator("p.field", has=page.get_by_label("turn (optional)"))
    expect(turn.locator("small")).to_have_text(
        "no: a check outside the turn order, which takes no turn")
    build(page, [c for c in _fabula_offer("ada", "ada: initiative dice=6,6", "ada: act")
                 if c["verb"] == "check"])  # the orc's turn: only a check outside it
    expect(page.locator("details > summary")).to_have_text(["Ada: check outside the turn"])
    expect(form.locator(".about")).to_have_text(
        "A check of two attributes (dex+ins, or die sizes d8+d10) against a DL (FU-CHK-1)")
    expect(form.get_by_label("turn (optional)")).to_have_count(0)


@pytest.mark.rule("FU-CON-1", "FU-CON-3")
def test_the_extra_and_the_initiative_say_their_fields_words(page: Page) -> None:
    """Before the start, the GM's **extra** and the **initiative** speak of their fields as
    the page shows them (before: "or not: extra ID no" and "dice= supporters' pairs first",
    the text notation's words). The extra makes one an extra and shows no **on** field
    (before: one whose "no" this offer, for those not yet extras, could only refuse)."""
    build(page, [c for c in _fabula_offer("gm") if c["verb"] in ("extra", "initiative")])
    extra = page.locator("form[data-verb=extra]")
    expect(extra.locator(".about")).to_have_text(
        "Mark a character as an extra, who takes no turns (FU-CON-1)")
    expect(page.locator("details > summary", has_text="an extra")).to_have_text(
        "make … an extra")
    expect(extra.locator("p.field > label")).to_have_text(["id"])
    extra.get_by_label("id").select_option(label="Ada")
    extra.get_by_role("button", name="extra").click()
    assert page.evaluate("window.sent") == [
        {"actor": None, "verb": "extra", "args": {"id": "ada", "on": True}}]
    initiative = page.locator("form[data-verb=initiative]")
    expect(initiative.locator(".about")).to_have_text(
        "The leader's {DEX + INS} Initiative Group Check, each supporter's success adding to "
        "it (FU-CON-3)")
    expect(initiative.locator("p.field", has=page.get_by_label("dice (optional)"))
           .locator("small")).to_have_text("the faces rolled at the table: each supporter's "
                                           "two in order, then the leader's two (5,5,6,4)")


@pytest.mark.rule("FU-CON-1")
def test_an_extra_is_offered_to_take_turns_again(page: Page) -> None:
    """Before the start the GM makes an extra take turns again from the controls, as one is
    made an extra (before: ``extra ID no`` had to be typed): the form's **on** follows the
    character chosen, read yes or no (not true or false)."""
    build(page, [c for c in _fabula_offer("gm", "extra orc") if c["verb"] == "extra"])
    extra = page.locator("form[data-verb=extra]")
    extra.get_by_label("id").select_option(label="orc")
    expect(extra.get_by_label("on")).to_have_value("false")
    expect(extra.get_by_label("on").locator("option:checked")).to_have_text("no")
    extra.get_by_role("button", name="extra").click()
    extra.get_by_label("id").select_option(label="Ada")
    expect(extra.get_by_label("on").locator("option:checked")).to_have_text("yes")
    extra.get_by_role("button", name="extra").click()
    assert page.evaluate("window.sent") == [
        {"actor": None, "verb": "extra", "args": {"id": "orc", "on": False}},
        {"actor": None, "verb": "extra", "args": {"id": "ada", "on": True}}]


@pytest.mark.rule("FU-RES-4")
def test_the_gms_status_control_puts_on_what_is_not_held_and_takes_off_what_is(
        page: Page) -> None:
    """The GM's **status**: for the Weak orc, Weak is taken off (its **on** follows the
    effect chosen: no, alone offered) and Dazed put on (no **no** offered); before, the form
    sent ``status orc weak`` (on: yes) as readily, which the rules refuse."""
    build(page, [c for c in _fabula_offer("gm", "ada: initiative dice=6,6", "status orc weak")
                 if c["verb"] == "status"])
    form = page.locator("form[data-verb=status]")
    on = form.get_by_label("on", exact=False)
    offered = "el => [...el.options].filter(o => !o.disabled).map(o => o.text)"
    form.get_by_label("target").select_option(label="orc")
    form.get_by_label("effect").select_option("weak")
    expect(on.locator("option:checked")).to_have_text("no")
    assert on.evaluate(offered) == ["no"]
    form.get_by_role("button", name="status").click()
    form.get_by_label("effect").select_option("dazed")
    assert "no" not in on.evaluate(offered)
    form.get_by_role("button", name="status").click()
    sent = page.evaluate("window.sent")
    assert sent[0] == {"actor": None, "verb": "status",
                       "args": {"target": "orc", "effect": "weak", "on": False}}
    assert sent[1]["args"]["effect"] == "dazed" and sent[1]["args"].get("on", True) is True


@pytest.mark.rule("FU-CON-2")
def test_each_kind_of_item_shows_the_values_it_uses(page: Page) -> None:
    """A weapon is equipped with its accuracy, bonus, damage and type, an armour with its
    initiative modifier, Defense and Magic Defense, and the fold of rarer values names only
    those (before: every field for every kind, damage on an armour, Defense on a weapon); what
    an item is for stays in view — a weapon's damage, an armour's initiative and Defense, so
    no armour is declared with its name alone by oversight (before: all three were folded)."""
    build(page, [c for c in _fabula_offer("ada") if c["verb"] == "equip"])
    form = page.locator("form[data-verb=equip]")
    shown = form.locator("p.field:visible > label")
    more = form.locator("details.more > summary")
    form.get_by_label("kind").select_option("weapon")
    expect(shown).to_have_text(["kind", "name", "damage (optional)", "type (optional)",
                                "accuracy (optional)", "bonus (optional)"])
    expect(more).to_have_text("more options: accuracy, bonus")
    expect(form.get_by_label("damage (optional)")).to_be_visible()
    for kind in ("armor", "shield", "accessory"):
        form.get_by_label("kind").select_option(kind)
        expect(shown).to_have_text(["kind", "name", "init (optional)", "defense (optional)",
                                    "mdef (optional)"])
        expect(more).to_have_text("more options: mdef")
        for name in ("init (optional)", "defense (optional)"):
            expect(form.get_by_label(name)).to_be_visible()
    form.get_by_label("kind").select_option("armor")
    form.get_by_label("name").fill("Bronze plate")
    form.get_by_label("init (optional)").fill("-2")
    form.get_by_label("defense (optional)").fill("1")
    form.get_by_role("button", name="equip").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "equip", "args": {
        "kind": "armor", "name": "Bronze plate", "init": -2, "defense": 1}}]


def test_a_newcomers_side_suggests_the_conflicts_and_takes_a_new_one(page: Page) -> None:
    """VERS's join (Etherscope's alike) suggests the conflict's sides and takes a new one
    typed in (Fabula Ultima's offers its two sides alone: tests/web/test_gm_tools.py)."""
    from fracas.engine import Viewer
    from fracas.server.offers import structured
    from fracas.server.projection import Live

    scenario = load_scenario("vers-tavern-brawl")
    c = play_script(replace(scenario, script=()), "controls")
    build(page, [lc for lc in structured(Live(c, Viewer.gm()), None)["gm"]
                 if lc["verb"] == "join"])
    side = page.get_by_label("side (optional)")
    assert side.evaluate("el => [...el.list.options].map(o => o.value)") == [
        "heroes", "toughs"]
    expect(page.locator("p.field", has=side).locator("small")).to_have_text(
        "the side the newcomer takes part on: heroes; toughs (or any other)")
    page.get_by_label("id", exact=True).fill("watchman")
    side.fill("watch")
    page.get_by_label("stats (optional)").fill('{"zone": "street"}')
    page.get_by_role("button", name="join").click()
    assert page.evaluate("window.sent") == [{"actor": None, "verb": "join", "args": {
        "id": "watchman", "side": "watch", "stats": {"zone": "street"}}}]


@pytest.mark.rule("FU-RES-3")
def test_each_spell_on_the_sheet_is_a_control_of_its_own_ready_to_cast(page: Page) -> None:
    """Ada's Fire blast and Heal are a form each, titled with the spell and its MP, whose
    only choice is the target (the spell typed in keeps its own form); before, every spell
    offer merged into the one form where name, MP and damage were typed every time."""
    from fracas.engine import Viewer
    from fracas.server.offers import structured
    from fracas.server.projection import Live
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    fire = {"name": "Fire blast", "mp": 10, "damage": 15, "type": "fire"}
    heal = {"name": "Heal", "mp": 10, "target": "ally"}
    c = run(make(pc("ada", spells=[fire, heal]), pc("bea"), npc("orc"), npc("gob")),
            "ada: initiative dice=6,6,6,6")
    build(page, [o for o in structured(Live(c, Viewer.of_player("ada")), "ada")["ada"]
                 if o["verb"] == "spell"])
    titles = page.locator("details:not(.more) > summary").all_inner_texts()
    assert titles == ["Ada: spell", "Ada: cast Fire blast (10 MP) on …",
                      "Ada: cast Heal (10 MP) on …"]
    # each button casts (before: it read "spell", the command's verb)
    assert page.locator("form[data-verb=spell] > button").all_inner_texts() == ["cast"] * 3
    blast = page.locator("form[data-verb=spell]").nth(1)
    assert blast.get_by_label("target").evaluate(
        "el => [...el.options].map(o => o.value)") == ["orc", "gob"]  # the foes alone
    expect(blast.get_by_label("name")).to_have_count(0)  # the sheet gives it
    blast.get_by_label("target").select_option("gob")
    blast.get_by_role("button", name="cast", exact=True).click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "spell", "args": {
        "name": "Fire blast", "mp": 10, "damage": 15, "type": "fire", "target": "gob"}}]


@pytest.mark.rule("FU-RES-3")
def test_a_spell_that_rolls_nothing_asks_for_nothing_but_its_target(page: Page) -> None:
    """Ada's Heal is a list of her side and its button; her Ward (on herself) and Call the
    storm (on nobody) are buttons alone; her Frost lance asks for the target and the dice
    rolled at the table, its check's attributes being the sheet's. Before, each asked for a
    damage, a damage type, the dice of a check and (folded) an accuracy and a bonus, as a
    spell typed in does, and Call the storm for a target among everyone, the fallen too."""
    from fracas.engine import Viewer
    from fracas.server.offers import structured
    from fracas.server.projection import Live
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    spells = [{"name": "Heal", "mp": 10, "target": "ally"},
              {"name": "Ward", "mp": 5, "target": "self"},
              {"name": "Call the storm", "mp": 0, "target": "none"},
              {"name": "Frost lance", "mp": 15, "damage": 20, "type": "ice",
               "accuracy": "ins+dex"}]
    c = run(make(pc("ada", spells=spells, mp=50), pc("bea"), npc("imp"), npc("orc")),
            "ada: initiative dice=6,6,6,6")
    build(page, [o for o in structured(Live(c, Viewer.of_player("ada")), "ada")["ada"]
                 if o["verb"] == "spell" and o["label"]])
    heal, ward, storm, frost = page.locator("form[data-verb=spell]").all()
    fields = "f => [...f.querySelectorAll('label')].map(l => l.textContent)"
    assert heal.evaluate(fields) == ["target"]
    assert ward.evaluate(fields) == storm.evaluate(fields) == []
    expect(ward.get_by_role("button")).to_have_text("Ada: cast Ward (5 MP) on Ada")
    assert frost.evaluate(fields) == ["target", "bonus (optional)", "dice (optional)"]
    storm.get_by_role("button").click()
    assert page.evaluate("window.sent") == [{"actor": "ada", "verb": "spell", "args": {
        "name": "Call the storm", "mp": 0}}]
