"""Parsed expressions, rolling, table dice and the roll tree with its text forms."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol

from fracas.dice.errors import DiceValueError, TableDiceError
from fracas.dice.rng import DiceRng
from fracas.dice.syntax import (
    MAX_EXPLOSIONS,
    Annotated,
    BinOp,
    Const,
    Dice,
    Group,
    Node,
    Op,
    Sel,
    SetOf,
    Tree,
    Unary,
    Value,
    bounds,
    dice_groups,
    node_text,
    parse_tree,
    to_source,
)


class _Source(Protocol):
    def die(self, sides: int) -> int: ...

    def dice(self, count: int, sides: int) -> list[int]: ...


class _Die:
    """One die (or one member of a set) while a group is rolled and afterwards.

    ``faces`` are the faces rolled for it (``None``: just ``value``, the common case); the
    other fields are class-level defaults until an operation sets them, so a plain die costs
    one attribute.
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


def _member(value: Value) -> _Die:
    m = _Die(value)
    m.is_member = True
    return m


# A rolled group: (node, values, kept flags or None when all kept, chains or None) on the fast
# path, or (node, None, None, dice) when the group went through the general operations.
_GroupRaw = tuple[Dice | SetOf | Group, list[int] | None, list[bool] | None, Any]
_Plan = Callable[[_Source, list[int], list[_GroupRaw]], Value]
_PoolPlan = Callable[[_Source, list[int], list[_GroupRaw]], list[_Die]]


def _sum(values: Sequence[Value]) -> Value:
    total: Value = 0
    for v in values:
        total += v
    return total


