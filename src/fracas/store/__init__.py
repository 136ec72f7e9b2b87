"""Storage of conflicts: the :class:`EventStore` port, its SQLite and PostgreSQL adapters
(:class:`SqlEventStore`) and the :class:`ConflictService` the CLI and server use."""

from fracas.store.port import (
    DEFAULT_CAMPAIGN,
    ConflictInfo,
    EventStore,
    SchemaMismatch,
    StoredConflict,
)
from fracas.store.service import ConflictService, Outcome
from fracas.store.sql import SqlEventStore, default_url

__all__ = [
    "DEFAULT_CAMPAIGN",
    "ConflictInfo",
    "ConflictService",
    "EventStore",
    "Outcome",
    "SchemaMismatch",
    "SqlEventStore",
    "StoredConflict",
    "default_url",
]
