"""Checks: two attribute dice vs a DL, High Roll, criticals, fumbles, group checks."""

from __future__ import annotations

import pytest

from fracas.engine.commands import Command
from fracas.engine.model import Viewer
from fracas.engine.projector import offered
from fracas.engine.views import view
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.fabula_ultima.state import npc_initiative
from tests.rulesets.fabula_ultima.support import events, make, npc, pc, refused, run, seed_example


@pytest.mark.rule("FU-CHK-1")
def test_check_succeeds_at_or_above_the_dl() -> None:
    c = make(pc("ada", dex=10, ins=8))
    run(c, "ada: check dex+ins 13 bonus=1 turn=no dice=6,6")
    ev = events(c, "check")[0]
    assert ev.data["roll"]["expression"] == "{d10+d8}+1"
    assert ev.data["total"] == 13 and ev.data["success"]
    run(c, "ada: check dex+ins 13 bonus=1 turn=no dice=7,4")
    assert events(c, "check")[0].data["success"] is False  # 12 < 13


@pytest.mark.rule("FU-CHK-1")
def test_a_d7_is_refused_in_a_check_and_in_stats() -> None:
    c = make(pc("ada"))
    refused(c, "ada: check d8+d7 10 turn=no", "FU-CHK-1", InvalidInput)
    with pytest.raises(InvalidInput) as info:
        make(pc("ada", dex=7))
    assert info.value.rule == "FU-CHK-1" and "d7" in str(info.value)
    seed = seed_example()
    refused(seed, "join imp side=foes stats='{\"dex\": 7, \"ins\": 8, \"mig\": 8, "
                  "\"wlp\": 8, \"hp\": 5}'", "FU-CHK-1", InvalidInput)


@pytest.mark.rule("FU-CHK-1", "FU-CON-4")
def test_die_sizes_written_d10_on_a_sheet_are_rolled_and_shown_as_those_dice() -> None:
    c = make(pc("ada", dex="d10", ins="D8"), npc("imp", dex="d12", ins="d8"))
    run(c, "ada: check dex+ins 13 turn=no dice=10,8")  # before: a crash, on every command
    assert events(c, "check")[0].data["roll"]["expression"] == "{d10+d8}"
    assert view(c, Viewer.gm())["conflict"]["participants"][0]["dice"]["dex"] == 10
    assert npc_initiative(c.state.ext, c.state.participants["imp"]) == 10  # (d12 + d8) / 2
    seed = seed_example()
    run(seed, "join imp2 name=Imp side=foes stats='{\"dex\": \"d6\", \"ins\": \"d8\", "
              "\"mig\": \"d8\", \"wlp\": \"d8\", \"hp\": 5}'")
    assert view(seed, Viewer.gm())["conflict"]["participants"][-1]["dice"]["dex"] == 6


@pytest.mark.rule("FU-CHK-1")
@pytest.mark.parametrize("attr", ["dex", "ins", "mig", "wlp"])
@pytest.mark.parametrize("written", ["d 10", "d+10", "10", "d10 ", " d10", "d010", "dd10",
                                     "1d10", "d7", "d", ""])
def test_a_die_size_in_text_is_written_d10_exactly(attr: str, written: str) -> None:
    # before: "d 10", "d+10", "10", "d10 " and "d010" were all read as a d10
    with pytest.raises(InvalidInput) as info:
        make(pc("ada", **{attr: written}), npc("orc"))
    assert info.value.rule == "FU-CHK-1"
    assert (f'ada: {attr.upper()} must be a d6, d8, d10 or d12, written as a number (10) or '
            f'as "d10", not "{written}"') in str(info.value)


@pytest.mark.rule("FU-CHK-1")
def test_a_die_size_in_text_is_refused_at_a_join_an_override_and_a_check_too() -> None:
    c = make(pc("ada", dex="D10", ins="d8"), npc("orc"))
    error = refused(c, "join imp side=foes stats='{\"dex\": \"d+10\", \"ins\": 8, "
                       "\"mig\": 8, \"wlp\": 8, \"hp\": 5}'", "FU-CHK-1", InvalidInput)
    assert 'imp: DEX must be a d6, d8, d10 or d12, written as a number (10) or as "d10", ' \
           'not "d+10"' in str(error)
    error = refused(c, "override participants.ada.stats.dex 'd 10'", "FU-CHK-1", InvalidInput)
    assert 'not "d 10"' in str(error)
    error = refused(c, "ada: check d8+d010 10 turn=no", "FU-CHK-1", InvalidInput)
    assert 'a check die must be a d6, d8, d10 or d12, not "d010"' in str(error)


