"""The log: versions, undo and redo as events, stale writers, idempotency, refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.engine import Conflict, ConflictState, Event, Viewer
from fracas.engine.conflict import History, Versions
from fracas.errors import (
    FracasError,
    IllegalCommand,
    InternalError,
    InvalidInput,
    NotAllowed,
    StaleVersion,
)
from tests.support.helpers import TOY, snapshot, toy_conflict


def play(conflict: Conflict, *lines: str) -> None:
    for line in lines:
        conflict.execute(line, time="")


def test_versions_only_grow_through_undo_and_redo() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=3")
    assert c.state.ext.hp["gob"].current == 3
    c.execute("undo")
    assert c.version == 4
    assert c.state.ext.hp["gob"].current == 6
    c.execute("redo")
    assert c.version == 5
    assert c.state.ext.hp["gob"].current == 3
    assert [r.version for r in c.records] == [1, 2, 3, 4, 5]


def test_undo_several_steps_and_redo_them_one_by_one() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=1", "ada: hit gob dice=2")
    after_first_hit = c.replay(3)
    c.execute("undo 2")
    assert c.state.ext.hp["gob"].current == 6
    c.execute("redo")
    assert c.state == after_first_hit
    c.execute("redo")
    assert c.state.ext.hp["gob"].current == 3


def test_a_new_command_after_undo_closes_the_redo_branch() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=4", "undo", "ada: hit bruno dice=1")
    with pytest.raises(IllegalCommand, match="nothing to redo"):
        c.execute("redo")
    assert c.state.ext.hp["gob"].current == 6
    assert c.state.ext.hp["bruno"].current == 5


def test_a_refused_redo_says_which_new_command_set_the_undone_ones_aside() -> None:
    # the GM who pressed Redo after a new command read a bare "there is nothing to redo"
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=4", "undo", "note 'the goblin ducks'",
         "ada: hit bruno dice=1")
    with pytest.raises(IllegalCommand) as info:
        c.execute("redo")
    assert str(info.value) == (
        "there is nothing to redo: v5 (note 'the goblin ducks'), given after the undo, set "
        "the undone commands aside for good (undo and redo never branch): give them again "
        "instead")
    # kept with a snapshot, so a conflict loaded from one says the same
    assert History.from_data(c.history_data()).closed == 5
    play(c, "undo", "redo")  # an undo and a redo since: nothing undone waits
    with pytest.raises(IllegalCommand, match=r"nothing to redo: nothing undone waits to be "
                                             r"brought back$"):
        c.execute("redo")


def test_undo_refuses_to_take_back_the_set_up() -> None:
    c = toy_conflict()
    with pytest.raises(IllegalCommand, match=r"nothing to undo: only the set-up is left, and "
                                             r"it is never undone$"):
        c.execute("undo")
    play(c, "start ada")
    with pytest.raises(IllegalCommand, match="only 1 command"):
        c.execute("undo 3")


def test_undo_then_redo_returns_the_same_state() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=5", "ada: done bruno", "bruno: hit gob")
    before = c.snapshot_state()
    play(c, "undo 4", "redo 4")
    assert c.state == before


def test_redo_replays_recorded_dice_and_never_rerolls() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob")
    rolled = c.records[-1].events[0].data["damage"]
    play(c, "undo", "redo")
    assert c.state.ext.hp["gob"].current == 6 - rolled


def test_stale_expected_version_is_refused_and_changes_nothing() -> None:
    c = toy_conflict()
    play(c, "start ada")
    before = snapshot(c)
    with pytest.raises(StaleVersion, match="version 2, not 1"):
        c.execute("ada: hit gob", expected_version=1)
    assert snapshot(c) == before
    c.execute("ada: hit gob", expected_version=2)
    assert c.version == 3


def test_a_retried_command_with_the_same_key_is_applied_once() -> None:
    c = toy_conflict()
    play(c, "start ada")
    first = c.execute("ada: hit gob", key="k1")
    again = c.execute("ada: hit gob", key="k1")
    assert again is first
    assert c.version == 3
    with pytest.raises(InvalidInput, match="used for another command"):
        c.execute("ada: hit bruno", key="k1")


def test_same_seed_and_commands_give_the_same_log() -> None:
    lines = ["start ada", "ada: hit gob", "ada: hit bruno", "ada: done gob", "gob: hit ada"]
    a, b = toy_conflict("s1"), toy_conflict("s1")
    play(a, *lines)
    play(b, *lines)
    assert [r.payload() for r in a.records] == [r.payload() for r in b.records]
    c = toy_conflict("another seed")
    play(c, *lines)
    rolls = lambda x: [e.data.get("damage") for r in x.records for e in r.events]  # noqa: E731
    assert rolls(a) != rolls(c)


def test_reloading_from_the_log_gives_the_live_state() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob", "undo", "ada: hit bruno", "ada: done gob")
    loaded = Conflict(TOY, c.seed, c.records)
    assert loaded.state == c.state
    assert loaded.version == c.version
    assert loaded.redoable() == c.redoable()


def test_a_refused_command_changes_nothing() -> None:
    c = toy_conflict()
    play(c, "start ada", "ada: hit gob dice=2")
    before = snapshot(c)
    for bad in ["bruno: hit gob", "ada: hit nobody", "ada: hit gob dice=7",
                "ada: done ada", "ada: fly", "override ada.stats.hp lots", "undo 9"]:
        with pytest.raises(FracasError):
            c.execute(bad)
        assert snapshot(c) == before, bad


def test_players_act_only_for_their_own_characters() -> None:
    c = toy_conflict()
    play(c, "start ada")
    with pytest.raises(NotAllowed, match="bob does not play 'ada'"):
        c.execute("ada: hit gob", Viewer.of_player("bob"))
    with pytest.raises(NotAllowed, match="GM only"):
        c.execute("undo", Viewer.of_player("alice"))
    record = c.execute("ada: hit gob", Viewer.of_player("alice"))
    assert record.author == "alice"


def test_the_gm_overrides_any_value_and_the_override_is_logged() -> None:
    c = toy_conflict()
    c.execute("override ada.stats.hp 9 reason='healed off-screen'")
    assert c.state.participants["ada"].stats["hp"] == 9
    c.execute("override ext.hp.gob.current 2")
    assert c.state.ext.hp["gob"].current == 2
    event = c.records[-1].events[0]
    assert event.data["was"] == 6 and event.visibility == "gm"
    with pytest.raises(InvalidInput, match="has no 'mana'"):
        c.execute("override ada.stats.mana 3")
    with pytest.raises(InvalidInput, match='takes a whole number, not "two"'):
        c.execute("override ext.hp.gob.current '\"two\"'")
    c.execute("undo")
    assert c.state.ext.hp["gob"].current == 6


def test_participants_join_and_leave_mid_conflict() -> None:
    c = toy_conflict()
    play(c, "start ada", "join dora name=Dora side=heroes player=dana 'stats={\"hp\": 4}'")
    assert c.state.participants["dora"].owner == "dana"
    assert "dora" in c.state.ext.turns.not_gone()
    play(c, "ada: done dora", "leave gob reason=fled")
    assert not c.state.participants["gob"].active
    with pytest.raises(IllegalCommand, match="no longer in the conflict"):
        c.execute("leave gob")
    with pytest.raises(IllegalCommand, match="already a participant"):
        c.execute("join ada")


def test_an_ended_conflict_refuses_play_until_the_end_is_undone() -> None:
    c = toy_conflict()
    play(c, "start ada", "end 'the goblin surrenders' outcome='heroes win'")
    assert c.state.status == "ended" and c.state.outcome == "heroes win"
    with pytest.raises(IllegalCommand, match="has ended"):
        c.execute("ada: hit gob")
    c.execute("note 'a note after the end is fine'")
    c.execute("undo 2")
    c.execute("ada: hit gob")
    assert c.state.status == "running"


def test_an_internal_error_in_evolve_leaves_the_conflict_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = toy_conflict()
    play(c, "start ada")
    before = snapshot(c)

    original = TOY.evolve

    def broken(state: ConflictState, event: Event) -> None:
        original(state, event)
        if event.type == "hit":
            raise RuntimeError("a bug in the ruleset")

    monkeypatch.setattr(TOY, "evolve", broken)
    with pytest.raises(InternalError, match="internal error"):
        c.execute("ada: hit gob")
    monkeypatch.undo()
    assert snapshot(c) == before


def test_a_log_read_back_lazily_loads_to_the_same_conflict() -> None:
    import json

    from fracas.engine.events import LazyEvents, Record

    c = toy_conflict()
    play(c, "start ada", "ada: hit gob", "undo", "ada: hit bruno dice=2")
    stored = [Record(r.version, r.command, LazyEvents(json.dumps(r.to_data())), r.author,
                     r.time, r.key) for r in c.records]
    assert stored == c.records
    loaded = Conflict(TOY, c.seed, stored, snapshot=(c.version, c.snapshot_state()))
    assert loaded.state == c.state
    loaded.execute("undo")
    assert loaded.state == c.replay(2)


def test_a_record_whose_command_and_markers_disagree_is_refused() -> None:
    from fracas.engine.events import Event, Record

    c = toy_conflict()
    with pytest.raises(InvalidInput, match="does not match its events"):
        c.append_record(Record(2, "note hi", (Event("undone", {"versions": [1]}),)))
    with pytest.raises(InvalidInput, match="does not match its events"):
        c.append_record(Record(2, "undo", (Event("note", {"text": "x"}),)))
    assert c.version == 1


def test_a_prepared_record_committed_is_the_executed_one_and_a_stale_one_is_refused() -> None:
    played, committed = toy_conflict(), toy_conflict()
    play(played, "start ada", "ada: hit gob")
    for line in ("start ada", "ada: hit gob"):
        record = committed.prepare(line, time="")
        committed.commit(record)
    assert [r.payload() for r in committed.records] == [r.payload() for r in played.records]
    assert committed.state == played.state
    with pytest.raises(StaleVersion, match="record 3 does not follow version 3"):
        committed.commit(record)
    assert committed.version == 3


def test_a_key_is_its_authors_own_and_reveals_nothing_of_anothers() -> None:
    c = toy_conflict()
    play(c, "start ada")
    c.execute("gob: roll 1d20 visibility=gm why=ambush", key="k-gm")
    with pytest.raises(FracasError) as refused:  # bob's own key: refused as bob's command
        c.execute("gob: roll 1d20 visibility=gm why=ambush", Viewer.of_player("bob"), key="k-gm")
    assert "ambush" not in str(refused.value) and "idempotency" not in str(refused.value)
    # another's key is no key of alice's: her command is applied, nothing said of the GM's
    theirs = c.execute("ada: hit gob dice=1", Viewer.of_player("alice"), key="k-gm")
    assert theirs.author == "alice" and c.version == theirs.version
    mine = c.execute("ada: hit gob dice=1", Viewer.of_player("alice"), key="k-alice")
    assert c.execute("ada: hit gob dice=1", Viewer.of_player("alice"), key="k-alice") is mine


def test_a_retried_key_after_its_command_was_undone_is_not_applied_again() -> None:
    c = toy_conflict()
    play(c, "start ada")
    first = c.execute("ada: hit gob dice=2", key="k1")
    c.execute("undo")
    assert c.execute("ada: hit gob dice=2", key="k1") is first
    assert c.state.ext.hp["gob"].current == 6 and c.version == 4
    undo = c.execute("undo", key="k-undo") if c.undoable() else None
    assert undo is None or c.execute("undo", key="k-undo") is undo
    assert Conflict(TOY, c.seed, c.records).state == c.state


def test_a_bug_in_a_rulesets_decide_is_refused_as_an_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    c = toy_conflict()
    c.execute("start ada")
    before = snapshot(c)

    def broken(state: ConflictState, command: object, ctx: object) -> list[Event]:
        raise KeyError("oops")

    monkeypatch.setattr(TOY, "decide", broken)
    with pytest.raises(InternalError, match="while deciding 'ada: hit gob'"):
        c.execute("ada: hit gob")
    assert snapshot(c) == before


@given(st.lists(st.integers(1, 60), unique=True, max_size=40).map(sorted),
       st.integers(0, 45), st.integers(0, 61), st.data())
def test_the_counting_versions_kept_as_runs_are_the_versions_they_stand_for(
        versions: list[int], n: int, since: int, data: st.DataObject) -> None:
    """What undo takes back, what a refold replays and what a snapshot keeps of the undo
    and redo markers is read from runs of versions: they must answer as the plain list."""
    kept = Versions()
    for v in versions:
        kept.append(v)
    assert list(kept) == versions and len(kept) == len(versions)
    assert kept.last(n) == versions[::-1][:n]
    assert kept.after(since) == [v for v in versions if v > since]
    gone = set(data.draw(st.lists(st.sampled_from(versions), unique=True))) if versions else set()
    kept.remove(gone)
    left = [v for v in versions if v not in gone]
    assert list(kept) == left and len(kept) == len(left)
    assert list(Versions(History.from_data({"active": kept.runs, "redo": []}).active.runs)) \
        == left
