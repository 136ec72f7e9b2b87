"""The HTTP and WebSocket API of ``fracas serve`` (FastAPI): a thin adapter over fracas.app.

Every route authenticates its token (``Authorization: Bearer`` or the browser's cookie of
the table in its path, :mod:`fracas.server.cookies`), checks that the table in its path is the
token's, and answers only through :mod:`fracas.server.projection`. Refusals are the engine's
typed errors (docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import os
import re
import signal
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from ipaddress import ip_address
from typing import Annotated, Any
from urllib.parse import urlsplit

from anyio import to_thread
from fastapi import Body, Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from fracas import __version__
from fracas.app.exchange import export_sealed, import_sealed
from fracas.app.scenario import Scenario, bundled_scenarios, load_scenario, parse_scenario
from fracas.app.script import from_the_start
from fracas.app.service import ConflictService
from fracas.app.tables import Access, TableService
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict
from fracas.engine.limits import MAX_NESTING, MAX_NUMBER
from fracas.engine.model import Viewer
from fracas.errors import (
    FracasError,
    IllegalCommand,
    InternalError,
    InvalidInput,
    NotAllowed,
    NotAuthenticated,
    NotFound,
    StaleVersion,
)
from fracas.server import offers, projection, setups, spans
from fracas.server.cookies import COOKIE, kept_links, presented, table_cookie
from fracas.server.limits import (
    ENV_RATE_LIMIT,
    MAX_BODY,
    BodyLimit,
    RateLimit,
    RequestLimit,
    parse_rate_limit,
)
from fracas.server.live import Hub, Room, Subscriber, no_conflict
from fracas.server.models import (
    ERRORS,
    SHOWN,
    CommandIn,
    ConflictFormIn,
    ConflictIn,
    LinkIn,
    OddsIn,
    ShownIn,
    StepsIn,
    TableIn,
)
from fracas.server.pages import STATIC, mount_pages
from fracas.server.projection import dump
from fracas.store import (
    ConflictInfo,
    SqlEventStore,
    StoreFailure,
    failure_words,
    open_store,
)

log = logging.getLogger("fracas.server")

#: ``fracas serve --open`` tells its server processes, in this variable, that anyone who
#: reaches them may create tables.
ENV_OPEN = "FRACAS_OPEN_TABLES"
#: ``fracas serve --sync`` tells its server processes, in this variable, how SQLite commits.
ENV_SYNC = "FRACAS_SQLITE_SYNC"
#: ``fracas serve --workers N`` tells its worker processes, in this variable, the process id of
#: the main process that started them (and restarts one that dies).
ENV_SUPERVISOR = "FRACAS_SUPERVISOR"
#: How often a worker looks whether that main process is still there (seconds).
SUPERVISOR_SECONDS = 1.0
#: The close code of a socket opened while the database is out of reach ("try again later").
CLOSE_TRY_AGAIN = 1013
#: Tries of a command whose append met another process's append first.
RETRIES = 5
#: How long a browser keeps a link it opened (seconds): past a restart of the browser or the
#: phone, as a GM who did not save the GM link shown once still needs it (a revoked link lets
#: no one in, kept or not).
KEPT_FOR = 180 * 24 * 3600
#: Links of a browser's cookies that ``GET /api/session`` looks at (a browser keeps fewer).
MAX_KEPT = 20
#: Conflicts' standings (per viewer) the table's list keeps (the oldest forgotten beyond).
MAX_STANDINGS = 20_000


@dataclass
class Server:
    """What one server process holds: the store and the services over it, and the hub."""

    store: SqlEventStore
    service: ConflictService
    tables: TableService
    hub: Hub
    export_key: bytes
    tables_of: dict[str, str]  # conflict id → its table (never changes; shown: Hub.shown)
    open_tables: bool = False  # anyone may create tables (`fracas serve --open`)
    #: (conflict id, viewer) → (version, how it stands for them then): the table's list
    #: answers from here while the stored version is the same (at most MAX_STANDINGS)
    standings: dict[tuple[str, Viewer], tuple[int, dict[str, Any]]] = \
        dataclasses.field(default_factory=dict)


def status_of(error: FracasError) -> int:
    """The HTTP status of a typed error."""
    if isinstance(error, NotAuthenticated):
        return 401
    if isinstance(error, NotAllowed):
        return 403
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, IllegalCommand | StaleVersion):
        return 409
    if isinstance(error, InvalidInput):
        return 422
    return 500


def close_code_of(error: FracasError) -> int:
    """The WebSocket close code of a typed error (4000 + the HTTP status)."""
    return 4000 + status_of(error)


def _error(error: FracasError, status: int | None = None) -> JSONResponse:
    return JSONResponse(_encodable(error.to_dict()), status_code=status or status_of(error))


def _encodable(value: Any) -> Any:
    """``value`` with each lone surrogate (a refused input echoed back, such as "\\ud800")
    made U+FFFD, so that the answer can be written as UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_encodable(v) for v in value]
    return value


