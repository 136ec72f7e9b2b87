"""What every plain-Python loop of ``bench_engine.py`` shares: the step it plays, the seed of
its dice and its refusal (``plain_loops.py`` and ``plain_etherscope.py`` both use them)."""

from __future__ import annotations

from typing import Any

#: A command already read: (verb, actor, arguments).
Step = tuple[str, str | None, dict[str, Any]]
#: The seed ``bench_engine`` creates its conflicts with: the dice the engine rolls for a
#: command come from ``DiceRng.derive(SEED, version)``.
SEED = "bench"


class Refused(Exception):
    """A command the plain loop's checks refuse (the bundled scripts have none)."""
