"""Timed effects expire exactly at their boundary; nested conflicts run their rounds and return."""

from __future__ import annotations

import itertools
import json

import pytest

from fracas.engine import Conflict
from fracas.errors import IllegalCommand, InvalidInput
from tests.support.helpers import toy_conflict


def play(c: Conflict, *lines: str) -> None:
    for line in lines:
        c.execute(line, time="")


def effect_ids(c: Conflict) -> list[str]:
    return [e.id for e in c.state.innermost.effects]


def effect_texts(c: Conflict) -> list[str]:
    return [e.text for e in c.state.innermost.effects]


def finish_round(c: Conflict, first: str = "ada") -> None:
    """Everyone goes in the order first → the rest, then the round ends."""
    order = [first] + [p for p in ("ada", "bruno", "gob") if p != first]
    for who, nxt in itertools.pairwise(order):
        c.execute(f"{who}: done {nxt}")
    c.execute(f"{order[-1]}: done")


def test_an_effect_until_the_end_of_the_round_lasts_the_whole_round() -> None:
    c = toy_conflict()
    play(c, "start ada", "effect 'smoke fills the room'")
    play(c, "ada: done bruno", "bruno: done gob")
    assert effect_texts(c) == ['smoke fills the room']
    c.execute("gob: done")
    assert effect_texts(c) == []
    expired = c.records[-1].events[-1]
    assert expired.type == "effect_expired" and expired.data["text"] == "smoke fills the room"


def test_an_effect_for_two_rounds_survives_the_first_round_end() -> None:
    c = toy_conflict()
    play(c, "start ada", "effect 'bless' count=2")
    finish_round(c)
    assert effect_texts(c) == ['bless']
    c.execute("start bruno")
    finish_round(c, "bruno")
    assert effect_texts(c) == []


def test_an_effect_until_the_start_of_adas_turn_skips_the_turn_she_is_in() -> None:
    c = toy_conflict()
    play(c, "start ada", "effect 'shield up' until=turn_start who=ada")
    play(c, "ada: done bruno", "bruno: done gob", "gob: done")
    assert effect_texts(c) == ['shield up'], "still up across the round boundary"
    c.execute("start bruno")
    assert effect_texts(c) == ['shield up']
    c.execute("bruno: done ada")
    assert effect_texts(c) == [], "gone as Ada's next turn starts"


def test_an_effect_until_the_end_of_a_turn_ends_with_that_turn() -> None:
    c = toy_conflict()
    play(c, "start ada", "effect 'parry' until=turn_end who=gob")
    c.execute("ada: done gob")
    assert effect_texts(c) == ['parry']
    c.execute("gob: done bruno")
    assert effect_texts(c) == []


def test_undoing_an_expiry_brings_the_effect_back() -> None:
    c = toy_conflict()
    play(c, "start ada", "effect 'smoke'", "ada: done bruno", "bruno: done gob", "gob: done")
    assert effect_texts(c) == []
    c.execute("undo")
    assert effect_texts(c) == ['smoke']


def test_effects_are_checked_before_they_are_added() -> None:
    c = toy_conflict()
    with pytest.raises(InvalidInput, match="needs who="):
        c.execute("effect 'x' until=turn_start")
    with pytest.raises(InvalidInput, match="at least 1"):
        c.execute("effect 'x' count=0")
    with pytest.raises(InvalidInput, match="no timed effect"):
        c.execute("expire e9")
    c.execute("effect 'x'")
    c.execute(f"expire {effect_ids(c)[0]}")
    assert effect_ids(c) == []


def test_a_nested_conflict_runs_its_round_limit_and_carries_harm_back() -> None:
    c = toy_conflict()
    play(c, "start ada", "zoom ada,gob rounds=1")
    assert c.state.innermost.depth == 1
    assert set(c.state.innermost.participants) == {"ada", "gob"}
    play(c, "start gob", "gob: hit ada dice=4", "gob: done ada")
    c.execute("ada: done")
    assert c.state.zoom is None, "closed after its one round"
    assert c.records[-1].events[-1].data["reason"] == "1 round played"  # was "1 rounds"
    assert c.state.ext.hp["ada"].current == 2
    c.execute("ada: hit gob dice=1")  # back in the parent, Ada's turn goes on
    assert c.state.ext.hp["gob"].current == 5


