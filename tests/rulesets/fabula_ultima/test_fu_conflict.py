"""The conflict procedure: participants, goals, initiative, alternating rounds, the end."""

from __future__ import annotations

import pytest

from fracas.engine import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from tests.rulesets.fabula_ultima.support import (
    RULESET,
    events,
    make,
    npc,
    pc,
    refused,
    round_over,
    run,
    seed_example,
    turn_log,
)


@pytest.mark.rule("FU-CON-7", "FU-CON-6", "FU-CON-5")
def test_seed_example_pc_npc_pc_npc_npc() -> None:
    c = seed_example()
    run(c, "ada: act a", "orc1: act b", "bruno: act c", "orc2: act d", "orc3: act e")
    assert turn_log(c) == ["ada", "orc1", "bruno", "orc2", "orc3"]
    kinds = [c.state.participants[p].kind for p in turn_log(c)]
    assert kinds == ["pc", "npc", "pc", "npc", "npc"]
    assert round_over(c, 1)  # the round ended; the next begins with the next turn


@pytest.mark.rule("FU-CON-6", "FU-CON-8")
def test_acting_on_the_other_sides_turn_is_refused() -> None:
    c = seed_example()
    err = refused(c, "orc1: attack ada", "FU-CON-6", NotYourTurn)
    # a refusal reads as the others do, in lower case after "refused:" or "error:"
    assert str(err).startswith("it is the turn of side pcs (")
    run(c, "bruno: act x")
    refused(c, "ada: act y", "FU-CON-6", NotYourTurn)


@pytest.mark.rule("FU-CON-6")
def test_nobody_passes() -> None:
    c = seed_example()
    refused(c, "ada: pass", "FU-CON-6", IllegalCommand)
    run(c, "ada: act x")
    refused(c, "ada: pass", "FU-CON-6", IllegalCommand)  # even with no turn left


@pytest.mark.rule("FU-CON-8")
def test_the_side_chooses_which_member_acts() -> None:
    c = seed_example()
    run(c, "bruno: act first", "orc3: act", "ada: act second")
    assert turn_log(c) == ["bruno", "orc3", "ada"]
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]["tracker"]
    assert gm["may_act"] == ["orc1", "orc2"]


@pytest.mark.rule("FU-CON-8")
def test_a_second_turn_for_someone_with_none_left_is_refused_naming_who_may_act() -> None:
    c = seed_example()
    run(c, "ada: act x", "orc1: act y")
    err = refused(c, "ada: act again", "FU-CON-8", IllegalCommand)
    assert str(err).startswith("Ada has taken their only turn this round; Bruno may act now")
    run(c, "bruno: act z")
    err = refused(c, "orc1: act again", "FU-CON-8", IllegalCommand)
    assert "Orc2, Orc3 may act now" in str(err)  # not "someone else on side foes"


@pytest.mark.rule("FU-CON-9", "FU-CON-7")
def test_a_champion_takes_several_turns_each_counted_in_the_alternation() -> None:
    c = make(pc("ada"), pc("bruno"), pc("cara"), npc("wyrm", rank="champion 3", initiative=5))
    run(c, "ada: initiative dice=5,5,5,5,5,5")
    run(c, "ada: act", "wyrm: act", "bruno: act", "wyrm: act", "cara: act", "wyrm: act")
    assert turn_log(c) == ["ada", "wyrm", "bruno", "wyrm", "cara", "wyrm"]
    assert round_over(c, 1)


@pytest.mark.rule("FU-CON-9", "FU-CON-7")
def test_an_elite_takes_two_turns_and_the_larger_side_finishes() -> None:
    c = make(pc("ada"), npc("boss", rank="elite", initiative=3), npc("orc", initiative=3))
    run(c, "ada: initiative dice=5,5")
    run(c, "ada: act", "boss: act", "boss: act")
    err = refused(c, "boss: act", "FU-CON-9", IllegalCommand)
    assert "taken all 2 turns" in str(err)
    run(c, "orc: act")
    assert turn_log(c) == ["ada", "boss", "boss", "orc"] and round_over(c, 1)


@pytest.mark.rule("FU-CON-10", "FU-CON-5")
def test_each_round_starts_with_the_side_holding_initiative() -> None:
    c = seed_example(first="foes")
    run(c, "orc1: act", "ada: act", "orc2: act", "bruno: act", "orc3: act")
    ends = [e for e in c.records[-1].events if e.type in ("round_ended", "round_started")]
    assert [(e.type, e.data["round"]) for e in ends] == [("round_ended", 1)]
    refused(c, "ada: act", "FU-CON-6", NotYourTurn)
    run(c, "orc2: act")
    assert turn_log(c)[-1] == "orc2"
    ends = [e for e in c.records[-1].events if e.type in ("round_ended", "round_started")]
    assert [(e.type, e.data["round"]) for e in ends] == [("round_started", 2)]


