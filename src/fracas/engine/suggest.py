"""'Did you mean …?' for a typo: the closest known word, never a list of them all."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'attack'?"`` for the closest of ``known`` to ``word``, or ``""``
    (``cutoff``: how alike they must be, from 0 to 1)."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""
