"""The built-in policies weigh what an attack is likely to achieve — its chance to hit as the
side may read it, times the harm of a hit — before they pile onto the foe with the least fight
left: a fighter in close combat hits the goblin in front of her instead of shooting at the
wounded ogre behind full cover (each checked on a small fight of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.policies import Option, Turn, defensive, focus_fire, weakest_first

MILL = """
ruleset = "vers"
title = "Brawl at the mill"
sides = ["heroes", "raiders"]
script = '''
harm ogre 6 why="an old wound"
open ada
'''

[settings]
zones = [{ id = "floor", name = "Mill floor" }, { id = "loft", name = "Loft" }]
links = [["floor", "loft"]]
objects = [{ id = "millstone", name = "Millstone", material = "stone", zone = "loft" }]
cover = [{ who = "ogre", value = 5, object = "millstone" }]

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
[participants.stats]
strength = 2
agility = 2
intuition = 1
zone = "floor"
rv = 1
skills = { close_combat = 1, athletics = 1, discipline = 1 }
weapons = { sword = { ev = 5, kind = "close" }, crossbow = { ev = 6, kind = "ranged" } }

[[participants]]
id = "goblin"
name = "Goblin"
kind = "npc"
side = "raiders"
[participants.stats]
agility = 1
zone = "floor"
skills = { close_combat = 1 }
weapons = { knife = { ev = 2, kind = "close" } }

