"""Decide for VERS: chases — pursuit, interposing and tracking on a scale (VR-CHASE-*)."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import Track
from fracas.engine.events import Event
from fracas.engine.model import Kind
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.checks import Mods
from fracas.rulesets.vers.decider import Decider
from fracas.rulesets.vers.state import (
    ranks,
    skill_tn,
)


def decide_chase(d: Decider) -> None:
    """VR-CHASE-1/2/8: a chase between a hunter and a quarry (or a race for a prize)."""
    a = d.cmd.args
    ext = d.ext
    if a["id"] in ext.chases:
        raise InvalidInput(f"there is already a chase {a['id']!r}", rule="VR-CHASE-1")
    hunter = d.active(a["hunter"], "VR-CHASE-1")
    quarry = d.active(a["quarry"], "VR-CHASE-1")
    if hunter.id == quarry.id:
        raise InvalidInput("a chase needs two different characters", rule="VR-CHASE-1")
    track = Track.for_pursuit(a["length"], "VR-CHASE-2")
    if a.get("start") is not None:
        track.check_position(a["start"], "VR-CHASE-2")
        track.set(a["start"])
    roller = a.get("roller")
    if roller is None:
        pcs = [p.id for p in (hunter, quarry) if p.kind == Kind.PC.value]
        if len(pcs) != 1:
            raise InvalidInput("both or neither are player characters: name who rolls "
                               f"(roller={hunter.id} or roller={quarry.id})", rule="VR-CHASE-8")
        roller = pcs[0]
    if roller not in (hunter.id, quarry.id):
        raise InvalidInput(f"the roller must be {hunter.id} or {quarry.id}", rule="VR-CHASE-8")
    stage = "interpose" if a.get("prize") else a["stage"]
    d.start_if_needed()
    d.emit(Event("chase_started", {"id": a["id"], "hunter": hunter.id, "quarry": quarry.id,
                                   "roller": roller, "stage": stage, "length": a["length"],
                                   "positions": track.length, "position": track.position,
                                   "prize": a.get("prize") or ""}))


def _chase(d: Decider, rule: str) -> Any:
    cid = d.cmd.args["id"]
    chase = d.ext.chases.get(cid)
    if chase is None:
        raise InvalidInput(f"no chase {cid!r} (chases: {', '.join(d.ext.chases) or 'none'})",
                           rule=rule)
    return chase


def decide_stage(d: Decider) -> None:
    """VR-CHASE-4/7: escaped → tracking; contact → pursuit, on a scale the GM picks."""
    chase = _chase(d, "VR-CHASE-7")
    verb = d.cmd.verb
    need, new = ("escaped", "tracking") if verb == "track" else ("contact", "pursuit")
    if chase.stage != need:
        raise IllegalCommand(
            f"chase {d.cmd.args['id']} is at stage {chase.stage}; {new} follows only "
            f"{'an escape at the top of the pursuit' if verb == 'track' else 'contact at 1'}",
            rule="VR-CHASE-7" if verb == "pursue" else "VR-CHASE-4")
    length = d.cmd.args.get("length") or chase.length
    track = Track.for_pursuit(length, "VR-CHASE-7")
    d.emit(Event("chase_stage", {"id": d.cmd.args["id"], "stage": new, "length": length,
                                 "positions": track.length, "position": track.position}))


def _chase_roller(d: Decider, chase: Any) -> str:
    actor = d.cmd.actor
    if actor is None or actor != chase.roller:
        raise IllegalCommand(f"{d.name(chase.roller)} makes the rolls of this chase, not "
                             f"{d.name(actor or 'gm')}", rule="VR-CHASE-8")
    d.active(chase.hunter, "VR-CHASE-1")
    d.active(chase.quarry, "VR-CHASE-1")
    return actor


def _tactics(d: Decider) -> Mods:
    mod = int(d.cmd.args.get("mod") or 0)
    return [["tactics", mod]] if mod else []


def decide_run(d: Decider) -> None:
    """VR-CHASE-3/5/7: a pursuit roll (Athletics) or an hour of tracking."""
    chase = _chase(d, "VR-CHASE-3")
    actor = _chase_roller(d, chase)
    if chase.stage not in ("pursuit", "tracking"):
        raise IllegalCommand(f"chase {d.cmd.args['id']} is at stage {chase.stage}; no more "
                             "chase rolls", rule="VR-CHASE-1")
    if chase.stage == "pursuit" and chase.track.position == 1:
        raise IllegalCommand("the chase is at position 1: the next roll is an interpose "
                             f"('{actor}: interpose {d.cmd.args['id']}')", rule="VR-CHASE-4")
    if d.cmd.args.get("skill") and (chase.stage != "tracking" or not chase.roller_is_hunter):
        raise InvalidInput(f"skill= picks the hunter's tracking skill; chase "
                           f"{d.cmd.args['id']} is at stage {chase.stage} and "
                           f"{d.name(actor)} rolls "
                           f"{'Athletics' if chase.stage == 'pursuit' else 'Stealth'}",
                           rule="VR-CHASE-7")
    spend = d.action(actor)
    me = d.sim.participants[actor]
    opp = d.sim.participants[chase.opponent]
    hunting = chase.roller_is_hunter
    if chase.stage == "pursuit":
        skill, opp_skill, opp_rank = "athletics", "athletics", ranks(opp, "athletics")
    elif hunting:
        skill = d.cmd.args.get("skill") or max(
            ("survival", "investigation"), key=lambda s: skill_tn(d.sim, me, s))
        opp_skill, opp_rank = "stealth", ranks(opp, "stealth")
    else:
        skill = "stealth"
        opp_skill = max(("survival", "investigation"), key=lambda s: ranks(opp, s))
        opp_rank = ranks(opp, opp_skill)
    mods = [*d.own_mods(actor), [f"{opp.name}'s {opp_skill.replace('_', ' ')}", -opp_rank],
            *_tactics(d)]
    c = d.roll(actor, skill, mods, d.cmd.args.get("dice"))
    step = (-1 if hunting else 1) * (1 if c["success"] else -1)
    before = chase.track.position
    after = min(max(1, before + step), chase.track.length)
    stage = chase.stage
    if chase.stage == "pursuit" and after == chase.track.length:
        stage = "escaped"
    elif chase.stage == "tracking" and after == chase.track.length:
        stage = "away"
    elif chase.stage == "tracking" and after == 1:
        stage = "contact"
    d.emit(Event("chase_roll", {"id": d.cmd.args["id"], "stage": chase.stage, "check": c,
                                "from": before, "to": after, "new_stage": stage,
                                "why": d.cmd.args.get("why") or "", "spend": spend,
                                "hours": 1 if chase.stage == "tracking" else 0},
                 actor=actor))


def decide_interpose(d: Decider) -> None:
    """VR-CHASE-6: capture, evade or seize the prize at position 1."""
    chase = _chase(d, "VR-CHASE-6")
    actor = _chase_roller(d, chase)
    if chase.stage == "pursuit" and chase.track.position != 1:
        raise IllegalCommand(f"the chase is at position {chase.track.position}; interposing "
                             "needs position 1", rule="VR-CHASE-4")
    if chase.stage not in ("pursuit", "interpose"):
        raise IllegalCommand(f"chase {d.cmd.args['id']} is at stage {chase.stage}; nothing "
                             "to interpose", rule="VR-CHASE-6")
    spend = d.action(actor)
    opp = d.sim.participants[chase.opponent]
    mods = [*d.own_mods(actor), [f"{opp.name}'s athletics", -ranks(opp, "athletics")],
            *_tactics(d)]
    c = d.roll(actor, "athletics", mods, d.cmd.args.get("dice"))
    before = chase.track.position
    after = before
    if chase.stage == "interpose":
        stage = "won" if c["success"] else "lost"
    elif chase.roller_is_hunter:
        stage = "captured" if c["success"] else "pursuit"
        after = before if c["success"] else 2
    else:
        stage = "pursuit" if c["success"] else "captured"
        after = 2 if c["success"] else before
    d.emit(Event("chase_interpose", {"id": d.cmd.args["id"], "check": c, "from": before,
                                     "to": after, "new_stage": stage,
                                     "why": d.cmd.args.get("why") or "", "spend": spend},
                 actor=actor))