def create_app(url: str | None = None) -> FastAPI:
    """The application over the store at ``url`` (default: ``$FRACAS_DB`` or SQLite)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sync = os.environ.get(ENV_SYNC, "full").upper()
        store = await to_thread.run_sync(lambda: open_store(url, synchronous=sync))
        service = ConflictService(store)
        cursor_key = await to_thread.run_sync(store.secret_key, "seal-cursors")
        export_key = await to_thread.run_sync(store.secret_key, "seal-exports")
        hub = Hub(service, cursor_key)
        app.state.server = Server(store, service, TableService(store), hub, export_key, {},
                                  open_tables=os.environ.get(ENV_OPEN) == "1")
        hub.start(asyncio.get_running_loop())
        watching = _watch_spans(store)
        orphaned = _watch_supervisor()
        try:
            yield
        finally:
            if orphaned is not None:
                orphaned.cancel()
            await hub.stop()
            store.close()
            if watching is not None:
                watching.cancel()
                assert spans.SPANS is not None
                spans.SPANS.write(os.environ[spans.ENV_SPANS])

    app = FastAPIOffline(  # /docs served from here, not from a CDN (redoc would fetch one)
        redoc_url=None, title="fracas", version=__version__, lifespan=lifespan, responses=ERRORS,
        description="Live tabletop conflicts for a GM and their players: see docs/server.md. "
                    "Every refusal is a typed error {code, message, rule, values}.",
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    if spans.SPANS is not None:
        app.add_middleware(spans.RequestTimer)
    # added last: it runs first, before a body is read
    app.add_middleware(RequestLimit, limit=parse_rate_limit(os.environ.get(ENV_RATE_LIMIT)),
                       public=STATIC)
    _handlers(app)
    _routes(app)
    mount_pages(app, authenticate)
    return app


def _watch_spans(store: SqlEventStore) -> asyncio.Task[None] | None:
    """When measuring (``$FRACAS_SPANS``): time the store's appends, the collector's pauses
    and the event loop's lateness (fracas.server.spans)."""
    if spans.SPANS is None:
        return None
    store.append = spans.timed("append (durable commit)", store.append)  # type: ignore[method-assign]
    spans.SPANS.watch_gc()
    return asyncio.get_running_loop().create_task(spans.SPANS.watch_loop())


def _watch_supervisor() -> asyncio.Task[None] | None:
    """A worker of ``fracas serve --workers N``: stop (as on Ctrl-C: its sockets closed, so
    its pages reconnect) once the main process that started it is gone. Killed on its own
    (``kill -9 PID``), that process takes nothing down with it: its workers would go on
    serving, unseen, and holding the port, so that the server could not be started again.
    A worker whose main process is gone before it starts (killed while the worker was still
    opening its store) stops at once: it was no longer its child."""
    supervisor = os.environ.get(ENV_SUPERVISOR)
    if supervisor is None:
        return None  # one process (--workers 1), or not started by `fracas serve`

    async def watch() -> None:
        while str(os.getppid()) == supervisor:
            await asyncio.sleep(SUPERVISOR_SECONDS)
        log.warning("the main process of `fracas serve` (%s) is gone: this worker stops too",
                    supervisor)
        signal.raise_signal(signal.SIGTERM)  # uvicorn's own way out: it closes every socket

    return asyncio.get_running_loop().create_task(watch())


def app_from_env() -> FastAPI:
    """The application for ``uvicorn --factory`` (worker processes): store from $FRACAS_DB."""
    _tune_gc()
    return create_app(os.environ.get("FRACAS_DB"))


#: Allocations between two collections of the youngest generation (Python's default: 700).
GC_YOUNG_THRESHOLD = 100_000


