"""The README's examples work: every `fracas …` line of its shell blocks runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app

README = Path(__file__).parent.parent / "README.md"


def readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("fracas ") and "my-fight.toml" not in line:
                out.append(line)
    return out


def test_the_readme_shows_fracas_commands() -> None:
    assert len(readme_commands()) >= 6


@pytest.mark.parametrize("line", readme_commands())
def test_a_readme_command_runs(line: str) -> None:
    result = CliRunner().invoke(app, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


def test_the_readme_opens_with_the_two_commands_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block is not None
    lines = [ln.split("#")[0].strip() for ln in first_block.group(1).splitlines() if ln.strip()]
    assert lines == ["bash scripts/run.sh", "bash scripts/test.sh"]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in ci
