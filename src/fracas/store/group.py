"""Group commit: appends that arrive while another is being written share its successor's
transaction, so that many commands cost one ``fsync`` instead of one each.

SQLite has one writer at a time and, with ``synchronous=FULL`` (the default), each commit
waits for the disk (milliseconds). :class:`GroupCommit` lets the first caller lead: it writes
every append waiting at that moment in one transaction, each inside its own savepoint (so one
that is refused — a stale version, a taken idempotency key — changes nothing and refuses only
its own caller), commits once, and then wakes each caller with its own outcome. Callers that
arrived meanwhile are led by the first of them, and so on: a batch is written as soon as the
writer is free, never held back by a timer. No caller returns before the transaction holding
its append has committed: durability is exactly that of one append per commit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")


class _Waiter(Generic[Item]):
    __slots__ = ("error", "item", "leads", "ready")

    def __init__(self, item: Item) -> None:
        self.item = item
        self.error: BaseException | None = None
        self.leads = False
        self.ready = threading.Event()


class GroupCommit(Generic[Item]):
    """Writes items in batches with ``write_batch(items) -> [error or None per item]``
    (which commits once; an exception from it fails the whole batch)."""

    def __init__(self, write_batch: Callable[[Sequence[Item]], list[BaseException | None]]
                 ) -> None:
        """Batch the writes of ``write_batch``."""
        self._write_batch = write_batch
        self._lock = threading.Lock()
        self._queue: list[_Waiter[Item]] = []
        self._busy = False

    def submit(self, item: Item) -> None:
        """Write ``item`` (with whatever else is waiting); raise its own refusal, if any."""
        me = _Waiter(item)
        with self._lock:
            self._queue.append(me)
            me.leads = not self._busy
            self._busy = True
        if not me.leads:
            me.ready.wait()
        if me.leads:  # first in, or handed the lead by the batch before
            self._lead()
        if me.error is not None:
            raise me.error

    def _lead(self) -> None:
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            errors = self._write_batch([w.item for w in batch])
        except BaseException as exc:  # the transaction failed: nothing of it was written
            errors = [exc] * len(batch)
        for waiter, error in zip(batch, errors, strict=True):
            waiter.error = error
        with self._lock:
            following = self._queue[0] if self._queue else None
            if following is None:
                self._busy = False
            else:
                following.leads = True
        for waiter in batch:
            waiter.leads = False
            waiter.ready.set()
        if following is not None:
            following.ready.set()
