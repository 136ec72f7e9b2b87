"""Fixtures of the store tests: the toy ruleset, and a fresh database of each backend.

PostgreSQL tests read ``FRACAS_TEST_PG_URL`` (``eval "$(scripts/postgres.sh)"`` starts a
throw-away server and prints it). Without it they are skipped with a loud reason, or fail when
``CI=true``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from fracas.app.service import ConflictService
from fracas.rulesets import register
from fracas.store import SqlEventStore
from fracas.store.sql import ENV_DB
from tests.support.pg import reset_pg
from tests.support.toy import Toy

register(Toy())

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
TOY_SCENARIO = HERE / "toy.toml"
PG_HOWTO = ("PostgreSQL tests SKIPPED: FRACAS_TEST_PG_URL is not set. As root run "
            "`eval \"$(scripts/postgres.sh)\"` then pytest again (CI=true makes this an error)")


@pytest.fixture(autouse=True)
def _no_user_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Never touch the user's real database from a test."""
    monkeypatch.setenv(ENV_DB, f"sqlite:///{tmp_path / 'default.db'}")


def pg_url_or_skip() -> str:
    """The test server's URL, or skip (fail under CI) when there is none."""
    url = os.environ.get("FRACAS_TEST_PG_URL")
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but FRACAS_TEST_PG_URL is not set: run scripts/postgres.sh")
        pytest.skip(PG_HOWTO)
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fracas.db'}"
    url = pg_url_or_skip()
    reset_pg(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database URL."""
    return f"sqlite:///{tmp_path / 'fracas.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[SqlEventStore]:
    """An opened (migrated) store."""
    s = SqlEventStore(db_url)
    yield s
    s.close()


@pytest.fixture
def service(store: SqlEventStore) -> ConflictService:
    """The service over the store, snapshotting every 5 versions."""
    return ConflictService(store, snapshot_every=5)


def spawn_fracas(*args: str, width: int = 100, timeout: float = 20) -> pexpect.spawn:
    """``fracas ARGS`` (with the toy ruleset) in a pseudo-terminal, as a person would run it;
    each ``expect`` waits at most ``timeout`` seconds for its output."""
    return pexpect.spawn(
        sys.executable, [str(HERE / "toy_fracas.py"), *args],
        cwd=str(ROOT), encoding="utf-8", timeout=timeout, dimensions=(40, width),
        env={"PATH": "/usr/bin:/bin", "TERM": "xterm", "HOME": str(ROOT),
             "PROMPT_TOOLKIT_NO_CPR": "1"},
    )
