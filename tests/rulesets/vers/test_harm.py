"""Condition ladders: bands, slots, upgrades, penalties, consciousness, recovery (VR-INJ-*)."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.views import view
from fracas.rulesets.vers.views import view_ext

from .helpers import do, make, npc, of, pc, refused, ruleset


def victim(**stats):
    return make(pc("ada", tn={"close_combat": 12, "discipline": 12, "medicine": 12}, **stats),
                npc("thug", tn={"close_combat": 12}))


@pytest.mark.rule("VR-INJ-1")
@pytest.mark.parametrize(("ev", "level"), [(0, "grazed"), (2, "grazed"), (3, "wounded"),
                                           (5, "wounded"), (6, "impaired"), (8, "impaired"),
                                           (9, "disabled"), (14, "disabled")])
def test_net_ev_bands_and_9_reads_as_disabled(ev, level):
    c = victim()
    events = do(c, f"harm ada {ev}")
    assert of(events, "condition")[0]["level"] == level


@pytest.mark.rule("VR-ROLL-2", "VR-INJ-5")
@pytest.mark.parametrize("ev", [-1, -4])
def test_the_gm_marks_no_harm_from_a_net_ev_below_0(ev):
    """A net EV below 0 inflicts nothing: the GM's ``harm`` with one is refused, and nothing
    is marked (0 is a graze, above)."""
    c = victim()
    err = refused(c, f"harm ada {ev}", "VR-ROLL-2")
    assert str(err) == "net EV below 0 inflicts nothing (VR-ROLL-2)"


@pytest.mark.rule("VR-INJ-2")
def test_third_graze_upgrades_to_wounded():
    c = victim()
    do(c, "harm ada 1", "harm ada 2")
    cond = of(do(c, "harm ada 0"), "condition")[0]
    assert cond["level"] == "wounded" and cond["landed"] == "grazed" and cond["upgraded"]


@pytest.mark.rule("VR-INJ-2")
def test_full_disabled_level_takes_the_character_out():
    c = victim()
    do(c, "harm ada 9", "ada: endure dice=1,1,1", "harm ada 6")
    assert c.state.participants["ada"].active  # impaired is free
    events = do(c, "harm ada 7")  # impaired and disabled full
    assert of(events, "condition")[0]["taken_out"]
    assert of(events, "participant_out")[0]["reason"] == "injury track full"
    assert not c.state.participants["ada"].active
    err = refused(c, "ada: recover", "VR-INJ-2")
    assert "Ada is out of the conflict (injury track full)" in str(err)


@pytest.mark.rule("VR-INJ-3")
def test_penalties_add_up_on_every_later_roll():
    c = victim()
    do(c, "harm ada 3", "harm ada 4", "harm ada 6", "open ada")
    att = of(do(c, "ada: attack thug dice=1,1,1"), "attack")[0]
    assert att["mods"] == [["wounded ×2", -2], ["impaired", -2]]
    view = ruleset().view_participant(c.state, Viewer.gm(), "ada")
    assert view["penalty"] == -4 and "wounded ×2" in view["summary"]


@pytest.mark.rule("VR-INJ-3")
def test_disabled_rolls_discipline_to_stay_conscious():
    c = victim()
    do(c, "harm ada 10")
    assert "ada" in c.state.ext.pending_discipline
    do(c, "open ada")
    refused(c, "ada: attack thug dice=1,1,1", "VR-INJ-3")
    end = of(do(c, "ada: endure dice=2,2,2"), "endured")[0]
    assert end["mods"] == [["disabled", -4]] and end["success"]
    att = of(do(c, "ada: attack thug dice=1,1,1"), "attack")[0]
    assert ["disabled", -4] in att["mods"]
    c2 = victim()
    events = do(c2, "harm ada 9", "ada: endure dice=5,5,5")
    assert of(events, "participant_out")[0]["reason"] == "unconscious"
    refused(c, "ada: endure dice=1,1,1", "VR-INJ-3")


@pytest.mark.rule("VR-INJ-3", "VR-INJ-4")
def test_recovery_penalty_by_highest_level_adds_to_own_and_removes_highest():
    c = victim()
    do(c, "harm ada 1", "harm ada 7", "open ada")
    rec = of(do(c, "ada: recover dice=4,4,2 skill=medicine"), "recovered")[0]
    # impaired: −2 to all skill use, and −2 to recovery actions: TN 12 − 4
    assert rec["check"]["mods"] == [["impaired", -2], ["recovery (Ada impaired)", -2]]
    assert rec["check"]["target_number"] == 8 and rec["level"] is None  # 10 fails
    rec = of(do(c, "ada: recover dice=3,3,2 skill=medicine"), "recovered")[0]
    assert rec["level"] == "impaired"
    held = c.state.ext.harm["ada"]["injury"]
    assert held.highest_name() == "grazed"
    rec = of(do(c, "ada: handoff thug", "thug: handoff", "open ada",
                "ada: recover dice=6,6,6"), "recovered")[0]
    assert rec["check"]["mods"] == []  # grazed: no penalty, to skills or to recovery
    assert rec["level"] is None and held.highest_name() == "grazed"


@pytest.mark.rule("VR-INJ-3", "VR-INJ-4")
def test_recovered_from_disabled_no_discipline_roll_is_due():
    c = make(pc("ada", tn={"close_combat": 12, "discipline": 12}), pc("bea", tn={"medicine": 12}),
             npc("thug", tn={"close_combat": 12}))
    do(c, "harm ada 10", "open bea")
    rec = of(do(c, "bea: recover ada dice=1,1,1 skill=medicine"), "recovered")[0]
    assert rec["level"] == "disabled" and rec["check"]["mods"] == [["recovery (Ada disabled)",
                                                                   -4]]  # Bea is unhurt
    do(c, "bea: handoff ada")
    att = of(do(c, "ada: attack thug dice=1,1,1"), "attack")[0]  # no endure first
    assert att["mods"] == [] and c.state.ext.turns.actions_left == 1


@pytest.mark.rule("VR-INJ-4")
def test_recovery_with_no_condition_is_refused():
    c = victim()
    do(c, "open ada")
    refused(c, "ada: recover dice=1,1,1", "VR-INJ-4")
    refused(c, "ada: recover thug dice=1,1,1", "VR-INJ-4")


@pytest.mark.rule("VR-INJ-5")
def test_focus_and_morale_tracks():
    c = victim()
    events = do(c, "harm ada 4 track=focus", "harm ada 4 track=focus")
    assert of(events, "condition")[0]["level"] == "flustered"
    events = do(c, "harm ada 4 track=focus")
    assert of(events, "condition")[0]["level"] == "disoriented"  # upgraded
    assert of(do(c, "harm ada 9 track=morale"), "condition")[0]["level"] == "demoralized"
    assert c.state.ext.harm_penalty("ada") == -1 * 2 - 2 - 4
    do(c, "open ada")
    rec = of(do(c, "ada: recover track=focus dice=1,1,1"), "recovered")[0]
    assert rec["check"]["modifier"] == -8 - 2  # every track's penalties, then recovery's
    assert rec["level"] is None  # TN 12 − 10: 3 fails
    do(c, "override ada.stats.tn.discipline 15")
    rec = of(do(c, "ada: recover track=focus dice=1,1,1"), "recovered")[0]
    assert rec["level"] == "disoriented"


@pytest.mark.rule("VR-INJ-3", "VR-TURN-4")
def test_disabled_on_its_last_action_leaves_none_not_minus_one():
    c = make(pc("ada", zone="a", tn={"athletics": 12, "close_combat": 12, "discipline": 12}),
             npc("thug", zone="a", tn={"close_combat": 12}, weapons={"club": {"ev": 12}}),
             zones=["a"])
    do(c, "open ada", "ada: attack thug dice=6,6,6")  # engaged, one action left
    events = do(c, "ada: disengage dice=6,6,6 free=1,1,1")  # fails; the free blow disables
    assert of(events, "condition")[0]["level"] == "disabled"
    assert c.state.ext.turns.actions_left == 0
    lines = view_ext(c.state, Viewer.gm())["lines"]
    assert "Acting: Ada (0 actions left)" in lines  # and why the go is not over yet:
    assert "Ada must roll Discipline to stay conscious (VR-INJ-3)" in lines


@pytest.mark.rule("VR-INJ-3")
def test_who_must_roll_discipline_is_one_sentence_of_the_view_worded_for_each_viewer():
    """The sentence is built once, in the view (``discipline``), and its line is that same
    sentence: the table reads it from there (before, the view sent ids and the page worded
    one sentence per id itself). Where their side's harm is hidden, a player's sentence names
    only their own character; the GM's names both."""
    c = make(pc("ada", tn={"discipline": 12}), pc("bruno", tn={"discipline": 12}), npc("thug"),
             harm_view={"pcs": "none", "npcs": "exact"})
    do(c, "harm ada 9", "harm bruno 9")
    for viewer, said in ((Viewer.gm(), "Ada and Bruno"), (Viewer.of_player("ada"), "Ada"),
                         (Viewer.of_player("bruno"), "Bruno")):
        ext = view(c, viewer)["conflict"]["ruleset"]
        sentence = f"{said} must roll Discipline to stay conscious (VR-INJ-3)"
        assert ext["discipline"] == sentence
        assert [line for line in ext["lines"] if "Discipline" in line] == [sentence]
    do(c, "override settings.harm_view.pcs band")  # the band names the disabled condition
    assert view(c, Viewer.of_player("ada"))["conflict"]["ruleset"]["discipline"] == \
        "Ada and Bruno must roll Discipline to stay conscious (VR-INJ-3)"
    do(c, "ada: endure dice=1,1,1")
    assert view(c, Viewer.gm())["conflict"]["ruleset"]["discipline"] == \
        "Bruno must roll Discipline to stay conscious (VR-INJ-3)"
    do(c, "end 'the inn burns'")  # once ended, nobody rolls
    assert view(c, Viewer.gm())["conflict"]["ruleset"]["discipline"] == ""


@pytest.mark.rule("VR-INJ-1")
@pytest.mark.parametrize("line, said", [
    ("override ada.tracks.nope.conditions.wounded 1", "ada has no track 'nope' (tracks: "),
    ("override ada.tracks.injury.conditions.cut 1", "has no condition 'cut' (conditions: "),
    ("override ada.tracks.injury 1", "a condition is set as ada.tracks.TRACK.conditions.LEVEL"),
])
def test_an_override_of_a_track_names_what_the_path_got_wrong(line: str, said: str) -> None:
    c = make(pc("ada"))
    error = refused(c, line, "VR-INJ-1")
    assert said in error.message
    c.execute("override ada.tracks.injury.conditions.wounded 1")  # the form it names
    assert c.state.ext.ladders("ada")["injury"].count(1) == 1
