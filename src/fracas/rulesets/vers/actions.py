"""Decide for VERS: each command validated against the state and turned into events.

Multi-step commands (an attack and the condition it inflicts, free attacks one after another)
are worked out on a deep copy of the state (``sim``) so that ``decide`` stays pure.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.components import Track
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    CONFLICT_STARTED,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from fracas.engine.generic import evolve_generic
from fracas.engine.model import ConflictState, Kind, Participant, Status
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.vers.checks import Mods, check, total_mod
from fracas.rulesets.vers.state import (
    HARDNESS,
    KIND_TRACK,
    RECOVERY_PENALTY,
    REPAIR_PENALTY,
    TRACKS,
    VersExt,
    dodge,
    ranks,
    reach,
    skill_tn,
    track_armor,
    track_defence,
    weapons_of,
)

Apply = Callable[[ConflictState, Event], None]
COMBAT_VERBS = frozenset({"attack", "move", "slip", "disengage"})


class Decider:
    """Decides one command. ``apply`` is the ruleset's evolve (used on the simulated copy)."""

    def __init__(self, state: ConflictState, cmd: Command, ctx: DecideContext,
                 apply: Apply) -> None:
        self.state = state
        self.cmd = cmd
        self.ctx = ctx
        self.apply = apply
        self.sim = copy.deepcopy(state)
        self.events: list[Event] = []

    # --- plumbing --------------------------------------------------------------------
    @property
    def ext(self) -> VersExt:
        """The simulated ruleset state (equal to the real one until events are emitted)."""
        ext: VersExt = self.sim.ext
        return ext

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the simulated state."""
        self.events.append(event)
        evolve_generic_safe(self.sim, event)
        self.apply(self.sim, event)

    def name(self, pid: str) -> str:
        """A participant's or object's display name."""
        if pid in self.sim.participants:
            return self.sim.participants[pid].name
        if pid in self.ext.objects:
            return self.ext.objects[pid].name
        return pid

    def names(self) -> dict[str, str]:
        """Display names of everyone, for component messages."""
        return {p.id: p.name for p in self.sim.participants.values()}

    def active(self, pid: str, rule: str | None = None) -> Participant:
        """The participant ``pid``, refusing one no longer in the conflict."""
        p = self.sim.participant(pid)
        if not p.active:
            raise IllegalCommand(f"{p.name} is no longer in the conflict ({p.out or 'left'})",
                                 rule=rule, participant=pid)
        return p

    def start_if_needed(self) -> None:
        """The conflict begins with its first turn or chase."""
        if self.sim.status == Status.SETUP.value:
            self.emit(Event(CONFLICT_STARTED))

    def action(self, actor: str, n: int = 1) -> int:
        """Check that ``actor`` may take ``n`` actions now; return the actions to spend.

        Combat actions need the actor's go; other actions outside a turn (a chase on its own,
        downtime repairs) spend nothing.
        """
        ext = self.ext
        if actor in ext.pending_discipline:
            raise IllegalCommand(
                f"{self.name(actor)} is disabled and must first roll Discipline to stay "
                f"conscious ('{actor}: endure')", rule="VR-INJ-3", actor=actor)
        if not ext.turns.round_opened and self.cmd.verb not in COMBAT_VERBS:
            return 0
        if not ext.turns.round_opened:
            raise NotYourTurn(
                f"Nobody is acting: the GM opens the turn first ('open {actor}')",
                rule="VR-TURN-1", actor=actor)
        ext.turns.check_action(actor, "VR-TURN-2", "VR-TURN-4", n, names=self.names())
        return n

    def own_mods(self, pid: str) -> Mods:
        """The condition penalties ``pid`` carries to every roll (VR-INJ-3, VR-INJ-5)."""
        mods: Mods = []
        for ladder in self.ext.ladders(pid).values():
            for index, level in enumerate(ladder.levels):
                held = ladder.count(index)
                if held and level.penalty:
                    times = held if level.penalty_each else 1
                    label = level.name + (f" ×{held}" if times > 1 else "")
                    mods.append([label, level.penalty * times])
        return mods

    def roll(self, pid: str, skill: str, mods: Mods, dice: Sequence[int] | None,
             tn: int | None = None) -> dict[str, Any]:
        """A check by ``pid`` in ``skill`` with ``mods`` (its own penalties not included)."""
        p = self.sim.participants[pid]
        return check(self.ctx, skill, skill_tn(self.sim, p, skill) if tn is None else tn,
                     mods, dice)

    # --- harm ------------------------------------------------------------------------
    def inflict(self, pid: str, net: int, track: str, why: str) -> None:
        """Mark a condition for ``net`` EV on ``pid``'s ``track``; out when nowhere to go."""
        if net < 0 or pid not in self.ext.harm:
            return
        ladder = copy.deepcopy(self.ext.harm[pid][track])
        result = ladder.take(net, why)
        data: dict[str, Any] = {
            "who": pid, "track": track, "ev": net, "why": why,
            "landed": ladder.levels[result.landed].name if result.landed is not None else None,
            "level": ladder.levels[result.level].name if result.level is not None else None,
            "index": result.level, "upgraded": result.upgraded, "taken_out": result.taken_out,
        }
        self.emit(Event("condition", data))
        if result.taken_out:
            self.take_out(pid, f"{track} track full")

    def take_out(self, pid: str, reason: str) -> None:
        """``pid`` is out of the conflict; a go of its own under way ends (VR-TURN-2/3)."""
        closing = boundary_after_leave(self.sim, pid)
        self.emit(Event(PARTICIPANT_OUT, {"participant": pid, "reason": reason}))
        for event in closing:
            self.emit(event)

    def damage_object(self, oid: str, ev: int, why: str) -> None:
        """An object takes ``ev`` against its hardness (VR-OBJ-2/3)."""
        obj = self.ext.objects[oid]
        net = ev - obj.hardness
        data: dict[str, Any] = {"object": oid, "ev": ev, "hardness": obj.hardness, "net": net,
                                "why": why, "level": None, "upgraded": False, "broken": obj.broken}
        if net >= 0 and not obj.broken:
            ladder = copy.deepcopy(obj.ladder)
            result = ladder.take(net, why)
            data.update(level=ladder.levels[result.level].name if result.level is not None
                        else None, upgraded=result.upgraded,
                        broken=result.taken_out or ladder.count(3) > 0)
            if data["broken"]:  # broken cover shelters nobody any more (VR-ATK-5, VR-OBJ-4)
                data["uncovered"] = [p for p, o in self.ext.cover_object.items() if o == oid]
        self.emit(Event("object_damaged", data))

    # --- attacks ---------------------------------------------------------------------
    def attack_plan(self, attacker: str, target: str, weapon: str | None,
                    free: bool = False, track: str | None = None, skill: str | None = None,
                    ev: int | None = None) -> dict[str, Any]:
        """Skill, TN and every modifier of an attack, before the roll (VR-ATK-*).

        A ``free`` attack (a guard's, or an engaged opponent's) is in reach by definition.
        ``track`` focus or morale (or a mental/social weapon) makes a mental or social attack
        (VR-INJ-5 default).
        """
        ext = self.ext
        a = self.sim.participants[attacker]
        weapons = weapons_of(a)
        if track in KIND_TRACK.values() or (weapon in weapons
                                             and weapons[weapon].get("kind") in KIND_TRACK):
            return self.harm_plan(attacker, target, weapon, track, skill, ev)
        if skill is not None or ev is not None:
            raise InvalidInput("skill= and ev= go with a mental or social attack "
                               "(track=focus or track=morale); a physical attack uses its "
                               "weapon's skill and EV", rule="VR-INJ-5")
        wname = weapon or next(w for w, spec in weapons.items()
                               if spec.get("kind", "close") not in KIND_TRACK)
        if wname not in weapons:
            raise InvalidInput(f"{a.name} has no weapon {wname!r} (weapons: "
                               f"{', '.join(weapons)})", weapon=wname)
        w = weapons[wname]
        kind = str(w.get("kind", "close"))
        ev = int(w.get("ev", 0))
        skill = {"close": "close_combat", "ranged": "ranged_combat",
                 "thrown": "athletics"}.get(kind, "close_combat")
        mods: Mods = list(self.own_mods(attacker))
        oid = w.get("object")
        if oid and oid in ext.objects:
            obj = ext.objects[oid]
            if obj.broken:
                raise IllegalCommand(f"{a.name}'s {wname} is broken and no longer works",
                                     rule="VR-OBJ-4", weapon=wname)
            if obj.ladder.total_penalty():
                mods.append([f"{wname} {obj.ladder.highest_name()}",
                             obj.ladder.total_penalty()])
        plan: dict[str, Any] = {"attacker": attacker, "target": target, "weapon": wname,
                                "kind": kind, "skill": skill, "ev": ev, "object": None,
                                "distance": None, "min_dos": 0}
        if target in ext.objects and target not in self.sim.participants:
            obj = ext.objects[target]
            if obj.penalty:
                mods.append(["small or moving", obj.penalty])
            plan.update(object=target, mods=mods,
                        tn=skill_tn(self.sim, a, skill))
            return plan
        t = self.active(target)
        if t.id == attacker:
            raise InvalidInput(f"{a.name} cannot attack itself")
        za, zt = ext.zones.zone_of(attacker), ext.zones.zone_of(target)
        dist = ext.zones.distance(za, zt) if za and zt else None
        if za and zt and dist is None:
            raise IllegalCommand(f"{t.name} in {zt} cannot be reached from {za}",
                                 rule="VR-MOVE-1")
        plan["distance"] = dist
        if kind == "close":
            if dist not in (None, 0) and not free:
                raise IllegalCommand(
                    f"{t.name} is {dist} zone(s) away; a close attack needs the same zone",
                    rule="VR-MOVE-3", distance=dist)
            defence = max(dodge(t), ranks(t, "close_combat"))
            label = "dodge" if dodge(t) >= ranks(t, "close_combat") else "close combat"
            mods.append([f"{t.name}'s {label}", -defence])
            diff = reach(a) - reach(t)
            if diff:
                mods.append(["reach", diff])
        else:
            mods.append([f"{t.name}'s dodge", -dodge(t)])
            if dist == 0:
                mods.append(["same zone", -2])
            elif dist is not None and dist > 1:
                mods.append([f"{dist} zones away", -2 * (dist - 1)])
            # those in close combat with the target, the attacker itself not counted
            k = len([o for o in ext.engaged_with(target)
                     if o != attacker and self.sim.participants[o].active])
            if k:
                mods.append(["target engaged" + (f" with {k}" if k > 1 else ""), -2 * k])
            if kind == "thrown" and dist is not None and dist > 1:
                plan["min_dos"] = 3 * (dist - 1)
        cover = ext.cover.get(target, 0)
        if cover:
            mods.append(["cover", cover])
        plan.update(mods=mods, tn=skill_tn(self.sim, a, skill), cover=cover,
                    cover_object=ext.cover_object.get(target))
        return plan

    def harm_plan(self, attacker: str, target: str, weapon: str | None, track: str | None,
                  skill: str | None, ev: int | None) -> dict[str, Any]:
        """A mental (Focus) or social (Morale) attack: the attacker's skill penalized by the
        target's resolve or poise; net EV = EV − the track's RV (VR-INJ-5 default)."""
        a = self.sim.participants[attacker]
        weapons = weapons_of(a)
        w: dict[str, Any] = {}
        if weapon is not None:
            if weapon not in weapons:
                raise InvalidInput(f"{a.name} has no weapon {weapon!r} (weapons: "
                                   f"{', '.join(weapons)})", weapon=weapon)
            w = weapons[weapon]
            kind = str(w.get("kind", "close"))
            if kind not in KIND_TRACK:
                raise InvalidInput(
                    f"{a.name}'s {weapon} is a {kind} weapon; a {track} attack uses a mental "
                    "or social weapon, or skill= and ev= without a weapon", rule="VR-INJ-5")
            wtrack = KIND_TRACK[kind]
            if track not in (None, wtrack):
                raise InvalidInput(f"{a.name}'s {weapon} is {kind}: it strikes {wtrack}, "
                                   f"not {track}", rule="VR-INJ-5")
            track = wtrack
        assert track is not None
        if target not in self.sim.participants:
            raise InvalidInput(f"{self.name(target)} is an object: it has no {track} track",
                               rule="VR-INJ-5")
        skill = skill or (str(w["skill"]) if w.get("skill") else None)
        if skill is None:
            raise InvalidInput(f"a {track} attack needs the skill it is rolled with, e.g. "
                               f"skill={'intimidation' if track == 'morale' else 'deception'}",
                               rule="VR-INJ-5")
        t = self.active(target)
        if t.id == attacker:
            raise InvalidInput(f"{a.name} cannot attack itself")
        label, defence = track_defence(t, track)
        mods: Mods = [*self.own_mods(attacker), [f"{t.name}'s {label}", -defence]]
        return {"attacker": attacker, "target": target, "weapon": weapon or skill,
                "kind": "mental" if track == "focus" else "social", "skill": skill,
                "ev": int(ev if ev is not None else w.get("ev", 0)), "object": None,
                "distance": None, "min_dos": 0, "track": track, "mods": mods,
                "tn": skill_tn(self.sim, a, skill), "cover": 0, "cover_object": None}

    def resolve_attack(self, plan: dict[str, Any], dice: Sequence[int] | None,
                       spend: int, free: bool = False, extra_ev: int = 0) -> None:
        """Roll an attack planned by :meth:`attack_plan` and emit its consequences."""
        c = check(self.ctx, plan["skill"], plan["tn"], plan["mods"], dice)
        min_dos = int(plan.get("min_dos", 0))
        hit = c["success"] and c["dos"] >= min_dos
        cover = int(plan.get("cover", 0) or 0)
        cover_hit = False
        if not hit and cover < 0:
            without = c["target_number"] - cover - c["total"]
            cover_hit = without >= min_dos
        ev = plan["ev"] + extra_ev
        target = plan["target"]
        data: dict[str, Any] = {**c, "target": target,
                                "weapon": plan["weapon"], "kind": plan["kind"], "ev": ev,
                                "distance": plan["distance"], "min_dos": min_dos, "hit": hit,
                                "cover_hit": cover_hit, "free": free, "spend": spend}
        track = str(plan.get("track", "injury"))
        if track != "injury":
            data["track"] = track
        if plan["object"] is None and hit:
            rv = track_armor(self.sim.participants[target], track)
            data.update(rv=rv, net=ev - rv)
        self.emit(Event("attack", data, actor=plan["attacker"]))
        if hit and plan["object"] is not None:
            self.damage_object(target, ev, f"{self.name(plan['attacker'])}'s {plan['weapon']}")
        elif hit:
            self.inflict(target, data["net"], track,
                         f"{self.name(plan['attacker'])}'s {plan['weapon']}")
        elif cover_hit and plan.get("cover_object") in self.ext.objects:
            self.damage_object(plan["cover_object"], ev,
                               f"{self.name(plan['attacker'])}'s {plan['weapon']} (cover hit)")

    def free_attacks(self, attackers: list[str], target: str, dice: Sequence[int] | None,
                     extra_ev: int = 0) -> None:
        """Free attacks, one after another, while the target stays in (VR-MOVE-4/5)."""
        chunks: list[Sequence[int] | None] = [None] * len(attackers)
        if dice is not None:
            if len(dice) != 3 * len(attackers):
                raise InvalidInput(
                    f"free= needs 3 dice for each of the {len(attackers)} free attack(s), "
                    f"got {len(dice)}", dice=list(dice))
            chunks = [dice[3 * i:3 * i + 3] for i in range(len(attackers))]
        for who, chunk in zip(attackers, chunks, strict=True):
            if not self.sim.participants[target].active:
                break
            weapons = weapons_of(self.sim.participants[who])
            close = next(w for w, spec in weapons.items() if spec.get("kind", "close") == "close")
            plan = self.attack_plan(who, target, close, free=True)
            self.resolve_attack(plan, chunk, 0, free=True, extra_ev=extra_ev)


