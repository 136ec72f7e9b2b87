"""Rare Fabula Ultima paths: a PC who left before the Initiative Group Check, a recovery past
the maximum as the log tells it, and which refusal wins when two apply."""

from __future__ import annotations

import pytest

from fracas.engine import Viewer
from fracas.errors import IllegalCommand, InvalidInput
from tests.rulesets.fabula_ultima.support import events, make, npc, pc, refused, run
from tests.support.reading import last_sentences


@pytest.mark.rule("FU-CHK-5", "FU-CON-3")
def test_a_pc_who_has_left_does_not_support_the_initiative_group_check() -> None:
    c = make(pc("ada"), pc("bruno"), pc("cara"), npc("orc", initiative=20))
    run(c, "leave cara 'stayed in town'")
    err = refused(c, "ada: initiative dice=5,5,4,4,3,3", "FU-CHK-5", InvalidInput)
    assert "(Bruno)" in str(err)  # two dice for Bruno, two for Ada: Cara is not counted
    refused(c, "ada: initiative supporters=cara dice=5,5,4,4", "FU-CON-12", IllegalCommand)
    run(c, "ada: initiative dice=5,5,4,4")
    ev = events(c, "initiative_checked")[0].data
    assert [s["participant"] for s in ev["supporters"]] == ["bruno"]
    assert ev["support"] == 1


@pytest.mark.rule("FU-RES-1")
def test_a_capped_recovery_logs_what_was_recovered() -> None:
    c = make(pc("ada", hp=40), npc("orc"))
    run(c, "damage ada 15", "recover ada 100")
    rec = events(c, "recovered")[0].data
    assert (rec["amount"], rec["after"]) == (15, 40)
    assert c.state.ext.hp["ada"].current == 40
    assert last_sentences(c) == ["Ada recovers 15 HP, HP 40"]
    run(c, "recover ada 5")
    assert events(c, "recovered")[0].data["amount"] == 0  # already at the maximum


@pytest.mark.rule("FU-RES-1")
def test_a_players_log_shows_their_own_recovery_in_full() -> None:
    c = make(pc("ada", hp=40), npc("orc"))
    run(c, "damage ada 15", "recover ada 10")
    assert last_sentences(c, Viewer.named("ada")) == ["Ada recovers 10 HP, HP 35"]


@pytest.mark.rule("FU-RES-2")
def test_a_recovery_says_what_the_number_is_and_the_end_of_a_crisis() -> None:
    """"Ada recovers 26 HP (45)" left a listener to guess what 45 was, and nothing said that
    she was out of Crisis: the pool is named as a damage names it, and the Crisis's end is
    said (not to one who may not know her HP: nor is the number)."""
    c = make(pc("ada", hp=40), {**pc("bea", hp=40), "gm_only": ["hp"]}, npc("orc"))
    run(c, "damage ada 25", "recover ada 6")
    assert last_sentences(c) == ["Ada recovers 6 HP, HP 21 — out of Crisis"]
    run(c, "damage ada 5", "recover ada 2")  # 16 → 18: still in Crisis
    assert last_sentences(c) == ["Ada recovers 2 HP, HP 18"]
    run(c, "damage bea 25", "recover bea 6")
    assert last_sentences(c, Viewer.named("ada")) == ["Bea recovers ? HP"]
    assert last_sentences(c) == ["Bea recovers 6 HP, HP 21 — out of Crisis"]


@pytest.mark.rule("FU-CHK-4")
def test_a_fumble_reads_as_one_fabula_point_gained() -> None:
    c = make(pc("ada"), npc("orc", initiative=5))
    run(c, "ada: initiative dice=1,1")
    gained = events(c, "fabula_changed")[0].data
    assert (gained["delta"], gained["fp_after"]) == (1, c.state.ext.fp["ada"])
    assert "Ada gains 1 Fabula Point (fumble); now 4" in last_sentences(c)


@pytest.mark.rule("FU-CHK-4")
def test_a_spent_fabula_point_reads_what_it_bought_and_how_many_are_left() -> None:
    """Before: 'Ada spends 1 Fabula Point (a reroll): 2', the 2 unexplained."""
    c = run(make(pc("ada", fp=3), npc("orc")), "ada: fabula -1 why='a reroll'")
    assert last_sentences(c) == ["Ada spends 1 Fabula Point for a reroll; 2 left"]
    run(c, "ada: fabula -2")
    assert last_sentences(c) == ["Ada spends 2 Fabula Points; 0 left"]


@pytest.mark.rule("FU-CON-3")
def test_with_no_adversaries_the_gm_gives_the_dl_of_the_group_check() -> None:
    c = make(pc("ada"), pc("bruno"))
    err = refused(c, "ada: initiative dice=5,5,4,4", "FU-CON-3", IllegalCommand)
    assert "give dl=N" in str(err)
    run(c, "ada: initiative dl=8 dice=5,5,4,4")
    ev = events(c, "initiative_checked")[0].data
    assert (ev["dl"], ev["dl_from"], ev["initiatives"]) == (8, "given", {})


@pytest.mark.rule("FU-CON-3")
def test_the_gm_may_give_a_dl_of_zero_but_not_below() -> None:
    c = make(pc("ada"), pc("bruno"))
    refused(c, "ada: initiative dl=-1 dice=5,5,4,4", "FU-CON-3", InvalidInput)
    run(c, "ada: initiative dl=0 dice=5,5,4,4")
    ev = events(c, "initiative_checked")[0].data
    assert (ev["dl"], ev["dl_from"]) == (0, "given")


@pytest.mark.rule("FU-CHK-1")
def test_a_dl_of_zero_is_a_check_and_a_negative_one_is_refused() -> None:
    c = make(pc("ada"), npc("orc"))
    run(c, "ada: check dex+ins dl=0 turn=no dice=2,3")
    assert events(c, "check")[0].data["success"]
    refused(c, "ada: check dex+ins dl=-1 turn=no dice=2,3", "FU-CHK-1", InvalidInput)
