"""A bounded load on real servers (loopback, stops by itself): no event lost or doubled, and
every viewer's last view and log equal the stored conflict's projection for them.

CI size: 20 conflicts x 6 viewers x 15 s. ``FRACAS_LOAD=full`` runs the issue's 100 x 6 x 60 s.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.server.load import run_load
from tests.server.support import Served

FULL = os.environ.get("FRACAS_LOAD") == "full"
CONFLICTS, SECONDS = (100, 60.0) if FULL else (20, 15.0)


@pytest.mark.timeout(600)
def test_load_on_sqlite_one_process(server: Served) -> None:
    result = asyncio.run(run_load([server.url], server.db, CONFLICTS, SECONDS))
    assert result.problems == []
    assert result.commands >= CONFLICTS * 5


@pytest.mark.postgres
@pytest.mark.timeout(600)
def test_load_on_postgresql_two_processes(pg_servers: tuple[Served, Served]) -> None:
    a, b = pg_servers
    result = asyncio.run(run_load([a.url, b.url], a.db, CONFLICTS, SECONDS))
    assert result.problems == []
    assert result.commands >= CONFLICTS * 5
