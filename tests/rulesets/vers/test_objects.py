"""Breakable objects: hardness, conditions, penalties to users, broken items, repair (VR-OBJ-*)."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.errors import InvalidInput
from fracas.rulesets.vers.roll_odds import asked_roll
from fracas.rulesets.vers.views import view_ext

from .helpers import do, make, npc, of, pc, refused


def smith(**settings):
    objects = [{"id": "blade", "material": "iron"}, {"id": "door", "material": "wood"},
               {"id": "gem", "hardness": 8, "penalty": 2},
               {"id": "wall", "material": "stone", "slots": 2}]
    ada = pc("ada", tn={"close_combat": 14, "repair": 12},
             weapons={"sword": {"ev": 8, "object": "blade"}, "hammer": {"ev": 10}})
    return make(ada, npc("thug"), objects=objects, **settings)


@pytest.mark.rule("VR-OBJ-1")
def test_hardness_from_material_table_or_custom_rank():
    c = smith()
    objs = c.state.ext.objects
    assert (objs["blade"].hardness, objs["door"].hardness, objs["gem"].hardness) == (5, 2, 8)
    do(c, "object pillow material=cloth", "object cup material=pottery hardness=3")
    assert objs["pillow"].hardness == -1 and objs["cup"].hardness == 3
    refused(c, "object brick material=brick", "VR-OBJ-1")
    refused(c, "object cup material=glass", "VR-OBJ-1")


@pytest.mark.rule("VR-OBJ-2")
def test_attack_on_object_net_ev_minus_hardness_penalty_only_if_small():
    c = smith()
    do(c, "open ada")
    events = do(c, "ada: attack door weapon=hammer dice=3,3,3")
    att = of(events, "attack")[0]
    assert att["mods"] == [] and att["hit"]
    assert of(events, "object_damaged")[0]["net"] == 8
    att = of(do(c, "ada: attack gem weapon=hammer dice=6,6,6"), "attack")[0]
    assert att["mods"] == [["small or moving", -2]]


@pytest.mark.rule("VR-OBJ-2", "VR-OBJ-3")
def test_an_object_struck_for_exactly_its_hardness_is_worn_and_below_it_untouched():
    """Our reading: the seed compares EV with hardness and "the remainder, if any" sets the
    condition, and Worn is "net EV … between 0 and 2": a remainder of 0 is Worn; only an EV
    below the hardness leaves no mark."""
    c = smith()
    do(c, "object anvil hardness=10", "object safe hardness=11", "open ada")
    hit = of(do(c, "ada: attack anvil weapon=hammer dice=1,1,1"), "object_damaged")[0]
    assert (hit["net"], hit["level"]) == (0, "worn")
    miss = of(do(c, "ada: attack safe weapon=hammer dice=1,1,1"), "object_damaged")[0]
    assert (miss["net"], miss["level"]) == (-1, None)
    assert c.state.ext.objects["safe"].ladder.highest() is None


@pytest.mark.rule("VR-OBJ-2", "VR-OBJ-3")
def test_large_object_has_extra_slots_per_level():
    c = smith()
    do(c, "open ada", "ada: attack wall weapon=hammer dice=1,1,1",
       "ada: attack wall weapon=hammer dice=1,1,1")
    wall = c.state.ext.objects["wall"].ladder
    assert wall.count(1) == 2  # two "damaged" slots before upgrading
    # what `fracas show` and the view say: both held, of two (before: "damaged", as one)
    view = view_ext(c.state, Viewer.of_player("ada"))
    assert "Object wall (wall, hardness 5): damaged ×2" in view["lines"]
    wall_view = view["objects"]["wall"]
    assert (wall_view["marks"], wall_view["slots"]["damaged"]) == ({"damaged": 2}, 2)


@pytest.mark.rule("VR-OBJ-3")
def test_object_levels_one_slot_each_and_upgrade():
    c = smith()
    do(c, "open ada")
    first = of(do(c, "ada: attack door weapon=hammer dice=1,1,1"), "object_damaged")[0]
    assert first["level"] == "tattered"  # 10 - 2 = 8
    second = of(do(c, "ada: attack door weapon=hammer dice=1,1,1"), "object_damaged")[0]
    assert second["level"] == "broken" and second["upgraded"] and second["broken"]


@pytest.mark.rule("VR-OBJ-4")
def test_damaged_weapon_penalises_its_user_and_broken_stops_working():
    c = smith()
    do(c, "open thug")
    c.execute("thug: handoff ada")
    do(c, "ada: attack blade weapon=hammer dice=1,1,1")  # 10 - 5 = 5: damaged
    att = of(do(c, "ada: attack thug weapon=sword dice=1,1,1"), "attack")[0]
    assert ["sword damaged", -1] in att["mods"]
    c2 = smith()
    do(c2, "object anvil material=iron")
    do(c2, "open ada", "ada: attack blade weapon=hammer dice=1,1,1")  # damaged
    assert c2.state.ext.objects["blade"].ladder.total_penalty() == -1
    c3 = smith()
    do(c3, "open ada", "ada: attack blade weapon=hammer dice=1,1,1",
       "ada: attack blade weapon=hammer dice=1,1,1", "ada: handoff thug", "thug: handoff",
       "open ada")
    # damaged, then damaged again → upgraded to tattered: −1 −2
    att = of(do(c3, "ada: attack thug weapon=sword dice=1,1,1"), "attack")[0]
    assert ["sword tattered", -3] in att["mods"]
    do(c3, "ada: attack blade weapon=hammer dice=1,1,1")  # broken
    do(c3, "ada: handoff thug", "thug: handoff", "open ada")
    refused(c3, "ada: attack thug weapon=sword dice=1,1,1", "VR-OBJ-4")


@pytest.mark.rule("VR-OBJ-5")
def test_repair_penalty_and_refusals():
    c = smith()
    do(c, "open ada")
    refused(c, "ada: repair door dice=1,1,1", "VR-OBJ-5")  # no condition
    do(c, "ada: attack door weapon=hammer dice=1,1,1")  # tattered
    rep = of(do(c, "ada: repair door dice=3,3,3"), "repaired")[0]
    assert rep["check"]["mods"] == [["door tattered", -2]] and rep["level"] == "tattered"
    assert c.state.ext.objects["door"].ladder.highest() is None
    with pytest.raises(InvalidInput):
        c.execute("ada: repair nothing")


@pytest.mark.rule("VR-OBJ-5")
def test_an_object_is_repaired_with_the_repair_skill_or_a_special_one_never_a_standard_one():
    """The seed: an object is repaired "with the right background or special skill". Before,
    Persuasion mended a door at the TN of Charisma; now a standard skill other than repair is
    refused, saying what repairs, and a background skill (smithing) is rolled."""
    ada = pc("ada", charisma=6, intellect=1, skills={"repair": 1, "smithing": 2,
                                                     "persuasion": 3, "close_combat": 3},
             weapons={"hammer": {"ev": 10, "kind": "close"}})
    c = make(ada, npc("thug"), objects=[{"id": "door", "material": "wood"}])
    do(c, "open ada", "ada: attack door weapon=hammer dice=3,3,3")  # tattered
    for skill in ("persuasion", "close_combat", "athletics"):
        msg = str(refused(c, f"ada: repair door skill={skill} dice=1,1,1", "VR-OBJ-5"))
        assert "repairs nothing: an object is repaired with the repair skill or a " \
               "background or special skill (smithing)" in msg, msg
        assert asked_roll(c.state, c.to_command(f"ada: repair door skill={skill}")) is None
    rep = of(do(c, "ada: repair door skill=smithing dice=1,1,1"), "repaired")[0]
    assert rep["check"]["skill"] == "smithing" and rep["level"] == "tattered"


@pytest.mark.rule("VR-OBJ-5")
def test_broken_object_is_not_repaired_by_action_but_gm_restores_it():
    c = smith()
    do(c, "open ada", "ada: attack door weapon=hammer dice=1,1,1",
       "ada: attack door weapon=hammer dice=1,1,1", "ada: handoff thug", "thug: handoff",
       "open ada")
    assert c.state.ext.objects["door"].broken
    refused(c, "ada: repair door dice=1,1,1", "VR-OBJ-5")
    do(c, "restore door")
    assert not c.state.ext.objects["door"].broken
    err = refused(c, "restore door", "VR-OBJ-5")  # before: a second restore was logged too
    assert "is whole: nothing to restore" in str(err)


@pytest.mark.rule("VR-OBJ-5", "VR-OBJ-4")
def test_the_gm_restores_a_damaged_object_that_is_not_broken_too():
    """``restore`` makes whole any object with a condition, not only a broken one: a damaged
    blade stops costing its user −1."""
    c = smith()
    do(c, "open ada", "ada: attack blade weapon=hammer dice=1,1,1")  # 10 − 5 = 5: damaged
    blade = c.state.ext.objects["blade"]
    assert not blade.broken and blade.ladder.total_penalty() == -1
    do(c, "restore blade")
    assert blade.ladder.highest() is None and blade.ladder.total_penalty() == 0
    att = of(do(c, "ada: attack thug weapon=sword dice=1,1,1"), "attack")[0]
    assert not [m for m in att["mods"] if "sword" in m[0]]


@pytest.mark.rule("VR-OBJ-1", "VR-OBJ-2")
@pytest.mark.parametrize(("key", "rule"), [("hardness", "VR-OBJ-1"), ("penalty", "VR-OBJ-2")])
def test_a_custom_hardness_or_penalty_goes_from_minus_100_to_100(key, rule):
    """The limits docs/limits.md gives: both ends are values an object may have (a penalty
    is a penalty, −100, either way), one beyond either is refused with the range."""
    c = smith()
    do(c, f"object low material=wood {key}=-100", f"object high material=wood {key}=100")
    objs = c.state.ext.objects
    assert (getattr(objs["low"], key), getattr(objs["high"], key)) == \
        ((-100, 100) if key == "hardness" else (-100, -100))
    for value in (-101, 101):
        err = refused(c, f"object odd material=wood {key}={value}", rule)
        assert f"{key} must be a whole number from -100 to 100, got {value}" in str(err)


@pytest.mark.rule("VR-OBJ-3", "VR-OBJ-4")
@pytest.mark.parametrize("slots", [1, 2])  # a large object: one broken slot of two is enough
def test_a_broken_object_takes_no_further_conditions(slots):
    c = smith()
    do(c, f"object vase material=glass slots={slots}", "open ada")
    first = of(do(c, "ada: attack vase weapon=hammer dice=1,1,1"), "object_damaged")[0]
    assert first["level"] == "broken" and first["broken"]  # 10 − 1 = 9
    again = of(do(c, "ada: attack vase weapon=sword dice=1,1,1"), "object_damaged")[0]
    assert again["broken"] and again["level"] is None  # 8 − 1 = 7 would be tattered
    assert view_ext(c.state, Viewer.gm())["objects"]["vase"]["conditions"] == ["broken"]


@pytest.mark.rule("VR-OBJ-2", "VR-MOVE-3", "VR-ATK-3", "VR-MOVE-1")
def test_an_object_placed_in_a_zone_is_reached_like_a_character() -> None:
    """A crate in zone c is struck with a sword only from c, and a knife thrown two zones
    must beat it by 3 degrees; only its size or motion penalizes the roll (no range or
    same-zone penalty). An object the GM placed nowhere is in reach of everyone."""
    from .helpers import ZONES

    ada = pc("ada", zone="a", tn={"close_combat": 12, "athletics": 12},
             weapons={"sword": {"ev": 9, "kind": "close"}, "knife": {"ev": 2, "kind": "thrown"}})
    c = make(ada, npc("r3", zone="e"), objects=[
        {"id": "crate", "material": "wood", "zone": "c"}, {"id": "vase", "material": "pottery"}],
        **ZONES)
    do(c, "open ada")
    msg = str(refused(c, "ada: attack crate weapon=sword dice=3,3,3", "VR-MOVE-3"))
    assert "crate is 2 zone(s) away" in msg
    offered = {(lc.choice("target").fixed, lc.choice("weapon").fixed)
               for lc in c.legal("ada") if lc.verb == "attack"}
    assert ("crate", "knife") in offered and ("crate", "sword") not in offered
    assert ("vase", "sword") in offered
    thrown = of(do(c, "ada: attack crate weapon=knife dice=4,4,3"), "attack")[0]
    assert (thrown["distance"], thrown["min_dos"], thrown["modifier"]) == (2, 3, 0)
    assert thrown["success"] and not thrown["hit"]  # 1 degree of the 3 it needs
    hit = of(do(c, "ada: attack vase weapon=sword dice=1,1,1"), "attack")[0]
    assert hit["hit"]  # placed nowhere: no zone to check
    refused(c, "object box material=wood zone=attic", "VR-MOVE-1")


@pytest.mark.rule("VR-OBJ-5", "VR-OBJ-2")
def test_a_placed_object_is_repaired_from_its_zone_and_the_state_says_where_it_is() -> None:
    """The crate stands in zone c: Ada, there, may repair it; Rook, two zones off, is not
    offered the repair and is refused it, and everyone's state shows where the crate is."""
    from .helpers import ZONES

    ada = pc("ada", zone="c", tn={"close_combat": 12, "repair": 12},
             weapons={"hammer": {"ev": 10, "kind": "close"}})
    rook = pc("rook", zone="e", tn={"repair": 12})
    c = make(ada, rook, npc("r3", zone="a"),
             objects=[{"id": "crate", "material": "wood", "zone": "c"}], **ZONES)
    do(c, "open ada", "ada: attack crate weapon=hammer dice=3,3,3", "ada: handoff rook")
    assert not [lc for lc in c.legal("rook") if lc.verb == "repair"]
    msg = str(refused(c, "rook: repair crate dice=1,1,1", "VR-OBJ-5"))
    assert "crate is in c; Rook must be there to repair it" in msg
    do(c, "rook: handoff r3", "r3: handoff", "open ada")  # a new turn, opened by Ada
    assert [lc for lc in c.legal("ada") if lc.verb == "repair"]
    assert of(do(c, "ada: repair crate dice=1,1,1"), "repaired")[0]["check"]["success"]
    player = view_ext(c.state, Viewer.of_player("rook"))
    assert player["objects"]["crate"]["zone"] == "c"
    assert any(line.startswith("Object crate (crate, hardness 2) in c:")
               for line in player["lines"])


