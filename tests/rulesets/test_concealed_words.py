"""The GM's public words naming a concealed character reach no player (docs/scenarios.md,
``conceal``): each bundled example from its start, one of its NPCs concealed, then random
commands of every verb given by the GM, every text of them naming that NPC, by its name or
its id — a reason, a note, an effect, why someone is out, how the conflict ended. Whatever
is accepted, no player (nor the public) reads the name in a new entry of their log or
anywhere in their view but the title and the scene, which they read when the conflict was
set up."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import from_the_start, play_script
from fracas.engine import Conflict
from fracas.engine.commands import Command
from fracas.engine.model import Viewer
from fracas.engine.redaction import Knowledge
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from tests.rulesets.test_fuzz_commands import commands
from tests.rulesets.test_secret_properties import _legal, _players

EXAMPLES = int(os.environ.get("FUZZ_N", "8"))
MARK = "zqword"  # what each text says beside the name
#: Verbs that make the NPC known again (an undo of the conceal, a reveal, a search that
#: finds it, its Etherscope ambush that fails: its target sees it, ES-START-4): from then on
#: the players may read its name.
REVEALING = frozenset({"undo", "redo", "reveal", "conceal", "search", "ambush"})


@cache
def _start(name: str) -> tuple[str, Conflict] | None:
    """(the concealed NPC, the conflict) of the example from its start with its first NPC
    concealed; None for an example without one. Copy the conflict before playing on."""
    c = play_script(from_the_start(load_scenario(name)), "words")
    npcs = [p.id for p in c.state.participants.values() if p.owner is None and p.active]
    if not npcs:
        return None
    c.execute(f"conceal {npcs[0]}", time="")
    return npcs[0], c


#: Texts that are names, left as drawn: a new character may bear any name, and a place on
#: the map (a VERS zone or object) is a label every viewer reads as written.
NAMES = frozenset({("join", "name"), ("zone", "name"), ("object", "name")})


def _naming(cmd: Command, c: Conflict, said: str) -> Command:
    """``cmd`` with each of its texts but a name (:data:`NAMES`) saying ``said``."""
    spec = c.commands.specs[cmd.verb]
    args = dict(cmd.args)
    for p in spec.params:
        if p.kind == "text" and (cmd.verb, p.name) not in NAMES:
            args[p.name] = said
    return Command(cmd.verb, cmd.actor, args)


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_gms_words_naming_a_concealed_character_reach_no_player(
        name: str, data: st.DataObject) -> None:
    start = _start(name)
    if start is None:
        return
    x, played = start
    c = Conflict(played.ruleset, played.seed, played.records)
    hidden = c.state.participants[x].name
    said = f"{data.draw(st.sampled_from([hidden, x]))} {MARK}"  # by its name or its id
    viewers = [Viewer.public(), *map(Viewer.of_player, _players(c))]
    seen = {v: len(log_view(c, v)) for v in viewers}
    for _ in range(data.draw(st.integers(1, 8))):
        legal = _legal(c)
        with contextlib.suppress(FracasError):  # refused: nothing changed, on to the next
            drawn = c.commands.parse(data.draw(st.sampled_from(legal))) \
                if legal and data.draw(st.booleans()) else data.draw(commands(c))
            cmd = _naming(drawn, c, said)
            if cmd.verb not in REVEALING:
                c.execute(cmd, time="")
    for viewer, before in seen.items():
        assert not Knowledge(c.ruleset, c.state, viewer).knows(x), (viewer, x)
        shown = view(c, viewer)
        levels = [{k: v for k, v in level.items() if k not in ("title", "scene")}
                  for level in [shown["conflict"], *shown["zoom"]]]
        given_ = json.dumps(log_view(c, viewer)[before:]) + json.dumps(levels)
        assert hidden not in given_ and MARK not in given_, (viewer, x)




@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_someone_joining_hidden_whom_a_sheet_already_names_changes_nothing_a_player_reads(
        name: str) -> None:
    """Each example set up with a note on every character's sheet naming Zqhawk, who is not
    in the conflict: the GM brings him in hidden, and no player's view or log changes (before,
    the notes left the sheets at his joining, which told of it)."""
    scenario = from_the_start(load_scenario(name))
    setup = scenario.setup.model_copy(deep=True)
    for p in setup.participants:
        p.stats["notes"] = "owes Zqhawk money"
    c = play_script(dataclasses.replace(scenario, setup=setup), "sheets")
    npc = next(p for p in c.state.participants.values() if p.owner is None)
    viewers = [Viewer.public(), *map(Viewer.of_player, _players(c))]
    before = {v: (view(c, v)["conflict"], view(c, v)["zoom"], log_view(c, v)) for v in viewers}
    c.execute(f"join zqhawk name=Zqhawk side={npc.side} 'stats={json.dumps(npc.stats)}' "
              "hidden=yes", time="")
    for v in viewers:
        assert "owes Zqhawk money" in json.dumps(before[v][0]), (name, v)
        assert (view(c, v)["conflict"], view(c, v)["zoom"], log_view(c, v)) == before[v], v
