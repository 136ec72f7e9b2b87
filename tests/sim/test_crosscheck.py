"""Simulated frequencies through the engine agree with icepool's exact odds.

Each test rolls one kind of check many times through ``Conflict.decide`` (the table's code,
a fresh seed per sample), or plays whole simulated pursuits, and compares the counts with the
exact distribution from icepool by a chi-square test. The seeds are fixed, so each test is
deterministic; the bound is the chi-square critical value at p = 0.001 for the test's degrees
of freedom (a correct engine fails such a test with probability 0.1% per fresh seed).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import icepool
import pytest

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.engine import Conflict
from fracas.rulesets import get_ruleset
from fracas.sim import Runner, SimJob, simulate
from fracas.sim.report import report_data

#: Chi-square critical values at p = 0.001, by degrees of freedom.
CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322,
            8: 26.124, 9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 13: 34.528,
            14: 36.123, 15: 37.697}
SAMPLES = 3000


def chi_square(observed: Counter[Any], exact: dict[Any, Fraction]) -> tuple[float, int]:
    """The statistic and its degrees of freedom; outcomes expected fewer than 5 times are
    pooled into one bin."""
    n = sum(observed.values())
    assert set(observed) <= set(exact), f"impossible outcomes {set(observed) - set(exact)}"
    bins: list[tuple[float, int]] = []
    small_e, small_o = 0.0, 0
    for key, p in exact.items():
        e = float(p) * n
        if e < 5:
            small_e, small_o = small_e + e, small_o + observed.get(key, 0)
        else:
            bins.append((e, observed.get(key, 0)))
    if small_e > 0:
        bins.append((small_e, small_o))
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, len(bins) - 1


def assert_agrees(observed: Counter[Any], exact: dict[Any, Fraction]) -> None:
    """The counts fit the exact odds within the p = 0.001 chi-square bound."""
    assert sum(exact.values()) == 1
    stat, df = chi_square(observed, exact)
    assert stat < CHI2_999[df], f"chi-square {stat:.1f} ≥ {CHI2_999[df]} (df {df}): {observed}"


def samples(scenario: str, prologue: list[str], command: str, n: int = SAMPLES
            ) -> list[dict[str, Any]]:
    """The first event of ``command`` decided ``n`` times, each under its own seed, after the
    scenario's set-up and ``prologue`` (the engine's own decide; nothing is appended)."""
    sc = load_scenario(scenario)
    ruleset = get_ruleset(sc.setup.ruleset)
    base = Conflict.create(ruleset, sc.setup, "base", time="")
    for line in prologue:
        base.execute(line, time="")
    out = []
    for i in range(n):
        conflict = Conflict(ruleset, f"crosscheck-{i}", base.records)
        events = conflict.decide(conflict.parse(command))
        out.append(events[0].data)
    return out


def die_distribution(die: Any) -> dict[Any, Fraction]:
    """An icepool die as exact probabilities."""
    total = die.denominator()
    return {k: Fraction(q, total) for k, q in die.items()}


@pytest.mark.rule("ES-ACT-4", "ES-START-1")
def test_etherscope_pool_successes_match_icepool() -> None:
    # Ada's awareness with her drive skill: a pool of 4 d6, each 5 or 6 one success
    rolls = samples("etherscope-car-chase", [], "ada: awareness skill=drive")
    assert {r["pool"] for r in rolls} == {4}
    exact = die_distribution(4 @ (icepool.d6 >= 5))
    assert_agrees(Counter(int(r["successes"]) for r in rolls), exact)


def _fu_class(a: int, b: int, dl: int) -> str:
    if a == b == 1:
        return "fumble"
    if a == b and a >= 6:
        return "critical"
    return "success" if a + b >= dl else "failure"


@pytest.mark.rule("FU-CHK-1", "FU-CHK-3", "FU-CHK-4")
def test_fabula_check_with_critical_and_fumble_matches_icepool() -> None:
    # Ada's {DEX + INS} = {d10 + d8} against DL 13: criticals, fumbles, plain results
    rolls = samples("fabula-ultima-ambush", [], "ada: check dex+ins 13 turn=no")
    observed: Counter[str] = Counter()
    for r in rolls:
        kind = "fumble" if r["fumble"] else "critical" if r["critical"] else (
            "success" if r["success"] else "failure")
        observed[kind] += 1
        assert r["success"] == (kind in ("success", "critical"))
    exact: dict[str, Fraction] = {}
    joint = icepool.vectorize(icepool.d10, icepool.d8)  # the two dice as rolled, not sorted
    total = joint.denominator()
    for (a, b), q in joint.items():
        kind = _fu_class(a, b, 13)
        exact[kind] = exact.get(kind, Fraction(0)) + Fraction(q, total)
    assert observed["critical"] > 0 and observed["fumble"] > 0
    assert_agrees(observed, exact)


@pytest.mark.rule("VR-ROLL-1", "VR-ROLL-2", "VR-ATK-4")
def test_vers_attack_roll_with_modifiers_matches_icepool() -> None:
    # Ada's sword against the thug: TN 15, −2 (his close combat), +1 (reach) → 3d6 ≤ 14
    rolls = samples("vers-tavern-brawl", ["open ada"], "ada: attack thug weapon=sword", 1000)
    assert {(r["tn"], r["modifier"], r["target_number"]) for r in rolls} == {(15, -1, 14)}
    exact = die_distribution(3 @ icepool.d6)
    assert_agrees(Counter(int(r["total"]) for r in rolls), exact)
    p_hit = sum(p for total, p in exact.items() if total <= 14)
    assert_agrees(Counter(bool(r["success"]) for r in rolls), {True: p_hit, False: 1 - p_hit})


CHASE = """
ruleset = "vers"
title = "A pursuit with fixed skills"

