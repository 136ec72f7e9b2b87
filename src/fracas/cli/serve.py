"""``fracas serve``: the HTTP and WebSocket server (uvicorn) for a GM and their players."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from fracas.cli.common import err_console, fail
from fracas.cli.conflicts import DbOption
from fracas.store import default_url, safe_url

SQLITE_ONE_PROCESS = (
    "SQLite serves one process only: other processes would not hear of each other's "
    "commands (only PostgreSQL announces them, by LISTEN/NOTIFY); use --workers 1, or "
    "--db postgresql+psycopg://… for several workers")


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=64,
                                         help="server processes (PostgreSQL only)")] = 1,
    db: DbOption = None,
) -> None:
    """Serve the tables over HTTP and WebSocket (API in docs/server.md)."""
    import uvicorn

    from fracas.server.limits import MAX_WS_MESSAGE

    url = db or default_url()
    if workers > 1 and not url.startswith("postgresql"):
        fail(SQLITE_ONE_PROCESS)
    os.environ["FRACAS_DB"] = url  # the worker processes open the same store
    from fracas.store import open_store

    try:  # migrate once here, so the workers find the schema current
        open_store(url).close()
    except Exception as exc:  # an unreachable database or a schema mismatch
        fail(str(exc))
    err_console.print(f"fracas serving {safe_url(url)} on http://{host}:{port} "
                      f"({workers} process{'es' if workers > 1 else ''})"
                      f"; open http://{host}:{port}/ to start a table in your browser "
                      "(docs/table.md)")
    uvicorn.run("fracas.server.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, ws_max_size=MAX_WS_MESSAGE, server_header=False,
                log_level=os.environ.get("FRACAS_LOG_LEVEL", "info"))


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the ``fracas`` app."""
    app.command("serve")(serve)
