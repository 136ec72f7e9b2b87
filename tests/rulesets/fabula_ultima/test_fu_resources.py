"""HP/MP/IP, Crisis, attacks and affinities, status effects stepping dice down."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine import Conflict, Viewer
from fracas.engine.projector import offered as offered_to
from fracas.engine.views import log_view
from fracas.errors import IllegalCommand, InvalidInput
from tests.rulesets.fabula_ultima.support import events, make, npc, pc, refused, run


def _fight(**foe_stats: Any) -> Conflict:
    c = make(pc("ada", dex=10, mig=10, mp=20), npc("orc", defense=9, mdef=8, hp=40,
                                                    **foe_stats))
    return run(c, "ada: initiative dice=6,6")


@pytest.mark.rule("FU-RES-1")
def test_pools_stay_between_zero_and_maximum() -> None:
    c = make(pc("ada", hp=40, mp=20, ip=6), npc("orc"))
    run(c, "damage ada 15", "recover ada 100")
    assert c.state.ext.hp["ada"].current == 40
    run(c, "ada: spend mp 12 why=spell", "ada: spend ip 2")
    assert c.state.ext.mp["ada"].current == 8 and c.state.ext.ip["ada"].current == 4
    err = refused(c, "ada: spend mp 9", "FU-RES-1", IllegalCommand)
    assert "only 8 MP" in str(err)
    refused(c, "recover orc 3 pool=ip", "FU-RES-1", IllegalCommand)  # IP is for PCs


@pytest.mark.rule("FU-RES-1")
def test_a_player_is_offered_to_spend_from_their_characters_pools() -> None:
    """An item's IP or a skill's MP is spent from the controls, on the character's turn or
    not (before: only by typing ``ada: spend ip 3``); a GM-only pool is offered all the same,
    so the offer never tells what is left in it, while one its player sees empty is not."""
    ada = {**pc("ada", ip=6, mp=20), "gm_only": ["mp"]}
    c = run(make(ada, npc("orc")), "ada: initiative dice=6,6", "ada: spend ip 6",
            "ada: spend mp 20")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        (spend,) = [lc for lc in offered_to(c, viewer, "ada") if lc.verb == "spend"]
        assert spend.choice("pool").allowed == ("mp", "hp")  # MP 0 left: still offered
        assert spend.to_data()["label"] == "spend MP or HP"  # IP 0 left, in her sight: not
    (orc,) = [lc for lc in c.legal("orc") if lc.verb == "spend"]
    assert orc.choice("pool").allowed == ("mp", "hp")  # IP is a PC's
    assert orc.to_data()["label"] == "spend MP or HP"
    run(c, "recover ada 5 pool=mp")
    c.execute(spend.command(pool="mp", amount=5, why="a skill"), time="")
    assert c.state.ext.mp["ada"].current == 0


@pytest.mark.rule("FU-RES-1")
def test_an_npc_is_offered_no_pool_it_has_nothing_in() -> None:
    """A cutthroat without MP (or with its MP spent) is offered HP to spend, not MP (before:
    "spend MP or HP" under every NPC, refused once sent); its GM-only MP changes nothing, as
    only the GM is offered its commands, while an NPC ally a player plays is offered a GM-only
    pool whatever is left in it."""
    cut = npc("cut")
    cut["stats"].pop("mp")
    orc = {**npc("orc", mp=0), "gm_only": ["mp"]}
    ally = {**npc("ally", side="pcs", mp=0), "player": "ada", "gm_only": ["mp"]}
    c = run(make(pc("ada"), orc, cut, npc("imp", mp=4), ally),
            "ada: initiative dice=6,6", "imp: spend mp 4")

    def pools(pid: str) -> tuple[Any, ...] | None:
        (spend,) = [lc for lc in c.legal(pid) if lc.verb == "spend"]
        return spend.choice("pool").allowed

    assert [pools(pid) for pid in ("orc", "cut", "imp")] == [("hp",)] * 3
    assert [lc.to_data()["label"] for lc in c.legal("orc") if lc.verb == "spend"] == [
        "spend HP"]
    (offer,) = [lc for lc in offered_to(c, Viewer.of_player("ada"), "ally")
                if lc.verb == "spend"]
    assert offer.choice("pool").allowed == ("mp", "hp")  # its player may not know it is 0
    run(c, "recover imp 2 pool=mp")
    assert pools("imp") == ("mp", "hp")


@pytest.mark.rule("FU-RES-1", "FU-CON-12")
def test_the_gm_is_offered_recovery_out_and_concealment_of_those_still_in_the_conflict(
) -> None:
    """What a Heal spell or a potion restores, who is taken out, who is hidden from the
    players and who is shown again are the GM's controls (before: recover, conceal and reveal
    had to be typed, and the list to take one out named those already out)."""
    c = make(pc("ada"), npc("orc"), npc("imp"))
    setup = {lc.verb: lc for lc in c.legal(None)}
    assert setup["conceal"].choice("who").allowed == ("ada", "orc", "imp")
    run(c, "conceal imp", "ada: initiative dice=6,6", "damage ada 20", "damage orc 99")
    gm = {lc.verb: lc for lc in c.legal(None)}
    assert gm["recover"].choice("target").allowed == ("ada", "imp")
    assert gm["recover"].choice("pool").allowed == ("hp", "mp", "ip")
    assert gm["out"].choice("id").allowed == ("ada", "imp")  # the orc is out already
    assert gm["conceal"].choice("who").allowed == ("ada",)
    assert gm["reveal"].choice("who").allowed == ("imp",)
    c.execute(gm["recover"].command(target="ada", amount=10), time="")
    c.execute(gm["reveal"].command(who="imp"), time="")
    assert c.state.ext.hp["ada"].current == 30 and c.state.concealed == []
    assert "reveal" not in {lc.verb for lc in c.legal(None)}


@pytest.mark.rule("FU-RES-2")
def test_crisis_at_half_maximum_hp_rounded_down() -> None:
    c = make(pc("ada", hp=41), npc("orc"))
    run(c, "damage ada 20")  # 21 > 20
    assert not events(c, "damage")[0].data["crisis"]
    run(c, "damage ada 1")  # 20 <= 41 // 2
    ev = events(c, "damage")[0].data
    assert ev["crisis"] and ev["entered_crisis"]
    from fracas.engine import Viewer
    from fracas.engine.views import view
    ada = view(c, Viewer.of_player("ada"))["conflict"]["participants"][0]
    assert ada["crisis"] and "CRISIS" in ada["summary"]


@pytest.mark.rule("FU-RES-2", "FU-CON-12")
def test_a_character_out_of_the_conflict_is_not_listed_in_crisis() -> None:
    """Before: the view sent ``crisis: true`` (and the band 'in crisis') for a character
    defeated at 0 HP or taken out with few HP left; the page hid the badge, the data did not."""
    from fracas.engine.views import view

    c = make(pc("ada", hp=40), npc("orc", hp=20), npc("imp", hp=20))
    run(c, "ada: initiative dice=6,6", "damage imp 15", "damage orc 20")
    settings = {"harm_view": {"foes": "band"}}
    banded = make(pc("ada", hp=40), npc("orc", hp=20), npc("imp", hp=20), settings=settings)
    run(banded, "damage imp 15", "damage orc 20")
    for conflict in (c, banded):
        gm = {p["id"]: p for p in view(conflict, Viewer.gm())["conflict"]["participants"]}
        assert gm["imp"]["crisis"] and "CRISIS" in gm["imp"]["summary"]  # still taking part
        assert gm["orc"]["crisis"] is False  # defeated at 0 HP
    run(c, "out imp 'flees'")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        seen = {p["id"]: p for p in view(c, viewer)["conflict"]["participants"]}
        assert seen["imp"]["crisis"] is False and "CRISIS" not in seen["imp"]["summary"]
        assert seen["imp"]["hp"] == {"current": 5, "max": 20}  # its HP as it left
    ada = {p["id"]: p for p in view(banded, Viewer.of_player("ada"))["conflict"]["participants"]}
    assert ada["orc"].get("harm") == "down" and ada["imp"].get("harm") == "in crisis"


@pytest.mark.rule("FU-RES-3")
def test_attack_hits_at_defense_and_deals_hr_plus_weapon() -> None:
    c = make(pc("ada", equipment=[{"kind": "weapon", "name": "Sword", "accuracy": "dex+mig",
                                   "bonus": 1, "damage": 6}]), npc("orc", defense=9))
    run(c, "ada: initiative dice=6,6")
    run(c, "ada: attack orc dice=4,4")  # 9 vs 9: hit, 4 + 6
    assert events(c, "attack")[0].data["hit"]
    assert events(c, "damage")[0].data["amount"] == 10
    assert c.state.ext.hp["orc"].current == 10


@pytest.mark.rule("FU-RES-3", "FU-CHK-3", "FU-CHK-4")
def test_critical_always_hits_and_fumble_always_misses() -> None:
    c = make(pc("ada"), pc("bruno"), npc("orc", defense=20, hp=50), npc("orc2"))
    run(c, "ada: initiative dice=6,6,6,6")
    run(c, "ada: attack orc dice=6,6")
    assert events(c, "attack")[0].data["hit"]
    run(c, "orc: attack ada dice=1,1", "bruno: attack orc2 dice=1,1")
    assert not events(c, "attack")[0].data["hit"]
    assert c.state.ext.fp["bruno"] == 4


@pytest.mark.rule("FU-RES-3")
@pytest.mark.parametrize(("affinity", "hp_after"), [
    ("vulnerable", 40 - 24), ("resistant", 40 - 6), ("immune", 40), ("absorb", 40)])
def test_affinities(affinity: str, hp_after: int) -> None:
    c = _fight(affinities={"fire": affinity})
    run(c, "damage orc 5", "damage orc 12 type=fire")
    ev = events(c, "damage")[0].data
    expected = hp_after - 5 if affinity != "absorb" else 40
    assert c.state.ext.hp["orc"].current == expected
    if affinity == "absorb":
        assert ev["healed"] == 5


@pytest.mark.rule("FU-RES-3", "FU-RES-1")
def test_spell_spends_mp_and_checks_magic_defense() -> None:
    c = _fight(affinities={"ice": "vulnerable"})
    run(c, "ada: spell Frost mp=10 target=orc damage=5 type=ice dice=5,3")
    sp = events(c, "spell")[0].data
    assert sp["dl"] == 8 and sp["hit"] and sp["roll"]["expression"] == "{d8+d8}"
    assert c.state.ext.mp["ada"].current == 10
    assert c.state.ext.hp["orc"].current == 40 - 2 * (5 + 5)
    run(c, "orc: act")
    refused(c, "ada: spell Frost mp=11 target=orc", "FU-RES-1", IllegalCommand)


@pytest.mark.rule("FU-RES-3")
def test_a_spell_on_an_ally_takes_effect_with_no_check_against_its_magic_defense() -> None:
    """Only an offensive spell is a Magic Check against Magic Defense: Bea's Heal on Ada
    spends its MP and takes effect whatever Ada's Magic Defense (before: it rolled {INS +
    WLP} against Ada's MDef 20 and missed); a damaging spell on an ally still rolls."""
    c = make(pc("ada", mdef=20), pc("bea", mp=30), npc("orc"), npc("orc2"))
    run(c, "ada: initiative dice=6,6,6,6", "ada: act", "orc: act")
    run(c, "bea: spell Heal mp=10 target=ada")
    (cast,) = events(c, "spell")
    assert cast.data == {"name": "Heal", "mp": 10, "mp_after": 20, "target": "ada"}
    assert c.state.ext.mp["bea"].current == 20
    lines = log_view(c, Viewer.of_player("ada"))[-1]["lines"]
    assert "Bea casts Heal (10 MP) on Ada: no Magic Check, it takes effect" in lines
    err = refused(c, "orc2: spell Mend target=orc dice=3,4", "FU-RES-3", InvalidInput)
    assert "leave out dice=" in str(err)
    refused(c, "orc2: spell Mend target=orc accuracy=dex+ins", "FU-RES-3", InvalidInput)
    run(c, "orc2: spell Mend target=orc2")  # the caster is its own ally
    assert events(c, "spell")[0].data == {"name": "Mend", "mp": 0, "mp_after": 10,
                                          "target": "orc2"}
    run(c, "ada: act", "orc: spell Blast target=orc2 damage=5 dice=1,2")
    assert events(c, "spell")[0].data["dl"] == 8  # offensive: vs Magic Defense


