"""The built-in policies attack with the attacker's strongest weapon: a GM's fighter with a
sword does not punch (VERS: a weapon's EV sets the injury, VR-INJ-1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.app.scenario import load_scenario
from fracas.sim import SimJob
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.policies import Turn, focus_fire, weakest_first


def _turns(scenario: str, n: int, seed: str, steps: int) -> Iterator[Turn]:
    """Each side's turn of ``n`` encounters of ``scenario`` as the simulator plays them (at
    most ``steps`` steps each), before the step is played."""
    sc = load_scenario(scenario)
    p = prepare(SimJob(sc.text, sc.path, n, seed))
    for index in range(n):
        encounter = Encounter(p, index)
        for _ in range(steps):
            turn = encounter.side_turn()
            if turn is not None:
                yield turn
            if encounter.conflict.state.status == "ended" or encounter.verdict() or \
                    not encounter.step():
                break


def _ev(turn: Turn, actor: str | None, weapon: str) -> int:
    me = turn.entry(actor) if actor else None
    ev: int = ((me or {}).get("stats", {}).get("weapons", {}).get(weapon) or {}).get("ev", 0)
    return ev


@pytest.mark.rule("VR-INJ-1")
def test_focus_fire_attacks_with_the_strongest_weapon_the_attacker_has() -> None:
    """In the tavern brawl, Ada has a sword (EV 5), a knife (EV 2) and her fists (EV 0)
    against the thug; Mira knives and fists. Before, each was drawn alike, so a third of
    Ada's blows were punches that could only graze."""
    weaker_offered = 0
    for turn in _turns("vers-tavern-brawl", 4, "strike", 150):
        attacks = turn.attacks()
        for policy in (focus_fire, weakest_first) if attacks else ():
            choice = policy(turn)
            assert choice.verb == "attack"
            same = [o for o in attacks if (o.actor, o.value("target")) ==
                    (choice.actor, choice.value("target"))]
            best = max(_ev(turn, o.actor, o.value("weapon")) for o in same)
            assert _ev(turn, choice.actor, choice.value("weapon")) == best, \
                (choice.arguments(), [o.value("weapon") for o in same])
            weaker_offered += len({o.value("weapon") for o in same}) > 1
    assert weaker_offered >= 10  # the choice was there to get wrong


@pytest.mark.rule("ES-ROUND-2")
@pytest.mark.parametrize("policy", [focus_fire, weakest_first])
def test_etherscope_agents_declare_their_whole_base_initiative(policy: object) -> None:
    """The rules offer every split up to the base initiative (25 for a base of 12, a single
    action at 1 among them); before, the agents drew one of them uniformly, so most rounds
    they threw away initiative. Now: one action at the base, or two at base − 1 and 1."""
    declared = 0
    for turn in _turns("etherscope-car-chase", 3, "declare", 200):
        if any(o.verb == "declare" for o in turn.options):
            choice = policy(turn)  # type: ignore[operator]
            offered = [o.value("scores") for o in turn.options
                       if o.verb == "declare" and o.actor == choice.actor]
            base = max(sum(s) for s in offered)  # the most the rules allow: the base
            assert choice.value("scores") in ([base], [base - 1, 1]), \
                (choice.actor, choice.value("scores"), base)
            declared += 1
    assert declared >= 6


@pytest.mark.rule("FU-RES-3")
def test_fabula_ultima_agents_cast_the_spells_on_their_sheets_and_strike_hardest() -> None:
    """In the wyrm's lair Lia has Frost spike (HR+10 ice) and no weapon, Milo a spear (HR+8)
    and Heal, the wyrm Flame breath (HR+10) and claws (HR+10). Before, no simulated player
    ever cast a spell: Lia could only punch. An attack is the strongest the attacker has on
    its target (a spell's damage against a weapon's), and a Heal on an ally is no attack."""
    cast = set()
    for turn in _turns("fabula-ultima-dragon-lair", 3, "spells", 60):
        attacks = turn.attacks()
        assert all(o.value("name") != "Heal" for o in attacks)
        if not attacks:
            continue
        choice = focus_fire(turn)
        if choice.verb == "spell":
            cast.add(choice.value("name"))
        if choice.actor == "lia" and any(o.verb == "spell" for o in attacks
                                         if o.actor == "lia"):
            assert choice.verb == "spell"  # HR+10 over an unarmed strike's HR+0
    assert "Frost spike" in cast


