"""Live conflicts of one server process: the loaded conflicts and their WebSocket viewers.

A :class:`Room` keeps one conflict as loaded and one live projection
(:class:`~fracas.server.projection.Live`) per viewer who uses it. A read brings the conflict up
to the stored log first (another process may have appended); a command does not (its append
is checked against the stored version, and decided again on the newer log if another writer
came first). After every append — made here, announced by PostgreSQL (LISTEN/NOTIFY, so every
process of a scaled-out server hears of it) or found by polling SQLite — each viewer's
projection takes the new records (O(1) per record) and each subscriber gets its frame, encoded
once for all the subscribers of one viewer at one position; a subscriber's position only moves
under the room's lock, so nothing is missed or doubled. A subscriber whose projection did not
change gets no frame at all.

The hub also knows which conflicts are behind the GM's screen (:attr:`Hub.shown`): read from
the store once per conflict, then kept by this process's own changes and every other
process's announcements (PostgreSQL); a conflict taken behind the screen closes the sockets of
everyone but the GM at once, as if it did not exist.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

from fracas.app.service import ConflictService
from fracas.app.tables import Access
from fracas.engine.conflict import Conflict
from fracas.engine.events import Record
from fracas.engine.model import Viewer
from fracas.errors import FracasError, NotFound
from fracas.server import projection, spans
from fracas.server.projection import Live, Position, dump
from fracas.store import SqlEventStore, failure_words
from fracas.store.port import (
    SCREEN_CHANNEL,
    TOKEN_CHANNEL,
    read_append_note,
    read_screen_note,
)

log = logging.getLogger("fracas.server")

#: Frames a slow subscriber may have waiting before it is closed (it resumes by cursor).
QUEUE_FRAMES = 256
#: How often SQLite is polled for appends by other processes, and tokens re-checked (s).
POLL_SECONDS = 0.2
RECHECK_SECONDS = 2.0
#: Conflicts a process keeps loaded without anyone watching them.
MAX_ROOMS = 500
#: WebSocket close codes (documented in docs/server.md).
CLOSE_REVOKED = 4401
CLOSE_TOO_SLOW = 4408
#: A conflict taken behind the GM's screen closes a player's socket as a conflict that does
#: not exist closes it (4000 + 404).
CLOSE_NO_CONFLICT = 4404


def no_conflict(conflict_id: str) -> NotFound:
    """The refusal of a conflict the viewer may not know: one that does not exist, is of
    another table, or (to all but the GM) is behind the screen — the same words for all."""
    return NotFound(f"no conflict {conflict_id!r} at this table", conflict=conflict_id)


@dataclass(eq=False)
class Subscriber:
    """One open WebSocket: who watches, where they are in the log, what they last saw."""

    access: Access
    position: Position
    serial: int  # the serial of the last view it was sent (Live.serial)
    queue: asyncio.Queue[tuple[str, float] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_FRAMES))
    closed: int | None = None  # the close code, once it must close

    @property
    def viewer(self) -> Viewer:
        """The engine's viewer of this subscriber."""
        return self.access.viewer

    def close(self, code: int) -> None:
        """Ask the socket's task to close with ``code``."""
        if self.closed is None:
            self.closed = code
            while True:  # frames still waiting are dropped: a client resumes by cursor
                try:
                    self.queue.put_nowait(None)
                    return
                except asyncio.QueueFull:
                    self.queue.get_nowait()


@dataclass(eq=False)
class Room:
    """One loaded conflict, its viewers' live projections and its subscribers."""

    conflict_id: str
    conflict: Conflict
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    lives: dict[Viewer, Live] = field(default_factory=dict)

    def live(self, viewer: Viewer) -> Live:
        """(Under the lock.) The viewer's live projection, advanced to the loaded log."""
        live = self.lives.get(viewer)
        if live is None:
            live = self.lives[viewer] = Live(self.conflict, viewer)
        else:
            live.advance(self.conflict)
        return live


