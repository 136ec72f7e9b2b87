"""Every ```toml example of docs/vers.md runs through `fracas run`; ```text lines parse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine.conflict import command_set

from .helpers import ruleset

DOC = Path(__file__).parents[3] / "docs" / "vers.md"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_doc_has_examples_odds_and_commands():
    text = DOC.read_text(encoding="utf-8")
    assert "## Odds" in text and "## Commands" in text
    assert len(blocks("toml")) >= 4


@pytest.mark.parametrize("index", range(len(blocks("toml"))))
def test_doc_example_runs(index, tmp_path):
    path = tmp_path / f"example{index}.toml"
    path.write_text(blocks("toml")[index], encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--json"])
    assert result.exit_code == 0, result.output


def test_doc_command_lines_parse():
    commands = command_set(ruleset())
    lines = [line for block in blocks("text") for line in block.splitlines() if line.strip()]
    assert lines
    for line in lines:
        commands.parse(line)


def test_doc_odds_examples_answer():
    for query in ("3d6 vs 12 -2", "chase length 3 tn 14 vs 2 as hunter"):
        result = CliRunner().invoke(app, ["odds", "--ruleset", "vers", query])
        assert result.exit_code == 0, result.output


def test_the_guide_lists_every_setting_vers_reads():
    """docs/scenarios.md sends a scenario's writer to the ruleset's guide for its settings;
    docs/vers.md had none to find (not `base_tn`, not how a zone gets its name): its
    Settings table names each setting the rules read, and no other."""
    from fracas.rulesets.vers.ruleset import Vers

    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Settings\n", 1)[1].split("\n## ", 1)[0]
    listed = {key for row in re.findall(r"^\| (`[^|]+) \|", section, re.M)
              for key in re.findall(r"`(\w+)`", row)}
    assert listed == set(Vers.settings_read) | {"harm_view", "gm_only_settings"}
