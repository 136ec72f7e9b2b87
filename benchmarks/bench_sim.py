"""fracas sim against hand-written plain-Python loops of the same encounters, in one run.

Run from the project root:  .venv/bin/python benchmarks/bench_sim.py [--quick]

For a bundled encounter of each ruleset, ``fracas sim``'s fast path (the engine's decide and
evolve, legal commands, the side's view) plays encounters with the deterministic policy
:func:`scripted` below, and a plain loop plays the same encounter with the same rules written
out by hand, drawing the same dice (the same generator, derived per command version exactly
as the engine does) and making the same choices. The two must agree encounter by encounter —
winner, rounds, each character's harm, who is taken out — or the script stops with the first
difference, so the figures compare equal work. Each side runs three times, in turns, and its
best run (CPU time) counts. Then: 1 against 2 local workers (wall clock), and the overhead
per task of a Dask LocalCluster.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fracas.app.scenario import load_scenario
from fracas.dice.rng import DiceRng
from fracas.sim import Runner, SimJob, simulate
from fracas.sim.encounter import play_encounter, prepare
from fracas.sim.job import encounter_seed
from fracas.sim.policies import Option, Turn
from fracas.sim.stats import NO_DECISION

POLICY = "benchmarks.bench_sim:scripted"
REPEATS = 3  # runs of each side, in turns; the best counts
CPU = time.process_time  # one core's work: a busy neighbour on the shared cores weighs less
PASSIVE = "benchmarks.bench_sim:passive"


def scripted(turn: Turn) -> Option:
    """The benchmark's policy: a chase roll if there is one; else the first attack the legal
    commands list (the first member who may act, on the first foe standing); else pass; else
    the first option."""
    chase = [o for o in turn.options if o.verb in turn.profile.objective_verbs]
    if chase:
        return chase[0]
    attacks = turn.attacks()  # in the order of turn.options
    if attacks:
        return attacks[0]
    passes = [o for o in turn.options if o.verb in turn.profile.pass_verbs]
    return (passes or list(turn.options))[0]


def passive(turn: Turn) -> Option:
    """The quarry of the benchmark's pursuit: it only ends its go."""
    passes = [o for o in turn.options if o.verb in turn.profile.pass_verbs]
    return (passes or list(turn.options))[0]


# --- Fabula Ultima: the ambush on the Old Bridge, by hand --------------------------------------

#: id: (side, dex, ins, mig, hp, defense, accuracy dice, accuracy bonus, damage, turns)
FU = {
    "ada": ("heroes", 10, 8, 8, 45, 10, ("dex", "ins"), 1, 4, 1),
    "bruno": ("heroes", 8, 8, 10, 50, 8, ("dex", "mig"), 0, 0, 1),
    "captain": ("bandits", 8, 8, 10, 60, 9, ("dex", "mig"), 0, 6, 2),
    "cut1": ("bandits", 10, 6, 8, 20, 10, ("dex", "ins"), 0, 2, 1),
    "cut2": ("bandits", 10, 6, 8, 20, 10, ("dex", "mig"), 0, 0, 1),
}
_ATTR = {"dex": 1, "ins": 2, "mig": 3}


def _check(rng: DiceRng, a: int, b: int) -> tuple[int, int]:
    return rng.die(a), rng.die(b)


#: What both sides of the benchmark give for an encounter: (winner, rounds, harm taken by each
#: character, those taken out in set-up order) — compared encounter by encounter.
Outcome = tuple[str, int, dict[str, int], tuple[str, ...]]


def _outcome(winner: str, rounds: int, left: dict[str, int], full: dict[str, int]) -> Outcome:
    """An encounter's outcome from what each character has ``left`` of its ``full`` health
    (HP, the condenser): the harm is the difference, those at 0 are out."""
    return (winner, rounds, {k: full[k] - left[k] for k in full},
            tuple(k for k in full if left[k] <= 0))


