"""GM overrides of live values: what ``override PATH VALUE`` may correct, and how.

Most values the GM corrects (current HP, conditions, positions, ranges, whose go it is) live
in a ruleset's own state, not in the set-up stats. A ruleset names them by the paths the GM
sees in ``fracas show --json`` (``olaf.hp.current``, ``kara.zone``, ``turn.current``) through
:meth:`~fracas.engine.ruleset.Ruleset.override_target`, which returns an
:class:`OverrideTarget`: the value now, a check of the new one, and how to set it. The override
stays one ``override`` event, so it replays and undoes like any other; ``evolve`` asks the
ruleset for the same target and sets it.

Invariant: a ruleset's targets never take a path that also names a field of the engine's own
state (a :class:`~fracas.engine.model.Participant` field such as ``stats``), so an old log's
override means what it meant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fracas.engine.limits import check_number, spelled
from fracas.engine.model import ConflictState
from fracas.errors import IllegalCommand, InvalidInput


@dataclass(frozen=True, slots=True)
class OverrideTarget:
    """A live value the GM may correct."""

    path: str  # as the GM writes it, e.g. "olaf.hp.current"
    current: Any
    check: Callable[[Any], Any]  # the new value, normalised; or raises InvalidInput
    apply: Callable[[Any], None]  # sets it (in evolve: never raises)


def normalise(state: ConflictState, path: Sequence[str]) -> list[str]:
    """``ada.hp.current`` → ``participants.ada.hp.current`` (``ada.player``: its ``owner``);
    other paths as they are."""
    parts = list(path)
    if parts and parts[0] in state.participants:
        parts = ["participants", *parts]
    if len(parts) == 3 and parts[0] == "participants" and parts[2] == "player":
        parts[2] = "owner"  # as a scenario names it: the player who plays the character
    return parts


def refuse_left(state: ConflictState, pid: str, path: str) -> None:
    """Refuse an override of a character who has left the conflict (``leave``): nothing of
    theirs plays any more, so a correction of it is a slip for someone still here. A
    character who is ``out`` (taken out) is still in the scene and may be corrected."""
    p = state.participants.get(pid)
    if p is not None and not p.present:
        raise IllegalCommand(f"override: {path}: {p.name} has left the conflict, so nothing "
                             "of theirs is corrected any more (undo the leave to bring them "
                             "back)", participant=pid, path=path)


def whole(path: str, low: int, high: int) -> Callable[[Any], int]:
    """A check for a whole number from ``low`` to ``high``."""
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise InvalidInput(f"override: {path} takes a whole number, not {spelled(value)}",
                               path=path)
        check_number(value, f"override: {path}")
        if not low <= int(value) <= high:
            raise InvalidInput(f"override: {path} goes from {low} to {high}, not {value}",
                               path=path)
        return int(value)
    return check


def one_of(path: str, choices: Sequence[str], what: str) -> Callable[[Any], str]:
    """A check for one of ``choices`` (``what`` names them in the error)."""
    def check(value: Any) -> str:
        text = str(value).strip().lower() if isinstance(value, str | int) else None
        if text is None or text not in choices:
            raise InvalidInput(f"override: {path} takes {what} ({', '.join(choices)}), "
                               f"not {spelled(value)}", path=path)
        return text
    return check


def names_of(path: str, choices: Sequence[str], what: str) -> Callable[[Any], list[str]]:
    """A check for a list of distinct ``choices`` (also given as one comma-separated text):
    a name that is none of them, or one given twice, is refused (never dropped)."""
    def check(value: Any) -> list[str]:
        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, list):
            raise InvalidInput(f"override: {path} takes a list of {what}", path=path)
        out: list[str] = []
        for v in items:
            if isinstance(v, str) and not v.strip():
                continue
            text = str(v).strip().lower() if isinstance(v, str | int) else None
            if text is None or text not in choices:
                shown = spelled(text if isinstance(v, str) else v)
                raise InvalidInput(f"override: {path} takes a list of {what} ("
                                   f"{', '.join(choices)}); {shown} is none of them", path=path)
            if text in out:
                raise InvalidInput(f"override: {path} names {text} twice; name each of the "
                                   f"{what} once", path=path)
            out.append(text)
        return out
    return check
