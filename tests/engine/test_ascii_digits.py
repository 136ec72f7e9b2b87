"""Numbers from outside are written with the digits 0-9: Python's ``int`` and ``\\d`` also read
Arabic-Indic (``٣``), full-width (``３``) and other scripts' digits, and a GM who typed them
(or pasted them) got a number they never meant, where the dice parser refused. Every door
refuses them alike with one sentence that names the digit, and changes nothing: ruleset odds
queries, command text and JSON, table dice and scenario values."""

from __future__ import annotations

import dataclasses
from importlib import resources

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.cli.main import app
from fracas.engine.conflict import Conflict
from fracas.errors import FracasError, InvalidInput
from tests.rulesets.etherscope.helpers import make, pc

runner = CliRunner()
FOREIGN = ["\u0663", "\uff13", "\u06f3", "\u0969"]  # Arabic-Indic, full-width, Persian, Devanagari


@pytest.mark.parametrize("digit", FOREIGN)
@pytest.mark.parametrize("ruleset, query", [
    ("etherscope", "pool {} vs 2"),
    ("vers", "3d6 vs 1{}"),
    ("vers", "chase length {} tn 12 vs 2 as hunter"),
    ("fabula-ultima", "{{d8+d10}}+1 vs 1{}"),
    ("fabula-ultima", "group {{d8+d8}}+1 vs 12 supporters {{d8+d6}} bonds {}"),
])
def test_a_ruleset_odds_query_refuses_other_digits(ruleset: str, query: str, digit: str
                                                    ) -> None:
    ok = runner.invoke(app, ["odds", "--ruleset", ruleset, query.format("3")])
    assert ok.exit_code == 0, ok.output
    result = runner.invoke(app, ["odds", "--ruleset", ruleset, query.format(digit)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert f"holds the digit '{digit}'" in said and "with the digits 0-9" in said, said
    assert "Traceback" not in result.output


def _chase() -> Conflict:
    return make(people=[pc("ada", "alice"), pc("bruno", "bob"), pc("carl")],
                script=["ada: awareness successes=1", "bruno: awareness successes=1",
                        "carl: awareness successes=0"])


@pytest.mark.parametrize("command", [
    "moves rolloff=ada:\u0661,1/bruno:5,6",  # table dice of a roll-off
    "ada: awareness dice=\uff15,6,1",  # the dice kind
    "roll 2d6 dice=\u0663,4",
    "effect rain count=\u0662",  # the int kind
])
def test_command_text_and_table_dice_refuse_other_digits(command: str) -> None:
    c = _chase()
    version = c.version
    with pytest.raises(InvalidInput, match=r"holds the digit .* with the digits 0-9"):
        c.execute(command)
    assert c.version == version


def test_the_json_door_takes_numbers_as_numbers_not_digits_in_text() -> None:
    c = _chase()
    version = c.version
    for digits in ("\u0662", "2"):
        with pytest.raises(InvalidInput, match="count must be a whole number, got text"):
            c.execute({"verb": "effect", "args": {"text": "rain", "count": digits}})
    assert c.version == version


AMBUSH = resources.files("fracas.scenarios").joinpath("fabula-ultima-ambush.toml").read_text(
    encoding="utf-8")


@pytest.mark.rule("FU-CHK-1")
@pytest.mark.parametrize("old, new", [
    ("dex = 10", 'dex = "d\u0661\u0660"'),  # a die size
    ('rank = "elite"', 'rank = "champion \u0663"'),
    ("bonus = 1, damage = 4", 'bonus = "\uff11", damage = 4'),  # an equipment number
])
def test_scenario_values_refuse_other_digits(old: str, new: str) -> None:
    assert old in AMBUSH
    fine = AMBUSH.replace(old, new.replace("\u0661\u0660", "10").replace("\u0663", "3")
                          .replace("\uff11", "1"), 1)
    _set_up(fine)  # the same with 0-9 is accepted
    with pytest.raises(FracasError, match=r"holds the digit .* with the digits 0-9"):
        _set_up(AMBUSH.replace(old, new, 1))


def _set_up(text: str) -> None:
    """Create the scenario's conflict (its script left out: the changed stats change it)."""
    play_script(dataclasses.replace(parse_scenario(text, "f.toml"), script=()), "s")
