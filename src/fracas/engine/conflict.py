"""A live conflict: its append-only log, the state folded from it, undo and redo.

The path of a command: text or JSON → :class:`~fracas.engine.commands.Command` →
``decide`` (engine-level or the ruleset's) → events in a :class:`Record` → appended to the log →
``evolve`` folds them into the state. Undo and redo are records too: markers the fold reads to
leave records out or bring them back (DESIGN.md principle 1). Versions only grow.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from time import time as epoch_seconds
from typing import TYPE_CHECKING, Any

from fracas.engine import effects as fx
from fracas.engine import harm_view
from fracas.engine.commands import Command, CommandSet
from fracas.engine.concealment import (
    ParticipantConcealed,
    ParticipantRevealed,
    decide_concealment,
    engine_verbs,
    evolve_concealment,
    inherit,
)
from fracas.engine.context import DecideContext
from fracas.engine.engine_events import (
    ConflictCreated,
    ConflictEnded,
    Redone,
    RoundEnded,
    Undone,
    ZoomClosed,
    ZoomOpened,
)
from fracas.engine.events import META_EVENTS, REDONE, UNDONE, Event, Record
from fracas.engine.generic import (
    AFTER_END_VERBS,
    GENERIC_COMMANDS,
    GENERIC_VERBS,
    OUT_OF_PLAY_VERBS,
    decide_generic,
    evolve_generic,
)
from fracas.engine.legal import LegalCommand, from_template
from fracas.engine.limits import (
    MAX_LINE_CHARS,
    check_gm_only_settings,
    check_nesting,
    check_stat_ranges,
    no_key_twice,
)
from fracas.engine.model import (
    ConflictState,
    Status,
    Viewer,
    copy_state,
    frozen_copy,
    not_found,
    thawed,
)
from fracas.engine.redaction import Knowledge, visible_depth
from fracas.engine.refusals import refusal_for
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import Setup, hidden_joins, read_setup, words_in
from fracas.engine.suggest import did_you_mean
from fracas.engine.words import listed, possessive
from fracas.errors import (
    FracasError,
    IllegalCommand,
    InternalError,
    InvalidInput,
    NotAllowed,
    NotFound,
    NotYourTurn,
    StaleVersion,
)

if TYPE_CHECKING:
    from fracas.engine.projector import Projector

_COMMAND_SETS: dict[type[Ruleset], CommandSet] = {}

#: Undo folds from the nearest of the last CHECKPOINTS_KEPT states kept every CHECKPOINT_EVERY
#: counting records (an undo further back folds from the start).
CHECKPOINT_EVERY = 64
CHECKPOINTS_KEPT = 16
_ENDED = Status.ENDED.value  # read once: an enum member's value is slow to look up


def command_set(ruleset: Ruleset) -> CommandSet:
    """The engine's commands plus the ruleset's, by verb (made once per ruleset class)."""
    cs = _COMMAND_SETS.get(type(ruleset))
    if cs is None:
        cs = CommandSet((*GENERIC_COMMANDS, *engine_verbs(ruleset), *ruleset.commands))
        _COMMAND_SETS[type(ruleset)] = cs
    return cs


#: The events whose level is not simply the innermost conflict's, or that change a parent.
_ROUTED = (ParticipantConcealed, ParticipantRevealed, ZoomClosed, ZoomOpened)


def evolve(ruleset: Ruleset, root: ConflictState, event: Event) -> ConflictState:
    """Apply one event to the conflict (routed to the zoomed-in one being played)."""
    types = ruleset.events
    if type(event) not in types.final():  # (decided and stored events are typed already)
        event = types.typed(event)
    if root.zoom is None and not isinstance(event, _ROUTED):  # most events: no routing
        evolve_generic(ruleset, root, event)
        ruleset.evolve(root, event)
        return root
    chain = root.chain()
    if evolve_concealment(chain, event):
        return root
    target = chain[-2] if isinstance(event, ZoomClosed) and len(chain) > 1 else chain[-1]
    evolve_generic(ruleset, target, event)
    ruleset.evolve(target, event)
    if isinstance(event, ZoomOpened) and target.zoom is not None:
        inherit(target, target.zoom)
    return root


def fold(ruleset: Ruleset, records: Iterable[Record],
         checkpoints: Checkpoints | None = None) -> ConflictState:
    """The state of a log: its counting records' events applied in order (kept in
    ``checkpoints`` every so often, for a later undo)."""
    types = ruleset.events
    return fold_typed(ruleset, (r.typed(types) for r in counting_records(records)), checkpoints)


def fold_typed(ruleset: Ruleset, records: Iterable[Record],
               checkpoints: Checkpoints | None = None) -> ConflictState:
    """The state of counting records already typed by the ruleset's event types, applied in
    order (kept in ``checkpoints`` every so often)."""
    state = ConflictState()
    for record in records:
        for event in record.events:
            evolve(ruleset, state, event)
        if checkpoints is not None:
            checkpoints.passed(record.version, state)
    return state


class Checkpoints:
    """Copies of the state every :attr:`every` counting records, so that an undo folds only
    the records after the newest copy it leaves standing, not the whole log (the newest
    :attr:`keep` copies are kept). A copy at version ``c`` is the fold of the counting records
    up to ``c``; an undo or redo of a version at or before ``c`` makes it stale."""

    __slots__ = ("_copies", "_since", "every", "keep")

    def __init__(self, every: int | None = None, keep: int | None = None) -> None:
        self.every = every or CHECKPOINT_EVERY
        self.keep = keep or CHECKPOINTS_KEPT
        self._copies: list[tuple[int, bytes | ConflictState]] = []
        self._since = 0

    def passed(self, version: int, state: ConflictState) -> None:
        """A counting record was folded into ``state``: copy it if one is due."""
        self._since += 1
        if self._since >= self.every:
            self.take(version, state)

    def take(self, version: int, state: ConflictState) -> None:
        """Keep a copy of ``state`` as the fold up to ``version``."""
        self._since = 0
        self._copies.append((version, frozen_copy(state)))
        del self._copies[:-self.keep]

    def forget_from(self, version: int) -> None:
        """Drop the copies an undo or redo of ``version`` (and later) makes stale."""
        self._copies = [(v, s) for v, s in self._copies if v < version]
        self._since = 0

    def newest(self) -> tuple[int, ConflictState] | None:
        """The newest copy (version, a fresh copy of its state), if any."""
        if not self._copies:
            return None
        version, kept = self._copies[-1]
        return version, thawed(kept)


class Versions:
    """Versions in increasing order, kept as runs ``[first, last]``: a log without undo is one
    run, so reading it back from a snapshot costs the same however long the log is."""

    __slots__ = ("_len", "runs")

    def __init__(self, runs: Iterable[Sequence[int]] = ()) -> None:
        self.runs: list[list[int]] = [[int(first), int(last)] for first, last in runs]
        self._len = sum(last - first + 1 for first, last in self.runs)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        for first, last in self.runs:
            yield from range(first, last + 1)

    @property
    def first(self) -> int | None:
        """The lowest version (None: none)."""
        return self.runs[0][0] if self.runs else None

    def append(self, version: int) -> None:
        """Add ``version`` (in its place, when it is not the highest: only a marker made by
        hand brings back a version below one that counts)."""
        runs = self.runs
        if runs and version <= runs[-1][1]:
            values = sorted({*self, version})
            self.runs, self._len = [], 0
            for v in values:
                self.append(v)
            return
        if runs and runs[-1][1] == version - 1:
            runs[-1][1] = version
        else:
            runs.append([version, version])
        self._len += 1

    def last(self, n: int) -> list[int]:
        """The ``n`` highest versions, highest first."""
        out: list[int] = []
        for first, last in reversed(self.runs):
            take = min(n - len(out), last - first + 1)
            if take <= 0:
                break
            out.extend(range(last, last - take, -1))
        return out

    def after(self, version: int) -> list[int]:
        """The versions above ``version``, in order."""
        out: list[int] = []
        for first, last in reversed(self.runs):
            if last <= version:
                break
            out[:0] = range(max(first, version + 1), last + 1)
        return out

    def remove(self, gone: set[int]) -> None:
        """Take ``gone`` out (undo takes the last versions: only the versions from the
        lowest of them on are gone through)."""
        if not gone:
            return
        low = min(gone)
        above: list[int] = []
        while self.runs and self.runs[-1][1] >= low:
            first, last = self.runs.pop()
            self._len -= last - first + 1
            if first < low:
                self.runs.append([first, low - 1])
                self._len += low - first
            above[:0] = range(max(first, low), last + 1)
        for v in above:
            if v not in gone:
                self.append(v)


class History:
    """Which versions count after the undo and redo markers read so far: the counting ones
    in version order, and the redo stack (next to redo last). One reading of the markers,
    shared by :func:`counting_records` and :class:`Conflict`."""

    __slots__ = ("active", "closed", "redo")

    def __init__(self) -> None:
        self.active = Versions()
        self.redo: list[int] = []
        #: the version of the command that set undone ones aside (emptied the redo stack),
        #: while no undo or redo has come since: what a refused redo names
        self.closed: int | None = None

    def read(self, record: Record) -> tuple[str, list[int]]:
        """Take ``record`` into account; return what it did: ("record", [its version]),
        ("undone", versions taken back) or ("redone", versions brought back)."""
        if not record.is_meta:
            self.active.append(record.version)
            if self.redo:
                self.closed = record.version
            self.redo.clear()
            return "record", [record.version]
        self.closed = None
        marker = record.events[0]
        versions = list(marker.data["versions"])
        if marker.type == UNDONE:
            self.active.remove(set(versions))
            self.redo.extend(versions)
            return UNDONE, versions
        back = set(versions)
        self.redo = [v for v in self.redo if v not in back]
        for v in sorted(versions):  # brought back: the versions undone last, above the rest
            self.active.append(v)
        return REDONE, versions

    def to_data(self) -> dict[str, Any]:
        """The JSON form (kept with a snapshot): the counting versions as runs
        ``[first, last]`` (one run for a log without undo) and the redo stack."""
        out: dict[str, Any] = {"active": [list(run) for run in self.active.runs],
                               "redo": list(self.redo)}
        if self.closed is not None:
            out["closed"] = self.closed
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> History:
        """Read :meth:`to_data` back."""
        history = cls()
        history.active = Versions(data["active"])
        history.redo = [int(v) for v in data["redo"]]
        closed = data.get("closed")  # (a snapshot kept before it was: None)
        history.closed = int(closed) if closed is not None else None
        return history


def counting_records(records: Iterable[Record]) -> list[Record]:
    """The records that count after every undo and redo marker, in version order."""
    history = History()
    by_version: dict[int, Record] = {}
    for record in records:
        by_version[record.version] = record
        history.read(record)
    return [by_version[v] for v in history.active]


@dataclass(frozen=True, slots=True)
class Earlier:
    """The records up to a snapshot, left unread in a store: which of them count (the
    :class:`History` kept with the snapshot), how to read them all (done once, when first
    needed: by undo past the snapshot, redo, a projector, an export) and how to find one of
    them by its idempotency key."""

    upto: int  #: the snapshot's version: the records 1 … upto are left in the store
    history: History  #: taken over (and changed) by the conflict loaded with it
    read: Callable[[], Sequence[Record]]
    find_key: Callable[[str, str], Record | None]  #: (author, key): the record, if any


def _closest_participant(typed: str, state: ConflictState) -> str:
    """The GM's "did you mean" for a participant id mistyped: the closest id, or the
    participant whose name is closest (the state shows names, commands take ids):
    ``; did you mean 'cut1' (Cutthroat 1)?`` for ``cutthroat1``."""
    hint = did_you_mean(typed, state.participants)
    if hint:
        return hint
    names = {p.name.lower(): p for p in state.participants.values()}
    close = difflib.get_close_matches(typed.lower(), list(names), n=1, cutoff=0.6)
    if not close:
        return ""
    p = names[close[0]]
    return f"; did you mean {p.id!r} ({p.name})?"


class Conflict:
    """One conflict: ruleset, secret seed, log and the live state."""

    def __init__(
        self,
        ruleset: Ruleset,
        seed: str,
        records: Sequence[Record] = (),
        *,
        snapshot: tuple[int, ConflictState] | None = None,
        earlier: Earlier | None = None,
    ) -> None:
        """Load a conflict from its log; ``snapshot`` (version, state) is an optional cache
        used when no undo or redo came after it (its state is taken over, not copied).
        With ``earlier`` (the records up to the snapshot, left in the store), ``records``
        are only the ones after the snapshot: the load then costs what they cost, however
        long the log."""
        self.ruleset = ruleset
        self.seed = seed
        self.commands = command_set(ruleset)
        self._engine_verbs = frozenset(spec.verb for spec in engine_verbs(ruleset))
        self._log: list[Record] = []  # the records after the first ``_offset`` versions
        self._offset = 0
        self._earlier: Earlier | None = None
        self.state = ConflictState()
        self._history = History()
        self._keys: dict[tuple[str, str], Record] = {}  # (author, key): each author's own
        self._checkpoints = Checkpoints()
        #: engine/views.py's projector of each viewer, kept with the conflict (they follow
        #: it, and go when it goes)
        self.projectors: dict[Viewer, Projector] = {}
        if earlier is not None and (snapshot is None or snapshot[0] != earlier.upto
                                    or any(r.is_meta for r in records)):
            self._log = list(earlier.read())  # not usable: read the whole log
            earlier = None
        if earlier is not None:
            self._earlier, self._offset = earlier, earlier.upto
            self._history = earlier.history  # taken over: the caller made it for this load
        for record in records:
            self._append(record, rebuild=False)
        if snapshot is not None and not any(
            r.is_meta for r in self._log if r.version > snapshot[0]
        ):
            self.state = snapshot[1]
            self._checkpoints.take(snapshot[0], self.state)
            for record in self._log:
                if record.version > snapshot[0]:
                    for event in record.events:
                        evolve(ruleset, self.state, event)
        else:
            self.state = self._fold_counting()

    # --- creation ---------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        ruleset: Ruleset,
        setup: Setup,
        seed: str,
        *,
        author: str = "gm",
        time: str | None = None,
    ) -> Conflict:
        """A new conflict whose first record (version 1) holds the validated set-up."""
        if setup.ruleset != ruleset.name:
            raise InvalidInput(f"the set-up is for {setup.ruleset!r}, not {ruleset.name!r}")
        for p in setup.participants:
            check_stat_ranges(ruleset.stat_ranges, p.id, p.stats)
        ruleset.check_setting_names(setup.settings)
        check_gm_only_settings(setup.settings, ruleset.shown_settings, ruleset.title)
        harm_view.check_setting(setup.settings, setup.sides)  # with the participants'
        checked = read_setup(ruleset.title, lambda: ruleset.validate_setup(setup))
        hidden = {p.id for p in setup.participants if p.hidden}
        if named := sorted(hidden & words_in(setup.settings)):
            raise InvalidInput(
                f"the settings name {listed(named)}, hidden from the players at the start: the "
                "set-up they read would tell of them; give what the settings say of them (a "
                "guard, cover, a range) in the script, once they have joined", participant=named[0])
        shown = checked.model_copy(update={"participants": [
            p for p in checked.participants if p.id not in hidden]})
        conflict = cls(ruleset, seed)
        event = ConflictCreated.from_payload(shown.model_dump(mode="json"))
        record = Record(1, "create", (event,), author, time or _now(), None)
        read_setup(ruleset.title, lambda: conflict._commit(record))  # the ruleset reads it
        for join in hidden_joins(setup):
            conflict.execute(join, time=time)
        return conflict

    # --- reading ----------------------------------------------------------------------
    @property
    def records(self) -> list[Record]:
        """The whole log in version order (records a load left in the store are read, all at
        once, the first time it is asked for)."""
        earlier = self._earlier
        if earlier is not None:
            self._earlier = None
            before = [r.typed(self.ruleset.events) for r in earlier.read()]
            if len(before) != self._offset:
                raise InternalError(f"the store gave {len(before)} records before the "
                                    f"snapshot at version {self._offset}")
            self._log[:0] = before
            self._offset = 0
            for record in before:
                if record.key is not None:
                    self._keys.setdefault((record.author, record.key), record)
        return self._log

    @property
    def version(self) -> int:
        """The version of the last record (0 for an empty log; versions are 1, 2, 3, …)."""
        return self._offset + len(self._log)

    def record(self, version: int) -> Record:
        """The record at ``version`` (1 … :attr:`version`)."""
        if version > self._offset:
            return self._log[version - self._offset - 1]
        return self.records[version - 1]

    def history_data(self) -> dict[str, Any]:
        """Which versions count and which redo would bring back, as JSON (kept with a
        snapshot, so that a load from it need not read the records before it)."""
        return self._history.to_data()

    def parse(self, text: str) -> Command:
        """Read a command in text notation."""
        return self.commands.parse(text)

    def text(self, command: Command) -> str:
        """The canonical text notation of a command."""
        return self.commands.to_text(command)

    def replay(self, version: int | None = None) -> ConflictState:
        """The state as it was at ``version`` (default: now), folded from the log."""
        upto = [r for r in self.records if version is None or r.version <= version]
        return fold(self.ruleset, upto)

    def undoable(self, limit: int | None = None) -> list[int]:
        """Versions that undo would take back, most recent first (never the set-up); at most
        ``limit`` of them."""
        active = self._history.active
        first = 1 if active.first == 1 else 0
        start = first if limit is None else max(first, len(active) - limit)
        return active.last(len(active) - start)

    def redoable(self, limit: int | None = None) -> list[int]:
        """Versions that redo would bring back, next first; at most ``limit`` of them."""
        redo = self._history.redo
        return redo[len(redo) - limit if limit is not None and limit < len(redo) else 0:][::-1]

    def legal(self, actor: str | None = None) -> list[LegalCommand]:
        """What ``actor`` (None: the GM) may do now, as structured values (DESIGN.md
        principle 5): each with its parameters, their kinds and the values allowed now."""
        out: dict[str, LegalCommand] = {}
        for item in self._legal_items(actor):
            lc = item if isinstance(item, LegalCommand) else from_template(self.commands, item)
            out.setdefault(lc.text(), lc)
        return list(out.values())

    def legal_commands(self, actor: str | None = None) -> list[str]:
        """What ``actor`` (None: the GM) may do now, as text templates (for the terminal):
        concrete commands first; UPPER-CASE placeholders (``note TEXT``) stand for values the
        user picks."""
        return list(dict.fromkeys(
            item.text() if isinstance(item, LegalCommand) else item
            for item in self._legal_items(actor)))

    def _legal_items(self, actor: str | None) -> list[str | LegalCommand]:
        state = self.state.innermost
        ended = self.state.status == _ENDED
        out: list[str | LegalCommand] = []
        if actor is None:
            if self.undoable(1):
                out.append("undo")
            if self.redoable(1):
                out.append("redo")
        if not ended:
            out.extend(self.ruleset.legal_commands(state, actor))
        prefix = f"{actor}: " if actor else ""
        out += [f"{prefix}note TEXT", f"{prefix}narrate TEXT", f"{prefix}roll EXPRESSION"]
        if actor is None and not ended:
            out += ["effect TEXT", "override PATH VALUE", self._join_offer(state), "leave ID",
                    "out ID", self._end_offer(state)]
        return out

    def _join_offer(self, state: ConflictState) -> LegalCommand:
        """``join ID`` with the sides a newcomer may take part on: the only ones the rules
        take (:meth:`~fracas.engine.ruleset.Ruleset.join_sides`) to choose from, else the
        conflict's suggested, a new one taken too."""
        only = self.ruleset.join_sides(state)
        lc = from_template(self.commands, "join ID")
        return dataclasses.replace(lc, params=tuple(
            c if c.name != "side" else dataclasses.replace(c, allowed=only)
            if only is not None else dataclasses.replace(c, suggested=tuple(state.sides))
            for c in lc.params))

    def _end_offer(self, state: ConflictState) -> str | LegalCommand:
        """``end REASON``, with the reasons the rules name (if any) suggested, the one that
        fits first; any other reason is taken too. Inside a zoomed-in conflict it is offered
        as what it does there: it ends the zoom, play returning to the conflict around it
        (named), with a reason alone (an outcome is the whole conflict's)."""
        reasons = self.ruleset.end_reasons(state)
        if not reasons and not state.depth:
            return "end REASON"
        lc = from_template(self.commands, "end REASON")
        params = tuple(dataclasses.replace(c, suggested=reasons, default=reasons[0])
                       if c.name == "reason" and reasons else c for c in lc.params)
        if not state.depth:
            return dataclasses.replace(lc, params=params)
        back = self.state.chain()[-2].title
        return dataclasses.replace(
            lc, params=tuple(c for c in params if c.name != "outcome"),
            label="end the zoom-in",
            summary=f"end this zoomed-in conflict early, with a reason: play returns to {back}")

    # --- deciding ---------------------------------------------------------------------
    def to_command(self, command: str | Command | dict[str, Any]) -> Command:
        """Any accepted form of a command (text, JSON object, Command) as a Command."""
        if isinstance(command, Command):
            return self.commands.checked(command)
        if isinstance(command, dict):
            return self.commands.from_data(command)
        if isinstance(command, str):
            if command.lstrip().startswith("{"):  # the JSON form, typed or sent as text
                check_nesting(command, "the JSON command")
                try:
                    data = json.loads(command, object_pairs_hook=no_key_twice)
                except ValueError as exc:
                    raise InvalidInput(f"not a JSON command: {exc}") from None
                return self.commands.from_data(data)
            return self.commands.parse(command)
        raise InvalidInput(f"not a command: {command!r}")

    def check_author(self, cmd: Command, author: Viewer) -> None:
        """Refuse a command its author may not give."""
        if author.is_gm:
            return
        spec = self.commands.spec(cmd.verb)
        if author.role != "player" or author.player is None:
            raise NotAllowed("only the GM and players may give commands")
        if spec.actor == "gm":
            raise NotAllowed(f"{cmd.verb} is for the GM only", verb=cmd.verb)
        if cmd.actor is None:
            raise NotAllowed(f"{cmd.verb}: say which of your characters acts (NAME: …)")
        state = self.state.innermost
        owner = state.participants[cmd.actor].owner if cmd.actor in state.participants else None
        if owner != author.player:
            self._check_outside_zoom(cmd.actor, author)
            raise NotAllowed(
                f"{author.player} does not play {cmd.actor!r}", actor=cmd.actor,
                player=author.player,
            )

    def _check_outside_zoom(self, actor: str, author: Viewer) -> None:
        """Refuse a command for the player's own character waiting outside the zoomed-in
        conflict in play: as not in it, where the player sees that zoom; else as not its turn,
        as the rest of the conflict they see would have it (the zoom is not theirs to know)."""
        outer = next((level for level in reversed(self.state.chain()[:-1])
                      if actor in level.participants), None)
        if outer is None or outer.participants[actor].owner != author.player:
            return
        who = outer.participants[actor].name
        if visible_depth(Knowledge(self.ruleset, self.state, author)) < self.state.innermost.depth:
            raise NotYourTurn(f"{who} does not act now; it is not {possessive(who)} turn",
                              rule=self.ruleset.zoom_wait_rule, participant=actor)
        raise IllegalCommand(f"{who} is not in this zoomed-in conflict: play returns to "
                             f"{outer.title} when it ends", participant=actor)

    def decide(self, command: Command, author: Viewer | None = None) -> list[Event]:
        """The events ``command`` would add now; raises (changing nothing) if it is refused.

        A participant id the GM mistyped gets a "did you mean"; a player never gets one (it
        would name characters hidden from them).
        """
        author = author or Viewer.gm()
        try:
            return self._decide(command, author)
        except FracasError as exc:
            if not author.is_gm:  # a player's refusal is built from what they may know
                told = refusal_for(self.ruleset, self.state, author, command, exc)
                if told is exc:
                    raise
                raise told from None
            if not isinstance(exc, NotFound):
                raise
            pid = exc.values.get("participant")
            hint = _closest_participant(pid, self.state.innermost) if (
                author.is_gm and isinstance(pid, str) and not exc.values.get("suggested")) else ""
            if not hint:
                raise
            raise NotFound(exc.message + hint, rule=exc.rule, **{**exc.values, "suggested": True}
                           ) from None

    def _decide(self, command: Command, author: Viewer) -> list[Event]:
        self.check_author(command, author)
        if not self.version:
            raise IllegalCommand("the conflict has not been created yet")
        if command.verb == "undo":
            return [self._decide_undo(int(command.args.get("steps", 1)))]
        if command.verb == "redo":
            return [self._decide_redo(int(command.args.get("steps", 1)))]
        state = self.state.innermost
        root = self.state
        if root.status == _ENDED and command.verb not in AFTER_END_VERBS:
            raise IllegalCommand(
                f"the conflict has ended ({root.end_reason}); undo the end to play on",
                verb=command.verb,
            )
        if command.actor is not None:
            actor = state.participant(command.actor)
            if not actor.active and command.verb not in OUT_OF_PLAY_VERBS:
                why = f"is out of the conflict ({actor.out})" if actor.out else "has left"
                rule = self.ruleset.out_rule(state, actor.id) if actor.out else None
                raise IllegalCommand(
                    f"{actor.name} {why} and can no longer act; the GM can bring them back "
                    "with undo", rule=rule, participant=actor.id,
                    verb=command.verb)
        if not author.is_gm:
            self._check_known_ids(state, command, author)
        ctx = DecideContext(self.seed, self.version + 1, author)
        try:
            if command.verb in GENERIC_VERBS:
                events = decide_generic(self.ruleset, state, command, ctx)
            elif command.verb in self._engine_verbs:
                events = decide_concealment(state, command)
            else:
                events = self.ruleset.decide(state, command, ctx)
        except FracasError:
            raise
        except Exception as exc:  # a bug: refuse the command, say so, change nothing
            raise InternalError(
                f"internal error while deciding {self.text(command)!r}: {exc!r}; nothing "
                "changed", verb=command.verb,
            ) from exc
        types = self.ruleset.events
        final, typed = types.final(), types.typed
        return self._post_process(state, [e if type(e) in final else typed(e) for e in events])

    def _check_known_ids(self, state: ConflictState, command: Command, author: Viewer) -> None:
        """Refuse, before any rule is asked, a player's command that names a participant the
        player may not know exists — with the very refusal a missing one gets (an error is an
        output: it must not tell a hidden character from a missing one)."""
        knowledge: Knowledge | None = None  # made once an id is found: most commands name none
        hidden: dict[str, str] = {}
        named = [p.name for p in self.commands.spec(command.verb).params
                 if p.names and p.name in command.args]
        for name in named:
            value = command.args[name]
            for pid in value if isinstance(value, list) else [value]:
                if isinstance(pid, str) and pid in state.participants:
                    if knowledge is None:
                        knowledge = Knowledge(self.ruleset, self.state, author)
                    if not knowledge.knows(pid):
                        hidden.setdefault(pid, pid + _STAND_IN)
        if not hidden:
            return
        args = dict(command.args)
        for name in named:
            value = args[name]
            ids = value if isinstance(value, list) else [value]
            swap = [hidden.get(i, i) if isinstance(i, str) else i for i in ids]
            args[name] = swap if isinstance(value, list) else swap[0]
        # what the rules answer for ids that surely do not exist, said of the ids typed
        missing = Command(command.verb, command.actor, args)
        ctx = DecideContext(self.seed, self.version + 1, author)
        try:
            if command.verb in GENERIC_VERBS:
                decide_generic(self.ruleset, state, missing, ctx)
            elif command.verb not in self._engine_verbs:
                self.ruleset.decide(state, missing, ctx)
        except FracasError as exc:
            text = _without_stand_in(exc.message)
            raise type(exc)(text, rule=exc.rule, **{
                k: _swap_back(v, hidden) for k, v in exc.values.items()}) from None
        except Exception:  # a ruleset bug on a missing id: refused as missing all the same
            pass
        raise not_found(next(iter(hidden)))

    def _post_process(self, state: ConflictState, events: list[Event]) -> list[Event]:
        """Add what follows from the rules of every conflict: the end of a conflict (or the
        return from a zoomed-in one) when its round limit is reached, expired effects, and
        what the ruleset says follows in the outer conflict once a zoomed-in one closed."""
        limit = state.round_limit
        if limit is not None and not any(isinstance(e, ZoomClosed | ConflictEnded)
                                         for e in events):
            for e in events:
                if isinstance(e, RoundEnded) and e.round >= limit:
                    reason = f"{limit} round{'' if limit == 1 else 's'} played"
                    events = [*events, ZoomClosed(reason=reason) if state.depth > 0
                              else ConflictEnded(reason=reason)]
                    break
        events = fx.with_expiries(state.effects, events)
        if any(isinstance(e, ZoomClosed) for e in events):  # rare: worth a scratch copy
            after = copy_state(self.state)
            for e in events:
                evolve(self.ruleset, after, e)
            parent, typed = after.innermost, self.ruleset.events.typed
            levels = self.state.chain()  # the parent as the zoom found it: one level out
            before = levels[-2] if len(levels) > 1 else levels[-1]
            follow = [typed(e) for e in self.ruleset.after_zoom(parent, before)]
            events = [*events, *fx.with_expiries(parent.effects, follow)]
        return events

    def _decide_undo(self, steps: int) -> Event:
        return self._marker(Undone, "undo", "undone", steps, self.undoable,
                            "only the set-up is left, and it is never undone")

    def _decide_redo(self, steps: int) -> Event:
        closed = self._history.closed
        why = "nothing undone waits to be brought back" if closed is None else (
            f"v{closed} ({self.record(closed).command}), given after the undo, set the undone "
            "commands aside for good (undo and redo never branch): give them again instead")
        return self._marker(Redone, "redo", "redone", steps, self.redoable, why)

    @staticmethod
    def _marker(kind: type[Undone | Redone], verb: str, done: str, steps: int,
                can: Callable[[int | None], list[int]], why: str) -> Event:
        """An undo or redo marker for the next ``steps`` of the versions ``can`` gives
        (``why``: why there is none)."""
        if steps < 1:
            raise InvalidInput(f"{verb} takes a positive number of steps", steps=steps)
        versions = can(steps + 1)
        if not versions:
            raise IllegalCommand(f"there is nothing to {verb}: {why}")
        if steps > len(versions):
            some = "1 command" if len(versions) == 1 else f"{len(versions)} commands"
            raise IllegalCommand(f"only {some} can be {done}, not {steps}", steps=steps)
        return kind(versions=versions[:steps])

    # --- executing --------------------------------------------------------------------
    def prepare(
        self,
        command: str | Command | dict[str, Any],
        author: Viewer | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
        time: str | None = None,
    ) -> Record:
        """Validate a command and return the record it would append (nothing changes)."""
        author = author or Viewer.gm()
        if expected_version is not None and expected_version != self.version:
            if not author.is_gm:  # a player learns no version, nor how far off theirs is
                raise StaleVersion("someone acted first; reload and try again",
                                   expected=expected_version)
            raise StaleVersion(
                f"the conflict is at version {self.version}, not {expected_version}: "
                "someone else acted first; reload and try again",
                expected=expected_version, actual=self.version,
            )
        cmd = self.to_command(command)
        text = self.text(cmd)
        if len(text) > MAX_LINE_CHARS:  # the record must read back (given as JSON, it can be)
            raise InvalidInput(f"this command is {len(text)} characters long in the text "
                               f"notation; a command holds at most {MAX_LINE_CHARS} (the limit "
                               "on command lines): shorten its text", limit=MAX_LINE_CHARS)
        events = self.decide(cmd, author)  # typed by the ruleset's event types
        return Record(self.version + 1, text, tuple(events), author.name, time or _now(), key)

    def execute(
        self,
        command: str | Command | dict[str, Any],
        author: Viewer | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
        time: str | None = None,
    ) -> Record:
        """Decide a command and append its record; a refused command changes nothing.

        A retried command with the same idempotency ``key`` returns the record already made.
        """
        done = None if key is None else self.record_with_key(key, author)
        if done is not None:
            return self.retried(done, command)
        record = self.prepare(
            command, author, expected_version=expected_version, key=key, time=time
        )
        self.commit(record)
        return record

    def commit(self, record: Record) -> None:
        """Append a record this conflict decided at its version (as :meth:`prepare` makes
        one: the events :meth:`decide` gave, typed already) and fold it — what
        :meth:`execute` does once the command is decided; a record decided elsewhere goes
        through :meth:`append_record`, which reads it first."""
        if record.version != self.version + 1:
            raise StaleVersion(
                f"record {record.version} does not follow version {self.version}",
                expected=self.version + 1, actual=record.version,
            )
        self._commit(record, decided=True)

    def record_with_key(self, key: str, author: Viewer | None = None) -> Record | None:
        """The record ``author`` appended with idempotency ``key``, if any (an index, not a
        scan; for the records a load left in the store, the store's index). Each author's
        keys are their own: another's key is never found, so it tells nothing of them."""
        name = (author or Viewer.gm()).name
        done = self._keys.get((name, key))
        if done is None and self._earlier is not None:
            found = self._earlier.find_key(name, key)
            if found is not None and found.version <= self._offset:
                done = found
        return done

    def retried(self, done: Record, command: str | Command | dict[str, Any]) -> Record:
        """The record a retry with ``done``'s idempotency key stands for (``done``, found by
        its author's key): itself for the same command again; refused for another."""
        if self.text(self.to_command(command)) != done.command:
            raise InvalidInput(
                f"idempotency key {done.key!r} was already used for another command "
                f"({done.command!r}); use a new key for a new command", key=done.key,
            )
        return done

    def _commit(self, record: Record, *, decided: bool = False) -> None:
        """Append a record and fold it into the state (``decided``: by this conflict, its
        events typed already)."""
        try:
            self._append(record, rebuild=True, typed=decided)
        except Exception as exc:  # a ruleset bug: evolve must never fail
            self._log.pop()
            self._reindex()
            raise InternalError(
                f"internal error while applying {record.command!r}: {exc!r}; nothing changed"
            ) from exc

    def append_record(self, record: Record) -> None:
        """Append a record decided elsewhere (a store, another process) and fold it."""
        if record.version != self.version + 1:
            raise StaleVersion(
                f"record {record.version} does not follow version {self.version}",
                expected=self.version + 1, actual=record.version,
            )
        markers = sum(e.type in META_EVENTS for e in record.events)
        if markers != (1 if record.is_meta else 0) or (record.is_meta and len(record.events) > 1):
            raise InvalidInput(
                f"record {record.version} ({record.command!r}) does not match its events: "
                "only undo and redo records hold (exactly one) undo/redo marker",
                version=record.version,
            )
        self._commit(record)

    def _append(self, record: Record, *, rebuild: bool, typed: bool = False) -> None:
        if not typed:
            record = record.typed(self.ruleset.events)
        self._log.append(record)
        if record.key is not None:
            self._keys[(record.author, record.key)] = record
        did, versions = self._history.read(record)
        if not rebuild:
            return
        ruleset, state = self.ruleset, self.state
        if did == "record":
            for event in record.events:
                evolve(ruleset, state, event)
            self._checkpoints.passed(record.version, state)
            return
        self._checkpoints.forget_from(min(versions))
        if did == UNDONE:
            self._refold()
            return
        for v in versions:  # redone: their events again, in order
            for event in self.record(v).events:
                evolve(ruleset, state, event)

    def _refold(self) -> None:
        """The state after an undo: the newest checkpoint left standing plus the counting
        records after it (the whole log only when no checkpoint is left)."""
        start = self._checkpoints.newest()
        if start is None:
            self.state = self._fold_counting()
            return
        since, self.state = start
        for v in self._history.active.after(since):
            for event in self.record(v).events:
                evolve(self.ruleset, self.state, event)

    def _reindex(self) -> None:
        records, self._log = self.records, []
        self._history, self._keys = History(), {}
        self._checkpoints = Checkpoints()
        for record in records:
            self._append(record, rebuild=False)
        self.state = self._fold_counting()

    def _fold_counting(self) -> ConflictState:
        """The fold of the counting records, as the history read while appending them says
        (their events typed already), copied into the checkpoints as it goes."""
        records = self.records
        return fold_typed(self.ruleset, (records[v - 1] for v in self._history.active),
                          self._checkpoints)

    def snapshot_state(self) -> ConflictState:
        """A deep copy of the live state (for caches and comparisons)."""
        return copy_state(self.state)


#: Appended to a hidden id to make one that surely does not exist (and is taken out again).
_STAND_IN = "\u200b"


def _without_stand_in(text: str) -> str:
    """``text`` with the stand-in taken out (as typed, or as ``repr`` writes it)."""
    return text.replace(_STAND_IN, "").replace(repr(_STAND_IN)[1:-1], "")


def _swap_back(value: Any, hidden: dict[str, str]) -> Any:
    """An error's value with each stand-in for a hidden id back as the id typed."""
    if isinstance(value, str):
        return _without_stand_in(value)
    if isinstance(value, list | tuple):
        return [_swap_back(v, hidden) for v in value]
    return value


def _now() -> str:
    """The time now, to the second, in ISO 8601 (written once per second, not per record)."""
    global _last_second
    second = int(epoch_seconds())
    if second != _last_second[0]:
        _last_second = second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
    return _last_second[1]


_last_second: tuple[int, str] = (0, "")  # the last second asked for, and its text
