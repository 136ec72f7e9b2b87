"""The live projection: what one viewer has seen of a conflict, kept up to date record by
record (DESIGN.md principle 6).

A :class:`Projector` follows a conflict for one viewer. For each record appended to the
conflict it makes that viewer's log :class:`Entry` — the events as the viewer may see them and
their sentences, built from the viewer's projection (the redacted events and a state in which
the participants hidden from them do not exist), never from the GM's state — and it keeps the
viewer's view of the state. Each record costs O(1) in the length of the log: the projector
folds its own copy of the conflict forward (an undo folds from the newest checkpoint).

Nothing a player receives counts or times what is hidden from them: a record wholly hidden
from a viewer makes no entry at all, a player's entries are numbered 1, 2, … (no version),
an undo names the entries it took back as that player saw them, and the staleness token is an
opaque per-viewer :attr:`Projector.cursor`, never the conflict's version.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.concealment import ParticipantConcealed, ParticipantRevealed
from fracas.engine.conflict import Conflict, command_set
from fracas.engine.describe import describe
from fracas.engine.effects import lasts
from fracas.engine.engine_events import EffectExpired
from fracas.engine.events import (
    CONFLICT_CREATED,
    ENGINE_EVENTS,
    PARTICIPANT_JOINED,
    REDONE,
    UNDONE,
    Event,
    Record,
)
from fracas.engine.harm_view import masked_entry
from fracas.engine.legal import LegalCommand, hidden_words, without
from fracas.engine.model import ConflictState, Participant, Viewer, copy_json
from fracas.engine.redaction import (
    Knowledge,
    Unknowns,
    may_see_event,
    names_unknown,
    public_participant,
    public_settings,
    redact,
    untold,
    visible_depth,
    without_unknown,
)
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import RESERVED_IDS
from fracas.engine.sheet import SheetItem, marked
from fracas.errors import FracasError, InvalidInput

#: Events about who exists: judged on the state after their record (a participant joining
#: hidden, or concealed, is never shown to those it is hidden from).
EXISTENCE_EVENTS = frozenset({CONFLICT_CREATED, PARTICIPANT_JOINED, ParticipantConcealed.TYPE,
                              ParticipantRevealed.TYPE})
#: The label of a record a player sees some of but may not read the command of.
GM_ACTS = "the GM acts"


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a viewer's log: one record as the viewer may see it."""

    number: int  #: the viewer's own count of entries (1, 2, …): all a player is told
    version: int  #: the record's version (the GM's label; for the server side only)
    depth: int  #: > 0: played inside a zoomed-in conflict the viewer may see
    command: str  #: the command as typed, or a label that gives nothing hidden away
    events: tuple[Event, ...]  #: the events as the viewer may see them
    lines: tuple[str, ...]  #: one sentence per event, from the viewer's projection
    author: str | None = None  #: the GM only
    time: str | None = None  #: the GM only

    @property
    def for_gm(self) -> bool:
        """Whether this is an entry of the GM's log (with versions, authors and times)."""
        return self.author is not None

    @property
    def label(self) -> str:
        """``v7`` in the GM's log, ``#5`` in a player's."""
        return f"v{self.version}" if self.for_gm else f"#{self.number}"

    def to_data(self) -> dict[str, Any]:
        """The JSON form (docs/json.md): a player's entry has ``entry`` and no ``version``."""
        head: dict[str, Any] = {"version": self.version} if self.for_gm \
            else {"entry": self.number}
        out = {**head, "depth": self.depth, "command": self.command,
               "events": [e.to_data() for e in self.events], "lines": list(self.lines)}
        if self.for_gm:
            out.update({"author": self.author, "time": self.time})
        return out


@dataclass(frozen=True, slots=True)
class Update:
    """What :meth:`Projector.advance` gives: the new entries (none when every new record
    was hidden from the viewer), the view when it changed (else None) and the cursor."""

    entries: tuple[Entry, ...]
    view: dict[str, Any] | None
    cursor: str

    @property
    def seen(self) -> bool:
        """Whether the viewer sees anything new (an entry, or a changed view): a record
        hidden from them changes nothing on their screen, not even when it is redrawn."""
        return bool(self.entries) or self.view is not None


