"""Two GM links of one table revoking each other at the same moment leave one of them, on
SQLite and on PostgreSQL: the revoke checks, as it is written, that the link asking is still
live (a row lock on PostgreSQL, where two writers do run at once)."""

from __future__ import annotations

import threading

import pytest

from fracas.app.tables import TableService
from fracas.errors import NotAuthenticated
from fracas.store import SqlEventStore


def _two_gm_links(store: SqlEventStore) -> tuple[TableService, str, str]:
    tables = TableService(store)
    _, laptop = tables.create_table("Friday night")
    tablet = tables.invite(tables.authenticate(laptop.secret), "gm", label="GM (tablet)")
    return tables, laptop.secret, tablet.secret


def _live(tables: TableService, secret: str) -> bool:
    try:
        tables.authenticate(secret)
    except NotAuthenticated:
        return False
    return True


def test_the_second_of_two_crossing_revokes_is_refused(store: SqlEventStore) -> None:
    tables, laptop, tablet = _two_gm_links(store)
    from_laptop, from_tablet = tables.authenticate(laptop), tables.authenticate(tablet)
    tables.revoke(from_laptop, from_tablet.token_id)  # both were live when they came in
    with pytest.raises(NotAuthenticated, match="revoked a moment ago"):
        tables.revoke(from_tablet, from_laptop.token_id)
    assert (_live(tables, laptop), _live(tables, tablet)) == (True, False)


def _cross(tables: TableService, laptop: str, tablet: str) -> list[str]:
    """Each link revokes the other, the two threads released at once; who was refused."""
    access = {s: tables.authenticate(s) for s in (laptop, tablet)}
    start, refused = threading.Barrier(2), []

    def revoke(by: str, other: str) -> None:
        start.wait()
        try:
            tables.revoke(access[by], access[other].token_id)
        except NotAuthenticated:
            refused.append(by)

    crossing = [threading.Thread(target=revoke, args=(laptop, tablet)),
                threading.Thread(target=revoke, args=(tablet, laptop))]
    for t in crossing:
        t.start()
    for t in crossing:
        t.join(timeout=60)
    return refused


def test_two_revokes_sent_at_once_leave_one_gm_link(store: SqlEventStore) -> None:
    for _ in range(5):  # as close to at once as threads meeting at a barrier can be
        tables, laptop, tablet = _two_gm_links(store)
        assert len(_cross(tables, laptop, tablet)) == 1
        assert sorted([_live(tables, laptop), _live(tables, tablet)]) == [False, True]