def fabula_plain(seed: str, max_rounds: int) -> Outcome:
    """(winner, rounds, HP lost, defeated) of one ambush: group initiative, alternating
    sides, attacks on the first foe standing, HR + damage, critical hits and fumbles
    (FU-CHK-*, FU-CON-*)."""
    full = {k: v[4] for k, v in FU.items()}
    hp = dict(full)
    version = 2  # 1 is the set-up
    rng = DiceRng.derive(seed, version)
    a, b = _check(rng, 8, 8)  # Bruno supports against DL 10
    helped = (a == b and a >= 6) or (not (a == b == 1) and a + b >= 10)
    mod = 2 if helped else 0  # +1 for his success, +1 for his Bond to Ada
    a, b = _check(rng, 10, 8)
    lead = (a == b and a >= 6) or (not (a == b == 1) and a + b + mod >= 10)
    first = "heroes" if lead else "bandits"
    rounds = 1
    while True:
        taken = dict.fromkeys(FU, 0)
        side = first
        while True:
            standing = {s: [k for k in FU if FU[k][0] == s and hp[k] > 0]
                        for s in ("heroes", "bandits")}
            if not standing["heroes"] or not standing["bandits"]:
                return _outcome("bandits" if standing["bandits"] else "heroes", rounds, hp,
                                full)
            left = {s: [k for k in standing[s] if taken[k] < FU[k][9]] for s in standing}
            if not left[side]:
                side = "bandits" if side == "heroes" else "heroes"
                if not left[side]:
                    break
            actor = left[side][0]
            foe = standing["bandits" if side == "heroes" else "heroes"][0]
            me = FU[actor]
            version += 1
            rng = DiceRng.derive(seed, version)
            a, b = _check(rng, me[_ATTR[me[6][0]]], me[_ATTR[me[6][1]]])
            crit, fumble = a == b and a >= 6, a == b == 1
            if crit or (not fumble and a + b + me[7] >= FU[foe][5]):
                hp[foe] = max(0, hp[foe] - (max(a, b) + me[8]))
            taken[actor] += 1
            other = "bandits" if side == "heroes" else "heroes"
            side = other if any(taken[k] < FU[k][9] and hp[k] > 0 for k in FU
                                if FU[k][0] == other) else side
        rounds += 1
        if rounds > max_rounds:
            return _outcome(NO_DECISION, max_rounds, hp, full)


# --- VERS: the pursuit through the market, by hand ---------------------------------------------

def vers_plain(seed: str, max_rounds: int) -> Outcome:
    """(winner, rounds, no harm, nobody out) of the pursuit: Ada rolls 3d6 ≤ 12 twice a go
    from position 3 of 5; at 1 she interposes (VR-CHASE-3/4/6); the cutpurse only hands off.
    The simulated GM picks who opens each turn with the encounter's own generator, as
    :mod:`fracas.sim` does."""
    table = DiceRng.derive(seed + "\x00agents")
    unhurt = {"ada": 0, "cutpurse": 0}  # a chase harms nobody
    version = 2  # 1: set-up, 2: the chase starts
    position = 3
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        cutpurse_first = table.below(2) == 1  # "open ada" or "open cutpurse"
        version += 2 if cutpurse_first else 1  # the opening (and the cutpurse's hand-off)
        for _ in range(2):
            version += 1
            rng = DiceRng.derive(seed, version)
            success = rng.die(6) + rng.die(6) + rng.die(6) <= 12
            if position == 1:
                if success:
                    return "pcs", rounds, unhurt, ()
                position = 2
            else:
                position = max(1, position - 1) if success else position + 1
                if position == 5:
                    return "npcs", rounds, unhurt, ()
        version += 1 if cutpurse_first else 2  # the hand-offs left in the turn
    return NO_DECISION, max_rounds, unhurt, ()


# --- Etherscope: the car chase, by hand --------------------------------------------------------

