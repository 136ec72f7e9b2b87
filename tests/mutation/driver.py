"""A small mutation-testing driver: how many deliberate bugs does the test suite catch?

Each *mutant* is one small change to one module's syntax tree — a comparison flipped
(``<`` ↔ ``<=``, ``==`` ↔ ``!=``, ``in`` ↔ ``not in``, ``is`` ↔ ``is not``), ``+`` ↔ ``-``,
an integer constant moved by one, ``True`` ↔ ``False``, ``and`` ↔ ``or``, a ``not`` or a unary
minus dropped, a condition negated, a returned value replaced by ``None``. For each mutant the
driver writes the changed module into a private copy of ``src/`` and runs the tests that cover
that module (``-x``, with a time limit) in a fresh process that imports the copy. A failing (or
hanging) test run *kills* the mutant; a passing one lets it *survive*: some behaviour a user
would notice can change without any test noticing (or the mutant is *equivalent*: it changes
nothing observable; those are listed, with the reason, in ``equivalent.txt`` beside this file).

Score = killed / (mutants − equivalent). Run it with ``bash scripts/mutation.sh`` (see
``--help``); ``tests/mutation/test_mutation_sample.py`` runs a small fixed sample in the suite.

Not mutated: docstrings and other strings, type annotations, ``assert`` statements (internal
checks), ``raise`` statements (the error's wording; whether it is raised is the condition
before it, which is mutated) and decorators.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
EQUIVALENT_FILE = Path(__file__).with_name("equivalent.txt")

# The nine modules of issue 16 (rule logic and the engine components it stands on), then the
# modules the typed model (issue 10) moved rule logic into: the one decide pattern, whose turn
# it is, structured legal commands, and each ruleset's deciders, evolvers and legal commands.
RULE_MODULES = (
    "fracas/rulesets/vers/checks.py",
    "fracas/rulesets/vers/chases.py",
    "fracas/rulesets/vers/actions.py",
    "fracas/rulesets/etherscope/rounds.py",
    "fracas/rulesets/etherscope/start.py",
    "fracas/rulesets/fabula_ultima/actions.py",
    "fracas/engine/components/turn_orders.py",
    "fracas/engine/components/ladders.py",
    "fracas/dice/plan_totals.py",  # the roller's operations (roller.py only starts a roll)
    "fracas/engine/handlers.py",
    "fracas/engine/turns.py",
    "fracas/engine/legal.py",
    "fracas/rulesets/vers/decider.py",
    "fracas/rulesets/vers/evolve.py",
    "fracas/rulesets/vers/legal.py",
    "fracas/rulesets/etherscope/evolve.py",
    "fracas/rulesets/etherscope/legal.py",
    "fracas/rulesets/etherscope/zoom.py",
    "fracas/rulesets/fabula_ultima/evolve.py",
    "fracas/rulesets/fabula_ultima/legal.py",
)
# Everything ``--all`` mutates: the rulesets, the engine's components and the dice.
ALL_GLOBS = ("fracas/rulesets/**/*.py", "fracas/engine/components/*.py", "fracas/dice/*.py")

GOLDEN = "tests/test_golden_logs.py"
# Every ruleset's legal commands are accepted by its decide; typed events keep their JSON.
SHARED = ("tests/rulesets/test_legal_agrees_with_decide.py",
          "tests/rulesets/test_typed_events.py")
RULESET_TESTS = ("tests/rulesets/vers", "tests/rulesets/etherscope",
                 "tests/rulesets/fabula_ultima")
# The tests that cover a module, by the longest matching path prefix.
TESTS: dict[str, tuple[str, ...]] = {
    "fracas/rulesets/vers/": ("tests/rulesets/vers", *SHARED, GOLDEN),
    "fracas/rulesets/etherscope/": ("tests/rulesets/etherscope", *SHARED, GOLDEN),
    "fracas/rulesets/fabula_ultima/": ("tests/rulesets/fabula_ultima", *SHARED, GOLDEN),
    "fracas/rulesets/": (*RULESET_TESTS, "tests/rulesets", GOLDEN),
    "fracas/engine/components/": ("tests/engine/components", *RULESET_TESTS, GOLDEN),
    "fracas/engine/": ("tests/engine", *RULESET_TESTS, GOLDEN),
    "fracas/dice/": ("tests/dice", GOLDEN),
}

_FLIP_COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_FLIP_BINOP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
}
_SYMBOL = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.And: "and", ast.Or: "or",
}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One change to one module: ``ident`` is stable while the function's code stays."""

    module: str  # relative to src/, e.g. fracas/rulesets/vers/checks.py
    ident: str  # "function: 'source' → 'mutated'" (+ " #2" for a repeat in the function)
    line: int
    site: int  # index of the node in the module's walk order
    change: str  # the operator's name, see _changes


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the tests did with a mutant."""

    mutant: Mutant
    killed: bool
    how: str  # "failed", "timeout" or "survived"
    seconds: float


# ---------------------------------------------------------------- finding the mutation sites


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """Nodes never mutated: annotations, asserts, raises, decorators, docstrings."""
    skip: set[int] = set()

    def drop(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Assert, ast.Raise)):
            drop(node)
        elif isinstance(node, (ast.AnnAssign, ast.arg)):
            drop(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            drop(node.returns)
            for d in node.decorator_list:
                drop(d)
        elif isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                drop(d)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            drop(node)
    return skip


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def _changes(node: ast.AST, parent: ast.AST | None) -> list[str]:
    """The names of the mutations that apply to ``node``."""
    out: list[str] = []
    if isinstance(node, ast.Compare):
        out += [f"compare{i}" for i, op in enumerate(node.ops) if type(op) in _FLIP_COMPARE]
    elif isinstance(node, ast.BinOp) and type(node.op) in _FLIP_BINOP:
        if not (_is_text(node.left) or _is_text(node.right)):
            out.append("binop")
    elif isinstance(node, ast.AugAssign) and type(node.op) in _FLIP_BINOP:
        if not _is_text(node.value):
            out.append("binop")
    elif isinstance(node, ast.BoolOp):
        out.append("boolop")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        if not (isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)):
            out.append("unary")
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        out.append("bool")
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        out += ["plus1", "minus1"]
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append("return")
    if (isinstance(node, (ast.If, ast.While, ast.IfExp))
            and not isinstance(node.test, (ast.Compare, ast.UnaryOp))):
        out.append("negate")
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        out.append("negconst")  # -1 as one literal
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub):
        out = [c for c in out if c not in ("plus1", "minus1")]  # mutated as the literal -N
    return out


def _apply(node: ast.AST, change: str) -> ast.AST:
    """A mutated copy of ``node`` (the copy replaces the node in its parent)."""
    new = copy.deepcopy(node)
    if change.startswith("compare"):
        assert isinstance(new, ast.Compare)
        i = int(change.removeprefix("compare"))
        new.ops[i] = _FLIP_COMPARE[type(new.ops[i])]()
    elif change == "binop":
        assert isinstance(new, (ast.BinOp, ast.AugAssign))
        new.op = _FLIP_BINOP[type(new.op)]()
    elif change == "boolop":
        assert isinstance(new, ast.BoolOp)
        new.op = ast.Or() if isinstance(new.op, ast.And) else ast.And()
    elif change == "unary":
        assert isinstance(new, ast.UnaryOp)
        return new.operand
    elif change == "bool":
        assert isinstance(new, ast.Constant)
        new.value = not new.value
    elif change in ("plus1", "minus1"):
        assert isinstance(new, ast.Constant)
        new.value += 1 if change == "plus1" else -1
    elif change == "negconst":
        assert isinstance(new, ast.UnaryOp) and isinstance(new.operand, ast.Constant)
        return ast.Constant(-new.operand.value + 1)
    elif change == "return":
        assert isinstance(new, ast.Return)
        new.value = ast.Constant(None)
    elif change == "negate":
        assert isinstance(new, (ast.If, ast.While, ast.IfExp))
        new.test = ast.UnaryOp(ast.Not(), new.test)
    return new


def _walk_with_context(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST | None, str]]:
    """Every node in a fixed order, with its parent and the qualified name around it."""
    stack: list[tuple[ast.AST, ast.AST | None, str]] = [(tree, None, "<module>")]
    while stack:
        node, parent, where = stack.pop()
        yield node, parent, where
        inner = where
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = node.name if where == "<module>" else f"{where}.{node.name}"
        children = list(ast.iter_child_nodes(node))
        stack.extend((child, node, inner) for child in reversed(children))


class _Lines:
    """The source's lines, to cut out a node's text (``ast.get_source_segment`` splits the
    whole source again at every call)."""

    def __init__(self, source: str) -> None:
        self.lines = source.splitlines(keepends=True)

    def segment(self, node: ast.AST) -> str | None:
        line, col = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        end, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if line is None or col is None or end is None or end_col is None:
            return None
        rows = self.lines[line - 1:end]
        if len(rows) == 1:
            return rows[0].encode()[col:end_col].decode()
        first, last = rows[0].encode()[col:].decode(), rows[-1].encode()[:end_col].decode()
        return first + "".join(rows[1:-1]) + last


def _shown(node: ast.AST, lines: _Lines) -> str:
    text = lines.segment(node) or ast.unparse(node)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _shown_change(node: ast.AST, change: str) -> str:
    if change == "return":
        return "return None"
    if change == "negate":
        assert isinstance(node, (ast.If, ast.While, ast.IfExp))
        return f"not ({ast.unparse(node.test)})"
    mutated = _apply(node, change)
    text = " ".join(ast.unparse(mutated).split())
    return text if len(text) <= 60 else text[:57] + "..."


def find_mutants(module: str, source: str | None = None) -> list[Mutant]:
    """Every mutant of ``module`` (a path relative to ``src/``), in source order."""
    if source is None:
        source = (SRC / module).read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = _Lines(source)
    skip = _skipped_nodes(tree)
    out: list[Mutant] = []
    seen: dict[str, int] = {}
    for site, (node, parent, where) in enumerate(_walk_with_context(tree)):
        if id(node) in skip:
            continue
        for change in _changes(node, parent):
            shown = node.test if isinstance(node, (ast.If, ast.While, ast.IfExp)) else node
            before = _shown(shown, lines)
            key = f"{where}: '{before}' → '{_shown_change(node, change)}'"
            seen[key] = seen.get(key, 0) + 1
            ident = key if seen[key] == 1 else f"{key} #{seen[key]}"
            out.append(Mutant(module, ident, getattr(node, "lineno", 0), site, change))
    return out


def mutated_source(mutant: Mutant, source: str | None = None) -> str:
    """The module's source with the mutant applied."""
    if source is None:
        source = (SRC / mutant.module).read_text(encoding="utf-8")
    tree = ast.parse(source)
    nodes = list(_walk_with_context(tree))
    target, parent, _ = nodes[mutant.site]
    assert parent is not None
    replacement = _apply(target, mutant.change)
    for field, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, field, replacement)
            break
        if isinstance(value, list) and any(v is target for v in value):
            value[next(i for i, v in enumerate(value) if v is target)] = replacement
            break
    else:  # pragma: no cover - every node is a field of its parent
        raise AssertionError(f"cannot place mutant {mutant.ident}")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


