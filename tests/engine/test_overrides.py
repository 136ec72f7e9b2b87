"""GM overrides: any value can be corrected, undo takes a correction back, and no correction
can leave the conflict in a state that breaks later commands or views."""

from __future__ import annotations

import json

import pytest

from fracas.engine import Conflict, Viewer
from fracas.engine.views import log_view, view
from fracas.errors import InvalidInput
from tests.rulesets.test_fuzz_commands import played
from tests.support.helpers import TOY, snapshot, toy_conflict, toy_setup


def test_undo_takes_back_an_override_of_one_item_of_a_list_stat() -> None:
    setup = toy_setup(settings={"weather": {"wind": [1, 2]}})
    setup.participants[0].stats["tags"] = ["brave", "quick"]
    c = Conflict.create(TOY, setup, "seed", time="")
    created = json.dumps(c.records[0].to_data())
    c.execute("override ada.stats.tags.0 tired")
    c.execute("override settings.weather.wind.1 5")
    assert c.state.participants["ada"].stats["tags"] == ["tired", "quick"]
    assert json.dumps(c.records[0].to_data()) == created, "the set-up record was rewritten"
    c.execute("undo 2")
    assert c.state.participants["ada"].stats["tags"] == ["brave", "quick"]
    assert c.state.settings["weather"]["wind"] == [1, 2]


def test_undo_takes_back_an_override_inside_a_list_an_earlier_override_set() -> None:
    c = toy_conflict()
    c.execute("override sides '[\"heroes\", \"foes\", \"bystanders\"]'")
    c.execute("override sides.2 crowd")
    assert c.state.sides == ["heroes", "foes", "crowd"]
    c.execute("undo")
    assert c.state.sides == ["heroes", "foes", "bystanders"]
    assert c.replay() == c.state


def test_undo_takes_back_an_override_of_a_stat_of_someone_who_joined() -> None:
    c = toy_conflict()
    c.execute("join dora 'stats={\"gear\": [\"rope\"]}'")
    c.execute("override dora.stats.gear.0 lamp")
    c.execute("undo")
    assert c.state.participants["dora"].stats["gear"] == ["rope"]


@pytest.mark.parametrize("line", [
    "override round_limit '\"three\"'",  # was None: any value went in, every round end broke
    "override ada.out '[1]'",
    "override gob.owner '{\"a\": 1}'",
    "override effects '[1]'",  # a list of effects replaced by numbers
    "override sides '[[1]]'",  # a list of names replaced by lists
    "override participants.ada.gm_only '[5]'",
    "override status bogus",  # a status no rule knows
    "override outcome '[1]'",
    "override concealed '[\"zzz\"]'",  # only conceal and reveal keep who is hidden
])
def test_an_override_of_the_wrong_kind_of_value_is_refused(line: str) -> None:
    c = toy_conflict()
    c.execute("effect 'smoke'")
    before = snapshot(c)
    with pytest.raises(InvalidInput, match="override"):
        c.execute(line)
    assert snapshot(c) == before
    # nothing is left that later commands or views trip over
    for cmd in ("start ada", "ada: done bruno", "bruno: done gob", "gob: done"):
        c.execute(cmd)
    view(c, Viewer.of_player("alice"))
    log_view(c, Viewer.of_player("alice"))


def test_an_override_of_an_empty_value_with_the_right_kind_is_accepted() -> None:
    c = toy_conflict()
    c.execute("override round_limit 1")
    c.execute("override gob.owner bob")
    assert c.state.round_limit == 1 and c.state.participants["gob"].owner == "bob"
    c.execute("effect rain")
    c.execute("override effects '[]'")
    assert c.state.effects == []


@pytest.mark.parametrize("line", [
    "override ada.stats.hp 1e400", "override ada.stats.hp NaN", "override ada.stats.hp -Infinity",
    "join zed 'stats={\"hp\": NaN}'", '{"verb": "override", "args": {"path": "ada.stats.hp", '
    '"value": Infinity}}',
])
def test_numbers_that_are_not_finite_are_refused(line: str) -> None:
    c = toy_conflict()
    before = snapshot(c)
    with pytest.raises(InvalidInput, match=r"not a number a table can use|finite"):
        c.execute(line)  # said as what it is, not "stats must be a JSON object"
    assert snapshot(c) == before


def test_a_json_command_with_a_value_that_is_not_finite_is_refused() -> None:
    c = toy_conflict()
    with pytest.raises(InvalidInput, match="finite"):
        c.execute({"verb": "override", "args": {"path": "ada.stats.hp", "value": float("nan")}})
    with pytest.raises(InvalidInput, match="finite"):
        c.execute({"verb": "join", "args": {"id": "zed", "stats": {"hp": [float("inf")]}}})
    assert c.version == 1


