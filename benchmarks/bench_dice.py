"""Dice benchmark: fracas.dice against the d20 library (rolling) and icepool (exact odds).

Run from the repository root::

    .venv/bin/python benchmarks/bench_dice.py          # full run
    .venv/bin/python benchmarks/bench_dice.py --quick  # a few seconds

Rolling: both sides roll the same expression string and read the total and the kept dice from
the roll tree; no string formatting. Caches: fracas keeps parsed expressions (with their
compiled roll plans) in an LRU cache (``fracas.dice.parse``, 4096 texts) and d20 keeps parsed
trees in its own LFU cache (256 texts, ``d20.Roller``), so neither side parses again; nothing
else is cached on either side (fracas rebuilds a roll's breakdown from its faces only when it
is asked for, which these rows never do). Each row rolls from one generator on each side (a
``DiceRng`` for fracas, d20's ``random``), so fracas's generator soon decodes whole blocks of
its stream (see fracas/dice/rng.py; the engine's one-command generators never do). Times are
CPU seconds of this process (the machine may be shared), the best of several runs, fracas and
d20 taking turns run by run. d20 has no success-count operator, so for ``10d10>=7`` it rolls
``10d10`` and counts kept dice >= 7 from its roll tree. The d20 operations roll the same text
on both sides (fracas in its ``d20:`` reading where the text has a comparison).

Odds: each exact query the rulesets need, through fracas.dice and through icepool used
directly, with icepool's caches cleared before every query on both sides; then the exact odds
of every expression of d20's own tests (tests/dice/test_d20_suite.py), cold, as a p99 (the
collector is run before each query, untimed, so that no query pays a full collection of the
garbage the roll rows left).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

try:
    import fracas.dice  # noqa: F401
except ImportError:  # running from a checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import d20
import icepool

from fracas.dice import DiceRng, OddsBudgetError, distribution, parse, roll
from fracas.dice.odds import pair_odds

#: The d20 operations of issue 15, each rolled by both libraries from the same text.
D20_ROWS = [
    "2d6ro<3",
    "1d20ro1",
    "1d20rr1",
    "1d6ra6",
    "8d6mi2",
    "1d20mi10",
    "8d6ma5",
    "8d6e6",
    "4d6e6kh3",
    "8d6k>3",
    "4d6p<2",
    "8d6mi2k>3",
    "4d6kh3kl1",
    "(1d4+1, 3, 2d6kl1)kh1",
    "(1d20, 1d20)kh1",
    "((10d6kh5)kl2)kh1",
    "2d6 [fire] + 1d8 [radiant]",
    "1d20+5 >= 15",
    "15 / 2 + 1d4",
    "1d%",
]


def _run(fn: Callable[[], object], number: int) -> float:
    start = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - start) / number


def best_of_turns(
    ours: Callable[[], object], theirs: Callable[[], object], number: int, repeat: int
) -> tuple[float, float]:
    """Best mean CPU seconds per call of each side, the two running in turns."""
    a = b = float("inf")
    for _ in range(repeat):
        a = min(a, _run(ours, number))
        b = min(b, _run(theirs, number))
    return a, b


# -- rolling ----------------------------------------------------------------------------------


def fracas_keep() -> Callable[[], object]:
    rng = DiceRng.derive("bench", 1)

    def work() -> object:
        r = roll("4d6kh3+2", rng)
        return r.total, r.kept()

    return work


def d20_keep() -> Callable[[], object]:
    def work() -> object:
        r = d20.roll("4d6kh3+2")
        dice = r.expr.roll.left
        return r.total, [d.number for d in dice.keptset]

    return work


def fracas_count() -> Callable[[], object]:
    rng = DiceRng.derive("bench", 2)

    def work() -> object:
        r = roll("10d10>=7", rng)
        return r.total, r.kept()

    return work


def d20_count() -> Callable[[], object]:
    def work() -> object:
        r = d20.roll("10d10")
        kept = [d.number for d in r.expr.roll.keptset]
        return sum(1 for v in kept if v >= 7), kept

    return work


def _d20_kept(node: object, out: list[object]) -> list[object]:
    """Every kept die's value in a d20 roll tree (as fracas's ``Roll.kept``)."""
    if isinstance(node, d20.Dice):
        out += [d.number for d in node.keptset]
    for child in getattr(node, "children", ()):
        _d20_kept(child, out)
    return out


def fracas_roll(text: str) -> Callable[[], object]:
    rng = DiceRng.derive("bench", 3)
    ours = text if ">=" not in text else "d20:" + text

    def work() -> object:
        r = roll(ours, rng)
        return r.total, r.kept()

    return work


def d20_roll(text: str) -> Callable[[], object]:
    def work() -> object:
        r = d20.roll(text)
        return r.total, _d20_kept(r.expr, [])

    return work


# -- exact odds -------------------------------------------------------------------------------


def fu_classify(a: int, b: int) -> str:
    """Fabula Ultima {d8+d10}+1 vs DL 13: fumble on double 1s, crit on doubles of 6+."""
    if a == b == 1:
        return "fumble"
    if a == b and a >= 6:
        return "crit"
    return "success" if a + b + 1 >= 13 else "failure"


def fracas_etherscope() -> object:
    dist = distribution("5d6>=5")
    return [dist.p_at_least(d) for d in range(1, 6)]


def icepool_etherscope() -> object:
    die = 5 @ icepool.d6.map(lambda v: 1 if v >= 5 else 0)
    return [Fraction(die.probability(">=", d)) for d in range(1, 6)]


def fracas_fabula() -> object:
    return pair_odds(8, 10, fu_classify), distribution("{d8+d10}+1").p_at_least(13)


def icepool_fabula() -> object:
    labels = icepool.map(fu_classify, icepool.d8, icepool.d10)
    total = icepool.d8 + icepool.d10 + 1
    return dict(labels.items()), total.probability(">=", 13)


def fracas_vers() -> object:
    dist = distribution("3d6")
    return [dist.p_at_most(tn) for tn in range(3, 19)]


def icepool_vers() -> object:
    die = 3 @ icepool.d6
    return [Fraction(die.probability("<=", tn)) for tn in range(3, 19)]


def uncached(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        icepool.Pool.clear_cache()
        return fn()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    args = parser.parse_args()
    rolls, repeat, queries = (20_000, 3, 30) if args.quick else (200_000, 5, 300)

    print(f"fracas dice benchmark ({'quick' if args.quick else 'full'}; best of {repeat}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    d20_version = importlib.metadata.version("d20")
    print(f"python {sys.version.split()[0]}, d20 {d20_version}, icepool {icepool.__version__}")
    print()
    header = f"{'work':<36} {'fracas µs':>10} {'baseline µs':>12} {'baseline':>9} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    rows = [
        ("roll 4d6kh3+2, total + kept", fracas_keep(), d20_keep(), "d20", rolls),
        ("roll 10d10>=7, successes + kept", fracas_count(), d20_count(), "d20", rolls),
        ("odds Etherscope 5d6 5-6 vs 1..5", fracas_etherscope, icepool_etherscope, "icepool", 0),
        ("odds Fabula {d8+d10}+1≥13 crit/fumble", fracas_fabula, icepool_fabula, "icepool", 0),
        ("odds VERS 3d6 ≤ TN, TN 3..18", fracas_vers, icepool_vers, "icepool", 0),
    ]
    for label, ours, theirs, base, number in rows:
        if number == 0:  # odds: clear icepool's caches before each query, on both sides
            ours, theirs, number = uncached(ours), uncached(theirs), queries
        ours()
        theirs()
        a, b = (t * 1e6 for t in best_of_turns(ours, theirs, number, repeat))
        print(f"{label:<36} {a:>10.2f} {b:>12.2f} {base:>9} {b / a:>6.2f}x")
    print()
    print("ratio = baseline time / fracas time (above 1: fracas is faster)")
    print()
    print(f"{'roll (d20 operations)':<36} {'fracas µs':>10} {'d20 µs':>12} {'ratio':>7}")
    print("-" * 68)
    print("(parsing cached on both sides: fracas LRU of 4096 texts, d20 LFU of 256)")
    ratios = []
    for text in D20_ROWS:
        ours, theirs = fracas_roll(text), d20_roll(text)
        ours()
        theirs()
        a, b = (t * 1e6 for t in best_of_turns(ours, theirs, rolls // 4, repeat))
        ratios.append(b / a)
        print(f"{text:<36} {a:>10.2f} {b:>12.2f} {b / a:>6.2f}x")
    print(f"ratio from {min(ratios):.1f}x to {max(ratios):.1f}x")
    print()
    odds_p99(queries)


def odds_p99(runs: int) -> None:
    """Exact odds of each expression of d20's tests, cold (icepool caches cleared, and the
