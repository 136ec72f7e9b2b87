"""A rolled expression: its total, every face rolled, the kept dice and the roll tree."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fracas.dice.canonical_text import node_text
from fracas.dice.errors import TableDiceError
from fracas.dice.expression import Expression
from fracas.dice.nodes import Annotated, BinOp, Const, Dice, Group, Node, SetOf, Unary, Value
from fracas.dice.plan_breakdown import Member, RolledGroup, group_value
from fracas.dice.table import TableSource


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


def _group_result(raw: RolledGroup) -> GroupResult:
    node, members = raw
    assert isinstance(node, Dice)
    out = [
        DieResult(node.sides, m.value, tuple(m.all_faces()), m.kept, m.boom, m.success,
                  m.rerolled)
        for m in members
    ]
    return GroupResult(node_text(node), tuple(out), group_value(node, members))


def _value_text(v: Value) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        return f"{float(v):.4g}"
    return str(v)


#: The text of rolls already written, by expression and faces (a check rolls the same few
#: hundred combinations again and again): at most this many are kept.
_TEXTS_KEPT = 4096
_TEXTS: dict[tuple[str | int, ...], str] = {}


class Roll:
    """A rolled expression: total, every face rolled (``dice``) and the roll tree.

    Build one with :func:`roll`, :func:`from_table` or :meth:`Roll.from_data`.
    """

    __slots__ = ("_groups", "_kept", "_rolled", "dice", "expr", "total")

    def __init__(self, expr: Expression, rolled: Value, dice: list[int], kept: list[Value]
                 ) -> None:
        """``rolled``: the value of the expression's lean plan (all but ``expr.offset``)."""
        self.expr = expr
        self._rolled = rolled
        offset = expr.offset
        if offset is None:
            self.total = rolled if type(rolled) is int else int(rolled)
        elif type(rolled) is int:  # rounded toward zero, in whole numbers
            scaled = rolled * offset.denominator + offset.numerator
            self.total = (scaled // offset.denominator if scaled >= 0
                          else -(-scaled // offset.denominator))
        else:
            self.total = int(rolled + offset)
        self.dice = dice
        self._kept = kept
        self._groups: list[RolledGroup] | None = None

    @property
    def value(self) -> Value:
        """The exact value (a Fraction after '/' or decimals); ``total`` rounds it toward 0."""
        offset = self.expr.offset
        return self._rolled if offset is None else self._rolled + offset

    def _rolled_groups(self) -> list[RolledGroup]:
        """Each group and set with its members, rebuilt from the faces on first use."""
        if self._groups is None:
            groups: list[RolledGroup] = []
            self.expr.breakdown_plan()(TableSource(self.expr.text, self.dice), [], groups)
            self._groups = groups
        return self._groups

    @property
    def expression(self) -> str:
        """The canonical text of the rolled expression."""
        return self.expr.text

    @property
    def groups(self) -> list[GroupResult]:
        """Each dice group in roll order, with each die's face, size and flags."""
        return [_group_result(g) for g in self._rolled_groups() if isinstance(g[0], Dice)]

    def kept(self) -> list[Value]:
        """The value of every kept die (exploded chains summed), in roll order."""
        return list(self._kept)

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
        source = TableSource(self.expr.text, self.dice)
        for sign, label, plan in self.expr.terms():
            out[label] = out.get(label, 0) + sign * plan(source, [], [])
        return out

    # -- text forms ----------------------------------------------------------------------
    def pieces(self) -> Iterator[tuple[str, str]]:
        """The roll tree as (text, style) pieces; style is '', 'drop', 'boom' or 'hit'.

        Adapters render these (``fracas.cli.dice_render`` styles them for a terminal).
        """
        groups = iter(self._rolled_groups())

        def die_pieces(m: Member) -> Iterator[tuple[str, str]]:
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

        def members(raw: RolledGroup) -> Iterator[tuple[str, str]]:
            yield "[", ""
            first = True
            for m in raw[1]:
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
                for i, (item, m) in enumerate(zip(items, raw[1], strict=True)):
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
        key: tuple[str | int, ...] = (self.expr.text, *self.dice)  # they make the text
        text = _TEXTS.get(key)
        if text is None:
            if len(_TEXTS) >= _TEXTS_KEPT:
                _TEXTS.clear()
            text = _TEXTS[key] = self._text()
        return text

    def _text(self) -> str:
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
        """`` (fire 7, radiant 8, unlabelled 3)`` for a roll labelled in parts, else ``""``
        (one label over the whole roll: its total is the roll's, ``2d6[fire] → [6, 5] [fire]
        = 11``, not ``… = 11 (fire 11)``)."""
        if not self.expr.annotated:
            return ""
        groups = self.by_annotation()
        if len(groups) == 1 and "" not in groups and list(groups.values()) == [self.total]:
            return ""
        totals = ", ".join(f"{label or 'unlabelled'} {_value_text(v)}"
                           for label, v in groups.items())
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
        from fracas.dice.roller import from_table  # the roller builds rolls: imported late

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
    if isinstance(inner, Group):  # as pool_target: a group with operations holds a set
        return False if inner.ops else _single(Group(inner.inner, ops=node.ops))
    return True


