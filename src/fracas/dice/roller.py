"""Parsed expressions, rolling, table dice and the roll tree with its text forms."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from rich.text import Text

from fracas.dice.errors import TableDiceError
from fracas.dice.rng import DiceRng
from fracas.dice.syntax import (
    MAX_EXPLOSIONS,
    BinOp,
    Const,
    Dice,
    Neg,
    Node,
    bounds,
    dice_groups,
    parse_tree,
    to_source,
)


class _Source(Protocol):
    def die(self, sides: int) -> int: ...

    def dice(self, count: int, sides: int) -> list[int]: ...


# A rolled group, kept as a plain tuple on the fast path:
# (node, values per die, kept flags or None when all kept, chains or None without explosions)
_GroupRaw = tuple[Dice, list[int], list[bool] | None, list[list[int]] | None]
_Plan = Callable[[_Source, list[int], list[_GroupRaw]], int]


def _compile(node: Node) -> _Plan:
    """Compile a syntax tree to nested closures: no per-node dispatch when rolling."""
    if isinstance(node, Const):
        value = node.value

        def const(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            return value

        return const
    if isinstance(node, Dice):
        return _compile_dice(node)
    if isinstance(node, BinOp):
        left, right = _compile(node.left), _compile(node.right)
        if node.op == "+":

            def add(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
                return left(src, out, groups) + right(src, out, groups)

            return add
        if node.op == "-":

            def sub(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
                return left(src, out, groups) - right(src, out, groups)

            return sub

        def mul(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            return left(src, out, groups) * right(src, out, groups)

        return mul
    if isinstance(node, Neg):
        operand = _compile(node.operand)

        def neg(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            return -operand(src, out, groups)

        return neg
    return _compile(node.inner)


def _compile_dice(node: Dice) -> _Plan:
    count, sides, explode = node.count, node.sides, node.explode
    keep, compare, target = node.keep, node.compare, node.target
    if explode is None and keep is None and compare is None:

        def plain(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
            faces = src.dice(count, sides)
            out += faces
            groups.append((node, faces, None, None))
            return sum(faces)

        return plain

    if keep is None:
        n_keep, highest = count, True
    else:
        n_keep = node.kept_count
        highest = keep in ("kh", "dl")

    def general(src: _Source, out: list[int], groups: list[_GroupRaw]) -> int:
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

    return general


class Expression:
    """A parsed dice expression: the syntax tree, its canonical text, bounds and roll plan."""

    __slots__ = ("_plan", "groups", "maximum", "minimum", "source", "text", "tree")

    def __init__(self, source: str) -> None:
        self.source = source
        self.tree: Node = parse_tree(source)
        self.text = to_source(self.tree)
        self.minimum, self.maximum = bounds(self.tree)
        self.groups: tuple[Dice, ...] = tuple(dice_groups(self.tree))
        self._plan = _compile(self.tree)

    @property
    def explodes(self) -> bool:
        """Whether any dice group of the expression explodes."""
        return any(g.explode is not None for g in self.groups)

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls before explosions."""
        return sum(g.count for g in self.groups)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expression) and other.tree == self.tree

    def __hash__(self) -> int:
        return hash(self.tree)


@lru_cache(maxsize=4096)
def parse(expr: str) -> Expression:
    """Parse a dice expression (cached); raises DiceSyntaxError or DiceBudgetError."""
    return Expression(expr)


