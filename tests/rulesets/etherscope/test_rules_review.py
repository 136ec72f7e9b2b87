"""A rules lawyer's review of Etherscope against its seed: extras, groups and what a zoom-in
carries back (ES-ACT-*, ES-START-6, ES-DMG-*)."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.describe import describe
from fracas.engine.model import Viewer
from fracas.engine.views import log_view
from fracas.errors import IllegalCommand, InvalidInput

from .helpers import ES, make, pc, refused, started

ALICE = Viewer.of_player("alice")


@pytest.mark.rule("ES-ACT-5", "ES-DMG-1")
def test_a_negative_damage_or_hurt_is_refused_not_spent() -> None:
    """``push … damage=-1`` was taken as "spent: damage -1", an extra success more than the
    roll made; ``act … hurt=-2`` as no damage at all. Both are refused, naming the key."""
    c = started()
    c.execute("countdown")
    msg = refused(c, "ada: push bruno successes=3 damage=-1", InvalidInput, "ES-ACT-5")
    assert "damage=-1" in msg and "negative" in msg
    msg = refused(c, "ada: act slap target=bruno hurt=-2 successes=1", InvalidInput, "ES-DMG-1")
    assert "hurt=-2" in msg
    c.execute("ada: push bruno successes=3 damage=0")  # spending none is fine
    assert c.state.ext.condenser["bruno"]["physical"].current == 10


@pytest.mark.rule("ES-RNG-6", "ES-START-6")
def test_a_move_breaking_a_group_alice_may_not_know_of_reads_as_any_move() -> None:
    """Carl stands with Dan, who is hidden from Ada (Alice's): Bruno's move toward Carl alone
    takes Carl out of the group. Alice read the entry as "Bruno: move", not the command as
    typed, which it is wherever Carl stands alone: the label told her something hidden took
    part."""
    def entry(groups: dict[str, list[str]]) -> dict[str, object]:
        people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
        c = make({"groups": groups, "lurking": {"dan": ["ada"]}}, people, [
            "ada: awareness successes=3", "bruno: awareness successes=2",
            "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
            "bruno: done", "carl: done", "round", "ada: declare 9", "countdown",
            "bruno: move carl toward successes=1"])
        shown = dict(log_view(c, ALICE)[-1])
        shown.pop("entry")
        return shown

    alone, grouped = entry({}), entry({"thugs": ["carl", "dan"]})
    assert grouped["command"] == "bruno: move carl toward successes=1"
    assert grouped == alone


def _four(groups: dict[str, list[str]]) -> Conflict:
    """Ada (alice), Bruno (bob), Carl and Dan (the GM's) in ``groups``, all Near; Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
    c = make({"groups": groups}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
        "bruno: done", "carl: done", "round", "countdown"])
    assert c.state.ext.countdown.current.actor == "ada"
    return c


def _left(c: Conflict) -> list[dict[str, str]]:
    return [e.data for e in c.records[-1].events if e.type == "group_left"]


@pytest.mark.rule("ES-START-6", "ES-ACT-5")
def test_a_push_away_from_one_member_of_a_group_takes_that_member_out_of_it() -> None:
    """Carl and Dan stand together; Bruno pushed away from Carl alone is Distant from Carl and
    still Near Dan: they no longer stand together, and the log said nothing of it."""
    c = _four({"thugs": ["carl", "dan"]})
    c.execute("ada: push bruno successes=1 away=carl")
    ranges = c.state.ext.ranges
    assert (ranges.get("bruno", "carl"), ranges.get("bruno", "dan")) == (2, 1)
    assert _left(c) == [{"group": "thugs", "participant": "carl"}]
    assert "thugs" not in c.state.ext.groups
    assert "Carl no longer stands with group thugs and leaves it" in [
        describe(ES, e, c.state) for e in c.records[-1].events]
    whole = _four({"thugs": ["carl", "dan"]})
    whole.execute("ada: push bruno successes=1 away=thugs")  # from both: they stay together
    assert _left(whole) == [] and whole.state.ext.groups == {"thugs": ["carl", "dan"]}


@pytest.mark.rule("ES-START-6")
def test_a_pusher_moving_the_target_from_itself_alone_leaves_its_group() -> None:
    """Ada and Bruno stand together; Ada pushes Carl away from herself only (the default):
    Carl is Distant from Ada and still Near Bruno, so Ada no longer stands with Bruno."""
    c = _four({"duo": ["ada", "bruno"]})
    c.execute("ada: push carl successes=1")
    assert _left(c) == [{"group": "duo", "participant": "ada"}]
    both = _four({"duo": ["ada", "bruno"]})
    both.execute("ada: push carl successes=1 away=duo")
    assert _left(both) == [] and both.state.ext.groups == {"duo": ["ada", "bruno"]}


@pytest.mark.rule("ES-START-6")
def test_a_move_toward_one_of_its_own_group_takes_both_out_of_it() -> None:
    """Ada, Carl and Dan stand together; Ada steps toward Carl alone: Ada and Carl are Close,
    Ada and Dan still Near, so Carl no longer stands with Dan either (before, Carl and Dan
    stayed a group though their ranges to Ada differ)."""
    c = _four({"trio": ["ada", "carl", "dan"]})
    c.execute("ada: move carl toward successes=1")
    assert _left(c) == [{"group": "trio", "participant": "ada"},
                        {"group": "trio", "participant": "carl"}]
    assert c.state.ext.groups == {}
    both = _four({"trio": ["ada", "carl", "dan"]})
    both.execute("ada: move carl,dan toward successes=1")
    assert both.state.ext.groups == {"trio": ["carl", "dan"]}


@pytest.mark.rule("ES-ACT-1")
def test_one_who_joined_inside_a_zoom_leaves_nothing_behind_in_the_main_conflict() -> None:
    """Eve joined the zoomed-in conflict and was hidden there; when it closed, her condenser
    and her hiding stayed in the main conflict's state, so an Eve joining the main conflict
    later was hidden from Ada and Carl though nobody hid her: Ada could not attack her."""
    c = started()
    for line in ("countdown", "ada: zoom carl reason=roof", 'join eve stats=\'{"physical": 8}\'',
                 "conceal eve", "end early"):
        c.execute(line)
    assert "eve" not in c.state.participants
    assert "eve" not in c.state.ext.condenser and not c.state.ext.ranges.hidden
    c.execute("ada: done")
    c.execute('join eve stats=\'{"physical": 8}\'')
    for line in ("bruno: done", "carl: done", "round", "countdown"):
        c.execute(line)
    assert c.state.ext.countdown.current.actor == "ada"
    assert "ada: attack eve" in c.legal_commands("ada")
    c.execute("ada: attack eve successes=1")
    assert c.state.ext.condenser["eve"]["physical"].current == 7


@pytest.mark.rule("ES-ROUND-5", "ES-ACT-1")
def test_a_tie_inside_a_zoom_rolls_again_the_awareness_roll_of_the_conflict() -> None:
    """Ada rolled awareness with perception (5 dice), Bruno with pool=4. In the main conflict a
    tie rolls those pools again; inside a zoom-in (which keeps the awareness scores) it rolled
    the default awareness pool (2 dice) instead, and refused Ada's 5 table dice."""
    people = [pc("ada", "alice", skills={"perception": 5}), pc("bruno", "bob")]
    c = make({}, people, [
        "ada: awareness skill=perception successes=2", "bruno: awareness pool=4 successes=2",
        "moves rolloff=ada:6,1,1,1,1/bruno:1,1,1,1", "ada: done", "round",
        "countdown rolloff=ada:6,1,1,1,1/bruno:1,1,1,1", "ada: zoom bruno", "round"])
    c.execute("countdown rolloff=ada:1,1,1,1,1/bruno:6,1,1,1")
    (tie,) = [e for e in c.records[-1].events if e.type == "tie_rolloff"]
    assert [len(tie.data["rolls"][p]["dice"]) for p in ("ada", "bruno")] == [5, 4]
    assert c.state.innermost.ext.countdown.current.actor == "bruno"


def _thugs_with_dan_lurking() -> Conflict:
    """Carl and Dan stand together (group thugs); Dan is hidden from Ada; Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
    return make({"groups": {"thugs": ["carl", "dan"]}, "lurking": {"dan": ["ada"]}}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
        "bruno: done", "carl: done", "round", "countdown"])


@pytest.mark.rule("ES-RNG-2", "ES-START-6")
@pytest.mark.parametrize("command", [
    "ada: move thugs toward successes=1", "ada: push bruno away=thugs successes=1",
    "ada: zoom thugs"])
def test_a_group_named_by_the_gm_stands_for_the_members_the_actor_sees(command: str) -> None:
    """Dan, of group thugs, is hidden from Ada. Alice's "move thugs toward" moved Ada toward
    Carl alone (she knows no Dan); the same command typed by the GM for Ada was refused as
    naming Dan, hidden from Ada: the GM could not do for Ada what her player could."""
    by_gm, by_alice = _thugs_with_dan_lurking(), _thugs_with_dan_lurking()
    by_gm.execute(command)
    by_alice.execute(command, ALICE)
    assert [e.to_data() for e in by_gm.records[-1].events] == \
        [e.to_data() for e in by_alice.records[-1].events]
    if "zoom" in command:
        assert list(by_gm.state.innermost.participants) == ["ada", "carl"]


@pytest.mark.rule("ES-RNG-2")
def test_a_group_of_none_the_actor_sees_is_refused() -> None:
    c = make({"groups": {"thugs": ["carl", "dan"]}, "lurking": {"carl": ["ada"], "dan": ["ada"]}},
             [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")],
             ["ada: awareness successes=3", "bruno: awareness successes=2",
              "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
              "bruno: done", "carl: done", "round", "countdown"])
    msg = refused(c, "ada: move thugs toward successes=1", IllegalCommand, "ES-RNG-2")
    assert "Ada sees no one of thugs" in msg


@pytest.mark.rule("ES-RNG-1")
def test_a_character_cannot_hide_from_itself() -> None:
    """``ada: hide from=ada`` was rolled and logged "Ada is hidden from Ada"."""
    c = started()
    c.execute("countdown")
    msg = refused(c, "ada: hide from=ada successes=1", InvalidInput, "ES-RNG-1")
    assert "Ada cannot hide from itself" in msg
    c.execute("ada: hide from=bruno successes=1")
    assert c.state.ext.ranges.hidden == {"ada": ["bruno"]}
