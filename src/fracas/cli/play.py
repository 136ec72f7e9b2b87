"""``fracas play ID``: run a stored conflict at the table from a terminal.

A Rich panel shows the state (whose turn, positions, harm, the ruleset's lines) before each
prompt; the prompt (prompt_toolkit) completes commands from ``legal_commands`` and the engine's
verbs. Ctrl-Z undoes, Ctrl-Y redoes; ``:undo [N]``, ``:redo [N]``, ``:reload``, ``:help`` and
``:quit`` (or Ctrl-D) do the same by name; ``:sheet [WHO]`` prints the characters' sheets (or
one); Ctrl-C clears the line. Every command is stored as
it is made, with the version it was decided on: if someone else acted meanwhile, the prompt
reloads and says so, and puts back the line that was not stored.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from fracas.app.service import ConflictService
from fracas.cli.common import with_advice
from fracas.cli.render import print_entries, print_sheets, print_state
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Projector, offered
from fracas.engine.suggest import did_you_mean
from fracas.errors import FracasError, StaleVersion
from fracas.store import open_store

HELP = ("commands in text notation (Tab completes), e.g. 'ada: attack bruno'; "
        ":undo [N] (Ctrl-Z), :redo [N] (Ctrl-Y), :sheet [WHO] (the characters' sheets), "
        ":reload, :help, :quit (Ctrl-D); Ctrl-C clears the line")
META = (":undo", ":redo", ":sheet", ":reload", ":help", ":quit")


def suggestions(conflict: Conflict, viewer: Viewer) -> list[str]:
    """What the prompt offers: legal commands for the GM (or the player's characters, as
    the table offers them: nothing naming a character hidden from the player), then the
    engine's verbs and the prompt's own commands."""
    state = conflict.state.innermost
    if viewer.is_gm:
        actors: list[str | None] = [None, *state.participants]
    elif viewer.player:
        actors = list(state.owned_by(viewer.player))
    else:
        actors = []
    out: list[str] = []
    for actor in actors:
        for text in (lc.text() for lc in offered(conflict, viewer, actor)):
            if text not in out:
                out.append(text)
    return out + [m for m in META if viewer.is_gm or m not in (":undo", ":redo")]


_PLACEHOLDER = re.compile(r"^([a-z_]+=)?[A-Z][A-Z_|.,0-9]*$")


def up_to_placeholder(text: str) -> str:
    """A suggestion up to its first UPPER-CASE placeholder: ``note TEXT`` → ``note ``,
    ``ada: handoff bruno say=TEXT`` → ``ada: handoff bruno say=``."""
    words = text.split(" ")
    for i, word in enumerate(words):
        match = _PLACEHOLDER.match(word)
        if match and i > 0:
            return " ".join([*words[:i], match.group(1) or ""])
    return text


class PlayCompleter(Completer):
    """Completes the whole line from :func:`suggestions`; a template such as ``note TEXT``
    completes up to its first UPPER-CASE placeholder."""

    def __init__(self, conflict: Conflict, viewer: Viewer) -> None:
        """Complete for ``viewer`` on ``conflict`` (read afresh at each keystroke)."""
        self.conflict = conflict
        self.viewer = viewer

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """The suggestions that start with the text before the cursor."""
        typed = document.text_before_cursor
        seen: set[str] = set()
        for text in suggestions(self.conflict, self.viewer):
            target = up_to_placeholder(text)
            if target.lower().startswith(typed.lower()) and target != typed \
                    and target not in seen:
                seen.add(target)
                yield Completion(target, start_position=-len(typed), display=text)


def render_panel(console: Console, conflict: Conflict, viewer: Viewer, cid: str) -> None:
    """The state panel: the engine's view of the conflict for ``viewer``."""
    inner = Console(width=max(40, console.width - 4), record=True, force_terminal=False,
                    color_system=None, highlight=False)
    with inner.capture() as cap:
        print_state(inner, conflict, viewer)
    who = "GM" if viewer.is_gm else (viewer.player or "public")
    at = f" · v{conflict.version}" if viewer.is_gm else ""  # a player is told no version
    title = f"{cid}{at} · {conflict.ruleset.title} · as {who}"
    console.print(Panel(Text(cap.get().rstrip()), title=escape(title), title_align="left"))


