"""Which members of a group a selector picks: by value, or the highest / lowest few.

Members are given as their values in roll order, ``None`` for a member already dropped (a
dropped member is never picked). Ties go to the earlier member, for the highest and the lowest
alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fracas.dice.nodes import Sel, Value


def predicate(sels: tuple[Sel, ...]) -> Callable[[Value], bool]:
    """A test of one value for selectors that all pick by value."""
    if len(sels) == 1:
        cat, n = sels[0].cat, sels[0].num
        if cat == "":
            return lambda v: v == n
        if cat == "<":
            return lambda v: v < n
        if cat == ">":
            return lambda v: v > n
        if cat == ">=":
            return lambda v: v >= n
        return lambda v: v <= n
    return lambda v: any(s.matches(v) for s in sels)


def select(sels: tuple[Sel, ...], values: Sequence[Value | None]) -> list[int]:
    """The indices of the kept members the selectors pick, in the order they pick them (once)."""
    kept = [i for i, v in enumerate(values) if v is not None]
    key = values.__getitem__
    out: list[int] = []
    seen: set[int] = set()
    for sel in sels:
        if sel.cat == "h":
            picked = sorted(kept, key=key, reverse=True)[: sel.num]  # type: ignore[arg-type]
        elif sel.cat == "l":
            picked = sorted(kept, key=key)[: sel.num]  # type: ignore[arg-type]
        else:
            picked = [i for i in kept if sel.matches(values[i])]  # type: ignore[arg-type]
        for i in picked:
            if i not in seen:
                seen.add(i)
                out.append(i)
    return out


def dropped_few(values: Sequence[Value | None], n: int, lowest: bool) -> list[int]:
    """The indices ``dl n`` (``lowest``) or ``dh n`` drops among the kept members."""
    kept = [i for i, v in enumerate(values) if v is not None]
    ordered = sorted(kept, key=values.__getitem__, reverse=lowest)  # type: ignore[arg-type]
    return ordered[max(0, len(kept) - n) :]