class Projector:
    """One viewer's live projection of a conflict: their log entries and their view.

    ``Projector(conflict, viewer)`` projects the records already there; after more records
    are appended (to ``conflict``, or to a freshly loaded copy passed in), :meth:`advance`
    projects just those.
    """

    def __init__(self, conflict: Conflict, viewer: Viewer) -> None:
        """Follow ``conflict`` for ``viewer``, projecting its records so far."""
        self.viewer = viewer
        self.ruleset: Ruleset = conflict.ruleset
        self.conflict = conflict
        self.entries: list[Entry] = []
        self._seed = conflict.seed
        self._replica = Conflict(conflict.ruleset, conflict.seed)
        self._labels: dict[int, str] = {}  # version -> what the viewer's entry was called
        self._by_version: dict[int, Entry] = {}
        self._shown: dict[str, Any] | None = None
        self.advance()

    # --- following ------------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many records have been projected (the server's side only; never sent)."""
        return self._replica.version

    def follows(self, conflict: Conflict) -> bool:
        """Whether ``conflict`` holds the log this projector has projected (so far)."""
        n = self.position
        if conflict.seed != self._seed or conflict.version < n:
            return False
        return n == 0 or conflict.record(n).payload() == self._replica.record(n).payload()

    def advance(self, conflict: Conflict | None = None) -> Update:
        """Project the records appended since the last call (to ``conflict``, when a newer
        copy of the same conflict is given); the new entries and the changed view."""
        if conflict is not None:
            if not self.follows(conflict):
                raise InvalidInput("this projector follows another log")
            self.conflict = conflict
        records = (self.conflict.record(v)
                   for v in range(self.position + 1, self.conflict.version + 1))
        new = [e for e in map(self._project, records) if e is not None]
        current = self.view()
        changed = current if current != self._shown else None
        self._shown = current
        return Update(tuple(new), changed, self.cursor)

    # --- reading ----------------------------------------------------------------------
    def entry_for(self, version: int) -> Entry | None:
        """The viewer's entry for the record at ``version`` (None: hidden from them)."""
        return self._by_version.get(version)

    def after(self, number: int) -> list[Entry]:
        """The viewer's entries after their entry ``number``."""
        return self.entries[max(number, 0):]

    def bears_on(self, number: int, command: Command) -> bool:
        """Whether what the viewer was shown after their entry ``number`` may bear on
        ``command``, chosen on the screen of that entry (else it is no stale command): every
        entry does but another character's command of the kind the rules have everyone make
        at once (:attr:`Ruleset.simultaneous`), for a command of that kind — judged on the
        command as the viewer read it, so a hidden one's verb decides nothing."""
        together = self.ruleset.simultaneous
        if command.verb not in together:
            return bool(self.after(number))
        for entry in self.after(number):
            if entry.command != self.conflict.record(entry.version).command:
                return True  # a label in its place ("the GM acts"): not the viewer's to read
            try:
                earlier = self.conflict.to_command(entry.command)
            except FracasError:  # pragma: no cover - a stored command reads as it was stored
                return True
            if earlier.verb not in together or earlier.actor in (None, command.actor):
                return True
        return False

    @property
    def state(self) -> ConflictState:
        """The viewer's projection of the state: the participants hidden from them do not
        exist in it, nor GM-only stats and settings (the GM's: the state itself)."""
        return project(self.ruleset, self._replica.state, self.viewer)

    def view(self) -> dict[str, Any]:
        """The state as the viewer may see it, as JSON-native data (docs/json.md)."""
        out = state_view(self.ruleset, self._replica.state, self.viewer)
        if self.viewer.is_gm:
            out["version"] = self._replica.version
        out["cursor"] = self.cursor
        return out

    @property
    def cursor(self) -> str:
        """An opaque staleness token for this viewer: their entry count and a MAC (keyed by
        the conflict's secret seed) of it and of what it stands for. It changes only when
        the viewer gets a new entry, so it says nothing of records hidden from them."""
        n = len(self.entries)
        return f"{n}.{self._mac(n)}"

    def read_cursor(self, cursor: str) -> int:
        """The entry count a cursor made by :attr:`cursor` stands for; InvalidInput for a
        token this projector did not make (forged, or of another viewer)."""
        head, _, mac = cursor.partition(".")
        if head.isascii() and head.isdigit() and int(head) <= len(self.entries) \
                and hmac.compare_digest(mac.encode(), self._mac(int(head)).encode()):
            return int(head)
        raise InvalidInput(f"not a cursor of this conflict: {cursor!r}")

    def _mac(self, n: int) -> str:
        last = self.entries[n - 1].version if n else 0
        text = f"fracas.cursor|{self.viewer.role}|{self.viewer.player}|{n}|{last}"
        return hmac.new(self._seed.encode(), text.encode(), hashlib.sha256).hexdigest()[:16]

    # --- projecting one record --------------------------------------------------------
    def _project(self, record: Record) -> Entry | None:
        viewer = self.viewer
        before = self._replica.state  # folded on in place: read all of it before the append
        if viewer.is_gm:
            depth = before.innermost.depth
            self._replica.append_record(record)
            if record.is_meta:
                return self._entry(record, (self._gm_marker(record),), record.command,
                                   self._marker_depth(record, depth))
            return self._entry(record, tuple(record.events), record.command, depth)
        existence = any(e.type in EXISTENCE_EVENTS for e in record.events)
        known_before = Knowledge(self.ruleset, before, viewer)
        depth = min(before.innermost.depth, visible_depth(known_before))
        early = [] if existence or record.is_meta else [
            redact(self.ruleset, e, viewer, before, known_before) for e in record.events]
        # a player's own words name no one, however they read: not where they hid an event
        # (a note), nor in the sentence of one seen anyway (an attack's say=, a zoom's reason:
        # read by _entry, where the viewer has anyone hidden from them)
        said = self._said(record) if None in early else None
        if said:
            early = [redact(self.ruleset, e, viewer, before, known_before, said)
                     if r is None else r for e, r in zip(record.events, early, strict=True)]
        knew = {pid: known_before.knows(pid) for e in record.events for pid in _about(e)}
        uncounted = [self.ruleset.uncounted(before.innermost, self.ruleset.events.typed(e),
                                            viewer) for e in record.events]
        self._replica.append_record(record)
        after = self._replica.state
        known_after = Knowledge(self.ruleset, after, viewer)
        if record.is_meta:
            return self._marker(record, self._marker_depth(record, depth))
        if existence:
            shown = [redact(self.ruleset, e, viewer, after, known_after) for e in record.events]
        else:  # a reveal is read by those who may know its participant now, and so is what
            # follows it in the record about the one it made known (a search that finds the
            # Whisper, then "The Whisper's turn")
            reveals = self.ruleset.reveal_events
            found = next((i for i, e in enumerate(record.events) if e.type in reveals),
                         len(record.events))
            shown = [redact(self.ruleset, e, viewer, after, known_after)
                     if e.type in reveals or (r is None and i > found
                                              and _made_known(e, knew, known_after))
                     else None if r is None or _vanishes(e, knew, known_after) else r
                     for i, (e, r) in enumerate(zip(record.events, early, strict=True))]
        visible = tuple(e for e in shown if e is not None)
        typed = self._typed(record)
        if not visible and not typed:
            return None  # wholly hidden: no entry, so nothing counts or times it
        # the command is read as typed when all the viewer lost of it is what concerns those
        # they may not know and it names none of them: whether a record had a hidden part
        # never changes what it is called (a "round" among hidden characters is "round")
        created = record.command == "create"
        names_hidden = not created and self._names_unknown(record, known_before, known_after)
        lost_only_unknown = all(
            a is b or self._lost_only_the_unknown(b, u, a, known_before, known_after)
            for a, b, u in zip(shown, record.events, uncounted, strict=True))
        plain = created or (not names_hidden and lost_only_unknown)
        # the player knows what they asked, and what the GM asked for their character unless
        # it names one of its GM-only stats or someone hidden from them
        mine = typed or (not names_hidden and _actor_owned(record, known_after)
                         and not self._names_a_secret(record, known_after))
        if plain or mine:
            command = record.command
        else:  # one naming a hidden one among others reads as typed without them
            unnamed = self._without_unknown(record, known_before, known_after) \
                if names_hidden and lost_only_unknown else None
            command = unnamed or self._label(record, known_after)
        return self._entry(record, visible, command, depth, said)

    def _without_unknown(self, record: Record, *knowledge: Knowledge) -> str | None:
        """The record's command as it would read typed without the participants the viewer
        may not know, where they are only some of a list's (``set-range kim a,b distant``
        with ``b`` hidden reads ``set-range kim a distant``, as if ``b`` were never named);
        None where that cannot be (an unknown actor or single value, a list of none left, the
        GM's words naming one)."""
        commands = command_set(self.ruleset)
        try:
            command = commands.parse(record.command)
        except FracasError:
            return None

        def known(word: object) -> bool:
            return not isinstance(word, str) or all(k.knows(word) for k in knowledge)

        def plain(value: object) -> bool:  # a value that can hold no id but as itself
            return value is None or isinstance(value, str | int | float | bool)

        if not known(command.actor):
            return None
        args: dict[str, Any] = {}
        for key, value in command.args.items():
            if isinstance(value, list) and all(map(plain, value)):
                value = [w for w in value if known(w)]
                if not value:
                    return None
            elif not plain(value) or not known(value):
                return None  # a mapping or nested list may name one anywhere in it
            args[key] = value
        if record.author in RESERVED_IDS:
            nets = [k.unknowns() for k in knowledge]

            def names(value: object) -> bool:
                return any(net.named_in(w) for net in nets for w in (
                    value if isinstance(value, list) else [value]) if isinstance(w, str))

            # the GM's optional words naming one (a reason) read as never given, as their
            # events read them (redaction.untold)
            optional = {p.name for p in commands.spec(command.verb).params
                        if p.kind == "text" and not p.required}
            args = {k: v for k, v in args.items() if k not in optional or not names(v)}
            if any(map(names, args.values())):
                return None
        return commands.to_text(dataclasses.replace(command, args=args))

    def _said(self, record: Record) -> frozenset[str]:
        """The free text a player typed into the record's command (a note, a reason, words
        said at a hand-off): theirs, shown to the table however it reads, never a sign of
        anyone hidden. None for the GM's records, whose words may name a secret."""
        if record.author in RESERVED_IDS:
            return frozenset()
        try:
            command = command_set(self.ruleset).parse(record.command)
        except FracasError:
            return frozenset()
        spec = command_set(self.ruleset).spec(command.verb)
        return frozenset(v for p in spec.params if p.kind == "text"
                         and isinstance(v := command.args.get(p.name), str) and v)

    def _typed(self, record: Record) -> bool:
        """Whether the viewer, a player, gave the record's command themselves (a name that is
        a viewer role never is a player's: the GM's records are authored "gm")."""
        player = self.viewer.player
        return player is not None and player not in RESERVED_IDS and record.author == player

    def _gm_marker(self, record: Record) -> Event:
        """An undo or redo as the GM reads it: the versions it took back (or brought back),
        each with its command ("undo: v3 (ada: move bar)")."""
        marker = record.events[0]
        versions = list(marker.data["versions"])
        return ENGINE_EVENTS.make(marker.type, {
            "versions": versions, "commands": [self._labels.get(v, "") for v in versions]})

    def _marker_depth(self, record: Record, depth: int) -> int:
        """The zoom depth an undo or redo is shown at: that of the first entry of the
        viewer's it takes back (or brings back), so it reads beside them — an undo of
        "» end" is "» undo", one of the zoom that opened it is a plain "undo" — and play
        goes on at that depth after an undo; ``depth`` (where it was typed) if it touches
        none of theirs."""
        seen = [v for v in record.events[0].data["versions"] if v in self._by_version]
        return self._by_version[min(seen)].depth if seen else depth

    def _marker(self, record: Record, depth: int) -> Entry | None:
        """An undo or redo as a player sees it: what it took back (or brought back) as they
        saw it, by their own entries' labels and numbers; none at all if they saw none. A
        label naming one hidden from them now (a reveal undone, a conceal redone) reads as
        its entry's number, ``#5``: the marker still says what it took back."""
        marker = record.events[0]
        seen = [v for v in marker.data["versions"] if v in self._labels]
        if not seen:
            return None
        unknown = Knowledge(self.ruleset, self._replica.state, self.viewer).unknowns()
        numbers = [self._by_version[v].number for v in seen]
        event = ENGINE_EVENTS.make(marker.type, {
            "commands": [f"#{n}" if unknown.named_in(label) else label
                         for label, n in zip((self._labels[v] for v in seen), numbers,
                                             strict=True)],
            "entries": numbers})
        return self._entry(record, (event,), record.command.partition(" ")[0], depth)

    def _lost_only_the_unknown(self, event: Event, uncounted: Event, shown: Event | None,
                               *knowledge: Knowledge) -> bool:
        """Whether all the viewer lost of ``event`` (now ``shown``) is what names or counts
        those they may not know: it names or counts one of them (``uncounted``: the event
        less that count, :meth:`Ruleset.uncounted`), and the viewer sees nothing of it or
        what the net alone leaves of ``uncounted``, by one of ``knowledge``. An effect's
        expiry the viewer may not see is never theirs to miss: it ends at a boundary, and
        the command that reached that boundary never named it."""
        typed = self.ruleset.events.typed(event)
        if shown is None and isinstance(typed, EffectExpired):
            return True  # an effect they may not see ended at a boundary: the command never
            # named it (a GM-only or another player's own effect, or one on someone hidden)
        if uncounted is typed and not any(names_unknown(event, k) for k in knowledge):
            return False
        if shown is None:
            return True
        nets = (without_unknown(uncounted, k) for k in knowledge)
        return any(net is not None and net.to_data() == shown.to_data() for net in nets)

    def _names_unknown(self, record: Record, *knowledge: Knowledge) -> bool:
        """Whether the record's command names a participant the viewer may not know: as its
        actor or in a value, or by name in the GM's words (a player's words are theirs); a
        command that cannot be read again is taken to."""
        try:
            command = command_set(self.ruleset).parse(record.command)
        except FracasError:
            return True
        values = [command.actor, *command.args.values()]
        words = [w for v in values for w in (v if isinstance(v, list) else [v])
                 if isinstance(w, str)]
        if any(not k.knows(w) for w in words for k in knowledge):
            return True
        if record.author not in RESERVED_IDS:
            return False
        nets = [k.unknowns() for k in knowledge]
        return any(net.named_in(w) for w in words for net in nets)

    def _names_a_secret(self, record: Record, knowledge: Knowledge) -> bool:
        """Whether the record's command names one of its actor's :meth:`secret_words` (as a
        part of its text: on the safe side for a name inside a longer word)."""
        head, _, rest = record.command.partition(" ")
        actor = head[:-1]
        state = next((s for s in reversed(knowledge.chain) if actor in s.participants), None)
        secret = self.ruleset.secret_words(state, actor) if state is not None else frozenset()
        text = rest.lower()
        return any(word in text for word in secret)

    def _label(self, record: Record, knowledge: Knowledge) -> str:
        """What a record is called where the viewer may not read its command: its actor and
        verb when the viewer may know the actor; a command of the GM's that is its verb alone
        (``moves``, ``countdown``: nothing in it to keep) as typed, as an actor's verb is;
        else "the GM acts"."""
        head, _, rest = record.command.partition(" ")
        actor = head[:-1] if head.endswith(":") else None
        if actor is None and not rest.strip():
            return head
        if actor is None or not knowledge.knows(actor):
            return GM_ACTS
        p = knowledge.chain[-1].participants.get(actor) or knowledge.chain[0].participants.get(
            actor)
        who = p.name if p is not None else actor
        return f"{who}: {rest.partition(' ')[0]}"

    def _entry(self, record: Record, events: tuple[Event, ...], command: str,
               depth: int, own: frozenset[str] | None = None) -> Entry | None:
        gm = self.viewer.is_gm
        state = project(self.ruleset, self._replica.state, self.viewer)
        lines = [(e, sentence(self.ruleset, e, state)) for e in events]
        if not gm:  # the net: no sentence names someone hidden from the viewer
            unknown = Knowledge(self.ruleset, self._replica.state, self.viewer).unknowns()
            if own is None:  # the player's own words, asked only where anyone is hidden
                own = self._said(record) if unknown else frozenset()
            kept = []
            for e, line in lines:
                u = untold(e, unknown, own)  # a GM's reason naming one hidden: left out
                if u is None:
                    continue
                told = sentence(self.ruleset, u, state) if u is not e else line
                said = told if _in_own_words(u, told, own, unknown) else unknown.text(told)
                if said is not None:
                    kept.append((u, said))
            if not kept and lines and not self._typed(record):
                return None
            lines = kept
        entry = Entry(
            number=len(self.entries) + 1, version=record.version, depth=depth,
            command=command, events=tuple(e for e, _ in lines),
            lines=tuple(line for _, line in lines),
            author=record.author if gm else None, time=record.time if gm else None)
        self.entries.append(entry)
        self._labels[record.version] = command
        self._by_version[record.version] = entry
        return entry


