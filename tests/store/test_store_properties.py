"""Random play through the store: after every stored command, loading the conflict again
(from its snapshots and log) gives exactly the live state, undo and redo included."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.engine.serialize import state_to_data
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO


def concrete(options: list[str]) -> list[str]:
    return [o for o in options if not any(w.isupper() for w in o.split())]


@settings(max_examples=15)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=20))
def test_every_reload_equals_the_live_state(picks: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlEventStore(f"sqlite:///{Path(tmp) / 'p.db'}")
        try:
            service = ConflictService(store, snapshot_every=3)
            cid, live = service.new_from_scenario(load_scenario(TOY_SCENARIO))
            for pick in picks:
                options = [o for a in (None, "ada", "bruno")
                           for o in concrete(live.legal_commands(a))]
                live = service.execute(cid, options[pick % len(options)], conflict=live).conflict
                again = service.load(cid)
                assert again.version == live.version
                assert state_to_data(again.state) == state_to_data(live.state)
                assert [r.payload() for r in again.records] == \
                    [r.payload() for r in live.records]
        finally:
            store.close()
