"""Audit fixes: take-outs on one's own go, mental and social attacks, the engaged-target
penalty, guards at their ways, hidden GM-only numbers, disabled mid-go, broken cover."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.serialize import state_to_data
from fracas.engine.views import log_view
from fracas.errors import InvalidInput

from .helpers import ZONES, do, make, npc, of, pc, refused, ruleset


def brawl():
    """Ada (weak) engaged with a brutal Thug; Bruno still to go."""
    c = make(pc("ada", zone="a", weapons={"sword": {"ev": 4}}),
             npc("thug", zone="a", skills={"close_combat": 5},
                 weapons={"axe": {"ev": 20}}),
             pc("bruno", zone="a"), **ZONES)
    do(c, "open thug", "thug: attack ada dice=1,1,1", "thug: handoff ada")
    return c


@pytest.mark.rule("VR-TURN-2", "VR-INJ-2")
def test_taken_out_on_own_go_ends_the_go_and_its_turn_end_effects():
    c = brawl()
    do(c, "ada: endure dice=1,1,1", "effect stunned until=turn_end who=ada")
    events = do(c, "ada: disengage dice=6,6,6 free=1,1,1")
    types = [e.type for e in events]
    assert types.index("participant_out") < types.index("turn_ended")
    assert of(events, "turn_ended") == [{"participant": "ada", "out": True}]
    assert of(events, "effect_expired")[0]["text"] == "stunned"
    assert c.state.effects == [] and c.state.ext.turns.current is None
    assert "round_ended" not in types  # Bruno has not gone yet
    assert ruleset().legal_commands(c.state, None)[0].text() == "handoff bruno say=TEXT"
    events = do(c, 'handoff bruno say="Ada is down!"')
    assert of(events, "turn_started")[0]["by_gm"]
    assert c.state.ext.turns.current == "bruno"
    assert state_to_data(c.replay()) == state_to_data(c.state)


@pytest.mark.rule("VR-TURN-3", "VR-INJ-3")
def test_last_to_go_passing_out_on_own_go_ends_the_turn():
    c = make(pc("ada", zone="a"), npc("thug", zone="a"), **ZONES)
    do(c, "open thug", "harm ada 9", "thug: handoff ada")
    events = do(c, "ada: endure dice=6,6,6")
    assert [e.type for e in events][-3:] == ["participant_out", "turn_ended", "round_ended"]
    assert not c.state.ext.turns.round_opened
    do(c, "open thug")
    assert c.state.round == 2


@pytest.mark.rule("VR-TURN-5")
def test_gm_taking_out_the_acting_character_ends_its_go():
    c = make(pc("ada"), pc("bruno"), npc("thug"))
    do(c, "open ada", "effect dazed until=turn_end who=ada")
    events = do(c, "out ada reason=fled")
    assert "turn_ended" in [e.type for e in events]
    assert of(events, "effect_expired")
    do(c, "handoff thug")
    assert c.state.ext.turns.current == "thug"


@pytest.mark.rule("VR-TURN-2")
def test_gm_handoff_only_when_nobody_is_acting():
    c = make(pc("ada"), pc("bruno"))
    refused(c, "handoff ada", "VR-TURN-1")
    do(c, "open ada")
    err = refused(c, "handoff bruno", "VR-TURN-2")
    assert "Ada is acting now" in str(err)


@pytest.mark.rule("VR-INJ-3", "VR-TURN-4")
def test_disabled_mid_go_keeps_one_action_a_turn_and_must_endure_before_handing_off():
    c = make(pc("ada", zone="a", skills={"athletics": 0}), npc("thug", zone="a",
             skills={"close_combat": 5}, weapons={"maul": {"ev": 9}}), pc("bruno", zone="e"),
             **ZONES)
    do(c, "open thug", "thug: attack ada dice=6,6,6", "thug: handoff ada")
    events = do(c, "ada: disengage dice=6,6,6 free=1,1,1")
    assert of(events, "condition")[0]["level"] == "disabled"
    assert c.state.ext.turns.actions_left == 0  # its one action this turn is spent
    refused(c, "ada: handoff bruno", "VR-INJ-3")
    do(c, "ada: endure dice=1,1,1")
    err = refused(c, "ada: move b", "VR-TURN-4")  # says why there is no action left
    assert str(err).startswith("Ada has 0 actions left this go, not 1: Ada is disabled")
    do(c, "ada: handoff bruno")


@pytest.mark.rule("VR-INJ-5")
def test_social_weapon_strikes_morale_and_mental_attack_strikes_focus():
    c = make(pc("ada", presence=2, skills={"intimidation": 2}, weapons={
        "sword": {"ev": 4}, "glare": {"ev": 4, "kind": "social", "skill": "intimidation"}}),
        npc("thug", composure=1, willpower=2, intellect=1, morale_rv=1), pc("bruno"))
    do(c, "open ada")
    events = do(c, "ada: attack thug weapon=glare dice=1,1,1")
    attack = of(events, "attack")[0]
    assert attack["skill"] == "intimidation" and attack["tn"] == 14
    assert attack["mods"] == [["Thug's poise", -1, "thug", "composure"]]
    assert attack["net"] == 3
    assert of(events, "condition")[0]["track"] == "morale"
    assert c.state.ext.ladders("thug")["morale"].highest_name() == "shaken"
    assert c.state.ext.engaged == []  # words engage nobody
    events = do(c, "ada: attack thug track=focus skill=deception ev=6 dice=1,1,1")
    attack = of(events, "attack")[0]
    assert attack["mods"] == [["Thug's resolve", -3, "thug", "willpower"]] and attack["net"] == 6
    assert c.state.ext.ladders("thug")["focus"].highest_name() == "disoriented"
    line = ruleset().describe(events[0], c.state)
    assert line is not None and "Thug's focus" in line


@pytest.mark.rule("VR-INJ-5")
def test_mental_or_social_attack_refusals_name_the_problem():
    c = make(pc("ada", weapons={"sword": {"ev": 4}}), npc("thug"),
             objects=[{"id": "door", "material": "wood"}])
    do(c, "open ada")
    assert "skill=" in str(refused(c, "ada: attack thug track=morale", "VR-INJ-5"))
    assert "close weapon" in str(refused(c, "ada: attack thug track=focus weapon=sword "
                                            "skill=deception", "VR-INJ-5"))
    refused(c, "ada: attack door track=focus skill=deception", "VR-INJ-5")
    refused(c, "ada: attack thug skill=deception", "VR-INJ-5")
    with pytest.raises(InvalidInput, match="needs skill"):
        make(pc("ada", weapons={"taunt": {"ev": 2, "kind": "social"}}))


@pytest.mark.rule("VR-ATK-2")
def test_engaged_penalty_counts_everyone_in_the_melee_the_attacker_too():
    c = make(pc("ada", zone="a", weapons={"sword": {"ev": 1}, "dagger": {"ev": 1,
                                                                         "kind": "thrown"}}),
             npc("thug", zone="a"), npc("goon", zone="a"), pc("bruno", zone="e"), **ZONES)
    do(c, "open ada")
    events = do(c, "ada: attack thug weapon=dagger dice=6,6,6")
    assert not any("engaged" in m[0] for m in of(events, "attack")[0]["mods"])  # nobody yet
    do(c, "ada: attack thug weapon=sword dice=6,6,6")  # now in close combat with Thug
    events = do(c, "ada: handoff goon", "goon: attack thug dice=6,6,6", "goon: handoff bruno",
                "bruno: handoff thug", "thug: handoff", "open ada",
                "ada: attack thug weapon=dagger dice=6,6,6")
    # the seed: a target "currently Engaged in close combat" −2, and −2 per additional one
    assert ["target engaged with 2", -4] in of(events, "attack")[0]["mods"]  # Ada and Goon


@pytest.mark.rule("VR-MOVE-5")
def test_guard_stands_at_its_way_and_leaves_it_by_moving():
    c = make(pc("ada", zone="a"), npc("guard", zone="b"), **ZONES)
    err = refused(c, "guard guard c d", "VR-MOVE-5")
    assert "is in b" in str(err)
    refused(c, "unguard guard", "VR-MOVE-5")
    do(c, "guard guard a b")
    refused(c, "guard guard a b", "VR-MOVE-5")
    do(c, "open guard", "guard: move c")
    assert c.state.ext.zones.guards == {}
    with pytest.raises(InvalidInput, match="stands in one of"):
        make(pc("ada", zone="a"), npc("guard", zone="d"), **ZONES,
             guards=[{"who": "guard", "between": ["a", "b"]}])


@pytest.mark.rule("VR-MOVE-5")
def test_a_guard_bars_one_way_only():
    """Standing in b, the guard may bar a–b or b–c, not both at once: the second post is
    refused until it is lifted, in [settings] as by 'guard'."""
    c = make(pc("ada", zone="a"), npc("guard", zone="b"), **ZONES)
    do(c, "guard guard a b")
    err = refused(c, "guard guard b c", "VR-MOVE-5")
    assert str(err) == ("Guard already guards the way a–b; a guard bars one way, the one it "
                        "stands at ('unguard guard' first) (VR-MOVE-5)")
    assert c.state.ext.zones.guards == {"a|b": ["guard"]}
    do(c, "unguard guard", "guard guard b c")
    assert c.state.ext.zones.guards == {"b|c": ["guard"]}
    with pytest.raises(InvalidInput, match=r"settings\.guards: guard is posted twice; a guard "
                       r"bars one way") as no:
        make(pc("ada", zone="a"), npc("guard", zone="b"), **ZONES,
             guards=[{"who": "guard", "between": ["a", "b"]},
                     {"who": "guard", "between": ["b", "c"]}])
    assert no.value.rule == "VR-MOVE-5"


@pytest.mark.rule("VR-OBJ-2")
def test_object_with_zero_slots_is_refused():
    c = make(pc("ada"))
    err = refused(c, "object crate material=wood slots=0", "VR-OBJ-2")
    assert "from 1 to 20, got 0" in str(err)


@pytest.mark.rule("VR-ATK-5", "VR-OBJ-4")
def test_broken_cover_no_longer_shelters():
    c = make(pc("ada", zone="a", tn={"ranged_combat": 14},
                weapons={"gun": {"ev": 12, "kind": "ranged"}}),
             npc("vex", zone="b"), objects=[{"id": "crate", "material": "cloth"}],
             cover=[{"who": "vex", "value": 5, "object": "crate"}], **ZONES)
    do(c, "open ada")
    events = do(c, "ada: attack vex dice=4,4,4")  # 12 > 14−5 but ≤ 14: strikes the cover
    assert of(events, "attack")[0]["cover_hit"]
    damaged = of(events, "object_damaged")[0]
    assert damaged["broken"] and damaged["uncovered"] == ["vex"]
    assert "vex" not in c.state.ext.cover
    line = ruleset().describe(events[-1], c.state)
    assert line is not None and "no more cover for Vex" in line


@pytest.mark.rule("VR-ROLL-2")
def test_player_log_hides_numbers_from_gm_only_stats():
    c = make(pc("ada", zone="a", tn={"close_combat": 12}, weapons={"sword": {"ev": 5}}),
             {**npc("thug", zone="a", dodge=3, rv=1, tn={"close_combat": 13},
                    weapons={"club": {"ev": 4}}),
              "gm_only": ["dodge", "tn", "rv"]}, **ZONES)
    do(c, "open ada", "ada: attack thug dice=1,1,2", "ada: handoff thug",
       "thug: attack ada dice=1,1,1")
    player = log_view(c, Viewer.of_player("ada"))
    attacks = [e["data"] for r in player for e in r["events"] if e["type"] == "attack"]
    # which of its defences counted would tell of the GM-only one: the roll names both
    assert attacks[0]["mods"] == [["Thug's close combat or dodge", None]]
    assert attacks[0]["dos"] is None
    assert "net" not in attacks[0] and attacks[0]["tn"] == 12
    assert attacks[1]["tn"] is None and attacks[1]["target_number"] is None
    text = str(player)
    assert "dodge', -3" not in text and "13" not in str(attacks[1])
    gm = log_view(c, Viewer.gm())
    gm_attacks = [e["data"] for r in gm for e in r["events"] if e["type"] == "attack"]
    assert gm_attacks[0]["mods"] == [["Thug's close combat or dodge", -3, "thug", "dodge"]]
    # Ada's player still sees what she asked for; the thug's command is the GM's business
    commands = [r["command"] for r in player]
    assert "ada: attack thug dice=1,1,2" in commands
    assert "thug: attack ada dice=1,1,1" not in commands


@pytest.mark.rule("VR-TURN-3")
def test_log_calls_the_end_of_a_round_a_turn():
    c = make(pc("ada"))
    events = do(c, "open ada", "ada: handoff")
    line = ruleset().describe(events[-1], c.state)
    assert line is not None and line.startswith("turn 1 ends")
    assert ruleset().view_ext(c.state, Viewer.gm())["lines"][0].startswith("Turn 1 over")


@pytest.mark.rule("VR-CHASE-7")
def test_tracking_skill_outside_tracking_is_refused():
    c = make(pc("ada", skills={"survival": 2}), npc("cutpurse"))
    do(c, "chase c1 hunter=ada quarry=cutpurse length=2")
    err = refused(c, "ada: run c1 skill=survival dice=1,1,1", "VR-CHASE-7")
    assert "pursuit" in str(err) and "Athletics" in str(err)


@pytest.mark.rule("VR-TURN-2", "VR-INJ-2")
def test_undo_and_redo_of_a_take_out_on_own_go():
    c = brawl()
    do(c, "ada: endure dice=1,1,1")
    before = state_to_data(c.state)
    do(c, "ada: disengage dice=6,6,6 free=1,1,1")
    after = state_to_data(c.state)
    do(c, "undo")
    assert state_to_data(c.state) == before
    do(c, "redo")
    assert state_to_data(c.state) == after
