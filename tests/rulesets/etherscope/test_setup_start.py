"""Set-up (ES-SET-*) and the start of a conflict (ES-START-*)."""

from __future__ import annotations

import pytest

from fracas.engine.conflict import fold
from fracas.engine.describe import describe
from fracas.engine.events import Record
from fracas.engine.model import Viewer
from fracas.engine.views import view
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

from .helpers import make, pc, refused, started


@pytest.mark.rule("ES-SET-1", "ES-SET-2", "ES-SET-4")
@pytest.mark.parametrize("key,value", [("nature", "spiritual"), ("reality", "dream"),
                                       ("time_scale", "slow"), ("range_scaling", "orbital")])
def test_bad_setting_is_refused_naming_the_key(key: str, value: str) -> None:
    with pytest.raises(InvalidInput) as info:
        make({key: value})
    assert f"settings.{key}" in str(info.value)
    assert value in str(info.value)


@pytest.mark.rule("ES-SET-1", "ES-SET-2", "ES-SET-4", "ES-SET-7", "ES-SET-6", "ES-SET-5")
def test_table_line_and_band_meanings_in_view_and_log() -> None:
    c = make({"nature": "physical", "reality": "prime", "time_scale": "quick",
              "range_scaling": "chase"})
    lines = view(c, Viewer.of_player("alice"))["conflict"]["ruleset"]["lines"]
    assert lines[0] == "This is a prime, physical, quick, chase scale conflict."
    assert lines[1:4] == ["Close: alongside each other", "Near: quite close, one behind the other",
                          "Distant: further away than the distance moved in one round of "
                          "about a minute"]
    created = describe(c.ruleset, c.records[0].events[0], c.state)
    assert "This is a prime, physical, quick, chase scale conflict." in created
    assert "Close: alongside each other" in created


@pytest.mark.rule("ES-SET-3", "ES-SET-6")
def test_the_bands_say_how_long_a_round_of_the_time_scale_is() -> None:
    """Near on a battlefield is one move in a round: how far hangs on the time scale."""
    for scale, length in (("fast", "a few seconds"), ("tactical", "about 10 minutes"),
                          ("logistic", "a day")):
        c = make({"time_scale": scale, "range_scaling": "battlefield"})
        lines = view(c, Viewer.of_player("alice"))["conflict"]["ruleset"]["lines"]
        assert f"Near: up to one move in a round of {length} (say 30 feet in a Quick " \
               "conflict)" in lines, lines


@pytest.mark.rule("ES-SET-6")
def test_custom_scaling_needs_its_texts_and_shows_them() -> None:
    with pytest.raises(InvalidInput, match="custom_scaling"):
        make({"range_scaling": "custom"})
    c = make({"range_scaling": "custom", "custom_scaling": {
        "name": "orbit", "close": "docked", "near": "same orbit", "distant": "another planet"}})
    lines = view(c, Viewer.gm())["conflict"]["ruleset"]["lines"]
    assert "scale conflict" in lines[0] and "orbit" in lines[0]
    assert "Close: docked" in lines


@pytest.mark.rule("ES-SET-4")
def test_default_numbers_are_settings() -> None:
    with pytest.raises(InvalidInput, match=r"settings\.threshold"):
        make({"die_size": 6, "threshold": 7})
    c = make({"default_difficulty": 3, "die_size": 10, "threshold": 8})
    assert c.state.settings["default_difficulty"] == 3


@pytest.mark.rule("ES-ACT-4")
@pytest.mark.parametrize("key,value,high", [("die_size", 1001, 1000), ("default_pool", 31, 30),
                                            ("zoom_rounds", 101, 100)])
def test_a_number_setting_past_what_a_roll_holds_is_refused_in_a_file_and_an_override(
        key: str, value: int, high: int) -> None:
    # before: accepted, then every view and command of the conflict failed on its roll
    with pytest.raises(InvalidInput, match=rf"settings\.{key} is {value}; it goes up to {high}"):
        make({key: value})
    c = make()
    version = c.version
    with pytest.raises(InvalidInput, match=rf"it goes up to {high}"):
        c.execute(f"override settings.{key} {value}")
    assert c.version == version
    assert view(c, Viewer.gm())["conflict"]["settings"][key] != value


@pytest.mark.rule("ES-START-1")
def test_awareness_is_kept_and_rolled_once() -> None:
    c = make(script=["ada: awareness dice=5,6"])
    assert c.state.ext.awareness["ada"] == 2
    refused(c, "ada: awareness dice=5,5", IllegalCommand, "ES-START-1")
    msg = refused(c, "moves", IllegalCommand, "ES-START-1")
    assert "Bruno" in msg and "Carl" in msg
    c.execute("bruno: awareness successes=4")
    assert c.state.ext.awareness["bruno"] == 4


