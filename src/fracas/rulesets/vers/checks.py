"""3d6 roll-under checks (VR-ROLL-1) and the modifier breakdowns shown with every roll."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fracas.engine.context import DecideContext

Mods = list[list[Any]]  # [[label, value], ...]


def signed(value: int) -> str:
    """``-2`` → ``−2``, ``1`` → ``+1`` (a true minus sign)."""
    return f"−{-value}" if value < 0 else f"+{value}"


def breakdown(mods: Mods) -> str:
    """"−2 same zone, −2 target engaged, −3 cover, +1 reach: −6" (or "no modifiers").

    A value hidden from a player (None) shows as "?", and so does the total."""
    shown = [m for m in mods if m[1] is None or m[1]]
    if not shown:
        return "no modifiers"
    if any(m[1] is None for m in shown):
        return ", ".join(f"{'?' if v is None else signed(int(v))} {label}"
                         for label, v in shown) + ": ?"
    total = sum(int(m[1]) for m in shown)
    return ", ".join(f"{signed(int(v))} {label}" for label, v in shown) + f": {signed(total)}"


def total_mod(mods: Mods) -> int:
    """The sum of the modifiers."""
    return sum(int(m[1]) for m in mods)


def check(
    ctx: DecideContext, skill: str, tn: int, mods: Mods, dice: Sequence[int] | None
) -> dict[str, Any]:
    """Roll 3d6 (or take the table's dice) against ``tn`` + modifiers; roll-under.

    Success when the total is at most the modified TN; DoS = TN − roll, DoF = roll − TN.
    """
    roll = ctx.roll("3d6", dice)
    mods = [m for m in mods if m[1]]
    modifier = total_mod(mods)
    target_number = tn + modifier
    margin = target_number - roll.total
    success = margin >= 0
    return {
        "skill": skill, "tn": tn, "mods": mods, "modifier": modifier,
        "target_number": target_number,
        "breakdown": breakdown(mods), "roll": roll.to_data(), "total": roll.total,
        "success": success, "dos": margin if success else 0, "dof": 0 if success else -margin,
    }


def check_text(c: dict[str, Any]) -> str:
    """"Athletics TN 13 (−2 guards: −2) → 11: rolled 9, success by 2"."""
    skill = str(c.get("skill", "")).replace("_", " ").capitalize()
    result = f"success, {c['dos']} DoS" if c["success"] else f"failure, {c['dof']} DoF"
    if c.get("target_number") is None:  # numbers from GM-only stats, hidden from a player
        result = "success" if c["success"] else "failure"
        tn = "" if c.get("tn") is None else f" TN {c['tn']}"
        mods = f" ({c['breakdown']})" if c.get("mods") else ""
        return f"{skill}{tn}{mods}: rolled {c['total']}, {result}"
    if not c.get("mods"):
        return f"{skill} TN {c['tn']}: rolled {c['total']}, {result}"
    return (f"{skill} TN {c['tn']} ({c['breakdown']}) → {c['target_number']}: rolled "
            f"{c['total']}, {result}")
