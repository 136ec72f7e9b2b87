"""One turn-order protocol: the countdown, alternating sides and popcorn answer "who is
acting, who may act, who is still to act, is the round over" the same way."""

from __future__ import annotations

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.components.turn_orders import (
    AlternatingSides,
    Countdown,
    Popcorn,
    Slot,
    TurnOrder,
)
from fracas.engine.conflict import Conflict
from fracas.engine.turns import turn_view
from fracas.errors import InvalidInput
from fracas.rulesets import get_ruleset


@pytest.mark.rule("ES-ROUND-4")
def test_the_countdown_answers_who_acts_and_who_is_to_come() -> None:
    cd = Countdown(declarations={"ada": [7, 1], "bo": [5]})
    cd.start([Slot("ada", 7), Slot("bo", 5), Slot("ada", 1)])
    assert isinstance(cd, TurnOrder)
    assert (cd.acting(), cd.may_act(), cd.to_act(), cd.round_over) == (["ada"], ["ada"], ["bo"],
                                                                        False)
    cd.advance()
    assert (cd.acting(), cd.to_act()) == (["bo"], ["ada"])
    cd.advance()
    cd.advance()
    assert (cd.acting(), cd.to_act(), cd.round_over) == ([], [], True)


@pytest.mark.rule("FU-CON-6")
@pytest.mark.rule("FU-CON-8")
def test_alternating_sides_let_the_side_on_turn_choose_who_acts() -> None:
    order = AlternatingSides.setup(["pcs", "foes"], "pcs",
                                   {"ada": "pcs", "bo": "pcs", "orc": "foes"}, {"orc": 2})
    assert isinstance(order, TurnOrder)
    assert (order.acting(), order.may_act()) == ([], ["ada", "bo"])
    assert order.to_act() == ["ada", "bo", "orc"]
    order.take_turn("bo")
    assert (order.acting(), order.may_act(), order.to_act()) == (["bo"], ["bo"], ["ada", "orc"])
    order.end_turn()
    assert order.may_act() == ["orc"]


@pytest.mark.rule("VR-TURN-2")
def test_popcorn_lets_anyone_who_has_not_gone_take_the_hand_off() -> None:
    turns = Popcorn(members=["ada", "bo", "thug"])
    assert isinstance(turns, TurnOrder)
    assert (turns.acting(), turns.may_act(), turns.round_over) == ([], ["ada", "bo", "thug"],
                                                                   False)
    turns.open("thug")
    assert (turns.acting(), turns.may_act(), turns.to_act()) == (["thug"], ["thug"],
                                                                 ["ada", "bo"])


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_ruleset_answers_the_protocol_consistently(name: str) -> None:
    """At every step of each bundled script: at most one participant acts, the one acting is
    the one who may act, nobody acting is still to act, and a round that is over has nobody
    acting or to act; participants a viewer may not know are never listed for them."""
    sc = load_scenario(name)
    rs = get_ruleset(sc.setup.ruleset)
    conflict = Conflict.create(rs, sc.setup, "seed", time="")
    someone_may_act = False
    for line in [None, *sc.script]:
        if line is not None:
            conflict.execute(line.text, time="")
        state = conflict.state.innermost
        tv = turn_view(rs, state)
        assert len(tv.acting) <= 1
        someone_may_act |= bool(tv.may_act)
        if tv.acting:
            assert list(tv.may_act) == list(tv.acting)
            assert tv.acting[0] not in tv.to_act
        if tv.round_over:
            assert not tv.acting and not tv.to_act
        assert turn_view(rs, state, lambda pid: False) == type(tv)((), (), (), tv.round_over)
    assert someone_may_act, "every bundled script reaches a point where someone may act"


@pytest.mark.rule("FU-CON-6")
def test_before_there_is_a_turn_order_nobody_acts_and_no_round_is_over() -> None:
    sc = load_scenario("fabula-ultima-ambush")  # the conflict's order comes with initiative
    rs = get_ruleset(sc.setup.ruleset)
    conflict = Conflict.create(rs, sc.setup, "seed", time="")
    assert rs.turn_order(conflict.state) is None
    assert turn_view(rs, conflict.state).to_data() == {
        "acting": [], "may_act": [], "to_act": [], "round_over": False}


@pytest.mark.rule("FU-CON-8", "FU-CON-14")
def test_nobody_may_start_a_turn_while_one_is_under_way_and_joining_needs_whole_turns() -> None:
    order = AlternatingSides.setup(["pcs", "foes"], "pcs", {"ada": "pcs", "orc": "foes"}, {})
    assert order.who_may_act() == ["ada"]
    order.take_turn("ada")
    assert order.who_may_act() == []
    with pytest.raises(InvalidInput, match="cannot have -1 turns"):
        order.check_join("bo", "pcs", -1)
    order.check_join("bo", "pcs", 0)  # a character with no turns may still join
