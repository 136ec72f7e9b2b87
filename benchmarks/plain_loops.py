"""Plain-Python baselines of the rulesets' bundled scripts and random plays, for
``bench_engine.py``.

Each loop plays a scenario's commands the way a hand-written program would: from the commands
already read (no parsing), it makes the rules' checks and changes the state directly — the
same ruleset state classes and helper functions fracas uses (turn orders, pools, die sizes,
defenses, affinities), but no commands, events, log, undo checkpoints or views. A loop
supports the verbs its workloads use (another raises); dice not typed in are drawn as the
engine draws them, from ``DiceRng.derive(SEED, version)`` of each command's version.
:func:`summary` reads the same totals from its state and from fracas's, so the benchmark
checks that both did the same work.

The workloads with a loop (``LOOPS``):

* Etherscope's four scripts and its random play (on the agents' domain): ``EtherscopeLoop``,
  in ``plain_etherscope.py``.
* Fabula Ultima's scripts (ambush, dragon lair) and its random play (on the ambush):
  :class:`FabulaLoop`.
* VERS's scripts (vers-chase, vers-tavern-brawl) and its random play (on vers-chase):
  :class:`VersLoop`.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

from plain_etherscope import EtherscopeLoop
from plain_steps import SEED, Refused, Step

from fracas.dice.rng import DiceRng
from fracas.engine.components import AlternatingSides, Track
from fracas.engine.model import ConflictState, Participant
from fracas.rulesets.etherscope.state import EsExt
from fracas.rulesets.fabula_ultima.actions import parse_attributes
from fracas.rulesets.fabula_ultima.state import (
    STATUSES,
    FabulaExt,
    Item,
    add_participant,
    affinity,
    defense,
    die,
    init_modifier,
    is_extra,
    make_item,
    npc_initiative,
    roster,
    turns_per_round,
    unassigned,
    weapon_of,
)
from fracas.rulesets.vers.decider import COMBAT_VERBS, hostile_guards, readied
from fracas.rulesets.vers.state import (
    KIND_TRACK,
    RECOVERY_PENALTY,
    REPAIR_PENALTY,
    Chase,
    VersExt,
    dodge,
    ranks,
    reach,
    skill_tn,
    track_armor,
    weapons_of,
)


def _faces(dice: list[int], sizes: tuple[int, ...]) -> list[int]:
    """The table dice of a roll, checked against the dice's sizes."""
    if len(dice) != len(sizes) or any(not 1 <= f <= s for f, s in zip(dice, sizes,
                                                                       strict=True)):
        raise Refused(f"dice {dice} do not fit d{sizes}")
    return dice


# --------------------------------------------------------------------------- Fabula Ultima

def _fu_check(faces: list[int], mod: int, dl: int) -> tuple[bool, bool, int]:
    """(success, fumble, high roll) of a check's two dice (FU-CHK-1..4)."""
    a, b = faces
    critical = a == b and a >= 6
    fumble = a == 1 and b == 1
    return critical or (not fumble and a + b + mod >= dl), fumble, max(a, b)


