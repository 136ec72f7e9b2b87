"""Dice expression grammar: a hand-written recursive-descent parser and the syntax tree.

Grammar (EBNF; whitespace may appear between tokens, but not inside ``NdS``, a number or an
operation such as ``kh3``)::

    text        = [ "d20:" ] , comparison , [ comment ] ;
    comparison  = sum , { ( "==" | "!=" | ">=" | "<=" | ">" | "<" ) , sum } ;
    sum         = product , { ( "+" | "-" ) , product } ;
    product     = unary , { ( "*" | "//" | "/" | "%" ) , unary } ;
    unary       = ( "-" | "+" ) , unary | atom ;
    atom        = ( dice | group | set | number ) , { annotation } ;
    dice        = [ integer ] , "d" , ( integer | "%" ) , { dice_op } , [ count ] ;
    group       = "(" , comparison , ")" , { set_op } , [ count ]
                | "{" , comparison , "}" , { set_op } , [ count ] ;
    set         = "(" , [ comparison , { "," , comparison } , [ "," ] ] , ")" , { set_op } ,
                  [ count ] ;
    dice_op     = "!" , [ ">=" , integer ]                 (* fracas: explode whole chains *)
                | ( "rr" | "ro" | "ra" | "e" ) , selector   (* d20: reroll, explode *)
                | ( "mi" | "ma" ) , integer                 (* d20: minimum, maximum *)
                | set_op ;
    set_op      = ( "k" | "p" ) , selector                  (* d20: keep, drop *)
                | ( "kh" | "kl" | "dh" | "dl" ) , [ integer ] ;   (* fracas spellings *)
    selector    = [ "h" | "l" | "<" | ">" ] , integer ;
    count       = "c" , [ ">=" | "<=" | ">" | "<" ] , integer      (* success count *)
                | ( ">=" | "<=" ) , integer ;              (* the same, fracas reading only *)
    number      = integer | decimal ;
    annotation  = "[" , { any character but "]" } , "]" ;
    comment     = whitespace , letter , { any character } ;

Letters are case-insensitive. ``d6`` means ``1d6``; ``kh`` alone means ``kh1``; ``d%`` is
``d100``. Braces group a check's attribute dice (``{d8+d10}+1``) and otherwise act like
parentheses.

Two readings differ only in what a comparison right after a dice group means: in the fracas
reading (the default) ``10d10>=7`` counts the dice showing 7 or more; in the d20 reading (the
text starts with ``d20:``) it compares the total with 7, as the d20 library and Avrae do. The
explicit ``c>=7`` counts successes in both readings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from fracas.dice.errors import DiceBudgetError, DiceSyntaxError

MAX_LENGTH = 500
MAX_DICE = 1000
MAX_FACES = 1000
MAX_DEPTH = 32
MAX_EXPLOSIONS = 20
MAX_INTEGER = 1_000_000
#: Most dice one group may come to hold once explosions and added dice are counted.
MAX_GROUP_DICE = 25_000
#: Most dice the rerolls of a whole expression are expected to take ("rr" until it stops).
MAX_REROLLS = 10_000

FRACAS = "fracas"
D20 = "d20"
_PREFIX = "d20:"

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
    """``left op right``: ``+ - * / // %`` or a comparison (``== != >= <= > <``, 1 or 0)."""

    op: str
    left: Node
    right: Node


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


# -- text --------------------------------------------------------------------------------------


