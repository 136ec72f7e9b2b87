"""Plain-Python baselines of the rulesets' bundled scripts, for ``bench_engine.py``.

Each loop plays a scenario's script the way a hand-written program would: from the commands
already read (no parsing), it makes the rules' checks and changes the state directly — the
same ruleset state classes and helper functions fracas uses (turn orders, pools, die sizes,
defenses, affinities), but no commands, events, log, undo checkpoints or views. A loop
supports the verbs its ruleset's bundled scripts use; :func:`summary` reads the same totals
from its state and from fracas's, so the benchmark checks that both did the same work.

Loops (``LOOPS``): Fabula Ultima's two scripts (:class:`FabulaLoop`), VERS's chase
(:class:`VersChaseLoop`), and Etherscope's four scripts and random play (``EtherscopeLoop``,
in ``plain_etherscope.py``).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

from plain_etherscope import EtherscopeLoop
from plain_steps import Refused, Step

from fracas.engine.components import AlternatingSides, Track
from fracas.engine.model import ConflictState, Participant
from fracas.rulesets.etherscope.state import EsExt
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
    weapon_of,
)
from fracas.rulesets.vers.state import Chase, VersExt, ranks, skill_tn


def _faces(dice: list[int], sizes: tuple[int, ...]) -> list[int]:
    """The table dice of a roll, checked against the dice's sizes."""
    if len(dice) != len(sizes) or any(not 1 <= f <= s for f, s in zip(dice, sizes,
                                                                       strict=True)):
        raise Refused(f"dice {dice} do not fit d{sizes}")
    return dice


# --------------------------------------------------------------------------- Fabula Ultima

def _fu_check(sizes: tuple[int, int], mod: int, dice: list[int], dl: int
              ) -> tuple[bool, bool, int]:
    """(success, fumble, high roll) of a check rolled at the table (FU-CHK-1..4)."""
    a, b = _faces(dice, sizes)
    critical = a == b and a >= 6
    fumble = a == 1 and b == 1
    return critical or (not fumble and a + b + mod >= dl), fumble, max(a, b)


class FabulaLoop:
    """Fabula Ultima's goal, equip, initiative, attack, spell, check, act, status, join,
    leave and end, by hand."""

    def __init__(self, state: ConflictState) -> None:
        self.state = state
        self.ext: FabulaExt = state.ext

    def play(self, steps: list[Step]) -> ConflictState:
        """Play ``steps``; the state they leave."""
        for verb, actor, a in steps:
            getattr(self, "do_" + verb)(actor, a)
        return self.state

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
        if st.status != "setup" or leader.kind != "pc" or leader.side != ext.pc_side:
            raise Refused("no initiative now")
        foes = [p for p in st.participants.values()
                if p.active and p.side == ext.foe_side and not is_extra(ext, p)]
        dl = max(npc_initiative(ext, p) for p in foes)
        pcs = [p for p in st.participants.values() if p.active and p.side == ext.pc_side
               and not is_extra(ext, p) and p.kind == "pc" and p.id != leader.id]
        dice = a["dice"]
        if len(dice) != 2 * (len(pcs) + 1):
            raise Refused("initiative dice")
        helpers = bond = 0
        for i, s in enumerate(pcs):
            ok, fumble, _ = _fu_check((die(ext, s, "dex"), die(ext, s, "ins")),
                                      init_modifier(ext, s), dice[2 * i: 2 * i + 2], 10)
            self._fumbled(s, fumble)
            if ok:
                helpers += 1
                bond = max(bond, int((s.stats.get("bonds") or {}).get(leader.id, 0)))
        ok, fumble, _ = _fu_check((die(ext, leader, "dex"), die(ext, leader, "ins")),
                                  init_modifier(ext, leader) + helpers + bond, dice[-2:], dl)
        self._fumbled(leader, fumble)
        first = ext.pc_side if ok else ext.foe_side
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
        hit, fumble, hr = _fu_check((die(ext, p, w.accuracy[0]), die(ext, p, w.accuracy[1])),
                                    w.bonus, a["dice"], defense(ext, target, False))
        self._fumbled(p, fumble)
        if hit:
            self._damage(target, hr + w.damage, w.type)
        self._finish(order)

    def do_spell(self, actor: str, a: dict[str, Any]) -> None:
        ext, p = self.ext, self.state.participants[actor]
        target = self._target(a["target"])
        order = self._begin(actor)
        mp = int(a.get("mp", 0))
        if mp > ext.mp[actor].current:
            raise Refused("not enough MP")
        ext.mp[actor].set(ext.mp[actor].current - mp)
        hit, fumble, hr = _fu_check((die(ext, p, "ins"), die(ext, p, "wlp")),
                                    int(a.get("bonus", 0)), a["dice"],
                                    defense(ext, target, True))
        self._fumbled(p, fumble)
        if hit and a.get("damage") is not None:
            self._damage(target, hr + int(a["damage"]), a.get("type") or "physical")
        self._finish(order)

    def do_check(self, actor: str, a: dict[str, Any]) -> None:
        ext, p = self.ext, self.state.participants[actor]
        first, second = a["attributes"].split("+")
        order = self._begin(actor)
        _, fumble, _ = _fu_check((die(ext, p, first), die(ext, p, second)),
                                 int(a.get("bonus", 0)), a["dice"], a["dl"])
        self._fumbled(p, fumble)
        self._finish(order)

    def do_act(self, actor: str, a: dict[str, Any]) -> None:
        self._finish(self._begin(actor))

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


