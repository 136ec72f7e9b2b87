"""Every ```toml block of docs/etherscope.md runs; every ```text line parses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine.conflict import command_set

from .helpers import ES

DOC = Path(__file__).resolve().parents[3] / "docs" / "etherscope.md"


def blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_every_toml_example_runs(tmp_path: Path) -> None:
    found = blocks("toml")
    assert found
    for i, text in enumerate(found):
        path = tmp_path / f"ex{i}.toml"
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(app, ["run", str(path), "--seed", "s", "--json"])
        assert result.exit_code == 0, result.output


def test_text_commands_parse() -> None:
    cs = command_set(ES)
    lines = [ln for b in blocks("text") for ln in b.splitlines() if ln.strip()]
    assert lines
    for line in lines:
        cmd = cs.parse(line)
        assert cs.parse(cs.to_text(cmd)) == cmd


def test_doc_has_odds_and_commands_sections() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "## Odds" in text and "## Commands" in text
    for spec in ES.commands:
        assert spec.verb in text


def test_the_first_conflicts_commands_play_the_whole_conflicts_set_up(tmp_path: Path) -> None:
    first = blocks("text")[0]
    whole = next(b for b in blocks("toml") if 'title = "A car chase"' in b)
    setup = re.sub(r'script = """.*?"""\n', "", whole, flags=re.S)
    path = tmp_path / "first.toml"
    path.write_text(setup.replace('seed = "docs"\n',
                                  f'seed = "docs"\nscript = """\n{first}"""\n'), "utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["state"]["conflict"]["status"] == "ended"
