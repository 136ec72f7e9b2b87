"""Limits on what a client may send: the size of a request body and the rate of WebSocket
messages (both documented in docs/server.md)."""

from __future__ import annotations

import json
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fracas.errors import InvalidInput

#: The largest request body accepted (bytes): a scenario file or an export document.
MAX_BODY = 2 * 1024 * 1024
#: The largest WebSocket message accepted (bytes); uvicorn closes with 1009 beyond it.
MAX_WS_MESSAGE = 64 * 1024


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413, unread."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        """Wrap ``app``."""
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read the body up to the limit, then hand it on; add the API's security headers."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._too_large(send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        data = b"".join(chunks)
        done = False

        async def replay() -> Message:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"cache-control", b"no-store"),
                            (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, replay, secured)

    async def _too_large(self, send: Send) -> None:
        error = InvalidInput(f"the request body is larger than {self.limit} bytes",
                             limit=self.limit)
        body = json.dumps(error.to_dict()).encode("utf-8")
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    #: The close code of a WebSocket that sent too many messages.
    CLOSE_CODE = 4429
    RATE = 10.0
    BURST = 20.0

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        """A full bucket."""
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Take one message from the bucket; False when it is empty."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


__all__ = ["MAX_BODY", "MAX_WS_MESSAGE", "BodyLimit", "RateLimit"]
