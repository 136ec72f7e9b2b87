"""The secret property test of issue 17 in Fabula Ultima: random play with the shapes that
leaked — an NPC with GM-only gear (a weapon and armor that change its Defense and
Initiative), GM-only affinities, attribute dice and HP — and every player command tried at
every turn state. No player output (views, log, sentences, refusals) holds the gear's names,
the affinity, or a Defense, Initiative or damage derived from them."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError

from .support import make, npc, pc

BLADE = {"kind": "weapon", "name": "Cursed Blade", "accuracy": "dex+mig", "damage": 5}
ARMOR = {"kind": "armor", "name": "Black Plate", "defense": 3, "init": -3}
SHAPES = st.sets(st.sampled_from(["equipment", "affinities", "dex", "hp"]))
COMMANDS = ["ada: attack knight", "ada: act waits", "ada: check dex+ins 10",
            "ada: spell Fire mp=5 target=knight damage=5 type=fire",
            "ada: check dex+ins 10 turn=no", "ada: fabula -1"]


def _conflict(hidden: set[str]) -> Conflict:
    knight = npc("knight", hp=60, equipment=[BLADE, ARMOR],
                 affinities={"fire": "vulnerable"})
    knight["name"] = "Black Knight"
    knight["gm_only"] = sorted(hidden)
    return make(pc("ada", hp=45), knight)


@pytest.mark.rule("FU-RES-3", "FU-CON-4", "FU-CON-6")
@given(hidden=SHAPES, picks=st.lists(st.integers(0, 10_000), min_size=3, max_size=15))
def test_no_player_output_holds_gm_only_gear_or_affinities(hidden: set[str],
                                                           picks: list[int]) -> None:
    c = _conflict(hidden)
    ada = Viewer.of_player("ada")
    refusals = []
    for pick in picks:
        for text in COMMANDS:  # every player command, decided, never appended
            try:
                c.prepare(text, ada, time="")
            except FracasError as exc:
                refusals.append(str(exc))
        options = [*COMMANDS, "ada: initiative", "knight: attack ada",
                   "knight: act waits", "damage knight 10 type=fire"]
        with contextlib.suppress(FracasError):
            c.execute(options[pick % len(options)], time="")
    lines = [line for _, _, _, ls in log_lines(c, ada) for line in ls]
    parts = {p["id"]: p for p in view(c, ada)["conflict"]["participants"]}
    events = [e for r in log_view(c, ada) for e in r["events"]]
    seen = json.dumps([parts, events, lines, refusals])
    if "equipment" in hidden:
        assert "Cursed Blade" not in seen and "Black Plate" not in seen
        assert "defense" not in parts["knight"] and "initiative" not in parts["knight"]
        assert "vs 11" not in seen and '"knight": 5' not in seen
    if "affinities" in hidden:
        assert "vulnerable" not in seen and "takes 20 fire" not in seen
    if "hp" in hidden:
        assert "hp" not in parts["knight"]
        assert not [e for e in events if e["type"] == "damage"
                    and e["data"]["target"] == "knight" and "hp_after" in e["data"]]
        assert not [line for line in lines
                    if line.startswith("Black Knight") and re.search(r"HP \d", line)]
