"""Rolling an expression: with a seeded generator, or from the dice rolled at the table."""

from __future__ import annotations

from collections.abc import Sequence

from fracas.dice.errors import TableDiceError
from fracas.dice.expression import Expression, parse
from fracas.dice.nodes import Value
from fracas.dice.results import Roll
from fracas.dice.rng import DiceRng
from fracas.dice.table import TableDiceRanOut, TableSource


def roll(expr: str | Expression, rng: DiceRng) -> Roll:
    """Roll an expression with a seeded generator."""
    e = parse(expr) if isinstance(expr, str) else expr
    dice: list[int] = []
    kept: list[Value] = []
    return Roll(e, e._plan(rng, dice, kept), dice, kept)


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
    source = TableSource(e.text, faces)
    dice: list[int] = []
    kept: list[Value] = []
    try:
        rolled = e._plan(source, dice, kept)
    except TableDiceRanOut:
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
    return Roll(e, rolled, dice, kept)


