"""Rounds (ES-ROUND-*), ranges (ES-RNG-*), actions (ES-ACT-*), damage (ES-DMG-*), zoom."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine.components.turn_orders import Slot
from fracas.engine.conflict import Conflict
from fracas.engine.describe import describe
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.serialize import state_from_data, state_to_data
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

from .helpers import ES, make, moved, pc, refused, started


def z(c: Conflict) -> ConflictState:
    assert c.state.zoom is not None
    return c.state.zoom


def ether_people() -> list[dict[str, Any]]:
    return [pc("ada", "alice", physical=14, ether=8), pc("bruno", "bob", physical=6, ether=12),
            pc("carl", physical=9, ether=7)]


@pytest.mark.rule("ES-ROUND-1")
def test_base_initiative_is_the_conflict_condenser() -> None:
    c = started({"reality": "ether"}, ether_people())
    assert c.state.ext.base == {"ada": 8, "bruno": 12, "carl": 7}
    c = started({"reality": "prime"}, ether_people())
    assert c.state.ext.base == {"ada": 14, "bruno": 6, "carl": 9}
    c = started({"nature": "mental"}, ether_people())
    assert c.state.ext.base["bruno"] == 12


@pytest.mark.rule("ES-ROUND-2", "ES-ROUND-3")
def test_declarations_are_validated_with_numbers_and_rule() -> None:
    c = started()
    msg = refused(c, "ada: declare 6,4", IllegalCommand, "ES-ROUND-3")
    assert "6 and 4 are 2 apart" in msg and "at least 5 apart" in msg
    msg = refused(c, "ada: declare 8,3", IllegalCommand, "ES-ROUND-2")
    assert "11" in msg and "10" in msg
    refused(c, "ada: declare 0", IllegalCommand, "ES-ROUND-2")
    refused(c, "ada: declare 6,-1", IllegalCommand, "ES-ROUND-2")
    c.execute("ada: declare 7,1")
    assert c.state.ext.countdown.declarations["ada"] == [7, 1]


@pytest.mark.rule("ES-ROUND-4")
def test_an_action_before_the_countdown_says_what_comes_first() -> None:
    """"Ada does not act now; no countdown is under way" left the GM asking what to type (a
    zoom-in begins between rounds, so its first attack met it): the refusal names the step."""
    c = make()
    msg = refused(c, "ada: attack bruno", NotYourTurn, "ES-ROUND-4")
    assert "the conflict has not started: awareness first, then the GM's 'round'" in msg
    c = started()
    msg = refused(c, "ada: attack bruno", NotYourTurn, "ES-ROUND-4")
    assert "round 1 is being declared; the GM's 'countdown' starts the actions" in msg
    c.execute("countdown")
    for _ in range(3):
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    msg = refused(c, "ada: attack bruno", NotYourTurn, "ES-ROUND-4")
    assert "no round is under way; the GM starts the next one with 'round'" in msg


@pytest.mark.rule("ES-ROUND-4", "ES-START-5")
def test_a_countdown_or_moves_out_of_their_step_says_where_the_conflict_is() -> None:
    """A `countdown` typed while the countdown ran was told "the countdown starts once a round
    has begun and everyone has declared" (both true), and `moves` in round 1 "the awareness
    moves have already begun" (they were over): each refusal now names the step."""
    c = make()
    msg = refused(c, "countdown", IllegalCommand, "ES-ROUND-4")
    assert "cannot start the countdown now: the conflict has not started" in msg
    c = started()
    c.execute("countdown")
    msg = refused(c, "countdown", IllegalCommand, "ES-ROUND-4")
    assert "cannot start the countdown now: the countdown of round 1 is already under way" in msg
    msg = refused(c, "moves", IllegalCommand, "ES-START-5")
    assert "the awareness moves come only at the start of a conflict" in msg
    for _ in range(3):
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    msg = refused(c, "countdown", IllegalCommand, "ES-ROUND-4")
    assert "no round is under way; the GM starts the next one with 'round'" in msg


