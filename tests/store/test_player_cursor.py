"""A player's staleness token is their opaque cursor, never the conflict's version: ``fracas
do --as P --expect CURSOR`` refuses only when something the player sees changed, so records
hidden from them never make it stale (that would count them), and no refusal names a
version. The GM keeps ``--expect VERSION``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.app.script import from_the_start
from fracas.app.service import ConflictService
from fracas.cli import app
from fracas.engine.model import Viewer
from fracas.engine.views import projector
from fracas.errors import InvalidInput, StaleVersion
from tests.store.conftest import TOY_SCENARIO

runner = CliRunner()
ALICE = Viewer.of_player("alice")


def _cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def _cursor(cid: str, db: list[str]) -> str:
    code, out = _cli("show", cid, "--as", "alice", "--json", *db)
    assert code == 0, out
    cursor: str = json.loads(out)["cursor"]
    return cursor


def test_a_player_expects_their_cursor_not_a_version(db_url: str) -> None:
    db = ["--db", db_url]
    code, out = _cli("new", str(TOY_SCENARIO), *db)
    cid = out.split()[-1]
    cursor = _cursor(cid, db)
    assert _cli("do", cid, "note 'the GM plans an ambush' visibility=gm", *db)[0] == 0
    assert _cursor(cid, db) == cursor  # a hidden record changes nothing the player holds
    code, out = _cli("do", cid, "ada: hit bruno dice=4", "--as", "alice", "--expect", cursor,
                     *db)
    assert code == 0 and "#" in out and " v" not in out, out  # stored, the hidden one no bar

    stale = _cursor(cid, db)
    assert _cli("do", cid, "note 'the lights go out'", *db)[0] == 0  # the player sees this
    code, out = _cli("do", cid, "ada: hit bruno dice=2", "--as", "alice", "--expect", stale,
                     *db)
    assert code == 2 and "what you see changed since your cursor" in out
    assert "version" not in out and not any(ch.isdigit() for ch in out), out
    code, out = _cli("show", cid, "--as", "alice", "--json", *db)
    assert "dice=2" not in out  # refused: nothing stored

    code, out = _cli("do", cid, "ada: hit bruno", "--as", "alice", "--expect", "3", *db)
    assert code == 2 and "--expect takes your cursor" in out and "told no version" in out
    for forged in ("9.deadbeef", cursor.replace(cursor[0], "\u0661", 1), cursor + "\u0634"):
        code, out = _cli("do", cid, "ada: hit bruno", "--as", "alice", "--expect", forged, *db)
        assert code == 2 and "not a cursor of this conflict" in out, forged


def test_the_gm_may_expect_a_version_or_a_cursor(db_url: str) -> None:
    db = ["--db", db_url]
    cid = _cli("new", str(TOY_SCENARIO), *db)[1].split()[-1]
    code, out = _cli("show", cid, "--json", *db)
    shown = json.loads(out)
    assert _cli("do", cid, "note one", "--expect", str(shown["version"]), *db)[0] == 0
    code, out = _cli("do", cid, "note two", "--expect", str(shown["version"]), *db)
    assert code == 2 and f"not {shown['version']}" in out  # the GM is told versions
    code, out = _cli("do", cid, "note two", "--expect", shown["cursor"], *db)
    assert code == 2 and "changed since your cursor" in out


def test_a_race_with_a_hidden_record_is_decided_again_for_the_player(
        service: ConflictService) -> None:
    """Alice decided on a copy that another writer has since passed with a GM-only record:
    the append is stale, but nothing she sees changed, so it is decided again and stored —
    a refusal would have told her that something hidden happened just then."""
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    mine = service.load(cid)
    cursor = projector(mine, ALICE).cursor
    service.execute(cid, "note 'a secret' visibility=gm")  # another process, meanwhile
    out = service.execute(cid, "ada: hit bruno dice=3", ALICE, expected_cursor=cursor,
                          conflict=mine)
    assert out.record.command == "ada: hit bruno dice=3"
    assert service.load(cid).version == out.record.version == 4

    cursor = projector(out.conflict, ALICE).cursor
    behind = service.load(cid)
    service.execute(cid, "note 'everyone hears it'")  # seen by Alice: her cursor is stale
    with pytest.raises(StaleVersion, match="changed since your cursor") as raised:
        service.execute(cid, "ada: hit bruno dice=1", ALICE, expected_cursor=cursor,
                        conflict=behind)
    assert "version" not in str(raised.value) and not raised.value.values
    with pytest.raises(InvalidInput, match="not a cursor"):
        service.execute(cid, "ada: hit bruno dice=1", ALICE,
                        expected_cursor=projector(behind, Viewer.gm()).cursor)


def test_a_player_racing_without_a_cursor_is_told_no_version(
        service: ConflictService) -> None:
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    mine = service.load(cid)
    service.execute(cid, "note 'a secret' visibility=gm")
    with pytest.raises(StaleVersion) as raised:
        service.execute(cid, "ada: hit bruno dice=3", ALICE, conflict=mine)
    assert "version" not in str(raised.value) and not any(c.isdigit() for c in str(
        raised.value))


@pytest.mark.rule("ES-ROUND-7")
def test_another_players_declaration_makes_no_cursor_stale(service: ConflictService) -> None:
    """``fracas do --expect`` and ``fracas play`` judge a cursor as the server does: Bob's
    declaration since Alice's cursor bears on nothing of hers, so hers is decided and stored;
    the GM's narration since does bear on it (she may want to choose again)."""
    cid, _ = service.new_from_scenario(from_the_start(load_scenario("etherscope-car-chase")))
    for line in ("ada: awareness dice=5,6,1", "bruno: awareness dice=5,2",
                 "zepcar: awareness dice=2,3", "moves", "ada: done", "bruno: done", "round"):
        service.execute(cid, line)
    cursor = projector(service.load(cid), ALICE).cursor
    service.execute(cid, "bruno: declare 9", Viewer.of_player("bob"))
    out = service.execute(cid, "ada: declare 8,2", ALICE, expected_cursor=cursor)
    assert out.record.command == "ada: declare 8,2"
    cursor = projector(service.load(cid), Viewer.of_player("bob")).cursor
    service.execute(cid, "narrate 'The zepcar swerves'")
    with pytest.raises(StaleVersion, match="changed since your cursor"):
        service.execute(cid, "bruno: declare 7", Viewer.of_player("bob"),
                        expected_cursor=cursor)
