"""A parsed dice expression: its syntax tree, canonical text, bounds and roll plans."""

from __future__ import annotations

from functools import lru_cache

from fracas.dice.bounds import bounds, dice_groups, divisors_that_may_be_zero
from fracas.dice.canonical_text import to_source
from fracas.dice.errors import DiceValueError
from fracas.dice.nodes import Annotated, BinOp, Dice, Group, Node, SetOf, Tree, Unary
from fracas.dice.parser import parse_tree
from fracas.dice.plan import Plan
from fracas.dice.plan_breakdown import compile_breakdown
from fracas.dice.plan_totals import compile_roll, compile_totals


class Expression:
    """A parsed dice expression: the syntax tree, its canonical text, bounds and roll plan."""

    __slots__ = ("_breakdown", "_plan", "_terms", "groups", "maximum", "minimum", "offset",
                 "parsed", "source", "text", "tree")

    def __init__(self, source: str) -> None:
        self.source = source
        self.parsed: Tree = parse_tree(source)
        self.tree: Node = self.parsed.root
        self.text = to_source(self.parsed)
        for division, least, greatest in divisors_that_may_be_zero(self.tree):
            side = ("is 0" if least == greatest else
                    f"may be 0 (it lies between {least} and {greatest}); such a roll is refused "
                    "before any die is rolled")
            op, at = division.op, division.position
            raise DiceValueError(f"division by zero: the right side of '{op}' at position "
                                 f"{at} in '{source}' {side}",
                                 position=at, expression=source, operator=op)
        low, high = bounds(self.tree)
        self.minimum, self.maximum = int(low), int(high)
        self.groups: tuple[Dice, ...] = tuple(dice_groups(self.tree))
        # the lean plan rolls all but a top-level constant with a fraction, ``offset``
        self._plan, self.offset = compile_roll(self.tree)
        self._breakdown: Plan | None = None
        self._terms: list[tuple[int, str, Plan]] | None = None

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

    def breakdown_plan(self) -> Plan:
        """The plan that rebuilds each die of a roll from its faces (compiled once, on demand)."""
        if self._breakdown is None:
            self._breakdown = compile_breakdown(self.tree)
        return self._breakdown

    def terms(self) -> list[tuple[int, str, Plan]]:
        """The signed terms of the top-level sum: (sign, label, plan), in roll order."""
        if self._terms is None:
            out: list[tuple[int, str, Plan]] = []
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


def _split_terms(node: Node, sign: int, out: list[tuple[int, str, Plan]]) -> None:
    if isinstance(node, BinOp) and node.op in "+-":
        _split_terms(node.left, sign, out)
        _split_terms(node.right, sign if node.op == "+" else -sign, out)
    elif isinstance(node, Unary):
        _split_terms(node.operand, sign if node.op == "+" else -sign, out)
    elif isinstance(node, Group) and not node.ops and not isinstance(node.inner, Annotated):
        _split_terms(node.inner, sign, out)
    else:
        out.append((sign, _first_label(node), compile_totals(node)))


@lru_cache(maxsize=4096)
def parse(expr: str) -> Expression:
    """Parse a dice expression (cached); raises DiceSyntaxError, DiceBudgetError or
    DiceValueError (a division whose right side can be 0).

    A text that starts with ``d20:`` is read as the d20 library (and Avrae) read it.
    """
    return Expression(expr)