@dataclass(frozen=True, slots=True)
class DieResult:
    """One die of a roll: its size, face (chain total when it exploded) and flags."""

    sides: int
    face: int
    faces: tuple[int, ...]
    kept: bool
    exploded: bool
    success: bool | None


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One rolled dice group (``4d6kh3``) with each of its dice and its value."""

    notation: str
    dice: tuple[DieResult, ...]
    value: int


@dataclass(frozen=True, slots=True)
class CheckDice:
    """The dice of a check such as Fabula Ultima's ``{d8+d10}+1``: faces, sizes, high roll."""

    dice: tuple[DieResult, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        """Each die's face, in roll order."""
        return tuple(d.face for d in self.dice)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Each die's number of sides, in roll order."""
        return tuple(d.sides for d in self.dice)

    @property
    def high_roll(self) -> int:
        """The highest face among the check's dice."""
        return max(self.faces)

    @property
    def doubles(self) -> bool:
        """True when the check has exactly two dice and they show the same face."""
        return len(self.dice) == 2 and self.dice[0].face == self.dice[1].face


def _group_results(raw: _GroupRaw) -> GroupResult:
    node, values, kept, chains = raw
    compare, target = node.compare, node.target
    out: list[DieResult] = []
    value = 0
    for i, v in enumerate(values):
        k = True if kept is None else kept[i]
        chain = (v,) if chains is None else tuple(chains[i])
        success: bool | None = None
        if compare is not None:
            success = k and (v >= target if compare == ">=" else v <= target)
            value += 1 if success else 0
        elif k:
            value += v
        out.append(DieResult(node.sides, v, chain, k, len(chain) > 1, success))
    return GroupResult(str(node), tuple(out), value)


class Roll:
    """A rolled expression: total, every face rolled (``dice``) and the roll tree.

    Build one with :func:`roll`, :func:`from_table` or :meth:`Roll.from_data`.
    """

    __slots__ = ("_groups", "dice", "expr", "total")

    def __init__(
        self, expr: Expression, total: int, dice: list[int], groups: list[_GroupRaw]
    ) -> None:
        self.expr = expr
        self.total = total
        self.dice = dice
        self._groups = groups

    @property
    def expression(self) -> str:
        """The canonical text of the rolled expression."""
        return self.expr.text

    @property
    def groups(self) -> list[GroupResult]:
        """Each dice group in roll order, with each die's face, size and flags."""
        return [_group_results(g) for g in self._groups]

    def kept(self) -> list[int]:
        """The value of every kept die (exploded chains summed), in roll order."""
        out: list[int] = []
        for _node, values, kept, _chains in self._groups:
            if kept is None:
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

    # -- text forms ----------------------------------------------------------------------
    def _pieces(self) -> Iterator[tuple[str, str]]:
        """The roll tree as (text, style) pieces; style is '', 'drop', 'boom' or 'hit'."""
        groups = iter(self.groups)

        def walk(node: Node) -> Iterator[tuple[str, str]]:
            if isinstance(node, Const):
                yield str(node.value), ""
            elif isinstance(node, Dice):
                group = next(groups)
                yield "[", ""
                first = True
                for die in group.dice:
                    last = len(die.faces) - 1
                    for j, face in enumerate(die.faces):
                        if not first:
                            yield ", ", ""
                        first = False
                        text = f"{face}!" if j < last else str(face)
                        if not die.kept:
                            yield text, "drop"
                        elif die.success:
                            yield text, "hit"
                        elif j < last:
                            yield text, "boom"
                        else:
                            yield text, ""
                yield "]", ""
            elif isinstance(node, BinOp):
                yield from walk(node.left)
                yield f" {node.op} ", ""
                yield from walk(node.right)
            elif isinstance(node, Neg):
                yield "-", ""
                yield from walk(node.operand)
            else:
                yield ("{" if node.brace else "("), ""
                yield from walk(node.inner)
                yield ("}" if node.brace else ")"), ""

        return walk(self.expr.tree)

    def to_text(self) -> str:
        """Plain text: ``4d6kh3+2 → [6, 5, 3, ~~1~~] + 2 = 16``.

        Dropped dice are struck through (``~~1~~``), a face that exploded is marked ``6!``
        and a die counted as a success is bold (``**8**``).
        """
        parts = [f"{self.expression} → "]
        for text, style in self._pieces():
            if style == "drop":
                parts.append(f"~~{text}~~")
            elif style == "hit":
                parts.append(f"**{text}**")
            else:
                parts.append(text)
        parts.append(f" = {self.total}")
        return "".join(parts)

    def to_rich(self) -> Text:
        """A Rich Text: dropped dice dim and struck, explosions and successes highlighted."""
        styles = {"": "", "drop": "dim strike", "boom": "bold yellow", "hit": "bold green"}
        out = Text()
        out.append(self.expression, style="cyan")
        out.append(" → ")
        for text, style in self._pieces():
            out.append(text, style=styles[style])
        out.append(" = ")
        out.append(str(self.total), style="bold")
        return out

    def to_data(self) -> dict[str, Any]:
        """JSON-native form: ``{"expression": ..., "dice": [...], "total": ...}``."""
        return {"expression": self.expression, "dice": list(self.dice), "total": self.total}

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


def roll(expr: str | Expression, rng: DiceRng) -> Roll:
    """Roll an expression with a seeded generator."""
    e = parse(expr) if isinstance(expr, str) else expr
    dice: list[int] = []
    groups: list[_GroupRaw] = []
    total = e._plan(rng, dice, groups)
    return Roll(e, total, dice, groups)


class _Ran(Exception):
    """Internal: table dice ran out."""


class _TableSource:
    __slots__ = ("expr", "pos", "values")

    def __init__(self, expr: Expression, values: list[int]) -> None:
        self.expr = expr
        self.values = values
        self.pos = 0

    def die(self, sides: int) -> int:
        if self.pos >= len(self.values):
            raise _Ran
        value = self.values[self.pos]
        if not 1 <= value <= sides:
            raise TableDiceError(
                f"die {self.pos + 1} shows {value}, but a d{sides} shows 1 to {sides} "
                f"({self.expr.text}: {self.values})",
                expression=self.expr.text,
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
    dice. Raises TableDiceError for a wrong number of dice or an impossible face.
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
    if not e.explodes and len(faces) != needed:
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
            f"(each exploding face adds a die), got {len(faces)}: {faces}",
            expression=e.text,
            dice=faces,
        ) from None
    if source.pos != len(faces):
        raise TableDiceError(
            f"{e.text} needs {source.pos} dice with these faces "
            f"(an extra die only follows an exploding face), got {len(faces)}: {faces}",
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
