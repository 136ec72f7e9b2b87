"""The live Projector: what it gives record by record is exactly what a full re-fold of the
log gives, for every viewer at every step; undo folds from checkpoints to the same state."""

from __future__ import annotations

import contextlib
import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine import Conflict, Viewer
from fracas.engine.conflict import fold
from fracas.engine.legal import hidden_words
from fracas.engine.projector import Entries, Projector, state_view
from fracas.engine.serialize import state_to_data
from fracas.errors import FracasError, InvalidInput, NotFound
from tests.rulesets.own_gm_only import own_secrets
from tests.rulesets.test_fuzz_commands import SCENARIOS, played
from tests.support.helpers import TOY, toy_conflict, toy_setup

EXAMPLES = int(os.environ.get("FUZZ_N", "6"))
ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")
SHAPES = ["note 'zq-gm-note' visibility=gm", "roll 1d6 why=zq-gm-roll visibility=gm",
          "effect 'zq-gm-effect' visibility=gm", "undo", "redo", "undo 2",
          "join zqnew name=Zqnew side=zqside hidden=yes"]


def viewers(c: Conflict) -> list[Viewer]:
    players = sorted({p.owner for p in c.state.participants.values() if p.owner})
    return [Viewer.gm(), Viewer.public(), *map(Viewer.of_player, players)]


def legal(c: Conflict) -> list[str]:
    out: list[str] = []
    for actor in [None, *c.state.innermost.participants]:
        out += [t for t in c.legal_commands(actor)
                if not any(w.isupper() and len(w) > 1 for w in t.split(" "))]
    return out


def step(c: Conflict, data: st.DataObject) -> None:
    ids = list(c.state.innermost.participants)
    choice = data.draw(st.integers(0, 4))
    if choice == 0:
        text = data.draw(st.sampled_from(SHAPES))
    elif choice == 1 and ids:
        verb = data.draw(st.sampled_from(["conceal", "reveal"]))
        text = f"{verb} {data.draw(st.sampled_from(ids))}"
    else:
        options = legal(c)
        if not options:
            return
        text = data.draw(st.sampled_from(options))
    with contextlib.suppress(FracasError):
        c.execute(text, time="")


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_one_characters_entry_is_the_one_the_whole_view_gives_every_viewer(
    name: str, data: st.DataObject
) -> None:
    """What a simulated side reads of one character (``Entries``) is its entry in
    that side's whole view — the innermost level it is shown at — and nothing for a
    character hidden from the viewer or missing; the settings it reads alone are the view's;
    it lists the characters in the view's order, and the words no command offered to it may
    name are those of every character the view leaves out."""
    c = played(name)
    for _ in range(data.draw(st.integers(1, 8))):
        step(c, data)
        ids = {pid for level in c.state.chain() for pid in level.participants}
        for viewer in viewers(c):
            view = state_view(c.ruleset, c.state, viewer, odds=False, ext=False)
            shown = {p["id"]: p for level in [view["conflict"], *view["zoom"]]
                     for p in level["participants"]}
            entries = Entries(c.ruleset, c.state, viewer)
            for pid in [*sorted(ids), "nobody-here"]:
                assert entries(pid) == shown.get(pid)
            assert [pid for pid in entries.ids() if entries(pid) is not None] == list(shown)
            assert entries.hidden_words() == hidden_words(
                (p for level in c.state.chain() for p in level.participants.values()
                 if p.id not in shown), shown)
            assert entries.settings() == view["conflict"]["settings"]


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_live_projection_equals_a_full_refold_for_every_viewer_at_every_step(
    name: str, data: st.DataObject
) -> None:
    # now and then from the start, with some of a player's own character's stats GM-only
    c = data.draw(own_secrets(name)).conflict if data.draw(st.integers(0, 3)) == 0 \
        else played(name)
    live = {v: Projector(c, v) for v in viewers(c)}
    for _ in range(data.draw(st.integers(1, 10))):
        shown = {v: copy.deepcopy(p.view()) for v, p in live.items()}
        step(c, data)
        for viewer, projector in live.items():
            update = projector.advance()
            fresh = Projector(Conflict(c.ruleset, c.seed, c.records), viewer)
            assert [e.to_data() for e in projector.entries] == \
                [e.to_data() for e in fresh.entries]
            assert projector.view() == fresh.view()
            # a changed view is sent exactly when the viewer's view changed
            assert (update.view is None) == (fresh.view() == shown[viewer])
            assert update.cursor == fresh.cursor
    assert state_to_data(c.state) == state_to_data(fold(c.ruleset, c.records))