@pytest.mark.rule("ES-ROUND-4", "ES-ROUND-7")
def test_countdown_from_the_highest_and_undeclared_act_at_base() -> None:
    c = started(people=[pc("ada", "alice", physical=8), pc("bruno", "bob", physical=9),
                        pc("carl", physical=4)])
    c.execute("ada: declare 7,1")
    c.execute("countdown")
    assert [(s.actor, s.score) for s in c.state.ext.countdown.queue] == [
        ("bruno", 9), ("ada", 7), ("carl", 4), ("ada", 1)]
    refused(c, "ada: attack carl", NotYourTurn, "ES-ROUND-4")
    refused(c, "bruno: declare 3", IllegalCommand, "ES-ROUND-7")
    c.execute("bruno: done")
    assert c.state.ext.countdown.current.actor == "ada"


@pytest.mark.rule("ES-ROUND-5")
def test_ties_go_to_awareness_then_roll_offs_logged() -> None:
    c = started(people=[pc("ada", "alice"), pc("bruno", "bob"), pc("carl")])
    c.execute("ada: declare 9")
    c.execute("bruno: declare 9")
    c.execute("carl: declare 9")
    c.execute("countdown")
    assert [s.actor for s in c.state.ext.countdown.queue] == ["ada", "bruno", "carl"]
    # the log says why Ada goes first at the same initiative (no roll-off says it)
    (line,) = [line for e in c.records[-1].events if e.type == "countdown_started"
               for line in [describe(ES, e, c.state)]]
    assert line == ("countdown: Ada 9, Bruno 9, Carl 9 (at the same initiative the higher "
                    "awareness acts first, a roll-off settling equal awareness, ES-ROUND-5)")
    c2 = make(script=["ada: awareness successes=2", "bruno: awareness successes=2",
                      "carl: awareness successes=2", "moves"], seed="x")
    ties = [e for e in c2.records[-1].events if e.type == "tie_rolloff"]
    assert ties and all(t.data["rolls"] for t in ties)
    assert c2.state.ext.awareness == {"ada": 2, "bruno": 2, "carl": 2}


@pytest.mark.rule("ES-ROUND-5", "ES-START-5")
def test_a_roll_off_rolls_again_the_pool_each_awareness_roll_was_made_with() -> None:
    c = make(people=[pc("ada", "alice", awareness=1), pc("bruno", "bob", awareness=1)])
    c.execute("ada: awareness pool=5 dice=6,6,1,1,1")
    c.execute("bruno: awareness skill=awareness pool=4 dice=6,6,1,1")
    c.execute("moves rolloff=ada:6,6,6,6,6/bruno:1,1,1,1")  # the table's dice, five and four
    (tie,) = [e for e in c.records[-1].events if e.type == "tie_rolloff"]
    assert {pid: r["expression"] for pid, r in tie.data["rolls"].items()} == {
        "ada": "5d6>=5", "bruno": "4d6>=5"}  # not the awareness stat's one die
    assert c.state.ext.move_order[:2] == ["ada", "bruno"]


@pytest.mark.rule("ES-ROUND-6", "ES-DMG-1")
def test_mid_round_damage_keeps_declarations_and_lowers_next_base() -> None:
    c = started()
    c.execute("ada: declare 8,2")
    c.execute("countdown")
    c.execute("damage ada 4")
    assert c.state.ext.countdown.declarations["ada"] == [8, 2]
    assert [s.actor for s in c.state.ext.countdown.queue].count("ada") == 2
    assert c.state.ext.condenser["ada"]["physical"].current == 6
    for _ in range(4):
        who = c.state.ext.countdown.current.actor
        c.execute(f"{who}: done")
    c.execute("round")
    assert c.state.ext.base["ada"] == 6
    refused(c, "ada: declare 8", IllegalCommand, "ES-ROUND-2")


@pytest.mark.rule("ES-DMG-1", "ES-DMG-2", "ES-ACT-4")
def test_attack_damage_extras_and_out_at_zero() -> None:
    c = started(people=[pc("ada", "alice", physical=12), pc("bruno", "bob", physical=3),
                        pc("carl", physical=1)])
    c.execute("countdown")
    c.execute("ada: attack bruno successes=2")  # 1 extra: 1 + 1 damage
    assert c.state.ext.condenser["bruno"]["physical"].current == 1
    action = c.records[-1].events[0].data
    assert (action["success"], action["extra"], action["difficulty"]) == (True, 1, 1)
    c.execute("bruno: attack ada successes=0")
    assert c.records[-1].events[0].data["success"] is False
    c.execute("carl: attack bruno dice=5,1")
    assert c.state.participants["bruno"].out
    assert "bruno" not in c.state.active_ids()