class FabulaLoop:
    """Fabula Ultima's goal, equip, initiative, attack, spell, check, act, fabula, status,
    join, leave and end, by hand. A check without dice typed in rolls the engine's dice: the
    generator of the command's version (the set-up is version 1), drawn in the engine's
    order."""

    def __init__(self, state: ConflictState, seed: str = SEED) -> None:
        if state.effects:
            raise Refused("timed effects (ticked at turn boundaries) are not played by hand")
        self.state = state
        self.ext: FabulaExt = state.ext
        self.seed = seed
        self.version = 1  # the set-up's record: the first command is version 2
        self.rng: DiceRng | None = None  # the command's generator, made when it rolls

    def play(self, steps: list[Step]) -> ConflictState:
        """Play ``steps``; the state they leave."""
        for verb, actor, a in steps:
            self.version += 1
            self.rng = None
            getattr(self, "do_" + verb)(actor, a)
        return self.state

    def _dice(self, typed: list[int] | None, sizes: tuple[int, int]) -> list[int]:
        """The dice typed in (checked against ``sizes``), else the next two of the command's
        generator."""
        if typed is not None:
            return _faces(typed, sizes)
        if self.rng is None:
            self.rng = DiceRng.derive(self.seed, self.version)
        return [self.rng.die(sizes[0]), self.rng.die(sizes[1])]

    def _fumbled(self, p: Participant, fumble: bool) -> None:
        if fumble and p.id in self.ext.fp:
            self.ext.fp[p.id] += 1

    def _begin(self, actor: str) -> AlternatingSides:
        st, ext = self.state, self.ext
        order = ext.order
        if st.status != "running" or order is None:
            raise Refused("not under way")
        if order.round_over:
            st.round += 1
            order.new_round()
            ext.round_closed = False
        p = st.participants[actor]
        if actor in ext.extras or actor not in order.side_of or actor in order.out \
                or not p.active or order.turns_left(actor) == 0 \
                or order.side_of[actor] != order.side_on_turn or order.current is not None:
            raise Refused(f"not {actor}'s turn")
        order.take_turn(actor)
        return order

    def _finish(self, order: AlternatingSides) -> None:
        order.end_turn()
        order.settle()
        if order.round_over:
            self.ext.round_closed = True

    def _damage(self, target: Participant, raw: int, dtype: str) -> None:
        pool = self.ext.hp[target.id]
        aff = affinity(target, dtype)
        if aff == "absorb":
            pool.set(min(pool.maximum, pool.current + raw))
            return
        amount = raw * 2 if aff == "vulnerable" else raw // 2 if aff == "resistant" else \
            0 if aff == "immune" else raw
        pool.set(max(0, pool.current - amount))
        if pool.current == 0 and target.active:
            target.out = "defeated (0 HP)"
            assert self.ext.order is not None
            self.ext.order.leave(target.id)

    def _target(self, pid: str) -> Participant:
        p = self.state.participants.get(pid)
        if p is None or not p.active:
            raise Refused(f"no {pid} in play")
        return p

    def do_goal(self, actor: str, a: dict[str, Any]) -> None:
        self.ext.goals[actor] = a["text"]

    def do_equip(self, actor: str, a: dict[str, Any]) -> None:
        if self.state.status != "setup":
            raise Refused("equipment is declared before the start")
        item: Item = make_item(actor, {k: v for k, v in a.items() if v is not None})
        items = self.ext.equipment.setdefault(actor, [])
        single = item.kind in ("armor", "shield")
        items[:] = [i for i in items if not (
            (single and i.kind == item.kind) or i.name.lower() == item.name.lower())]
        items.append(item)

    def do_initiative(self, actor: str, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        leader = self._target(actor)
        if st.status != "setup" or leader.kind != "pc" or leader.side != ext.pc_side \
                or is_extra(ext, leader) or unassigned(st):
            raise Refused("no initiative now")
        if a.get("dl") is not None or a.get("supporters") is not None:
            raise Refused("initiative with dl= or supporters= is not played by hand")
        foes = [p for p in st.participants.values()
                if p.active and p.side == ext.foe_side and not is_extra(ext, p)]
        if not foes:
            raise Refused("no foes")
        dl = max(npc_initiative(ext, p) for p in foes)
        pcs = [p for p in st.participants.values() if p.active and p.side == ext.pc_side
               and not is_extra(ext, p) and p.kind == "pc" and p.id != leader.id]
        dice = a.get("dice")
        if dice is not None and len(dice) != 2 * (len(pcs) + 1):
            raise Refused("initiative dice")
        helpers = bond = 0
        for i, s in enumerate(pcs):
            faces = self._dice(None if dice is None else dice[2 * i: 2 * i + 2],
                               (die(ext, s, "dex"), die(ext, s, "ins")))
            ok, fumble, _ = _fu_check(faces, init_modifier(ext, s), 10)
            self._fumbled(s, fumble)
            if ok:
                helpers += 1
                bond = max(bond, int((s.stats.get("bonds") or {}).get(leader.id, 0)))
        mod = init_modifier(ext, leader) + helpers + bond
        faces = self._dice(None if dice is None else dice[-2:],
                           (die(ext, leader, "dex"), die(ext, leader, "ins")))
        ok, fumble, _ = _fu_check(faces, mod, dl)
        self._fumbled(leader, fumble)
        first = ext.pc_side if ok else ext.foe_side
        ext.initiative = {"leader": leader.id, "dl": dl, "total": sum(faces) + mod,
                          "success": ok, "first_side": first}
        members, turns = roster(st)
        order = AlternatingSides(sides=[ext.pc_side, ext.foe_side], first_side=first,
                                 side_on_turn=first)
        for pid, side in members.items():
            order.side_of[pid] = side
            order.turns_per_round[pid] = turns[pid]
            order.taken[pid] = 0
        ext.order = order
        st.status, st.round = "running", 1
        order.new_round()

    def do_attack(self, actor: str, a: dict[str, Any]) -> None:
        ext, p = self.ext, self.state.participants[actor]
        target = self._target(a["target"])
        order = self._begin(actor)
        w = weapon_of(ext, p, a.get("weapon"))
        faces = self._dice(a.get("dice"), (die(ext, p, w.accuracy[0]),
                                           die(ext, p, w.accuracy[1])))
        hit, fumble, hr = _fu_check(faces, w.bonus, defense(ext, target, False))
        self._fumbled(p, fumble)
        if hit:
            self._damage(target, hr + w.damage, w.type)
        self._finish(order)

    def do_spell(self, actor: str, a: dict[str, Any]) -> None:
        ext, p = self.ext, self.state.participants[actor]
        target = self._target(a["target"])
        order = self._begin(actor)
        mp = int(a.get("mp", 0))
        ext.mp[actor].check_spend(mp)
        ext.mp[actor].set(ext.mp[actor].current - mp)
        faces = self._dice(a.get("dice"), parse_attributes(ext, p, a.get("accuracy")
                                                           or "ins+wlp"))
        hit, fumble, hr = _fu_check(faces, int(a.get("bonus", 0)), defense(ext, target, True))
        self._fumbled(p, fumble)
        if hit and a.get("damage") is not None:
            self._damage(target, hr + int(a["damage"]), a.get("type") or "physical")
        self._finish(order)

    def do_check(self, actor: str, a: dict[str, Any]) -> None:
        ext, p = self.ext, self.state.participants[actor]
        sizes = parse_attributes(ext, p, a["attributes"])
        if a["dl"] < 0:
            raise Refused("a negative DL")
        order = self._begin(actor) if a.get("turn", True) else None
        faces = self._dice(a.get("dice"), sizes)
        _, fumble, _ = _fu_check(faces, int(a.get("bonus", 0)), a["dl"])
        self._fumbled(p, fumble)
        if order is not None:
            self._finish(order)

    def do_act(self, actor: str, a: dict[str, Any]) -> None:
        self._finish(self._begin(actor))

    def do_fabula(self, actor: str, a: dict[str, Any]) -> None:
        fp, delta = self.ext.fp, int(a["delta"])
        if actor not in fp or delta == 0 or fp[actor] + delta < 0:
            raise Refused("fabula")
        fp[actor] += delta

    def do_status(self, actor: str | None, a: dict[str, Any]) -> None:
        have = self.ext.statuses.setdefault(self._target(a["target"]).id, [])
        if a["effect"] in have or a["effect"] not in STATUSES:
            raise Refused("status")
        have.append(a["effect"])

    def do_join(self, actor: str | None, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        if a["id"] in st.participants:
            raise Refused("already here")
        p = Participant(id=a["id"], name=a.get("name") or a["id"], side=a.get("side"),
                        stats=dict(a.get("stats") or {}))
        st.participants[p.id] = p
        add_participant(ext, p)
        if ext.order is not None and p.side in ext.order.sides:
            ext.order.join(p.id, str(p.side), turns_per_round(p))
            if ext.round_closed:
                ext.order.taken[p.id] = ext.order.turns_per_round[p.id]
            ext.order.settle()

    def do_leave(self, actor: str | None, a: dict[str, Any]) -> None:
        self._target(a["id"]).present = False
        if self.ext.order is not None:
            self.ext.order.leave(a["id"])
            self.ext.order.settle()

    def do_end(self, actor: str | None, a: dict[str, Any]) -> None:
        self.state.status, self.state.end_reason = "ended", a["reason"]


# --------------------------------------------------------------------------- VERS

#: The weapon kinds and the skill each attacks with (VR-ATK-*).
_ATTACK_SKILL = {"close": "close_combat", "ranged": "ranged_combat", "thrown": "athletics"}


class VersLoop:
    """VERS turns (open, handoff, endure), moves and slips past guards, disengaging with its
    free attacks, physical attacks on characters and objects with their harm, recovery,
    repair, and chases (chase, run, interpose, track, pursue), by hand. Mental and social
    attacks, races for a prize and the GM's battlefield verbs are not played (refused).

    It starts from the state after the set-up (version 1): its ``n``-th step is version
    ``n + 1``, whose generator rolls the dice a step does not name, in the engine's order."""

    def __init__(self, state: ConflictState) -> None:
        self.state = state
        self.ext: VersExt = state.ext
        self.version = 1
        self._rng: DiceRng | None = None

    def play(self, steps: list[Step]) -> ConflictState:
        """Play ``steps``; the state they leave."""
        st = self.state
        for verb, actor, a in steps:
            self.version += 1
            self._rng = None
            if st.status == "ended":
                raise Refused("the conflict has ended")
            if actor is not None and not st.participants[actor].active:
                raise Refused(f"{actor} is out of the conflict")
            getattr(self, "do_" + verb)(actor, a)
        return st

    # --- dice, checks, actions

    def _dice(self, table: list[int] | None) -> list[int]:
        """3d6: those rolled at the table, else the next three of this version's generator."""
        if table is not None:
            return _faces(table, (6, 6, 6))
        if self._rng is None:
            self._rng = DiceRng.derive(SEED, self.version)
        return self._rng.dice(3, 6)

    def _margin(self, p: Participant, skill: str, mod: int, table: list[int] | None) -> int:
        """TN + ``mod`` − the 3d6 rolled: a success when not negative (VR-ROLL-1)."""
        return skill_tn(self.state, p, skill) + mod - sum(self._dice(table))

    def _action(self, actor: str, verb: str) -> int:
        """The actions ``verb`` spends: one on ``actor``'s go, none outside a turn for what
        is not combat (VR-TURN-1/2/4, VR-INJ-3)."""
        turns = self.ext.turns
        if actor in self.ext.pending_discipline:
            raise Refused(f"{actor} must endure first")
        if not turns.round_opened:
            if verb in COMBAT_VERBS:
                raise Refused("nobody is acting")
            return 0
        turns.check_action(actor)
        return 1

    def _spend(self, n: int) -> None:
        if n:
            self.ext.turns.spend(n)

    def _active(self, pid: str) -> Participant:
        p = self.state.participants.get(pid)
        if p is None or not p.active:
            raise Refused(f"no {pid} in play")
        return p

    # --- turns (VR-TURN-*)

    def _actions_of(self, pid: str) -> int:
        return 1 if self.ext.disabled(pid) else 2

    def _start_go(self, pid: str, actions: int, opens: bool) -> None:
        ext = self.ext
        if opens:
            ext.turns.open(pid, actions)
        else:
            ext.turns.hand_off(pid, actions)
        if ext.disabled(pid) and pid not in ext.pending_discipline:
            ext.pending_discipline.append(pid)

    def _new_turn(self, pid: str) -> None:
        self.state.round += 1
        self._start_go(pid, self._actions_of(pid), opens=True)

    def _rest(self, actor: str) -> list[str]:
        ps = self.state.participants
        return [m for m in self.ext.turns.not_gone() if m != actor and ps[m].active]

    def do_open(self, actor: str | None, a: dict[str, Any]) -> None:
        st, turns = self.state, self.ext.turns
        first = self._active(a["first"]).id
        if turns.round_opened and turns.current is not None:
            raise Refused("the turn is under way")
        if st.status == "setup":
            st.status = "running"
        if turns.round_opened and first not in turns.gone:  # a go resumed
            self._start_go(first, self._actions_of(first), opens=False)
            return
        if turns.round_opened:
            if self._rest(""):
                raise Refused(f"{first} has gone this turn")
            turns.new_round()
        turns.check_open(first)
        self._new_turn(first)

    def do_handoff(self, actor: str | None, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        turns, to = ext.turns, a.get("to")
        if actor is None:  # the GM's, for one taken out during its go
            if turns.current is not None or not turns.round_opened or to is None:
                raise Refused("no hand-off for the GM now")
            turns.check_hand_off(self._active(to).id)
            self._start_go(to, self._actions_of(to), opens=False)
            return
        if turns.current != actor or actor in ext.pending_discipline:
            raise Refused(f"{actor} is not acting")
        rest = self._rest(actor)
        if to is None:
            if rest:
                raise Refused("some have not gone")
            turns.end_go()
            turns.new_round()
            return
        self._active(to)
        if not rest and st.settings.get("last_chooses_opener", False) and to in turns.members:
            actions = self._actions_of(to)
            turns.end_go()
            turns.new_round()
            st.round += 1
            self._start_go(to, actions, opens=True)
            return
        turns.check_hand_off(to)
        actions = self._actions_of(to)
        turns.end_go()
        self._start_go(to, actions, opens=False)

    def do_endure(self, actor: str, a: dict[str, Any]) -> None:
        ext = self.ext
        if actor not in ext.pending_discipline:
            raise Refused("no Discipline roll to make")
        p = self.state.participants[actor]
        ok = self._margin(p, "discipline", ext.harm_penalty(actor), a.get("dice")) >= 0
        ext.pending_discipline.remove(actor)
        if not ok:
            self._take_out(actor, "unconscious")

    # --- harm (VR-INJ-*, VR-OBJ-*)

    def _take_out(self, pid: str, reason: str) -> None:
        """``pid`` is out; its go ends, and the turn when nobody in it is left to go."""
        ext = self.ext
        turns = ext.turns
        acting = turns.current == pid
        ends_turn = turns.round_opened and (acting or turns.current is None) \
            and not self._rest(pid)
        self.state.participants[pid].out = reason
        turns.leave(pid)
        ext.disengage_all(pid)
        ext.zones.remove_actor(pid)
        if pid in ext.pending_discipline:
            ext.pending_discipline.remove(pid)
        if acting:
            turns.end_go()
        if ends_turn:
            turns.new_round()

    def _harm(self, pid: str, net: int, why: str) -> bool:
        """An injury for ``net`` EV on ``pid``; whether it took ``pid`` out."""
        ext = self.ext
        if net < 0 or pid not in ext.harm:
            return False
        result = ext.harm[pid]["injury"].take(net, why)
        if result.taken_out:
            self._take_out(pid, "injury track full")
            return True
        if result.level == 3:  # disabled: one action a go, and a Discipline roll
            if pid not in ext.pending_discipline:
                ext.pending_discipline.append(pid)
            if ext.turns.current == pid:
                ext.turns.actions_left = max(0, ext.turns.actions_left - 1)
        return False

    def _damage_object(self, oid: str, ev: int, why: str) -> None:
        ext = self.ext
        obj = ext.objects[oid]
        net = ev - obj.hardness
        if net < 0 or obj.broken:
            return
        obj.ladder.take(net, why)
        if obj.broken:  # broken cover shelters nobody any more
            for pid in [p for p, o in ext.cover_object.items() if o == oid]:
                ext.cover.pop(pid, None)
                ext.cover_object.pop(pid, None)

    # --- attacks (VR-ROLL-2, VR-ATK-*)

    def _attack(self, actor: str, target: str, weapon: str | None, spend: int,
                table: list[int] | None, free: bool = False) -> bool:
        """A physical attack; whether it took ``target`` out."""
        st, ext = self.state, self.ext
        ps = st.participants
        me = ps[actor]
        weapons = weapons_of(me)
        wname = weapon or next(w for w, spec in weapons.items()
                               if spec.get("kind", "close") not in KIND_TRACK)
        if wname not in weapons:
            raise Refused(f"no weapon {wname}")
        w = weapons[wname]
        kind = str(w.get("kind", "close"))
        if kind not in _ATTACK_SKILL:
            raise Refused("mental and social attacks are not played")
        skill = _ATTACK_SKILL[kind]
        mod = ext.harm_penalty(actor)
        oid = w.get("object")
        if oid and oid in ext.objects:
            if ext.objects[oid].broken:
                raise Refused(f"{wname} is broken")
            mod += ext.objects[oid].ladder.total_penalty()
        min_dos = cover = 0
        cover_object = None
        t = ps.get(target)
        if t is None:
            mod += ext.objects[target].penalty
        else:
            if not t.active or t.id == actor:
                raise Refused(f"no attack on {target}")
            za, zt = ext.zones.zone_of(actor), ext.zones.zone_of(target)
            dist = ext.zones.distance(za, zt) if za and zt else None
            if za and zt and dist is None:
                raise Refused(f"{target} cannot be reached")
            if kind == "close":
                if dist not in (None, 0) and not free:
                    raise Refused("a close attack needs the same zone")
                close = ranks(t, "close_combat")
                mod += -dodge(t) if dodge(t) >= close else -close
                mod += reach(me) - reach(t)
            else:
                mod -= dodge(t)
                if dist == 0:
                    mod -= 2
                elif dist is not None and dist > 1:
                    mod -= 2 * (dist - 1)
                mod -= 2 * len([o for o in ext.engaged_with(target)
                                if o != actor and ps[o].active])
                if kind == "thrown" and dist is not None and dist > 1:
                    min_dos = 3 * (dist - 1)
            cover = ext.cover.get(target, 0)
            cover_object = ext.cover_object.get(target)
        margin = self._margin(me, skill, mod + cover, table)
        hit = margin >= min_dos
        self._spend(spend)
        if kind == "close" and t is not None:
            ext.engage(actor, target)
        why = f"{me.name}'s {wname}"
        ev = int(w.get("ev", 0))
        if hit and t is None:
            self._damage_object(target, ev, why)
        elif hit:
            assert t is not None
            return self._harm(target, ev - track_armor(t, "injury"), why)
        elif cover < 0 and margin - cover >= min_dos and cover_object in ext.objects:
            assert cover_object is not None
            self._damage_object(cover_object, ev, why + " (cover hit)")
        return False

    def do_attack(self, actor: str, a: dict[str, Any]) -> None:
        target = a["target"]
        if target not in self.state.participants and target not in self.ext.objects:
            raise Refused(f"no {target} to attack")
        spend = self._action(actor, "attack")
        if a.get("track") in KIND_TRACK.values() or a.get("skill") or a.get("ev") is not None:
            raise Refused("mental and social attacks are not played")
        self._attack(actor, target, a.get("weapon"), spend, a.get("dice"))

    # --- moving (VR-MOVE-*)

    def _begin_move(self, actor: str, verb: str, to: str, steps: int) -> tuple[int, str]:
        """The actions a move of at most ``steps`` zones spends and the zone it leaves, by
        one not engaged (VR-MOVE-1/4)."""
        spend = self._action(actor, verb)
        if self.ext.engaged_with(actor):
            raise Refused(f"{actor} is engaged")
        self.ext.zones.check_move(actor, to, steps)
        here = self.ext.zones.zone_of(actor)
        assert here is not None
        return spend, here

    def do_move(self, actor: str, a: dict[str, Any]) -> None:
        st, ext, to = self.state, self.ext, a["to"]
        spend, here = self._begin_move(actor, "move", to, 2)
        path = ext.zones.path(here, to) or []
        if hostile_guards(st, actor, path):
            raise Refused("guarded: slip")
        used, dest = spend, to
        if len(path) > 2:  # a dash: Athletics
            both = a.get("onfail") == "both"
            if both and ext.turns.round_opened and ext.turns.actions_left < 2:
                raise Refused("one action left")
            if self._margin(st.participants[actor], "athletics", ext.harm_penalty(actor),
                            a.get("dice")) < 0:
                used, dest = (spend * 2, to) if both else (spend, path[1])
        self._spend(used)
        self.ext.arrive(actor, dest)

    def do_slip(self, actor: str, a: dict[str, Any]) -> None:
        st, ext, to = self.state, self.ext, a["to"]
        ps = st.participants
        spend, here = self._begin_move(actor, "slip", to, 1)
        guards = hostile_guards(st, actor, [here, to])
        if not guards:
            raise Refused("nobody guards the way")
        best = max(guards, key=lambda g: ranks(ps[g], "close_combat"))
        extra = 2 * (len(guards) - 1)
        ok = self._margin(ps[actor], "athletics", ext.harm_penalty(actor)
                          - ranks(ps[best], "close_combat") - extra, a.get("dice")) >= 0
        self._spend(spend)
        if ok:
            self.ext.arrive(actor, to)
            return
        weapon = readied(st, best)  # the guard's blow: its EV against the mover's armour
        ev = int(weapons_of(ps[best])[weapon].get("ev", 0)) + extra
        self._harm(actor, ev - track_armor(ps[actor], "injury"),
                   f"{ps[best].name}'s {weapon} (guarded way)")

    def do_disengage(self, actor: str, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        ps = st.participants
        spend = self._action(actor, "disengage")
        foes = [f for f in ext.engaged_with(actor) if ps[f].active]
        if not foes:
            raise Refused(f"{actor} is not engaged")
        ok = self._margin(ps[actor], "athletics",
                          ext.harm_penalty(actor) - 2 * (len(foes) - 1), a.get("dice")) >= 0
        self._spend(spend)
        if ok:
            ext.disengage_all(actor)
            return
        free = a.get("free")  # free attacks, one after another, while it stays in
        if free is not None and len(free) != 3 * len(foes):
            raise Refused("free= needs 3 dice a free attack")
        for i, foe in enumerate(foes):
            dice = None if free is None else free[3 * i: 3 * i + 3]
            if self._attack(foe, actor, readied(st, foe), 0, dice, free=True):
                break

    # --- recovery and repair (VR-INJ-4, VR-OBJ-5)

    def do_recover(self, actor: str, a: dict[str, Any]) -> None:
        ext = self.ext
        who = a.get("who") or actor
        self._active(who)
        ladder = ext.harm[who][a["track"]]
        highest = ladder.highest()
        if highest is None:
            raise Refused(f"{who} has no conditions")
        spend = self._action(actor, "recover")
        mod = (0 if who == actor else ext.harm_penalty(actor)) + RECOVERY_PENALTY[highest]
        ok = self._margin(self.state.participants[actor], a["skill"], mod, a.get("dice")) >= 0
        self._spend(spend)
        if ok:
            ladder.remove_highest()
            if not ext.disabled(who) and who in ext.pending_discipline:
                ext.pending_discipline.remove(who)

    def do_repair(self, actor: str, a: dict[str, Any]) -> None:
        ext = self.ext
        obj = ext.objects[a["id"]]
        highest = obj.ladder.highest()
        if highest is None or obj.broken:
            raise Refused(f"{a['id']} cannot be repaired")
        spend = self._action(actor, "repair")
        ok = self._margin(self.state.participants[actor], a["skill"],
                          ext.harm_penalty(actor) + REPAIR_PENALTY[highest],
                          a.get("dice")) >= 0
        self._spend(spend)
        if ok:
            obj.ladder.remove_highest()

    # --- chases (VR-CHASE-*)

    def _roller(self, actor: str | None, chase: Chase, verb: str
                ) -> tuple[Participant, Participant, int]:
        """The roller, its opponent and the actions the roll spends (VR-CHASE-1/8)."""
        ps = self.state.participants
        if actor != chase.roller or not ps[chase.hunter].active or not ps[chase.quarry].active:
            raise Refused("not the roller")
        return ps[actor], ps[chase.opponent], self._action(actor, verb)

    def do_chase(self, actor: str | None, a: dict[str, Any]) -> None:
        if a.get("prize"):
            raise Refused("races for a prize are not played")
        hunter, quarry = self._active(a["hunter"]), self._active(a["quarry"])
        if a["id"] in self.ext.chases or not 2 <= a["length"] <= 6 or hunter is quarry:
            raise Refused("chase")
        track = Track.centred(a["length"])
        if a.get("start") is not None:
            track.check_position(a["start"])
            track.set(a["start"])
        pcs = [p.id for p in (hunter, quarry) if p.kind == "pc"]
        roller = a.get("roller") or (pcs[0] if len(pcs) == 1 else None)
        if roller not in (hunter.id, quarry.id):
            raise Refused("name who rolls")
        if self.state.status == "setup":
            self.state.status = "running"
        self.ext.chases[a["id"]] = Chase(hunter=hunter.id, quarry=quarry.id, roller=roller,
                                         stage=a["stage"], track=track, length=a["length"])

    def do_run(self, actor: str | None, a: dict[str, Any]) -> None:
        chase = self.ext.chases[a["id"]]
        if chase.stage not in ("pursuit", "tracking") or (
                chase.stage == "pursuit" and chase.track.position == 1):
            raise Refused("no run now")
        hunting = chase.roller_is_hunter
        if a.get("skill") and (chase.stage != "tracking" or not hunting):
            raise Refused("skill= picks the hunter's tracking skill")
        me, opp, spend = self._roller(actor, chase, "run")
        if chase.stage == "pursuit":
            skill, opp_rank = "athletics", ranks(opp, "athletics")
        elif hunting:
            skill = a.get("skill") or max(("survival", "investigation"),
                                          key=lambda s: skill_tn(self.state, me, s))
            opp_rank = ranks(opp, "stealth")
        else:
            skill = "stealth"
            opp_rank = max(ranks(opp, "survival"), ranks(opp, "investigation"))
        ok = self._margin(me, skill, self.ext.harm_penalty(me.id) + int(a.get("mod") or 0)
                          - opp_rank, a.get("dice")) >= 0
        self._spend(spend)
        after = min(max(1, chase.track.position + (-1 if hunting else 1) * (1 if ok else -1)),
                    chase.track.length)
        if after == chase.track.length:
            chase.stage = "escaped" if chase.stage == "pursuit" else "away"
        elif chase.stage == "tracking" and after == 1:
            chase.stage = "contact"
        chase.track.set(after)

    def do_interpose(self, actor: str | None, a: dict[str, Any]) -> None:
        chase = self.ext.chases[a["id"]]
        if chase.stage != "pursuit" or chase.track.position != 1:
            raise Refused("no interpose now")
        me, opp, spend = self._roller(actor, chase, "interpose")
        ok = self._margin(me, "athletics", self.ext.harm_penalty(me.id)
                          + int(a.get("mod") or 0) - ranks(opp, "athletics"),
                          a.get("dice")) >= 0
        self._spend(spend)
        if chase.roller_is_hunter and not ok:  # the hunter missed: back to pursuit at 2
            chase.stage = "pursuit"
            chase.track.set(2)
        else:  # the quarry evades the hunter, or either is a capture
            chase.stage = "captured" if chase.roller_is_hunter == ok else "evaded"

    def _stage(self, a: dict[str, Any], need: str, new: str) -> None:
        chase = self.ext.chases[a["id"]]
        length = a.get("length") or chase.length
        if chase.stage != need or not 2 <= length <= 6:
            raise Refused("stage")
        chase.stage, chase.length, chase.track = new, length, Track.centred(length)

    def do_track(self, actor: str | None, a: dict[str, Any]) -> None:
        self._stage(a, "escaped", "tracking")

    def do_pursue(self, actor: str | None, a: dict[str, Any]) -> None:
        self._stage(a, "contact", "pursuit")


def summary(state: ConflictState) -> dict[str, Any]:
    """What both sides must agree on after a script: status and round, who is in play, and
    the ruleset's pools, points, statuses and turn order (as data)."""
    ext = state.ext
    out: dict[str, Any] = {"status": state.status, "round": state.round,
                           "in play": sorted(p.id for p in state.participants.values()
                                             if p.active)}
    if isinstance(ext, EsExt):
        cd = ext.countdown
        out.update(end=(state.end_reason, state.outcome), concealed=state.concealed,
                   out={p.id: p.out for p in state.participants.values()},
                   opened=(ext.opened_by, ext.zoom_reason, state.depth, state.round_limit),
                   phase=ext.phase, awareness=dict(ext.awareness), ambushed=dict(ext.ambushed),
                   bands=dict(ext.ranges.bands), hidden=dict(ext.ranges.hidden),
                   groups=dict(ext.groups), acted=ext.acted,
                   condensers={k: {c: (v.current, v.maximum) for c, v in pools.items()}
                               for k, pools in ext.condenser.items()},
                   moves=(ext.move_order, ext.mover, ext.stepped), base=dict(ext.base),
                   countdown=(dict(cd.declarations), [(s.actor, s.score) for s in cd.queue],
                              cd.position, cd.joiners, ext.defaulted),
                   zoom=None if state.zoom is None else summary(state.zoom))
    if isinstance(ext, FabulaExt):
        order = ext.order
        out.update(hp={k: v.current for k, v in ext.hp.items()},
                   mp={k: v.current for k, v in ext.mp.items()}, fp=dict(ext.fp),
                   statuses={k: v for k, v in ext.statuses.items() if v},
                   goals=dict(ext.goals), equipment={k: list(v) for k, v in
                                                     ext.equipment.items() if v},
                   taken_out={p.id: p.out for p in state.participants.values() if p.out},
                   initiative=ext.initiative, round_closed=ext.round_closed,
                   order=None if order is None else (
                       order.first_side, order.side_on_turn, order.current,
                       dict(order.taken), dict(order.turns_per_round), sorted(order.out)))
    if isinstance(ext, VersExt):
        turns = ext.turns
        out.update(
            chases={k: (c.stage, c.length, c.track.length, c.track.position)
                    for k, c in ext.chases.items()},
            out={p.id: p.out for p in state.participants.values() if p.out},
            harm={pid: {t: (ladder.marks, ladder.taken_out) for t, ladder in tracks.items()}
                  for pid, tracks in ext.harm.items()},
            objects={k: (o.ladder.marks, o.ladder.taken_out) for k, o in ext.objects.items()},
            zones=dict(ext.zones.positions), guards=dict(ext.zones.guards),
            engaged=list(ext.engaged), cover=dict(ext.cover),
            cover_object=dict(ext.cover_object), pending=list(ext.pending_discipline),
            turns=(turns.members, turns.gone, turns.current, turns.actions_left,
                   turns.openers, turns.round_opened))
    return out


#: The plain loop of each workload that has one: by scenario or by ruleset (its scripts),
#: and ``RULESET random`` (its random play).
LOOPS: dict[str, Callable[[ConflictState], Any]] = {"fabula-ultima": FabulaLoop,
                                                    "fabula-ultima random": FabulaLoop,
                                                    "vers-chase": VersLoop,
                                                    "vers-tavern-brawl": VersLoop,
                                                    "vers random": VersLoop,
                                                    "etherscope": EtherscopeLoop,
                                                    "etherscope random": EtherscopeLoop}


def fresh_copy(state: ConflictState) -> Callable[[], ConflictState]:
    """A maker of private copies of the state a script starts from (its set-up)."""
    kept = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
    return lambda: pickle.loads(kept)  # type: ignore[no-any-return]