@pytest.mark.rule("FU-CON-5", "FU-CON-3")
def test_pcs_failing_initiative_give_their_foes_every_first_turn() -> None:
    c = seed_example(first="foes")
    ev = events(c, "initiative_checked")[0].data
    assert not ev["success"] and ev["first_side"] == "foes"
    refused(c, "ada: act", "FU-CON-6", NotYourTurn)
    lines = view(c, Viewer.gm())["conflict"]["ruleset"]["lines"]
    assert any("the PCs failed" in line for line in lines)


@pytest.mark.rule("FU-CON-3", "FU-CON-4")
def test_initiative_dl_is_the_highest_adversary_initiative() -> None:
    c = make(pc("ada"), npc("orc"), npc("boss", rank="elite", dex=10),
             npc("ally", side="pcs", initiative=20))
    run(c, "ada: initiative dice=3,4")
    ev = events(c, "initiative_checked")[0].data
    assert ev["initiatives"] == {"orc": 8, "boss": 11}  # allies are not adversaries
    assert ev["dl"] == 11 and ev["dl_from"] == "boss"


@pytest.mark.rule("FU-CON-3")
def test_each_pc_applies_its_own_initiative_modifier() -> None:
    c = make(pc("ada", init_mod=1), pc("bruno"), npc("orc", initiative=9))
    run(c, "bruno: equip armor Plate init=-2", "ada: equip shield Buckler init=-1")
    run(c, "ada: initiative dice=5,5,4,4")
    ev = events(c, "initiative_checked")[0].data
    assert ev["supporters"][0]["total"] == 8 and not ev["supporters"][0]["success"]
    assert ev["check"]["total"] == 8 and ev["own_modifier"] == 0


@pytest.mark.rule("FU-CON-3")
def test_only_a_pc_leads_and_only_once() -> None:
    c = make(pc("ada"), npc("orc"))
    refused(c, "orc: initiative", "FU-CON-3", IllegalCommand)
    refused(c, "ada: act x", "FU-CON-3", IllegalCommand)
    player = Viewer.of_player("ada")
    before = c.version
    with pytest.raises(IllegalCommand):
        c.execute("ada: initiative dl=2", player)
    assert c.version == before
    run(c, "ada: initiative dice=5,5")
    refused(c, "ada: initiative", "FU-CON-5", IllegalCommand)


@pytest.mark.rule("FU-CON-4")
def test_npc_initiative_from_stats() -> None:
    from fracas.rulesets.fabula_ultima.state import npc_initiative

    c = make(npc("s", dex=10, ins=6), npc("e", rank="elite"),
             npc("ch", rank="champion", replaces=4, dex=12, ins=10),
             npc("armored", init_mod=-1, equipment=[{"kind": "armor", "name": "Mail",
                                                     "init": -2}]),
             npc("sheet", rank="elite", initiative=15))
    ext = c.state.ext
    got = {p.id: npc_initiative(ext, p) for p in c.state.participants.values()}
    assert got == {"s": 8, "e": 10, "ch": 15, "armored": 5, "sheet": 15}


@pytest.mark.rule("FU-CON-1")
def test_extras_are_listed_but_take_no_turns() -> None:
    c = make(pc("ada"), npc("orc"), npc("mule", extra=True), npc("cook"))
    run(c, "extra cook")
    run(c, "ada: initiative dice=5,5")
    assert set(c.state.ext.order.side_of) == {"ada", "orc"}
    run(c, "ada: act")
    refused(c, "mule: act", "FU-CON-1", IllegalCommand)
    refused(c, "extra orc", "FU-CON-1", IllegalCommand)  # settled before the start
    gm = view(c, Viewer.gm())["conflict"]
    assert any("extras (no turns): Mule, Cook" in line for line in gm["ruleset"]["lines"])


@pytest.mark.rule("FU-CON-1")
def test_the_gm_marks_and_unmarks_extras_before_the_start() -> None:
    c = make(pc("ada"), npc("orc"), npc("mule", extra=True), npc("cook"))
    refused(c, "extra mule", "FU-CON-1", IllegalCommand)  # already an extra
    run(c, "extra cook", "extra mule no")
    assert c.state.ext.extras == ["cook"]
    run(c, "ada: initiative dice=5,5")
    assert set(c.state.ext.order.side_of) == {"ada", "orc", "mule"}


