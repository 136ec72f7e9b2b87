"""Static facts about a syntax tree: the least and greatest value, and its dice groups."""

from __future__ import annotations

from fractions import Fraction

from fracas.dice.nodes import (
    COMPARISONS,
    MAX_EXPLOSIONS,
    MAX_INTEGER,
    Annotated,
    BinOp,
    Const,
    Dice,
    Group,
    Node,
    Op,
    SetOf,
    Unary,
    Value,
)


def _den(node: Node) -> int | None:
    """A denominator of every value of ``node`` (1 for integers; None: unknown, after '/')."""
    if isinstance(node, Const):
        return node.value.denominator
    if isinstance(node, BinOp):
        if node.op in COMPARISONS or node.op == "//":
            return 1
        a, b = _den(node.left), _den(node.right)
        if node.op == "/" or a is None or b is None:
            return None
        return a * b if node.op == "*" else a * b // _gcd(a, b)
    if isinstance(node, Unary):
        return _den(node.operand)
    if isinstance(node, Annotated):
        return _den(node.inner)
    if isinstance(node, Dice):
        return 1
    out: int | None = 1
    for m in _members(node):
        d = _den(m)
        out = None if d is None or out is None else out * d // _gcd(out, d)
    return out


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _die_range(node: Dice) -> tuple[tuple[int, int], tuple[int, int]]:
    """((least, greatest) value of one die, (least, greatest) number of kept dice)."""
    sides = node.sides
    lo, hi = 1, sides
    nlo = nhi = node.count
    for op in node.ops:
        kind = op.kind
        if kind == "!":
            hi = sides * (MAX_EXPLOSIONS + 1)
        elif kind == "e":
            nhi *= MAX_EXPLOSIONS + 1
            lo, hi = min(lo, 1), max(hi, sides)
        elif kind == "ra":
            nhi += 1
            lo, hi = min(lo, 1), max(hi, sides)
        elif kind in ("rr", "ro"):
            lo, hi = min(lo, 1), max(hi, sides)
        elif kind == "mi":
            n = op.sels[0].num
            lo, hi = max(lo, n), max(hi, n)
        elif kind == "ma":
            n = op.sels[0].num
            lo, hi = min(lo, n), min(hi, n)
        elif kind in ("k", "p", "dh", "dl"):
            nlo, nhi = _kept_range(op, nlo, nhi)
    return (lo, hi), (nlo, nhi)


def _kept_range(op: Op, nlo: int, nhi: int) -> tuple[int, int]:
    ns = [s.num for s in op.sels]
    if op.kind in ("dh", "dl"):
        return max(0, nlo - ns[0]), max(0, nhi - ns[0])
    if any(s.by_value for s in op.sels):
        return 0, nhi
    if op.kind == "k":
        return min(nlo, max(ns)), min(nhi, sum(ns))
    return max(0, nlo - sum(ns)), max(0, nhi - max(ns))


def bounds(node: Node) -> tuple[Value, Value]:
    """The least and greatest value a syntax tree node can take."""
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, Dice):
        (face_lo, face_hi), (nlo, nhi) = _die_range(node)
        if node.counts:
            return 0, nhi
        return nlo * face_lo, nhi * face_hi
    if isinstance(node, BinOp):
        return _binop_bounds(node)
    if isinstance(node, Unary):
        lo, hi = bounds(node.operand)
        return (-hi, -lo) if node.op == "-" else (lo, hi)
    if isinstance(node, Annotated):
        return bounds(node.inner)
    if isinstance(node, Group) and not node.ops:
        return bounds(node.inner)
    members = _members(node)  # a set, or a group with set operations
    if node.ops and node.ops[-1].kind == "c":
        return 0, len(members)
    los, his = zip(*(bounds(m) for m in members), strict=True) if members else ((), ())
    low = sum(min(v, 0) for v in los)
    high = sum(max(v, 0) for v in his)
    return low, high


