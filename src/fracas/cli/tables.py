"""``fracas table``: make a table for ``fracas serve`` and manage its links from the terminal.

Whoever can open the database is its owner (as with ``fracas do``): these commands act as the
GM of any table in it. A link's secret is printed once and never stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table as RichTable

from fracas.cli.common import console, err_console, fail
from fracas.cli.conflicts import DbOption, _guard

if TYPE_CHECKING:  # the store is imported when a command runs (see fracas.cli.main)
    from fracas.app.tables import Issued, TableService

table_app = typer.Typer(help="Tables of `fracas serve`: create one, invite players, revoke "
                             "links.", no_args_is_help=True)

UrlOption = Annotated[str, typer.Option(
    "--url", help="the address players open (where `fracas serve` listens)")]
DEFAULT_URL = "http://127.0.0.1:8000"


@contextmanager
def _tables(db: str | None) -> Iterator[TableService]:
    """The tables of the database at ``db``, with fracas's errors as sentences."""
    from fracas.app.tables import TableService
    from fracas.store import open_store

    with _guard():
        store = open_store(db)
        try:
            yield TableService(store)
        finally:
            store.close()


def _link(url: str, issued: Issued) -> str:
    return f"{url.rstrip('/')}/join#{issued.secret}"


@table_app.command("new")
def new_table(
    title: Annotated[str, typer.Argument(help="the table's name")],
    url: UrlOption = DEFAULT_URL,
    db: DbOption = None,
) -> None:
    """Create a table; prints its id and the GM's link (keep it secret)."""
    with _tables(db) as tables:
        table_id, gm = tables.create_table(title)
    err_console.print(f"created table {table_id} ({escape(title)}); the GM's link (secret, "
                      "shown once):")
    console.print(table_id)
    console.print(_link(url, gm))


@table_app.command("invite")
def invite(
    table: Annotated[str, typer.Argument(help="the table's id")],
    player: Annotated[str | None, typer.Argument(
        help="the player's name, as their characters' `player` field has it")] = None,
    public: Annotated[bool, typer.Option("--public", help="a read-only link for "
                                                          "onlookers")] = False,
    url: UrlOption = DEFAULT_URL,
    db: DbOption = None,
) -> None:
    """Print a new link: for PLAYER (who then acts for their characters) or --public."""
    if player is None and not public:
        fail("a link is for a player or the public: give the player's name (fracas table "
             "invite TABLE alice), or --public for a read-only link")
    with _tables(db) as tables:
        issued = tables.invite(tables.as_owner(table), "public" if public else "player",
                               None if public else player)
    who = "the public" if public else player
    err_console.print(f"link {issued.info.id} for {who} (shown once):")
    console.print(_link(url, issued))


@table_app.command("links")
def links(
    table: Annotated[str, typer.Argument(help="the table's id")],
    db: DbOption = None,
) -> None:
    """List a table's links (never their secrets)."""
    with _tables(db) as tables:
        tokens = tables.links(tables.as_owner(table))
    out = RichTable(box=None, header_style="bold", pad_edge=False)
    for col in ("id", "role", "player", "created", "revoked"):
        out.add_column(col)
    for t in tokens:
        out.add_row(t.id, t.role, t.player or "", t.created[:19].replace("T", " "),
                    (t.revoked or "")[:19].replace("T", " "))
    console.print(out)


@table_app.command("revoke")
def revoke(
    table: Annotated[str, typer.Argument(help="the table's id")],
    link: Annotated[str, typer.Argument(help="the link's id (from `fracas table links`)")],
    db: DbOption = None,
) -> None:
    """Revoke a link: it opens nothing from now on, and its open sockets close."""
    with _tables(db) as tables:
        access = tables.as_owner(table)
        before = next((t for t in tables.links(access) if t.id == link), None)
        token = tables.revoke(access, link)
    who = f"{token.role} {token.player or ''}".rstrip()
    if before is not None and before.revoked is not None:
        console.print(f"{token.id} ({who}) was already revoked, at {before.revoked}")
    else:
        console.print(f"revoked {token.id} ({who})")


def register(app: typer.Typer) -> None:
    """Add ``table`` to the ``fracas`` app."""
    app.add_typer(table_app, name="table")
