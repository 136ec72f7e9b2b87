"""The table ``fracas list`` prints: one line per conflict, whatever the terminal's width.

The id and the title are what a GM finds a conflict by, so they always stay; when the line
is too narrow for every column, the others go in this order: the version, the ruleset, the
time of day of the last play (on this machine's clock; its date stays), that date, the
table. A title too long for what is left ends in "…" (``fracas list --json`` has it whole),
never on a second line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fracas.cli.common import local_time

if TYPE_CHECKING:
    from fracas.app.listing import Listed

#: The columns of each layout, widest first; the first that leaves the title room is used.
LAYOUTS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("id", "table", "ruleset", "version", "played", "title"), False),
    (("id", "table", "ruleset", "played", "title"), False),
    (("id", "table", "played", "title"), False),
    (("id", "table", "played", "title"), True),  # the date of the last play, not its time
    (("id", "table", "title"), True),
    (("id", "title"), True),
)
HEADERS = {"id": "id", "table": "table", "ruleset": "ruleset", "version": "version",
           "played": "last played", "title": "title"}
#: The room a title is given before a column goes (less if no title is that long; more for
#: the mark of a conflict behind the screen).
TITLE_ROOM = 24
#: The widest a table's title is shown (a longer one ends in "…").
TABLE_ROOM = 20
#: Spaces between two columns.
GAP = 2
BEHIND = " (behind the screen)"


def played(updated: str, date_only: bool) -> str:
    """When a conflict was last played, on this machine's clock: ``2026-11-29 17:40`` or
    the date (stored in UTC, as --json says it)."""
    return local_time(updated, "%Y-%m-%d" if date_only else "%Y-%m-%d %H:%M")


def _cells(item: Listed, date_only: bool) -> dict[str, str]:
    info = item.info
    return {"id": info.id, "table": item.where, "ruleset": info.ruleset,
            "version": str(info.version), "played": played(info.updated, date_only),
            "title": info.title + ("" if info.shown else BEHIND)}


def _widths(rows: Sequence[dict[str, str]]) -> dict[str, int]:
    widths = {col: max([cell_len(head), *(cell_len(r[col]) for r in rows)])
              for col, head in HEADERS.items()}
    widths["table"] = min(widths["table"], TABLE_ROOM)
    return widths


def choose_layout(items: Sequence[Listed], width: int, *, one_table: bool
                  ) -> tuple[tuple[str, ...], bool, int]:
    """The columns that fit ``width``, whether the last play is a date only, and the
    title's width (the table is left out of a list of ``one_table``, named by the GM)."""
    # each title is given TITLE_ROOM of its own text, if it is that long, and its mark
    need = max(min(cell_len(i.info.title), TITLE_ROOM) + (0 if i.info.shown else len(BEHIND))
               for i in items)
    for columns, date_only in LAYOUTS:
        cols = tuple(c for c in columns if not (one_table and c == "table"))
        widths = _widths([_cells(i, date_only) for i in items])
        fixed = sum(widths[c] for c in cols if c != "title") + GAP * (len(cols) - 1)
        room = width - fixed
        if room >= max(need, cell_len(HEADERS["title"])) or columns == LAYOUTS[-1][0]:
            return cols, date_only, max(min(room, widths["title"]), 1)
    raise AssertionError("the last layout always fits")  # pragma: no cover


def _title(item: Listed, width: int) -> Text:
    """The title, cut to ``width`` with "…", the behind-the-screen mark kept whole."""
    mark = Text("" if item.info.shown else BEHIND, style="bold")
    text = Text(item.info.title)
    if cell_len(item.info.title) + mark.cell_len > width:
        text.truncate(max(width - mark.cell_len, 1), overflow="ellipsis")
    return text + mark


def print_list(console: Console, items: Sequence[Listed], *, one_table: bool) -> None:
    """The conflicts, one line each, in the columns that fit the console's width."""
    cols, date_only, title_width = choose_layout(items, console.width, one_table=one_table)
    widths = _widths([_cells(i, date_only) for i in items])
    table = Table(box=None, header_style="bold", pad_edge=False, padding=(0, GAP // 2))
    for col in cols:
        table.add_column(HEADERS[col], no_wrap=True, overflow="ellipsis",
                         width=title_width if col == "title" else widths[col],
                         justify="right" if col == "version" else "left")
    for item in items:
        cells = _cells(item, date_only)
        table.add_row(*(_title(item, title_width) if c == "title" else Text(cells[c])
                        for c in cols))
    console.print(table)