#: What the prompt returns when another process stored a command (then the text typed so far).
CHANGED = "\x00changed:"
#: What play says when someone else stored a command after the line was sent: play reloads at
#: once (so no "reload and try again") and puts the line back at the prompt.
RACED = ("someone else stored a command first; the conflict is reloaded below — press Enter "
         "to send your line again, or change it")


class ChangeWatcher(threading.Thread):
    """Interrupts the prompt when someone else stores a command that the viewer sees, so the
    panel is never stale (its own connections; PostgreSQL is told, SQLite is polled).

    It projects each new record for the viewer itself: a record hidden from a player changes
    neither their entries nor their view, so it never interrupts their prompt — a redraw at
    that moment would tell them that something hidden just happened.
    """

    def __init__(self, url: str, conflict: Conflict, conflict_id: str,
                 session: PromptSession[str], viewer: Viewer) -> None:
        super().__init__(daemon=True, name="fracas-play-watcher")
        self.store = open_store(url, migrate=False)
        self.service = ConflictService(self.store, snapshot_every=0)
        self.follow = Projector(conflict, viewer)
        self.conflict_id = conflict_id
        self.session = session
        self.version = conflict.version  # the version the prompt shows
        self.seen_at = 0  # the newest version that changed what the viewer sees
        self.done = threading.Event()

    def run(self) -> None:
        """Project the versions past the projected one; interrupt a running prompt once for
        each change the viewer sees that the prompt does not show yet."""
        while not self.done.is_set():
            try:
                self._look(self.store.wait_for_change(self.conflict_id, self.follow.position,
                                                      1.0))
            except Exception:  # a dropped connection must not kill the table's prompt
                self.done.wait(1.0)
                continue
            if self.seen_at > self.version:
                self.done.wait(0.5 if self._poke() else 0.2)

    def _look(self, version: int) -> None:
        if version <= self.follow.position:
            return
        update = self.follow.advance(self.service.load(self.conflict_id))
        if self.follow.viewer.is_gm or update.seen:
            self.seen_at = version

    def _poke(self) -> bool:
        """Ask the running prompt to end (False: none is running just now). The prompt's
        loop is read once: a prompt may end, and close its loop, at any moment."""
        app = self.session.app
        loop = app.loop
        if not app.is_running or loop is None:
            return False
        try:
            loop.call_soon_threadsafe(self._interrupt)
        except RuntimeError:  # that prompt ended meanwhile; the next one is asked again
            return False
        return True

    def _interrupt(self) -> None:
        """(On the prompt's loop.) End the prompt, handing back what was typed so far."""
        app = self.session.app
        if app.is_running and not app.future.done():  # type: ignore[union-attr]
            app.exit(result=CHANGED + app.current_buffer.text)

    def stop(self) -> None:
        """End the thread and release its connections."""
        self.done.set()
        self.join(timeout=3)
        self.store.close()


def run_play(service: ConflictService, conflict_id: str, viewer: Viewer,
             console: Console | None = None) -> None:
    """The interactive loop (returns on :quit, Ctrl-D or Ctrl-C)."""
    console = console or Console(highlight=False)
    conflict = service.load(conflict_id)
    kb = KeyBindings()

    @kb.add("c-z")
    def _undo(event: KeyPressEvent) -> None:
        event.app.current_buffer.text = ":undo"
        event.app.current_buffer.validate_and_handle()

    @kb.add("c-y")
    def _redo(event: KeyPressEvent) -> None:
        event.app.current_buffer.text = ":redo"
        event.app.current_buffer.validate_and_handle()

    @kb.add(Keys.Vt100MouseEvent)
    def _no_mouse(event: KeyPressEvent) -> None:
        """The prompt takes no mouse: a mouse report, or an escape sequence read as one
        (pasted colour codes), is dropped, never a crash of the library's own handler."""

    completer = PlayCompleter(conflict, viewer)
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(), completer=completer, key_bindings=kb,
        complete_while_typing=False,
    )
    console.print(f"[dim]{HELP}[/]")
    watcher = ChangeWatcher(service.store.url, conflict, conflict_id, session, viewer)
    watcher.start()
    try:
        _loop(service, conflict_id, viewer, console, Projector(conflict, viewer), session,
              completer, watcher)
    finally:
        watcher.stop()


