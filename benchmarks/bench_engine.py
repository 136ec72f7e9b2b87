"""The price of event sourcing: fracas's engine against plain Python doing the same changes.

Run from the project root:  .venv/bin/python benchmarks/bench_engine.py [--quick]

Workload: a toy brawl (tests/support/toy.py: popcorn turns, HP pools, 1d6 hits with dice typed
in) of three participants, played round after round until the log holds 10,000 events.

* validated commands/s — ``Conflict.execute`` of each command: parse, author check, decide
  (validation + events), record, evolve. Baseline: the same checks and state changes by direct
  calls on the same components, with no parsing, no events and no log.
* replay events/s — ``fold`` of the whole log into a fresh state. Baseline: the same state
  changes applied by direct calls.

Per ruleset (``--rulesets etherscope,fabula-ultima,vers``; ``--rulesets none`` skips them), two
workloads each: the bundled scenarios' scripts (every command of every bundled scenario of the
ruleset, from a fresh conflict), and random legal play (300 steps of concrete legal commands
picked by a seeded generator from a bundled scenario, no undo, redo, extra, end, out or
leave, recorded once — or read from ``--plays``
— then replayed as commands):
validated commands/s and ``legal_commands`` calls/s (every participant and the GM, at every
step of the random play). Times are CPU time of this process (best of the repeats). Beside
them, for the workloads that have one (``benchmarks/plain_loops.py``: ``LOOPS`` names a loop
per scenario, per ruleset, and ``RULESET random`` for the random play), a plain-Python loop
doing the same checks and state changes. Both sides start from the commands already read
(fracas executes each parsed command: the checks of its arguments, author and rules, its
events, record and fold) and time the commands alone (the set-up is made before the clock
starts), and the run first checks that both end in the same state.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fracas.app.scenario import Scenario, bundled_scenarios, load_scenario
from fracas.engine import Conflict, Setup, fold
from fracas.engine.components import Popcorn, ResourcePool
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from tests.support.toy import Toy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plain_loops import LOOPS, fresh_copy, summary

PEOPLE = ["ada", "bruno", "gob"]
#: The clock of every figure: the process's CPU time, which other processes on a shared
#: machine inflate far less than the wall clock (both are the same on a quiet one).
CLOCK = time.process_time


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
        {"id": p, "name": p.title(), "stats": {"hp": 10**6}} for p in PEOPLE])


def baseline_play(lines: list[str], check: bool) -> tuple[Popcorn, dict[str, ResourcePool]]:
    """The same state changes by direct calls (and, with ``check``, the same validation)."""
    turns = Popcorn(members=list(PEOPLE))
    hp = {p: ResourcePool(current=10**6, maximum=10**6) for p in PEOPLE}
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
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return min(times)


@functools.cache
def _scenario(name: str) -> Scenario:
    return load_scenario(name)


def _fresh(name: str) -> Conflict:
    sc = _scenario(name)
    return Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, "bench", time="")


def _run(name: str, lines: list[str]) -> Conflict:
    c = _fresh(name)
    for line in lines:
        c.execute(line, time="")
    return c


#: Verbs a random play leaves out: they take characters out of play or end it early, or
#: are the GM's own hiding of one (Etherscope offers them with every value named, but the
#: plain loops, like the random play before, leave the GM's concealing out).
_NOT_PLAYED = frozenset({"undo", "redo", "extra", "end", "out", "leave", "conceal", "reveal"})


def _placeholder(word: str) -> bool:
    return word.isupper() and len(word) > 1


def _concrete(c: Conflict) -> list[str]:
    """The legal commands of everyone that need no value picked: a template's keyword
    placeholders (``say=TEXT``, ``dice=DICE``) are left out (the engine rolls what the table
    does not type), and a template with another placeholder is skipped."""
    out = []
    for actor in [None, *c.state.innermost.participants]:
        for template in c.legal_commands(actor):
            words = [w for w in template.split(" ")
                     if not ("=" in w and _placeholder(w.partition("=")[2]))]
            if words[0 if not words[0].endswith(":") else 1] in _NOT_PLAYED or any(
                    _placeholder(w) for w in words):
                continue
            out.append(" ".join(words))
    return list(dict.fromkeys(out))


def random_play(name: str, steps: int = 300, seed: int = 1) -> list[str]:
    """The commands a seeded random legal play of ``name`` accepted."""
    rng = random.Random(seed)
    c = _fresh(name)
    out: list[str] = []
    for _ in range(steps):
        options = _concrete(c)
        if not options:
            break
        text = rng.choice(options)
        try:
            c.execute(text, time="")
        except FracasError:
            continue
        out.append(text)
    return out


def played_of(ruleset: str, plays: Path | None = None) -> list[str]:
    """The random play of ``ruleset``'s first bundled scenario, read from (or, the first
    time, written to) ``plays``/RULESET.txt, so that two versions replay the same one."""
    saved = plays / f"{ruleset}.txt" if plays else None
    if saved is not None and saved.exists():
        return saved.read_text(encoding="utf-8").splitlines()
    played = random_play(_names(ruleset)[0])
    if saved is not None:
        saved.write_text("\n".join(played) + "\n", encoding="utf-8")
    return played


def _names(ruleset: str) -> list[str]:
    return sorted(n for n in bundled_scenarios() if _scenario(n).setup.ruleset == ruleset)


def ruleset_rows(ruleset: str, repeats: int, played: list[str]) -> list[tuple[str, float]]:
    """(figure, per second) of ``ruleset``'s workloads: its bundled scripts and the random
    play ``played``."""
    names = _names(ruleset)
    scripts = {n: [line.text for line in _scenario(n).script] for n in names}
    n_script = sum(map(len, scripts.values()))
    t_script = best_of(repeats, lambda: [_run(n, lines) for n, lines in scripts.items()])
    t_random = best_of(repeats, lambda: _run(names[0], played))
    calls = 0

    def play_and_ask() -> None:
        nonlocal calls
        calls = 0
        conflict = _fresh(names[0])
        for line in played:
            conflict.execute(line, time="")
            for a in [None, *conflict.state.innermost.participants]:
                conflict.legal_commands(a)
                calls += 1

    t_legal = best_of(repeats, play_and_ask) - t_random  # the asking, without the playing
    return [(f"{ruleset} script commands/s", n_script / t_script),
            (f"{ruleset} random commands/s", len(played) / t_random),
            (f"{ruleset} legal_commands/s", calls / max(t_legal, 1e-9))]


def _best_prepared(repeats: int, prepare: Callable[[], list[Any]],
                   run: Callable[[list[Any]], object]) -> float:
    """The best time of ``run`` over what ``prepare`` made (made before the clock starts)."""
    times = []
    for _ in range(repeats):
        made = prepare()
        gc.collect()  # not the collection of what preparing made
        t0 = CLOCK()
        run(made)
        times.append(CLOCK() - t0)
    return min(times)


#: Passes over the scripts in one sample of the plain-loop comparison (they are short).
PASSES = 10


def plain_workloads(ruleset: str, played: list[str]) -> list[tuple[str, list[Any]]]:
    """``ruleset``'s workloads that have a plain loop — its scripts, and its random play
    ``played`` — each as (label, [(scenario, commands, steps, loop, fresh state)]), after
    checking that the plain loop of each ends where fracas does (AssertionError if not)."""
    names = _names(ruleset)
    scripts = [(name, [line.text for line in _scenario(name).script]) for name in names]
    out = []
    for label, workloads in (("scripts", scripts), ("random play", [(names[0], played)])):
        work = []
        for name, lines in workloads:
            loop = LOOPS.get(f"{ruleset} random") if label == "random play" else (
                LOOPS.get(name) or LOOPS.get(ruleset))
            if loop is None:
                continue
            start = _fresh(name)
            commands = [start.parse(line) for line in lines]
            steps = [(c.verb, c.actor, dict(c.args)) for c in commands]
            copy = fresh_copy(start.state)
            done = summary(_run(name, lines).state)
            if summary(loop(copy()).play(steps)) != done:
                raise AssertionError(f"the plain loop of {name} ({label}) does not end where "
                                     "fracas does")
            work.append((name, commands, steps, loop, copy))
        out.append((label, work))
    return out


def plain_rows(ruleset: str, repeats: int, played: list[str]
               ) -> list[tuple[str, float, float]]:
    """(workload, fracas s/command, plain s/command) of ``ruleset``'s scripts that have a
    plain loop and of its random play ``played`` (when a loop plays it), after checking that
    both sides end in the same state (:func:`plain_workloads`).

    Both sides start from the commands already read: fracas executes each parsed command
    (its checks of the arguments, the author, the rules; its events, record and fold), the
    loop its verb, actor and arguments."""
    rows = []
    for label, work in plain_workloads(ruleset, played):
        if not work:
            continue
        n = PASSES * sum(len(w[1]) for w in work)

        def conflicts(work: list[Any] = work) -> list[Any]:
            return [(_fresh(name), commands) for _ in range(PASSES)
                    for name, commands, *_ in work]

        def plain_states(work: list[Any] = work) -> list[Any]:
            return [(loop, copy(), steps) for _ in range(PASSES)
                    for _, _, steps, loop, copy in work]

        def execute(made: list[Any]) -> None:
            for conflict, commands in made:
                for command in commands:
                    conflict.execute(command, time="")

        def play(made: list[Any]) -> None:
            for loop, state, steps in made:
                loop(state).play(steps)

        t_fracas = _best_prepared(repeats, conflicts, execute)
        t_plain = _best_prepared(repeats, plain_states, play)
        rows.append((f"{label} ({', '.join(w[0] for w in work)})", t_fracas / n, t_plain / n))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 events, one repeat")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rulesets", default="etherscope,fabula-ultima,vers",
                        help="rulesets whose workloads to run (comma-separated, or none)")
    parser.add_argument("--plays", type=Path, default=None,
                        help="a folder keeping each ruleset's random play, to compare versions")
    args = parser.parse_args()
    chosen = [r for r in args.rulesets.split(",") if r and r != "none"]
    known = {_scenario(n).setup.ruleset for n in bundled_scenarios()}
    if unknown := sorted(set(chosen) - known):
        parser.error(f"no bundled scenario of {', '.join(unknown)} "
                     f"(rulesets: {', '.join(sorted(known))}, or none)")
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
    for ruleset_name in chosen:
        played = played_of(ruleset_name, args.plays)
        for name, per_second in ruleset_rows(ruleset_name, repeats, played):
            print(f"{name:<36}{per_second:>12,.0f}   ({1e6 / per_second:.0f} µs each)")
        for workload, ours, plain in plain_rows(ruleset_name, repeats, played):
            print(f"  from commands already read, {workload}: fracas {ours * 1e6:.1f} µs · "
                  f"plain Python {plain * 1e6:.1f} µs ({ours / plain:.1f}×)")


if __name__ == "__main__":
    main()
