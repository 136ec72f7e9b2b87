"""Roll plans: a syntax tree compiled once to nested closures, so rolling does no dispatch.

A plan is called as ``plan(source, faces, sink)``: it draws dice from ``source``, appends every
face it rolls to ``faces`` and returns the value. What goes to ``sink`` depends on the family of
group plans the tree was compiled with (:mod:`fracas.dice.plan_totals` records the kept values,
:mod:`fracas.dice.plan_breakdown` each group with its dice). This module compiles the
arithmetic around the groups and folds the parts without dice to constants.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

from fracas.dice.errors import DiceValueError
from fracas.dice.nodes import Annotated, BinOp, Const, Dice, Group, Node, SetOf, Unary, Value


class Source(Protocol):
    """Where dice come from: a seeded generator or the dice rolled at the table."""

    def die(self, sides: int) -> int: ...

    def dice(self, count: int, sides: int) -> list[int]: ...


Plan = Callable[[Source, list[int], list[Any]], Value]
#: Compiles a dice group, a set or a group with operations to a plan.
GroupCompiler = Callable[[Dice | SetOf | Group], Plan]

ARITH: dict[str, Callable[[Value, Value], Value]] = {
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


def _constant(node: Node) -> Value | None:
    """The value of a node without dice, or None (dice, or a division by zero)."""
    if isinstance(node, Const):
        return node.value
    if not _foldable(node):
        return None
    return _evaluated(node)


def _evaluated(node: Node) -> Value | None:
    """The value of a foldable node (:func:`_foldable`), worked out once per node: None for a
    division by zero, which is refused each time the expression is rolled. (Compiling the
    node to find it compiled its parts again at every level: 2^n for a chain of n terms.)"""
    if isinstance(node, Const):
        return node.value
    if isinstance(node, BinOp):
        a, b = _evaluated(node.left), _evaluated(node.right)
        if a is None or b is None or (node.op in ("/", "//", "%") and b == 0):
            return None
        return ARITH[node.op](a, b)
    if isinstance(node, Unary):
        value = _evaluated(node.operand)
        return value if value is None or node.op == "+" else -value
    assert isinstance(node, Annotated | Group)
    return _evaluated(node.inner)


def compile_plan(node: Node, group: GroupCompiler) -> Plan:
    """Compile a syntax tree, its dice groups and sets by ``group``."""
    value = _constant(node)
    if value is not None and not isinstance(node, Const):
        return compile_plan(Const(value), group)
    return _unfolded(node, group)


def top_offset(node: Node) -> tuple[Node, Fraction | None]:
    """A sum's term that is a constant with a fraction, kept apart from the rest: ``15 / 2 +
    1d4`` is ``1d4`` and 15/2 (so that a roll makes the Fraction of its exact value only when
    that is read); ``(node, None)`` when there is no such term."""
    if isinstance(node, BinOp) and node.op in ("+", "-") and _constant(node) is None:
        right = _constant(node.right)
        if isinstance(right, Fraction) and right.denominator != 1:
            return node.left, (right if node.op == "+" else -right)
        left = _constant(node.left)
        if isinstance(left, Fraction) and left.denominator != 1:
            return (node.right if node.op == "+" else Unary("-", node.right)), left
    return node, None


def _unfolded(node: Node, group: GroupCompiler) -> Plan:
    if isinstance(node, Const):
        value = node.value

        def const(src: Source, out: list[int], sink: list[Any]) -> Value:
            return value

        return const
    if isinstance(node, BinOp):
        return _binop(node, group)
    if isinstance(node, Unary):
        operand = compile_plan(node.operand, group)
        if node.op == "+":
            return operand

        def neg(src: Source, out: list[int], sink: list[Any]) -> Value:
            return -operand(src, out, sink)

        return neg
    if isinstance(node, Annotated):
        return compile_plan(node.inner, group)
    if isinstance(node, Group) and not node.ops:
        return compile_plan(node.inner, group)
    return group(node)


def _add_fraction(value: Fraction, rolled: Plan) -> Plan:
    """``rolled + value`` for a decimal ``value``: a whole roll is added to its numerator
    (Fraction's own ``+`` is twice as slow)."""
    num, den = value.numerator, value.denominator

    def add_fraction(src: Source, out: list[int], sink: list[Any]) -> Value:
        b = rolled(src, out, sink)
        if type(b) is int:
            return Fraction(num + den * b, den)
        return value + b

    return add_fraction


def _binop(node: BinOp, group: GroupCompiler) -> Plan:
    left, right = compile_plan(node.left, group), compile_plan(node.right, group)
    op = node.op
    if op == "+":
        for fixed, rolled in ((node.left, right), (node.right, left)):
            value = _constant(fixed)
            if isinstance(value, Fraction) and value.denominator != 1:
                return _add_fraction(value, rolled)

        def add(src: Source, out: list[int], sink: list[Any]) -> Value:
            return left(src, out, sink) + right(src, out, sink)

        return add
    if op == "-":

        def sub(src: Source, out: list[int], sink: list[Any]) -> Value:
            return left(src, out, sink) - right(src, out, sink)

        return sub
    fn = ARITH[op]
    divides = op in ("/", "//", "%")
    at = node.position

    def binop(src: Source, out: list[int], sink: list[Any]) -> Value:
        a = left(src, out, sink)
        b = right(src, out, sink)
        if divides and b == 0:
            raise DiceValueError(
                f"division by zero: the right side of '{op}' at position {at} rolled 0",
                position=at, operator=op,
            )
        return fn(a, b)

    return binop
