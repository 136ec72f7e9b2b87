"""The service layer the CLI (and later the web server) uses: load, decide, append.

It joins the engine and an :class:`~fracas.store.port.EventStore`: a command is decided on the
loaded conflict, appended with the version it was decided on (and its idempotency key), and
only then folded in. A :class:`~fracas.errors.StaleVersion` means another writer came first;
retrying is the caller's business, except for a command given with its author's cursor
(decided again while the author has seen nothing change). Snapshots are written every
``snapshot_every`` versions.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hmac
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fracas import __version__
from fracas.app.scenario import Scenario
from fracas.app.script import play_script
from fracas.dice.rng import new_seed
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict, Earlier, History
from fracas.engine.events import Record
from fracas.engine.limits import check_key, check_seed
from fracas.engine.model import Viewer
from fracas.engine.serialize import state_from_data, state_to_data
from fracas.engine.views import projector
from fracas.errors import StaleVersion
from fracas.rulesets import get_ruleset
from fracas.store.port import DEFAULT_CAMPAIGN, EventStore

#: How often a command with an expected cursor is decided again when another writer came first
#: with records that changed nothing its author sees.
_CURSOR_RETRIES = 5
#: Snapshot every this many versions unless ``FRACAS_SNAPSHOT_EVERY`` or the caller says.
SNAPSHOT_EVERY = 100


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def snapshot_format(ruleset: str) -> str:
    """The tag a snapshot is written with; a snapshot with another tag is ignored."""
    return f"fracas.state/4 fracas={__version__} ruleset={ruleset}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What executing a command gave: its record, the conflict after it, and whether the
    record was already there (a retried idempotency key)."""

    record: Record
    conflict: Conflict
    duplicate: bool = False


