"""Chases: pursuit scale, rolls, interposing, escape, tracking and contact (VR-CHASE-*)."""

from __future__ import annotations

import pytest

from fracas.engine import Viewer
from fracas.engine.views import view
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.chases import PURSUIT_LENGTHS, pursuit_track
from tests.support.helpers import as_stored_before

from .helpers import do, make, npc, of, pc, refused, ruleset


def runners(**extra):
    ada = pc("ada", tn={"athletics": 12, "survival": 12, "investigation": 10, "stealth": 12},
             skills={"athletics": 2})
    thief = npc("thief", skills={"athletics": 1, "stealth": 2, "survival": 1})
    return make(ada, thief, **extra)


@pytest.mark.rule("VR-CHASE-1", "VR-CHASE-2")
@pytest.mark.parametrize(("length", "positions", "start"), [(2, 5, 3), (6, 13, 7)])
def test_pursuit_scale_from_length(length, positions, start):
    c = runners()
    do(c, f"chase c1 hunter=ada quarry=thief length={length}")
    chase = c.state.ext.chases["c1"]
    assert (chase.track.length, chase.track.position, chase.stage) == (positions, start,
                                                                      "pursuit")


@pytest.mark.rule("VR-CHASE-2")
def test_length_outside_2_to_6_is_refused_and_start_may_be_set():
    c = runners()
    refused(c, "chase c1 hunter=ada quarry=thief length=7", "VR-CHASE-2")
    refused(c, "chase c1 hunter=ada quarry=thief length=2 start=6", "VR-CHASE-2")
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=2")
    assert c.state.ext.chases["c1"].track.position == 2