# ---------------------------------------------------------------- choosing and running


def tests_for(module: str) -> tuple[str, ...]:
    """The test paths that cover ``module`` (longest matching prefix of TESTS)."""
    best = max((p for p in TESTS if module.startswith(p)), key=len, default=None)
    if best is None:
        raise SystemExit(f"no tests are mapped to {module}: add its folder to TESTS")
    return TESTS[best]


def equivalent_mutants(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """``module ident`` → the reason it changes nothing observable (from equivalent.txt)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = line.partition("  # ")
        out[key.strip()] = reason.strip()
    return out


def key_of(m: Mutant) -> str:
    """How a mutant is named in equivalent.txt: ``MODULE | IDENT``."""
    return f"{m.module} | {m.ident}"


def sample(mutants: Sequence[Mutant], n: int | None, seed: str) -> list[Mutant]:
    """``n`` mutants of each module, drawn with a generator seeded by ``seed`` and the module
    (so one module's sample does not move when another changes); all when ``n`` is None."""
    if n is None:
        return list(mutants)
    out: list[Mutant] = []
    for module in dict.fromkeys(m.module for m in mutants):
        mine = [m for m in mutants if m.module == module]
        rng = random.Random(f"{seed}:{module}")
        out += sorted(rng.sample(mine, min(n, len(mine))), key=lambda m: m.site)
    return out


class Sandbox:
    """A private copy of ``src/`` in which one module at a time is replaced."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="fracas-mutants-"))
        shutil.copytree(SRC, self.dir / "src", ignore=shutil.ignore_patterns("__pycache__"))

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.dir / "src")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["HYPOTHESIS_PROFILE"] = "mutation"  # tests/conftest.py: CI, without shrinking
        env.pop("FRACAS_UPDATE_GOLDEN", None)
        return env

    def pytest(self, tests: Sequence[str], timeout: float) -> tuple[str, float]:
        """Run the tests against the sandbox: "passed", "failed" or "timeout"."""
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "--no-header", "--tb=no", "-W", "ignore", *tests]
        start = time.monotonic()
        try:
            done = subprocess.run(cmd, cwd=ROOT, env=self.env(), capture_output=True,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start
        took = time.monotonic() - start
        if done.returncode == 0:
            return "passed", took
        if done.returncode == 1:
            return "failed", took
        raise RuntimeError(f"pytest could not run {tests} (exit {done.returncode}):\n"
                           f"{done.stdout.decode()[-2000:]}{done.stderr.decode()[-2000:]}")

    def run(self, mutant: Mutant, tests: Sequence[str], timeout: float) -> Outcome:
        target = self.dir / "src" / mutant.module
        original = (SRC / mutant.module).read_text(encoding="utf-8")
        target.write_text(mutated_source(mutant, original), encoding="utf-8")
        try:
            how, took = self.pytest(tests, timeout)
        finally:
            target.write_text(original, encoding="utf-8")
        return Outcome(mutant, how != "passed", "survived" if how == "passed" else how, took)

    def imports_from_here(self) -> bool:
        code = "import fracas, sys; print(fracas.__file__)"
        out = subprocess.run([sys.executable, "-c", code], env=self.env(), cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        return out.strip().startswith(str(self.dir))

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def run_mutants(mutants: Sequence[Mutant], jobs: int = 2, timeout: float | None = None,
                progress: Callable[[Outcome], None] | None = None,
                tests: tuple[str, ...] | None = None,
                check_baseline: bool = True) -> list[Outcome]:
    """Run every mutant against the tests of its module (or ``tests``), ``jobs`` at a time.

    With ``check_baseline`` the tests of each module are first run unmutated (they must pass)
    and a mutant's run may take three times as long as that, plus 30 s, before it counts as a
    hang (killed); without it (inside the suite, which is its own baseline) 300 s."""
    boxes: queue.Queue[Sandbox] = queue.Queue()
    made = [Sandbox() for _ in range(max(1, jobs))]
    for box in made:
        boxes.put(box)
    try:
        if not made[0].imports_from_here():
            raise RuntimeError("the sandbox's src/ is not what the tests import; is fracas "
                               "installed in a way that ignores PYTHONPATH?")
        limits: dict[tuple[str, ...], float] = {}
        def chosen(m: Mutant) -> tuple[str, ...]:
            return tests or tests_for(m.module)

        for group in dict.fromkeys(chosen(m) for m in mutants):
            if not check_baseline:
                limits[group] = timeout or 300
                continue
            how, took = made[0].pytest(group, timeout or 600)
            if how != "passed":
                raise RuntimeError(f"the unmutated tests fail: {' '.join(group)}")
            limits[group] = timeout or 3 * took + 30

        def one(m: Mutant) -> Outcome:
            box = boxes.get()
            try:
                result = box.run(m, chosen(m), limits[chosen(m)])
            finally:
                boxes.put(box)
            if progress is not None:
                progress(result)
            return result

        with ThreadPoolExecutor(max_workers=len(made)) as pool:
            return list(pool.map(one, mutants))
    finally:
        for box in made:
            box.close()


@dataclass(frozen=True, slots=True)
class Score:
    """Per-module counts of a run."""

    module: str
    mutants: int
    killed: int
    equivalent: int

    @property
    def percent(self) -> float:
        counted = self.mutants - self.equivalent
        return 100.0 if counted == 0 else 100.0 * self.killed / counted


def score(outcomes: Sequence[Outcome], equivalent: dict[str, str]) -> list[Score]:
    """The score of each module, and a last row ``all``."""
    rows = []
    modules = list(dict.fromkeys(o.mutant.module for o in outcomes))
    for module in [*modules, "all"]:
        mine = [o for o in outcomes if module in ("all", o.mutant.module)]
        eq = sum(1 for o in mine if not o.killed and key_of(o.mutant) in equivalent)
        rows.append(Score(module, len(mine), sum(1 for o in mine if o.killed), eq))
    return rows


def survivors(outcomes: Sequence[Outcome], equivalent: dict[str, str]) -> list[Outcome]:
    """Mutants that no test caught and that are not listed as equivalent."""
    return [o for o in outcomes if not o.killed and key_of(o.mutant) not in equivalent]


def report(outcomes: Sequence[Outcome], equivalent: dict[str, str]) -> str:
    """The per-module score table and the surviving mutants, as text."""
    lines = [f"{'module':48} {'mutants':>7} {'killed':>6} {'equiv':>5} {'score':>6}"]
    for row in score(outcomes, equivalent):
        lines.append(f"{row.module:48} {row.mutants:7} {row.killed:6} {row.equivalent:5} "
                     f"{row.percent:5.1f}%")
    alive = survivors(outcomes, equivalent)
    hangs = [o for o in outcomes if o.how == "timeout"]
    if hangs:
        lines.append(f"{len(hangs)} kill(s) by timeout — a hang, or a loaded machine: rerun "
                     "them with --only TEXT on a quiet one:")
        lines += [f"  {o.mutant.module}:{o.mutant.line}  {o.mutant.ident}" for o in hangs]
    lines.append("")
    lines.append(f"{len(alive)} surviving mutant(s)" + (":" if alive else ""))
    lines += [f"  {o.mutant.module}:{o.mutant.line}  {o.mutant.ident}" for o in alive]
    return "\n".join(lines)


def resolve_modules(names: Sequence[str], everything: bool) -> list[str]:
    """Module paths relative to src/ from paths, dotted names or globs."""
    if everything:
        found = sorted({str(p.relative_to(SRC)) for g in ALL_GLOBS for p in SRC.glob(g)})
        return [m for m in found if not m.endswith("__init__.py") or
                (SRC / m).stat().st_size > 200]
    if not names:
        return list(RULE_MODULES)
    out = []
    for name in names:
        rel = name.removeprefix("src/")
        if not rel.endswith(".py") and "*" not in rel:
            rel = rel.replace(".", "/") + ".py"
        matches = sorted(str(p.relative_to(SRC)) for p in SRC.glob(rel))
        if not matches:
            raise SystemExit(f"no module {name!r} under src/")
        out += matches
    return list(dict.fromkeys(out))


def main(argv: Sequence[str] | None = None) -> int:
    """The command line of ``scripts/mutation.sh``."""
    ap = argparse.ArgumentParser(prog="scripts/mutation.sh", description=__doc__.split("\n")[0])
    ap.add_argument("modules", nargs="*",
                    help="modules to mutate (src/ paths, dotted names or globs); default: "
                         "the rule and component modules of RULE_MODULES")
    ap.add_argument("--all", action="store_true",
                    help="every module of the rulesets, the engine components and the dice")
    ap.add_argument("--sample", type=int, default=None,
                    help="N mutants of each module (seeded), instead of all of them")
    ap.add_argument("--seed", default="fracas", help="the seed of --sample (default fracas)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds before a mutant's test run counts as a hang")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="only mutants whose 'LINE  IDENT' contains TEXT (repeatable)")
    ap.add_argument("--tests", nargs="+", default=None, metavar="PATH",
                    help="run these tests for every mutant instead of the mapped ones")
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument("--min-score", type=float, default=None,
                    help="exit 1 when the overall score is below this (percent)")
    args = ap.parse_args(argv)
    modules = resolve_modules(args.modules, args.all)
    mutants = sample([m for mod in modules for m in find_mutants(mod)], args.sample, args.seed)
    if args.only:
        mutants = [m for m in mutants if any(t in f"{m.line}  {m.ident}" for t in args.only)]
    if args.list:
        for m in mutants:
            print(f"{m.module}:{m.line}  {m.ident}")
        print(f"{len(mutants)} mutants")
        return 0
    equivalent = equivalent_mutants()
    total = len(mutants)
    count = 0

    def progress(o: Outcome) -> None:
        nonlocal count
        count += 1
        mark = "." if o.killed else ("e" if key_of(o.mutant) in equivalent else "S")
        print(f"[{count}/{total}] {mark} {o.how:8} {o.seconds:5.1f}s  "
              f"{o.mutant.module}:{o.mutant.line} {o.mutant.ident}", flush=True)

    print(f"{total} mutants over {len(modules)} module(s), {args.jobs} at a time", flush=True)
    outcomes = run_mutants(mutants, jobs=args.jobs, timeout=args.timeout, progress=progress,
                           tests=tuple(args.tests) if args.tests else None)
    print()
    print(report(outcomes, equivalent))
    overall = score(outcomes, equivalent)[-1].percent
    if args.min_score is not None and overall < args.min_score:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
