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
    _streams: dict[str, DiceRng] | None = None

    @property
    def rng(self) -> DiceRng:
        """This command's generator (created on first use)."""
        if self._rng is None:
            self._rng = DiceRng.derive(self.seed, self.version)
        return self._rng

    def stream(self, key: str) -> DiceRng:
        """This command's generator of its own for ``key``: what it rolls does not hang on
        how many dice the command rolled elsewhere. One character's roll-offs, say, roll the
        same dice whoever else ties with it, so a tie partner the viewer may not know of
        shifts no one's dice."""
        if self._streams is None:
            self._streams = {}
        rng = self._streams.get(key)
        if rng is None:
            rng = self._streams[key] = DiceRng.derive(self.seed, f"{self.version}/{key}")
        return rng

    def roll(
        self, expression: str, table: Sequence[int] | None = None, *, rule: str | None = None,
        stream: str | None = None,
    ) -> Roll:
        """Roll ``expression`` (from :meth:`stream` ``stream`` when given), or take the dice
        rolled at the table when ``table`` is given (dice that do not fit are refused, citing
        ``rule`` when one is given)."""
        if table is not None:
            try:
                return from_table(expression, table)
            except FracasError as exc:
                raise with_rule(exc, rule) from None
        return roll(expression, self.rng if stream is None else self.stream(stream))