#: id: (side, physical condenser, awareness rating, best skill rating)
ES = {"ada": ("pursuers", 12, 3, 4), "bruno": ("pursuers", 9, 2, 3),
      "zepcar": ("villains", 10, 2, 3)}


def _successes(rng: DiceRng, pool: int) -> int:
    return sum(rng.die(6) >= 5 for _ in range(pool))


def _roll_off(rng: DiceRng, group: list[str]) -> list[str]:
    """ES-ROUND-5: the tied roll their awareness again until the order is settled."""
    if len(group) < 2:
        return group
    for _ in range(20):
        result = {p: _successes(rng, max(1, ES[p][2])) for p in group}
        levels = sorted(set(result.values()), reverse=True)
        if len(levels) > 1:
            return [q for lv in levels for q in _roll_off(rng, [p for p in group
                                                              if result[p] == lv])]
    return sorted(group)


def _ranked(rng: DiceRng, ids: list[str], key: dict[str, int], aware: dict[str, int]
            ) -> list[str]:
    """``ids`` by ``key`` (highest first), ties by awareness, then roll-offs."""
    out: list[str] = []
    for k in sorted({key[p] for p in ids}, reverse=True):
        tied = [p for p in ids if key[p] == k]
        for aw in sorted({aware[p] for p in tied}, reverse=True):
            out += _roll_off(rng, [p for p in tied if aware[p] == aw])
    return out


def etherscope_plain(seed: str, max_rounds: int) -> Outcome:
    """(winner, rounds, condenser damage, taken out) of the car chase: awareness rolls, no
    awareness steps, every round one action at the base initiative (the condenser now), ties
    by awareness then roll-offs, each an attack with the best skill on the first foe
    standing: 1 damage + 1 per extra success (ES-START-1/5, ES-ROUND-1..5, ES-ACT-4,
    ES-DMG-1/2)."""
    ids = list(ES)
    full = {p: ES[p][1] for p in ids}
    cond = dict(full)
    version = 1
    aware = {}
    for p in ids:
        version += 1
        aware[p] = _successes(DiceRng.derive(seed, version), ES[p][2])
    version += 1
    _ranked(DiceRng.derive(seed, version), ids, dict.fromkeys(ids, 0), aware)  # `moves`
    version += len(ids) - 1  # every mover but the last says `done`
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        up = [p for p in ids if cond[p] > 0]
        version += 1 + len(up) + 1  # `round`, the declarations, `countdown`
        order = _ranked(DiceRng.derive(seed, version), up, dict(cond), aware)
        for actor in order:
            if cond[actor] <= 0:
                continue
            foes = [p for p in ids if ES[p][0] != ES[actor][0] and cond[p] > 0]
            version += 1
            hits = _successes(DiceRng.derive(seed, version), ES[actor][3])
            if hits >= 1:
                cond[foes[0]] = max(0, cond[foes[0]] - hits)
            sides = {ES[p][0] for p in ids if cond[p] > 0}
            if len(sides) < 2:
                return _outcome(sides.pop(), rounds, cond, full)
    return _outcome(NO_DECISION, max_rounds, cond, full)


PLAIN: dict[str, tuple[str, Callable[[str, int], Outcome], dict[str, str]]] = {
    "fabula-ultima": ("fabula-ultima-ambush", fabula_plain,
                      {"heroes": POLICY, "bandits": POLICY}),
    "vers": ("vers-chase", vers_plain, {"pcs": POLICY, "npcs": PASSIVE}),
    "etherscope": ("etherscope-car-chase", etherscope_plain,
                   {"pursuers": POLICY, "villains": POLICY}),
}


def job_for(name: str, n: int, policies: dict[str, str]) -> SimJob:
    """The benchmark job with its policies."""
    sc = load_scenario(name)
    return SimJob(sc.text, sc.path, n, "bench", 50, tuple(policies.items()))


def timed(fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter
          ) -> tuple[float, Any]:
    start = clock()
    out = fn()
    return clock() - start, out