# --------------------------------------------------------------------------- VERS chases

def _vers_check(state: ConflictState, p: Participant, skill: str, mod: int, dice: list[int]
                ) -> bool:
    """A 3d6 roll-under check at the table (VR-ROLL-1), with ``p``'s condition penalties."""
    ext: VersExt = state.ext
    for ladder in ext.ladders(p.id).values():
        for index, level in enumerate(ladder.levels):
            held = ladder.count(index)
            if held and level.penalty:
                mod += level.penalty * (held if level.penalty_each else 1)
    return sum(_faces(dice, (6, 6, 6))) <= skill_tn(state, p, skill) + mod


class VersChaseLoop:
    """VERS chase, run, interpose, track and pursue (VR-CHASE-*), by hand."""

    def __init__(self, state: ConflictState) -> None:
        self.state = state
        self.ext: VersExt = state.ext

    def play(self, steps: list[Step]) -> ConflictState:
        """Play ``steps``; the state they leave."""
        for verb, actor, a in steps:
            getattr(self, "do_" + verb)(actor, a)
        return self.state

    def _chase(self, actor: str | None, a: dict[str, Any]) -> tuple[Chase, Participant,
                                                                      Participant]:
        chase = self.ext.chases[a["id"]]
        ps = self.state.participants
        if actor != chase.roller or not ps[chase.hunter].active or not ps[chase.quarry].active:
            raise Refused("not the roller")
        return chase, ps[actor], ps[chase.opponent]

    def do_chase(self, actor: str | None, a: dict[str, Any]) -> None:
        ps = self.state.participants
        hunter, quarry = ps[a["hunter"]], ps[a["quarry"]]
        if a["id"] in self.ext.chases or not 2 <= a["length"] <= 6 or hunter is quarry:
            raise Refused("chase")
        roller = [p.id for p in (hunter, quarry) if p.kind == "pc"]
        if self.state.status == "setup":
            self.state.status = "running"
        self.ext.chases[a["id"]] = Chase(
            hunter=hunter.id, quarry=quarry.id, roller=roller[0], stage=a["stage"],
            track=Track.centred(a["length"]), length=a["length"], prize="")

    def do_run(self, actor: str | None, a: dict[str, Any]) -> None:
        chase, me, opp = self._chase(actor, a)
        if chase.stage not in ("pursuit", "tracking") or (
                chase.stage == "pursuit" and chase.track.position == 1):
            raise Refused("no run now")
        hunting = chase.roller_is_hunter
        if chase.stage == "pursuit":
            skill, opp_rank = "athletics", ranks(opp, "athletics")
        elif hunting:
            skill = a.get("skill") or max(("survival", "investigation"),
                                          key=lambda s: skill_tn(self.state, me, s))
            opp_rank = ranks(opp, "stealth")
        else:
            skill = "stealth"
            opp_rank = max(ranks(opp, "survival"), ranks(opp, "investigation"))
        ok = _vers_check(self.state, me, skill, int(a.get("mod") or 0) - opp_rank, a["dice"])
        after = min(max(1, chase.track.position + (-1 if hunting else 1) * (1 if ok else -1)),
                    chase.track.length)
        if after == chase.track.length:
            chase.stage = "escaped" if chase.stage == "pursuit" else "away"
        elif chase.stage == "tracking" and after == 1:
            chase.stage = "contact"
        chase.track.set(after)

    def do_interpose(self, actor: str | None, a: dict[str, Any]) -> None:
        chase, me, opp = self._chase(actor, a)
        if chase.stage != "pursuit" or chase.track.position != 1:
            raise Refused("no interpose now")
        ok = _vers_check(self.state, me, "athletics",
                         int(a.get("mod") or 0) - ranks(opp, "athletics"), a["dice"])
        if chase.roller_is_hunter != ok:  # the quarry got away: back to pursuit at 2
            chase.stage = "pursuit"
            chase.track.set(2)
        else:
            chase.stage = "captured"

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
                   goals=dict(ext.goals),
                   order=None if order is None else (order.side_on_turn, order.current,
                                                     dict(order.taken), sorted(order.out)))
    if isinstance(ext, VersExt):
        out["chases"] = {k: (c.stage, c.length, c.track.length, c.track.position)
                         for k, c in ext.chases.items()}
    return out


#: The plain loop of each ruleset whose bundled scripts have one.
LOOPS: dict[str, Callable[[ConflictState], Any]] = {"fabula-ultima": FabulaLoop,
                                                    "vers-chase": VersChaseLoop,
                                                    "etherscope": EtherscopeLoop,
                                                    "etherscope random": EtherscopeLoop}


def fresh_copy(state: ConflictState) -> Callable[[], ConflictState]:
    """A maker of private copies of the state a script starts from (its set-up)."""
    kept = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
    return lambda: pickle.loads(kept)  # type: ignore[no-any-return]
