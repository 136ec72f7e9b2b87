"""Live conflicts of one server process: the loaded conflicts and their WebSocket viewers.

A :class:`Room` keeps one conflict as loaded, brought up to the stored log before each use
(another process may have appended). After every append — made here, announced by
PostgreSQL (LISTEN/NOTIFY, so every process of a scaled-out server hears of it) or found by
polling SQLite — the room computes each subscriber's frame from the projection and queues it;
a subscriber's position only moves under the room's lock, so nothing is missed or doubled.
A subscriber whose projection did not change gets no frame at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

from fracas.app.service import ConflictService
from fracas.app.tables import Access
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.errors import FracasError
from fracas.server import projection
from fracas.server.projection import Position
from fracas.store import SqlEventStore
from fracas.store.port import TOKEN_CHANNEL

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


@dataclass(eq=False)
class Subscriber:
    """One open WebSocket: who watches, where they are in the log, what they last saw."""

    access: Access
    position: Position
    last_view: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(
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
    """One loaded conflict and its subscribers."""

    conflict_id: str
    conflict: Conflict
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)


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

    async def run(self, room: Room, work: Callable[[Conflict], Any]) -> Any:
        """Run ``work`` (blocking) on the room's conflict, brought up to date, under its
        lock; then deliver whatever was appended."""
        async with room.lock:
            def job() -> tuple[Any, list[tuple[Subscriber, dict[str, Any]]]]:
                room.conflict = self.service.refresh(room.conflict_id, room.conflict)
                try:
                    result = work(room.conflict)
                finally:
                    frames = self._frames(room)
                return result, frames
            try:
                result, frames = await to_thread.run_sync(job)
            except FracasError:
                raise  # refused: the engine changed nothing
            except Exception:
                # a failed write may have left the cached conflict unsure: read it again
                room.conflict = await to_thread.run_sync(self.service.load, room.conflict_id)
                raise
            for sub, frame in frames:
                try:
                    sub.queue.put_nowait(frame)
                except asyncio.QueueFull:
                    sub.close(CLOSE_TOO_SLOW)
            return result

    def cursor(self, conflict_id: str, viewer: Viewer, position: Position) -> str:
        """The opaque cursor of a position."""
        return projection.cursor_for(self.cursor_key, conflict_id, viewer, position)

    # --- subscribers ------------------------------------------------------------------
    async def subscribe(self, room: Room, access: Access, cursor: str | None
                        ) -> tuple[Subscriber, dict[str, Any]]:
        """Add a subscriber; its first frame (the snapshot, or what it missed since
        ``cursor``)."""
        viewer = access.viewer

        def first(conflict: Conflict) -> tuple[Subscriber, dict[str, Any]]:
            if cursor:
                start = projection.position_of(self.cursor_key, room.conflict_id, viewer,
                                               cursor)
                entries, data, position, reset = projection.entries_after(conflict, viewer,
                                                                          start)
                kind = "snapshot" if reset else "resume"
            else:
                data, entries, position = projection.snapshot(conflict, viewer)
                kind = "snapshot"
            sub = Subscriber(access, position, _dump(data))
            room.subscribers.add(sub)
            return sub, {"type": kind, "entries": entries, "view": data,
                         "cursor": self.cursor(room.conflict_id, viewer, position)}

        result: tuple[Subscriber, dict[str, Any]] = await self.run(room, first)
        return result

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        """Forget a closed subscriber."""
        room.subscribers.discard(sub)

    def _frames(self, room: Room) -> list[tuple[Subscriber, dict[str, Any]]]:
        """(Under the room's lock, in a worker thread.) Each subscriber's next frame, if
        anything it sees changed; their positions move on."""
        conflict = room.conflict
        out: list[tuple[Subscriber, dict[str, Any]]] = []
        cache: dict[tuple[Viewer, Position],
                    tuple[list[Any], dict[str, Any], Position, bool]] = {}
        for sub in list(room.subscribers):
            if sub.closed is not None:
                continue
            key = (sub.viewer, sub.position)
            if key not in cache:
                cache[key] = projection.entries_after(conflict, sub.viewer, sub.position)
            entries, data, position, reset = cache[key]
            text = _dump(data)
            if not entries and text == sub.last_view:
                continue  # nothing this viewer sees has changed: no frame
            frame: dict[str, Any] = {"type": "snapshot" if reset else "update",
                                     "entries": entries,
                                     "cursor": self.cursor(room.conflict_id, sub.viewer,
                                                           position)}
            if reset or text != sub.last_view:
                frame["view"] = data
            sub.position, sub.last_view = position, text
            out.append((sub, frame))
        return out

    async def changed(self, conflict_id: str, version: int | None = None) -> None:
        """Another process (or a poll) says the conflict changed (up to ``version``, if
        known): deliver what this process has not delivered yet."""
        room = self.rooms.get(conflict_id)
        if room is None or not room.subscribers:
            return
        if version is not None and room.conflict.version >= version:
            return  # our own append, already delivered
        await self.run(room, lambda _c: None)

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
        while not self._stop.is_set():
            try:
                for channel, payload in store.notifications(self._stop):
                    if not channel:  # listening (again): deliver what came meanwhile
                        for cid in list(self.rooms):
                            self._call(self.changed(cid))
                    elif channel == TOKEN_CHANNEL:
                        self._loop.call_soon_threadsafe(self.revoked, payload)
                    else:
                        cid, _, version = payload.partition(" ")
                        self._call(self.changed(cid, int(version) if version.isdigit()
                                                else None))
            except Exception as exc:  # the database went away: try again shortly
                log.warning("listening for changes failed (%s); retrying", type(exc).__name__)
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


def _dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
