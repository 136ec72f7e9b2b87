"""Structured legal commands in VERS (DESIGN.md principle 5): what a character or the GM is
offered now is what the rules allow now, with the exact values they allow."""

from __future__ import annotations

import pytest

from fracas.errors import FracasError

from .helpers import ZONES, do, make, npc, of, pc, refused
from .test_chases import runners
from .test_objects import smith


def verbs(c, actor):
    """The verbs offered to ``actor`` (None: the GM) now."""
    return [lc.verb for lc in c.legal(actor)]


def chase_rolls(c):
    """The chase rolls offered to ada."""
    return [lc.verb for lc in c.legal("ada") if lc.verb in ("run", "interpose")]


@pytest.mark.rule("VR-CHASE-8")
def test_a_character_out_of_the_conflict_is_offered_no_chase_roll():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    assert chase_rolls(c) == ["run"]
    do(c, "out ada")  # the chase stays on the GM's table
    assert chase_rolls(c) == []
    with pytest.raises(FracasError):
        c.execute("ada: run c1 dice=1,1,1")


@pytest.mark.rule("VR-CHASE-4")
def test_the_chase_roll_offered_is_a_run_except_at_position_1_in_pursuit():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")  # pursuit at 3 of 5
    assert chase_rolls(c) == ["run"]
    do(c, "ada: run c1 dice=1,1,1", "ada: run c1 dice=1,1,1")  # 3 → 2 → 1
    assert c.state.ext.chases["c1"].track.position == 1
    assert chase_rolls(c) == ["interpose"]


def stage_turns(c):
    """The GM's offers that turn a chase's stage, as text."""
    return [lc.text() for lc in c.legal(None) if lc.verb in ("track", "pursue")]


@pytest.mark.rule("VR-CHASE-1", "VR-CHASE-4", "VR-CHASE-7")
def test_the_gm_is_offered_every_stage_turn_the_rules_allow_now():
    """The seed's stages "morph and change one into another depending on events": 'track'
    mid-pursuit and 'pursue' mid-tracking were accepted but offered only at the end of the
    scale, so the GM's screen had no control for them. Each offer is given as it is taken."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3")  # mid-pursuit
    assert stage_turns(c) == ["track c1"]
    do(c, "track c1")  # the quarry lost in the crowd
    assert stage_turns(c) == ["pursue c1"]
    do(c, "pursue c1 length=2", "ada: run c1 dice=1,1,1", "ada: run c1 dice=1,1,1")
    assert c.state.ext.chases["c1"].track.position == 1  # an interpose is due: still pursuit
    assert stage_turns(c) == ["track c1"]
    do(c, "ada: interpose c1 dice=1,1,1")  # captured: the chase is over
    assert stage_turns(c) == []
    race = runners()
    do(race, "chase c1 hunter=ada quarry=thief prize='the idol'")
    assert stage_turns(race) == []  # a race for a prize has no pursuit to lose sight in
    refused(race, "track c1", "VR-CHASE-4")


@pytest.mark.rule("VR-CHASE-8")
def test_a_chase_roll_in_a_round_needs_an_action_left():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2", "open ada", "ada: run c1 dice=1,1,1")
    assert "run" in verbs(c, "ada")
    do(c, "ada: run c1 dice=6,6,6")  # the second action
    assert c.state.ext.turns.actions_left == 0
    assert "run" not in verbs(c, "ada") and "interpose" not in verbs(c, "ada")
    refused(c, "ada: run c1 dice=1,1,1", "VR-TURN-4")


@pytest.mark.rule("VR-ATK-5")
def test_the_gm_is_offered_the_three_cover_values():
    c = make(pc("ada"), npc("thug"))
    (cover,) = [lc for lc in c.legal(None) if lc.verb == "cover"]
    assert cover.choice("value").allowed == (1, 3, 5)
    for value in cover.choice("value").allowed:
        do(c, f"cover thug {value}")
        assert c.state.ext.cover["thug"] == -value


@pytest.mark.rule("VR-OBJ-1", "VR-ATK-5")
def test_an_object_and_cover_are_offered_from_the_lists_of_materials_zones_and_objects():
    """The GM picks an object's material from the seed's table, its zone from the map, and
    cover's object from those there are; before, all three were typed, and a GM who did not
    know 'iron' or the zone's id had to guess."""
    c = make(pc("ada", zone="a"), npc("thug", zone="b"), **ZONES)
    (obj,) = [lc for lc in c.legal(None) if lc.verb == "object"]
    data = {p["name"]: p for p in obj.to_data()["params"]}
    assert data["material"]["allowed"][:3] == ["butter", "flesh", "cloth"]
    assert "iron" in data["material"]["allowed"] and not data["material"]["required"]
    assert data["zone"]["allowed"] == ["a", "b", "c", "d", "e"]
    do(c, obj.command(id="desk", material="iron", zone="b"))
    (cover,) = [lc for lc in c.legal(None) if lc.verb == "cover"]
    assert cover.choice("object").allowed == ("desk",)
    do(c, cover.command(who="thug", value=3, object="desk"))
    assert c.state.ext.cover_object["thug"] == "desk"


