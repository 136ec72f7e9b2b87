"""What every ``fracas`` command shares: the consoles, the error exit and ``--as``."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import known_players
from fracas.errors import FracasError

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(error: FracasError | str, code: int = 2) -> NoReturn:
    """Print an error on stderr and exit with ``code`` (never a traceback)."""
    err_console.print(f"[bold red]error:[/] {escape(str(error))}")
    raise typer.Exit(code)


def viewer_for(player: str | None) -> Viewer:
    """The viewer of ``--as NAME`` (the GM without it; ``public`` for an onlooker)."""
    return Viewer.gm() if player is None else Viewer.named(player)


def check_viewer(conflict: Conflict, viewer: Viewer) -> None:
    """Warn (on stderr) when ``--as NAME`` names nobody's player in this conflict."""
    if viewer.role != "player" or viewer.player is None:
        return
    if not conflict.state.owned_by(viewer.player):
        players = known_players(conflict, viewer)  # none whose characters are hidden
        err_console.print(
            f"[yellow]warning:[/] nobody in this conflict is played by {viewer.player!r} "
            f"(players: {', '.join(players) or 'none'}); showing what an onlooker sees")