@pytest.mark.rule("FU-RES-3")
def test_a_recorded_spell_on_an_ally_with_a_check_replays_as_played() -> None:
    """A log recorded when a spell on an ally rolled against its Magic Defense folds and reads
    as it did: the check it recorded, not the new rule's."""
    from fracas.engine.events import Record

    c = make(pc("ada", mdef=20), pc("bea", mp=30), npc("orc"), npc("orc2"))
    run(c, "ada: initiative dice=6,6,6,6", "ada: act", "orc: act",
        "bea: spell Heal mp=10 target=ada")
    data = [r.to_data() for r in c.records]
    old = {"name": "Heal", "mp": 10, "mp_after": 20, "target": "ada",
           "roll": {"expression": "{d8+d8}", "total": 7},
           "text": "{d8+d8} → {[3] + [4]} = 7", "dl": 20, "total": 7, "hr": 4,
           "critical": False, "fumble": False, "success": False, "hit": False, "magic": True}
    (spell,) = [e for e in data[-1]["events"] if e["type"] == "spell"]
    spell["data"] = old
    replayed = Conflict(c.ruleset, "test",
                        [Record.from_data(d, c.ruleset.events) for d in data])
    assert replayed.state.ext.mp["bea"].current == 20
    assert [r.to_data() for r in replayed.records] == data
    lines = log_view(replayed, Viewer.gm())[-1]["lines"]
    assert any("against Ada: {d8+d8} → {[3] + [4]} = 7 vs 20, HR 4 — misses" in x
               for x in lines), lines


