"""Loose ends of an Etherscope review: groups after a zoom-in, recovering at a full condenser,
Push Back's second band, the order of a zoom's refusals, ``min_gap``, whom ``hide`` hides
from and what a player reads of a zoom (ES-START-6, ES-ACT-*, ES-RNG-*, ES-ROUND-3)."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.describe import describe
from fracas.engine.events import Record
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.etherscope import events as ev
from tests.support.helpers import as_stored_before

from .helpers import ES, make, moved, pc, refused, started

ALICE = Viewer.of_player("alice")


def _four(groups: dict[str, list[str]], settings: dict[str, object] | None = None) -> Conflict:
    """Ada (alice), Bruno (bob), Carl and Dan (the GM's) in ``groups``, all Near; a Quick
    conflict at Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
    c = make({"groups": groups, "time_scale": "quick", **(settings or {})}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
        "bruno: done", "carl: done", "round", "countdown"])
    assert c.state.ext.countdown.current.actor == "ada"
    return c


def _zoom_and_end(c: Conflict, zoom: str, inside: list[str]) -> list[str]:
    """Open ``zoom``, play its round 1 up to ``inside`` (the GM's commands inside it), end it
    early and give the closing record's log lines."""
    for line in [zoom, "round", "countdown", *inside, "end 'back to the chase'"]:
        c.execute(line)
    assert c.state.zoom is None
    return [describe(ES, e, c.state) for e in c.records[-1].events]


def _left(c: Conflict) -> list[dict[str, str]]:
    return [e.data for e in c.records[-1].events if e.type == "group_left"]


@pytest.mark.rule("ES-START-6", "ES-ACT-1")
def test_ranges_a_zoom_carries_back_apart_from_a_group_take_the_member_out_of_it() -> None:
    """Ada and Bruno stand together; Ada zooms in with Carl and closes to Close with him there.
    Back in the main conflict Ada is Close to Carl and Bruno still Near, yet they stayed a
    group (a step against the group moved both). Now Ada leaves it, as after a move, and the
    log says so."""
    c = _four({"duo": ["ada", "bruno"]})
    lines = _zoom_and_end(c, "ada: zoom carl reason=roof", ["ada: move carl toward successes=1"])
    ranges = c.state.ext.ranges
    assert (ranges.get("ada", "carl"), ranges.get("bruno", "carl")) == (0, 1)
    assert _left(c) == [{"group": "duo", "participant": "ada"}]
    assert "Ada no longer stands with group duo and leaves it" in lines
    assert c.state.ext.groups == {}


@pytest.mark.rule("ES-START-6", "ES-ACT-1")
def test_a_group_whose_members_a_zoom_moved_together_stays_a_group() -> None:
    """Ada and Bruno both zoom in with Carl, who steps toward both: they still stand together
    when the ranges carry back; only Dan, who stayed out, is as far as before."""
    c = _four({"duo": ["ada", "bruno"]})
    c.execute("ada: zoom bruno,carl reason=roof")
    for line in ("round", "countdown", "ada: done", "bruno: done",
                 "carl: move ada,bruno toward successes=1", "end 'back'"):
        c.execute(line)
    assert c.state.ext.ranges.get("ada", "carl") == c.state.ext.ranges.get("bruno", "carl") == 0
    assert _left(c) == [] and c.state.ext.groups == {"duo": ["ada", "bruno"]}


@pytest.mark.rule("ES-START-6", "ES-ACT-1")
def test_a_zoom_that_moves_two_of_a_group_apart_takes_them_out_of_it() -> None:
    """Ada, Carl and Dan stand together; inside a zoom Ada steps toward Carl alone: as after
    the same move in the main conflict, Ada and Carl leave, and Dan is no group of one."""
    c = _four({"trio": ["ada", "carl", "dan"]})
    _zoom_and_end(c, "ada: zoom carl reason=roof", ["ada: move carl toward successes=1"])
    assert _left(c) == [{"group": "trio", "participant": "ada"},
                        {"group": "trio", "participant": "carl"}]
    assert c.state.ext.groups == {}


