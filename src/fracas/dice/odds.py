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

from rich.console import Group as RichGroup
from rich.table import Table
from rich.text import Text

from fracas.dice.errors import OddsBudgetError
from fracas.dice.roller import Expression, parse
from fracas.dice.syntax import MAX_EXPLOSIONS, BinOp, Const, Dice, Neg, Node

#: Estimated elementary steps one odds query may take (about a second of icepool work).
ODDS_BUDGET = 4_000_000
#: Largest number of distinct totals an odds query may produce.
MAX_OUTCOMES = 20_000
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


def _explode_p(node: Dice) -> Fraction:
    assert node.explode is not None
    return Fraction(node.sides - node.explode + 1, node.sides)


def _pick_depth(groups: tuple[Dice, ...]) -> int:
    depth = 1
    while depth < MAX_EXPLOSIONS and _truncated(groups, depth) > TRUNCATION_TARGET:
        depth += 1
    return depth


def _truncated(groups: tuple[Dice, ...], depth: int) -> Fraction:
    """P(some die's chain goes on past ``depth`` explosions) — zero at the roller's own cap."""
    if depth >= MAX_EXPLOSIONS:
        return Fraction(0)
    whole = Fraction(1)
    for g in groups:
        if g.explode is not None:
            whole *= (1 - _explode_p(g) ** (depth + 1)) ** g.count
    return 1 - whole


def _estimate(node: Node, depth: int) -> tuple[int, int]:
    """(estimated outcomes, estimated work) of computing a node's distribution."""
    if isinstance(node, Const):
        return 1, 0
    if isinstance(node, Dice):
        k = node.sides * (1 if node.explode is None else depth + 1)
        boom = 0  # building the exploded die: each level mixes a shifted die per exploding face
        if node.explode is not None:
            faces = node.sides - node.explode + 1
            boom = 8 * faces * node.sides * depth * (depth + 1) // 2
        if node.compare is not None:
            k = 2
        n = node.count
        if node.keep is None:
            return n * (k - 1) + 1, boom + n * n * k * k // 2
        m = node.kept_count
        return m * (k - 1) + 1, boom + 3 * n * k * (m * k + 1)
    if isinstance(node, BinOp):
        a, wa = _estimate(node.left, depth)
        b, wb = _estimate(node.right, depth)
        size = a + b - 1 if node.op != "*" else a * b
        return size, wa + wb + a * b
    if isinstance(node, Neg):
        return _estimate(node.operand, depth)
    return _estimate(node.inner, depth)


def _sum_of(die: Any, count: int) -> Any:
    """The sum of ``count`` copies of ``die`` by doubling (icepool's ``@`` recurses per die)."""
    result: Any = None
    power = die
    while count:
        if count & 1:
            result = power if result is None else result + power
        count >>= 1
        if count:
            power = power + power
    return result


def _build(node: Node, depth: int) -> Any:
    import icepool

    if isinstance(node, Const):
        return node.value
    if isinstance(node, Dice):
        die = icepool.d(node.sides)
        if node.explode is not None:
            die = die.explode(list(range(node.explode, node.sides + 1)), depth=depth)
        highest = node.keep in (None, "kh", "dl")
        if node.compare is not None:
            target = node.target
            if node.compare == ">=":
                die = die.map(lambda v: 1 if v >= target else 0)
            else:
                die = die.map(lambda v: 1 if v <= target else 0)
                highest = not highest  # a high face is a low indicator
        if node.keep is None:
            return _sum_of(die, node.count)
        pool = die.pool(node.count)
        kept = pool.highest(node.kept_count) if highest else pool.lowest(node.kept_count)
        return kept.sum()
    if isinstance(node, BinOp):
        left, right = _build(node.left, depth), _build(node.right, depth)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        return left * right
    if isinstance(node, Neg):
        return -_build(node.operand, depth)
    return _build(node.inner, depth)


def distribution(expr: str | Expression, *, explode_depth: int | None = None) -> Distribution:
    """The exact distribution of an expression's total (successes for ``>=``/``<=``).

    Exploding dice are followed ``explode_depth`` extra dice deep (default: just deep enough
    that at most 1e-9 of the mass is cut, never past the roller's own cap of 20); the cut mass
    is ``Distribution.truncated``. Raises OddsBudgetError when the query is too large.
    """
    import icepool

    e = parse(expr) if isinstance(expr, str) else expr
    if explode_depth is None:
        depth = _pick_depth(e.groups) if e.explodes else MAX_EXPLOSIONS
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
    result = _build(e.tree, depth)
    quantities: list[int]
    if isinstance(result, int):
        outcomes, quantities, denominator = [result], [1], 1
    else:
        die = icepool.Die(result) if not isinstance(result, icepool.Die) else result
        pairs = sorted((int(o), int(q)) for o, q in die.items() if q)
        outcomes = [o for o, _ in pairs]
        quantities = [q for _, q in pairs]
        denominator = sum(quantities)
    return Distribution._from_quantities(
        outcomes,
        quantities,
        denominator,
        expression=e.text,
        truncated=_truncated(e.groups, depth) if e.explodes else Fraction(0),
        explode_depth=depth if e.explodes else None,
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


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


_EIGHTHS = " ▏▎▍▌▋▊▉█"


def _bar(p: Fraction, top: Fraction, width: int = 24) -> str:
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
            lines.append(f"  {label.ljust(width)}  {_percent(p):>8}  ({p})")
        if self.rows:
            top = max(p for _, p in self.rows)
            ow = max(len(self.outcome_label), *(len(str(o)) for o, _ in self.rows))
            lines.append("")
            lines.append(f"  {self.outcome_label.rjust(ow)}  {'chance':>8}")
            for outcome, p in self.rows:
                lines.append(f"  {str(outcome).rjust(ow)}  {_percent(p):>8}  {_bar(p, top)}")
        if self.notes:
            lines.append("")
            lines.extend(f"  {note}" for note in self.notes)
        return "\n".join(lines)

    def to_rich(self) -> RichGroup:
        """A Rich renderable: a figures table, a distribution table with bars, and notes."""
        parts: list[Any] = [Text(self.title, style="bold")]
        if self.figures:
            table = Table(show_header=False, box=None, padding=(0, 2))
            table.add_column(style="cyan")
            table.add_column(justify="right", style="bold")
            table.add_column(style="dim")
            for label, p in self.figures:
                table.add_row(label, _percent(p), str(p))
            parts.append(table)
        if self.rows:
            top = max(p for _, p in self.rows)
            dist = Table(box=None, padding=(0, 1))
            dist.add_column(self.outcome_label, justify="right")
            dist.add_column("chance", justify="right")
            dist.add_column("")
            for outcome, p in self.rows:
                dist.add_row(str(outcome), _percent(p), Text(_bar(p, top), style="green"))
            parts.append(dist)
        parts.extend(Text(note, style="italic dim") for note in self.notes)
        return RichGroup(*parts)

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
    counts = any(g.compare is not None for g in e.groups)
    what = "successes" if counts and len(e.groups) == 1 else "total"
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
