"""The tables of the event store (SQLAlchemy Core), shared by SQLite and PostgreSQL.

``records`` is the append-only log: one row per command, its JSON in ``data``; the primary key
(conflict, version) and the version column of ``conflicts`` make an append all-or-nothing.
``snapshots`` is only a cache of folded states. A campaign with a title is a *table* of
``fracas serve``: ``tokens`` holds the hashes (never the secrets) of its GM, player and public
links; ``store_keys`` also holds the random keys the server seals cursors and exported
seeds with.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    true,
)

metadata = MetaData()

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    Column("title", String(200), nullable=True),
)

conflicts = Table(
    "conflicts",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False, index=True),
    Column("ruleset", String(60), nullable=False),
    Column("title", String(200), nullable=False),
    Column("seed", String(200), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
    # false: behind the GM's screen, seen by the GM of its table alone (0005); never an event
    # of its log (undo does not touch it)
    Column("shown", Boolean, nullable=False, server_default=true()),
)

records = Table(
    "records",
    metadata,
    Column("conflict_id", String(40), ForeignKey("conflicts.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("command", Text, nullable=False),
    Column("author", String(80), nullable=False),
    Column("time", String(40), nullable=False),
    Column("key", String(200), nullable=True),
    Column("data", Text, nullable=False),
    PrimaryKeyConstraint("conflict_id", "version", name="pk_records"),
)
#: Each author's idempotency keys are their own (0004): one author's key tells nothing of
#: another's.
Index("ix_records_author_key", records.c.conflict_id, records.c.author, records.c.key,
      unique=True)

#: The store's own secrets, such as the key that signs its exports; never exported.
store_keys = Table(
    "store_keys",
    metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
    Column("created", String(40), nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("conflict_id", String(40), ForeignKey("conflicts.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("format", String(200), nullable=False),
    Column("state", Text, nullable=False),
    Column("created", String(40), nullable=False),
    PrimaryKeyConstraint("conflict_id", "version", name="pk_snapshots"),
)

tokens = Table(
    "tokens",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False, index=True),
    Column("digest", String(64), nullable=False, unique=True),
    Column("role", String(20), nullable=False),
    Column("player", String(80), nullable=True),
    Column("label", String(200), nullable=False),
    Column("created", String(40), nullable=False),
    Column("revoked", String(40), nullable=True),
)