[sim]
prologue = "chase c1 hunter=ada quarry=cutpurse length=2"
policies = { pcs = "focus-fire", npcs = "tests.sim.tactics:only_pass" }

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
stats = { agility = 2, skills = { athletics = 2 } }

[[participants]]
id = "cutpurse"
name = "The cutpurse"
stats = { agility = 3, skills = { athletics = 2 } }
"""


def _eliminate(rows: list[list[Fraction]]) -> None:
    """Gauss-Jordan elimination in place of a system whose unknowns are its first
    ``len(rows)`` columns (the rest: right-hand sides, read off each row once solved)."""
    n = len(rows)
    for col in range(n):
        pivot = rows[col][col]
        rows[col] = [v / pivot for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]


def capture_odds(p: Fraction, positions: int, start: int) -> Fraction:
    """P(capture) of a pursuit (VR-CHASE-3/4/6) by exact Gaussian elimination: from 1 an
    interpose captures with p or falls back to 2; elsewhere a success moves toward 1, a
    failure toward the top, where the quarry has escaped."""
    n = positions - 1  # unknowns P_1 … P_{top-1}; P_top = 0
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for i in range(n):
        rows[i][i] = Fraction(1)
        if i == 0:
            rows[0][1] -= 1 - p
            rows[0][n] = p
            continue
        rows[i][i - 1] -= p
        if i + 1 < n:
            rows[i][i + 1] -= 1 - p
    _eliminate(rows)
    return rows[start - 1][n]


@pytest.mark.rule("VR-CHASE-2", "VR-CHASE-3", "VR-CHASE-4", "VR-CHASE-6")
def test_vers_pursuit_outcomes_match_exact_odds() -> None:
    # TN 10 + 2 + 2 = 14, −2 for the cutpurse's athletics: each roll succeeds when 3d6 ≤ 12
    p = sum(q for t, q in die_distribution(3 @ icepool.d6).items() if t <= 12)
    captured = capture_odds(p, positions=5, start=3)
    sc = parse_scenario(CHASE, "pursuit.toml")
    job = SimJob(sc.text, sc.path, 250, "pursuit", max_rounds=200)
    [result] = simulate(job, runner=Runner(1))
    t = result.tally
    assert t.n == 250 and t.outcomes["no decision"] == 0
    assert set(t.outcomes) == {"captured", "escaped"}
    assert_agrees(Counter(t.outcomes), {"captured": captured, "escaped": 1 - captured})
    assert t.wins["pcs"] == t.outcomes["captured"]


def quarry_odds(p: Fraction, positions: int, start: int) -> dict[str, Fraction]:
    """The ends of a pursuit whose quarry rolls (VR-CHASE-3/4/6), by exact Gaussian
    elimination: a success moves it up, a failure down; at 1 its interpose evades the hunter
    with p and is a capture otherwise (both end the chase); at the top it has escaped."""
    n = positions - 1  # unknowns x_1 … x_{top-1} for capture (column n) and evasion (n + 1)
    rows = [[Fraction(0)] * (n + 2) for _ in range(n)]
    for i in range(n):
        rows[i][i] = Fraction(1)
        if i == 0:
            rows[0][n], rows[0][n + 1] = 1 - p, p
            continue
        rows[i][i - 1] -= 1 - p
        if i + 1 < n:
            rows[i][i + 1] -= p
    _eliminate(rows)
    captured, evaded = rows[start - 1][n], rows[start - 1][n + 1]
    return {"captured": captured, "evaded": evaded, "escaped": 1 - captured - evaded}


@pytest.mark.rule("VR-CHASE-3", "VR-CHASE-6")
def test_vers_quarry_pursuit_ends_in_capture_evasion_or_escape_at_the_exact_odds() -> None:
    """Ada is the quarry: her interpose at 1 evades the cutpurse (the chase is over) or is a
    capture; before, a success only sent her back to 2, and no encounter ended `evaded`."""
    p = sum(q for t, q in die_distribution(3 @ icepool.d6).items() if t <= 12)
    exact = quarry_odds(p, positions=5, start=3)
    text = CHASE.replace("hunter=ada quarry=cutpurse", "hunter=cutpurse quarry=ada")
    sc = parse_scenario(text, "quarry.toml")
    job = SimJob(sc.text, sc.path, 250, "quarry", max_rounds=200)
    [result] = simulate(job, runner=Runner(1))
    t = result.tally
    assert t.n == 250 and t.outcomes["no decision"] == 0
    assert set(t.outcomes) == {"captured", "evaded", "escaped"} and t.outcomes["evaded"] > 0
    assert_agrees(Counter(t.outcomes), exact)
    assert t.wins["pcs"] == t.outcomes["evaded"] + t.outcomes["escaped"]
    assert list(report_data([result])["results"][0]["outcomes"]) == [
        "taken out", "captured", "escaped", "evaded", "no decision"]
