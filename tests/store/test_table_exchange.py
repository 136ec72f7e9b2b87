"""A whole table exported in one file and brought back (`fracas export --table`, `--all`,
and `fracas import` of that file): its title, its conflicts' titles, when each was made and
last played, checked and all-or-nothing like every import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.app.exchange import checksum, dumps
from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.app.tables import TableService
from fracas.cli import app
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO

runner = CliRunner()
MADE = "2025-03-01T19:00:00+00:00"
PLAYED = "2025-03-08T22:30:00+00:00"


def _cli(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def _stored(store: SqlEventStore, title: str, campaign: str, *, shown: bool = True,
            created: str = MADE, updated: str = PLAYED) -> str:
    """A toy conflict made and last played long ago (not at the test's own time)."""
    scenario = load_scenario(TOY_SCENARIO)
    conflict = play_script(scenario, "s")
    return store.create(ruleset="toy", seed="s", title=title, campaign=campaign,
                        records=conflict.records, shown=shown, created=created,
                        updated=updated)


@pytest.fixture
def friday(tmp_path: Path) -> tuple[str, str, list[str]]:
    """A database with the table "Friday night" (three conflicts, one behind the screen)
    and a conflict of another campaign: its URL, the table's id and its conflicts' ids."""
    db = f"sqlite:///{tmp_path / 'a.db'}"
    table = _cli("table", "new", "Friday night", "--db", db)[1].split()[0]
    store = SqlEventStore(db)
    ids = [_stored(store, "Tavern brawl", table),
           _stored(store, "The long night", table, created="2025-02-01T18:00:00+00:00",
                   updated="2025-02-02T01:15:00+00:00"),
           _stored(store, "A secret meeting", table, shown=False)]
    _stored(store, "Elsewhere", "side-plots")
    store.close()
    return db, table, ids


def _listed(db: str, *args: str) -> list[dict[str, Any]]:
    code, out, err = _cli("list", "--json", *args, "--db", db)
    assert code == 0, err
    return sorted(json.loads(out), key=lambda c: c["id"])


def test_a_whole_table_comes_back_in_another_database_with_its_titles_and_times(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    """There was no way to move a table but to export each conflict and import each into
    a table made first, and every import was stamped with its own time: now one file holds
    the table, and its import makes the table with its title, every conflict as it was
    made and last played (behind the screen or not), and a new GM link that opens it."""
    db, table, ids = friday
    file = tmp_path / "friday.json"
    code, _, err = _cli("export", "--table", "friday", "-o", str(file), "--db", db)
    assert code == 0 and f"exported table Friday night ({table}) to {file}" in err
    other = f"sqlite:///{tmp_path / 'b.db'}"
    code, out, err = _cli("import", str(file), "--trust", "--db", other)
    assert code == 0, err
    assert f"imported table {table} (Friday night) with 3 conflicts the GM's link (keep it " \
           "secret; it is shown once):" in err
    assert "fracas table invite TABLE NAME" in err  # players' links are not in the file
    new_table, link = out.split()
    assert new_table == table
    secret = link.split("#", 1)[1]
    store = SqlEventStore(other)
    assert TableService(store).authenticate(secret).table == table
    store.close()
    keep = ("id", "campaign", "table", "ruleset", "title", "version", "created", "updated",
            "shown")
    assert [{k: c[k] for k in keep} for c in _listed(other)] == [
        {k: c[k] for k in keep} for c in _listed(db, "--table", table)]
    assert {c["updated"] for c in _listed(other)} == {PLAYED, "2025-02-02T01:15:00+00:00"}
    for cid in ids:  # the same log, record for record
        assert _export(db, cid)["records"] == _export(other, cid)["records"]


def _export(db: str, cid: str) -> dict[str, Any]:
    code, out, err = _cli("export", cid, "--db", db)
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_a_conflict_imported_alone_keeps_when_it_was_made_and_last_played(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    db, _, ids = friday
    other = f"sqlite:///{tmp_path / 'b.db'}"
    code, _out, err = _cli("import", "-", "--trust", "--db", other,
                          input=dumps(_export(db, ids[1])))
    assert code == 0, err
    (copy,) = _listed(other)
    assert (copy["created"], copy["updated"]) == ("2025-02-01T18:00:00+00:00",
                                                  "2025-02-02T01:15:00+00:00")


def test_an_export_without_its_times_is_imported_as_made_now(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    """A file written by hand (or by an old test) with "created": "" and no "updated" is
    imported, as made now and last played at its last record; a time that is no time is
    refused, naming it."""
    db, _, ids = friday
    doc = _export(db, ids[1])
    doc["conflict"]["created"] = ""
    del doc["conflict"]["updated"]
    doc["checksum"] = checksum(doc)
    other = f"sqlite:///{tmp_path / 'b.db'}"
    code, _, err = _cli("import", "-", "--trust", "--db", other, input=dumps(doc))
    assert code == 0, err
    (copy,) = _listed(other)
    assert copy["created"] > "2026" and copy["updated"] == doc["records"][-1]["time"]
    doc["conflict"]["created"] = "Tuesday"
    doc["checksum"] = checksum(doc)
    code, _, err = _cli("import", "-", "--trust", "--new-id", "--db", other, input=dumps(doc))
    assert code == 2 and 'conflict.created is "Tuesday", not a time' in " ".join(err.split())


def test_every_table_and_campaign_comes_back_with_all(friday: tuple[str, str, list[str]],
                                                     tmp_path: Path) -> None:
    db, _table, _ = friday
    file = tmp_path / "all.json"
    assert _cli("export", "--all", "-o", str(file), "--db", db)[0] == 0
    other = f"sqlite:///{tmp_path / 'b.db'}"
    code, _out, err = _cli("import", str(file), "--trust", "--db", other)
    assert code == 0, err
    assert "imported 1 conflict into campaign 'side-plots'" in err
    assert [(c["title"], c["table"]) for c in _listed(other)] == [
        (c["title"], c["table"]) for c in _listed(db)]


def test_a_table_imported_again_is_refused_and_new_id_makes_a_copy(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    db, table, ids = friday
    file = tmp_path / "friday.json"
    assert _cli("export", "--table", table, "-o", str(file), "--db", db)[0] == 0
    before = _listed(db)
    code, _, err = _cli("import", str(file), "--db", db)
    assert code == 2 and f"a table {table!r} already exists" in err
    assert "--new-id imports it as a copy under new ids" in err
    assert _listed(db) == before
    code, out, err = _cli("import", str(file), "--new-id", "--db", db)  # signed here: no trust
    assert code == 0, err
    copy = out.split()[0]
    assert copy != table
    copied = _listed(db, "--table", copy)
    assert len(copied) == 3 and not {c["id"] for c in copied} & set(ids)
    assert {c["table"] for c in copied} == {"Friday night"}


def _edited(file: Path, edit: str) -> None:
    doc = json.loads(file.read_text())
    entry = doc["campaigns"][0]["conflicts"][0]
    if edit == "title, checksum kept" or edit == "title":
        doc["campaigns"][0]["title"] = "Saturday"
    elif edit == "a record":
        entry["export"]["records"][-1]["events"][1]["data"]["round"] = 2
        entry["export"]["checksum"] = checksum(entry["export"])
    elif edit == "a time":
        entry["export"]["conflict"]["updated"] = "last Friday"
        entry["export"]["checksum"] = checksum(entry["export"])
    elif edit == "a conflict twice":
        doc["campaigns"][0]["conflicts"].append(entry)
    elif edit == "no conflicts":
        del doc["campaigns"][0]["conflicts"]
    if edit != "title, checksum kept":
        doc["checksum"] = checksum(doc)
    file.write_text(dumps(doc))


@pytest.mark.parametrize("edit, trust, said", [
    ("title, checksum kept", True, "the checksum does not match"),
    ("title", False, "the signature does not match this database's key"),
    ("a record", True, "the log does not replay"),
    ("a time", True, "conflict.updated is \"last Friday\", not a time with its offset"),
    ("a conflict twice", True, "is in the file twice"),
    ("no conflicts", True, "a table without its list of conflicts"),
])
def test_a_bad_or_edited_file_of_tables_is_refused_and_nothing_is_written(
        friday: tuple[str, str, list[str]], tmp_path: Path, edit: str, trust: bool,
        said: str) -> None:
    db, table, _ = friday
    file = tmp_path / "friday.json"
    assert _cli("export", "--table", table, "-o", str(file), "--db", db)[0] == 0
    _edited(file, edit)
    other = f"sqlite:///{tmp_path / 'b.db'}"
    code, out, err = _cli("import", str(file), "--new-id", *(["--trust"] * trust),
                          "--db", other)
    assert code == 2 and said in err and out == "", err
    assert "nothing was imported" in err
    assert _cli("list", "--db", other)[1].startswith("no stored conflicts")


def test_one_taken_conflict_id_leaves_nothing_of_the_table(
        friday: tuple[str, str, list[str]], tmp_path: Path, db_url: str) -> None:
    """All or nothing, on SQLite and on PostgreSQL: the table, its link and its other
    conflicts are not written when one conflict's id is taken; then it all comes in."""
    db, table, ids = friday
    file = tmp_path / "friday.json"
    assert _cli("export", "--table", table, "-o", str(file), "--db", db)[0] == 0
    other = db_url
    code, _, _ = _cli("import", "-", "--trust", "--campaign", "elsewhere", "--db", other,
                      input=dumps(_export(db, ids[2])))
    assert code == 0
    before = _listed(other)
    code, _, err = _cli("import", str(file), "--trust", "--db", other)
    assert code == 2 and f"a conflict {ids[2]!r} already exists" in err
    assert _listed(other) == before
    code, _, err = _cli("table", "links", table, "--db", other)
    assert code == 2 and f"no table {table!r}" in err
    code, _, err = _cli("import", str(file), "--trust", "--new-id", "--db", other)
    assert code == 0, err
    titles = sorted(c["title"] for c in _listed(other))
    assert titles == ["A secret meeting", "A secret meeting", "Tavern brawl", "The long night"]


def test_export_asks_for_one_of_an_id_a_table_or_all(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    db, _table, ids = friday
    for args, said in (([], "give one of a conflict's ID, --table TABLE (a whole table) or "
                            "--all (every table)"),
                       ([ids[0], "--all"], "not an ID and --all"),
                       (["--table", "Sunday"], "no table or campaign 'Sunday'")):
        code, out, err = _cli("export", *args, "--db", db)
        assert code == 2 and said in err and out == "", (args, err)
    code, _, err = _cli("import", str(TOY_SCENARIO), "--db", db)
    assert code == 2 and "not a fracas export" in err


def test_conflicts_imported_one_by_one_under_the_tables_id_join_it(
        friday: tuple[str, str, list[str]], tmp_path: Path) -> None:
    """docs/store.md told to import a table's conflicts one by one under its id, which made
    a campaign no link opens: the table's file then makes that campaign the table."""
    db, table, ids = friday
    other = f"sqlite:///{tmp_path / 'b.db'}"
    assert _cli("import", "-", "--trust", "--db", other, input=dumps(_export(db, ids[0])))[0] == 0
    file = tmp_path / "friday.json"
    doc = json.loads(_cli("export", "--table", table, "--db", db)[1])
    doc["campaigns"][0]["conflicts"] = [  # all but the one imported already
        c for c in doc["campaigns"][0]["conflicts"] if c["export"]["conflict"]["id"] != ids[0]]
    doc["checksum"] = checksum(doc)
    file.write_text(dumps(doc))
    code, _, err = _cli("import", str(file), "--trust", "--db", other)
    assert code == 0, err
    assert len(_listed(other, "--table", "Friday night")) == 3
    assert _cli("table", "links", table, "--db", other)[0] == 0
