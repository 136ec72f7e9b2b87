"""``fracas serve --workers N``: a worker process never outlives the main process that
started it (killed on its own, ``kill -9``), whenever that happens."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from fracas.server.app import ENV_SUPERVISOR
from tests.server.support import ROOT, free_port

pytestmark = pytest.mark.timeout(90)


def test_a_worker_that_starts_after_its_main_process_is_gone_stops_at_once(
        tmp_path: Path) -> None:
    """A worker of ``fracas serve --workers 2`` (uvicorn's ``app_from_env``, as the main
    process starts it) whose main process was killed while it was still starting: its parent
    is no longer that process. It stops by itself, saying why, and frees the port. Before: it
    took itself for a process not started by `fracas serve` and went on serving, unseen,
    holding the port (a CI run caught one, the server could not be started again)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])  # the main process, now gone
    gone.wait(timeout=30)
    port = free_port()
    log = tmp_path / "worker.log"
    env = {**os.environ, ENV_SUPERVISOR: str(gone.pid),
           "FRACAS_DB": f"sqlite:///{tmp_path / 'fracas.db'}", "FRACAS_LOG_LEVEL": "warning"}
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "fracas.server.app:app_from_env",
             "--host", "127.0.0.1", "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env, start_new_session=True)
    try:
        worker.wait(timeout=60)
    except subprocess.TimeoutExpired:
        answered = _answers(f"http://127.0.0.1:{port}")
        pytest.fail(f"the worker went on {'serving' if answered else 'running'}: "
                    f"{log.read_text()}")
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, 9)
            worker.wait(timeout=20)
    said = log.read_text()
    assert f"the main process of `fracas serve` ({gone.pid}) is gone" in said, said


def _answers(url: str) -> bool:
    """Whether a server answers at ``url`` now."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            return httpx.get(url + "/api/scenarios", timeout=2).status_code == 200
        except httpx.TransportError:
            time.sleep(0.2)
    return False
