"""Zones, dashes, engagement, disengaging and guarded ways (VR-MOVE-*)."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.errors import IllegalCommand
from tests.support.reading import last_sentences

from .helpers import ZONES, do, make, npc, of, pc, refused, ruleset


def field(**extra):
    ada = pc("ada", zone="a", tn={"athletics": 12, "close_combat": 12},
             weapons={"sword": {"ev": 5}})
    thug = npc("thug", zone="a", tn={"close_combat": 12}, weapons={"club": {"ev": 4}})
    return make(ada, thug, npc("guard", zone="c", tn={"close_combat": 12},
                                skills={"close_combat": 3}, weapons={"pike": {"ev": 3}}),
                **{**ZONES, **extra})


@pytest.mark.rule("VR-MOVE-1")
def test_move_one_zone_and_distance_is_shortest_path():
    c = field()
    do(c, "open ada", "ada: move b")
    assert c.state.ext.zones.zone_of("ada") == "b"
    assert c.state.ext.zones.distance("a", "e") == 4
    refused(c, "ada: move e", "VR-MOVE-1")


@pytest.mark.rule("VR-MOVE-1")
def test_gm_draws_zones_links_and_places():
    c = field()
    do(c, 'zone cellar "The cellar"', "link cellar a", "place thug cellar")
    assert c.state.ext.zones.zone_of("thug") == "cellar"
    assert c.state.ext.zones.distance("cellar", "b") == 2
    refused(c, "link cellar nowhere", "VR-MOVE-1")


@pytest.mark.rule("VR-MOVE-2")
def test_dash_two_zones_with_athletics():
    c = field()
    events = do(c, "open ada", "ada: move c dice=3,3,3")
    moved = of(events, "moved")[0]
    assert moved["check"]["success"] and moved["to"] == "c"
    assert c.state.ext.turns.actions_left == 1


@pytest.mark.rule("VR-MOVE-2")
def test_failed_dash_falls_short_or_takes_both_actions():
    c = field()
    do(c, "open ada", "ada: move c dice=6,6,6")
    assert c.state.ext.zones.zone_of("ada") == "b"
    c2 = field()
    do(c2, "open ada", "ada: move c onfail=both dice=6,6,6")
    assert c2.state.ext.zones.zone_of("ada") == "c"
    assert c2.state.ext.turns.actions_left == 0
    c3 = field()
    do(c3, "open ada", "ada: move b")
    refused(c3, "ada: move d onfail=both dice=6,6,6", "VR-MOVE-2")


@pytest.mark.rule("VR-MOVE-2")
def test_what_a_failed_dash_costs_is_the_gms_call_not_the_players():
    """The seed: a failed dash leaves the character short "or take[s] up both of their
    actions, GM discretion". Alice may not pick for Ada (her dash that fails falls short), nor
    is she offered the choice; the GM gives the dash that takes both actions."""
    from fracas.engine.projector import offered

    alice = Viewer.of_player("ada")
    c = field()
    do(c, "open ada")
    with pytest.raises(IllegalCommand) as info:
        c.execute("ada: move c onfail=both dice=6,6,6", alice)
    assert info.value.rule == "VR-MOVE-2" and "the GM's call" in info.value.message
    assert c.state.ext.zones.zone_of("ada") == "a" and c.state.ext.turns.actions_left == 2
    dash = next(lc for lc in offered(c, alice, "ada")
                if lc.verb == "move" and lc.choice("to").fixed == "c")
    assert [p.name for p in dash.params] == ["to", "dice"]
    gm_dash = next(lc for lc in offered(c, Viewer.gm(), "ada")
                   if lc.verb == "move" and lc.choice("to").fixed == "c")
    assert gm_dash.choice("onfail").allowed == ("short", "both")
    (moved,) = of(list(c.execute("ada: move c dice=6,6,6", alice).events), "moved")
    assert moved["result"] == "fell short" and c.state.ext.zones.zone_of("ada") == "b"


@pytest.mark.rule("VR-MOVE-3")
def test_close_attack_engages_hit_or_miss_and_ends_apart():
    c = field()
    do(c, "open ada", "ada: attack thug dice=6,6,6")  # a miss
    assert c.state.ext.engaged_with("ada") == ["thug"]
    do(c, "ada: disengage dice=1,1,1", "ada: handoff thug")
    assert c.state.ext.engaged_with("ada") == []


@pytest.mark.rule("VR-MOVE-3")
def test_close_attack_needs_the_same_zone():
    c = field()
    do(c, "open ada", "ada: move b")
    refused(c, "ada: attack thug", "VR-MOVE-3")


@pytest.mark.rule("VR-MOVE-4")
def test_moving_while_engaged_without_disengaging_is_refused():
    c = field()
    do(c, "open ada", "ada: attack thug dice=6,6,6")
    err = refused(c, "ada: move b", "VR-MOVE-4")
    assert "disengage" in str(err)


@pytest.mark.rule("VR-MOVE-4")
def test_disengage_penalty_per_extra_opponent_and_free_attacks_on_failure():
    c = field()
    do(c, "join rat kind=npc side=npcs stats='{\"zone\": \"a\"}'", "open ada",
       "ada: attack thug dice=6,6,6", "ada: handoff rat", "rat: attack ada dice=6,6,6",
       "rat: handoff thug", "thug: handoff guard", "guard: handoff", "open ada")
    events = do(c, "ada: disengage dice=5,5,2 free=1,1,1,1,1,1")
    dis = of(events, "disengaged")[0]
    assert ["for 1 more opponent", -2] in dis["check"]["mods"]
    assert "(−2 for 1 more opponent: −2)" in last_sentences(c)[0]  # read as it is said
    assert not dis["check"]["success"]  # 12 > 12 - 2
    free = of(events, "attack")
    assert [f["free"] for f in free] == [True, True]
    assert {e.actor for e in events if e.type == "attack"} == {"thug", "rat"}
    assert c.state.ext.zones.zone_of("ada") == "a"
    assert sorted(c.state.ext.engaged_with("ada")) == ["rat", "thug"]  # still held
    assert c.state.ext.turns.actions_left == 1
    do(c, "ada: disengage dice=1,1,1")
    assert c.state.ext.engaged_with("ada") == []


@pytest.mark.rule("VR-MOVE-5")
def test_moving_past_a_guard_without_the_roll_is_refused():
    c = field()
    do(c, "guard guard b c", "open ada", "ada: move b")
    err = refused(c, "ada: move c", "VR-MOVE-5")
    assert "slip" in str(err)
    refused(c, "ada: move d dice=1,1,1", "VR-MOVE-5")


@pytest.mark.rule("VR-MOVE-5", "VR-MOVE-2")
def test_a_dash_takes_a_way_no_guard_bars_when_there_is_one():
    """The seed bars a move only if the only way out is guarded: of two ways as short, the
    unguarded one is taken (and offered); with every way guarded, the refusal says how to
    get past, also when the guard stands at the second link."""
    ring = {"zones": ["a", "b", "c", "d"],
            "links": [["a", "b"], ["b", "d"], ["a", "c"], ["c", "d"]]}
    c = field(**ring)
    do(c, "place guard b", "guard guard b d", "open ada")
    assert "ada: move d dice=DICE" in [lc.text() for lc in ruleset().legal_commands(c.state, "ada")]
    moved = of(do(c, "ada: move d dice=1,1,1"), "moved")[0]
    assert moved["path"] == ["a", "c", "d"] and c.state.ext.zones.zone_of("ada") == "d"
    line = field()  # a - b - c - d - e, the only way to c guarded at its second link
    do(line, "guard guard b c", "open ada")
    err = refused(line, "ada: move c dice=1,1,1", "VR-MOVE-5")
    assert "'ada: move b', then 'ada: slip c'" in str(err)
    do(line, "ada: move b", "ada: slip c dice=1,1,1")  # the way it said
    assert line.state.ext.zones.zone_of("ada") == "c"


@pytest.mark.rule("VR-MOVE-5")
def test_with_every_way_guarded_the_refusal_names_the_way_the_fewest_guards_bar():
    ring = {"zones": ["a", "b", "c", "d"],
            "links": [["a", "b"], ["b", "d"], ["a", "c"], ["c", "d"]]}
    guard = {"tn": {"close_combat": 12}, "skills": {"close_combat": 1}}
    posts = {"via c, the fewer": ("guard g1 a b", "place g2 a", "guard g2 a b", "guard g3 c d"),
             "via b, the fewer": ("guard g1 a b", "guard g2 c d", "guard g3 c d"),
             "via b, the first of two alike": ("guard g1 a b", "guard g3 c d")}
    said = {}
    for layout, lines in posts.items():
        c = make(pc("ada", zone="a", tn={"athletics": 12}), npc("g1", zone="a", **guard),
                 npc("g2", zone="c", **guard), npc("g3", zone="c", **guard), **ring)
        do(c, *lines, "open ada")
        said[layout] = str(refused(c, "ada: move d dice=1,1,1", "VR-MOVE-5"))
    assert said["via c, the fewer"].startswith("G3 guards the way")
    assert "'ada: move c', then 'ada: slip d'" in said["via c, the fewer"]
    for layout in ("via b, the fewer", "via b, the first of two alike"):
        assert said[layout].startswith("G1 guards the way") and "'ada: slip b'" in said[layout]


@pytest.mark.rule("VR-MOVE-5")
def test_slip_past_guards_penalty_and_damage_on_failure():
    c = field()
    do(c, "join guard2 kind=npc side=npcs stats='{\"zone\": \"c\"}'",
       "guard guard b c", "guard guard2 b c", "open ada", "ada: move b")
    events = do(c, "ada: slip c dice=4,4,1")
    slip = of(events, "slipped")[0]
    assert slip["check"]["mods"] == [["guarded by Guard, Guard2", -5, "guard", "skills"]]
    assert not slip["check"]["success"]  # 3 ranks + 2 for the second guard
    assert of(events, "attack") == []  # the blow always lands: no attack roll
    assert c.state.ext.zones.zone_of("ada") == "b"
    blow = of(events, "condition")[0]
    assert blow["ev"] == 5 and blow["level"] == "wounded"  # pike 3 + 2, Ada's RV 0
    assert "guarded way" in blow["why"]
    c2 = field()
    do(c2, "guard guard b c", "open ada", "ada: move b", "ada: slip c dice=2,2,2")
    assert c2.state.ext.zones.zone_of("ada") == "c"


@pytest.mark.rule("VR-MOVE-5")
def test_legal_moves_follow_the_guards_that_stop_the_mover():
    """A guard of the mover's own side, or one out of the conflict, stops nobody: the legal
    commands offer the move, not a slip."""
    c = make(pc("ada", zone="a"), pc("ally", zone="b"), npc("foe", zone="b"), **ZONES)
    do(c, "guard ally a b", "open ada")

    def ways() -> list[str]:
        return [lc.text() for lc in ruleset().legal_commands(c.state, "ada")
                if lc.verb in ("move", "slip")]

    assert ways() == ["ada: move b", "ada: move c dice=DICE"]
    do(c, "guard foe a b")
    assert ways() == ["ada: slip b dice=DICE"]
    slip = next(lc for lc in ruleset().legal_commands(c.state, "ada") if lc.verb == "slip")
    assert slip.to_data()["label"] == "get past the guard into {to}"  # the control's title
    do(c, "out foe")
    assert ways() == ["ada: move b", "ada: move c dice=DICE"]
    do(c, "ada: move b")


@pytest.mark.rule("VR-MOVE-1", "VR-MOVE-3")
def test_the_attacks_offered_follow_reach_across_the_zones():
    """A foe one zone away is offered to a bow, not to a sword; one in a zone with no way to
    it is offered to neither, and the attack is refused if typed."""
    weapons = {"sword": {"ev": 5}, "bow": {"ev": 3, "kind": "ranged"}}
    c = make(pc("ada", zone="a", weapons=weapons), npc("near", zone="b"),
             npc("far", zone="e"), npc("lost", zone="island"),
             zones=[*ZONES["zones"], "island"], links=ZONES["links"])
    do(c, "open ada")
    offered = [lc.text()
               for lc in ruleset().legal_commands(c.state, "ada") if lc.verb == "attack"]
    assert offered == ["ada: attack near weapon=bow dice=DICE",
                       "ada: attack far weapon=bow dice=DICE"]
    refused(c, "ada: attack lost weapon=bow", "VR-MOVE-1")


@pytest.mark.rule("VR-MOVE-1", "VR-MOVE-5")
def test_the_log_names_a_zone_by_its_name_and_an_unnamed_one_by_its_id():
    c = field()
    lines = ('zone cellar "The cellar"', "link cellar b", "place thug cellar",
             "guard thug b cellar", "open ada", "ada: move b")
    said = [ruleset().describe(e, c.state) for line in lines for e in do(c, line)]
    assert said[1:4] == ["zones The cellar and b joined", "Thug is placed in The cellar",
                         "Thug guards the way b – The cellar"]
    assert "Ada moves from a to b" in said
    slipped = ruleset().describe(do(c, "ada: slip cellar dice=2,2,2")[0], c.state)
    assert slipped.startswith("Ada tries to slip past Thug to The cellar: Athletics TN 12")
    assert slipped.endswith("→ gets past")
