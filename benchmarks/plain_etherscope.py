"""The plain-Python baseline of Etherscope's workloads, for ``bench_engine.py``.

:class:`EtherscopeLoop` plays Etherscope's four bundled scripts (etherscope-agents-domain,
-car-chase, -novgorod-plot with its zoomed-in conflict, -war-of-words) and its random play
(on etherscope-agents-domain) the way a hand-written program would: from the commands already
read, it makes the rules' checks and changes the state directly, with the ruleset's own state
classes and helpers (range bands, the countdown, condensers, pool sizes, group names) but no
commands, events, log, undo checkpoints or views. The dice fracas rolls (no ``dice=`` typed)
it draws itself from the same generator, derived per command version as the engine does, in
the same order.
"""

from __future__ import annotations

import copy
from typing import Any

from plain_steps import SEED, Refused, Step

from fracas.dice.rng import DiceRng
from fracas.engine.components import Slot, tie_groups
from fracas.engine.model import ConflictState, Participant, Status
from fracas.rulesets.etherscope import Etherscope
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.common import dice_by_character, expand, group_of
from fracas.rulesets.etherscope.rolls import awareness_pool, pool_size
from fracas.rulesets.etherscope.settings import BANDS, condenser_of, faster
from fracas.rulesets.etherscope.state import EsExt

_RULESET = Etherscope()  # its zoom_state and merge_zoom build and merge a zoomed-in conflict
_SETUP, _RUNNING, _ENDED = Status.SETUP.value, Status.RUNNING.value, Status.ENDED.value
_NO_ACTION = {"skill": "", "difficulty": None}  # an action the settings do not configure