@pytest.mark.rule("FU-CON-2")
def test_goals_and_equipment_are_recorded_before_the_start() -> None:
    c = make(pc("ada"), npc("orc"))
    run(c, "ada: goal 'save the village'", "orc: goal 'loot'",
        "ada: equip weapon 'Iron sword' accuracy=dex+mig bonus=1 damage=6",
        "ada: equip armor Leather init=-1", "ada: equip armor Plate init=-2")
    ext = c.state.ext
    assert ext.goals == {"ada": "save the village", "orc": "loot"}
    assert [i.name for i in ext.equipment["ada"]] == ["Iron sword", "Plate"]
    ada = next(p for p in view(c, Viewer.gm())["conflict"]["participants"] if p["id"] == "ada")
    assert ada["goal"] == "save the village" and ada["init_mod"] == -2
    refused(c, "ada: equip weapon Bow accuracy=dex+str", "FU-CHK-1", InvalidInput)
    run(c, "ada: initiative dice=6,6")
    refused(c, "ada: equip armor Robe", "FU-CON-2", IllegalCommand)


@pytest.mark.rule("FU-CON-2")
def test_every_kind_of_item_is_offered_and_a_weapon_of_any_accuracy() -> None:
    c = make(pc("ada"), npc("orc"))
    offered = [lc for lc in c.legal("ada") if lc.verb == "equip"]
    assert [lc.choice("kind").fixed for lc in offered] == ["weapon", "armor", "shield",
                                                             "accessory"]
    (weapon,) = [lc for lc in offered if lc.choice("kind").fixed == "weapon"]
    assert not weapon.choice("accuracy").is_fixed  # a bow's dex+ins is the player's to give
    run(c, "ada: equip weapon Bow accuracy=dex+ins damage=8",
        "ada: equip shield Buckler init=-1", "ada: equip accessory 'Lucky charm'")
    assert [i.text() for i in c.state.ext.equipment["ada"]] == [
        "Bow (weapon, {DEX+INS}, HR+8 physical)", "Buckler (shield, initiative -1)",
        "Lucky charm (accessory)"]


@pytest.mark.rule("FU-CON-2")
def test_the_defense_an_item_gives_is_said_when_it_is_equipped() -> None:
    """The log and the sheet say what an armour adds to Defense (before: only its
    initiative, "Bronze plate (armor, initiative -2)", though Defense counted it)."""
    c = run(make(pc("ada"), npc("orc")), "ada: equip armor 'Bronze plate' init=-2 defense=1",
            "ada: equip accessory 'Warding ring' mdef=2")
    assert [e["lines"] for e in log_view(c, Viewer.of_player("ada"))[-2:]] == [
        ["Ada equips Bronze plate (armor, initiative -2, Defense +1)"],
        ["Ada equips Warding ring (accessory, Magic Defense +2)"]]


@pytest.mark.rule("FU-CON-2", "FU-RES-3")
def test_a_weapon_typed_with_a_defense_bonus_says_it_where_it_counts() -> None:
    """A weapon's own Defense, Magic Defense or initiative modifier counts as an armour's
    does, so its line says it, in the log and on the sheet (before: only its attack)."""
    c = run(make(pc("ada"), npc("orc")),
            "ada: equip weapon 'Parrying blade' accuracy=dex+mig damage=6 defense=1 init=-1")
    said = "Parrying blade (weapon, {DEX+MIG}, HR+6 physical, initiative -1, Defense +1)"
    assert log_view(c, Viewer.of_player("ada"))[-1]["lines"] == [f"Ada equips {said}"]
    ada = next(p for p in view(c, Viewer.of_player("ada"))["conflict"]["participants"]
               if p["id"] == "ada")
    assert ada["equipment"] == [said]
    assert ada["defense"] == 8 + 1 and ada["init_mod"] == -1  # DEX d8, plus the blade's


@pytest.mark.rule("FU-CON-2")
def test_an_equipment_entry_without_its_kind_is_refused_never_read_as_a_weapon() -> None:
    plate = {"name": "Plate", "init": -2, "defense": 1}  # an armor, its kind forgotten
    with pytest.raises(InvalidInput, match=r"ada: an equipment entry needs its kind \(armor, "
                                           r"shield, weapon, accessory\)") as info:
        make(pc("ada", equipment=[plate]), npc("orc"))
    assert info.value.rule == "FU-CON-2"
    c = seed_example()
    error = refused(c, "join imp side=foes stats='{\"dex\": 8, \"ins\": 8, \"mig\": 8, "
                       "\"wlp\": 8, \"hp\": 5, \"equipment\": [{\"name\": \"Plate\"}]}'",
                    "FU-CON-2", InvalidInput)
    assert "imp: an equipment entry needs its kind" in str(error)


