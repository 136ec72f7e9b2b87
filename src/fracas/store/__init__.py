"""Storage of conflicts: the :class:`EventStore` port and its SQLite and PostgreSQL adapter
(:class:`SqlEventStore`), with the schema and its migrations. Nothing above the store lives
here: the service that loads, decides and appends is :mod:`fracas.app.service`."""

from sqlalchemy.exc import SQLAlchemyError

from fracas.store.port import (
    DEFAULT_CAMPAIGN,
    CampaignInfo,
    ConflictInfo,
    EventStore,
    SchemaMismatch,
    StoredConflict,
    TableStore,
    TokenInfo,
)
from fracas.store.sql import (
    SqlEventStore,
    default_url,
    failure_words,
    missing_sqlite_file,
    safe_url,
)

#: What a store raises when the database itself fails (unreachable, locked, corrupt); adapters
#: report it as a database error without knowing the SQL library underneath.
StoreFailure = SQLAlchemyError


def open_store(url: str | None = None, *, migrate: bool = True, synchronous: str = "FULL"
               ) -> SqlEventStore:
    """The store at ``url`` (default: ``$FRACAS_DB`` or the SQLite file in the data folder);
    ``synchronous`` (SQLite): ``FULL`` or ``NORMAL`` (SqlEventStore)."""
    return SqlEventStore(url or default_url(), migrate=migrate, synchronous=synchronous)

__all__ = [
    "DEFAULT_CAMPAIGN",
    "CampaignInfo",
    "ConflictInfo",
    "EventStore",
    "SchemaMismatch",
    "SqlEventStore",
    "StoreFailure",
    "StoredConflict",
    "TableStore",
    "TokenInfo",
    "default_url",
    "failure_words",
    "missing_sqlite_file",
    "open_store",
    "safe_url",
]
