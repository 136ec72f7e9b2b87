"""Everything the server sends about a conflict goes through this module.

It is the server's one door to the engine's projection (:mod:`fracas.engine.views`), so that
it can move to the engine's live ``Projector`` in one place. A *position* is the server-side
place of a viewer in the log (the version their last delivered entry ends at); a viewer only
ever holds it as an opaque, sealed cursor (:func:`cursor_for` / :func:`position_of`).

For a player or the public it holds back what would give away hidden records: the global
``version`` is dropped from the view, a trailing "the GM acts" entry (records wholly hidden
from them) is withheld until something they may see follows it, so a hidden record never
makes a frame of its own, and an error that would tell a hidden character from a missing one
is answered as for a missing one.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fracas.app.sealed import seal, unseal
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict
from fracas.engine.events import GM_ACTS
from fracas.engine.model import Viewer
from fracas.engine.views import log_entries, view
from fracas.errors import FracasError, IllegalCommand, InvalidInput, NotFound
from fracas.server import harm

Entry = dict[str, Any]


#: The last projections made: one command's answer and its frames share them. A conflict
#: at one version is one state (records are only appended), so (conflict, version, viewer)
#: names a projection; callers never change what they get.
_MEMO_SIZE = 64
_memo: dict[tuple[int, int, Viewer, str], tuple[Conflict, Any]] = {}
_memo_lock = threading.Lock()


def _memoized(kind: str, conflict: Conflict, viewer: Viewer, make: Callable[[], Any]) -> Any:
    key = (id(conflict), conflict.version, viewer, kind)
    with _memo_lock:
        hit = _memo.get(key)
    if hit is not None and hit[0] is conflict:
        return hit[1]
    value = make()
    with _memo_lock:
        _memo[key] = (conflict, value)
        while len(_memo) > _MEMO_SIZE:
            del _memo[next(iter(_memo))]
    return value


def project_view(conflict: Conflict, viewer: Viewer) -> dict[str, Any]:
    """The state as ``viewer`` may see it (without the global version for a non-GM)."""
    def make() -> dict[str, Any]:
        out = view(conflict, viewer)
        if not viewer.is_gm:
            out.pop("version", None)
            out = harm.mask_view(conflict.ruleset.name, viewer, out)
        return out

    result: dict[str, Any] = _memoized("view", conflict, viewer, make)
    return result


def _released(conflict: Conflict, viewer: Viewer) -> list[tuple[int, Entry]]:
    """The viewer's log with the version each entry ends at; a trailing run of records
    wholly hidden from a non-GM viewer is held back."""
    def make() -> list[tuple[int, Entry]]:
        entries = log_entries(conflict, viewer)
        if not viewer.is_gm:
            while entries and _collapsed(entries[-1][1]):
                entries.pop()
            entries = harm.mask_log(conflict.ruleset.name, viewer, view(conflict, viewer),
                                    entries)
        return entries

    result: list[tuple[int, Entry]] = _memoized("log", conflict, viewer, make)
    return result


def _collapsed(entry: Entry) -> bool:
    events = entry.get("events") or []
    return len(events) == 1 and events[0].get("type") == GM_ACTS and not events[0].get("data")


@dataclass(frozen=True, slots=True)
class Position:
    """Where a viewer is in the log (server side only): the version their last delivered
    entry ends at, and a digest of the entries delivered up to it (an earlier entry can
    change when a hidden character is revealed: the log is then sent again whole)."""

    version: int
    digest: bytes

    def pack(self) -> bytes:
        """16 bytes for a cursor."""
        return self.version.to_bytes(8, "big") + self.digest

    @classmethod
    def unpack(cls, raw: bytes) -> Position:
        """The inverse of :meth:`pack`."""
        if len(raw) != 16:
            raise InvalidInput("not a valid cursor")
        return cls(int.from_bytes(raw[:8], "big"), raw[8:])


def _digest(entries: list[Entry]) -> bytes:
    text = json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


def _position(entries: list[tuple[int, Entry]], viewer: Viewer, conflict: Conflict
              ) -> Position:
    end = conflict.version if viewer.is_gm else (entries[-1][0] if entries else 0)
    return Position(end, _digest([e for _, e in entries]))


def snapshot(conflict: Conflict, viewer: Viewer
             ) -> tuple[dict[str, Any], list[Entry], Position]:
    """The viewer's view, whole log and position."""
    entries = _released(conflict, viewer)
    return project_view(conflict, viewer), [e for _, e in entries], _position(
        entries, viewer, conflict)


def entries_after(conflict: Conflict, viewer: Viewer, position: Position
                  ) -> tuple[list[Entry], dict[str, Any], Position, bool]:
    """The viewer's entries past ``position``, the view now, the new position, and whether
    the entries are instead the whole log again (an earlier entry changed)."""
    entries = _released(conflict, viewer)
    seen = [e for v, e in entries if v <= position.version]
    new = [e for v, e in entries if v > position.version]
    now = _position(entries, viewer, conflict)
    if _digest(seen) != position.digest:
        return [e for _, e in entries], project_view(conflict, viewer), now, True
    return new, project_view(conflict, viewer), now, False


