"""``fracas play`` driven through a pseudo-terminal (pexpect): panel, completion, undo key,
every command stored as it is made."""

from __future__ import annotations

from collections.abc import Callable

import pexpect
import pytest

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO, spawn_fracas

#: How long one expected output may take on a loaded machine: generous, but bounded.
PATIENCE = 60


@pytest.mark.timeout(8 * PATIENCE)
def test_play_through_a_terminal(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("play", cid, "--db", sqlite_url, timeout=PATIENCE)
    try:
        child.expect("HP 30/30")  # the state panel
        child.expect("v2>")
        child.send("ada: h\t")  # completes to the only legal hit
        child.expect("it bruno")  # the completed rest (the terminal may redraw "h" apart)
        child.send(" dice=4\r")
        child.expect("damage")
        child.expect("HP 26/30")
        child.expect("v3>")
        assert store.info(cid).version == 3  # stored as it was made
        child.send(":sheet Bruno\r")  # a sheet by name; the GM's marks a GM-only stat
        child.expect("grudge")  # (its label and value styled apart)
        child.expect(r"Ada\S* *\S*\[GM only\]")
        child.expect("v3>")
        child.send(":sheet zed\r")
        child.expect(r"no character 'zed' to show \(the characters: ada, bruno\)")
        child.expect("v3>")
        child.send("\x1a")  # Ctrl-Z: undo
        child.expect("undo")
        child.expect("HP 30/30")
        child.expect("v4>")
        child.send("\x19")  # Ctrl-Y: redo
        child.expect("HP 26/30")
        child.expect("v5>")
        child.send("bruno: hit ada\r")
        child.expect("refused")
        child.expect("v5>")
        child.send("ada: no")  # half typed when someone else stores a command
        child.expect("ada: no")  # echoed: the prompt holds it
        other = ConflictService(SqlEventStore(sqlite_url))
        other.execute(cid, "note 'the landlord shouts from the cellar'")
        child.expect("stored elsewhere meanwhile")
        child.expect("landlord shouts")
        child.expect("v6>")  # the panel is fresh
        child.expect("ada: no")  # and the typing kept (the redraw may put codes between)
        child.send("te 'I duck'\r")
        child.expect("I duck")
        child.expect("v7>")
        child.send(":quit\r")
        child.expect("stored at version 7")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    loaded = service.load(cid)
    assert [r.command for r in loaded.records[2:]] == [
        "ada: hit bruno dice=4", "undo", "redo", "note 'the landlord shouts from the cellar'",
        "ada: note 'I duck'"]
    store.close()


@pytest.mark.timeout(8 * PATIENCE)
def test_a_players_prompt_changes_only_for_records_they_see(sqlite_url: str) -> None:
    """A record hidden from Alice is stored while she types: her prompt is not redrawn (the
    redraw would time the hidden record); a record she sees redraws it at once."""
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("play", cid, "--as", "alice", "--db", sqlite_url, timeout=PATIENCE)
    try:
        child.expect("as alice")  # the panel's title
        child.expect("╯")  # its end
        child.expect(">")  # the player's prompt (no version in it)
        child.send("ada: no")
        child.expect("ada: no")  # echoed: the prompt is running and holds it
        other = ConflictService(SqlEventStore(sqlite_url))
        for secret in ("'the innkeeper is a spy' visibility=gm", "'the cellar door opens'"
                       " visibility=gm"):
            other.execute(cid, f"note {secret}")
            # the watcher polls every 0.2 s and looks at least once a second: in 3 s a
            # redraw (a new prompt ">", a line) would have shown; none may come (a bounded
            # wait for no output; the echo's own cursor codes may trail)
            got = child.expect([pexpect.TIMEOUT, r">|stored|spy|cellar|GM acts"], timeout=3)
            assert got == 0, repr(child.before + str(child.after))
        other.execute(cid, "note 'the fire crackles'")
        child.expect("stored elsewhere meanwhile")
        child.expect("the fire crackles")
        assert "spy" not in child.before and "cellar" not in child.before
        child.expect("ada: no")  # the typing kept
        child.send("te 'I duck'\r")
        child.expect("I duck")
        child.send(":quit\r")
        child.expect("bye")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert service.load(cid).records[-1].command == "ada: note 'I duck'"  # not stale
    store.close()


def test_the_watcher_outlives_a_prompt_that_ends_as_it_is_asked(sqlite_url: str) -> None:
    """A prompt may end, closing its loop, between the watcher's look and its call: the
    watcher says no prompt took the call and asks the next one (a watcher that died there
    left the GM's panel stale for the rest of the session)."""
    import asyncio

    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from fracas.cli.play import ChangeWatcher
    from fracas.engine.model import Viewer

    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, conflict = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    with create_pipe_input() as pipe:
        session: PromptSession[str] = PromptSession(input=pipe, output=DummyOutput())
        watcher = ChangeWatcher(sqlite_url, conflict, cid, session, Viewer.gm())
        ended = asyncio.new_event_loop()
        ended.close()
        session.app._is_running, session.app.loop = True, ended  # the moment it ends
        watcher.seen_at = conflict.version + 1  # a change the prompt does not show yet
        watcher.start()
        try:
            watcher.done.wait(2.5)  # it looked (1 s), then asked (and was refused) again and again
            assert watcher.is_alive()
        finally:
            session.app._is_running, session.app.loop = False, None
            watcher.stop()
    store.close()


def test_completion_stops_at_the_first_placeholder() -> None:
    from fracas.cli.play import up_to_placeholder

    assert up_to_placeholder("note TEXT") == "note "
    assert up_to_placeholder("ada: handoff bruno say=TEXT") == "ada: handoff bruno say="
    assert up_to_placeholder("set-range A B BAND") == "set-range "
    assert up_to_placeholder("ada: declare 10") == "ada: declare 10"


def test_a_player_is_offered_only_what_they_may_do(sqlite_url: str) -> None:
    from fracas.cli.play import suggestions
    from fracas.engine.model import Viewer

    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    _, conflict = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    mine = suggestions(conflict, Viewer.of_player("alice"))
    assert ":undo" not in mine and ":quit" in mine
    assert all(s.startswith(("ada:", ":")) for s in mine), mine
    assert ":undo" in suggestions(conflict, Viewer.gm())
    store.close()


def test_a_player_is_offered_nothing_that_names_a_character_hidden_from_them(
        sqlite_url: str) -> None:
    """The prompt's completions for a player are the table's offer: no command that names
    a character the GM concealed from them, though the GM is offered those."""
    from fracas.cli.play import suggestions
    from fracas.engine.model import Viewer

    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario("vers-tavern-brawl"))
    service.execute(cid, "conceal mira")
    service.execute(cid, "open ada")
    conflict = service.load(cid)
    mine = suggestions(conflict, Viewer.of_player("alice"))
    assert any(s.startswith("ada: attack thug ") for s in mine)
    assert not any("mira" in s for s in mine), mine
    assert any("ada: attack mira" in s for s in suggestions(conflict, Viewer.gm()))
    store.close()


