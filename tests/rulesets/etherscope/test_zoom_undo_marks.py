"""An undo or redo in the log carries the zoom mark ("»") of the entries it takes back or
brings back (ES-ACT-1), not that of the level it was typed at: an undo typed inside a zoom
that takes back the zoom itself read "» undo" beside a plain "ada: zoom …", and the undo of
"» end …" typed back in the parent read a plain "undo"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.engine.model import Viewer
from fracas.engine.views import log_view

from .helpers import make, pc

SCENARIO = '''ruleset = "etherscope"
title = "The roof of the truck"
script = """
ada: awareness successes=2
henchman: awareness successes=1
moves
ada: done
round
countdown
ada: zoom henchman reason=roof
round
undo
undo
redo
round
end early
undo
undo 2
"""

[settings]
nature = "physical"
time_scale = "quick"
range_scaling = "chase"

[[participants]]
id = "ada"
name = "Ada"
player = "alice"
stats = { physical = 13, ether = 8, society = 6, awareness = 3 }

[[participants]]
id = "henchman"
name = "The henchman"
stats = { physical = 10, ether = 5, society = 4, awareness = 3 }
'''

#: The log's heads from the zoom on, as ``fracas run`` prints them (GM: versions).
GM_HEADS = [
    "v8    ada: zoom henchman reason=roof (undone)",
    "v9    » round (undone)",
    "v10   » undo",  # takes back "» round"
    "v11   undo",  # takes back the zoom: play is back in the parent
    "v12   redo",  # brings the zoom back
    "v13   » round (undone)",
    "v14   » end early (undone)",
    "v15   » undo",  # takes back "» end early": play is back in the zoom
    "v16   undo 2",  # takes back "» round" and the zoom
]


def _heads(tmp_path: Path, *viewer: str) -> list[str]:
    path = tmp_path / "roof.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(path), "--seed", "marks", *viewer],
                                env={"COLUMNS": "10000"})
    assert result.exit_code == 0, result.output
    heads = [line for line in result.output.splitlines() if re.match(r"[v#]\d+ ", line)]
    return heads[heads.index(next(h for h in heads if "zoom henchman" in h)):]


@pytest.mark.rule("ES-ACT-1")
def test_an_undo_or_redo_carries_the_zoom_mark_of_what_it_takes_back(tmp_path: Path) -> None:
    assert _heads(tmp_path) == GM_HEADS


@pytest.mark.rule("ES-ACT-1")
def test_a_players_log_marks_them_as_the_entries_they_saw(tmp_path: Path) -> None:
    said = [h.split(maxsplit=1)[1] for h in GM_HEADS]
    said[-1] = "undo"  # a player's log names an undo without its count
    assert [h.split(maxsplit=1)[1] for h in _heads(tmp_path, "--as", "alice")] == said


@pytest.mark.rule("ES-ACT-1")
def test_the_pages_log_reads_the_same_depth_for_an_undo() -> None:
    """The browser's log sets an entry in by its ``depth`` (the terminal's "»")."""
    c = make(people=[pc("ada", "alice"), pc("bruno", "bob")], script=[
        "ada: awareness successes=2", "bruno: awareness successes=1", "moves", "ada: done",
        "round", "countdown", "ada: zoom bruno reason=roof", "round", "undo", "undo"])
    for viewer in (Viewer.gm(), Viewer.of_player("alice"), Viewer.of_player("bob")):
        assert [(e["command"], e["depth"]) for e in log_view(c, viewer)[-4:]] == [
            ("ada: zoom bruno reason=roof", 0), ("round", 1), ("undo", 1), ("undo", 0)]