@pytest.mark.rule("ES-ACT-4")
def test_pool_from_skill_and_table_dice_validated() -> None:
    c = started(people=[pc("ada", "alice", skills={"shoot": 4}), pc("bruno", "bob"),
                        pc("carl")])
    c.execute("ada: declare 10")
    c.execute("countdown")
    refused(c, "ada: attack bruno skill=shoot dice=5,6", InvalidInput, "ES-ACT-4")
    c.execute("ada: attack bruno skill=shoot difficulty=3 dice=5,6,6,1")
    d = c.records[-1].events[0].data
    assert (d["pool"], d["successes"], d["success"], d["extra"]) == (4, 3, True, 0)
    assert d["roll"]["dice"] == [5, 6, 6, 1]


@pytest.mark.rule("ES-ACT-4", "ES-START-1")
def test_a_player_types_in_no_more_successes_than_their_pool_rolls() -> None:
    """A die rolls one success at most: Alice's typo of 6 successes on Ada's 4 dice is
    refused, saying so (before, it went through and took the target out); where her pool's
    size is the GM's (a GM-only skill), the refusal names neither it nor a bound. The GM may
    still grant more than the dice could roll: a ruling of theirs."""
    alice = Viewer.of_player("alice")
    c = started(people=[pc("ada", "alice", skills={"shoot": 4}), pc("bruno", "bob"),
                        pc("carl")])
    c.execute("ada: declare 10")
    c.execute("countdown")
    said = refused(c, "ada: attack bruno skill=shoot successes=6", InvalidInput, "ES-ACT-4",
                   alice)
    assert "6 successes typed in, but a pool of 4 dice rolls at most 4" in said
    c.execute("ada: attack bruno skill=shoot successes=4", alice, time="")
    secret = make(people=[{**pc("ada", "alice", awareness=3), "gm_only": ["awareness"]},
                          pc("bruno", "bob")])
    said = refused(secret, "ada: awareness successes=4", InvalidInput, "ES-START-1", alice)
    assert "is the GM's to say" in said and "3" not in said
    secret.execute("ada: awareness successes=4", time="")  # the GM's ruling
    assert secret.state.ext.awareness["ada"] == 4


@pytest.mark.rule("ES-ACT-3", "ES-ACT-6")
def test_description_and_effect_are_kept_in_the_log() -> None:
    c = started()
    c.execute("countdown")
    c.execute('ada: act charm skill=wit difficulty=2 successes=3 extras="+1 per extra" '
              'say="Ada smiles" effect="Bruno blushes" target=bruno hurt=1')
    text = describe(ES, c.records[-1].events[0], c.state)
    assert "Ada smiles" in text and "Bruno blushes" in text and "+1 per extra" in text
    assert c.state.ext.condenser["bruno"]["physical"].current == 9


@pytest.mark.rule("ES-ACT-5", "ES-RNG-4")
def test_push_back_one_category_two_with_an_extra_and_damage() -> None:
    c = started({"ranges": {"default": "close"}})
    c.execute("countdown")
    c.execute("ada: push bruno successes=1")
    assert c.state.ext.ranges.get("ada", "bruno") == 1  # away from the actor only
    assert c.state.ext.ranges.get("bruno", "carl") == 0
    c.execute("bruno: push carl successes=3 two=yes damage=1 away=ada,bruno")
    assert c.state.ext.ranges.get("carl", "bruno") == 2
    assert c.state.ext.ranges.get("carl", "ada") == 2
    assert c.state.ext.condenser["carl"]["physical"].current == 9
    assert c.records[-1].events[0].data["spent"] == {"two": 1, "damage": 1}


@pytest.mark.rule("ES-RNG-4", "ES-RNG-5", "ES-RNG-2")
def test_steps_stay_on_the_scale_and_hidden_cannot_be_targeted() -> None:
    c = started({"ranges": {"default": "distant"}})
    c.execute("countdown")
    refused(c, "ada: move bruno away successes=1", IllegalCommand, "ES-RNG-4")
    c.execute("ada: hide successes=1 from=bruno")
    assert c.state.ext.ranges.is_hidden("ada", "bruno")
    refused(c, "bruno: attack ada successes=3", IllegalCommand, "ES-RNG-2")
    refused(c, "bruno: move ada toward successes=3", IllegalCommand, "ES-RNG-2")
    assert "bruno: attack ada" not in [lc.text() for lc in ES.legal_commands(c.state, "bruno")]