@pytest.mark.timeout(4 * PATIENCE)
def test_a_line_the_terminal_library_cannot_read_is_refused_and_play_goes_on(
        sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    cid, _ = ConflictService(store).new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("play", cid, "--db", sqlite_url, timeout=PATIENCE)
    try:
        child.expect("v2>")
        child.send("\x1b[31m")  # read as half a mouse report: dropped
        child.send("note 'still here'\r")
        child.expect("still here")
        child.expect("v3>")
        child.send(":quit\r")
        child.expect("stored at version 3")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "Traceback" not in (child.before or "")
    store.close()


@pytest.mark.timeout(4 * PATIENCE)
@pytest.mark.parametrize("player", [None, "alice"])
def test_a_line_another_writer_beat_is_put_back_at_the_prompt(sqlite_url: str,
                                                              player: str | None) -> None:
    """Someone else stores a command between the Enter and the store, before the watcher has
    seen it: the line is not stored, play says so plainly (it has reloaded already, so no
    "reload and try again") and puts the line back at the prompt, where Enter sends it again.
    The same for a player, whose prompt expects their cursor.

    The race is made deterministic: play's loop runs here on a pipe, its watcher not started
    (it has not looked yet), and a real second writer stores its command once the prompt is
    showing, before the line is sent."""
    import io
    import threading
    import time

    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from fracas.cli.play import ChangeWatcher, PlayCompleter, _loop
    from fracas.engine.model import Viewer
    from fracas.engine.projector import Projector

    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, conflict = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    viewer = Viewer.gm() if player is None else Viewer.named(player)
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    other = ConflictService(SqlEventStore(sqlite_url))

    def wait_for(done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}; play printed: {out.getvalue()}")
            time.sleep(0.02)

    failed: list[BaseException] = []
    with create_pipe_input() as pipe:
        session: PromptSession[str] = PromptSession(input=pipe, output=DummyOutput())
        watcher = ChangeWatcher(sqlite_url, conflict, cid, session, viewer)  # not started

        def table() -> None:
            try:
                wait_for(lambda: session.app.is_running, "the first prompt never showed")
                other.execute(cid, "note 'the landlord shouts from the cellar'")  # first
                pipe.send_text("ada: note 'I duck'\r")
                wait_for(lambda: "not stored" in out.getvalue() and session.app.is_running,
                         "no refusal, then a prompt")
                pipe.send_text("\r")  # Enter alone: the line put back is sent again
                wait_for(lambda: store.info(cid).version == 4, "the line was not sent again")
                pipe.send_text(":quit\r")
            except BaseException as exc:  # end play (Ctrl-C, then Ctrl-D), then fail
                failed.append(exc)
                pipe.send_text("\x03")
                time.sleep(1)
                pipe.send_text("\x04")

        driver = threading.Thread(target=table, daemon=True)
        driver.start()
        try:
            _loop(service, cid, viewer, console, Projector(conflict, viewer), session,
                  PlayCompleter(conflict, viewer), watcher)
        finally:
            driver.join(timeout=PATIENCE)
            watcher.store.close()
            other.store.close()
    if failed:
        raise failed[0]
    said = " ".join(out.getvalue().split())
    assert ("not stored: someone else stored a command first; the conflict is reloaded below "
            "— press Enter to send your line again, or change it") in said
    assert "try again" not in said
    assert said.index("not stored") < said.index("the landlord shouts")  # reloaded below
    assert [r.command for r in service.load(cid).records[2:]] == [
        "note 'the landlord shouts from the cellar'", "ada: note 'I duck'"]
    store.close()
