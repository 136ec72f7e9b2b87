"""Secrets stay secret in Fabula Ultima: GM-only attribute dice and gear never reach a
player, not even through a roll's expression."""

from __future__ import annotations

import json
import re

import pytest

from fracas.cli.render import log_lines
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view

from .support import events, make, npc, pc, refused, run

ADA = Viewer.of_player("ada")
SABER = {"kind": "weapon", "name": "Saber", "accuracy": "dex+mig", "bonus": 3, "damage": 6}


def _seen(c, viewer=ADA) -> str:  # type: ignore[no-untyped-def]
    lines = [line for _, _, _, ls in log_lines(c, viewer) for line in ls]
    return json.dumps(log_view(c, viewer)) + json.dumps(view(c, viewer)) + json.dumps(lines)


def _captain():  # type: ignore[no-untyped-def]
    captain = npc("captain", dex=12, mig=10, ins=6, wlp=10, defense=9, mdef=8,
                  equipment=[SABER])
    captain["gm_only"] = ["dex", "mig", "ins", "wlp", "equipment"]
    return make(pc("ada"), captain)


def test_an_npcs_roll_never_shows_its_gm_only_attribute_dice_or_weapon_bonus() -> None:
    c = run(_captain(), "ada: initiative dice=2,2", "captain: attack ada dice=5,4",
            "ada: attack captain dice=1,2",
            "captain: spell Bolt mp=5 target=ada damage=5 dice=3,3",
            "ada: act waits", "captain: check dex+mig dl=10 turn=no dice=2,9")
    text = _seen(c)
    for secret in ("d12", "d10", "d6", "+3"):
        assert secret not in text, secret
    gm = json.dumps(log_view(c, Viewer.gm()))
    assert "{d12+d10}+3" in gm and "{d6+d10}" in gm
    # totals and outcomes stay, and the player's own rolls keep their dice
    attacks = [e["data"] for r in log_view(c, ADA) for e in r["events"]
               if e["type"] == "attack" and e["actor"] == "captain"]
    assert attacks and attacks[0]["total"] == 12 and "hit" in attacks[0]
    assert "{d8+d8}" in text


def test_gm_only_equipment_is_not_listed_for_players() -> None:
    c = run(_captain(), "captain: equip armor Mail defense=1")
    text = _seen(c)
    assert "Saber" not in text and "Mail" not in text
    gm = json.dumps(view(c, Viewer.gm())) + json.dumps(log_view(c, Viewer.gm()))
    assert "Saber" in gm and "Mail" in gm


@pytest.mark.rule("FU-CON-6", "FU-CON-8")
def test_a_concealed_foes_turn_leaves_every_tracker_line_in_place_without_them() -> None:
    c = run(make(pc("ada"), npc("orc"), npc("lurk")), "ada: initiative dice=6,6",
            "conceal lurk", "ada: attack orc dice=1,2", "orc: attack ada dice=1,2")

    def lines(viewer: Viewer) -> list[str]:
        return view(c, viewer)["conflict"]["ruleset"]["lines"]  # type: ignore[no-any-return]

    gm, ada = lines(Viewer.gm()), lines(ADA)
    assert "round 1: side foes on turn — may act: Lurk" in gm
    assert "foes: acted Orc · turns left Lurk" in gm
    # the same lines, none gone, none naming the lurker
    assert len(ada) == len(gm)
    assert "round 1: side foes on turn — may act: nobody" in ada
    assert "foes: acted Orc · turns left —" in ada
    assert "Lurk" not in json.dumps(ada)


@pytest.mark.rule("FU-RES-3")
def test_a_players_odds_leave_a_concealed_foe_out_with_its_chance() -> None:
    c = run(make(pc("ada"), npc("orc", defense=8), npc("lurk", defense=12)),
            "ada: initiative dice=6,6", "conceal lurk")
    odds = view(c, ADA)["conflict"]["odds"]
    # before: "hit Orc 61% 9%": the name was netted out and the lurker's chance kept
    assert len(odds) == 2, odds  # her attack and her spell
    assert all(re.fullmatch(r".*: hit Orc \d+%", line) for line in odds), odds
    assert any("Lurk" in line for line in view(c, Viewer.gm())["conflict"]["odds"])


@pytest.mark.rule("FU-CON-3")
def test_a_concealed_foe_sets_no_initiative_dl_so_the_check_reads_as_without_it() -> None:
    c = run(make(pc("ada"), npc("orc", initiative=10), npc("lurk", initiative=20)),
            "conceal lurk", "ada: initiative dice=6,5")
    check = events(c, "initiative_checked")[0].data
    assert check["dl"] == 10 and check["dl_from"] == "orc"  # before: 20, from the lurker
    lines = log_view(c, ADA)[-1]["lines"]  # before: the line was netted out of Ada's log
    assert any("DL = Orc's Initiative" in line for line in lines), lines


