"""What a player DOES read in a masked VERS roll: the modifiers they may know, a "?" for each
one a GM-only stat gives away, "?" for the total, no modified TN and no margin — and the whole
breakdown, total and margin when nothing in it is secret. Also the sentences of a plain check
("TN 13 (…) → 11: rolled [2, 3, 4] = 9, success, 2 DoS") and of modifiers that cancel out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fracas.engine import Viewer
from fracas.engine.conflict import Conflict
from fracas.engine.secrets import Modifier
from fracas.engine.views import log_view
from fracas.rulesets.vers.checks import Check, breakdown, check_text, signed
from tests.support.reading import last_sentences

from .helpers import do, make, npc, pc

ALICE = Viewer.named("alice")


def table() -> Conflict:
    """Ada (Alice's, wounded: −1), a thug whose skills are GM-only, and a rat with none."""
    ada = {**pc("ada", tn={"close_combat": 12}, weapons={"sword": {"ev": 4}}),
           "player": "alice"}
    thug = {**npc("thug", tn={"close_combat": 13}, skills={"close_combat": 2},
                  weapons={"club": {"ev": 3}}), "gm_only": ["skills", "tn"]}
    c = make(ada, thug, npc("rat", tn={"close_combat": 10}))
    do(c, "harm ada 3", "open ada")
    return c


def last_check(c: Conflict, viewer: Viewer) -> dict[str, Any]:
    return dict(log_view(c, viewer)[-1]["events"][0]["data"])


@pytest.mark.rule("VR-ROLL-2")
def test_a_player_sees_their_own_penalty_and_a_question_mark_for_the_hidden_one():
    c = table()
    do(c, "ada: attack thug dice=2,2,2")
    said = last_sentences(c, ALICE)[0]
    assert said.startswith("Ada attacks Thug with sword (close): Close combat TN 12 "
                           "(−1 wounded, ? Thug's close combat or dodge: ?): rolled [2, 2, 2] = 6, "
                           "success → hit")
    assert "→ 9" not in said and "DoS" not in said  # modified TN and margin give −2 away
    data = last_check(c, ALICE)
    assert data["mods"] == [["wounded", -1], ["Thug's close combat or dodge", None]]
    assert (data["modifier"], data["target_number"], data["dos"]) == (None, None, None)
    assert data["tn"] == 12 and data["total"] == 6 and data["success"] is True
    gm = last_sentences(c)[0]
    assert ("(−1 wounded, −2 Thug's close combat or dodge: −3) → 9: rolled [2, 2, 2] = 6, success, "
            "3 DoS") in gm


@pytest.mark.rule("VR-ROLL-2")
def test_with_nothing_secret_in_it_a_player_sees_the_whole_breakdown_and_margin():
    c = table()
    do(c, "ada: attack rat dice=2,2,2")
    said = last_sentences(c, ALICE)[0]
    assert ("Close combat TN 12 (−1 wounded: −1) → 11: rolled [2, 2, 2] = 6, success, 5 DoS "
            "→ hit") in said
    assert said == last_sentences(c)[0]


@pytest.mark.rule("VR-ROLL-2")
def test_a_hidden_tn_leaves_the_modifiers_a_player_knows_and_their_total():
    c = table()
    do(c, "harm thug 3", "ada: handoff thug", "thug: attack ada dice=3,3,3")
    said = last_sentences(c, ALICE)[0]
    assert said.startswith("Thug attacks Ada with club (close): Close combat TN ? (−1 wounded: "
                           "−1): rolled [3, 3, 3] = 9, success → hit")
    assert "TN 13" not in said and "→ 12" not in said and "DoS" not in said
    gm = last_sentences(c)[0]
    assert "TN 13 (−1 wounded: −1) → 12: rolled [3, 3, 3] = 9, success, 3 DoS" in gm


@pytest.mark.rule("VR-ROLL-2")
def test_an_onlooker_sees_no_more_than_a_player():
    c = table()
    do(c, "ada: attack thug dice=2,2,2")
    said = last_sentences(c, Viewer.public())[0]
    assert "? Thug's close combat or dodge: ?" in said and "−2" not in said


@pytest.mark.rule("VR-ROLL-1")
def test_a_checks_sentence_names_tn_modifiers_modified_tn_roll_and_margin():
    mods = (Modifier("guards", -2),)
    success = Check(skill="athletics", tn=13, mods=mods, breakdown=breakdown(mods),
                    target_number=11, total=9, success=True, dos=2, dof=0)
    assert check_text(success) == "Athletics TN 13 (−2 guards: −2) → 11: rolled 9, success, 2 DoS"
    failure = replace(success, total=14, success=False, dos=0, dof=3)
    assert check_text(failure) == "Athletics TN 13 (−2 guards: −2) → 11: rolled 14, failure, 3 DoF"
    plain = replace(success, skill="close_combat", mods=(), target_number=13, dos=4)
    assert check_text(plain) == "Close combat TN 13: rolled 9, success, 4 DoS"
    rolled = replace(plain, roll={"expression": "3d6", "dice": [2, 3, 4], "total": 9})
    assert check_text(rolled) == "Close combat TN 13: rolled [2, 3, 4] = 9, success, 4 DoS"


@pytest.mark.rule("VR-ROLL-1")
def test_a_masked_checks_sentence_keeps_what_is_known():
    mods = (Modifier("wounded", -1), Modifier("Thug's dodge", None))
    masked = Check(skill="close_combat", tn=None, mods=mods, breakdown=breakdown(mods),
                   target_number=None, total=9, success=False, dos=None, dof=None)
    assert check_text(masked) == ("Close combat TN ? (−1 wounded, ? Thug's dodge: ?): rolled 9, "
                                  "failure")
    assert check_text(replace(masked, tn=12)).startswith("Close combat TN 12 (")
    bare = replace(masked, mods=(), breakdown="no modifiers", success=True)
    assert check_text(bare).endswith(": rolled 9, success")


@pytest.mark.rule("VR-ROLL-2")
def test_modifiers_that_cancel_out_read_plus_zero_and_zeros_are_left_out():
    assert signed(0) == "+0" and signed(-3) == "−3" and signed(2) == "+2"
    m = Modifier
    assert breakdown([m("reach", 2), m("wounded", -2)]) == "+2 reach, −2 wounded: +0"
    assert breakdown([m("reach", 0), m("cover", -3)]) == "−3 cover: −3"
    assert breakdown([m("reach", 0)]) == "no modifiers"
    assert breakdown([]) == "no modifiers"
    assert breakdown([m("reach", 0), m("dodge", None)]) == "? dodge: ?"
