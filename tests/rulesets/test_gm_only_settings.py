"""``gm_only_settings`` in every ruleset: a setting listed there never reaches a player, and a
setting the ruleset shows every player (a VERS map, Fabula Ultima's sides) cannot be listed —
it is refused at set-up, never silently shown (docs/scenarios.md, "[settings]")."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import InvalidInput
from fracas.rulesets import get_ruleset

SCENARIOS = {"etherscope": "etherscope-car-chase", "fabula-ultima": "fabula-ultima-ambush",
             "vers": "vers-tavern-brawl"}
ALICE = Viewer.of_player("alice")  # a player in each of those scenarios


def _with_settings(ruleset: str, lines: str) -> str:
    text = resources.files("fracas.scenarios").joinpath(
        SCENARIOS[ruleset] + ".toml").read_text(encoding="utf-8")
    assert "[settings]\n" in text
    return text.replace("[settings]\n", f"[settings]\n{lines}\n", 1)


@pytest.mark.parametrize("ruleset, key", [
    (r, k) for r in SCENARIOS for k in sorted(get_ruleset(r).shown_settings)])
def test_a_setting_every_player_is_shown_cannot_be_made_gm_only(ruleset: str, key: str) -> None:
    text = _with_settings(ruleset, f'gm_only_settings = ["{key}"]')
    with pytest.raises(InvalidInput, match=f"{key} cannot be hidden: .* shows it to every "
                                           "player"):
        play_script(parse_scenario(text, "f.toml"), "s")


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_gm_only_settings_is_a_list_of_names(ruleset: str) -> None:
    text = _with_settings(ruleset, 'gm_only_settings = "twist"')
    with pytest.raises(InvalidInput, match="must be a list of setting names"):
        play_script(parse_scenario(text, "f.toml"), "s")


@pytest.mark.parametrize("ruleset", ["fabula-ultima", "vers"])
def test_a_gm_only_setting_of_your_own_reaches_no_player(ruleset: str) -> None:
    text = _with_settings(ruleset, 'twist = "Zqx the cargo is a bomb"\n'
                                   'gm_only_settings = ["twist"]')
    c = play_script(parse_scenario(text, "f.toml"), "s")
    assert "Zqx" not in json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE))
    assert "Zqx" in json.dumps(view(c, Viewer.gm()))  # the GM's, and the check can fail
