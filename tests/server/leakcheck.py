"""What the leak tests compare: the frames a viewer received against the stored projection."""

from __future__ import annotations

import json
from typing import Any

from fracas.app.service import ConflictService
from fracas.engine.model import Viewer
from fracas.server import projection
from fracas.store import open_store


def stored_projection(db: str, conflict_id: str, viewer: Viewer
                      ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view and log the server must have sent ``viewer``, from the stored log."""
    store = open_store(db, migrate=False)
    try:
        conflict = ConflictService(store).load(conflict_id)
    finally:
        store.close()
    data, entries, _ = projection.Live(conflict, viewer).snapshot()
    return data, entries


def followed(frames: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, list[Any]]:
    """The last view and every entry a socket's frames carried, in order."""
    last, entries = None, []
    for frame in frames:
        assert frame["type"] in ("snapshot", "resume", "update", "pong"), frame
        if frame["type"] == "snapshot":  # the whole log, again
            entries = []
        entries += frame.get("entries", [])
        if "view" in frame:
            last = frame["view"]
    return last, entries


def keys_named(data: Any, name: str) -> int:
    """How many mappings anywhere in ``data`` have the key ``name``."""
    if isinstance(data, dict):
        return (name in data) + sum(keys_named(v, name) for v in data.values())
    if isinstance(data, list):
        return sum(keys_named(v, name) for v in data)
    return 0


def assert_no_secret(texts: list[str], secrets: tuple[str, ...], who: str) -> None:
    """None of ``secrets`` (case-insensitive) in any of ``texts``."""
    for text in texts:
        low = text.lower()
        for secret in secrets:
            assert secret.lower() not in low, f"{who} received {secret!r}: {text[:400]}"


def assert_numbered(entries: list[dict[str, Any]], who: str) -> None:
    """A player's entries are numbered 1, 2, … with no gap and carry no version."""
    assert [e["entry"] for e in entries] == list(range(1, len(entries) + 1)), who
    assert keys_named(entries, "version") == 0, who


def dumps(frames: list[dict[str, Any]]) -> list[str]:
    """Frames as the text they came in."""
    return [json.dumps(f, ensure_ascii=False) for f in frames]