@pytest.mark.rule("FU-RES-3")
def test_a_concealed_foes_hit_reaches_the_players_log_as_the_gms_without_its_name() -> None:
    c = run(make(pc("ada"), npc("orc"), npc("lurk")), "ada: initiative dice=6,6",
            "conceal lurk", "ada: attack orc dice=1,2", "lurk: attack ada dice=6,5",
            "orc: attack ada dice=1,2")
    entries = log_view(c, ADA)[2:]  # after the start, when the lurker was concealed
    hit = [e for e in entries if any("Ada takes" in line for line in e["lines"])]
    # before: Ada's HP fell with no line in her log to say why
    assert len(hit) == 1 and hit[0]["command"] == "the GM acts", entries
    assert hit[0]["lines"] == ["Ada takes 6 physical damage, HP 34"]
    # nor the lurker's name or id, its turn or its attack roll
    assert "lurk" not in json.dumps(entries).lower()
    assert [e["type"] for e in hit[0]["events"]] == ["damage"]


@pytest.mark.rule("FU-CON-3", "FU-CHK-5")
def test_a_concealed_pc_does_not_support_the_initiative_unless_the_gm_names_it() -> None:
    """Before: the lurking PC supported by default, so the check asked Ada for six dice (two
    of them its) and her refusal counted it though it named it nowhere."""
    scout = pc("scout")
    c = run(make(pc("ada"), pc("bruno"), scout, npc("orc")), "conceal scout")
    err = refused(c, "ada: initiative dice=6,6", "FU-CHK-5")
    assert "needs 4 dice: two for each supporter (Bruno)" in str(err)
    assert "scout" not in str(err).lower()
    legal = [lc for lc in c.legal("ada") if lc.verb == "initiative"]
    assert [[c.allowed for c in lc.params if c.name == "supporters"] for lc in legal] == [
        [("bruno",)]]
    run(c, "ada: initiative dice=5,5,6,6")
    check = events(c, "initiative_checked")[0].data
    assert [s["participant"] for s in check["supporters"]] == ["bruno"]
    assert "scout" not in json.dumps(log_view(c, ADA)[-1]).lower()  # the check's entry


@pytest.mark.rule("FU-CHK-5")
def test_the_gm_names_a_concealed_pc_as_a_supporter_to_count_it() -> None:
    c = run(make(pc("ada"), pc("bruno"), pc("scout"), npc("orc")), "conceal scout",
            "ada: initiative supporters=bruno,scout dice=5,5,5,5,6,6")  # the GM
    check = events(c, "initiative_checked")[0].data
    assert [s["participant"] for s in check["supporters"]] == ["bruno", "scout"]
    assert check["support"] == 2


@pytest.mark.rule("FU-RES-4")
def test_a_gm_only_spell_list_tells_no_player_the_status_a_spell_inflicts() -> None:
    """The lich's GM-only Hex (status = "shaken"): its miss on Ada tells her nothing of what
    it would have done, and its hit on an Ada Shaken already no "already"; the status a hit
    puts on reaches her as the GM's ``status ada shaken`` would. The GM reads it all."""
    lich = {**npc("lich", mp=30, spells=[{"name": "Hex", "mp": 5, "status": "shaken"}]),
            "gm_only": ["spells"]}
    c = run(make(pc("ada"), lich), "ada: initiative dice=1,2",
            "lich: spell Hex target=ada dice=1,2")
    assert "shaken" not in _seen(c).lower() and "inflicts" not in _seen(c)
    run(c, "ada: act", "lich: spell Hex target=ada dice=6,5")
    hit = log_view(c, ADA)[-1]
    assert "Ada is Shaken (WLP one die size down)" in hit["lines"]
    assert "inflicts" not in json.dumps(hit)
    run(c, "ada: act", "lich: spell Hex target=ada dice=6,5")
    assert "already" not in json.dumps(log_view(c, ADA)[-1])
    gm = json.dumps(log_view(c, Viewer.gm()))
    assert "inflicts Shaken" in gm and "Ada is already Shaken, nothing added" in gm


@pytest.mark.rule("FU-RES-4")
def test_a_concealed_casters_status_reaches_the_players_log_as_the_gms() -> None:
    """A hidden lurker's Hex on Ada: she reads that she is Dazed, as the GM's act, with no
    word of the lurker, its spell or its roll (as a hidden one's hit reaches her)."""
    lurk = npc("lurk", spells=[{"name": "Hex", "mp": 5, "status": "dazed"}])
    c = run(make(pc("ada"), npc("orc"), lurk), "ada: initiative dice=6,6",
            "conceal lurk", "ada: attack orc dice=1,2", "orc: act",
            "lurk: spell Hex target=ada dice=6,5")
    entries = log_view(c, ADA)[2:]
    dazed = [e for e in entries if any("Ada is Dazed" in line for line in e["lines"])]
    assert len(dazed) == 1 and dazed[0]["command"] == "the GM acts", entries
    assert dazed[0]["lines"] == ["Ada is Dazed (INS one die size down)", "round 1 ends"]
    assert "lurk" not in json.dumps(entries).lower() and "hex" not in json.dumps(entries).lower()
