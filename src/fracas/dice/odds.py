"""Exact odds of dice expressions, computed by icepool, and the OddsReport every ruleset returns.

The roller stops an exploding die after ``MAX_EXPLOSIONS`` (20) extra dice, and so does icepool
at the same depth, so the distributions here are exact for fracas's roller. To stay fast an odds
query may follow explosions less deep (``explode_depth``); the probability mass cut off by the
shallower depth is then reported as ``Distribution.truncated`` and in the report's notes.

icepool is imported lazily, so ``import fracas.dice`` stays quick for the roller.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from fracas.dice.bounds import bounds, pool_target
from fracas.dice.errors import DiceValueError, OddsBudgetError
from fracas.dice.exact_sums import exploded, sum_power
from fracas.dice.expression import Expression, parse
from fracas.dice.nodes import (
    COMPARISONS,
    MAX_EXPLOSIONS,
    Annotated,
    BinOp,
    Const,
    Dice,
    Group,
    Node,
    Op,
    Sel,
    SetOf,
    Unary,
    Value,
)
from fracas.dice.plan import ARITH

#: Estimated elementary steps one odds query may take (about a second of icepool work).
ODDS_BUDGET = 4_000_000
#: Largest number of distinct totals an odds query may produce.
MAX_OUTCOMES = 20_000
#: What one call of a Python function over outcomes costs, in budget steps (about 50 µs).
MAP_STEPS = 200
#: Automatic explosion depth stops once the mass cut off is at most this.
TRUNCATION_TARGET = Fraction(1, 10**9)


class Distribution:
    """An exact probability distribution of integer totals.

    Held as integer quantities over one denominator with prefix sums, so ``p_at_least`` and
    ``p_at_most`` are a bisection and one Fraction each.
    """

    __slots__ = (
        "_cum",
        "_den",
        "_outcomes",
        "_quantities",
        "explode_depth",
        "expression",
        "truncated",
    )

    def __init__(
        self,
        probabilities: Mapping[int, Fraction],
        *,
        expression: str = "",
        truncated: Fraction = Fraction(0),
        explode_depth: int | None = None,
    ) -> None:
        den = math.lcm(*(p.denominator for p in probabilities.values())) if probabilities else 1
        pairs = sorted(probabilities.items())
        self._set([o for o, _ in pairs], [int(p * den) for _, p in pairs], den)
        self.expression = expression
        self.truncated = truncated
        self.explode_depth = explode_depth

    def _set(self, outcomes: list[int], quantities: list[int], denominator: int) -> None:
        self._outcomes = outcomes
        self._quantities = quantities
        self._den = denominator
        self._cum = [0, *itertools.accumulate(quantities)]

    @classmethod
    def _from_quantities(
        cls,
        outcomes: list[int],
        quantities: list[int],
        denominator: int,
        *,
        expression: str,
        truncated: Fraction,
        explode_depth: int | None,
    ) -> Distribution:
        self = cls.__new__(cls)
        self._set(outcomes, quantities, denominator)
        self.expression = expression
        self.truncated = truncated
        self.explode_depth = explode_depth
        return self

    def items(self) -> list[tuple[int, Fraction]]:
        """(total, probability) pairs in increasing total."""
        den = self._den
        return [
            (o, Fraction(q, den)) for o, q in zip(self._outcomes, self._quantities, strict=True)
        ]

    def to_dict(self) -> dict[int, Fraction]:
        """A plain dict total → probability."""
        return dict(self.items())

    def __getitem__(self, total: int) -> Fraction:
        i = bisect.bisect_left(self._outcomes, total)
        if i < len(self._outcomes) and self._outcomes[i] == total:
            return Fraction(self._quantities[i], self._den)
        return Fraction(0)

    def __len__(self) -> int:
        return len(self._outcomes)

    def __iter__(self) -> Iterator[int]:
        return iter(self._outcomes)

    def p_exactly(self, x: int) -> Fraction:
        """P(total = x)."""
        return self[x]

    def p_at_least(self, x: int) -> Fraction:
        """P(total ≥ x)."""
        i = bisect.bisect_left(self._outcomes, x)
        return Fraction(self._cum[-1] - self._cum[i], self._den)

    def p_at_most(self, x: int) -> Fraction:
        """P(total ≤ x)."""
        return Fraction(self._cum[bisect.bisect_right(self._outcomes, x)], self._den)

    @property
    def mean(self) -> Fraction:
        """The expected total."""
        weighted = sum(o * q for o, q in zip(self._outcomes, self._quantities, strict=True))
        return Fraction(weighted, self._den)

    @property
    def min(self) -> int:
        """The least possible total."""
        return self._outcomes[0]

    @property
    def max(self) -> int:
        """The greatest possible total."""
        return self._outcomes[-1]

    def __repr__(self) -> str:
        return f"Distribution({self.expression!r}, {len(self)} outcomes)"


# -- building icepool dice from the syntax tree ----------------------------------------------


def _legacy(node: Dice) -> bool:
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


def _explode_p(node: Dice) -> Fraction:
    assert node.explode is not None
    return Fraction(node.sides - node.explode + 1, node.sides)


def _e_p(node: Dice, op: Op) -> Fraction:
    """The chance that a fresh die of the group is picked by an ``e`` operation."""
    picked = sum(1 for f in range(1, node.sides + 1) if any(s.matches(f) for s in op.sels))
    return Fraction(picked, node.sides)


def _pick_depth(groups: tuple[Dice, ...]) -> int:
    depth = 1
    while depth < MAX_EXPLOSIONS and _truncated(groups, depth) > TRUNCATION_TARGET:
        depth += 1
    return depth


def _truncated(groups: tuple[Dice, ...], depth: int) -> Fraction:
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


def _explodes(e: Expression) -> bool:
    return any(g.explode is not None or any(op.kind == "e" for op in g.ops) for g in e.groups)


def _estimate(node: Node, depth: int) -> tuple[int, int]:
    """(estimated outcomes, estimated work) of computing a node's distribution.

    Only the forms with a closed-form cost are estimated here; the d20 operations charge
    their actual work to a :class:`_Budget` while they are built.
    """
    if isinstance(node, Const):
        return 1, 0
    if isinstance(node, Dice):
        if not _legacy(node):
            lo, hi = bounds(node)
            return int(hi - lo) + 1, 0
        k = node.sides * (1 if node.explode is None else depth + 1)
        boom = 0  # building the exploded die: each level mixes a shifted die per exploding face
        if node.explode is not None:
            faces = node.sides - node.explode + 1
            boom = 8 * faces * node.sides * depth * (depth + 1) // 2
        if node.counts:
            k = 2
        n = node.count
        m = _kept_count(node)
        if m == n:
            return n * (k - 1) + 1, boom + n * n * k * k // 2
        return m * (k - 1) + 1, boom + 3 * n * k * (m * k + 1)
    if isinstance(node, BinOp):
        a, wa = _estimate(node.left, depth)
        b, wb = _estimate(node.right, depth)
        if node.op in ("+", "-"):
            size = a + b - 1
        elif node.op in COMPARISONS:
            size = 2
        else:
            size = a * b
        return size, wa + wb + a * b
    if isinstance(node, Unary):
        return _estimate(node.operand, depth)
    if isinstance(node, Annotated):
        return _estimate(node.inner, depth)
    if isinstance(node, Group) and not node.ops:
        return _estimate(node.inner, depth)
    lo, hi = bounds(node)
    return max(1, int(hi - lo) + 1), 0


def _kept_count(node: Dice) -> int:
    n = node.count
    for op in node.ops:
        if op.kind == "k":
            n = min(n, op.sels[0].num)
        elif op.kind in ("dh", "dl"):
            n = max(0, n - op.sels[0].num)
    return n


class _Budget:
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


def _sum_of(die: Any, count: int) -> Any:
    """The sum of ``count`` copies of ``die``: one big-integer power for whole numbers, else by
    doubling (icepool's ``@`` recurses per die)."""
    if count == 0:
        return 0
    if all(type(o) is int for o in die.outcomes()):
        return sum_power(die, count)
    result: Any = None
    power = die
    while count:
        if count & 1:
            result = power if result is None else result + power
        count >>= 1
        if count:
            power = power + power
    return result


def _as_die(value: Any) -> Any:
    import icepool

    if isinstance(value, _Scaled):
        value = value.value()
    return value if isinstance(value, icepool.Die) else icepool.Die([value])


def _picks(sels: tuple[Sel, ...], value: Value) -> bool:
    return any(s.matches(value) for s in sels)


def _merge(a: tuple[Value, ...], b: tuple[Value, ...]) -> tuple[Value, ...]:
    return tuple(sorted(a + b))


class _Builder:
    """Builds the icepool die of a syntax tree at one explosion depth, within a budget."""

    def __init__(self, depth: int, budget: _Budget) -> None:
        self.depth = depth
        self.budget = budget

    def build(self, node: Node) -> Any:
        if isinstance(node, Const):
            return node.value
        if isinstance(node, Dice):
            return self.dice(node, ())
        if isinstance(node, BinOp):
            return self.binop(node)
        if isinstance(node, Unary):
            inner = self.build(node.operand)
            if node.op == "+":
                return inner
            return _Scaled(-inner.x, inner.scale) if isinstance(inner, _Scaled) else -inner
        if isinstance(node, Annotated):
            return self.build(node.inner)
        if isinstance(node, Group) and not node.ops:
            return self.build(node.inner)
        assert isinstance(node, Group | SetOf)
        target, ops = pool_target(node)
        if isinstance(target, Dice):
            return self.dice(target, ops)
        members = [_as_die(self.build(i)) for i in target]
        return self.members(members, ops, None)

    def binop(self, node: BinOp) -> Any:
        import icepool

        left, right = self.build(node.left), self.build(node.right)
        op = node.op
        if op in ("+", "-", "*"):
            a, b = _Scaled.of(left), _Scaled.of(right)
            if isinstance(a.x, icepool.Die) and isinstance(b.x, icepool.Die):
                self.budget.charge(len(a.x) * len(b.x), f"'{op}'")
            return a.combine(op, b)
        if op == "/" and type(right) is int and right != 0:  # whole numbers over a divisor
            a = _Scaled.of(left)
            return _Scaled(a.x if right > 0 else -a.x, a.scale * abs(right)).simplest()
        fn = ARITH[op]
        a, b = _as_die(left), _as_die(right)
        if op in ("/", "//", "%") and 0 in b:
            raise DiceValueError(
                f"the right side of '{op}' can be 0, so the odds would divide by zero",
                operator=op,
            )
        self.budget.maps(len(a) * len(b), f"'{op}'")
        return icepool.map(fn, a, b)

    # -- dice groups --------------------------------------------------------------------
    def dice(self, node: Dice, extra: tuple[Op, ...]) -> Any:
        import icepool

        ops = node.ops + extra
        if not extra and _legacy(node):
            return self.legacy(node)
        raw = icepool.d(node.sides)
        base = raw
        if ops and ops[0].kind == "!":
            t = ops[0].sels[0].num
            base = exploded(node.sides, list(range(t, node.sides + 1)), self.depth)
            ops = ops[1:]
        if node.count == 0:
            return 0
        split = next((i for i, op in enumerate(ops) if not _per_die(op)), len(ops))
        prefix, rest = ops[:split], ops[split:]
        count = node.count
        if not rest:  # the dice stay independent: sum each die's contribution
            each = _Chain(self, prefix, raw, 0, _add, lambda v: v).of(base)
            self.budget.charge(count * count * len(each) ** 2 // 2, "summing the dice")
            return _sum_of(each, count)
        first = rest[0]
        if not any(op.kind in ("e", "k", "p") for op in prefix):  # one value per die
            scalar = _Chain(self, prefix, raw, 0, _add, lambda v: v).of(base)
            pool = scalar.pool(count)
            if _single_keep(first):  # keeps of the few highest or lowest, one after another,
                low, high = 0, count  # keep a run of sorted places: ((10d6kh5)kl2)kh1 is the
                while rest and _single_keep(rest[0]):  # 4th highest die alone
                    low, high = _kept_places(rest[0], low, high)
                    rest = rest[1:]
                kept = high - low
                if kept == 0:
                    return 0
                pool = pool[low:high]
                if not rest:
                    work = 3 * count * len(scalar) * (kept * len(scalar) + 1)
                    self.budget.charge(work, "keeping dice")
                    return pool.sum()
                self.budget.maps(math.comb(kept + len(scalar) - 1, kept) * count, "keeping dice")
            else:
                self.budget.maps(math.comb(count + len(scalar) - 1, count), "sorting the dice")
            return self.apply(rest, pool.expand(), raw)
        cut = _cut_for(first)
        chain = _Chain(self, prefix, raw, (), lambda a, b: cut(_merge(a, b)), lambda v: (v,))
        elements = chain.of(base)
        return self.apply(rest, self.convolve([elements] * count, cut), raw)

    def legacy(self, node: Dice) -> Any:
        import icepool

        die = icepool.d(node.sides)
        explode = node.explode
        if explode is not None:
            die = exploded(node.sides, list(range(explode, node.sides + 1)), self.depth)
        keep: Op | None = next((o for o in node.ops if o.kind in ("k", "dh", "dl")), None)
        highest = keep is None or (keep.kind == "k" and keep.sels[0].cat == "h") or (
            keep.kind == "dl")
        if node.counts:
            sel = node.ops[-1].sels[0]
            die = die.map(lambda v: 1 if sel.matches(v) else 0)
            if sel.cat == "<=":
                highest = not highest  # a high face is a low indicator
        if node.count == 0:
            return 0
        kept = _kept_count(node)
        if keep is None or kept >= node.count:
            return _sum_of(die, node.count)
        if kept == 0:
            return 0
        pool = die.pool(node.count)
        return (pool.highest(kept) if highest else pool.lowest(kept)).sum()

    def fresh(self, op: Op, raw: Any, rest: tuple[Value, ...], k: int) -> Any:
        """``k`` new dice (rerolled until unpicked for ``rr``) added to ``rest``."""
        import icepool

        die = raw
        if op.kind == "rr":
            die = icepool.Die([f for f in raw.outcomes() if not _picks(op.sels, f)])
        self.budget.maps(math.comb(k + len(die) - 1, k), f"'{op}'")
        return die.pool(k).expand().map(lambda s: _merge(rest, s))

    def extras(self, raw: Any, sels: tuple[Sel, ...], gen: int) -> Any:
        """The extra dice an exploding die at generation ``gen`` adds (``e``), as a tuple."""
        if gen + 1 >= self.depth:
            return raw.map(lambda f: (f,))
        deeper = self.extras(raw, sels, gen + 1)
        self.budget.maps(len(raw) * len(deeper), "an explosion")
        return raw.map(
            lambda f: deeper.map(lambda d: _merge((f,), d)) if _picks(sels, f) else (f,))

    def convolve(self, parts: list[Any], cut: Callable[[tuple[Value, ...]], tuple[Value, ...]]
                 = lambda t: t) -> Any:
        """The sorted multiset of the members of several independent parts (dice of tuples),
        each step cut down by ``cut`` (the few highest, when only those are kept)."""
        import icepool

        acc: Any = icepool.Die([()])
        for part in parts:
            part = _as_die(part)
            self.budget.maps(len(acc) * len(part), "sorting the dice")
            acc = icepool.map(lambda a, b: cut(_merge(a, b)), acc, part)
        return acc

    def add_all(self, parts: list[Any]) -> Any:
        """The sum of independent dice, added in pairs (charged as it goes)."""
        if not parts:
            return 0
        while len(parts) > 1:
            paired = []
            for a, b in zip(parts[::2], parts[1::2], strict=False):
                self.budget.charge(len(a) * len(b), "adding the members")
                paired.append(a + b)
            if len(parts) % 2:
                paired.append(parts[-1])
            parts = paired
        return parts[0]

    # -- operations on the whole multiset -----------------------------------------------
    def members(self, members: list[Any], ops: tuple[Op, ...], raw: Any) -> Any:
        """A set's value: each member's die, then the set's operations."""
        import icepool

        if all(_per_die(o) for o in ops):
            parts = [_Chain(self, ops, raw, 0, _add, lambda v: v).of(m) for m in members]
            return self.add_all(parts)
        single = len(ops) == 1 and _single_keep(ops[0])
        if single and all(len(m) for m in members):
            op = ops[0]
            kept, highest = _keep_of(op, len(members))
            if kept == 0:
                return 0
            self.budget.charge(math.prod(len(m) for m in members), "the set")
            pool = icepool.Pool(members)
            return (pool.highest(kept) if highest else pool.lowest(kept)).sum()
        multi = self.convolve([m.map(lambda v: (v,)) for m in members])
        return self.apply(ops, multi, raw)

    def apply(self, ops: tuple[Op, ...], multi: Any, raw: Any) -> Any:
        for op in ops:
            self.budget.maps(len(multi), f"'{op}'")
            if op.kind == "c":
                return multi.map(_counter(op.sels))
            multi = multi.map(self.step_of(op, raw))
        return multi.map(_tuple_value)

    def step_of(self, op: Op, raw: Any) -> Callable[[tuple[Value, ...]], Any]:
        """``op`` on one multiset, as a function of it alone (for icepool's map)."""
        return lambda t: self.on_multiset(op, t, raw)

    def on_multiset(self, op: Op, t: tuple[Value, ...], raw: Any) -> Any:
        """One operation on a sorted multiset of kept values (result: a tuple or a die)."""
        kind, sels = op.kind, op.sels
        if kind in ("dh", "dl"):
            n = min(sels[0].num, len(t))
            return t[: len(t) - n] if kind == "dh" else t[n:]
        if kind in ("mi", "ma"):
            n = sels[0].num
            return tuple(sorted(max(v, n) if kind == "mi" else min(v, n) for v in t))
        picked = _multiset_picks(sels, t)
        if kind == "k":
            return tuple(v for i, v in enumerate(t) if i in picked)
        if kind == "p":
            return tuple(v for i, v in enumerate(t) if i not in picked)
        if not picked:
            return t
        if kind == "ra":
            return raw.map(lambda f: _merge(t, (f,)))
        if kind == "e":
            return self.convolve([t, *[self.extras(raw, sels, 0)] * len(picked)])
        rest = tuple(v for i, v in enumerate(t) if i not in picked)
        return self.fresh(op, raw, rest, len(picked))


def _denominator(value: Any) -> int:
    """The least common denominator of a number's or a die's outcomes."""
    import icepool

    den = 1
    for o in value.outcomes() if isinstance(value, icepool.Die) else (value,):
        if type(o) is not int:
            den = math.lcm(den, o.denominator)
    return den


def _times(value: Any, k: int) -> Any:
    """A number or a die of numbers times ``k``."""
    import icepool

    if k == 1:
        return value
    if isinstance(value, icepool.Die):
        return value.map(lambda v: int(v * k))
    return int(value * k)


@dataclass(frozen=True, slots=True)
class _Scaled:
    """A value held as whole numbers over one denominator, ``x / scale`` (``x`` an int or a
    die of ints): icepool adds Fractions far slower than ints, and ``/ 2`` is then free."""

    x: Any
    scale: int

    @classmethod
    def of(cls, value: Any) -> _Scaled:
        if isinstance(value, _Scaled):
            return value
        den = _denominator(value)
        return cls(_times(value, den), den)

    def combine(self, op: str, other: _Scaled) -> Any:
        """``self op other`` for ``+ - *``."""
        if op == "*":
            return _Scaled(self.x * other.x, self.scale * other.scale).simplest()
        unit = math.lcm(self.scale, other.scale)
        x, y = _times(self.x, unit // self.scale), _times(other.x, unit // other.scale)
        return _Scaled(x + y if op == "+" else x - y, unit).simplest()

    def simplest(self) -> Any:
        """Plain whole numbers when the denominator is 1."""
        return self.x if self.scale == 1 else self

    def value(self) -> Any:
        """The number or die of exact values (Fractions where not whole)."""
        import icepool

        scale = self.scale
        if isinstance(self.x, icepool.Die):
            return self.x.map(lambda v: Fraction(v, scale) if v % scale else v // scale)
        return Fraction(self.x, scale) if self.x % scale else self.x // scale

    def totals(self) -> Any:
        """The die of totals: each value rounded toward zero."""
        import icepool

        scale = self.scale
        if not isinstance(self.x, icepool.Die):
            return icepool.Die([_toward_zero(self.x, scale)])
        return self.x.map(lambda v: _toward_zero(v, scale))


def _toward_zero(v: int, scale: int) -> int:
    return v // scale if v >= 0 else -(-v // scale)


class _Chain:
    """What one die (or set member) becomes through operations that act on each die alone.

    ``of(die)`` maps each value through the operations: a kept value gives ``leaf(value)``,
    a dropped one ``empty``; ``e`` adds the dice it explodes into with ``combine`` (``+`` for
    a sum, a sorted merge for the multiset of single faces); ``c`` gives 1 or 0.
    """

    def __init__(self, builder: _Builder, ops: tuple[Op, ...], raw: Any, empty: Any,
                 combine: Callable[[Any, Any], Any], leaf: Callable[[Value], Any]) -> None:
        self.builder = builder
        self.ops = ops
        self.raw = raw
        self.empty = empty
        self.combine = combine
        self.leaf = leaf
        self.memo: dict[tuple[int, Value, int], Any] = {}

    def of(self, die: Any) -> Any:
        return _as_die(die).map(lambda v: self.at(0, v, 0))

    def at(self, i: int, v: Value, gen: int) -> Any:
        key = (i, v, gen)
        if key not in self.memo:
            self.memo[key] = self.step(i, v, gen)
        return self.memo[key]

    def step(self, i: int, v: Value, gen: int) -> Any:
        import icepool

        if i == len(self.ops):
            return self.leaf(v)
        op = self.ops[i]
        kind, sels = op.kind, op.sels
        raw = self.raw
        if kind == "c":
            return 1 if _picks(sels, v) else 0
        if kind in ("mi", "ma"):
            n = sels[0].num
            return self.at(i + 1, max(v, n) if kind == "mi" else min(v, n), 0)
        picked = _picks(sels, v)
        if kind in ("k", "p"):
            return self.at(i + 1, v, 0) if picked == (kind == "k") else self.empty
        if not picked:
            return self.at(i + 1, v, 0)
        if kind in ("rr", "ro"):
            faces = raw if kind == "ro" else icepool.Die(
                [f for f in raw.outcomes() if not _picks(sels, f)])
            self.builder.budget.maps(len(faces), f"'{op}'")
            return faces.map(lambda f: self.at(i + 1, f, 0))
        # "e": this die goes on through the later operations, and adds a new die that meets
        # this 'e' again, one generation deeper (the last generation never explodes)
        if gen >= self.builder.depth:
            return self.at(i + 1, v, 0)
        if i + 1 == len(self.ops) and self.combine is _add:  # a plain sum: icepool explodes
            picked_faces = [f for f in raw.outcomes() if _picks(sels, f)]
            extra = self.builder.depth - gen - 1
            return v + (exploded(len(raw), picked_faces, extra) if extra else raw)
        spawned = raw.map(lambda f: self.at(i, f, gen + 1))
        here = _as_die(self.at(i + 1, v, 0))
        self.builder.budget.maps(len(here) * len(spawned), f"'{op}'")
        return icepool.map(self.combine, here, spawned)


def _add(a: Any, b: Any) -> Any:
    return a + b


def _cut_for(op: Op) -> Callable[[tuple[Value, ...]], tuple[Value, ...]]:
    """When the next operation keeps the few highest (lowest), only those need tracking."""
    if op.kind == "k" and len(op.sels) == 1 and op.sels[0].cat in ("h", "l"):
        n = op.sels[0].num
        if op.sels[0].cat == "h":
            return lambda t: t[-n:] if n else ()
        return lambda t: t[:n]
    return lambda t: t


def _counter(sels: tuple[Sel, ...]) -> Callable[[tuple[Value, ...]], int]:
    return lambda t: sum(1 for v in t if _picks(sels, v))


def _tuple_value(t: Any) -> Any:
    return t if isinstance(t, int | Fraction) else sum(t)


def _multiset_picks(sels: tuple[Sel, ...], t: tuple[Value, ...]) -> set[int]:
    """Indices of a sorted multiset that the selectors pick.

    The roller breaks ties by roll order, the earlier die first, for the highest and the
    lowest alike; so when both reach into one run of equal values they pick the same dice,
    whatever their order: here the first indices of the run stand for the earliest dice.
    """
    out: set[int] = set()
    n = len(t)
    for sel in sels:
        if sel.cat in ("h", "l"):
            left = min(sel.num, n)
            i = n - 1 if sel.cat == "h" else 0
            while left > 0:
                v = t[i]
                start = t.index(v)
                run = t.count(v)
                take = min(left, run)
                out.update(range(start, start + take))
                left -= take
                i = start - 1 if sel.cat == "h" else start + run
        else:
            out.update(i for i, v in enumerate(t) if sel.matches(v))
    return out


def _per_die(op: Op) -> bool:
    """Whether an operation acts on each die alone (so the dice stay independent)."""
    if op.kind in ("mi", "ma", "c"):
        return True
    if op.kind in ("k", "p", "rr", "ro", "e"):
        return all(s.by_value for s in op.sels)
    return False


def _single_keep(op: Op) -> bool:
    return op.kind in ("dh", "dl") or (
        op.kind in ("k", "p") and len(op.sels) == 1 and not op.sels[0].by_value)


def _kept_places(op: Op, low: int, high: int) -> tuple[int, int]:
    """The sorted places ``low .. high-1`` (ascending) a single keep or drop leaves of those."""
    m = op.sels[0].num
    highest = op.sels[0].cat == "h" if op.kind in ("k", "p") else op.kind == "dh"
    if op.kind == "k":
        return (max(low, high - m), high) if highest else (low, min(high, low + m))
    return (low, max(low, high - m)) if highest else (min(high, low + m), high)


def _keep_of(op: Op, n: int) -> tuple[int, bool]:
    """(how many are kept, whether the highest) for a single keep or drop of ``n`` members."""
    m = op.sels[0].num
    if op.kind == "dh":
        return max(0, n - m), False
    if op.kind == "dl":
        return max(0, n - m), True
    high = op.sels[0].cat == "h"
    if op.kind == "k":
        return min(m, n), high
    return max(0, n - m), not high


def distribution(expr: str | Expression, *, explode_depth: int | None = None) -> Distribution:
    """The exact distribution of an expression's total (successes for ``>=``/``<=``).

    Exploding dice are followed ``explode_depth`` extra dice deep (default: just deep enough
    that at most 1e-9 of the mass is cut, never past the roller's own cap of 20); the cut mass
    is ``Distribution.truncated``. Raises OddsBudgetError when the query is too large, and
    DiceValueError when the expression may divide by zero.
    """
    import icepool

    e = parse(expr) if isinstance(expr, str) else expr
    explodes = _explodes(e)
    if explode_depth is None:
        depth = _pick_depth(e.groups) if explodes else MAX_EXPLOSIONS
    elif not 1 <= explode_depth <= MAX_EXPLOSIONS:
        raise OddsBudgetError(
            f"explode depth must be between 1 and {MAX_EXPLOSIONS}, got {explode_depth}",
            explode_depth=explode_depth,
        )
    else:
        depth = explode_depth
    size, work = _estimate(e.tree, depth)
    if work > ODDS_BUDGET or size > MAX_OUTCOMES:
        raise OddsBudgetError(
            f"the exact odds of {e.text} are too large to compute quickly "
            f"(about {size:,} totals and {work:,} steps; the budget is "
            f"{MAX_OUTCOMES:,} totals and {ODDS_BUDGET:,} steps); try fewer dice or faces",
            expression=e.text,
        )
    result = _Builder(depth, _Budget(e.text)).build(e.tree)
    if isinstance(result, _Scaled):
        result = result.totals()
    quantities: list[int]
    if not isinstance(result, icepool.Die):
        outcomes, quantities, denominator = [int(result)], [1], 1
    else:
        totals: dict[int, int] = {}
        for o, q in result.items():
            if q:
                totals[int(o)] = totals.get(int(o), 0) + int(q)  # a total rounds toward zero
        pairs = sorted(totals.items())
        outcomes = [o for o, _ in pairs]
        quantities = [q for _, q in pairs]
        denominator = sum(quantities)
    if len(outcomes) > MAX_OUTCOMES:
        raise OddsBudgetError(
            f"the exact odds of {e.text} have {len(outcomes):,} totals; at most "
            f"{MAX_OUTCOMES:,}",
            expression=e.text,
        )
    return Distribution._from_quantities(
        outcomes,
        quantities,
        denominator,
        expression=e.text,
        truncated=_truncated(e.groups, depth) if explodes else Fraction(0),
        explode_depth=depth if explodes else None,
    )


def pair_odds(
    sides_a: int, sides_b: int, classify: Callable[[int, int], str]
) -> dict[str, Fraction]:
    """Exact odds of each label ``classify(a, b)`` gives to the faces of a two-die check.

    This is the building block of checks whose result depends on each die, e.g. Fabula Ultima's
    critical success (doubles of 6 or more) and fumble (double 1s).
    """
    import icepool

    for sides in (sides_a, sides_b):
        if not 1 <= sides <= 1000:
            raise OddsBudgetError(f"a check die needs 1 to 1000 faces, got d{sides}", sides=sides)
    die = icepool.map(classify, icepool.d(sides_a), icepool.d(sides_b))
    denominator = die.denominator()
    return {str(label): Fraction(q, denominator) for label, q in die.items()}


# -- reports -------------------------------------------------------------------------------


def _approx(x: Fraction) -> str:
    """``x`` to 4 significant digits, even beyond the range of a float."""
    try:
        return f"{float(x):.4g}"
    except OverflowError:
        return f"{Decimal(x.numerator) / Decimal(x.denominator):.4g}"


def percent(p: Fraction) -> str:
    """A probability as a percentage with two decimals."""
    return f"{float(p) * 100:.2f}%"


_EIGHTHS = " ▏▎▍▌▋▊▉█"


def bar(p: Fraction, top: Fraction, width: int = 24) -> str:
    """A bar of block characters, ``width`` long for the most likely outcome ``top``."""
    if top <= 0:
        return ""
    eighths = round(p / top * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


@dataclass
class OddsReport:
    """An answer to an odds question: exact figures, an optional distribution table and notes.

    ``figures`` are (label, probability) pairs; ``rows`` are (outcome, probability) pairs of a
    distribution whose outcomes ``outcome_label`` names (a total, successes, a margin…);
    ``notes`` are plain sentences (mean, truncation, rule references).
    """

    title: str
    figures: list[tuple[str, Fraction]] = field(default_factory=list)
    rows: list[tuple[int, Fraction]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    outcome_label: str = "total"

    def to_text(self) -> str:
        """Plain text: title, figures as percentages with their exact fractions, table, notes."""
        lines = [self.title]
        width = max((len(label) for label, _ in self.figures), default=0)
        for label, p in self.figures:
            lines.append(f"  {label.ljust(width)}  {percent(p):>8}  ({p})")
        if self.rows:
            top = max(p for _, p in self.rows)
            ow = max(len(self.outcome_label), *(len(str(o)) for o, _ in self.rows))
            lines.append("")
            lines.append(f"  {self.outcome_label.rjust(ow)}  {'chance':>8}")
            for outcome, p in self.rows:
                lines.append(f"  {str(outcome).rjust(ow)}  {percent(p):>8}  {bar(p, top)}")
        if self.notes:
            lines.append("")
            lines.extend(f"  {note}" for note in self.notes)
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """JSON-native form; each probability as an exact ``"n/d"`` string and a float."""
        return {
            "title": self.title,
            "figures": [
                {"label": label, "fraction": str(p), "probability": float(p)}
                for label, p in self.figures
            ],
            "rows": [
                {"outcome": outcome, "fraction": str(p), "probability": float(p)}
                for outcome, p in self.rows
            ],
            "notes": list(self.notes),
            "outcome": self.outcome_label,
        }


#: Distributions with more totals than this are summarised, not tabled, in a report.
MAX_REPORT_ROWS = 120


def odds_of(expr: str | Expression, vs: int | None = None) -> OddsReport:
    """The odds of an expression; with ``vs``, the chance that the total is at least ``vs``."""
    e = parse(expr) if isinstance(expr, str) else expr
    dist = distribution(e)
    root = e.tree.inner if isinstance(e.tree, Annotated) else e.tree
    what = "successes" if isinstance(root, Dice) and root.counts else "total"
    figures: list[tuple[str, Fraction]] = []
    if vs is not None:
        figures.append((f"P({what} ≥ {vs})", dist.p_at_least(vs)))
        figures.append((f"P({what} < {vs})", 1 - dist.p_at_least(vs)))
    mean = dist.mean
    notes = [
        f"mean {_approx(mean)}"
        + (f" ({mean})" if mean.denominator != 1 else "")
        + f", {what} from {dist.min} to {dist.max}",
    ]
    rows = dist.items()
    if len(rows) > MAX_REPORT_ROWS:
        notes.append(f"{len(rows)} possible totals; the table is left out")
        rows = []
    if dist.explode_depth is not None:
        if dist.truncated:
            notes.append(
                f"explosions followed to {dist.explode_depth} extra dice per die; longer "
                f"chains (chance {float(dist.truncated):.2g}) are cut there"
            )
        else:
            notes.append(
                f"explosions followed to {dist.explode_depth} extra dice per die, "
                "the roller's own limit: exact"
            )
    title = f"Odds of {e.text}" + (f" vs {vs}" if vs is not None else "")
    return OddsReport(title, figures, rows, notes, outcome_label=what)
