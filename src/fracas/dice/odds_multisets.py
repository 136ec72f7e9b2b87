"""Operations of the exact odds on sorted multisets of kept values, and what they pick.

When an operation needs more than each die alone (keeping the highest after a reroll, chains
such as ``4d6kh3kl1``), the exact odds follow the sorted tuple of the values still kept; these
helpers say what each operation picks from such a tuple, with the roller's tie rules.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from fracas.dice.nodes import Op, Sel, Value


def picks(sels: tuple[Sel, ...], value: Value) -> bool:
    """Whether any of the selectors picks ``value``."""
    return any(s.matches(value) for s in sels)


def merge(a: tuple[Value, ...], b: tuple[Value, ...]) -> tuple[Value, ...]:
    """The sorted union of two sorted multisets."""
    return tuple(sorted(a + b))


def cut_for(op: Op) -> Callable[[tuple[Value, ...]], tuple[Value, ...]]:
    """When the next operation keeps the few highest (lowest), only those need tracking."""
    if op.kind == "k" and len(op.sels) == 1 and op.sels[0].cat in ("h", "l"):
        n = op.sels[0].num
        if op.sels[0].cat == "h":
            return lambda t: t[-n:] if n else ()
        return lambda t: t[:n]
    return lambda t: t


def counter(sels: tuple[Sel, ...]) -> Callable[[tuple[Value, ...]], int]:
    """The number of values of a multiset the selectors pick (successes)."""
    return lambda t: sum(1 for v in t if picks(sels, v))


def tuple_value(t: Any) -> Any:
    """A multiset's total (a number stays itself)."""
    return t if isinstance(t, int | Fraction) else sum(t)


def multiset_picks(sels: tuple[Sel, ...], t: tuple[Value, ...]) -> set[int]:
    """Indices of a sorted multiset that the selectors pick.

    The roller breaks ties by roll order, the earlier die first, for the highest and the
    lowest alike; so when both reach into one run of equal values they pick the same dice,
    whatever their order: here the first indices of the run stand for the earliest dice.
    """
    out: set[int] = set()
    n = len(t)
    for sel in sels:
        if sel.cat in ("h", "l"):
            left = min(sel.num, n)
            i = n - 1 if sel.cat == "h" else 0
            while left > 0:
                v = t[i]
                start = t.index(v)
                run = t.count(v)
                take = min(left, run)
                out.update(range(start, start + take))
                left -= take
                i = start - 1 if sel.cat == "h" else start + run
        else:
            out.update(i for i, v in enumerate(t) if sel.matches(v))
    return out


def per_die(op: Op) -> bool:
    """Whether an operation acts on each die alone (so the dice stay independent)."""
    if op.kind in ("mi", "ma", "c"):
        return True
    if op.kind in ("k", "p", "rr", "ro", "e"):
        return all(s.by_value for s in op.sels)
    return False


def single_keep(op: Op) -> bool:
    """Whether an operation keeps or drops one run of the highest or lowest few."""
    return op.kind in ("dh", "dl") or (
        op.kind in ("k", "p") and len(op.sels) == 1 and not op.sels[0].by_value)


def kept_places(op: Op, low: int, high: int) -> tuple[int, int]:
    """The sorted places ``low .. high-1`` (ascending) a single keep or drop leaves of those."""
    m = op.sels[0].num
    highest = op.sels[0].cat == "h" if op.kind in ("k", "p") else op.kind == "dh"
    if op.kind == "k":
        return (max(low, high - m), high) if highest else (low, min(high, low + m))
    return (low, max(low, high - m)) if highest else (min(high, low + m), high)


def keep_of(op: Op, n: int) -> tuple[int, bool]:
    """(how many are kept, whether the highest) for a single keep or drop of ``n`` members."""
    m = op.sels[0].num
    if op.kind == "dh":
        return max(0, n - m), False
    if op.kind == "dl":
        return max(0, n - m), True
    high = op.sels[0].cat == "h"
    if op.kind == "k":
        return min(m, n), high
    return max(0, n - m), not high
