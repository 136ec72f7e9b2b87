"""Secrecy follows derivation in Fabula Ultima (issue 17): GM-only gear is secret in the
Defense, the Initiative and the weapon's name it gives; GM-only affinities in the damage they
double or halve."""

from __future__ import annotations

import json

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view

from .support import make, npc, pc, run

ADA = Viewer.of_player("ada")
BLADE = {"kind": "weapon", "name": "Cursed Blade", "accuracy": "dex+mig", "damage": 5}
ARMOR = {"kind": "armor", "name": "Black Plate", "defense": 3, "init": -3}


def _lines(c: Conflict, viewer: Viewer) -> list[str]:
    return [line for _, _, _, ls in log_lines(c, viewer) for line in ls]


def _seen(c: Conflict, viewer: Viewer = ADA) -> str:
    return json.dumps(log_view(c, viewer)) + json.dumps(view(c, viewer)) + json.dumps(
        _lines(c, viewer))


def _knight() -> Conflict:
    knight = npc("knight", equipment=[BLADE, ARMOR], affinities={"fire": "vulnerable"})
    knight["name"] = "Black Knight"
    knight["gm_only"] = ["equipment", "affinities"]
    return run(make(pc("ada", hp=50), knight), "ada: initiative dice=6,6")


@pytest.mark.rule("FU-RES-3", "FU-CON-4")
def test_gm_only_armor_is_secret_in_the_defense_and_initiative_it_changes() -> None:
    c = run(_knight(), "ada: attack knight dice=4,4")
    said = next(line for line in _lines(c, ADA) if line.startswith("Ada attacks"))
    assert said.endswith("= 8 vs Defense, HR 4 — misses"), said
    knight = next(p for p in view(c, ADA)["conflict"]["participants"] if p["id"] == "knight")
    assert "defense" not in knight and "initiative" not in knight
    init = next(e["data"] for r in log_view(c, ADA) for e in r["events"]
                if e["type"] == "initiative_checked")
    assert init["initiatives"] == {} and "dl" not in init
    for secret in ("vs 11", "Black Plate", "Cursed Blade", '"knight": 5'):
        assert secret not in _seen(c), secret
    gm = next(p for p in view(c, Viewer.gm())["conflict"]["participants"]
              if p["id"] == "knight")
    assert gm["defense"] == 11 and gm["initiative"] == 5
    assert any(line.endswith("= 8 vs 11, HR 4 — misses") for line in _lines(c, Viewer.gm()))


@pytest.mark.rule("FU-RES-3")
def test_a_gm_only_weapon_is_named_to_players_by_a_mask() -> None:
    c = run(_knight(), "ada: act waits", "knight: attack ada dice=5,5")
    said = next(line for line in _lines(c, ADA) if line.startswith("Black Knight attacks"))
    assert said.startswith("Black Knight attacks with ? against Ada: "), said
    assert any(line.startswith("Black Knight attacks with Cursed Blade against Ada")
               for line in _lines(c, Viewer.gm()))


@pytest.mark.rule("FU-RES-3")
def test_gm_only_affinities_are_secret_in_the_damage_they_change() -> None:
    c = run(_knight(), "damage knight 20 type=fire")
    assert any(line.startswith("Black Knight takes ? fire damage") for line in _lines(c, ADA))
    text = _seen(c)
    assert "vulnerable" not in text and "40" not in text
    assert any(line.startswith("Black Knight takes 40 fire damage (vulnerable)")
               for line in _lines(c, Viewer.gm()))