@pytest.mark.rule("FU-RES-4")
def test_status_effects_step_dice_down_never_below_d6() -> None:
    c = make(pc("ada", dex=10, ins=8, mig=6, wlp=12), npc("orc"))
    run(c, "status ada slow", "status ada enraged", "status ada weak", "status ada shaken")
    run(c, "ada: check dex+ins 10 turn=no dice=5,5")
    assert events(c, "check")[0].data["roll"]["expression"] == "{d6+d6}"
    run(c, "ada: check mig+wlp 10 turn=no dice=5,5")
    assert events(c, "check")[0].data["roll"]["expression"] == "{d6+d10}"
    refused(c, "status ada slow", "FU-RES-4", IllegalCommand)
    run(c, "status ada slow no", "ada: check dex+ins 10 turn=no dice=5,5")
    assert events(c, "check")[0].data["roll"]["expression"] == "{d8+d6}"


@pytest.mark.rule("FU-RES-4", "FU-CON-12")
def test_the_gms_status_offers_are_those_the_status_command_takes() -> None:
    """The GM is offered to put on each one still fighting the effects it does not hold and
    to take off those it holds, nobody out; each offer is taken, and what is not offered is
    refused. Before, all six were offered both ways on everyone: ``status golem weak`` on a
    Weak golem, ``status ada dazed no`` on an Ada not Dazed, each one refused once sent."""
    c = run(make(pc("ada"), npc("golem"), npc("orc")), "ada: initiative dice=6,6",
            "status golem weak", "status golem slow", "damage orc 99")
    every = ("dazed", "shaken", "slow", "weak", "enraged", "poisoned")
    offers = {(lc.choice("target").fixed, lc.choice("on").fixed is not False):
              lc.choice("effect").allowed for lc in c.legal(None) if lc.verb == "status"}
    assert offers == {("ada", True): every, ("golem", True): ("dazed", "shaken", "enraged",
                                                              "poisoned"),
                      ("golem", False): ("weak", "slow")}
    for (target, on), effects in offers.items():
        for effect in every:
            command = f"status {target} {effect}" + ("" if on else " no")
            if effect in effects:
                run(c, command, "undo")
            else:
                refused(c, command, "FU-RES-4", IllegalCommand)
    refused(c, "status orc dazed", "FU-CON-12", IllegalCommand)


