"""The two adapters of the event store, on SQLAlchemy 2 Core: SQLite and PostgreSQL.

SQLite (the default) is a file in the user's data directory, in WAL mode with foreign keys
on and ``synchronous=FULL``: a command acknowledged to the user has reached the disk, even if
the machine loses power right after. ``NORMAL`` (asked for by ``fracas serve --sync normal``)
keeps a commit through a crash of the process but not of the machine, and waits for no disk
per commit. Writes open with ``BEGIN IMMEDIATE`` so two writers queue on the lock instead of
failing mid-transaction. PostgreSQL is chosen by a ``postgresql+psycopg://`` URL.

An append is one transaction: ``UPDATE conflicts SET version = v+1 WHERE version = v`` (the
optimistic check: zero rows means someone came first) then the INSERT of the record; the
(conflict, version) primary key backs the check up. On PostgreSQL both, and the announcement
of the append (NOTIFY), are one statement in autocommit mode: one round trip. On SQLite,
appends made at the same time by several threads share one transaction, each in its own
savepoint (group commit, :mod:`fracas.store.group`): one disk wait for many, and none
acknowledged before its commit.
"""

from __future__ import annotations

import builtins
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command as alembic_command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import (
    Connection,
    Engine,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
)
from sqlalchemy import update as sql_update
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.pool import NullPool, QueuePool

from fracas.engine.events import LazyEvents, Record
from fracas.engine.limits import check_conflict_id, hidden_character
from fracas.errors import (
    ConflictExists,
    FracasError,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    StaleVersion,
)
from fracas.store.group import GroupCommit
from fracas.store.port import (
    DEFAULT_CAMPAIGN,
    SCREEN_CHANNEL,
    TOKEN_CHANNEL,
    CampaignInfo,
    ConflictInfo,
    NewCampaign,
    NewConflict,
    SchemaMismatch,
    StoredConflict,
    TokenInfo,
    append_note,
    read_append_note,
    screen_note,
)
from fracas.store.schema import (
    campaigns,
    conflicts,
    records,
    snapshots,
    store_keys,
    tokens,
)

ENV_DB = "FRACAS_DB"


#: The name under which ``store_keys`` holds the digest of the server's admin secret.
ADMIN_KEY = "server-admin"
#: PostgreSQL channel on which every append is announced (``port.append_note``).
NOTIFY_CHANNEL = "fracas_appends"
#: SQLite's ``synchronous`` settings a store may open with (see SqlEventStore).
SYNCHRONOUS = ("FULL", "NORMAL")
#: How often SQLite is polled for changes (seconds).
POLL_SECONDS = 0.2
#: Seconds to wait for a PostgreSQL server to answer before giving up (unless the URL sets
#: ``connect_timeout``): an unreachable or silent host fails fast instead of hanging.
CONNECT_TIMEOUT = 10
#: PostgreSQL connections a process keeps open (and as many more at its busiest).
POOL_SIZE = 12
#: The longest text each stored field takes (the columns of schema.py), checked before
#: writing so that SQLite and PostgreSQL accept and refuse the same conflicts.
LIMITS = {"id": 40, "campaign": 200, "ruleset": 60, "title": 200, "seed": 200,
          "author": 80, "key": 200, "player": 80, "label": 200, "created": 40, "updated": 40}


#: The kinds of database failure that are about reaching it (PEP 249's names, kept by
#: SQLAlchemy and by the driver alike): refused, cut, shut down, locked.
OUT_OF_REACH = ("OperationalError", "InterfaceError")


def failure_words(exc: BaseException) -> str:
    """A database failure in words for the server's log: of one out of reach, its kind and the
    driver's own first line (*connection refused*, *terminating connection due to
    administrator command*: the host and port, never a password nor a value written); of any
    other, its kind alone (its whole text quotes the statement and its values)."""
    kind = type(exc).__name__
    said = str(getattr(exc, "orig", None) or exc).strip() if kind in OUT_OF_REACH else ""
    return f"{kind}: {said.splitlines()[0].strip()}" if said else kind


def default_url() -> str:
    """``$FRACAS_DB`` or the SQLite file in the user's data directory."""
    env = os.environ.get(ENV_DB)
    if env:
        return env
    path = Path(platformdirs.user_data_dir("fracas", appauthor=False)) / "fracas.db"
    return f"sqlite:///{path}"


def record_json(record: Record) -> str:
    """The stored JSON text of a record (compact). Key order is kept as the engine made it:
    a table's order can mean something (the first weapon on a sheet is the one drawn)."""
    return json.dumps(record.to_data(), separators=(",", ":"), ensure_ascii=False)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def alembic_config() -> Config:
    """An Alembic config pointing at the packaged migrations."""
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("fracas.store") / "migrations"))
    return cfg