def test_nested_conflicts_nest_and_the_gm_may_end_one_early() -> None:
    c = toy_conflict()
    play(c, "start ada", "zoom ada,bruno,gob", "zoom ada,gob")
    assert [s.depth for s in c.state.chain()] == [0, 1, 2]
    c.execute("end 'the scuffle is over'")
    assert [s.depth for s in c.state.chain()] == [0, 1]
    c.execute("end 'back to the big picture'")
    assert c.state.zoom is None and c.state.status == "running"
    with pytest.raises(IllegalCommand, match="at least two"):
        c.execute("zoom ada")


def test_a_conflict_with_a_round_limit_ends_when_the_last_round_ends() -> None:
    from fracas.engine import Conflict
    from tests.support.helpers import TOY, toy_setup

    c = Conflict.create(TOY, toy_setup(round_limit=2), "seed", time="")
    c.execute("start ada")
    finish_round(c)
    assert c.state.status == "running"
    c.execute("start gob")
    finish_round(c, "gob")
    assert c.state.status == "ended" and c.state.end_reason == "2 rounds played"


def test_effects_of_a_zoomed_in_conflict_end_with_it() -> None:
    c = toy_conflict()
    play(c, "start ada", "zoom ada,gob rounds=1", "start gob",
         "effect 'dust in the eyes' until=turn_start who=gob count=3")
    play(c, "gob: done ada")
    c.execute("ada: done")  # the one round ends: the zoom closes, and its effect with it
    types = [e.type for e in c.records[-1].events]
    assert types[-2:] == ["effect_expired", "zoom_closed"]
    assert c.records[-1].events[-2].data["reason"] == "the zoomed-in conflict ended"
    assert c.state.zoom is None and c.state.effects == []


def test_a_one_round_limit_says_one_round_in_the_singular() -> None:
    from fracas.engine.model import Viewer
    from fracas.engine.views import log_view
    from tests.support.helpers import TOY, toy_setup

    c = Conflict.create(TOY, toy_setup(round_limit=1), "seed", time="")
    c.execute("start ada")
    finish_round(c)
    assert c.state.status == "ended" and c.state.end_reason == "1 round played"  # was "1 rounds"
    said = json.dumps(log_view(c, Viewer.public())[-1], ensure_ascii=False)
    assert "1 round played" in said and "1 rounds" not in said


def lasting(c: Conflict) -> dict[str, str]:
    """Each effect's text → how long it lasts, as the GM's view says it."""
    from fracas.engine.model import Viewer
    from fracas.engine.views import view
    return {e["text"]: e["lasts"] for e in view(c, Viewer.gm())["conflict"]["effects"]}


def test_the_view_says_how_long_each_effect_lasts_and_the_round_it_ends_stays_put() -> None:
    c = toy_conflict()
    play(c, "effect 'fog' count=2")  # before round 1: it ends with round 2
    assert lasting(c) == {"fog": "until the end of round 2"}
    play(c, "start ada", "effect 'shield up' until=turn_start who=ada",
         "effect 'guard' until=turn_end who=bruno count=2")
    assert lasting(c) == {"fog": "until the end of round 2",
                          "shield up": "until Ada's next turn starts",
                          "guard": "until Bruno's turn has ended 2 more times"}
    from fracas.engine.model import Viewer
    from fracas.engine.views import log_view
    added = log_view(c, Viewer.gm())[-1]["lines"][0]  # the log says it in the same words
    assert added.endswith(": guard (until Bruno's turn has ended 2 more times)")
    finish_round(c)
    c.execute("start bruno")
    assert lasting(c) == {"fog": "until the end of round 2",  # one round end left: round 2's
                          "shield up": "until Ada's next turn starts",
                          "guard": "until the end of Bruno's turn"}


def test_an_effect_added_inside_a_zoom_is_logged_with_the_zooms_round() -> None:
    """The log and the Effects panel agree: the zoom's round 1 ends it, not the parent's 2."""
    from fracas.engine.model import Viewer
    from fracas.engine.views import log_view
    c = toy_conflict()
    play(c, "start ada")
    finish_round(c)
    play(c, "start ada", "zoom ada,gob", "start gob", "effect 'dust in the eyes'")
    assert c.state.round == 2 and c.state.innermost.round == 1
    from fracas.engine.views import view
    zoom = view(c, Viewer.gm())["zoom"][0]
    assert [e["lasts"] for e in zoom["effects"]] == ["until the end of round 1"]
    for viewer in (Viewer.gm(), Viewer.public()):
        added = log_view(c, viewer)[-1]["lines"][0]
        assert added.endswith(": dust in the eyes (until the end of round 1)"), added
