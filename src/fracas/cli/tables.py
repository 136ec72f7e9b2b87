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

from fracas.cli.common import (
    GM_LINK_SAID,
    console,
    fail,
    join_link,
    local_time,
    print_link,
    say,
)
from fracas.cli.conflicts import DbOption, _guard

if TYPE_CHECKING:  # the store is imported when a command runs (see fracas.cli.main)
    from fracas.app.tables import TableService

table_app = typer.Typer(help="Tables of `fracas serve`: create one, invite players (or the "
                             "GM on another device), revoke links.", no_args_is_help=True)

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


@table_app.command("new")
def new_table(
    title: Annotated[str, typer.Argument(help="the table's name")],
    campaign: Annotated[str | None, typer.Option(
        "--campaign", help="make this campaign a table, keeping its id and conflicts (they "
        "were stored with --campaign C where no table had that id)")] = None,
    url: UrlOption = DEFAULT_URL,
    db: DbOption = None,
) -> None:
    """Create a table; prints its id and the GM's link (keep it secret)."""
    with _tables(db) as tables:
        table_id, gm = tables.create_table(title, campaign)
    called = escape(title.strip())
    say(f"campaign {table_id} is now a table ({called})" if campaign is not None
        else f"created table {table_id} ({called})")
    say(GM_LINK_SAID)
    console.print(table_id)
    print_link(join_link(url, gm.secret))


@table_app.command("invite")
def invite(
    table: Annotated[str, typer.Argument(help="the table's id")],
    player: Annotated[str | None, typer.Argument(
        help="the player's name, as their characters' `player` field has it")] = None,
    public: Annotated[bool, typer.Option("--public", help="a read-only link for "
                                                          "onlookers")] = False,
    gm: Annotated[bool, typer.Option("--gm", help="a new GM link (one lost, or for another "
                                                  "device of the GM's)")] = False,
    label: Annotated[str | None, typer.Option(
        "--label", help="a name for the link in the list of links (default: the player's "
                        "name, 'public' or 'GM')")] = None,
    url: UrlOption = DEFAULT_URL,
    db: DbOption = None,
) -> None:
    """Print a new link: for PLAYER (who then acts for their characters), --public or --gm."""
    role = _role(player, public, gm)
    with _tables(db) as tables:
        issued = tables.invite(tables.as_owner(table), role,
                               player if role == "player" else None, label or "")
    if role == "gm":
        say(f"GM link {issued.info.id} ({escape(issued.info.label)}): keep it secret, it "
            "opens the table as its GM (shown once):")
    else:
        who = "the public" if role == "public" else escape(str(player))
        say(f"link {issued.info.id} for {who} (shown once):")
    print_link(join_link(url, issued.secret))


def _role(player: str | None, public: bool, gm: bool) -> str:
    """The role of the link ``fracas table invite`` was asked for (a sentence, and nothing
    made, for none or for more than one)."""
    asked = [what for what, given in (("a player's name", player is not None),
                                      ("--public", public), ("--gm", gm)) if given]
    if not asked:
        fail("a link is for a player, the public or the GM: give the player's name (fracas "
             "table invite TABLE alice), --public for a read-only link, or --gm for a GM link")
    if len(asked) > 1:
        fail(f"a link is for one of a player, the public or the GM: give only one of "
             f"{' and '.join(asked)}")
    return "gm" if gm else "public" if public else "player"


@table_app.command("links")
def links(
    table: Annotated[str, typer.Argument(help="the table's id")],
    db: DbOption = None,
) -> None:
    """List a table's links (never their secrets)."""
    with _tables(db) as tables:
        tokens = tables.links(tables.as_owner(table))
    out = RichTable(box=None, header_style="bold", pad_edge=False)
    for col in ("id", "role", "player", "label", "created", "revoked"):
        out.add_column(col)
    for t in tokens:
        out.add_row(t.id, t.role, t.player or "", escape(t.label),
                    local_time(t.created), local_time(t.revoked) if t.revoked else "")
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