def _in_own_words(event: Event, line: str, own: frozenset[str], unknown: Unknowns) -> bool:
    """Whether what names someone hidden in ``line`` is only a player's own words that
    ``event`` carries (a note, a reason they typed): without those words it names no one."""
    if not own or not any(v in own for v in event.data.values() if isinstance(v, str)):
        return False
    for words in sorted(own, key=len, reverse=True):
        line = re.sub(rf"(?<!\w){re.escape(words)}(?!\w)", "", line)
    return not unknown.named_in(line)


def undone_entries(entries: Sequence[Entry]) -> frozenset[int]:
    """The numbers of the entries whose commands are taken back now, by the undo and redo
    entries among ``entries`` (a viewer's whole log, in order)."""
    number_of = {e.version: e.number for e in entries}
    out: set[int] = set()
    for entry in entries:
        for event in entry.events:
            if event.type not in (UNDONE, REDONE):
                continue
            numbers = event.data.get("entries") or [
                number_of[v] for v in event.data.get("versions") or () if v in number_of]
            if event.type == UNDONE:
                out.update(numbers)
            else:
                out.difference_update(numbers)
    return frozenset(out)


def _actor_owned(record: Record, knowledge: Knowledge) -> bool:
    """Whether the record's command was given for one of the viewer's own characters."""
    head = record.command.partition(" ")[0]
    return head.endswith(":") and knowledge.mine(head[:-1])


