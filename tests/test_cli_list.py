"""`fracas list` over a long campaign: one line a conflict at 60, 80 and 120 columns, each
table called by its title, and a conflict found by words of its title or by its table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.store import SqlEventStore
from tests.support import helpers  # noqa: F401  (registers the toy ruleset)

TOY_FILE = Path(__file__).parent / "support" / "toy-brawl.toml"
LONG = ", the night the river rose and the whole crew went under the old bridge"
runner = CliRunner()


def _cli(db: str, *args: str, columns: int = 200) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": str(columns)})
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


def _scenario(tmp_path: Path, title: str) -> str:
    path = tmp_path / f"{len(list(tmp_path.glob('*.toml')))}.toml"
    path.write_text(TOY_FILE.read_text().replace('"Brawl in the mill"', json.dumps(title)))
    return str(path)


@pytest.fixture
def campaign(tmp_path: Path) -> tuple[str, dict[str, str], dict[str, str]]:
    """A database with two tables ("Thursday night: the Novgorod campaign", "Sunday at
    Ada's"), a few conflicts in each, some with long titles: the URL, {id: title}, and
    {id: table}."""
    db = f"sqlite:///{tmp_path / 'long.db'}"
    tables = {}
    for title in ("Thursday night: the Novgorod campaign", "Sunday at Ada's"):
        code, out = _cli(db, "table", "new", title)
        assert code == 0
        tables[title] = out.split()[0]
    titles, where = {}, {}
    for n, (title, table) in enumerate([
            ("Brawl in the mill", "Sunday at Ada's"),
            ("Brawl in the mill" + LONG, "Sunday at Ada's"),
            ("The Wyrm Wakes" + LONG, "Thursday night: the Novgorod campaign"),
            ("Ambush on the Old Bridge", "Thursday night: the Novgorod campaign"),
            (f"Through the market, chase number {7}" + LONG, "Sunday at Ada's")]):
        code, out = _cli(db, "new", _scenario(tmp_path, title), "--campaign", tables[table])
        assert code == 0, (n, out)
        titles[out.split()[-1]] = title
        where[out.split()[-1]] = table
    return db, titles, where


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_list_gives_each_conflict_one_line_with_its_title_and_tables_title(
        campaign: tuple[str, dict[str, str], dict[str, str]], columns: int) -> None:
    """At 60 columns the title shrank to "…", at 80 a title wrapped over three lines, and
    the table column showed the table's id: now every conflict is one line no wider than the
    terminal, the title is read from its start (cut with "…" when long), and the table goes
    by its title."""
    db, titles, where = campaign
    code, out = _cli(db, "list", columns=columns)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1 + len(titles), out  # the header, then one line a conflict
    assert all(len(line) <= columns for line in lines), out
    for cid, title in titles.items():
        (row,) = [line for line in lines if line.startswith(cid)]
        assert title[:24] in row, (columns, row)
        assert where[cid][:16] in row, (columns, row)
        assert title in row or row.rstrip().endswith("…"), row  # cut, and said so
    assert re.search(r"\bt[0-9a-f]{12}\b", out) is None, out  # no table's id (t3e042c1a9d3f)


def test_the_columns_that_go_first_when_narrow_are_the_version_and_the_ruleset(
        campaign: tuple[str, dict[str, str], dict[str, str]]) -> None:
    db, _, _ = campaign
    heads = {columns: _cli(db, "list", columns=columns)[1].splitlines()[0].split()
             for columns in (60, 80, 120)}
    assert heads[120] == ["id", "table", "ruleset", "version", "last", "played", "title"]
    assert heads[80] == ["id", "table", "last", "played", "title"]
    assert heads[60] == ["id", "table", "title"]


def test_list_finds_conflicts_by_words_and_by_table(
        campaign: tuple[str, dict[str, str], dict[str, str]]) -> None:
    """A long list had no way to find one conflict: words keep the conflicts whose title,
    id, ruleset or table holds each of them (in any case); --table takes the table's id or
    title, or a word of one table's title, and leaves the table column out."""
    db, titles, where = campaign
    sunday = [cid for cid, table in where.items() if table == "Sunday at Ada's"]
    code, out = _cli(db, "list", "MILL", columns=80)
    assert code == 0
    assert sorted(line.split()[0] for line in out.splitlines()[1:]) == sorted(
        cid for cid, t in titles.items() if "mill" in t)
    code, out = _cli(db, "list", "brawl", "sunday", "river", columns=80)
    assert [line.split()[0] for line in out.splitlines()[1:]] == [
        cid for cid in sunday if "river" in titles[cid] and "Brawl" in titles[cid]]
    sunday_id = next(c["campaign"] for c in json.loads(_cli(db, "list", "--json")[1])
                     if c["table"] == "Sunday at Ada's")
    for given in ("Sunday at Ada's", "sunday", sunday_id):
        code, out = _cli(db, "list", "--table", given, columns=80)
        assert code == 0, out
        assert sorted(line.split()[0] for line in out.splitlines()[1:]) == sorted(sunday)
        assert "table" not in out.splitlines()[0] and "Sunday" not in out
    listed = json.loads(_cli(db, "list", "wyrm", "--json")[1])
    assert [(c["title"], c["table"]) for c in listed] == [
        ("The Wyrm Wakes" + LONG, "Thursday night: the Novgorod campaign")]
    code, out = _cli(db, "list", "--table", "sunday", "wyrm")
    assert code == 0 and out.strip() == "no stored conflict in Sunday at Ada's that holds 'wyrm'"


def test_a_table_list_does_not_name_is_refused_naming_the_tables(
        campaign: tuple[str, dict[str, str], dict[str, str]]) -> None:
    db, _, _ = campaign
    for given, said in (("Friday", "no table or campaign 'Friday' in this database (give a "
                                   "table's id or title); the tables are Thursday night: the "
                                   "Novgorod campaign (t"),
                        ("n", "'n' names 2 tables: Thursday night: the Novgorod campaign (t")):
        result = runner.invoke(app, ["list", "--table", given, "--db", db])
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert said in " ".join(result.stderr.split()), result.stderr
        assert result.stdout == ""


def test_the_behind_the_screen_mark_stays_whole_when_the_title_is_cut(
        campaign: tuple[str, dict[str, str], dict[str, str]], tmp_path: Path) -> None:
    db, _, _ = campaign
    code, out = _cli(db, "new", _scenario(tmp_path, "Secret meeting" + LONG), "--campaign",
                     "side-plots", "--behind-screen")
    assert code == 0
    hidden = out.split()[-1]
    for columns in (60, 80):
        (row,) = [line for line in _cli(db, "list", columns=columns)[1].splitlines()
                  if line.startswith(hidden)]
        assert row.rstrip().endswith("… (behind the screen)") and "Secret meeting" in row, row


@pytest.mark.parametrize("zone, offset", [("UTC0", timedelta(0)),
                                          ("IST-5:30", timedelta(hours=5, minutes=30)),
                                          ("PST8", timedelta(hours=-8))])
def test_last_played_is_on_the_machine_s_clock_and_the_json_in_utc(
        campaign: tuple[str, dict[str, str], dict[str, str]], zone: str,
        offset: timedelta) -> None:
    """A GM in India read "last played 09:22" at 14:52 on their clock: the list said UTC.
    Now it says the machine's local time (``TZ``); the JSON keeps the ISO time with its
    offset, as stored."""
    db, titles, _ = campaign
    env = {**os.environ, "TZ": zone, "COLUMNS": "120"}
    run = [sys.executable, "-c", "from fracas.cli import main; main()", "list", "--db", db]
    listed = json.loads(subprocess.run([*run, "--json"], env=env, capture_output=True,
                                       text=True, check=True).stdout)
    out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    for item in listed:
        assert item["updated"].endswith("+00:00")  # the JSON is unchanged by the zone
        local = datetime.fromisoformat(item["updated"]) + offset
        (row,) = [line for line in out.splitlines() if line.startswith(item["id"])]
        assert local.strftime("%Y-%m-%d %H:%M") in row, (zone, row)
    assert len(listed) == len(titles)


def test_a_tables_links_say_when_they_were_made_on_the_machine_s_clock(tmp_path: Path) -> None:
    """``fracas table links`` said its times in UTC, as ``fracas list`` did."""
    db = f"sqlite:///{tmp_path / 'links.db'}"
    made = runner.invoke(app, ["table", "new", "Sunday", "--db", db])
    table = made.stdout.split()[0]
    env = {**os.environ, "TZ": "IST-5:30", "COLUMNS": "120"}
    run = [sys.executable, "-c", "from fracas.cli import main; main()", "table", "links",
           table, "--db", db]
    out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    store = SqlEventStore(db)
    (token,) = store.list_tokens(table)
    store.close()
    local = datetime.fromisoformat(token.created) + timedelta(hours=5, minutes=30)
    assert local.strftime("%Y-%m-%d %H:%M") in out, out
