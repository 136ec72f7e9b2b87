"""``fracas serve``: the HTTP and WebSocket server (uvicorn) for a GM and their players."""

from __future__ import annotations

import errno
import os
import socket
from enum import StrEnum
from typing import Annotated

import typer

from fracas.cli.common import fail, join_link, say
from fracas.cli.conflicts import DbOption
from fracas.errors import FracasError

SQLITE_ONE_PROCESS = (
    "SQLite serves one process only: other processes would not hear of each other's "
    "commands (only PostgreSQL announces them, by LISTEN/NOTIFY); use --workers 1, or "
    "--db postgresql+psycopg://… for several workers")


class Sync(StrEnum):
    """How an SQLite server commits (docs/server.md, "Durability")."""

    full = "full"  # every commit waits for the disk: it survives a power cut
    normal = "normal"  # it survives a crash of the server process, not of the machine


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (a port another server holds, an
    address not of this machine), or None when it can: asked before anything is printed, so
    that no link is shown for a server that never starts."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            probe.bind(address)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (f"port {port} is already in use on {host} (by another `fracas serve`?): "
                    "stop that one, or give another --port")
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535,
                                      help="port to listen on (1 to 65535)")] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=64,
                                         help="server processes (PostgreSQL only)")] = 1,
    db: DbOption = None,
    open_tables: Annotated[bool, typer.Option(
        "--open", help="let anyone who reaches the server create tables (a trusted "
                       "network); by default only this machine or the admin link may")] = False,
    new_admin_secret: Annotated[bool, typer.Option(
        "--new-admin-secret", help="make a new admin link (the old one stops working)")
    ] = False,
    rate_limit: Annotated[str, typer.Option(
        help="RATE/BURST: requests a second per token and the burst allowed, or off (an "
             "address may make 5 times as many)")] = "20/60",
    sync: Annotated[Sync, typer.Option(
        help="SQLite: full (an acknowledged command survives a power cut) or normal (it "
             "survives a crash of the server, not of the machine; no disk wait per "
             "command)")] = Sync.full,
) -> None:
    """Serve the tables over HTTP and WebSocket (API in docs/server.md)."""
    import uvicorn

    from fracas.app.tables import TableService
    from fracas.server.app import ENV_OPEN, ENV_SUPERVISOR, ENV_SYNC
    from fracas.server.limits import ENV_RATE_LIMIT, MAX_WS_MESSAGE, parse_rate_limit
    from fracas.store import default_url, open_store, safe_url

    url = db or default_url()
    refused = cannot_listen(host, port)
    if refused is not None:
        fail(refused)
    if workers > 1 and not url.startswith("postgresql"):
        fail(SQLITE_ONE_PROCESS)
    try:
        parse_rate_limit(rate_limit)
    except FracasError as exc:
        fail(exc.message)
    os.environ["FRACAS_DB"] = url  # the worker processes open the same store
    os.environ[ENV_RATE_LIMIT] = rate_limit
    os.environ[ENV_OPEN] = "1" if open_tables else "0"
    os.environ[ENV_SYNC] = sync.value
    try:  # migrate once here, so the workers find the schema current
        store = open_store(url)
        try:
            admin = TableService(store).new_admin_secret(renew=new_admin_secret)
        finally:
            store.close()
    except Exception as exc:  # an unreachable database or a schema mismatch
        fail(str(exc))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    say(f"fracas serving {safe_url(url)} on http://{host}:{port} "
        f"({workers} process{'es' if workers > 1 else ''})"
        f"; open http://{shown}:{port}/ to start a table in your browser (docs/table.md)",
        markup=False)
    if open_tables:
        say("--open: anyone who reaches this server may create tables", markup=False)
    elif admin is not None:
        say("tables may be created from this machine, or by whoever opens this admin link "
            "(secret, shown once; `--new-admin-secret` makes another): "
            + join_link(f"http://{shown}:{port}", admin), markup=False)
    else:
        say("tables may be created from this machine, or with the admin link printed before "
            "(`--new-admin-secret` makes a new one)", markup=False)
    if workers > 1:  # each worker stops once this process is gone (killed on its own)
        os.environ[ENV_SUPERVISOR] = str(os.getpid())
    try:
        uvicorn.run("fracas.server.app:app_from_env", factory=True, host=host, port=port,
                    workers=workers, ws_max_size=MAX_WS_MESSAGE, server_header=False,
                    log_level=os.environ.get("FRACAS_LOG_LEVEL", "info"))
    finally:  # (only the workers it started are this process's to watch)
        os.environ.pop(ENV_SUPERVISOR, None)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``fracas`` app."""
    app.command("serve")(serve)
