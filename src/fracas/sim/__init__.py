"""Monte Carlo runs of whole conflicts with agent policies (``fracas sim``; docs/sim.md).

The simulator plays a scenario's conflict to its end many times through the engine's own
decide and evolve (:mod:`fracas.sim.encounter`), each side's agent choosing among structured
legal commands from its player's view (:mod:`fracas.sim.policies`), and reports who wins with
95% confidence intervals (:mod:`fracas.sim.report`), locally or on a Dask cluster
(:mod:`fracas.sim.runner`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from fracas.sim.job import SimJob, combinations, parse_vary
from fracas.sim.report import Result, report_data
from fracas.sim.runner import Runner, prepared

#: Progress of a sweep: (combination index, combinations, encounters done, encounters).
SweepProgress = Callable[[int, int, int, int], None]


def simulate(base: SimJob, vary: list[str] | None = None, runner: Runner | None = None,
             progress: SweepProgress | None = None) -> list[Result]:
    """Run ``base`` once per combination of the ``--vary`` texts; one result each."""
    combos = combinations(parse_vary(vary or []))
    jobs = [dataclasses.replace(base, overrides=combo) for combo in combos]
    for job in jobs:  # refuse a bad variation before any encounter is played
        prepared(job)
    out = []
    with runner or Runner() as run:
        for i, job in enumerate(jobs):
            def tick(done: int, total: int, i: int = i) -> None:
                if progress is not None:
                    progress(i, len(jobs), done, total)
            out.append(Result(job, prepared(job), run.run(job, tick)))
    return out


__all__ = ["Result", "Runner", "SimJob", "report_data", "simulate"]
