"""Everything the server sends about a conflict goes through this module.

It is the server's one door to the engine's live :class:`~fracas.engine.projector.Projector`:
a :class:`Live` is one viewer's projector on a loaded conflict (the hub keeps one per
conflict and viewer), advanced record by record — O(1) per appended record — with the JSON
form of every entry made once and the view's text made once per change, however many sockets
of that viewer follow it. A *position* is the server-side place of a viewer in their log (how
many of their entries were delivered, and the version the last one stands for); a viewer only
ever holds it as an opaque, sealed cursor (:func:`cursor_for` / :func:`position_of`).

A record wholly hidden from a player or the public makes no entry of theirs (the projector
skips it), so it never makes a frame; the global ``version`` is only in the GM's view; and an
error that would tell a hidden character from a missing one is answered as for a missing one.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fracas.app.sealed import seal, unseal
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Entry as ProjectedEntry
from fracas.engine.projector import Projector, state_view
from fracas.errors import FracasError, IllegalCommand, InvalidInput, NotFound

Entry = dict[str, Any]


def dump(data: Any) -> str:
    """The one JSON text of ``data`` the server sends (compact, UTF-8 kept)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a viewer is in their log (server side only): how many of their entries were
    delivered, and the version the last of them stands for (0: none)."""

    entries: int
    last: int

    def pack(self) -> bytes:
        """16 bytes for a cursor."""
        return self.entries.to_bytes(8, "big") + self.last.to_bytes(8, "big")

    @classmethod
    def unpack(cls, raw: bytes) -> Position:
        """The inverse of :meth:`pack`."""
        if len(raw) != 16:
            raise InvalidInput("not a valid cursor")
        return cls(int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:], "big"))


class Live:
    """One viewer's live projection of a loaded conflict: the engine's projector, the JSON
    form of each of its entries (made once) and its view (:attr:`serial` counts its
    changes)."""

    def __init__(self, conflict: Conflict, viewer: Viewer) -> None:
        """Project ``conflict``'s records so far for ``viewer``."""
        self.viewer = viewer
        self.serial = 0
        self.view: dict[str, Any] = {}
        self._start(conflict)

    def _start(self, conflict: Conflict) -> None:
        self.projector = Projector(conflict, self.viewer)
        self.data: list[Entry] = []
        self._take(self.projector.entries, self.projector.view())

    @property
    def conflict(self) -> Conflict:
        """The conflict it follows."""
        return self.projector.conflict

    def advance(self, conflict: Conflict) -> None:
        """Project the records appended since (to ``conflict``, the room's copy, which may
        be a freshly loaded one of the same log)."""
        if conflict is self.projector.conflict:
            if conflict.version == self.projector.position:
                return  # nothing new
        elif not self.projector.follows(conflict):
            self._start(conflict)  # another log (never in a running server): anew
            return
        update = self.projector.advance(conflict)
        self._take(update.entries, update.view)

    def _take(self, entries: Sequence[ProjectedEntry], view: dict[str, Any] | None) -> None:
        """Keep the JSON form of new entries and the view if it changed (None: it did not);
        the projector masked others' harm in both as their side's harm view allows
        (:mod:`fracas.engine.harm_view`)."""
        data = [e.to_data() for e in entries]
        self.data += data
        if view is not None:
            self.view = view
            self.serial += 1

    @property
    def position(self) -> Position:
        """The position at the end of the viewer's log."""
        entries = self.projector.entries
        return Position(len(entries), entries[-1].version if entries else 0)

    def snapshot(self) -> tuple[dict[str, Any], list[Entry], Position]:
        """The viewer's view, whole log and position."""
        return self.view, list(self.data), self.position

    def after(self, position: Position) -> tuple[list[Entry], bool]:
        """The viewer's entries past ``position``, or (True) their whole log again when the
        position is not one of this log (the cursor of another log, or ahead of it)."""
        entries = self.projector.entries
        n = position.entries
        if n > len(entries) or (entries[n - 1].version if n else 0) != position.last:
            return list(self.data), True
        return self.data[n:], False

    def entry_of(self, version: int) -> Entry | None:
        """The viewer's entry for record ``version`` (None: hidden from them)."""
        entry = self.projector.entry_for(version)
        return None if entry is None else self.data[entry.number - 1]


