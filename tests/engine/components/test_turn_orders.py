"""Tests for the generic turn orders: countdown, alternating sides, popcorn."""

from __future__ import annotations

import pytest

from fracas.engine.components import AlternatingSides, Countdown, Popcorn, Slot, tie_groups
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

# --------------------------------------------------------------------------- countdown


def test_declare_split_ok() -> None:
    cd = Countdown()
    cd.check_declare("ada", [7, 1], base=8)
    cd.declare("ada", [1, 7])
    assert cd.declarations == {"ada": [7, 1]}


def test_declare_sum_over_base_refused() -> None:
    with pytest.raises(IllegalCommand) as err:
        Countdown().check_declare("ada", [7, 2], base=8, rule_sum="ES-ROUND-2")
    assert "add up to 9" in str(err.value) and "base initiative 8" in str(err.value)
    assert err.value.rule == "ES-ROUND-2"


def test_declare_gap_refused_names_numbers() -> None:
    with pytest.raises(IllegalCommand) as err:
        Countdown().check_declare(
            "ada", [4, 7], base=12, rule_gap="ES-ROUND-3", names={"ada": "Ada"}
        )
    assert str(err.value) == (
        "Ada's acting initiatives 7 and 4 are 3 apart; actions must be at least 5 apart"
        " (ES-ROUND-3)"
    )
    assert err.value.values["min_gap"] == 5


@pytest.mark.parametrize("scores", [[0], [-1], [6, 0], []])
def test_declare_zero_negative_or_empty_refused(scores: list[int]) -> None:
    with pytest.raises(IllegalCommand) as err:
        Countdown().check_declare("ada", scores, base=8, rule_positive="ES-ROUND-2")
    assert err.value.rule == "ES-ROUND-2"


def test_declare_after_start_refused() -> None:
    cd = Countdown()
    cd.start([Slot("ada", 8)])
    with pytest.raises(IllegalCommand):
        cd.check_declare("ada", [3], base=8)


def test_tie_groups_highest_first_keeps_order() -> None:
    entries = [Slot("a", 5), Slot("b", 7), Slot("c", 5), Slot("d", 1)]
    assert tie_groups(entries) == [
        [Slot("b", 7)],
        [Slot("a", 5), Slot("c", 5)],
        [Slot("d", 1)],
    ]
    assert tie_groups([]) == []


def test_countdown_runs_down() -> None:
    cd = Countdown()
    cd.declare("ada", [7, 1])
    cd.declare("bruno", [5])
    assert cd.undeclared(["ada", "bruno", "cy"]) == ["cy"]
    order = cd.entries()
    assert [s.score for s in order] == [7, 5, 1]
    assert cd.current is None and not cd.started
    cd.start(order)
    assert cd.current == Slot("ada", 7)
    assert cd.remaining() == [Slot("bruno", 5), Slot("ada", 1)]
    cd.advance()
    cd.advance()
    assert cd.current == Slot("ada", 1)
    cd.advance()
    assert cd.is_over and cd.current is None
    cd.advance()  # no-op past the end
    assert cd.is_over
    cd.new_round()
    assert cd.declarations == {} and cd.position == -1 and not cd.is_over


def test_countdown_leave_mid_round() -> None:
    cd = Countdown()
    cd.start([Slot("ada", 7), Slot("bruno", 6), Slot("ada", 2), Slot("bruno", 1)])
    cd.advance()  # bruno at 6 acting
    cd.remove("ada")
    assert cd.current == Slot("bruno", 6)
    assert cd.remaining() == [Slot("bruno", 1)]
    cd.remove("bruno")  # leaves during its own slot: current stays until advance
    assert cd.current == Slot("bruno", 6)
    assert cd.remaining() == []
    cd.advance()
    assert cd.is_over


def test_countdown_joiner_waits_for_next_round() -> None:
    cd = Countdown()
    cd.add("early")  # before the start: may declare this round
    assert cd.joiners == []
    cd.start([Slot("ada", 7)])
    cd.add("cy")
    assert cd.undeclared(["ada", "cy"]) == ["ada"]
    with pytest.raises(IllegalCommand):
        cd.check_declare("cy", [3], base=5)
    cd.new_round()
    assert cd.undeclared(["ada", "cy"]) == ["ada", "cy"]


