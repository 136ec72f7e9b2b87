"""The built-in policies attack with the attacker's strongest weapon: a GM's fighter with a
sword does not punch (VERS: a weapon's EV sets the injury, VR-INJ-1)."""

from __future__ import annotations

from collections.abc import Iterator

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
