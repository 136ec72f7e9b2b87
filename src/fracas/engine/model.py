"""The conflict state every ruleset shares: participants, sides, rounds, status and effects.

The state is a plain fold over the event log (DESIGN.md principle 1). Its fields are JSON
friendly so that snapshots can be written with :mod:`fracas.engine.serialize`. A ruleset keeps
its own part of the state in :attr:`ConflictState.ext`, a dataclass of its own.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Visibility(StrEnum):
    """Who may see a roll, note, narration or stat."""

    PUBLIC = "public"
    GM = "gm"
    OWNER = "owner"  # the owning player(s) and the GM

    @classmethod
    def parse(cls, text: str) -> Visibility:
        """Read a visibility from its text form (``public``, ``gm``, ``owner``)."""
        from fracas.errors import InvalidInput

        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidInput(
                f"unknown visibility {text!r}; use public, gm or owner", value=text
            ) from None


class Kind(StrEnum):
    """What a participant is."""

    PC = "pc"
    NPC = "npc"
    GROUP = "group"  # several GM-controlled characters acting as one


class Status(StrEnum):
    """Where a conflict is in its life."""

    SETUP = "setup"
    RUNNING = "running"
    ENDED = "ended"


@dataclass(slots=True)
class Participant:
    """A character (or GM-controlled group) taking part in a conflict."""

    id: str
    name: str
    kind: str = Kind.NPC.value
    side: str | None = None
    owner: str | None = None  # the player who controls it; None: the GM
    stats: dict[str, Any] = field(default_factory=dict)
    gm_only: list[str] = field(default_factory=list)  # stat keys players never see
    present: bool = True  # False once it has left the conflict
    out: str | None = None  # why it is out of the conflict (taken out, fled, …)
    data: dict[str, Any] = field(default_factory=dict)  # ruleset-specific per-participant data
    #: When it came into the conflict, counted in participants: how many there were once it
    #: joined mid-conflict; 0 for one set up with the conflict.
    entered: int = 0
    #: When the GM last overrode each stat (a value within it), counted alike. A stat
    #: written before a character came in never tells of that character's coming.
    written: dict[str, int] = field(default_factory=dict)

    def stat_written(self, key: str) -> int:
        """When stat ``key`` was last written (see :attr:`entered`, :attr:`written`)."""
        return self.written.get(key, self.entered)

    @property
    def active(self) -> bool:
        """Still taking part: present and not out."""
        return self.present and self.out is None

    def public_stats(self) -> dict[str, Any]:
        """The stats a player may see."""
        return {k: v for k, v in self.stats.items() if k not in self.gm_only}


@dataclass(slots=True)
class TimedEffect:
    """A reminder or effect that expires at a turn or round boundary.

    ``trigger`` is ``round_end``, ``turn_start`` or ``turn_end``; ``participant`` names whose
    turn it watches (turn triggers only); ``remaining`` counts matching boundaries still to come
    — the effect expires when it reaches 0.
    """

    id: str
    text: str
    trigger: str
    remaining: int = 1
    participant: str | None = None
    visibility: str = Visibility.PUBLIC.value
    owner: str | None = None  # participant the effect belongs to (for owner visibility)


@dataclass(slots=True)
class ConflictState:
    """Everything a conflict is at one version of its log."""

    ruleset: str = ""
    title: str = ""
    scene: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    status: str = Status.SETUP.value
    end_reason: str | None = None
    outcome: str | None = None
    participants: dict[str, Participant] = field(default_factory=dict)
    sides: list[str] = field(default_factory=list)
    round: int = 0
    round_limit: int | None = None
    effects: list[TimedEffect] = field(default_factory=list)
    depth: int = 0  # 0 for a top-level conflict, 1+ for a zoomed-in one
    zoom: ConflictState | None = None  # the nested conflict being played inside this one
    zoom_origin: str | None = None  # who opened this nested conflict, and why
    #: Participants the GM keeps hidden from every player but their own (the engine's
    #: ``conceal``/``reveal``, and ``join … hidden=yes``): to the others they do not exist.
    concealed: list[str] = field(default_factory=list)
    ext: Any = None  # the ruleset's own state

    def participant(self, pid: str) -> Participant:
        """The participant with id ``pid`` or a NotFound error (which lists no ids: an error
        is an output a player may read, and must not name anyone hidden from them)."""
        try:
            return self.participants[pid]
        except KeyError:
            raise not_found(pid) from None

    def active_ids(self) -> list[str]:
        """Ids of the participants still taking part, in set-up order."""
        return [p.id for p in self.participants.values() if p.active]

    def names(self) -> Mapping[str, str]:
        """Display name by participant id (for component error messages): a view, read only
        when a message is written."""
        return _Names(self.participants)

    def owned_by(self, player: str) -> list[str]:
        """Ids of the characters a player controls."""
        return [p.id for p in self.participants.values() if p.owner == player]

    @property
    def innermost(self) -> ConflictState:
        """The conflict being played now: this one, or a zoomed-in one inside it."""
        state = self
        while state.zoom is not None:
            state = state.zoom
        return state

    def chain(self) -> list[ConflictState]:
        """This conflict and every zoomed-in one inside it, outermost first."""
        out = [self]
        while out[-1].zoom is not None:
            zoom = out[-1].zoom
            assert zoom is not None
            out.append(zoom)
        return out


def not_found(pid: str) -> Exception:
    """The one refusal for a participant id that does not exist, or that the author may not
    know exists: the same text for both, so that no error tells them apart."""
    from fracas.errors import NotFound

    return NotFound(f"no participant {pid!r} in this conflict", participant=pid)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the GM, one player, or the public."""

    role: str  # "gm" | "player" | "public"
    player: str | None = None

    @classmethod
    def gm(cls) -> Viewer:
        """The game master, who sees everything (one value, shared: a viewer is frozen)."""
        return _GM

    @classmethod
    def of_player(cls, name: str) -> Viewer:
        """A player, who sees what their characters may see."""
        return cls("player", name)

    @classmethod
    def public(cls) -> Viewer:
        """An onlooker with no characters."""
        return cls("public")

    @property
    def is_gm(self) -> bool:
        """True for the game master."""
        return self.role == "gm"

    @property
    def name(self) -> str:
        """The name a record stores as its author: the player's name, or ``gm`` / ``public``."""
        return self.player if self.role == "player" and self.player else self.role

    @classmethod
    def named(cls, name: str) -> Viewer:
        """The viewer a stored author name (or ``--as NAME``) stands for."""
        if name in ("gm", "public"):
            return cls(name)
        return cls.of_player(name)


