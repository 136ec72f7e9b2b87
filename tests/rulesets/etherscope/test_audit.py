"""Findings of the audit: the hidden band seen through errors, counts and zooms; leaving and
joining mid-conflict; Push Back's sides; zoom-in with its own start."""

from __future__ import annotations

import json

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

from .helpers import ES, make, pc, refused, started

ALICE = Viewer.of_player("alice")
BOB = Viewer.of_player("bob")


def lurking_carl(script: list[str] | None = None) -> Conflict:
    """Carl (GM) is hidden from Ada (alice) from the start; Bruno (bob) sees him."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")]
    return make({"lurking": {"carl": ["ada"]}, "time_scale": "tactical"}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dora: awareness successes=0", *(script or [])])


def to_countdown(c: Conflict) -> None:
    """Finish the awareness moves, start round 1 and its countdown."""
    c.execute("moves")
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    c.execute("round")
    c.execute("countdown")


@pytest.mark.rule("ES-RNG-6")
@pytest.mark.parametrize("command", [
    "ada: ambush carl successes=3",
    "ada: ambush dora,carl successes=3",
])
def test_a_player_naming_an_unseen_character_at_the_start_learns_nothing(command: str) -> None:
    c = lurking_carl()
    before = json.dumps(log_view(c, ALICE))
    with pytest.raises(InvalidInput) as info:
        c.execute(command, ALICE, time="")
    msg = str(info.value)
    assert "carl" not in msg.lower() or "'carl'" in msg  # only echoes the name typed
    assert "known: ada, bruno, dora" in msg
    # the same answer as for a name that does not exist at all
    with pytest.raises(InvalidInput) as nobody:
        c.execute(command.replace("carl", "zed"), ALICE, time="")
    assert str(nobody.value).replace("zed", "carl") == msg
    assert json.dumps(log_view(c, ALICE)) == before


@pytest.mark.rule("ES-RNG-6", "ES-RNG-5")
def test_a_player_naming_an_unseen_character_in_moves_and_actions_learns_nothing() -> None:
    c = lurking_carl(["moves"])
    msg = refused(c, "ada: step carl toward", InvalidInput, None, ALICE)
    assert "Carl" not in msg and "known: ada, bruno, dora" in msg
    c.execute("ada: done", ALICE)
    c.execute("bruno: done")
    c.execute("carl: done")
    c.execute("round")
    c.execute("ada: declare 10", ALICE)
    c.execute("countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    for command in ("ada: move carl toward", "ada: hide from=carl", "ada: zoom carl",
                    "ada: push bruno toward=carl successes=2",
                    "ada: push bruno away=dora,carl successes=2"):
        msg = refused(c, command, InvalidInput, None, ALICE)
        assert "Carl" not in msg and "known: ada, bruno, dora" in msg, command
    # the GM, who knows Carl, is told why instead (ES-RNG-2)
    msg = refused(c, "ada: push bruno toward=carl successes=2", IllegalCommand, "ES-RNG-2")
    assert "Carl is hidden from Ada" in msg
    msg = refused(c, "ada: attack carl successes=2", IllegalCommand, "ES-RNG-2")
    assert "Carl is hidden from Ada" in msg and "('ada: search')" in msg  # the way to him


@pytest.mark.rule("ES-RNG-2")
def test_ambushing_a_character_hidden_from_the_ambusher_is_refused() -> None:
    people = [pc("ada", "alice"), pc("eve", "alice"), pc("carl")]
    c = make({"lurking": {"carl": ["ada"]}}, people)
    # Alice knows Carl through Eve, so Ada is told why
    msg = refused(c, "ada: ambush carl successes=3", IllegalCommand, "ES-RNG-2")
    assert "Carl is hidden from Ada, who cannot ambush what it does not see" in msg


@pytest.mark.rule("ES-ACT-5")
def test_push_back_refuses_a_character_both_toward_and_away() -> None:
    c = started()
    c.execute("countdown")
    msg = refused(c, "ada: push bruno toward=carl away=carl successes=2", InvalidInput,
                  "ES-ACT-5")
    assert "Carl is in both toward= and away=" in msg


@pytest.mark.rule("ES-ACT-5")
def test_push_back_refuses_to_move_the_target_toward_or_away_from_itself() -> None:
    c = started()
    c.execute("countdown")
    for line in ("ada: push bruno toward=bruno successes=2",
                 "ada: push bruno away=carl,bruno successes=2"):
        msg = refused(c, line, InvalidInput, "ES-ACT-5")  # a success that moved nobody
        assert "Bruno cannot be pushed toward or away from itself" in msg


@pytest.mark.rule("ES-RNG-6", "ES-ROUND-4", "ES-START-5")
def test_no_index_or_slot_counts_the_hidden_characters_turns_or_moves() -> None:
    c = lurking_carl()
    to_countdown(c)
    while c.state.ext.phase == "countdown":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    seen = [e for r in log_view(c, ALICE) for e in r["events"]
            if e["type"] in ("turn_started", "mover_started")]
    assert seen
    for e in seen:
        assert set(e["data"]) <= {"participant", "score", "against"}, e
    assert c.replay() == c.state


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
def test_an_awareness_move_against_only_unseen_characters_is_the_gms() -> None:
    # order Ada, Bruno, Dora, Carl; Carl hidden from Ada and Bruno's player sees everyone
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("dora"), pc("carl")]
    c = make({"lurking": {"carl": ["ada"]}}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "dora: awareness successes=1", "carl: awareness successes=0", "moves",
        "ada: done", "bruno: done", "dora: done"])
    log = json.dumps(log_view(c, ALICE))
    # Dora is last among those Alice knows: a move of hers would give Carl away
    alice_events = [e for r in log_view(c, ALICE) for e in r["events"]]
    assert not any(e["type"] in ("mover_started", "mover_done")
                   and e["data"]["participant"] == "dora" for e in alice_events), log
    bob_events = [e for r in log_view(c, BOB) for e in r["events"]]
    assert any(e["type"] == "mover_done" and e["data"]["participant"] == "dora"
               for e in bob_events)


@pytest.mark.rule("ES-RNG-6", "ES-START-6")
def test_a_group_with_an_unseen_member_is_not_shown() -> None:
    c = lurking_carl(["group gang carl,dora"])
    assert "gang" not in json.dumps(log_view(c, ALICE))
    assert "gang" not in json.dumps(view(c, ALICE))
    assert "gang" in json.dumps(view(c, BOB))
    c.execute("ungroup gang")
    assert "gang" not in json.dumps(log_view(c, ALICE))


@pytest.mark.rule("ES-RNG-6", "ES-START-5", "ES-START-6")
def test_an_awareness_move_offers_no_step_against_a_group_hidden_whole_from_the_mover() -> None:
    """Carl and Dora stand together, both hidden from Ada, who moves first: her move offers
    steps against Bruno alone, and her 'done'."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")]
    c = make({"lurking": {"carl": ["ada"], "dora": ["ada"]}}, people, [
        "group gang carl,dora", "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dora: awareness successes=0", "moves"])
    assert c.state.ext.move_order[c.state.ext.mover] == "ada"
    assert sorted(lc.text() for lc in c.legal("ada") if lc.verb in ("step", "done")) == [
        "ada: done", "ada: step bruno away", "ada: step bruno toward"]


