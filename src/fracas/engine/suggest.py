"""'Did you mean …?' for a typo: the closest known word, never a list of them all."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from fracas.errors import InvalidInput


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'attack'?"`` for the closest of ``known`` to ``word``, or ``""``
    (``cutoff``: how alike they must be, from 0 to 1)."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""


def refuse_mistyped_stats(pid: str, stats: Iterable[str], known: Iterable[str], game: str,
                          rule: str | None = None) -> None:
    """Refuse a stat of the GM's own that looks like a mistyped one of the ruleset's
    (``hpp``, ``awarness``, ``strenght``, ``DEX``): kept, it would leave the character
    without the stat it meant. Any other key is the GM's own, read by no rule."""
    read = sorted(known)
    for key in sorted(set(stats) - set(read)):
        hint = did_you_mean(str(key).lower(), read, cutoff=0.8)
        if hint:
            raise InvalidInput(f"{pid}: unknown stat {key!r}{hint} (a stat of your own must "
                               f"not look like one of {game}'s)", rule=rule, participant=pid,
                               key=key)