def _about(event: Event) -> list[str]:
    """Whom an event is about: its actor and its participant."""
    return [p for p in (event.actor, event.data.get("participant")) if isinstance(p, str)]


def _made_known(event: Event, knew: dict[str, bool], after: Knowledge) -> bool:
    """Whether the event is about someone the viewer did not know until this record and
    may know after it (a search found them)."""
    return any(not knew[p] and after.knows(p) for p in _about(event))


def _vanishes(event: Event, knew: dict[str, bool], after: Knowledge) -> bool:
    """Whether the event is about someone the viewer knew until this record and may not
    know after it (a conceal says nothing to those it hides from)."""
    return any(knew[p] and not after.knows(p) for p in _about(event))


def sentence(ruleset: Ruleset, event: Event, state: ConflictState) -> str:
    """The log's sentence for ``event`` (already redacted) against ``state`` (already
    projected); a sentence that cannot be made falls back to the event's text form."""
    try:
        return describe(ruleset, event, state)
    except Exception:  # a redacted event a ruleset's sentence did not expect: its text form
        return event.to_text()


def project(ruleset: Ruleset, root: ConflictState, viewer: Viewer) -> ConflictState:
    """``root`` as ``viewer`` may know it: at every level they may see, only the participants
    they may know (without GM-only stats), their sides, the public settings and the effects
    they may see. The ruleset's own part (``ext``) is shared, not copied. The GM's: ``root``."""
    if viewer.is_gm:
        return root
    knowledge = Knowledge(ruleset, root, viewer)
    unknown = knowledge.unknowns()
    levels: list[ConflictState] = []
    for i, level in enumerate(knowledge.chain[:visible_depth(knowledge) + 1]):
        participants = {pid: public_participant(p, unknown) for pid, p in level.participants.items()
                        if knowledge.knows(pid, i)}
        sides = {p.side for p in participants.values()}
        levels.append(dataclasses.replace(
            level, participants=participants, sides=[s for s in level.sides if s in sides],
            settings=public_settings(level.settings), zoom=None, concealed=[],
            effects=[e for e in level.effects if _effect_seen(level, e, viewer, knowledge, i)]))
    for outer, inner in itertools.pairwise(levels):
        outer.zoom = inner
    return levels[0]


