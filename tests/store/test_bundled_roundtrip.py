"""Every bundled scenario survives the store exactly: stored, reloaded, exported and imported,
it is the same conflict — state, log and the order of every table (the first weapon on a sheet
is the one drawn)."""

from __future__ import annotations

import json

import pytest

from fracas.app.exchange import dumps, export_conflict, import_conflict
from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.app.service import ConflictService
from fracas.engine.serialize import state_to_data


def exact(conflict: object) -> str:
    return json.dumps(state_to_data(conflict.state))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_a_bundled_conflict_round_trips_through_store_and_export(
    name: str, service: ConflictService
) -> None:
    scenario = load_scenario(name)
    live = play_script(scenario, "rt")
    cid, _ = service.new_from_scenario(scenario, seed="rt")
    loaded = service.load(cid)
    assert exact(loaded) == exact(live)
    assert loaded.legal_commands(None) == live.legal_commands(None)
    text = dumps(export_conflict(service, cid))
    new_id, imported, _ = import_conflict(service, text, "x.json", new_id=True)
    assert new_id != cid
    assert exact(service.load(new_id)) == exact(live)
    assert [r.payload() for r in imported.records] == [r.payload() for r in live.records]
