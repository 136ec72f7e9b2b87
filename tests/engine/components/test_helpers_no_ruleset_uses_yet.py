"""Engine helpers that the server, the browser table and the simulator are about to call,
though no ruleset leans on these corners yet: a countdown asked mid-way whether it is over,
ladders whose thresholds stop rising, levels off the ladder, and which refusal wins when two
apply (table dice errors: tests/dice/test_table_dice_errors.py)."""

from __future__ import annotations

import pytest

from fracas.engine.components import (
    AlternatingSides,
    ConditionLadder,
    Countdown,
    LadderLevel,
    Popcorn,
    Slot,
    ladder_from_spec,
)
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn


def test_a_countdown_is_over_only_after_its_last_slot() -> None:
    cd = Countdown()
    assert not cd.is_over  # before the start
    cd.start([Slot("ada", 7), Slot("bruno", 5)])
    assert not cd.is_over
    cd.advance()
    assert not cd.is_over and cd.current == Slot("bruno", 5)  # the last slot is acting
    cd.advance()
    assert cd.is_over and cd.remaining() == []


def test_a_countdown_reports_what_remains_before_and_during() -> None:
    cd = Countdown()
    cd.queue = [Slot("ada", 7), Slot("bruno", 5)]  # fixed but not begun
    assert cd.remaining() == [Slot("ada", 7), Slot("bruno", 5)] and not cd.started
    cd.position = 0
    assert cd.started and cd.remaining() == [Slot("bruno", 5)]


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ([("a", 1, 0, 0), ("b", 1, 3, 0), ("c", 1, 3, 0)], "'c' starts at 3, not above 'b' at 3"),
        ([("a", 1, 0, 0), ("b", 1, 5, 0), ("c", 1, 4, 0)], "'c' starts at 4, not above 'b' at 5"),
        ([("a", 1, 0, 0), ("b", 0, 3, 0)], "'b' needs at least one slot, not 0"),
        ([("a", 1, 0, 0, "yes")], "malformed ladder level"),
        ([("a", 1, 0, True)], "malformed ladder level"),
        ([("a", 1, 0)], "needs name, slots, threshold, penalty"),
    ],
)
def test_a_ladder_whose_thresholds_stop_rising_is_refused_and_named(
    spec: list[tuple[str | int | bool, ...]], fragment: str
) -> None:
    with pytest.raises(InvalidInput, match=fragment):
        ladder_from_spec(spec)


def test_a_ladder_spec_keeps_slots_thresholds_penalties_and_each() -> None:
    ladder = ladder_from_spec([("a", 2, 0, 0), ("b", 1, 3, -1, True)], taken_out_when_full=True)
    assert [(lv.name, lv.slots, lv.threshold, lv.penalty, lv.penalty_each)
            for lv in ladder.levels] == [("a", 2, 0, 0, False), ("b", 1, 3, -1, True)]
    assert ladder.taken_out_when_full and ladder.marks == [[], []]


def test_is_full_and_count_off_the_ladder() -> None:
    ladder = ladder_from_spec([("a", 1, 0, 0), ("b", 2, 3, -1)])
    assert ladder.is_full(-1) and ladder.is_full(2) and ladder.is_full(99)
    assert ladder.count(-1) == 0 and ladder.count(2) == 0
    assert not ladder.is_full(0) and not ladder.is_full(1)
    ladder.take(3)
    assert not ladder.is_full(1)  # one of two slots
    ladder.take(3)
    assert ladder.is_full(1) and ladder.count(1) == 2
    assert ladder.remove(5) is None and ladder.remove(-1) is None


def test_a_ladder_penalty_counts_per_level_unless_each() -> None:
    once = ladder_from_spec([("a", 3, 0, -1)])
    each = ladder_from_spec([("a", 3, 0, -1, True)])
    for ladder in (once, each):
        ladder.take(0)
        ladder.take(1)
    assert once.total_penalty() == -1 and each.total_penalty() == -2
    assert ConditionLadder(levels=once.levels).total_penalty() == 0


