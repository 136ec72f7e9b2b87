"""Counting encounters: the tally of a run, merged across workers, and Wilson intervals.

A :class:`Tally` holds only sums and counts, so tallies of disjoint ranges of encounters merge
into the same totals whatever the split (the report does not depend on the number of workers).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: The winner and outcome of an encounter nothing decided (the round cap, the scenario's round
#: limit, a stall).
NO_DECISION = "no decision"
#: The winner of an encounter decided without one: a compromise (FU-CON-11), or no side left.
NO_WINNER = "no winner"


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends: no rounding dust
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


#: A kind of refusal: (the verb refused, the error's rule ID or "", the error's message).
Refusal = tuple[str, str, str]


@dataclass(slots=True)
class EncounterResult:
    """What one simulated encounter came to."""

    winner: str  # a side, NO_WINNER (decided, nobody won) or NO_DECISION (undecided)
    outcome: str  # the ruleset's outcome label (taken out, captured, …) or NO_DECISION
    rounds: int
    out: tuple[str, ...]  # ids of the characters taken out
    harm: dict[str, int]  # harm taken, by character id (whole units of the ruleset)
    refused: int = 0  # commands a policy chose that the engine refused (a legal-commands bug)
    stalled: bool = False  # nobody could act and the GM had nothing to give
    refusals: list[tuple[Refusal, str]] = field(default_factory=list)  # each: its command
    stalled_at: str = ""  # where it stalled: the state's first line, as the GM reads it
    #: (verb, character) of each command the rules offered a character and the simulator
    #: never plays (Profile.skip: a Fabula Ultima spell, an Etherscope zoom-in)
    left_out: frozenset[tuple[str, str]] = frozenset()


@dataclass(slots=True)
class Tally:
    """Counts over many encounters."""

    n: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    out: Counter[str] = field(default_factory=Counter)
    harm: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    stalled: int = 0
    #: per kind of refusal: how often, and the first example's command text (in text order)
    refusals: dict[Refusal, tuple[int, str]] = field(default_factory=dict)
    #: where the stalled encounters stood (the state's first line), how often
    stalls: Counter[str] = field(default_factory=Counter)
    #: per (verb, character) the simulator leaves out: the encounters the rules offered it in
    left_out: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, r: EncounterResult) -> None:
        """Count one encounter."""
        self.n += 1
        self.wins[r.winner] += 1
        self.outcomes[r.outcome] += 1
        self.rounds[r.rounds] += 1
        self.out.update(r.out)
        self.harm.update(r.harm)
        self.refused += r.refused
        self.stalled += int(r.stalled)
        if r.stalled:
            self.stalls[r.stalled_at] += 1
        self.left_out.update(r.left_out)
        for kind, example in r.refusals:
            self._refusal(kind, 1, example)

    def _refusal(self, kind: Refusal, count: int, example: str) -> None:
        had, first = self.refusals.get(kind, (0, example))
        self.refusals[kind] = (had + count, min(first, example))

    def merge(self, other: Tally) -> Tally:
        """This tally plus ``other`` (a new tally)."""
        out = Tally(self.n + other.n, self.wins + other.wins, self.outcomes + other.outcomes,
                    self.rounds + other.rounds, self.out + other.out, self.harm + other.harm,
                    self.refused + other.refused, self.stalled + other.stalled,
                    dict(self.refusals), self.stalls + other.stalls,
                    self.left_out + other.left_out)
        for kind, (count, example) in other.refusals.items():
            out._refusal(kind, count, example)
        return out


def proportion(k: int, n: int) -> dict[str, Any]:
    """A count as ``{"count", "p", "ci95": [low, high]}``."""
    low, high = wilson(k, n)
    return {"count": k, "p": k / n if n else 0.0, "ci95": [low, high]}


def quantile(hist: Counter[int], q: float) -> int:
    """The ``q`` quantile of a histogram of whole numbers (0 for an empty one)."""
    total = sum(hist.values())
    if not total:
        return 0
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= q * total:
            return value
    return max(hist)