def _tune_gc() -> None:
    """Fewer, cheaper pauses of the cyclic garbage collector in a server process. It holds
    every live conflict's state and projections (about 1 MB each, benchmarks/bench_server.py),
    and with Python's default thresholds a collection walking all of it came every few hundred
    commands, a pause that set the p99 of the command-to-entry time (52 ms against 32 ms with
    these thresholds, same run). What start-up made is frozen: never walked again."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 50, 100)


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(FracasError)
    async def fracas_error(_r: Request, exc: FracasError) -> JSONResponse:
        if isinstance(exc, InternalError):
            log.error("internal error: %s", exc)
        return _error(exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_r: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"where": ".".join(str(p) for p in e.get("loc", ())),
                     "problem": str(e.get("msg", "")).removeprefix("Value error, ")}
                    for e in exc.errors()]
        first = problems[0] if problems else {"where": "", "problem": "malformed request"}
        return _error(InvalidInput(f"bad request: {first['where']}: {first['problem']}",
                                   problems=problems))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body json cannot decode at all: bad UTF-8, a number
            # of thousands of digits, thousands of brackets deep (a bad request: 422)
            return _error(InvalidInput(
                "the request body cannot be read as JSON: send UTF-8 JSON with numbers of "
                f"at most {MAX_NUMBER:,} either side, nested at most {MAX_NESTING} deep "
                "(the limit on nesting)"))
        error: FracasError = NotFound("no such route") if exc.status_code == 404 else \
            InvalidInput(str(exc.detail))
        return _error(error, exc.status_code)

    @app.exception_handler(StoreFailure)
    async def store_failure(_r: Request, exc: StoreFailure) -> JSONResponse:
        return _error(_store_failed(exc), 503)

    @app.exception_handler(Exception)
    async def unexpected(_r: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return _error(InternalError("internal error; nothing changed"), 500)


def _store_failed(exc: Exception) -> InternalError:
    """The refusal of a request the database failed (logged with what keeps it out of reach,
    never with the statement or its values)."""
    log.error("database error: %s", failure_words(exc))
    return InternalError("nothing was done: the database is out of reach or failed; try "
                         "again in a moment")


# --- authentication --------------------------------------------------------------------
def _secret(headers: Any, cookies: dict[str, str], table: str | None = None
            ) -> tuple[str | None, bool]:
    """The presented token and whether it came from a cookie (for a request about
    ``table``: that table's own cookie, else the plain one)."""
    auth = headers.get("authorization") or ""
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip(), False
    cookie = presented(cookies, table)
    return (cookie, True) if cookie else (None, False)


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def authenticate(request: Request) -> Access:
    """The access of the request's token (401 without a valid one): its bearer token, or
    the browser's cookie of the table in its path."""
    secret, _ = _secret(request.headers, request.cookies, request.path_params.get("table"))
    with spans.span("authenticate"):
        return await to_thread.run_sync(_server(request).tables.authenticate, secret)


AccessDep = Annotated[Access, Depends(authenticate)]


def _from_this_machine(request: Request) -> bool:
    """Whether the client is on the server's own machine (a loopback address; behind a
    reverse proxy, uvicorn reads the real client from ``X-Forwarded-For``)."""
    try:
        return request.client is not None and ip_address(request.client.host).is_loopback
    except ValueError:
        return False


async def check_may_create_tables(request: Request) -> None:
    """Creating a table needs the server's admin secret (header or cookie), unless the
    client is on the server's own machine or the server was started with ``--open``."""
    server = _server(request)
    if server.open_tables or _from_this_machine(request):
        return
    secret, _ = _secret(request.headers, request.cookies)
    if not await to_thread.run_sync(server.tables.is_admin, secret):
        raise NotAuthenticated(
            "creating a table on this server needs its admin secret: open the admin link "
            "`fracas serve` printed when it started (or send Authorization: Bearer SECRET); "
            "the GM can make a new one with `fracas serve --new-admin-secret`")


async def _check_conflict(server: Server, access: Access, table: str, conflict_id: str
                          ) -> None:
    """NotFound unless the conflict is of the access's table and the access may know it: the
    same answer for an unknown conflict, another table's and (to all but the GM) one behind
    the screen, so that a player learns nothing of it."""
    server.tables.check_table(access, table)
    owner = server.tables_of.get(conflict_id)
    visible = server.hub.visible(conflict_id, access)
    if owner is None or visible is None:
        try:
            info = await to_thread.run_sync(server.store.info, conflict_id)
        except NotFound:
            raise no_conflict(conflict_id) from None
        owner = server.tables_of[conflict_id] = info.campaign
        server.hub.shown.setdefault(conflict_id, info.shown)  # unless told since
        visible = server.hub.visible(conflict_id, access)
    if owner != access.table or not visible:
        raise no_conflict(conflict_id)


async def _conflict_room(server: Server, access: Access, table: str, conflict_id: str
                         ) -> Any:
    """The room of a conflict of the access's table that the access may know (404 alike for
    unknown, foreign and, to all but the GM, behind the screen)."""
    await _check_conflict(server, access, table, conflict_id)
    return await server.hub.room(conflict_id)


def _link(request: Request, secret: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/join#{secret}"


# --- routes ----------------------------------------------------------------------------
def _routes(app: FastAPI) -> None:
    @app.get("/api/scenarios", tags=["tables"])
    async def scenarios() -> list[dict[str, str]]:
        """The bundled example scenarios a conflict can be created from."""
        return [{"name": n, "title": t} for n, t in bundled_scenarios().items()]

    @app.post("/api/tables", status_code=201, tags=["tables"],
              dependencies=[Depends(check_may_create_tables)])
    async def create_table(request: Request, body: TableIn) -> dict[str, Any]:
        """Create a table; the answer holds the GM's secret token (shown only once). Needs
        the server's admin secret, except from the server's own machine or with --open."""
        server = _server(request)
        table, gm = await to_thread.run_sync(server.tables.create_table, body.title)
        return {"table": table, "title": body.title.strip(), "gm_token": gm.secret,
                "gm_link": _link(request, gm.secret), "link_id": gm.info.id}

    @app.get("/api/me", tags=["tables"])
    async def me(request: Request, access: AccessDep) -> dict[str, Any]:
        """What the presented token opens: its table, role and player."""
        title = await to_thread.run_sync(_server(request).tables.title, access)
        return {"table": access.table, "title": title, "role": access.role,
                "player": access.player}

    @app.post("/api/session", tags=["tables"])
    async def session(request: Request) -> Response:
        """Keep the bearer token in a ``SameSite=Strict; HttpOnly`` cookie (for browsers):
        a table's link in that table's own cookie, beside the links of other tables the
        browser holds (another link of the same table takes its place); the server's admin
        secret in the plain one."""
        secret, _ = _secret(request.headers, request.cookies)
        if await to_thread.run_sync(_server(request).tables.is_admin, secret):
            data: dict[str, Any] = {"table": None, "role": "admin", "player": None}
            name = COOKIE
        else:
            access = await authenticate(request)
            data = {"table": access.table, "role": access.role, "player": access.player}
            name = table_cookie(access.table)
        out = JSONResponse(data)
        out.set_cookie(name, secret or "", httponly=True, samesite="strict",
                       secure=request.url.scheme == "https", path="/", max_age=KEPT_FOR)
        return out

    @app.get("/api/session", tags=["tables"])
    async def kept(request: Request) -> list[dict[str, Any]]:
        """The tables whose links this browser keeps (its cookies; a revoked link is left
        out): each one's id, title and the role and player of its link there."""
        server = _server(request)

        def look() -> list[dict[str, Any]]:
            found: dict[str, dict[str, Any]] = {}
            plain = request.cookies.get(COOKIE)  # a link kept before a cookie per table
            secrets = [*kept_links(request.cookies).values(), *([plain] if plain else [])]
            for secret in secrets[:MAX_KEPT]:
                with contextlib.suppress(NotAuthenticated, NotFound):
                    access = server.tables.authenticate(secret)
                    found[access.table] = {"table": access.table,
                                           "title": server.tables.title(access),
                                           "role": access.role, "player": access.player}
            return sorted(found.values(), key=lambda t: (t["title"].lower(), t["table"]))

        return await to_thread.run_sync(look)

    @app.delete("/api/session", tags=["tables"])
    async def logout(request: Request) -> Response:
        """Forget the cookies: every table's link this browser keeps, and the admin secret."""
        out = JSONResponse({"ok": True})
        for name in [COOKIE, *map(table_cookie, kept_links(request.cookies))]:
            out.delete_cookie(name, path="/", httponly=True, samesite="strict")
        return out

    @app.get("/api/tables/{table}", tags=["tables"])
    async def get_table(request: Request, table: str, access: AccessDep) -> dict[str, Any]:
        """The table (its title, and the viewer's role there)."""
        server = _server(request)
        server.tables.check_table(access, table)
        title = await to_thread.run_sync(server.tables.title, access)
        return {"table": table, "title": title, "role": access.role, "player": access.player}

    @app.get("/api/tables/{table}/links", tags=["links"])
    async def links(request: Request, table: str, access: AccessDep) -> list[dict[str, Any]]:
        """(GM) The table's links, without their secrets (``yours``: the link of this
        request, which cannot revoke itself)."""
        server = _server(request)
        server.tables.check_table(access, table)
        tokens = await to_thread.run_sync(server.tables.links, access)
        return [{**_link_data(t), "yours": t.id == access.token_id} for t in tokens]

    @app.post("/api/tables/{table}/links", status_code=201, tags=["links"])
    async def invite(request: Request, table: str, body: LinkIn, access: AccessDep
                     ) -> dict[str, Any]:
        """(GM) A player's link (bound to their name), a public read-only link or a GM link
        (for another device of the GM's); its secret is in this answer only."""
        server = _server(request)
        server.tables.check_table(access, table)
        issued = await to_thread.run_sync(server.tables.invite, access, body.role,
                                          body.player, body.label or "")
        return {**_link_data(issued.info), "token": issued.secret,
                "link": _link(request, issued.secret)}

    @app.delete("/api/tables/{table}/links/{link}", tags=["links"])
    async def revoke(request: Request, table: str, link: str, access: AccessDep
                     ) -> dict[str, Any]:
        """(GM) Revoke a link at once: its open sockets close (code 4401)."""
        server = _server(request)
        server.tables.check_table(access, table)
        token = await to_thread.run_sync(server.tables.revoke, access, link)
        server.hub.revoked(token.id)
        return _link_data(token)

    @app.get("/api/tables/{table}/conflicts", tags=["conflicts"])
    async def conflicts(request: Request, table: str, access: AccessDep
                        ) -> list[dict[str, Any]]:
        """The table's conflicts, each with how it stands as the viewer's own view says
        (its status, how it ended, and to a player whether it is their turn in it); the GM
        also sees versions, times of change and whether each is shown (a conflict behind
        the screen is the GM's alone). The GM's come the last played first; everyone else's
        the last made first, an order no hidden action changes."""
        server = _server(request)
        server.tables.check_table(access, table)
        infos = await to_thread.run_sync(server.store.list, access.table)
        if not access.is_gm:
            infos = sorted(infos, key=lambda i: (i.created, i.id), reverse=True)
        return [{**_listed(i, access), **await _standing(server, i, access)}
                for i in infos if i.shown or access.is_gm]

    @app.post("/api/tables/{table}/conflicts", status_code=201, tags=["conflicts"])
    async def create_conflict(request: Request, table: str, body: ConflictIn,
                              access: AccessDep) -> dict[str, Any]:
        """(GM) A new conflict from a bundled scenario's name or a scenario file's text."""
        server = _server(request)
        server.tables.check_table(access, table)
        if not access.is_gm:
            raise NotAllowed("only the GM may create conflicts")
        return await _create(server, access, lambda: _scenario(body), body.seed, body.shown)

    @app.post("/api/tables/{table}/conflicts/form", status_code=201, tags=["conflicts"])
    async def create_from_form(request: Request, table: str, body: ConflictFormIn,
                               access: AccessDep) -> dict[str, Any]:
        """(GM) A new conflict from the GM screen's form (a scenario's set-up as JSON)."""
        server = _server(request)
        server.tables.check_table(access, table)
        if not access.is_gm:
            raise NotAllowed("only the GM may create conflicts")
        return await _create(server, access, lambda: setups.scenario_of(body.setup),
                             body.seed, body.shown)

    @app.put("/api/tables/{table}/conflicts/{conflict}/shown", tags=["conflicts"])
    async def set_shown(request: Request, table: str, conflict: str, body: ShownIn,
                        access: AccessDep) -> dict[str, Any]:
        """(GM) Show a conflict to the players (``true``) or take it behind the screen
        (``false``): until shown, it does not exist for anyone but the GM (404 alike), and
        the open sockets of everyone else close (4404)."""
        server = _server(request)
        await _check_conflict(server, access, table, conflict)
        if not access.is_gm:
            raise NotAllowed("only the GM may show a conflict or take it behind the screen")
        info = await to_thread.run_sync(server.store.set_shown, conflict, body.shown)
        server.hub.screened(conflict, info.shown)
        return {**_listed(info, access), **await _standing(server, info, access)}

    @app.get("/api/rulesets", tags=["tables"])
    async def rulesets() -> list[dict[str, Any]]:
        """Each ruleset's set-up choices, stats and (VERS) condition ladders, for the form."""
        return setups.rulesets()

    @app.get("/api/tables/{table}/conflicts/{conflict}", tags=["conflicts"])
    async def get_conflict(request: Request, table: str, conflict: str, access: AccessDep,
                           log: bool = True) -> dict[str, Any]:
        """The conflict as the viewer may see it: view, log (unless ``log=false``: a glance
        at the view alone) and a cursor for the socket."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        viewer = access.viewer

        def look(r: Room) -> dict[str, Any]:
            data, entries, position = r.live(viewer).snapshot()
            out = {"id": conflict, "ruleset": r.conflict.ruleset.name, "view": data,
                   "log": entries, "cursor": server.hub.cursor(conflict, viewer, position)}
            if not log:
                del out["log"]
            return out

        result: dict[str, Any] = await server.hub.run(room, look)
        return result

    @app.get("/api/tables/{table}/conflicts/{conflict}/characters/{character}",
             tags=["conflicts"])
    async def get_character(request: Request, table: str, conflict: str, character: str,
                            access: AccessDep) -> dict[str, Any]:
        """One participant as the viewer sees it (404 alike for hidden and missing)."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        found: dict[str, Any] = await server.hub.run(
            room, lambda r: projection.character(r.live(access.viewer), character))
        return found

    @app.post("/api/tables/{table}/conflicts/{conflict}/commands", tags=["play"],
              response_model=dict[str, Any])
    async def command(request: Request, table: str, conflict: str, body: CommandIn,
                      access: AccessDep) -> Response:
        """Decide and store one command (text notation or the engine's JSON form)."""
        return await _execute(_server(request), access, table, conflict, body.command,
                              body.key, body.cursor)

    @app.post("/api/tables/{table}/conflicts/{conflict}/undo", tags=["play"],
              response_model=dict[str, Any])
    async def undo(request: Request, table: str, conflict: str, access: AccessDep,
                   body: StepsIn | None = None) -> Response:
        """(GM) Take back the last STEPS commands (an undo record; versions only grow)."""
        steps = body.steps if body else 1
        return await _execute(_server(request), access, table, conflict, f"undo {steps}",
                              body.key if body else None, body.cursor if body else None)

    @app.post("/api/tables/{table}/conflicts/{conflict}/redo", tags=["play"],
              response_model=dict[str, Any])
    async def redo(request: Request, table: str, conflict: str, access: AccessDep,
                   body: StepsIn | None = None) -> Response:
        """(GM) Bring back the last STEPS undone commands."""
        steps = body.steps if body else 1
        return await _execute(_server(request), access, table, conflict, f"redo {steps}",
                              body.key if body else None, body.cursor if body else None)

    @app.get("/api/tables/{table}/conflicts/{conflict}/legal", tags=["play"])
    async def legal(request: Request, table: str, conflict: str, access: AccessDep,
                    actor: Annotated[str | None, Query(max_length=40)] = None
                    ) -> dict[str, list[str]]:
        """What the viewer may do now: per character (a player: only their own)."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        found: dict[str, list[str]] = await server.hub.run(
            room, lambda r: offers.texts(r.live(access.viewer), actor))
        return found

    @app.get("/api/tables/{table}/conflicts/{conflict}/legal-commands", tags=["play"])
    async def legal_commands(request: Request, table: str, conflict: str, access: AccessDep,
                             actor: Annotated[str | None, Query(max_length=40)] = None
                             ) -> dict[str, list[dict[str, Any]]]:
        """What the viewer may do now, structured: per actor the engine's legal commands
        (verb, actor, rule, params with kind, allowed values, required and fixed)."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        found: dict[str, list[dict[str, Any]]] = await server.hub.run(
            room, lambda r: offers.structured(r.live(access.viewer), actor))
        return found

    @app.get("/api/tables/{table}/conflicts/{conflict}/odds", tags=["play"])
    async def odds(request: Request, table: str, conflict: str, access: AccessDep
                   ) -> dict[str, list[str]]:
        """The exact odds of the pending roll(s) the viewer may know."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        lines: list[str] = await server.hub.run(
            room, lambda r: projection.pending_odds(r.live(access.viewer)))
        return {"odds": lines}

    @app.post("/api/tables/{table}/conflicts/{conflict}/odds", tags=["play"])
    async def command_odds(request: Request, table: str, conflict: str, body: OddsIn,
                           access: AccessDep) -> dict[str, Any]:
        """The exact odds of the roll a command (one of the legal commands) would make."""
        server = _server(request)
        room = await _conflict_room(server, access, table, conflict)
        viewer = access.viewer

        def ask(r: Room) -> dict[str, Any]:
            c, live = r.conflict, r.live(viewer)
            cmd = c.to_command(body.command)  # reads no state (see the commands route)
            return {"command": c.text(cmd), "odds": projection.odds_answer(live, cmd)}

        result: dict[str, Any] = await server.hub.run(room, ask)
        return result

    @app.get("/api/tables/{table}/conflicts/{conflict}/export", tags=["exchange"])
    async def export(request: Request, table: str, conflict: str, access: AccessDep
                     ) -> dict[str, Any]:
        """(GM) The conflict as a fracas.export/1 document; its seed is sealed with this
        server's key (the seed never leaves the server)."""
        server = _server(request)
        await _conflict_room(server, access, table, conflict)
        if not access.is_gm:
            raise NotAllowed("only the GM may export a conflict")
        doc: dict[str, Any] = await to_thread.run_sync(export_sealed, server.service, conflict,
                                                       server.export_key)
        return doc

    @app.post("/api/tables/{table}/imports", status_code=201, tags=["exchange"])
    async def import_(request: Request, table: str, access: AccessDep,
                      document: Annotated[dict[str, Any], Body()],
                      shown: Annotated[bool, Query(description=SHOWN)] = True
                      ) -> dict[str, Any]:
        """(GM) Store an export document (of this server's export) as a new conflict
        (``?shown=false``: behind the screen)."""
        server = _server(request)
        server.tables.check_table(access, table)
        if not access.is_gm:
            raise NotAllowed("only the GM may import a conflict")
        text = json.dumps(document, ensure_ascii=False)
        cid, conflict = await to_thread.run_sync(
            lambda: import_sealed(server.service, text, server.export_key, access.table,
                                  shown=shown))
        return _made(server, access, cid, conflict, shown)

    @app.get("/join", include_in_schema=False)
    async def join() -> HTMLResponse:
        """The page a link opens: it keeps the token (from the #fragment) in the cookie."""
        return HTMLResponse(JOIN_PAGE)

    @app.websocket("/api/tables/{table}/conflicts/{conflict}/live")
    async def live(websocket: WebSocket, table: str, conflict: str,
                   cursor: str | None = None) -> None:
        """Subscribe: the viewer's view, then per new record their entry and changed view."""
        await _live(websocket, table, conflict, cursor)


