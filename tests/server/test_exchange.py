"""A conflict exported through the server and imported again at the table, through a real
server: the copy plays on; an edited export is refused with what to do, and stores nothing."""

from __future__ import annotations

from fracas.app.exchange import checksum
from tests.server.support import Served, new_table


def test_an_export_imports_again_and_an_edited_one_is_refused(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(scenario="vers-tavern-brawl")
    doc = table.gm.get(path + "/export").json()
    made = table.gm.post(f"/api/tables/{table.id}/imports", json=doc)
    assert made.status_code == 201, made.text
    assert made.json()["title"] == "Brawl at the Drowned Rat"
    listed = table.gm.get(f"/api/tables/{table.id}/conflicts").json()
    assert len(listed) == 2
    doc["conflict"]["title"] = "Brawl at the Dry Rat"  # edited by hand, checksum made good
    doc["checksum"] = checksum(doc)
    refused = table.gm.post(f"/api/tables/{table.id}/imports", json=doc)
    assert refused.status_code == 422, refused.text
    message = refused.json()["message"]
    assert "the signature does not match" in message and "nothing was imported" in message
    assert "`fracas import FILE --trust --campaign TABLE`" in message, "the CLI's way, named"
    assert table.gm.get(f"/api/tables/{table.id}/conflicts").json() == listed


def test_an_import_that_is_no_export_is_refused_in_words(server: Served) -> None:
    table = new_table(server.url)
    for body in (b'{"format": "\\ud800"}', b'{"format": "fracas.export/1"}', b"[]"):
        r = table.gm.post(f"/api/tables/{table.id}/imports", content=body,
                          headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
        assert "Traceback" not in r.text and r.json()["message"]
    assert table.gm.get(f"/api/tables/{table.id}/conflicts").json() == []