def test_the_report_names_the_spells_the_simulated_players_never_cast() -> None:
    """Those with spells on their sheets cast those on a foe, and a heal on their side; the
    report names a spell as never played for one with MP and none on its sheet (Bruno, the
    captain in the ambush) or with one cast on an ally that recovers no HP, not for Lia or
    the wyrm, whose spells strike foes, nor for Milo, whose Heal recovers 30 HP in the
    wyrm's lair (before it said what it restores, the report named him)."""
    from typer.testing import CliRunner

    from fracas.cli import app

    result = CliRunner().invoke(app, ["sim", "fabula-ultima-dragon-lair", "-n", "3", "--seed",
                                      "l", "--workers", "1", "--json"])
    assert "spell" not in json.loads(result.output)["results"][0]["left_out"]


SALAMANDER = """
ruleset = "fabula-ultima"
title = "The salamander"
sides = ["pcs", "foes"]
[[participants]]
id = "lia"
name = "Lia"
kind = "pc"
side = "pcs"
player = "lena"
[participants.stats]
dex = 8
ins = 10
mig = 6
wlp = 10
hp = 60
mp = 200
spells = [{ name = "Fire bolt", mp = 10, damage = 15, type = "fire" },
          { name = "Frost spike", mp = 10, damage = 10, type = "ice" }]
[[participants]]
id = "salamander"
name = "Salamander"
kind = "npc"
side = "foes"
[participants.stats]
dex = 8
ins = 6
mig = 8
wlp = 6
hp = 40
affinities = { fire = "absorb" }
"""


@pytest.mark.rule("FU-RES-3")
def test_fabula_ultima_agents_cast_no_spell_their_foe_absorbs(tmp_path: Path) -> None:
    """Lia's Fire bolt (HR+15) would heal a salamander that absorbs fire, her Frost spike
    (HR+10 ice) hurts it: she casts the spike. Before, the policies weighed a spell's damage
    alone and she healed the salamander with every turn she had."""
    from typer.testing import CliRunner

    from fracas.cli import app

    path = tmp_path / "salamander.toml"
    path.write_text(SALAMANDER, encoding="utf-8")
    result = CliRunner().invoke(app, ["sim", str(path), "-n", "3", "--seed", "fire",
                                      "--workers", "1", "--show", "1"])
    assert result.exit_code == 0, result.output
    assert "lia: spell 'Frost spike'" in result.output
    assert "Fire bolt" not in result.output


HEXER = """
ruleset = "fabula-ultima"
title = "The hex and the golem"
sides = ["pcs", "foes"]
[[participants]]
id = "lia"
name = "Lia"
kind = "pc"
side = "pcs"
player = "lena"
[participants.stats]
dex = 6
ins = 10
mig = 6
wlp = 10
hp = 500
mp = 500
spells = [{ name = "Hex", mp = 5, status = "dazed" }]
[[participants]]
id = "golem"
name = "Golem"
kind = "npc"
side = "foes"
[participants.stats]
dex = 6
ins = 6
mig = 6
wlp = 6
hp = 500
defense = 12
mdef = 6
"""


@pytest.mark.rule("FU-RES-4", "FU-RES-3")
@pytest.mark.parametrize("affinities", ["", "affinities = { physical = \"immune\" }"])
def test_fabula_ultima_agents_weigh_a_status_spell_as_a_blow_until_the_foe_holds_it(
        tmp_path: Path, affinities: str) -> None:
    """Lia's Hex (status = "dazed", no damage) is her blow on a golem that is not Dazed — also
    one immune to physical harm, which her fists cannot hurt and the Hex was weighed as
    before (a physical blow: nothing) — and a wasted turn on one that is: she punches it
    then (before, she hexed the Dazed golem again and again)."""
    path = tmp_path / "hexer.toml"
    path.write_text(HEXER + affinities + "\n", encoding="utf-8")
    fresh = held = 0
    for turn in _turns(str(path), 3, "hex", 40):
        mine = [o for o in turn.attacks() if o.actor == "lia"]
        if not any(o.verb == "spell" for o in mine):
            continue
        choice = focus_fire(turn)
        dazed = "dazed" in (turn.entry("golem") or {}).get("statuses", [])
        if not dazed:
            fresh += 1
            assert choice.verb == "spell", choice.arguments()
        elif not affinities:
            held += 1
            assert choice.verb == "attack", choice.arguments()
    assert fresh and (held or affinities)