@pytest.mark.rule("VR-CHASE-8")
def test_a_second_chase_between_the_same_two_is_refused_while_the_first_goes_on():
    """One scale per hunter and quarry: a chase started again by mistake (another id) was
    taken, and Ada then rolled on two scales after one thief."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    for again in ("chase c2 hunter=ada quarry=thief length=3",
                  "chase c2 hunter=thief quarry=ada length=2"):
        err = refused(c, again, "VR-CHASE-8")
        assert str(err).startswith("Ada already hunts Thief in chase c1 (pursuit): one scale")
        assert "'abandon c1' first" in str(err)
    do(c, "ada: run c1 dice=6,6,6", "ada: run c1 dice=6,6,6")  # escaped: waiting on the GM
    refused(c, "chase c2 hunter=ada quarry=thief length=2", "VR-CHASE-8")
    do(c, "abandon c1", "chase c2 hunter=ada quarry=thief length=2")  # over: a new one
    assert c.state.ext.chases["c2"].stage == "pursuit"


@pytest.mark.rule("VR-CHASE-4")
def test_a_chase_cannot_start_where_the_quarry_has_already_got_away():
    c = runners()
    err = refused(c, "chase c1 hunter=ada quarry=thief length=2 start=5", "VR-CHASE-4")
    assert "1 to 4" in str(err)
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=4")


@pytest.mark.rule("VR-CHASE-3")
def test_hunter_success_moves_down_quarry_success_moves_up():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    roll = of(do(c, "ada: run c1 dice=3,3,3"), "chase_roll")[0]
    assert roll["check"]["mods"] == [["Thief's athletics", -1, "thief", "skills"]]
    assert (roll["from"], roll["to"]) == (3, 2)
    assert of(do(c, "ada: run c1 dice=6,6,6"), "chase_roll")[0]["to"] == 3
    c2 = runners()
    do(c2, "chase c1 hunter=thief quarry=ada length=2")
    assert of(do(c2, "ada: run c1 dice=3,3,3"), "chase_roll")[0]["to"] == 4
    assert of(do(c2, "ada: run c1 dice=6,6,6"), "chase_roll")[0]["to"] == 3


@pytest.mark.rule("VR-CHASE-4")
def test_position_1_means_interpose_top_means_escape():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2", "ada: run c1 dice=1,1,1",
       "ada: run c1 dice=1,1,1")
    refused(c, "ada: run c1 dice=1,1,1", "VR-CHASE-4")
    c2 = runners()
    do(c2, "chase c1 hunter=ada quarry=thief length=2")
    refused(c2, "ada: interpose c1 dice=1,1,1", "VR-CHASE-4")
    roll = of(do(c2, "ada: run c1 dice=6,6,6", "ada: run c1 dice=6,6,6"), "chase_roll")[0]
    assert roll["to"] == 5 and roll["new_stage"] == "escaped"


@pytest.mark.rule("VR-CHASE-5")
def test_gm_tactics_modifier_and_narration_kept_in_the_log():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3")
    events = do(c, 'ada: run c1 mod=-2 why="bookshelves pulled down" dice=4,4,3')
    roll = of(events, "chase_roll")[0]
    assert ["tactics", -2] in roll["check"]["mods"] and roll["check"]["target_number"] == 9
    assert not roll["check"]["success"] and roll["why"] == "bookshelves pulled down"
    assert c.records[-1].command.endswith("dice=4,4,3")
    assert "bookshelves pulled down" in c.records[-1].command


@pytest.mark.rule("VR-CHASE-5")
def test_the_gm_imposes_tactics_the_player_sees_them_and_the_next_roll_takes_them():
    """The seed: "The GM should impose bonuses or penalties based on tactics taken by the
    players". The GM sets them on the chase; the table reads them in the log and on the
    chase's line, the roller's odds count them, and the next roll takes them, once."""
    from fracas.cli.render import log_lines
    from fracas.engine import Viewer
    from fracas.engine.views import view

    alice = Viewer.of_player("ada")
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3")
    assert "tactics c1 N why=TEXT" in c.legal_commands(None)
    do(c, "tactics c1 -2 why='the crowded festival'")
    assert log_lines(c, alice)[-1][3] == [
        "chase c1: Ada's next roll takes −2 for tactics: the crowded festival"]
    seen = view(c, alice)["conflict"]
    (line,) = [x for x in seen["ruleset"]["lines"] if x.startswith("Chase c1")]
    assert line.endswith("· next roll −2 for tactics: the crowded festival")
    assert seen["ruleset"]["chases"]["c1"]["tactics"] == -2
    (odds,) = seen["odds"]  # TN 12, −1 the thief's Athletics, −2 tactics → 9
    assert "−2 tactics: −3 → 9: success 38%" in odds
    roll = of(list(c.execute("ada: run c1 dice=4,4,2", alice).events), "chase_roll")[0]
    assert ["tactics", -2] in roll["check"]["mods"] and roll["check"]["target_number"] == 9
    assert not roll["check"]["success"]  # a 10: a success at 11 without the tactics
    roll = of(list(c.execute("ada: run c1 dice=4,4,3", alice).events), "chase_roll")[0]
    assert [m[0] for m in roll["check"]["mods"]] == ["Thief's athletics"]  # taken once
    assert c.state.ext.chases["c1"].tactics == 0
    assert not any(x.endswith("tactics") for x in view(c, alice)["conflict"]["ruleset"]["lines"])


@pytest.mark.rule("VR-CHASE-5")
def test_a_players_own_tactics_modifier_is_refused_the_gm_may_give_one_and_undo_it():
    """Before, Alice could give Ada's roll any bonus she liked ('ada: run c1 mod=5'); she
    is neither offered mod= nor may give it: tactics are the GM's. The GM acting for Ada
    still may, on top of tactics set on the chase; undo takes tactics back like any record."""
    from fracas.engine import Viewer
    from fracas.engine.projector import offered
    from fracas.errors import IllegalCommand, NotAllowed

    alice = Viewer.of_player("ada")
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3")
    (run,) = [lc for lc in offered(c, alice, "ada") if lc.verb == "run"]
    assert "mod" not in [p.name for p in run.params]
    (gm_run,) = [lc for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "run"]
    assert "mod" in [p.name for p in gm_run.params]
    version = c.version
    with pytest.raises(IllegalCommand) as info:
        c.execute("ada: run c1 mod=5 dice=4,4,3", alice)
    assert info.value.rule == "VR-CHASE-5" and "the GM's call" in info.value.message
    assert c.version == version and c.state.ext.chases["c1"].track.position == 4
    with pytest.raises(NotAllowed):
        c.execute("tactics c1 5", alice)  # the GM's command
    do(c, "tactics c1 +1", "undo 1")
    assert c.state.ext.chases["c1"].tactics == 0
    do(c, "tactics c1 -1")
    roll = of(do(c, "ada: run c1 mod=+3 dice=4,4,3"), "chase_roll")[0]
    assert ["tactics", 2] in roll["check"]["mods"]  # the GM's −1 set before, +3 now


@pytest.mark.rule("VR-CHASE-5")
def test_tactics_need_a_chase_with_a_roll_to_come():
    c = runners()
    refused(c, "tactics c1 -2", "VR-CHASE-5")  # no chase c1
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    err = refused(c, "tactics c1 0", "VR-CHASE-5")
    assert "no tactics to lift" in str(err)
    do(c, "tactics c1 -2", "tactics c1 0")
    assert c.state.ext.chases["c1"].tactics == 0
    do(c, "abandon c1")
    err = refused(c, "tactics c1 -2", "VR-CHASE-5")
    assert "is over" in str(err)


def _chase_line(c, viewer: Viewer) -> str:
    """The chase's line in ``viewer``'s view."""
    lines = view(c, viewer)["conflict"]["ruleset"]["lines"]
    return next(line for line in lines if line.startswith("Chase c1 "))


@pytest.mark.rule("VR-CHASE-5", "VR-CHASE-7")
def test_tactics_lapse_when_the_chase_changes_stage_and_the_log_says_so():
    """Tactics are imposed for a situation ("heading into a crowded street festival"); a
    pursuit turned to tracking is a new one. Before, the festival's −2 stayed pending across
    'track' and the first hour of tracking took it; now it lapses, and the log says so."""
    from fracas.cli.render import log_lines

    alice = Viewer.of_player("ada")
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3",
       "tactics c1 -2 why='the crowded festival'")
    assert _chase_line(c, alice).endswith("· next roll −2 for tactics: the crowded festival")
    staged = of(do(c, "track c1 length=2"), "chase_stage")[0]
    assert staged["lapsed"] == -2
    for viewer in (alice, Viewer.gm()):
        assert log_lines(c, viewer)[-1][3] == [
            "chase c1 turns to tracking: position 3 of 5; the −2 for tactics lapses with it"]
        assert "tactics" not in _chase_line(c, viewer)
    chase = c.state.ext.chases["c1"]
    assert (chase.tactics, chase.tactics_why) == (0, "")
    (odds,) = view(c, alice)["conflict"]["odds"]  # Survival 12, −2 the thief's stealth
    assert "tactics" not in odds and "→ 10: success" in odds
    roll = of(do(c, "ada: run c1 dice=3,3,4"), "chase_roll")[0]
    assert [m[0] for m in roll["check"]["mods"]] == ["Thief's stealth"]
    assert roll["check"]["success"]  # a 10: a failure with the festival's −2
    refused(c, "tactics c1 0", "VR-CHASE-5")  # nothing left to lift
    # back to pursuit, and an abandoned chase: the same
    do(c, "tactics c1 +1 why='a fresh trail'")
    assert of(do(c, "pursue c1"), "chase_stage")[0]["lapsed"] == 1
    assert log_lines(c, alice)[-1][3][0].endswith("; the +1 for tactics lapses with it")
    do(c, "tactics c1 -1")
    assert of(do(c, "abandon c1 why='lost in the fog'"), "chase_abandoned")[0]["lapsed"] == -1
    assert log_lines(c, alice)[-1][3] == [
        "chase c1 is over: lost in the fog; the −1 for tactics lapses with it"]
    assert _chase_line(c, alice).startswith("Chase c1 [over]")
    assert "tactics" not in _chase_line(c, alice)
    # with none pending, a change of stage says nothing of tactics
    c2 = runners()
    staged = of(do(c2, "chase c1 hunter=ada quarry=thief length=3", "track c1"),
                "chase_stage")[0]
    assert "lapsed" not in staged
    assert log_lines(c2, alice)[-1][3] == ["chase c1 turns to tracking: position 4 of 7"]


@pytest.mark.rule("VR-CHASE-5")
def test_a_log_recorded_with_tactics_pending_across_a_stage_change_replays_as_played():
    """Main at 140f02e kept the GM's tactics across 'track' (its record says nothing of a
    lapse): loaded now, the table reads them pending as it did, and the next roll takes
    them, as it would have."""
    import json
    from pathlib import Path

    from fracas.engine.conflict import Conflict, fold
    from fracas.engine.events import Record
    from fracas.engine.serialize import state_to_data

    path = Path(__file__).parent / "data" / "tactics-across-track-by-main-140f02e.json"
    data = json.loads(path.read_text(encoding="utf-8"))["tactics-across-track"]
    records = [Record.from_data(r, ruleset().events) for r in data["records"]]
    assert [r.to_data() for r in records] == data["records"]
    assert as_stored_before(json.loads(json.dumps(state_to_data(fold(ruleset(), records))))) \
        == data["state"]
    c = Conflict(ruleset(), "rooftops", records)
    chase = c.state.ext.chases["c1"]
    assert (chase.stage, chase.tactics) == ("tracking", -2)
    assert _chase_line(c, Viewer.of_player("alice")).endswith(
        "· next roll −2 for tactics: the thief kicks over a chimney pot")
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert ["tactics", -2] in roll["check"]["mods"]


@pytest.mark.rule("VR-CHASE-6")
def test_failed_interpose_back_to_2_and_success_captures():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=1")
    ip = of(do(c, "ada: interpose c1 dice=6,6,6"), "chase_interpose")[0]
    assert (ip["to"], ip["new_stage"]) == (2, "pursuit")
    do(c, "ada: run c1 dice=1,1,1")
    ip = of(do(c, "ada: interpose c1 dice=1,1,1"), "chase_interpose")[0]
    assert ip["new_stage"] == "captured"
    with pytest.raises(IllegalCommand):
        c.execute("ada: run c1 dice=1,1,1")


@pytest.mark.rule("VR-CHASE-6", "VR-CHASE-8")
def test_a_chase_only_conflict_whose_chase_is_over_heads_its_view_with_it():
    """`fracas show` and the view's lines head a chase-only conflict by what is true once the
    capture is made, not by "Turn 1 not opened yet · the table picks who opens it"."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=1", "ada: interpose c1 dice=1,1,1")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        lines = ruleset().view_ext(c.state, viewer)["lines"]
        assert lines[0] == (
            "No turn open · the chase is over (c1: captured): nothing to roll; the GM may open "
            "a turn or end the conflict")
        assert not any(line.startswith("Gone:") for line in lines)  # no go to wait for
    do(c, "open ada")
    assert ruleset().view_ext(c.state, Viewer.gm())["lines"][0].startswith("Turn 1 · opened by")


