"""Event types of the Etherscope ruleset (the engine's boundary events come from
:mod:`fracas.engine.events`)."""

from __future__ import annotations

AWARENESS = "awareness_rolled"  # ES-START-1
AMBUSH = "ambush_resolved"  # ES-START-2, ES-START-4
RANGE_SET = "range_set"  # ES-START-3 (GM)
RANGE_CHANGED = "range_changed"  # ES-START-5, ES-RNG-4, ES-ACT-5
GROUP_FORMED = "group_formed"  # ES-START-6
GROUP_DISSOLVED = "group_dissolved"
GROUP_LEFT = "group_left"
HIDDEN = "hidden"  # ES-RNG-2
REVEALED = "revealed"  # ES-RNG-3
MOVE_ORDER = "awareness_order"  # ES-START-5
MOVER = "mover_started"
MOVER_DONE = "mover_done"
MOVES_DONE = "awareness_moves_done"
DECLARED = "initiative_declared"  # ES-ROUND-2
TIE = "tie_rolloff"  # ES-ROUND-5
COUNTDOWN = "countdown_started"  # ES-ROUND-4
ACTION = "action_resolved"  # ES-ACT-3..6
DAMAGE = "damage"  # ES-DMG-1
RECOVERED = "recovered"

ALL = (AWARENESS, AMBUSH, RANGE_SET, RANGE_CHANGED, GROUP_FORMED, GROUP_DISSOLVED, GROUP_LEFT,
       HIDDEN, REVEALED, MOVE_ORDER, MOVER, MOVER_DONE, MOVES_DONE, DECLARED, TIE, COUNTDOWN,
       ACTION, DAMAGE, RECOVERED)
