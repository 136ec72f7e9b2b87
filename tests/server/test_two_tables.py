"""One browser at two tables: a GM running two tables from one phone, a player invited to
both. Each table's link is kept in a cookie of its own, so joining one table never takes
the other's place, and each request presents the link of the table it is about."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect

from tests.server.support import Api, Served, new_table

BRAWL = "vers-tavern-brawl"
AMBUSH = "fabula-ultima-ambush"


def _join(browser: httpx.Client, link: Api) -> dict[str, object]:
    """Open a link as the /join page does: the token goes into the browser's cookies."""
    r = browser.post("/api/session", headers={"Authorization": f"Bearer {link.token}"})
    assert r.status_code == 200, r.text
    data: dict[str, object] = r.json()
    return data


def test_a_gm_s_browser_keeps_both_tables_gm_links(server: Served) -> None:
    friday, saturday = new_table(server.url, "Friday FU"), new_table(server.url, "Saturday VERS")
    ambush, brawl = friday.conflict(AMBUSH, fresh=True), saturday.conflict(BRAWL, fresh=True)
    browser = httpx.Client(base_url=server.url, timeout=30)
    _join(browser, friday.gm)
    _join(browser, saturday.gm)  # the second table's link, in the same browser
    for table, path in ((friday, ambush), (saturday, brawl)):
        assert browser.get(f"/api/tables/{table.id}").json()["role"] == "gm"
        r = browser.post(path + "/commands", json={"command": f"note 'at {table.id}'"})
        assert r.status_code == 200, r.text
        log = browser.get(path).json()["log"]
        assert [e["command"] for e in log if e["command"].startswith("note")] == [
            f"note 'at {table.id}'"]
    assert [(t["title"], t["role"]) for t in browser.get("/api/session").json()] == [
        ("Friday FU", "gm"), ("Saturday VERS", "gm")]


def test_a_player_invited_to_two_tables_sees_each_with_its_own_link(server: Served) -> None:
    friday, saturday = new_table(server.url, "Friday FU"), new_table(server.url, "Saturday VERS")
    ambush, brawl = friday.conflict(AMBUSH, fresh=True), saturday.conflict(BRAWL, fresh=True)
    friday.invite("alice")
    browser = httpx.Client(base_url=server.url, timeout=30)
    _join(browser, friday.invite("bob"))  # bob plays bruno at Friday's
    _join(browser, saturday.invite("alice"))  # alice plays ada at Saturday's
    friday_me, saturday_me = (browser.get(f"/api/tables/{t.id}").json()
                              for t in (friday, saturday))
    assert (friday_me["player"], saturday_me["player"]) == ("bob", "alice")
    mine = {t.id: [p["id"] for p in browser.get(path).json()["view"]["conflict"]["participants"]
                   if p.get("mine")] for t, path in ((friday, ambush), (saturday, brawl))}
    assert mine == {friday.id: ["bruno"], saturday.id: ["ada"]}
    # each table's socket opens with that table's link (the page's own origin)
    for path, player in ((ambush, "bob"), (brawl, "alice")):
        with connect(server.ws + path + "/live", origin=server.url, open_timeout=20,
                     additional_headers={"Cookie": _cookie_header(browser)}) as ws:
            first = json.loads(ws.recv(timeout=20))
            assert first["view"]["viewer"] == {"role": "player", "player": player}
    # at Friday's the browser is bob's, whatever it holds for Saturday's: ada is not his
    r = browser.post(ambush + "/commands", json={"command": "ada: initiative"})
    assert r.status_code == 403 and "bob" in r.json()["message"], r.text


def test_joining_again_replaces_only_that_table_s_link(server: Served) -> None:
    friday, saturday = new_table(server.url, "Friday FU"), new_table(server.url, "Saturday VERS")
    browser = httpx.Client(base_url=server.url, timeout=30)
    _join(browser, friday.gm)
    _join(browser, saturday.gm)
    _join(browser, friday.invite("alice"))  # a player's link of Friday's, in the GM's browser
    assert browser.get(f"/api/tables/{friday.id}").json()["role"] == "player"
    assert browser.get(f"/api/tables/{saturday.id}").json()["role"] == "gm"


def test_forgetting_the_session_forgets_every_table_s_link(server: Served) -> None:
    friday, saturday = new_table(server.url, "Friday FU"), new_table(server.url, "Saturday VERS")
    browser = httpx.Client(base_url=server.url, timeout=30)
    _join(browser, friday.gm)
    _join(browser, saturday.gm)
    assert browser.delete("/api/session").status_code == 200
    assert browser.get("/api/session").json() == []
    for table in (friday, saturday):
        assert browser.get(f"/api/tables/{table.id}").status_code == 401


def test_a_revoked_link_is_no_longer_among_the_browser_s_tables(server: Served) -> None:
    friday, saturday = new_table(server.url, "Friday FU"), new_table(server.url, "Saturday VERS")
    browser = httpx.Client(base_url=server.url, timeout=30)
    _join(browser, friday.invite("alice"))
    _join(browser, saturday.invite("alice"))
    link = next(x["id"] for x in friday.gm.get(f"/api/tables/{friday.id}/links").json()
                if x["player"] == "alice")
    assert friday.gm.delete(f"/api/tables/{friday.id}/links/{link}").status_code == 200
    assert [t["title"] for t in browser.get("/api/session").json()] == ["Saturday VERS"]
    assert browser.get(f"/api/tables/{saturday.id}").json()["player"] == "alice"


def _cookie_header(browser: httpx.Client) -> str:
    return "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
