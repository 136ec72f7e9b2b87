"""Start-up benchmark: the CPU time of a whole ``fracas`` command, beside bare Python.

Run from the repository root::

    .venv/bin/python benchmarks/bench_start.py                      # this checkout
    .venv/bin/python benchmarks/bench_start.py --before OLD/src     # and another, in turns

Each row runs ``python -c "from fracas.cli import main; main()" ARGS`` (what the ``fracas``
script runs) as a fresh process and reads the CPU time (user + system) the child used from
``resource.getrusage(RUSAGE_CHILDREN)``, the best of ``--runs`` runs: a shared machine slows
a run down, never speeds it up. The baseline, ``python -c pass``, runs in the same loop, and
with ``--before`` the other checkout's ``src`` (put first on ``PYTHONPATH``) runs in turns
with this one, row by row.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ENTRY = "from fracas.cli import main; main()"

#: The commands timed: the light ones, then one that opens the store.
ROWS: list[tuple[str, list[str]]] = [
    ("fracas --version", ["--version"]),
    ("fracas roll 1d20", ["roll", "1d20"]),
    ("fracas odds 3d6 --vs 12", ["odds", "3d6", "--vs", "12"]),
    ("fracas rules vers --id VR-ATK-5", ["rules", "vers", "--id", "VR-ATK-5"]),
    ("fracas run etherscope-car-chase", ["run", "etherscope-car-chase"]),
    ("fracas list (the store)", ["list"]),
]


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) of one run of ``argv`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print one line per command: its best CPU time, beside the baseline (and --before)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each row (best kept)")
    parser.add_argument("--before", type=Path, help="another checkout's src folder")
    args = parser.parse_args()
    sides = {"this": SRC} | ({"before": args.before.resolve()} if args.before else {})
    db = Path(os.environ.get("TMPDIR", "/tmp")) / f"fracas-bench-start-{os.getpid()}.db"
    envs = {name: {**os.environ, "PYTHONPATH": str(src), "FRACAS_DB": f"sqlite:///{db}",
                   "COLUMNS": "100"} for name, src in sides.items()}
    base = min(cpu_seconds([sys.executable, "-c", "pass"], os.environ)
               for _ in range(args.runs))
    print(f"python -c pass (baseline): {base * 1000:.0f} ms")
    for label, words in ROWS:
        best = dict.fromkeys(sides, float("inf"))
        for _ in range(args.runs):  # the sides in turns, so both meet the same load
            for name in sides:
                argv = [sys.executable, "-c", ENTRY, *words]
                best[name] = min(best[name], cpu_seconds(argv, envs[name]))
        shown = " · ".join(f"{name} {t * 1000:.0f} ms ({t / base:.0f}× baseline)"
                           for name, t in best.items())
        print(f"{label}: {shown}")
    db.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
