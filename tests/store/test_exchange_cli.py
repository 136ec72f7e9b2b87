"""Export/import (fracas.export/1) and the store's CLI commands, through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.exchange import checksum, dumps, export_conflict, import_conflict
from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.cli import app
from fracas.engine.model import Viewer
from fracas.engine.serialize import state_to_data
from fracas.errors import InvalidInput
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO

runner = CliRunner()


def _played(service: ConflictService) -> str:
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    service.execute(cid, "ada: hit bruno dice=4")
    service.execute(cid, "ada: hit bruno")
    service.undo(cid)
    service.execute(cid, 'note "after the undo" visibility=gm')
    return cid


def test_export_import_round_trip(service: ConflictService) -> None:
    cid = _played(service)
    doc = export_conflict(service, cid)
    assert doc["format"] == "fracas.export/1" and doc["checksum"] == checksum(doc)
    new, _, _ = import_conflict(service, dumps(doc), new_id=True)
    assert new != cid
    again = export_conflict(service, new)
    assert again["records"] == doc["records"]
    assert state_to_data(service.load(new).state) == state_to_data(service.load(cid).state)


def _tampered(doc: dict, how: str) -> str:
    doc = json.loads(json.dumps(doc))
    if how == "garbage":
        return dumps(doc)[:-40]
    if how == "key twice":  # json alone would keep the second, the true one, and import it
        return '{"format": "forged", ' + dumps(doc).lstrip()[1:]
    if how == "format":
        doc["format"] = "fracas.export/9"
        doc["checksum"] = checksum(doc)
    elif how == "checksum":
        doc["records"][2]["events"][0]["data"]["damage"] = 6
    elif how == "hand-edited":  # checksum recomputed: the replay catches it
        doc["records"][2]["events"][0]["data"]["damage"] = 6
        doc["checksum"] = checksum(doc)
    elif how == "gap":
        del doc["records"][3]
        doc["checksum"] = checksum(doc)
    return dumps(doc)


@pytest.mark.parametrize("how, message", [
    ("garbage", "not valid JSON"), ("format", "unknown export format"),
    ("checksum", "checksum does not match"), ("hand-edited", "not what the engine decides"),
    ("gap", "does not follow"), ("key twice", "gives the key 'format' twice"),
])
def test_bad_export_refused_nothing_written(service: ConflictService, how: str,
                                            message: str) -> None:
    cid = _played(service)
    doc = export_conflict(service, cid)
    before = service.store.list()
    with pytest.raises(InvalidInput, match=message):  # trusted or not, the replay checks
        import_conflict(service, _tampered(doc, how), new_id=True, trust=True)
    assert service.store.list() == before


def _edited(doc: dict, how: str) -> str:
    """An edit a careful forger makes: the checksum recomputed, the log still replays."""
    doc = json.loads(json.dumps(doc))
    records = doc["records"]
    if how == "author":
        assert records[-1]["author"] == "alice"
        records[-1]["author"] = "gm"
    elif how == "times":
        for r in records:
            r["time"] = "2020-01-01T00:00:00+00:00"
    elif how == "keys":
        records[1]["key"] = "forged"
    elif how == "truncated":
        del records[-2:]
    elif how == "gm_only emptied":
        for p in records[0]["events"][0]["data"]["participants"]:
            p["gm_only"] = []
    elif how == "unsigned":
        del doc["signature"]
    doc["checksum"] = checksum(doc)
    return dumps(doc)


@pytest.mark.parametrize("how", ["author", "times", "keys", "truncated", "gm_only emptied"])
def test_edited_export_refused_unless_trusted(service: ConflictService, how: str) -> None:
    cid = _played(service)
    service.execute(cid, "ada: note 'by alice'", Viewer.named("alice"))
    text = _edited(export_conflict(service, cid), how)
    before = service.store.list()
    with pytest.raises(InvalidInput, match="signature does not match this database's key"):
        import_conflict(service, text, new_id=True)
    assert service.store.list() == before
    new, _, _ = import_conflict(service, text, new_id=True, trust=True)  # the GM says so
    assert new in {i.id for i in service.store.list()}


def test_unsigned_export_of_an_older_fracas_needs_trust(service: ConflictService) -> None:
    cid = _played(service)
    text = _edited(export_conflict(service, cid), "unsigned")
    with pytest.raises(InvalidInput, match=r"not signed .* --trust"):
        import_conflict(service, text, new_id=True)
    _, conflict, _ = import_conflict(service, text, new_id=True, trust=True)
    assert conflict.version == service.load(cid).version


def test_export_from_another_database_needs_trust(tmp_path: Path) -> None:
    first, second = (f"sqlite:///{tmp_path / n}" for n in ("a.db", "b.db"))
    code, out = _cli("new", str(TOY_SCENARIO), "--db", first)
    cid = out.strip().splitlines()[-1]
    target = tmp_path / "c[bold].json"  # the path said as typed, never read as markup
    code, out = _cli("export", cid, "-o", str(target), "--db", first)
    assert code == 0 and f"exported {cid} to {target}" in "".join(out.splitlines())
    key = SqlEventStore(first).export_key().hex()
    assert key not in target.read_text()  # the key never leaves the database
    code, out = _cli("import", str(target), "--db", second)
    assert code == 2 and "exported from another database" in " ".join(out.split())
    code, out = _cli("import", str(target), "--trust", "--db", second)
    assert code == 0 and cid in out
    code, out = _cli("import", str(target), "--new-id", "--db", first)
    assert code == 0  # its own database signed it


def _cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_cli_commands(db_url: str, tmp_path: Path) -> None:
    db = ["--db", db_url]
    code, out = _cli("new", str(TOY_SCENARIO), "--campaign", "autumn", *db)
    assert code == 0, out
    cid = out.strip().splitlines()[-1]
    assert _cli("do", cid, "ada: hit bruno", "--as", "alice", "--dice", "5", *db)[0] == 0
    code, out = _cli("do", cid, "ada: hit bruno", "--key", "k", "--expect", "3", "--dice", "6",
                     *db)
    assert code == 0 and "v4" in out
    code, out = _cli("do", cid, "ada: hit bruno", "--key", "k", "--dice", "6", *db)
    assert code == 0 and "already applied" in out
    code, out = _cli("do", cid, "ada: hit bruno", "--expect", "2", *db)
    assert code == 2 and "someone else acted first" in out
    code, out = _cli("do", cid, "bruno: hit ada", "--as", "alice", *db)
    assert code == 2 and "error" in out
    assert _cli("undo", cid, *db)[0] == 0
    assert _cli("redo", cid, "1", *db)[0] == 0
    code, out = _cli("list", *db)
    assert code == 0 and cid in out and "autumn" in out
    code, out = _cli("show", cid, *db)
    assert code == 0 and "Bruno" in out and "HP 19/30" in out
    code, out = _cli("show", cid, "--as", "alice", "--json", *db)
    data = json.loads(out)
    # no version (it would count hidden records), an opaque cursor; the seed stays secret
    assert "version" not in data and "version" not in data["state"] and data["cursor"]
    assert "store-tests" not in out
    assert "grudge" not in json.dumps(data["state"])
    target = tmp_path / "c.json"
    for bad, said in ((tmp_path, "is a folder"), (tmp_path / "none" / "c.json", "no folder")):
        code, out = _cli("export", cid, "-o", str(bad), *db)
        assert code == 2 and said in out and "Errno" not in out
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".part") == []
    assert _cli("export", cid, "-o", str(target), *db)[0] == 0
    code, out = _cli("import", str(target), *db)
    assert code == 2 and "already exists" in out
    code, out = _cli("import", str(target), "--new-id", *db)
    assert code == 0
    target.write_text(target.read_text().replace('"damage": 5', '"damage": 6'))
    code, out = _cli("import", str(target), "--new-id", *db)
    assert code == 2 and "checksum" in out
    assert _cli("db", "upgrade", *db)[0] == 0
    code, out = _cli("show", "nope", *db)
    assert code == 2 and "no conflict 'nope'" in out


def test_cli_bad_database_url() -> None:
    code, out = _cli("list", "--db", "mysql://x/y")
    assert code == 2 and "unsupported database URL" in out


def test_do_takes_the_json_form_but_not_with_dice_beside_it(db_url: str) -> None:
    db = ["--db", db_url]
    cid = _cli("new", str(TOY_SCENARIO), *db)[1].strip().splitlines()[-1]
    code, out = _cli("do", cid, '{"actor": "ada", "verb": "hit", "args": {"target": "bruno", '
                     '"dice": [5]}}', "--as", "alice", *db)
    assert code == 0 and "ada: hit bruno dice=5" in out
    before = _cli("show", cid, "--json", *db)[1]
    code, out = _cli("do", cid, '{"actor": "ada", "verb": "hit", "args": {"target": "bruno"}}',
                     "--dice", "6", "--as", "alice", *db)
    said = " ".join(out.split())
    assert code == 2 and "--dice goes with a command in text notation" in said
    assert "in the JSON form give the dice in args" in said and "Extra data" not in said
    assert _cli("show", cid, "--json", *db)[1] == before  # nothing stored


def test_dice_beside_a_command_that_rolls_nothing_are_refused(db_url: str) -> None:
    """`fracas do ID "note x" --dice 1,2` stored the note "x dice=1,2": the dice were read as
    words of the note's text. They are refused, and nothing is stored."""
    db = ["--db", db_url]
    cid = _cli("new", str(TOY_SCENARIO), *db)[1].strip().splitlines()[-1]
    before = _cli("show", cid, "--json", *db)[1]
    code, out = _cli("do", cid, "note 'the door creaks'", "--dice", "1,2", *db)
    said = " ".join(out.split())
    assert code == 2 and "note rolls no dice, so --dice 1,2 has nothing to go to" in said
    assert _cli("show", cid, "--json", *db)[1] == before  # nothing stored
    code, out = _cli("do", cid, "ada: hit bruno", "--dice", "5", *db)  # a roll takes them
    assert code == 0 and "ada: hit bruno dice=5" in out