@pytest.mark.rule("ES-START-2", "ES-START-4")
def test_ambush_succeeds_only_when_successes_exceed_the_counter() -> None:
    c = make(script=["carl: ambush ada,bruno dice=5,6 counter=ada:5,1/bruno:6,6"])
    ev = c.records[-1].events[0]
    assert [r["ambushed"] for r in ev.data["targets"]] == [True, False]
    assert c.state.ext.ranges.is_hidden("carl", "ada")
    assert not c.state.ext.ranges.is_hidden("carl", "bruno")
    refused(c, "carl: ambush ada", IllegalCommand, "ES-START-2")


@pytest.mark.rule("ES-START-2")
def test_the_targets_of_an_ambush_roll_the_counter_skill_the_gm_names() -> None:
    people = [pc("ada", "alice", skills={"stealth": 3}),
              pc("bruno", "bob", awareness=2, skills={"perception": 4})]
    c = make(people=people)
    c.execute("ada: ambush bruno skill=stealth dice=6,6,6 counter_skill=perception "
              "counter=bruno:6,6,1,1")
    (target,) = c.records[-1].events[0].data["targets"]
    assert (target["skill"], target["pool"], target["successes"]) == ("perception", 4, 2)
    assert target["ambushed"]  # 3 successes beat 2
    plain = make(people=people)  # by default the targets roll the awareness roll's pool
    plain.execute("ada: ambush bruno skill=stealth dice=6,6,6 counter=bruno:6,6")
    assert plain.records[-1].events[0].data["targets"][0]["pool"] == 2


@pytest.mark.rule("ES-START-1", "ES-START-2", "ES-ROUND-5")
def test_table_dice_that_do_not_fit_say_whose_roll_and_the_rule() -> None:
    c = make(people=[pc("ada", "alice", skills={"stealth": 3}), pc("bruno", "bob")])
    msg = refused(c, "ada: ambush bruno skill=stealth dice=6,6,6 counter=bruno:6,6,1,1",
                  InvalidInput, "ES-START-2")
    # the pool's expression is said once (it read "… (2d6>=5): 2d6>=5 needs 2 dice, got 4")
    assert msg == ("Bruno's roll is 2 dice (2d6>=5), but 4 were typed in: [6, 6, 1, 1] "
                   "(ES-START-2)")
    msg = refused(c, "ada: awareness dice=6,7", InvalidInput, "ES-START-1")
    assert msg == "Ada's roll is 2 dice (2d6>=5), but die 2 shows 7: a d6 shows 1 to 6 (ES-START-1)"
    c.execute("ada: awareness dice=6,1")
    c.execute("bruno: awareness dice=5,2")
    msg = refused(c, "moves rolloff=ada:6,6,6", InvalidInput, "ES-ROUND-5")
    assert msg == "Ada's roll is 2 dice (2d6>=5), but 3 were typed in: [6, 6, 6] (ES-ROUND-5)"


@pytest.mark.rule("ES-START-3", "ES-START-6")
def test_gm_sets_starting_ranges_for_pairs_and_groups() -> None:
    c = make({"ranges": {"default": "distant", "pairs": [["ada", "bruno", "close"]]}},
             script=["group duo bruno,carl", "set-range ada duo near"])
    r = c.state.ext.ranges
    assert r.get("ada", "bruno") == 1 and r.get("ada", "carl") == 1
    refused(c, "set-range ada ada close", InvalidInput, "ES-START-3")


@pytest.mark.rule("ES-START-5")
def test_awareness_moves_in_descending_order_against_those_yet_to_move() -> None:
    c = make(script=["ada: awareness successes=1", "bruno: awareness successes=3",
                     "carl: awareness successes=2", "moves"])
    assert c.state.ext.move_order == ["bruno", "carl", "ada"]
    assert c.ruleset.view_ext(c.state, Viewer.gm())["mover"] == "bruno"
    refused(c, "ada: step bruno toward", NotYourTurn, "ES-START-5")
    c.execute("bruno: step carl,ada toward")
    refused(c, "bruno: step ada away", IllegalCommand, "ES-START-5")
    c.execute("bruno: done")
    refused(c, "carl: step bruno away", IllegalCommand, "ES-START-5")
    refused(c, "bruno: step carl away", NotYourTurn, "ES-START-5")
    assert [lc.text() for lc in c.ruleset.legal_commands(c.state, "carl")] == [
        "carl: step ada toward", "carl: step ada away", "carl: done"]
    c.execute("carl: step ada away")
    c.execute("carl: done")  # ada moves last, against nobody: the moves are over
    assert c.state.ext.phase == "ready"


@pytest.mark.rule("ES-START-5", "ES-ROUND-5")
def test_awareness_ties_are_rolled_off_in_the_log() -> None:
    c = make(script=["ada: awareness successes=2", "bruno: awareness successes=2",
                     "carl: awareness successes=0", "moves"])
    types = [e.type for e in c.records[-1].events]
    assert "tie_rolloff" in types
    assert set(c.state.ext.move_order[:2]) == {"ada", "bruno"}
    assert c.state.ext.awareness == {"ada": 2, "bruno": 2, "carl": 0}


