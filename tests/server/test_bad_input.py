"""Bad input against a real server: a clear 4xx (or a close code) with a typed error,
nothing written, and the server keeps serving."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from fracas.app.scenario import load_scenario
from tests.server.support import Served, Table, new_table

BRAWL = "vers-tavern-brawl"


def _log_length(table: Table, path: str) -> int:
    return len(table.gm.get(path).json()["log"])


@pytest.mark.parametrize("body, status", [
    (b"{not json", 422),
    (b"[]", 422),
    (b'{"command": 5}', 422),
    (b'{"command": ""}', 422),
    (b'{"command": "frobnicate everyone"}', 422),
    (b'{"command": {"verb": "roll"}}', 422),
    (b'{"command": {"verb": 3, "args": []}}', 422),
    (b'{"command": "roll 1000000d1000000"}', 422),
    (b'{"command": "roll 2d6!!!!>>>1"}', 422),
    (b'{"command": "roll ' + b"(" * 3000 + b'"}', 422),
    (b'{"command": "note hi", "extra": 1}', 422),
    (b'{"command": "note hi", "key": ""}', 422),
    (b'{"command": "note hi", "cursor": "garbage"}', 422),
    (b'{"command": "undo 0"}', 422),
    (b'{"command": "undo 99"}', 409),
    # free text of the text form is checked as the JSON form's is: no control characters,
    # and a lone surrogate (which no database can store) is refused, not a 500
    (b'{"command": "note hi\\u001b[31m red"}', 422),
    (b'{"command": "note \\ud800"}', 422),
    (b'{"command": "narrate \\udc80 hi"}', 422),
    (b'{"command": "\\ud800x"}', 422),
    (b'{"command": "zz\\ud800: note x"}', 422),
    (b'{"command": {"verb": "\\ud800"}}', 422),
    (b'{"command": {"verb": "note", "actor": "\\ud800", "args": {"text": "x"}}}', 422),
    # a control character the split would read as a space; bodies json cannot read at all
    (b'{"command": "note x\\u0085y"}', 422),
    (b'{"command": "note \xff"}', 422),
    (b'{"command": ' + b"1" * 5000 + b'}', 422),
    (b'{"command": ' + b"[" * 5000 + b"]" * 5000 + b'}', 422),
    # a key given twice: refused, not read as the last one
    (b'{"command": "undo", "command": "note x"}', 422),
])
def test_bad_commands_are_refused_and_write_nothing(server: Served, body: bytes,
                                                    status: int) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    before = _log_length(table, path)
    r = table.gm.post(path + "/commands", content=body,
                      headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    error = r.json()
    assert set(error) == {"code", "message", "rule", "values"} and error["message"]
    assert "Traceback" not in r.text
    assert _log_length(table, path) == before


def test_oversize_bodies_are_refused_unread(server: Served) -> None:
    table = new_table(server.url)
    big = b'{"title": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    r = httpx.post(server.url + "/api/tables", content=big,
                   headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["values"]["limit"] == 2 * 1024 * 1024
    r = table.gm.post(f"/api/tables/{table.id}/conflicts",
                      json={"toml": "title = 'x'\n" + "# filler\n" * 300_000})
    assert r.status_code == 413
    assert httpx.get(server.url + "/api/scenarios").status_code == 200


def test_hostile_scenarios_are_refused(server: Served) -> None:
    table = new_table(server.url)
    url = f"/api/tables/{table.id}/conflicts"
    for body in ({"toml": "strength = " + "[" * 5000}, {"toml": "ruleset = 'nope'"},
                 {"scenario": "../../etc/passwd"}, {"scenario": "x", "toml": "y"}, {},
                 {"toml": "ruleset = 'vers'\n[[participants]]\nid = 'gm'\nname = 'GM'"}):
        r = table.gm.post(url, json=body)
        assert r.status_code == 422, (body, r.text)
    brawl = load_scenario("vers-tavern-brawl").text  # a [sim] table fracas sim would refuse
    for sim, said in (('policies = { heroes = "no-such-policy" }', "unknown policy"),
                      ('prologue = "undo"', "[sim] prologue holds 'undo'")):
        r = table.gm.post(url, json={"toml": f"{brawl}\n[sim]\n{sim}\n"})
        assert r.status_code == 422 and said in r.json()["message"], r.text
    assert table.gm.get(url).json() == []


def test_an_uploaded_files_refusal_names_it_by_its_own_name(server: Served) -> None:
    # before: every upload was "upload.toml" in its refusal, whatever the GM's file was called
    table = new_table(server.url)
    url = f"/api/tables/{table.id}/conflicts"
    broken = "ruleset = 'vers'\ntitle = 'Docks'\nround_limt = 3\n"
    for given, called in (("docks.toml", "docks.toml"),
                          ("C:\\GM\\friday\\docks.toml", "docks.toml"),
                          ("../../etc/x\n\x00.toml", "x.toml"), ("", "upload.toml"),
                          (None, "upload.toml")):
        r = table.gm.post(url, json={"toml": broken, "filename": given})
        assert r.status_code == 422, r.text
        assert r.json()["message"].startswith(f"{called}:3: unknown key 'round_limt'"), r.text
    assert table.gm.get(url).json() == []


def test_a_websocket_flood_is_closed_and_the_server_keeps_serving(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    ws = table.gm.live(path)
    assert json.loads(ws.recv(timeout=20))["type"] == "snapshot"
    ws.send(json.dumps({"type": "ping"}))
    assert json.loads(ws.recv(timeout=20)) == {"type": "pong"}
    ws.send("not json")
    assert json.loads(ws.recv(timeout=20))["type"] == "error"
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(500):
            ws.send(json.dumps({"type": "ping"}))
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    big = table.gm.live(path)
    big.recv(timeout=20)
    with pytest.raises(ConnectionClosed) as closed:
        big.send("x" * (200 * 1024))
        big.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert table.gm.get(path).status_code == 200


def test_a_bad_cursor_closes_the_socket_with_a_typed_error(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice, bob = table.invite("alice"), table.invite("bob")
    cursor = alice.get(path).json()["cursor"]
    for api, bad in ((alice, "garbage"), (bob, cursor), (alice, cursor[:-2] + "AA")):
        ws = api.live(path, cursor=bad)
        frame = json.loads(ws.recv(timeout=20))
        assert frame["type"] == "error" and frame["error"]["code"] == "invalid_input"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4422


def test_unknown_routes_and_methods_answer_typed_errors(server: Served) -> None:
    r = httpx.get(server.url + "/api/nothing-here")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = httpx.put(server.url + "/api/tables")
    assert r.status_code == 405 and set(r.json()) == {"code", "message", "rule", "values"}


@pytest.mark.parametrize("route, body", [
    ("undo", {"steps": True}), ("undo", {"steps": "1"}), ("undo", {"steps": 1.0}),
    ("redo", {"steps": "1"}),
    ("links", {"role": "player", "player": "alice\n"}),
    ("links", {"role": "public", "label": "\u200f"}),
    ("tables", {"title": "a\u200fb"}), ("tables", {"title": "x\u0085y"}),
    ("tables", {"title": "\u061c"}),
])
def test_values_of_the_wrong_type_or_with_hidden_characters_change_nothing(
        server: Served, route: str, body: dict[str, object]) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    table.gm.post(path + "/commands", json={"command": "note one"})

    def state() -> tuple[object, ...]:
        conflict = table.gm.get(path).json()
        links = table.gm.get(f"/api/tables/{table.id}/links").json()
        return conflict["log"], conflict["view"]["version"], len(links)

    before = state()
    url = {"undo": path + "/undo", "redo": path + "/redo", "links":
           f"/api/tables/{table.id}/links", "tables": "/api/tables"}[route]
    r = table.gm.post(url, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid_input"
    assert state() == before
    if any("\u200f" in str(v) for v in body.values()):
        field = "the label" if "label" in body else "the title"
        assert f"{field} holds the control character U+200F" in r.json()["message"]
