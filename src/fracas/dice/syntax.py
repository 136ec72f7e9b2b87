"""Dice expression grammar: a hand-written recursive-descent parser and the syntax tree.

Grammar (EBNF; whitespace may appear between tokens, but not inside ``NdS`` or a modifier)::

    expression = sum ;
    sum        = product , { ( "+" | "-" ) , product } ;
    product    = unary , { "*" , unary } ;
    unary      = "-" , unary | primary ;
    primary    = integer | dice | "(" , sum , ")" | "{" , sum , "}" ;
    dice       = [ integer ] , "d" , integer , [ explode ] , [ keep ] , [ count ] ;
    explode    = "!" , [ ">=" , integer ] ;
    keep       = ( "kh" | "kl" | "dh" | "dl" ) , [ integer ] ;
    count      = ( ">=" | "<=" ) , integer ;
    integer    = digit , { digit } ;

Letters are case-insensitive. ``d6`` means ``1d6``; ``kh`` alone means ``kh1``. Braces group a
check's attribute dice (``{d8+d10}+1``) and otherwise act like parentheses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.dice.errors import DiceBudgetError, DiceSyntaxError

MAX_LENGTH = 500
MAX_DICE = 1000
MAX_FACES = 1000
MAX_DEPTH = 32
MAX_EXPLOSIONS = 20
MAX_INTEGER = 1_000_000


@dataclass(frozen=True, slots=True)
class Const:
    """An integer constant."""

    value: int
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Dice:
    """A group of ``count`` dice with ``sides`` faces and their modifiers.

    ``explode`` is the lowest face that explodes (``None``: no explosion); ``keep`` is one of
    ``"kh"``, ``"kl"``, ``"dh"``, ``"dl"`` with ``keep_n``; ``compare`` is ``">="`` or ``"<="``
    with ``target`` when the group counts successes instead of summing.
    """

    count: int
    sides: int
    explicit_count: bool = True
    explode: int | None = None
    keep: str | None = None
    keep_n: int = 0
    compare: str | None = None
    target: int = 0
    position: int = field(default=0, compare=False)

    @property
    def kept_count(self) -> int:
        """How many dice of the group count towards its value."""
        if self.keep in ("kh", "kl"):
            return self.keep_n
        if self.keep in ("dh", "dl"):
            return self.count - self.keep_n
        return self.count

    def __str__(self) -> str:
        out = f"{self.count}d{self.sides}" if self.explicit_count else f"d{self.sides}"
        if self.explode is not None:
            # "!" alone explodes on the top face, but "!>=N" would read a count as the threshold
            plain = self.explode == self.sides and self.compare is None
            out += "!" if plain else f"!>={self.explode}"
        if self.keep is not None:
            out += f"{self.keep}{self.keep_n}"
        if self.compare is not None:
            out += f"{self.compare}{self.target}"
        return out


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - *``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Node


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised (``brace=False``) or braced check group (``brace=True``)."""

    inner: Node
    brace: bool = False


Node = Const | Dice | BinOp | Neg | Group


def to_source(node: Node) -> str:
    """The canonical text of a syntax tree (parses back to an equal tree)."""
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, Dice):
        return str(node)
    if isinstance(node, BinOp):
        return f"{to_source(node.left)}{node.op}{to_source(node.right)}"
    if isinstance(node, Neg):
        return f"-{to_source(node.operand)}"
    inner = to_source(node.inner)
    return f"{{{inner}}}" if node.brace else f"({inner})"


def bounds(node: Node) -> tuple[int, int]:
    """The least and greatest total a syntax tree can roll."""
    if isinstance(node, Const):
        return node.value, node.value
    if isinstance(node, Dice):
        kept = node.kept_count
        if node.compare is not None:
            return 0, kept
        chain = 1 if node.explode is None else MAX_EXPLOSIONS + 1
        return kept, kept * node.sides * chain
    if isinstance(node, BinOp):
        llo, lhi = bounds(node.left)
        rlo, rhi = bounds(node.right)
        if node.op == "+":
            return llo + rlo, lhi + rhi
        if node.op == "-":
            return llo - rhi, lhi - rlo
        corners = (llo * rlo, llo * rhi, lhi * rlo, lhi * rhi)
        return min(corners), max(corners)
    if isinstance(node, Neg):
        lo, hi = bounds(node.operand)
        return -hi, -lo
    return bounds(node.inner)


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
        elif isinstance(n, Neg):
            stack.append(n.operand)
        elif isinstance(n, Group):
            stack.append(n.inner)
    return out


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _show(ch: str) -> str:
    return f'"{ch}"' if ch == "'" else f"'{ch}'" if ch.isprintable() else repr(ch)