def entry_of(conflict: Conflict, viewer: Viewer, version: int) -> Entry | None:
    """The viewer's entry that holds record ``version`` (None if it is not released)."""
    for end, entry in _released(conflict, viewer):
        if end >= version:
            return entry
    return None


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
def known_ids(conflict: Conflict, viewer: Viewer) -> list[str]:
    """Ids of the participants ``viewer`` may know of, at every level shown to them."""
    data = view(conflict, viewer)
    levels = [data["conflict"], *data["zoom"]]
    return list(dict.fromkeys(p["id"] for level in levels for p in level["participants"]))


def _hidden(conflict: Conflict, viewer: Viewer) -> dict[str, str]:
    """Id → name of the participants ``viewer`` may not know of."""
    if viewer.is_gm:
        return {}
    known = set(known_ids(conflict, viewer))
    return {p.id: p.name for s in conflict.state.chain() for p in s.participants.values()
            if p.id not in known}


def character(conflict: Conflict, viewer: Viewer, pid: str) -> dict[str, Any]:
    """One participant as ``viewer`` sees it (NotFound alike for hidden and missing)."""
    data = project_view(conflict, viewer)
    for level in [data["conflict"], *data["zoom"]]:
        for p in level["participants"]:
            if p["id"] == pid:
                return dict(p)
    raise _missing(conflict, viewer, pid)


def _missing(conflict: Conflict, viewer: Viewer, pid: str) -> NotFound:
    known = ", ".join(known_ids(conflict, viewer)) or "none"
    return NotFound(f"no participant {pid!r} in this conflict (known: {known})",
                    participant=pid)


def masked_refusal(conflict: Conflict, viewer: Viewer, command: Command
                   ) -> FracasError | None:
    """What the engine would answer if the hidden participants ``command`` names did not
    exist (None: it would not refuse): a hidden character is refused like a missing one."""
    hidden = _hidden(conflict, viewer)
    fakes: dict[str, str] = {}

    def mask(value: Any) -> Any:
        if isinstance(value, str) and value.lower() in hidden:
            fake = "zz" + secrets.token_hex(6)
            fakes[fake] = value
            return fake
        return value

    actor = mask(command.actor)
    args = {k: [mask(x) for x in v] if isinstance(v, list) else mask(v)
            for k, v in command.args.items()}
    if not fakes:
        return None
    try:
        conflict.decide(Command(command.verb, actor, args), viewer)
    except FracasError as exc:
        return _unmask(error_for(conflict, viewer, exc), fakes)
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


def _words(command: Command) -> list[str]:
    out = [command.actor] if command.actor else []
    for value in command.args.values():
        items = value if isinstance(value, list | tuple) else [value]
        out += [str(v).lower() for v in items if isinstance(v, str)]
    return out


def error_for(conflict: Conflict, viewer: Viewer, error: FracasError) -> FracasError:
    """The error as ``viewer`` may read it: a missing participant lists only those the viewer
    may know, and an error that would name a hidden one says only that the rules refuse."""
    hidden = _hidden(conflict, viewer)
    if not hidden:
        return error
    if isinstance(error, NotFound) and "participant" in error.values:
        return _missing(conflict, viewer, str(error.values["participant"]))
    if _mentions(json.dumps(error.to_dict(), ensure_ascii=False), hidden):
        return IllegalCommand("the rules do not allow this command now")
    return error


def _mentions(text: str, hidden: dict[str, str]) -> bool:
    words = [w for pair in hidden.items() for w in pair if w]
    return any(re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text, re.IGNORECASE)
               for w in words)


def legal(conflict: Conflict, viewer: Viewer, actor: str | None) -> dict[str, list[str]]:
    """What ``viewer`` may do now: for the GM (``actor`` None) or one character, or, for a
    player, for each of their own characters; nothing naming a hidden participant."""
    if viewer.is_gm:
        if actor is not None:
            character(conflict, viewer, actor)
        return {actor or "gm": conflict.legal_commands(actor)}
    mine = [p for p in known_ids(conflict, viewer)
            if conflict.state.innermost.participants.get(p) is not None
            and conflict.state.innermost.participants[p].owner == viewer.player]
    if actor is not None:
        character(conflict, viewer, actor)
        mine = [a for a in mine if a == actor]
    hidden = _hidden(conflict, viewer)
    return {a: [c for c in conflict.legal_commands(a) if not _mentions(c, hidden)]
            for a in mine}


def pending_odds(conflict: Conflict, viewer: Viewer) -> list[str]:
    """The exact odds of the pending roll(s) ``viewer`` may know (the engine's lines)."""
    data = project_view(conflict, viewer)
    return [line for level in [data["conflict"], *data["zoom"]] for line in level["odds"]]


def command_odds(conflict: Conflict, viewer: Viewer, command: Command) -> list[str]:
    """The pending-odds lines that concern ``command``: those naming its actor and, where it
    names a target the viewer may know, that target too."""
    lines = pending_odds(conflict, viewer)
    state = conflict.state.innermost
    names = [state.participants[w].name for w in _words(command)
             if w in state.participants and w in known_ids(conflict, viewer)]
    if not names:
        return []
    actor, *targets = names
    about = [line for line in lines if actor in line]
    aimed = [line for line in about if any(t in line for t in targets)]
    return aimed or about