def test_an_override_inside_a_zoom_changes_the_zoomed_in_conflict_and_undoes() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("zoom ada,gob")
    c.execute("override ext.hp.gob.current 1")
    assert c.state.innermost.ext.hp["gob"].current == 1
    assert c.state.ext.hp["gob"].current == 6
    c.execute("undo")
    assert c.state.innermost.ext.hp["gob"].current == 6
    assert c.replay() == c.state


@pytest.mark.parametrize("line, message", [
    ("override ada.id gob", "ada.id cannot change"),
    ("override ruleset vers", "ruleset cannot change"),
    ("override round -5", "the round is a whole number from 0, got -5"),
    ("override ada.name '   '", "ada.name: participants.0.name: the name is empty"),
    ("override ada.kind robot", "Input should be 'pc', 'npc' or 'group'"),
    ("override ada.side ''", "a side or player name is empty"),
])
def test_an_override_no_scenario_file_could_hold_is_refused_alike(line: str,
                                                                   message: str) -> None:
    c = toy_conflict()
    before = snapshot(c)
    with pytest.raises(InvalidInput, match=message):
        c.execute(line)
    assert snapshot(c) == before
    c.execute("override ada.name 'Ada the Bold'")  # a value a file could hold goes in
    assert c.state.participants["ada"].name == "Ada the Bold"


def test_a_characters_player_is_overridden_by_the_name_a_scenario_gives_it() -> None:
    c = toy_conflict()
    c.execute("override gob.player bob")
    assert c.state.participants["gob"].owner == "bob"
    c.execute("undo")
    assert c.state.participants["gob"].owner is None


def test_an_override_of_a_value_never_set_says_it_was_unset() -> None:
    c = played("etherscope-car-chase")
    c.execute("round")
    c.execute("override ada.declared 7,2")
    line = log_view(c, Viewer.gm())[-1]["lines"][0]
    assert line == "GM sets ada.declared = [7, 2] (was unset)"  # before: "(was None)"


def test_the_log_quotes_an_overridden_text_as_the_gm_writes_it_never_python_style() -> None:
    """A GM reads the value back as a scenario or the override command writes it: text in
    double quotes, a list in brackets; before, Python's quotes ('salt') crept in."""
    c = toy_conflict()
    c.execute("override gob.stats.weakness salt reason='learnt at the inn'")
    c.execute("""override sides '["heroes", "foes", "bystanders"]'""")
    lines = [r["lines"][0] for r in log_view(c, Viewer.gm())[-2:]]
    assert lines == [
        'GM sets gob.stats.weakness = "salt" (was "fire") (learnt at the inn)',
        'GM sets sides = ["heroes", "foes", "bystanders"] (was ["heroes", "foes"])']


def test_a_yes_no_value_takes_yes_or_no_and_a_number_never_takes_true() -> None:
    """Each kind of value reads its own values one way: a yes/no value takes true/false (or
    yes/no, on/off), never a number; a number never takes true or false."""
    setup = toy_setup()
    setup.participants[0].stats["brave"] = True
    c = Conflict.create(TOY, setup, "seed", time="")
    before = snapshot(c)
    for line, said in [
        ("override ada.stats.brave 2", "ada.stats.brave takes yes or no (true or false), not 2"),
        ("override ada.stats.brave 0", "ada.stats.brave takes yes or no (true or false), not 0"),
        ("override ada.stats.brave maybe", 'takes yes or no (true or false), not "maybe"'),
        ("override ada.stats.brave yes", "ada.stats.brave is already true; nothing would"),
        ("override ada.stats.hp true", "ada.stats.hp takes a whole number, not true"),
        ("override ada.stats.hp 2.5", "ada.stats.hp takes a whole number, not 2.5"),
        ("override round false", "round takes a whole number, not false"),
        ("override gob.stats.weakness true", "gob.stats.weakness takes a text, not true"),
        ("override sides 3", "sides takes a list"),
    ]:
        with pytest.raises(InvalidInput) as refused:
            c.execute(line)
        assert said in str(refused.value), line
        assert snapshot(c) == before, line
    c.execute("override ada.stats.brave false")  # was read as 0, then refused or kept as 0
    assert c.state.participants["ada"].stats["brave"] is False
    assert log_view(c, Viewer.gm())[-1]["lines"] == [
        "GM sets ada.stats.brave = false (was true)"]
    c.execute("override ada.stats.brave on")
    assert c.state.participants["ada"].stats["brave"] is True


