"""One rule in every ruleset: a GM-only stat is the GM's only — the player of that very
character does not see it either (docs/scenarios.md, "GM-only stats"). Etherscope's panel
used to show a player their own GM-only condenser."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import offered
from fracas.engine.views import log_view, view
from tests.rulesets.etherscope.helpers import make, pc

ALICE = Viewer.of_player("alice")


def _everything(c: Conflict, viewer: Viewer) -> tuple[dict[str, Any], str]:
    """Ada as ``viewer`` sees her, and all ``viewer`` is given (view, log, log lines and the
    legal commands offered for Ada)."""
    shown = view(c, viewer)
    offers = [lc.to_data() for lc in offered(c, viewer, "ada")]
    text = json.dumps(shown) + json.dumps(log_view(c, viewer)) + json.dumps(
        log_lines(c, viewer)) + json.dumps(offers)
    return next(p for p in shown["conflict"]["participants"] if p["id"] == "ada"), text


def _scenario(name: str, replace: dict[str, str]) -> Conflict:
    text = resources.files("fracas.scenarios").joinpath(name).read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    return play_script(parse_scenario(text, "f.toml"), "s")


def test_etherscope_hides_a_gm_only_condenser_from_its_own_player() -> None:
    ada = {**pc("ada", "alice", physical=13), "gm_only": ["physical"]}
    c = make({}, [ada, pc("bruno", "bob"), pc("carl")],
             ["ada: awareness successes=3", "bruno: awareness successes=2",
              "carl: awareness successes=1", "moves", "ada: done", "bruno: done", "round"])
    mine, text = _everything(c, ALICE)
    assert "physical" not in mine["condensers"] and mine["summary"].startswith("physical ?")
    assert "13" not in text
    gm, _ = _everything(c, Viewer.gm())
    assert gm["condensers"]["physical"] == [13, 13]
    # the splits the rules allow would tell her base initiative: she may declare any scores
    (declare,) = [lc for lc in offered(c, ALICE, "ada") if lc.verb == "declare"]
    assert declare.choice("scores").allowed is None
    assert len([lc for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "declare"]) == 2
    c.execute(declare.command(scores=[8, 2]), time="")
    assert c.state.ext.countdown.declarations["ada"] == [8, 2]


def test_fabula_ultima_hides_gm_only_hp_from_its_own_player() -> None:
    c = _scenario("fabula-ultima-ambush.toml", {
        'player = "alice"\n[participants.stats]': 'player = "alice"\ngm_only = ["hp"]\n'
                                                 '[participants.stats]',
        "hp = 45": "hp = 47"})
    mine, text = _everything(c, ALICE)
    assert "hp" not in mine and "HP" not in mine["summary"] and "47" not in text


def test_vers_hides_gm_only_weapons_from_their_own_player() -> None:
    c = _scenario("vers-tavern-brawl.toml", {
        'player = "alice"': 'gm_only = ["weapons"]\nplayer = "alice"'})
    _, gm = _everything(c, Viewer.gm())
    assert "net EV 5" in gm and '"ev": 5' in gm  # Ada's sword, EV 5, hit the thug
    _, text = _everything(c, ALICE)
    assert "EV 5" not in text and '"ev": 5' not in text
    assert "sword" in gm and "sword" not in text  # the GM's script named it for Ada
    assert "Ada: attack" in text  # what Ada did stays in her log
    c.execute("open ada", time="")  # her turn: the attacks she is offered name no weapon
    gm_offer, offer = (json.dumps([lc.to_data() for lc in offered(c, v, "ada")])
                       for v in (Viewer.gm(), ALICE))
    assert "sword" in gm_offer and "sword" not in offer and "unarmed" not in offer


def test_fabula_ultima_hides_a_gm_only_die_from_its_own_player_odds() -> None:
    from tests.rulesets.fabula_ultima.support import make as fu_make
    from tests.rulesets.fabula_ultima.support import npc, run
    from tests.rulesets.fabula_ultima.support import pc as fu_pc

    ada = {**fu_pc("ada", dex=10), "player": "alice", "gm_only": ["dex"]}
    c = run(fu_make(ada, npc("imp")), "ada: initiative dice=6,6")
    assert "{d10+d8}" in json.dumps(view(c, Viewer.gm())["conflict"]["odds"])
    mine, text = _everything(c, ALICE)
    assert "dex" not in mine["dice"] and "d10" not in text  # the hit odds named her DEX die
    assert "Ada leads the Initiative Group Check: total 12 vs 8" in text  # no dice, the total


def test_fabula_ultima_hides_a_supporters_gm_only_die_and_the_leaders_gm_only_gear() -> None:
    from tests.rulesets.fabula_ultima.support import make as fu_make
    from tests.rulesets.fabula_ultima.support import npc, run
    from tests.rulesets.fabula_ultima.support import pc as fu_pc

    bruno = {**fu_pc("bruno", ins=12), "player": "bob", "gm_only": ["ins"]}
    mail = {"kind": "armor", "name": "Silver mail", "init": -3}
    ada = {**fu_pc("ada", equipment=[mail]), "player": "alice", "gm_only": ["equipment"]}
    c = run(fu_make(ada, bruno, npc("imp")), "ada: initiative dice=6,5,6,6")
    gm = json.dumps(log_view(c, Viewer.gm()))
    assert "{d8+d12}" in gm and '"own_modifier": -3' in gm
    text = json.dumps(log_view(c, ALICE)) + json.dumps(log_lines(c, ALICE))
    assert "d12" not in text and "-3" not in text and "Silver" not in text
    assert "{d8+d8}" not in text  # her own dice tell her GM-only gear's bonus (none here)
    assert "Bruno 11 succeeds" in text