def differences(name: str, results: list[Any], plain: list[Outcome]) -> str:
    """Where fracas sim's encounters and the hand-written loop's part (winner, rounds, harm,
    taken out), in a sentence; "" when every encounter is the same."""
    differ = [i for i, (r, q) in enumerate(zip(results, plain, strict=True))
              if (r.winner, r.rounds, r.harm, r.out) != q]
    if not differ:
        return ""
    i, r = differ[0], results[differ[0]]
    return (f"{name}: encounter {i} differs: fracas sim {(r.winner, r.rounds, r.harm, r.out)}, "
            f"the hand-written loop {plain[i]} ({len(differ)} of {len(plain)})")


def agreement(ruleset: str, n: int) -> str:
    """:func:`differences` of ``n`` encounters of ``ruleset``'s bundled benchmark encounter."""
    name, plain, sides = PLAIN[ruleset]
    p = prepare(job_for(name, n, sides))
    return differences(name, [play_encounter(p, i) for i in range(n)],
                       [plain(encounter_seed("bench", i), 50) for i in range(n)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = parser.parse_args()
    n = 20 if args.quick else 300
    rows: list[tuple[str, str, str, str]] = []
    for ruleset, (name, plain, sides) in PLAIN.items():
        p = prepare(job_for(name, n, sides))
        seeds = [encounter_seed("bench", i) for i in range(n)]
        sim_s = plain_s = float("inf")
        for _ in range(REPEATS):  # taken in turns, the best of each: the load hits both alike
            took, results = timed(lambda p=p: [play_encounter(p, i) for i in range(n)], CPU)
            sim_s = min(sim_s, took)
            took, plain_results = timed(lambda plain=plain, seeds=seeds: [
                plain(s, 50) for s in seeds], CPU)
            plain_s = min(plain_s, took)
        if differ := differences(name, results, plain_results):
            sys.exit(differ)  # not the same encounters: the figures would compare other work
        rows.append((ruleset, name, f"{n / sim_s:,.0f} encounters/s",
                     f"{n / plain_s:,.0f} encounters/s ({100 * plain_s / sim_s:.1f}% of its "
                     f"speed; all {n} encounters identical: winner, rounds, harm, taken out)"))
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores shared: the ratios are the figures)")
    print("| ruleset | encounter | fracas sim (1 core) | hand-written loop |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")

    name, _, sides = PLAIN["fabula-ultima"]
    job = job_for(name, 4 * n, sides)
    one, _ = timed(lambda: simulate(job, runner=Runner(1)))
    two, _ = timed(lambda: simulate(job, runner=Runner(2)))
    print(f"\n{name}, {4 * n} encounters: 1 worker {4 * n / one:,.0f}/s, 2 workers "
          f"{4 * n / two:,.0f}/s ({one / two:.2f}x)")

    try:
        import distributed
    except ImportError:
        print("Dask distributed is not installed (pip install 'fracas[sim]')")
        return
    from fracas.sim.runner import run_chunk

    tasks = 50 if args.quick else 300
    tiny = job_for("vers-chase", 1, PLAIN["vers"][2])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.submit(run_chunk, tiny, 0, 1).result()  # warm: workers prepare the job
        empty, _ = timed(lambda: client.gather(client.map(
            run_chunk, [tiny] * tasks, [0] * tasks, [0] * tasks, pure=False)))
        one, _ = timed(lambda: client.gather(client.map(
            run_chunk, [tiny] * tasks, [0] * tasks, [1] * tasks, pure=False)))
    local, _ = timed(lambda: [run_chunk(tiny, 0, 1) for _ in range(tasks)])
    print(f"Dask LocalCluster (2 workers), {tasks} tasks: an empty task {1000 * empty / tasks:.1f}"
          f" ms (the overhead per task); a one-encounter task {1000 * one / tasks:.1f} ms, "
          f"in-process {1000 * local / tasks:.1f} ms (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