class ConflictService:
    """Load, create and play stored conflicts."""

    def __init__(self, store: EventStore, *, snapshot_every: int | None = None) -> None:
        """Use ``store``; snapshot every ``snapshot_every`` versions (0: never)."""
        self.store = store
        if snapshot_every is None:
            snapshot_every = int(os.environ.get("FRACAS_SNAPSHOT_EVERY", SNAPSHOT_EVERY))
        self.snapshot_every = snapshot_every

    # --- creating -----------------------------------------------------------------------
    def new_from_scenario(
        self, scenario: Scenario, *, seed: str | None = None, campaign: str = DEFAULT_CAMPAIGN,
        conflict_id: str | None = None, scenario_seed: bool = False, shown: bool = True,
    ) -> tuple[str, Conflict]:
        """Create a conflict from a scenario and play its script; stored all at once, so a
        script error (named by file and line) stores nothing. ``shown`` False: behind the
        GM's screen (only the GM of its table sees it until they show it).

        The conflict gets a fresh secret seed (256 bits from the OS) unless ``seed`` is given,
        or ``scenario_seed`` asks for the scenario file's own: a known seed makes every roll
        predictable, so both are for a GM who means it.
        """
        ruleset = get_ruleset(scenario.setup.ruleset)
        the_seed = check_seed(seed) if seed is not None else (
            scenario.seed if scenario_seed and scenario.seed else new_seed())
        conflict = play_script(scenario, the_seed, time=None)
        cid = self.store.create(
            ruleset=ruleset.name, seed=the_seed, title=scenario.setup.title or ruleset.title,
            campaign=campaign, records=conflict.records, conflict_id=conflict_id,
            shown=shown,
        )
        self._maybe_snapshot(cid, conflict, force=conflict.version >= self.snapshot_every > 0)
        return cid, conflict

    # --- loading ------------------------------------------------------------------------
    def load(self, conflict_id: str) -> Conflict:
        """The conflict, from its latest usable snapshot plus the records after it."""
        with _no_cyclic_gc():  # a load makes many objects and no cycles: skip the collector
            return self._load(conflict_id)

    def _load(self, conflict_id: str) -> Conflict:
        stored = self.store.load(conflict_id, after_snapshot=True)
        ruleset = get_ruleset(stored.info.ruleset)
        snap = None
        history = None
        if stored.snapshot is not None:
            version, fmt, data = stored.snapshot
            if fmt == snapshot_format(ruleset.name):
                try:
                    snap = (version, state_from_data(ruleset, data["state"]))
                    history = History.from_data(data["history"])
                except Exception:  # an unusable cache is ignored: the log is the truth
                    snap = None
        records = stored.records
        earlier = None
        if stored.earlier is not None:
            if snap is None or history is None:
                records = [*stored.earlier(), *records]  # the snapshot is no use: read all
            else:
                earlier = Earlier(snap[0], history, stored.earlier,
                                  functools.partial(self.store.find_key, conflict_id))
        return Conflict(ruleset, stored.seed, records, snapshot=snap, earlier=earlier)

    def refresh(self, conflict_id: str, conflict: Conflict) -> Conflict:
        """``conflict`` (as loaded before) brought up to the stored log: the records another
        writer appended since are folded in, without reading the rest again."""
        for record in self.store.records_after(conflict_id, conflict.version):
            conflict.append_record(record)
        return conflict

    def rebuild_snapshot(self, conflict_id: str) -> int:
        """Drop the cached snapshots and write one folded from the whole log; its version."""
        self.store.delete_snapshots(conflict_id)
        conflict = self.load(conflict_id)
        self._maybe_snapshot(conflict_id, conflict, force=True)
        return conflict.version

    # --- playing ------------------------------------------------------------------------
    def execute(
        self,
        conflict_id: str,
        command: str | Command | dict[str, Any],
        author: Viewer | None = None,
        *,
        expected_version: int | None = None,
        expected_cursor: str | None = None,
        key: str | None = None,
        conflict: Conflict | None = None,
    ) -> Outcome:
        """Decide ``command`` and append its record.

        ``expected_version`` is the version the caller saw (default: the one loaded now; the
        GM's kind of expectation); ``expected_cursor`` is instead the author's opaque cursor
        (``Projector.cursor``, what a player is given): the command is refused if anything
        the author sees changed since, and otherwise decided on the newest log — records
        hidden from the author never make it stale, so a player learns nothing of them.
        ``key`` makes a retried command apply once; ``conflict`` is a conflict already
        loaded (kept in step by this call). Raises StaleVersion if another writer came first.
        """
        author = author or Viewer.gm()
        if key is not None:
            check_key(key)
        if conflict is None:
            conflict = self.load(conflict_id)
        for attempt in range(_CURSOR_RETRIES):
            if expected_cursor is not None:
                _check_cursor(conflict, author, expected_cursor, command)
            try:
                return self._append(conflict_id, conflict, command, author,
                                    expected_version, key)
            except StaleVersion:
                if expected_cursor is None or attempt == _CURSOR_RETRIES - 1:
                    if author.is_gm:
                        raise
                    raise _stale_for_player(expected_cursor is not None) from None
                self.refresh(conflict_id, conflict)  # someone came first: look again
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _append(self, conflict_id: str, conflict: Conflict,
                command: str | Command | dict[str, Any], author: Viewer,
                expected_version: int | None, key: str | None) -> Outcome:
        if key is not None:
            # a key stored by another writer after ``conflict`` was loaded is found when the
            # append meets their record (a stale version or the key's unique index) below
            done = conflict.record_with_key(key, author)
            if done is not None:
                return self._duplicate(conflict_id, conflict, command, done)
        record = conflict.prepare(command, author, expected_version=expected_version, key=key,
                                  time=_now())
        try:
            self.store.append(conflict_id, record, record.version - 1)
        except StaleVersion:
            if key is not None:
                done = self.store.find_key(conflict_id, author.name, key)
                if done is not None:
                    return self._duplicate(conflict_id, self.load(conflict_id), command,
                                           done)
            raise
        conflict.commit(record)  # its own decision: folded as execute folds it, not read again
        self._maybe_snapshot(conflict_id, conflict)
        return Outcome(record, conflict)

    def _duplicate(self, conflict_id: str, conflict: Conflict,
                   command: str | Command | dict[str, Any], done: Record) -> Outcome:
        conflict.retried(done, command)
        if conflict.version < done.version:
            conflict = self.load(conflict_id)
        return Outcome(done, conflict, duplicate=True)

    def undo(self, conflict_id: str, steps: int = 1, author: Viewer | None = None,
             **kwargs: Any) -> Outcome:
        """Append an undo marker (versions only grow)."""
        return self.execute(conflict_id, f"undo {int(steps)}", author, **kwargs)

    def redo(self, conflict_id: str, steps: int = 1, author: Viewer | None = None,
             **kwargs: Any) -> Outcome:
        """Append a redo marker."""
        return self.execute(conflict_id, f"redo {int(steps)}", author, **kwargs)

    def _maybe_snapshot(self, conflict_id: str, conflict: Conflict, *, force: bool = False
                        ) -> None:
        every = self.snapshot_every
        if force or (every > 0 and conflict.version % every == 0):
            # a snapshot is only a cache: failing to write one leaves the append standing
            with contextlib.suppress(Exception):
                self.store.save_snapshot(conflict_id, conflict.version,
                                         snapshot_format(conflict.ruleset.name),
                                         {"state": state_to_data(conflict.state),
                                          "history": conflict.history_data()})


def _check_cursor(conflict: Conflict, author: Viewer, cursor: str,
                  command: str | Command | dict[str, Any]) -> None:
    """Refuse a command whose author has seen something change since ``cursor`` that may
    bear on it (:meth:`Projector.bears_on`: not another character's declaration)."""
    seen = projector(conflict, author)
    if not hmac.compare_digest(seen.cursor.encode(), cursor.encode()):
        number = seen.read_cursor(cursor)  # InvalidInput for a token not made for this viewer
        if seen.bears_on(number, conflict.to_command(command)):
            raise _stale_for_player(True)


def _stale_for_player(by_cursor: bool) -> StaleVersion:
    """A stale command, told without versions (a player is never told one)."""
    since = " since your cursor" if by_cursor else ""
    return StaleVersion(f"what you see changed{since}: someone acted first; look again and "
                        "retry")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