class _Parser:
    __slots__ = ("depth", "dice", "low", "n", "pos", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # ASCII only: str.lower() would read the Kelvin sign 'K' as 'k'
        self.low = text.translate(_ASCII_LOWER)
        self.n = len(text)
        self.pos = 0
        self.depth = 0
        self.dice = 0

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
    def skip(self) -> None:
        low, n, pos = self.low, self.n, self.pos
        while pos < n and low[pos] in " \t\r\n":
            pos += 1
        self.pos = pos

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

    # -- grammar ------------------------------------------------------------------------
    def parse(self) -> Node:
        if self.n > MAX_LENGTH:
            raise self.budget(
                f"dice expression is {self.n} characters long; at most {MAX_LENGTH} are allowed",
                MAX_LENGTH,
            )
        self.skip()
        if self.pos >= self.n:
            raise self.syntax("empty dice expression", self.pos)
        node = self.sum()
        self.skip()
        if self.pos < self.n:
            ch = self.text[self.pos]
            if ch in ")}":
                raise self.syntax(f"unexpected {_show(ch)} with nothing to close", self.pos)
            raise self.syntax(
                f"unexpected {_show(ch)}, expected an operator (+ - *) or the end", self.pos
            )
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
            if self.pos < self.n and self.low[self.pos] == "*":
                self.pos += 1
                node = BinOp("*", node, self.unary())
            else:
                return node

    def enter(self, position: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.budget(f"expression nests deeper than {MAX_DEPTH} levels", position)

    def unary(self) -> Node:
        self.skip()
        if self.pos < self.n and self.low[self.pos] == "-":
            start = self.pos
            self.pos += 1
            self.enter(start)
            node = Neg(self.unary())
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        self.skip()
        if self.pos >= self.n:
            raise self.unexpected("a number, a die or '('")
        start = self.pos
        ch = self.low[start]
        if ch in "({":
            close = ")" if ch == "(" else "}"
            self.pos += 1
            self.enter(start)
            inner = self.sum()
            self.skip()
            if self.pos >= self.n or self.low[self.pos] != close:
                found = "the end" if self.pos >= self.n else _show(self.text[self.pos])
                raise self.syntax(
                    f"expected '{close}' to close '{ch}' from position {start}, found {found}",
                    self.pos,
                )
            self.pos += 1
            self.depth -= 1
            return Group(inner, brace=ch == "{")
        if ch == "d":
            return self.dice_group(start, 1, explicit=False)
        if "0" <= ch <= "9":
            value = self.integer("a number")
            if self.pos < self.n and self.low[self.pos] == "d":
                return self.dice_group(start, value, explicit=True)
            return Const(value, start)
        raise self.unexpected("a number, a die or '('")

    def dice_group(self, start: int, count: int, *, explicit: bool) -> Dice:
        self.pos += 1  # the 'd'
        sides_at = self.pos
        if self.pos >= self.n or not ("0" <= self.low[self.pos] <= "9"):
            raise self.unexpected("the number of sides after 'd'")
        if count < 1:
            raise self.syntax("a dice group needs at least one die", start)
        if count > MAX_DICE:
            raise self.budget(f"{count} dice is too many; at most {MAX_DICE} in all", start)
        sides = self.integer("the number of sides after 'd'")
        if sides < 1:
            raise self.syntax("a die needs at least one face", sides_at)
        if sides > MAX_FACES:
            raise self.budget(f"d{sides} has too many faces; at most {MAX_FACES}", sides_at)
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.budget(
                f"expression rolls {self.dice} dice; at most {MAX_DICE} in all", start
            )
        explode: int | None = None
        keep: str | None = None
        keep_n = 0
        compare: str | None = None
        target = 0
        low, n = self.low, self.n
        self.skip()
        if self.pos < n and low[self.pos] == "!":
            at = self.pos
            self.pos += 1
            if low.startswith(">=", self.pos):
                self.pos += 2
                explode = self.integer("the lowest exploding face after '!>='")
                if explode > sides:
                    raise self.syntax(
                        f"d{sides} never shows {explode}, so '!>={explode}' never explodes", at
                    )
            else:
                explode = sides
            if explode <= 1:
                raise self.budget(
                    f"every face of d{sides} would explode; the chain would never end", at
                )
            self.skip()
        if self.pos < n and low.startswith(("kh", "kl", "dh", "dl"), self.pos):
            at = self.pos
            keep = low[self.pos : self.pos + 2]
            self.pos += 2
            if self.pos < n and "0" <= low[self.pos] <= "9":
                keep_n = self.integer("a number of dice")
            else:
                keep_n = 1
            if keep in ("kh", "kl") and not 1 <= keep_n <= count:
                raise self.syntax(
                    f"'{keep}{keep_n}' must keep between 1 and {count} of the {count} dice", at
                )
            if keep in ("dh", "dl") and not 1 <= keep_n < count:
                raise self.syntax(
                    f"'{keep}{keep_n}' must drop between 1 and {count - 1} of the {count} dice",
                    at,
                )
            self.skip()
        if self.pos < n and low.startswith((">=", "<="), self.pos):
            compare = low[self.pos : self.pos + 2]
            self.pos += 2
            target = self.integer(f"a target number after '{compare}'")
        elif self.pos < n and low[self.pos] in "<>=":
            raise self.syntax(
                f"unexpected {_show(self.text[self.pos])}; success counting is written "
                "'>=N' or '<=N'",
                self.pos,
            )
        return Dice(count, sides, explicit, explode, keep, keep_n, compare, target, start)


def parse_tree(text: str) -> Node:
    """Parse ``text`` into a syntax tree, or raise DiceSyntaxError / DiceBudgetError."""
    return _Parser(text).parse()
