"""The ``[settings]`` of every ruleset (docs/scenarios.md, "[settings]"): a mistyped setting is
refused with the name it was meant to be, never run as if left out; ``gm_only_settings``: a
setting listed there never reaches a player, and a setting the ruleset shows every player (a
VERS map, Fabula Ultima's sides) cannot be listed — it is refused at set-up, never silently
shown."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.engine.model import Viewer
from fracas.engine.ruleset import ENGINE_SETTINGS
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


def _typo(key: str) -> str:
    """``key`` with its last letter doubled: a slip of the finger."""
    return key + key[-1]


@pytest.mark.parametrize("ruleset, key", [
    (r, k) for r in SCENARIOS for k in sorted(get_ruleset(r).settings_read | ENGINE_SETTINGS)])
def test_a_mistyped_setting_is_refused_with_the_name_it_was_meant_to_be(ruleset: str,
                                                                         key: str) -> None:
    text = _with_settings(ruleset, f"{_typo(key)} = 1")
    with pytest.raises(InvalidInput, match=f"settings.{_typo(key)} is not a setting of "
                                           f".*; did you mean '{key}'?") as refused:
        play_script(parse_scenario(text, "f.toml"), "s")
    line = text.splitlines().index(f"{_typo(key)} = 1") + 1
    assert str(refused.value).startswith(f"f.toml:{line}: ")  # the line of the typo


def test_etherscope_refuses_any_key_it_does_not_read_and_lists_those_it_does() -> None:
    text = _with_settings("etherscope", 'twist = "the cargo is a bomb"')
    with pytest.raises(InvalidInput, match=r"settings\.twist is not a setting of Etherscope; "
                                           r"known: actions, attack_damage, "):
        play_script(parse_scenario(text, "f.toml"), "s")


@pytest.mark.parametrize("ruleset", ["fabula-ultima", "vers"])
def test_a_key_of_your_own_unlike_any_setting_is_kept(ruleset: str) -> None:
    c = play_script(parse_scenario(_with_settings(ruleset, 'twist = "a bomb"'), "f.toml"), "s")
    c.execute("override settings.twist 'crates of tea'")
    assert c.state.settings["twist"] == "crates of tea"


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
