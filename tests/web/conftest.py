"""Fixtures of the browser tests: Debian's Chromium and a real ``fracas serve``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.server.support import Served, running
from tests.web.browser import chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the module (each person gets their own context)."""
    with chromium() as b:
        yield b


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A fresh server process over a fresh SQLite file, for one test."""
    with running(f"sqlite:///{tmp_path / 'fracas.db'}", str(tmp_path / "server.log")) as s:
        yield s
