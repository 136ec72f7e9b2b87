"""Every VERS command's handler, by verb."""

from __future__ import annotations

from collections.abc import Callable

from fracas.rulesets.vers.actions import (
    decide_attack,
    decide_disengage,
    decide_endure,
    decide_handoff,
    decide_move,
    decide_open,
    decide_recover,
    decide_repair,
    decide_slip,
)
from fracas.rulesets.vers.chases import decide_chase, decide_interpose, decide_run, decide_stage
from fracas.rulesets.vers.decider import Decider
from fracas.rulesets.vers.gm import decide_gm

HANDLERS: dict[str, Callable[[Decider], None]] = {
    "open": decide_open, "handoff": decide_handoff, "endure": decide_endure,
    "move": decide_move, "slip": decide_slip, "disengage": decide_disengage,
    "attack": decide_attack, "recover": decide_recover, "repair": decide_repair,
    "zone": decide_gm, "link": decide_gm, "place": decide_gm, "guard": decide_gm,
    "unguard": decide_gm, "cover": decide_gm, "object": decide_gm, "restore": decide_gm,
    "harm": decide_gm, "chase": decide_chase, "track": decide_stage, "pursue": decide_stage,
    "run": decide_run, "interpose": decide_interpose,
}
