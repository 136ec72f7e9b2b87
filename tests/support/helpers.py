"""Helpers shared by the engine tests."""

from __future__ import annotations

from typing import Any

from fracas.engine import Conflict, Setup
from fracas.engine.serialize import state_to_data
from fracas.rulesets import register
from tests.support.toy import Toy

TOY = Toy()
register(TOY)


def toy_setup(**extra: Any) -> Setup:
    """Ada (Alice's PC, 6 HP), Bruno (Bob's PC, 6 HP) and a GM-run goblin with a secret stat."""
    return Setup(
        ruleset="toy",
        title="Toy brawl",
        participants=[
            {"id": "ada", "name": "Ada", "kind": "pc", "player": "alice", "side": "heroes",
             "stats": {"hp": 6}},
            {"id": "bruno", "name": "Bruno", "kind": "pc", "player": "bob", "side": "heroes",
             "stats": {"hp": 6}},
            {"id": "gob", "name": "Goblin", "side": "foes",
             "stats": {"hp": 6, "weakness": "fire"}, "gm_only": ["weakness"]},
        ],
        **extra,
    )


def toy_conflict(seed: str = "seed") -> Conflict:
    """A fresh toy conflict at version 1."""
    return Conflict.create(TOY, toy_setup(), seed, time="")


def snapshot(conflict: Conflict) -> tuple[int, dict[str, Any]]:
    """Version and JSON state: what a refused command must leave exactly as it was."""
    return conflict.version, state_to_data(conflict.state)


def as_stored_before(state: dict[str, Any]) -> dict[str, Any]:
    """A folded state's JSON without what the state gained after the logs the tests keep
    were stored: when each participant came in (0 if set up with the conflict, else its place
    among them) and when the GM wrote its stats."""
    level: dict[str, Any] | None = state
    while level is not None:
        for i, p in enumerate(level["participants"].values(), 1):
            assert p.pop("entered") in (0, i) and isinstance(p.pop("written"), dict), p["id"]
        level = level["zoom"]
    return state
