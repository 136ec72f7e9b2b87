"""The VERS decider: one command worked out on a copy of the state, turned into events.

Multi-step commands (an attack and the condition it inflicts, free attacks one after another)
are worked out on a deep copy of the state (``sim``) so that ``decide`` stays pure.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.conflict import evolve
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    CONFLICT_STARTED,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    TURN_ENDED,
    Event,
)
from fracas.engine.model import ConflictState, Participant, Status
from fracas.engine.ruleset import Ruleset
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.vers.checks import Mods, check
from fracas.rulesets.vers.state import (
    KIND_TRACK,
    VersExt,
    dodge,
    ranks,
    reach,
    skill_tn,
    track_armor,
    track_defence,
    weapons_of,
)

COMBAT_VERBS = frozenset({"attack", "move", "slip", "disengage"})


class Decider:
    """Decides one command, working multi-step effects out on a copy of the state (``sim``)
    that each emitted event is folded into, as the engine will fold it."""

    def __init__(self, state: ConflictState, cmd: Command, ctx: DecideContext,
                 ruleset: Ruleset, *, preview: bool = False) -> None:
        """``preview``: only read (an attack's breakdown before it is rolled); the state is
        not copied and nothing may be emitted."""
        self.state = state
        self.cmd = cmd
        self.ctx = ctx
        self.ruleset = ruleset
        self.preview = preview
        self.sim = state if preview else copy.deepcopy(state)
        self.events: list[Event] = []

    # --- plumbing --------------------------------------------------------------------
    @property
    def ext(self) -> VersExt:
        """The simulated ruleset state (equal to the real one until events are emitted)."""
        ext: VersExt = self.sim.ext
        return ext

    def emit(self, event: Event) -> None:
        """Record an event and apply it to the simulated state."""
        if self.preview:
            raise RuntimeError("a preview decider emits no events")
        self.events.append(event)
        evolve(self.ruleset, self.sim, event)

    def name(self, pid: str) -> str:
        """A participant's or object's display name."""
        if pid in self.sim.participants:
            return self.sim.participants[pid].name
        if pid in self.ext.objects:
            return self.ext.objects[pid].name
        return pid

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
        ext.turns.check_action(actor, "VR-TURN-2", "VR-TURN-4", n, names=self.sim.names())
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
