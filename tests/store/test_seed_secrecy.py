"""Stored conflicts roll from a secret seed: a player who knows everything a player view holds
(the bundled seeds included) cannot rebuild a GM-only roll."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.service import ConflictService
from fracas.cli.main import app
from fracas.dice import DiceRng, roll
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.store import SqlEventStore

SECRET_ROLL = "roll 12d20 why=ambush visibility=gm"


def _gm_roll_dice(service: ConflictService, cid: str) -> tuple[list[int], str]:
    out = service.execute(cid, SECRET_ROLL)
    (event,) = out.record.events
    return list(event.data["dice"]), json.dumps(
        [view(out.conflict, Viewer.named("alice")), log_view(out.conflict, Viewer.named("alice"))])


def _attack(dice: list[int], player_sees: str) -> bool:
    """Try every bundled seed (and every word the player sees) at every version in view."""
    seeds = {str(load_scenario(name).seed) for name in bundled_scenarios()}
    seeds |= set(re.findall(r"[\w-]+", player_sees))
    versions = range(0, 400)
    for seed in seeds:
        for v in versions:
            got = roll("12d20", DiceRng.derive(seed, v))
            if got.to_data()["dice"] == dice:
                return True
    return False


@pytest.mark.parametrize("name", ["vers-tavern-brawl", "fabula-ultima-ambush"])
def test_player_cannot_rebuild_a_gm_roll(sqlite_url: str, name: str) -> None:
    service = ConflictService(SqlEventStore(sqlite_url))
    cid, conflict = service.new_from_scenario(load_scenario(name))
    assert re.fullmatch(r"[0-9a-f]{64}", conflict.seed)  # 256 bits from the OS
    dice, seen = _gm_roll_dice(service, cid)
    assert conflict.seed not in seen
    assert not _attack(dice, seen)


def test_a_known_seed_is_what_makes_rolls_predictable(sqlite_url: str) -> None:
    """The same attack works against the scenario's own seed, taken on purpose."""
    service = ConflictService(SqlEventStore(sqlite_url))
    cid, _ = service.new_from_scenario(load_scenario("vers-tavern-brawl"), scenario_seed=True)
    dice, seen = _gm_roll_dice(service, cid)
    assert _attack(dice, seen)


def test_new_warns_about_a_known_seed(sqlite_url: str, tmp_path: Path) -> None:
    runner = CliRunner()
    quiet = runner.invoke(app, ["new", "vers-tavern-brawl", "--db", sqlite_url])
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    fixed = runner.invoke(app, ["new", "vers-tavern-brawl", "--seed", "42", "--db", sqlite_url])
    assert fixed.exit_code == 0 and "predict every roll" in _flat(fixed.stderr)
    own = runner.invoke(app, ["new", "vers-tavern-brawl", "--scenario-seed", "--db",
                              sqlite_url])
    assert own.exit_code == 0 and "predict every roll" in _flat(own.stderr)
    store = SqlEventStore(sqlite_url)
    seeds = {store.load(i.id).seed for i in store.list()}
    assert {"42", "rat-1"} <= seeds and len(seeds) == 3


@pytest.mark.parametrize("command", ["run", "new"])
def test_seed_length_is_the_same_limit_for_run_and_new(sqlite_url: str, command: str) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, [command, "vers-tavern-brawl", "--seed", "s" * 200, "--db",
                             sqlite_url][: None if command == "new" else 4])
    assert ok.exit_code == 0, ok.output
    long = runner.invoke(app, [command, "vers-tavern-brawl", "--seed", "s" * 201, "--db",
                               sqlite_url][: None if command == "new" else 4])
    assert long.exit_code == 2 and "at most 200" in _flat(long.stderr)


def _flat(text: str) -> str:
    return " ".join(text.split())
