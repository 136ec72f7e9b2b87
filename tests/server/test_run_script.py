"""The README's first command, ``bash scripts/run.sh``, run as written: it prints the GM's link
of an example table and serves it; run again (on another port) it opens the same table, and
another example or store makes another table."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.support import ROOT, free_port

PREFIX = "The GM's link (keep it secret; open it in your browser): "


def run_script(db: str, port: int, example: str | None = None) -> tuple[str, list[dict[str, str]]]:
    """Start ``scripts/run.sh``; the link it printed and the conflicts that link opens."""
    env = {**os.environ, "FRACAS_PORT": str(port), "FRACAS_DB": db,
           "FRACAS_LOG_LEVEL": "warning"}
    if example:
        env["FRACAS_EXAMPLE"] = example
    proc = subprocess.Popen(["bash", "scripts/run.sh"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        said = []  # what set-up printed first, if it had anything to do
        while not (line := proc.stdout.readline()).startswith(PREFIX):
            assert line, "".join(said)
            said.append(line)
        link = line[len(PREFIX):].strip()
        secret = link.split("#", 1)[1]
        auth = {"Authorization": f"Bearer {secret}"}
        deadline = time.monotonic() + 60
        while True:
            try:
                me = httpx.get(f"http://127.0.0.1:{port}/api/me", headers=auth, timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)
        assert me.json()["role"] == "gm", me.text
        conflicts = httpx.get(f"http://127.0.0.1:{port}/api/tables/{me.json()['table']}"
                              "/conflicts", headers=auth).json()
        return link, conflicts
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def link_file(db: str, example: str) -> Path:
    """Where ``run.sh`` keeps the GM's link of the example table of that store."""
    key = subprocess.run(["bash", "-c", f"printf '%s|%s' '{db}' '{example}' | cksum"],
                         capture_output=True, text=True, check=True).stdout.split()[0]
    return Path(ROOT, ".venv", f"table-gm-link-{key}")


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[str]:
    db = f"sqlite:///{tmp_path / 'table.db'}"
    yield db
    for example in ("etherscope-car-chase", "vers-tavern-brawl"):
        link_file(db, example).unlink(missing_ok=True)


def test_run_sh_serves_an_example_table_and_finds_it_again_on_another_port(store: str) -> None:
    first_port, second_port = free_port(), free_port()
    link, conflicts = run_script(store, first_port)
    assert link.startswith(f"http://127.0.0.1:{first_port}/join#")
    assert [c["ruleset"] for c in conflicts] == ["etherscope"]
    again, same = run_script(store, second_port)
    assert again == link.replace(str(first_port), str(second_port), 1)
    assert same == conflicts, "the same table, not a second one"
    other, theirs = run_script(store, second_port, "vers-tavern-brawl")
    assert other != again and [c["ruleset"] for c in theirs] == ["vers"]
    kept = link_file(store, "etherscope-car-chase")
    assert kept.stat().st_mode & 0o077 == 0, "only its owner reads the GM's link"
    assert kept.read_text().startswith("/join#"), "kept without its address"