[[participants]]
id = "ogre"
name = "Ogre"
kind = "npc"
side = "raiders"
[participants.stats]
strength = 4
agility = 2
intuition = 1
zone = "loft"
rv = 2
skills = { athletics = 1, close_combat = 2 }
weapons = { rocks = { ev = 5, kind = "thrown" } }
"""

KEEP = """
ruleset = "fabula-ultima"
title = "The keep's gate"
sides = ["heroes", "foes"]
script = '''
damage knight 30
'''
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
[participants.stats]
dex = 10
ins = 8
mig = 8
wlp = 8
hp = 45
equipment = [{ kind = "weapon", name = "Daggers", accuracy = "dex+ins", bonus = 1, damage = 4 }]
[[participants]]
id = "knight"
name = "Black Knight"
kind = "npc"
side = "foes"
{knight_secrets}
[participants.stats]
dex = 8
ins = 8
mig = 10
wlp = 8
hp = 40
defense = 16
equipment = [{ kind = "weapon", name = "Greatsword", accuracy = "dex+mig", damage = 8 }]
[[participants]]
id = "bandit"
name = "Bandit"
kind = "npc"
side = "foes"
[participants.stats]
dex = 8
ins = 6
mig = 8
wlp = 6
hp = 20
equipment = [{ kind = "weapon", name = "Club", accuracy = "dex+mig", damage = 2 }]
"""


def _job(text: str, name: str, n: int = 1) -> SimJob:
    parse_scenario(text, name)  # a mistake in the test's own file shows here
    return SimJob(text, Path(name), n, "odds")


def _first_attack_turn(job: SimJob, side: str) -> Turn:
    """The first turn of ``side`` in encounter 1 with attacks on two foes or more."""
    encounter = Encounter(prepare(job), 0)
    for _ in range(20):
        turn = encounter.side_turn()
        if turn is not None and turn.side == side and \
                len({o.value("target") for o in turn.attacks()}) > 1:
            return turn
        assert encounter.step()
    raise AssertionError(f"{side} never had two foes to attack")


def _aim(option: Option) -> tuple[str | None, str, str | None]:
    return option.actor, option.value("target"), option.value("weapon")


def _attack(turn: Turn, target: str, weapon: str | None = None) -> Option:
    return next(o for o in turn.attacks() if o.value("target") == target
                and weapon in (None, o.value("weapon")))


@pytest.mark.rule("VR-ATK-5")
def test_a_fighter_hits_the_goblin_before_her_not_the_ogre_behind_full_cover() -> None:
    """Ada stands by a goblin; the wounded ogre shelters behind the millstone (complete
    cover, −5) in the loft, where her crossbow hits at a target number of 4: 2% on 3d6.
    Before, focus fire aimed at the foe with the least fight left — the ogre — and she shot
    at it turn after turn; her sword hits the goblin three times in four."""
    turn = _first_attack_turn(_job(MILL, "mill.toml"), "heroes")
    goblin, ogre = turn.entry("goblin"), turn.entry("ogre")
    assert turn.health(ogre) < turn.health(goblin)  # the foe focus fire used to pick
    assert turn.chance(_attack(turn, "ogre", "crossbow")) == pytest.approx(4 / 216)
    assert turn.chance(_attack(turn, "goblin", "sword")) == pytest.approx(0.741, abs=0.001)
    for policy in (focus_fire, weakest_first, defensive):
        assert _aim(policy(turn)) == ("ada", "goblin", "sword"), policy.__name__


@pytest.mark.rule("VR-ATK-5")
def test_the_mill_brawl_report_has_the_goblin_taken_out() -> None:
    """What the GM reads: before, the goblin fell in 4% of the brawls (Ada spent her actions
    on the ogre); now it falls in nearly all of them."""
    result = report_data(simulate(_job(MILL, "mill.toml", 30), runner=Runner(1)))["results"][0]
    assert result["characters"]["goblin"]["taken_out"]["count"] >= 27


@pytest.mark.rule("FU-RES-3")
def test_a_fabula_ultima_hero_strikes_the_bandit_not_the_knight_she_rarely_hits() -> None:
    """The Black Knight is down to 10 HP of 40, but his Defense is 16: Ada's daggers
    ({DEX + INS} + 1, criticals and fumbles counted) beat it 15% of the time, the fresh
    bandit's Defense 8 81%. Before, focus fire picked the knight (the least fight left)
    whatever the odds."""
    text = KEEP.replace("{knight_secrets}", "")
    turn = _first_attack_turn(_job(text, "keep.toml"), "heroes")
    assert turn.health(turn.entry("knight")) < turn.health(turn.entry("bandit"))
    assert turn.chance(_attack(turn, "knight")) == pytest.approx(0.15)
    assert turn.chance(_attack(turn, "bandit")) == pytest.approx(0.8125)
    for policy in (focus_fire, weakest_first):
        assert _aim(policy(turn))[1] == "bandit", policy.__name__


@pytest.mark.rule("FU-RES-3")
def test_a_defense_the_gm_keeps_is_not_weighed() -> None:
    """With the knight's Defense GM-only, the heroes' side may not know the odds against
    him: they count as a sure hit (harm alone, as before), so focus fire still aims at the
    one with the least fight left, and the agent learns nothing it could not read."""
    text = KEEP.replace("{knight_secrets}", 'gm_only = ["defense"]')
    turn = _first_attack_turn(_job(text, "keep.toml"), "heroes")
    assert "defense" not in (turn.entry("knight") or {})
    assert turn.chance(_attack(turn, "knight")) is None
    assert _aim(focus_fire(turn))[1] == "knight"


@pytest.mark.rule("ES-ACT-4")
def test_etherscope_agents_still_pile_onto_the_most_hurt_foe() -> None:
    """An Etherscope attack rolls its actor's pool against the action's difficulty whatever
    the target (no range band changes it): the odds are alike for every foe, so focus fire
    keeps striking the foe with the least fight left."""
    scenario = load_scenario("etherscope-agents-domain")
    job = SimJob(scenario.text, scenario.path, 4, "odds")
    prepared, chosen = prepare(job), 0
    for index in range(4):
        encounter = Encounter(prepared, index)
        for _ in range(300):
            turn = encounter.side_turn()
            attacks = turn.attacks() if turn is not None else []
            if turn is not None and len({o.value("target") for o in attacks}) > 1:
                assert all(turn.chance(o) is None for o in attacks)
                least = min(turn.health(turn.entry(o.value("target"))) for o in attacks)
                choice = focus_fire(turn)
                assert turn.health(turn.entry(choice.value("target"))) == least
                chosen += 1
            if encounter.verdict() or not encounter.step():
                break
    assert chosen >= 5

