"""JSON forms of the state, for snapshots and the ``--json`` outputs."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from fracas.engine.model import ConflictState
from fracas.engine.ruleset import Ruleset

_STATE = TypeAdapter(ConflictState)


def state_to_data(state: ConflictState) -> dict[str, Any]:
    """The state as JSON-native data (the ruleset's part included)."""
    data: dict[str, Any] = _STATE.dump_python(state, mode="json")
    return data


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(ext_type: type) -> TypeAdapter[Any]:
    """The reader of a ruleset's part of the state (made once: making one costs more than
    reading a state with it)."""
    adapter = _ADAPTERS.get(ext_type)
    if adapter is None:
        adapter = _ADAPTERS[ext_type] = TypeAdapter(ext_type)
    return adapter


def state_from_data(ruleset: Ruleset, data: dict[str, Any]) -> ConflictState:
    """Read :func:`state_to_data` back, the ruleset's part as its own dataclass."""
    state = _STATE.validate_python(data)
    level: ConflictState | None = state
    raw: dict[str, Any] | None = data
    while level is not None and raw is not None:
        if ruleset.ext_type is not None and raw.get("ext") is not None:
            level.ext = _adapter(ruleset.ext_type).validate_python(raw["ext"])
        level, raw = level.zoom, raw.get("zoom")
    return state
