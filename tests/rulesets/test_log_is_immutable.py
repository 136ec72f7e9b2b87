"""The log is append-only in substance too: playing on (commands, undo, redo, overrides) never
changes a record already written — no ruleset keeps an event's list or dict in its state and
mutates it later."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.engine import Conflict
from fracas.errors import FracasError, InternalError


def concrete(options: list[str]) -> list[str]:
    return [o for o in options if not any(w.isupper() for w in o.replace(":", " ").split())]


def frozen(conflict: Conflict) -> list[str]:
    return [json.dumps(r.payload()) for r in conflict.records]


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
@settings(max_examples=15)
@given(picks=st.lists(st.integers(0, 10_000), max_size=25))
def test_playing_on_never_rewrites_a_record(name: str, picks: list[int]) -> None:
    conflict = play_script(load_scenario(name), "log")
    written = frozen(conflict)
    for pick in picks:
        actors = [None, *conflict.state.innermost.participants]
        options = [o for a in actors for o in concrete(conflict.legal_commands(a))]
        options += ["undo", "redo"] if conflict.redoable() else ["undo"]
        try:
            record = conflict.execute(options[pick % len(options)])
        except InternalError:
            raise
        except FracasError:
            continue  # refused (a roll's needs, a rule): nothing was written
        written.append(json.dumps(record.payload()))  # as it was when it was written
    assert frozen(conflict) == written
