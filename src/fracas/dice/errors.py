"""The errors of the dice library: typed sentences that say what and where."""

from __future__ import annotations

from typing import Any

from fracas.errors import InvalidInput


class DiceSyntaxError(InvalidInput):
    """A dice expression that does not parse; ``position`` is the 0-based offending offset."""

    code = "dice_syntax"

    def __init__(self, message: str, *, position: int, expression: str, **values: Any) -> None:
        self.position = position
        self.expression = expression
        super().__init__(message, position=position, expression=expression, **values)


class DiceBudgetError(InvalidInput):
    """A dice expression too large to roll safely (too many dice, faces, nesting, length...)."""

    code = "dice_budget"

    def __init__(self, message: str, *, position: int, expression: str, **values: Any) -> None:
        self.position = position
        self.expression = expression
        super().__init__(message, position=position, expression=expression, **values)


def check_target(value: int, what: str) -> int:
    """A number a total is compared with (``odds --vs``, ``roll --dc``): at most
    ``MAX_INTEGER`` either side, as a number written in an expression."""
    from fracas.dice.nodes import MAX_INTEGER

    if abs(value) > MAX_INTEGER:
        raise InvalidInput(f"{what} {value} is past the dice limits: a total is compared with "
                           f"at most {MAX_INTEGER:,} either side, as a number in an expression "
                           "(the limit on numbers)", limit=MAX_INTEGER)
    return value


class DiceValueError(InvalidInput):
    """A roll that cannot be evaluated: a division whose right side is or may be 0, refused
    before any die is rolled; ``position`` is the 0-based offset of its operator."""

    code = "dice_value"

    def __init__(self, message: str, *, position: int, expression: str = "",
                 **values: Any) -> None:
        self.position = position
        self.expression = expression
        super().__init__(message, position=position, expression=expression, **values)


class TableDiceError(InvalidInput):
    """Dice rolled at the table that do not fit the expression (wrong count or faces)."""

    code = "table_dice"


class OddsBudgetError(InvalidInput):
    """An odds query too large to answer exactly in reasonable time."""

    code = "odds_budget"