# --- the table's list ------------------------------------------------------------------
def standing(conflict: Conflict, viewer: Viewer) -> dict[str, Any]:
    """How a conflict stands for ``viewer``, read off their own view of it (as its socket
    would send it): its ``status``, how it ended in their words (``end_reason``,
    ``outcome``: None while it runs) and, for a player, ``your_turn``: whether a character of
    theirs acts now at its innermost level they see; for the GM, ``gm_turn``: whether one who
    acts now is the GM's (a character no player plays), so that the table waits on the GM.
    Nothing here is not in that view."""
    view = state_view(conflict.ruleset, conflict.state, viewer, odds=False)
    top = view["conflict"]
    out: dict[str, Any] = {"status": top["status"], "end_reason": top["end_reason"],
                           "outcome": top["outcome"]}
    if viewer.role == "player":
        levels = [top, *view["zoom"]]
        mine = {p["id"] for level in levels for p in level["participants"] if p.get("mine")}
        out["your_turn"] = bool(mine.intersection(acting_now(view["ruleset"], levels[-1])))
    elif viewer.role == "gm":
        level = [top, *view["zoom"]][-1]
        npcs = {p["id"] for p in level["participants"] if not p.get("player")}
        out["gm_turn"] = bool(npcs.intersection(acting_now(view["ruleset"], level)))
    return out


def acting_now(ruleset: str, level: dict[str, Any]) -> list[str]:
    """Who acts now at one level of a view, as the table's page reads it (views.js turnOf's
    ``current``): those still to declare, to roll awareness, the mover, the one acting, those
    whose side may act (before the first, those who may lead the initiative), the VERS go's
    character or those due a chase roll; nobody once it has ended."""
    if level["status"] == "ended":
        return []
    r = level.get("ruleset") or {}
    if ruleset == "etherscope":
        phase = r.get("phase")
        if phase in ("declare", "start"):
            return _ids(r.get("to_declare" if phase == "declare" else "to_roll"))
        return _ids([r.get("mover" if phase == "moves" else "acting")])
    if ruleset == "fabula-ultima":  # before the first round: those who may lead its check
        return _ids((r.get("tracker") or {}).get("may_act") or r.get("leaders"))
    if ruleset == "vers":
        return _ids([r["current"]] if r.get("current") else r.get("due"))
    return []


def _ids(items: Any) -> list[str]:
    """The character ids of a view's list: each item an id, or a pair whose first string is
    one (an Etherscope ``[id, score]``)."""
    out = []
    for item in items or []:
        found = next((x for x in item if isinstance(x, str)), None) \
            if isinstance(item, list) else item
        if isinstance(found, str):
            out.append(found)
    return out


# --- cursors --------------------------------------------------------------------------
def _context(conflict_id: str, viewer: Viewer) -> str:
    return f"fracas.cursor/1|{conflict_id}|{viewer.role}|{viewer.player or ''}"


def cursor_for(key: bytes, conflict_id: str, viewer: Viewer, position: Position) -> str:
    """The opaque cursor of a position (sealed: it reveals no version or count)."""
    return seal(key, position.pack(), _context(conflict_id, viewer))


def position_of(key: bytes, conflict_id: str, viewer: Viewer, cursor: str) -> Position:
    """The position a cursor stands for (InvalidInput for one not made for this viewer)."""
    return Position.unpack(unseal(key, cursor[:200], _context(conflict_id, viewer), "cursor"))


# --- what a viewer may name -------------------------------------------------------------
def known_ids(live: Live) -> list[str]:
    """Ids of the participants the viewer may know of, at every level shown to them."""
    data = live.view
    levels = [data["conflict"], *data["zoom"]]
    return list(dict.fromkeys(p["id"] for level in levels for p in level["participants"]))


def _hidden(live: Live) -> dict[str, str]:
    """Id → name of the participants the viewer may not know of."""
    if live.viewer.is_gm:
        return {}
    known = set(known_ids(live))
    return {p.id: p.name for s in live.conflict.state.chain() for p in s.participants.values()
            if p.id not in known}


def character(live: Live, pid: str) -> dict[str, Any]:
    """One participant as the viewer sees it (NotFound alike for hidden and missing)."""
    data = live.view
    for level in [data["conflict"], *data["zoom"]]:
        for p in level["participants"]:
            if p["id"] == pid:
                return dict(p)
    raise _missing(live, pid)


def _missing(live: Live, pid: str) -> NotFound:
    known = ", ".join(known_ids(live)) or "none"
    return NotFound(f"no participant {pid!r} in this conflict (known: {known})",
                    participant=pid)


def masked_refusal(live: Live, command: Command) -> FracasError | None:
    """What the engine would answer if the hidden participants ``command`` names did not
    exist (None: it would not refuse): a hidden character is refused like a missing one."""
    hidden = _hidden(live)
    fakes: dict[str, str] = {}

    def mask(value: Any) -> Any:
        if isinstance(value, str) and value.lower() in hidden:
            fake = "zz" + secrets.token_hex(6)
            fakes[fake] = value
            return fake
        return value

    names = {p.name for p in live.conflict.commands.spec(command.verb).params if p.names}
    actor = mask(command.actor)
    args = {k: ([mask(x) for x in v] if isinstance(v, list) else mask(v)) if k in names else v
            for k, v in command.args.items()}  # a dice expression or a text names no one
    if not fakes:
        return None
    try:
        live.conflict.decide(Command(command.verb, actor, args), live.viewer)
    except FracasError as exc:
        return _unmask(error_for(live, exc, command), fakes)
    return None


