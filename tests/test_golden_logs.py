"""Every bundled scenario, played through the CLI with a fixed seed, gives exactly its expected
log (tests/golden/NAME.log: commands and events in their text form, as the GM sees them).

A deliberate change of a ruleset's events shows up here as a diff to review; regenerate the
files with ``FRACAS_UPDATE_GOLDEN=1 pytest tests/test_golden_logs.py`` and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios
from fracas.cli import app, common

GOLDEN = Path(__file__).parent / "golden"


def expected_path(name: str) -> Path:
    return GOLDEN / f"{name}.log"


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_bundled_scenario_gives_its_expected_log(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common.console, "width", 10_000)  # one line an event, as in a file
    result = CliRunner().invoke(app, ["run", name, "--seed", "golden", "--raw"])
    assert result.exit_code == 0, result.output
    log = result.output.split("\n\n", 1)[0].split("\n", 1)[1]  # between the seed and the state
    path = expected_path(name)
    if os.environ.get("FRACAS_UPDATE_GOLDEN"):
        path.write_text(log + "\n", encoding="utf-8")
    assert log + "\n" == path.read_text(encoding="utf-8")


def test_every_golden_log_belongs_to_a_bundled_scenario() -> None:
    names = set(bundled_scenarios())
    assert {p.stem for p in GOLDEN.glob("*.log")} == names
