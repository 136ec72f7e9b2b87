"""Errors by type, not by text: nothing edits an error after it is raised or branches on its
message, and the one scenario-script runner keeps the rule that refused a line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import run_script
from fracas.errors import IllegalCommand, InvalidInput, ScriptError, with_rule

SRC = Path(__file__).resolve().parent.parent / "src" / "fracas"

SCENARIO = '''
ruleset = "etherscope"
title = "Split"
[settings]
nature = "physical"
range_scaling = "battlefield"
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { physical = 12, ether = 8, society = 6, awareness = 3 }
[[participants]]
id = "boris"
name = "Boris"
stats = { physical = 10, ether = 6, society = 6, awareness = 1 }
[script]
commands = """
ada: awareness successes=2
boris: awareness successes=1
moves
ada: done
round
ada: declare 7,4
"""
'''


@pytest.mark.rule("ES-ROUND-3")
def test_a_refused_script_line_names_file_line_and_keeps_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "split.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    done = run_script(load_scenario(path), "seed")
    error = done.error
    assert isinstance(error, ScriptError)
    assert error.rule == "ES-ROUND-3" and error.code == IllegalCommand.code
    assert str(error).startswith(f"{path}:")
    assert "'ada: declare 7,4'" in str(error) and str(error).endswith("(ES-ROUND-3)")
    assert isinstance(error.cause, IllegalCommand)


def test_with_rule_makes_a_new_error_and_keeps_the_type() -> None:
    original = InvalidInput("bad dice", value="x")
    cited = with_rule(original, "VR-ROLL-1")
    assert cited is not original and type(cited) is InvalidInput
    assert original.rule is None and cited.rule == "VR-ROLL-1" and cited.values == {"value": "x"}
    assert with_rule(cited, "ES-ACT-4") is cited  # an error that cites a rule keeps it


def test_no_code_edits_an_error_or_branches_on_its_text() -> None:
    edits = re.compile(r"\b(exc|err|error|e)\.(message|rule|values)\s*[+]?=(?!=)")
    branches = re.compile(r"in (str\((exc|err|error|e)\)|(exc|err|error|e)\.message)\b")
    found = [f"{p.relative_to(SRC)}:{n}: {line.strip()}"
             for p in SRC.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if edits.search(line) or branches.search(line)]
    assert found == []
