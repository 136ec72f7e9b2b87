"""Condition ladders with slots (VERS injury, focus, morale and object tracks).

A ladder has levels from least to greatest; each has a number of slots, a threshold (the
lowest value that lands on it) and a penalty. A condition lands on the level for its value;
if that level is full it is upgraded to the next level with a free slot. When it would go
past a full top level the character is taken out (or, with ``taken_out_when_full``, as soon
as the top level fills).

Checks are pure and raise; mutators never raise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fracas.engine.components._common import Names, label
from fracas.errors import IllegalCommand, InvalidInput

__all__ = ["ConditionLadder", "LadderLevel", "TakeResult", "ladder_from_spec"]


@dataclass(frozen=True, slots=True)
class LadderLevel:
    """One rung: ``name``, ``slots``, ``threshold`` (lowest value landing here), ``penalty``.

    ``penalty_each`` True: the penalty counts once per condition held at this level;
    False: once while any is held. A level never changes, so ladders may share it.
    """

    name: str
    slots: int
    threshold: int
    penalty: int = 0
    penalty_each: bool = False


@dataclass(slots=True)
class TakeResult:
    """What :meth:`ConditionLadder.take` did.

    ``level`` is the index filled (None when nothing was marked); ``landed`` the index the
    value pointed at before any upgrade; ``upgraded`` whether it moved up; ``taken_out``
    whether the character is now taken out.
    """

    level: int | None
    landed: int | None = None
    upgraded: bool = False
    taken_out: bool = False


@dataclass(slots=True)
class ConditionLadder:
    """Levels, the notes of conditions held at each (``marks[i]``) and the taken-out flag."""

    levels: list[LadderLevel]
    marks: list[list[str]] = field(default_factory=list)
    taken_out: bool = False
    taken_out_when_full: bool = False

    def __post_init__(self) -> None:
        while len(self.marks) < len(self.levels):
            self.marks.append([])

    # -- queries and checks

    def level_for(self, value: int) -> int | None:
        """The index of the level ``value`` lands on; None below the first threshold."""
        found: int | None = None
        for index, level in enumerate(self.levels):
            if value >= level.threshold:
                found = index
        return found

    def count(self, level: int) -> int:
        """Conditions held at ``level`` (0 for an index off the ladder)."""
        return len(self.marks[level]) if 0 <= level < len(self.marks) else 0

    def is_full(self, level: int) -> bool:
        """Whether every slot of ``level`` is held (True for an index off the ladder)."""
        if not 0 <= level < len(self.levels):
            return True
        return self.count(level) >= self.levels[level].slots

    def highest(self) -> int | None:
        """The index of the greatest level holding a condition; None when none is held."""
        marks = self.marks  # at least one list of marks per level (__post_init__)
        for index in range(len(self.levels) - 1, -1, -1):
            if marks[index]:
                return index
        return None

    def highest_name(self) -> str | None:
        """The name of :meth:`highest`, or None."""
        index = self.highest()
        return None if index is None else self.levels[index].name

    def total(self) -> int:
        """Conditions held on the whole ladder."""
        return sum(len(m) for m in self.marks)

    def total_penalty(self) -> int:
        """The sum of the penalties of the conditions held (per condition or per level)."""
        result = 0
        for level, marks in zip(self.levels, self.marks, strict=False):  # marks: one per level
            if marks:
                result += level.penalty * (len(marks) if level.penalty_each else 1)
        return result

    def check_remove(
        self, rule: str | None = None, *, owner: str | None = None, names: Names = None
    ) -> None:
        """Refuse removing a condition when none is held."""
        if self.highest() is None:
            whose = f"{label(names, owner)} has" if owner is not None else "there are"
            raise IllegalCommand(f"{whose} no conditions to remove", rule=rule, owner=owner)

    # -- mutators

    def take(self, value: int, note: str = "") -> TakeResult:
        """Mark a condition for ``value`` with ``note``, upgrading past full levels (mutator).

        Below the first threshold nothing happens. A condition with nowhere to go (every
        level from its landing level up is full) takes the character out.
        """
        landed = self.level_for(value)
        if landed is None:
            return TakeResult(level=None, taken_out=self.taken_out)
        if self.taken_out:
            return TakeResult(level=None, landed=landed, taken_out=True)
        index = landed
        while index < len(self.levels) and self.is_full(index):
            index += 1
        if index >= len(self.levels):
            self.taken_out = True
            return TakeResult(level=None, landed=landed, upgraded=True, taken_out=True)
        self.marks[index].append(note)
        top = len(self.levels) - 1
        if self.taken_out_when_full and index == top and self.is_full(top):
            self.taken_out = True
        return TakeResult(
            level=index, landed=landed, upgraded=index != landed, taken_out=self.taken_out
        )

    def remove(self, level: int) -> str | None:
        """Remove the latest condition at ``level``; returns its note (mutator; None if none)."""
        if self.count(level) == 0:
            return None
        return self.marks[level].pop()

    def remove_highest(self) -> str | None:
        """Remove the latest condition at the greatest level held; returns its note."""
        index = self.highest()
        return None if index is None else self.remove(index)

    def clear(self) -> None:
        """Remove every condition and the taken-out flag (mutator)."""
        self.marks = [[] for _ in self.levels]
        self.taken_out = False


LevelSpec = Sequence[str | int | bool]


def ladder_from_spec(
    spec: Sequence[LevelSpec], *, taken_out_when_full: bool = False
) -> ConditionLadder:
    """Build a ladder from rows ``(name, slots, threshold, penalty[, penalty_each])``.

    Raises InvalidInput for a malformed row, fewer than one slot, or thresholds that do not
    strictly rise.
    """
    levels: list[LadderLevel] = []
    for row in spec:
        if len(row) not in (4, 5):
            raise InvalidInput(
                f"A ladder level needs name, slots, threshold, penalty[, each], not {row!r}",
                row=list(row),
            )
        name, slots, threshold, penalty = row[0], row[1], row[2], row[3]
        each = row[4] if len(row) == 5 else False
        if (
            not isinstance(name, str)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in row[1:4])
            or not isinstance(each, bool)
        ):
            raise InvalidInput(f"malformed ladder level {row!r}", row=list(row))
        assert isinstance(slots, int) and isinstance(threshold, int)
        assert isinstance(penalty, int)
        if slots < 1:
            raise InvalidInput(
                f"Ladder level {name!r} needs at least one slot, not {slots}", level=name
            )
        if levels and threshold <= levels[-1].threshold:
            raise InvalidInput(
                f"Ladder level {name!r} starts at {threshold}, not above "
                f"{levels[-1].name!r} at {levels[-1].threshold}",
                level=name,
            )
        levels.append(LadderLevel(name, slots, threshold, penalty, each))
    if not levels:
        raise InvalidInput("a ladder needs at least one level")
    return ConditionLadder(levels=levels, taken_out_when_full=taken_out_when_full)
