"""Every ```toml example of docs/fabula-ultima.md runs, and every ```text line parses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from tests.rulesets.fabula_ultima.support import make, npc, pc

DOC = Path(__file__).resolve().parents[3] / "docs" / "fabula-ultima.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("index", range(len(_blocks("toml"))))
def test_toml_examples_run(index: int, tmp_path: Path) -> None:
    path = tmp_path / f"example{index}.toml"
    path.write_text(_blocks("toml")[index], encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "doc", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ruleset"] == "fabula-ultima"


@pytest.mark.rule("FU-CON-7")
def test_whole_conflict_example_follows_the_seed_order(tmp_path: Path) -> None:
    path = tmp_path / "whole.toml"
    path.write_text(_blocks("toml")[0], encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "doc", "--json"])
    data = json.loads(result.stdout)
    turns = [e["data"]["participant"] for r in data["log"] for e in r["events"]
             if e["type"] == "turn_started"]
    kinds = {"ada": "pc", "bruno": "pc"}
    assert [kinds.get(t, "npc") for t in turns[:5]] == ["pc", "npc", "pc", "npc", "npc"]


def test_text_lines_parse() -> None:
    c = make(pc("ada"), pc("bruno"), npc("captain"), npc("cut1"))
    lines = [ln for block in _blocks("text") for ln in block.splitlines() if ln.strip()]
    assert lines
    for line in lines:
        c.parse(line)


@pytest.mark.rule("FU-CON-14", "FU-CON-13", "FU-CON-1")
def test_every_command_example_runs_and_keeps_gm_only_stats_from_players(
        tmp_path: Path) -> None:
    block = next(b for b in _blocks("toml") if "Siege of the mill" in b)
    path = tmp_path / "full.toml"
    path.write_text(block, encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "doc", "--json",
                                      "--as", "alice"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    evs = [e for r in data["log"] for e in r["events"]]
    joined = next(e for e in evs if e["type"] == "joined_turns")
    assert joined["data"]["round"] == 2
    golem = [e["data"] for e in evs if e["type"] == "damage" and e["data"]["target"] == "golem"]
    assert golem and all("hp_after" not in d for d in golem)
    parts = {p["id"]: p for p in data["state"]["conflict"]["participants"]}
    assert "hp" not in parts["golem"] and "defense" not in parts["sorceress"]
    assert data["state"]["conflict"]["status"] == "ended"


def test_first_conflict_lines_play_with_the_whole_conflicts_characters(tmp_path: Path) -> None:
    """'Your first conflict' plays as written, under the ford's own seed and another."""
    first = _blocks("text")[0]
    whole = re.sub(r'script = """.*?"""', lambda _: f'script = """\n{first}"""',
                   _blocks("toml")[0], flags=re.S)
    path = tmp_path / "first.toml"
    path.write_text(whole, encoding="utf-8")
    for seed in ("ford", "doc"):
        result = CliRunner().invoke(app, ["run", str(path), "--seed", seed, "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["state"]["conflict"]["status"] == "ended"


@pytest.mark.rule("FU-CON-6", "FU-CON-8", "FU-CON-9")
def test_the_rounds_example_is_a_legal_round(tmp_path: Path) -> None:
    rounds = next(b for b in _blocks("text") if b.startswith("ada: attack cut1"))
    path = tmp_path / "round.toml"
    path.write_text(f'''ruleset = "fabula-ultima"
sides = ["heroes", "bandits"]
script = """
ada: initiative dice=6,6,6,6
{rounds}"""

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
stats = {{ dex = 10, ins = 8, mig = 8, wlp = 8, hp = 45, mp = 40 }}

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "heroes"
stats = {{ dex = 8, ins = 8, mig = 10, wlp = 8, hp = 50, mp = 30 }}

[[participants]]
id = "captain"
name = "Bandit Captain"
side = "bandits"
stats = {{ dex = 8, ins = 8, mig = 8, wlp = 8, hp = 60, rank = "elite" }}

[[participants]]
id = "cut1"
name = "Cutthroat 1"
side = "bandits"
stats = {{ dex = 8, ins = 8, mig = 8, wlp = 6, hp = 30 }}
''', encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "doc", "--json"])
    assert result.exit_code == 0, result.output
