"""Dice rolled at the table: a source of faces that replays them, and the typed-in list."""

from __future__ import annotations

import re

from fracas.dice.errors import TableDiceError


class TableDiceRanOut(Exception):
    """Internal: the table dice ran out before the expression was rolled."""


class TableSource:
    """A dice source that hands out given faces in order, each checked against its die."""

    __slots__ = ("pos", "text", "values")

    def __init__(self, text: str, values: list[int]) -> None:
        self.text = text
        self.values = values
        self.pos = 0

    def die(self, sides: int) -> int:
        """The next face, which must fit a d``sides``."""
        if self.pos >= len(self.values):
            raise TableDiceRanOut
        value = self.values[self.pos]
        if not 1 <= value <= sides:
            raise TableDiceError(
                f"die {self.pos + 1} shows {value}, but a d{sides} shows 1 to {sides} "
                f"({self.text}: {self.values})",
                expression=self.text,
                dice=self.values,
                position=self.pos,
                sides=sides,
            )
        self.pos += 1
        return value

    def dice(self, count: int, sides: int) -> list[int]:
        """The next ``count`` faces."""
        return [self.die(sides) for _ in range(count)]


def misfit(error: TableDiceError, dice: list[int]) -> str:
    """What is wrong with ``dice`` typed in for a roll that refused them with ``error``, for
    a sentence that has said the roll already: which die shows a face its die does not
    ("die 2 shows 11: a d10 shows 1 to 10"), or how many were typed in ("3 were typed in:
    [4, 4, 4]")."""
    at, sides = error.values.get("position"), error.values.get("sides")
    if isinstance(at, int) and isinstance(sides, int) and 0 <= at < len(dice):
        return f"die {at + 1} shows {dice[at]}: a d{sides} shows 1 to {sides}"
    typed = "was" if len(dice) == 1 else "were"
    return f"{len(dice)} {typed} typed in: {dice}"


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