class _DeferredData:
    """The data of a conflict's rows up to a snapshot, read in one query when first needed."""

    def __init__(self, store: SqlEventStore, conflict_id: str, upto: int) -> None:
        self.store, self.conflict_id, self.upto = store, conflict_id, upto
        self.rows: dict[int, str] | None = None

    def getter(self, version: int) -> Callable[[], str]:
        """A function giving the JSON of record ``version``."""
        return lambda: self.fetch()[version]

    def fetch(self) -> dict[int, str]:
        if self.rows is None:
            with self.store._read() as conn:
                self.rows = {int(v): str(d) for v, d in conn.execute(
                    select(records.c.version, records.c.data).where(
                        records.c.conflict_id == self.conflict_id,
                        records.c.version <= self.upto))}
        return self.rows


class SqlEventStore:
    """An :class:`~fracas.store.port.EventStore` on SQLite or PostgreSQL."""

    def __init__(self, url: str | None = None, *, migrate: bool = True,
                 synchronous: str = "FULL") -> None:
        """Open the database at ``url`` (default: :func:`default_url`). On SQLite,
        ``synchronous`` is ``FULL`` (a commit survives a power cut) or ``NORMAL`` (a commit
        survives a crash of the process, not of the machine; no disk wait per commit).

        A fresh database is migrated on first use when ``migrate``; one from a newer fracas,
        or an older one that needs ``fracas db upgrade``, raises :class:`SchemaMismatch`.
        """
        self.url = url or default_url()
        if synchronous not in SYNCHRONOUS:
            raise InvalidInput(f"synchronous is one of {', '.join(SYNCHRONOUS)}, not "
                               f"{synchronous!r}", synchronous=synchronous)
        self.engine = _make_engine(self.url, synchronous)
        self.dialect = self.engine.dialect.name
        self._group: GroupCommit[tuple[str, Record, int]] | None = \
            GroupCommit(self._append_batch) if self.dialect == "sqlite" else None
        try:
            state = self.schema_state()
            if state == "fresh" and migrate:
                self.upgrade()
            elif state != "current" and migrate:
                raise SchemaMismatch(state)
        except OperationalError as exc:
            self.engine.dispose()
            raise InvalidInput(f"cannot open the database {safe_url(self.url)}: "
                               f"{exc.orig or exc}", url=safe_url(self.url)) from None
        except BaseException:
            self.engine.dispose()
            raise

    # --- schema -------------------------------------------------------------------------
    def schema_state(self) -> str:
        """``fresh``, ``current``, or a sentence saying why this fracas cannot use it."""
        script = ScriptDirectory.from_config(alembic_config())
        head = script.get_current_head()
        with self.engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
            tables = set(self.engine.dialect.get_table_names(conn))
        if current is None:
            if tables & {"conflicts", "records"}:
                return ("this database has fracas tables but no schema version; "
                        "it was not made by fracas or is damaged")
            return "fresh"
        if current == head:
            return "current"
        try:
            script.get_revision(current)
        except CommandError:
            return (f"this database was written by a newer fracas (schema {current}; this "
                    f"fracas knows up to {head}); upgrade fracas to use it")
        return (f"this database has the older schema {current} (this fracas needs {head}); "
                "run `fracas db upgrade`")

    def upgrade(self) -> str:
        """Run the migrations up to the newest schema; return the schema revision."""
        state = self.schema_state()
        if "newer fracas" in state or "not made by fracas" in state:
            raise SchemaMismatch(state)
        cfg = alembic_config()
        with self._write() as conn:
            if self.dialect == "postgresql":
                # two processes opening a fresh database at once: one migrates, one waits
                # (and then finds the schema current: upgrading to head is a no-op)
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext('fracas-migrate'))")
            cfg.attributes["connection"] = conn
            alembic_command.upgrade(cfg, "head")
        head = ScriptDirectory.from_config(cfg).get_current_head()
        return head or ""

    def older_revision(self) -> str | None:
        """The schema revision of a database an older fracas wrote, which ``upgrade`` would
        migrate (None: fresh, current, or not one this fracas can upgrade)."""
        if "older schema" not in self.schema_state():
            return None
        return self.schema_revision()

    def keep_copy(self, suffix: str) -> Path | None:
        """Copy this SQLite database beside its file, as the file's name plus ``suffix``
        (SQLite's backup: whole and consistent, the ``-wal`` file's commits included); the
        copy's path, or None when the database is not a SQLite file (PostgreSQL)."""
        database = self.engine.url.database
        if self.dialect != "sqlite" or database in (None, "", ":memory:"):
            return None
        source = Path(str(database)).expanduser()
        target = source.with_name(source.name + suffix)
        with self.engine.connect() as conn, closing(sqlite3.connect(target)) as copy:
            conn.connection.driver_connection.backup(copy)  # type: ignore[union-attr]
        return target

    def schema_revision(self) -> str | None:
        """The schema revision stored in the database."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    # --- transactions -------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite)."""
        with self.engine.connect() as conn:
            conn = conn.execution_options(fracas_write=True)
            with conn.begin():
                yield conn

    @contextmanager
    def _single(self) -> Iterator[Connection]:
        """A connection for one statement that is a transaction by itself: on PostgreSQL in
        autocommit mode, so no BEGIN and COMMIT cost a round trip each."""
        with self.engine.connect() as conn:
            if self.dialect == "postgresql":
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                yield conn
            else:
                with conn.begin():
                    yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A read transaction seeing one consistent state of the database."""
        with self.engine.connect() as conn:
            if self.dialect == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    # --- writing ------------------------------------------------------------------------
    def create(
        self,
        *,
        ruleset: str,
        seed: str,
        title: str,
        campaign: str = DEFAULT_CAMPAIGN,
        records: Sequence[Record],
        conflict_id: str | None = None,
        shown: bool = True,
        created: str | None = None,
        updated: str | None = None,
    ) -> str:
        """Store a new conflict with its first records, all in one transaction (``shown``
        False: behind the GM's screen; ``created``, ``updated``: if not now)."""
        new = NewConflict(ruleset, seed, title, records, conflict_id, shown, created, updated)
        _check_fields(campaign=campaign)
        _check_conflict(new)
        now = _now()
        with self._write() as conn:
            camp = self._campaign_id(conn, campaign or DEFAULT_CAMPAIGN, now)
            return self._create_in(conn, camp, new, now)

    def restore(self, campaigns: Sequence[NewCampaign]) -> builtins.list[builtins.list[str]]:
        """Store campaigns (tables made anew, with their tokens) and their conflicts in one
        transaction, or nothing."""
        for campaign in campaigns:
            _check_fields(campaign=campaign.name, title=campaign.title)
            for new in campaign.conflicts:
                _check_conflict(new)
            for token, _ in campaign.tokens:
                _check_fields(id=token.id, player=token.player, label=token.label)
        now = _now()
        out = []
        with self._write() as conn:
            for campaign in campaigns:
                camp = self._restored_campaign(conn, campaign, now)
                out.append([self._create_in(conn, camp, new, now)
                            for new in campaign.conflicts])
        return out

    def _restored_campaign(self, conn: Connection, campaign: NewCampaign, now: str) -> int:
        """The row of a restored campaign: a table made anew (refused if a table has its id;
        a plain campaign of that name becomes the table), or a plain campaign, joined if it
        is there."""
        if campaign.title is None:
            return self._campaign_id(conn, campaign.name, now)
        found = conn.execute(select(campaigns.c.id, campaigns.c.title)
                             .where(campaigns.c.name == campaign.name)).first()
        if found is not None and found[1] is not None:
            raise InvalidInput(f"a table {campaign.name!r} already exists in this database",
                               table=campaign.name)
        if found is not None:  # conflicts imported under its id before: it becomes the table
            camp = int(found[0])
            conn.execute(sql_update(campaigns).where(campaigns.c.id == camp)
                         .values(title=campaign.title))
        else:
            camp = int(conn.execute(insert(campaigns).values(
                name=campaign.name, title=campaign.title, created=campaign.created or now,
            ).returning(campaigns.c.id)).scalar_one())
        for token, digest in campaign.tokens:
            conn.execute(insert(tokens).values(
                id=token.id, campaign_id=camp, digest=digest, role=token.role,
                player=token.player, label=token.label, created=token.created, revoked=None))
        return camp

    def _create_in(self, conn: Connection, camp: int, new: NewConflict, now: str) -> str:
        """Insert a checked conflict and its records in the transaction of ``conn``."""
        cid = check_conflict_id(new.conflict_id or secrets.token_hex(4))
        try:  # an error ends the whole transaction: nothing is written
            conn.execute(insert(conflicts).values(
                id=cid, campaign_id=camp, ruleset=new.ruleset, title=new.title[:200],
                seed=new.seed, version=new.records[-1].version, created=new.created or now,
                updated=new.updated or new.created or now, shown=new.shown,
            ))
            self._insert_records(conn, cid, new.records)
        except IntegrityError:
            raise ConflictExists(f"a conflict {cid!r} already exists in this database",
                                 conflict=cid) from None
        return cid

    def set_shown(self, conflict_id: str, shown: bool) -> ConflictInfo:
        """Show a conflict or put it behind the screen (its log and times untouched); every
        process is told (PostgreSQL NOTIFY)."""
        check_conflict_id(conflict_id)
        with self._write() as conn:
            done = conn.execute(sql_update(conflicts).where(conflicts.c.id == conflict_id)
                                .values(shown=shown))
            if done.rowcount != 1:
                raise self._missing(conflict_id)
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                             {"channel": SCREEN_CHANNEL,
                              "payload": screen_note(conflict_id, shown)})
        return self.info(conflict_id)

    def export_key(self) -> bytes:
        """The secret key this database signs its exports with (never exported)."""
        return self.secret_key("export")

    def secret_key(self, name: str) -> bytes:
        """32 random bytes kept in the database under ``name`` (made on first use, by
        whichever process comes first; never exported)."""
        with self._read() as conn:
            found = conn.execute(select(store_keys.c.value)
                                 .where(store_keys.c.name == name)).scalar()
        if found is None:
            try:
                with self._write() as conn:
                    conn.execute(insert(store_keys).values(
                        name=name, value=secrets.token_hex(32), created=_now()))
            except IntegrityError:  # another process made it first: use theirs
                pass
            with self._read() as conn:
                found = conn.execute(select(store_keys.c.value)
                                     .where(store_keys.c.name == name)).scalar_one()
        return bytes.fromhex(str(found))

    def admin_digest(self) -> str | None:
        """The digest of the server's admin secret (None: none was made yet)."""
        with self._read() as conn:
            found = conn.execute(select(store_keys.c.value)
                                 .where(store_keys.c.name == ADMIN_KEY)).scalar()
        return None if found is None else str(found)

    def set_admin_digest(self, digest: str) -> None:
        """Keep the digest of a new admin secret (the old one stops working)."""
        with self._write() as conn:
            conn.execute(delete(store_keys).where(store_keys.c.name == ADMIN_KEY))
            conn.execute(insert(store_keys).values(name=ADMIN_KEY, value=digest,
                                                   created=_now()))

    def _campaign_id(self, conn: Connection, name: str, now: str) -> int:
        found = conn.execute(select(campaigns.c.id).where(campaigns.c.name == name)).scalar()
        if found is not None:
            return int(found)
        new = conn.execute(insert(campaigns).values(name=name, created=now)
                           .returning(campaigns.c.id)).scalar_one()
        return int(new)

    @staticmethod
    def _insert_records(conn: Connection, cid: str, recs: Sequence[Record]) -> None:
        conn.execute(insert(records), [
            {"conflict_id": cid, "version": r.version, "command": r.command,
             "author": r.author, "time": r.time, "key": r.key, "data": record_json(r)}
            for r in recs
        ])

    def append(self, conflict_id: str, record: Record, expected_version: int) -> None:
        """Append one record if the log is still at ``expected_version``."""
        check_conflict_id(conflict_id)
        if record.version != expected_version + 1:
            raise InvalidInput(f"record {record.version} cannot follow version "
                               f"{expected_version}")
        _check_record(record)
        if self._group is not None:  # SQLite: one writer, so appends share commits
            self._group.submit((conflict_id, record, expected_version))
            return
        data = record_json(record)
        try:
            with self._single() as conn:  # PostgreSQL: one statement, one round trip
                appended = conn.execute(_PG_APPEND, {
                    "conflict_id": conflict_id, "expected": expected_version,
                    "version": record.version, "updated": _now(), "command": record.command,
                    "author": record.author, "time": record.time, "key": record.key,
                    "data": data, "channel": NOTIFY_CHANNEL,
                    "payload": append_note(conflict_id, record.version, data)}).first()
        except IntegrityError:
            # the same version or idempotency key written by someone else first
            raise _stale(expected_version, None) from None
        if appended is None:
            raise self._not_at(conflict_id, expected_version)

    def _not_at(self, conflict_id: str, expected_version: int) -> FracasError:
        """Why an append expecting ``expected_version`` changed nothing."""
        actual = self.versions([conflict_id]).get(conflict_id)
        if actual is None:
            return NotFound(f"no conflict {conflict_id!r}", conflict=conflict_id)
        return _stale(expected_version, actual)

    def _append_in(self, conn: Connection, conflict_id: str, record: Record,
                   expected_version: int) -> None:
        """The writes of one append, in the transaction of ``conn`` (SQLite)."""
        done = conn.execute(
            sql_update(conflicts)
            .where(conflicts.c.id == conflict_id, conflicts.c.version == expected_version)
            .values(version=record.version, updated=_now())
        )
        if done.rowcount != 1:
            actual = conn.execute(select(conflicts.c.version)
                                  .where(conflicts.c.id == conflict_id)).scalar()
            if actual is None:
                raise NotFound(f"no conflict {conflict_id!r}", conflict=conflict_id)
            raise _stale(expected_version, int(actual))
        self._insert_records(conn, conflict_id, [record])

    def _append_batch(self, appends: Sequence[tuple[str, Record, int]]
                      ) -> list[BaseException | None]:
        """Several appends in one transaction (one commit), each in its own savepoint: a
        refused one is rolled back alone and answered with its refusal."""
        errors: list[BaseException | None] = []
        with self._write() as conn:
            for conflict_id, record, expected_version in appends:
                try:
                    with conn.begin_nested():
                        self._append_in(conn, conflict_id, record, expected_version)
                    errors.append(None)
                except IntegrityError:
                    errors.append(_stale(expected_version, None))
                except (NotFound, StaleVersion) as exc:
                    errors.append(exc)
        return errors

    def save_snapshot(
        self, conflict_id: str, version: int, fmt: str, state: dict[str, Any]
    ) -> None:
        """Cache a folded state (replacing one at the same version)."""
        text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
        with self._write() as conn:
            conn.execute(delete(snapshots).where(snapshots.c.conflict_id == conflict_id,
                                                 snapshots.c.version == version))
            conn.execute(insert(snapshots).values(conflict_id=conflict_id, version=version,
                                                  format=fmt, state=text, created=_now()))
            # keep the two newest: one is enough, the second covers a torn cache
            old = conn.execute(
                select(snapshots.c.version).where(snapshots.c.conflict_id == conflict_id)
                .order_by(snapshots.c.version.desc()).offset(2)
            ).scalars().all()
            if old:
                conn.execute(delete(snapshots).where(snapshots.c.conflict_id == conflict_id,
                                                     snapshots.c.version.in_(old)))

    def delete_snapshots(self, conflict_id: str) -> int:
        """Drop the cached snapshots of a conflict."""
        check_conflict_id(conflict_id)
        with self._write() as conn:
            return int(conn.execute(delete(snapshots)
                                    .where(snapshots.c.conflict_id == conflict_id)).rowcount)

    # --- reading ------------------------------------------------------------------------
    def _info_query(self) -> Any:
        return select(conflicts.c.id, campaigns.c.name, conflicts.c.ruleset, conflicts.c.title,
                      conflicts.c.version, conflicts.c.created, conflicts.c.updated,
                      conflicts.c.seed, conflicts.c.shown).join(
            campaigns, campaigns.c.id == conflicts.c.campaign_id)

    @staticmethod
    def _info(row: Any) -> ConflictInfo:
        return ConflictInfo(id=row[0], campaign=row[1], ruleset=row[2], title=row[3],
                            version=int(row[4]), created=row[5], updated=row[6],
                            shown=bool(row[8]))

    def _missing(self, conflict_id: str) -> NotFound:
        return NotFound(f"no conflict {conflict_id!r} in {safe_url(self.url)}; "
                        "`fracas list` shows the stored ones", conflict=conflict_id)

    def info(self, conflict_id: str) -> ConflictInfo:
        """One conflict's listing entry."""
        check_conflict_id(conflict_id)
        with self._read() as conn:
            row = conn.execute(self._info_query().where(conflicts.c.id == conflict_id)).first()
        if row is None:
            raise self._missing(conflict_id)
        return self._info(row)

    def list(self, campaign: str | None = None) -> list[ConflictInfo]:
        """The stored conflicts, most recently changed first."""
        query = self._info_query().order_by(conflicts.c.updated.desc(), conflicts.c.id)
        if campaign is not None:
            query = query.where(campaigns.c.name == campaign)
        with self._read() as conn:
            return [self._info(row) for row in conn.execute(query)]

    def campaigns(self) -> builtins.list[CampaignInfo]:
        """Every campaign, tables with their titles, oldest first."""
        query = select(campaigns.c.name, campaigns.c.title, campaigns.c.created).order_by(
            campaigns.c.created, campaigns.c.id)
        with self._read() as conn:
            return [CampaignInfo(str(name), None if title is None else str(title), str(made))
                    for name, title, made in conn.execute(query)]

    def load(self, conflict_id: str, *, after_snapshot: bool = False) -> StoredConflict:
        """Log, seed and the newest snapshot no undo/redo came after, in one read.

        ``after_snapshot``: read only the rows after the newest snapshot (through the
        ``(conflict_id, version)`` key, so the cost does not grow with the log); the rows up
        to it are read by :attr:`StoredConflict.earlier` if they are needed. When an undo
        or redo came after that snapshot, or there is none, the whole log is read.

        With a snapshot, the rows up to it are read without their data (which a
        :class:`LazyEvents` fetches, all at once, only if undo, redo or the log view needs
        it); undo and redo markers are always read whole.
        """
        check_conflict_id(conflict_id)
        if after_snapshot:
            tail = self._load_tail(conflict_id)
            if tail is not None:
                return tail
        meta = or_(records.c.command.in_(("undo", "redo")),
                   records.c.command.like("undo %"), records.c.command.like("redo %"))
        mine = records.c.conflict_id == conflict_id
        with self._read() as conn:
            row = conn.execute(self._info_query().where(conflicts.c.id == conflict_id)).first()
            if row is None:
                raise self._missing(conflict_id)
            info = self._info(row)
            last_meta = conn.execute(
                select(func.max(records.c.version)).where(mine, meta)).scalar() or 0
            snap_row = conn.execute(
                select(snapshots.c.version, snapshots.c.format, snapshots.c.state)
                .where(snapshots.c.conflict_id == conflict_id,
                       snapshots.c.version >= last_meta, snapshots.c.version <= info.version)
                .order_by(snapshots.c.version.desc()).limit(1)
            ).first()
            snapshot = None
            if snap_row is not None:
                try:
                    snapshot = (int(snap_row[0]), str(snap_row[1]), json.loads(snap_row[2]))
                except ValueError:
                    snapshot = None  # a torn cache: ignored, the log is the truth
            upto = snapshot[0] if snapshot is not None else 0
            data = case((or_(records.c.version > upto, meta), records.c.data), else_=None)
            rows = conn.execute(
                select(records.c.version, records.c.command, records.c.author,
                       records.c.time, records.c.key, data)
                .where(mine).order_by(records.c.version)).all()
        deferred = _DeferredData(self, conflict_id, upto)
        recs = [
            Record(int(v), str(command), LazyEvents(text if text is not None
                                                    else deferred.getter(int(v))),
                   str(author), str(time), key)
            for v, command, author, time, key, text in rows
        ]
        return StoredConflict(info, str(row[7]), recs, snapshot)

    def _load_tail(self, conflict_id: str) -> StoredConflict | None:
        """The newest snapshot and the records after it, or None (no snapshot, a torn one,
        or an undo or redo after it: the whole log is then needed)."""
        with self._read() as conn:
            row = conn.execute(self._info_query().where(conflicts.c.id == conflict_id)).first()
            if row is None:
                raise self._missing(conflict_id)
            info = self._info(row)
            snap_row = conn.execute(
                select(snapshots.c.version, snapshots.c.format, snapshots.c.state)
                .where(snapshots.c.conflict_id == conflict_id,
                       snapshots.c.version <= info.version)
                .order_by(snapshots.c.version.desc()).limit(1)
            ).first()
            if snap_row is None:
                return None
            upto = int(snap_row[0])
            after = self._records_in(conn, conflict_id, upto, info.version)
        if any(r.is_meta for r in after):
            return None
        try:
            snapshot = (upto, str(snap_row[1]), json.loads(snap_row[2]))
        except ValueError:
            return None  # a torn cache: ignored, the log is the truth

        def earlier() -> builtins.list[Record]:
            with self._read() as conn:
                return self._records_in(conn, conflict_id, 0, upto)

        return StoredConflict(info, str(row[7]), after, snapshot, earlier=earlier)

    @staticmethod
    def _records_in(conn: Connection, conflict_id: str, after: int, upto: int | None
                    ) -> builtins.list[Record]:
        """The records with ``after`` < version <= ``upto`` (None: no upper end), in order."""
        where = [records.c.conflict_id == conflict_id, records.c.version > after]
        if upto is not None:
            where.append(records.c.version <= upto)
        rows = conn.execute(
            select(records.c.version, records.c.command, records.c.author,
                   records.c.time, records.c.key, records.c.data)
            .where(*where).order_by(records.c.version)).all()
        return [Record(int(v), str(command), LazyEvents(data), str(author), str(t), key)
                for v, command, author, t, key, data in rows]

    def records_after(self, conflict_id: str, version: int) -> builtins.list[Record]:
        """The records past ``version``, in order."""
        with self._single() as conn:
            return self._records_in(conn, conflict_id, version, None)

    def versions(self, conflict_ids: Sequence[str]) -> dict[str, int]:
        """The current version of each of these conflicts (unknown ones are left out)."""
        if not conflict_ids:
            return {}
        with self._read() as conn:
            rows = conn.execute(select(conflicts.c.id, conflicts.c.version)
                                .where(conflicts.c.id.in_(list(conflict_ids)))).all()
        return {str(cid): int(v) for cid, v in rows}

    # --- tables and tokens (fracas serve) -------------------------------------------------
    def create_table(self, table_id: str, title: str, *, existing: bool = False) -> None:
        """A new campaign with a title: a table of ``fracas serve`` (``existing``: the
        campaign ``table_id`` has conflicts already, and becomes the table)."""
        _check_fields(id=table_id, title=title)
        try:
            with self._write() as conn:
                if not existing:
                    conn.execute(insert(campaigns).values(name=table_id, title=title,
                                                          created=_now()))
                elif conn.execute(sql_update(campaigns).where(
                        campaigns.c.name == table_id, campaigns.c.title.is_(None))
                        .values(title=title)).rowcount != 1:
                    raise self._not_a_campaign(conn, table_id)
        except IntegrityError:
            raise InvalidInput(f"a table {table_id!r} already exists", table=table_id
                               ) from None

    @staticmethod
    def _not_a_campaign(conn: Connection, name: str) -> FracasError:
        """Why the campaign ``name`` cannot become a table: it is one, or there is none."""
        if conn.execute(select(campaigns.c.id).where(campaigns.c.name == name)).first():
            return InvalidInput(f"a table {name!r} already exists", table=name)
        return NotFound(f"no campaign {name!r} in this database: `fracas list` shows each "
                        "conflict's campaign", campaign=name)

    def table_title(self, table_id: str) -> str:
        """A table's title (NotFound for a campaign that is not a table)."""
        with self._read() as conn:
            title = conn.execute(select(campaigns.c.title)
                                 .where(campaigns.c.name == table_id)).scalar()
        if title is None:
            raise NotFound(f"no table {table_id!r}", table=table_id)
        return str(title)

    def add_token(self, token: TokenInfo, digest: str) -> None:
        """Store a token's digest (the secret itself is never stored)."""
        _check_fields(id=token.id, player=token.player, label=token.label)
        with self._write() as conn:
            camp = conn.execute(select(campaigns.c.id).where(
                campaigns.c.name == token.table, campaigns.c.title.is_not(None))).scalar()
            if camp is None:
                raise NotFound(f"no table {token.table!r}", table=token.table)
            conn.execute(insert(tokens).values(
                id=token.id, campaign_id=camp, digest=digest, role=token.role,
                player=token.player, label=token.label, created=token.created, revoked=None))

    def _token_query(self) -> Any:
        return select(tokens.c.id, campaigns.c.name, tokens.c.role, tokens.c.player,
                      tokens.c.label, tokens.c.created, tokens.c.revoked).join(
            campaigns, campaigns.c.id == tokens.c.campaign_id)

    @staticmethod
    def _token(row: Any) -> TokenInfo:
        return TokenInfo(id=row[0], table=row[1], role=row[2], player=row[3], label=row[4],
                         created=row[5], revoked=row[6])

    def find_token(self, digest: str) -> TokenInfo | None:
        """The token with this digest, if any."""
        with self._single() as conn:
            row = conn.execute(self._token_query().where(tokens.c.digest == digest)).first()
        return None if row is None else self._token(row)

    def list_tokens(self, table_id: str) -> builtins.list[TokenInfo]:
        """A table's tokens, oldest first."""
        with self._read() as conn:
            rows = conn.execute(self._token_query().where(campaigns.c.name == table_id)
                                .order_by(tokens.c.created, tokens.c.id)).all()
        return [self._token(r) for r in rows]

    def revoke_token(self, table_id: str, token_id: str, by: str | None = None
                     ) -> TokenInfo:
        """Revoke one of a table's tokens; every process is told (PostgreSQL NOTIFY). ``by``:
        the token asking, checked still live in the same transaction, so that of two GM
        links revoking each other at the same moment the second is refused."""
        with self._write() as conn:
            if by is not None:
                self._check_live(conn, by, token_id)
            row = conn.execute(self._token_query().where(
                tokens.c.id == token_id, campaigns.c.name == table_id)).first()
            if row is None:
                raise NotFound(f"no link {token_id!r} at this table", link=token_id)
            if row[6] is None:
                conn.execute(sql_update(tokens).where(tokens.c.id == token_id)
                             .values(revoked=_now()))
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                             {"channel": TOKEN_CHANNEL, "payload": token_id})
        with self._read() as conn:
            return self._token(conn.execute(self._token_query()
                                            .where(tokens.c.id == token_id)).one())

    @staticmethod
    def _check_live(conn: Connection, by: str, token_id: str) -> None:
        """Refuse (NotAuthenticated) a revoke asked by the token ``by`` once it is revoked
        itself. Both rows are locked in id order (PostgreSQL; SQLite's write transaction
        holds the whole database): of two revokes crossing, the second waits for the first
        and reads what it wrote."""
        rows = dict(conn.execute(
            select(tokens.c.id, tokens.c.revoked).where(tokens.c.id.in_(sorted({by, token_id})))
            .order_by(tokens.c.id).with_for_update()).all())
        if by not in rows or rows[by] is not None:
            raise NotAuthenticated("this link was revoked a moment ago (by another GM link), "
                                   "so it revokes nothing; ask the GM for a new one")

    def notifications(self, stop: Any, timeout: float = 1.0) -> Iterator[tuple[str, str]]:
        """(PostgreSQL only) Yield ``(channel, payload)`` for every append, token revocation
        and conflict shown or put behind the screen announced by any process, until ``stop``
        (a threading.Event) is set. The first item, ``("", "")``, says the listening has
        begun: whatever changed before it must be read from the store."""
        if self.dialect != "postgresql":
            raise InvalidInput("only PostgreSQL announces changes; SQLite is polled")
        raw = self.engine.raw_connection()
        pg = raw.driver_connection
        assert pg is not None
        try:
            pg.autocommit = True
            pg.execute(f"LISTEN {NOTIFY_CHANNEL}")
            pg.execute(f"LISTEN {TOKEN_CHANNEL}")
            pg.execute(f"LISTEN {SCREEN_CHANNEL}")
            yield "", ""
            while not stop.is_set():
                for note in pg.notifies(timeout=timeout, stop_after=64):
                    yield note.channel, note.payload
        finally:
            raw.invalidate()  # a listening connection is never handed back to the pool
            raw.close()

    def find_key(self, conflict_id: str, author: str, key: str) -> Record | None:
        """The record ``author`` stored with idempotency ``key`` (each author's keys are
        their own)."""
        check_conflict_id(conflict_id)
        with self._read() as conn:
            text = conn.execute(select(records.c.data).where(
                records.c.conflict_id == conflict_id, records.c.author == author,
                records.c.key == key)).scalar()
        return None if text is None else Record.from_data(json.loads(text))

    def count_records(self, conflict_id: str) -> int:
        """How many records a conflict's log holds (for checks and tests)."""
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(records)
                                    .where(records.c.conflict_id == conflict_id)).scalar_one())

    def wait_for_change(self, conflict_id: str, version: int, timeout: float) -> int:
        """Block until the conflict is past ``version`` (or ``timeout`` passes); return its
        version. PostgreSQL: LISTEN on the append notifications; SQLite: poll."""
        deadline = time.monotonic() + max(0.0, timeout)
        if self.dialect != "postgresql":
            while True:
                current = self.info(conflict_id).version
                left = deadline - time.monotonic()
                if current > version or left <= 0:
                    return current
                time.sleep(min(POLL_SECONDS, left))
        raw = self.engine.raw_connection()
        pg = raw.driver_connection
        assert pg is not None
        try:
            pg.autocommit = True
            pg.execute(f"LISTEN {NOTIFY_CHANNEL}")
            current = self.info(conflict_id).version  # after LISTEN: no append is missed
            while current <= version:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                for note in pg.notifies(timeout=left, stop_after=1):
                    cid, v, _ = read_append_note(note.payload)
                    if cid == conflict_id and v is not None:
                        current = max(current, v)
            return current
        finally:
            try:
                pg.execute(f"UNLISTEN {NOTIFY_CHANNEL}")
                pg.autocommit = False  # back to the pool as it came: transactions again
            except Exception:
                raw.invalidate()  # never pool a connection left in an unknown state
            raw.close()

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()


