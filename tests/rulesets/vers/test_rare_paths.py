"""Rare turn paths and defaults of VERS that a table meets once a session: the one acting
leaves mid-go, the last to act hands off, a disabled character gets the GM's hand-off, guards
of one's own side or taken out, large objects used as weapons."""

from __future__ import annotations

import pytest

from tests.support.reading import last_sentences

from .helpers import ZONES, do, make, npc, of, pc, refused


def pair():
    return make(pc("ada"), pc("bruno"), npc("thug"))


@pytest.mark.rule("VR-TURN-1", "VR-TURN-2")
def test_after_the_one_acting_leaves_mid_go_the_gm_opens_the_next():
    c = pair()
    do(c, "open ada", 'leave ada "runs off"')
    assert c.state.ext.turns.current is None and c.state.ext.turns.round_opened
    events = do(c, "open bruno")
    started = of(events, "turn_started")
    assert started == [{"participant": "bruno", "actions": 2, "resumed": True}]
    assert not of(events, "round_started")  # the same turn goes on
    assert c.state.ext.turns.current == "bruno" and c.state.round == 1


@pytest.mark.rule("VR-TURN-2")
def test_after_the_one_acting_leaves_the_gm_hands_off_but_not_to_one_who_has_gone():
    c = pair()
    do(c, "open ada", "ada: handoff bruno", 'leave bruno "runs off"')
    refused(c, "handoff ada", "VR-TURN-2")  # ada has gone this turn
    do(c, "handoff thug")
    assert c.state.ext.turns.current == "thug" and c.state.ext.turns.actions_left == 2


@pytest.mark.rule("VR-TURN-2")
def test_reopening_with_someone_who_has_gone_while_others_wait_is_refused():
    c = pair()
    do(c, "open ada", "ada: handoff bruno", 'leave bruno "runs off"')
    err = refused(c, "open ada", "VR-TURN-2")
    assert "already gone" in str(err)


@pytest.mark.rule("VR-TURN-3")
def test_by_default_the_last_to_act_may_not_hand_off_to_someone_who_has_gone():
    c = make(pc("ada"), pc("bruno"))
    do(c, "open ada", "ada: handoff bruno")
    err = refused(c, "bruno: handoff ada", "VR-TURN-3")
    assert "everyone has gone this turn; end Bruno's go with 'bruno: handoff'" in str(err)
    events = do(c, "bruno: handoff")
    assert [e.type for e in events] == ["turn_ended", "round_ended"]


@pytest.mark.rule("VR-TURN-4")
def test_a_gm_hand_off_to_a_disabled_character_gives_it_one_action():
    c = make(pc("ada"), npc("thug", tn={"discipline": 18}), pc("bruno"))
    do(c, "harm thug 9", "thug: endure dice=1,1,1", "open ada", 'leave ada "flees"')
    do(c, "handoff thug")
    assert c.state.ext.turns.actions_left == 1
    do(c, "thug: endure dice=1,1,1", "thug: handoff bruno")
    assert c.state.ext.turns.actions_left == 2  # bruno is not disabled


def guarded(side: str = "npcs"):
    ada = pc("ada", zone="a", tn={"athletics": 12})
    guard = npc("guard", zone="c", tn={"close_combat": 12}, skills={"close_combat": 3})
    return make(ada, {**guard, "side": side}, **ZONES)


@pytest.mark.rule("VR-MOVE-5")
def test_a_guard_of_ones_own_side_lets_one_pass():
    c = guarded(side="pcs")
    do(c, "guard guard b c", "open ada", "ada: move b")
    err = refused(c, "ada: slip c dice=1,1,1", "VR-MOVE-5")
    assert "nobody guards" in str(err)
    do(c, "ada: move c")
    assert c.state.ext.zones.zone_of("ada") == "c"


@pytest.mark.rule("VR-MOVE-5")
def test_a_guard_taken_out_no_longer_blocks_the_way():
    c = guarded()
    do(c, "guard guard b c", "open ada", "ada: move b")
    refused(c, "ada: move c", "VR-MOVE-5")
    do(c, 'out guard "knocked cold"', "ada: move c")
    assert c.state.ext.zones.zone_of("ada") == "c"


@pytest.mark.rule("VR-MOVE-5")
def test_a_concealed_guard_bars_no_way_to_a_player_until_it_is_revealed():
    c = guarded()
    do(c, "guard guard b c", "conceal guard", "open ada", "ada: move b")
    # before: only 'slip' was offered, and 'move' refused citing the guard no one could see
    assert "ada: move c" in c.legal_commands("ada")
    assert not any("slip" in t for t in c.legal_commands("ada"))
    do(c, "undo", "reveal guard", "ada: move b")
    refused(c, "ada: move c", "VR-MOVE-5")


@pytest.mark.rule("VR-OBJ-2", "VR-OBJ-4")
def test_a_large_weapons_penalty_counts_once_a_level_not_once_a_condition():
    objects = [{"id": "greatblade", "material": "iron", "slots": 2}]
    ada = pc("ada", tn={"close_combat": 14},
             weapons={"greatsword": {"ev": 8, "object": "greatblade"}, "hammer": {"ev": 10}})
    c = make(ada, npc("thug"), objects=objects)
    do(c, "open ada", "ada: attack greatblade weapon=hammer dice=1,1,1",
       "ada: attack greatblade weapon=hammer dice=1,1,1")  # 10 − 5 = 5: damaged, twice
    assert c.state.ext.objects["greatblade"].ladder.count(1) == 2
    do(c, "ada: handoff thug", "thug: handoff", "open ada")
    att = of(do(c, "ada: attack thug weapon=greatsword dice=1,1,1"), "attack")[0]
    assert ["greatsword damaged", -1] in att["mods"]