@pytest.mark.rule("ES-RNG-6", "ES-RNG-1", "ES-ACT-1")
def test_a_zoom_opened_by_an_unseen_character_gives_nothing_away() -> None:
    c = lurking_carl()
    to_countdown(c)
    while c.state.ext.countdown.current.actor != "carl":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("carl: zoom dora,ada reason='the secret plan'")
    alice = json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE))
    assert "secret plan" not in alice and "carl" not in alice.lower()
    # Ada is pulled in: Alice reads that the zoom opened, without its opener or his words
    # (before, none of it: her log went on inside a zoom that never opened)
    assert log_view(c, ALICE)[-1]["command"] == "the GM acts"
    assert log_view(c, ALICE)[-1]["lines"] == [
        "zoom in (quick, battlefield scale, 5 rounds) with Dora, Ada"]
    gm = json.dumps(view(c, Viewer.gm()))
    assert "by Carl: the secret plan" in gm
    # Bruno's player sees Carl but not the band under Carl's hidden flag to Ada (ES-RNG-1)
    opened = [e for r in log_view(c, BOB) for e in r["events"] if e["type"] == "zoom_opened"]
    assert opened and "ada|carl" not in opened[0]["data"]["bands"]


@pytest.mark.rule("ES-RNG-6", "ES-ACT-1")
def test_a_character_concealed_inside_a_zoom_is_gone_from_that_level_only() -> None:
    c = started()
    c.execute("countdown")
    c.execute("ada: zoom bruno,carl reason='the back room'")
    c.execute("conceal carl from=ada")
    shown = view(c, ALICE)
    zoom = json.dumps(shown["zoom"][0])
    assert "carl" not in zoom.lower() and "bruno" in zoom
    # the parent, where Ada still sees him, keeps him; the conceal itself says nothing to her
    assert "carl" in [p["id"] for p in shown["conflict"]["participants"]]
    assert not any("conceal" in r["command"] for r in log_view(c, ALICE))
    # the ranges carry back at the same scaling: he stays hidden from her, unnamed
    c.execute("end 'they talked'")
    assert c.state.ext.ranges.is_hidden("carl", "ada")
    after = json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE)[-1])
    assert "carl" not in after.lower() and "bruno" in after