@pytest.mark.rule("FU-CHK-1")
def test_table_dice_must_fit_the_check() -> None:
    c = make(pc("ada"))
    before = c.version
    with pytest.raises(InvalidInput):
        c.execute("ada: check dex+ins 10 turn=no dice=9,1")  # a d8 shows no 9
    assert c.version == before


@pytest.mark.rule("FU-CHK-2", "FU-RES-3")
def test_high_roll_is_the_higher_die_and_sets_damage() -> None:
    c = seed_example()
    run(c, "ada: attack orc1 dice=3,7")  # unarmed: HR + 0
    att = events(c, "attack")[0]
    assert att.data["hr"] == 7
    assert events(c, "damage")[0].data["amount"] == 7


@pytest.mark.rule("FU-CHK-3")
def test_critical_is_doubles_of_six_or_more_and_always_succeeds() -> None:
    c = make(pc("ada"))
    run(c, "ada: check dex+ins 20 turn=no dice=6,6")
    ev = events(c, "check")[0].data
    assert ev["critical"] and ev["success"] and ev["total"] == 12
    run(c, "ada: check dex+ins 20 turn=no dice=5,5")
    ev = events(c, "check")[0].data
    assert not ev["critical"] and not ev["success"]


@pytest.mark.rule("FU-CHK-4")
def test_fumble_always_fails_and_gives_a_pc_a_fabula_point() -> None:
    c = make(pc("ada"), npc("orc"))
    run(c, "ada: check dex+ins 2 bonus=5 turn=no dice=1,1")
    ev = events(c, "check")[0].data
    assert ev["fumble"] and not ev["success"]
    assert c.state.ext.fp["ada"] == 4
    assert events(c, "fabula_changed")[0].data["why"] == "fumble"
    run(c, "orc: check dex+ins 2 turn=no dice=1,1")
    assert not events(c, "fabula_changed")  # NPCs have no Fabula Points


@pytest.mark.rule("FU-CHK-4")
def test_fabula_points_are_spent_but_never_below_zero() -> None:
    c = make(pc("ada", fp=1), npc("orc"))
    run(c, "ada: fabula -1 why=reroll")
    assert c.state.ext.fp["ada"] == 0
    refused(c, "ada: fabula -1", "FU-CHK-4", IllegalCommand)
    refused(c, "orc: fabula 1", "FU-CHK-4", IllegalCommand)


@pytest.mark.rule("FU-CHK-5")
def test_a_bond_towards_oneself_is_refused_and_one_towards_anyone_else_stands() -> None:
    with pytest.raises(InvalidInput, match="bruno: a character has no bond towards itself"
                       ) as info:
        make(pc("ada"), pc("bruno", bonds={"bruno": 2}), npc("orc"))
    assert info.value.rule == "FU-CHK-5"
    # a bond towards an NPC, or a friend who is not in this fight, is kept on the sheet
    c = make(pc("ada"), pc("bruno", bonds={"ada": 1, "orc": 2, "duke": 3}), npc("orc"))
    assert c.state.participants["bruno"].stats["bonds"] == {"ada": 1, "orc": 2, "duke": 3}


@pytest.mark.rule("FU-CHK-5", "FU-CON-3")
def test_group_check_adds_successes_and_the_highest_bond() -> None:
    c = make(pc("ada"), pc("bruno", bonds={"ada": 2}), pc("cara", bonds={"ada": 3}),
             pc("dan", bonds={"ada": 1}), npc("orc", initiative=14))
    # bruno 5+5=10 succeeds (bond 2), cara 2+3 fails (bond 3 ignored), dan 6+6 critical
    # (a success, bond 1); ada 4+5 = 9 + 2 successes + bond 2 = 13 < 14
    run(c, "ada: initiative dice=5,5,2,3,6,6,4,5")
    ev = events(c, "initiative_checked")[0].data
    assert [s["success"] for s in ev["supporters"]] == [True, False, True]
    assert all(s["dl"] == 10 for s in ev["supporters"])
    assert ev["support"] == 2 and ev["bond"] == 2
    assert ev["check"]["total"] == 13 and not ev["success"]
    assert ev["first_side"] == "foes"