@pytest.mark.rule("VR-MOVE-2")
def test_a_failed_dash_that_takes_both_actions_spends_two():
    c = make(pc("ada", zone="a", tn={"athletics": 10}), npc("thug", zone="e"), **ZONES)
    do(c, "open ada")
    moved = of(do(c, "ada: move c onfail=both dice=6,6,6"), "moved")[0]
    assert (moved["result"], moved["to"], moved["spend"]) == ("both actions", "c", 2)
    assert c.state.ext.turns.actions_left == 0


@pytest.mark.rule("VR-MOVE-5")
def test_slipping_past_a_guard_goes_one_zone_only():
    c = guarded()
    do(c, "place guard b", "guard guard a b", "open ada")
    err = refused(c, "ada: slip c dice=1,1,1", "VR-MOVE-5")
    assert "this move covers at most 1" in str(err)
    slipped = of(do(c, "ada: slip b dice=1,1,1"), "slipped")[0]
    # its Close Combat ranks, with the stat they come from
    assert slipped["check"]["mods"] == [["guarded by Guard", -3, "guard", "skills"]]
    assert c.state.ext.zones.zone_of("ada") == "b"


@pytest.mark.rule("VR-TURN-1", "VR-TURN-3")
def test_the_opener_the_last_to_act_chooses_opens_the_next_turn():
    c = make(pc("ada"), pc("bruno"), last_chooses_opener=True)
    do(c, "open ada", "ada: handoff bruno", "bruno: handoff ada")
    assert last_sentences(c)[-1] == "Ada opens the turn (2 actions)"
    assert c.state.round == 2 and c.state.ext.turns.round_opened
    err = refused(c, "open bruno", "VR-TURN-1")  # Ada's go is under way
    assert "Ada" in str(err)
    do(c, "ada: handoff bruno", "bruno: handoff")
    assert c.state.ext.turns.openers == ["ada", "ada"]


@pytest.mark.rule("VR-MOVE-4")
def test_disengaging_from_three_opponents_costs_two_for_each_beyond_the_first():
    c = make(pc("ada", zone="a", tn={"athletics": 12, "close_combat": 12}),
             npc("thug", zone="a"), npc("rat", zone="a"), npc("bat", zone="a"), **ZONES)
    do(c, "open ada", "ada: attack thug dice=6,6,6", "ada: handoff rat",
       "rat: attack ada dice=6,6,6", "rat: handoff bat", "bat: attack ada dice=6,6,6",
       "bat: handoff thug", "thug: handoff", "open ada")
    dis = of(do(c, "ada: disengage dice=3,3,2"), "disengaged")[0]
    assert dis["check"]["mods"] == [["for 2 more opponents", -4]]
    assert dis["check"]["success"]  # 8 ≤ 12 − 4
    said = last_sentences(c)[0]
    assert "Athletics TN 12 (−4 for 2 more opponents: −4) → 8: rolled [3, 3, 2] = 8" in said


def broken_club():
    """Ada engaged with a thug whose club (an object) she has just broken."""
    c = make(pc("ada", zone="a", tn={"close_combat": 12, "athletics": 3},
                weapons={"maul": {"ev": 20}}),
             npc("thug", zone="a", tn={"close_combat": 12},
                 weapons={"club": {"ev": 3, "object": "club"}}),
             zones=["a", "b"], links=[["a", "b"]], objects=[{"id": "club", "material": "wood"}])
    do(c, "open ada", "ada: attack thug weapon=maul dice=6,6,6",
       "ada: attack club weapon=maul dice=1,1,1")
    assert c.state.ext.objects["club"].broken
    return c


@pytest.mark.rule("VR-MOVE-4", "VR-OBJ-4")
def test_a_failed_disengage_draws_a_free_attack_with_bare_hands_when_the_weapon_is_broken():
    c = broken_club()
    do(c, "ada: handoff thug", "thug: handoff", "open ada")
    events = do(c, "ada: disengage dice=6,6,6 free=1,1,1")  # was refused: the club is broken
    assert not of(events, "disengaged")[0]["check"]["success"]
    (blow,) = of(events, "attack")
    assert blow["weapon"] == "unarmed" and blow["ev"] == 0


@pytest.mark.rule("VR-MOVE-5", "VR-OBJ-4")
def test_a_guard_whose_weapon_is_broken_strikes_with_bare_hands():
    c = broken_club()
    do(c, "guard thug a b", "ada: handoff thug", "thug: handoff", "open ada")
    do(c, "join ada2 kind=pc side=pcs stats='{\"zone\": \"a\"}'", "ada: handoff ada2")
    events = do(c, "ada2: slip b dice=6,6,6")
    blow = of(events, "condition")[0]
    assert blow["ev"] == 0 and "unarmed" in blow["why"]  # not the club's EV 3
