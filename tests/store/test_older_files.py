"""What an older fracas wrote, brought to this one: its exports and its database.

The files in ``data/`` were made by older commits of main (``data/README.md`` says how).
Between them and now the rules changed how some commands are decided; what was played
stays as it was played, as the database itself keeps it.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from fracas.cli import app

DATA = Path(__file__).parent / "data"
#: VERS, exported by main at 58da975, before exports were signed
FIRST_DAY_EXPORT = DATA / "export-by-main-58da975.json"
#: the database of main at ec5d2da (schema 0004), dumped, and its conflict exported by it
OLD_DB = DATA / "schema-0004-by-main-ec5d2da.sql"
OLD_DB_EXPORT = DATA / "export-by-main-ec5d2da.json"
OLD_ID = "fb8f82a1"
#: Etherscope, exported by main at ec5d2da: a set-up whose stat 'awarness' it took
MISTYPED_SETUP_EXPORT = DATA / "export-es-by-main-ec5d2da.json"

runner = CliRunner()


def _cli(*args: str) -> tuple[int, str]:
    """Exit code and output (stdout and stderr) of ``fracas ARGS``, lines joined."""
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def _old_database(tmp_path: Path) -> str:
    """The URL of a copy of the database ec5d2da kept."""
    path = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_DB.read_text(encoding="utf-8"))
    return f"sqlite:///{path}"


def _state(cid: str, url: str) -> dict[str, object]:
    """The GM's view of a stored conflict, without its version and cursor."""
    result = runner.invoke(app, ["show", cid, "--json", "--db", url])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)["state"]
    return {k: v for k, v in state.items() if k not in ("version", "cursor")}


def test_an_export_an_older_fracas_played_is_refused_in_one_sentence_then_kept_as_played(
        sqlite_url: str) -> None:
    db = ["--db", sqlite_url]
    code, out = _cli("import", str(FIRST_DAY_EXPORT), "--trust", *db)
    assert code == 2
    assert ("record 3 ('ada: attack thug weapon=knife dice=3,3,2') is not what the engine "
            "decides for it (it gives other events now): the file was edited after it was "
            "exported, or an older fracas played it by rules that have changed since; nothing "
            "was imported. If an older fracas played it, import it with --trust --as-played "
            "to keep it as it was played") in out
    assert _cli("list", "--json", *db) == (0, "[]")  # nothing half-imported

    code, out = _cli("import", str(FIRST_DAY_EXPORT), "--trust", "--as-played", *db)
    assert code == 0, out
    assert ("note: record 3 (ada: attack thug weapon=knife dice=3,3,2) was played with an "
            "older fracas, whose rules decide it otherwise now; it is kept as it was played"
            ) in out
    cid = out.split()[-1]
    code, out = _cli("show", cid, "--as", "alice", *db)
    assert code == 0 and "ada: attack thug" in out
    assert "ambush" not in out and "1d6" not in out  # the GM's secret roll stays secret
    code, out = _cli("do", cid, "ada: handoff thug", *db)  # and play goes on
    assert code == 0, out


def test_a_set_up_an_older_fracas_took_and_this_one_refuses_is_kept_as_played(
        sqlite_url: str) -> None:
    """Before: record 1 was created again by today's rules, which refuse the stat 'awarness'
    (a mistyped 'awareness'), and nothing, not even --as-played, brought the conflict in."""
    db = ["--db", sqlite_url]
    code, out = _cli("import", str(MISTYPED_SETUP_EXPORT), "--trust", *db)
    assert code == 2
    assert ("the log does not replay: record 1 (the set-up) is refused: ada: unknown stat "
            "'awarness'; did you mean 'awareness'?") in out
    assert out.endswith("nothing was imported. If an older fracas played it, import it with "
                        "--trust --as-played to keep it as it was played"), out
    assert _cli("list", "--json", *db) == (0, "[]")

    code, out = _cli("import", str(MISTYPED_SETUP_EXPORT), "--trust", "--as-played", *db)
    assert code == 0, out
    assert ("note: record 1 (the set-up) was played with an older fracas, whose rules decide "
            "it otherwise now; it is kept as it was played") in out
    cid = out.split()[-1]
    code, out = _cli("show", cid, *db)
    assert code == 0 and "Ada rolls awareness: 2d6>=5 → [5, 6] = 2" in out, out
    code, out = _cli("do", cid, "moves", *db)  # and play goes on
    assert code == 0 and "awareness moves, best first: Ada, Bo" in out, out