@pytest.mark.rule("FU-CON-2")
def test_an_item_is_refused_for_what_it_would_pass_over_a_typo_or_a_weapons_value() -> None:
    """An item's mistyped key left it without that value and said nothing (an axe written
    with 'dammage' struck for no damage); a weapon's accuracy, bonus, damage or type on an
    armour, a shield or an accessory counted for nothing, silently. Each is refused naming
    the item and what is wrong: in a scenario, at a join and in a typed equip."""
    axe = {"kind": "weapon", "name": "Axe", "accuracy": "dex+mig", "dammage": 8}
    with pytest.raises(InvalidInput, match=r"ada: Axe: an item has no 'dammage'; did you "
                                           r"mean 'damage'\?") as info:
        make(pc("ada", equipment=[axe]), npc("orc"))
    assert info.value.rule == "FU-CON-2"
    mail = {"kind": "armor", "name": "Mail", "defense": 1, "damage": 2}
    with pytest.raises(InvalidInput, match=r"ada: Mail: damage is a weapon's .*: on an "
                                           r"armor it would count for nothing"):
        make(pc("ada", equipment=[mail]), npc("orc"))
    error = refused(seed_example(), "join imp side=foes stats='{\"dex\": 8, \"ins\": 8, "
                    "\"mig\": 8, \"wlp\": 8, \"hp\": 5, \"equipment\": [{\"kind\": "
                    "\"shield\", \"name\": \"Buckler\", \"type\": \"fire\"}]}'", "FU-CON-2",
                    InvalidInput)
    assert "imp: Buckler: type is a weapon's" in str(error)
    c = make(pc("ada"), npc("orc"))
    refused(c, "ada: equip accessory Ring bonus=2", "FU-CON-2", InvalidInput)
    c.execute("ada: equip armor Plate init=-2 defense=1", time="")  # as before
    c.execute("ada: equip weapon Saber accuracy=dex+mig damage=6", time="")
    assert [i.name for i in c.state.ext.equipment["ada"]] == ["Plate", "Saber"]


@pytest.mark.rule("FU-CON-2")
def test_a_goal_on_the_sheet_is_a_text_at_the_start_and_at_a_join() -> None:
    c = make(pc("ada", goal="save the village"), npc("orc"))
    assert c.state.ext.goals == {"ada": "save the village"}
    with pytest.raises(InvalidInput, match=r"ada: goal is a text such as") as info:
        make(pc("ada", goal=5), npc("orc"))
    assert info.value.rule == "FU-CON-2"
    error = refused(seed_example(), "join imp side=foes stats='{\"dex\": 8, \"ins\": 8, "
                    "\"mig\": 8, \"wlp\": 8, \"hp\": 5, \"goal\": 5}'", "FU-CON-2",
                    InvalidInput)
    assert 'imp: goal is a text such as "cross the ford", not 5' in str(error)


@pytest.mark.rule("FU-CON-11")
def test_end_records_why_and_ends_the_turns() -> None:
    c = seed_example()
    run(c, "end 'compromise: the orcs take the toll'")
    assert c.state.status == "ended"
    assert c.state.end_reason == "compromise: the orcs take the toll"
    refused(c, "ada: act", None, IllegalCommand)


@pytest.mark.rule("FU-CON-11")
@pytest.mark.parametrize("reason", ["goal achieved", "the orcs are unable or unwilling "
                                    "to continue", "the orcs surrender", "the bridge collapses"])
def test_the_gm_may_end_the_conflict_whenever_they_deem_it_appropriate(reason: str) -> None:
    c = run(seed_example(), f"end '{reason}'")  # the seed's reasons are what "generally" ends it
    assert c.state.end_reason == reason


@pytest.mark.rule("FU-CON-11")
def test_end_offers_the_seeds_reasons_the_one_that_fits_first() -> None:
    """The GM's ``end`` suggests the seed's ways a conflict ends — a goal achieved, a side
    unable or unwilling to go on, a compromise — first a side with nobody left taking part
    (before: a bare ``end REASON``); any other reason is still taken."""
    c = seed_example()

    def reason() -> tuple[object, tuple[object, ...]]:
        (end,) = [lc for lc in c.legal() if lc.verb == "end"]
        choice = end.choice("reason")
        assert choice.allowed is None and choice.required  # free text, as before
        return choice.default, choice.suggested

    seed_reasons = ("goal achieved", "foes unable or unwilling to go on",
                    "pcs unable or unwilling to go on", "compromise")
    assert reason() == ("goal achieved", seed_reasons)
    run(c, "damage orc1 99", "damage orc2 99", "out orc3 'flees'")
    default, suggested = reason()
    assert default == "foes unable or unwilling to go on" == suggested[0]
    assert sorted(suggested) == sorted(seed_reasons)
    assert "end REASON" in c.legal_commands()  # the terminal's template reads as before
    run(c, "end 'the bridge collapses'")
    assert c.state.end_reason == "the bridge collapses"