class EtherscopeLoop:
    """Etherscope's start (awareness, ambush, set-range, moves, step), rounds (round,
    declare, countdown, done), actions (push, attack, move, hide, search, recover, act),
    zoom and end, by hand."""

    def __init__(self, state: ConflictState) -> None:
        if any(level.effects for level in state.chain()):
            raise Refused("the loop keeps no timed effects")
        self.root = state
        self.version = 1  # the set-up's record; each command is the next
        self._rng: DiceRng | None = None
        self._enter(state.innermost)

    def _enter(self, state: ConflictState) -> None:
        """Play on in ``state`` (a zoomed-in conflict, or the one around it)."""
        self.state = state
        self.ext: EsExt = state.ext

    def play(self, steps: list[Step]) -> ConflictState:
        """Play ``steps``; the state they leave."""
        for verb, actor, a in steps:
            self.version += 1
            self._rng = None
            if self.root.status == _ENDED:
                raise Refused("the conflict has ended")
            if actor is not None and not self.state.participants[actor].active:
                raise Refused(f"{actor} is out of the conflict")
            getattr(self, "do_" + verb.replace("-", "_"))(actor, a)
        return self.root

    # --- dice
    @property
    def rng(self) -> DiceRng:
        """This command's generator (derived on first use, as the engine's)."""
        if self._rng is None:
            self._rng = DiceRng.derive(SEED, self.version)
        return self._rng

    def _successes(self, pool: int, dice: list[int] | None, rng: DiceRng | None = None) -> int:
        """Successes of a pool of ``pool`` dice: the table's ``dice``, else rolled (ES-ACT-4)
        from ``rng`` (by default the command's)."""
        s = self.state.settings
        size, least = s["die_size"], s["threshold"]
        if dice is None:
            dice = (rng or self.rng).dice(pool, size)
        elif len(dice) != pool or any(not 1 <= f <= size for f in dice):
            raise Refused(f"dice {dice} are not {pool}d{size}")
        return sum(f >= least for f in dice)

    def _pool(self, pid: str, skill: str | None, a: dict[str, Any]) -> int:
        """Successes of ``pid``'s pool for ``skill``, or given at the table (ES-ACT-4)."""
        pool = a.get("pool")
        if pool is None:
            pool = pool_size(self.state, pid, skill)
        if pool < 0:
            raise Refused("a pool has at least 0 dice")
        dice, given = a.get("dice"), a.get("successes")
        if given is not None:
            if dice is not None or given < 0:
                raise Refused("successes")
            return int(given)
        if pool == 0:
            if dice:
                raise Refused("a pool of 0 dice takes no dice")
            return 0
        return self._successes(pool, dice)

    def _ranked(self, tied: list[str], table: dict[str, list[int]], score: int | None = None
                ) -> list[str]:
        """``tied`` (at initiative ``score``; None: the awareness moves) by kept awareness,
        then roll-offs of the awareness pool, each character's dice from a generator of its
        own, as the engine's (ES-ROUND-5)."""
        streams: dict[str, DiceRng] = {}
        aware = self.ext.awareness
        by_score: dict[int, list[str]] = {}
        for pid in tied:
            by_score.setdefault(aware.get(pid, 0), []).append(pid)
        return [p for aw in sorted(by_score, reverse=True)
                for p in self._roll_off(by_score[aw], table, score, streams)]

    def _roll_off(self, group: list[str], table: dict[str, list[int]], score: int | None,
                  streams: dict[str, DiceRng]) -> list[str]:
        if len(group) < 2:
            return list(group)
        for _ in range(20):
            for p in group:
                if p not in streams:
                    streams[p] = DiceRng.derive(SEED, f"{self.version}/rolloff:{score}:{p}")
            result = {p: self._successes(max(1, awareness_pool(self.state, p)),
                                         table.pop(p, None), streams[p]) for p in group}
            levels = sorted(set(result.values()), reverse=True)
            if len(levels) > 1:
                return [q for lv in levels for q in self._roll_off(
                    [p for p in group if result[p] == lv], table, score, streams)]
        return sorted(group)

    # --- checks and changes every step shares
    def _target(self, actor: str, tid: str) -> str:
        """A target ``actor`` may name: present, seen, not itself, in play (ES-RNG-2)."""
        p = self.state.participants.get(tid)
        if p is None or self.ext.ranges.is_hidden(tid, actor) or tid == actor or not p.active:
            raise Refused(f"{actor} cannot target {tid}")
        return tid

    def _check_turn(self, actor: str, acted_ok: bool = False) -> None:
        """Only the character of the countdown's slot now acts, once (ES-ROUND-4)."""
        ext = self.ext
        cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
        if cur is None or cur.actor != actor or (ext.acted and not acted_ok):
            raise Refused(f"not {actor}'s turn")

    def _check_mover(self, actor: str) -> None:
        """Only the character whose awareness move it is moves (ES-START-5)."""
        ext = self.ext
        if ext.phase != ph.MOVES or not 0 <= ext.mover < len(ext.move_order) \
                or ext.move_order[ext.mover] != actor:
            raise Refused(f"not {actor}'s awareness move")

    def _leave_group(self, group: str, pid: str) -> None:
        members = self.ext.groups.get(group)
        if members is None:
            return
        if pid in members:
            members.remove(pid)
        if len(members) < 2:
            del self.ext.groups[group]

    def _group_break(self, mover: str, targets: list[str]) -> None:
        """A member who changed its range alone leaves its group (ES-START-6)."""
        g = group_of(self.ext, mover)
        if g is not None and targets:
            self._leave_group(g, mover)

    def _out(self, p: Participant, reason: str) -> None:
        p.out = reason
        self.ext.countdown.remove(p.id)
        for g in [g for g, members in self.ext.groups.items() if p.id in members]:
            self._leave_group(g, p.id)

    def _damage(self, pid: str, amount: int) -> None:
        """Damage to the conflict's condenser; out at 0 (ES-DMG-1)."""
        p = self.state.participants[pid]
        kind = condenser_of(self.state.settings)
        pool = self.ext.condenser[pid].get(kind)
        if amount <= 0 or not p.active or pool is None or pool.current <= 0:
            return
        pool.damage(amount)
        if pool.current == 0:
            self._out(p, f"{kind} condenser at 0")

    def _next_mover(self, after: int) -> None:
        """The next in the awareness order with someone still to move against, else the
        moves are over (ES-START-5)."""
        ext, ps = self.ext, self.state.participants
        order = ext.move_order
        for i in range(after + 1, len(order) - 1):
            if ps[order[i]].active and any(ps[p].active for p in order[i + 1:]):
                ext.mover, ext.stepped = i, []
                return
        ext.phase, ext.mover, ext.stepped = ph.READY, len(order), []

    def _end_turn(self) -> None:
        """The next slot in play acts, or the round ends (ES-ROUND-4)."""
        ext, ps = self.ext, self.state.participants
        cd = ext.countdown
        for i in range(cd.position + 1, len(cd.queue)):
            if ps[cd.queue[i].actor].active:
                cd.position, ext.acted = i, False
                return
        self._round_ended()

    def _round_ended(self) -> None:
        """Between rounds; at the round limit back from a zoom, or the end (ES-ACT-1)."""
        st, ext = self.state, self.ext
        ext.phase = ph.READY
        ext.countdown.position = len(ext.countdown.queue)
        limit = st.round_limit
        if limit is not None and st.round >= limit:
            if st.depth > 0:
                self._close_zoom()
            else:
                st.status, st.end_reason, st.outcome = _ENDED, f"{limit} rounds played", None

    def _close_zoom(self) -> None:
        """Back to the conflict around this one, with its damage, outs and ranges."""
        parent = self.root.chain()[-2]
        assert parent.zoom is not None
        _RULESET.merge_zoom(parent, parent.zoom)
        parent.zoom = None
        self._enter(parent)

    # --- the start (ES-START-*)
    def do_awareness(self, actor: str, a: dict[str, Any]) -> None:
        ext = self.ext
        if ext.phase != ph.START or actor in ext.awareness:
            raise Refused("awareness is rolled once, at the start")
        ext.awareness[actor] = self._pool(
            actor, a.get("skill") or self.state.settings["awareness_skill"], a)

    def do_ambush(self, actor: str, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        ranges = ext.ranges
        if ext.phase != ph.START:
            raise Refused("ambushes are at the start")
        targets = expand(st, a["targets"])
        tried = ext.ambushed.get(actor, [])
        if actor in targets or any(ranges.is_hidden(t, actor) or t in tried for t in targets):
            raise Refused("ambush targets")
        counters = dice_by_character(a.get("counter"), targets, "counter", "ES-START-2")
        mine = self._pool(actor, a.get("skill"), a)
        aware = st.settings["awareness_skill"]
        results = [(t, mine > self._pool(t, aware, {"dice": counters.get(t)}))
                   for t in targets]
        tried = ext.ambushed.setdefault(actor, [])
        for t, ambushed in results:
            tried.append(t)
            if ambushed:
                ranges.hide(actor, t)
            else:
                ranges.reveal(actor, t)

    def do_set_range(self, actor: str | None, a: dict[str, Any]) -> None:
        st = self.state
        firsts, seconds = expand(st, a["a"]), expand(st, a["b"])
        pairs = [(x, y) for x in firsts for y in seconds]
        if any(x == y for x, y in pairs):
            raise Refused("no range to itself")
        band = BANDS.index(a["band"])
        for x, y in pairs:
            self.ext.ranges.set(x, y, band)

    def do_moves(self, actor: str | None, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        if ext.phase != ph.START:
            raise Refused("the moves have begun")
        ids = st.active_ids()
        aware = ext.awareness
        if any(p not in aware for p in ids):
            raise Refused("everyone rolls awareness first")
        table = dice_by_character(a.get("rolloff"), ids, "rolloff", "ES-ROUND-5")
        order = [q for aw in sorted({aware[p] for p in ids}, reverse=True)
                 for q in self._ranked([p for p in ids if aware[p] == aw], table)]
        if table:
            raise Refused("roll-off dice for no tie")
        ext.phase, ext.move_order, ext.mover = ph.MOVES, order, -1
        self._next_mover(-1)

    def do_step(self, actor: str, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        ranges = ext.ranges
        self._check_mover(actor)
        delta = -1 if a["way"] == "toward" else 1
        named = a["targets"]
        targets = [x for x in expand(st, named)
                   if x in named or not ranges.is_hidden(x, actor)]
        later = ext.move_order[ext.mover + 1:]
        for t in targets:
            if t not in later or t in ext.stepped:
                raise Refused(f"no step against {t}")
            ranges.check_step(actor, t, delta, "ES-RNG-4", "ES-RNG-5")
        for members in ext.groups.values():
            if actor in members:
                continue
            inside = [m for m in members if m in targets]
            if inside and len(inside) != sum(m in later and not ranges.is_hidden(m, actor)
                                             for m in members):
                raise Refused("a group is moved against whole")
        for t in targets:
            ranges.set(actor, t, ranges.get(actor, t) + delta)
            if t not in ext.stepped:
                ext.stepped.append(t)
        self._group_break(actor, targets)

    def do_done(self, actor: str, a: dict[str, Any]) -> None:
        if self.ext.phase == ph.MOVES:
            self._check_mover(actor)
            self._next_mover(self.ext.mover)
            return
        self._check_turn(actor, acted_ok=True)
        self._end_turn()

    # --- rounds (ES-ROUND-*)
    def do_round(self, actor: str | None, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        if ext.phase != ph.READY:
            raise Refused("not between rounds")
        if st.status == _SETUP:
            st.status = _RUNNING
        kind = condenser_of(st.settings)
        ext.base = {p.id: ext.condenser[p.id][kind].current
                    for p in st.participants.values() if p.active}
        st.round += 1
        ext.phase = ph.DECLARE
        ext.countdown.new_round()
        ext.defaulted, ext.acted = [], False

    def do_declare(self, actor: str, a: dict[str, Any]) -> None:
        ext = self.ext
        scores = list(a["scores"])
        if ext.phase != ph.DECLARE or actor not in ext.base or len(set(scores)) != len(scores):
            raise Refused(f"{actor} cannot declare {scores}")
        ext.countdown.check_declare(actor, scores, ext.base[actor],
                                    self.state.settings["min_gap"], "ES-ROUND-2", "ES-ROUND-3",
                                    "ES-ROUND-2", rule_started="ES-ROUND-7")
        ext.countdown.declare(actor, scores)

    def do_countdown(self, actor: str | None, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        ps, cd = st.participants, ext.countdown
        if ext.phase != ph.DECLARE:
            raise Refused("no round to count down")
        decl = {x: list(s) for x, s in cd.declarations.items() if ps[x].active}
        defaults = [p.id for p in ps.values()
                    if p.active and p.id not in decl and ext.base.get(p.id, 0) > 0]
        for pid in defaults:
            decl[pid] = [ext.base[pid]]
        table = dice_by_character(a.get("rolloff"), list(decl), "rolloff", "ES-ROUND-5")
        order: list[Slot] = []
        for group in tie_groups(sorted((Slot(x, s) for x, scores in decl.items()
                                        for s in scores), key=lambda s: -s.score)):
            if len(group) == 1:
                order.append(group[0])
            else:
                order += [Slot(x, group[0].score)
                          for x in self._ranked([s.actor for s in group], table,
                                                group[0].score)]
        if table:
            raise Refused("roll-off dice for no tie")
        for pid in defaults:
            cd.declare(pid, decl[pid])
            if pid not in ext.defaulted:
                ext.defaulted.append(pid)
        ext.phase = ph.COUNTDOWN
        cd.start(order)
        if order:
            ext.acted = False
        else:
            self._round_ended()

    # --- actions (ES-ACT-*, ES-DMG-*, ES-RNG-*)
    def _roll_action(self, verb: str, actor: str, a: dict[str, Any]) -> int | None:
        """The extra successes of ``actor``'s roll against the difficulty; None: failed."""
        s = self.state.settings
        conf = s["actions"].get(verb, _NO_ACTION)
        raw = a.get("difficulty")
        if raw is None:
            raw = conf.get("difficulty")
        difficulty = int(s["default_difficulty"] if raw is None else raw)
        if difficulty < 0:
            raise Refused("difficulty below 0")
        successes = self._pool(actor, a.get("skill") or conf.get("skill") or None, a)
        return successes - difficulty if successes >= difficulty else None

    def _finish(self, actor: str, a: dict[str, Any], gain: int = 0) -> None:
        """The action is resolved: off-nature damage (ES-SET-3; reckoned, as the engine does,
        on the condenser before a recovery's ``gain``), the gain, then the next slot."""
        s = self.state.settings
        self.ext.acted = True
        if (a.get("nature") or s["nature"]) != s["nature"]:
            self._damage(actor, s["off_nature_damage"])
        if gain:
            self.ext.condenser[actor][condenser_of(s)].heal(gain)
        self._end_turn()

    def _cost(self) -> int:
        return max(1, int(self.state.settings["extra_cost"]))

    def do_attack(self, actor: str, a: dict[str, Any]) -> None:
        self._check_turn(actor)
        t = self._target(actor, a["target"])
        extra = self._roll_action("attack", actor, a)
        if extra is not None:
            self._damage(t, self.state.settings["attack_damage"] + extra // self._cost())
        self._finish(actor, a)

    def _push_sides(self, actor: str, a: dict[str, Any]) -> tuple[list[str], list[str]]:
        st = self.state
        toward = expand(st, a.get("toward") or [])
        away = expand(st, a.get("away") or []) if a.get("away") or a.get("toward") else [actor]
        if any(x in away for x in toward) or any(self.ext.ranges.is_hidden(x, actor)
                                                 for x in (*toward, *away)):
            raise Refused("push sides")
        return toward, away

    def do_push(self, actor: str, a: dict[str, Any]) -> None:
        s, ext = self.state.settings, self.ext
        self._check_turn(actor)
        t = self._target(actor, a["target"])
        toward, away = self._push_sides(actor, a)
        extra = self._roll_action("push", actor, a)
        if extra is not None:
            ranges = ext.ranges
            ways = [*((x, -1) for x in toward), *((x, 1) for x in away)]
            steps, left = 1, extra
            if (a.get("two") and left >= s["push_two_cost"]
                    and any(x != t and 0 <= ranges.get(t, x) + 2 * w <= 2 for x, w in ways)):
                steps, left = 2, left - s["push_two_cost"]
            n = min(a.get("damage") or 0, left // self._cost())
            moved_from = []
            for x, way in ways:
                if x != t:
                    was = ranges.get(t, x)
                    band = min(2, max(0, was + steps * way))
                    if band != was:
                        ranges.set(t, x, band)
                        moved_from.append(x)
            if moved_from:  # the target, and those it moved from without their group
                g = group_of(ext, t)
                if g:
                    self._leave_group(g, t)
                named = {x for x, _ in ways}
                for x in moved_from:
                    g = group_of(ext, x)
                    if g and not {m for m in ext.groups[g] if m != t
                                  and not ranges.is_hidden(m, actor)} <= named:
                        self._leave_group(g, x)
            self._damage(t, n * s["push_damage_per_extra"])
        self._finish(actor, a)

    def do_move(self, actor: str, a: dict[str, Any]) -> None:
        ranges = self.ext.ranges
        self._check_turn(actor)
        delta = -1 if a["way"] == "toward" else 1
        targets = expand(self.state, a["targets"])
        for t in targets:
            self._target(actor, t)
            ranges.check_step(actor, t, delta, "ES-RNG-4", "ES-RNG-5")
        if self._roll_action("move", actor, a) is not None:
            for t in targets:
                ranges.set(actor, t, ranges.get(actor, t) + delta)
            self._group_break(actor, targets)
        self._finish(actor, a)

    def do_hide(self, actor: str, a: dict[str, Any]) -> None:
        st = self.state
        self._check_turn(actor)
        side = st.participants[actor].side  # by default, from the other sides
        targets = expand(st, a["from"]) if a.get("from") else [
            p for p in st.active_ids()
            if p != actor and (side is None or st.participants[p].side != side)]
        if self._roll_action("hide", actor, a) is not None:
            for x in targets:
                self.ext.ranges.hide(actor, x)
        self._finish(actor, a)

    def do_search(self, actor: str, a: dict[str, Any]) -> None:
        self._check_turn(actor)
        extra = self._roll_action("search", actor, a)
        if extra is not None:
            ranges = self.ext.ranges
            hidden = sorted((p for p in self.state.active_ids() if ranges.is_hidden(p, actor)),
                            key=lambda p: (ranges.get(actor, p), p))
            band = None if a.get("band") is None else BANDS.index(a["band"])
            for p in hidden[:1 + extra // self._cost()]:
                ranges.reveal(p, actor, band)
        self._finish(actor, a)

    def do_recover(self, actor: str, a: dict[str, Any]) -> None:
        s = self.state.settings
        self._check_turn(actor)
        extra = self._roll_action("recover", actor, a)
        pool = self.ext.condenser[actor][condenser_of(s)]
        gain = 0 if extra is None else min(s["recover_amount"] + extra // self._cost(),
                                           pool.maximum - pool.current)
        self._finish(actor, a, gain)

    def do_act(self, actor: str, a: dict[str, Any]) -> None:
        self._check_turn(actor)
        t = self._target(actor, a["target"]) if a.get("target") else None
        extra = self._roll_action("act", actor, a)
        if extra is not None and t is not None and a.get("hurt"):
            self._damage(t, int(a["hurt"]))
        self._finish(actor, a)

    # --- zooming in (ES-ACT-1/2) and out
    def do_zoom(self, actor: str, a: dict[str, Any]) -> None:
        st, ext = self.state, self.ext
        s = st.settings
        who = expand(st, a["who"])
        if actor not in who:
            who = [actor, *who]
        for w in who:
            if w != actor:
                self._target(actor, w)
        inner = faster(s["time_scale"])
        if inner is None:
            raise Refused("a Fast conflict cannot zoom in")
        self._check_turn(actor)
        settings = copy.deepcopy(s)
        settings["time_scale"] = inner
        if a.get("scaling"):
            settings["range_scaling"] = a["scaling"]
            settings.pop("custom_scaling", None)
        settings["groups"], settings["lurking"] = {}, {}
        hidden = {h: [x for x in xs if x in who] for h, xs in ext.ranges.hidden.items()
                  if h in who}
        child = _RULESET.zoom_state(st, {
            "reason": a.get("reason") or f"{st.participants[actor].name} zooms in",
            "opened_by": actor, "participants": who, "round_limit": s["zoom_rounds"],
            "depth": st.depth + 1, "settings": settings,
            "awareness": {w: ext.awareness.get(w, 0) for w in who},
            "bands": {k: v for k, v in ext.ranges.bands.items()
                      if all(x in who for x in k.split("|"))},
            "hidden": {h: xs for h, xs in hidden.items() if xs},
            "start": bool(a.get("start"))})
        st.zoom = child
        ext.acted = True
        child.concealed = [p for p in st.concealed if p in child.participants]
        self._enter(child)

    def do_end(self, actor: str | None, a: dict[str, Any]) -> None:
        st = self.state
        if st.depth > 0:
            self._close_zoom()
        else:
            st.status, st.end_reason, st.outcome = _ENDED, a["reason"], a.get("outcome") or None
