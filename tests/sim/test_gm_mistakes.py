"""What a GM preparing a session gets wrong with ``fracas sim``: each refused at once, in
plain words, nothing run."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.cli.main import app

runner = CliRunner()


def test_a_prologue_that_ends_the_conflict_is_refused_not_counted_as_no_decision(
        tmp_path: Path) -> None:
    """Every encounter would start ended: the report read 100% "no decision (round cap)" in
    0 rounds, as if the sides had stalled each other."""
    text = load_scenario("fabula-ultima-ambush").text
    path = tmp_path / "ended.toml"
    path.write_text(text + '\n[sim]\nprologue = """\nnote "they meet"\nend "over"\n"""\n')
    result = runner.invoke(app, ["sim", str(path), "-n", "3", "--seed", "x"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    lines = text.count("\n") + 1
    assert f"ended.toml:{lines + 4}: [sim] prologue holds 'end \"over\"': a prologue that " \
           "ends the conflict leaves nothing to simulate" in said, said
    assert "Traceback" not in result.output and "who wins" not in said
