"""Errors are an output channel: when it is a hidden character's turn, a player's command is
refused with "it is not your turn" and who may act among those the player may know — never
the hidden actor's name, id, side or score — in every ruleset (the engine rebuilds every
turn check's refusal for a player from their projection, engine/refusals.py)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.errors import NotYourTurn
from tests.rulesets.etherscope.helpers import make, pc

WRAITH = ("join wraith name='Pale Wraith' side={side} hidden=yes "
          "'stats={stats}'")


def _until(name: str, last: str) -> Conflict:
    """A bundled scenario played up to and including its script line ``last``."""
    sc = load_scenario(name)
    n = next(i for i, line in enumerate(sc.script) if line.text == last)
    return play_script(dataclasses.replace(sc, script=sc.script[:n + 1]), "s")


def _refusal(c: Conflict, command: str, player: str) -> NotYourTurn:
    version = c.version
    with pytest.raises(NotYourTurn) as info:
        c.execute(command, Viewer.of_player(player), time="")
    assert c.version == version
    return info.value


def _names_none(error: NotYourTurn, *words: str) -> None:
    told = json.dumps(error.to_dict()) + str(error)
    for word in words:
        assert word.lower() not in told.lower(), (word, told)


@pytest.mark.rule("FU-CON-6")
def test_fabula_ultima_names_no_hidden_foe_whose_side_is_on_turn() -> None:
    c = _until("fabula-ultima-ambush", "ada: attack cut1 dice=6,5")  # the bandits' turn
    stats = json.dumps({"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 20, "mp": 10})
    c.execute(WRAITH.format(side="bandits", stats=stats))
    gm = c.state.ext.order.who_may_act()
    assert "wraith" in gm  # the GM's answer: the hidden wraith may act too
    error = _refusal(c, "bruno: attack cut2", "bob")
    _names_none(error, "wraith", "Pale")
    assert str(error) == ("Bruno does not act now; it is not Bruno's turn; Bandit Captain, "
                          "Cutthroat 1, Cutthroat 2 may act now (FU-CON-6)")


@pytest.mark.rule("VR-TURN-2")
def test_vers_names_no_hidden_character_whose_go_it_is() -> None:
    c = play_script(load_scenario("vers-tavern-brawl"), "s")
    c.execute(WRAITH.format(side="toughs", stats=json.dumps({"zone": "bar"})))
    c.execute("override ruleset.current wraith")
    for command, player in (("ada: handoff", "alice"), ("bruno: attack thug", "bob")):
        error = _refusal(c, command, player)
        _names_none(error, "wraith", "Pale")
        assert "it is not" in str(error) and "(VR-TURN-2)" in str(error)
    with pytest.raises(NotYourTurn, match="Pale Wraith's go"):
        c.execute("ada: handoff")  # the GM is told whose go it is


@pytest.mark.rule("ES-START-5", "ES-ROUND-4")
def test_etherscope_names_no_lurker_whose_move_or_slot_it_is() -> None:
    """Kimberly Lurk lurks, hidden from Ada and Bruno: her awareness move comes first and her
    slot of the countdown first too (she declared 10)."""
    kim = {**pc("kim", physical=10), "name": "Kimberly Lurk"}
    c = make({"time_scale": "tactical", "lurking": {"kim": ["ada", "bruno"]}},
             [pc("ada", "alice"), pc("bruno", "bob"), pc("boris"), kim],
             ["ada: awareness successes=3", "bruno: awareness successes=2",
              "boris: awareness successes=1", "kim: awareness successes=4", "moves"])
    assert c.state.ext.move_order[c.state.ext.mover] == "kim"
    error = _refusal(c, "ada: step boris toward", "alice")
    _names_none(error, "kim", "Kimberly", "Lurk")
    assert error.rule == "ES-START-5"
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    for line in ("round", "ada: declare 7", "bruno: declare 5", "kim: declare 10",
                 "countdown"):
        c.execute(line)
    assert c.state.ext.countdown.current.actor == "kim"
    for command, player in (("ada: done", "alice"), ("bruno: attack boris successes=1",
                                                     "bob")):
        error = _refusal(c, command, player)
        _names_none(error, "kim", "Kimberly", "Lurk", " at 10")
        assert error.rule == "ES-ROUND-4"
