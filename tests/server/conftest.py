"""Fixtures of the server tests: a real ``fracas serve`` (uvicorn) in a subprocess."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.support import Served, running
from tests.support.pg import reset_pg

PG_HOWTO = ("PostgreSQL server tests SKIPPED: FRACAS_TEST_PG_URL is not set "
            "(CI=true makes this an error)")


def pg_url_or_skip() -> str:
    """The test PostgreSQL's URL, or skip (fail under CI) when there is none."""
    url = os.environ.get("FRACAS_TEST_PG_URL")
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but FRACAS_TEST_PG_URL is not set: run scripts/postgres.sh")
        pytest.skip(PG_HOWTO)
    return url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server process over a fresh SQLite file, for a whole test module."""
    tmp: Path = tmp_path_factory.mktemp("serve")
    with running(f"sqlite:///{tmp / 'fracas.db'}", str(tmp / "server.log")) as served:
        yield served


@pytest.fixture(scope="module")
def pg_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Served]]:
    """Two server processes on one fresh PostgreSQL database."""
    url = pg_url_or_skip()
    reset_pg(url)
    tmp: Path = tmp_path_factory.mktemp("serve-pg")
    with running(url, str(tmp / "a.log")) as a, running(url, str(tmp / "b.log")) as b:
        yield a, b