def _members(node: Group | SetOf | Dice) -> tuple[Node, ...]:
    if isinstance(node, SetOf):
        return node.items
    if isinstance(node, Group):
        inner = node.inner
        if isinstance(inner, Group | SetOf):
            return _members(inner)
        return (inner,)
    return (node,)


def _binop_bounds(node: BinOp) -> tuple[Value, Value]:
    op = node.op
    if op in COMPARISONS:
        return 0, 1
    llo, lhi = bounds(node.left)
    rlo, rhi = bounds(node.right)
    if op == "+":
        return llo + rlo, lhi + rhi
    if op == "-":
        return llo - rhi, lhi - rlo
    if op == "*":
        corners = (llo * rlo, llo * rhi, lhi * rlo, lhi * rhi)
        return min(corners), max(corners)
    top = max(abs(Fraction(llo)), abs(Fraction(lhi)))
    if op == "%":
        m = max(abs(Fraction(rlo)), abs(Fraction(rhi)))
        return -m, m
    if rlo <= 0 <= rhi:  # the divisor may be near zero: at least 1/den in size
        den = _den(node.right)
        big = top * (den if den is not None else MAX_INTEGER**4)
        return -big - 1, big + 1
    quotients = [Fraction(a) / b for a in (llo, lhi) for b in (rlo, rhi)]
    if op == "//":
        return min(quotients) - 1, max(quotients) + 1
    return min(quotients), max(quotients)


def divisors_that_may_be_zero(node: Node) -> list[tuple[BinOp, Value, Value]]:
    """Every ``/``, ``//`` or ``%`` whose right side may be 0, as (division, least, greatest),
    left to right: such a division is refused before any die is rolled, so that whether a
    roll is refused never depends on the dice (a refused roll must tell nothing of them)."""
    out: list[tuple[BinOp, Value, Value]] = []
    _walk_divisors(node, out)
    return out


def _walk_divisors(node: Node, out: list[tuple[BinOp, Value, Value]]) -> None:
    if isinstance(node, BinOp):
        _walk_divisors(node.left, out)
        _walk_divisors(node.right, out)
        if node.op in ("/", "//", "%"):
            lo, hi = bounds(node.right)
            if lo <= 0 <= hi:
                out.append((node, lo, hi))
    elif isinstance(node, Unary):
        _walk_divisors(node.operand, out)
    elif isinstance(node, Annotated | Group):
        _walk_divisors(node.inner, out)
    elif isinstance(node, SetOf):
        for item in node.items:
            _walk_divisors(item, out)


def dice_groups(node: Node) -> list[Dice]:
    """Every dice group of a tree, in the order they are rolled (left to right)."""
    out: list[Dice] = []
    stack: list[Node] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Dice):
            out.append(n)
        elif isinstance(n, BinOp):
            stack.append(n.right)
            stack.append(n.left)
        elif isinstance(n, Unary):
            stack.append(n.operand)
        elif isinstance(n, Group | Annotated):
            stack.append(n.inner)
        elif isinstance(n, SetOf):
            stack.extend(reversed(n.items))
    return out



def pool_target(node: Group | SetOf) -> tuple[Dice | tuple[Node, ...], tuple[Op, ...]]:
    """What a group's operations act on (a dice group, or the members of a set) and all of the
    operations, the inner ones first: ``((10d6kh5)kl2)kh1`` is ``10d6`` with ``kh5 kl2 kh1``."""
    if isinstance(node, SetOf):
        return node.items, node.ops
    inner = node.inner
    while isinstance(inner, Annotated):
        inner = inner.inner
    if isinstance(inner, Dice):
        return inner, node.ops
    if isinstance(inner, SetOf) or (isinstance(inner, Group) and inner.ops):
        target, ops = pool_target(inner)
        return target, ops + node.ops
    if isinstance(inner, Group):
        return pool_target(Group(inner.inner, node.brace, node.ops))
    return (node.inner,), node.ops
