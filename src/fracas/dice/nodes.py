"""The syntax tree of a dice expression: its nodes, the two readings and the input limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

MAX_LENGTH = 500
MAX_DICE = 1000
MAX_FACES = 1000
MAX_DEPTH = 32
#: Arithmetic and comparison operators in one expression (``1+1+…``: each is a tree level).
MAX_OPERATORS = 100
MAX_EXPLOSIONS = 20
MAX_INTEGER = 1_000_000
#: Most dice one group may come to hold once explosions and added dice are counted.
MAX_GROUP_DICE = 25_000
#: Most dice the rerolls of a whole expression are expected to take ("rr" until it stops).
MAX_REROLLS = 10_000

FRACAS = "fracas"
D20 = "d20"
D20_PREFIX = "d20:"

Value = int | Fraction


@dataclass(frozen=True, slots=True)
class Sel:
    """A selector: ``cat`` is ``""`` (equal to), ``"h"``/``"l"`` (highest/lowest ``num``),
    ``"<"``/``">"``/``">="``/``"<="`` (compared with ``num``)."""

    cat: str
    num: int

    def __str__(self) -> str:
        return f"{self.cat}{self.num}"

    @property
    def by_value(self) -> bool:
        """Whether the selector picks by value (not the highest or lowest few)."""
        return self.cat not in ("h", "l")

    def matches(self, value: Value) -> bool:
        """Whether a value-selector picks ``value``."""
        cat, num = self.cat, self.num
        if cat == "":
            return value == num
        if cat == "<":
            return value < num
        if cat == ">":
            return value > num
        if cat == ">=":
            return value >= num
        return value <= num


@dataclass(frozen=True, slots=True)
class Op:
    """One operation on a group: ``kind`` and its selectors.

    ``k``/``p`` keep/drop, ``rr``/``ro``/``ra`` reroll until / once / and add, ``e`` explode
    (each extra die is a die of its own), ``mi``/``ma`` minimum/maximum, ``!`` explode whole
    chains (``sels[0]`` is ``>=N``), ``dh``/``dl`` drop highest/lowest, ``c`` count successes.
    Adjacent operations of the same kind (``k1k2``) are one operation with several selectors,
    which select together, as in d20.
    """

    kind: str
    sels: tuple[Sel, ...]

    def __str__(self) -> str:
        if self.kind == "c":
            return f"c{self.sels[0]}"
        return "".join(f"{self.kind}{s}" for s in self.sels)


@dataclass(frozen=True, slots=True)
class Const:
    """A number: an integer, or a decimal held exactly as a Fraction."""

    value: Value
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Dice:
    """A group of ``count`` dice with ``sides`` faces and the operations applied to it in order."""

    count: int
    sides: int
    ops: tuple[Op, ...] = ()
    explicit_count: bool = True
    percent: bool = False
    position: int = field(default=0, compare=False)

    @property
    def explode(self) -> int | None:
        """The lowest face of a ``!`` explosion (``None``: no ``!``)."""
        for op in self.ops:
            if op.kind == "!":
                return op.sels[0].num
        return None

    @property
    def counts(self) -> bool:
        """Whether the group's value is a number of successes."""
        return bool(self.ops) and self.ops[-1].kind == "c"

    @property
    def rolls_more(self) -> bool:
        """Whether the group may roll more dice than ``count`` (explosions, rerolls)."""
        return any(op.kind in ("!", "e", "rr", "ro", "ra") for op in self.ops)


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right``: ``+ - * / // %`` or a comparison (``== != >= <= > <``, 1 or 0);
    ``position`` is the operator's offset in the text."""

    op: str
    left: Node
    right: Node
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    """Unary ``-`` or ``+``."""

    op: str
    operand: Node


@dataclass(frozen=True, slots=True)
class Group:
    """``( … )`` or a braced check group ``{ … }``, with set operations on what it holds."""

    inner: Node
    brace: bool = False
    ops: tuple[Op, ...] = ()


@dataclass(frozen=True, slots=True)
class SetOf:
    """A set ``(a, b, c)``: its value is the sum of the kept items."""

    items: tuple[Node, ...]
    ops: tuple[Op, ...] = ()


@dataclass(frozen=True, slots=True)
class Annotated:
    """A value with labels (``2d6 [fire]``); labels never change the value."""

    inner: Node
    labels: tuple[str, ...]


Node = Const | Dice | BinOp | Unary | Group | SetOf | Annotated

COMPARISONS = ("==", "!=", ">=", "<=", ">", "<")


@dataclass(frozen=True, slots=True)
class Tree:
    """A parsed text: the reading (``"fracas"`` or ``"d20"``), the syntax tree and a comment."""

    reading: str
    root: Node
    comment: str = ""

