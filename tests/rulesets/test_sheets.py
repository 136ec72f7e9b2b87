"""Each character's sheet in the view (docs/table.md, docs/json.md: ``sheet``): the stats in
the game's words, as the viewer may read them, and on the GM's the lines its player (the
table, for an NPC) does not read and the stats of the GM's own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import from_the_start, play_script
from fracas.engine import Conflict
from fracas.engine.model import Viewer
from fracas.engine.sheet import worded
from fracas.engine.views import view
from tests.rulesets.fabula_ultima.support import make, npc, pc, run

GM, ALICE, PUBLIC = Viewer.gm(), Viewer.of_player("alice"), Viewer.public()


def sheet(c: Conflict, viewer: Viewer, pid: str) -> dict[str, dict[str, Any]]:
    """The sheet of ``pid`` as ``viewer`` reads it, by label."""
    entry = next(p for p in view(c, viewer)["conflict"]["participants"] if p["id"] == pid)
    return {i["label"]: i for i in entry["sheet"]}


def example(name: str, **edits: dict[str, Any]) -> Conflict:
    """A bundled example from its start, each participant named in ``edits`` with those
    set-up fields changed (``stats`` merged)."""
    scenario = from_the_start(load_scenario(name))
    for p in scenario.setup.participants:
        for key, value in edits.get(p.id, {}).items():
            if key == "stats":
                p.stats.update(value)
            else:
                setattr(p, key, value)
    return play_script(scenario, "sheets")


@pytest.mark.rule("FU-CHK-1", "FU-RES-4")
def test_a_fabula_ultima_sheet_gives_dice_and_the_current_die_a_status_steps_down() -> None:
    c = run(make(pc("ada", dex=10, ins=8, bonds={"orc": 2, "zed": 1}), npc("orc", defense=9)),
            "status ada slow")
    ada = sheet(c, Viewer.of_player("ada"), "ada")
    assert ada["DEX"]["value"] == "d8 (d10 on the sheet)"  # Slow: DEX one size down
    assert ada["bonds"]["value"] == "Orc 2, zed 1"  # one not in the conflict: by its id
    assert ada["INS"]["value"] == "d8" and ada["max HP"]["value"] == "40"
    assert ada["Defense"]["value"] == "8"  # the current DEX die's, as the rules read it
    orc = sheet(c, Viewer.of_player("ada"), "orc")
    assert orc["Defense"]["value"] == "9" and "Initiative" in orc


@pytest.mark.rule("FU-CON-4")
def test_the_gms_sheet_marks_what_the_players_do_not_read_even_a_value_worked_out_of_it() -> None:
    captain = npc("captain", dex=12, ins=10, weakness="afraid of fire")
    captain["gm_only"] = ["dex", "weakness"]
    c = make(pc("ada"), captain)
    gm, seen = sheet(c, GM, "captain"), sheet(c, Viewer.of_player("ada"), "captain")
    assert gm["DEX"]["secret"] and gm["weakness"] == {
        "key": "weakness", "label": "weakness", "value": "afraid of fire", "secret": True,
        "own": True}
    # Defense and Initiative come from the GM-only DEX: the players read neither
    assert gm["Defense"]["secret"] and gm["Initiative"]["secret"]
    assert "secret" not in gm["INS"] and "own" not in gm["INS"]
    assert set(seen) == {"INS", "MIG", "WLP", "max HP", "max MP", "Magic Defense"}
    assert not any("secret" in i or "own" in i for i in seen.values())


#: A Fabula Ultima NPC's stats, for one that joins in play.
NPC_STATS = '{"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 20, "mp": 10}'


@pytest.mark.rule("FU-CHK-5")
def test_a_bond_its_player_reads_is_not_tagged_gm_only_and_one_read_in_part_says_what() -> None:
    """Before: Ada's bond with Kim, who joined hidden after it was written, was tagged GM
    only on the GM's sheet ("Kim 2"), though Alice reads it ("kim 2": by the id, as she
    does not know Kim); a bond line she reads in part was GM only as a whole."""
    c = make(pc("ada", bonds={"kim": 2}))
    c.execute(f"join kim name=Kim side=foes kind=npc 'stats={NPC_STATS}' hidden=yes", time="")
    ada = Viewer.of_player("ada")
    assert sheet(c, ada, "ada")["bonds"]["value"] == "kim 2"
    assert sheet(c, GM, "ada")["bonds"] == {"key": "bonds", "label": "bonds",
                                             "value": "Kim 2"}
    c = run(make(pc("ada", bonds={"orc": 2, "zed": 1}), npc("orc")), "conceal orc")
    assert sheet(c, ada, "ada")["bonds"]["value"] == "zed 1"
    assert sheet(c, GM, "ada")["bonds"] == {"key": "bonds", "label": "bonds",
                                             "value": "Orc 2, zed 1", "secret": True,
                                             "reads": "zed 1"}
    c = run(make(pc("ada", bonds={"orc": 2}), npc("orc")), "conceal orc")
    assert "bonds" not in sheet(c, ada, "ada")
    assert "reads" not in sheet(c, GM, "ada")["bonds"]  # none of it read: GM only


def test_a_maximum_a_harm_view_hides_is_on_the_gms_sheet_only() -> None:
    c = example("vers-tavern-brawl", thug={"stats": {"grudge": "the bouncer"}})
    gm = sheet(c, GM, "thug")
    assert gm["skills"]["secret"]  # GM-only in the example
    assert gm["grudge"]["own"] and "secret" not in gm["grudge"]
    fu = example("fabula-ultima-ambush")
    fu.execute("override settings.harm_view.bandits none", time="")
    assert sheet(fu, GM, "cut1")["max HP"]["secret"]  # the players read no harm of bandits
    assert "max HP" not in sheet(fu, ALICE, "cut1")
    assert "secret" not in sheet(fu, GM, "ada")["max HP"]  # heroes: exact


@pytest.mark.rule("VR-ROLL-2")
def test_a_vers_sheet_words_weapons_and_leaves_the_starting_zone_to_the_map() -> None:
    c = example("vers-tavern-brawl", mira={"stats": {"weapons": {
        "knives": {"ev": 3, "kind": "thrown"}, "bottle": {"object": "table"}}}})
    ada = sheet(c, ALICE, "ada")
    assert ada["weapons"]["value"] == "sword (EV 5, close), knife (EV 2, thrown)"
    assert sheet(c, ALICE, "mira")["weapons"]["value"] == \
        "knives (EV 3, thrown), bottle (EV 0, close, object table)"  # as the rules read it
    assert ada["skills"]["value"] == "athletics 2, close combat 3, discipline 1"
    assert ada["RV"]["value"] == "1" and "zone" not in ada
    assert "skills" not in sheet(c, ALICE, "thug")  # GM-only


@pytest.mark.rule("ES-ROUND-1", "ES-ACT-4")
def test_an_etherscope_sheet_names_the_condensers_and_keeps_a_stat_rolled_as_a_skill() -> None:
    c = example("etherscope-car-chase", ada={"stats": {"nerve": 4}})
    ada = sheet(c, ALICE, "ada")
    assert [(i, v["value"]) for i, v in ada.items()] == [
        ("physical condenser", "12"), ("ether condenser", "8"), ("society condenser", "6"),
        ("awareness", "3"), ("skills", "drive 4, brawl 3"), ("nerve", "4")]
    # any stat may be rolled as a skill in Etherscope: none is the GM's own
    assert not any("own" in i for i in sheet(c, GM, "ada").values())


def test_a_sheet_tells_no_more_than_the_entry_it_is_built_from() -> None:
    for name in ("fabula-ultima-ambush", "vers-tavern-brawl", "etherscope-car-chase"):
        c = play_script(load_scenario(name), "sheets")
        for viewer in (ALICE, PUBLIC):
            for entry in view(c, viewer)["conflict"]["participants"]:
                text = json.dumps(entry["sheet"])
                for key in c.state.participants[entry["id"]].gm_only:
                    assert f'"key": "{key}"' not in text, (name, entry["id"], key)


def test_values_read_in_words() -> None:
    assert worded({"sword": {"ev": 5, "kind": "close"}, "fists": 0}) == \
        "sword (ev 5, kind close), fists 0"
    assert worded([{"name": "Saber", "damage": 6}, {"name": "Cloak"}]) == \
        "Saber (damage 6); Cloak"
    assert worded(True) == "yes" and worded({"close_combat": 3}) == "close combat 3"