#: An append on PostgreSQL in one statement: the optimistic check, the record and its
#: announcement (delivered at commit); a row only if it was appended.
_PG_APPEND = text("""
WITH moved AS (
    UPDATE conflicts SET version = :version, updated = :updated
    WHERE id = :conflict_id AND version = :expected
    RETURNING id
), added AS (
    INSERT INTO records (conflict_id, version, command, author, time, key, data)
    SELECT id, :version, :command, :author, :time, :key, :data FROM moved
    RETURNING version
)
SELECT pg_notify(:channel, :payload) FROM added
""")


def _check_fields(**fields: str | None) -> None:
    """Refuse, before writing, text a column cannot hold (too long, or a NUL character,
    which PostgreSQL refuses and SQLite would keep): both backends then agree."""
    for name, value in fields.items():
        if value is None:
            continue
        limit = LIMITS.get(name)
        if limit is not None and len(value) > limit:
            raise InvalidInput(f"the {name} is too long ({len(value)} characters; at most "
                               f"{limit})", field=name)
        if "\x00" in value:
            raise InvalidInput(f"the {name} contains a NUL character", field=name)
        hidden = hidden_character(value, allow_newlines=name == "command")
        if hidden is not None:  # a name printed in a list would drive the terminal
            raise InvalidInput(f"the {name} holds the control character U+{ord(hidden):04X}; "
                               "names may not hold control or text-direction characters",
                               field=name)
        if name == "campaign" and not value.strip():
            raise InvalidInput("the campaign is empty; give it a name (default: default)",
                               field=name)


