"""Small builders for the VERS tests: a conflict from plain dicts, commands, refusals."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.events import Event
from fracas.engine.serialize import state_to_data
from fracas.engine.setup import Setup
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from fracas.rulesets.vers import Vers

ZONES = {"zones": ["a", "b", "c", "d", "e"],
         "links": [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"]]}


def pc(pid: str, **stats: Any) -> dict[str, Any]:
    """A player character (player = its id) with ``stats``."""
    return {"id": pid, "name": pid.title(), "kind": "pc", "side": "pcs", "player": pid,
            "stats": stats}


def npc(pid: str, **stats: Any) -> dict[str, Any]:
    """A GM character on side npcs."""
    return {"id": pid, "name": pid.title(), "kind": "npc", "side": "npcs", "stats": stats}


def make(*participants: dict[str, Any], seed: str = "test", **settings: Any) -> Conflict:
    """A VERS conflict with these participants and settings."""
    setup = Setup(ruleset="vers", title="test", settings=settings,
                  participants=list(participants))
    return Conflict.create(ruleset(), setup, seed)


def ruleset() -> Vers:
    """The VERS ruleset."""
    rs = get_ruleset("vers")
    assert isinstance(rs, Vers)
    return rs


def do(c: Conflict, *lines: str) -> list[Event]:
    """Execute commands; return the events of the last."""
    events: list[Event] = []
    for line in lines:
        events = list(c.execute(line).events)
    return events


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    """The data of events of one type."""
    return [e.data for e in events if e.type == kind]


def refused(c: Conflict, line: str, rule: str | None) -> FracasError:
    """Assert ``line`` is refused citing ``rule`` and that nothing changed."""
    before = copy.deepcopy(state_to_data(c.state))
    version = c.version
    with pytest.raises(FracasError) as info:
        c.execute(line)
    assert info.value.rule == rule, str(info.value)
    assert c.version == version
    assert state_to_data(c.state) == before
    return info.value
