"""Breakdown plans: each die of a group as an object that remembers what happened to it.

A :class:`Member` keeps its faces (rerolled ones first, a ``!`` chain), whether it is kept,
exploded or a success. The sink of these plans collects ``(node, members)`` for every dice
group and set, in roll order, for ``Roll.groups`` and the text forms. A roll is rolled with the
lean plans of :mod:`fracas.dice.plan_totals`; its breakdown is rebuilt by this family from the
faces rolled, only when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.dice.bounds import pool_target
from fracas.dice.nodes import MAX_EXPLOSIONS, Dice, Group, Node, Op, SetOf, Value
from fracas.dice.plan import Plan, Source, compile_plan
from fracas.dice.selection import dropped_few, predicate, select


class Member:
    """One die (or one member of a set) of a rolled group.

    ``faces`` are the faces rolled for it (``None``: just ``value``, the common case); the
    other fields are class-level defaults until an operation sets them.
    """

    faces: list[int] | None = None
    kept = True
    chain = False  # a '!' chain: the faces add up
    boom = False  # exploded ('e', 'ra'): another die followed it
    rerolled = 0  # how many of the first faces were rerolled away
    success: bool | None = None
    is_member = False  # a member of a set (a value, not a die)

    def __init__(self, value: Value) -> None:
        self.value = value

    def all_faces(self) -> list[int]:
        """Every face rolled for this die, in order (none for a set member)."""
        if self.faces is not None:
            return self.faces
        return [self.value] if isinstance(self.value, int) and not self.is_member else []


#: A rolled group of the breakdown: the dice group or set and its members.
RolledGroup = tuple[Dice | SetOf | Group, list[Member]]
_Pool = Callable[[Source, list[int], list[Any]], list[Member]]
_Step = Callable[[list[Member], Source, list[int]], None]


def compile_breakdown(node: Node) -> Plan:
    """The breakdown plan of a syntax tree."""
    return compile_plan(node, _group)


def group_value(node: Dice | SetOf | Group, members: list[Member]) -> Value:
    """A group's value: the successes of a final count, or the sum of the kept members."""
    if node.ops and node.ops[-1].kind == "c":
        return sum(1 for m in members if m.success)
    total: Value = 0
    for m in members:
        if m.kept:
            total += m.value
    return total


def _group(node: Dice | SetOf | Group) -> Plan:
    pool = _pool(node)

    def pooled(src: Source, out: list[int], groups: list[Any]) -> Value:
        return group_value(node, pool(src, out, groups))

    return pooled


def _pool(node: Dice | SetOf | Group) -> _Pool:
    """A plan that rolls a group and returns its members after all of its operations."""
    if isinstance(node, Dice):
        return _dice_pool(node, node.ops)
    target, ops = pool_target(node)
    if isinstance(target, Dice):
        return _dice_pool(target, target.ops + ops)
    items = [compile_breakdown(i) for i in target]
    steps = [_step(op, 0) for op in ops]

    def set_pool(src: Source, out: list[int], groups: list[Any]) -> list[Member]:
        at = len(groups)
        groups.append(None)  # placed before its items, filled below
        members = []
        for item in items:
            m = Member(item(src, out, groups))
            m.is_member = True
            members.append(m)
        for step in steps:
            step(members, src, out)
        groups[at] = (node, members)
        return members

    return set_pool


def _dice_pool(node: Dice, ops: tuple[Op, ...]) -> _Pool:
    count, sides = node.count, node.sides
    chain_at = ops[0].sels[0].num if ops and ops[0].kind == "!" else None
    steps = [_step(op, sides) for op in (ops[1:] if chain_at is not None else ops)]

    def dice_pool(src: Source, out: list[int], groups: list[Any]) -> list[Member]:
        if chain_at is None:
            faces = src.dice(count, sides)
            out += faces
            members = [Member(f) for f in faces]
        else:
            members = []
            die = src.die
            for _ in range(count):
                face = die(sides)
                chain = [face]
                while face >= chain_at and len(chain) <= MAX_EXPLOSIONS:
                    face = die(sides)
                    chain.append(face)
                out += chain
                d = Member(sum(chain))
                d.faces = chain
                d.chain = True
                d.boom = len(chain) > 1
                members.append(d)
        groups.append((node, members))
        for step in steps:
            step(members, src, out)
        return members

    return dice_pool


def _values(members: list[Member]) -> list[Value | None]:
    return [m.value if m.kept else None for m in members]


def _reroll(m: Member, src: Source, out: list[int], sides: int) -> None:
    face = src.die(sides)
    out.append(face)
    if m.faces is None:
        m.faces = [m.value]  # type: ignore[list-item]  # a die's value is a face here
    m.faces.append(face)
    m.rerolled = len(m.faces) - 1
    m.value = face


def _step(op: Op, sides: int) -> _Step:
    """One operation over a group's members (in place; new dice appended)."""
    kind, sels = op.kind, op.sels
    by_value = all(s.by_value for s in sels)
    test = predicate(sels) if by_value else None

    def picked(members: list[Member]) -> list[Member]:
        if test is not None:
            return [m for m in members if m.kept and test(m.value)]
        return [members[i] for i in select(sels, _values(members))]

    if kind in ("k", "p"):
        keeping = kind == "k"

        def keep_or_drop(members: list[Member], src: Source, out: list[int]) -> None:
            chosen = {id(m) for m in picked(members)}
            for m in members:
                if m.kept and (id(m) in chosen) != keeping:
                    m.kept = False

        return keep_or_drop
    if kind in ("dh", "dl"):
        n, lowest = sels[0].num, kind == "dl"

        def drop_few(members: list[Member], src: Source, out: list[int]) -> None:
            for i in dropped_few(_values(members), n, lowest):
                members[i].kept = False

        return drop_few
    if kind == "rr":
        assert test is not None

        def reroll_until(members: list[Member], src: Source, out: list[int]) -> None:
            for m in members:  # each die until it stops (the parser made sure it can)
                if m.kept:
                    while test(m.value):
                        _reroll(m, src, out, sides)

        return reroll_until
    if kind == "ro":

        def reroll_once(members: list[Member], src: Source, out: list[int]) -> None:
            for m in picked(members):
                _reroll(m, src, out, sides)

        return reroll_once
    if kind == "ra":

        def reroll_add(members: list[Member], src: Source, out: list[int]) -> None:
            chosen = picked(members)
            if chosen:
                chosen[0].boom = True
                face = src.die(sides)
                out.append(face)
                members.append(Member(face))

        return reroll_add
    if kind == "e":
        assert test is not None

        def explode(members: list[Member], src: Source, out: list[int]) -> None:
            # breadth first, as d20 (see plan_totals)
            depth = [0] * len(members)
            i = 0
            while i < len(members):
                m = members[i]
                if m.kept and depth[i] < MAX_EXPLOSIONS and test(m.value):
                    m.boom = True
                    face = src.die(sides)
                    out.append(face)
                    members.append(Member(face))
                    depth.append(depth[i] + 1)
                i += 1

        return explode
    if kind in ("mi", "ma"):
        n, low = sels[0].num, kind == "mi"

        def clamp(members: list[Member], src: Source, out: list[int]) -> None:
            for m in members:
                if m.kept and (m.value < n if low else m.value > n):
                    if m.faces is None and not m.is_member:
                        m.faces = [m.value]  # type: ignore[list-item]
                    m.value = n

        return clamp
    sel = sels[0]  # "c": count successes

    def count(members: list[Member], src: Source, out: list[int]) -> None:
        for m in members:
            m.success = m.kept and sel.matches(m.value)

    return count
