"""What every ``fracas`` command shares: the consoles, the error exit and ``--as``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from fracas.errors import FracasError, NotAllowed

if TYPE_CHECKING:  # imported when a command needs them (a quick start: see fracas.cli.main)
    from fracas.engine.conflict import Conflict
    from fracas.engine.model import Viewer

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)
#: Said before a GM's new link is printed (on a line of its own, never broken).
GM_LINK_SAID = "the GM's link (keep it secret; it is shown once):"


def join_link(url: str, secret: str) -> str:
    """The link that opens a table at ``url`` (the address of ``fracas serve``)."""
    return f"{url.rstrip('/')}/join#{secret}"


def print_link(link: str) -> None:
    """A secret link on stdout, whole on one line however narrow the terminal: a link
    broken in two would be copied as two lines, and open nothing."""
    console.print(link, soft_wrap=True, markup=False)


def say(sentence: str, *, markup: bool = True) -> None:
    """One line on stderr (Rich markup unless ``markup`` is False: a line holding an address
    such as ``http://[::1]:8000``), as long as it is: the terminal folds it, never in a
    word's middle, and a copy of it comes back whole (Rich would break it at 80 columns)."""
    err_console.print(sentence, soft_wrap=True, markup=markup)


def fail(error: FracasError | str, code: int = 2) -> NoReturn:
    """Print an error on stderr and exit with ``code`` (never a traceback); an unknown
    command's says where the commands are listed."""
    said = str(error)
    if isinstance(error, FracasError) and error.values.get("unknown_verb"):
        said = with_advice(said, "the ruleset's guide in docs/ lists the commands")
    err_console.print(f"[bold red]error:[/] {escape(said)}")
    raise typer.Exit(code)


def with_advice(refusal: str, advice: str) -> str:
    """A refusal and a door's advice as one text: after a question ("did you mean
    'hit'?") the advice is a sentence of its own, else a semicolon joins it (never "?;")."""
    if refusal.endswith("?"):
        return f"{refusal} {advice[:1].upper()}{advice[1:]}"
    return f"{refusal}; {advice}"


def viewer_for(player: str | None) -> Viewer:
    """The viewer of ``--as NAME`` (the GM without it; ``public`` for an onlooker)."""
    from fracas.engine.model import Viewer

    return Viewer.gm() if player is None else Viewer.named(player)


def check_actor(conflict: Conflict, viewer: Viewer) -> None:
    """Refuse a command given ``--as NAME`` when NAME plays no character here: the command
    could only be refused, and for that reason, not for the one it would meet."""
    if viewer.role == "player" and viewer.player is not None \
            and not conflict.state.owned_by(viewer.player):
        raise NotAllowed(f"nobody in this conflict is played by {viewer.player!r}"
                         f"{_lower_case(viewer.player)}: --as takes the player field of a "
                         "character you play")


def _lower_case(player: str) -> str:
    """The hint for a player's name given with capitals (names are lower-case)."""
    return " (a player's name is lower-case)" if player != player.lower() else ""


def check_viewer(conflict: Conflict, viewer: Viewer) -> None:
    """Warn (on stderr) when ``--as NAME`` names nobody's player in this conflict; the same
    sentence in every command, and never a list of the players (some may play characters
    hidden from whoever typed the name)."""
    if viewer.role != "player" or viewer.player is None:
        return
    if not conflict.state.owned_by(viewer.player):
        err_console.print(
            "[yellow]warning:[/] nobody in this conflict is played by "
            f"{escape(repr(viewer.player))}{_lower_case(viewer.player)}; showing what an "
            "onlooker sees")


def local_time(stamp: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A stored time (ISO, in UTC) on this machine's clock (its time zone, or ``TZ``'s), as
    a GM reads the time; one that is not a time said as it is."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:  # none is stored so
        return stamp.replace("T", " ")
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone().strftime(fmt)