@pytest.mark.rule("ES-START-6", "ES-ACT-1")
def test_one_taken_out_inside_a_zoom_leaves_its_group() -> None:
    """Bruno, Carl and Dan stand together; Carl is taken out in Ada's zoom. In the main
    conflict Carl stayed in the group, so the GM's set-range of the group was refused:
    "Carl is no longer in the conflict"."""
    c = _four({"thugs": ["bruno", "carl", "dan"]})
    lines = _zoom_and_end(c, "ada: zoom carl reason=roof", ["damage carl 10"])
    assert "Carl no longer stands with group thugs and leaves it" in lines
    assert c.state.ext.groups == {"thugs": ["bruno", "dan"]}
    c.execute("set-range ada thugs distant")
    assert c.state.ext.ranges.get("ada", "dan") == 2


@pytest.mark.rule("ES-START-6", "ES-ACT-1")
def test_ranges_that_do_not_carry_back_break_no_group() -> None:
    """A zoom with another range scaling carries no range back (the GM sets them): the
    group stands as it did."""
    c = _four({"duo": ["ada", "bruno"]})
    _zoom_and_end(c, "ada: zoom carl reason=roof scaling=chase",
                  ["ada: move carl toward successes=1"])
    assert _left(c) == [] and c.state.ext.groups == {"duo": ["ada", "bruno"]}


def _lines(c: Conflict, viewer: Viewer) -> list[str]:
    return list(log_view(c, viewer)[-1]["lines"])


@pytest.mark.rule("ES-DMG-1")
def test_a_recovery_at_a_full_condenser_says_it_was_already_full() -> None:
    """Ada, unhurt, recovers with 3 extra successes: the log read "spent: more 3" and "Ada
    recovers 0 physical", as if the extras bought nothing. It says what they bought and
    that the condenser was full; a recovery that fills it says so too."""
    c = started()
    c.execute("countdown")
    c.execute("ada: recover successes=4")
    for viewer in (Viewer.gm(), ALICE):
        lines = _lines(c, viewer)
        assert lines[0].endswith("success, 3 extra (spent: recovery 3)")
        assert lines[1] == "Ada recovers 0 of 4 physical: already full"
    assert c.state.ext.condenser["ada"]["physical"].current == 10
    c.execute("damage bruno 2")
    c.execute("bruno: recover successes=4")
    assert _lines(c, Viewer.gm())[1] == "Bruno recovers 2 of 4 physical: full again"
    c.execute("damage carl 3")
    c.execute("carl: recover successes=1")  # as much as bought: as before
    assert _lines(c, Viewer.gm())[1] == "Carl recovers 1 physical"


@pytest.mark.rule("ES-DMG-1", "ES-RNG-6")
def test_a_recovery_at_a_gm_only_condenser_tells_a_player_nothing_of_its_room() -> None:
    """Carl's physical condenser is the GM's: whether it was full or one short, Alice reads
    the same line (what the roll bought, not what it took); the GM reads which."""
    def recovered(hurt: bool) -> Conflict:
        c = started(people=[pc("ada", "alice"), pc("bruno", "bob"),
                            {**pc("carl"), "gm_only": ["physical"]}])
        for line in ("countdown", "ada: done", "bruno: done"):
            c.execute(line)
        if hurt:
            c.execute("damage carl 1")
        c.execute("carl: recover successes=4")
        return c

    full, hurt = recovered(False), recovered(True)
    assert _lines(full, ALICE)[1] == _lines(hurt, ALICE)[1] == "Carl recovers ? of 4 physical"
    assert _lines(full, Viewer.gm())[1] == "Carl recovers 0 of 4 physical: already full"
    assert _lines(hurt, Viewer.gm())[1] == "Carl recovers 1 of 4 physical: full again"


@pytest.mark.rule("ES-ACT-5")
def test_two_categories_are_taken_where_one_named_can_move_a_second_band() -> None:
    """Bruno is Close to Ada and Near Carl: pushed away from both, he can go two bands from
    Ada, so ``two=yes`` is taken and paid for (from Carl he stops at Distant)."""
    c = started({"ranges": {"default": "near", "pairs": [["ada", "bruno", "close"]]}})
    c.execute("countdown")
    c.execute("ada: push bruno successes=2 two=yes away=ada,carl")
    assert c.records[-1].events[0].data["spent"] == {"two": 1}
    assert (c.state.ext.ranges.get("ada", "bruno"), c.state.ext.ranges.get("bruno", "carl")) \
        == (2, 2)


