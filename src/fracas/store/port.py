"""The storage port (DESIGN.md principle 7): what the service needs from any event store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fracas.engine.events import Record
from fracas.errors import FracasError

DEFAULT_CAMPAIGN = "default"


class SchemaMismatch(FracasError):
    """A database whose schema this fracas cannot use (newer, or older and not upgraded)."""

    code = "schema_mismatch"


@dataclass(frozen=True, slots=True)
class ConflictInfo:
    """A stored conflict's listing entry (never the seed)."""

    id: str
    campaign: str
    ruleset: str
    title: str
    version: int
    created: str
    updated: str


@dataclass(frozen=True, slots=True)
class StoredConflict:
    """What :meth:`EventStore.load` returns: the log, the secret seed, the best snapshot."""

    info: ConflictInfo
    seed: str
    records: list[Record]
    #: (version, format, state data) of the latest snapshot worth trying, or None.
    snapshot: tuple[int, str, dict[str, Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class EventStore(Protocol):
    """Append-only logs of conflicts, grouped in campaigns.

    Every write is all-or-nothing. ``append`` states the version it expects the log to be at
    and raises :class:`~fracas.errors.StaleVersion`, writing nothing, when another writer came
    first. Snapshots are only a cache: losing them loses nothing.
    """

    url: str

    def create(
        self,
        *,
        ruleset: str,
        seed: str,
        title: str,
        campaign: str,
        records: Sequence[Record],
        conflict_id: str | None = None,
    ) -> str:
        """Store a new conflict with its first record(s) (version 1, 2, …); return its id."""
        ...

    def append(self, conflict_id: str, record: Record, expected_version: int) -> None:
        """Append ``record`` (version ``expected_version + 1``) or raise StaleVersion."""
        ...

    def load(self, conflict_id: str) -> StoredConflict:
        """The whole log, the seed and the latest usable snapshot (NotFound if unknown)."""
        ...

    def info(self, conflict_id: str) -> ConflictInfo:
        """One conflict's listing entry (NotFound if unknown)."""
        ...

    def list(self, campaign: str | None = None) -> list[ConflictInfo]:
        """The stored conflicts, newest first, optionally of one campaign."""
        ...

    def find_key(self, conflict_id: str, key: str) -> Record | None:
        """The record appended with idempotency ``key``, if any."""
        ...

    def export_key(self) -> bytes:
        """The secret key the store signs its exports with (made on first use, kept in the
        store, never exported)."""
        ...

    def save_snapshot(
        self, conflict_id: str, version: int, fmt: str, state: dict[str, Any]
    ) -> None:
        """Cache the folded state at ``version`` (replacing an older one at that version)."""
        ...

    def delete_snapshots(self, conflict_id: str) -> int:
        """Drop a conflict's cached snapshots; return how many there were."""
        ...

    def wait_for_change(self, conflict_id: str, version: int, timeout: float) -> int:
        """Block until the conflict is past ``version`` or ``timeout`` seconds pass; return
        its version then. PostgreSQL is told of every append (LISTEN/NOTIFY), so several
        processes follow one conflict at once; SQLite is polled."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...
