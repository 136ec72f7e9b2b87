"""The report of a run or a sweep, as JSON-native data (``fracas sim --json``, docs/sim.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fracas.sim.encounter import Prepared
from fracas.sim.job import SimJob, sim_side
from fracas.sim.policies import DEFAULT_POLICY
from fracas.sim.profiles import COMPROMISE
from fracas.sim.stats import NO_DECISION, NO_WINNER, Tally, proportion, quantile

FORMAT = "fracas.sim/1"


@dataclass(slots=True)
class Result:
    """One combination of a sweep (or the only one): its job, prepared form and tally."""

    job: SimJob
    prepared: Prepared
    tally: Tally


def result_data(r: Result) -> dict[str, Any]:
    """One combination's figures: wins and outcomes with 95% Wilson intervals, rounds,
    each character's chance to be taken out and mean harm taken."""
    t, p = r.tally, r.prepared
    n = t.n
    no_winner = COMPROMISE in p.outcomes or t.wins.get(NO_WINNER, 0)  # reachable or seen
    sides = [*p.sides.sides, *([NO_WINNER] if no_winner else []), NO_DECISION]
    outcomes = list(dict.fromkeys([*p.outcomes, *sorted(t.outcomes), NO_DECISION]))
    rounds_total = sum(k * v for k, v in t.rounds.items())
    names = p.names or {q.id: q.name for q in p.setup.participants}
    return {
        "vary": {k: v for k, v in r.job.overrides},
        "label": r.job.label(),
        "n": n,
        "wins": {s: proportion(t.wins.get(s, 0), n) for s in sides},
        "outcomes": {o: proportion(t.outcomes.get(o, 0), n) for o in outcomes},
        "rounds": {
            "mean": rounds_total / n if n else 0.0,
            "median": quantile(t.rounds, 0.5),
            "p90": quantile(t.rounds, 0.9),
            "max_rounds": p.max_rounds,
            "round_limit": p.setup.round_limit,  # the scenario's own (None: none)
            "histogram": {str(k): t.rounds[k] for k in sorted(t.rounds)},
        },
        "characters": {
            pid: {"name": names[pid], "side": p.sides.side_of[pid],
                  "taken_out": proportion(t.out.get(pid, 0), n),
                  "mean_harm": t.harm.get(pid, 0) / n if n else 0.0}
            for pid in names if pid not in p.bystanders
        },
        "left_out": left_out(r),
        "diagnostics": {"refused_commands": t.refused, "stalled": t.stalled,
                        "stalled_at": [{"state": line, "count": count} for line, count in
                                       sorted(t.stalls.items(), key=lambda kv: (-kv[1], kv[0]))],
                        "refusals": [
                            {"verb": verb, "rule": rule or None, "error": error,
                             "count": count, "example": example}
                            for (verb, rule, error), (count, example) in sorted(
                                t.refusals.items(), key=lambda kv: (-kv[1][0], kv[0]))]},
    }


def left_out(r: Result) -> dict[str, list[str]]:
    """The commands the rules offered characters and the agents never play (Profile.skip),
    each with the characters who have them (ids, in set-up order), by verb."""
    p, offered = r.prepared, r.tally.left_out
    stats = {q.id: q.stats for q in p.setup.participants}
    out: dict[str, list[str]] = {}
    for verb in sorted({verb for verb, _ in offered}):
        who = [pid for pid in p.names if (verb, pid) in offered and pid not in p.bystanders
               and p.profile.has(verb, stats.get(pid, {}))]
        if who:
            out[verb] = who
    return out


def report_data(results: list[Result]) -> dict[str, Any]:
    """The whole report: what was run, then one entry per combination."""
    first = results[0]
    p = first.prepared
    # the scenario's order (its sides, then its characters'), then any a sweep brings: the
    # same columns whichever side a combination lacks
    setup = first.job.scenario().setup
    found = [side for r in results for side in r.prepared.sides.sides]
    sides = [side for side in dict.fromkeys(
        [*setup.sides, *map(sim_side, setup.participants), *found]) if side in found]
    return {
        "format": FORMAT,
        "scenario": first.job.scenario_name,
        "ruleset": p.ruleset_name,
        "seed": first.job.seed,
        "n": first.job.n,
        "sides": sides,  # of every combination (a sweep may move a character to a new side)
        "policies": {s: _policy_name(first.job, s) for s in sides},
        "prologue": list(p.prologue_text),  # the GM commands every encounter starts with
        "harm_unit": p.profile.harm_unit,
        "results": [result_data(r) for r in results],
    }


def win_columns(data: dict[str, Any]) -> list[str]:
    """The sides of a report, each once, then "no winner" (where a combination has it) and
    "no decision": the columns of a sweep (a combination without one of them has no entry
    for it)."""
    no_winner = any(NO_WINNER in r["wins"] for r in data["results"])
    return [*data["sides"], *([NO_WINNER] if no_winner else []), NO_DECISION]


def label(key: str, outcomes: Iterable[str] = (), sep: str = " ", cap: str = "round cap"
          ) -> str:
    """How the text report and the plot name a column of the win table (a side, or a key
    of the JSON form's ``wins``): "no decision" is the round cap's (or a stall's; ``cap``:
    what ends the undecided encounters, :func:`undecided_at`), "no winner" a compromise's
    where the run can reach one (``outcomes``: those of the report); ``sep`` goes before
    the gloss in brackets (a line break in a narrow place)."""
    if key == NO_DECISION:
        return f"no decision{sep}({cap})"
    if key == NO_WINNER and COMPROMISE in outcomes:
        return f"no winner{sep}(compromise)"
    return key


def undecided_at(results: Iterable[dict[str, Any]]) -> str:
    """What stops the undecided encounters of these results (JSON form), as the win table
    says it: "round cap" (``--max-rounds``), "round limit" (the scenario's or the sweep's,
    where it comes first) or, in a sweep with both, "round limit or cap"."""
    found = {"round limit" if r["rounds"]["round_limit"] is not None
             and r["rounds"]["round_limit"] <= r["rounds"]["max_rounds"] else "round cap"
             for r in results}
    return "round limit or cap" if len(found) > 1 else found.pop()


def characters(data: dict[str, Any]) -> dict[str, str]:
    """The characters of every combination of a report, each once (id → name): the rows of
    a sweep's taken-out table and the bars of its plot. One a later combination brings
    (``--vary pcs=1,2``: Bruno) comes after the one before it there (Ada), not last; a
    sweep of a name gives each name it had (``Grim, the Bold / Sam``)."""
    order: list[str] = []
    names: dict[str, dict[str, None]] = {}
    for r in data["results"]:
        before = -1
        for pid, c in r["characters"].items():
            if pid not in names:
                order.insert(before + 1, pid)
            before = order.index(pid)
            names.setdefault(pid, {})[c["name"]] = None
    return {pid: " / ".join(names[pid]) for pid in order}


def all_outcomes(data: dict[str, Any]) -> list[str]:
    """The outcomes of every combination of a report, each once."""
    return list(dict.fromkeys(o for r in data["results"] for o in r["outcomes"]))


def _policy_name(job: SimJob, side: str) -> str:
    chosen = dict(job.policies)
    scenario = job.scenario().sim.get("policies", {})
    return chosen.get(side) or scenario.get(side) or DEFAULT_POLICY