def test_undo_far_back_folds_from_checkpoints_to_the_state_of_a_full_fold() -> None:
    c = toy_conflict()
    c.execute("start ada")
    for i in range(300):
        c.execute(f"note 'n{i}'")
    for steps in (1, 5, 70, 150):
        c.execute(f"undo {steps}")
        assert state_to_data(c.state) == state_to_data(fold(c.ruleset, c.records))
        c.execute(f"redo {min(steps, 3)}")
        assert state_to_data(c.state) == state_to_data(fold(c.ruleset, c.records))
    c.execute("note 'after'")
    c.execute("undo 40")
    assert state_to_data(c.state) == state_to_data(fold(c.ruleset, c.records))


def test_a_projector_follows_a_freshly_loaded_copy_and_refuses_another_log() -> None:
    c = toy_conflict()
    follow = Projector(c, ALICE)
    c.execute("start ada")
    copy = Conflict(c.ruleset, c.seed, c.records)
    update = follow.advance(copy)
    assert [e.command for e in update.entries] == ["start ada"]
    assert update.view is not None
    assert follow.advance(copy).entries == () and follow.advance(copy).view is None
    with pytest.raises(InvalidInput, match="another log"):
        follow.advance(toy_conflict("other-seed"))


def test_a_cursor_is_opaque_per_viewer_and_unmoved_by_hidden_records() -> None:
    c = toy_conflict()
    alice, bob = Projector(c, ALICE), Projector(c, BOB)
    before = alice.cursor
    assert before.split(".")[0] == str(len(alice.entries))  # a count of her own entries
    c.execute("note 'secret' visibility=gm")
    c.execute("ada: note 'mine' visibility=owner")
    assert alice.advance().cursor != before
    assert bob.advance().cursor == bob.cursor
    assert alice.read_cursor(alice.cursor) == len(alice.entries)
    with pytest.raises(InvalidInput):
        alice.read_cursor(bob.cursor.replace("0", "1", 1))
    with pytest.raises(InvalidInput):
        bob.read_cursor(alice.cursor)


def test_a_player_learns_nothing_from_a_record_hidden_from_them() -> None:
    c = toy_conflict()
    c.execute("start ada")
    follow = Projector(c, ALICE)
    shown = json.dumps([e.to_data() for e in follow.entries]), follow.view()
    for text in ("note 'x' visibility=gm", "roll 2d6 visibility=gm",
                 "effect 'trap' visibility=gm", "bruno: note 'b' visibility=owner"):
        c.execute(text)
        update = follow.advance()
        assert update.entries == () and update.view is None  # no entry, no change, no line
    assert (json.dumps([e.to_data() for e in follow.entries]), follow.view()) == shown


def test_the_gm_brings_a_participant_in_hidden_and_reveals_it_later() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("join wraith name='Pale Wraith' side=shades hidden=yes")
    c.execute("wraith: note 'cold breath'")
    for viewer in (ALICE, BOB, Viewer.public()):
        seen = json.dumps(Projector(c, viewer).view()) + json.dumps(
            [e.to_data() for e in Projector(c, viewer).entries])
        assert "wraith" not in seen.lower() and "shades" not in seen
        assert len(Projector(c, viewer).entries) == 2  # create and start: nothing else
    c.execute("reveal wraith")
    alice = Projector(c, ALICE)
    assert alice.entries[-1].lines == ("Pale Wraith is revealed",)
    assert [p["id"] for p in alice.view()["conflict"]["participants"]][-1] == "wraith"
    c.execute("conceal wraith")
    assert Projector(c, ALICE).entries == alice.entries  # the conceal says nothing to Alice
    assert "wraith" not in json.dumps(Projector(c, ALICE).view())


def test_a_player_naming_a_concealed_participant_gets_the_answer_for_a_missing_one() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("conceal gob")
    errors = []
    for who in ("gob", "zzz"):
        with pytest.raises(NotFound) as info:
            c.execute(f"ada: effect 'x' until=turn_end who={who}", ALICE)
        errors.append(str(info.value).replace(who, "ID"))
    assert errors[0] == errors[1] == "no participant 'ID' in this conflict"
    c.execute("ada: effect 'x' until=turn_end who=gob")  # the GM may


