"""Where dice typed at the table go wrong: each error names the position of the bad entry,
as the CLI prompt and the browser table point at it."""

from __future__ import annotations

import pytest

from fracas.dice.errors import TableDiceError
from fracas.dice.table import parse_dice_list


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("5 x", 2, "'x' at position 2 in '5 x'"),
        ("5 6,x 7", 4, "'x' at position 4"),
        ("7,0", 2, "0 at position 2"),
        ("5,,6", 2, "empty entry at position 2"),
        (",5", 0, "empty entry at position 0"),
        ("5,", 1, "empty entry at position 1"),
        ("5, ,6", 3, "empty entry at position 3"),  # the comma that closes the blank entry
        ("5, ", 1, "empty entry at position 1"),  # at the end: the last comma
    ],
)
def test_table_dice_errors_point_at_the_bad_entry(text: str, position: int, fragment: str) -> None:
    with pytest.raises(TableDiceError, match=fragment) as info:
        parse_dice_list(text)
    assert info.value.values["position"] == position