def boundary_after_leave(state: ConflictState, pid: str) -> list[Event]:
    """The boundary events that follow ``pid`` leaving or being taken out (``state`` from
    before): the end of its go if it was acting, and the end of the turn when nobody still
    in the conflict is left to go (VR-TURN-2, VR-TURN-3). Otherwise the turn waits for the
    GM's hand-off on its behalf (``handoff WHO``)."""
    ext: VersExt | None = state.ext
    if ext is None or not ext.turns.round_opened:
        return []
    turns = ext.turns
    acting = turns.current == pid
    rest = [m for m in turns.not_gone() if m != pid and m in state.participants
            and state.participants[m].active]
    events: list[Event] = []
    if acting:
        events.append(Event(TURN_ENDED, {"participant": pid, "out": True}))
    if (acting or turns.current is None) and not rest:
        events.append(Event(ROUND_ENDED, {"round": state.round}))
    return events


def evolve_generic_safe(state: ConflictState, event: Event) -> None:
    """The engine's part of an event on the simulated state (no ruleset hook needed)."""
    from fracas.engine.ruleset import Ruleset

    evolve_generic(Ruleset(), state, event)


# --- command handlers --------------------------------------------------------------------

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
    turns.check_open(first, "VR-TURN-1", names=d.names())
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
    turns.check_hand_off(target.id, "VR-TURN-2", names=d.names())
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
    turns.check_hand_off(target.id, "VR-TURN-2", names=d.names())
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