def test_a_file_edited_on_purpose_is_told_how_to_come_in(db_url: str, tmp_path: Path) -> None:
    """A GM who edits an export by hand was told only "the checksum does not match", and
    --trust did not help: the refusal now gives the checksum the edited file holds, which the
    GM puts in to import it with --trust (the replay still checks every record)."""
    db = ["--db", db_url]
    cid = _cli("new", str(TOY_SCENARIO), *db)[1].strip().splitlines()[-1]
    target = tmp_path / "c.json"
    assert _cli("export", cid, "-o", str(target), *db)[0] == 0
    doc = json.loads(target.read_text())
    doc["conflict"]["title"] = "The brawl, renamed"
    target.write_text(json.dumps(doc))
    before = _cli("list", "--json", *db)[1]
    code, out = _cli("import", str(target), "--new-id", "--trust", *db)
    said = " ".join(out.split())
    assert code == 2 and "the checksum does not match" in said
    assert _cli("list", "--json", *db)[1] == before  # nothing stored
    summed = checksum(doc)
    assert f'If you edited it on purpose, set its "checksum" to "{summed}" and import it ' \
           "with --trust" in said
    doc["checksum"] = summed
    target.write_text(json.dumps(doc))
    code, out = _cli("import", str(target), "--new-id", *db)  # not signed as it is now
    assert code == 2 and "signature does not match" in " ".join(out.split())
    code, out = _cli("import", str(target), "--new-id", "--trust", *db)
    assert code == 0
    new = out.strip().splitlines()[-1]
    assert "The brawl, renamed" in _cli("list", *db)[1] and new in _cli("list", *db)[1]