@pytest.mark.rule("ES-START-6")
def test_group_must_be_moved_against_together_and_a_lone_move_leaves_it() -> None:
    c = make({"groups": {"duo": ["bruno", "carl"]}},
             script=["ada: awareness successes=3", "bruno: awareness successes=2",
                     "carl: awareness successes=1", "moves"])
    msg = refused(c, "ada: step bruno toward", IllegalCommand, "ES-START-6")
    assert "duo" in msg
    c.execute("ada: step duo toward")
    c.execute("ada: done")
    c.execute("bruno: step carl away")
    assert "duo" not in c.state.ext.groups
    assert c.records[-1].events[-1].type == "group_left"


@pytest.mark.rule("ES-START-6")
def test_a_move_toward_one_member_of_a_group_takes_that_member_out_of_it() -> None:
    c = started({"groups": {"agents": ["bruno", "carl"]}})
    c.execute("countdown")
    c.execute("ada: move bruno toward successes=1")
    assert c.state.ext.ranges.get("ada", "bruno") != c.state.ext.ranges.get("ada", "carl")
    assert "agents" not in c.state.ext.groups  # they no longer stand together
    assert [e.data for e in c.records[-1].events if e.type == "group_left"] == [
        {"group": "agents", "participant": "bruno"}]
    both = started({"groups": {"agents": ["bruno", "carl"]}})
    both.execute("countdown")
    both.execute("ada: move agents toward successes=1")  # the whole group: it stays
    assert both.state.ext.groups == {"agents": ["bruno", "carl"]}


@pytest.mark.rule("ES-ROUND-1")
def test_missing_conflict_condenser_is_refused() -> None:
    with pytest.raises(InvalidInput, match="society"):
        make({"nature": "social"}, [{"id": "ada", "name": "Ada", "stats": {"physical": 3}}])
    c = started()
    assert c.state.round == 1


@pytest.mark.rule("ES-START-3")
def test_the_default_range_is_overridden_by_its_band_name_and_places_a_joiner() -> None:
    c = make({"ranges": {"default": "near"}})
    # before: kept as the band's number, it took 2 and refused "distant"
    refused(c, "override settings.ranges.default far", InvalidInput, None)
    refused(c, "override settings.ranges.default 2", InvalidInput, None)
    c.execute("override settings.ranges.default distant")
    assert '(was "near")' in describe(c.ruleset, c.records[-1].events[0], c.state)
    c.execute('join eve stats=\'{"physical": 8}\'')
    assert c.state.ext.ranges.get("ada", "eve") == 2  # distant


@pytest.mark.rule("ES-START-3")
def test_a_log_that_overrode_the_default_range_by_number_still_replays() -> None:
    c = make()
    c.execute("override settings.ranges.default distant")
    stored = c.records[-1].to_data()
    stored["events"][0]["data"]["value"] = 0  # close: logs before the band names hold numbers
    records = [*c.records[:-1], Record.from_data(stored)]
    assert fold(c.ruleset, records).settings["ranges"]["default"] == 0


@pytest.mark.rule("ES-ACT-4")
@pytest.mark.parametrize(("key", "meant"), [
    ("awarness", "awareness"), ("skils", "skills"), ("Physical", "physical"),
    ("socity", "society"), ("pools", "pool"),
])
def test_a_stat_that_looks_like_a_mistyped_one_is_refused_naming_it(key: str,
                                                                      meant: str) -> None:
    # before: kept as a stat of the GM's own, the character's awareness (or skills) rolled
    # with the default pool without a word
    with pytest.raises(InvalidInput) as info:
        make(people=[pc("ada", "alice", **{key: 3}), pc("carl")])
    assert str(info.value) == (f"ada: unknown stat {key!r}; did you mean {meant!r}? (a stat "
                               "of your own must not look like one of Etherscope's) (ES-ACT-4)")
    c = make()
    version = c.version
    with pytest.raises(InvalidInput, match=rf"dora: unknown stat '{key}'; did you mean"):
        c.execute(f"join dora side=heroes stats='{{\"physical\": 8, \"{key}\": 3}}'", time="")
    assert c.version == version and "dora" not in c.state.participants
    kept = make(people=[pc("ada", "alice", stealth=3, notes="owes Ivan"), pc("carl")])
    assert kept.state.participants["ada"].stats["stealth"] == 3  # a skill rated on the sheet


@pytest.mark.rule("ES-RNG-6")
def test_a_lurker_hidden_from_everyone_too_is_told_to_keep_one_of_the_two() -> None:
    # before: refused with advice that did not fit ("give what the settings say of them (a
    # guard, cover, a range) in the script, once they have joined")
    people = [pc("ada", "alice"), {**pc("kim"), "hidden": True}]
    with pytest.raises(InvalidInput) as info:
        make({"lurking": {"kim": ["ada"]}}, people)
    assert str(info.value) == (
        "settings.lurking.kim: kim is hidden = true, hidden from every player already; "
        "[settings.lurking] hides one from some characters only: keep one of the two "
        "(ES-RNG-6)")
    alone = view(make({}, people), Viewer.of_player("alice"))  # either one alone will do
    assert [p["id"] for p in alone["conflict"]["participants"]] == ["ada"]