@pytest.mark.parametrize("viewer", [Viewer.gm(), Viewer.public()])
def test_a_changed_setting_inside_a_table_reaches_the_live_view(viewer: Viewer) -> None:
    # the override changes a table of the state in place; the viewer must still be sent it
    c = Conflict.create(TOY, toy_setup(settings={"weather": {"wind": [1, 2]}}), "s", time="")
    follow = Projector(c, viewer)
    c.execute("override settings.weather.wind.1 5", time="")
    update = follow.advance()
    assert update.view is not None
    assert update.view["conflict"]["settings"]["weather"] == {"wind": [1, 5]}


def test_a_record_is_called_the_same_whether_or_not_a_hidden_character_took_part() -> None:
    plain, twin = played("etherscope-car-chase"), played("etherscope-car-chase")
    twin.execute("join sniper name=Sniper side=zq 'stats={\"physical\": 3}' hidden=yes")
    for c in (plain, twin):
        c.execute("round")
        c.execute("countdown")
    for viewer in (ALICE, BOB, Viewer.public()):
        a, b = Projector(plain, viewer).entries, Projector(twin, viewer).entries
        assert len(a) == len(b)  # the hidden join leaves no entry
        # before: the twin's read "the GM acts", as the sniper's part of each was hidden
        assert [e.command for e in a[-2:]] == [e.command for e in b[-2:]] == [
            "round", "countdown"]


def test_a_record_is_called_the_same_whether_or_not_a_secret_effect_expired_in_it() -> None:
    """An effect a viewer may not see (the GM's, or another player's own) that expires at a
    boundary ends inside a record the viewer sees: what that record is called must not tell
    them that something secret ended there (before: "bouncer: handoff" read "Bouncer:
    handoff", the label of a record that lost something)."""
    plain, twin = played("vers-tavern-brawl"), played("vers-tavern-brawl")
    twin.execute("effect 'zq-gm-effect' visibility=gm", time="")
    twin.execute("ada: effect 'zq-alices-effect' visibility=owner", time="")
    turn = ["open ada", "ada: handoff bruno", "bruno: handoff thug", "thug: handoff mira",
            "mira: handoff bouncer", "bouncer: handoff"]
    for c in (plain, twin):
        for text in turn:
            c.execute(text, time="")
    assert [e.type for e in twin.records[-1].events][-2:] == ["effect_expired"] * 2
    for viewer in (BOB, Viewer.public()):
        a, b = Projector(plain, viewer).entries, Projector(twin, viewer).entries
        assert [(e.command, e.lines) for e in a] == [(e.command, e.lines) for e in b]
        assert b[-1].command == "bouncer: handoff"


def test_the_gms_words_naming_a_hidden_character_are_not_shown_in_a_label() -> None:
    c = played("vers-tavern-brawl")
    c.execute("""join zq name=Zqshadow side=toughs 'stats={"zone": "bar"}' hidden=yes""")
    c.execute("harm bruno 12 why='Zqshadow stabs'")
    for viewer in (ALICE, BOB, Viewer.public()):
        last = Projector(c, viewer).entries[-1]
        assert last.lines == ("Bruno is disabled (injury, net EV 12)",)
        # as typed without the words (before: "harm bruno 12 why='Zqshadow stabs'", then
        # "the GM acts", which told of words kept from them)
        assert last.command == "harm bruno 12"


def test_the_gms_command_for_a_players_character_naming_a_hidden_one_is_not_shown() -> None:
    c = played("vers-tavern-brawl")
    c.execute("conceal bouncer")
    c.execute("open ada")
    c.execute("ada: handoff bouncer")  # the GM hands Ada's go to one Alice cannot see
    last = Projector(c, ALICE).entries[-1]
    assert "bouncer" not in last.command.lower()  # before: "ada: handoff bouncer"
    assert last.command == "Ada: handoff"


def test_a_conflict_once_viewed_is_freed_with_its_projectors_when_dropped() -> None:
    """The one-call views keep a projector per viewer with the conflict; a conflict a server
    loaded, showed and dropped must go, projectors and all (they held it for good before:
    a long-running server or simulation grew by every conflict it had shown)."""
    import gc
    import weakref

    from fracas.engine.views import log_view, view

    c = toy_conflict()
    c.execute("start ada")
    view(c, Viewer.gm())
    log_view(c, ALICE)
    assert view(c, ALICE) is not None  # kept: the second call follows the same projector
    gone = weakref.ref(c)
    del c
    gc.collect()
    assert gone() is None
