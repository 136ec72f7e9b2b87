"""A chase scale of positions 1..N (VERS pursuit and tracking; the lengths a ruleset allows
are its own: VERS's in :mod:`fracas.rulesets.vers.chases`).

Position 1 is the bottom (the hunter may interpose); position N the top (the quarry got
away). Mutators clamp to 1..N and never raise.
"""

from __future__ import annotations

from dataclasses import dataclass

from fracas.errors import InvalidInput

__all__ = ["Track"]


@dataclass(slots=True)
class Track:
    """A scale of ``length`` positions with a marker at ``position`` (1-based)."""

    length: int
    position: int

    @classmethod
    def centred(cls, half: int, start: int | None = None) -> Track:
        """A scale of 2 × ``half`` + 1 positions with the marker at the centre (or at
        ``start``, clamped onto the scale)."""
        track = cls(length=2 * half + 1, position=half + 1)
        if start is not None:
            track.set(start)
        return track

    # -- queries

    def centre(self) -> int:
        """The middle position (the lower middle on an even scale)."""
        return (self.length + 1) // 2

    @property
    def at_bottom(self) -> bool:
        """Whether the marker is at position 1."""
        return self.position <= 1

    @property
    def at_top(self) -> bool:
        """Whether the marker is at position N."""
        return self.position >= self.length

    def check_position(self, position: int, rule: str | None = None) -> None:
        """Refuse a position off the scale (InvalidInput)."""
        if not 1 <= position <= self.length:
            raise InvalidInput(
                f"Position {position} is off the scale 1 to {self.length}",
                rule=rule,
                position=position,
                length=self.length,
            )

    # -- mutators

    def move(self, delta: int) -> int:
        """Move by ``delta`` clamped to 1..N; returns how far it actually moved (mutator)."""
        before = self.position
        self.set(self.position + delta)
        return self.position - before

    def set(self, position: int) -> None:
        """Put the marker at ``position`` clamped to 1..N (mutator)."""
        self.position = min(max(1, self.length), max(1, position))