garbage of earlier work collected before each query): p99."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.dice.test_d20_suite import D20_EXPRESSIONS

    print(f"{'exact odds, d20 test expression':<44} {'p99 ms':>8} {'CPU p99':>8}")
    print("-" * 62)
    worst = worst_cpu = 0.0
    for text, _, _ in D20_EXPRESSIONS:
        e = parse("d20:" + text)
        times, cpu = [], []
        refused = False
        for _ in range(max(runs // 3, 20)):
            icepool.Pool.clear_cache()
            gc.collect()  # a query pays for its own garbage, not for the rolls run before it
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                distribution(e)
            except OddsBudgetError:
                refused = True
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        times.sort()
        cpu.sort()
        at = min(len(times) - 1, int(len(times) * 0.99))
        p99, p99_cpu = times[at] * 1e3, cpu[at] * 1e3
        worst, worst_cpu = max(worst, p99), max(worst_cpu, p99_cpu)
        print(f"{text:<44} {p99:>8.2f} {p99_cpu:>8.2f}" + ("  (budget error)" if refused else ""))
    print(f"worst p99: {worst:.2f} ms wall, {worst_cpu:.2f} ms CPU, over "
          f"{len(D20_EXPRESSIONS)} expressions (wall time includes other processes' turns)")


if __name__ == "__main__":
    main()
