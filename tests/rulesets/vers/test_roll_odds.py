"""The odds of every roll a VERS character makes besides attacks and pursuits: a disengage,
a slip past guards, a two-zone dash, the Discipline roll, a recovery, a repair, and a
tracking roll's chance of contact — each the chance of what it is rolled for, with its rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fracas.engine import Viewer
from fracas.rulesets.vers.odds import answer

from .helpers import do, make, npc, pc

ALICE, BOB, GM = Viewer.of_player("ada"), Viewer.of_player("bea"), Viewer.gm()


def _chance(target: int) -> str:
    """The chance of 3d6 ≤ ``target`` as ``fracas odds '3d6 vs …'`` gives it, in percent."""
    return f"{float(dict(answer(f'3d6 vs {target}').figures)['P(success)']):.0%}"


def brawl(**rook: object):
    """Ada (agility 1, athletics 2: TN 13; willpower 1, discipline 1: TN 12) engaged with Rook
    and Sly in zone a; Vex (close combat 3) guards b–c; d lies two zones from a by way of e."""
    ada = pc("ada", agility=1, willpower=1, intellect=1,
             skills={"athletics": 2, "discipline": 1, "repair": 1}, zone="a")
    bea = pc("bea", zone="a")
    club = {"club": {"ev": 10, "kind": "close"}}
    c = make(ada, bea, npc("rook", skills={"close_combat": 2}, weapons=club, zone="a", **rook),
             npc("sly", skills={"close_combat": 1}, zone="a"),
             npc("vex", skills={"close_combat": 3}, zone="b"),
             zones=["a", "b", "c", "d", "e"], links=[["a", "b"], ["b", "c"], ["a", "e"],
                                                     ["e", "d"]],
             guards=[{"who": "vex", "between": ["b", "c"]}],
             objects=[{"id": "door", "name": "Door", "material": "butter"}])
    do(c, "open rook", "rook: attack ada dice=6,6,6", "rook: handoff sly",
       "sly: attack ada dice=6,6,6", "sly: handoff ada")
    return c


def odds(c, viewer: Viewer, line: str) -> list[str]:
    """The odds lines of the command ``line`` as ``viewer`` reads them."""
    return c.ruleset.command_odds(c.state.innermost, viewer, c.parse(line))


@pytest.mark.rule("VR-MOVE-4")
def test_a_disengage_shows_its_chance_to_break_away_with_the_penalty_for_more_opponents():
    c = brawl()
    (line,) = odds(c, ALICE, "ada: disengage")
    assert line == (f"Ada: disengage (athletics): TN 13, −2 for 1 more opponent: −2 → 11: "
                    f"break away {_chance(11)} (VR-MOVE-4)")
    assert odds(c, GM, "ada: disengage") == [line]
    assert odds(c, BOB, "ada: disengage") == []  # another player's character's roll


@pytest.mark.rule("VR-MOVE-4")
def test_a_disengage_from_a_concealed_opponent_shows_odds_without_it():
    c = brawl()
    do(c, "conceal sly")  # a concealed opponent does not hold Ada: no −2 for a second one
    line = f"Ada: disengage (athletics): TN 13, no modifiers → 13: break away {_chance(13)} " \
           f"(VR-MOVE-4)"
    assert odds(c, ALICE, "ada: disengage") == odds(c, GM, "ada: disengage") == [line]


@pytest.mark.rule("VR-MOVE-5", "VR-MOVE-2")
def test_a_slip_shows_its_chance_to_get_past_and_a_dash_to_reach_two_zones_on():
    c = make(pc("ada", agility=1, skills={"athletics": 2}, zone="b"),
             npc("vex", skills={"close_combat": 3}, zone="b"),
             zones=["b", "c", "d", "f"], links=[["b", "c"], ["c", "d"], ["d", "f"]],
             guards=[{"who": "vex", "between": ["b", "c"]}])
    do(c, "open ada")
    assert odds(c, ALICE, "ada: slip c") == [
        f"Ada: slip c (athletics): TN 13, −3 guarded by Vex: −3 → 10: get past {_chance(10)} "
        "(VR-MOVE-5)"]
    do(c, "ada: slip c dice=1,1,1")
    assert odds(c, ALICE, "ada: move f") == [  # two zones on: a dash, rolled
        f"Ada: move f (athletics): TN 13, no modifiers → 13: reach f in one action "
        f"{_chance(13)} (VR-MOVE-2)"]
    assert odds(c, ALICE, "ada: move d") == []  # one zone: no roll


@pytest.mark.rule("VR-MOVE-5")
def test_a_slip_past_a_guard_with_gm_only_skills_shows_the_player_no_odds():
    c = make(pc("ada", agility=1, skills={"athletics": 2}, zone="b"),
             {**npc("vex", skills={"close_combat": 3}, zone="b"), "gm_only": ["skills"]},
             zones=["b", "c"], links=[["b", "c"]], guards=[{"who": "vex", "between": ["b", "c"]}])
    do(c, "open ada")
    assert odds(c, ALICE, "ada: slip c") == []
    assert len(odds(c, GM, "ada: slip c")) == 1


@pytest.mark.rule("VR-INJ-3", "VR-INJ-4", "VR-OBJ-5")
def test_the_discipline_roll_recovery_and_repair_show_their_chances():
    c = brawl()
    do(c, "ada: attack door dice=1,1,1", "harm ada 9")  # the door damaged; Ada disabled
    endure = (f"Ada: endure (discipline): TN 12, −4 disabled: −4 → 8: stay conscious "
              f"{_chance(8)} (VR-INJ-3)")
    assert odds(c, ALICE, "ada: endure") == [endure]
    # the roll is due: the pending odds hold it, for Ada's player and the GM, not for Bea's
    state = c.state.innermost
    assert endure in c.ruleset.pending_odds(state, ALICE)
    assert endure in c.ruleset.pending_odds(state, GM)
    assert endure not in c.ruleset.pending_odds(state, BOB)
    do(c, "ada: endure dice=1,1,1")
    assert odds(c, ALICE, "ada: endure") == []  # made: no roll left
    assert odds(c, ALICE, "ada: recover") == [
        "Ada: recover (discipline): TN 12, −4 disabled, −4 recovery (Ada disabled): −8 → 4: "
        f"remove disabled {_chance(4)} (VR-INJ-4)"]
    assert odds(c, ALICE, "ada: repair door") == [
        "Ada: repair door (repair): TN 12, −4 disabled, −1 Door damaged: −5 → 7: "
        f"mend damaged {_chance(7)} (VR-OBJ-5)"]


@pytest.mark.rule("VR-INJ-4")
def test_a_recovery_of_a_friend_shows_its_odds_where_the_band_names_the_condition():
    """Ada tends Bea. Where the table reads the PCs' harm by its band, the band names Bea's
    condition, so Ada's player reads the odds of removing it; where their harm is not shown
    at all, the penalty would tell of it, so no line."""
    c = make(pc("ada", tn={"medicine": 12}), pc("bea"), harm_view={"pcs": "band"})
    do(c, "harm bea 6")
    (line,) = odds(c, ALICE, "ada: recover bea skill=medicine")
    assert line.startswith("Ada: recover bea (medicine): TN 12") and "(VR-INJ-4)" in line
    do(c, "override settings.harm_view.pcs none")
    assert odds(c, ALICE, "ada: recover bea skill=medicine") == []
    assert len(odds(c, GM, "ada: recover bea skill=medicine")) == 1


@pytest.mark.rule("VR-OBJ-5")
def test_a_repair_with_a_special_skill_names_that_skill_in_its_odds():
    c = brawl()
    do(c, "ada: attack door dice=1,1,1")
    (line,) = odds(c, ALICE, "ada: repair door skill=carpentry")
    assert line.startswith("Ada: repair door (carpentry): TN ")


def _gamblers_ruin(start: int, top: int, p_down: Fraction) -> Fraction:
    """P(reaching 1 before ``top`` from ``start``, one step down with ``p_down``): the
    textbook closed form, apart from the chain the ruleset solves."""
    if p_down == Fraction(1, 2):
        return Fraction(top - start, top - 1)
    r = (1 - p_down) / p_down
    return (r ** (start - 1) - r ** (top - 1)) / (1 - r ** (top - 1))


@pytest.mark.rule("VR-CHASE-7")
@pytest.mark.parametrize("hunter", [True, False])
def test_a_tracking_roll_shows_the_chance_of_contact_before_the_quarry_is_away(hunter: bool):
    ada = pc("ada", tn={"survival": 12, "stealth": 11}, skills={"survival": 1, "stealth": 1})
    thief = npc("thief", skills={"stealth": 2, "survival": 1})
    c = make(ada, thief)
    roles = "hunter=ada quarry=thief" if hunter else "hunter=thief quarry=ada"
    do(c, f"chase c1 {roles} length=3 stage=tracking start=3")
    (line,) = odds(c, ALICE, "ada: run c1")
    target = 10  # as hunter 12 − the thief's stealth 2; as quarry 11 − its survival 1
    p = Fraction(dict(answer(f"3d6 vs {target}").figures)["P(success)"])
    contact = _gamblers_ruin(3, 7, p if hunter else 1 - p)
    assert line.endswith(f"success {float(p):.0%}; contact before the quarry is away "
                         f"{float(contact):.0%} (every roll alike, VR-CHASE-7)"), line
