"""The secret property test of issue 17 in Etherscope: random legal play with the shapes that
leaked — a GM-only condenser, skills and awareness on an NPC that may never declare, GM-only
settings (the default difficulty, the dice), a lurker hidden from every player — and every
player command tried at every turn state. No player output (views, log, sentences,
refusals) holds the lurker or a GM-only value, or a number derived from one."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError

from .helpers import make, pc
from .test_properties import concrete

PLAYERS = {"alice": "ada", "bob": "bruno"}
#: Secret values no public number can equal in these conflicts (bases 10, pools 2-3, d6).
PHYSICAL, SHOOT, DIFFICULTY = 37, 9, 4
STAT_SHAPES = st.sets(st.sampled_from(["physical", "skills", "awareness"]))
SETTING_SHAPES = st.sets(st.sampled_from(["default_difficulty", "die_size", "threshold"]))


def _conflict(stats: set[str], settings: set[str]) -> Conflict:
    boris = {**pc("boris", physical=PHYSICAL, awareness=SHOOT, skills={"shoot": SHOOT}),
             "gm_only": sorted(stats)}
    lurker = {**pc("kim"), "name": "Kimberly Lurk"}
    return make({"time_scale": "tactical", "lurking": {"kim": ["ada", "bruno"]},
                 "default_difficulty": DIFFICULTY, "die_size": 8, "threshold": 7,
                 "gm_only_settings": sorted(settings)},
                [pc("ada", "alice"), pc("bruno", "bob"), boris, lurker])


def _player_commands(c: Conflict, me: str) -> list[str]:
    mine = [o for o in concrete(c.legal_commands(me)) if o.startswith(f"{me}: ")]
    return [*mine, f"{me}: done", f"{me}: attack boris successes=1", f"{me}: declare 3",
            f"{me}: step boris toward", f"{me}: awareness successes=1"]


@pytest.mark.rule("ES-RNG-6", "ES-ROUND-4", "ES-ROUND-2")
@given(stats=STAT_SHAPES, settings=SETTING_SHAPES,
       picks=st.lists(st.integers(0, 10_000), min_size=5, max_size=20))
def test_no_player_output_holds_a_secret_or_a_value_derived_from_one(
        stats: set[str], settings: set[str], picks: list[int]) -> None:
    c = _conflict(stats, settings)
    refusals: dict[str, list[str]] = {p: [] for p in PLAYERS}
    known: set[str] = set()  # players who once knew the lurker (a failed ambush reveals it)
    for pick in picks:
        for player, me in PLAYERS.items():  # every player command, decided, never appended
            if not c.state.innermost.ext.ranges.is_hidden("kim", me):
                known.add(player)
            for text in _player_commands(c, me):
                try:
                    c.prepare(text, Viewer.of_player(player), time="")
                except FracasError as exc:
                    if player not in known:
                        assert "Kimberly" not in str(exc), (text, str(exc))
                    refusals[player].append(str(exc))
        # Boris never declares: a declaration is announced at the table, and bounds the base
        options = [o for a in (None, "ada", "bruno", "boris", "kim")
                   for o in concrete(c.legal_commands(a))
                   if o not in ("undo", "redo") and not o.startswith("boris: declare")]
        if not options:
            break
        with contextlib.suppress(FracasError):  # a legal command may still be refused
            c.execute(options[pick % len(options)], time="")
    for player in PLAYERS:
        viewer = Viewer.of_player(player)
        lines = [line for _, _, _, ls in log_lines(c, viewer) for line in ls]
        events = [e for entry in log_view(c, viewer) for e in entry["events"]]
        shown = {k: v for k, v in view(c, viewer).items() if k != "cursor"}  # opaque hex
        seen = json.dumps([shown, events, lines, refusals[player]])
        if player not in known and c.state.ext.ranges.is_hidden("kim", PLAYERS[player]):
            assert "Kimberly" not in seen and '"kim"' not in seen
        if "physical" in stats:
            assert str(PHYSICAL) not in seen
        if "skills" in stats or "awareness" in stats:
            assert f"{SHOOT}d" not in seen
        if {"die_size", "threshold"} & settings:
            assert "d8" not in seen and ">=7" not in seen
        if "default_difficulty" in settings:
            assert f"difficulty {DIFFICULTY}" not in seen