@pytest.mark.rule("ES-ACT-5")
def test_two_categories_toward_a_character_at_distant_bring_the_target_close() -> None:
    """Bruno is Distant from Carl: pushed toward him with ``two=yes``, he comes the two bands
    to Close, and the second is paid for with an extra success."""
    c = started({"ranges": {"default": "near", "pairs": [["bruno", "carl", "distant"]]}})
    c.execute("countdown")
    c.execute("ada: push bruno successes=2 two=yes toward=carl")
    assert c.records[-1].events[0].data["spent"] == {"two": 1}
    assert (c.state.ext.ranges.get("bruno", "carl"), c.state.ext.ranges.get("ada", "bruno")) \
        == (0, 1)


@pytest.mark.rule("ES-ACT-5", "ES-RNG-1")
def test_two_categories_are_not_refused_on_a_band_under_a_hidden_flag() -> None:
    """Carl is hidden from Bruno: their band is the GM's, so a push of Bruno away from Carl
    with ``two=yes`` is never refused for it (the refusal would tell Alice the band)."""
    for band in ("near", "distant"):
        c = started({"lurking": {"carl": ["bruno"]},
                     "ranges": {"default": "near", "pairs": [["bruno", "carl", band]]}})
        c.execute("countdown")
        c.execute("ada: push bruno successes=2 two=yes away=carl", ALICE)
        assert c.records[-1].events[0].data["success"]