def _listed(info: ConflictInfo, access: Access) -> dict[str, Any]:
    """A conflict as the table's list gives it to ``access`` (the GM: with its version, time
    of change and whether it is shown)."""
    item: dict[str, Any] = {"id": info.id, "ruleset": info.ruleset, "title": info.title,
                            "created": info.created}
    if access.is_gm:
        item.update(version=info.version, updated=info.updated, shown=info.shown)
    return item


async def _standing(server: Server, info: ConflictInfo, access: Access) -> dict[str, Any]:
    """How a listed conflict stands for ``access`` (projection.standing): as last found while
    its stored version is the same (a look at a long campaign's table loads none of its
    conflicts that did not change), else from its room (the store read again only when the
    list saw a newer version); nothing for one that cannot be loaded (gone since)."""
    key = (info.id, access.viewer)
    known = server.standings.get(key)
    if known is not None and known[0] == info.version:
        return known[1]

    def look(r: Room) -> tuple[int, dict[str, Any]]:
        return r.conflict.version, projection.standing(r.conflict, access.viewer)

    try:
        room = await server.hub.room(info.id)
        found: tuple[int, dict[str, Any]] = await server.hub.run(
            room, look, fresh=room.conflict.version < info.version)
    except FracasError:
        return {}
    server.standings.pop(key, None)
    server.standings[key] = found
    while len(server.standings) > MAX_STANDINGS:
        del server.standings[next(iter(server.standings))]
    return found[1]