def _unmask(error: FracasError, fakes: dict[str, str]) -> FracasError:
    def back(value: Any) -> Any:
        if isinstance(value, str):
            for fake, real in fakes.items():
                value = value.replace(fake, real)
            return value
        if isinstance(value, list | tuple):
            return [back(v) for v in value]
        return value

    return type(error)(back(error.message), rule=error.rule,
                       **{k: back(v) for k, v in error.values.items()})


def _words(command: Command, *, lower: bool = True) -> list[str]:
    out = [command.actor] if command.actor else []
    for value in command.args.values():
        items = value if isinstance(value, list | tuple) else [value]
        out += [v.lower() if lower else v for v in items if isinstance(v, str)]
    return out


def error_for(live: Live, error: FracasError, command: Command | None = None) -> FracasError:
    """The error as the viewer may read it: a missing participant lists only those they may
    know, and an error that would name a hidden one says only that the rules refuse. What
    ``command`` (the viewer's) holds, echoed back quoted, names no one: a hidden name typed
    as a dice expression or a note is answered as any other word."""
    if isinstance(error, NotFound) and "participant" in error.values \
            and not live.viewer.is_gm:  # worded alike whether or not anyone is hidden
        return _missing(live, str(error.values["participant"]))
    hidden = _hidden(live)
    if not hidden:
        return error
    text = json.dumps(error.to_dict(), ensure_ascii=False)
    for word in _words(command, lower=False) if command is not None else []:
        said = json.dumps(word, ensure_ascii=False)[1:-1]
        text = text.replace(f"'{said}'", "''").replace(f'"{said}"', '""')
    if _mentions(text, hidden):
        return IllegalCommand("the rules do not allow this command now")
    return error


def _mentions(text: str, hidden: dict[str, str]) -> bool:
    words = [w for pair in hidden.items() for w in pair if w]
    return any(re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text, re.IGNORECASE)
               for w in words)


def pending_odds(live: Live) -> list[str]:
    """The exact odds of the pending roll(s) the viewer may know (the engine's lines)."""
    data = live.view
    return [line for level in [data["conflict"], *data["zoom"]] for line in level["odds"]]


def odds_answer(live: Live, command: Command) -> list[str]:
    """The answer of the odds route to ``command`` (the viewer's): the lines of
    :func:`command_odds`, for a command the rules take now — a missing name refused as a
    hidden one is, by the same words. A player with no line to read about its roll (none, or
    its numbers are GM-only: their own character's too) is answered so without the command
    being decided: whether the rules would take it would tell, at no cost, what a refusal of
    the command itself tells only by being given (a spend within a GM-only pool, table dice
    that fit a GM-only die, a declaration within a GM-only base)."""
    conflict, viewer = live.conflict, live.viewer
    lines = command_odds(live, command)
    if not lines and not viewer.is_gm:
        try:
            conflict.check_author(command, viewer)
        except FracasError as exc:
            raise error_for(live, exc, command) from None
        return []
    # only a command the rules take now: a missing name is refused as a hidden one is, by
    # the same words; what the viewer may not know of their own character is left out (a
    # spell's cost in GM-only MP), as the answer would tell it
    probe = conflict.ruleset.odds_probe(conflict.state.innermost, viewer, command)
    refusal = masked_refusal(live, probe)
    try:
        if refusal is None:
            conflict.check_author(command, viewer)
            conflict.decide(probe, viewer)
    except FracasError as exc:
        raise error_for(live, exc, command) from None
    if refusal is not None:
        raise refusal
    return lines


def command_odds(live: Live, command: Command) -> list[str]:
    """The odds lines about the roll ``command`` would make (the ruleset says which: none for
    a command whose roll they are not about; the pending-odds lines, or the command's own,
    narrower ones — one target of a line for several, a check made before the start), of
    those the viewer may know; where it names a target the viewer may know, those naming it."""
    conflict = live.conflict
    state = conflict.state.innermost
    shown = set(pending_odds(live))
    hidden = _hidden(live)
    # the ruleset's lines are worked out for the viewer as the view's are; the same belt
    # leaves out any that names someone hidden from them
    lines = [line for line in conflict.ruleset.command_odds(state, live.viewer, command)
             if line in shown or not _mentions(line, hidden)]
    known = known_ids(live)
    names = [state.participants[w].name for w in _words(command)
             if w in state.participants and w in known]
    if not names:
        return []
    actor, *targets = names
    about = [line for line in lines if actor in line]
    aimed = [line for line in about if any(t in line for t in targets)]
    return aimed or about