def test_an_upgraded_database_takes_back_what_its_older_fracas_exported(tmp_path: Path
                                                                        ) -> None:
    url = _old_database(tmp_path)
    db = ["--db", url]
    assert _cli("db", "upgrade", *db)[0] == 0
    code, out = _cli("import", str(OLD_DB_EXPORT), "--new-id", *db)  # signed by its key
    assert code == 0, out
    assert "note: record 16 (agent1: push kim" in out and "kept as it was played" in out
    copy = out.split()[-1]
    assert _state(copy, url) == _state(OLD_ID, url)

    export = tmp_path / "again.json"  # exported by this fracas, imported again
    assert _cli("export", OLD_ID, "-o", str(export), *db)[0] == 0
    code, out = _cli("import", str(export), "--new-id", *db)
    assert code == 0 and "kept as it was played" in out, out
    assert _state(out.split()[-1], url) == _state(OLD_ID, url)


def test_a_whole_table_an_older_fracas_played_moves_to_another_database_as_played(
        tmp_path: Path, sqlite_url: str) -> None:
    url = _old_database(tmp_path)
    assert _cli("db", "upgrade", "--db", url)[0] == 0
    tables = tmp_path / "all.json"
    assert _cli("export", "--all", "-o", str(tables), "--db", url)[0] == 0
    code, out = _cli("import", str(tables), "--trust", "--db", sqlite_url)
    assert code == 2 and "friday, conflict 1: the log does not replay: record 16" in out
    assert "import it with --trust --as-played" in out
    code, out = _cli("import", str(tables), "--trust", "--as-played", "--db", sqlite_url)
    assert code == 0, out
    assert ("imported 1 conflict into campaign 'friday', 1 record kept as an older fracas "
            "played it (its rules differed)") in out
    assert _state(OLD_ID, sqlite_url) == _state(OLD_ID, url)
    code, out = _cli("show", OLD_ID, "--as", "kate", "--db", sqlite_url)
    assert code == 0 and "Agent Grey" in out
    assert "Agent Black" not in out and "reinforcements" not in out  # still secret


def test_upgrading_a_database_an_older_fracas_kept_says_so_and_keeps_a_copy_it_opens(
        tmp_path: Path) -> None:
    url = _old_database(tmp_path)
    code, out = _cli("list", "--db", url)
    assert code == 2 and "has the older schema 0004" in out and "run `fracas db upgrade`" in out
    code, out = _cli("db", "upgrade", "--db", url)
    copy = tmp_path / "old.db.schema-0004.bak"
    assert code == 0, out
    assert ("kept a copy of the database as it is (schema 0004, which the fracas that wrote "
            f"it still opens): {copy} upgrading the schema from 0004…") in out
    assert re.search(r"schema \d+ \(upgraded from 0004, now up to date\)$", out), out
    with contextlib.closing(sqlite3.connect(copy)) as old:
        assert old.execute("SELECT version_num FROM alembic_version").fetchall() == [("0004",)]
        assert old.execute("SELECT id, version FROM conflicts").fetchall() == [(OLD_ID, 19)]
    code, out = _cli("do", OLD_ID, "note 'after the upgrade'", "--db", url)
    assert code == 0 and "v20" in out, out
    code, out = _cli("db", "upgrade", "--db", url)  # nothing left to upgrade: no copy
    assert code == 0 and "kept a copy" not in out and out.endswith("(up to date)")