def _effect_seen(state: ConflictState, effect: Any, viewer: Viewer, knowledge: Knowledge,
                 depth: int) -> bool:
    return may_see_event(state, Event("effect", {}, effect.owner, effect.visibility), viewer) \
        and all(who is None or knowledge.knows(who, depth)
                for who in (effect.participant, effect.owner))


def state_view(ruleset: Ruleset, root: ConflictState, viewer: Viewer, *,
               odds: bool = True, ext: bool = True) -> dict[str, Any]:
    """The state as ``viewer`` may see it, as JSON-native data (no version, no cursor).
    For the simulator's agents, which compute only what they read: ``odds=False`` skips the
    pending roll's exact odds (``"odds": None``), ``ext=False`` the ruleset's part
    (``"ruleset": None``)."""
    knowledge = Knowledge(ruleset, root, viewer)
    unknown = knowledge.unknowns()  # the net under the ruleset's parts of the view
    gm = viewer.is_gm
    levels = []
    for i, state in enumerate(knowledge.chain[:visible_depth(knowledge) + 1]):
        participants = [_entry(ruleset, state, viewer, unknown, p)
                        for p in state.participants.values() if knowledge.knows(p.id, i)]
        if ext:
            _add_sheets(ruleset, root, state, i, knowledge, participants)
        shown_sides = {p["side"] for p in participants}
        levels.append({
            "depth": state.depth, "title": state.title, "scene": state.scene,
            "status": state.status, "end_reason": _words(state.end_reason, unknown),
            "outcome": _words(state.outcome, unknown),
            "round": state.round, "round_limit": None
            if ruleset.round_limit_secret(state, viewer) else state.round_limit,
            "sides": list(state.sides) if gm else [s for s in state.sides if s in shown_sides],
            "settings": _settings(state, gm, unknown),
            "participants": participants,
            "effects": [{**dataclasses.asdict(e), "lasts": lasts(e, state, ruleset.round_word,
                                                                   ruleset.turn_word)}
                        for e in state.effects
                        if gm or (_effect_seen(state, e, viewer, knowledge, i)
                                  and not unknown.named_in(e.text))],
            "ruleset": unknown.clean(ruleset.view_ext(state, viewer, unknown.named_in))
            if ext else None,
            "odds": None if not odds else unknown.clean(ruleset.pending_odds(state, viewer))
            if state.status != "ended" else [],
        })
    return {"ruleset": ruleset.name, "viewer": {"role": viewer.role, "player": viewer.player},
            "conflict": levels[0], "zoom": levels[1:]}