def test_countdown_empty_start_is_over() -> None:
    cd = Countdown()
    cd.start([])
    assert cd.is_over and cd.current is None


# --------------------------------------------------------------------------- alternating


def _fu(
    pcs: list[str], npcs: list[str], turns: dict[str, int] | None = None, first: str = "pcs"
) -> AlternatingSides:
    members = {p: "pcs" for p in pcs} | {n: "npcs" for n in npcs}
    return AlternatingSides.setup(["pcs", "npcs"], first, members, turns)


def _play_round(order: AlternatingSides) -> list[str]:
    """Play a round taking the first available member each turn; return sides in order."""
    sides: list[str] = []
    while not order.round_over:
        actor = order.who_may_act()[0]
        order.check_take_turn(actor)
        order.take_turn(actor)
        sides.append(order.side_of[actor])
        order.end_turn()
    return sides


def test_two_vs_three_larger_side_finishes() -> None:
    order = _fu(["ada", "bo"], ["n1", "n2", "n3"])
    assert _play_round(order) == ["pcs", "npcs", "pcs", "npcs", "npcs"]


def test_side_with_no_turns_left_other_takes_rest() -> None:
    order = _fu(["ada"], ["n1", "n2", "n3"])
    assert _play_round(order) == ["pcs", "npcs", "npcs", "npcs"]
    order.new_round()
    assert order.side_on_turn == "pcs"


def test_first_side_with_no_members_other_side_opens() -> None:
    order = _fu([], ["n1"])
    assert order.side_on_turn == "npcs"
    assert _play_round(order) == ["npcs"]


def test_elite_two_turns_each_counted_once() -> None:
    order = _fu(["ada", "bo"], ["elite"], {"elite": 2})
    assert order.side_turns_left("npcs") == 2
    assert _play_round(order) == ["pcs", "npcs", "pcs", "npcs"]
    assert order.status()["npcs"].acted == ["elite"]


def test_wrong_side_and_no_turns_refused() -> None:
    order = _fu(["ada", "bo"], ["n1"])
    with pytest.raises(NotYourTurn) as err:
        order.check_take_turn("n1", rule_side="FU-CON-6")
    assert err.value.rule == "FU-CON-6"
    assert str(err.value).startswith("it is side ")  # lower case, as every refusal
    order.take_turn("ada")
    with pytest.raises(NotYourTurn):
        order.check_take_turn("bo")  # a turn is under way
    order.end_turn()
    order.take_turn("n1")
    order.end_turn()
    assert order.who_may_act() == ["bo"]
    with pytest.raises(IllegalCommand) as err2:
        order.check_take_turn("ada", rule_no_turns="FU-CON-10")
    assert err2.value.rule == "FU-CON-10" and "no turns left" in str(err2.value)


def test_cannot_pass_with_turn_available() -> None:
    order = _fu(["ada"], ["n1"])
    with pytest.raises(IllegalCommand):
        order.check_pass("pcs", rule="FU-CON-6")
    order.take_turn("ada")
    order.end_turn()
    order.check_pass("pcs")


def test_a_refused_pass_names_who_still_has_a_turn() -> None:
    names = {"ada": "Ada", "bo": "Bo"}
    with pytest.raises(IllegalCommand, match="Side pcs cannot pass: Ada, Bo still have a turn"):
        _fu(["ada", "bo"], ["n1"]).check_pass("pcs", names=names)
    with pytest.raises(IllegalCommand, match="Side pcs cannot pass: Ada still has a turn"):
        _fu(["ada"], ["n1"]).check_pass("pcs", names=names)


def test_a_joiner_takes_one_turn_a_round_unless_told_otherwise() -> None:
    order = _fu(["ada"], ["n1"])
    order.join("bo", "pcs")
    assert order.turns_left("bo") == 1