def _made(server: Server, access: Access, cid: str, conflict: Conflict, shown: bool
          ) -> dict[str, Any]:
    """The answer to a conflict created or imported at the access's table (known to this
    process from now on: its table, and whether it is shown)."""
    server.tables_of[cid] = access.table
    server.hub.screened(cid, shown)
    return {"id": cid, "ruleset": conflict.ruleset.name, "title": conflict.state.title,
            "shown": shown}


def _link_data(token: Any) -> dict[str, Any]:
    return {"id": token.id, "role": token.role, "player": token.player, "label": token.label,
            "created": token.created, "revoked": token.revoked}


async def _create(server: Server, access: Access, scenario: Callable[[], Scenario],
                  seed: str | None, shown: bool) -> dict[str, Any]:
    """Create a conflict of the access's table from ``scenario()`` (every side's harm view
    set: see fracas.engine.harm_view; ``shown`` False: behind the screen)."""
    def make() -> tuple[str, Conflict]:
        try:
            found = scenario()
            found = dataclasses.replace(found, setup=setups.with_harm_views(found.setup))
            return server.service.new_from_scenario(found, seed=seed, campaign=access.table,
                                                    shown=shown)
        except NotFound as exc:  # an unknown ruleset or name in the file: bad input
            raise InvalidInput(exc.message, rule=exc.rule, **exc.values) from None

    cid, conflict = await to_thread.run_sync(make)
    return _made(server, access, cid, conflict, shown)


