"""Helpers for the Etherscope tests: build a conflict and run commands."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.serialize import state_to_data
from fracas.engine.setup import Setup
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset

ES = get_ruleset("etherscope")


def pc(pid: str, player: str | None = None, **stats: Any) -> dict[str, Any]:
    """A participant entry (physical/ether/society 10, awareness 2 unless given)."""
    base: dict[str, Any] = {"physical": 10, "ether": 10, "society": 10, "awareness": 2}
    base.update(stats)
    out: dict[str, Any] = {"id": pid, "name": pid.title(), "stats": base,
                           "kind": "pc" if player else "npc"}
    if player:
        out["player"] = player
    return out


def make(settings: dict[str, Any] | None = None, people: list[dict[str, Any]] | None = None,
         script: list[str] | None = None, seed: str = "t") -> Conflict:
    """A conflict with ada (alice), bruno (bob) and carl (GM) unless ``people`` is given."""
    people = people or [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    setup = Setup.model_validate({"ruleset": "etherscope", "title": "t",
                                  "settings": copy.deepcopy(settings or {}),
                                  "participants": people})
    c = Conflict.create(ES, setup, seed, time="")
    for line in script or []:
        c.execute(line, time="")
    return c


def started(settings: dict[str, Any] | None = None,
            people: list[dict[str, Any]] | None = None, seed: str = "t") -> Conflict:
    """Awareness rolled (ada 3, bruno 2, carl 1), moves skipped, round 1 begun."""
    c = make(settings, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "moves"], seed)
    return moved(c, "round")


def moved(c: Conflict, *then: str) -> Conflict:
    """``c`` with every awareness move left ended at once (``done``), then ``then`` played
    (one whose every one yet to move is hidden from it has no move, ES-START-5)."""
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    for command in then:
        c.execute(command)
    return c


def refused(c: Conflict, command: str, error: type[FracasError], rule: str | None,
            author: Viewer | None = None) -> str:
    """Run ``command`` (by ``author``, default the GM) expecting ``error`` with ``rule``; the
    state must not change."""
    before, version = state_to_data(c.state), c.version
    with pytest.raises(error) as info:
        c.execute(command, author, time="")
    assert info.value.rule == rule, str(info.value)
    assert state_to_data(c.state) == before
    assert c.version == version
    return str(info.value)
