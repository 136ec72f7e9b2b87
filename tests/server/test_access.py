"""Authorization against a real server: a token opens one table in one role, a player acts
only for their own characters and only when the rules let them, a revoked link stops at once
(its open sockets close), and a GM of one table has no power over another."""

from __future__ import annotations

import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.support import Served, frames_until_quiet, new_table

BRAWL = "vers-tavern-brawl"


def test_a_player_acts_only_for_their_own_characters(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice, bob = table.invite("alice"), table.invite("bob")
    mine = alice.get(path + "/legal").json()
    assert mine and all(c.startswith(f"{actor}:") for actor, cs in mine.items() for c in cs)
    theirs = next(iter(bob.get(path + "/legal").json()))
    before = table.gm.get(path).json()["view"]
    r = alice.post(path + "/commands", json={"command": f"{theirs}: note 'mine now'"})
    assert r.status_code == 403 and r.json()["code"] == "not_allowed"
    for gm_only in ("undo", "redo", "override kara.stats.zone shed", "end 'I win'"):
        r = alice.post(path + "/commands", json={"command": gm_only})
        assert r.status_code == 403, (gm_only, r.text)
    assert alice.post(path + "/undo").status_code == 403
    assert alice.post(path + "/redo").status_code == 403
    assert alice.get(path + "/export").status_code == 403
    export = table.gm.get(path + "/export").json()
    assert alice.post(f"/api/tables/{table.id}/imports", json=export).status_code == 403
    assert len(table.gm.get(f"/api/tables/{table.id}/conflicts").json()) == 1
    assert alice.post(f"/api/tables/{table.id}/conflicts",
                      json={"scenario": BRAWL}).status_code == 403
    assert alice.post(f"/api/tables/{table.id}/links",
                      json={"role": "public"}).status_code == 403
    assert alice.get(f"/api/tables/{table.id}/links").status_code == 403
    assert table.gm.get(path).json()["view"] == before, "nothing was written"


def test_a_player_may_not_act_out_of_turn(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict("fabula-ultima-ambush")  # its script ends the conflict
    alice = table.invite("alice")
    r = alice.post(path + "/commands", json={"command": "ada: attack cutthroat1"})
    assert r.status_code == 409 and r.json()["code"] in ("illegal_command", "not_your_turn")


def test_a_bundled_example_starts_fresh_or_with_its_story_as_the_gm_asks(
        server: Served) -> None:
    table = new_table(server.url)
    story = table.gm.get(table.conflict("fabula-ultima-ambush")).json()["view"]
    fresh = table.gm.get(table.conflict("fabula-ultima-ambush", fresh=True)).json()["view"]
    assert story["conflict"]["status"] == "ended" and story["version"] > 10
    assert fresh["conflict"]["status"] != "ended"
    assert fresh["version"] == 1  # its script opens with Ada's goal: nothing is played
    chase = table.gm.get(table.conflict("vers-chase", fresh=True)).json()["view"]
    assert chase["version"] == 2  # the opening GM command, the chase begun, is played
    assert chase["conflict"]["ruleset"]["chases"]["c1"]["position"] == 3


def test_a_public_link_reads_but_never_acts(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    public = table.invite(None)
    assert public.get(path).status_code == 200
    r = public.post(path + "/commands", json={"command": "note hello"})
    assert r.status_code == 403


def test_no_token_or_a_bad_one_opens_nothing(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"},
                    {"Authorization": "Bearer " + "a" * 5000}):
        r = httpx.get(server.url + path, headers=headers)
        assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_a_token_opens_only_its_own_table(server: Served) -> None:
    one, two = new_table(server.url, "one"), new_table(server.url, "two")
    path_two = two.conflict(BRAWL)
    cid_two = path_two.rsplit("/", 1)[1]
    alice_one = one.invite("alice")
    for api in (one.gm, alice_one):
        # through the other table's path, or its conflict through one's own table path
        assert api.get(path_two).status_code == 404
        assert api.get(f"/api/tables/{one.id}/conflicts/{cid_two}").status_code == 404
        assert api.get(f"/api/tables/{two.id}/conflicts").status_code == 404
        r = api.post(f"/api/tables/{one.id}/conflicts/{cid_two}/commands",
                     json={"command": "note hijack"})
        assert r.status_code == 404
        assert api.get(f"/api/tables/{one.id}/conflicts/{cid_two}/export").status_code == 404
    # a conflict of another table looks exactly like a missing one
    missing = one.gm.get(f"/api/tables/{one.id}/conflicts/deadbeef")
    foreign = one.gm.get(f"/api/tables/{one.id}/conflicts/{cid_two}")
    assert missing.text.replace("deadbeef", "X") == foreign.text.replace(cid_two, "X")
    link = two.gm.get(f"/api/tables/{two.id}/links").json()[0]["id"]
    assert one.gm.delete(f"/api/tables/{one.id}/links/{link}").status_code == 404
    assert one.gm.delete(f"/api/tables/{two.id}/links/{link}").status_code == 404
    assert "hijack" not in json.dumps(two.gm.get(path_two).json())


def test_a_revoked_link_stops_at_once_and_its_socket_closes(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice = table.invite("alice")
    links = table.gm.get(f"/api/tables/{table.id}/links").json()
    assert not any("token" in link for link in links), "secrets are never listed"
    link = next(x["id"] for x in links if x["player"] == "alice")
    ws = alice.live(path)
    assert json.loads(ws.recv(timeout=20))["type"] == "snapshot"
    assert table.gm.delete(f"/api/tables/{table.id}/links/{link}").status_code == 200
    with pytest.raises(ConnectionClosed) as closed:
        frames_until_quiet(ws, quiet=5)
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert alice.get(path).status_code == 401
    again = alice.live(path)
    frame = json.loads(again.recv(timeout=20))
    assert frame["type"] == "error" and frame["error"]["code"] == "not_authenticated"


def test_the_cookie_carries_the_token_for_browsers(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice = table.invite("alice")
    r = alice.post("/api/session")
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    # kept past a restart of the browser (a session cookie was gone with it, and a GM who
    # had not saved the GM link shown once with it)
    assert f"Max-Age={180 * 24 * 3600}" in cookie
    browser = httpx.Client(base_url=server.url)
    browser.cookies.set("fracas_token", alice.token or "")
    assert browser.get(path).json()["view"]["viewer"] == {"role": "player",
                                                          "player": "alice"}


def test_tokens_never_reach_the_server_log(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice = table.invite("alice")
    alice.get(path)
    alice.post(path + "/commands", json={"command": "note hi"})
    assert table.gm.token and alice.token
    log = server.log()
    assert table.gm.token not in log and alice.token not in log


def test_a_character_is_offered_though_a_hidden_one_is_named_as_its_id(server: Served) -> None:
    """A player is offered nothing naming a concealed character, but a character they can
    see stays on offer when a hidden one bears its id as a name (an id names one
    participant): here a concealed second "Thug" beside the thug."""
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    joined = table.gm.post(path + "/commands", json={
        "command": "join thug2 name=Thug side=toughs stats='{\"zone\": \"bar\"}' hidden=yes"})
    assert joined.status_code == 200, joined.text
    assert table.gm.post(path + "/commands", json={"command": "open ada"}).is_success
    alice = table.invite("alice")
    offered = alice.get(path + "/legal-commands").json()["ada"]
    targets = {c["params"][0]["fixed"] for c in offered if c["verb"] == "attack"}
    assert "thug" in targets and "thug2" not in targets
    assert "thug2" not in json.dumps(offered)
    lines = alice.get(path + "/legal").json()["ada"]
    assert any(line.startswith("ada: attack thug ") for line in lines)
    assert not any("thug2" in line for line in lines)


def test_a_viewer_role_is_no_players_name_for_a_link(server: Served) -> None:
    # the GM's own records are authored "gm": a player link by that name would read them
    table = new_table(server.url)
    before = table.gm.get(f"/api/tables/{table.id}/links").json()
    for name in ("gm", "public"):
        r = table.gm.post(f"/api/tables/{table.id}/links",
                          json={"role": "player", "player": name})
        assert r.status_code == 422, r.text
        assert r.json()["message"] == f"{name!r} is a viewer role, not a player's name"
    assert table.gm.get(f"/api/tables/{table.id}/links").json() == before