def _scenario(body: ConflictIn) -> Scenario:
    found = _read_scenario(body)
    return from_the_start(found) if body.fresh else found


def _read_scenario(body: ConflictIn) -> Scenario:
    if (body.scenario is None) == (body.toml is None):
        raise InvalidInput("give either `scenario` (a bundled scenario's name) or `toml` "
                           "(the text of a scenario file)")
    if body.scenario is not None:
        if body.scenario not in bundled_scenarios():
            names = ", ".join(bundled_scenarios())
            raise InvalidInput(f"no bundled scenario {body.scenario!r} (there are: {names})",
                               scenario=body.scenario)
        return load_scenario(body.scenario)
    assert body.toml is not None
    name = _file_name(body.filename)
    try:
        return parse_scenario(body.toml, name)
    except RecursionError:
        raise InvalidInput(f"{name}: nested too deeply") from None


def _file_name(given: str | None) -> str:
    """The name an uploaded file's refusals call it by: its own name as the browser gave it
    (no folder, no control character, at most 100 characters), else ``upload.toml``."""
    name = re.sub(r"[\x00-\x1f\x7f]", "", (given or "").replace("\\", "/").rsplit("/", 1)[-1])
    return name.strip()[:100] or "upload.toml"


async def _execute(server: Server, access: Access, table: str, conflict_id: str,
                   command: str | dict[str, Any], key: str | None, cursor: str | None
                   ) -> Response:
    """Decide and store a command; the answer, encoded in the worker thread (the event loop
    only sends it)."""
    room = await _conflict_room(server, access, table, conflict_id)
    viewer = access.viewer

    def work(r: Room) -> str:
        return dump(decided(r))

    def decided(r: Room) -> dict[str, Any]:
        loaded = r.conflict.version
        try:
            return attempt(r)
        except FracasError:
            # decided on the loaded conflict: if another process appended meanwhile, the
            # refusal may be out of date (a turn passed): decide again on the newest log
            if cursor is not None or \
                    server.service.refresh(conflict_id, r.conflict).version == loaded:
                raise
        return attempt(r)

    def attempt(r: Room) -> dict[str, Any]:
        c, live = r.conflict, r.live(viewer)
        with spans.span("parse"):  # reading a command reads no state: its refusal says
            cmd = c.to_command(command)  # only what the viewer sent and the rules' words
            refusal = projection.masked_refusal(live, cmd)
        if refusal is not None:
            raise refusal
        try:
            # a retry of a command already applied (its answer was lost) is answered as
            # applied: its own record is no change that makes its cursor stale
            retried = key is not None and c.record_with_key(key, viewer) is not None
            for attempt in range(RETRIES):
                if cursor is not None and not retried:
                    check_cursor(r.live(viewer), cmd)
                try:
                    with spans.span("execute (decide, commit, fold)"):
                        out = server.service.execute(conflict_id, cmd, viewer, key=key,
                                                     conflict=c)
                    break
                except StaleVersion:  # another process appended first: look again
                    if attempt == RETRIES - 1:
                        raise
                    server.service.refresh(conflict_id, c)
        except FracasError as exc:
            raise projection.error_for(r.live(viewer), exc, cmd) from None
        r.conflict = out.conflict  # the same object, unless a retried key loaded it anew
        live = r.live(viewer)
        return {"duplicate": out.duplicate, "entry": live.entry_of(out.record.version),
                "view": live.view,
                "cursor": server.hub.cursor(conflict_id, viewer, live.position)}

    def check_cursor(live: projection.Live, cmd: Command) -> None:
        # refused if something the viewer was shown since the cursor may bear on it (not
        # another character's declaration beside theirs: Ruleset.simultaneous)
        assert cursor is not None
        start = projection.position_of(server.hub.cursor_key, conflict_id, viewer, cursor)
        seen, reset = live.after(start)
        if reset or (seen and live.projector.bears_on(start.entries, cmd)):
            raise StaleVersion("the conflict changed since your cursor: someone else acted "
                               "first; look again and retry")

    # decided on the loaded conflict without reading the store first: the append checks
    # the stored version (a cursor is compared with the newest log, so it is read first)
    answer: str = await server.hub.run(room, work, fresh=cursor is not None)
    return Response(answer, media_type="application/json")


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


