"""The storage port (DESIGN.md principle 7): what the service needs from any event store."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fracas.engine.events import LazyEvents, Record
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
    #: False while the conflict is behind the GM's screen: only the GM of its table sees it
    #: (the table's business, kept apart from the log: undo never changes it).
    shown: bool = True


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    """A campaign of the store: its name, and its title when it is a table of ``fracas
    serve`` (made by ``fracas table new``; a plain campaign has none)."""

    name: str
    title: str | None
    created: str


@dataclass(frozen=True, slots=True)
class NewConflict:
    """A conflict to store with :meth:`EventStore.restore` (an import): its log and when it
    was made and last played (None: now)."""

    ruleset: str
    seed: str
    title: str
    records: Sequence[Record]
    conflict_id: str | None = None
    shown: bool = True
    created: str | None = None
    updated: str | None = None


@dataclass(frozen=True, slots=True)
class NewCampaign:
    """A campaign to store with :meth:`EventStore.restore`: a table when it has a title (a
    new one, with ``tokens``: (token, digest) pairs), else a plain campaign (joined if the
    store has it already)."""

    name: str
    title: str | None
    created: str | None
    conflicts: Sequence[NewConflict]
    tokens: Sequence[tuple[TokenInfo, str]] = ()


@dataclass(frozen=True, slots=True)
class StoredConflict:
    """What :meth:`EventStore.load` returns: the log, the secret seed, the best snapshot."""

    info: ConflictInfo
    seed: str
    records: list[Record]
    #: (version, format, state data) of the latest snapshot worth trying, or None.
    snapshot: tuple[int, str, dict[str, Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: Set by a load ``after_snapshot``: ``records`` are then only those after the snapshot,
    #: and this reads the ones up to it (version order), when they are needed.
    earlier: Callable[[], builtins.list[Record]] | None = None


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """One access token of a table, as stored: its hash, never the secret itself."""

    id: str
    table: str
    role: str  # "gm" | "player" | "public"
    player: str | None
    label: str
    created: str
    revoked: str | None = None


class TableStore(Protocol):
    """The tables of ``fracas serve`` (campaigns with a title) and their access tokens.

    Only token digests are stored; revoking a token is announced to every server process
    (PostgreSQL: NOTIFY on :data:`TOKEN_CHANNEL`)."""

    def create_table(self, table_id: str, title: str, *, existing: bool = False) -> None:
        """Store a new table (a campaign with ``title``); InvalidInput if the id is taken.
        ``existing``: the campaign ``table_id`` (with no title) becomes the table."""
        ...

    def campaigns(self) -> builtins.list[CampaignInfo]:
        """Every campaign (tables among them, with their titles), oldest first."""
        ...

    def table_title(self, table_id: str) -> str:
        """The title of a table (NotFound if there is no such table)."""
        ...

    def add_token(self, token: TokenInfo, digest: str) -> None:
        """Store a token's digest and what it grants."""
        ...

    def find_token(self, digest: str) -> TokenInfo | None:
        """The token with this digest (revoked or not), if any."""
        ...

    def list_tokens(self, table_id: str) -> builtins.list[TokenInfo]:
        """A table's tokens, oldest first."""
        ...

    def revoke_token(self, table_id: str, token_id: str, by: str | None = None
                     ) -> TokenInfo:
        """Mark a token of ``table_id`` revoked (NotFound if it is not one of its tokens);
        ``by``: the token asking, refused (NotAuthenticated) if it is revoked itself by the
        time the revoke is written, checked in the same transaction."""
        ...

    def secret_key(self, name: str) -> bytes:
        """The 32 random bytes kept under ``name`` (made on first use, then the same for
        every process on this database)."""
        ...

    def admin_digest(self) -> str | None:
        """The digest of the server's admin secret (None: none was made yet)."""
        ...

    def set_admin_digest(self, digest: str) -> None:
        """Keep the digest of a new admin secret (the old one stops working)."""
        ...


