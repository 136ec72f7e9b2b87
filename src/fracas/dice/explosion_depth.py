"""How deep the exact odds follow exploding dice, and the probability mass that depth cuts off.

The roller stops an exploding die after ``MAX_EXPLOSIONS`` (20) extra dice, and so does icepool
at the same depth, so the odds are exact for fracas's roller at that depth. An odds query may
follow explosions less deep; the mass it then cuts off is reported as
``Distribution.truncated``.
"""

from __future__ import annotations

from fractions import Fraction

from fracas.dice.expression import Expression
from fracas.dice.nodes import MAX_EXPLOSIONS, Dice, Op

#: Automatic explosion depth stops once the mass cut off is at most this.
TRUNCATION_TARGET = Fraction(1, 10**9)


def _explode_p(node: Dice) -> Fraction:
    assert node.explode is not None
    return Fraction(node.sides - node.explode + 1, node.sides)


def _e_p(node: Dice, op: Op) -> Fraction:
    """The chance that a fresh die of the group is picked by an ``e`` operation."""
    picked = sum(1 for f in range(1, node.sides + 1) if any(s.matches(f) for s in op.sels))
    return Fraction(picked, node.sides)


def pick_depth(groups: tuple[Dice, ...]) -> int:
    """The least depth that cuts at most ``TRUNCATION_TARGET`` of the mass."""
    depth = 1
    while depth < MAX_EXPLOSIONS and truncated_mass(groups, depth) > TRUNCATION_TARGET:
        depth += 1
    return depth


def truncated_mass(groups: tuple[Dice, ...], depth: int) -> Fraction:
    """P(some die's chain goes on past ``depth`` explosions) — zero at the roller's own cap.

    Exact for ``!``; for ``e`` an upper bound (the first die of a chain may be picked for
    certain, e.g. after ``mi``).
    """
    if depth >= MAX_EXPLOSIONS:
        return Fraction(0)
    whole = Fraction(1)
    for g in groups:
        if g.explode is not None:
            whole *= (1 - _explode_p(g) ** (depth + 1)) ** g.count
        for op in g.ops:
            if op.kind == "e":
                whole *= (1 - _e_p(g, op) ** depth) ** (g.count + 1)
    return 1 - whole


def explodes(e: Expression) -> bool:
    """Whether any group of the expression explodes (``!`` or ``e``)."""
    return any(g.explode is not None or any(op.kind == "e" for op in g.ops) for g in e.groups)
