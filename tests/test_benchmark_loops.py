"""The hand-written loops the benchmarks compare fracas with still play by the rules fracas
keeps: each is a second, plain implementation of the same rules, so a rule changed on one
side only shows here — and a figure set beside a loop that plays other rules would compare
other work (both benchmarks refuse to print it then). No speed is asserted: only that the two
agree, at the sizes ``--quick`` runs.

- ``benchmarks/bench_engine.py``: every bundled script with a plain loop, and a random legal
  play of 300 steps, end in the same state (status, round, who is in play, the ruleset's pools,
  positions, groups and turn order).
- ``benchmarks/bench_sim.py``: 20 simulated encounters of each ruleset's benchmark encounter
  end as the plain loop's do (winner, rounds, harm, taken out).
"""

from __future__ import annotations

import pytest
from benchmarks import bench_engine, bench_sim

RULESETS = ["etherscope", "fabula-ultima", "vers"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_plain_loops_of_the_engine_benchmark_end_where_fracas_does(ruleset: str) -> None:
    played = bench_engine.random_play(bench_engine._names(ruleset)[0])
    workloads = bench_engine.plain_workloads(ruleset, played)  # raises where they part
    assert {label for label, work in workloads if work} == {"scripts", "random play"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_plain_loop_of_the_sim_benchmark_plays_the_same_encounters(ruleset: str) -> None:
    assert bench_sim.agreement(ruleset, 20) == ""