def _zone_arg(d: Decider, zone: str, rule: str) -> None:
    d.ext.zones.check_zone(zone, rule)


def _check_not_engaged(d: Decider, actor: str) -> None:
    """An engaged character must disengage before it moves away (VR-MOVE-4)."""
    foes = d.ext.engaged_with(actor)
    if foes:
        raise IllegalCommand(
            f"{d.name(actor)} is engaged with {', '.join(d.name(f) for f in foes)}; "
            f"disengage first ('{actor}: disengage')", rule="VR-MOVE-4", engaged=foes)


def decide_move(d: Decider) -> None:
    """VR-MOVE-1/2/4/5: one zone, or two with an Athletics roll."""
    actor = d.cmd.actor
    assert actor is not None
    a = d.cmd.args
    zones = d.ext.zones
    spend = d.action(actor)
    _check_not_engaged(d, actor)
    zones.check_move(actor, a["to"], 2, "VR-MOVE-1", names=d.names())
    here = zones.zone_of(actor)
    assert here is not None
    path = zones.path(here, a["to"]) or []
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
    actor = d.cmd.actor
    assert actor is not None
    a = d.cmd.args
    zones = d.ext.zones
    spend = d.action(actor)
    _check_not_engaged(d, actor)
    zones.check_move(actor, a["to"], 1, "VR-MOVE-5", names=d.names())
    here = zones.zone_of(actor)
    assert here is not None
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
    ladder.check_remove("VR-INJ-4", owner=who, names=d.names())
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