async def _live(websocket: WebSocket, table: str, conflict_id: str, cursor: str | None
                ) -> None:
    server: Server = websocket.app.state.server
    await websocket.accept()
    try:
        secret, from_cookie = _secret(websocket.headers, websocket.cookies, table)
        if from_cookie and not _same_origin(websocket):
            raise NotAllowed("a cookie is accepted only from this server's own pages")
        access = await to_thread.run_sync(server.tables.authenticate, secret)
        room = await _conflict_room(server, access, table, conflict_id)
        sub, first = await server.hub.subscribe(room, access, cursor)
    except FracasError as exc:
        await _refuse(websocket, exc, close_code_of(exc))
        return
    except StoreFailure as exc:  # the database is out of reach: the client comes back later
        await _refuse(websocket, _store_failed(exc), CLOSE_TRY_AGAIN)
        return
    try:
        await websocket.send_text(first)
        sender = asyncio.create_task(_send(websocket, sub))
        try:
            await _receive(websocket, sub)
        finally:
            sub.close(1000)
            await sender
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        server.hub.unsubscribe(room, sub)


async def _refuse(websocket: WebSocket, error: FracasError, code: int) -> None:
    """Say why in an error frame, then close the socket with ``code``."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(json.dumps({"type": "error", "error": error.to_dict()}))
        await websocket.close(code)


async def _send(websocket: WebSocket, sub: Subscriber) -> None:
    """Write the subscriber's frames in order; close with its code when told to."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            item = await sub.queue.get()
            if item is None:
                await websocket.close(sub.closed or 1000)
                return
            frame, queued = item
            spans.add("frame waits in its queue", time.perf_counter() - queued)
            with spans.span("send one frame"):
                await websocket.send_text(frame)