class Hub:
    """The rooms of this process and the listener that hears of other processes' appends."""

    def __init__(self, service: ConflictService, cursor_key: bytes) -> None:
        """Serve conflicts of ``service``; seal cursors with ``cursor_key``."""
        self.service = service
        self.cursor_key = cursor_key
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._stop = threading.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        #: conflict id → whether it is shown (False: behind the GM's screen), as this process
        #: knows it; a conflict not in it is read from the store when next asked for
        self.shown: dict[str, bool] = {}

    # --- the GM's screen --------------------------------------------------------------
    def visible(self, conflict_id: str, access: Access) -> bool | None:
        """Whether ``access`` may know the conflict (the GM always; everyone else while it
        is shown); None when this process does not know yet."""
        shown = self.shown.get(conflict_id)
        return None if shown is None else shown or access.is_gm

    def screened(self, conflict_id: str, shown: bool) -> None:
        """The conflict was shown, or taken behind the screen (here or by another process):
        in the latter case every socket on it but the GM's closes, as for a missing one."""
        self.shown[conflict_id] = shown
        room = self.rooms.get(conflict_id)
        if shown or room is None:
            return
        for sub in list(room.subscribers):
            if not sub.access.is_gm:
                sub.close(CLOSE_NO_CONFLICT)

    async def reread_screen(self) -> None:
        """Forget what was known of the screen and read it again for every conflict someone
        watches (PostgreSQL's announcements may have been missed while not listening)."""
        self.shown.clear()
        for cid in [cid for cid, r in self.rooms.items() if r.subscribers]:
            try:
                info = await to_thread.run_sync(self.service.store.info, cid)
            except Exception:
                continue
            self.shown.setdefault(cid, info.shown)
            self.screened(cid, self.shown[cid])

    # --- rooms ------------------------------------------------------------------------
    async def room(self, conflict_id: str) -> Room:
        """The room of a conflict (loaded on first use; NotFound if unknown)."""
        room = self.rooms.get(conflict_id)
        if room is None:
            async with self._loading:
                room = self.rooms.get(conflict_id)
                if room is None:
                    conflict = await to_thread.run_sync(self.service.load, conflict_id)
                    self._evict()
                    room = self.rooms[conflict_id] = Room(conflict_id, conflict)
        return room

    def _evict(self) -> None:
        """Forget the least recently loaded conflicts nobody watches, beyond MAX_ROOMS."""
        idle = [cid for cid, r in self.rooms.items()
                if not r.subscribers and not r.lock.locked()]
        for cid in idle[:max(0, len(self.rooms) - MAX_ROOMS + 1)]:
            del self.rooms[cid]

    async def run(self, room: Room, work: Callable[[Room], Any], *, fresh: bool = True
                  ) -> Any:
        """Run ``work`` (blocking, in a worker thread) on the room under its lock, its
        conflict first brought up to the stored log unless ``fresh`` is False; then deliver
        whatever was appended."""
        asked = time.perf_counter()
        async with room.lock:
            locked = time.perf_counter()
            spans.add("wait for the room's lock", locked - asked)
            done = locked

            def job() -> tuple[Any, Exception | None, list[tuple[Subscriber, str]]]:
                nonlocal done
                spans.add("wait for a worker thread", time.perf_counter() - locked)
                result, failure = None, None
                try:
                    if fresh:
                        self.service.refresh(room.conflict_id, room.conflict)
                    result = work(room)
                except Exception as exc:
                    failure = exc
                # whatever the work's end, the records it brought in (another process's,
                # read before a refusal) reach the sockets: their positions move on here
                with spans.span("project and encode (all viewers)"):
                    frames = self._frames(room)
                done = time.perf_counter()
                return result, failure, frames

            result, failure, frames = await to_thread.run_sync(job)
            spans.add("back on the event loop", time.perf_counter() - done)
            if failure is not None and not isinstance(failure, FracasError):
                # a failed write may have left the cached conflict unsure: nothing of it is
                # sent; it is read again, and each viewer projected afresh from it
                room.conflict = await to_thread.run_sync(self.service.load, room.conflict_id)
                room.lives.clear()
                raise failure
            now = time.perf_counter()
            for sub, frame in frames:
                try:
                    sub.queue.put_nowait((frame, now))
                except asyncio.QueueFull:
                    sub.close(CLOSE_TOO_SLOW)
            if failure is not None:
                raise failure  # refused: the engine changed nothing
            return result

    def cursor(self, conflict_id: str, viewer: Viewer, position: Position) -> str:
        """The opaque cursor of a position."""
        return projection.cursor_for(self.cursor_key, conflict_id, viewer, position)

    # --- subscribers ------------------------------------------------------------------
    async def subscribe(self, room: Room, access: Access, cursor: str | None
                        ) -> tuple[Subscriber, str]:
        """Add a subscriber; its first frame (the snapshot, or what it missed since
        ``cursor``)."""
        viewer = access.viewer

        def first(room: Room) -> tuple[Subscriber, str]:
            live = room.live(viewer)
            if cursor:
                start = projection.position_of(self.cursor_key, room.conflict_id, viewer,
                                               cursor)
                entries, reset = live.after(start)
                kind = "snapshot" if reset else "resume"
            else:
                entries, kind = live.data, "snapshot"
            position = live.position
            sub = Subscriber(access, position, live.serial)
            room.subscribers.add(sub)
            return sub, dump({"type": kind, "entries": entries, "view": live.view,
                              "cursor": self.cursor(room.conflict_id, viewer, position)})

        result: tuple[Subscriber, str] = await self.run(room, first)
        if self.visible(room.conflict_id, access) is False:  # taken behind the screen
            self.unsubscribe(room, result[0])  # meanwhile: its first frame is never sent
            raise no_conflict(room.conflict_id)
        return result

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        """Forget a closed subscriber."""
        room.subscribers.discard(sub)

    def _frames(self, room: Room) -> list[tuple[Subscriber, str]]:
        """(Under the room's lock, in a worker thread.) Each subscriber's next frame, if
        anything it sees changed; their positions move on. Subscribers of one viewer at one
        position share one frame, encoded once."""
        out: list[tuple[Subscriber, str]] = []
        frames: dict[tuple[Viewer, Position, int], str | None] = {}
        for sub in list(room.subscribers):
            if sub.closed is not None:
                continue
            with spans.span("project one viewer"):
                live = room.live(sub.viewer)
            key = (sub.viewer, sub.position, sub.serial)
            if key not in frames:
                with spans.span("encode one frame"):
                    frames[key] = self._frame(room.conflict_id, live, sub.position,
                                              sub.serial)
            frame = frames[key]
            if frame is None:
                continue  # nothing this viewer sees has changed: no frame
            sub.position, sub.serial = live.position, live.serial
            out.append((sub, frame))
        return out

    def _frame(self, conflict_id: str, live: Live, position: Position, serial: int
               ) -> str | None:
        """The frame that brings a subscriber at ``position`` (having seen view ``serial``)
        up to ``live``; None when nothing it sees changed."""
        entries, reset = live.after(position)
        if not entries and not reset and serial == live.serial:
            return None
        frame: dict[str, Any] = {"type": "snapshot" if reset else "update",
                                 "entries": entries,
                                 "cursor": self.cursor(conflict_id, live.viewer, live.position)}
        if reset or serial != live.serial:
            frame["view"] = live.view
        return dump(frame)

    async def changed(self, conflict_id: str, version: int | None = None,
                      record: Record | None = None) -> None:
        """Another process (or a poll) says the conflict changed (up to ``version``, if
        known, by ``record``, if it came along): deliver what this process has not
        delivered yet."""
        room = self.rooms.get(conflict_id)
        if room is None or not room.subscribers:
            return
        if version is not None and room.conflict.version >= version:
            return  # our own append, already delivered

        def take(r: Room) -> None:
            if record is not None and record.version == r.conflict.version + 1:
                try:
                    r.conflict.append_record(record)  # announced with it: nothing to read
                    return
                except FracasError:
                    pass  # not the record it should be: read the log instead
            self.service.refresh(r.conflict_id, r.conflict)

        await self.run(room, take, fresh=False)

    def revoked(self, token_id: str) -> None:
        """Close at once every socket opened with a revoked token."""
        for room in list(self.rooms.values()):
            for sub in list(room.subscribers):
                if sub.access.token_id == token_id:
                    sub.close(CLOSE_REVOKED)

    # --- listening to other processes ---------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start hearing of appends and revocations from other processes."""
        self._loop = loop
        store = self.service.store
        if isinstance(store, SqlEventStore) and store.dialect == "postgresql":
            threading.Thread(target=self._listen, args=(store,), daemon=True,
                             name="fracas-listen").start()
        else:
            self._tasks.append(loop.create_task(self._poll()))
        self._tasks.append(loop.create_task(self._recheck_tokens()))

    async def stop(self) -> None:
        """Stop listening and close every socket."""
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for room in list(self.rooms.values()):
            for sub in list(room.subscribers):
                sub.close(1001)

    def _listen(self, store: SqlEventStore) -> None:
        """(A thread.) PostgreSQL notifications → the event loop; reconnects on failure."""
        assert self._loop is not None
        failed = False
        while not self._stop.is_set():
            try:
                for channel, payload in store.notifications(self._stop):
                    if not channel:  # listening (again): deliver what came meanwhile
                        if failed:  # the log that said it failed says it is over
                            log.warning("listening for changes again")
                            failed = False
                        self._call(self.reread_screen())
                        for cid in list(self.rooms):
                            self._call(self.changed(cid))
                    elif channel == TOKEN_CHANNEL:
                        self._loop.call_soon_threadsafe(self.revoked, payload)
                    elif channel == SCREEN_CHANNEL:
                        self._loop.call_soon_threadsafe(self.screened,
                                                        *read_screen_note(payload))
                    else:
                        self._call(self.changed(*read_append_note(payload)))
            except Exception as exc:  # the database went away: try again shortly
                log.warning("listening for changes failed (%s); retrying", failure_words(exc))
                failed = True
                self._stop.wait(1.0)

    def _call(self, coro: Awaitable[None]) -> None:
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(coro, self._loop)  # type: ignore[arg-type]

    async def _poll(self) -> None:
        """SQLite: look for appends by other processes (``fracas do``) every POLL_SECONDS."""
        store = self.service.store
        assert isinstance(store, SqlEventStore)
        while True:
            await asyncio.sleep(POLL_SECONDS)
            live = [cid for cid, r in self.rooms.items() if r.subscribers]
            try:
                versions = await to_thread.run_sync(store.versions, live)
            except Exception:
                continue
            for cid, version in versions.items():
                room = self.rooms.get(cid)
                if room is not None and version > room.conflict.version:
                    await self.changed(cid, version)

    async def _recheck_tokens(self) -> None:
        """Close sockets whose token was revoked, even if the announcement was missed."""
        store = self.service.store
        assert isinstance(store, SqlEventStore)
        while True:
            await asyncio.sleep(RECHECK_SECONDS)
            tables = {s.access.table for r in self.rooms.values() for s in r.subscribers}
            for table in tables:
                try:
                    tokens = await to_thread.run_sync(store.list_tokens, table)
                except Exception:
                    continue
                for token in tokens:
                    if token.revoked is not None:
                        self.revoked(token.id)
