"""The VERS policies that do not simply attack: ``defensive`` keeps its cover where focus fire
would charge, ``flee`` breaks away when its side is losing, and a race for a prize goes to the
side that took the prize (each checked on a small fight of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.app.scenario import parse_scenario
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.policies import Turn, defensive, flee_when_losing, focus_fire

YARD = """
ruleset = "vers"
title = "The yard"
sides = ["pcs", "npcs"]
{script}

[settings]
zones = [{{ id = "yard", name = "Yard" }}, {{ id = "gate", name = "Gate" }}]
links = [["yard", "gate"]]
objects = [{{ id = "crate", name = "Crate", material = "wood", zone = "yard" }}]
{cover}
{npcs}
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "pcs"
player = "alice"
[participants.stats]
zone = "yard"
weapons = {{ club = {{ ev = 3, kind = "close" }} }}
{sim}
"""

THUG = """
[[participants]]
id = "{id}"
name = "{name}"
kind = "npc"
side = "npcs"
[participants.stats]
zone = "{zone}"
weapons = {{ club = {{ ev = 3, kind = "close" }} }}
"""


def _job(n: int = 1, *, script: str = "", cover: bool = False, thugs: int = 1,
         zone: str = "yard", sim: str = "") -> SimJob:
    npcs = "".join(THUG.format(id=f"thug{i}", name=f"Thug {i}", zone=zone)
                   for i in range(1, thugs + 1))
    text = YARD.format(
        script=f'script = """\n{script}\n"""' if script else "",
        cover='cover = [{ who = "ada", value = 3, object = "crate" }]' if cover else "",
        npcs=npcs, sim=f"[sim]\n{sim}" if sim else "")
    parse_scenario(text, "yard.toml")  # a mistake in the test's own file shows here
    return SimJob(text, Path("yard.toml"), n, "yard")


def _first_turn(job: SimJob) -> Turn:
    turn = Encounter(prepare(job), 0).side_turn()
    assert turn is not None
    return turn


@pytest.mark.rule("VR-ATK-5")
def test_defensive_stays_in_cover_where_focus_fire_would_leave_it_to_charge() -> None:
    # Ada, behind a crate, has only a club; the thug waits at the gate, out of her reach
    turn = _first_turn(_job(script="open ada", cover=True, zone="gate"))
    assert turn.side == "pcs" and not turn.attacks()
    assert (focus_fire(turn).verb, focus_fire(turn).arguments()) == ("move", {"to": "gate"})
    kept = defensive(turn)
    assert kept.verb not in ("move", "slip", "disengage"), kept.arguments()
    # without cover there is nothing to keep: defensive closes in as focus fire does
    bare = _first_turn(_job(script="open ada", zone="gate"))
    assert (defensive(bare).verb, defensive(bare).arguments()) == ("move", {"to": "gate"})


@pytest.mark.rule("VR-MOVE-4")
def test_flee_breaks_away_from_close_combat_when_its_side_is_losing() -> None:
    # Ada, alone, is engaged with one of two thugs (its blow missed, VR-MOVE-3)
    prologue = (r'prologue = "open thug1\nthug1: attack ada weapon=club dice=6,6,6'
                r'\nthug1: handoff ada"')
    turn = _first_turn(_job(thugs=2, sim=prologue))
    assert turn.side == "pcs" and turn.losing()
    assert focus_fire(turn).verb == "attack"
    assert flee_when_losing(turn).verb == "disengage"
    # one thug against her is no losing fight: she stands and fights
    even = _first_turn(_job(thugs=1, sim=prologue))
    assert not even.losing() and flee_when_losing(even).verb == "attack"


@pytest.mark.rule("VR-CHASE-4")
def test_a_race_for_a_prize_is_won_by_the_side_that_takes_it() -> None:
    race = "prologue = \"chase c1 hunter=ada quarry=thug1 prize='the idol' length=2\""
    result = report_data(simulate(_job(60, sim=race), runner=Runner(1)))["results"][0]
    wins = {s: v["count"] for s, v in result["wins"].items()}
    outcomes = {k: v["count"] for k, v in result["outcomes"].items()}
    assert outcomes["won"] > 0 and outcomes["lost"] > 0  # both ends were reached
    # Ada rolls the race: she took the idol (won) or the thug did (lost)
    assert wins["pcs"] == outcomes["won"]
    assert wins["npcs"] == outcomes["lost"] + outcomes["taken out"]