@pytest.mark.rule("FU-RES-4", "FU-CON-12")
def test_one_taken_out_keeps_its_status_effects_and_its_sheet_says_them() -> None:
    """The rules end no status effect as a character leaves the fight (FU-CON-12: it takes no
    more turns; the seed says nothing of statuses): the orc taken out is Dazed and Weak still,
    and its sheet says so — as anyone's does — for the GM and the players alike."""
    from fracas.engine.views import view

    c = run(make(pc("ada"), npc("orc")), "ada: initiative dice=6,6", "status orc dazed",
            "status orc weak", "damage orc 99")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        (orc,) = [p for p in view(c, viewer)["conflict"]["participants"] if p["id"] == "orc"]
        assert orc["out"] and orc["statuses"] == ["dazed", "weak"]
        sheet = {i["key"]: i["value"] for i in orc["sheet"]}
        assert sheet["statuses"] == "Dazed, Weak" and sheet["ins"] == "d6 (d8 on the sheet)"


@pytest.mark.rule("FU-RES-4", "FU-CON-3")
def test_status_effects_change_the_initiative_check_and_defense() -> None:
    c = make(pc("ada", dex=10, ins=10), npc("orc", initiative=10))
    run(c, "status ada dazed")
    from fracas.engine import Viewer
    from fracas.engine.views import view
    ada = view(c, Viewer.gm())["conflict"]["participants"][0]
    assert ada["dice"]["ins"] == 8 and ada["mdef"] == 8 and ada["defense"] == 10
    run(c, "ada: initiative dice=5,4")
    ev = events(c, "initiative_checked")[0].data
    assert ev["check"]["roll"]["expression"] == "{d10+d8}" and not ev["success"]


