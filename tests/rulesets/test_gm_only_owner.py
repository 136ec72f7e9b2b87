"""One rule in every ruleset: a GM-only stat is the GM's only — the player of that very
character does not see it either (docs/scenarios.md, "GM-only stats"). Etherscope's panel
used to show a player their own GM-only condenser."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import offered
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
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


# --- the refusals of the player's own commands, the offers, the panel and the log ---------


def _refusal(c: Conflict, text: str, viewer: Viewer = ALICE) -> str:
    """The refusal of ``text`` given by ``viewer`` (decided, never appended): its sentence
    and its values."""
    try:
        c.prepare(text, viewer, time="")
    except FracasError as exc:
        return json.dumps(exc.to_dict()) + str(exc)
    raise AssertionError(f"{text!r} was accepted")


def _fu_conflict(*keys: str, **stats: Any) -> Conflict:
    from tests.rulesets.fabula_ultima.support import make as fu_make
    from tests.rulesets.fabula_ultima.support import npc
    from tests.rulesets.fabula_ultima.support import pc as fu_pc

    ada = {**fu_pc("ada", **stats), "player": "alice", "gm_only": list(keys)}
    return fu_make(ada, {**fu_pc("bruno"), "player": "bob"}, npc("imp"))


def test_fabula_ultima_refuses_a_spend_past_a_gm_only_pool_without_telling_it() -> None:
    c = _fu_conflict("mp", "ip", "hp", "fp", hp=47, mp=33, ip=7, fp=3)
    c.execute("ada: initiative dice=6,5,6,6", time="")
    for text, what in (("ada: spend mp 40", "MP"), ("ada: spend ip 9", "IP"),
                       ("ada: spend hp 50", "HP"), ("ada: spell Fire mp=40", "MP"),
                       ("ada: fabula -5", "Fabula Points")):
        said = _refusal(c, text)
        assert f"Ada has not enough {what}" in said, said  # what was wrong: still said
        assert not re.search(r"\b(33|7|47|3)\b", said.replace(text, "")), said
        # before: "Ada has only 33 MP left, not enough to spend 40", "available": 33
        assert re.search(r"\b(33|7|47|3)\b", _refusal(c, text, Viewer.gm()))


def test_fabula_ultima_refuses_a_weapon_without_listing_gm_only_gear() -> None:
    blade = {"kind": "weapon", "name": "Star Blade", "accuracy": "dex+mig", "damage": 7}
    c = _fu_conflict("equipment", equipment=[blade])
    c.execute("ada: initiative dice=6,5,6,6", time="")
    said = _refusal(c, "ada: attack imp weapon=axe")
    assert "Ada has no weapon 'axe' equipped" in said and "Star" not in said
    assert "(equipped: Star Blade)" in _refusal(c, "ada: attack imp weapon=axe", Viewer.gm())


@pytest.mark.rule("FU-CON-2")
def test_fabula_ultima_offers_an_attack_with_gm_only_gear_naming_no_weapon() -> None:
    """With her gear the GM's, Alice's attack offered a weapon list of "unarmed strike"
    alone, read as her only choice (and, picked, an unarmed strike in place of the blade)."""
    blade = {"kind": "weapon", "name": "Star Blade", "accuracy": "dex+mig", "damage": 7}
    c = _fu_conflict("equipment", equipment=[blade])
    c.execute("ada: initiative dice=6,5,6,6", time="")
    (attack,) = [lc for lc in offered(c, ALICE, "ada") if lc.verb == "attack"]
    # no weapon to choose: the situation's bonus and the dice are hers to give
    assert [p.name for p in attack.params if not p.is_fixed] == ["bonus", "dice"]
    (gm,) = [lc for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "attack"]
    assert gm.choice("weapon").allowed == ("Star Blade", "unarmed strike")
    c.execute(attack.command(), ALICE, time="")  # the GM's sheet gives the weapon
    (attacked,) = [e for e in c.records[-1].events if e.type == "attack"]
    assert attacked.data["weapon"] == "Star Blade"


def test_fabula_ultima_refuses_table_dice_without_naming_gm_only_dice_or_gear() -> None:
    blade = {"kind": "weapon", "name": "Star Blade", "accuracy": "dex+mig", "damage": 7,
             "bonus": 2}
    c = _fu_conflict("dex", "equipment", dex=10, mig=6, equipment=[blade])
    assert "d10" in _refusal(c, "ada: initiative dice=6,5,12,12", Viewer.gm())
    for text in ("ada: initiative dice=6,5,12,12",):
        said = _refusal(c, text)  # before: "Ada's check rolls {d10+d8}: die 1 shows 12, …"
        assert "do not fit" in said and not re.search(r"d(6|8|10|12)\b|\+2", said), said
    c.execute("ada: initiative dice=6,5,6,6", time="")
    for text in ("ada: attack imp dice=8,7", "ada: check dex+ins 10 dice=12,3"):
        said = _refusal(c, text)
        assert "do not fit" in said and not re.search(r"d(6|8|10|12)\b|\+2", said), said
    assert "d6 shows 1 to 6" in _refusal(c, "ada: attack imp dice=8,7", Viewer.gm())
    # dice the player names by size are theirs: the refusal says which does not fit
    assert "d8 shows 1 to 8" in _refusal(c, "ada: check d8+d8 10 dice=9,3")


def test_fabula_ultima_hides_gm_only_fabula_points_and_goal_from_their_own_player() -> None:
    c = _fu_conflict("fp", "goal", fp=3, goal="avenge the zqbrother")
    c.execute("ada: initiative dice=6,5,6,6", time="")
    c.execute("ada: fabula -1", ALICE, time="")
    c.execute("ada: goal 'find the zqmap'", time="")  # the GM's, for her character
    mine, text = _everything(c, ALICE)
    assert "fp" not in mine and "FP" not in mine["summary"] and mine["goal"] is None
    assert "zqbrother" not in text and "zqmap" not in text
    assert "Ada spends 1 Fabula Point; ? left" in text  # before: "; 2 left", the points left
    assert '"fp_after": 2' not in text
    gm, gm_text = _everything(c, Viewer.gm())
    assert gm["fp"] == 2 and gm["goal"] == "find the zqmap" and "Fabula Point; 2 left" in gm_text
    # the spending of a point is offered whether or not she has one left: its coming and
    # going counted them (before: offered only with a point to spend)
    c.execute("ada: fabula -2", time="")
    assert c.state.ext.fp["ada"] == 0
    assert [lc.verb for lc in offered(c, ALICE, "ada")].count("fabula") == 1
    assert not any(lc.verb == "fabula" for lc in offered(c, Viewer.gm(), "ada"))
    assert "not enough Fabula Points" in _refusal(c, "ada: fabula -1")


def test_fabula_ultima_hides_the_initiative_modifier_its_gm_only_gear_gives() -> None:
    mail = {"kind": "armor", "name": "Silver mail", "init": -3}
    c = _fu_conflict("equipment", init_mod=2, equipment=[mail])
    mine, _ = _everything(c, ALICE)
    assert mine["stats"]["init_mod"] == 2 and "init_mod" not in mine  # before: -1, so -3
    gm, _ = _everything(c, Viewer.gm())
    assert gm["init_mod"] == -1


def test_fabula_ultima_hides_a_supporters_gm_only_bond_and_init_modifier() -> None:
    from tests.rulesets.fabula_ultima.support import make as fu_make
    from tests.rulesets.fabula_ultima.support import npc
    from tests.rulesets.fabula_ultima.support import pc as fu_pc

    bruno = {**fu_pc("bruno", bonds={"ada": 3}, init_mod=4), "player": "bob",
             "gm_only": ["bonds", "init_mod"]}
    c = fu_make({**fu_pc("ada"), "player": "alice"}, bruno, npc("imp"))
    c.execute("ada: initiative dice=6,5,2,3", time="")
    gm = json.dumps(log_view(c, Viewer.gm())) + json.dumps(log_lines(c, Viewer.gm()))
    assert "bond +3" in gm and '"text": "{d8+d8}+4' in gm  # his check's, and Ada's
    for viewer in (Viewer.of_player("bob"), ALICE):  # Bruno's player too
        seen = json.dumps(log_view(c, viewer)) + json.dumps(log_lines(c, viewer))
        assert "bond +?" in seen and '"bond": 3' not in seen and "+4" not in seen
        assert "Bruno 15 succeeds" in seen  # his total stays (as a leader's does)


def test_etherscope_refuses_a_declaration_past_a_gm_only_base_without_telling_it() -> None:
    from tests.rulesets.etherscope.helpers import started

    ada = {**pc("ada", "alice", physical=13), "gm_only": ["physical"]}
    c = started({}, [ada, pc("bruno", "bob"), pc("carl")])
    said = _refusal(c, "ada: declare 8,6")
    assert "add up to 14, more than the base initiative" in said and "13" not in said
    assert "more than the base initiative 13" in _refusal(c, "ada: declare 8,6", Viewer.gm())
    bruno = _refusal(c, "bruno: declare 8,6", Viewer.of_player("bob"))
    assert "more than the base initiative 10" in bruno  # his own base is his to know


def test_etherscope_refuses_table_dice_without_telling_a_gm_only_pool() -> None:
    from tests.rulesets.etherscope.helpers import started

    ada = {**pc("ada", "alice", awareness=4, skills={"shoot": 6}),
           "gm_only": ["awareness", "skills"]}
    c = make({}, [ada, pc("bruno", "bob"), pc("carl")])
    said = _refusal(c, "ada: awareness dice=5,6")
    assert "do not fit its pool" in said and not re.search(r"\b4 dice|4d6", said), said
    assert "roll is 4 dice (4d6>=5), but 2 were typed in" in _refusal(c, "ada: awareness dice=5,6",
                                                                      Viewer.gm())
    c = started({}, [ada, pc("bruno", "bob"), pc("carl")])
    for line in ("ada: declare 5", "bruno: declare 4", "carl: declare 3", "countdown"):
        c.execute(line, time="")
    said = _refusal(c, "ada: attack carl skill=shoot dice=5,6")
    assert "do not fit its pool" in said and not re.search(r"\b6 dice|6d6", said), said
    # a pool she names is hers to know
    assert "roll is 2 dice (2d6>=5), but 3 were typed in" in _refusal(
        c, "ada: attack carl pool=2 dice=5,6,1")


def test_etherscope_hides_whether_a_gm_only_skill_is_rated() -> None:
    from tests.rulesets.etherscope.helpers import started

    ada = {**pc("ada", "alice", skills={"shoot": 3}), "gm_only": ["skills"]}
    c = started({}, [ada, pc("bruno", "bob"), pc("carl")])
    for line in ("ada: declare 5", "bruno: declare 4", "carl: declare 3", "countdown",
                 "ada: attack carl skill=stealth successes=2"):
        c.execute(line, time="")
    _, text = _everything(c, ALICE)
    assert '"unrated"' not in text and "no stealth rating" not in text  # before: true
    assert '"unrated": true' in json.dumps(log_view(c, Viewer.gm()))


def _vers_conflict(**weapons: Any) -> Conflict:
    from tests.rulesets.vers.helpers import ZONES
    from tests.rulesets.vers.helpers import make as vers_make
    from tests.rulesets.vers.helpers import npc as vers_npc
    from tests.rulesets.vers.helpers import pc as vers_pc

    ada = {**vers_pc("ada", skills={"close_combat": 3}, weapons=weapons, zone="a"),
           "player": "alice", "gm_only": ["weapons"]}
    c = vers_make(ada, vers_npc("thug", zone="a"), vers_npc("rat", zone="c"), **ZONES)
    c.execute("open ada", time="")
    return c


def test_vers_refuses_an_attack_without_telling_gm_only_weapons() -> None:
    c = _vers_conflict(sword={"ev": 5}, knife={"ev": 2, "kind": "thrown"})
    said = _refusal(c, "ada: attack thug weapon=axe")
    assert "Ada has no weapon 'axe'" in said and "sword" not in said and "knife" not in said
    assert "(weapons: sword, knife, unarmed)" in _refusal(c, "ada: attack thug weapon=axe",
                                                          Viewer.gm())
    # the weapon the rules take (the first) is not told by name or kind either
    said = _refusal(c, "ada: attack rat")
    assert "out of reach of Ada's weapon" in said and "close" not in said, said
    assert "a close attack needs the same zone" in _refusal(c, "ada: attack rat", Viewer.gm())


def test_vers_offers_attacks_on_every_target_whatever_gm_only_weapons_reach() -> None:
    offers = []
    for weapons in ({"sword": {"ev": 5}}, {"bow": {"ev": 4, "kind": "ranged"}}, {}):
        c = _vers_conflict(**weapons)
        offers.append([lc.text() for lc in offered(c, ALICE, "ada") if lc.verb == "attack"])
        gm = [lc.text() for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "attack"]
        assert len({t.split(" weapon")[0] for t in gm}) == (2 if "bow" in weapons else 1)
    # before: the sword's offered Thug alone, the bow's Rat too (it reaches two zones)
    assert offers[0] == offers[1] == offers[2] == [
        "ada: attack thug dice=DICE", "ada: attack rat dice=DICE"]


#: Each ruleset's example with stats of the GM's own on Alice's Ada: a weakness her player
#: may read, and a plan kept GM-only (docs/scenarios.md).
_OWN = 'weakness = "afraid of fire", secret_plan = "flee to Zqbury"'
_TABLE = 'player = "alice"\n[participants.stats]\n'  # the sheet as a table of its own
_OWN_IN_TABLE = {_TABLE: 'gm_only = ["secret_plan"]\n' + _TABLE + _OWN.replace(", ", "\n")
                 + "\n"}
OWN_STATS = {
    "etherscope-car-chase.toml": {'player = "alice"\nstats = { ': 'gm_only = ["secret_plan"]\n'
                                  f'player = "alice"\nstats = {{ {_OWN}, '},
    "fabula-ultima-ambush.toml": _OWN_IN_TABLE,
    "vers-tavern-brawl.toml": _OWN_IN_TABLE,
}


@pytest.mark.parametrize("name", sorted(OWN_STATS))
def test_a_stat_of_the_gms_own_is_shown_as_any_stat_and_a_gm_only_one_to_the_gm_alone(
        name: str) -> None:
    """Every ruleset keeps a stat no rule reads (Fabula Ultima refused it: "unknown stat
    'weakness'") and shows it where it shows every stat, the JSON view (`fracas show --json`,
    the table's data); a GM-only one reaches no player, not even Ada's own."""
    c = _scenario(name, OWN_STATS[name])
    mine, _ = _everything(c, Viewer.gm())
    assert mine["stats"]["weakness"] == "afraid of fire"
    assert mine["stats"]["secret_plan"] == "flee to Zqbury"
    mine, text = _everything(c, ALICE)
    assert mine["stats"]["weakness"] == "afraid of fire"
    assert "secret_plan" not in text and "Zqbury" not in text