def _add_sheets(ruleset: Ruleset, root: ConflictState, state: ConflictState, depth: int,
                knowledge: Knowledge, entries: list[dict[str, Any]]) -> None:
    """Put each entry's sheet in it (at level ``state``, the ``depth``-th of ``root``'s), as
    the viewer (``knowledge``) may read it. The GM's marks what its player does not read
    (the table at large, for a character no player has) and the GM's own stats
    (:func:`~fracas.engine.sheet.marked`)."""
    if not knowledge.viewer.is_gm:
        seen, unknown = _as_known(state, depth, knowledge), knowledge.unknowns()
        for entry in entries:
            entry["sheet"] = _sheet(ruleset, seen, unknown, entry)
        return
    readers: dict[str | None, tuple[Knowledge, Unknowns, ConflictState]] = {}
    for entry in entries:
        entry["sheet"] = ruleset.sheet(state, entry)
        p = state.participants[entry["id"]]
        if p.owner not in readers:
            reader = Knowledge(ruleset, root, Viewer.of_player(p.owner) if p.owner
                               else Viewer.public())
            readers[p.owner] = reader, reader.unknowns(), _as_known(state, depth, reader)
        reader, net, seen = readers[p.owner]
        known = reader.knows(p.id, depth)
        told = _sheet(ruleset, seen, net, _entry(ruleset, state, reader.viewer, net, p)) \
            if known else []
        # compared in the reader's words: a bond with one they do not know reads its id on
        # their sheet, its name on the GM's, and is no secret for that
        entry["sheet"] = marked(entry["sheet"], told, p.stats, ruleset.stats_read,
                                functools.partial(ruleset.sheet, seen, entry) if known else None)