_GM = Viewer("gm")


class _Names(Mapping[str, str]):
    """The display names of a conflict's participants, read through (nothing is copied)."""

    __slots__ = ("_participants",)

    def __init__(self, participants: Mapping[str, Participant]) -> None:
        self._participants = participants

    def __getitem__(self, pid: str) -> str:
        return self._participants[pid].name

    def __iter__(self) -> Iterator[str]:
        return iter(self._participants)

    def __len__(self) -> int:
        return len(self._participants)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-native data (dicts, lists, tuples and scalars), several times
    faster than :func:`copy.deepcopy`; anything else is deep-copied the slow way."""
    kind = type(value)
    if kind is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if kind is list:
        return [copy_json(v) for v in value]
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(copy_json(v) for v in value)
    return copy.deepcopy(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def frozen_copy(state: ConflictState) -> bytes | ConflictState:
    """A private copy of ``state`` to keep (a checkpoint): its pickle, which the cyclic
    garbage collector never walks and which is made several times faster than a deep copy;
    a deep copy where a ruleset's state cannot be pickled. :func:`thawed` reads it back."""
    try:
        return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(state)


def thawed(kept: bytes | ConflictState) -> ConflictState:
    """A fresh working state from a :func:`frozen_copy` (each call a new one)."""
    if isinstance(kept, bytes):
        state: ConflictState = pickle.loads(kept)
        return state
    return copy.deepcopy(kept)


def copy_state(state: ConflictState) -> ConflictState:
    """A deep copy of ``state`` (through its pickle: a deep copy of a VERS state is about
    fifteen times slower)."""
    return thawed(frozen_copy(state))
