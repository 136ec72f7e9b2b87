"""Healers in ``fracas sim``: a Fabula Ultima spell that recovers HP is cast by the built-in
policies on the most hurt of the side's characters once one is hurt enough, and its caster is
no longer named among those whose spells the figures leave out."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from typer.testing import CliRunner

from fracas.cli.main import app
from fracas.sim import SimJob
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.policies import Option, Turn, defensive, focus_fire, parley, weakest_first

CRYPT = """
ruleset = "fabula-ultima"
title = "The crypt"
sides = ["pcs", "foes"]
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "pcs"
player = "anna"
[participants.stats]
dex = 10
ins = 8
mig = 10
wlp = 8
hp = 50
equipment = [{ kind = "weapon", name = "Sword", accuracy = "dex+mig", damage = 8 }]
[[participants]]
id = "bea"
name = "Bea"
kind = "pc"
side = "pcs"
player = "bert"
[participants.stats]
dex = 8
ins = 10
mig = 6
wlp = 10
hp = 40
mp = 60
spells = [{ name = "Heal", mp = 10, target = "ally", recover = 40 },
          { name = "Ward", mp = 5, target = "self" }]
[[participants]]
id = "lich"
name = "Lich"
kind = "npc"
side = "foes"
gm_only = ["hp", "mp", "spells"]
[participants.stats]
dex = 8
ins = 10
mig = 6
wlp = 10
hp = 90
mp = 60
rank = "elite"
spells = [{ name = "Shadow bolt", mp = 10, damage = 15, type = "dark" },
          { name = "Dark mend", mp = 10, target = "self", recover = 30 }]
"""

runner = CliRunner()


def _turns(n: int, seed: str, steps: int, text: str = CRYPT) -> Iterator[Turn]:
    """Each side's turn of ``n`` encounters of the crypt, before its step is played."""
    p = prepare(SimJob(text, "crypt.toml", n, seed))
    for index in range(n):
        encounter = Encounter(p, index)
        for _ in range(steps):
            turn = encounter.side_turn()
            if turn is not None:
                yield turn
            if encounter.conflict.state.status == "ended" or encounter.verdict() or \
                    not encounter.step():
                break


def _heals(turn: Turn) -> list[Option]:
    return [o for o in turn.options if o.verb == "spell" and o.value("recover")]


@pytest.mark.rule("FU-RES-1", "FU-RES-2")
@pytest.mark.parametrize("policy, at", [(focus_fire, 0.5), (weakest_first, 0.5), (parley, 0.5),
                                        (defensive, 0.75)])  # the thresholds docs/sim.md gives
def test_a_healer_heals_the_most_hurt_of_its_side_once_one_is_hurt_enough(
        policy: Callable[[Turn], object], at: float) -> None:
    """Bea's Heal (and the lich's Dark mend on itself) is cast on the most hurt of the side
    as its view shows it, when that one is at half its HP or less (defensive: three
    quarters); otherwise the side strikes. Before, no built-in policy healed: Bea punched."""
    healed = struck = 0
    for turn in _turns(8, "mend", 80):
        heals = _heals(turn)
        if not heals or not turn.attacks():  # (once the lich is down: nobody to strike)
            continue
        health = {o.value("target"): turn.health(turn.entry(o.value("target"))) for o in heals}
        choice = policy(turn)
        if not isinstance(choice, Option):  # parley's concession comes first
            continue
        if min(health.values()) <= at:
            assert choice.verb == "spell" and choice.value("recover"), choice.arguments()
            assert health[choice.value("target")] == min(health.values())
            healed += 1
        else:
            assert not choice.value("recover"), (health, choice.arguments())
            struck += 1
    assert healed >= 3 and struck >= 3  # both were there to get wrong


def test_the_report_no_longer_names_a_healer_among_the_spells_left_out(tmp_path: object) -> None:
    """Bea's Heal restores HP, which the policies cast; her Ward (what it does is the GM's to
    apply) still names her, as it did; the lich's spells all count."""
    from pathlib import Path

    path = Path(str(tmp_path)) / "crypt.toml"
    path.write_text(CRYPT, encoding="utf-8")
    result = runner.invoke(app, ["sim", str(path), "-n", "3", "--seed", "l", "--workers", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["results"][0]["left_out"].get("spell") == ["bea"]
    path.write_text(CRYPT.replace(',\n          { name = "Ward", mp = 5, target = "self" }', ""),
                    encoding="utf-8")
    result = runner.invoke(app, ["sim", str(path), "-n", "3", "--seed", "l", "--workers", "1",
                                 "--json"])
    assert "spell" not in json.loads(result.output)["results"][0]["left_out"]


#: Bea also sparks at foes (draining her MP) and may restore MP, her own or Ada's
CLARITY = CRYPT.replace('{ name = "Ward", mp = 5, target = "self" }',
                        '{ name = "Clarity", mp = 5, target = "ally", recover_mp = 20 },\n'
                        '          { name = "Spark", mp = 10, damage = 12, type = "bolt" }')


@pytest.mark.rule("FU-RES-1")
@pytest.mark.parametrize("policy", [focus_fire, weakest_first, defensive])
def test_a_caster_short_of_mp_gets_it_restored_and_one_with_mp_to_spare_does_not(
        policy: Callable[[Turn], object]) -> None:
    """Bea's Clarity (recover_mp = 20) was never cast ("left out: spell (Bea)"): she sparked
    her MP away and had none left to heal. Now, with nobody hurt enough to heal, it is cast on
    the one of her side shortest of MP once that one can no longer pay every spell on its
    sheet or has a quarter of its MP or less — never on one with MP to spare, nor on Ada, who
    has no spells to spend it on."""
    restored = spared = 0
    for turn in _turns(6, "clarity", 80, CLARITY):
        restores = [o for o in turn.options if o.verb == "spell" and o.value("recover_mp")]
        if not restores or not turn.attacks():
            continue
        choice = policy(turn)
        assert isinstance(choice, Option)
        if choice.value("recover"):  # a heal comes first
            continue
        shares = {}
        for o in restores:
            entry = turn.entry(o.value("target")) or {}
            if entry.get("stats", {}).get("spells"):
                mp = entry["mp"]
                if mp["current"] < 10 or mp["current"] <= mp["max"] / 4:
                    shares[o.value("target")] = mp["current"] / mp["max"]
        if shares:
            assert choice.value("recover_mp"), (shares, choice.arguments())
            assert shares[choice.value("target")] == min(shares.values())
            restored += 1
        else:
            assert not choice.value("recover_mp"), choice.arguments()
            spared += 1
    assert restored >= 2 and spared >= 3  # both were there to get wrong


def test_the_report_no_longer_names_a_caster_whose_spells_restore_mp(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "crypt.toml"
    path.write_text(CLARITY, encoding="utf-8")
    result = runner.invoke(app, ["sim", str(path), "-n", "2", "--seed", "l", "--workers", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert "spell" not in json.loads(result.output)["results"][0]["left_out"]