@pytest.mark.rule("FU-CON-11", "FU-CON-12")
def test_a_hidden_foe_still_fighting_keeps_its_side_from_reading_unable_to_go_on() -> None:
    """The orc down, the lurker the GM keeps hidden still takes its turns: the foes' side is
    not one with nobody left taking part, so the GM's ``end`` suggests a goal achieved first,
    as while anyone fights; with the lurker down too, the foes unable to go on. (The form is
    the GM's alone: no player reads what it suggests.)"""
    c = run(make(pc("ada"), npc("orc"), npc("lurk")), "ada: initiative dice=6,6",
            "conceal lurk", "damage orc 99")

    def suggested() -> object:
        (end,) = [lc for lc in c.legal() if lc.verb == "end"]
        return end.choice("reason").default

    assert suggested() == "goal achieved"
    assert not any(lc.verb == "end" for lc in c.legal("ada"))
    run(c, "damage lurk 99")
    assert suggested() == "foes unable or unwilling to go on"


@pytest.mark.rule("FU-CON-12")
def test_a_side_losing_members_mid_round() -> None:
    c = make(pc("ada", dex=12, mig=12), pc("bruno"), npc("orc1", hp=5), npc("orc2"),
             npc("orc3"))
    run(c, "ada: initiative dice=6,5,4,5")
    run(c, "ada: attack orc1 dice=8,9")  # 17 vs 8, 9 damage: orc1 out before its turn
    assert c.state.participants["orc1"].out == "defeated (0 HP)"
    refused(c, "orc1: act", "FU-CON-12", IllegalCommand)
    run(c, "orc2: act", "bruno: act")
    run(c, "out orc3 'surrenders'")  # the last turn of the round vanishes: the round ends
    assert [e.type for e in c.records[-1].events] == [
        "participant_out", "round_ended"]
    assert round_over(c, 1)
    refused(c, "orc3: act", "FU-CON-12", IllegalCommand)
    run(c, "ada: act")  # round 2 opens with the PCs
    assert [e.type for e in c.records[-1].events][:2] == ["round_started", "turn_started"]


@pytest.mark.rule("FU-CON-12", "FU-CON-7")
def test_the_alternation_counts_only_the_turns_left() -> None:
    c = seed_example()
    run(c, "ada: act", "orc1: act", "out bruno 'knocked out'")
    # the PCs have no turn left: the orcs take the rest of the round
    run(c, "orc2: act", "orc3: act")
    assert round_over(c, 1)
    run(c, "ada: act", "orc1: act", "orc2: act", "orc3: act")
    assert turn_log(c)[-4:] == ["ada", "orc1", "orc2", "orc3"]


@pytest.mark.rule("FU-CON-13")
def test_a_third_side_is_refused_until_assigned() -> None:
    c = make(pc("ada"), npc("orc"), npc("ghost", side="spirits"))
    err = refused(c, "ada: initiative dice=5,5", "FU-CON-13", IllegalCommand)
    assert "Ghost (side spirits)" in str(err)
    refused(c, "assign ghost spirits", "FU-CON-13", InvalidInput)
    run(c, "assign ghost foes", "ada: initiative dice=5,5")
    assert c.state.ext.order.side_of["ghost"] == "foes"
    refused(c, "join imp side=demons stats='{\"dex\":8,\"ins\":8,\"mig\":8,\"wlp\":8,"
               "\"hp\":5}'", "FU-CON-13", InvalidInput)


@pytest.mark.rule("FU-CON-13", "FU-CON-3")
def test_the_initiative_shows_no_odds_while_a_third_side_blocks_it() -> None:
    """The form showed the chance of acting first for a check the rules refuse until the
    Ghost is assigned. A third-side character hidden from Ada's player leaves her odds as
    they were (their going would tell of it); the GM, who sees it, reads none."""
    c = make(pc("ada"), npc("orc"), npc("ghost", side="spirits"))
    ada = Viewer.of_player("ada")

    def odds(viewer: Viewer) -> list[str]:
        return c.ruleset.command_odds(c.state, viewer, c.parse("ada: initiative"))

    assert odds(ada) == [] and odds(Viewer.gm()) == []
    run(c, "conceal ghost")
    assert odds(ada) != [] and odds(Viewer.gm()) == []
    run(c, "assign ghost foes")
    assert odds(Viewer.gm())[0].startswith("Ada leads the Initiative Group Check")


