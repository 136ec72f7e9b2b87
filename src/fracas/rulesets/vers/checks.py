"""3d6 roll-under checks (VR-ROLL-1): the typed roll every VERS event carries, its modifiers
with their sources, and the breakdowns shown with every roll.

A :class:`Check` is written exactly as before (``skill, tn, mods, modifier, target_number,
breakdown, roll, total, success, dos, dof``): flat in ``attack`` and ``endured``, nested as
``check`` in the other events. Its fields carry the marks of :mod:`fracas.engine.secrets`:
the TN derives from the roller's sheet (and the ``base_tn`` setting), each modifier names the
stat it comes from, and the totals and margins derive from both, so one generic redaction
hides from a player whatever a GM-only stat or setting would give away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from fracas.dice.errors import TableDiceError
from fracas.engine.context import DecideContext
from fracas.engine.events import TypedEvent
from fracas.engine.model import ConflictState
from fracas.engine.secrets import MASK, Derived, Harm, Modifier, Setting, Stat

#: The roller's TN: from its ``tn`` table, or base TN + attribute + ranks (VR-ROLL-1).
TN = Annotated[
    int | None, Stat("actor", "tn"), Stat("actor", "skills"), Stat("actor", "strength"),
    Stat("actor", "agility"), Stat("actor", "endurance"), Stat("actor", "intellect"),
    Stat("actor", "intuition"), Stat("actor", "willpower"), Stat("actor", "charisma"),
    Stat("actor", "presence"), Stat("actor", "composure"), Setting("base_tn"),
]

Mods = tuple[Modifier, ...]
#: The roller's condition penalties are among the modifiers (VR-INJ-3), and the totals and
#: margins derive from them: where the roller's harm view is ``none`` they are masked (the
#: band names the conditions, which tell the penalties).
ROLLER_HARM = Harm("actor", band=True)


@dataclass(frozen=True, kw_only=True)
class CheckFields:
    """The fields of one 3d6 roll-under check, rolled by the event's actor (a mixin of the
    events that carry them flat, before or after fields of their own)."""

    skill: str
    tn: TN = None
    mods: Annotated[Mods, ROLLER_HARM] = ()
    modifier: Annotated[int | None, Derived("mods")] = None
    target_number: Annotated[int | None, Derived("tn", "mods")] = None
    breakdown: Annotated[str | None, Derived("mods")] = None
    roll: dict[str, Any] = field(default_factory=dict)
    total: int = 0
    success: bool = False
    dos: Annotated[int | None, Derived("target_number")] = None
    dof: Annotated[int | None, Derived("target_number")] = None

    def check_fields(self) -> dict[str, Any]:
        """The check's own fields, to build an event that carries them flat."""
        return {name: getattr(self, name) for name in CHECK_FIELDS}


@dataclass(frozen=True, kw_only=True)
class Check(CheckFields, TypedEvent):
    """A check nested in an event (its ``check``); its actor, the roller, is the event's."""

    def to_json(self) -> dict[str, Any]:
        """The nested JSON form."""
        return dict(self.data)

    @classmethod
    def from_json(cls, data: Any) -> Check:
        """Read the nested JSON form."""
        return Check.from_payload(dict(data))


CHECK_FIELDS = ("skill", "tn", "mods", "modifier", "target_number", "breakdown", "roll",
                "total", "success", "dos", "dof")


def source(state: ConflictState, *candidates: tuple[str, str]) -> tuple[str, str]:
    """The (participant, stat) a value comes from, of ``candidates`` it is computed from: the
    first of them that is GM-only (so that the redaction hides it), else the first."""
    for pid, stat in candidates:
        p = state.participants.get(pid)
        if p is not None and stat in p.gm_only:
            return pid, stat
    return candidates[0]


def signed(value: int) -> str:
    """``-2`` → ``−2``, ``1`` → ``+1`` (a true minus sign)."""
    return f"−{-value}" if value < 0 else f"+{value}"


def breakdown(mods: Sequence[Modifier]) -> str:
    """"−2 same zone, −2 target engaged, −3 cover, +1 reach: −6" (or "no modifiers").

    A value hidden from a player (None) shows as "?", and so does the total."""
    shown = [m for m in mods if m.value is None or m.value]
    if not shown:
        return "no modifiers"
    if any(m.value is None for m in shown):
        return ", ".join(f"{MASK if m.value is None else signed(m.value)} {m.label}"
                         for m in shown) + f": {MASK}"
    total = sum(m.value or 0 for m in shown)
    return ", ".join(f"{signed(m.value or 0)} {m.label}" for m in shown) + f": {signed(total)}"


def check(
    ctx: DecideContext, skill: str, tn: int, mods: Sequence[Modifier],
    dice: Sequence[int] | None,
) -> Check:
    """Roll 3d6 (or take the table's dice) against ``tn`` + modifiers; roll-under.

    Success when the total is at most the modified TN; DoS = TN − roll, DoF = roll − TN.
    """
    try:
        roll = ctx.roll("3d6", dice)
    except TableDiceError as exc:  # table dice that do not fit 3d6: the rule of the roll
        raise TableDiceError(exc.message, rule="VR-ROLL-1", **exc.values) from None
    kept = tuple(m for m in mods if m.value)
    modifier = sum(m.value or 0 for m in kept)
    target_number = tn + modifier
    margin = target_number - roll.total
    success = margin >= 0
    return Check(skill=skill, tn=tn, mods=kept, modifier=modifier,
                 target_number=target_number, breakdown=breakdown(kept), roll=roll.to_data(),
                 total=roll.total, success=success, dos=margin if success else 0,
                 dof=0 if success else -margin)


def check_text(c: CheckFields) -> str:
    """"Athletics TN 13 (−2 guards: −2) → 11: rolled [2, 3, 4] = 9, success, 2 DoS" (numbers
    a viewer may not know shown as "?", the margin left out)."""
    skill = c.skill.replace("_", " ").capitalize()
    rolled = rolled_text(c)
    tn = MASK if c.tn is None else c.tn
    if c.target_number is None:  # numbers from GM-only stats, hidden from a player
        result = "success" if c.success else "failure"
        mods = f" ({breakdown(c.mods)})" if c.mods else ""
        return f"{skill} TN {tn}{mods}: rolled {rolled}, {result}"
    result = f"success, {c.dos} DoS" if c.success else f"failure, {c.dof} DoF"
    if not c.mods:
        return f"{skill} TN {tn}: rolled {rolled}, {result}"
    return (f"{skill} TN {tn} ({breakdown(c.mods)}) → {c.target_number}: rolled "
            f"{rolled}, {result}")


def rolled_text(c: CheckFields) -> str:
    """The check's dice and total, "[2, 3, 4] = 9" (the total alone when the dice are not
    given)."""
    dice = c.roll.get("dice")
    if not dice:
        return str(c.total)
    return f"[{', '.join(str(d) for d in dice)}] = {c.total}"