#: PostgreSQL channel on which every token revocation is announced (its token id).
TOKEN_CHANNEL = "fracas_tokens"
#: PostgreSQL channel on which a conflict shown or put behind the screen is announced
#: (``CONFLICT_ID 1`` or ``CONFLICT_ID 0``, :func:`screen_note`).
SCREEN_CHANNEL = "fracas_screen"
#: The longest record (bytes of JSON) announced along with its append; PostgreSQL's NOTIFY
#: takes at most 8,000 bytes.
NOTE_RECORD_LIMIT = 7_000


def append_note(conflict_id: str, version: int, data: str) -> str:
    """The announcement of an append (PostgreSQL NOTIFY): ``CONFLICT_ID VERSION``, then the
    record's JSON ``data`` when it fits, so that a listener need not read the record back."""
    head = f"{conflict_id} {version}"
    return f"{head} {data}" if len(data.encode()) <= NOTE_RECORD_LIMIT else head


def screen_note(conflict_id: str, shown: bool) -> str:
    """The announcement of a conflict shown (``ID 1``) or put behind the screen (``ID 0``)."""
    return f"{conflict_id} {int(shown)}"


def read_screen_note(payload: str) -> tuple[str, bool]:
    """The conflict and whether it is shown, of a :func:`screen_note`."""
    conflict_id, _, shown = payload.partition(" ")
    return conflict_id, shown == "1"


def read_append_note(payload: str) -> tuple[str, int | None, Record | None]:
    """The conflict, version and (if it came along) record of an announcement."""
    conflict_id, _, rest = payload.partition(" ")
    version, _, data = rest.partition(" ")
    record = None
    if data:
        try:
            d = json.loads(data)
            record = Record(int(d["version"]), str(d["command"]), LazyEvents(data),
                            str(d.get("author", "gm")), str(d.get("time", "")), d.get("key"))
        except (ValueError, KeyError, TypeError):
            record = None  # read back from the store instead
    return conflict_id, int(version) if version.isdigit() else None, record


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
        shown: bool = True,
        created: str | None = None,
        updated: str | None = None,
    ) -> str:
        """Store a new conflict with its first record(s) (version 1, 2, …); return its id.
        ``shown`` False: behind the GM's screen (:attr:`ConflictInfo.shown`); ``created``
        and ``updated``: when it was made and last played, if not now (an import)."""
        ...

    def restore(self, campaigns: Sequence[NewCampaign]) -> builtins.list[builtins.list[str]]:
        """Store campaigns and their conflicts all in one transaction (an import of tables),
        or nothing: the ids of each campaign's conflicts. InvalidInput if a table's id is
        taken, ConflictExists if a conflict's is."""
        ...

    def set_shown(self, conflict_id: str, shown: bool) -> ConflictInfo:
        """Show a conflict, or put it behind the screen (NotFound if unknown); the log is
        not touched. Every process is told (PostgreSQL: NOTIFY on :data:`SCREEN_CHANNEL`)."""
        ...

    def append(self, conflict_id: str, record: Record, expected_version: int) -> None:
        """Append ``record`` (version ``expected_version + 1``) or raise StaleVersion."""
        ...

    def load(self, conflict_id: str, *, after_snapshot: bool = False) -> StoredConflict:
        """The whole log, the seed and the latest usable snapshot (NotFound if unknown);
        ``after_snapshot``: only the records after the snapshot are read (see
        :attr:`StoredConflict.earlier`)."""
        ...

    def info(self, conflict_id: str) -> ConflictInfo:
        """One conflict's listing entry (NotFound if unknown)."""
        ...

    def list(self, campaign: str | None = None) -> list[ConflictInfo]:
        """The stored conflicts, newest first, optionally of one campaign."""
        ...

    def campaigns(self) -> builtins.list[CampaignInfo]:
        """Every campaign (tables among them, with their titles), oldest first."""
        ...

    def records_after(self, conflict_id: str, version: int) -> builtins.list[Record]:
        """The records past ``version``, in order (for a process that keeps a conflict)."""
        ...

    def find_key(self, conflict_id: str, author: str, key: str) -> Record | None:
        """The record ``author`` appended with idempotency ``key``, if any."""
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
