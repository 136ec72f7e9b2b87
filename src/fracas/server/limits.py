"""Limits on what a client may send: the rate of its requests, the size of a request body and
the rate of its WebSocket messages (all documented in docs/server.md)."""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import OrderedDict
from http.cookies import CookieError, SimpleCookie

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fracas.engine.limits import no_key_twice
from fracas.errors import FracasError, InvalidInput, RateLimited
from fracas.server.cookies import presented, table_in_path

#: The largest request body accepted (bytes): a scenario file or an export document.
MAX_BODY = 2 * 1024 * 1024
#: The largest WebSocket message accepted (bytes); uvicorn closes with 1009 beyond it.
MAX_WS_MESSAGE = 64 * 1024


#: Headers on every answer of the API.
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-store"),
                    (b"referrer-policy", b"no-referrer")]
#: Requests (and WebSocket connections) a second per token, and the bursts allowed; an
#: address may make ADDRESS_FACTOR times as many (a whole table behind one home router).
REQUEST_RATE = 20.0
REQUEST_BURST = 60.0
ADDRESS_FACTOR = 5
#: ``fracas serve --rate-limit`` hands its setting to the server processes in this variable.
ENV_RATE_LIMIT = "FRACAS_RATE_LIMIT"
#: Clients remembered (the least recently seen are forgotten beyond it).
MAX_CLIENTS = 20_000


def parse_rate_limit(text: str | None) -> tuple[float, float] | None:
    """``RATE[/BURST]`` (per token, a second) as numbers; ``off`` (or 0): None; empty or
    None: the default."""
    if not text or not text.strip():
        return REQUEST_RATE, REQUEST_BURST
    text = text.strip().lower()
    if text in ("off", "0"):
        return None
    rate_text, _, burst_text = text.partition("/")
    try:
        rate = float(rate_text)
        burst = float(burst_text) if burst_text else 3 * rate
    except ValueError:
        rate = burst = math.nan
    if not (0 < rate < 1e6 and 1 <= burst < 1e7):
        raise InvalidInput(f"a rate limit is RATE or RATE/BURST (requests a second per "
                           f"token, and the burst allowed), or off; not {text!r}",
                           rate_limit=text)
    return rate, burst


class RequestLimit:
    """ASGI middleware: a token bucket per token and one per address, over the HTTP requests
    and WebSocket connections of every client. Beyond either, 429 with ``Retry-After`` and a
    ``rate_limited`` error (a WebSocket connection is refused before it opens).

    A page's public files (``GET`` or ``HEAD`` under ``public``) spend no token's bucket,
    whatever cookie they carry, and none of the API's: only a bucket of their own per
    address, as large as the address's."""

    def __init__(self, app: ASGIApp, limit: tuple[float, float] | None,
                 public: str | None = None) -> None:
        """Wrap ``app``: ``limit`` is (rate, burst) per token (None: no limit); ``public``,
        the path prefix of the static files (``/static/``), if any. A browser's token is
        the cookie the request presents (:func:`fracas.server.cookies.presented`)."""
        self.app = app
        self.limit = limit
        self.public = public
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Take one from the client's buckets, or refuse."""
        if self.limit is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rate, burst = self.limit
        client = scope.get("client")
        address = client[0] if client else "?"
        if self._is_public(scope):
            wait = self._take("s " + address, rate * ADDRESS_FACTOR, burst * ADDRESS_FACTOR)
        else:
            wait = self._take("a " + address, rate * ADDRESS_FACTOR, burst * ADDRESS_FACTOR)
            token = self._token(scope)
            if token is not None:
                wait = max(wait, self._take("t " + token, rate, burst))
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(wait))
        error = RateLimited(
            f"too many requests: at most {rate:g} a second per token (bursts of {burst:g}) "
            f"and {rate * ADDRESS_FACTOR:g} per address; retry in {retry} s",
            retry_after=retry, rate=rate, burst=burst)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4429})
            return
        await _send_error(send, error, 429, [(b"retry-after", str(retry).encode())])

    def _is_public(self, scope: Scope) -> bool:
        """Whether the request reads a static file (the router sends the same path there)."""
        return (self.public is not None and scope["type"] == "http"
                and scope.get("method") in ("GET", "HEAD")
                and str(scope.get("path", "")).startswith(self.public))

    def _token(self, scope: Scope) -> str | None:
        """A digest of the token the request presents (header, or the cookie of the table in
        its path), if any."""
        secret = None
        for name, value in scope.get("headers") or []:
            if name == b"authorization":
                scheme, _, rest = value.decode("latin-1").partition(" ")
                if scheme.lower() == "bearer" and rest.strip():
                    secret = rest.strip()
                    break
            elif name == b"cookie" and secret is None:
                try:
                    cookies = {k: m.value for k, m in SimpleCookie(value.decode("latin-1")).items()}
                except CookieError:
                    cookies = {}
                secret = presented(cookies, table_in_path(str(scope.get("path", ""))))
        if secret is None:
            return None
        return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()[:32]

    def _take(self, key: str, rate: float, burst: float) -> float:
        """Take one from ``key``'s bucket: 0 if there was one, else the seconds to wait."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(rate, burst)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.take()


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413, unread; a
    JSON body that gives one key twice, with 422 (json would keep the last quietly)."""

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
        twice = twice_given(data)
        if twice is not None:
            await _send_error(send, twice, 422)
            return
        done = False

        async def replay() -> Message:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *SECURITY_HEADERS]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, replay, secured)

    async def _too_large(self, send: Send) -> None:
        error = InvalidInput(f"the request body is larger than {self.limit} bytes",
                             limit=self.limit)
        await _send_error(send, error, 413)


def twice_given(body: bytes) -> InvalidInput | None:
    """The refusal of a JSON ``body`` one of whose objects gives a key twice (None: none
    does, or the body is not JSON at all, which the route refuses in its own words)."""
    if not body.lstrip().startswith((b"{", b"[")):
        return None
    try:
        json.loads(body, object_pairs_hook=no_key_twice)
    except InvalidInput as exc:
        return InvalidInput(f"the request body: {exc.message}")
    except (ValueError, RecursionError):
        pass
    return None


async def _send_error(send: Send, error: FracasError, status: int,
                      headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer a refusal made before the application saw the request."""
    body = json.dumps(error.to_dict()).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            *(headers or []), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class Bucket:
    """A token bucket: ``rate`` a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        """A full bucket."""
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def take(self) -> float:
        """Take one: 0 if there was one, else the seconds until there is."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0


class RateLimit(Bucket):
    """The limit on one WebSocket's messages: RATE a second on average, bursts of BURST."""

    #: The close code of a WebSocket that sent too many messages.
    CLOSE_CODE = 4429
    RATE = 10.0
    BURST = 20.0

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        """A full bucket."""
        super().__init__(rate, burst)

    def allow(self) -> bool:
        """Take one message from the bucket; False when it is empty."""
        return self.take() == 0


__all__ = ["ADDRESS_FACTOR", "ENV_RATE_LIMIT", "MAX_BODY", "MAX_WS_MESSAGE", "REQUEST_BURST",
           "REQUEST_RATE", "BodyLimit", "Bucket", "RateLimit", "RequestLimit",
           "parse_rate_limit"]
