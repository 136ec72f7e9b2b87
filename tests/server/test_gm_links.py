"""GM links for another device, against a real server: the GM makes one (POST …/links with
``role: "gm"``), it opens the table as its GM, the list marks its role and label and never
holds a secret, a player or the public asking for one is refused with nothing made, and it is
revoked like any link (its sockets close) — but never by itself."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from fracas.app.tables import TableService, digest
from fracas.errors import NotAuthenticated
from fracas.store import open_store
from tests.server.support import Api, Served, Table, frames_until_quiet, new_table

BRAWL = "vers-tavern-brawl"


def gm_link(table: Table, label: str | None = "GM (tablet)") -> tuple[Api, dict[str, object]]:
    """A new GM link made by the table's GM: a client holding it, and the answer."""
    body = {"role": "gm", **({"label": label} if label is not None else {})}
    r = table.gm.post(f"/api/tables/{table.id}/links", json=body)
    assert r.status_code == 201, r.text
    made: dict[str, object] = r.json()
    return Api(table.base, str(made["token"])), made


def links(api: Api, table: Table) -> list[dict[str, object]]:
    r = api.get(f"/api/tables/{table.id}/links")
    assert r.status_code == 200, r.text
    found: list[dict[str, object]] = r.json()
    return found


def test_a_gm_link_made_by_the_gm_opens_the_table_as_its_gm(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    tablet, made = gm_link(table)
    assert made["role"] == "gm" and made["player"] is None and made["label"] == "GM (tablet)"
    assert made["link"] == f"{server.url}/join#{tablet.token}"
    assert tablet.token and len(tablet.token) >= 43  # 256 bits, as the first GM link
    assert tablet.get("/api/me").json()["role"] == "gm"
    assert tablet.get(path).json()["view"]["viewer"]["role"] == "gm"
    assert tablet.post(path + "/commands", json={"command": "note from the tablet"}).is_success
    assert tablet.post(f"/api/tables/{table.id}/conflicts",
                       json={"scenario": BRAWL}).status_code == 201  # a GM-only call
    # the list marks the role and label, never a secret; each GM sees which link is theirs
    listed = links(table.gm, table)
    assert [(x["role"], x["label"], x["yours"]) for x in listed] == [
        ("gm", "GM", True), ("gm", "GM (tablet)", False)]
    assert [x["yours"] for x in links(tablet, table)] == [False, True]
    text = json.dumps(listed)
    assert tablet.token not in text and str(table.gm.token) not in text
    assert "token" not in text and "link\"" not in text
    # stored as a digest only
    store = open_store(server.db, migrate=False)
    try:
        found = store.find_token(digest(tablet.token))
        assert found is not None and found.role == "gm" and found.id == made["id"]
    finally:
        store.close()
    stored = b"".join(p.read_bytes() for p in Path(server.db.removeprefix("sqlite:///")).parent
                      .glob("fracas.db*"))
    assert tablet.token.encode() not in stored


def test_a_gm_link_without_a_label_is_labelled_gm(server: Served) -> None:
    table = new_table(server.url)
    _, made = gm_link(table, label=None)
    assert made["label"] == "GM"


def test_a_player_or_the_public_asking_for_a_gm_link_is_refused(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    alice, public = table.invite("alice"), table.invite(None)
    before = links(table.gm, table)
    for asker in (alice, public):
        refused = asker.post(f"/api/tables/{table.id}/links", json={"role": "gm"})
        other = asker.post(f"/api/tables/{table.id}/links", json={"role": "public"})
        assert refused.status_code == 403, refused.text
        assert refused.json() == other.json()  # the refusal of any GM-only call
        assert refused.json()["message"] == "only the GM may invite"
    assert links(table.gm, table) == before  # nothing made
    # a GM link made now never reaches a player's answers
    tablet, _ = gm_link(table)
    ws = alice.live(path)
    frames = frames_until_quiet(ws, quiet=1)
    ws.close()
    alice.get(path)
    alice.get(f"/api/tables/{table.id}/links")
    alice.get("/api/me")
    assert frames and tablet.token
    assert not any(tablet.token in seen for seen in [*alice.seen, *map(json.dumps, frames)])


def test_a_gm_link_is_checked_as_other_links_are(server: Served) -> None:
    table = new_table(server.url)
    before = links(table.gm, table)
    for body in ({"role": "gm", "label": "GM\ttablet"}, {"role": "gm", "label": "x" * 201},
                 {"role": "owner"}, {"role": "gm", "label": "   "}):
        r = table.gm.post(f"/api/tables/{table.id}/links", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["code"] == "invalid_input" and r.json()["message"]
    assert links(table.gm, table) == before


def test_a_revoked_gm_link_stops_at_once_and_its_socket_closes(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    tablet, made = gm_link(table)
    ws = tablet.live(path)
    assert json.loads(ws.recv(timeout=20))["type"] == "snapshot"
    revoked = table.gm.delete(f"/api/tables/{table.id}/links/{made['id']}")
    assert revoked.status_code == 200 and revoked.json()["role"] == "gm"
    with pytest.raises(ConnectionClosed) as closed:
        frames_until_quiet(ws, quiet=5)
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert tablet.get(path).status_code == 401


def test_a_gm_link_cannot_revoke_itself_but_may_revoke_a_lost_one(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    tablet, made = gm_link(table)
    own = tablet.delete(f"/api/tables/{table.id}/links/{made['id']}")
    assert own.status_code == 422
    assert own.json()["message"].startswith("this is the link you are using")
    assert tablet.get(path).status_code == 200
    laptop = next(x["id"] for x in links(tablet, table) if x["label"] == "GM")
    assert tablet.delete(f"/api/tables/{table.id}/links/{laptop}").status_code == 200
    assert table.gm.get(path).status_code == 401
    assert tablet.get(path).status_code == 200


def test_two_gm_links_revoking_each_other_at_once_leave_one(server: Served) -> None:
    """Two GM links revoke each other at the same moment: both were live when their requests
    came in, but the revoke checks again, as it is written, that the link asking is live, so
    the second is refused with a sentence and one GM link is left (before: both went, and
    only `fracas table invite --gm` on the server's machine let the GM in again)."""
    table = new_table(server.url)
    path = table.conflict(BRAWL)
    tablet, made = gm_link(table)
    laptop = next(str(x["id"]) for x in links(tablet, table) if x["label"] == "GM")
    store = open_store(server.db, migrate=False)
    try:  # the two requests, each past its authentication, then each revoking the other
        tables = TableService(store)
        from_laptop = tables.authenticate(table.gm.token)
        from_tablet = tables.authenticate(tablet.token)
        tables.revoke(from_laptop, str(made["id"]))
        with pytest.raises(NotAuthenticated, match="this link was revoked a moment ago"):
            tables.revoke(from_tablet, laptop)
    finally:
        store.close()
    assert table.gm.get(path).status_code == 200
    assert tablet.get(path).status_code == 401
    # and sent at once to the running server: one revoke is taken, the other refused
    second, second_made = gm_link(table, "GM (phone)")
    answers: dict[str, int] = {}
    start = threading.Barrier(2)

    def revoke(api: Api, link: str) -> None:
        start.wait()
        answers[link] = api.delete(f"/api/tables/{table.id}/links/{link}").status_code

    crossing = [threading.Thread(target=revoke, args=(table.gm, str(second_made["id"]))),
                threading.Thread(target=revoke, args=(second, laptop))]
    for t in crossing:
        t.start()
    for t in crossing:
        t.join(timeout=60)
    assert sorted(answers.values()) == [200, 401], answers
    alive = [api.get(path).status_code for api in (table.gm, second)]
    assert sorted(alive) == [200, 401], "one GM link left, never none"
