"""Once the GM ends a conflict, its state says so and no longer claims whose turn it is."""

from __future__ import annotations

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.engine import Viewer
from fracas.engine.views import view

PENDING = ("acting", "declaring", "may act", "still to", "awareness move:", "not gone")


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_an_ended_conflict_shows_no_pending_turn(name: str) -> None:
    conflict = play_script(load_scenario(name), "end")
    if conflict.state.status != "ended":
        conflict.execute("end 'goal achieved: the scene is over' outcome='the heroes win'")
    level = view(conflict, Viewer.gm())["conflict"]
    assert level["status"] == "ended"
    lines = [line.lower() for line in level["ruleset"].get("lines", [])]
    assert not [line for line in lines if any(p in line for p in PENDING)], lines
    assert level["odds"] == []



@pytest.mark.parametrize("player, pid, before", [
    ("alice", "ada", ()), ("bob", "bruno", ("ada: handoff bruno",))])
def test_a_player_is_offered_nothing_to_play_once_the_conflict_ends_mid_go(
        player: str, pid: str, before: tuple[str, ...]) -> None:
    """The GM ends the brawl while the player's character is acting (Ada beside the Thug,
    Bruno with his crossbow on the stairs): the player is offered what the GM is offered for
    that character — a note, a narration, a roll — as for a conflict ended between goes.
    Before, a VERS player's offer was rebuilt from the acting character's attacks after the
    end: Alice was offered 'attack thug', Bob 'attack mira', both refused as ended."""
    from fracas.engine.projector import offered

    conflict = play_script(load_scenario("vers-tavern-brawl"), "end")
    for line in ("open ada", *before, "end 'the watch arrives'"):
        conflict.execute(line)
    mine = [lc.text() for lc in offered(conflict, Viewer.of_player(player), pid)]
    assert mine == [lc.text() for lc in conflict.legal(pid)]
    assert [t.split()[1] for t in mine] == ["note", "narrate", "roll"]