@pytest.mark.rule("FU-CHK-5", "FU-CHK-4")
def test_group_check_supporter_fumble_fails_and_earns_a_point() -> None:
    c = make(pc("ada"), pc("bruno"), npc("orc", initiative=5))
    run(c, "ada: initiative dice=1,1,3,3")
    ev = events(c, "initiative_checked")[0].data
    assert ev["supporters"][0]["fumble"] and ev["support"] == 0
    assert c.state.ext.fp["bruno"] == 4
    assert ev["success"]  # 6 vs 5


@pytest.mark.rule("FU-CHK-5")
def test_supporters_can_be_chosen_and_dice_count_checked() -> None:
    c = make(pc("ada"), pc("bruno"), pc("cara"), npc("orc"))
    refused(c, "ada: initiative supporters=bruno dice=4,4,4,4,4,4", "FU-CHK-5", InvalidInput)
    # the supporters by the names the table reads, not their ids (before: "(bruno, cara)")
    error = refused(c, "ada: initiative dice=4,4,4", "FU-CHK-5", InvalidInput)
    assert str(error).startswith("initiative needs 6 dice: two for each supporter (Bruno, "
                                 "Cara) in order, then the leader's two; got 3")
    refused(c, "ada: initiative supporters=orc", "FU-CHK-5", IllegalCommand)
    run(c, "ada: initiative supporters=bruno dice=5,5,4,4")
    assert len(events(c, "initiative_checked")[0].data["supporters"]) == 1


@pytest.mark.rule("FU-CHK-1")
@pytest.mark.parametrize("command", ["ada: check dex+ins 10 dice=9,1",
                                     "ada: check dex+ins 10 dice=4",
                                     "ada: attack orc1 dice=0,3"])
def test_table_dice_that_do_not_fit_are_refused_with_the_rule(command: str) -> None:
    c = seed_example()
    err = refused(c, command, "FU-CHK-1", InvalidInput)
    assert "Ada's check is 2 dice ({d8+d8}), but " in str(err)


@pytest.mark.rule("FU-CHK-1", "FU-CHK-5")
def test_initiative_table_dice_name_whose_pair_is_wrong() -> None:
    c = make(pc("ada"), pc("bruno", dex=6), npc("orc"))
    err = refused(c, "ada: initiative dice=7,1,4,4", "FU-CHK-1", InvalidInput)
    assert str(err) == "Bruno's check is 2 dice ({d6+d8}), but die 1 shows 7: a d6 shows 1 to 6 " \
                       "(FU-CHK-1)"


@pytest.mark.rule("FU-CHK-1")
def test_table_dice_that_do_not_fit_say_the_check_once_and_what_was_typed() -> None:
    """The check's dice are said once (it read "… rolls {d8+d10}: {d8+d10} needs 2 dice, got
    3: [4, 4, 4]"), then what is wrong: how many were typed in, or which die cannot show it."""
    c = make(pc("ada", dex=8, ins=10), npc("orc"))
    c.execute("ada: initiative dice=6,6")
    err = refused(c, "ada: check dex+ins 10 bonus=1 dice=4,4,4", "FU-CHK-1", InvalidInput)
    assert str(err) == "Ada's check is 2 dice ({d8+d10}+1), but 3 were typed in: [4, 4, 4] " \
                       "(FU-CHK-1)"
    err = refused(c, "ada: check dex+ins 10 dice=4", "FU-CHK-1", InvalidInput)
    assert str(err) == "Ada's check is 2 dice ({d8+d10}), but 1 was typed in: [4] (FU-CHK-1)"
    err = refused(c, "ada: check dex+ins 10 dice=8,11", "FU-CHK-1", InvalidInput)
    assert str(err) == "Ada's check is 2 dice ({d8+d10}), but die 2 shows 11: a d10 shows 1 to " \
                       "10 (FU-CHK-1)"


@pytest.mark.rule("FU-CON-3")
def test_a_negative_initiative_dl_is_refused() -> None:
    c = make(pc("ada"), npc("orc"))
    refused(c, "ada: initiative dl=-5 dice=3,3", "FU-CON-3", InvalidInput)


@pytest.mark.rule("FU-CHK-3", "FU-CHK-4", "FU-CON-5")
def test_the_leaders_critical_wins_and_fumble_loses_the_initiative() -> None:
    crit = make(pc("ada", dex=6, ins=6), npc("boss", initiative=20))
    run(crit, "ada: initiative dice=6,6")  # 12 < 20, but a critical succeeds
    assert events(crit, "initiative_checked")[0].data["first_side"] == "pcs"
    fumble = make(pc("ada"), npc("orc", initiative=1))
    run(fumble, "ada: initiative dice=1,1")  # 2 >= 1, but a fumble fails
    ev = events(fumble, "initiative_checked")[0].data
    assert not ev["success"] and ev["first_side"] == "foes"
    assert fumble.state.ext.fp["ada"] == 4