@pytest.mark.rule("VR-OBJ-2", "VR-MOVE-3", "VR-OBJ-5")
def test_a_weapon_placed_in_no_zone_is_where_its_wielder_stands() -> None:
    """Ada's sword (the object blade, in no zone of its own) is in her hand: Rook, two zones
    off, cannot hack at it with his club nor mend it, and is offered neither; his bow still
    reaches it, and once he stands beside her the club does too. A wielder the GM conceals
    leaves the weapon in no zone, so that nothing tells where they stand."""
    from .helpers import ZONES

    ada = pc("ada", zone="a", tn={"close_combat": 12, "repair": 12},
             weapons={"sword": {"ev": 8, "kind": "close", "object": "blade"}})
    rook = npc("rook", zone="c", tn={"close_combat": 12, "ranged_combat": 12, "repair": 12},
               weapons={"club": {"ev": 10, "kind": "close"}, "bow": {"ev": 5, "kind": "ranged"}})
    c = make(ada, rook, objects=[{"id": "blade", "material": "iron"}], **ZONES)
    do(c, "open rook")

    def offered(actor: str) -> set[tuple[str, str | None]]:
        return {(lc.verb, lc.choice("weapon").fixed if lc.verb == "attack" else None)
                for lc in c.legal(actor) if lc.verb in ("attack", "repair")
                and (lc.choice("target") if lc.verb == "attack" else lc.choice("id")).fixed
                == "blade"}

    assert offered("rook") == {("attack", "bow")}
    msg = str(refused(c, "rook: attack blade weapon=club dice=1,1,1", "VR-MOVE-3"))
    assert "blade is 2 zone(s) away; a close attack needs the same zone" in msg
    do(c, "rook: attack blade weapon=bow dice=1,1,1")  # 5 − 5 = 0: worn
    msg = str(refused(c, "rook: repair blade dice=1,1,1", "VR-OBJ-5"))
    assert "blade is in a; Rook must be there to repair it" in msg
    do(c, "conceal ada")  # hidden: the blade is in no zone, as if nobody held it
    assert ("attack", "club") in offered("rook")
    do(c, "reveal ada", "place rook a")  # beside her: in reach of the club again
    assert ("attack", "club") in offered("rook")
