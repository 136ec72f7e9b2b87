"""Lean roll plans: the total and the kept dice, with no object per die.

A group's members are a list of values in roll order, ``None`` once a member is dropped. The
sink of these plans collects the value of every kept die of every dice group, in roll order
(``Roll.kept``). The breakdown of each die (rerolled faces, explosions, successes) is not
built here: :mod:`fracas.dice.plan_breakdown` rebuilds it from the faces when it is asked for.
Both families draw the same dice in the same order (``tests/dice/test_plans.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.dice.bounds import pool_target
from fracas.dice.nodes import MAX_EXPLOSIONS, Dice, Group, Node, Op, SetOf, Value
from fracas.dice.plan import Plan, Source, compile_plan
from fracas.dice.selection import dropped_few, predicate, select

Members = list[Value | None]
#: One operation over a group's members, in place (new dice are appended).
Step = Callable[[Members, Source, list[int]], None]


def compile_totals(node: Node) -> Plan:
    """The lean plan of a syntax tree."""
    return compile_plan(node, _group)


def _group(node: Dice | SetOf | Group) -> Plan:
    if isinstance(node, Dice):
        return _dice(node, node.ops)
    target, ops = pool_target(node)
    if isinstance(target, Dice):
        return _dice(target, target.ops + ops)
    items = [compile_totals(i) for i in target]
    steps = [_step(op, 0) for op in ops]
    finish = _finish(ops)

    def set_plan(src: Source, out: list[int], kept: list[Any]) -> Value:
        members: Members = [item(src, out, kept) for item in items]
        for step in steps:
            step(members, src, out)
        return finish(members)

    return set_plan


def _finish(ops: tuple[Op, ...]) -> Callable[[Members], Value]:
    """The group's value from its members: their sum, or the successes of a final count."""
    if ops and ops[-1].kind == "c":
        test = predicate(ops[-1].sels)
        return lambda members: len([v for v in members if v is not None and test(v)])

    def total(members: Members) -> Value:
        out: Value = 0
        for v in members:
            if v is not None:
                out += v
        return out

    return total


def _dice(node: Dice, ops: tuple[Op, ...]) -> Plan:
    count, sides = node.count, node.sides
    chain_at = ops[0].sels[0].num if ops and ops[0].kind == "!" else None
    if chain_at is not None:
        ops = ops[1:]
    counted = ops[-1] if ops and ops[-1].kind == "c" else None
    if counted is not None:
        ops = ops[:-1]
    fast = _single_keep(count, sides, ops, counted) if chain_at is None else None
    if fast is not None:
        return fast
    steps = [_step(op, sides) for op in ops]
    finish = _finish((counted,) if counted is not None else ())

    def dice_plan(src: Source, out: list[int], kept: list[Any]) -> Value:
        if chain_at is None:
            faces = src.dice(count, sides)
            out += faces
            members: Members = faces  # type: ignore[assignment]  # faces only grow
        else:
            members = _chains(src, out, count, sides, chain_at)
        for step in steps:
            step(members, src, out)
        kept += [v for v in members if v is not None]
        return finish(members)

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


def _single_keep(count: int, sides: int, ops: tuple[Op, ...], counted: Op | None) -> Plan | None:
    """The plan of the commonest groups: plain dice, or one keep / drop of the few highest or
    lowest (``4d6kh3``, ``2d20kl1``, ``4d6dl1``), maybe counted; None for any other group."""
    test = predicate(counted.sels) if counted is not None else None
    if not ops:

        def plain(src: Source, out: list[int], kept: list[Any]) -> Value:
            faces = src.dice(count, sides)
            out += faces
            kept += faces
            if test is not None:
                return len([v for v in faces if test(v)])
            return sum(faces)

        return plain
    op = ops[0]
    if len(ops) > 1 or not (op.kind in ("dh", "dl") or (
            op.kind == "k" and len(op.sels) == 1 and not op.sels[0].by_value)):
        return None
    n = op.sels[0].num
    if op.kind == "k":
        n_keep, highest = min(n, count), op.sels[0].cat == "h"
    else:
        n_keep, highest = max(0, count - n), op.kind == "dl"
    order = range(count)

    def keep(src: Source, out: list[int], kept: list[Any]) -> Value:
        faces = src.dice(count, sides)
        out += faces
        chosen = sorted(sorted(order, key=faces.__getitem__, reverse=highest)[:n_keep])
        values = [faces[i] for i in chosen]
        kept += values
        if test is not None:
            return len([v for v in values if test(v)])
        return sum(values)

    return keep


def _step(op: Op, sides: int) -> Step:
    """One operation over a group's members (as ``_Die`` operations in plan_breakdown)."""
    kind, sels = op.kind, op.sels
    by_value = all(s.by_value for s in sels)
    test = predicate(sels) if by_value else None

    def picked(members: Members) -> list[int]:
        if test is not None:
            return [i for i, v in enumerate(members) if v is not None and test(v)]
        return select(sels, members)

    if kind == "k":

        def keep(members: Members, src: Source, out: list[int]) -> None:
            chosen = set(picked(members))
            for i in range(len(members)):
                if i not in chosen:
                    members[i] = None

        return keep
    if kind == "p":

        def drop(members: Members, src: Source, out: list[int]) -> None:
            for i in picked(members):
                members[i] = None

        return drop
    if kind in ("dh", "dl"):
        n, lowest = sels[0].num, kind == "dl"

        def drop_few(members: Members, src: Source, out: list[int]) -> None:
            for i in dropped_few(members, n, lowest):
                members[i] = None

        return drop_few
    if kind in ("rr", "ro", "ra"):
        return _reroll_step(kind, sides, picked, test)
    if kind == "e":
        assert test is not None
        return _explode_step(sides, test)
    n, low = sels[0].num, kind == "mi"  # "mi", "ma"

    def clamp(members: Members, src: Source, out: list[int]) -> None:
        for i, v in enumerate(members):
            if v is not None and (v < n if low else v > n):
                members[i] = n

    return clamp


def _reroll_step(kind: str, sides: int, picked: Callable[[Members], list[int]],
                 test: Callable[[Value], bool] | None) -> Step:
    if kind == "rr":
        assert test is not None

        def reroll_until(members: Members, src: Source, out: list[int]) -> None:
            for i, v in enumerate(members):  # each die until it stops (the parser made sure)
                if v is not None and test(v):
                    while test(v):
                        v = src.die(sides)
                        out.append(v)
                    members[i] = v

        return reroll_until
    if kind == "ro":

        def reroll_once(members: Members, src: Source, out: list[int]) -> None:
            for i in picked(members):
                face = src.die(sides)
                out.append(face)
                members[i] = face

        return reroll_once

    def reroll_add(members: Members, src: Source, out: list[int]) -> None:
        if picked(members):
            face = src.die(sides)
            out.append(face)
            members.append(face)

    return reroll_add


def _explode_step(sides: int, test: Callable[[Value], bool]) -> Step:
    def explode(members: Members, src: Source, out: list[int]) -> None:
        # breadth first, as d20: the new dice go last and may explode in turn; the 20th extra
        # die of a chain never explodes, as with '!'
        depth = [0] * len(members)
        i = 0
        while i < len(members):
            v = members[i]
            if v is not None and depth[i] < MAX_EXPLOSIONS and test(v):
                face = src.die(sides)
                out.append(face)
                members.append(face)
                depth.append(depth[i] + 1)
            i += 1

    return explode