@pytest.mark.rule("FU-RES-1", "FU-CON-12")
def test_zero_hp_takes_a_participant_out() -> None:
    c = _fight()
    run(c, "damage orc 45")
    assert [e.type for e in events(c)] == ["damage", "participant_out"]
    assert c.state.ext.hp["orc"].current == 0
    refused(c, "damage orc 1", "FU-CON-12", IllegalCommand)


@pytest.mark.rule("FU-RES-3", "FU-CON-2")
def test_an_attack_is_offered_with_each_equipped_weapon_or_bare_hands() -> None:
    sword = {"kind": "weapon", "name": "Sword", "accuracy": "dex+mig", "damage": 6}
    dagger = {"kind": "weapon", "name": "Twin daggers", "accuracy": "dex+ins", "damage": 4}
    c = make(pc("ada", equipment=[sword, dagger]), pc("bruno"), npc("orc", defense=9))
    run(c, "ada: initiative dice=6,6,6,6")
    (attack,) = [lc for lc in c.legal("ada") if lc.verb == "attack"]
    assert attack.choice("weapon").allowed == ("Sword", "Twin daggers", "unarmed strike")
    (bare,) = [lc for lc in c.legal("bruno") if lc.verb == "attack"]
    assert bare.choice("weapon").allowed == ("unarmed strike",)
    cmd = attack.command(target="orc", weapon="Twin daggers")
    c.execute({**cmd, "args": {**cmd["args"], "dice": [4, 4]}}, time="")
    assert events(c, "attack")[0].data["weapon"] == "Twin daggers"


