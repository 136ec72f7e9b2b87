"""fracas dice: expression grammar → syntax tree → roll tree → text; exact odds; seeded RNG.

>>> from fracas.dice import DiceRng, roll
>>> r = roll("4d6kh3+2", DiceRng.derive("my secret seed", 1))
>>> r.total, r.dice, r.to_text()  # doctest: +SKIP

A text that starts with ``d20:`` is read as the d20 library and Avrae read it
(``d20:1d20+5>=15`` compares the total); see docs/dice.md.
"""

from fracas.dice.errors import (
    DiceBudgetError,
    DiceSyntaxError,
    DiceValueError,
    OddsBudgetError,
    TableDiceError,
    check_target,
)
from fracas.dice.expression import Expression, parse
from fracas.dice.odds import Distribution, OddsReport, distribution, odds_of, pair_odds
from fracas.dice.results import CheckDice, DieResult, GroupResult, Roll
from fracas.dice.rng import DiceRng, new_seed
from fracas.dice.roller import from_table, roll
from fracas.dice.table import parse_dice_list

__all__ = [
    "CheckDice",
    "DiceBudgetError",
    "DiceRng",
    "DiceSyntaxError",
    "DiceValueError",
    "DieResult",
    "Distribution",
    "Expression",
    "GroupResult",
    "OddsBudgetError",
    "OddsReport",
    "Roll",
    "TableDiceError",
    "check_target",
    "distribution",
    "from_table",
    "new_seed",
    "odds_of",
    "pair_odds",
    "parse",
    "parse_dice_list",
    "roll",
]
