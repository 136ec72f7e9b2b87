"""Secrets stay secret in Etherscope: GM-only stats, settings and hidden characters never
reach a player's view or log, not even through a pool size or a zoom."""

from __future__ import annotations

import json

import pytest

from fracas.cli.render import log_lines
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view

from .helpers import make, pc, started

ALICE = Viewer.of_player("alice")


def _seen(c, viewer=ALICE) -> str:  # type: ignore[no-untyped-def]
    lines = [line for _, _, _, ls in log_lines(c, viewer) for line in ls]
    return json.dumps(log_view(c, viewer)) + json.dumps(view(c, viewer)) + json.dumps(lines)


def _secret_carl(settings: dict | None = None):  # type: ignore[no-untyped-def,type-arg]
    carl = {**pc("carl", awareness=7, physical=13, skills={"shoot": 9}),
            "gm_only": ["awareness", "skills", "physical"]}
    c = make({"time_scale": "tactical", **(settings or {})},
             [pc("ada", "alice"), pc("bruno", "bob"), carl],
             ["ada: awareness", "bruno: awareness", "carl: awareness", "moves"])
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    c.execute("round")
    c.execute("ada: declare 10")
    c.execute("bruno: declare 10")
    c.execute("countdown")
    while c.state.ext.countdown.current is not None:
        who = c.state.ext.countdown.current.actor
        c.execute("carl: attack ada skill=shoot" if who == "carl" else f"{who}: done")
    c.execute("damage carl 2")
    return c


def test_a_pool_never_gives_away_a_gm_only_skill_or_awareness_rating() -> None:
    c = _secret_carl()
    text = _seen(c)
    assert "7d6" not in text and "9d6" not in text
    for entry in log_view(c, ALICE):
        for e in entry["events"]:
            if e["data"].get("participant") == "carl" or e["data"].get("actor") == "carl":
                assert "pool" not in e["data"] and "roll" not in e["data"], e
    gm = json.dumps(log_view(c, Viewer.gm()))
    assert "7d6" in gm and "9d6" in gm
    # a player's own rolls keep their dice
    assert "2d6>=5" in text


def test_a_gm_only_condenser_shows_in_no_base_initiative_or_damage_left() -> None:
    c = _secret_carl()
    for entry in log_view(c, ALICE):
        for e in entry["events"]:
            d = e["data"]
            if isinstance(d.get("base"), dict):
                assert "carl" not in d["base"], e
            if d.get("participant") == "carl":
                assert "base" not in d and "left" not in d, e
                assert "default" not in d, e  # acting once "at base" would tell it
    lines = [line for _, _, _, ls in log_lines(c, ALICE) for line in ls]
    assert not [line for line in lines if "Carl" in line and "base" in line], lines
    gm = log_view(c, Viewer.gm())
    assert any(e["data"].get("base", {}).get("carl") == 13 for r in gm for e in r["events"])


def test_gm_only_threshold_and_die_size_show_in_no_roll() -> None:
    c = _secret_carl({"threshold": 4, "die_size": 8,
                      "gm_only_settings": ["threshold", "die_size"]})
    text = _seen(c)
    assert "d8" not in text and ">=4" not in text
    assert "d8>=4" in json.dumps(log_view(c, Viewer.gm()))


@pytest.mark.rule("ES-RNG-6")
def test_a_lurking_character_stays_out_of_the_set_up_while_a_zoom_is_open() -> None:
    c = make({"time_scale": "tactical", "lurking": {"dora": ["ada"]}},
             [pc("ada", "alice"), pc("bruno", "bob"), pc("dora")],
             ["ada: awareness", "bruno: awareness", "dora: awareness", "moves"])
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    c.execute("round")
    for who in ("ada", "bruno", "dora"):
        c.execute(f"{who}: declare 10")
    c.execute("countdown")
    while c.state.ext.countdown.current.actor != "ada":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    assert "dora" not in _seen(c).lower()
    c.execute("ada: zoom bruno reason='a word aside'")
    assert c.state.zoom is not None
    assert "dora" not in _seen(c).lower()
    assert "dora" in json.dumps(log_view(c, Viewer.gm()))


def test_a_gm_only_scaling_shows_in_no_table_line_and_the_log_still_reads() -> None:
    c = make({"range_scaling": "chase", "gm_only_settings": ["range_scaling"]})
    text = _seen(c)  # the player's log lines are written without the secret setting
    assert "chase" not in text and "alongside" not in text
    assert "chase" in json.dumps(view(c, Viewer.gm()))


