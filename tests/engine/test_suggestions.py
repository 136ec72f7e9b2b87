"""A typo gets "did you mean" — verbs, stat paths, zones, and participant ids for the GM
only: a player never gets a suggestion that could name a character hidden from them."""

from __future__ import annotations

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import from_the_start, play_script
from fracas.engine.model import Viewer
from fracas.errors import FracasError
from tests.support.helpers import toy_conflict


def _message(c: object, line: str, author: Viewer | None = None) -> str:
    with pytest.raises(FracasError) as refused:
        c.execute(line, author)  # type: ignore[attr-defined]
    return str(refused.value)


def test_a_mistyped_verb_gets_the_closest_one_not_a_list() -> None:
    c = toy_conflict()
    said = _message(c, "hitt bruno")
    assert "did you mean 'hit'?" in said and "narrate" not in said
    assert "did you mean" not in _message(c, "xyzzy")


def test_a_mistyped_stat_path_gets_the_closest_one() -> None:
    c = toy_conflict()
    assert "did you mean 'hp'?" in _message(c, "override ada.stats.hpp 3")
    assert "did you mean 'ada'?" in _message(c, "override adaa.stats.hp 3")


@pytest.mark.rule("VR-MOVE-1")
def test_a_mistyped_zone_gets_the_closest_one() -> None:
    c = play_script(load_scenario("vers-tavern-brawl"), "s")
    c.execute("open ada")
    assert "did you mean 'stairs'?" in _message(c, "ada: move stiars")


def test_participant_ids_are_suggested_to_the_gm_only() -> None:
    c = toy_conflict()
    assert "did you mean 'gob'?" in _message(c, "leave gobb")
    said = _message(c, "gobb: note hi", Viewer.of_player("alice"))
    assert "did you mean" not in said and "gob'" not in said


def test_a_characters_command_is_never_taken_for_one_of_the_gms() -> None:
    # VERS has no `done` (a go ends with a hand-off); before, Alice's 'ada: done' was
    # answered "did you mean 'zone'?", a GM's map command she cannot give
    c = play_script(load_scenario("vers-tavern-brawl"), "s")
    c.execute("open ada")
    said = _message(c, "ada: done", Viewer.of_player("alice"))
    assert "unknown command 'done'" in said and "zone" not in said
    assert "did you mean 'zone'?" in _message(c, "zon bar")  # the GM's own typo still is
    assert "did you mean 'attack'?" in _message(c, "ada: atack thug")


def test_a_participants_name_typed_for_its_id_gets_the_id_for_the_gm_only() -> None:
    # the state shows "Cutthroat 1"; commands take its id, cut1 (too far from
    # 'cutthroat1' to be suggested by the ids alone)
    c = play_script(from_the_start(load_scenario("fabula-ultima-ambush")), "s")
    assert "did you mean 'cut1' (Cutthroat 1)?" in _message(c, "leave cutthroat1")
    said = _message(c, "cutthroat1: note hi", Viewer.of_player("alice"))
    assert "did you mean" not in said and "cut1" not in said
