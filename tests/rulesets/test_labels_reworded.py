"""Secrets by structure, not by wording (issue 10 item 2): in Etherscope and Fabula Ultima,
every label a scenario gives — participant names, gear names, the texts of commands — is
reworded with a random prefix, every NPC's stats made GM-only, and no player view changes
in what it reveals: with the prefix taken out again, each player's state, log and sentences
are exactly those of the unworded conflict."""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.setup import Setup
from fracas.engine.views import log_view, view
from fracas.rulesets import get_ruleset

NAMES = sorted(n for n in bundled_scenarios() if n.startswith(("etherscope", "fabula")))
_QUOTED = re.compile(r"""(["'])(.+?)\1""")


def _reword_text(line: str, prefix: str) -> str:
    """``line`` with every quoted text prefixed (quoted JSON left as it is)."""
    return _QUOTED.sub(lambda m: m[0] if m[2][0] in "{[" else f"{m[1]}{prefix}{m[2]}{m[1]}",
                       line)


def _secret_npcs(setup: dict[str, Any]) -> dict[str, Any]:
    for p in setup["participants"]:
        if p.get("kind") != "pc":
            p["gm_only"] = sorted(p["stats"])
    return setup


def _reworded(setup: dict[str, Any], prefix: str) -> dict[str, Any]:
    for p in setup["participants"]:
        p["name"] = prefix + p["name"]
        for item in p["stats"].get("equipment", []):
            item["name"] = prefix + item["name"]
    return setup


def _play(name: str, prefix: str) -> Conflict:
    sc = load_scenario(name)
    setup = _secret_npcs(sc.setup.model_dump(mode="json"))
    if prefix:
        setup = _reworded(setup, prefix)
    conflict = Conflict.create(get_ruleset(sc.setup.ruleset), Setup.model_validate(setup),
                               "labels", time="")
    for line in sc.script:
        conflict.execute(_reword_text(line.text, prefix) if prefix else line.text, time="")
    return conflict


def _seen(c: Conflict, viewer: Viewer) -> str:
    lines = [line for _, _, _, ls in log_lines(c, viewer) for line in ls]
    return json.dumps([view(c, viewer), log_view(c, viewer), lines], ensure_ascii=False)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=2)
@given(prefix=st.text(string.ascii_letters, min_size=3, max_size=8))
def test_rewording_every_label_changes_nothing_a_player_learns(name: str, prefix: str) -> None:
    prefix = f"Zq{prefix}·"  # never a part of any other text
    plain, reworded = _play(name, ""), _play(name, prefix)
    players = sorted({p.owner for p in plain.state.participants.values() if p.owner})
    assert players
    for viewer in [Viewer.public(), *map(Viewer.of_player, players)]:
        seen = _seen(reworded, viewer)
        assert seen.replace(prefix, "") == _seen(plain, viewer)
    gm = _seen(reworded, Viewer.gm())
    assert prefix in gm  # the labels were reworded indeed
