"""Words around names in the sentences fracas writes."""

from __future__ import annotations


def possessive(name: str) -> str:
    """``name`` owning what follows: "Ada's"; a name ending in s takes an apostrophe alone
    ("The party guests'", "Boris'"), but one ending in ss, a singular noun, takes 's ("The
    Novgorod boss's", "The young countess's")."""
    ending = name[-2:].lower()
    return f"{name}'" if ending.endswith("s") and ending != "ss" else f"{name}'s"


def listed(names: list[str], last: str = "and") -> str:
    """Names in a sentence: "Ada", "Ada and Bruno", "Ada, Bruno and Cid" (``last``: "or");
    "" for none."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


__all__ = ["listed", "possessive"]
