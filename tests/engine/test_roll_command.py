"""The table's ``roll`` command reads its whole expression, as Avrae's ``!roll`` does: every
word up to the named arguments (``dice=``, ``why=``, ``visibility=``) is the dice, with ``adv``
or ``dis`` and a comment. It once read the first word alone and took the rest for the reason,
so ``roll 1d20 + 5`` rolled a bare 1d20 and ``roll 1d20+5 adv`` rolled it once."""

from __future__ import annotations

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.conflict import Conflict
from fracas.engine.describe import describe
from fracas.errors import InvalidInput


def _conflict() -> Conflict:
    return play_script(load_scenario("fabula-ultima-ambush"), "roll-words")


@pytest.mark.parametrize("command, expression, dice, total", [
    ("roll 1d20 + 5 dice=12", "1d20+5", [12], 17),
    ("roll 1d20+5 adv dice=3,17", "2d20kh1+5", [3, 17], 22),
    ("roll 1d20 - 3 dis to hit dice=3,17", "2d20kl1-3 to hit", [3, 17], 0),
    ("roll 2d6 [fire] + 1d8 [radiant] smite dice=1,2,3", "2d6[fire]+1d8[radiant] smite",
     [1, 2, 3], 6),
    ("ada: roll '1d20 + 5 adv' dice=3,17", "2d20kh1+5", [3, 17], 22),
])
def test_roll_reads_every_word_of_its_expression(command: str, expression: str,
                                                 dice: list[int], total: int) -> None:
    c = _conflict()
    (event,) = c.execute(command).events
    data = event.to_data()["data"]
    assert (data["expression"], data["dice"], data["total"]) == (expression, dice, total)
    assert "why" not in data  # the words are the roll's, not a reason


def test_a_roll_with_a_reason_and_advantage_is_taken_and_its_text_reads_back() -> None:
    c = _conflict()
    record = c.execute("roll 1d20+5 adv why=trap visibility=gm dice=20,2")
    assert record.command == "roll '1d20+5 adv' dice=20,2 why=trap visibility=gm"
    (event,) = record.events
    assert describe(c.ruleset, event, c.state) == (
        "the GM rolls for trap [gm]: 2d20kh1+5 → [20, ~~2~~] + 5 = 25")
    again = c.execute(record.command)  # the log's text form is the same command
    assert again.events == record.events


def test_the_json_form_takes_an_expression_of_several_words() -> None:
    c = _conflict()
    (event,) = c.execute({"verb": "roll", "args": {"expression": "1d20 + 5 adv",
                                                   "dice": [3, 17]}}).events
    assert event.to_data()["data"]["total"] == 22


def test_a_roll_with_no_expression_is_refused_with_its_usage() -> None:
    c = _conflict()
    with pytest.raises(InvalidInput, match="roll: missing expression; usage: .*roll "
                       r"EXPRESSION \[dice=DICE\] \[why=TEXT\]"):
        c.execute("roll visibility=gm")
    assert c.version == _conflict().version
