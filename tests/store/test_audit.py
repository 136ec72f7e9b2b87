"""Hand-edited exports, field limits and unreachable servers (found by an audit)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.exchange import checksum, dumps, export_conflict, import_conflict
from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.cli import app
from fracas.errors import InvalidInput
from fracas.store import SqlEventStore, sql
from fracas.store.sql import safe_url
from tests.store.conftest import TOY_SCENARIO

runner = CliRunner()


def _played(service: ConflictService) -> str:
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    service.execute(cid, "ada: hit bruno dice=4", key="first")
    service.execute(cid, "ada: hit bruno", key="second")
    return cid


def _edit(doc: dict, how: str) -> str:
    doc = json.loads(json.dumps(doc))
    if how == "deep":
        return "[" * 100_000 + "]" * 100_000
    if how == "surrogate":
        doc["conflict"]["title"] = "\ud800"
        return json.dumps(doc)  # ensure_ascii: the file itself is valid, its text is not
    if how == "same key twice":
        doc["records"][-1]["key"] = "first"
    elif how == "title not text":
        doc["conflict"]["title"] = {"a": 1}
    elif how == "long key":
        doc["records"][-1]["key"] = "k" * 300
    elif how == "long id":
        doc["conflict"]["id"] = "x" * 300
    elif how == "sql in id":
        doc["conflict"]["id"] = "../'; drop table records;--"
    elif how == "NUL in title":
        doc["conflict"]["title"] = "a\x00b"
    elif how == "bidi in a name":
        doc["records"][0]["events"][0]["data"]["participants"][0]["name"] = "Ada\u202e"
    elif how == "huge stat":
        doc["records"][0]["events"][0]["data"]["participants"][0]["stats"]["hp"] = 9.2e18
    elif how == "deep stat":
        doc["records"][0]["events"][0]["data"]["participants"][0]["stats"]["x"] = [[[[[[[[[
            [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    elif how == "reserved id":
        doc["records"][0]["events"][0]["data"]["participants"][0]["id"] = "gm"
    elif how == "long seed":
        doc["conflict"]["seed"] = "s" * 201
    doc["checksum"] = checksum(doc)
    return dumps(doc)


@pytest.mark.parametrize("how, message", [
    ("deep", "nest more than 32 deep"), ("surrogate", "not valid Unicode"),
    ("same key twice", "key 'first' is used by two records"),
    ("title not text", "title is not text"), ("long key", "key is too long"),
    ("bidi in a name", "control character U\\+202E"), ("huge stat", "numbers go up to"),
    ("deep stat", "nest more than 32"), ("reserved id", "'gm' is reserved"),
    ("long seed", "at most 200"),
    ("long id", "is not a conflict id"), ("sql in id", "is not a conflict id"),
    ("NUL in title", "title contains a NUL"),
])
def test_hand_edited_export_refused_clearly_on_both_backends(
        service: ConflictService, db_url: str, tmp_path: Path, how: str, message: str) -> None:
    cid = _played(service)
    path = tmp_path / "edited.json"
    path.write_text(_edit(export_conflict(service, cid), how), encoding="utf-8")
    before = service.store.list()
    new_id = "id" not in how
    with pytest.raises(InvalidInput, match=message):  # trusted on purpose: still checked
        import_conflict(service, path.read_text(encoding="utf-8"), new_id=new_id, trust=True)
    result = runner.invoke(app, ["import", str(path), *(["--new-id"] if new_id else []),
                                 "--trust", "--db", db_url])
    assert result.exit_code == 2 and "error:" in result.output, result.output
    assert "already exists" not in result.output
    assert service.store.list() == before


def test_field_limits_are_the_same_on_both_backends(service: ConflictService) -> None:
    cid = _played(service)
    version = service.store.info(cid).version
    with pytest.raises(InvalidInput, match=r"the key is 201 characters long; give 1 to 200"):
        service.execute(cid, "note hello", key="k" * 201)
    with pytest.raises(InvalidInput, match=r"the key holds the control character U\+DCFF"):
        service.execute(cid, "note hello", key="\udcff")  # a byte not UTF-8, from a shell
    with pytest.raises(InvalidInput, match="campaign is too long"):
        service.new_from_scenario(load_scenario(TOY_SCENARIO), campaign="c" * 201)
    assert service.store.info(cid).version == version and len(service.store.list()) == 1


def test_a_silent_postgres_server_fails_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that accepts the connection and never answers (or drops packets) must not
    hang the command: the connect timeout gives up with a clear message."""
    monkeypatch.setattr(sql, "CONNECT_TIMEOUT", 1)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(5)
        url = f"postgresql+psycopg://u@127.0.0.1:{server.getsockname()[1]}/x"
        started = time.monotonic()
        with pytest.raises(InvalidInput, match="cannot open the database"):
            SqlEventStore(url)
        assert time.monotonic() - started < 8, safe_url(url)
