"""What a viewer reads: the sentences of the log as ``fracas run``/``show`` prints them."""

from __future__ import annotations

from fracas.cli.render import log_lines
from fracas.engine import Conflict, Viewer


def sentences(conflict: Conflict, viewer: Viewer | None = None) -> list[str]:
    """Every event sentence of ``viewer``'s log (the GM's by default), oldest first."""
    lines = log_lines(conflict, viewer or Viewer.gm())
    return [s for _version, _label, _command, said in lines for s in said]


def last_sentences(conflict: Conflict, viewer: Viewer | None = None) -> list[str]:
    """The sentences of the newest entry of ``viewer``'s log."""
    lines = log_lines(conflict, viewer or Viewer.gm())
    return list(lines[-1][3]) if lines else []