def _as_known(state: ConflictState, depth: int, knowledge: Knowledge) -> ConflictState:
    """Level ``state`` (the ``depth``-th) holding only those the viewer may know."""
    return dataclasses.replace(state, participants={
        pid: p for pid, p in state.participants.items() if knowledge.knows(pid, depth)})


def _sheet(ruleset: Ruleset, seen: ConflictState, unknown: Unknowns, entry: dict[str, Any]
           ) -> list[SheetItem]:
    """A player's sheet of ``entry``: built from the entry (netted already as its stats
    were) at the level as they may know it (``seen``: a bond reads the name of one they know,
    the id of anyone else)."""
    sheet: list[SheetItem] = unknown.before(seen.participants[entry["id"]].entered).clean(
        ruleset.sheet(seen, entry))
    return sheet


def _words(text: str | None, unknown: Unknowns) -> str | None:
    """The GM's words (why the conflict ended, its outcome) as the viewer may read them: not
    at all where they name someone hidden from them, as a sentence of the log. (The title
    and the scene are not judged: the players read them when the conflict was set up, so
    their going away would tell of a concealment, not hide a name.)"""
    return None if text is None else unknown.text(text)


def _settings(state: ConflictState, gm: bool, unknown: Unknowns) -> dict[str, Any]:
    """A level's settings as the viewer may see them: a copy (a setting's value may be a
    table the state changes in place)."""
    sides = [p.side for p in state.participants.values() if unknown.knows(p.id)]
    seen: dict[str, Any] = copy_json(state.settings if gm else
                                     unknown.clean(public_settings(state.settings, sides)))
    return seen


def _entry(ruleset: Ruleset, state: ConflictState, viewer: Viewer, unknown: Unknowns,
           p: Participant) -> dict[str, Any]:
    """The view of participant ``p`` at level ``state``, for ``viewer`` who may know it."""
    gm = viewer.is_gm
    entry: dict[str, Any] = {
        "id": p.id, "name": p.name, "kind": p.kind, "side": p.side,
        # a public stat naming one hidden from the viewer (a bond, a note) is left out
        "player": p.owner, "stats": dict(p.stats) if gm else unknown.stats(p),
        # why it is out, in the GM's words: only "out" where they name someone hidden
        "present": p.present, "out": p.out and (unknown.text(p.out) or "out"),
        "mine": viewer.player is not None and p.owner == viewer.player,
    }
    if gm and p.gm_only:
        entry["gm_only"] = list(p.gm_only)
    if gm and p.id in state.concealed:
        entry["concealed"] = True
    entry.update(unknown.clean(ruleset.view_participant(state, viewer, p.id)))
    return entry if gm else masked_entry(ruleset, state, viewer, entry)


