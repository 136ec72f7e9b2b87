"""The layers of the code: imports only go down (DESIGN.md, shape of the code).

errors < dice < engine < rulesets < store < app < adapters (cli, server, sim, web). The core
(engine, dice) imports nothing above it, the store knows no adapter, and no adapter touches
SQL: it reaches storage through :mod:`fracas.store`'s port and :mod:`fracas.app`.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "fracas"

#: Each package and the fracas packages it may import (itself always allowed).
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "dice": {"errors"},
    "engine": {"errors", "dice"},
    "rulesets": {"errors", "dice", "engine"},
    "store": {"errors", "engine"},
    "app": {"errors", "dice", "engine", "rulesets", "store"},
    "cli": {"errors", "dice", "engine", "rulesets", "store", "app", "server", "sim"},
    "server": {"errors", "dice", "engine", "rulesets", "store", "app", "web"},
    "web": set(),
    "sim": {"errors", "dice", "engine", "rulesets", "app"},
}
#: Modules of the SQL side of the store, and libraries no adapter may import.
SQL_MODULES = ("fracas.store.sql", "fracas.store.schema", "fracas.store.migrations", "sqlalchemy",
               "alembic", "psycopg")
TERMINAL_LIBRARIES = ("rich", "typer", "prompt_toolkit")


def _package(path: Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".py") if rel.parts else ""


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, at any depth of the file (lazy imports count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = module.split(".")[: -node.level]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.append((node.lineno, name))
    return out


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


def _violations(check: str) -> list[str]:
    found = []
    for path in _sources():
        pkg = _package(path)
        for line, name in _imports(path):
            where = f"{path.relative_to(SRC.parent)}:{line} imports {name}"
            top = name.split(".")
            if check == "layers" and top[0] == "fracas" and len(top) > 1 and pkg in ALLOWED:
                target = top[1]
                if target != pkg and target not in ALLOWED[pkg] and target != "__init__":
                    found.append(where)
            if check == "sql" and pkg in ("cli", "server", "sim", "web") and name.startswith(
                    SQL_MODULES):
                found.append(where)
            if check == "terminal" and pkg in ("engine", "dice", "rulesets", "store", "app") \
                    and name.split(".")[0] in TERMINAL_LIBRARIES:
                found.append(where)
    return found


def test_imports_only_go_down_the_layers() -> None:
    assert _violations("layers") == []


def test_no_adapter_touches_sql() -> None:
    assert _violations("sql") == []


def test_the_core_imports_no_terminal_library() -> None:
    assert _violations("terminal") == []


def test_every_package_is_placed_in_a_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    packages |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert packages - {"scenarios"} <= set(ALLOWED)


#: The modules that may ask for legal commands unfiltered: the engine and the rulesets, which
#: make them; the simulator, which filters a side's with what its player may not be told
#: (``Encounter._legal``); and the server's offer, whose unfiltered answer is only the GM's.
#: Every other path offers a viewer their commands through ``fracas.engine.projector.offered``.
UNFILTERED_LEGAL = ("fracas/engine/", "fracas/rulesets/", "fracas/sim/encounter.py",
                    "fracas/server/offers.py")
LEGAL_METHODS = ("legal", "legal_commands", "legal_commands_of")


def test_a_viewers_legal_commands_are_offered_only_through_the_projector() -> None:
    found = []
    for path in _sources():
        rel = path.relative_to(SRC.parent).as_posix()
        if rel.startswith(UNFILTERED_LEGAL):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in LEGAL_METHODS:
                found.append(f"{rel}:{node.lineno} calls .{node.func.attr}()")
    assert found == []
