"""What every plain-Python loop of ``bench_engine.py`` shares: the step it plays and its
refusal (``plain_loops.py`` and ``plain_etherscope.py`` both use them)."""

from __future__ import annotations

from typing import Any

#: A command already read: (verb, actor, arguments).
Step = tuple[str, str | None, dict[str, Any]]


class Refused(Exception):
    """A command the plain loop's checks refuse (the bundled scripts have none)."""