@pytest.mark.rule("VR-OBJ-5")
def test_repair_is_offered_for_a_damaged_object_and_not_a_broken_one():
    c = smith()
    do(c, "open ada", "ada: attack door weapon=hammer dice=1,1,1")  # tattered
    repairs = [lc.choice("id").fixed for lc in c.legal("ada") if lc.verb == "repair"]
    assert repairs == ["door"]
    do(c, "ada: attack door weapon=hammer dice=1,1,1")  # broken
    do(c, "ada: handoff thug", "thug: handoff", "open ada")
    assert [lc for lc in c.legal("ada") if lc.verb == "repair"] == []


@pytest.mark.rule("VR-OBJ-5")
def test_the_gm_is_offered_to_restore_each_object_that_holds_a_condition():
    """The refusal of a broken door's repair says the GM may restore it: the GM's screen
    offers it (before, only the text notation did), for each object with a condition."""
    c = smith()
    assert "restore" not in verbs(c, None)  # all whole
    do(c, "open ada", "ada: attack door weapon=hammer dice=1,1,1",
       "ada: attack door weapon=hammer dice=1,1,1", "ada: handoff thug", "thug: handoff")
    do(c, "open ada", "ada: attack blade weapon=hammer dice=1,1,1")  # damaged
    restores = [lc for lc in c.legal(None) if lc.verb == "restore"]
    assert [lc.choice("id").fixed for lc in restores] == ["blade", "door"]
    assert "restore door" in str(refused(c, "ada: repair door", "VR-OBJ-5"))
    do(c, restores[1].command())
    assert [lc.choice("id").fixed for lc in c.legal(None) if lc.verb == "restore"] == ["blade"]


@pytest.mark.rule("VR-CHASE-2")
def test_the_gm_is_offered_the_pursuit_lengths_the_rules_allow():
    c = make(pc("ada"), npc("thug"))
    (chase,) = [lc for lc in c.legal(None) if lc.verb == "chase"]
    assert chase.choice("length").allowed == (2, 3, 4, 5, 6)


@pytest.mark.rule("VR-CHASE-2", "VR-CHASE-7")
def test_a_stage_turn_offers_the_lengths_the_rules_allow_and_says_the_chases_own():
    """The new scale of a 'track' or 'pursue' is 2 to 6 long, as a chase's (before: any number,
    its field empty with nothing said of what an empty one keeps)."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3")
    (track,) = [lc for lc in c.legal(None) if lc.verb == "track"]
    assert (track.choice("length").allowed, track.choice("length").default) == (
        (2, 3, 4, 5, 6), 3)
    do(c, "track c1")
    assert c.state.ext.chases["c1"].track.length == 7  # the chase's own length, 3


@pytest.mark.rule("VR-CHASE-5")
def test_no_tactics_are_set_on_a_chase_waiting_at_an_end_of_its_scale():
    """At the top of the pursuit (or contact at 1 of a tracking) the next roll comes in a new
    stage, and tactics lapse when the stage turns: they were offered and taken, to lapse at
    once. Now the GM is offered 'abandon' and the stage's turn, not tactics."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=4", "ada: run c1 dice=6,6,6")
    assert "tactics" not in verbs(c, None) and "abandon" in verbs(c, None)
    err = refused(c, "tactics c1 -2 why='a crowded street'", "VR-CHASE-5")
    assert "waits at stage escaped for the GM's 'track c1'" in str(err)
    do(c, "track c1", "tactics c1 -2 why='rain washes the trail'")
    do(c, "ada: run c1 dice=1,1,1", "ada: run c1 dice=1,1,1")  # contact
    refused(c, "tactics c1 1", "VR-CHASE-5")