@pytest.mark.rule("FU-RES-3")
def test_gm_only_equipment_is_not_named_in_the_attack_offered() -> None:
    cursed = {"kind": "weapon", "name": "Zqcursed blade", "accuracy": "dex+mig", "damage": 6}
    c = make({**pc("ada", equipment=[cursed]), "gm_only": ["equipment"]}, pc("bruno"),
             npc("orc"))
    run(c, "ada: initiative dice=6,6,6,6")
    (gm,) = [lc for lc in offered_to(c, Viewer.gm(), "ada") if lc.verb == "attack"]
    assert gm.choice("weapon").allowed == ("Zqcursed blade", "unarmed strike")
    offered = offered_to(c, Viewer.of_player("ada"), "ada")
    assert "zqcursed" not in json.dumps([lc.to_data() for lc in offered]).lower()
    (attack,) = [lc for lc in offered if lc.verb == "attack"]
    assert "weapon" not in [p.name for p in attack.params]  # the GM's sheet gives it
    run(c, "ada: attack orc weapon='Zqcursed blade' dice=5,5")  # typed by the GM
    mine = json.dumps(log_view(c, Viewer.of_player("ada")))
    assert "zqcursed" not in mine.lower() and "Ada: attack" in mine
    assert "Zqcursed blade" in json.dumps(log_view(c, Viewer.gm()))


def _params(c: Conflict, viewer: Viewer, actor: str, verb: str) -> list[dict[str, Any]]:
    """The parameters of each ``verb`` offered to ``viewer`` for ``actor``, as the server
    sends them (``…/legal-commands``)."""
    from fracas.server.offers import structured
    from fracas.server.projection import Live

    offered = structured(Live(c, viewer), actor)[actor]
    return [{p["name"]: p for p in lc["params"]} for lc in offered if lc["verb"] == verb]


@pytest.mark.rule("FU-RES-3", "FU-CHK-5")
def test_an_empty_choice_says_what_leaving_it_out_stands_for() -> None:
    """The table's empty choices read as what the decision takes (before: a bare "—"): an
    attack's weapon is the first on the sheet (an unarmed strike for one with none), a
    spell's damage is physical and its check INS + WLP, and no supporters picked is every
    other PC."""
    c = make(pc("ada"), pc("bruno"), npc("orc"))
    supporters = _params(c, Viewer.of_player("ada"), "ada", "initiative")[0]["supporters"]
    assert "every other PC" in supporters["help"] and supporters["default"] is None
    run(c, "ada: equip weapon Sword damage=6", "ada: equip weapon Axe damage=8",
        "ada: initiative dice=6,5,4,5")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        attacks = _params(c, viewer, "ada", "attack")
        assert attacks and all(a["weapon"]["default"] == "Sword" for a in attacks)
        assert "first weapon on the sheet" in attacks[0]["weapon"]["help"]
        spell = _params(c, viewer, "ada", "spell")[0]
        assert spell["type"]["default"] == "physical"
        assert spell["accuracy"]["default"] == "ins+wlp" and "ins+wlp" in spell["accuracy"]["help"]
    run(c, "ada: attack orc dice=1,2")  # what it says is what the decision takes
    assert events(c, "attack")[0].data["weapon"] == "Sword"
    orc = _params(c, Viewer.gm(), "orc", "attack")[0]
    assert orc["weapon"]["allowed"] == ["unarmed strike"]
    assert orc["weapon"]["default"] == "unarmed strike"