@pytest.mark.rule("ES-ROUND-4")
def test_the_turn_passes_on_when_the_acting_character_is_taken_out() -> None:
    c = started()
    c.execute("countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    c.execute("out ada reason=fled")
    assert c.state.ext.countdown.current.actor == "bruno"
    msg = refused(c, "ada: done", IllegalCommand, None)
    assert "Ada is out of the conflict (fled)" in msg
    assert c.replay() == c.state


@pytest.mark.rule("ES-START-5")
def test_the_awareness_move_passes_on_when_the_mover_leaves() -> None:
    c = make(script=["ada: awareness successes=3", "bruno: awareness successes=2",
                     "carl: awareness successes=1", "moves"])
    c.execute("leave ada")
    assert c.state.ext.move_order[c.state.ext.mover] == "bruno"
    refused(c, "ada: step bruno toward", IllegalCommand, None)
    c.execute("leave bruno")
    assert c.state.ext.phase == "ready"  # Carl, the last, moves against nobody


@pytest.mark.rule("ES-DMG-1")
def test_a_character_out_of_the_conflict_no_longer_declares() -> None:
    c = started()
    c.execute("damage carl 10")
    msg = refused(c, "carl: declare 5", IllegalCommand, "ES-DMG-1")
    assert "Carl is out of the conflict" in msg


@pytest.mark.rule("ES-START-1", "ES-ROUND-1")
def test_joiners_roll_awareness_at_the_start_and_need_the_condenser() -> None:
    c = make(script=["ada: awareness successes=2"])
    c.execute('join eve stats=\'{"physical": 8, "awareness": 2}\'')
    c.execute("eve: awareness successes=1")
    assert c.state.ext.awareness["eve"] == 1
    msg = refused(c, 'join fred stats=\'{"ether": 8}\'', InvalidInput, "ES-ROUND-1")
    assert "physical condenser" in msg


@pytest.mark.rule("ES-START-1", "ES-ROUND-5")
def test_a_late_joiner_rolls_awareness_when_it_likes_and_ties_by_it() -> None:
    """Everyone's awareness is kept for the conflict: one who joins after the start rolls it
    once, any time (till then it is 0 for ties), and the table is told it is still due."""
    c = started()
    c.execute('join eve stats=\'{"physical": 10, "awareness": 5}\'')
    assert "eve" not in c.state.ext.awareness
    assert any(line.startswith("joined late, awareness still to roll") and "Eve" in line
               for line in ES.view_ext(c.state, Viewer.gm())["lines"])
    assert [x.verb for x in ES.legal_commands(c.state, "eve")][:1] == ["awareness"]
    c.execute("countdown")
    c.execute("eve: awareness successes=4")
    assert c.state.ext.awareness["eve"] == 4
    refused(c, "eve: awareness successes=1", IllegalCommand, "ES-START-1")
    refused(c, "ada: awareness successes=1", IllegalCommand, "ES-START-1")
    while c.state.ext.phase == "countdown":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("round")
    c.execute("countdown")  # all at base 10: awareness orders the tie
    assert [x.actor for x in c.state.ext.countdown.queue] == ["eve", "ada", "bruno", "carl"]


@pytest.mark.rule("ES-ROUND-7", "ES-ROUND-4")
def test_a_character_joining_mid_round_acts_from_the_next_round() -> None:
    c = started()
    c.execute('join eve stats=\'{"physical": 8}\'')  # during the declarations
    refused(c, "eve: declare 8", IllegalCommand, "ES-ROUND-7")
    c.execute("countdown")
    assert all(s.actor != "eve" for s in c.state.ext.countdown.queue)
    c.execute('join fred stats=\'{"physical": 7}\'')  # during the countdown
    refused(c, "fred: done", NotYourTurn, "ES-ROUND-4")
    while c.state.ext.phase == "countdown":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("round")
    assert c.state.ext.base["eve"] == 8 and c.state.ext.base["fred"] == 7
    c.execute("countdown")
    assert {"eve", "fred"} <= {s.actor for s in c.state.ext.countdown.queue}


@pytest.mark.rule("ES-ACT-1", "ES-START-1", "ES-START-2")
def test_zoom_with_start_runs_the_start_procedure_inside() -> None:
    c = started({"time_scale": "quick"})
    c.execute("countdown")
    c.execute("ada: zoom bruno start=yes reason='on the truck roof'")
    inner = c.state.innermost
    assert inner.depth == 1 and inner.ext.phase == "start" and inner.ext.awareness == {}
    refused(c, "round", IllegalCommand, "ES-START-5")
    c.execute("ada: awareness successes=1")
    c.execute("bruno: awareness successes=0")
    c.execute("bruno: ambush ada successes=2 counter=ada:1,1")
    c.execute("moves")  # Bruno, hidden from Ada, is none she may step against
    assert c.state.innermost.ext.phase == "ready"
    c.execute("round")
    assert c.state.innermost.ext.awareness == {"ada": 1, "bruno": 0}
    # the parent keeps its own awareness scores
    assert c.state.ext.awareness["ada"] == 3
    c.execute("end 'back to the chase'")
    assert c.state.zoom is None
    # the ambush carries back: Bruno is hidden from Ada in the parent too
    assert c.state.ext.ranges.is_hidden("bruno", "ada")
    assert c.state.ext.countdown.current.actor == "ada"
    c.execute("ada: done")
    assert c.replay() == c.state


@pytest.mark.rule("ES-ROUND-5", "ES-START-5")
def test_roll_offs_take_dice_rolled_at_the_table() -> None:
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    c = make(people=people, script=["ada: awareness successes=1", "bruno: awareness successes=1",
                                    "carl: awareness successes=0"])
    msg = refused(c, "moves rolloff=ada:6,6/carl:6,6", InvalidInput, "ES-ROUND-5")
    assert msg == "rolloff= gives dice for Carl, who is in no tie to roll off now (ES-ROUND-5)"
    c.execute("moves rolloff=ada:1,1/bruno:5,6")
    tie = c.records[-1].events[0]
    assert tie.type == "tie_rolloff" and tie.data["successes"] == {"ada": 0, "bruno": 2}
    assert c.state.ext.move_order == ["bruno", "ada", "carl"]
    c.execute("bruno: done")
    c.execute("ada: done")
    c.execute("round")
    c.execute("ada: declare 10")
    c.execute("bruno: declare 10")
    c.execute("carl: declare 9")
    msg = refused(c, "countdown rolloff=ada:6", InvalidInput, "ES-ROUND-5")
    assert msg == ("Ada's roll is 2 dice (2d6>=5), but 1 was typed in: [6] "
                   "(ES-ROUND-5)")  # two dice in Ada's pool, the expression said once
    c.execute("countdown rolloff=ada:6,5/bruno:1,2")
    assert [s.actor for s in c.state.ext.countdown.queue] == ["ada", "bruno", "carl"]
    assert any("roll-off Ada 2, Bruno 0" in (ES.describe(e, c.state) or "")
               for e in c.records[-1].events)


@pytest.mark.rule("ES-ROUND-5")
def test_roll_off_dice_for_several_in_no_tie_are_refused_in_one_sentence() -> None:
    """It read "rolloff= gives dice for Ada, Carl, who rolls off in no tie now"."""
    c = make(script=["ada: awareness successes=2", "bruno: awareness successes=1",
                     "carl: awareness successes=0"])
    msg = refused(c, "moves rolloff=ada:6,6/carl:6,6", InvalidInput, "ES-ROUND-5")
    assert msg == ("rolloff= gives dice for Ada and Carl, who are in no tie to roll off now "
                   "(ES-ROUND-5)")


@pytest.mark.rule("ES-ACT-5")
def test_push_back_says_which_extras_the_roll_could_not_buy() -> None:
    c = started({"ranges": {"default": "close"}})
    c.execute("countdown")
    c.execute("ada: push bruno successes=2 two=yes damage=1")  # 1 extra: two categories only
    action = c.records[-1].events[0]
    assert action.data["spent"] == {"two": 1}
    assert "not enough extra successes for: damage 1 (bought 0)" in (
        ES.describe(action, c.state) or "")
    assert c.state.ext.ranges.get("ada", "bruno") == 2


@pytest.mark.rule("ES-ACT-5")
def test_push_back_refuses_a_second_band_it_cannot_move() -> None:
    """Near is one band from Distant: ``two=yes`` would buy nothing. It was taken silently
    (the extra left for the damage); it is refused, naming the rule, and without it the one
    extra success pays for the damage asked for."""
    c = started()  # everyone Near
    c.execute("countdown")
    msg = refused(c, "ada: push bruno successes=2 two=yes damage=1", IllegalCommand, "ES-ACT-5")
    assert msg == ("two=yes would buy nothing: Bruno can be pushed at most one category away "
                   "from Ada (Near), as the bands end at Close and Distant; push without two= "
                   "(ES-ACT-5)")
    msg = refused(c, "ada: push bruno successes=2 two=yes toward=carl away=ada", IllegalCommand,
                  "ES-ACT-5")
    assert "at most one category toward Carl (Near) and away from Ada (Near)" in msg
    c.execute("ada: push bruno successes=2 damage=1")
    action = c.records[-1].events[0]
    assert action.data["spent"] == {"damage": 1}
    assert "not_bought" not in action.data
    assert c.state.ext.ranges.get("ada", "bruno") == 2
    assert c.state.participants["bruno"].stats["physical"] - c.state.ext.condenser["bruno"][
        "physical"].current == 1


@pytest.mark.rule("ES-ACT-1")
def test_zoom_in_another_scaling_leaves_the_parent_ranges_to_the_gm() -> None:
    c = started({"time_scale": "quick", "range_scaling": "chase",
                 "ranges": {"default": "distant"}})
    c.execute("countdown")
    c.execute("ada: zoom bruno scaling=battlefield reason='fight on the roof'")
    inner = c.state.innermost
    assert inner.settings["range_scaling"] == "battlefield"
    assert "melee" in " ".join(ES.view_ext(inner, Viewer.gm())["meanings"])
    c.execute("set-range ada bruno close")
    c.execute("end 'Ada jumps back'")
    assert c.state.ext.ranges.get("ada", "bruno") == 2  # the chase ranges stand


@pytest.mark.rule("ES-ACT-1", "ES-RNG-2")
def test_hiding_in_a_zoom_of_another_scaling_carries_back() -> None:
    """The Hidden band means the same at every scaling: who hid inside stays hidden."""
    c = started({"time_scale": "quick", "range_scaling": "chase"})
    c.execute("countdown")
    c.execute("ada: zoom carl scaling=battlefield reason='onto the roof'")
    for line in ("round", "countdown", "ada: done", "carl: hide successes=2"):
        c.execute(line)
    assert c.state.innermost.ext.ranges.is_hidden("carl", "ada")
    c.execute("end 'back to the chase'")
    assert c.state.zoom is None
    assert c.state.ext.ranges.is_hidden("carl", "ada")


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
def test_awareness_moves_ending_among_unseen_characters_read_as_if_they_were_not_there() -> None:
    # order Ada, Bruno, Dora, Carl: Dora's move is against Carl alone, whom Alice's Ada does
    # not see; to Alice the moves end with Bruno's, as they would with no Carl at all
    def table(carl: bool) -> Conflict:
        people = [pc("ada", "alice"), pc("bruno", "bob"), pc("dora"), *([pc("carl")] * carl)]
        return make({"lurking": {"carl": ["ada"]} if carl else {}}, people, [
            "ada: awareness successes=3", "bruno: awareness successes=2",
            "dora: awareness successes=1", *(["carl: awareness successes=0"] * carl),
            "moves", "ada: done", "bruno: done"])

    def seen(c: Conflict) -> tuple[object, ...]:
        ruleset = view(c, ALICE)["conflict"]["ruleset"]
        return ([(r["command"], r["lines"]) for r in log_view(c, ALICE)],
                ruleset["phase"], ruleset["lines"], ruleset["mover"])

    hidden, plain = table(carl=True), table(carl=False)
    assert hidden.state.ext.phase == "moves" and plain.state.ext.phase == "ready"
    assert seen(hidden)[1:] == seen(plain)[1:] == ("ready", seen(plain)[2], None)
    hidden.execute("dora: step carl toward")
    hidden.execute("dora: done")
    assert hidden.state.ext.phase == "ready"
    assert seen(hidden) == seen(plain)
    assert any("the awareness moves are over" in r[1] for r in seen(plain)[0])
    # Bob sees Carl: Dora's move against him is his to read, and the moves end after it
    bob = [line for r in log_view(hidden, BOB) for line in r["lines"]]
    assert bob[-3:] == ["Dora ↔ Carl: Near → Close (awareness move)",
                        "Dora's awareness move is over", "the awareness moves are over"]


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
def test_an_unseen_characters_awareness_move_names_none_it_moves_against() -> None:
    # Carl moves first, hidden from Ada: Alice reads the GM is moving, not against whom
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    c = make({"lurking": {"carl": ["ada"]}}, people, [
        "carl: awareness successes=3", "ada: awareness successes=2",
        "bruno: awareness successes=1", "moves"])
    ruleset = view(c, ALICE)["conflict"]["ruleset"]
    assert (ruleset["phase"], ruleset["mover"], ruleset["move_against"]) == ("moves", None, [])
    # nor nobody left to wait on: the terminal names those still to move, as the page does
    assert "awareness move: the GM; still to move: Ada, Bruno" in ruleset["lines"]
    bob = view(c, BOB)["conflict"]["ruleset"]
    assert (bob["mover"], bob["move_against"]) == ("carl", ["ada", "bruno"])


@pytest.mark.rule("ES-START-5", "ES-RNG-6")
def test_a_character_with_only_hidden_ones_yet_to_move_has_no_awareness_move() -> None:
    # order Bruno, Ada, Carl; Carl is hidden from Ada, so Ada has no one to step against:
    # Alice is never asked to end a move against nobody she knows (it told of Carl)
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    c = make({"lurking": {"carl": ["ada"]}}, people, [
        "bruno: awareness successes=3", "ada: awareness successes=2",
        "carl: awareness successes=1", "moves", "bruno: done"])
    assert c.state.ext.phase == "ready"
    with pytest.raises(NotYourTurn, match="not Ada's turn"):
        c.execute("ada: done", ALICE, time="")
    assert c.replay() == c.state


@pytest.mark.rule("ES-RNG-6")
def test_the_public_sees_one_hidden_only_from_a_hidden_one_as_without_that_one() -> None:
    # Carl is hidden from Ada and Bruno, Ada from Carl alone: the public knows no Carl, so
    # Ada stands in its view as she would with no Carl at all; one hidden from Bruno does not
    def public(lurking: dict[str, list[str]], carl: bool) -> list[str]:
        people = [pc("ada", "alice"), pc("bruno", "bob"), *([pc("carl")] * carl)]
        c = make({"lurking": lurking}, people)
        return [p["id"] for p in view(c, Viewer.public())["conflict"]["participants"]]

    assert public({"carl": ["ada", "bruno"], "ada": ["carl"]}, carl=True) \
        == public({}, carl=False) == ["ada", "bruno"]
    assert public({"carl": ["ada", "bruno"], "ada": ["carl", "bruno"]}, carl=True) \
        == public({"ada": ["bruno"]}, carl=False) == ["bruno"]


@pytest.mark.rule("ES-RNG-6")
def test_the_public_never_sees_one_hidden_from_everyone_else() -> None:
    # Ada and Bruno hide from each other and from Carl, who is hidden from both: all three
    # are hidden from every other, so the public knows none, as it would know neither
    # Ada nor Bruno without Carl
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    c = make({"lurking": {"carl": ["ada", "bruno"], "ada": ["bruno", "carl"],
                          "bruno": ["ada", "carl"]}}, people)
    assert view(c, Viewer.public())["conflict"]["participants"] == []


@pytest.mark.rule("ES-RNG-6")
def test_a_player_reads_no_hidden_line_of_their_character_hidden_only_from_the_unknown() -> None:
    # Ada is hidden from Carl alone, whom Alice does not know: her view says nothing of it
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]
    c = make({"lurking": {"carl": ["ada"], "ada": ["carl"]}}, people)
    lines = view(c, ALICE)["conflict"]["ruleset"]["lines"]
    assert not any("hidden from" in line for line in lines), lines
    assert "Ada hidden from Carl" in view(c, Viewer.gm())["conflict"]["ruleset"]["lines"]


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
def test_while_an_unseen_one_moves_those_still_to_move_are_named_as_ever() -> None:
    """Before: while Dora (hidden from Ada) made her awareness move, Alice's page read
    "Still to act: nobody", though Bruno and Carl, whom she knows, were still to move."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")]
    c = make({"lurking": {"dora": ["ada"]}}, people, [
        "ada: awareness successes=4", "dora: awareness successes=3",
        "bruno: awareness successes=2", "carl: awareness successes=1", "moves"])
    assert view(c, ALICE)["conflict"]["ruleset"]["to_move"] == ["bruno", "carl"]  # Ada moves
    c.execute("ada: done")
    alice = view(c, ALICE)["conflict"]["ruleset"]
    assert (alice["mover"], alice["move_against"], alice["to_move"]) == (
        None, [], ["bruno", "carl"])
    assert view(c, BOB)["conflict"]["ruleset"]["to_move"] == ["bruno", "carl"]
    c.execute("dora: done")
    assert view(c, ALICE)["conflict"]["ruleset"]["to_move"] == ["carl"]  # Bruno moves


@pytest.mark.rule("ES-START-5")
def test_a_roll_off_with_gm_only_dice_keeps_the_gms_moves_called_moves() -> None:
    """Carl's skills are the GM's: his roll-off dice are kept from Alice, and the GM's
    `moves`, a verb alone with nothing in it to keep, still reads "moves" in her log. Before:
    "the GM acts" whenever a roll-off held GM-only dice, as if something were hidden."""
    carl = pc("carl", skills={"brawl": 3})
    carl["gm_only"] = ["skills"]
    c = make(people=[pc("ada", "alice"), carl], script=[
        "ada: awareness successes=1", "carl: awareness successes=1", "moves"])
    gm, alice = log_view(c, Viewer.gm())[-1], log_view(c, ALICE)[-1]
    assert any("roll-off" in line for line in gm["lines"]), gm  # the tie was rolled off
    carls = [e["data"]["rolls"]["carl"] for e in gm["events"] if e["type"] == "tie_rolloff"]
    assert carls and all("carl" not in e["data"]["rolls"]
                         for e in alice["events"] if e["type"] == "tie_rolloff"), alice
    assert alice["command"] == "moves"