@pytest.mark.rule("FU-CON-3")
def test_the_set_up_line_names_who_may_lead_the_initiative_in_words() -> None:
    """Before the start the round's line names the PCs who may lead the Initiative Group
    Check, those the viewer sees (before: "a PC on pcs leads … (LEADER: initiative)", notation
    a player on a phone does not read)."""
    c = make(pc("ada"), pc("bruno"), pc("cid"), npc("orc"))

    def line(viewer: Viewer) -> str:
        return next(ln for ln in view(c, viewer)["conflict"]["ruleset"]["lines"]
                    if ln.startswith("set-up:"))

    lead = "leads the Initiative Group Check (FU-CON-3)"
    assert line(Viewer.gm()) == f"set-up: record goals, equip PCs, then Ada, Bruno or Cid {lead}"
    run(c, "conceal cid")
    assert line(Viewer.of_player("ada")).endswith(f"then Ada or Bruno {lead}")
    run(c, "conceal bruno")
    assert line(Viewer.of_player("ada")).endswith(f"then Ada {lead}")


@pytest.mark.rule("FU-CON-13")
def test_an_npc_can_change_sides_mid_conflict() -> None:
    c = seed_example()
    run(c, "assign orc3 pcs")
    run(c, "ada: act", "orc1: act", "orc3: act 'turns on its friends'", "orc2: act",
        "bruno: act")
    assert round_over(c, 1)


@pytest.mark.rule("FU-CON-14")
def test_joining_mid_round_acts_this_round_and_leaving_drops_turns() -> None:
    c = seed_example()
    run(c, "ada: act", "orc1: act")
    run(c, "join ogre side=foes stats='{\"dex\":8,\"ins\":8,\"mig\":8,\"wlp\":8,"
           "\"hp\":30,\"rank\":\"elite\"}'")
    joined = events(c)
    assert [e.type for e in joined] == ["participant_joined", "joined_turns"]
    assert joined[1].data["turns"] == 2
    run(c, "leave orc2 'runs off'")
    run(c, "bruno: act", "ogre: act", "orc3: act", "ogre: act")
    assert turn_log(c)[-4:] == ["bruno", "ogre", "orc3", "ogre"] and round_over(c, 1)
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]["tracker"]
    assert gm["sides"]["foes"]["out"] == ["orc2"]


@pytest.mark.rule("FU-CON-10", "FU-CON-11")
def test_after_the_end_the_tracker_claims_no_open_round() -> None:
    c = seed_example()
    run(c, "ada: act", "orc1: act", "bruno: act", "orc2: act", "orc3: act")
    # the round has ended; the next begins only if the conflict goes on
    t = view(c, Viewer.gm())["conflict"]["ruleset"]
    assert t["tracker"]["round_over"] and t["tracker"]["next_round"] == 2
    assert t["tracker"]["may_act"] == ["ada", "bruno"]
    assert any("round 1 has ended" in line for line in t["lines"])
    run(c, "end 'goal achieved'")
    v = view(c, Viewer.gm())["conflict"]
    assert v["round"] == 1
    t = v["ruleset"]["tracker"]
    assert t["ended"] and t["may_act"] == [] and t["next_round"] is None
    assert all(s["turns_left"] == {} for s in t["sides"].values())
    assert not any("turn" in p["summary"] for p in v["participants"])
    assert RULESET.legal_commands(c.state, None) == ["undo"]
    assert not any(e.type == "round_started" and e.data["round"] == 2
                   for r in c.records for e in r.events)


@pytest.mark.rule("FU-CON-11")
def test_ending_mid_round_leaves_no_turns_on_the_tracker() -> None:
    c = seed_example()
    run(c, "ada: act", "end 'the orcs are unwilling to go on'")
    v = view(c, Viewer.of_player("bruno"))["conflict"]
    assert v["ruleset"]["tracker"]["may_act"] == []
    assert v["ruleset"]["tracker"]["side_on_turn"] is None
    bruno = next(p for p in v["participants"] if p["id"] == "bruno")
    assert bruno["turns_left"] == 0 and "turn" not in bruno["summary"]


