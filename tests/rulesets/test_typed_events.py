"""Etherscope's and Fabula Ultima's events are typed (issue 10 item 1): every event their
bundled scenarios log is an instance of a registered class — but the engine's own — and the
JSON and text forms read back to an equal event. The golden logs, written by the untyped
version, read back as typed events with the same text, so stored conflicts replay unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.conflict import Conflict, fold
from fracas.engine.events import Event, Record, TypedEvent
from fracas.engine.serialize import state_to_data
from fracas.rulesets import get_ruleset

NAMES = sorted(n for n in bundled_scenarios() if n.startswith(("etherscope", "fabula")))
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
#: The engine's events: generic, with the keys a ruleset adds.
ENGINE_TAGS = {"conflict_created", "conflict_started", "conflict_ended", "round_started",
               "round_ended", "turn_started", "turn_ended", "participant_joined",
               "participant_left", "participant_out", "zoom_opened", "zoom_closed"}
RULESET_PACKAGES = {"etherscope": "fracas.rulesets.etherscope",
                    "fabula-ultima": "fracas.rulesets.fabula_ultima"}


def _played(name: str) -> Conflict:
    sc = load_scenario(name)
    c = Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, "golden", time="")
    for line in sc.script:
        c.execute(line.text, time="")
    return c


@pytest.mark.parametrize("name", NAMES)
def test_every_event_is_typed_and_reads_back_equal(name: str) -> None:
    c = _played(name)
    package = RULESET_PACKAGES[c.ruleset.name]
    for record in c.records:
        for e in record.events:
            if e.type in ENGINE_TAGS:
                continue
            assert isinstance(e, TypedEvent) and type(e).__module__.startswith(package), e
            assert Event.from_data(e.to_data(), c.ruleset.events) == e
            assert Event.from_text(e.to_text(), c.ruleset.events) == e
    again = [Record.from_data(r.to_data(), c.ruleset.events) for r in c.records]
    assert state_to_data(fold(c.ruleset, again)) == state_to_data(c.state)


@pytest.mark.parametrize("name", NAMES)
def test_the_golden_log_written_untyped_reads_back_typed_with_the_same_text(name: str) -> None:
    lines: list[str] = []
    for line in (GOLDEN / f"{name}.log").read_text("utf-8").splitlines():
        if line.startswith("       "):
            lines.append(line.strip())
        elif not re.match(r"v\d+ ", line):  # a quoted text that goes on over lines
            lines[-1] += "\n" + line
    assert lines
    types = get_ruleset(load_scenario(name).setup.ruleset).events
    typed = 0
    for line in lines:
        event = Event.from_text(line, types)
        assert event.to_text() == line
        typed += isinstance(event, TypedEvent)
    assert typed > len(lines) // 3
