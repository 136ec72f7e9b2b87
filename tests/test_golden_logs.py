"""Every bundled scenario, played through the CLI with a fixed seed, gives exactly its expected
output, pinned in tests/golden/:

- ``NAME.log``: ``fracas run NAME --seed golden --raw`` (commands and events in their text
  form, as the GM sees them): the data;
- ``NAME.txt``: ``fracas run NAME --seed golden``, the log and the final state panel as the GM
  reads them;
- ``NAME.as-PLAYER.txt``: the same ``--as PLAYER`` for every player of the scenario, and
  ``--as public`` (an onlooker): the sentences a player reads, "?" placeholders and all.

A deliberate change of a ruleset's events or sentences shows up here as a diff to review;
regenerate every file with ``FRACAS_UPDATE_GOLDEN=1 pytest tests/test_golden_logs.py`` and
read the diff (``git diff tests/golden``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.cli import app

GOLDEN = Path(__file__).parent / "golden"
UPDATE = bool(os.environ.get("FRACAS_UPDATE_GOLDEN"))


def expected_path(name: str) -> Path:
    return GOLDEN / f"{name}.log"


def text_path(name: str, viewer: str | None) -> Path:
    return GOLDEN / (f"{name}.txt" if viewer is None else f"{name}.as-{viewer}.txt")


def viewers(name: str) -> list[str | None]:
    """The GM (None), each player of the scenario, and an onlooker (``public``)."""
    setup = load_scenario(name).setup
    players = sorted({p.player for p in setup.participants if p.player})
    return [None, *players, "public"]


TEXT_CASES = [(name, who) for name in sorted(bundled_scenarios()) for who in viewers(name)]


def run_cli(*args: str) -> str:
    # one line an event, as in a file (the width read from the environment as at a terminal:
    # setting the console's width would leave it fixed for the tests after)
    result = CliRunner().invoke(app, ["run", *args, "--seed", "golden"],
                                env={"COLUMNS": "10000"})
    assert result.exit_code == 0, result.output
    return result.output


def check_golden(path: Path, text: str) -> None:
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing: run FRACAS_UPDATE_GOLDEN=1 pytest {__file__}"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_bundled_scenario_gives_its_expected_log(name: str) -> None:
    output = run_cli(name, "--raw")
    log = output.split("\n\n", 1)[0].split("\n", 1)[1]  # between the seed and the state
    check_golden(expected_path(name), log + "\n")


@pytest.mark.parametrize(("name", "viewer"), TEXT_CASES,
                         ids=[f"{n}-{v or 'gm'}" for n, v in TEXT_CASES])
def test_a_bundled_scenario_reads_as_pinned_for_each_viewer(name: str, viewer: str | None
                                                            ) -> None:
    output = run_cli(name, *([] if viewer is None else ["--as", viewer]))
    text = "".join(line.rstrip() + "\n" for line in output.splitlines())
    check_golden(text_path(name, viewer), text)


def test_a_players_text_never_carries_the_seed() -> None:
    for name, viewer in TEXT_CASES:
        text = text_path(name, viewer).read_text(encoding="utf-8")
        assert ("golden" in text) == (viewer is None), (name, viewer)


def test_every_golden_file_belongs_to_a_bundled_scenario_and_viewer() -> None:
    names = set(bundled_scenarios())
    assert {p.stem for p in GOLDEN.glob("*.log")} == names
    expected = {text_path(n, v).name for n, v in TEXT_CASES}
    assert {p.name for p in GOLDEN.glob("*.txt")} == expected
