"""Etherscope ``evolve``: events → state. Never raises."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import Countdown, RangeBands, ResourcePool, Slot
from fracas.engine.events import (
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_STARTED,
    ZOOM_CLOSED,
    ZOOM_OPENED,
    Event,
)
from fracas.engine.model import ConflictState
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.state import EsExt

CONDENSERS = ("physical", "ether", "society")


def condensers_of(stats: dict[str, Any]) -> dict[str, ResourcePool]:
    """A character's three condensers from its stats (0 when missing)."""
    out = {}
    for c in CONDENSERS:
        value = stats.get(c, 0)
        n = int(value) if isinstance(value, int) else 0
        out[c] = ResourcePool(current=n, maximum=n)
    return out


def init_ext(state: ConflictState) -> EsExt:
    """The ext of a new conflict: ranges from the settings, groups, lurking ambushers."""
    s = state.settings
    ext = EsExt()
    ids = list(state.participants)
    ext.ranges = RangeBands()
    for pid in ids:
        ext.ranges.add(pid, s["ranges"]["default"])
        ext.condenser[pid] = condensers_of(state.participants[pid].stats)
    for a, b, band in s["ranges"]["pairs"]:
        ext.ranges.set(a, b, band)
    ext.groups = {g: list(m) for g, m in s["groups"].items()}
    for lurker, targets in s["lurking"].items():
        for t in targets:
            ext.ranges.hide(lurker, t)
    return ext


def evolve(state: ConflictState, event: Event) -> None:
    """Apply one event to the Etherscope part of ``state``."""
    ext: EsExt | None = state.ext
    if ext is None:
        return
    t, d = event.type, event.data
    if t == ev.AWARENESS:
        ext.awareness[d["participant"]] = int(d["successes"])
    elif t == ev.AMBUSH:
        tried = ext.ambushed.setdefault(d["ambusher"], [])
        for r in d["targets"]:
            tried.append(r["target"])
            if r["ambushed"]:
                ext.ranges.hide(d["ambusher"], r["target"])
            else:
                ext.ranges.reveal(d["ambusher"], r["target"])
    elif t in (ev.RANGE_SET, ev.RANGE_CHANGED):
        ext.ranges.set(d["a"], d["b"], int(d["band"]))
        if d.get("why") == "awareness move" and d["b"] not in ext.stepped:
            ext.stepped.append(d["b"])
    elif t == ev.GROUP_FORMED:
        ext.groups[d["group"]] = list(d["members"])
    elif t == ev.GROUP_DISSOLVED:
        ext.groups.pop(d["group"], None)
    elif t == ev.GROUP_LEFT:
        _leave_group(ext, d["group"], d["participant"])
    elif t == ev.HIDDEN:
        for x in d["from"]:
            ext.ranges.hide(d["participant"], x)
    elif t == ev.REVEALED:
        for x in d["from"]:
            ext.ranges.reveal(d["participant"], x, d.get("band"))
    elif t == ev.MOVE_ORDER:
        ext.phase = ph.MOVES
        ext.move_order = list(d["order"])
        ext.mover = -1
    elif t == ev.MOVER:
        # found by name: an index would tell a player how many hidden movers came before
        who = d["participant"]
        ext.mover = ext.move_order.index(who) if who in ext.move_order else int(
            d.get("index", ext.mover + 1))
        ext.stepped = []
    elif t == ev.MOVES_DONE:
        ext.phase = ph.READY
        ext.mover = len(ext.move_order)
        ext.stepped = []
    elif t == ROUND_STARTED:
        ext.phase = ph.DECLARE
        ext.base = {k: int(v) for k, v in d.get("base", {}).items()}
        ext.countdown.new_round()
        ext.acted = False
    elif t == ev.DECLARED:
        ext.countdown.declare(d["participant"], list(d["scores"]))
    elif t == ev.COUNTDOWN:
        ext.phase = ph.COUNTDOWN
        ext.countdown.start([Slot(a, s) for a, s in d["order"]])
        ext.countdown.position = -1
    elif t == TURN_STARTED:
        _turn_started(ext.countdown, d)
        ext.acted = False
    elif t == ROUND_ENDED:
        ext.phase = ph.READY
        ext.countdown.position = len(ext.countdown.queue)
    elif t == ev.ACTION:
        ext.acted = True
    elif t == ev.DAMAGE:
        pool = ext.condenser.get(d["participant"], {}).get(d["condenser"])
        if pool is not None:
            pool.damage(int(d["amount"]))
    elif t == ev.RECOVERED:
        pool = ext.condenser.get(d["participant"], {}).get(d["condenser"])
        if pool is not None:
            pool.heal(int(d["amount"]))
    elif t == ZOOM_OPENED:
        ext.acted = True
    elif t == PARTICIPANT_JOINED:
        _joined(state, ext, d)
    elif t in (PARTICIPANT_LEFT, PARTICIPANT_OUT):
        _gone(ext, d["participant"])
    elif t == ev.MOVER_DONE or t == ZOOM_CLOSED:
        pass


def _turn_started(cd: Countdown, d: dict[str, Any]) -> None:
    start = max(0, cd.position + 1) if cd.position >= 0 else 0
    for i in range(start, len(cd.queue)):
        if cd.queue[i].actor == d["participant"] and cd.queue[i].score == d.get("score"):
            cd.position = i
            return
    cd.position = min(int(d.get("slot", 0)), len(cd.queue))


def _leave_group(ext: EsExt, group: str, pid: str) -> None:
    members = ext.groups.get(group)
    if members is None:
        return
    if pid in members:
        members.remove(pid)
    if len(members) < 2:
        ext.groups.pop(group, None)


def _joined(state: ConflictState, ext: EsExt, d: dict[str, Any]) -> None:
    pid = d["id"]
    if pid not in ext.ranges.actors:
        ext.ranges.add(pid, state.settings["ranges"]["default"])
    ext.condenser[pid] = condensers_of(d.get("stats", {}))
    if ext.phase != ph.START:  # at the start it rolls awareness like everyone (ES-START-1)
        ext.awareness.setdefault(pid, 0)
    ext.countdown.add(pid)


def _gone(ext: EsExt, pid: str) -> None:
    ext.countdown.remove(pid)
    for g in [g for g, m in ext.groups.items() if pid in m]:
        _leave_group(ext, g, pid)