# --- GM set-up ----------------------------------------------------------------------------

def decide_gm(d: Decider) -> None:
    """Zones, links, placement, guards, cover, objects, restore and direct harm."""
    a = d.cmd.args
    ext = d.ext
    verb = d.cmd.verb
    if verb == "zone":
        ext.zones.check_new_zone(a["id"], "VR-MOVE-1")
        d.emit(Event("zone_added", {"zone": a["id"], "name": a.get("name") or a["id"]}))
    elif verb == "link":
        ext.zones.check_link(a["a"], a["b"], "VR-MOVE-1")
        d.emit(Event("zones_linked", {"a": a["a"], "b": a["b"]}))
    elif verb == "place":
        d.active(a["who"])
        _zone_arg(d, a["zone"], "VR-MOVE-1")
        d.emit(Event("placed", {"who": a["who"], "zone": a["zone"]}))
    elif verb == "guard":
        p = d.active(a["who"])
        key = "|".join(sorted((a["a"], a["b"])))
        ext.zones.check_guard(key, "VR-MOVE-5")
        here = ext.zones.zone_of(p.id)
        if here not in (a["a"], a["b"]):
            where = f"is in {here}" if here else "has no zone"
            raise IllegalCommand(
                f"{p.name} {where}; a guard stands at the way it guards, in {a['a']} or "
                f"{a['b']} ('place {p.id} {a['a']}' first)", rule="VR-MOVE-5")
        if p.id in ext.zones.guards.get(key, []):
            raise IllegalCommand(f"{p.name} already guards the way {a['a']}–{a['b']}",
                                 rule="VR-MOVE-5")
        d.emit(Event("guard_posted", {"who": a["who"], "link": key}))
    elif verb == "unguard":
        p = d.sim.participant(a["who"])
        if not any(p.id in posted for posted in ext.zones.guards.values()):
            raise IllegalCommand(f"{p.name} guards no way", rule="VR-MOVE-5")
        d.emit(Event("guard_left", {"who": a["who"]}))
    elif verb == "cover":
        d.active(a["who"])
        value = -abs(int(a["value"]))
        if value not in (0, -1, -3, -5):
            raise InvalidInput(f"cover is 1 (⅓), 3 (⅔) or 5 (complete), or 0 for none, "
                               f"not {a['value']}", rule="VR-ATK-5")
        obj = a.get("object")
        if obj is not None and obj not in ext.objects:
            raise InvalidInput(f"no object {obj!r}; create it with 'object {obj} material=…'",
                               rule="VR-ATK-5")
        d.emit(Event("cover_set", {"who": a["who"], "value": value, "object": obj}))
    elif verb == "object":
        d.emit(Event("object_added", object_spec(a, ext)))
    elif verb == "restore":
        if a["id"] not in ext.objects:
            raise InvalidInput(f"no object {a['id']!r}")
        d.emit(Event("object_restored", {"object": a["id"]}))
    elif verb == "harm":
        p = d.active(a["who"], "VR-INJ-5")
        if a["ev"] < 0:
            raise InvalidInput("net EV below 0 inflicts nothing", rule="VR-ROLL-2")
        d.inflict(p.id, a["ev"], a["track"], a.get("why") or "GM")


