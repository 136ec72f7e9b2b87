"""What ``decide`` may use besides the state: the command's dice and who gave it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fracas.dice import DiceRng, Roll, from_table, roll
from fracas.engine.model import Viewer
from fracas.errors import FracasError, with_rule


@dataclass(slots=True)
class DecideContext:
    """The generator of one command and its author.

    The generator is derived from the conflict's secret seed and the command's version, so
    the same command at the same version always rolls the same dice (DESIGN.md principle 2).
    """

    seed: str
    version: int
    author: Viewer = field(default_factory=Viewer.gm)
    _rng: DiceRng | None = None

    @property
    def rng(self) -> DiceRng:
        """This command's generator (created on first use)."""
        if self._rng is None:
            self._rng = DiceRng.derive(self.seed, self.version)
        return self._rng

    def roll(
        self, expression: str, table: Sequence[int] | None = None, *, rule: str | None = None
    ) -> Roll:
        """Roll ``expression``, or take the dice rolled at the table when ``table`` is given
        (dice that do not fit are refused, citing ``rule`` when one is given)."""
        if table is not None:
            try:
                return from_table(expression, table)
            except FracasError as exc:
                raise with_rule(exc, rule) from None
        return roll(expression, self.rng)