def test_the_gm_adds_a_skill_or_weapon_forgotten_at_set_up_checked_as_a_file_would_be() -> None:
    """A GM who forgot the quarry's Stealth (or Ada's axe) at set-up had no way to put it
    right: "participants.ada.stats.skills has no 'stealth'", and a whole skills record was
    refused. An entry a stat record lacks is added, checked as a scenario file holding it
    would be (VR-ROLL-1 names a skill that looks like a standard one), taken back by undo,
    and kept from players where its record is GM-only."""
    from tests.rulesets.vers.helpers import do, make, npc, pc, refused

    c = make(pc("ada", zone="a", skills={"close_combat": 3}, weapons={"sword": {"ev": 4}}),
             {**npc("thug", zone="a", skills={"close_combat": 2}), "gm_only": ["skills"]},
             zones=["a"], links=[])
    refused(c, "override ada.stats.skills.stelth 2", "VR-ROLL-1")  # did you mean 'stealth'?
    refused(c, "override ada.stats.weapons.axe '{\"ev\": \"x\"}'", None)
    refused(c, "override ada.stats.skills.stealth 99", None)  # 0 to 20, as in a file
    do(c, "override ada.stats.skills.stealth 2 reason='forgot'",
       "override ada.stats.weapons.axe '{\"ev\": 5}'", "override thug.stats.skills.stealth 4")
    assert log_view(c, Viewer.gm())[-3]["lines"] == [
        "GM sets ada.stats.skills.stealth = 2 (was unset) (forgot)"]
    assert c.state.participants["ada"].stats["skills"] == {"close_combat": 3, "stealth": 2}
    do(c, "open ada", "ada: attack thug weapon=axe dice=1,1,1")  # the axe is hers now
    ada = view(c, Viewer.of_player("ada"))["conflict"]["participants"]
    assert ada[0]["stats"]["skills"] == {"close_combat": 3, "stealth": 2}
    assert "skills" not in ada[1].get("stats", {})  # the thug's, GM-only, stay the GM's
    do(c, "undo 5")
    assert c.state.participants["ada"].stats["skills"] == {"close_combat": 3}
    assert "axe" not in c.state.participants["ada"].stats["weapons"]
    assert c.replay() == c.state


def test_an_override_given_visibility_owner_is_read_by_that_characters_player_alone() -> None:
    """A GM who puts a player's sheet right (a skill forgotten, HP miscounted) may tell that
    player: ``visibility=owner`` shows the correction in their log, and in no other player's
    (no entry, no gap in their numbering); undone, it is struck in their log as any entry of
    theirs. Before, a correction was the GM's alone and the player's sheet changed silently."""
    c = toy_conflict()
    c.execute("note 'the bell tolls'")
    c.execute("override ada.stats.hp 8 reason='the potion she drank' visibility=owner")
    alice = log_view(c, Viewer.of_player("alice"))
    assert alice[-1]["lines"] == ["GM sets ada.stats.hp = 8 (was 6) (the potion she drank)"]
    bob = log_view(c, Viewer.of_player("bob"))
    assert bob[-1]["lines"] == ["note: the bell tolls"]
    assert [e["entry"] for e in bob] == list(range(1, len(bob) + 1))  # no gap tells of it
    c.execute("override bruno.stats.hp 5")  # by default the GM's alone, as before
    assert log_view(c, Viewer.of_player("bob"))[-1]["lines"] == ["note: the bell tolls"]
    c.execute("undo 2")
    struck = log_view(c, Viewer.of_player("alice"))
    assert struck[-1]["lines"] == [
        "undo: override ada.stats.hp 8 reason='the potion she drank' visibility=owner"]
    assert log_view(c, Viewer.of_player("bob"))[-1]["lines"] == ["note: the bell tolls"]


@pytest.mark.parametrize(("line", "said"), [
    ("override gob.stats.hp 4 visibility=owner", "Goblin has no player (the GM plays them)"),
    ("override round 3 visibility=owner", "round is no character's value"),
    ("override ada.stats.hp 4 visibility=public", "visibility"),
])
def test_an_override_no_player_may_read_refuses_visibility_owner_and_changes_nothing(
        line: str, said: str) -> None:
    c = toy_conflict()
    before = snapshot(c)
    with pytest.raises(InvalidInput) as refused:
        c.execute(line)
    assert said in str(refused.value)
    assert snapshot(c) == before


def test_a_gm_only_stat_of_a_pc_is_never_corrected_in_its_players_sight() -> None:
    setup = toy_setup()
    ada = setup.participants[0]
    setup.participants[0] = ada.model_copy(update={"stats": {"hp": 6, "curse": "moon"},
                                                   "gm_only": ["curse"]})
    c = Conflict.create(TOY, setup, "seed", time="")
    before = snapshot(c)
    with pytest.raises(InvalidInput, match=r"kept from alice \(a GM-only stat of Ada\)"):
        c.execute("override ada.stats.curse sun visibility=owner")
    assert snapshot(c) == before
