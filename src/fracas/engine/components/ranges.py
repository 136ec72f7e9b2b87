"""Pairwise range bands with a directional hidden flag (Etherscope).

The band between two characters is symmetric and stored once per unordered pair under the key
``"a|b"`` with the two ids sorted (see :func:`pair_key`; ids must not contain ``|``). Hidden
is directional: ``hidden[a]`` lists those ``a`` is hidden from. Hiding does not change the
band underneath; revealing keeps it unless a new band is given.

Checks are pure and raise; mutators never raise (bands are clamped to Close..Distant).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from fracas.engine.components._common import Names, label, pair_key, split_key
from fracas.errors import IllegalCommand, InvalidInput

__all__ = ["DEFAULT_BAND", "Band", "RangeBands", "pair_key"]


class Band(IntEnum):
    """The ordered range scale; stored as its int value."""

    CLOSE = 0
    NEAR = 1
    DISTANT = 2

    @property
    def title(self) -> str:
        """``"Close"``, ``"Near"`` or ``"Distant"``."""
        return self.name.capitalize()


DEFAULT_BAND = int(Band.NEAR)
"""The band a mutator assumes for a pair that has none set yet."""


def _band_name(band: int) -> str:
    return Band(band).title if band in (0, 1, 2) else str(band)


@dataclass(slots=True)
class RangeBands:
    """Range bands between every pair of ``actors`` plus who is hidden from whom."""

    actors: list[str] = field(default_factory=list)
    bands: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, list[str]] = field(default_factory=dict)

    # -- queries and checks

    def has(self, a: str, b: str) -> bool:
        """Whether a band is set between ``a`` and ``b`` (query)."""
        return pair_key(a, b) in self.bands

    def get(self, a: str, b: str) -> int:
        """The band between ``a`` and ``b`` (Close for a with itself).

        Raises InvalidInput when no band is set between them.
        """
        if a == b:
            return int(Band.CLOSE)
        key = pair_key(a, b)
        if key not in self.bands:
            raise InvalidInput(f"no range is set between {a} and {b}", a=a, b=b)
        return self.bands[key]

    def is_hidden(self, a: str, from_b: str) -> bool:
        """Whether ``a`` is hidden from ``from_b`` (query)."""
        return from_b in self.hidden.get(a, [])

    def hidden_from_all(self, a: str, viewers: list[str]) -> bool:
        """Whether ``a`` is hidden from every one of ``viewers`` other than itself.

        False when that leaves nobody (there is no one to be hidden from).
        """
        others = [v for v in viewers if v != a]
        return bool(others) and all(self.is_hidden(a, v) for v in others)

    def pairs(self) -> list[tuple[str, str, int]]:
        """Every pair with a band as ``(a, b, band)``, ``a < b``, sorted (query)."""
        return [(*split_key(key), band) for key, band in sorted(self.bands.items())]

    def check_band(self, band: int, rule: str | None = None) -> None:
        """Refuse a band value that is not Close (0), Near (1) or Distant (2)."""
        if band not in (0, 1, 2):
            raise InvalidInput(
                f"Range band {band} is not Close (0), Near (1) or Distant (2)",
                rule=rule,
                band=band,
            )

    def check_pair(self, a: str, b: str, rule: str | None = None, *, names: Names = None) -> None:
        """Refuse a pair of one character with itself or with someone not tracked."""
        if a == b:
            raise InvalidInput(f"{label(names, a)} has no range to itself", rule=rule, a=a, b=b)
        for x in (a, b):
            if x not in self.actors:
                raise InvalidInput(
                    f"{label(names, x)} has no ranges in this conflict", rule=rule, actor=x
                )

    def check_add(self, actor: str, rule: str | None = None) -> None:
        """Refuse adding an id already tracked or containing ``|``."""
        if "|" in actor or not actor:
            raise InvalidInput(f"{actor!r} cannot be a participant id", rule=rule, actor=actor)
        if actor in self.actors:
            raise IllegalCommand(f"{actor} already has ranges", rule=rule, actor=actor)

    def check_step(
        self,
        a: str,
        b: str,
        delta: int,
        rule: str | None = None,
        rule_hidden: str | None = None,
        *,
        names: Names = None,
    ) -> None:
        """Refuse ``a`` stepping ``delta`` (±1) against ``b`` past the scale or while hidden.

        ``delta`` +1 steps away (towards Distant), -1 towards (Close). Refused (``rule``) when
        not one step, when it would leave Close..Distant; refused (``rule_hidden``) when
        ``b`` is hidden from ``a``. A hidden ``a`` may step against those it is hidden from.
        """
        self.check_pair(a, b, rule, names=names)
        who, whom = label(names, a), label(names, b)
        if delta not in (-1, 1):
            raise IllegalCommand(
                f"A step moves one range category, not {delta}", rule=rule, delta=delta
            )
        if self.is_hidden(b, a):
            raise IllegalCommand(
                f"{who} cannot step against {whom}, who is hidden from {who}",
                rule=rule_hidden,
                a=a,
                b=b,
            )
        band = self.get(a, b)
        if not 0 <= band + delta <= 2:
            way = "further away than" if delta > 0 else "closer than"
            raise IllegalCommand(
                f"{who} and {whom} are already {_band_name(band)}; "
                f"no step goes {way} {_band_name(band)}",
                rule=rule,
                a=a,
                b=b,
                band=band,
                delta=delta,
            )

    # -- mutators

    def set(self, a: str, b: str, band: int) -> None:
        """Set the band between ``a`` and ``b``, clamped to Close..Distant (mutator)."""
        if a == b:
            return
        self.bands[pair_key(a, b)] = min(2, max(0, band))

    def step(self, a: str, b: str, delta: int) -> None:
        """Move the band by ``delta``, clamped to Close..Distant (mutator)."""
        if a == b:
            return
        current = self.bands.get(pair_key(a, b), DEFAULT_BAND)
        self.set(a, b, current + delta)

    def hide(self, a: str, from_b: str) -> None:
        """``a`` becomes hidden from ``from_b``; the band underneath stays (mutator)."""
        if a == from_b:
            return
        hiders = self.hidden.setdefault(a, [])
        if from_b not in hiders:
            hiders.append(from_b)

    def reveal(self, a: str, from_b: str, band: int | None = None) -> None:
        """``a`` is no longer hidden from ``from_b``; optionally set a new band (mutator)."""
        hiders = self.hidden.get(a)
        if hiders is not None and from_b in hiders:
            hiders.remove(from_b)
            if not hiders:
                del self.hidden[a]
        if band is not None:
            self.set(a, from_b, band)

    def add(self, actor: str, band_to_others: int | dict[str, int] = DEFAULT_BAND) -> None:
        """Track ``actor``: one band to everyone already tracked, or a band per other.

        Others missing from a dict get :data:`DEFAULT_BAND` (mutator).
        """
        if actor not in self.actors:
            self.actors.append(actor)
        for other in self.actors:
            if other == actor:
                continue
            if isinstance(band_to_others, dict):
                self.set(actor, other, band_to_others.get(other, DEFAULT_BAND))
            else:
                self.set(actor, other, band_to_others)

    def remove(self, actor: str) -> None:
        """Stop tracking ``actor``: its bands and hidden flags both ways vanish (mutator)."""
        if actor in self.actors:
            self.actors.remove(actor)
        self.bands = {k: v for k, v in self.bands.items() if actor not in split_key(k)}
        self.hidden.pop(actor, None)
        for hider in list(self.hidden):
            self.reveal(hider, actor)