@pytest.mark.rule("FU-CON-14", "FU-CON-10")
def test_joining_after_the_round_ended_counts_from_the_next_round() -> None:
    c = seed_example()
    run(c, "ada: act", "orc1: act", "bruno: act", "orc2: act", "orc3: act")
    run(c, "join ogre side=foes stats='{\"dex\":8,\"ins\":8,\"mig\":8,\"wlp\":8,\"hp\":30}'")
    assert events(c, "joined_turns")[0].data["round"] == 2
    refused(c, "ogre: act", "FU-CON-6", NotYourTurn)  # the PCs open round 2
    run(c, "ada: act", "ogre: act")
    assert c.state.round == 2 and turn_log(c)[-2:] == ["ada", "ogre"]


@pytest.mark.rule("FU-CON-12", "FU-CON-10")
def test_a_defeat_by_gm_damage_ends_the_round_once() -> None:
    c = seed_example()
    run(c, "ada: act", "orc1: act", "bruno: act", "orc2: act")
    run(c, "damage orc3 50")
    assert [e.type for e in c.records[-1].events] == ["damage", "participant_out",
                                                      "round_ended"]
    run(c, "ada: act")
    assert [e.type for e in c.records[-1].events][:2] == ["round_started", "turn_started"]
    ends = [e for r in c.records for e in r.events if e.type == "round_ended"]
    assert len(ends) == 1


@pytest.mark.rule("FU-CON-6")
def test_pass_refusal_names_who_still_has_a_turn() -> None:
    c = seed_example()
    err = refused(c, "ada: pass", "FU-CON-6", IllegalCommand)
    assert "Ada, Bruno have a turn left this round on side pcs" in str(err)


@pytest.mark.rule("FU-CON-10", "FU-CON-6")
def test_the_turn_cannot_be_overridden_to_a_side_with_no_turn_left() -> None:
    c = make(pc("ada"), pc("bea"), npc("o1"))
    run(c, "ada: initiative dice=6,6,6,6", "ada: act", "o1: act")  # the foes are done
    err = refused(c, "override ruleset.tracker.side_on_turn foes", "FU-CON-10", InvalidInput)
    assert "override o1.turns_left 1" in str(err)  # how to give them one
    run(c, "override o1.turns_left 1", "override ruleset.tracker.side_on_turn foes")
    run(c, "o1: act again", "bea: act")  # nobody is left stuck


@pytest.mark.rule("FU-CON-9")
@pytest.mark.parametrize("rank", ["soldier 3", "elite 5"])
def test_a_count_beside_a_rank_that_takes_none_is_refused_not_ignored(rank: str) -> None:
    with pytest.raises(InvalidInput, match="only a champion counts") as err:
        make(pc("ada"), npc("o1", rank=rank))
    assert err.value.rule == "FU-CON-9"
    order = run(make(pc("ada"), npc("o1", rank="champion 3")), "ada: initiative dice=6,6")
    assert order.state.ext.order.turns_per_round["o1"] == 3


@pytest.mark.rule("FU-CON-9")
@pytest.mark.parametrize("stats", [{"rank": "champion"}, {"rank": "champion 0"},
                                   {"rank": "champion 21"}])
def test_a_champion_needs_the_number_of_soldiers_it_replaces(stats: dict[str, object]) -> None:
    with pytest.raises(InvalidInput, match=r"a champion (needs the number of|replaces at most "
                                           r"20) soldiers") as err:
        make(pc("ada"), npc("o1", **stats))
    assert err.value.rule == "FU-CON-9"


@pytest.mark.rule("FU-CON-9")
@pytest.mark.parametrize("stats, turns", [({"rank": "champion 1"}, 1),
                                          ({"rank": "champion", "replaces": 2}, 2)])
def test_a_champion_takes_a_turn_for_each_soldier_it_replaces(stats: dict[str, object],
                                                              turns: int) -> None:
    c = run(make(pc("ada"), npc("o1", **stats)), "ada: initiative dice=6,6")
    assert c.state.ext.order.turns_per_round["o1"] == turns


@pytest.mark.rule("FU-CON-12")
def test_who_is_in_the_conflict_is_not_set_by_hand() -> None:
    c = seed_example()
    run(c, "override orc1.hp.current 1", "ada: attack orc1 dice=6,5")  # defeated (0 HP)
    assert c.state.participants["orc1"].out
    # brought back by hand it would never get a turn again: the turn order took it out
    err = refused(c, "override orc1.out null", None, IllegalCommand)
    assert "undo it to bring them back" in str(err)
    err = refused(c, "override orc2.out fled", None, InvalidInput)
    assert "out orc2 reason=TEXT" in str(err)  # the command that clears its turns
    err = refused(c, "override orc2.present false", None, InvalidInput)
    assert "out orc2 reason=TEXT" in str(err)  # was: "orc2.present cannot hold 0"
    # an empty reason read as "not out": it brought orc1 back in by hand
    err = refused(c, "override orc1.out ''", None, IllegalCommand)
    assert "undo it to bring them back" in str(err)
    err = refused(c, "override orc1.out false", None, IllegalCommand)
    assert "undo it to bring them back" in str(err)  # was: "give a value of the same kind"
    refused(c, "override participants.zed.present false", None, InvalidInput)  # no one
    run(c, "override orc1.out 'routed, face down in the mud'")  # why, reworded
    run(c, "out orc2 reason=fled", "orc3: attack ada dice=1,2", "bruno: act")
    assert c.state.ext.round_closed  # nobody out is left holding the round open


