"""Decide for VERS: turns, moves, attacks, recovery and repair, one handler a command."""

from __future__ import annotations

from typing import Any

from fracas.engine.events import (
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.vers.checks import Mods
from fracas.rulesets.vers.decider import Decider
from fracas.rulesets.vers.state import (
    RECOVERY_PENALTY,
    REPAIR_PENALTY,
    ranks,
)


def decide_open(d: Decider) -> None:
    """VR-TURN-1/3: the GM records the table's choice of opener."""
    first = d.cmd.args["first"]
    ext = d.ext
    p = d.active(first, "VR-TURN-1")
    turns = ext.turns
    if turns.round_opened and turns.current is not None:
        raise IllegalCommand(
            f"{d.name(turns.current)} is acting now; the turn is under way (opened by "
            f"{d.name(turns.openers[-1])})", rule="VR-TURN-1")
    d.start_if_needed()
    actions = 1 if ext.disabled(first) else 2
    if turns.round_opened and first not in turns.gone:
        d.emit(Event(TURN_STARTED, {"participant": first, "actions": actions,
                                    "resumed": True}))
        return
    if turns.round_opened:
        if [m for m in turns.not_gone() if d.sim.participants[m].active]:
            raise IllegalCommand(f"{p.name} has already gone this turn; choose someone who "
                                 "has not", rule="VR-TURN-2", participant=first)
        d.emit(Event(ROUND_ENDED, {"round": d.sim.round}))
    turns = d.ext.turns
    turns.check_open(first, "VR-TURN-1", names=d.sim.names())
    d.emit(Event(ROUND_STARTED, {"round": d.sim.round + 1}))
    d.emit(Event(TURN_STARTED, {"participant": first, "actions": actions, "opens": True}))


def decide_handoff(d: Decider) -> None:
    """VR-TURN-2/3: hand off to someone who has not gone, or end the turn."""
    actor = d.cmd.actor
    turns = d.ext.turns
    if actor is None:
        decide_gm_handoff(d)
        return
    if turns.current != actor:
        now = f"it is {d.name(turns.current)}'s go" if turns.current else "nobody's go"
        raise NotYourTurn(f"{d.name(actor)} is not acting now; {now}", rule="VR-TURN-2")
    if actor in d.ext.pending_discipline:
        raise IllegalCommand(
            f"{d.name(actor)} is disabled and rolls Discipline to stay conscious before its go "
            f"ends ('{actor}: endure')", rule="VR-INJ-3", actor=actor)
    to = d.cmd.args.get("to")
    say = d.cmd.args.get("say")
    rest = [m for m in turns.not_gone() if m != actor and d.sim.participants[m].active]
    last_chooses = bool(d.sim.settings.get("last_chooses_opener", False))
    if to is None:
        if rest:
            raise IllegalCommand(
                f"{', '.join(d.name(r) for r in rest)} {'has' if len(rest) == 1 else 'have'} "
                "not gone yet; hand off to one of them", rule="VR-TURN-2", waiting=rest)
        d.emit(Event(TURN_ENDED, {"participant": actor}))
        d.emit(Event(ROUND_ENDED, {"round": d.sim.round}))
        return
    target = d.active(to, "VR-TURN-2")
    data: dict[str, Any] = {"participant": to, "from": actor,
                            "actions": 1 if d.ext.disabled(to) else 2}
    if say:
        data["say"] = say
    if not rest and last_chooses and to in turns.members:
        d.emit(Event(TURN_ENDED, {"participant": actor}))
        d.emit(Event(ROUND_ENDED, {"round": d.sim.round}))
        d.emit(Event(ROUND_STARTED, {"round": d.sim.round + 1}))
        d.emit(Event(TURN_STARTED, {**data, "opens": True}))
        return
    turns.check_hand_off(target.id, "VR-TURN-2", names=d.sim.names())
    d.emit(Event(TURN_ENDED, {"participant": actor}))
    d.emit(Event(TURN_STARTED, data))


def decide_gm_handoff(d: Decider) -> None:
    """VR-TURN-2: the GM hands off for a character taken out (or gone) during its go."""
    turns = d.ext.turns
    to = d.cmd.args.get("to")
    if turns.current is not None:
        raise IllegalCommand(
            f"{d.name(turns.current)} is acting now and hands off itself "
            f"('{turns.current}: handoff WHO'); the GM hands off only when the one acting "
            "was taken out or left", rule="VR-TURN-2")
    if not turns.round_opened:
        raise IllegalCommand("no turn is under way; the table picks who opens it ('open WHO')",
                             rule="VR-TURN-1")
    if to is None:
        waiting = [m for m in turns.not_gone() if d.sim.participants[m].active]
        raise InvalidInput("name who goes next: " + ", ".join(
            f"'handoff {m}'" for m in waiting), rule="VR-TURN-2")
    target = d.active(to, "VR-TURN-2")
    turns.check_hand_off(target.id, "VR-TURN-2", names=d.sim.names())
    data: dict[str, Any] = {"participant": to, "by_gm": True,
                            "actions": 1 if d.ext.disabled(to) else 2}
    if d.cmd.args.get("say"):
        data["say"] = d.cmd.args["say"]
    d.emit(Event(TURN_STARTED, data))


def decide_endure(d: Decider) -> None:
    """VR-INJ-3: the Discipline roll to stay conscious."""
    actor = d.cmd.actor
    assert actor is not None
    if actor not in d.ext.pending_discipline:
        raise IllegalCommand(f"{d.name(actor)} has no Discipline roll to make (only a disabled "
                             "character rolls to stay conscious)", rule="VR-INJ-3")
    c = d.roll(actor, "discipline", d.own_mods(actor), d.cmd.args.get("dice"))
    d.emit(Event("endured", {"who": actor, **c}, actor=actor))
    if not c["success"]:
        d.take_out(actor, "unconscious")


def _check_not_engaged(d: Decider, actor: str) -> None:
    """An engaged character must disengage before it moves away (VR-MOVE-4)."""
    foes = d.ext.engaged_with(actor)
    if foes:
        raise IllegalCommand(
            f"{d.name(actor)} is engaged with {', '.join(d.name(f) for f in foes)}; "
            f"disengage first ('{actor}: disengage')", rule="VR-MOVE-4", engaged=foes)


def _begin_move(d: Decider, steps: int, rule: str) -> tuple[str, str, int]:
    """Spend the action and check a move to ``to`` of at most ``steps`` zones (``rule``) by
    a character not engaged (VR-MOVE-4); return the mover, its zone and the actions spent."""
    actor = d.cmd.actor
    assert actor is not None
    zones = d.ext.zones
    spend = d.action(actor)
    _check_not_engaged(d, actor)
    zones.check_move(actor, d.cmd.args["to"], steps, rule, names=d.sim.names())
    here = zones.zone_of(actor)
    assert here is not None
    return actor, here, spend


def decide_move(d: Decider) -> None:
    """VR-MOVE-1/2/4/5: one zone, or two with an Athletics roll."""
    a = d.cmd.args
    actor, here, spend = _begin_move(d, 2, "VR-MOVE-1")
    path = d.ext.zones.path(here, a["to"]) or []
    guards = _hostile_guards(d, actor, path)
    if guards:
        raise IllegalCommand(
            f"{', '.join(d.name(g) for g in guards)} guard{'s' if len(guards) == 1 else ''} "
            f"the way; getting past needs an Athletics roll ('{actor}: slip {path[1]}')",
            rule="VR-MOVE-5", guards=guards)
    steps = len(path) - 1
    if steps == 1:
        d.emit(Event("moved", {"who": actor, "from": here, "to": a["to"], "path": path,
                               "spend": spend}, actor=actor))
        return
    if a.get("onfail") == "both" and d.ext.turns.round_opened and d.ext.turns.actions_left < 2:
        raise InvalidInput(f"{d.name(actor)} has one action left: a failed dash cannot take "
                           "both actions (use onfail=short)", rule="VR-MOVE-2")
    c = d.roll(actor, "athletics", d.own_mods(actor), a.get("dice"))
    if c["success"]:
        dest, used, result = a["to"], spend, "made it"
    elif a.get("onfail") == "both":
        dest, used, result = a["to"], spend * 2, "both actions"
    else:
        dest, used, result = path[1], spend, "fell short"
    d.emit(Event("moved", {"who": actor, "from": here, "to": dest, "goal": a["to"],
                           "path": path, "check": c, "result": result, "spend": used},
                 actor=actor))


def _hostile_guards(d: Decider, mover: str, path: list[str]) -> list[str]:
    side = d.sim.participants[mover].side
    out = []
    for g in d.ext.zones.guards_on_path(path):
        p = d.sim.participants.get(g)
        if p is None or not p.active or g == mover:
            continue
        if side is not None and p.side == side:
            continue
        out.append(g)
    return out


def decide_slip(d: Decider) -> None:
    """VR-MOVE-5: Athletics past the guards of a way, penalty their Close Combat ranks."""
    a = d.cmd.args
    actor, here, spend = _begin_move(d, 1, "VR-MOVE-5")
    guards = _hostile_guards(d, actor, [here, a["to"]])
    if not guards:
        raise InvalidInput(f"nobody guards the way from {here} to {a['to']}; just move",
                           rule="VR-MOVE-5")
    best = max(guards, key=lambda g: ranks(d.sim.participants[g], "close_combat"))
    pen = ranks(d.sim.participants[best], "close_combat") + 2 * (len(guards) - 1)
    mods = [*d.own_mods(actor), [f"guarded by {', '.join(d.name(g) for g in guards)}", -pen]]
    c = d.roll(actor, "athletics", mods, a.get("dice"))
    d.emit(Event("slipped", {"who": actor, "from": here, "to": a["to"], "guards": guards,
                             "check": c, "spend": spend}, actor=actor))
    if not c["success"]:
        d.free_attacks([best], actor, a.get("free"), extra_ev=2 * (len(guards) - 1))


def decide_disengage(d: Decider) -> None:
    """VR-MOVE-4: Athletics, −2 per engaged opponent beyond the first; free attacks on failure."""
    actor = d.cmd.actor
    assert actor is not None
    spend = d.action(actor)
    foes = [f for f in d.ext.engaged_with(actor) if d.sim.participants[f].active]
    if not foes:
        raise IllegalCommand(f"{d.name(actor)} is not engaged with anyone", rule="VR-MOVE-4")
    mods = [*d.own_mods(actor)]
    if len(foes) > 1:
        mods.append([f"{len(foes) - 1} more opponent(s)", -2 * (len(foes) - 1)])
    c = d.roll(actor, "athletics", mods, d.cmd.args.get("dice"))
    d.emit(Event("disengaged", {"who": actor, "from": foes, "check": c, "spend": spend},
                 actor=actor))
    if not c["success"]:
        d.free_attacks(foes, actor, d.cmd.args.get("free"))


def decide_attack(d: Decider) -> None:
    """VR-ROLL-2, VR-ATK-*: an attack with its breakdown, harm and cover hits."""
    actor = d.cmd.actor
    assert actor is not None
    a = d.cmd.args
    if a["target"] not in d.sim.participants and a["target"] not in d.ext.objects:
        raise InvalidInput(f"no character or object {a['target']!r} to attack")
    spend = d.action(actor)
    plan = d.attack_plan(actor, a["target"], a.get("weapon"), track=a.get("track"),
                         skill=a.get("skill"), ev=a.get("ev"))
    d.resolve_attack(plan, a.get("dice"), spend)


def decide_recover(d: Decider) -> None:
    """VR-INJ-4: a recovery action with the penalty of the highest condition held."""
    actor = d.cmd.actor
    assert actor is not None
    a = d.cmd.args
    who = a.get("who") or actor
    patient = d.active(who, "VR-INJ-4")
    track = a["track"]
    ladder = d.ext.harm[patient.id][track]
    ladder.check_remove("VR-INJ-4", owner=who, names=d.sim.names())
    spend = d.action(actor)
    highest = ladder.highest()
    assert highest is not None
    mods: Mods = [] if who == actor else list(d.own_mods(actor))
    mods.append([f"{patient.name} {ladder.levels[highest].name}", RECOVERY_PENALTY[highest]])
    c = d.roll(actor, a["skill"], mods, a.get("dice"))
    d.emit(Event("recovered", {"who": who, "by": actor, "track": track,
                               "level": ladder.levels[highest].name if c["success"] else None,
                               "check": c, "spend": spend}, actor=actor))


def decide_repair(d: Decider) -> None:
    """VR-OBJ-5: repair the highest condition of an object (never a broken one by action)."""
    actor = d.cmd.actor
    assert actor is not None
    a = d.cmd.args
    obj = d.ext.objects.get(a["id"])
    if obj is None:
        raise InvalidInput(f"no object {a['id']!r} (objects: {', '.join(d.ext.objects)})")
    highest = obj.ladder.highest()
    if highest is None:
        raise IllegalCommand(f"{obj.name} has no condition to repair", rule="VR-OBJ-5",
                             object=a["id"])
    if obj.broken:
        raise IllegalCommand(f"{obj.name} is broken; no repair action mends it (the GM may "
                             f"restore it: 'restore {a['id']}')", rule="VR-OBJ-5")
    spend = d.action(actor)
    mods = [*d.own_mods(actor), [f"{obj.name} {obj.ladder.levels[highest].name}",
                                 REPAIR_PENALTY[highest]]]
    c = d.roll(actor, a["skill"], mods, a.get("dice"))
    d.emit(Event("repaired", {"object": a["id"], "by": actor, "check": c, "spend": spend,
                              "level": obj.ladder.levels[highest].name if c["success"]
                              else None}, actor=actor))