@pytest.mark.rule("ES-ROUND-5", "ES-START-1")
def test_a_roll_off_of_an_awareness_roll_made_with_a_gm_only_skill_shows_no_pool() -> None:
    ada = {**pc("ada", "alice", awareness=1, perception=4), "gm_only": ["perception"]}
    c = make(people=[ada, pc("bruno", "bob", awareness=1)])
    c.execute("ada: awareness skill=perception dice=6,6,1,1")  # 4 dice: her hidden rating
    c.execute("bruno: awareness pool=2 dice=6,6")
    c.execute("moves")  # tied at 2: the roll-off rolls her 4 dice again
    assert "4d6" in _seen(c, Viewer.gm())
    for player in ("alice", "bob"):
        assert "4d6" not in _seen(c, Viewer.of_player(player)), player


@pytest.mark.rule("ES-ROUND-5", "ES-RNG-6")
@pytest.mark.parametrize("seed", ["t", "u", "v", "w"])
def test_a_tie_partner_hidden_from_the_players_changes_no_one_elses_roll_off_dice(
    seed: str,
) -> None:
    """Carl, concealed from everyone, ties with Ada and Bruno for the awareness moves. The
    players read the same roll-offs (every one of them, to the last re-roll) as at a table
    without Carl, where the GM wrote a GM-only note in the stead of each of his commands:
    his dice, rolled between Ada's and Bruno's, shift neither's (and where he moves first,
    the GM ends his move at once)."""
    note = "note 'in the stead of Carl' visibility=gm"
    rolled = ["ada: awareness successes=1", "bruno: awareness successes=1"]
    plain = make(people=[pc("ada", "alice"), pc("bruno", "bob")],
                 script=[note, note, *rolled, "moves"], seed=seed)
    twin = make(people=[pc("ada", "alice"), pc("carl"), pc("bruno", "bob")],
                script=["conceal carl", "carl: awareness successes=1", *rolled, "moves"],
                seed=seed)
    assert "carl" in twin.state.ext.move_order
    if twin.state.ext.move_order[twin.state.ext.mover] == "carl":  # he moves first: the GM
        twin.execute("carl: done", time="")  # plays him at once
        plain.execute(note, time="")
    for viewer in (ALICE, Viewer.of_player("bob"), Viewer.public()):
        lines = [[line for _, _, _, ls in log_lines(c, viewer)[2:] for line in ls]
                 for c in (plain, twin)]
        assert lines[0] == lines[1], viewer
        assert any("roll-off" in line for line in lines[0])


@pytest.mark.rule("ES-START-1")
def test_who_still_rolls_awareness_names_no_one_hidden_from_the_viewer() -> None:
    c = make(script=["conceal carl"])
    lists = {who: view(c, viewer)["conflict"]["ruleset"]["to_roll"]
             for who, viewer in (("gm", Viewer.gm()), ("alice", Viewer.of_player("alice")))}
    assert lists == {"gm": ["ada", "bruno", "carl"], "alice": ["ada", "bruno"]}
    c.execute("ada: awareness successes=1", time="")
    assert view(c, Viewer.of_player("alice"))["conflict"]["ruleset"]["to_roll"] == ["bruno"]


@pytest.mark.rule("ES-ACT-4")
@pytest.mark.parametrize("secret", ["the pool stat", "the default_pool setting"])
def test_a_players_pending_odds_leave_out_a_default_pool_that_is_the_gms(secret: str) -> None:
    """On Ada's slot her player's odds box shows the pool of each skill she has, and the line
    of her default pool (any other skill) only where its size is hers to know: not where her
    ``pool`` stat or the conflict's ``default_pool`` is GM-only (its dice would tell it). The
    GM reads both lines."""
    if secret == "the pool stat":
        ada = {**pc("ada", "alice", pool=3, skills={"shoot": 4}), "gm_only": ["pool"]}
        settings: dict[str, object] = {}
    else:
        ada = pc("ada", "alice", skills={"shoot": 4})
        settings = {"default_pool": 3, "gm_only_settings": ["default_pool"]}
    c = started(settings, [ada, pc("bruno", "bob"), pc("carl")])
    c.execute("ada: declare 10")
    c.execute("countdown")
    shoot = "Ada rolls 4d6 with shoot (5+ a success): ≥1 80%, ≥2 41%, ≥3 11%"
    other = "Ada rolls 3d6 otherwise (5+ a success): ≥1 70%, ≥2 26%, ≥3 4%"
    assert view(c, Viewer.gm())["conflict"]["odds"] == [shoot, other]
    assert view(c, ALICE)["conflict"]["odds"] == [shoot]
    assert "3d6" not in _seen(c)
