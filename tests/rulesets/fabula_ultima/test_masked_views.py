"""What a player DOES read when a Fabula Ultima roll meets a GM-only stat: their own dice,
total and High Roll, "vs Defense" in place of the hidden number, the damage dealt without the
hidden HP left — and every number when nothing is secret."""

from __future__ import annotations

import pytest

from fracas.engine import Conflict, Viewer
from tests.rulesets.fabula_ultima.support import make, npc, pc, run
from tests.support.reading import last_sentences

ADA = Viewer.named("ada")


def fight() -> Conflict:
    orc = {**npc("orc", defense=9, hp=30), "gm_only": ["defense", "hp"]}
    return run(make(pc("ada", dex=10, mig=10), orc, npc("rat", defense=7, hp=10)),
               "ada: initiative dice=6,6")


@pytest.mark.rule("FU-RES-3")
def test_a_player_reads_their_roll_against_a_hidden_defense_and_the_damage_without_hp() -> None:
    c = run(fight(), "ada: attack orc dice=6,5")
    said = last_sentences(c, ADA)
    assert ("Ada attacks with unarmed strike against Orc: {d10+d10} → {[6] + [5]} = 11 "
            "vs Defense, HR 6 — hits") in said
    assert "Orc takes 6 physical damage" in said
    assert last_sentences(c, Viewer.public()) == said  # an onlooker reads no more
    gm = last_sentences(c)
    assert "= 11 vs 9, HR 6 — hits" in gm[1] and "Orc takes 6 physical damage, HP 24" in gm


@pytest.mark.rule("FU-RES-3")
def test_with_nothing_secret_a_player_reads_the_defense_and_the_hp_left() -> None:
    c = run(fight(), "ada: attack rat dice=6,5")
    said = last_sentences(c, ADA)
    assert "= 11 vs 7, HR 6 — hits" in said[1]
    assert "Rat takes 6 physical damage, HP 4 — in Crisis" in said
    assert said == last_sentences(c)