@pytest.mark.rule("VR-MOVE-2")
def test_a_dash_may_take_both_actions_on_a_failure_only_while_both_are_left():
    c = make(pc("ada", zone="a"), npc("thug", zone="e"), **ZONES)

    def onfail(to: str) -> tuple[str, ...]:
        (dash,) = [lc for lc in c.legal("ada")
                   if lc.verb == "move" and lc.choice("to").fixed == to]
        return tuple(dash.choice("onfail").allowed or ())

    do(c, "open ada")
    assert onfail("c") == ("short", "both")
    do(c, "ada: move b")
    assert onfail("d") == ("short",)


@pytest.mark.rule("VR-MOVE-2")
def test_a_step_to_the_next_zone_is_offered_with_nothing_to_roll():
    """A step into the next zone takes no roll: its offer has no dice and no 'onfail' to
    fill in (a page would ask for them); a dash two zones off has both."""
    c = make(pc("ada", zone="a"), npc("thug", zone="e"), **ZONES)
    do(c, "open ada")
    moves = {lc.choice("to").fixed: [p.name for p in lc.params]
             for lc in c.legal("ada") if lc.verb == "move"}
    assert moves == {"b": ["to"], "c": ["to", "dice", "onfail"]}
    do(c, "ada: move b")  # and the step offered is taken as offered
    assert c.state.ext.zones.zone_of("ada") == "b"


@pytest.mark.rule("VR-ROLL-2", "VR-INJ-5")
def test_a_physical_attack_is_offered_without_a_mental_or_social_attacks_fields():
    """A sword's blow has nothing but its dice to fill in: no track (the weapon's kind sets
    it), no skill and no EV (those of a mental or social attack)."""
    taunt = {"ev": 2, "kind": "social", "skill": "intimidation"}
    c = make(pc("ada", zone="a", weapons={"sword": {"ev": 3}, "taunt": taunt}),
             npc("thug", zone="a"), **ZONES)
    do(c, "open ada")
    params = {lc.choice("weapon").fixed: [p.name for p in lc.params] for lc in c.legal("ada")
              if lc.verb == "attack" and lc.choice("target").fixed == "thug"}
    assert params["sword"] == ["target", "weapon", "dice"]
    assert params["taunt"] == ["target", "weapon", "track", "skill", "ev", "dice"]
    (taunt_at_thug,) = [lc for lc in c.legal("ada") if lc.verb == "attack"
                        and lc.choice("weapon").fixed == "taunt"
                        and lc.choice("target").fixed == "thug"]
    assert taunt_at_thug.choice("track").allowed == ("morale",)  # the one its kind strikes
    c.prepare(taunt_at_thug.command(track="morale", dice=[3, 3, 3]), time="")  # not refused
    do(c, "ada: attack thug weapon=sword dice=6,6,6")  # and is taken as offered


def _run_skill(c, viewer):
    """The ``skill`` of ada's tracking roll as the server offers it to ``viewer``."""
    from fracas.server.offers import structured
    from fracas.server.projection import Live

    offer = structured(Live(c, viewer), "ada")["ada"]
    return next({p["name"]: p for p in lc["params"]} for lc in offer
                if lc["verb"] == "run")["skill"]


@pytest.mark.rule("VR-CHASE-7")
@pytest.mark.parametrize("gm_only", [(), ("skills",)])
def test_a_tracking_rolls_empty_skill_says_the_better_one_to_who_may_know(gm_only):
    """A hunter's tracking skill left empty is the better of Survival and Investigation: the
    offer says so in its help and names the one the roll takes (before: a bare "—"), except
    to a player who may not know the sheet's numbers that choose it (GM-only skills), who
    reads the help alone."""
    from fracas.engine.model import Viewer

    ada = pc("ada", intuition=1, intellect=1, skills={"athletics": 2, "survival": 1,
                                                      "investigation": 3})
    ada["gm_only"] = list(gm_only)
    c = make(ada, npc("thief", skills={"stealth": 2}))
    do(c, "chase c1 hunter=ada quarry=thief length=2 stage=tracking")
    gm, alice = _run_skill(c, Viewer.gm()), _run_skill(c, Viewer.named("ada"))
    for skill in (gm, alice):
        assert "the better of Survival and Investigation" in skill["help"]
    assert gm["default"] == "investigation"
    assert alice["default"] == (None if gm_only else "investigation")
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert roll["check"]["skill"] == "investigation"  # as the offer said