async def _receive(websocket: WebSocket, sub: Subscriber) -> None:
    """Read the client's messages (only pings are expected), rate-limited."""
    limit = RateLimit()
    while sub.closed is None:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not limit.allow():
            sub.close(RateLimit.CLOSE_CODE)
            return
        reply = dump(_answer(message.get("text")))
        with contextlib.suppress(asyncio.QueueFull):
            sub.queue.put_nowait((reply, time.perf_counter()))


def _answer(text: str | None) -> dict[str, Any]:
    try:
        data = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict) and data.get("type") == "ping":
        return {"type": "pong"}
    error = InvalidInput('the only message a client sends is {"type": "ping"}; '
                         "commands go to POST …/commands")
    return {"type": "error", "error": error.to_dict()}


JOIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fracas: join a table</title>
<meta name="referrer" content="no-referrer"><link rel="icon" href="/static/img/icon.svg"></head>
<body><main><h1>fracas</h1><p id="status">Joining…</p></main>
<script>
const token = location.hash.slice(1);
history.replaceState(null, "", location.pathname);
fetch("/api/session", {method: "POST", headers: {Authorization: "Bearer " + token}})
  .then(r => r.json().then(d => [r.ok, d]))
  .then(([ok, d]) => { document.getElementById("status").textContent = !ok ? d.message
      : d.table ? "You joined table " + d.table + " as " + (d.player || d.role) + "."
      : "You may create tables on this server.";
    if (ok) location.replace(d.table ? "/table/" + encodeURIComponent(d.table) : "/"); });
</script></body></html>
"""
