"""Popcorn turns: opener, hand-off, two actions, end of turn, joining and leaving."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.errors import IllegalCommand, NotYourTurn

from .helpers import do, make, npc, of, pc, refused, ruleset


def trio():
    return make(pc("ada", tn={"close_combat": 12}, weapons={"sword": {"ev": 4}}),
                pc("bruno"), npc("thug"))


@pytest.mark.rule("VR-TURN-1")
def test_gm_records_opener_and_tracker_shows_earlier_openers():
    c = trio()
    events = do(c, "open bruno")
    assert [e.type for e in events][:3] == ["conflict_started", "round_started", "turn_started"]
    do(c, "bruno: handoff ada", "ada: handoff thug", "thug: handoff", "open thug")
    lines = ruleset().view_ext(c.state, Viewer.gm())["lines"]
    assert lines[0] == "Turn 2 · opened by Thug · earlier openers: Bruno (turn 1)"
    assert c.state.ext.turns.openers == ["bruno", "thug"]


@pytest.mark.rule("VR-TURN-1")
def test_a_long_fight_shows_the_last_six_openers_with_their_turn_numbers():
    c = trio()
    order = ["ada", "bruno", "thug"]
    for turn in range(9):  # nine turns, each opened by the next of the three
        first, second, third = order[turn % 3:] + order[:turn % 3]
        do(c, f"open {first}", f"{first}: handoff {second}", f"{second}: handoff {third}",
           f"{third}: handoff")
    head = ruleset().view_ext(c.state, Viewer.gm())["lines"][0]
    assert head.endswith("opened by Ada (turn 4), Bruno (turn 5), Thug (turn 6), "
                         "Ada (turn 7), Bruno (turn 8), Thug (turn 9)")
    assert c.state.ext.turns.openers_before == 3  # the state keeps six: turns 1-3 are in the log
    do(c, "undo", "undo", "undo", "undo")  # turn 9 taken back: turn 3's opener is back too
    assert ruleset().view_ext(c.state, Viewer.gm())["lines"][0].endswith(
        "opens turn 9 · opened by Thug (turn 3), Ada (turn 4), Bruno (turn 5), Thug (turn 6), "
        "Ada (turn 7), Bruno (turn 8)")


@pytest.mark.rule("VR-TURN-1")
def test_opening_a_turn_under_way_is_refused():
    c = trio()
    do(c, "open ada")
    refused(c, "open bruno", "VR-TURN-1")


@pytest.mark.rule("VR-TURN-2")
def test_handoff_carries_a_line_of_speech_into_the_log():
    c = trio()
    events = do(c, "open ada", 'ada: handoff bruno say="Thorbjorn, give me a hand!"')
    started = of(events, "turn_started")[0]
    assert started["say"] == "Thorbjorn, give me a hand!"
    line = ruleset().describe(events[-1], c.state)
    assert line is not None and "Thorbjorn, give me a hand!" in line
    assert c.state.ext.turns.current == "bruno"


@pytest.mark.rule("VR-TURN-2")
def test_handoff_to_someone_who_already_went_is_refused():
    c = trio()
    do(c, "open ada", "ada: handoff bruno")
    err = refused(c, "bruno: handoff ada", "VR-TURN-2")
    assert "already gone" in str(err)


@pytest.mark.rule("VR-TURN-2")
def test_handoff_to_an_npc_and_only_by_the_one_acting():
    c = trio()
    do(c, "open ada")
    with pytest.raises(NotYourTurn):
        c.execute("bruno: handoff thug")
    do(c, "ada: handoff thug")
    assert c.state.ext.turns.current == "thug"


@pytest.mark.rule("VR-TURN-3")
def test_turn_ends_when_everyone_has_gone_and_next_opener_is_chosen():
    c = trio()
    do(c, "open ada", "ada: handoff bruno")
    refused(c, "bruno: handoff", "VR-TURN-2")  # thug has not gone
    events = do(c, "bruno: handoff thug", "thug: handoff")
    assert [e.type for e in events] == ["turn_ended", "round_ended"]
    assert not c.state.ext.turns.round_opened
    do(c, "open ada")
    assert c.state.round == 2 and c.state.ext.turns.gone == ["ada"]


@pytest.mark.rule("VR-TURN-3")
def test_setting_last_to_act_chooses_next_opener():
    c = make(pc("ada"), pc("bruno"), last_chooses_opener=True)
    do(c, "open ada", "ada: handoff bruno")
    events = do(c, "bruno: handoff bruno")
    assert [e.type for e in events] == ["turn_ended", "round_ended", "round_started",
                                        "turn_started"]
    assert c.state.round == 2 and c.state.ext.turns.current == "bruno"


@pytest.mark.rule("VR-TURN-4")
def test_two_actions_then_a_third_is_refused():
    c = make(pc("ada", tn={"close_combat": 12}), npc("thug"), **{})
    do(c, "open ada", "ada: attack thug dice=6,6,6", "ada: attack thug dice=6,6,6")
    assert c.state.ext.turns.actions_left == 0
    refused(c, "ada: attack thug dice=1,1,1", "VR-TURN-4")


@pytest.mark.rule("VR-TURN-4")
def test_disabled_character_gets_one_action():
    c = make(pc("ada"), npc("thug", tn={"discipline": 18}))
    do(c, "harm thug 9", "thug: endure dice=1,1,1", "open thug")
    assert c.state.ext.turns.actions_left == 1
    do(c, "thug: endure dice=1,1,1", "thug: attack ada dice=6,6,6")
    refused(c, "thug: attack ada dice=6,6,6", "VR-TURN-4")


@pytest.mark.rule("VR-TURN-5")
def test_join_mid_turn_has_not_gone_and_leave_is_logged():
    c = trio()
    do(c, "open ada", 'join zed name="Zed" kind=npc')
    assert "zed" in c.state.ext.turns.not_gone()
    do(c, "ada: handoff zed")
    assert c.state.ext.turns.current == "zed"
    events = do(c, 'leave bruno "ran home"')
    assert events[0].type == "participant_left"
    assert "bruno" not in c.state.ext.turns.members
    do(c, "zed: handoff thug", "thug: handoff")  # bruno no longer awaited
    assert not c.state.ext.turns.round_opened


@pytest.mark.rule("VR-TURN-2")
def test_a_go_ended_by_its_character_taken_out_says_the_gm_hands_off_for_them():
    from fracas.app.scenario import parse_scenario
    from fracas.app.script import play_script
    from fracas.engine import Viewer
    from fracas.engine.views import view
    from tests.rulesets.test_pending_odds import cut_script

    c = play_script(parse_scenario(cut_script("vers-tavern-brawl", 3), "cut.toml"), "seed")
    assert c.state.ext.turns.current == "thug"
    while c.state.ext.turns.current == "thug":
        c.execute("harm thug 8", time="")
    assert not c.state.participants["thug"].active
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        lines = view(c, viewer)["conflict"]["ruleset"]["lines"]
        assert ("Acting: nobody · Thug is out; the GM hands off for them to one not gone yet "
                "(VR-TURN-2)") in lines, lines
        assert not any("picks who opens" in line for line in lines)
    assert "handoff bruno say=TEXT" in c.legal_commands(None)


@pytest.mark.rule("VR-TURN-2")
def test_a_hidden_character_taken_out_on_its_go_reads_to_players_as_its_go_did():
    from fracas.app.scenario import parse_scenario
    from fracas.app.script import play_script
    from fracas.engine import Viewer
    from fracas.engine.views import view
    from tests.rulesets.test_pending_odds import cut_script

    c = play_script(parse_scenario(cut_script("vers-tavern-brawl", 3), "cut.toml"), "seed")
    c.execute("conceal thug", time="")
    alice = Viewer.of_player("alice")
    acting = view(c, alice)["conflict"]["ruleset"]["lines"]  # Thug, unseen, acting
    while c.state.ext.turns.current == "thug":
        c.execute("harm thug 8", time="")
    fallen = view(c, alice)["conflict"]["ruleset"]["lines"]
    assert not any("hands off" in line for line in fallen), fallen  # his fall tells nothing
    assert [x for x in fallen if x.startswith("Acting")] == [
        x for x in acting if x.startswith("Acting")]
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]["lines"]
    assert any("Thug is out; the GM hands off" in line for line in gm)


def _ada_last_to_go(hidden: bool) -> Conflict:
    """Thug opened the turn and handed off to Ada, the last to go a player may know of; with
    ``hidden``, Zqhid (hidden from the players) has not gone either."""
    c = make(pc("ada"), npc("thug"))
    if hidden:
        c.execute("join zq name=Zqhid side=npcs hidden=yes")
    do(c, "open thug", "thug: handoff ada")
    return c


@pytest.mark.rule("VR-TURN-2", "VR-TURN-3")
def test_a_player_whose_only_ones_left_to_go_are_hidden_ends_the_go_as_if_none_were() -> None:
    """Ada is the last to go that her player may know of; a character hidden from Alice has
    not gone either. Alice is offered the same hand-off, and her 'ada: handoff' is answered,
    as at a table without it (before: no hand-off offered at all, and 'ada: handoff' refused
    with 'the rules do not allow this command now': both told of the hidden one, and Alice
    could not end Ada's go). Ada's go ends; the GM then hands off to the hidden one, and
    the turn ends after its go. The GM's own 'ada: handoff' is refused as before."""
    from fracas.engine.projector import offered

    alice = Viewer.of_player("ada")

    plain, twin = _ada_last_to_go(False), _ada_last_to_go(True)
    offers = [[lc.text() for lc in offered(c, alice, "ada") if lc.verb == "handoff"]
              for c in (plain, twin)]
    assert offers[0] == offers[1] == ["ada: handoff"]
    gm_refusal = refused(twin, "ada: handoff", "VR-TURN-2")
    assert "Zqhid" in gm_refusal.message  # the GM is told whom Ada should hand off to
    said = [c.execute("ada: handoff", alice) for c in (plain, twin)]
    assert [e.type for e in said[0].events] == ["turn_ended", "round_ended"]
    assert [e.type for e in said[1].events] == ["turn_ended"]  # the turn waits for Zqhid
    assert twin.state.ext.turns.current is None
    assert "handoff zq say=TEXT" in twin.legal_commands(None)
    from fracas.engine.views import view
    assert ("Acting: nobody · Ada is done; the GM hands off for them to one not gone yet "
            "(VR-TURN-2)") in view(twin, Viewer.gm())["conflict"]["ruleset"]["lines"]
    seen = view(twin, alice)["conflict"]["ruleset"]["lines"]
    assert "Gone: Thug, Ada · not gone: nobody" in seen and "zq" not in str(seen).lower()
    assert not any(line.startswith("Acting") for line in seen)  # the GM's line is theirs
    do(twin, "handoff zq", "zq: handoff")
    assert not twin.state.ext.turns.round_opened  # everyone has gone: the turn is over


@pytest.mark.rule("VR-TURN-2")
def test_a_hand_off_from_a_hidden_character_reads_as_the_gms_to_a_player() -> None:
    """Thug hands off to Zq, hidden from Ada's player, who hands off to Ada: the player read
    nothing of it, though Ada was acting all at once. Now she reads the GM's hand-off, in the
    words of one the GM gives (``handoff ada``): nothing names Zq or what Zq said."""
    from fracas.engine.views import log_view

    alice = Viewer.of_player("ada")
    c = make(pc("ada"), pc("bruno"), npc("thug"))
    c.execute("join zq name=Zqhid side=npcs hidden=yes")
    do(c, "open thug", "thug: handoff zq", "zq: handoff ada say='Zqhid snarls'")
    entry = log_view(c, alice)[-1]
    assert entry["lines"] == ["Ada takes the hand-off from the GM (2 actions)"]
    assert "zq" not in str(entry).lower()
    assert log_view(c, Viewer.gm())[-1]["lines"][-1] == \
        'Ada takes the hand-off from Zqhid (2 actions) — "Zqhid snarls"'


@pytest.mark.rule("VR-TURN-3")
def test_a_hand_off_to_one_gone_when_everyone_has_gone_says_to_end_the_turn() -> None:
    """Thug is the last to go and hands off to Ada, who went: the refusal tells how the turn
    ends (a bare hand-off, VR-TURN-3) instead of "hand off to someone who has not", when
    nobody has not. Alice, whose Ada is last of those she may know of, reads the same words
    whether or not a character hidden from her waits; the GM is told of the one waiting."""
    c = make(pc("ada"), npc("thug"))
    do(c, "open ada", "ada: handoff thug")
    for line in ("thug: handoff ada", "thug: handoff thug"):
        err = refused(c, line, "VR-TURN-3")
        assert "everyone has gone this turn; end Thug's go with 'thug: handoff'" in err.message
    alice = Viewer.of_player("ada")

    said = []
    for t in (_ada_last_to_go(False), _ada_last_to_go(True)):
        with pytest.raises(IllegalCommand) as info:
            t.execute("ada: handoff thug", alice)
        said.append((info.value.rule, info.value.message))
    assert said[0] == said[1] and said[0][0] == "VR-TURN-3"
    refused(_ada_last_to_go(True), "ada: handoff thug", "VR-TURN-2")  # the GM: Zqhid has not gone
