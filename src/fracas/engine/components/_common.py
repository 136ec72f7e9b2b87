"""Small helpers shared by the generic components (private)."""

from __future__ import annotations

from collections.abc import Mapping

from fracas.engine.words import listed

Names = Mapping[str, str] | None
"""Optional display names for participant ids, used only in error messages."""


def label(names: Names, actor: str) -> str:
    """The display name of ``actor``: its entry in ``names``, else the id itself."""
    if names is not None and actor in names:
        return names[actor]
    return actor


def pair_key(a: str, b: str) -> str:
    """The key of an unordered pair: the two ids sorted and joined by ``|``."""
    first, second = sorted((a, b))
    return f"{first}|{second}"


def split_key(key: str) -> tuple[str, str]:
    """The two ids of a pair key made by :func:`pair_key`."""
    first, _, second = key.partition("|")
    return first, second


def join_numbers(values: list[int]) -> str:
    """``[7, 4, 1]`` → ``"7, 4 and 1"``."""
    return listed([str(v) for v in values])