@pytest.mark.rule("FU-CHK-5", "FU-CON-3")
def test_a_pc_who_has_left_supports_no_initiative_check() -> None:
    c = make(pc("ada"), pc("bruno"), pc("cleo"), npc("orc"))
    run(c, "leave cleo")
    assert [lc.choice("supporters").allowed for lc in c.legal(None)
            if lc.verb == "initiative" and lc.actor == "ada"] == [("bruno",)]
    refused(c, "ada: initiative supporters=cleo", "FU-CON-12", IllegalCommand)
    run(c, "ada: initiative dice=5,5,4,4")  # two dice for Bruno, two for Ada: Cleo is gone
    assert [s["participant"] for s in events(c, "initiative_checked")[0].data["supporters"]] \
        == ["bruno"]


@pytest.mark.rule("FU-CHK-1", "FU-CON-8")
def test_off_its_turn_a_character_is_offered_a_check_that_takes_no_turn() -> None:
    c = seed_example("foes")  # the foes' side opens: ada may not take a turn now
    (check,) = [lc for lc in c.legal("ada") if lc.verb == "check"]
    assert check.choice("turn").fixed is False
    assert check.to_data()["label"] == "check outside the turn"  # the control's title
    cmd = check.command(attributes="dex+ins", dl=10)
    record = c.execute({**cmd, "args": {**cmd["args"], "dice": [5, 5]}}, time="")
    (done,) = [e for e in record.events if e.type == "check"]
    assert done.data["success"]


@pytest.mark.rule("FU-CHK-4", "FU-CON-12")
def test_gm_only_fabula_points_are_offered_to_spend_until_the_character_is_out() -> None:
    """Where its player may not know its Fabula Points, the spending of one is offered with
    none left (the offer would count them), but not once the character is out."""
    ada = {**pc("ada", fp=0), "gm_only": ["fp"]}
    c = run(make(ada, npc("orc")), "ada: initiative dice=6,6")
    mine = Viewer.of_player("ada")
    assert [lc.verb for lc in offered(c, mine, "ada")].count("fabula") == 1
    run(c, "out ada")
    assert not any(lc.verb == "fabula" for lc in offered(c, mine, "ada"))


@pytest.mark.rule("FU-CHK-4")
def test_a_pc_is_offered_to_spend_one_fabula_point() -> None:
    c = seed_example()
    before = c.state.ext.fp["ada"]
    (spend,) = [lc for lc in c.legal("ada") if lc.verb == "fabula"]
    assert spend.choice("delta").fixed == -1
    assert spend.to_data()["label"] == "spend a Fabula Point"
    c.execute(spend.command(why="a lucky break"), time="")
    assert c.state.ext.fp["ada"] == before - 1


@pytest.mark.rule("FU-CHK-1", "FU-RES-3")
def test_an_attack_takes_a_situational_bonus_besides_its_weapons() -> None:
    # Ada's 3 + 4 = 7 misses the orc's Defense 8 as it stands; +1 from the situation hits
    # (before: an attack took no bonus=, only a check or a spell did)
    def attack(extra: str) -> dict[str, object]:
        c = run(make(pc("ada"), npc("orc", defense=8)), "ada: initiative dice=6,6",
                f"ada: attack orc{extra} dice=3,4")
        return dict(events(c, "attack")[0].data)
    plain, helped = attack(""), attack(" bonus=1")
    assert (plain["total"], plain["hit"]) == (7, False)
    assert (helped["total"], helped["hit"]) == (8, True)
    assert "+1" in str(helped["text"])
    hindered = attack(" bonus=-2")
    assert hindered["total"] == 5 and not hindered["hit"]
    # the odds of the pending roll are the weapon's alone: an attack with a bonus shows none
    c = run(make(pc("ada"), npc("orc", defense=8)), "ada: initiative dice=6,6")
    assert c.ruleset.command_odds(c.state, Viewer.gm(),
                                  Command("attack", "ada", {"target": "orc", "bonus": 1})) == []
    assert c.ruleset.command_odds(c.state, Viewer.gm(),
                                  Command("attack", "ada", {"target": "orc"})) != []