def _number(value: Value) -> str:
    if isinstance(value, int):
        return str(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:
        rest *= 10
        digit, rest = divmod(rest, value.denominator)
        digits += str(digit)
    if value < 0:  # never produced by the parser (a minus is a Unary), kept exact anyway
        return f"-{_number(-value)}"
    return f"{whole}.{digits or '0'}"


def _ops_text(ops: tuple[Op, ...], reading: str, sides: int | None = None) -> str:
    out = []
    for i, op in enumerate(ops):
        if op.kind == "!":
            nxt = ops[i + 1] if i + 1 < len(ops) else None
            short_count = nxt is not None and _short_count(nxt, reading)
            t = op.sels[0].num
            # "!" alone explodes on the top face, but "!>=N" would read a count as the threshold
            out.append("!" if t == sides and not short_count else f"!>={t}")
        elif op.kind in ("dh", "dl"):
            out.append(f"{op.kind}{op.sels[0].num}")
        elif op.kind == "c" and _short_count(op, reading):
            out.append(str(op.sels[0]))
        else:
            out.append(str(op))
    return "".join(out)


def _short_count(op: Op, reading: str) -> bool:
    return op.kind == "c" and reading == FRACAS and op.sels[0].cat in (">=", "<=")


def node_text(node: Node, reading: str = FRACAS) -> str:
    """The canonical text of a syntax tree node in a reading."""
    if isinstance(node, Const):
        return _number(node.value)
    if isinstance(node, Dice):
        size = "%" if node.percent else str(node.sides)
        head = f"{node.count}d{size}" if node.explicit_count else f"d{size}"
        return head + _ops_text(node.ops, reading, node.sides)
    if isinstance(node, BinOp):
        return f"{node_text(node.left, reading)}{node.op}{node_text(node.right, reading)}"
    if isinstance(node, Unary):
        return f"{node.op}{node_text(node.operand, reading)}"
    if isinstance(node, Group):
        inner = node_text(node.inner, reading)
        body = f"{{{inner}}}" if node.brace else f"({inner})"
        return body + _ops_text(node.ops, reading)
    if isinstance(node, SetOf):
        items = ",".join(node_text(i, reading) for i in node.items)
        if len(node.items) == 1:
            items += ","
        return f"({items})" + _ops_text(node.ops, reading)
    return node_text(node.inner, reading) + "".join(f"[{label}]" for label in node.labels)


def to_source(tree: Tree) -> str:
    """The canonical text of a parsed text (parses back to an equal tree)."""
    text = node_text(tree.root, tree.reading)
    if tree.reading == D20:
        text = _PREFIX + text
    return f"{text} {tree.comment}" if tree.comment else text


# -- bounds ------------------------------------------------------------------------------------


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


# -- parser ------------------------------------------------------------------------------------

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIE_OPS = ("rr", "ro", "ra", "mi", "ma", "e")
_SET_OPS = ("kh", "kl", "dh", "dl", "k", "p")
_MERGED = ("k", "p", "rr", "ro", "ra", "e")


def _show(ch: str) -> str:
    return f'"{ch}"' if ch == "'" else f"'{ch}'" if ch.isprintable() else repr(ch)


class _Parser:
    __slots__ = ("depth", "dice", "low", "n", "pos", "reading", "rerolls", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # ASCII only: str.lower() would read the Kelvin sign 'K' as 'k'
        self.low = text.translate(_ASCII_LOWER)
        self.n = len(text)
        self.pos = 0
        self.depth = 0
        self.dice = 0
        self.rerolls = 0
        self.reading = FRACAS

    # -- errors -------------------------------------------------------------------------
    def syntax(self, what: str, position: int) -> DiceSyntaxError:
        return DiceSyntaxError(
            f"{what} at position {position} in '{self.text}'",
            position=position,
            expression=self.text,
        )

    def budget(self, what: str, position: int) -> DiceBudgetError:
        return DiceBudgetError(
            f"{what} (at position {position} in '{self.text}')",
            position=position,
            expression=self.text,
        )

    def unexpected(self, expected: str) -> DiceSyntaxError:
        if self.pos >= self.n:
            return self.syntax(f"unexpected end of expression, expected {expected}", self.pos)
        return self.syntax(
            f"unexpected {_show(self.text[self.pos])}, expected {expected}", self.pos
        )

    # -- lexing helpers -----------------------------------------------------------------
    def skip(self) -> bool:
        low, n, pos = self.low, self.n, self.pos
        start = pos
        while pos < n and low[pos] in " \t\r\n\f":
            pos += 1
        self.pos = pos
        return pos > start

    def at(self, token: str) -> bool:
        return self.low.startswith(token, self.pos)

    def digit(self) -> bool:
        return self.pos < self.n and "0" <= self.low[self.pos] <= "9"

    def integer(self, what: str) -> int:
        start = pos = self.pos
        low, n = self.low, self.n
        while pos < n and "0" <= low[pos] <= "9":
            pos += 1
        if pos == start:
            raise self.unexpected(what)
        digits = low[start:pos].lstrip("0")
        if len(digits) > 7 or int(digits or "0") > MAX_INTEGER:
            raise self.budget(
                f"number {self.text[start:pos]} is too large; at most {MAX_INTEGER:,}", start
            )
        self.pos = pos
        return int(low[start:pos])

    def enter(self, position: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.budget(f"expression nests deeper than {MAX_DEPTH} levels", position)

    # -- grammar ------------------------------------------------------------------------
    def parse(self) -> Tree:
        if self.n > MAX_LENGTH:
            raise self.budget(
                f"dice expression is {self.n} characters long; at most {MAX_LENGTH} are allowed",
                MAX_LENGTH,
            )
        self.skip()
        if self.at(_PREFIX):
            self.reading = D20
            self.pos += len(_PREFIX)
            self.skip()
        if self.pos >= self.n:
            raise self.syntax("empty dice expression", self.pos)
        root = self.comparison()
        self.skip()
        spaced = self.low[self.pos - 1] in " \t\r\n\f"
        comment = ""
        if self.pos < self.n:
            ch = self.text[self.pos]
            if spaced and (self.low[self.pos] in _LETTERS or ch == "#"):
                comment = self.text[self.pos :].strip()
            elif ch in ")}":
                raise self.syntax(f"unexpected {_show(ch)} with nothing to close", self.pos)
            else:
                raise self.syntax(
                    f"unexpected {_show(ch)}, expected an operator (+ - * / // % or a "
                    "comparison), a comment after a space, or the end",
                    self.pos,
                )
        return Tree(self.reading, root, comment)

    def comparison(self) -> Node:
        node = self.sum()
        while True:
            self.skip()
            for op in COMPARISONS:
                if self.at(op):
                    self.pos += len(op)
                    node = BinOp(op, node, self.sum())
                    break
            else:
                return node

    def sum(self) -> Node:
        node = self.product()
        while True:
            self.skip()
            if self.pos < self.n and self.low[self.pos] in "+-":
                op = self.low[self.pos]
                self.pos += 1
                node = BinOp(op, node, self.product())
            else:
                return node

    def product(self) -> Node:
        node = self.unary()
        while True:
            self.skip()
            if self.at("//"):
                self.pos += 2
                node = BinOp("//", node, self.unary())
            elif self.pos < self.n and self.low[self.pos] in "*/%":
                op = self.low[self.pos]
                self.pos += 1
                node = BinOp(op, node, self.unary())
            else:
                return node

    def unary(self) -> Node:
        self.skip()
        if self.pos < self.n and self.low[self.pos] in "-+":
            start = self.pos
            op = self.low[start]
            self.pos += 1
            self.enter(start)
            node = Unary(op, self.unary())
            self.depth -= 1
            return node
        return self.atom()

    def atom(self) -> Node:
        node = self.primary()
        labels: list[str] = []
        while True:
            save = self.pos
            self.skip()
            if self.pos < self.n and self.low[self.pos] == "[":
                close = self.text.find("]", self.pos + 1)
                if close < 0:
                    raise self.syntax("annotation '[' is never closed with ']'", self.pos)
                labels.append(self.text[self.pos + 1 : close])
                self.pos = close + 1
            else:
                self.pos = save
                break
        return Annotated(node, tuple(labels)) if labels else node

    def primary(self) -> Node:
        self.skip()
        if self.pos >= self.n:
            raise self.unexpected("a number, a die or '('")
        start = self.pos
        ch = self.low[start]
        if ch in "({":
            return self.bracketed(start, ch)
        if ch == "d":
            return self.dice_group(start, 1, explicit=False)
        if "0" <= ch <= "9" or ch == ".":
            if ch == "." or self.decimal_ahead():
                return Const(self.decimal(), start)
            value = self.integer("a number")
            if self.pos < self.n and self.low[self.pos] == "d":
                return self.dice_group(start, value, explicit=True)
            return Const(value, start)
        raise self.unexpected("a number, a die or '('")

    def decimal_ahead(self) -> bool:
        pos = self.pos
        while pos < self.n and "0" <= self.low[pos] <= "9":
            pos += 1
        return pos < self.n and self.low[pos] == "."

    def decimal(self) -> Fraction:
        start = self.pos
        whole = self.integer("a number") if self.low[start] != "." else 0
        self.pos += 1  # the '.'
        if not self.digit():
            raise self.unexpected("a digit after '.'")
        frac_at = self.pos
        while self.digit():
            self.pos += 1
        digits = self.low[frac_at : self.pos]
        if len(digits) > 7:
            raise self.budget(f"decimal {self.text[start:self.pos]} has more than 7 decimals",
                              start)
        return whole + Fraction(int(digits), 10 ** len(digits))

    def bracketed(self, start: int, ch: str) -> Node:
        close = ")" if ch == "(" else "}"
        self.pos += 1
        self.enter(start)
        items: list[Node] = []
        comma = False
        self.skip()
        if ch == "(" and self.at(")"):
            comma = True  # "()" is the empty set
        else:
            while True:
                items.append(self.comparison())
                self.skip()
                if ch == "(" and self.at(","):
                    comma = True
                    self.pos += 1
                    self.skip()
                    if self.at(")"):
                        break
                    continue
                break
        self.skip()
        if self.pos >= self.n or self.low[self.pos] != close:
            found = "the end" if self.pos >= self.n else _show(self.text[self.pos])
            raise self.syntax(
                f"expected '{close}' to close '{ch}' from position {start}, found {found}",
                self.pos,
            )
        self.pos += 1
        self.depth -= 1
        members = len(items) if comma else _member_count(items[0])
        ops_at = self.pos
        ops = self.operations(set_only=True, members=members)
        if ops and not comma and _counted(items[0]):
            raise self.syntax("nothing can follow a success count", ops_at)
        if comma:
            return SetOf(tuple(items), ops)
        return Group(items[0], brace=ch == "{", ops=ops)

    def dice_group(self, start: int, count: int, *, explicit: bool) -> Dice:
        self.pos += 1  # the 'd'
        sides_at = self.pos
        percent = self.at("%")
        if percent:
            self.pos += 1
            sides = 100
        elif not self.digit():
            raise self.unexpected("the number of sides after 'd'")
        else:
            sides = self.integer("the number of sides after 'd'")
        if count > MAX_DICE:
            raise self.budget(f"{count} dice is too many; at most {MAX_DICE} in all", start)
        if sides < 1:
            raise self.syntax("a die needs at least one face", sides_at)
        if sides > MAX_FACES:
            raise self.budget(f"d{sides} has too many faces; at most {MAX_FACES}", sides_at)
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.budget(
                f"expression rolls {self.dice} dice; at most {MAX_DICE} in all", start
            )
        ops = self.operations(set_only=False, sides=sides, members=count)
        return Dice(count, sides, ops, explicit, percent, start)

    # -- operations ---------------------------------------------------------------------
    def operations(self, *, set_only: bool, sides: int = 0, members: int = 0) -> tuple[Op, ...]:
        ops: list[Op] = []
        check = _OpCheck(self, set_only, sides, members)
        while True:
            save = self.pos
            spaced = self.skip()
            at = self.pos
            op = self.operation(set_only, spaced, sides)
            if op is None:
                self.pos = save
                break
            if ops and op.kind == ops[-1].kind and op.kind in _MERGED:
                merged = Op(op.kind, ops[-1].sels + op.sels)
                check.add(op, merged, at)
                ops[-1] = merged
            else:
                check.add(op, op, at)
                ops.append(op)
        return tuple(ops)

    def operation(self, set_only: bool, spaced: bool, sides: int) -> Op | None:
        """The operation at the current position, or None when there is none."""
        if self.pos >= self.n:
            return None
        low, at = self.low, self.pos
        if low[at] == "!" and not set_only and not self.at("!="):
            self.pos += 1
            if self.at(">="):
                self.pos += 2
                return Op("!", (Sel(">=", self.integer("the lowest exploding face after "
                                                       "'!>='")),))
            return Op("!", (Sel(">=", sides),))
        if self.reading == FRACAS and not set_only and (self.at(">=") or self.at("<=")):
            cat = low[at : at + 2]
            self.pos += 2
            return Op("c", (Sel(cat, self.integer(f"a target number after '{cat}'")),))
        if self.reading == FRACAS and not set_only and low[at] in "<>":
            raise self.syntax(
                f"unexpected {_show(self.text[at])}; right after dice a success count is "
                f"written 'c{low[at]}N', '>=N' or '<=N' (compare the total as (2d6){low[at]}N)",
                at,
            )
        if low[at] not in _LETTERS:
            return None
        if low[at] == "c" and (self.digit_at(at + 1) or low[at + 1 : at + 2] in ("<", ">")):
            self.pos += 1
            cat = ""
            for c in (">=", "<=", ">", "<"):
                if self.at(c):
                    cat = c
                    self.pos += len(c)
                    break
            return Op("c", (Sel(cat, self.integer("a target number after 'c'")),))
        names = _SET_OPS if set_only else _DIE_OPS + _SET_OPS
        for name in names:
            if not self.at(name):
                continue
            after = at + len(name)
            if name in ("kh", "kl", "dh", "dl"):
                if not self.digit_at(after) and low[after : after + 1] in tuple(_LETTERS):
                    continue  # "kl" of "klaxon" in a comment: not an operation
                self.pos = after
                n = self.integer("a number of dice") if self.digit() else 1
                if name in ("kh", "kl"):
                    return Op("k", (Sel(name[1], n),))
                return Op(name, (Sel("", n),))
            sel = self.selector(after)
            if sel is None:
                if spaced:
                    return None  # a comment such as "poison" after a space
                self.pos = after
                raise self.unexpected(f"a selector after '{name}' (a number, or h, l, < or > "
                                      "and a number)")
            return Op(name, (sel,))
        if spaced:
            return None
        raise self.unexpected("an operation (k, p, kh, kl, dh, dl, rr, ro, ra, e, mi, ma, !, c)"
                              " or an operator")

    def digit_at(self, pos: int) -> bool:
        return pos < self.n and "0" <= self.low[pos] <= "9"

    def selector(self, pos: int) -> Sel | None:
        low = self.low
        cat = ""
        if pos < self.n and low[pos] in "hl<>":
            cat = low[pos]
            pos += 1
        if not self.digit_at(pos):
            return None
        self.pos = pos
        return Sel(cat, self.integer("a number"))


def _counted(node: Node) -> bool:
    """Whether the members a group's operations would act on were already counted."""
    while isinstance(node, Annotated):
        node = node.inner
    if isinstance(node, Dice | SetOf) or (isinstance(node, Group) and node.ops):
        return bool(node.ops) and node.ops[-1].kind == "c"
    if isinstance(node, Group):
        return _counted(node.inner)
    return False


def _member_count(node: Node) -> int:
    """How many members a group's set operations select among (a group of one value: 1)."""
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, SetOf):
        return len(node.items)
    if isinstance(node, Group) and not isinstance(node.inner, Const | BinOp | Unary):
        return _member_count(node.inner)
    return 1


class _OpCheck:
    """Checks a group's operations one by one: order, selectors, endless loops, budgets."""

    __slots__ = ("chain", "counted", "dice", "first", "hi", "lo", "p", "set_only", "sides")

    def __init__(self, p: _Parser, set_only: bool, sides: int, members: int) -> None:
        self.p = p
        self.set_only = set_only
        self.sides = sides
        self.dice = members
        self.lo, self.hi = 1, sides
        self.first = True
        self.chain = False
        self.counted = False

    def add(self, op: Op, merged: Op, at: int) -> None:
        """Check ``op`` (at ``at``); ``merged`` is it joined with the operation before it."""
        p, kind, sides, sel = self.p, op.kind, self.sides, op.sels[0]
        first, self.first = self.first, False
        if self.counted:
            raise p.syntax("nothing can follow a success count", at)
        if kind == "!":
            if not first:
                raise p.syntax("'!' explodes whole chains and must come first after the dice", at)
            if sel.num > sides:
                raise p.syntax(f"d{sides} never shows {sel.num}, so '!>={sel.num}' never "
                               "explodes", at)
            if sel.num <= 1:
                raise p.budget(f"every face of d{sides} would explode; the chain would never "
                               "end", at)
            self.chain = True
            self.hi = sides * (MAX_EXPLOSIONS + 1)
        elif self.chain and kind in ("rr", "ro", "ra", "e", "mi", "ma"):
            raise p.syntax(f"'{kind}' cannot follow '!' (whole chains); use 'e' to explode "
                           "single dice, as d20 does", at)
        elif kind in ("mi", "ma"):
            if sel.cat:
                raise p.syntax(f"'{kind}' takes a plain number, not '{sel}'", at)
            if kind == "mi":
                self.lo, self.hi = max(self.lo, sel.num), max(self.hi, sel.num)
            else:
                self.lo, self.hi = min(self.lo, sel.num), min(self.hi, sel.num)
        elif kind in ("rr", "ro", "ra", "e"):
            self.rolls_again(op, merged, at)
        elif kind == "c":
            self.counted = True
            if not self.set_only and not self.can_succeed(sel):
                what = f"a chain of d{sides}" if self.chain else f"a d{sides}"
                written = p.text[at : p.pos]
                raise p.syntax(f"{what} never shows {_wanted(sel)}, so '{written}' never "
                               "counts a success", at)

    def rolls_again(self, op: Op, merged: Op, at: int) -> None:
        p, kind, sides, sel = self.p, op.kind, self.sides, op.sels[0]
        if kind in ("e", "rr"):
            what = "explode" if kind == "e" else "be rerolled"
            if not sel.by_value:
                raise p.budget(f"'{kind}{sel}' would never end (there is always a "
                               f"{'highest' if sel.cat == 'h' else 'lowest'} die); select by "
                               f"value: {kind}6, {kind}<3 or {kind}>5", at)
            picked = [f for f in range(1, sides + 1) if any(s.matches(f) for s in merged.sels)]
            if len(picked) == sides:
                raise p.budget(f"every face of d{sides} would {what}; the '{kind}' would never "
                               "end", at)
            if kind == "rr" and op is merged:  # expected dice: sides / faces left per die
                p.rerolls += -(-self.dice * sides // (sides - len(picked)))
                if p.rerolls > MAX_REROLLS:
                    raise p.budget(f"rerolls would take about {p.rerolls:,} dice; at most "
                                   f"{MAX_REROLLS:,}", at)
        if op is merged and kind == "e":
            self.dice *= MAX_EXPLOSIONS + 1
        elif op is merged and kind == "ra":
            self.dice += 1
        if self.dice > MAX_GROUP_DICE:
            raise p.budget(f"explosions could roll {self.dice:,} dice in this group; at "
                           f"most {MAX_GROUP_DICE:,}", at)
        self.lo, self.hi = min(self.lo, 1), max(self.hi, sides)

    def can_succeed(self, sel: Sel) -> bool:
        lo, hi, n = self.lo, self.hi, sel.num
        if sel.cat == ">=":
            return n <= hi
        if sel.cat == "<=":
            return n >= lo
        if sel.cat == ">":
            return n < hi
        if sel.cat == "<":
            return n > lo
        return lo <= n <= hi


def _wanted(sel: Sel) -> str:
    n = sel.num
    return {">=": f"{n} or more", "<=": f"{n} or less", ">": f"more than {n}",
            "<": f"less than {n}"}.get(sel.cat, str(n))


def parse_tree(text: str) -> Tree:
    """Parse ``text`` into a syntax tree, or raise DiceSyntaxError / DiceBudgetError."""
    return _Parser(text).parse()