def _with_dora(settings: dict[str, object]) -> Conflict:
    """Ada and Dora (Alice's), Bruno (Bob's), Carl (the GM's) hidden from Ada and Bruno but
    seen by Dora; Ada's turn."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora", "alice")]
    c = make({"lurking": {"carl": ["ada", "bruno"]}, **settings}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dora: awareness successes=0", "moves", "ada: done",
        "bruno: done", "carl: done", "round", "countdown"])
    assert c.state.ext.countdown.current.actor == "ada"
    return c


@pytest.mark.rule("ES-ACT-2", "ES-RNG-2", "ES-RNG-6")
@pytest.mark.parametrize("author", [Viewer.gm(), ALICE, Viewer.of_player("bob")])
def test_a_zoom_from_fast_is_refused_as_such_whoever_it_names(author: Viewer) -> None:
    """In a Fast conflict no zoom is possible: Ada's zoom naming Carl, hidden from her, was
    refused as naming someone hidden (ES-RNG-2), and one naming no one that exists as an
    unknown name, before the Fast check. Every zoom from Fast now reads the same ES-ACT-2
    refusal, whoever it names: to Bob, for whom Carl does not exist, too."""
    c = _with_dora({"time_scale": "fast"})
    actor = "bruno" if author.player == "bob" else "ada"
    errors = {refused(c, f"{actor}: zoom {who}", IllegalCommand, "ES-ACT-2", author)
              for who in ("carl", "ghost", "dora")}
    assert errors == {"a Fast conflict cannot zoom in further: there is no faster time scale "
                      "(ES-ACT-2)"}


@pytest.mark.rule("ES-ROUND-4", "ES-RNG-6")
def test_a_zoom_off_ones_turn_is_refused_as_such_whoever_it_names() -> None:
    """Bruno's zoom at Ada's turn naming Carl (hidden from all of Bob's characters) or a name
    no one has reads as not Bruno's turn, as his attack would, not as an unknown name."""
    c = _with_dora({})
    bob = Viewer.of_player("bob")
    errors = {refused(c, f"bruno: zoom {who}", NotYourTurn, "ES-ROUND-4", bob)
              for who in ("carl", "ghost", "ada")}
    assert len(errors) == 1 and "it is not Bruno's turn" in errors.pop()


@pytest.mark.rule("ES-RNG-2", "ES-RNG-6")
def test_a_zoom_at_ones_turn_naming_a_hidden_character_reads_as_the_name_would() -> None:
    """At Ada's turn in a Quick conflict: Alice, whose Dora sees Carl, is told Ada sees no Carl
    (ES-RNG-2); a player for whom Carl does not exist is told what a name no one has would be
    told."""
    c = _with_dora({})
    msg = refused(c, "ada: zoom carl", IllegalCommand, "ES-RNG-2", ALICE)
    assert msg == "Ada sees no 'carl' to target (ES-RNG-2)"
    solo = moved(make({"lurking": {"carl": ["ada", "bruno"]}}, script=[
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "moves"]), "round", "countdown")
    hidden = refused(solo, "ada: zoom carl", InvalidInput, None, ALICE)
    ghost = refused(solo, "ada: zoom ghost", InvalidInput, None, ALICE)
    assert hidden == ghost.replace("ghost", "carl")


@pytest.mark.rule("ES-ROUND-3")
@pytest.mark.parametrize("gap", [0, -1, "five", 101])
def test_a_min_gap_out_of_range_is_refused_saying_what_min_gap_takes(gap: object) -> None:
    """``min_gap = 0`` was taken, and then "declare 5,5" was refused as "actions must be at
    least 0 apart"; -1 read "must be at least 0". Each now says what min_gap takes, in the
    scenario and in an override alike, and 1 (any two different scores) is the least."""
    with pytest.raises(InvalidInput) as info:
        make({"min_gap": gap})
    assert info.value.rule == "ES-ROUND-3"
    assert str(info.value).startswith(
        "settings.min_gap takes a whole number from 1 to 100, not ")
    assert "the fewest initiative steps between two acting initiatives of one character" \
        in str(info.value)
    if isinstance(gap, int):  # an override of another kind is refused as such first
        refused(started(), f"override settings.min_gap {gap}", InvalidInput, "ES-ROUND-3")
    one = started({"min_gap": 1})
    one.execute("ada: declare 5,4")
    assert one.state.ext.countdown.declarations["ada"] == [5, 4]


@pytest.mark.rule("ES-ROUND-3")
def test_a_conflict_stored_with_min_gap_0_plays_by_a_gap_of_1_and_takes_joins() -> None:
    """A conflict stored by main at 312f6fe, before a min_gap below 1 was refused, holds 0:
    every 'join' (and every override of the set-up) was refused as its set-up now is, until
    the GM overrode min_gap. It folds as it was played (0 stays in its settings) and plays by
    the least gap the rules take, 1: joins and set-up overrides are taken, a repeated score
    is refused as "at least 1 apart" (it read "at least 0 apart"), and an override back to 0
    is refused as at set-up."""
    import json
    from pathlib import Path

    from fracas.engine.conflict import fold
    from fracas.engine.serialize import state_to_data

    path = Path(__file__).parent / "data" / "min-gap-0-by-main-312f6fe.json"
    data = json.loads(path.read_text(encoding="utf-8"))["min-gap-0"]
    records = [Record.from_data(r, ES.events) for r in data["records"]]
    assert [r.to_data() for r in records] == data["records"]
    assert as_stored_before(json.loads(json.dumps(state_to_data(fold(ES, records))))) \
        == data["state"]
    c = Conflict(ES, "gapless", records)
    assert c.state.settings["min_gap"] == 0 and c.state.ext.phase == "declare"
    c.execute("""join dan kind=npc stats='{"physical": 9, "awareness": 1}'""", time="")
    assert "dan" in c.state.participants
    c.execute("override title 'Gapless, still'", time="")
    assert c.state.title == "Gapless, still"
    refused(c, "override settings.min_gap 0", InvalidInput, "ES-ROUND-3")
    assert "at least 1 apart" in refused(c, "carl: declare 4,4", IllegalCommand, "ES-ROUND-3")
    c.execute("carl: declare 4,3", time="")
    c.execute("countdown", time="")
    while c.state.ext.phase == "countdown":
        c.execute(f"{c.state.ext.countdown.current.actor}: done", time="")
    c.execute("round", time="")
    c.execute("dan: declare 5,4", time="")  # the joiner, at a gap of 1
    assert c.state.ext.countdown.declarations["dan"] == [5, 4]
    assert c.state.settings["min_gap"] == 0  # the log is as it was played


def _sides(lurking: dict[str, list[str]] | None = None) -> Conflict:
    """Ada (alice) and Bruno (bob) of the crew, Carl and Dan of the thugs; Ada's turn."""
    people = [{**pc("ada", "alice"), "side": "crew"}, {**pc("bruno", "bob"), "side": "crew"},
              {**pc("carl"), "side": "thugs"}, {**pc("dan"), "side": "thugs"}]
    return moved(make({"lurking": lurking or {}}, people, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "dan: awareness successes=0", "moves"]),
        "round", "countdown")


