"""The pool odds a form shows under an Etherscope action (ES-ACT-4): those of the one acting
now, for the pool that action rolls, read only by the GM and that character's player, and
never where the rating it names is the GM's."""

from __future__ import annotations

import pytest

from fracas.engine import Viewer
from fracas.engine.conflict import Conflict

from .helpers import make, pc, started

GM, ALICE, BOB = Viewer.gm(), Viewer.of_player("alice"), Viewer.of_player("bob")


def odds(c: Conflict, viewer: Viewer, line: str) -> list[str]:
    """The odds lines under the command ``line`` as ``viewer`` reads them."""
    return c.ruleset.command_odds(c.state.innermost, viewer, c.parse(line))


def ada_acting(**ada_extra: object) -> Conflict:
    """Ada (Alice's; shoot 4 and stealth 3 as a stat of its own) acts at 10 in round 1."""
    ada = {**pc("ada", "alice", skills={"shoot": 4}, stealth=3), **ada_extra}
    c = started({}, [ada, pc("bruno", "bob", skills={"shoot": 2}), pc("carl")])
    c.execute("ada: declare 10")
    c.execute("bruno: declare 3")
    c.execute("countdown")
    return c


@pytest.mark.rule("ES-ACT-4")
def test_only_the_acting_characters_action_shows_pool_odds_and_only_to_its_player_and_gm():
    c = ada_acting()
    line = "Ada rolls 4d6 with shoot (5+ a success): ≥1 80%, ≥2 41%, ≥3 11%"
    assert odds(c, ALICE, "ada: attack carl skill=shoot") == [line]
    assert odds(c, GM, "ada: attack carl skill=shoot") == [line]
    assert odds(c, BOB, "ada: attack carl skill=shoot") == []  # another player's character
    # Bruno does not act now: his pool is not the one rolled, for anyone
    assert odds(c, GM, "bruno: attack carl skill=shoot") == []
    assert odds(c, BOB, "bruno: attack carl skill=shoot") == []


@pytest.mark.rule("ES-ACT-4")
def test_a_rating_kept_as_a_stat_of_its_own_counts_and_stays_secret_when_it_is_gm_only():
    """Stealth is Ada's stat of its own (not under skills): its line rolls 3d6; where the GM
    keeps that one stat, her player reads no line for it — not even the default pool's, which
    would tell that she has no such rating — while the GM's line is unchanged."""
    line = "Ada rolls 3d6 with stealth (5+ a success): ≥1 70%, ≥2 26%, ≥3 4%"
    assert odds(ada_acting(), ALICE, "ada: attack carl skill=stealth") == [line]
    secret = ada_acting(gm_only=["stealth"])
    assert odds(secret, ALICE, "ada: attack carl skill=stealth") == []
    assert odds(secret, GM, "ada: attack carl skill=stealth") == [line]
    assert odds(secret, ALICE, "ada: attack carl skill=shoot") != []  # her other ratings show


@pytest.mark.rule("ES-START-1")
def test_the_awareness_roll_shows_the_pool_it_rolls_until_it_is_made() -> None:
    """Before the moves each character rolls awareness, a skill roll like an action's: the
    form shows that pool's odds to its player and the GM (before: none), the skill of the
    conflict's awareness setting unless one is named, and nothing once the roll is made."""
    c = make({"awareness_skill": "perception"}, [
        pc("ada", "alice", skills={"perception": 3, "shoot": 4}), pc("bruno", "bob"), pc("carl")])
    line = "Ada rolls 3d6 with perception (5+ a success): ≥1 70%, ≥2 26%, ≥3 4%"
    assert odds(c, ALICE, "ada: awareness") == [line] == odds(c, GM, "ada: awareness")
    assert odds(c, BOB, "ada: awareness") == []
    assert odds(c, ALICE, "ada: awareness skill=shoot")[0].startswith("Ada rolls 4d6 with shoot")
    assert odds(c, BOB, "bruno: awareness")[0].startswith(
        "Bruno rolls 2d6, the default pool (no rating in perception;")
    c.execute("ada: awareness dice=5,1,1")
    assert odds(c, ALICE, "ada: awareness") == []


@pytest.mark.rule("ES-ACT-4")
def test_a_difficulty_above_1_says_what_success_takes_and_its_chances() -> None:
    """Success takes as many successes as the difficulty: with difficulty=2 typed in, or an
    action's own difficulty in the settings, the line counts from 2 (before, it read "≥1 80%"
    first whatever the difficulty, a chance of success only at difficulty 1, and at difficulty
    4 none of its figures was one). A difficulty the player may not know (the GM's settings)
    leaves the line as at difficulty 1, saying nothing of it."""
    c = ada_acting()
    assert odds(c, ALICE, "ada: attack carl skill=shoot difficulty=2") == [
        "Ada rolls 4d6 with shoot (5+ a success; difficulty 2): ≥2 41%, ≥3 11%, ≥4 1%"]
    assert odds(c, ALICE, "ada: act trick skill=shoot difficulty=5") == [
        "Ada rolls 4d6 with shoot (5+ a success; difficulty 5): no chance: 5 successes are "
        "more than the pool's dice"]
    people = [pc("ada", "alice"), pc("bruno"), pc("carl")]
    own = started({"actions": {"search": {"difficulty": 3}}}, people)
    own.execute("countdown")
    assert odds(own, ALICE, "ada: search") == [
        "Ada rolls 2d6, the default pool (no skill named; 5+ a success; difficulty 3): no "
        "chance: 3 successes are more than the pool's dice"]
    assert odds(own, ALICE, "ada: search difficulty=1") == [
        "Ada rolls 2d6, the default pool (no skill named; 5+ a success): ≥1 56%, ≥2 11%"]
    secret = started({"actions": {"search": {"difficulty": 2}},
                      "gm_only_settings": ["actions"]}, people)
    secret.execute("countdown")
    assert odds(secret, ALICE, "ada: search skill=brawl") == [
        "Ada rolls 2d6, the default pool (no rating in brawl; 5+ a success): ≥1 56%, ≥2 11%"]