_ARITH: dict[str, Callable[[Value, Value], Value]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: Fraction(a) / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    ">=": lambda a, b: int(a >= b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    "<": lambda a, b: int(a < b),
}


def _foldable(node: Node) -> bool:
    """Whether a node is plain arithmetic on numbers (no dice, no set to show)."""
    if isinstance(node, Const):
        return True
    if isinstance(node, BinOp):
        return _foldable(node.left) and _foldable(node.right)
    if isinstance(node, Unary | Annotated):
        return _foldable(node.operand if isinstance(node, Unary) else node.inner)
    return isinstance(node, Group) and not node.ops and _foldable(node.inner)


def _compile(node: Node) -> _Plan:
    """Compile a syntax tree to nested closures: no per-node dispatch when rolling."""
    if not isinstance(node, Const) and _foldable(node):
        plan = _compile_unfolded(node)
        try:
            value = plan(_TableSource(None, []), [], [])
        except DiceValueError:
            return plan  # a division by zero: refused each time it is rolled
        return _compile(Const(value))
    return _compile_unfolded(node)


def _compile_unfolded(node: Node) -> _Plan:
    if isinstance(node, Const):
        value = node.value

        def const(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
            return value

        return const
    if isinstance(node, Dice):
        return _compile_dice(node)
    if isinstance(node, BinOp):
        return _compile_binop(node)
    if isinstance(node, Unary):
        operand = _compile(node.operand)
        if node.op == "+":
            return operand

        def neg(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
            return -operand(src, out, groups)

        return neg
    if isinstance(node, Annotated):
        return _compile(node.inner)
    if isinstance(node, Group) and not node.ops:
        return _compile(node.inner)
    pool = _compile_pool(node)
    counts = bool(node.ops) and node.ops[-1].kind == "c"

    def pooled(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
        members = pool(src, out, groups)
        if counts:
            return sum(1 for m in members if m.success)
        return _sum([m.value for m in members if m.kept])

    return pooled


def _compile_binop(node: BinOp) -> _Plan:
    left, right = _compile(node.left), _compile(node.right)
    op = node.op
    if op == "+":

        def add(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
            return left(src, out, groups) + right(src, out, groups)

        return add
    if op == "-":

        def sub(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
            return left(src, out, groups) - right(src, out, groups)

        return sub
    fn = _ARITH[op]
    divides = op in ("/", "//", "%")

    def binop(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
        a = left(src, out, groups)
        b = right(src, out, groups)
        if divides and b == 0:
            raise DiceValueError(
                f"division by zero: the right side of '{op}' rolled 0",
                operator=op,
            )
        return fn(a, b)

    return binop


def _legacy(node: Dice) -> bool:
    """Whether a group only uses fracas's first modifiers: ``!``, one keep or drop, a count."""
    ops = list(node.ops)
    if ops and ops[0].kind == "!":
        ops.pop(0)
    first = ops[0] if ops else None
    if first is not None and (first.kind in ("dh", "dl") or (
            first.kind == "k" and len(first.sels) == 1 and not first.sels[0].by_value)):
        ops.pop(0)
    if ops and ops[0].kind == "c" and ops[0].sels[0].cat in (">=", "<="):
        ops.pop(0)
    return not ops


def _compile_dice(node: Dice) -> _Plan:
    if not _legacy(node):
        pool = _compile_pool(node)
        counts = node.counts

        def general(src: _Source, out: list[int], groups: list[_GroupRaw]) -> Value:
            members = pool(src, out, groups)
            if counts:
                return sum(1 for m in members if m.success)
            return _sum([m.value for m in members if m.kept])

        return general
    count, sides, explode = node.count, node.sides, node.explode
    keep: str | None = None
    keep_n = 0
    compare: str | None = None
    target = 0
    for op in node.ops:
        if op.kind == "k":
            keep, keep_n = "k" + op.sels[0].cat, op.sels[0].num
        elif op.kind in ("dh", "dl"):
            keep, keep_n = op.kind, op.sels[0].num
        elif op.kind == "c":
            compare, target = op.sels[0].cat, op.sels[0].num
    if explode is None and keep is None and compare is None:

        def plain(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            faces = src.dice(count, sides)
            out += faces
            groups.append((node, faces, None, None))
            return sum(faces)

        return plain

    if keep is None:
        n_keep, highest = count, True
    elif keep in ("kh", "kl"):
        n_keep, highest = min(keep_n, count), keep == "kh"
    else:
        n_keep, highest = max(0, count - keep_n), keep == "dl"
    if explode is None and compare is None:

        def keep_only(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            values = src.dice(count, sides)
            out += values
            kept = [False] * count
            total = 0
            for i in sorted(range(count), key=values.__getitem__, reverse=highest)[:n_keep]:
                kept[i] = True
                total += values[i]
            groups.append((node, values, kept, None))
            return total

        return keep_only
    if explode is None and keep is None:
        at_least = compare == ">="

        def count_only(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            values = src.dice(count, sides)
            out += values
            groups.append((node, values, None, None))
            if at_least:
                return len([v for v in values if v >= target])
            return len([v for v in values if v <= target])

        return count_only

    def legacy(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
        chains: list[list[int]] | None
        if explode is None:
            values = src.dice(count, sides)
            out += values
            chains = None
        else:
            values = []
            chains = []
            die = src.die
            for _ in range(count):
                face = die(sides)
                chain = [face]
                total = face
                while face >= explode and len(chain) <= MAX_EXPLOSIONS:
                    face = die(sides)
                    chain.append(face)
                    total += face
                out += chain
                chains.append(chain)
                values.append(total)
        kept: list[bool] | None = None
        if keep is not None:
            order = sorted(range(count), key=values.__getitem__, reverse=highest)
            kept = [False] * count
            for i in order[:n_keep]:
                kept[i] = True
        groups.append((node, values, kept, chains))
        if compare is None:
            if kept is None:
                return sum(values)
            return sum(v for v, k in zip(values, kept, strict=True) if k)
        if kept is None:
            if compare == ">=":
                return sum(1 for v in values if v >= target)
            return sum(1 for v in values if v <= target)
        if compare == ">=":
            return sum(1 for v, k in zip(values, kept, strict=True) if k and v >= target)
        return sum(1 for v, k in zip(values, kept, strict=True) if k and v <= target)

    return legacy


# -- the general operations: d20's, on a list of dice or set members ----------------------------


def _compile_pool(node: Dice | SetOf | Group) -> _PoolPlan:
    """A plan that rolls a group and returns its members after all of its operations."""
    if isinstance(node, Dice):
        return _compile_dice_pool(node)
    inner = node.inner if isinstance(node, Group) else None
    while isinstance(inner, Annotated):
        inner = inner.inner
    if isinstance(node, Group) and isinstance(inner, Group) and not inner.ops:
        return _compile_pool(Group(inner.inner, node.brace, node.ops))
    sides = inner.sides if isinstance(inner, Dice) else 0
    steps = [_op_plan(op, sides) for op in node.ops]
    if isinstance(inner, Dice | SetOf | Group):  # operations go on with what it holds
        inner_pool = _compile_pool(inner)

        def outer(src: _Source, out: list[int], groups: list[_GroupRaw]) -> list[_Die]:
            members = inner_pool(src, out, groups)
            for step in steps:
                step(members, src, out)
            return members

        return outer
    items = [_compile(i) for i in node.items] if isinstance(node, SetOf) else [
        _compile(node.inner)]

    def set_pool(src: _Source, out: list[int], groups: list[_GroupRaw]) -> list[_Die]:
        at = len(groups)
        groups.append((node, None, None, None))  # placed before its items, filled below
        members = [_member(item(src, out, groups)) for item in items]
        for step in steps:
            step(members, src, out)
        groups[at] = (node, None, None, members)
        return members

    return set_pool


def _compile_dice_pool(node: Dice) -> _PoolPlan:
    count, sides, ops = node.count, node.sides, node.ops
    chain_at = ops[0].sels[0].num if ops and ops[0].kind == "!" else None
    steps = [_op_plan(op, sides) for op in (ops[1:] if chain_at is not None else ops)]

    def dice_pool(src: _Source, out: list[int], groups: list[_GroupRaw]) -> list[_Die]:
        if chain_at is None:
            faces = src.dice(count, sides)
            out += faces
            members = [_Die(f) for f in faces]
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
                d = _Die(sum(chain))
                d.faces = chain
                d.chain = True
                d.boom = len(chain) > 1
                members.append(d)
        groups.append((node, None, None, members))
        for step in steps:
            step(members, src, out)
        return members

    return dice_pool


_Step = Callable[[list[_Die], _Source, list[int]], None]


def _predicate(sels: tuple[Sel, ...]) -> Callable[[Value], bool]:
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


def _reroll(m: _Die, src: _Source, out: list[int], sides: int) -> None:
    face = src.die(sides)
    out.append(face)
    if m.faces is None:
        m.faces = [m.value]  # type: ignore[list-item]  # a die's value is a face here
    m.faces.append(face)
    m.rerolled = len(m.faces) - 1
    m.value = face


def _op_plan(op: Op, sides: int) -> _Step:
    """Compile one operation to a step over a group's members (in place; new dice appended)."""
    kind, sels = op.kind, op.sels
    by_value = all(s.by_value for s in sels)
    pred = _predicate(sels) if by_value else None

    def picked(members: list[_Die]) -> list[_Die]:
        if pred is not None:
            return [m for m in members if m.kept and pred(m.value)]
        return _select(sels, members)

    if kind == "k":

        def keep(members: list[_Die], src: _Source, out: list[int]) -> None:
            chosen = {id(m) for m in picked(members)}
            for m in members:
                if m.kept and id(m) not in chosen:
                    m.kept = False

        return keep
    if kind == "p":

        def drop(members: list[_Die], src: _Source, out: list[int]) -> None:
            for m in picked(members):
                m.kept = False

        return drop
    if kind in ("dh", "dl"):
        n, from_top = sels[0].num, kind == "dl"

        def drop_few(members: list[_Die], src: _Source, out: list[int]) -> None:
            kept = [m for m in members if m.kept]
            ordered = sorted(kept, key=lambda m: m.value, reverse=from_top)
            for m in ordered[max(0, len(kept) - n) :]:
                m.kept = False

        return drop_few
    if kind == "rr":
        assert pred is not None

        def reroll_until(members: list[_Die], src: _Source, out: list[int]) -> None:
            for m in members:  # each die until it stops (the parser made sure it can)
                if m.kept:
                    while pred(m.value):
                        _reroll(m, src, out, sides)

        return reroll_until
    if kind == "ro":

        def reroll_once(members: list[_Die], src: _Source, out: list[int]) -> None:
            for m in picked(members):
                _reroll(m, src, out, sides)

        return reroll_once
    if kind == "ra":

        def reroll_add(members: list[_Die], src: _Source, out: list[int]) -> None:
            chosen = picked(members)
            if chosen:
                chosen[0].boom = True
                face = src.die(sides)
                out.append(face)
                members.append(_Die(face))

        return reroll_add
    if kind == "e":
        assert pred is not None

        def explode(members: list[_Die], src: _Source, out: list[int]) -> None:
            # breadth first, as d20: the new dice go last and may explode in turn; the 20th
            # extra die of a chain never explodes, as with '!'
            depth = [0] * len(members)
            i = 0
            while i < len(members):
                m = members[i]
                if m.kept and depth[i] < MAX_EXPLOSIONS and pred(m.value):
                    m.boom = True
                    face = src.die(sides)
                    out.append(face)
                    members.append(_Die(face))
                    depth.append(depth[i] + 1)
                i += 1

        return explode
    if kind in ("mi", "ma"):
        n, low = sels[0].num, kind == "mi"

        def clamp(members: list[_Die], src: _Source, out: list[int]) -> None:
            for m in members:
                if m.kept and (m.value < n if low else m.value > n):
                    if m.faces is None and not m.is_member:
                        m.faces = [m.value]  # type: ignore[list-item]
                    m.value = n

        return clamp
    sel = sels[0]  # "c": count successes

    def count(members: list[_Die], src: _Source, out: list[int]) -> None:
        for m in members:
            m.success = m.kept and sel.matches(m.value)

    return count


def _select(sels: tuple[Sel, ...], members: list[_Die]) -> list[_Die]:
    """The kept members the selectors pick, in the order they pick them (each once)."""
    kept = [m for m in members if m.kept]
    out: list[_Die] = []
    seen: set[int] = set()
    for sel in sels:
        if sel.cat == "h":
            picked = sorted(kept, key=lambda m: m.value, reverse=True)[: sel.num]
        elif sel.cat == "l":
            picked = sorted(kept, key=lambda m: m.value)[: sel.num]
        else:
            picked = [m for m in kept if sel.matches(m.value)]
        for m in picked:
            if id(m) not in seen:
                seen.add(id(m))
                out.append(m)
    return out


class Expression:
    """A parsed dice expression: the syntax tree, its canonical text, bounds and roll plan."""

    __slots__ = ("_plan", "_terms", "groups", "maximum", "minimum", "parsed", "source", "text",
                 "tree")

    def __init__(self, source: str) -> None:
        self.source = source
        self.parsed: Tree = parse_tree(source)
        self.tree: Node = self.parsed.root
        self.text = to_source(self.parsed)
        low, high = bounds(self.tree)
        self.minimum, self.maximum = int(low), int(high)
        self.groups: tuple[Dice, ...] = tuple(dice_groups(self.tree))
        self._plan = _compile(self.tree)
        self._terms: list[tuple[int, str, _Plan]] | None = None

    @property
    def reading(self) -> str:
        """``"fracas"`` or ``"d20"`` (the text starts with ``d20:``)."""
        return self.parsed.reading

    @property
    def comment(self) -> str:
        """The text after the expression (``sneak attack``), or ``""``."""
        return self.parsed.comment

    @property
    def explodes(self) -> bool:
        """Whether any dice group of the expression explodes."""
        return any(g.explode is not None for g in self.groups)

    @property
    def rolls_more(self) -> bool:
        """Whether the expression may roll more dice than it names (explosions, rerolls)."""
        return any(g.rolls_more for g in self.groups)

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls before explosions and rerolls."""
        return sum(g.count for g in self.groups)

    @property
    def annotated(self) -> bool:
        """Whether the expression labels any part of itself (``[fire]``)."""
        return "[" in self.text

    def terms(self) -> list[tuple[int, str, _Plan]]:
        """The signed terms of the top-level sum: (sign, label, plan), in roll order."""
        if self._terms is None:
            out: list[tuple[int, str, _Plan]] = []
            _split_terms(self.tree, 1, out)
            self._terms = out
        return self._terms

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expression) and other.parsed == self.parsed

    def __hash__(self) -> int:
        return hash(self.parsed)


def _first_label(node: Node) -> str:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Annotated):
            return n.labels[0]
        if isinstance(n, BinOp):
            stack += [n.right, n.left]
        elif isinstance(n, Unary):
            stack.append(n.operand)
        elif isinstance(n, Group):
            stack.append(n.inner)
        elif isinstance(n, SetOf):
            stack += reversed(n.items)
    return ""


def _split_terms(node: Node, sign: int, out: list[tuple[int, str, _Plan]]) -> None:
    if isinstance(node, BinOp) and node.op in "+-":
        _split_terms(node.left, sign, out)
        _split_terms(node.right, sign if node.op == "+" else -sign, out)
    elif isinstance(node, Unary):
        _split_terms(node.operand, sign if node.op == "+" else -sign, out)
    elif isinstance(node, Group) and not node.ops and not isinstance(node.inner, Annotated):
        _split_terms(node.inner, sign, out)
    else:
        out.append((sign, _first_label(node), _compile(node)))


@lru_cache(maxsize=4096)
def parse(expr: str) -> Expression:
    """Parse a dice expression (cached); raises DiceSyntaxError or DiceBudgetError.

    A text that starts with ``d20:`` is read as the d20 library (and Avrae) read it.
    """
    return Expression(expr)


@dataclass(frozen=True, slots=True)
class DieResult:
    """One die of a roll: its size, value (chain total when it exploded) and flags.

    ``faces`` are all the faces rolled for it (a ``!`` chain, or rerolled faces first);
    ``rerolled`` says how many of the first faces were rerolled away.
    """

    sides: int
    face: Value
    faces: tuple[int, ...]
    kept: bool
    exploded: bool
    success: bool | None
    rerolled: int = 0


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One rolled dice group (``4d6kh3``) with each of its dice and its value."""

    notation: str
    dice: tuple[DieResult, ...]
    value: Value


@dataclass(frozen=True, slots=True)
class CheckDice:
    """The dice of a check such as Fabula Ultima's ``{d8+d10}+1``: faces, sizes, high roll."""

    dice: tuple[DieResult, ...]

    @property
    def faces(self) -> tuple[Value, ...]:
        """Each die's face, in roll order."""
        return tuple(d.face for d in self.dice)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Each die's number of sides, in roll order."""
        return tuple(d.sides for d in self.dice)

    @property
    def high_roll(self) -> Value:
        """The highest face among the check's dice."""
        return max(self.faces)

    @property
    def doubles(self) -> bool:
        """True when the check has exactly two dice and they show the same face."""
        return len(self.dice) == 2 and self.dice[0].face == self.dice[1].face


def _members_of(raw: _GroupRaw) -> list[_Die]:
    """A rolled group's members, whichever path rolled it."""
    node, values, kept, rest = raw
    if values is None:
        return list(rest or [])
    assert isinstance(node, Dice)
    chains: list[list[int]] | None = rest
    counts = node.counts
    sel = node.ops[-1].sels[0] if counts else None
    out = []
    for i, v in enumerate(values):
        m = _Die(v)
        if chains is not None:
            m.faces = chains[i]
            m.chain = True
            m.boom = len(chains[i]) > 1
        if kept is not None:
            m.kept = kept[i]
        if sel is not None:
            m.success = m.kept and sel.matches(v)
        out.append(m)
    return out


def _group_result(raw: _GroupRaw) -> GroupResult:
    node = raw[0]
    assert isinstance(node, Dice)
    members = _members_of(raw)
    out = [
        DieResult(node.sides, m.value, tuple(m.all_faces()), m.kept, m.boom, m.success,
                  m.rerolled)
        for m in members
    ]
    if node.counts:
        value: Value = sum(1 for m in members if m.success)
    else:
        value = _sum([m.value for m in members if m.kept])
    return GroupResult(node_text(node), tuple(out), value)


def _value_text(v: Value) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):.4g}"
    return str(v)


class Roll:
    """A rolled expression: total, every face rolled (``dice``) and the roll tree.

    Build one with :func:`roll`, :func:`from_table` or :meth:`Roll.from_data`.
    """

    __slots__ = ("_groups", "dice", "expr", "total", "value")

    def __init__(
        self, expr: Expression, value: Value, dice: list[int], groups: list[_GroupRaw]
    ) -> None:
        self.expr = expr
        self.value = value  # exact (a Fraction after '/' or decimals)
        self.total = value if type(value) is int else int(value)
        self.dice = dice
        self._groups = groups

    @property
    def expression(self) -> str:
        """The canonical text of the rolled expression."""
        return self.expr.text

    @property
    def groups(self) -> list[GroupResult]:
        """Each dice group in roll order, with each die's face, size and flags."""
        return [_group_result(g) for g in self._groups if isinstance(g[0], Dice)]

    def kept(self) -> list[Value]:
        """The value of every kept die (exploded chains summed), in roll order."""
        out: list[Value] = []
        for node, values, kept, rest in self._groups:
            if not isinstance(node, Dice):
                continue
            if values is None:
                out += [m.value for m in rest if m.kept]
            elif kept is None:
                out += values
            else:
                out += [v for v, k in zip(values, kept, strict=True) if k]
        return out

    def die_results(self) -> list[DieResult]:
        """Every die of the roll in order, with its size, face and kept/exploded flags."""
        return [d for g in self.groups for d in g.dice]

    def check(self) -> CheckDice:
        """The roll's dice as a check: per-die faces and sizes, high roll and doubles."""
        return CheckDice(tuple(self.die_results()))

    def by_annotation(self) -> dict[str, Value]:
        """Totals by label: each term of the top-level sum counts for its first label.

        ``2d6 [fire] + 1d8 [radiant] + 3`` gives ``{"fire": …, "radiant": …, "": 3}``;
        ``1d6+3 [fire]`` puts only the 3 under fire (write ``(1d6+3) [fire]`` for both).
        """
        out: dict[str, Value] = {}
        source = _TableSource(self.expr, self.dice)
        for sign, label, plan in self.expr.terms():
            out[label] = out.get(label, 0) + sign * plan(source, [], [])
        return out

    # -- text forms ----------------------------------------------------------------------
    def pieces(self) -> Iterator[tuple[str, str]]:
        """The roll tree as (text, style) pieces; style is '', 'drop', 'boom' or 'hit'.

        Adapters render these (``fracas.cli.dice_render`` styles them for a terminal).
        """
        groups = iter(self._groups)

        def die_pieces(m: _Die) -> Iterator[tuple[str, str]]:
            faces = m.all_faces()
            if m.chain:
                last = len(faces) - 1
                for j, face in enumerate(faces):
                    text = f"{face}!" if j < last else str(face)
                    yield text, ("drop" if not m.kept else "hit" if m.success
                                 else "boom" if j < last else "")
                return
            for face in faces[: m.rerolled]:
                yield str(face), "drop"
            last_face = faces[-1] if faces else m.value
            text = _value_text(m.value)
            if faces and m.value != last_face:
                text = f"{last_face}→{text}"
            if m.boom:
                text += "!"
            yield text, ("drop" if not m.kept else "hit" if m.success
                         else "boom" if m.boom else "")

        def members(raw: _GroupRaw) -> Iterator[tuple[str, str]]:
            yield "[", ""
            first = True
            for m in _members_of(raw):
                for piece in die_pieces(m):
                    if not first:
                        yield ", ", ""
                    first = False
                    yield piece
            yield "]", ""

        def walk(node: Node, dropped: bool) -> Iterator[tuple[str, str]]:
            if dropped:  # a dropped member of a set: struck through as a whole
                yield "".join(text for text, _ in _walk(node)), "drop"
            else:
                yield from _walk(node)

        def _walk(node: Node) -> Iterator[tuple[str, str]]:
            if isinstance(node, Const):
                yield _value_text(node.value), ""
            elif isinstance(node, Dice):
                yield from members(next(groups))
            elif isinstance(node, BinOp):
                yield from _walk(node.left)
                yield f" {node.op} ", ""
                yield from _walk(node.right)
            elif isinstance(node, Unary):
                yield node.op, ""
                yield from _walk(node.operand)
            elif isinstance(node, Annotated):
                yield from _walk(node.inner)
                for label in node.labels:
                    yield f" [{label}]", ""
            elif isinstance(node, SetOf) or (isinstance(node, Group) and node.ops
                                             and _single(node)):
                raw = next(groups)
                items = node.items if isinstance(node, SetOf) else (node.inner,)
                yield "(", ""
                for i, (item, m) in enumerate(zip(items, raw[3], strict=True)):
                    if i:
                        yield ", ", ""
                    yield from walk(item, dropped=not m.kept)
                    if m.success:
                        yield "✓", "hit"
                yield ")", ""
            else:
                assert isinstance(node, Group)
                yield ("{" if node.brace else "("), ""
                yield from _walk(node.inner)
                yield ("}" if node.brace else ")"), ""

        return _walk(self.expr.tree)

    def to_text(self) -> str:
        """Plain text: ``4d6kh3+2 → [6, 5, 3, ~~1~~] + 2 = 16``.

        Dropped (and rerolled) dice are struck through (``~~1~~``), a face that exploded is
        marked ``6!``, a die counted as a success is bold (``**8**``) and a die raised or
        lowered by ``mi``/``ma`` shows both values (``1→2``). A labelled roll ends with its
        totals by label: ``= 18 (fire 7, radiant 8, unlabelled 3)``.
        """
        parts = [f"{self.expression} → "]
        for text, style in self.pieces():
            if style == "drop":
                parts.append(f"~~{text}~~")
            elif style == "hit":
                parts.append(f"**{text}**")
            else:
                parts.append(text)
        parts.append(f" = {self.total}{self.labels_text()}")
        return "".join(parts)

    def labels_text(self) -> str:
        """`` (fire 7, radiant 8, unlabelled 3)`` for a labelled roll, else ``""``."""
        if not self.expr.annotated:
            return ""
        totals = ", ".join(
            f"{label or 'unlabelled'} {_value_text(v)}" for label, v in self.by_annotation().items()
        )
        return f" ({totals})"

    def to_data(self) -> dict[str, Any]:
        """JSON-native form: ``{"expression": ..., "dice": [...], "total": ...}``.

        An annotated roll also has ``"annotations"`` (total by label, see
        :meth:`by_annotation`); a roll with a comment has ``"comment"``.
        """
        data: dict[str, Any] = {
            "expression": self.expression,
            "dice": list(self.dice),
            "total": self.total,
        }
        if self.expr.annotated:
            data["annotations"] = {
                label: v if isinstance(v, int) else int(v) if v.denominator == 1 else str(v)
                for label, v in self.by_annotation().items()
            }
        if self.expr.comment:
            data["comment"] = self.expr.comment
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Roll:
        """Re-evaluate a stored roll from its expression and dice; checks the stored total."""
        if not isinstance(data, Mapping):
            raise TableDiceError(
                f"a stored roll must be a mapping with 'expression' and 'dice', got {data!r}"
            )
        expression = data.get("expression")
        dice = data.get("dice")
        if not isinstance(expression, str):
            raise TableDiceError("stored roll has no 'expression' text", data=dict(data))
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dice
        ):
            raise TableDiceError("stored roll's 'dice' must be a list of whole numbers")
        result = from_table(expression, dice)
        total = data.get("total")
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)):
            raise TableDiceError(
                f"stored total {total!r} of {expression} is not a whole number",
                expression=expression,
                total=repr(total),
            )
        if total is not None and total != result.total:
            raise TableDiceError(
                f"stored total {total} does not match the dice of {expression} "
                f"{dice}, which make {result.total}",
                expression=expression,
                dice=dice,
                total=total,
            )
        return result

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Roll)
            and other.expr == self.expr
            and other.dice == self.dice
            and other.total == self.total
        )

    def __hash__(self) -> int:
        return hash((self.expression, tuple(self.dice), self.total))

    def __repr__(self) -> str:
        return f"Roll({self.expression!r}, dice={self.dice!r}, total={self.total})"

    def __str__(self) -> str:
        return self.to_text()


def _single(node: Group) -> bool:
    """Whether a group with operations holds one value (not dice or a set)."""
    inner = node.inner
    while isinstance(inner, Annotated):
        inner = inner.inner
    if isinstance(inner, Dice | SetOf):
        return False
    if isinstance(inner, Group):  # as _compile_pool: a group with operations holds a set
        return False if inner.ops else _single(Group(inner.inner, ops=node.ops))
    return True


def roll(expr: str | Expression, rng: DiceRng) -> Roll:
    """Roll an expression with a seeded generator."""
    e = parse(expr) if isinstance(expr, str) else expr
    dice: list[int] = []
    groups: list[_GroupRaw] = []
    return Roll(e, e._plan(rng, dice, groups), dice, groups)


class _Ran(Exception):
    """Internal: table dice ran out."""


class _TableSource:
    __slots__ = ("expr", "pos", "values")

    def __init__(self, expr: Expression | None, values: list[int]) -> None:
        self.expr = expr
        self.values = values
        self.pos = 0

    def die(self, sides: int) -> int:
        if self.pos >= len(self.values):
            raise _Ran
        value = self.values[self.pos]
        if not 1 <= value <= sides:
            text = self.expr.text if self.expr is not None else ""
            raise TableDiceError(
                f"die {self.pos + 1} shows {value}, but a d{sides} shows 1 to {sides} "
                f"({text}: {self.values})",
                expression=text,
                dice=self.values,
                position=self.pos,
            )
        self.pos += 1
        return value

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.die(sides) for _ in range(count)]


def from_table(expr: str | Expression, values: Sequence[int]) -> Roll:
    """A roll from dice rolled at the table, checked against the expression.

    ``values`` lists every face in roll order; an exploding die is followed by its extra
    dice, and a rerolled or added die comes after the group's first dice, in the order of the
    operations. Raises TableDiceError for a wrong number of dice or an impossible face.
    """
    e = parse(expr) if isinstance(expr, str) else expr
    faces = list(values)
    for v in faces:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TableDiceError(
                f"table dice must be whole numbers, got {v!r} ({e.text}: {faces!r})",
                expression=e.text,
            )
    needed = e.dice_count
    if not e.rolls_more and len(faces) != needed:
        raise TableDiceError(
            f"{e.text} needs {needed} {'die' if needed == 1 else 'dice'}, "
            f"got {len(faces)}: {faces}",
            expression=e.text,
            dice=faces,
            needed=needed,
        )
    source = _TableSource(e, faces)
    dice: list[int] = []
    groups: list[_GroupRaw] = []
    try:
        total = e._plan(source, dice, groups)
    except _Ran:
        raise TableDiceError(
            f"{e.text} needs more than {len(faces)} dice with these faces "
            f"(each exploding or rerolled face adds a die), got {len(faces)}: {faces}",
            expression=e.text,
            dice=faces,
        ) from None
    if source.pos != len(faces):
        raise TableDiceError(
            f"{e.text} needs {source.pos} dice with these faces "
            f"(an extra die only follows an exploding or rerolled face), got {len(faces)}: "
            f"{faces}",
            expression=e.text,
            dice=faces,
            needed=source.pos,
        )
    return Roll(e, total, dice, groups)


def parse_dice_list(text: str) -> list[int]:
    """Parse dice typed at the table, ``"5,6,2"`` or ``"5 6 2"``, into faces."""
    if not text.strip():
        raise TableDiceError("no dice given; type the faces like 5,6,2", text=text)
    out: list[int] = []
    pos = 0
    parts = text.split(",")
    for part in parts:
        if not part.strip():
            at = pos + len(part) if pos + len(part) < len(text) else max(pos - 1, 0)
            raise TableDiceError(
                f"empty entry at position {at} in '{text}'; type the faces like 5,6,2",
                text=text,
                position=at,
            )
        for item in re.finditer(r"\S+", part):
            token, at = item.group(), pos + item.start()
            if not (token.isascii() and token.isdigit()):
                raise TableDiceError(
                    f"'{token}' at position {at} in '{text}' is not a die face "
                    "(a whole number from 1)",
                    text=text,
                    position=at,
                )
            value = int(token)
            if value < 1:
                raise TableDiceError(
                    f"{value} at position {at} in '{text}' is not a die face; dice show 1 or more",
                    text=text,
                    position=at,
                )
            out.append(value)
        pos += len(part) + 1
    return out