def test_popcorn_refusal_order_not_in_the_conflict_first_then_acting_then_gone() -> None:
    turns = Popcorn(members=["ada", "bruno", "cy"])
    with pytest.raises(IllegalCommand, match="not in this conflict"):
        turns.check_hand_off("zed")  # and the round is not opened either
    with pytest.raises(IllegalCommand, match="not been opened"):
        turns.check_hand_off("ada")
    turns.open("ada")
    with pytest.raises(IllegalCommand, match="acting now"):
        turns.check_hand_off("ada")  # acting now, and gone this round too
    turns.hand_off("bruno")
    with pytest.raises(IllegalCommand, match="already gone"):
        turns.check_hand_off("ada")
    with pytest.raises(IllegalCommand, match="already been opened by ada"):
        turns.check_open("zed")  # not a member either: the open round wins


def test_popcorn_action_refusals_not_your_go_wins_over_too_many_actions() -> None:
    turns = Popcorn(members=["ada", "bruno"])
    turns.open("ada", actions=1)
    with pytest.raises(NotYourTurn):
        turns.check_action("bruno", n=3)
    with pytest.raises(IllegalCommand, match="has 1 action left this go, not 2"):
        turns.check_action("ada", n=2)
    turns.check_action("ada", n=1)
    turns.spend(5)
    assert turns.actions_left == 0
    with pytest.raises(IllegalCommand, match="has 0 actions left"):
        turns.check_action("ada")


def test_countdown_declaration_refusal_order() -> None:
    cd = Countdown()
    with pytest.raises(IllegalCommand, match="at least one"):
        cd.check_declare("ada", [], base=10)
    with pytest.raises(IllegalCommand, match="positive, not 0") as info:
        cd.check_declare("ada", [0, 20], base=10)  # also past the base
    assert info.value.values["scores"] == [0, 20]
    with pytest.raises(IllegalCommand, match="add up to 11") as info:
        cd.check_declare("ada", [8, 3], base=10)  # also too close
    assert info.value.values["base"] == 10
    cd.check_declare("ada", [6, 1], base=7)
    with pytest.raises(IllegalCommand, match="7 and 3 are 4 apart"):
        cd.check_declare("ada", [7, 3], base=10, min_gap=5)
    cd.check_declare("ada", [7, 2], base=9, min_gap=5)  # exactly the gap, exactly the base
    cd.start([])
    with pytest.raises(IllegalCommand, match="already begun"):
        cd.check_declare("ada", [], base=10)  # after the start, even an empty declaration


def test_advancing_a_finished_countdown_leaves_it_at_its_end() -> None:
    cd = Countdown()
    cd.start([Slot("ada", 7)])
    cd.advance()
    cd.advance()
    assert cd.position == 1 and cd.is_over


def test_popcorn_defaults_two_actions_and_never_fewer_than_none() -> None:
    turns = Popcorn(members=["ada", "bruno"])
    turns.open("ada")
    assert turns.actions_left == 2
    turns.hand_off("bruno")
    assert turns.actions_left == 2 and turns.gone == ["ada", "bruno"]
    turns.hand_off("ada", actions=-1)
    assert turns.actions_left == 0 and turns.gone == ["ada", "bruno"]


def test_a_ladder_level_has_no_penalty_unless_given_and_counts_it_once() -> None:
    level = LadderLevel("grazed", 2, 0)
    assert (level.penalty, level.penalty_each) == (0, False)


def test_the_side_that_took_the_last_turn_stays_on_turn_when_the_round_is_over() -> None:
    order = AlternatingSides.setup(["pcs", "npcs"], "pcs", {"ada": "pcs", "n1": "npcs",
                                                            "n2": "npcs"})
    for actor in ("ada", "n1", "n2"):
        order.check_take_turn(actor)
        order.take_turn(actor)
        order.end_turn()
    assert order.round_over and order.side_on_turn == "npcs"
