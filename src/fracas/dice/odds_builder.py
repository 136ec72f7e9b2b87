"""The icepool die of a syntax tree, built at one explosion depth within a budget."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from fracas.dice.bounds import pool_target
from fracas.dice.errors import DiceValueError
from fracas.dice.exact_sums import WholeDie, exploded, power_bits, sum_power
from fracas.dice.nodes import (
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
from fracas.dice.odds_budget import MIX_STEPS, PICK_STEPS, Budget, kept_count, simple_pool
from fracas.dice.odds_multisets import (
    counter,
    cut_for,
    keep_of,
    kept_places,
    merge,
    multiset_picks,
    per_die,
    picks,
    single_keep,
    tuple_value,
)
from fracas.dice.plan import ARITH
from fracas.dice.scaled_values import Scaled


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

    if isinstance(value, Scaled):
        value = value.value()
    if isinstance(value, WholeDie):
        return value.die()
    return value if isinstance(value, icepool.Die) else icepool.Die([value])


class Builder:
    """Builds the icepool die of a syntax tree at one explosion depth, within a budget."""

    def __init__(self, depth: int, budget: Budget) -> None:
        self.depth = depth
        self.budget = budget
        self.faces_left: dict[tuple[int, tuple[Sel, ...]], Any] = {}

    def unpicked(self, raw: Any, sels: tuple[Sel, ...], what: str) -> Any:
        """The faces of ``raw`` (a plain die of its sides) the selectors leave, equally likely:
        what ``rr`` rerolls until; each face is checked once per query (and charged)."""
        import icepool

        key = (len(raw), sels)
        if key not in self.faces_left:
            self.budget.charge(len(raw) * PICK_STEPS, what)
            self.faces_left[key] = icepool.Die(
                [f for f in raw.outcomes() if not picks(sels, f)])
        return self.faces_left[key]

    def build(self, node: Node) -> Any:
        """The icepool die (or number, WholeDie, Scaled) of a syntax tree."""
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
            return Scaled(-inner.x, inner.scale) if isinstance(inner, Scaled) else -inner
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
        """``left op right``: exact arithmetic, comparisons as 1 or 0."""
        import icepool

        left, right = self.build(node.left), self.build(node.right)
        op = node.op
        if op in ("+", "-", "*"):
            a, b = Scaled.of(left), Scaled.of(right)
            if isinstance(a.x, WholeDie) and isinstance(b.x, WholeDie):
                self.budget.charge(len(a.x) * len(b.x), f"'{op}'")
            return a.combine(op, b)
        if op == "/" and type(right) is int and right != 0:  # whole numbers over a divisor
            a = Scaled.of(left)
            return Scaled(a.x if right > 0 else -a.x, a.scale * abs(right)).simplest()
        fn = ARITH[op]
        a, b = _as_die(left), _as_die(right)
        if op in ("/", "//", "%") and 0 in b:
            raise DiceValueError(
                f"the right side of '{op}' at position {node.position} can be 0, so the odds "
                "would divide by zero", position=node.position, operator=op,
            )
        self.budget.maps(len(a) * len(b), f"'{op}'")
        return icepool.map(fn, a, b)

    # -- dice groups --------------------------------------------------------------------
    def dice(self, node: Dice, extra: tuple[Op, ...]) -> Any:
        """A dice group with its own operations and those of the groups around it."""
        import icepool

        ops = node.ops + extra
        if not extra and simple_pool(node):
            return self.legacy(node)
        raw = icepool.d(node.sides)
        base = raw
        if ops and ops[0].kind == "!":
            t = ops[0].sels[0].num
            base = exploded(node.sides, list(range(t, node.sides + 1)), self.depth)
            ops = ops[1:]
        if node.count == 0:
            return 0
        split = next((i for i, op in enumerate(ops) if not per_die(op)), len(ops))
        prefix, rest = ops[:split], ops[split:]
        count = node.count
        if not rest:  # the dice stay independent: sum each die's contribution
            each = _Chain(self, prefix, raw, 0, _add, lambda v: v).of(base)
            self.budget.charge(count * count * len(each) ** 2 // 2, "summing the dice")
            if all(type(o) is int for o in each.outcomes()):  # a big-integer power
                self.budget.power(power_bits(each, count), "summing the dice")
            return _sum_of(each, count)
        first = rest[0]
        if not any(op.kind in ("e", "k", "p") for op in prefix):  # one value per die
            scalar = _Chain(self, prefix, raw, 0, _add, lambda v: v).of(base)
            self.budget.pool(len(scalar), "keeping or sorting the dice")
            pool = scalar.pool(count)
            if single_keep(first):  # keeps of the few highest or lowest, one after another,
                low, high = 0, count  # keep a run of sorted places: ((10d6kh5)kl2)kh1 is the
                while rest and single_keep(rest[0]):  # 4th highest die alone
                    low, high = kept_places(rest[0], low, high)
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
        cut = cut_for(first)
        chain = _Chain(self, prefix, raw, (), lambda a, b: cut(merge(a, b)), lambda v: (v,))
        elements = chain.of(base)
        return self.apply(rest, self.convolve([elements] * count, cut), raw)

    def legacy(self, node: Dice) -> Any:
        """A simple pool: ``!``, one keep or drop of the highest or lowest, a count."""
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
        kept = kept_count(node)
        if keep is None or kept >= node.count:
            spread = (max(die.outcomes()) - min(die.outcomes())) * node.count + 1
            self.budget.totals(spread, "summing the dice")  # inside a set or a division
            return _sum_of(die, node.count)
        if kept == 0:
            return 0
        pool = die.pool(node.count)
        return (pool.highest(kept) if highest else pool.lowest(kept)).sum()

    def fresh(self, op: Op, raw: Any, rest: tuple[Value, ...], k: int) -> Any:
        """``k`` new dice (rerolled until unpicked for ``rr``) added to ``rest``."""
        die = self.unpicked(raw, op.sels, f"'{op}'") if op.kind == "rr" else raw
        self.budget.maps(math.comb(k + len(die) - 1, k), f"'{op}'")
        self.budget.pool(len(die), f"'{op}'")
        return die.pool(k).expand().map(lambda s: merge(rest, s))

    def extras(self, raw: Any, sels: tuple[Sel, ...], gen: int) -> Any:
        """The extra dice an exploding die at generation ``gen`` adds (``e``), as a tuple."""
        if gen + 1 >= self.depth:
            return raw.map(lambda f: (f,))
        deeper = self.extras(raw, sels, gen + 1)
        self.budget.maps(len(raw) * len(deeper), "an explosion")
        return raw.map(
            lambda f: deeper.map(lambda d: merge((f,), d)) if picks(sels, f) else (f,))

    def convolve(self, parts: list[Any], cut: Callable[[tuple[Value, ...]], tuple[Value, ...]]
                 = lambda t: t) -> Any:
        """The sorted multiset of the members of several independent parts (dice of tuples),
        each step cut down by ``cut`` (the few highest, when only those are kept)."""
        import icepool

        acc: Any = icepool.Die([()])
        for part in parts:
            part = _as_die(part)
            self.budget.maps(len(acc) * len(part), "sorting the dice")
            acc = icepool.map(lambda a, b: cut(merge(a, b)), acc, part)
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

        if all(per_die(o) for o in ops):
            parts = [_Chain(self, ops, raw, 0, _add, lambda v: v).of(m) for m in members]
            return self.add_all(parts)
        single = len(ops) == 1 and single_keep(ops[0])
        if single and all(len(m) for m in members):
            op = ops[0]
            kept, highest = keep_of(op, len(members))
            if kept == 0:
                return 0
            self.budget.charge(math.prod(len(m) for m in members), "the set")
            self.budget.pool(len(set().union(*(m.outcomes() for m in members))), "the set")
            pool = icepool.Pool(members)
            return (pool.highest(kept) if highest else pool.lowest(kept)).sum()
        multi = self.convolve([m.map(lambda v: (v,)) for m in members])
        return self.apply(ops, multi, raw)

    def apply(self, ops: tuple[Op, ...], multi: Any, raw: Any) -> Any:
        """The operations on a die of sorted multisets, then its value."""
        for op in ops:
            self.budget.maps(len(multi), f"'{op}'")
            if op.kind == "c":
                return multi.map(counter(op.sels))
            multi = multi.map(self.step_of(op, raw))
        return multi.map(tuple_value)

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
        picked = multiset_picks(sels, t)
        if kind == "k":
            return tuple(v for i, v in enumerate(t) if i in picked)
        if kind == "p":
            return tuple(v for i, v in enumerate(t) if i not in picked)
        if not picked:
            return t
        if kind == "ra":
            return raw.map(lambda f: merge(t, (f,)))
        if kind == "e":
            return self.convolve([t, *[self.extras(raw, sels, 0)] * len(picked)])
        rest = tuple(v for i, v in enumerate(t) if i not in picked)
        return self.fresh(op, raw, rest, len(picked))


class _Chain:
    """What one die (or set member) becomes through operations that act on each die alone.

    ``of(die)`` maps each value through the operations: a kept value gives ``leaf(value)``,
    a dropped one ``empty``; ``e`` adds the dice it explodes into with ``combine`` (``+`` for
    a sum, a sorted merge for the multiset of single faces); ``c`` gives 1 or 0.
    """

    def __init__(self, builder: Builder, ops: tuple[Op, ...], raw: Any, empty: Any,
                 combine: Callable[[Any, Any], Any], leaf: Callable[[Value], Any]) -> None:
        self.builder = builder
        self.ops = ops
        self.raw = raw
        self.empty = empty
        self.combine = combine
        self.leaf = leaf
        self.memo: dict[tuple[int, Value, int], Any] = {}
        self.rerolled: dict[int, Any] = {}

    def of(self, die: Any) -> Any:
        """What each value of ``die`` becomes through the operations."""
        return self.mix(_as_die(die), lambda v: self.at(0, v, 0))

    def mix(self, die: Any, fn: Callable[[Value], Any]) -> Any:
        """``die`` with each value replaced by ``fn(value)``, charged for the outcomes that
        icepool mixes together (every face that becomes a die brings all of its outcomes)."""
        import icepool

        values = {v: fn(v) for v in die.outcomes()}
        weighed = sum(len(x) if isinstance(x, icepool.Die) else 1 for x in values.values())
        ops = "".join(map(str, self.ops))
        self.builder.budget.charge(weighed * MIX_STEPS, f"'{ops}'" if ops else "the dice")
        return die.map(values)

    def at(self, i: int, v: Value, gen: int) -> Any:
        """What the value ``v`` becomes from operation ``i`` on (memoised)."""
        key = (i, v, gen)
        if key not in self.memo:
            self.memo[key] = self.step(i, v, gen)
        return self.memo[key]

    def step(self, i: int, v: Value, gen: int) -> Any:
        """Operation ``i`` on the value ``v`` of a die of generation ``gen``."""
        import icepool

        if i == len(self.ops):
            return self.leaf(v)
        op = self.ops[i]
        kind, sels = op.kind, op.sels
        raw = self.raw
        if kind == "c":
            return 1 if picks(sels, v) else 0
        if kind in ("mi", "ma"):
            n = sels[0].num
            return self.at(i + 1, max(v, n) if kind == "mi" else min(v, n), 0)
        picked = picks(sels, v)
        if kind in ("k", "p"):
            return self.at(i + 1, v, 0) if picked == (kind == "k") else self.empty
        if not picked:
            return self.at(i + 1, v, 0)
        if kind in ("rr", "ro"):  # the same new die whatever face was rerolled: built once
            if i not in self.rerolled:
                faces = raw if kind == "ro" else self.builder.unpicked(raw, sels, f"'{op}'")
                self.builder.budget.maps(len(faces), f"'{op}'")
                self.rerolled[i] = self.mix(faces, lambda f: self.at(i + 1, f, 0))
            return self.rerolled[i]
        # "e": this die goes on through the later operations, and adds a new die that meets
        # this 'e' again, one generation deeper (the last generation never explodes)
        if gen >= self.builder.depth:
            return self.at(i + 1, v, 0)
        if i + 1 == len(self.ops) and self.combine is _add:  # a plain sum: icepool explodes
            picked_faces = [f for f in raw.outcomes() if picks(sels, f)]
            extra = self.builder.depth - gen - 1
            return v + (exploded(len(raw), picked_faces, extra) if extra else raw)
        spawned = raw.map(lambda f: self.at(i, f, gen + 1))
        here = _as_die(self.at(i + 1, v, 0))
        self.builder.budget.maps(len(here) * len(spawned), f"'{op}'")
        return icepool.map(self.combine, here, spawned)


def _add(a: Any, b: Any) -> Any:
    return a + b