@pytest.mark.rule("ES-RNG-1")
def test_a_character_hides_from_or_acts_on_those_it_sees_never_itself() -> None:
    """Before: "ada: hide from=ada" was offered, taken, spent Ada's action and hid her from
    nobody."""
    c = started()
    c.execute("countdown")
    hide = next(lc for lc in ES.legal_commands(c.state, "ada") if lc.verb == "hide")
    offered = next(p for p in hide.params if p.name == "from")
    assert set(offered.allowed or ()) == {"bruno", "carl"}
    act = next(lc for lc in ES.legal_commands(c.state, "ada") if lc.verb == "act")
    assert set(next(p for p in act.params if p.name == "target").allowed or ()) == \
        {"bruno", "carl"}  # an act's target too: targeting itself is refused
    said = refused(c, "ada: hide successes=2 from=ada,carl", InvalidInput, "ES-RNG-1")
    assert said == "Ada cannot hide from itself; name those it hides from (ES-RNG-1)"
    assert c.state.ext.countdown.current.actor == "ada"  # her action is still to take
    c.execute("ada: hide successes=2 from=carl")
    assert c.state.ext.ranges.is_hidden("ada", "carl")


@pytest.mark.rule("ES-RNG-1")
def test_a_hide_is_offered_from_those_the_actor_is_not_hidden_from_yet() -> None:
    """Ada lurks unseen by Carl: her hide offers Bruno alone, and once she is hidden from
    both, no hide at all. Before, the list offered Carl too, and a hide from him spent her
    action on a success that hid her from no one more, the log saying nothing of why."""
    c = started({"lurking": {"ada": ["carl"]}})
    c.execute("countdown")

    def hides() -> list[tuple[str, ...]]:
        return [tuple(next(p for p in lc.params if p.name == "from").allowed or ())
                for lc in ES.legal_commands(c.state, "ada") if lc.verb == "hide"]

    assert hides() == [("bruno",)]
    c.execute("ada: hide successes=1 from=bruno")
    moved(c, "bruno: done", "carl: done", "round", "countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    assert hides() == []
    assert "attack" in [lc.verb for lc in ES.legal_commands(c.state, "ada")]


@pytest.mark.rule("ES-RNG-5")
def test_hidden_character_steps_its_underlying_band() -> None:
    c = make({"ranges": {"default": "near"}, "lurking": {"carl": ["ada"]}},
             script=["ada: awareness successes=1", "bruno: awareness successes=2",
                     "carl: awareness successes=3", "moves"])
    c.execute("carl: step ada toward")  # carl is hidden from ada: it may step
    assert c.state.ext.ranges.get("ada", "carl") == 0
    c.execute("carl: done")
    assert c.state.ext.move_order[1] == "bruno"


@pytest.mark.rule("ES-RNG-3")
def test_search_reveals_into_a_band_and_gm_reveal_keeps_the_band() -> None:
    c = make({"ranges": {"default": "distant"}, "lurking": {"carl": ["ada", "bruno"]}},
             script=["ada: awareness successes=3", "bruno: awareness successes=2",
                     "carl: awareness successes=1", "moves", "ada: done",
                     "round", "countdown"])
    c.execute("ada: search successes=1 band=near")
    assert not c.state.ext.ranges.is_hidden("carl", "ada")
    assert c.state.ext.ranges.get("ada", "carl") == 1
    c.execute("reveal carl")
    assert not c.state.ext.ranges.is_hidden("carl", "bruno")
    assert c.state.ext.ranges.get("bruno", "carl") == 2
    refused(c, "reveal carl", IllegalCommand, "ES-RNG-3")


@pytest.mark.rule("ES-SET-3")
def test_acting_off_nature_damages_the_actor() -> None:
    c = started({"nature": "social"})
    c.execute("countdown")
    c.execute("ada: attack bruno nature=physical successes=0")
    assert c.state.ext.condenser["ada"]["society"].current == 9
    c2 = started({"nature": "social", "off_nature_damage": 3})
    c2.execute("countdown")
    c2.execute("ada: attack bruno nature=physical successes=0")
    assert c2.state.ext.condenser["ada"]["society"].current == 7


@pytest.mark.rule("ES-SET-3", "ES-DMG-1")
def test_a_social_conflicts_damage_and_recovery_read_as_composure() -> None:
    """Before: a war of words read "Ada takes 2 society damage from Bruno (attack); 8 left",
    where the seed calls a social conflict's harm composure damage. The log says composure,
    and the society condenser it comes off; other conflicts read as ever."""
    c = started({"nature": "social"})
    c.execute("countdown")
    c.execute("ada: attack bruno dice=6,5")
    c.execute("bruno: recover dice=6,1")
    c.execute("carl: attack ada nature=physical dice=1,1")
    lines = [line for entry in log_view(c, Viewer.of_player("bob"))[-3:]
             for line in entry["lines"]]
    assert "Bruno takes 2 composure damage from Ada (attack); society 8 left" in lines
    assert "Bruno recovers 1 composure (society)" in lines
    assert "Carl takes 1 composure damage (acting physical in a social conflict); " \
        "society 9 left" in lines
    plain = started()
    plain.execute("countdown")
    plain.execute("ada: attack bruno dice=6,5")
    assert describe(ES, plain.records[-1].events[1], plain.state) == \
        "Bruno takes 2 physical damage from Ada (attack); 8 left"


@pytest.mark.rule("ES-ACT-1")
def test_zoom_in_is_one_step_faster_five_rounds_and_carries_damage_back() -> None:
    c = started({"time_scale": "tactical"})
    c.execute("countdown")
    c.execute("ada: zoom bruno reason=duel")
    zs = c.state.zoom
    assert zs is not None and zs.settings["time_scale"] == "quick" and zs.round_limit == 5
    assert set(zs.participants) == {"ada", "bruno"} and zs.ext.awareness["ada"] == 3
    for _ in range(5):
        c.execute("round")
        c.execute("countdown")
        if z(c).ext.countdown.current.actor == "ada":
            c.execute("ada: attack bruno successes=1")
        else:
            c.execute("bruno: done")
        while c.state.zoom is not None and z(c).ext.phase == "countdown":
            c.execute(f"{z(c).ext.countdown.current.actor}: done")
    assert c.state.zoom is None
    assert c.state.ext.condenser["bruno"]["physical"].current == 5
    assert c.state.ext.countdown.current.actor == "ada"
    c.execute("ada: done")


@pytest.mark.rule("ES-ACT-1", "ES-DMG-1")
@pytest.mark.parametrize("close", ["rounds", "end"])
def test_a_zoomer_taken_out_inside_hands_the_countdown_on_when_the_zoom_closes(
        close: str) -> None:
    c = started(people=[pc("ada", "alice", physical=2), pc("bruno", "bob", physical=1),
                        pc("carl", physical=1)])
    c.execute("countdown")  # ada 2, bruno 1, carl 1: Ada acts first
    c.execute("ada: zoom carl")
    for line in ("round", "countdown", "ada: done", "carl: attack ada successes=2"):
        c.execute(line)
    assert c.state.participants["ada"].active  # out only inside, until the zoom closes
    if close == "end":
        c.execute("end 'the fight on the roof is over'")
    else:
        while c.state.zoom is not None:
            for line in ("round", "countdown", "carl: done"):
                c.execute(line)
    assert c.state.zoom is None and not c.state.participants["ada"].active
    assert c.state.ext.countdown.current.actor == "bruno"  # not stuck on Ada's turn
    c.execute("bruno: done")


@pytest.mark.rule("ES-ACT-2", "ES-ACT-1")
def test_zoom_nests_and_fast_cannot_zoom() -> None:
    c = started({"time_scale": "quick"})
    c.execute("countdown")
    c.execute("ada: zoom bruno")
    c.execute("round")
    c.execute("countdown")
    assert z(c).settings["time_scale"] == "fast"
    first = z(c).ext.countdown.current.actor
    msg = refused(c, f"{first}: zoom ada,bruno", IllegalCommand, "ES-ACT-2")
    assert "Fast" in msg
    c2 = started({"time_scale": "tactical"})
    c2.execute("countdown")
    c2.execute("ada: zoom bruno")
    c2.execute("round")
    c2.execute("countdown")
    first = z(c2).ext.countdown.current.actor
    c2.execute(f"{first}: zoom ada,bruno")
    inner = z(c2).zoom
    assert inner is not None and inner.depth == 2
    assert (z(c2).title, inner.title) == ("t — zoomed in", "t — zoomed in twice")  # once each
    c2.execute("end enough")
    assert z(c2).zoom is None and c2.state.zoom is not None
    data = state_to_data(c2.state)
    assert state_to_data(state_from_data(ES, data)) == data


def test_state_round_trips_after_a_scripted_conflict() -> None:
    c = started()
    c.execute("ada: declare 7,1")
    c.execute("countdown")
    c.execute("bruno: attack carl successes=2")
    data = state_to_data(c.state)
    back = state_from_data(ES, data)
    assert state_to_data(back) == data
    assert back.ext.countdown.current == c.state.ext.countdown.current
    assert c.replay() is not None and state_to_data(c.replay()) == data


@pytest.mark.rule("ES-ACT-4")
def test_a_roll_without_the_skill_says_the_default_pool_was_used() -> None:
    from fracas.engine.describe import describe

    from .helpers import started

    c = started()
    c.execute("countdown")
    actor = c.state.ext.countdown.current.actor
    c.execute(f"{actor}: search skill=notice")
    event = next(e for e in c.records[-1].events if e.type == "action_resolved")
    assert "(no notice rating: pool of 2)" in describe(c.ruleset, event, c.state)


@pytest.mark.rule("ES-ROUND-4")
def test_a_countdown_of_one_slot_lets_its_character_act() -> None:
    c = make(people=[pc("ada", "alice")], script=["ada: awareness successes=3", "moves", "round",
                                                 "ada: declare 10", "countdown"])
    assert c.state.ext.countdown.current == Slot("ada", 10)
    assert "done" in [lc.verb for lc in c.legal("ada")]
    events = c.execute("ada: done", time="").events
    assert [e.type for e in events] == ["turn_ended", "round_ended"]


@pytest.mark.rule("ES-DMG-1")
def test_the_gm_deals_damage_of_1_or_more_and_the_log_says_why() -> None:
    c = started()
    events = c.execute("damage ada 1", time="").events
    assert c.state.ext.condenser["ada"]["physical"].current == 9
    assert describe(ES, events[0], c.state) == "Ada takes 1 physical damage (GM); 9 left"
    events = c.execute('damage ada 2 reason="falling masonry"', time="").events
    assert describe(ES, events[0], c.state) == \
        "Ada takes 2 physical damage (falling masonry); 7 left"
    refused(c, "damage ada 0", InvalidInput, "ES-DMG-1")


@pytest.mark.rule("ES-DMG-1", "ES-ROUND-4")
def test_gm_damage_that_takes_out_the_character_acting_passes_the_turn_on() -> None:
    c = started()
    c.execute("ada: declare 10", time="")
    c.execute("bruno: declare 9", time="")
    c.execute("carl: declare 8", time="")
    c.execute("countdown", time="")
    assert c.state.ext.countdown.current.actor == "ada"
    events = c.execute("damage ada 10", time="").events
    assert [e.type for e in events][-3:] == ["participant_out", "turn_ended", "turn_started"]
    assert c.state.ext.countdown.current.actor == "bruno"


@pytest.mark.rule("ES-ROUND-1")
def test_the_table_reads_before_round_1_until_the_first_round_not_between_rounds() -> None:
    """Before: after the awareness moves, and at a zoom's start, the table read "between
    rounds: the GM starts the next one" though no round had been played."""
    c = moved(make(script=["ada: awareness successes=3", "bruno: awareness successes=2",
                           "carl: awareness successes=1", "moves"]))
    for who in (Viewer.gm(), Viewer.of_player("alice")):
        text = view(c, who)["conflict"]["ruleset"]["phase_text"]
        assert text == "before round 1: the GM starts it (ES-ROUND-1)"
    c.execute("round")
    c.execute("countdown")
    c.execute("ada: zoom bruno reason=duel")
    zoomed = view(c, Viewer.gm())["zoom"][0]["ruleset"]["phase_text"]
    assert zoomed == "before round 1: the GM starts it (ES-ROUND-1)"
    c.execute("end back")
    while c.state.ext.phase == "countdown":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    assert view(c, Viewer.gm())["conflict"]["ruleset"]["phase_text"] == \
        "between rounds: the GM starts the next one"