class Entries:
    """One viewer's entries of :func:`state_view`, each made on its own when asked for
    (the state as it is then: for the simulator's agents, read within one version)."""

    __slots__ = ("_chain", "_hidden", "_hidden_words", "_knowledge", "_root", "_ruleset",
                 "_unknown", "_viewer")

    def __init__(self, ruleset: Ruleset, root: ConflictState, viewer: Viewer) -> None:
        self._ruleset, self._root, self._viewer = ruleset, root, viewer
        self._knowledge: Knowledge | None = None  # each worked out when first needed
        self._chain: list[ConflictState] | None = None
        self._unknown: Unknowns | None = None
        self._hidden: tuple[Participant, ...] | None = None
        self._hidden_words: frozenset[str] | None = None

    def __call__(self, pid: str) -> dict[str, Any] | None:
        """The entry of ``pid`` — that of the innermost level the viewer may see it at —
        or None when it is not known to them."""
        knowledge, chain = self.knowledge, self.chain
        for i in range(len(chain) - 1, -1, -1):
            p = chain[i].participants.get(pid)
            if p is not None and knowledge.knows(pid, i):
                return _entry(self._ruleset, chain[i], self._viewer, self.unknown, p)
        return None

    def shown(self, pid: str) -> bool:
        """Whether the view shows ``pid`` (at some level: :meth:`__call__` gives an entry)."""
        knowledge, chain = self.knowledge, self.chain
        return any(pid in chain[i].participants and knowledge.knows(pid, i)
                   for i in range(len(chain)))

    def hidden_words(self) -> frozenset[str]:
        """The ids and names (lower case) of the participants, at every level, that the view
        does not show: what no legal command offered to the viewer may name
        (:meth:`~fracas.engine.legal.LegalCommand.without`)."""
        if self._hidden_words is None:
            hidden = self.hidden()
            out = {p.id for p in hidden}
            self._hidden_words = hidden_words(hidden, (
                pid for state in self._root.chain() for pid in state.participants
                if pid not in out)) if hidden else frozenset()
        return self._hidden_words

    def hidden(self) -> tuple[Participant, ...]:
        """The participants, at every level, that the view does not show (each once)."""
        if self._hidden is None:
            root, viewer = self._root, self._viewer
            if viewer.is_gm:
                self._hidden = ()
            elif root.zoom is None:  # one level: the ruleset's word alone, as Knowledge.knows
                can_see = self._ruleset.can_see  # judges it (no Knowledge made: once a version)
                self._hidden = tuple(p for p in root.participants.values()
                                     if not can_see(root, viewer, p.id))
            else:
                self._hidden = tuple({
                    p.id: p for state in root.chain() for p in state.participants.values()
                    if not self.shown(p.id)}.values())
        return self._hidden

    def ids(self) -> list[str]:
        """The ids of the participants of every level the viewer may see, in the view's order
        (the outermost level's first), those unknown to the viewer among them."""
        return list(dict.fromkeys(pid for state in self.chain for pid in state.participants))

    @property
    def chain(self) -> list[ConflictState]:
        """The levels the viewer may see, outermost first."""
        if self._chain is None:
            knowledge = self.knowledge
            self._chain = knowledge.chain[:visible_depth(knowledge) + 1]
        return self._chain

    @property
    def knowledge(self) -> Knowledge:
        """Which participants the viewer may know, at each level."""
        if self._knowledge is None:
            self._knowledge = Knowledge(self._ruleset, self._root, self._viewer)
        return self._knowledge

    @property
    def unknown(self) -> Unknowns:
        """The participants hidden from the viewer, to keep out of what they are given."""
        if self._unknown is None:
            self._unknown = self.knowledge.unknowns()
        return self._unknown

    def settings(self) -> dict[str, Any]:
        """The settings of the conflict (its top level) as :func:`state_view` gives them."""
        return _settings(self._root, self._viewer.is_gm, self.unknown)


def offered(conflict: Conflict, viewer: Viewer, actor: str | None) -> list[LegalCommand]:
    """The legal commands of ``actor`` (None: the GM's own) as ``viewer`` is offered them:
    :meth:`Conflict.legal` less every value, and every command, that names a participant
    hidden from the viewer (:meth:`LegalCommand.without`), and telling nothing of the actor's
    stats the viewer may not see (:meth:`Ruleset.offer_for`)."""
    legal = conflict.legal(actor)
    if viewer.is_gm:
        return legal
    offer = without(legal, Entries(conflict.ruleset, conflict.state, viewer).hidden_words())
    return conflict.ruleset.offer_for(conflict.state, actor, viewer, offer) if actor else offer


def known_players(conflict: Conflict, viewer: Viewer) -> list[str]:
    """The players of the characters ``viewer`` may know (no list of players gives away a
    character hidden from them)."""
    knowledge = Knowledge(conflict.ruleset, conflict.state, viewer)
    return sorted({p.owner for p in conflict.state.participants.values()
                   if p.owner and knowledge.knows(p.id, 0)})


def log_data(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """The JSON form of a viewer's log."""
    return [e.to_data() for e in entries]


__all__ = ["EXISTENCE_EVENTS", "GM_ACTS", "Entries", "Entry", "Projector", "Update",
           "known_players", "log_data", "project", "sentence", "state_view",
           "visible_depth"]
