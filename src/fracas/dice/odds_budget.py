"""What an odds query may cost: an estimate made before it is built, and the work charged while
it is built (the d20 operations), both refused with OddsBudgetError past the budget."""

from __future__ import annotations

from fracas.dice.bounds import bounds
from fracas.dice.errors import OddsBudgetError
from fracas.dice.nodes import COMPARISONS, Annotated, BinOp, Const, Dice, Group, Node, Unary

#: Estimated elementary steps one odds query may take (about a second of icepool work).
ODDS_BUDGET = 4_000_000
#: Largest number of distinct totals an odds query may produce.
MAX_OUTCOMES = 20_000
#: What one call of a Python function over outcomes costs, in budget steps (about 50 µs).
MAP_STEPS = 200
#: What checking one face against an operation's selectors costs, in budget steps (about 1 µs).
PICK_STEPS = 5
#: What one budget step pays for of a big-integer power, in ``bits ** 1.585``: measured,
#: 200d10e10c>=8 raises a power of about 19 million bits in 5 s.
POWER_BITS = 20_000
#: What mixing one outcome of a die into another costs, in budget steps (a face rerolled into
#: a die of a thousand faces brings a thousand: ``1d1000ro<999`` mixes about a million).
MIX_STEPS = 2


def simple_pool(node: Dice) -> bool:
    """Whether a group only uses fracas's first modifiers: ``!``, one keep or drop, a count
    (icepool has a direct formulation for these)."""
    ops = list(node.ops)
    if ops and ops[0].kind == "!":
        ops.pop(0)
    first = ops[0] if ops else None
    if first is not None and (first.kind in ("dh", "dl") or (
            first.kind == "k" and len(first.sels) == 1 and not first.sels[0].by_value)):
        ops.pop(0)
    if ops and ops[0].kind == "c" and ops[0].sels[0].cat in (">=", "<="):
        ops.pop(0)
    return not ops


def estimate(node: Node, depth: int) -> tuple[int, int]:
    """(estimated outcomes, estimated work) of computing a node's distribution.

    Only the forms with a closed-form cost are estimated here; the d20 operations charge
    their actual work to a :class:`Budget` while they are built.
    """
    if isinstance(node, Const):
        return 1, 0
    if isinstance(node, Dice):
        if not simple_pool(node):
            lo, hi = bounds(node)
            return int(hi - lo) + 1, 0
        k = node.sides * (1 if node.explode is None else depth + 1)
        boom = 0  # building the exploded die: each level mixes a shifted die per exploding face
        if node.explode is not None:
            faces = node.sides - node.explode + 1
            boom = 8 * faces * node.sides * depth * (depth + 1) // 2
        n = node.count
        m = kept_count(node)
        if node.counts:  # each die is a success or not, summed over weights that grow
            # as long as the chain each die explodes to (measured: 1000d10!c>=8 ≈ 12 s)
            digits = 1 if node.explode is None else depth + 1
            return m + 1, boom + 2 * n * n * digits
        if m == n:
            return n * (k - 1) + 1, boom + n * n * k * k // 2
        return m * (k - 1) + 1, boom + 3 * n * k * (m * k + 1)
    if isinstance(node, BinOp):
        a, wa = estimate(node.left, depth)
        b, wb = estimate(node.right, depth)
        if node.op in ("+", "-"):  # as many totals as pairs, at most, and as the span holds
            lo, hi = bounds(node)
            size = min(a * b, int(hi - lo) + 1)
        elif node.op in COMPARISONS:
            size = 2
        else:
            size = a * b
        return size, wa + wb + a * b
    if isinstance(node, Unary):
        return estimate(node.operand, depth)
    if isinstance(node, Annotated):
        return estimate(node.inner, depth)
    if isinstance(node, Group) and not node.ops:
        return estimate(node.inner, depth)
    lo, hi = bounds(node)
    return max(1, int(hi - lo) + 1), 0


def kept_count(node: Dice) -> int:
    """How many dice a simple pool keeps after its keep or drop."""
    n = node.count
    for op in node.ops:
        if op.kind == "k":
            n = min(n, op.sels[0].num)
        elif op.kind in ("dh", "dl"):
            n = max(0, n - op.sels[0].num)
    return n


#: The most outcomes a pool of dice kept, sorted or rerolled together may have.
MAX_POOL_OUTCOMES = 500


class Budget:
    """Work charged while an odds query is built; refuses the query when it runs out."""

    __slots__ = ("expression", "used")

    def __init__(self, expression: str) -> None:
        self.expression = expression
        self.used = 0

    def charge(self, steps: int, what: str) -> None:
        """Charge ``steps`` of icepool arithmetic (the unit of :data:`ODDS_BUDGET`)."""
        self.used += steps
        if self.used > ODDS_BUDGET:
            raise OddsBudgetError(
                f"the exact odds of {self.expression} are too large to compute quickly "
                f"({what} would bring the work to about {self.used:,} steps; the budget is "
                f"{ODDS_BUDGET:,}); try fewer dice, faces or operations",
                expression=self.expression,
            )

    def maps(self, calls: int, what: str) -> None:
        """Charge ``calls`` of a Python function over outcomes (far dearer than arithmetic)."""
        self.charge(calls * MAP_STEPS, what)

    def power(self, bits: int, what: str) -> None:
        """Charge raising a big integer of ``bits`` bits to a power (``sum_power``): CPython
        multiplies by Karatsuba, so the work grows as ``bits ** 1.585``."""
        self.charge(int(bits**1.585) // POWER_BITS, what)

    def totals(self, totals: int, what: str) -> None:
        """Refuse a step whose die would have more than :data:`MAX_OUTCOMES` totals (a sum
        the estimate let through because a division or a keep shrinks it afterwards)."""
        if totals > MAX_OUTCOMES:
            raise OddsBudgetError(
                f"the exact odds of {self.expression} are too large to compute quickly "
                f"({what} would make {totals:,} totals; at most {MAX_OUTCOMES:,}); try fewer "
                "dice or faces", expression=self.expression)

    def pool(self, outcomes: int, what: str) -> None:
        """Refuse a pool of dice (kept, sorted or rerolled together) of more than
        :data:`MAX_POOL_OUTCOMES` outcomes: icepool weighs such a pool one outcome at a time,
        each a level deeper, so a larger one would take minutes or exhaust the stack."""
        if outcomes > MAX_POOL_OUTCOMES:
            raise OddsBudgetError(
                f"the exact odds of {self.expression} are too large to compute quickly "
                f"({what} would weigh dice of {outcomes:,} outcomes together; at most "
                f"{MAX_POOL_OUTCOMES:,}); try dice with fewer faces",
                expression=self.expression,
            )