def _check_conflict(new: NewConflict) -> None:
    """Refuse, before writing, a conflict the store cannot keep."""
    records = new.records
    if not records or [r.version for r in records] != list(range(1, len(records) + 1)):
        raise InvalidInput("a new conflict needs its records numbered 1, 2, … in order")
    if new.conflict_id is not None:
        check_conflict_id(new.conflict_id)
    _check_fields(id=new.conflict_id, ruleset=new.ruleset, title=new.title[:200],
                  seed=new.seed, created=new.created, updated=new.updated)
    for r in records:
        _check_record(r)


def _check_record(record: Record) -> None:
    _check_fields(author=record.author, key=record.key, command=record.command)


def _stale(expected: int, actual: int | None) -> StaleVersion:
    now = f"at version {actual}" if actual is not None else "further along"
    return StaleVersion(
        f"the conflict is {now}, not {expected}: someone else acted first; "
        "reload and try again", expected=expected, actual=actual,
    )


def missing_sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL that does not exist yet (None: it does, or the URL is not a
    SQLite file): a command that only reads or acts on a stored conflict asks first, so as
    not to create a database, and its folders, for nothing."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database).expanduser()
    return None if path.exists() else path


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<bad database URL>"


def _make_engine(url: str, synchronous: str) -> Engine:
    try:
        if url.startswith("sqlite"):
            return _sqlite_engine(url, synchronous)
        if url.startswith("postgresql"):
            from sqlalchemy.engine import make_url

            timeout = {} if "connect_timeout" in make_url(url).query else {
                "connect_timeout": CONNECT_TIMEOUT}
            # a server process's threads keep POOL_SIZE connections open (opening one costs
            # PostgreSQL a new backend process: never one per query)
            return create_engine(url, pool_pre_ping=True, connect_args=timeout,
                                 pool_size=POOL_SIZE, max_overflow=POOL_SIZE)
    except (ArgumentError, ImportError) as exc:
        raise InvalidInput(f"bad database URL {safe_url(url)}: {exc}") from None
    raise InvalidInput(
        f"unsupported database URL {safe_url(url)}: use sqlite:///PATH or "
        "postgresql+psycopg://USER@HOST:PORT/DB"
    )


def _sqlite_engine(url: str, synchronous: str) -> Engine:
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    # pooled: opening a connection (and its PRAGMAs) costs more than most queries; a file
    # database's connections are safe to hand between threads (each used by one at a time)
    memory = not parsed.database or parsed.database == ":memory:"
    engine = create_engine(url, poolclass=NullPool if memory else QueuePool,
                           connect_args={"timeout": 60, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout = 60000")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute(f"PRAGMA synchronous = {synchronous}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("fracas_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine
