"""Lean roll plans: the total and the kept dice, with no object per die.

A group's members are a list of values in roll order, ``None`` once a member is dropped. The
sink of these plans collects the value of every kept die of every dice group, in roll order
(``Roll.kept``). The breakdown of each die (rerolled faces, explosions, successes) is not
built here: :mod:`fracas.dice.plan_breakdown` rebuilds it from the faces when it is asked for.
Both families draw the same dice in the same order (``tests/dice/test_plans.py``).

A by-value selector of a dice group is precompiled to the set of values it picks (a die only
shows its faces, or the number of a ``mi``/``ma``), so each test is one set lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from fracas.dice.bounds import pool_target
from fracas.dice.nodes import MAX_EXPLOSIONS, Dice, Group, Node, Op, Sel, SetOf, Value
from fracas.dice.plan import Plan, Source, compile_plan, top_offset
from fracas.dice.selection import dropped_few, select

Members = list[Value | None]
#: One operation over a group's members, in place (new dice are appended).
Step = Callable[[Members, Source, list[int]], None]


def compile_totals(node: Node) -> Plan:
    """The lean plan of a syntax tree."""
    return compile_plan(node, _group)


def compile_roll(node: Node) -> tuple[Plan, Fraction | None]:
    """The lean plan of a whole expression and the constant with a fraction it adds at the
    top (None: no such term; see :func:`fracas.dice.plan.top_offset`)."""
    rest, offset = top_offset(node)
    return compile_plan(rest, _group), offset


class _Matches:
    """The values by-value selectors pick, for set members (any number, decimals too)."""

    __slots__ = ("sels",)

    def __init__(self, sels: tuple[Sel, ...]) -> None:
        self.sels = sels

    def __contains__(self, value: object) -> bool:
        return value is not None and any(s.matches(value) for s in self.sels)  # type: ignore[arg-type]

    def isdisjoint(self, values: Iterable[Value | None]) -> bool:
        """Whether no value is picked."""
        return not any(v in self for v in values)


#: What by-value selectors pick (``None``, a dropped member, never).
Hits = frozenset[Value] | _Matches


def _hits(sels: tuple[Sel, ...], span: range | None) -> Hits:
    """What by-value selectors pick: a set of the values of ``span`` (None: any value)."""
    if span is None:
        return _Matches(sels)
    return frozenset(v for v in span if any(s.matches(v) for s in sels))


def _group(node: Dice | SetOf | Group) -> Plan:
    if isinstance(node, Dice):
        return _dice(node, node.ops)
    target, ops = pool_target(node)
    if isinstance(target, Dice):
        return _dice(target, target.ops + ops)
    items = [compile_totals(i) for i in target]
    finish = _finish(ops, None)
    if len(ops) == 1 and _rank_slice(ops[0], len(items)) is not None:
        return _ranked_set(items, ops[0])
    steps = [_step(op, 0, None) for op in ops if op.kind != "c"]  # a count is the finish
    if len(steps) == 1 and finish is _total:
        step = steps[0]

        def set_one_op(src: Source, out: list[int], kept: list[Any]) -> Value:
            members: Members = [item(src, out, kept) for item in items]
            step(members, src, out)
            return _total(members)

        return set_one_op

    def set_plan(src: Source, out: list[int], kept: list[Any]) -> Value:
        members: Members = [item(src, out, kept) for item in items]
        for step in steps:
            step(members, src, out)
        return finish(members)

    return set_plan


def _rank_slice(op: Op, count: int) -> tuple[int, int, bool] | None:
    """What a single keep or drop of the highest or lowest few leaves of ``count`` members: the
    places ``start .. end-1`` of their order from the highest (``True``, ties: the earlier
    member first) or from the lowest (``False``); None for any other operation. As the steps
    below (and plan_breakdown) pick: ``kh``/``ph`` count from the highest, ``dl`` keeps all but
    the last places from the highest, ``dh`` all but the last from the lowest."""
    kind, sels = op.kind, op.sels
    n = sels[0].num
    if kind in ("dh", "dl"):
        return 0, max(0, count - n), kind == "dl"
    if kind not in ("k", "p") or len(sels) != 1 or sels[0].by_value:
        return None
    n = min(n, count)
    return (0, n, sels[0].cat == "h") if kind == "k" else (n, count, sels[0].cat == "h")


def _ranked_set(items: list[Plan], op: Op) -> Plan:
    """A set with one keep or drop of its highest or lowest few: the sum of those members
    (which of two equal members is kept does not change it)."""
    start, end, highest = _rank_slice(op, len(items))  # type: ignore[misc]
    pick = max if highest else min
    if (start, end) == (0, 1) and len(items) == 2:
        first, second = items

        def better_of_two(src: Source, out: list[int], kept: list[Any]) -> Value:
            return pick(first(src, out, kept), second(src, out, kept))

        return better_of_two
    if (start, end) == (0, 1):

        def best_member(src: Source, out: list[int], kept: list[Any]) -> Value:
            return pick([item(src, out, kept) for item in items])

        return best_member

    def ranked_members(src: Source, out: list[int], kept: list[Any]) -> Value:
        values = [item(src, out, kept) for item in items]
        values.sort(reverse=highest)
        return sum(values[start:end])

    return ranked_members


def _ranked_dice(count: int, sides: int, op: Op, finish: Callable[[Members], Value]
                 ) -> Plan | None:
    """``count`` fresh dice with one keep or drop of their highest or lowest few, when that
    keeps one die or drops one (``2d20kh1``, ``4d6kh3``, ``4d6dl1``), with the tie rules of
    :func:`_rank_slice`; None otherwise."""
    start, end, highest = _rank_slice(op, count)  # type: ignore[misc]
    whole = finish is _total
    if (start, end) == (0, 1) and count > 1:  # the first of the highest (lowest) dice
        pick = max if highest else min

        def keep_one(src: Source, out: list[int], kept: list[Any]) -> Value:
            faces = src.dice(count, sides)
            out += faces
            face = pick(faces)
            kept.append(face)
            return face if whole else finish([face])

        return keep_one
    if end - start != count - 1 or count < 2:
        return None
    # one die dropped: the last of the order (the latest of the lowest, from the highest) when
    # the kept places start at 0, else the first (the earliest of the highest)
    pick = min if highest == (start == 0) else max
    latest = start == 0

    def drop_one(src: Source, out: list[int], kept: list[Any]) -> Value:
        faces = src.dice(count, sides)
        out += faces
        face = pick(faces)
        if latest:
            del faces[count - 1 - faces[::-1].index(face)]
        else:
            faces.remove(face)
        kept += faces
        return sum(faces) if whole else finish(faces)  # type: ignore[arg-type]

    return drop_one


def _total(members: Members) -> Value:
    return sum([v for v in members if v is not None])


def _finish(ops: tuple[Op, ...], top: range | None) -> Callable[[Members], Value]:
    """The group's value from its members: their sum, or the successes of a final count."""
    if ops and ops[-1].kind == "c":
        hits = _hits(ops[-1].sels, top)
        return lambda members: len([v for v in members if v is not None and v in hits])
    return _total


def _dice(node: Dice, ops: tuple[Op, ...]) -> Plan:
    count, sides = node.count, node.sides
    clamps = [s.num for op in ops if op.kind in ("mi", "ma") for s in op.sels]
    top: range | None = range(min([1, *clamps]), max([sides, *clamps]) + 1)  # what a die shows
    chain_at = ops[0].sels[0].num if ops and ops[0].kind == "!" else None
    if chain_at is not None:
        ops = ops[1:]
        top = None  # chain sums: any value
    counted = ops[-1] if ops and ops[-1].kind == "c" else None
    if counted is not None:
        ops = ops[:-1]
    finish = _finish((counted,) if counted is not None else (), top)
    if chain_at is None:
        fast = _one_step(count, sides, ops, finish, top, counted)
        if fast is not None:
            return fast
    steps = [_step(op, sides, top) for op in ops]
    whole = finish is _total

    def dice_plan(src: Source, out: list[int], kept: list[Any]) -> Value:
        if chain_at is None:
            faces = src.dice(count, sides)
            out += faces
            members: Members = faces  # type: ignore[assignment]  # faces only grow
        else:
            members = _chains(src, out, count, sides, chain_at)
        for step in steps:
            step(members, src, out)
        values = [v for v in members if v is not None]
        kept += values
        return sum(values) if whole else finish(values)  # type: ignore[arg-type]

    return dice_plan


def _chains(src: Source, out: list[int], count: int, sides: int, at: int) -> Members:
    """``count`` dice exploding as whole chains (``!``): each member is its chain's sum."""
    die = src.die
    members: Members = []
    for _ in range(count):
        face = total = die(sides)
        out.append(face)
        length = 1
        while face >= at and length <= MAX_EXPLOSIONS:
            face = die(sides)
            out.append(face)
            total += face
            length += 1
        members.append(total)
    return members


def _one_step(count: int, sides: int, ops: tuple[Op, ...], finish: Callable[[Members], Value],
              top: range | None, counted: Op | None) -> Plan | None:
    """The plan of a group with at most one operation besides a count, in one closure; None
    for any other group."""
    if not ops:
        if finish is _total and count == 1:

            def one_die(src: Source, out: list[int], kept: list[Any]) -> Value:
                face = src.die(sides)
                out.append(face)
                kept.append(face)
                return face

            return one_die
        if finish is _total:

            def plain(src: Source, out: list[int], kept: list[Any]) -> Value:
                faces = src.dice(count, sides)
                out += faces
                kept += faces
                return sum(faces)

            return plain

        assert counted is not None
        successes = _hits(counted.sels, top)

        def count_only(src: Source, out: list[int], kept: list[Any]) -> Value:
            faces = src.dice(count, sides)
            out += faces
            kept += faces
            return len([v for v in faces if v in successes])

        return count_only
    if len(ops) > 1:
        return None
    op = ops[0]
    if count == 1 and finish is _total:
        single = _single_die(op, sides, top)
        if single is not None:
            return single
    whole = finish is _total
    if _rank_slice(op, count) is not None:
        ranked = _ranked_dice(count, sides, op, finish)
        if ranked is not None:
            return ranked
    if op.kind in ("k", "p") and all(s.by_value for s in op.sels):
        hits = _hits(op.sels, top)
        keeping = op.kind == "k"

        def filtered(src: Source, out: list[int], kept: list[Any]) -> Value:
            faces = src.dice(count, sides)
            out += faces
            if keeping:
                values = [v for v in faces if v in hits]
            else:
                values = faces if hits.isdisjoint(faces) else [v for v in faces if v not in hits]
            kept += values
            return sum(values) if whole else finish(values)  # type: ignore[arg-type]

        return filtered
    if op.kind in ("mi", "ma"):
        n, low = op.sels[0].num, op.kind == "mi"

        def clamped_all(src: Source, out: list[int], kept: list[Any]) -> Value:
            faces = src.dice(count, sides)
            out += faces
            if low:
                values = [v if v >= n else n for v in faces]
            else:
                values = [v if v <= n else n for v in faces]
            kept += values
            return sum(values) if whole else finish(values)  # type: ignore[arg-type]

        return clamped_all
    step = _step(op, sides, top)
    drops = op.kind in ("k", "p", "dh", "dl")

    def one_op(src: Source, out: list[int], kept: list[Any]) -> Value:
        members: Members = src.dice(count, sides)  # type: ignore[assignment]
        out += members  # type: ignore[arg-type]  # before the step adds its own dice
        step(members, src, out)
        if drops:
            members = [v for v in members if v is not None]
        kept += members
        return sum(members) if whole else finish(members)  # type: ignore[arg-type]

    return one_op


def _single_die(op: Op, sides: int, top: range | None) -> Plan | None:
    """The plan of one die with a clamp or a reroll by value (``1d20mi10``, ``1d20ro1``,
    ``1d20rr1``, ``1d6ra6``), with no list of members; None for other operations."""
    kind = op.kind
    if kind in ("mi", "ma"):
        n, low = op.sels[0].num, kind == "mi"

        def clamped(src: Source, out: list[int], kept: list[Any]) -> Value:
            face = src.die(sides)
            out.append(face)
            v = n if (face < n if low else face > n) else face
            kept.append(v)
            return v

        return clamped
    if kind not in ("ro", "rr", "ra") or not all(s.by_value for s in op.sels):
        return None
    hits = _hits(op.sels, top)
    if kind == "ra":

        def added(src: Source, out: list[int], kept: list[Any]) -> Value:
            face = src.die(sides)
            out.append(face)
            kept.append(face)
            if face not in hits:
                return face
            extra = src.die(sides)
            out.append(extra)
            kept.append(extra)
            return face + extra

        return added
    until = kind == "rr"

    def rerolled(src: Source, out: list[int], kept: list[Any]) -> Value:
        face = src.die(sides)
        out.append(face)
        if face in hits:
            face = src.die(sides)
            out.append(face)
            while until and face in hits:
                face = src.die(sides)
                out.append(face)
        kept.append(face)
        return face

    return rerolled


def _step(op: Op, sides: int, top: range | None) -> Step:
    """One operation over a group's members (as the operations of plan_breakdown)."""
    kind, sels = op.kind, op.sels
    if kind in ("dh", "dl"):
        n, lowest = sels[0].num, kind == "dl"

        def drop_few(members: Members, src: Source, out: list[int]) -> None:
            for i in dropped_few(members, n, lowest):
                members[i] = None

        return drop_few
    if kind in ("mi", "ma"):
        return _clamp_step(sels[0].num, kind == "mi")
    if not all(s.by_value for s in sels):
        return _ranked_step(kind, sels, sides)
    hits = _hits(sels, top)
    if kind == "k":

        def keep(members: Members, src: Source, out: list[int]) -> None:
            members[:] = [v if v in hits else None for v in members]  # None is never a hit

        return keep
    if kind == "p":

        def drop(members: Members, src: Source, out: list[int]) -> None:
            members[:] = [None if v in hits else v for v in members]

        return drop
    if kind == "e":
        return _explode_step(sides, hits)
    assert kind in ("rr", "ro", "ra"), kind  # a count ("c") is a group's finish, not a step
    return _reroll_step(kind, sides, hits)


def _clamp_step(n: int, low: bool) -> Step:
    def clamp(members: Members, src: Source, out: list[int]) -> None:
        if low:
            members[:] = [n if v is not None and v < n else v for v in members]
        else:
            members[:] = [n if v is not None and v > n else v for v in members]

    return clamp


def _ranked_step(kind: str, sels: tuple[Sel, ...], sides: int) -> Step:
    """``k``, ``p``, ``ro`` or ``ra`` with a selector of the highest or lowest few."""
    if kind in ("k", "p") and not any(s.by_value for s in sels):
        return _keep_or_drop_few(sels, kind == "k")

    def ranked(members: Members, src: Source, out: list[int]) -> None:
        picked = select(sels, members)
        if kind == "k":
            chosen = set(picked)
            for i in range(len(members)):
                if i not in chosen:
                    members[i] = None
        elif kind == "p":
            for i in picked:
                members[i] = None
        elif kind == "ro":
            for i in picked:
                face = src.die(sides)
                out.append(face)
                members[i] = face
        elif picked:  # "ra"
            face = src.die(sides)
            out.append(face)
            members.append(face)

    return ranked


def _keep_or_drop_few(sels: tuple[Sel, ...], keeping: bool) -> Step:
    """``k`` or ``p`` of the highest and lowest few (``kh3``, ``kh3kl1``): the members each
    selector picks from at most one sort each way (ties: the earlier member first)."""
    if len(sels) == 1:
        n, highest = sels[0].num, sels[0].cat == "h"

        def keep_or_drop_one_few(members: Members, src: Source, out: list[int]) -> None:
            order = [i for i, v in enumerate(members) if v is not None]
            order.sort(key=members.__getitem__, reverse=highest)  # type: ignore[arg-type]
            for i in order[n:] if keeping else order[:n]:
                members[i] = None

        return keep_or_drop_one_few

    from_top = [s.num for s in sels if s.cat == "h"]
    from_bottom = [s.num for s in sels if s.cat == "l"]

    def keep_or_drop_few(members: Members, src: Source, out: list[int]) -> None:
        order = [i for i, v in enumerate(members) if v is not None]
        key = members.__getitem__
        picked: set[int] = set()
        if from_top:
            ranked = sorted(order, key=key, reverse=True)  # type: ignore[arg-type]
            for n in from_top:
                picked.update(ranked[:n])
        if from_bottom:
            ranked = sorted(order, key=key)  # type: ignore[arg-type]
            for n in from_bottom:
                picked.update(ranked[:n])
        for i in order:
            if (i in picked) != keeping:
                members[i] = None

    return keep_or_drop_few


def _reroll_step(kind: str, sides: int, hits: Hits) -> Step:
    if kind == "rr":

        def reroll_until(members: Members, src: Source, out: list[int]) -> None:
            if hits.isdisjoint(members):
                return
            for i, v in enumerate(members):  # each die until it stops (the parser made sure)
                if v in hits:
                    while v in hits:
                        v = src.die(sides)
                        out.append(v)
                    members[i] = v

        return reroll_until
    if kind == "ro":

        def reroll_once(members: Members, src: Source, out: list[int]) -> None:
            if hits.isdisjoint(members):
                return
            for i, v in enumerate(members):  # picked by value: rerolling one leaves the others
                if v in hits:
                    face = src.die(sides)
                    out.append(face)
                    members[i] = face

        return reroll_once

    def reroll_add(members: Members, src: Source, out: list[int]) -> None:
        for v in members:
            if v in hits:
                face = src.die(sides)
                out.append(face)
                members.append(face)
                return

    return reroll_add


def _explode_step(sides: int, hits: Hits) -> Step:
    def explode(members: Members, src: Source, out: list[int]) -> None:
        if hits.isdisjoint(members):
            return
        # breadth first, as d20: the new dice go last and may explode in turn, one generation
        # after another; the 20th extra die of a chain never explodes, as with '!'
        start, end = 0, len(members)
        for _ in range(MAX_EXPLOSIONS):
            for i in range(start, end):
                if members[i] in hits:
                    face = src.die(sides)
                    out.append(face)
                    members.append(face)
            start, end = end, len(members)
            if start == end:
                return

    return explode
