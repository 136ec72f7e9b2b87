"""The Etherscope part of a conflict's state (``ConflictState.ext``): JSON-friendly fields."""

from __future__ import annotations

from dataclasses import dataclass, field

from fracas.engine.components import Countdown, RangeBands, ResourcePool

# Phases of a conflict
START = "start"  # awareness rolls, ambushes, starting ranges
MOVES = "moves"  # awareness moves in descending order (ES-START-5)
READY = "ready"  # between rounds: the GM starts the next one
DECLARE = "declare"  # acting initiatives are being declared (ES-ROUND-2, ES-ROUND-7)
COUNTDOWN = "countdown"  # actions resolve counting down (ES-ROUND-4)
#: Each phase in words, with the rule it follows, for the table (the view's ``phase_text``).
PHASE_TEXT = {
    START: "the start: awareness rolls, ambushes and starting ranges (ES-START-1–4)",
    MOVES: "awareness moves, most awareness successes first (ES-START-5)",
    READY: "between rounds: the GM starts the next one",
    DECLARE: "declaring acting initiatives (ES-ROUND-2)",
    COUNTDOWN: "the countdown: actions resolve from the highest acting initiative down "
               "(ES-ROUND-4)",
}
#: The ready phase before any round (of the conflict, or of a zoom) in words.
BEFORE_FIRST = "before round 1: the GM starts it (ES-ROUND-1)"


@dataclass(slots=True)
class EsExt:
    """Etherscope state: phase, awareness, ranges, groups, condensers and the countdown."""

    phase: str = START
    awareness: dict[str, int] = field(default_factory=dict)  # kept successes (ES-START-1)
    #: the pool each awareness roll was made with, and its skill: a tie's roll-offs roll it
    #: again (ES-ROUND-5), as secret as that roll was
    awareness_pools: dict[str, int] = field(default_factory=dict)
    awareness_skills: dict[str, str] = field(default_factory=dict)
    ambushed: dict[str, list[str]] = field(default_factory=dict)  # ambusher -> tried targets
    ranges: RangeBands = field(default_factory=RangeBands)
    groups: dict[str, list[str]] = field(default_factory=dict)
    condenser: dict[str, dict[str, ResourcePool]] = field(default_factory=dict)
    move_order: list[str] = field(default_factory=list)  # awareness move order
    mover: int = -1  # index in move_order of the character moving now
    stepped: list[str] = field(default_factory=list)  # whom the mover has stepped against
    base: dict[str, int] = field(default_factory=dict)  # this round's base initiative
    countdown: Countdown = field(default_factory=Countdown)
    defaulted: list[str] = field(default_factory=list)  # this round's default declarations
    acted: bool = False  # the current slot's action is resolved (only `done` is left)
    opened_by: str | None = None  # a zoomed-in conflict: who opened it (ES-ACT-1)
    zoom_reason: str = ""  # and why; shown only to those who may see the opener
