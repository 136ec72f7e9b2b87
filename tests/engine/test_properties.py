"""Property tests of the engine on the toy ruleset (random legal command sequences)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fracas.engine import Conflict
from fracas.engine.serialize import state_from_data, state_to_data
from tests.support.helpers import TOY, toy_conflict

ACTORS = [None, "ada", "bruno", "gob"]


def concrete(commands: list[str]) -> list[str]:
    return [c for c in commands if not any(w.isupper() for w in c.split())]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A seed and a sequence of legal commands, each picked from legal_commands."""
    seed = draw(st.sampled_from(["a", "b", "c"]))
    conflict = toy_conflict(seed)
    played: list[str] = []
    for _ in range(draw(st.integers(1, 25))):
        options = [c for a in ACTORS for c in concrete(conflict.legal_commands(a))]
        extra = ["note 'a note'", "effect 'smoke' count=2", "roll 2d6 visibility=gm why=SECRET-1",
                 "note SECRET-2 visibility=gm", "effect SECRET-3 visibility=gm"]
        choice = draw(st.sampled_from(options + extra))
        conflict.execute(choice, time="")  # a legal command never raises
        played.append(choice)
    return seed, played


@given(games())
def test_legal_commands_never_fail_and_replay_equals_the_live_state(
    game: tuple[str, list[str]],
) -> None:
    seed, played = game
    live = toy_conflict(seed)
    for line in played:
        live.execute(line, time="")
    assert live.replay() == live.state
    assert Conflict(TOY, seed, live.records).state == live.state
    assert state_from_data(TOY, state_to_data(live.state)) == live.state


@given(games(), st.integers(1, 5))
def test_undo_then_redo_returns_the_same_state(game: tuple[str, list[str]], k: int) -> None:
    seed, played = game
    c = toy_conflict(seed)
    for line in played:
        c.execute(line, time="")
    k = min(k, len(c.undoable()))
    if k == 0:
        return
    before = c.snapshot_state()
    c.execute(f"undo {k}")
    c.execute(f"redo {k}")
    assert c.state == before


@given(games())
def test_the_same_seed_and_commands_give_the_same_log(game: tuple[str, list[str]]) -> None:
    seed, played = game
    a, b = toy_conflict(seed), toy_conflict(seed)
    for line in played:
        a.execute(line, time="")
        b.execute(line, time="")
    assert [r.payload() for r in a.records] == [r.payload() for r in b.records]


@given(games())
def test_snapshots_load_to_the_same_state(game: tuple[str, list[str]]) -> None:
    seed, played = game
    c = toy_conflict(seed)
    half = len(played) // 2
    for line in played[:half]:
        c.execute(line, time="")
    snap = (c.version, c.snapshot_state())
    for line in played[half:]:
        c.execute(line, time="")
    assert Conflict(TOY, seed, c.records, snapshot=snap).state == c.state


@given(games(), st.sampled_from(["alice", "bob"]))
def test_no_view_leaks_gm_secrets_to_a_player(game: tuple[str, list[str]], player: str) -> None:
    import json

    from fracas.engine import Viewer
    from fracas.engine.views import log_view, view

    seed, played = game
    c = toy_conflict(seed)
    for line in played:
        c.execute(line, time="")
    who = Viewer.of_player(player)
    seen = json.dumps(view(c, who)) + json.dumps(log_view(c, who))
    assert "SECRET-" not in seen and "fire" not in seen
    assert '"visibility": "gm"' not in seen


@given(games(), st.lists(st.tuples(st.sampled_from(["undo", "redo", "note"]), st.integers(1, 4)),
                         min_size=1, max_size=12))
def test_undo_and_redo_from_checkpoints_equal_a_fold_of_the_log(
    game: tuple[str, list[str]], moves: list[tuple[str, int]],
) -> None:
    """With a checkpoint every other counting record, any mix of undo, redo and new commands
    leaves the live state equal to a fold of the whole log from the start."""
    from fracas.engine import conflict as conflict_module

    seed, played = game
    saved = conflict_module.CHECKPOINT_EVERY
    conflict_module.CHECKPOINT_EVERY = 2
    try:
        c = toy_conflict(seed)
        for line in played:
            c.execute(line, time="")
        for verb, n in moves:
            can = len(c.undoable() if verb == "undo" else c.redoable())
            if verb == "note":
                c.execute(f"note step{n}", time="")
            elif can:
                c.execute(f"{verb} {min(n, can)}", time="")
            assert c.state == c.replay()
        assert Conflict(TOY, seed, c.records).state == c.state
    finally:
        conflict_module.CHECKPOINT_EVERY = saved
