"""Exact odds of dice expressions, computed with icepool.

``distribution`` builds the exact distribution of an expression (:mod:`odds_builder`, within
the budget of :mod:`odds_budget`, explosions followed as deep as :mod:`explosion_depth` says);
``odds_of`` turns it into the :class:`OddsReport` (:mod:`odds_report`) every ruleset returns;
``pair_odds`` labels the two faces of a check.

icepool is imported lazily, so ``import fracas.dice`` stays quick for the roller.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from fracas.dice.errors import OddsBudgetError, check_target
from fracas.dice.exact_distribution import Distribution
from fracas.dice.exact_sums import WholeDie
from fracas.dice.explosion_depth import explodes, pick_depth, truncated_mass
from fracas.dice.expression import Expression, parse
from fracas.dice.nodes import MAX_EXPLOSIONS, Annotated, Dice
from fracas.dice.odds_budget import MAX_OUTCOMES, ODDS_BUDGET, Budget, estimate
from fracas.dice.odds_builder import Builder
from fracas.dice.odds_report import MAX_REPORT_ROWS, OddsReport, approx, bar, percent
from fracas.dice.scaled_values import Scaled

__all__ = ["Distribution", "OddsReport", "bar", "distribution", "odds_of", "pair_odds", "percent"]


def distribution(expr: str | Expression, *, explode_depth: int | None = None) -> Distribution:
    """The exact distribution of an expression's total (successes for ``>=``/``<=``).

    Exploding dice are followed ``explode_depth`` extra dice deep (default: just deep enough
    that at most 1e-9 of the mass is cut, never past the roller's own cap of 20); the cut mass
    is ``Distribution.truncated``. Raises OddsBudgetError when the query is too large, and
    DiceValueError when the expression may divide by zero.
    """
    import icepool

    e = parse(expr) if isinstance(expr, str) else expr
    exploding = explodes(e)
    if explode_depth is None:
        depth = pick_depth(e.groups) if exploding else MAX_EXPLOSIONS
    elif not 1 <= explode_depth <= MAX_EXPLOSIONS:
        raise OddsBudgetError(
            f"explode depth must be between 1 and {MAX_EXPLOSIONS}, got {explode_depth}",
            explode_depth=explode_depth,
        )
    else:
        depth = explode_depth
    size, work = estimate(e.tree, depth)
    if work > ODDS_BUDGET or size > MAX_OUTCOMES:
        raise OddsBudgetError(
            f"the exact odds of {e.text} are too large to compute quickly "
            f"(about {size:,} totals and {work:,} steps; the budget is "
            f"{MAX_OUTCOMES:,} totals and {ODDS_BUDGET:,} steps); try fewer dice or faces",
            expression=e.text,
        )
    try:
        result = Builder(depth, Budget(e.text)).build(e.tree)
    except RecursionError:  # the net under Budget.pool: never a traceback
        raise OddsBudgetError(
            f"the exact odds of {e.text} are too large to compute quickly (too many outcomes "
            "weighed together); try dice with fewer faces", expression=e.text) from None
    if isinstance(result, Scaled):
        result = result.totals()
    if isinstance(result, icepool.Die):  # a total rounds toward zero
        result = WholeDie.from_items((int(o), int(q)) for o, q in result.items())
    if not isinstance(result, WholeDie):
        result = WholeDie.constant(int(result))
    pairs = result.items()
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
        truncated=truncated_mass(e.groups, depth) if exploding else Fraction(0),
        explode_depth=depth if exploding else None,
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


def odds_of(expr: str | Expression, vs: int | None = None) -> OddsReport:
    """The odds of an expression; with ``vs``, the chance that the total is at least ``vs``."""
    if vs is not None:
        check_target(vs, "vs")
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
        f"mean {approx(mean)}"
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