def test_defeated_mid_round_turns_vanish() -> None:
    order = _fu(["ada", "bo"], ["n1", "n2"])
    order.take_turn("ada")
    order.end_turn()
    order.take_turn("n1")
    order.end_turn()
    order.defeat("bo")  # PCs now have no turns left
    assert order.side_on_turn == "npcs"
    assert order.who_may_act() == ["n2"]
    with pytest.raises(IllegalCommand):
        order.check_take_turn("bo")
    assert _play_round(order) == ["npcs"]
    order.new_round()
    assert order.turns_left("bo") == 0
    assert "bo" not in order.status()["pcs"].turns_left


def test_defeat_during_own_turn_then_end() -> None:
    order = _fu(["ada"], ["n1", "n2"])
    order.take_turn("ada")
    order.defeat("ada")
    assert order.current == "ada"
    order.end_turn()
    assert _play_round(order) == ["npcs", "npcs"]


def test_joiner_mid_round_turns_count_this_round() -> None:
    order = _fu(["ada"], ["n1"])
    order.take_turn("ada")
    order.end_turn()
    order.take_turn("n1")
    order.end_turn()
    assert order.round_over
    order.check_join("bo", "pcs", 1)
    order.join("bo", "pcs", 1)
    assert not order.round_over
    assert order.who_may_act() == ["bo"]
    with pytest.raises(InvalidInput):
        order.check_join("x", "martians", 1)
    with pytest.raises(IllegalCommand):
        order.check_join("bo", "pcs", 1)


def test_setup_validation() -> None:
    with pytest.raises(InvalidInput):
        AlternatingSides.setup(["a", "b", "c"], "a", {})
    with pytest.raises(InvalidInput):
        AlternatingSides.setup(["a", "b"], "z", {})
    with pytest.raises(InvalidInput):
        AlternatingSides.setup(["a", "b"], "a", {"x": "q"})


# --------------------------------------------------------------------------- popcorn


def _popcorn(*members: str) -> Popcorn:
    return Popcorn(members=list(members))


def test_popcorn_round() -> None:
    p = _popcorn("ada", "bruno", "gob")
    p.check_open("ada", rule="VR-TURN-1")
    p.open("ada", 2)
    with pytest.raises(IllegalCommand):
        p.check_open("bruno")
    p.check_action("ada")
    p.spend()
    p.spend()
    with pytest.raises(IllegalCommand) as err:
        p.check_action("ada", rule_actions="VR-TURN-4")
    assert not isinstance(err.value, NotYourTurn)
    p.check_hand_off("gob")
    p.hand_off("gob", 1)
    with pytest.raises(NotYourTurn):
        p.check_action("ada", rule_turn="VR-TURN-2")
    assert p.not_gone() == ["bruno"]
    p.hand_off("bruno")
    assert not p.round_over
    p.end_go()
    assert p.round_over
    p.new_round()
    assert not p.round_over and p.openers == ["ada"]
    p.open("gob")
    assert p.openers == ["ada", "gob"]


def test_hand_off_to_already_gone_refused() -> None:
    p = _popcorn("ada", "bruno", "cy")
    p.open("ada")
    p.hand_off("bruno")
    with pytest.raises(IllegalCommand) as err:
        p.check_hand_off("ada", rule="VR-TURN-2", names={"ada": "Ada"})
    assert str(err.value) == (
        "Ada has already gone this round; hand off to someone who has not (VR-TURN-2)"
    )
    assert err.value.values == {"target": "ada"}


def test_hand_off_to_acting_or_absent_refused() -> None:
    p = _popcorn("ada", "bruno")
    p.open("ada")
    with pytest.raises(IllegalCommand, match="acting now"):
        p.check_hand_off("ada")
    with pytest.raises(IllegalCommand, match="not in this conflict"):
        p.check_hand_off("zed")


def test_hand_off_before_open_refused() -> None:
    with pytest.raises(IllegalCommand):
        _popcorn("ada").check_hand_off("ada")


def test_popcorn_join_and_leave_mid_round() -> None:
    p = _popcorn("ada", "bruno")
    p.open("ada")
    p.hand_off("bruno")
    p.join("cy")
    assert p.not_gone() == ["cy"]
    p.check_hand_off("cy")
    p.hand_off("cy")
    p.leave("cy")
    assert p.current is None and p.round_over
    with pytest.raises(IllegalCommand):
        p.check_open("zed")