@pytest.mark.rule("ES-RNG-1", "ES-RNG-2")
def test_a_hide_naming_no_one_hides_from_the_other_sides_not_from_allies() -> None:
    """Ada hides without from=: she was hidden from Bruno too, her own side's, so Bob's
    Bruno could no longer see her (nor help her). Now she hides from the thugs only: Bruno
    still sees her, and Bob's log still shows her."""
    c = _sides()
    c.execute("ada: hide successes=1")
    ranges = c.state.ext.ranges
    assert ranges.hidden["ada"] == ["carl", "dan"] and not ranges.is_hidden("ada", "bruno")
    assert _lines(c, Viewer.of_player("bob"))[1] == "Ada is hidden from Carl, Dan"
    assert c.state.ext.countdown.current.actor == "bruno"
    assert "bruno: attack ada" in c.legal_commands("bruno")
    # a log recorded before keeps its hide as recorded: the event names whom it hides from
    record = c.records[-1]
    before = tuple(ev.Hidden(participant="ada", from_=("bruno", "carl", "dan"))
                   if e.type == "hidden" else e for e in record.events)
    stored = _sides()
    stored.append_record(Record(record.version, record.command, before))
    assert stored.state.ext.ranges.hidden["ada"] == ["bruno", "carl", "dan"]


@pytest.mark.rule("ES-RNG-1", "ES-RNG-6")
def test_a_hide_from_the_other_sides_reads_alike_whether_or_not_one_of_them_is_hidden() -> None:
    """Without sides a hide is from everyone, as before. With nobody on another side that a
    player knows of, the line reads "hidden from no one", whether or not a hidden thug is
    there (before: "Ada is hidden from ", and no count of the unseen)."""
    plain = make(script=["ada: awareness successes=3", "bruno: awareness successes=2",
                         "carl: awareness successes=1", "moves", "ada: done", "bruno: done",
                         "round", "countdown", "ada: hide successes=1"])
    assert plain.state.ext.ranges.hidden["ada"] == ["bruno", "carl"]
    lurking, gone = _sides({"carl": ["ada", "bruno"], "dan": ["ada", "bruno"]}), _sides()
    for line in ("leave carl 'gone'", "leave dan 'gone'"):
        gone.execute(line)
    for c in (lurking, gone):
        c.execute("ada: hide successes=1")
        assert _lines(c, ALICE)[1] == "Ada is hidden from no one"
    assert [(e["command"], e["lines"]) for e in (log_view(lurking, ALICE)[-1],
                                                  log_view(gone, ALICE)[-1])] == [
        ("ada: hide successes=1", _lines(gone, ALICE))] * 2
    assert _lines(lurking, Viewer.gm())[1] == "Ada is hidden from Carl, Dan"


BOB = Viewer.of_player("bob")


def _zoomed(gm_only: list[str]) -> Conflict:
    """Ada (Alice's) zooms in with Bruno (Bob's) in a Quick conflict with ``gm_only``
    settings (and a GM-only die size, so the zoom's settings always hold one)."""
    c = started({"time_scale": "quick", "die_size": 8,
                 "gm_only_settings": ["die_size", *gm_only]})
    c.execute("countdown")
    c.execute("ada: zoom bruno reason='a fist fight on the roof'")
    return c