@pytest.mark.rule("FU-CON-3", "FU-CON-10")
def test_an_override_of_the_tracker_says_what_it_takes() -> None:
    c = make(pc("ada"), npc("o1"))
    err = refused(c, "override ruleset.tracker.side_on_turn foes", "FU-CON-3", IllegalCommand)
    assert "before the Initiative check" in str(err)  # was: "ruleset has no 'tracker'"
    run(c, "ada: initiative dice=6,6")
    err = refused(c, "override ruleset.tracker.round 2", None, InvalidInput)
    assert "only the side on turn" in str(err) and "has no" not in str(err)


@pytest.mark.rule("FU-CON-3")
def test_a_players_initiative_offers_no_dl_the_gm_alone_may_set() -> None:
    from fracas.engine.projector import offered

    c = make(pc("ada"), pc("bruno"), npc("orc", initiative=3))
    (mine,) = [lc for lc in offered(c, Viewer.of_player("ada"), "ada")
               if lc.verb == "initiative"]
    assert "dl" not in [p.name for p in mine.params]
    assert [p.name for p in mine.params if not p.is_fixed] == ["supporters", "dice"]
    (gms,) = [lc for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "initiative"]
    assert "dl" in [p.name for p in gms.params]


@pytest.mark.rule("FU-CON-14")
def test_one_joining_before_the_start_takes_turns_from_round_1_in_the_log() -> None:
    """A newcomer before the start plays from the first round: the log says round 1, never
    'round 0', which no table has (a third PC brought in while goals are recorded)."""
    c = make(pc("ada"), npc("orc1"))
    run(c, "join cid kind=pc side=pcs stats='{\"dex\":8,\"ins\":8,\"mig\":8,\"wlp\":8,"
           "\"hp\":30}'")
    assert log_view(c, Viewer.of_player("ada"))[-1]["lines"][-1] == (
        "Cid takes 1 turn per round on side pcs, from round 1")


@pytest.mark.rule("FU-CON-10")
def test_between_rounds_a_card_says_the_turns_of_the_next_round() -> None:
    """Once a round has ended and the PCs may open the next, Ada's card says what the next
    round gives her (before: '0 turns left', beside her page's 'Your turn: Ada')."""
    c = seed_example()
    run(c, "ada: act", "orc1: act", "bruno: act")
    ada = next(p for p in view(c, Viewer.of_player("ada"))["conflict"]["participants"]
               if p["id"] == "ada")
    assert ada["summary"].endswith("0 turns left")  # in the round: she has acted
    run(c, "orc2: act", "orc3: act")
    v = view(c, Viewer.of_player("ada"))["conflict"]
    assert v["ruleset"]["tracker"]["may_act"] == ["ada", "bruno"]
    summaries = {p["id"]: p["summary"] for p in v["participants"]}
    assert summaries["ada"].endswith("1 turn next round")
    assert not any("0 turns left" in s for s in summaries.values())


@pytest.mark.rule("FU-CON-13")
def test_a_mistyped_side_of_the_turn_order_is_refused_at_set_up() -> None:
    # before: accepted, nobody on it, and refused only at the initiative ("the leader is a
    # PC on side heros")
    heroes = {**pc("ada"), "side": "heroes"}
    with pytest.raises(InvalidInput) as info:
        make(heroes, npc("orc", side="bandits"), settings={"pc_side": "heros"})
    assert str(info.value) == ("settings.pc_side: nobody is on side 'heros'; did you mean "
                               "'heroes'? (FU-CON-13)")
    with pytest.raises(InvalidInput, match=r"settings\.foe_side: nobody is on side 'bandit'; "
                                           r"did you mean 'bandits'"):
        make(heroes, npc("orc", side="bandits"), settings={"foe_side": "bandit"})
    # a side of its own, like none: characters may be assigned to it later (assign ID SIDE)
    named = make(heroes, npc("orc", side="bandits"), settings={"foe_side": "the crown"})
    assert named.state.ext.foe_side == "the crown"
