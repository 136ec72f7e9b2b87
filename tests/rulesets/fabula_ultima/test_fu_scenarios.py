"""The bundled scenarios run through ``fracas run`` and their logs show the procedure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.cli import app

SCENARIOS = Path(__file__).resolve().parents[3] / "src" / "fracas" / "scenarios"


def _run(name: str, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["run", str(SCENARIOS / name), "--seed", "s", "--json",
                                      *extra])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _turns(data: dict[str, Any]) -> list[str]:
    return [e["data"]["participant"] for r in data["log"] for e in r["events"]
            if e["type"] == "turn_started"]


@pytest.mark.rule("FU-CON-7", "FU-CON-9", "FU-CON-12", "FU-CON-1", "FU-CON-2")
def test_ambush_two_pcs_against_an_elite_and_two_soldiers() -> None:
    data = _run("fabula-ultima-ambush.toml")
    assert _turns(data)[:6] == ["ada", "captain", "bruno", "captain", "cut2", "cut1"]
    # round 2: cut1 is taken out mid-round; the captain still takes its second turn
    assert _turns(data)[6:] == ["ada", "captain", "bruno", "cut2", "captain"]
    outs = [e for r in data["log"] for e in r["events"] if e["type"] == "participant_out"]
    assert [e["data"]["participant"] for e in outs] == ["cut1"]
    conflict = data["state"]["conflict"]
    assert conflict["status"] == "ended" and conflict["end_reason"].startswith("goal")
    mule = next(p for p in conflict["participants"] if p["id"] == "mule")
    assert mule["extra"] and "mule" not in conflict["ruleset"]["tracker"]["turns_per_round"]


@pytest.mark.rule("FU-CON-5", "FU-CON-9", "FU-CON-14", "FU-RES-3")
def test_wyrm_lair_pcs_fail_initiative() -> None:
    data = _run("fabula-ultima-dragon-lair.toml")
    init = next(e for r in data["log"] for e in r["events"] if e["type"] == "initiative_checked")
    assert not init["data"]["success"] and init["data"]["dl"] == 13
    assert _turns(data)[:6] == ["wyrm", "lia", "wyrm", "milo", "kobold", "wyrm"]
    assert _turns(data)[6:] == ["wyrm", "milo", "bats", "lia", "wyrm", "wyrm"]
    wyrm = next(p for p in data["state"]["conflict"]["participants"] if p["id"] == "wyrm")
    assert wyrm["hp"]["current"] == 150  # fire is absorbed


def test_player_run_hides_gm_only_hit_points() -> None:
    data = _run("fabula-ultima-ambush.toml", "--as", "alice")
    cap = next(p for p in data["state"]["conflict"]["participants"] if p["id"] == "captain")
    assert "hp" not in cap and "CRISIS" in cap["summary"]
    assert "seed" not in data
