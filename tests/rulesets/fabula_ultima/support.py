"""Helpers for the Fabula Ultima tests: build a conflict, run commands, compare states."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine import Conflict, Setup
from fracas.engine.serialize import state_to_data
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset

RULESET = get_ruleset("fabula-ultima")


def pc(pid: str, **stats: Any) -> dict[str, Any]:
    base = {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 40, "mp": 30, "ip": 6}
    base.update(stats)
    return {"id": pid, "name": pid.title(), "kind": "pc", "side": "pcs", "player": pid,
            "stats": base}


def npc(pid: str, side: str = "foes", **stats: Any) -> dict[str, Any]:
    base = {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 20, "mp": 10}
    base.update(stats)
    return {"id": pid, "name": pid.title(), "kind": "npc", "side": side, "stats": base}


def make(*participants: dict[str, Any], settings: dict[str, Any] | None = None,
         seed: str = "test") -> Conflict:
    setup = Setup.model_validate({"ruleset": "fabula-ultima", "title": "test",
                                  "settings": settings or {},
                                  "participants": list(participants)})
    return Conflict.create(RULESET, setup, seed, time="")


def run(conflict: Conflict, *commands: str) -> Conflict:
    for c in commands:
        conflict.execute(c, time="")
    return conflict


def seed_example(first: str = "pcs") -> Conflict:
    """2 PCs and 3 soldiers; the PCs succeed (or fail) the initiative check."""
    c = make(pc("ada"), pc("bruno"), npc("orc1"), npc("orc2"), npc("orc3"))
    # supporter bruno (2 dice) then leader ada (2 dice); DL is 8 (d8+d8 soldiers)
    return run(c, "ada: initiative dice=6,5,4,5" if first == "pcs"
               else "ada: initiative dice=2,2,2,3")


def events(conflict: Conflict, types: str | tuple[str, ...] | None = None) -> list[Any]:
    """Every event of the last record (of the given types)."""
    evs = list(conflict.records[-1].events)
    if types is None:
        return evs
    wanted = (types,) if isinstance(types, str) else types
    return [e for e in evs if e.type in wanted]


def refused(conflict: Conflict, command: str, rule: str | None,
            error: type[FracasError] = FracasError) -> FracasError:
    """Assert ``command`` is refused citing ``rule`` and changes nothing."""
    before = state_to_data(conflict.state)
    version = conflict.version
    with pytest.raises(error) as info:
        conflict.execute(command, time="")
    assert info.value.rule == rule, str(info.value)
    assert conflict.version == version
    assert state_to_data(conflict.state) == before
    return info.value


def turn_log(conflict: Conflict) -> list[str]:
    """Who started a turn, in order, over the whole (counting) log."""
    from fracas.engine.conflict import counting_records

    return [e.data["participant"] for r in counting_records(conflict.records)
            for e in r.events if e.type == "turn_started"]


def round_over(conflict: Conflict, rnd: int) -> bool:
    """Round ``rnd`` has ended and the next has not begun (it begins with the next turn)."""
    return conflict.state.round == rnd and conflict.state.ext.round_closed
