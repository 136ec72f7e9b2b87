"""The price of event sourcing: fracas's engine against plain Python doing the same changes.

Run from the project root:  .venv/bin/python benchmarks/bench_engine.py [--quick]

Workload: a toy brawl (tests/support/toy.py: popcorn turns, HP pools, 1d6 hits with dice typed
in) of three participants, played round after round until the log holds 10,000 events.

* validated commands/s — ``Conflict.execute`` of each command: parse, author check, decide
  (validation + events), record, evolve. Baseline: the same checks and state changes by direct
  calls on the same components, with no parsing, no events and no log.
* replay events/s — ``fold`` of the whole log into a fresh state. Baseline: the same state
  changes applied by direct calls.

VERS workloads (``--vers``): the bundled ``vers-tavern-brawl`` script played from its set-up,
and 300 random legal commands from the same set-up (a seeded choice among the concrete legal
VERS commands, dice typed in). Figure: validated commands/s of ``Conflict.execute`` and the mean
cost of one command. Baseline: the fold (replay) of the same records in the same run, the
part of a command that is not deciding.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fracas.app.scenario import load_scenario
from fracas.engine import Conflict, Setup, fold
from fracas.engine.components import Popcorn, ResourcePool
from fracas.engine.ruleset import Ruleset
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from tests.support.toy import Toy

PEOPLE = ["ada", "bruno", "gob"]


def script(target_events: int) -> list[str]:
    """Commands whose log reaches ``target_events`` events (about 12 per round)."""
    lines: list[str] = []
    events = 1
    rnd = 0
    while events < target_events:
        order = PEOPLE[rnd % 3:] + PEOPLE[: rnd % 3]
        lines.append(f"start {order[0]}")
        events += 3 if rnd == 0 else 2
        for i, who in enumerate(order):
            victim = order[(i + 1) % 3]
            lines += [f"{who}: hit {victim} dice={(rnd + i) % 6 + 1}",
                      f"{who}: hit {victim} dice={(rnd + 2 * i) % 6 + 1}"]
            lines.append(f"{who}: done {order[i + 1]}" if i < 2 else f"{who}: done")
            events += 4
        rnd += 1
    return lines


def setup() -> Setup:
    return Setup(ruleset="toy", participants=[
        {"id": p, "name": p.title(), "stats": {"hp": 10**9}} for p in PEOPLE])


def baseline_play(lines: list[str], check: bool) -> tuple[Popcorn, dict[str, ResourcePool]]:
    """The same state changes by direct calls (and, with ``check``, the same validation)."""
    turns = Popcorn(members=list(PEOPLE))
    hp = {p: ResourcePool(current=10**9, maximum=10**9) for p in PEOPLE}
    for line in lines:
        head, _, rest = line.partition(" ")
        if head == "start":
            if turns.round_opened:
                turns.new_round()
            if check:
                turns.check_open(rest)
            turns.open(rest, 2)
            continue
        who = head.rstrip(":")
        verb, _, arg = rest.partition(" ")
        if verb == "hit":
            target, _, dice = arg.partition(" dice=")
            if check:
                turns.check_action(who, n=1)
            hp[target].damage(int(dice))
            turns.spend(1)
        else:
            if check:
                turns.check_action(who, n=0)
                if arg:
                    turns.check_hand_off(arg)
            turns.end_go()
            if arg:
                turns.hand_off(arg, 2)
    return turns, hp


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def vers_random_commands(n: int) -> list[str]:
    """``n`` concrete legal commands of random play from the brawl's set-up (seeded)."""
    sc = load_scenario("vers-tavern-brawl")
    c = Conflict.create(get_vers(), sc.setup, "bench", time="")
    rng = random.Random(1)
    lines: list[str] = []
    while len(lines) < n:
        options = [t for actor in [None, *c.state.participants] for t in c.legal_commands(actor)
                   if "|" not in t and not any(w.isupper() and w not in ("DICE", "TEXT")
                                               for w in t.replace("=", " ").split())
                   and t.split(": ")[-1].split(" ")[0] in VERS_VERBS]
        if not options:
            break
        dice = ",".join(str(rng.randint(1, 6)) for _ in range(3))
        line = rng.choice(options).replace("DICE", dice).replace("TEXT", "go")
        try:
            c.execute(line, time="")
        except FracasError:  # a legal template may still be refused (free attacks' dice)
            continue
        lines.append(line)
    return lines


#: The verbs of the random VERS workload: the ruleset's own (the engine's notes, effects and
#: overrides are measured by the toy workload).
VERS_VERBS = frozenset({"open", "handoff", "endure", "move", "slip", "disengage", "attack",
                        "recover", "repair", "chase", "run", "interpose", "track", "pursue"})


def get_vers() -> Ruleset:
    """The VERS ruleset."""
    return get_ruleset("vers")


def vers_figures(repeats: int) -> None:
    """Commands/s of the VERS workloads, beside the replay of the same records."""
    sc = load_scenario("vers-tavern-brawl")
    ruleset = get_vers()
    workloads = {"bundled script": [s.text for s in sc.script],
                 "random legal play": vers_random_commands(300)}
    print(f"{'VERS workload':<20}{'commands':>9}{'commands/s':>13}{'µs/command':>12}"
          f"{'replay µs/cmd':>15}")
    for name, lines in workloads.items():
        def play(lines: list[str] = lines) -> tuple[Conflict, float]:
            c = Conflict.create(ruleset, sc.setup, "bench", time="")
            t0 = time.perf_counter()
            for line in lines:
                c.execute(line, time="")
            return c, time.perf_counter() - t0

        conflict = play()[0]
        t_exec = min(play()[1] for _ in range(repeats))
        t_fold = best_of(repeats, lambda c=conflict: fold(ruleset, c.records))
        n = len(lines)
        print(f"{name:<20}{n:>9}{n / t_exec:>13,.0f}{t_exec / n * 1e6:>12.1f}"
              f"{t_fold / n * 1e6:>15.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 events, one repeat")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--vers", action="store_true", help="the VERS workloads only")
    args = parser.parse_args()
    if args.vers:
        vers_figures(1 if args.quick else 5)
        return
    n_events = 1_000 if args.quick else args.events
    repeats = 1 if args.quick else 5
    ruleset = Toy()
    lines = script(n_events)

    def execute_all() -> Conflict:
        c = Conflict.create(ruleset, setup(), "bench", time="")
        for line in lines:
            c.execute(line, time="")
        return c

    conflict = execute_all()
    total_events = sum(len(r.events) for r in conflict.records)
    t_exec = best_of(repeats, execute_all)
    t_base_exec = best_of(repeats, lambda: baseline_play(lines, check=True))
    t_fold = best_of(repeats, lambda: fold(ruleset, conflict.records))
    t_base_fold = best_of(repeats, lambda: baseline_play(lines, check=False))
    assert fold(ruleset, conflict.records) == conflict.state

    rows = [
        ("validated commands/s", len(lines) / t_exec, len(lines) / t_base_exec),
        ("replay events/s", total_events / t_fold, total_events / t_base_fold),
    ]
    print(f"python {sys.version.split()[0]} · {len(lines)} commands · {total_events} events · "
          f"best of {repeats}")
    print(f"{'figure':<24}{'fracas':>14}{'plain Python':>16}{'ratio':>10}")
    for name, ours, base in rows:
        print(f"{name:<24}{ours:>14,.0f}{base:>16,.0f}{base / ours:>9.1f}×")
    print(f"mean per command: {t_exec / len(lines) * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