def object_spec(a: dict[str, Any], ext: VersExt | None) -> dict[str, Any]:
    """Check an object's set-up (hardness by material or rank, slots) and return its data."""
    oid = str(a.get("id", ""))
    if not oid or (ext is not None and oid in ext.objects):
        raise InvalidInput(f"object {oid!r} exists already or has no id", rule="VR-OBJ-1")
    material = a.get("material")
    hardness = a.get("hardness")
    if hardness is None:
        if material is None:
            raise InvalidInput(f"object {oid}: give material= (one of {', '.join(HARDNESS)}) "
                               "or hardness=RANK", rule="VR-OBJ-1")
        if str(material) not in HARDNESS:
            raise InvalidInput(f"object {oid}: unknown material {material!r}; known: "
                               f"{', '.join(HARDNESS)} (or give hardness=RANK)",
                               rule="VR-OBJ-1")
        hardness = HARDNESS[str(material)]
    slots = int(a["slots"]) if a.get("slots") is not None else 1
    if slots < 1:
        raise InvalidInput(f"object {oid}: slots must be at least 1", rule="VR-OBJ-2")
    return {"object": oid, "name": str(a.get("name") or oid), "material": material or "",
            "hardness": int(hardness), "slots": slots, "penalty": -abs(int(a.get("penalty")
                                                                            or 0))}


# --- chases -------------------------------------------------------------------------------

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


HANDLERS: dict[str, Callable[[Decider], None]] = {
    "open": decide_open, "handoff": decide_handoff, "endure": decide_endure,
    "move": decide_move, "slip": decide_slip, "disengage": decide_disengage,
    "attack": decide_attack, "recover": decide_recover, "repair": decide_repair,
    "zone": decide_gm, "link": decide_gm, "place": decide_gm, "guard": decide_gm,
    "unguard": decide_gm, "cover": decide_gm, "object": decide_gm, "restore": decide_gm,
    "harm": decide_gm, "chase": decide_chase, "track": decide_stage, "pursue": decide_stage,
    "run": decide_run, "interpose": decide_interpose,
}

__all__ = ["HANDLERS", "TRACKS", "Decider", "object_spec", "total_mod"]