@pytest.mark.rule("ES-ACT-1", "ES-RNG-6")
@pytest.mark.parametrize("viewer", [BOB, Viewer.public()])
def test_a_zoom_reads_as_typed_to_a_player_who_does_not_own_the_zoomer(viewer: Viewer) -> None:
    """Bob (and an onlooker) read the entry of Ada's zoom as "Ada: zoom": its settings hold
    GM-only values, so the entry was labelled whole. They read the command as typed and the
    line, who zoomed in with whom for how many rounds, and still nothing of the settings."""
    c = _zoomed([])
    entry = log_view(c, viewer)[-1]
    assert entry["command"] == "ada: zoom bruno reason='a fist fight on the roof'"
    assert entry["lines"] == ["zoom in (fast, battlefield scale, 5 rounds) with Ada, Bruno: "
                              "a fist fight on the roof"]
    data = entry["events"][0]["data"]
    assert "settings" not in data and data["round_limit"] == 5
    assert log_view(c, ALICE)[-1]["command"] == entry["command"]


@pytest.mark.rule("ES-ACT-1", "ES-SET-4")
def test_a_zoom_derived_from_gm_only_settings_reads_them_as_unknown() -> None:
    """With the time scale and zoom_rounds the GM's, the zoom's entry told every player
    "fast" (one faster than the secret scale) and "5 rounds"; they read "?" now, the GM the
    values."""
    c = _zoomed(["time_scale", "zoom_rounds"])
    for viewer in (ALICE, BOB, Viewer.public()):
        entry = log_view(c, viewer)[-1]
        assert entry["command"] == "ada: zoom bruno reason='a fist fight on the roof'"
        assert entry["lines"] == ["zoom in (?, battlefield scale, ? rounds) with Ada, Bruno: "
                                  "a fist fight on the roof"]
        data = entry["events"][0]["data"]
        assert data.get("time_scale") is None and data.get("round_limit") is None
    assert log_view(c, Viewer.gm())[-1]["lines"][0].startswith(
        "zoom in (fast, battlefield scale, 5 rounds)")


@pytest.mark.rule("ES-ACT-5", "ES-RNG-1")
def test_a_push_tells_a_player_nothing_of_a_band_under_a_hidden_flag() -> None:
    """Carl is hidden from Bruno: their band is the GM's. Ada pushing Bruno away from Carl
    with two=yes told Alice the band all the same: "spent: two 1" where it was Close, nothing
    spent where Near, and "cannot be pushed any further relative to Carl" where Distant.
    Alice now reads the same push whatever the band; the GM reads the edge."""
    def pushed(band: str) -> Conflict:
        c = started({"lurking": {"carl": ["bruno"]},
                     "ranges": {"default": "near", "pairs": [["bruno", "carl", band]]}})
        c.execute("countdown")
        c.execute("ada: push bruno successes=2 two=yes away=carl", ALICE)
        return c

    seen = {band: _lines(pushed(band), ALICE) for band in ("close", "near", "distant")}
    assert seen["close"] == seen["near"] == seen["distant"]
    assert seen["near"][0].endswith("success, 1 extra (spent: two categories 1)")
    assert "already at the last band" in _lines(pushed("distant"), Viewer.gm())[0]
    assert pushed("close").state.ext.ranges.get("bruno", "carl") == 2


@pytest.mark.rule("ES-ACT-1", "ES-SET-4")
def test_a_zooms_round_limit_from_a_gm_only_setting_stays_the_gms_in_every_view() -> None:
    """The zoom's entry read "? rounds", but the zoomed level of the view still gave its
    round limit (5), and its line "round 0/5": every view a player has keeps it unknown."""
    c = _zoomed(["zoom_rounds"])
    for viewer in (ALICE, BOB, Viewer.public()):
        level = view(c, viewer)["zoom"][0]
        assert level["round_limit"] is None
        assert any(line.endswith("? rounds at most") for line in level["ruleset"]["lines"])
    gm = view(c, Viewer.gm())["zoom"][0]
    assert gm["round_limit"] == 5
    assert any(line.endswith("5 rounds at most") for line in gm["ruleset"]["lines"])
    assert view(_zoomed([]), ALICE)["zoom"][0]["round_limit"] == 5
