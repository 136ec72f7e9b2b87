"""A resource pool between a floor and a maximum: HP, MP, condensers.

Mutators clamp to ``floor..maximum`` and never raise; :meth:`ResourcePool.check_spend`
refuses spending more than there is.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.engine.components._common import Names, label
from fracas.errors import IllegalCommand, InvalidInput

__all__ = ["ResourcePool"]


@dataclass(slots=True)
class ResourcePool:
    """``current`` points of a resource, kept between ``floor`` and ``maximum``."""

    current: int
    maximum: int
    floor: int = 0

    # -- queries and checks

    @property
    def is_empty(self) -> bool:
        """Whether the pool is at (or below) its floor."""
        return self.current <= self.floor

    @property
    def is_full(self) -> bool:
        """Whether the pool is at (or above) its maximum."""
        return self.current >= self.maximum

    @property
    def available(self) -> int:
        """Points that may be spent: current above the floor (never negative)."""
        return max(0, self.current - self.floor)

    def check_amount(self, n: int, rule: str | None = None) -> None:
        """Refuse a negative amount (InvalidInput)."""
        if n < 0:
            raise InvalidInput(f"an amount cannot be negative ({n})", rule=rule, amount=n)

    def check_spend(
        self,
        n: int,
        rule: str | None = None,
        *,
        what: str = "points",
        owner: str | None = None,
        names: Names = None,
        secret: bool = False,
    ) -> None:
        """Refuse spending a negative amount or more than is available.

        ``what`` names the resource ("MP") and ``owner`` whose it is, for the message.
        ``secret``: the one refused may not know how much is left (a GM-only pool, even of
        their own character), so the refusal says only that it is not enough.
        """
        self.check_amount(n, rule)
        if n > self.available:
            if secret:
                who = f"{label(names, owner)} has" if owner is not None else "there is"
                raise IllegalCommand(f"{who} not enough {what} left to spend {n}",
                                     rule=rule, owner=owner, amount=n)
            who = f"{label(names, owner)} has" if owner is not None else "there are"
            raise IllegalCommand(
                f"{who} only {self.available} {what} left, not enough to spend {n}",
                rule=rule,
                owner=owner,
                amount=n,
                available=self.available,
            )

    # -- mutators

    def damage(self, n: int) -> int:
        """Lose up to ``n`` points, not below the floor; returns the amount lost (mutator)."""
        before = self.current
        self.current = max(min(self.floor, before), before - max(0, n))
        return before - self.current

    def spend(self, n: int) -> int:
        """Spend ``n`` points (as :meth:`damage`); returns the amount spent (mutator)."""
        return self.damage(n)

    def heal(self, n: int) -> int:
        """Gain up to ``n`` points, not past the maximum; returns the amount gained."""
        before = self.current
        self.current = min(max(self.maximum, before), before + max(0, n))
        return self.current - before

    def set(self, n: int) -> None:
        """Set the current value clamped to ``floor..maximum`` (mutator)."""
        self.current = max(self.floor, min(self.maximum, n))

    def set_maximum(self, n: int) -> None:
        """Change the maximum (not below the floor); current is clamped to it (mutator)."""
        self.maximum = max(self.floor, n)
        self.current = min(self.current, self.maximum)