def _expecting(follow: Projector, conflict: Conflict) -> dict[str, Any]:
    """What the prompt's command expects: the version for the GM, the cursor for a player."""
    if follow.viewer.is_gm:
        return {"expected_version": conflict.version}
    return {"expected_cursor": follow.cursor}


def _loop(service: ConflictService, conflict_id: str, viewer: Viewer, console: Console,
          follow: Projector, session: PromptSession[str], completer: PlayCompleter,
          watcher: ChangeWatcher) -> None:
    conflict = follow.conflict
    redraw = True
    typed, unread = "", 0
    while True:
        if service.store.info(conflict_id).version != conflict.version:
            conflict = service.load(conflict_id)
            update = follow.advance(conflict)
            if update.entries:  # a record hidden from the viewer shows nothing, not even when
                console.print("[yellow]stored elsewhere meanwhile:[/]")
                print_entries(console, update.entries)
            redraw = redraw or update.view is not None
        completer.conflict = conflict
        watcher.version = conflict.version
        if redraw:
            render_panel(console, conflict, viewer, conflict_id)
        redraw = False
        try:
            at = f"v{conflict.version}" if viewer.is_gm else ""
            line = session.prompt(f"{at}> ", default=typed)
        except EOFError:  # Ctrl-D
            break
        except KeyboardInterrupt:  # Ctrl-C: a fresh, empty line
            typed = ""
            continue
        except ValueError:  # prompt_toolkit on an escape sequence it cannot read (a half
            typed = ""  # mouse report, pasted colour codes): that line is lost, not the table
            unread += 1
            console.print("[red]could not read that line[/] (it held a terminal escape "
                          "sequence); type the command again")
            if unread >= 3:  # the input keeps failing: stop rather than spin
                break
            continue
        typed, unread = "", 0
        if line.startswith(CHANGED):
            typed = line[len(CHANGED):]  # keep what was being typed
            continue
        line = line.strip()
        if not line:
            redraw = True
            continue
        word, _, rest = line.partition(" ")
        if word in (":quit", ":q", ":exit"):
            break
        if word == ":help":
            console.print(HELP)
            continue
        if word == ":sheet":
            try:
                print_sheets(console, conflict, viewer, rest.strip() or None)
            except FracasError as exc:
                console.print(f"[bold red]refused:[/] {escape(str(exc))}")
            continue
        if word == ":reload":
            conflict = service.load(conflict_id)
            print_entries(console, follow.advance(conflict).entries)
            redraw = True
            continue
        if word.startswith(":") and word not in (":undo", ":redo"):
            said = with_advice(f"{word}{did_you_mean(word, META)}", HELP)
            console.print(f"[bold red]unknown prompt command[/] {escape(said)}")
            continue
        command = line
        if word in (":undo", ":redo"):
            command = f"{word[1:]} {rest.strip() or 1}"
        try:  # a player expects their cursor: records hidden from them never make it stale
            out = service.execute(conflict_id, command, viewer, conflict=conflict,
                                  **_expecting(follow, conflict))
        except StaleVersion:  # stored between the Enter and the store, before the watcher saw
            console.print(f"[bold red]not stored:[/] {RACED}")
            conflict = service.load(conflict_id)
            print_entries(console, follow.advance(conflict).entries)
            typed, redraw = line, True  # the line is offered again, as it was typed
            continue
        except FracasError as exc:
            said = str(exc)
            if exc.values.get("unknown_verb"):
                said = with_advice(said, "Tab completes the commands")
            console.print(f"[bold red]refused:[/] {escape(said)}")
            continue
        conflict = out.conflict
        print_entries(console, follow.advance(conflict).entries)
        redraw = True
    console.print(f"[dim]stored at version {conflict.version}; bye[/]" if viewer.is_gm
                  else "[dim]bye[/]")