@pytest.mark.rule("VR-CHASE-4", "VR-CHASE-7", "VR-CHASE-8")
def test_a_chase_only_conflict_waiting_at_an_end_of_its_scale_says_the_gm_turns_it():
    """The thief gets away at the top of the pursuit (and later Ada makes contact at 1 of the
    tracking): nothing rolls until the GM turns the chase. The view said "Turn 1 not opened
    yet · the table picks who opens it" and "Gone: nobody · not gone: Ada, Thief", as if a
    go were due."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=4", "ada: run c1 dice=6,6,6")
    for viewer in (Viewer.gm(), Viewer.of_player("ada")):
        view_ = ruleset().view_ext(c.state, viewer)
        assert view_["lines"][0] == (
            "No turn open · chase c1: Thief got away; the GM may turn it to tracking or "
            "abandon it (VR-CHASE-4)")
        assert view_["chases_waiting"] == view_["lines"][0].removeprefix("No turn open · ")
        assert not any(line.startswith("Gone:") for line in view_["lines"])
    do(c, "track c1 length=2", "ada: run c1 dice=1,1,1", "ada: run c1 dice=1,1,1")
    assert ruleset().view_ext(c.state, Viewer.of_player("ada"))["lines"][0] == (
        "No turn open · chase c1: Ada made contact; the GM may turn it to pursuit or abandon "
        "it (VR-CHASE-7)")
    do(c, "pursue c1 length=2")  # rolling again: the roller is named, no GM's call waits
    gm = ruleset().view_ext(c.state, Viewer.gm())
    assert gm["chases_waiting"] == ""
    assert gm["lines"][0].startswith("No turn open · Ada rolls the chase")


@pytest.mark.rule("VR-CHASE-6")
def test_quarry_interpose_evades_or_is_caught_and_prize_race():
    c = runners()
    do(c, "chase c1 hunter=thief quarry=ada length=2 start=1")
    ip = of(do(c, "ada: interpose c1 dice=1,1,1"), "chase_interpose")[0]
    assert (ip["to"], ip["new_stage"]) == (1, "evaded")
    c2 = runners()
    do(c2, "chase c1 hunter=thief quarry=ada length=2 start=1")
    ip = of(do(c2, "ada: interpose c1 dice=6,6,6"), "chase_interpose")[0]
    assert ip["new_stage"] == "captured"
    c3 = runners()
    do(c3, 'chase idol hunter=ada quarry=thief prize="the idol"')
    assert of(do(c3, "ada: interpose idol dice=2,2,2"), "chase_interpose")[0]["new_stage"] \
        == "won"


@pytest.mark.rule("VR-CHASE-6", "VR-CHASE-1")
def test_a_quarry_who_evades_the_hunter_ends_the_chase():
    """The seed: interposing "is resolved with an Athletics roll", and the player as quarry
    succeeding "means they dodged or otherwise evade the hunter". Ada's dodge ended nothing:
    the chase went back to pursuit at 2 and the thief could close in again. Now it is over,
    [evaded], as a capture is: no more rolls, no tactics, no stage turned."""
    c = runners()
    do(c, "chase c1 hunter=thief quarry=ada length=3 start=2", "ada: run c1 dice=6,6,6")
    assert c.state.ext.chases["c1"].track.position == 1  # the quarry's failure: down to 1
    refused(c, "ada: run c1 dice=1,1,1", "VR-CHASE-4")  # at 1 the roll is an interpose
    events = do(c, "ada: interpose c1 why='Ada ducks under the awning' dice=2,2,2")
    assert ruleset().describe(events[-1], c.state) == (
        "Ada interposes (chase c1): Athletics TN 12 (−1 Thief's athletics: −1) → 11: rolled "
        "[2, 2, 2] = 6, success, 5 DoS; position 1 → 1, evaded — Ada ducks under the awning")
    gm, alice = view(c, Viewer.gm()), view(c, Viewer.of_player("ada"))
    for seen in (gm, alice):
        assert seen["conflict"]["ruleset"]["chases"]["c1"]["stage"] == "evaded"
        assert any(line.startswith("Chase c1 [evaded]: Thief → Ada")
                   for line in seen["conflict"]["ruleset"]["lines"])
    assert not [x for x in c.legal_commands("ada") if " c1" in x]
    assert not [x for x in c.legal_commands(None) if " c1" in x]
    refused(c, "ada: run c1 dice=1,1,1", "VR-CHASE-1")
    refused(c, "ada: interpose c1 dice=1,1,1", "VR-CHASE-6")
    refused(c, "tactics c1 -2", "VR-CHASE-5")
    refused(c, "track c1", "VR-CHASE-4")
    refused(c, "abandon c1", "VR-CHASE-1")


@pytest.mark.rule("VR-CHASE-6")
def test_a_race_for_a_prize_says_who_took_which_object():
    for dice, taker in (("2,2,2", "Ada"), ("6,6,6", "Thief")):
        c = runners()
        do(c, 'chase idol hunter=ada quarry=thief prize="the jade idol"')
        events = do(c, f"ada: interpose idol dice={dice}")
        line = ruleset().describe(events[-1], c.state)
        assert line is not None and f"{taker} takes the jade idol" in line


@pytest.mark.rule("VR-CHASE-7")
def test_escape_turns_to_tracking_and_contact_back_to_pursuit():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2 start=4", "ada: run c1 dice=6,6,6",
       "track c1 length=3")
    chase = c.state.ext.chases["c1"]
    assert (chase.stage, chase.track.length, chase.track.position) == ("tracking", 7, 4)
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert roll["check"]["skill"] == "survival" and roll["hours"] == 1
    assert roll["check"]["mods"] == [["Thief's stealth", -2, "thief", "skills"]]
    do(c, "ada: run c1 dice=2,2,2")
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert roll["new_stage"] == "contact"
    refused(c, "ada: run c1 dice=1,1,1", "VR-CHASE-1")
    do(c, "pursue c1 length=2")
    assert (chase := c.state.ext.chases["c1"]).stage == "pursuit"
    assert (chase.track.length, chase.track.position) == (5, 3)


@pytest.mark.rule("VR-CHASE-1", "VR-CHASE-7")
def test_events_turn_a_pursuit_to_tracking_and_back_at_any_position():
    """The seed's stages "morph and change one into another depending on events": a quarry
    lost from sight mid-pursuit is tracked from there, and one sighted while tracked is
    pursued, without waiting for the end of the scale."""
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3", "ada: run c1 dice=1,1,1")
    assert c.state.ext.chases["c1"].track.position == 3  # mid-pursuit
    staged = of(do(c, "track c1 length=2"), "chase_stage")[0]
    assert (staged["stage"], staged["positions"], staged["position"]) == ("tracking", 5, 3)
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert roll["check"]["skill"] == "survival" and roll["hours"] == 1
    refused(c, "track c1", "VR-CHASE-4")  # tracking already
    do(c, "pursue c1")
    chase = c.state.ext.chases["c1"]
    assert (chase.stage, chase.track.length, chase.track.position) == ("pursuit", 5, 3)
    refused(c, "pursue c1", "VR-CHASE-7")  # pursuit already
    do(c, "ada: run c1 dice=1,1,1", "ada: run c1 dice=1,1,1", "ada: interpose c1 dice=1,1,1")
    assert c.state.ext.chases["c1"].stage == "captured"
    refused(c, "track c1", "VR-CHASE-4")  # a capture ends the chase
    refused(c, "pursue c1", "VR-CHASE-7")


@pytest.mark.rule("VR-CHASE-7")
def test_quarry_tracking_rolls_stealth_and_top_is_completely_away():
    c = runners()
    do(c, "chase c1 hunter=thief quarry=ada length=2 stage=tracking start=4")
    roll = of(do(c, "ada: run c1 dice=2,2,2"), "chase_roll")[0]
    assert roll["check"]["skill"] == "stealth"
    assert roll["check"]["mods"] == [["Thief's survival", -1, "thief", "skills"]]
    assert roll["new_stage"] == "away"
    refused(c, "pursue c1", "VR-CHASE-7")


@pytest.mark.rule("VR-CHASE-8")
def test_one_roll_is_one_action_and_the_pc_rolls():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=3", "open ada", "ada: run c1 dice=3,3,3",
       "ada: run c1 dice=3,3,3")
    refused(c, "ada: run c1 dice=3,3,3", "VR-TURN-4")
    refused(c, "thief: run c1 dice=3,3,3", "VR-CHASE-8")
    c2 = make(npc("a"), npc("b"))
    refused(c2, "chase c1 hunter=a quarry=b", "VR-CHASE-8")
    do(c2, "chase c1 hunter=a quarry=b roller=b")
    assert c2.state.ext.chases["c1"].roller == "b"


@pytest.mark.rule("VR-CHASE-2")
@pytest.mark.parametrize(("length", "size", "start"), [(2, 5, 3), (4, 9, 5), (6, 13, 7)])
def test_a_pursuit_scale_has_two_positions_an_action_around_its_centre(
        length: int, size: int, start: int) -> None:
    track = pursuit_track(length, "VR-CHASE-2")
    assert (track.length, track.position) == (size, start)


@pytest.mark.rule("VR-CHASE-2")
@pytest.mark.parametrize("length", [1, 7, 0, -2])
def test_a_pursuit_length_outside_2_to_6_is_refused(length: int) -> None:
    with pytest.raises(InvalidInput) as err:
        pursuit_track(length, "VR-CHASE-2")
    assert err.value.rule == "VR-CHASE-2" and str(length) in str(err.value)
    assert list(PURSUIT_LENGTHS) == [2, 3, 4, 5, 6]


@pytest.mark.rule("VR-CHASE-3")
def test_a_chase_against_a_concealed_quarry_does_not_exist_for_the_hunters_player():
    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    assert any("run c1" in t for t in c.legal_commands("ada"))
    do(c, "conceal thief")
    # before: hidden from Ada's view, yet offered, played, and listed in refusals
    assert not any("c1" in t for t in c.legal_commands("ada"))
    err = refused(c, "ada: run c1 dice=3,3,3", "VR-CHASE-3")
    assert str(err).startswith("no chase 'c1' (chases: none)")
    do(c, "reveal thief", "ada: run c1 dice=3,3,3")


def _bundled_chase(keep: int):
    from fracas.app.scenario import parse_scenario
    from fracas.app.script import play_script
    from tests.rulesets.test_pending_odds import cut_script

    return play_script(parse_scenario(cut_script("vers-chase", keep), "cut.toml"), "seed")


@pytest.mark.rule("VR-CHASE-3", "VR-CHASE-7", "VR-CHASE-8")
def test_a_chase_on_its_own_tells_the_roller_their_roll_its_skill_and_its_odds():
    from fracas.app.scenario import load_scenario
    from fracas.engine import Viewer
    from fracas.engine.views import view
    from fracas.rulesets.vers.odds import answer

    c = _bundled_chase(1)  # the chase has begun; no turn is open
    (run,) = [lc for lc in c.legal("ada") if lc.verb == "run"]
    assert "skill" not in [p.name for p in run.params], "no skill to pick in a pursuit"
    alice, bob, gm = (view(c, v)["conflict"] for v in (
        Viewer.of_player("alice"), Viewer.of_player("bob"), Viewer.gm()))
    lines = alice["ruleset"]["lines"]
    assert lines[0].startswith("No turn open · Ada rolls the chase"), lines
    assert any(line.startswith("Chase c1") and line.endswith("Ada rolls next") for line in lines)
    assert alice["ruleset"]["due"] == ["ada"]
    (odds,) = alice["odds"]
    assert odds == gm["odds"][0] and bob["odds"] == []
    assert odds.startswith("Ada: run c1 (athletics): TN 14, −2 The cutpurse's athletics")
    # the same chances as 'fracas odds' (TN 14 less the cutpurse's Athletics 2, from the middle)
    figures = dict(answer("chase length 2 tn 14 vs 2 as hunter").figures)
    assert f"success {float(figures['P(roll succeeds)']):.0%}" in odds
    assert f"capture before escape {float(figures['P(capture before escape)']):.0%}" in odds
    ruleset = c.ruleset
    state = c.state.innermost
    assert ruleset.command_odds(state, Viewer.of_player("alice"), c.parse("ada: run c1")) == [odds]
    assert ruleset.command_odds(state, Viewer.of_player("alice"),
                                c.parse("ada: interpose c1")) == []
    # tracking: the hunter picks a tracking skill
    n = next(i for i, s in enumerate(load_scenario("vers-chase").script)
             if s.text.startswith("track ")) + 1
    (run,) = [lc for lc in _bundled_chase(n).legal("ada") if lc.verb == "run"]
    assert run.choice("skill").allowed == ("survival", "investigation")


@pytest.mark.rule("VR-CHASE-1")
def test_the_gm_abandons_a_chase_as_events_end_it_and_its_scale_takes_no_more_rolls():
    from fracas.cli.render import log_lines
    from fracas.engine import Viewer
    from fracas.engine.views import view

    c = runners()
    do(c, "chase c1 hunter=ada quarry=thief length=2")
    assert "abandon c1 why=TEXT" in c.legal_commands(None)
    refused(c, "ada: abandon c1", "VR-CHASE-1")  # the GM's call, not the hunter's
    do(c, "abandon c1 why='the thief slips into the guildhall'")
    assert c.state.ext.chases["c1"].stage == "over"
    assert not any("c1" in t for t in c.legal_commands("ada") + c.legal_commands(None))
    err = refused(c, "ada: run c1 dice=3,3,3", "VR-CHASE-1")
    assert str(err).startswith("chase c1 is at stage over; no more chase rolls")
    err = refused(c, "abandon c1", "VR-CHASE-1")
    assert "already over" in str(err)
    alice = Viewer.of_player("ada")
    assert log_lines(c, alice)[-1][3] == ["chase c1 is over: the thief slips into the guildhall"]
    assert any(line.startswith("Chase c1 [over]")
               for line in view(c, alice)["conflict"]["ruleset"]["lines"])


@pytest.mark.rule("VR-CHASE-1")
def test_a_chase_against_a_concealed_character_tells_the_players_nothing_of_its_turns():
    from fracas.cli.render import log_lines
    from fracas.engine import Viewer

    c = runners()
    do(c, "conceal thief", "chase c2 hunter=ada quarry=thief length=2", "track c2",
       "abandon c2")
    gm = [line for entry in log_lines(c, Viewer.gm()) for line in entry[3]]
    assert "chase c2 turns to tracking: position 3 of 5" in gm and "chase c2 is over" in gm
    seen = log_lines(c, Viewer.of_player("ada"))
    assert "c2" not in repr(seen) and len(seen) == 2  # set-up, and the GM acts (the start)
