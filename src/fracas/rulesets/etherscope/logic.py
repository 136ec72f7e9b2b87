"""Etherscope ``decide``: set-up steps, awareness moves, rounds, actions, zoom and damage.

Every function here is pure: it reads the state and returns events, or raises a typed error
naming the rule. The state changes only in :mod:`.evolve`.
"""

from __future__ import annotations

import copy
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.components import Slot, tie_groups
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    CONFLICT_STARTED,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    ZOOM_OPENED,
    Event,
)
from fracas.engine.model import ConflictState, Status, Viewer
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.rolls import break_ties, pool_roll
from fracas.rulesets.etherscope.settings import BANDS, condenser_of, faster
from fracas.rulesets.etherscope.state import EsExt

Events = list[Event]


def ext_of(state: ConflictState) -> EsExt:
    """The Etherscope part of ``state``."""
    ext: EsExt = state.ext
    return ext


def name(state: ConflictState, pid: str | None) -> str:
    """A participant's display name."""
    if pid is None:
        return "the GM"
    p = state.participants.get(pid)
    return p.name if p else pid


def names(state: ConflictState) -> dict[str, str]:
    """id → display name, for component error messages."""
    return {p.id: p.name for p in state.participants.values()}


def active(state: ConflictState, pid: str) -> bool:
    """Whether ``pid`` is still taking part."""
    p = state.participants.get(pid)
    return p is not None and p.active


def unknown_to(state: ConflictState, author: Viewer | None, pid: str) -> bool:
    """Whether ``pid`` is hidden from every character of a player ``author`` (ES-RNG-6): to
    that player it does not exist, so a command naming it is refused as naming no one."""
    if author is None or author.is_gm or author.player is None or state.ext is None:
        return False
    mine = state.owned_by(author.player)
    ranges = ext_of(state).ranges
    return pid not in mine and all(ranges.is_hidden(pid, m) for m in mine)


def expand(state: ConflictState, ids: list[str], what: str = "", *,
           author: Viewer | None = None) -> list[str]:
    """Participant ids with group names replaced by their members (ES-START-6).

    For a player ``author``, characters hidden from all of theirs are unknown names (ES-RNG-6):
    the error lists only the participants and groups that player may know of.
    """
    ext = ext_of(state)

    def known(pid: str) -> bool:
        return pid in state.participants and not unknown_to(state, author, pid)

    out: list[str] = []
    for i in ids:
        members = [m for m in ext.groups.get(i, [i]) if known(m)]
        if not members:
            seen = [p for p in state.participants if known(p)]
            groups = [g for g, ms in ext.groups.items() if sum(map(known, ms)) > 1
                      or author is None or author.is_gm]
            raise InvalidInput(f"{what}no participant or group {i!r} (known: "
                               f"{', '.join([*seen, *groups])})", participant=i)
        for m in members:
            if not active(state, m):
                raise IllegalCommand(f"{name(state, m)} is no longer in the conflict",
                                     participant=m)
            if m not in out:
                out.append(m)
    return out


def group_of(ext: EsExt, pid: str) -> str | None:
    """The group ``pid`` stands in, if any."""
    for g, members in ext.groups.items():
        if pid in members:
            return g
    return None


def current_condenser(state: ConflictState, pid: str) -> int:
    """``pid``'s current value of the conflict's condenser (ES-ROUND-1)."""
    pools = ext_of(state).condenser.get(pid, {})
    pool = pools.get(condenser_of(state.settings))
    return pool.current if pool else 0


# --------------------------------------------------------------------------- damage

def damage_events(
    state: ConflictState, pid: str, amount: int, reason: str, source: str | None,
    pending: dict[str, int],
) -> Events:
    """Damage to the conflict's condenser (ES-DMG-1), and ``participant_out`` at 0."""
    if amount <= 0 or not active(state, pid):
        return []
    kind = condenser_of(state.settings)
    before = current_condenser(state, pid) - pending.get(pid, 0)
    if before <= 0:
        return []
    after = max(0, before - amount)
    pending[pid] = pending.get(pid, 0) + (before - after)
    out = [Event(ev.DAMAGE, {"participant": pid, "amount": amount, "condenser": kind,
                             "left": after, "reason": reason, "source": source})]
    if after == 0:
        out.append(Event(PARTICIPANT_OUT, {"participant": pid,
                                           "reason": f"{kind} condenser at 0"}))
    return out


# --------------------------------------------------------------------------- start

def decide_awareness(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-START-1: the awareness roll, kept for the whole conflict."""
    ext, actor = ext_of(state), _actor(cmd)
    if ext.phase != ph.START:
        raise IllegalCommand("awareness is rolled at the start of the conflict, before the "
                             "awareness moves", rule="ES-START-1")
    if actor in ext.awareness:
        raise IllegalCommand(
            f"{name(state, actor)} already rolled awareness ({ext.awareness[actor]} "
            "successes); it is kept for the whole conflict", rule="ES-START-1")
    skill = cmd.args.get("skill") or state.settings["awareness_skill"]
    result = pool_roll(state, ctx, actor, skill, cmd.args)
    return [Event(ev.AWARENESS, {"participant": actor, **result}, actor=actor)]


def decide_ambush(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-START-2, ES-START-4: an ambush opposed by each target's counter roll."""
    ext, actor = ext_of(state), _actor(cmd)
    if ext.phase != ph.START:
        raise IllegalCommand("ambushes are attempted at the start of the conflict",
                             rule="ES-START-2")
    targets = expand(state, cmd.args["targets"], author=ctx.author)
    if actor in targets:
        raise InvalidInput(f"{name(state, actor)} cannot ambush itself", rule="ES-START-2")
    unseen = [t for t in targets if ext.ranges.is_hidden(t, actor)]
    if unseen:
        raise IllegalCommand(
            f"{name(state, unseen[0])} is hidden from {name(state, actor)}; a hidden character "
            "can only be targeted by an action to reveal it", rule="ES-RNG-2",
            target=unseen[0])
    tried = [t for t in targets if t in ext.ambushed.get(actor, [])]
    if tried:
        raise IllegalCommand(f"{name(state, actor)} already tried to ambush "
                             f"{', '.join(name(state, t) for t in tried)}", rule="ES-START-2")
    counters = _counter_dice(cmd.args.get("counter"), targets, "counter", "ES-START-2")
    mine = pool_roll(state, ctx, actor, cmd.args.get("skill"), cmd.args)
    results = []
    for t in targets:
        c = pool_roll(state, ctx, t, state.settings["awareness_skill"],
                     {"dice": counters.get(t)})
        results.append({"target": t, **c, "ambushed": mine["successes"] > c["successes"]})
    return [Event(ev.AMBUSH, {"ambusher": actor, "roll": mine, "targets": results},
                  actor=actor)]


def _counter_dice(raw: str | None, targets: list[str], key: str, rule: str
                  ) -> dict[str, list[int]]:
    """Table dice per character: ``ada:5,6,2/bruno:3,1``."""
    out: dict[str, list[int]] = {}
    if not raw:
        return out
    for part in raw.split("/"):
        who, _, dice = part.partition(":")
        if who not in targets or not dice:
            raise InvalidInput(f"{key}={raw}: write ID:DICE/ID:DICE for "
                               f"{', '.join(targets) or 'nobody'}", rule=rule)
        try:
            out[who] = [int(d) for d in dice.split(",")]
        except ValueError:
            raise InvalidInput(f"{key}={raw}: {dice!r} are not dice", rule=rule) from None
    return out


def _table_rolloffs(state: ConflictState, cmd: Command, ids: list[str]
                    ) -> dict[str, list[int]]:
    """``rolloff=ada:5,6/bruno:2,1``: awareness roll-off dice rolled at the table."""
    return _counter_dice(cmd.args.get("rolloff"), ids, "rolloff", "ES-ROUND-5")


def _check_rolloffs_used(state: ConflictState, table: dict[str, list[int]]) -> None:
    if table:
        who = ", ".join(name(state, p) for p in table)
        raise InvalidInput(f"rolloff= gives dice for {who}, who rolls off in no tie now",
                           rule="ES-ROUND-5")


def decide_set_range(state: ConflictState, cmd: Command) -> Events:
    """ES-START-3: the GM sets the range between characters (or groups)."""
    ext = ext_of(state)
    a_ids, b_ids = expand(state, cmd.args["a"]), expand(state, cmd.args["b"])
    band = BANDS.index(cmd.args["band"])
    out = []
    for a in a_ids:
        for b in b_ids:
            if a == b:
                raise InvalidInput(f"{name(state, a)} has no range to itself",
                                   rule="ES-START-3")
            was = ext.ranges.bands.get(_key(a, b))
            out.append(Event(ev.RANGE_SET, {"a": a, "b": b, "band": band, "was": was,
                                            "by": "gm"}))
    return out


def decide_group(state: ConflictState, cmd: Command) -> Events:
    """ES-START-6: a GM group of characters who stand together."""
    ext = ext_of(state)
    g = cmd.args["name"]
    if cmd.verb == "ungroup":
        if g not in ext.groups:
            raise InvalidInput(f"no group {g!r} (groups: {', '.join(ext.groups) or 'none'})",
                               rule="ES-START-6")
        return [Event(ev.GROUP_DISSOLVED, {"group": g})]
    if g in state.participants or g in ext.groups:
        raise InvalidInput(f"{g!r} is already a participant or a group", rule="ES-START-6")
    members = expand(state, cmd.args["members"])
    if len(members) < 2:
        raise InvalidInput("a group needs at least two members", rule="ES-START-6")
    taken = [m for m in members if group_of(ext, m)]
    if taken:
        raise IllegalCommand(f"{name(state, taken[0])} already stands in group "
                             f"{group_of(ext, taken[0])}", rule="ES-START-6")
    return [Event(ev.GROUP_FORMED, {"group": g, "members": members})]


def decide_reveal(state: ConflictState, cmd: Command) -> Events:
    """ES-RNG-3: the GM reveals a hidden character (optionally into a new band)."""
    ext, who = ext_of(state), cmd.args["who"]
    state.participant(who)
    hidden_from = ext.ranges.hidden.get(who, [])
    targets = expand(state, cmd.args["from"]) if cmd.args.get("from") else list(hidden_from)
    targets = [t for t in targets if t in hidden_from]
    if not targets:
        raise IllegalCommand(f"{name(state, who)} is not hidden from them", rule="ES-RNG-3")
    band = cmd.args.get("band")
    return [Event(ev.REVEALED, {"participant": who, "from": targets,
                                "band": None if band is None else BANDS.index(band)})]


def decide_moves(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-START-5: fix the order of awareness moves (ties broken as ES-ROUND-5)."""
    ext = ext_of(state)
    if ext.phase != ph.START:
        raise IllegalCommand("the awareness moves have already begun", rule="ES-START-5")
    ids = state.active_ids()
    missing = [p for p in ids if p not in ext.awareness]
    if missing:
        raise IllegalCommand(
            "every character rolls awareness before the moves; still to roll: "
            + ", ".join(name(state, p) for p in missing), rule="ES-START-1")
    order: list[str] = []
    out: Events = []
    table = _table_rolloffs(state, cmd, ids)
    for aw in sorted({ext.awareness[p] for p in ids}, reverse=True):
        group = [p for p in ids if ext.awareness[p] == aw]
        records, ordered = break_ties(state, ctx, group, ext.awareness, None, table)
        out += [Event(ev.TIE, r) for r in records]
        order += ordered
    _check_rolloffs_used(state, table)
    out.append(Event(ev.MOVE_ORDER, {"order": order}))
    out += _next_mover(state, order, -1)
    return out


def _next_mover(state: ConflictState, order: list[str], after: int,
                gone: frozenset[str] = frozenset()) -> Events:
    def here(pid: str) -> bool:
        return active(state, pid) and pid not in gone

    for i in range(after + 1, len(order) - 1):
        if here(order[i]):
            against = [p for p in order[i + 1:] if here(p)]
            if against:
                return [Event(ev.MOVER, {"participant": order[i], "against": against})]
    return [Event(ev.MOVES_DONE, {})]


def decide_step(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-START-5, ES-START-6, ES-RNG-5: one awareness step against those yet to move."""
    ext, actor = ext_of(state), _actor(cmd)
    _check_mover(state, actor)
    delta = -1 if cmd.args["way"] == "toward" else 1
    named = cmd.args["targets"]
    targets = [x for x in expand(state, named, author=ctx.author)
               if x in named or not ext.ranges.is_hidden(x, actor)]
    later = ext.move_order[ext.mover + 1:]
    for t in targets:
        if t not in later:
            raise IllegalCommand(
                f"{name(state, actor)} may only move against those who have not had their "
                f"awareness move; {name(state, t)} has", rule="ES-START-5")
        if t in ext.stepped:
            raise IllegalCommand(f"{name(state, actor)} already stepped against "
                                 f"{name(state, t)} this move (one step each)",
                                 rule="ES-START-5")
        ext.ranges.check_step(actor, t, delta, "ES-RNG-4", "ES-RNG-5", names=names(state))
    for g, members in ext.groups.items():
        if actor in members:
            continue
        inside = [m for m in members if m in targets]
        eligible = [m for m in members if m in later and not ext.ranges.is_hidden(m, actor)]
        if inside and len(inside) != len(eligible):
            raise IllegalCommand(
                f"{', '.join(name(state, m) for m in eligible)} stand together (group {g}); "
                f"move against all of them: {cmd.args['way']} {g}", rule="ES-START-6")
    out = [Event(ev.RANGE_CHANGED, {"a": actor, "b": t, "band": ext.ranges.get(actor, t)
                                    + delta, "was": ext.ranges.get(actor, t), "by": actor,
                                    "why": "awareness move"}, actor=actor) for t in targets]
    return out + _group_breaks(state, actor, targets)


def _check_mover(state: ConflictState, actor: str) -> None:
    ext = ext_of(state)
    if ext.phase != ph.MOVES:
        raise IllegalCommand("it is not the time of the awareness moves", rule="ES-START-5")
    mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
    if actor != mover:
        if actor in ext.move_order and ext.move_order.index(actor) < ext.mover:
            why = f"{name(state, actor)}'s awareness move is over"
        else:
            why = f"{name(state, actor)} has not had its awareness move yet"
        raise NotYourTurn(f"{why}; {name(state, mover)} is moving now", rule="ES-START-5")


def _group_breaks(state: ConflictState, mover: str, targets: list[str]) -> Events:
    """A member who changed its range alone leaves its group (logged) (ES-START-6)."""
    ext = ext_of(state)
    g = group_of(ext, mover)
    if g is None or not targets:
        return []
    return [Event(ev.GROUP_LEFT, {"group": g, "participant": mover})]


def on_leave(state: ConflictState, pid: str) -> Events:
    """A character leaving or out mid-move or mid-turn passes the move or turn on."""
    ext = ext_of(state)
    if ext.phase == ph.MOVES and 0 <= ext.mover < len(ext.move_order) \
            and ext.move_order[ext.mover] == pid:
        return [Event(ev.MOVER_DONE, {"participant": pid}),
                *_next_mover(state, ext.move_order, ext.mover, frozenset({pid}))]
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur is not None and cur.actor == pid:
        return end_turn(state, {pid})
    return []


def decide_done(state: ConflictState, cmd: Command) -> Events:
    """End an awareness move, or a turn without (another) action."""
    ext, actor = ext_of(state), _actor(cmd)
    if ext.phase == ph.MOVES:
        _check_mover(state, actor)
        return [Event(ev.MOVER_DONE, {"participant": actor}, actor=actor),
                *_next_mover(state, ext.move_order, ext.mover)]
    _check_turn(state, actor, acted_ok=True)
    return end_turn(state)


# --------------------------------------------------------------------------- rounds

def decide_round(state: ConflictState) -> Events:
    """ES-ROUND-1: a new round; base initiative = the conflict's condenser now."""
    ext = ext_of(state)
    if ext.phase in (ph.START, ph.MOVES):
        raise IllegalCommand(
            "finish the start of the conflict first: roll awareness, set ranges, then "
            "`moves` and every awareness move", rule="ES-START-5")
    if ext.phase != ph.READY:
        raise IllegalCommand(f"round {state.round} is still going", rule="ES-ROUND-4")
    out: Events = []
    if state.status == Status.SETUP.value:
        out.append(Event(CONFLICT_STARTED, {}))
    base = {p: current_condenser(state, p) for p in state.active_ids()}
    out.append(Event(ROUND_STARTED, {"round": state.round + 1, "base": base,
                                     "condenser": condenser_of(state.settings)}))
    return out


def decide_declare(state: ConflictState, cmd: Command) -> Events:
    """ES-ROUND-2, ES-ROUND-3, ES-ROUND-7: validate and record acting initiatives."""
    ext, actor = ext_of(state), _actor(cmd)
    scores = list(cmd.args["scores"])
    if ext.phase != ph.DECLARE:
        when = {
            ph.START: "the conflict has not started: after awareness (and the awareness moves) "
                      "the GM starts a round with 'round'",
            ph.MOVES: "the awareness moves are not over; then the GM starts a round with "
                      "'round'",
            ph.READY: "no round is under way; the GM starts the next one with 'round'",
        }.get(ext.phase, "everyone declares before the countdown begins")
        raise IllegalCommand(f"{name(state, actor)} cannot declare now: {when}",
                             rule="ES-ROUND-7")
    if actor not in ext.base:
        raise IllegalCommand(f"{name(state, actor)} joined after the round began",
                             rule="ES-ROUND-7")
    if len(set(scores)) != len(scores):
        raise IllegalCommand(
            f"{name(state, actor)}'s acting initiatives {', '.join(map(str, scores))} repeat "
            f"a score; actions must be at least {state.settings['min_gap']} apart",
            rule="ES-ROUND-3")
    ext.countdown.check_declare(actor, scores, ext.base[actor], state.settings["min_gap"],
                                "ES-ROUND-2", "ES-ROUND-3", "ES-ROUND-2",
                                rule_started="ES-ROUND-7", names=names(state))
    return [Event(ev.DECLARED, {"participant": actor, "scores": sorted(scores, reverse=True),
                                "base": ext.base[actor]}, actor=actor)]


def decide_countdown(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-ROUND-4, ES-ROUND-5, ES-ROUND-7: defaults, ties, then the first turn."""
    ext = ext_of(state)
    if ext.phase != ph.DECLARE:
        raise IllegalCommand("the countdown starts once a round has begun and everyone has "
                             "declared", rule="ES-ROUND-4")
    out: Events = []
    decl = {a: list(s) for a, s in ext.countdown.declarations.items() if active(state, a)}
    for pid in state.active_ids():
        if pid not in decl and ext.base.get(pid, 0) > 0:
            decl[pid] = [ext.base[pid]]
            out.append(Event(ev.DECLARED, {"participant": pid, "scores": [ext.base[pid]],
                                           "base": ext.base[pid], "default": True}, actor=pid))
    slots = [Slot(a, s) for a, scores in decl.items() for s in scores]
    table = _table_rolloffs(state, cmd, list(decl))
    order: list[list[Any]] = []
    for group in tie_groups(sorted(slots, key=lambda s: -s.score)):
        if len(group) == 1:
            order.append([group[0].actor, group[0].score])
            continue
        records, ranked = break_ties(state, ctx, [s.actor for s in group], ext.awareness,
                                     group[0].score, table)
        out += [Event(ev.TIE, r) for r in records]
        order += [[a, group[0].score] for a in ranked]
    _check_rolloffs_used(state, table)
    out.append(Event(ev.COUNTDOWN, {"order": order}))
    if order:
        out.append(Event(TURN_STARTED, {"participant": order[0][0], "score": order[0][1]}))
    else:
        out.append(Event(ROUND_ENDED, {"round": state.round}))
    return out


def _check_turn(state: ConflictState, actor: str, *, acted_ok: bool = False) -> None:
    ext = ext_of(state)
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur is None or cur.actor != actor:
        now = f"it is {name(state, cur.actor)}'s turn at {cur.score}" if cur else \
            "no countdown is under way"
        raise NotYourTurn(f"{name(state, actor)} does not act now; {now}", rule="ES-ROUND-4")
    if ext.acted and not acted_ok:
        raise IllegalCommand(f"{name(state, actor)} has resolved this action; `done` ends "
                             "the turn", rule="ES-ROUND-4")


def end_turn(state: ConflictState, outs: set[str] | None = None) -> Events:
    """``turn_ended`` and the next ``turn_started`` (or ``round_ended``)."""
    ext = ext_of(state)
    cur = ext.countdown.current
    assert cur is not None
    gone = outs or set()
    out = [Event(TURN_ENDED, {"participant": cur.actor})]
    for i in range(ext.countdown.position + 1, len(ext.countdown.queue)):
        slot = ext.countdown.queue[i]
        if active(state, slot.actor) and slot.actor not in gone:
            return [*out, Event(TURN_STARTED, {"participant": slot.actor,
                                               "score": slot.score})]
    return [*out, Event(ROUND_ENDED, {"round": state.round})]


# --------------------------------------------------------------------------- actions

def _target(state: ConflictState, actor: str, tid: str, ctx: DecideContext) -> str:
    """A target the actor may name: present, not itself, not hidden from it (ES-RNG-2)."""
    ext = ext_of(state)
    hidden = tid in state.participants and ext.ranges.is_hidden(tid, actor)
    if tid not in state.participants or (hidden and not ctx.author.is_gm):
        raise IllegalCommand(f"{name(state, actor)} sees no {tid!r} to target",
                             rule="ES-RNG-2", target=tid)
    if hidden:
        raise IllegalCommand(
            f"{name(state, tid)} is hidden from {name(state, actor)}; a hidden character can "
            "only be targeted by an action to reveal it", rule="ES-RNG-2", target=tid)
    if tid == actor:
        raise InvalidInput(f"{name(state, actor)} cannot target itself", target=tid)
    if not active(state, tid):
        raise IllegalCommand(f"{name(state, tid)} is no longer in the conflict", target=tid)
    return tid


def decide_action(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-ACT-3..6: describe, roll against the difficulty, spend extras, narrate effects."""
    ext, actor, a, verb = ext_of(state), _actor(cmd), cmd.args, cmd.verb
    _check_turn(state, actor)
    s = state.settings
    # validate targets before rolling
    targets: list[str] = []
    if verb in ("push", "attack") or (verb == "act" and a.get("target")):
        targets = [_target(state, actor, a["target"], ctx)]
    elif verb == "move":
        targets = expand(state, a["targets"], author=ctx.author)
        for t in targets:
            _target(state, actor, t, ctx)
            ext.ranges.check_step(actor, t, -1 if a["way"] == "toward" else 1, "ES-RNG-4",
                                  "ES-RNG-5", names=names(state))
    elif verb == "hide":
        targets = expand(state, a["from"], author=ctx.author) if a.get("from") else \
            [p for p in state.active_ids() if p != actor]
    if verb == "push":
        _push_sides(state, actor, a, ctx)
    conf = s["actions"].get(verb, {"skill": "", "difficulty": None})
    skill = a.get("skill") or conf.get("skill") or None
    raw = a.get("difficulty")
    if raw is None:
        raw = conf.get("difficulty")
    difficulty: int = int(s["default_difficulty"] if raw is None else raw)
    if difficulty < 0:
        raise InvalidInput(f"difficulty {difficulty} is below 0", rule="ES-ACT-4")
    result = pool_roll(state, ctx, actor, skill, a)
    successes = result["successes"]
    success = successes >= difficulty
    extra = successes - difficulty if success else 0
    nature = a.get("nature") or s["nature"]
    data: dict[str, Any] = {
        "action": verb, "actor": actor, "targets": targets, "difficulty": difficulty,
        **result, "success": success, "extra": extra, "nature": nature,
    }
    for key in ("toward", "away"):
        if a.get(key):
            data[key] = list(a[key])
    if verb == "act":
        data["name"] = a["name"]
        if a.get("extras"):
            data["extras_text"] = a["extras"]
    for key in ("say", "effect"):
        if a.get(key):
            data[key] = a[key]
    pending: dict[str, int] = {}
    effects: Events = []
    spent: dict[str, int] = {}
    if success:
        effects, spent = _effects(state, verb, actor, targets, extra, a, pending, ctx)
    data["spent"] = spent
    data["unspent"] = extra - sum(spent.values())
    if verb == "push" and success:  # extras asked for but not paid for are said so
        short = []
        if a.get("two") and "two" not in spent:
            short.append("two categories")
        wanted = int(a.get("damage") or 0)
        bought = spent.get("damage", 0) // max(1, s["extra_cost"])
        if wanted > bought:
            short.append(f"damage {wanted} (bought {bought})")
        if short:
            data["not_bought"] = short
    out = [Event(ev.ACTION, data, actor=actor), *effects]
    if nature != s["nature"]:
        out += damage_events(state, actor, s["off_nature_damage"],
                             f"acting {nature} in a {s['nature']} conflict", None, pending)
    outs = {e.data["participant"] for e in out if e.type == PARTICIPANT_OUT}
    return out + end_turn(state, outs)


def _push_sides(state: ConflictState, actor: str, a: dict[str, Any], ctx: DecideContext
                ) -> tuple[list[str], list[str]]:
    """Push Back's ``toward=`` and ``away=`` characters (default: away from the actor only),
    refused when one is named twice or is hidden from the actor (ES-ACT-5, ES-RNG-2)."""
    ext = ext_of(state)
    toward = expand(state, a.get("toward") or [], author=ctx.author)
    away = expand(state, a.get("away") or [], author=ctx.author) \
        if a.get("away") or a.get("toward") else [actor]
    both = [x for x in toward if x in away]
    if both:
        raise InvalidInput(
            f"{name(state, both[0])} is in both toward= and away=; push the target toward or "
            "away from each character, not both", rule="ES-ACT-5", participant=both[0])
    unseen = [x for x in [*toward, *away] if ext.ranges.is_hidden(x, actor)]
    if unseen:
        raise IllegalCommand(
            f"{name(state, unseen[0])} is hidden from {name(state, actor)}, who cannot push "
            "anyone toward or away from it (ES-RNG-2)", rule="ES-RNG-2", participant=unseen[0])
    return toward, away


def _effects(
    state: ConflictState, verb: str, actor: str, targets: list[str], extra: int,
    a: dict[str, Any], pending: dict[str, int], ctx: DecideContext,
) -> tuple[Events, dict[str, int]]:
    s, ext = state.settings, ext_of(state)
    cost = max(1, s["extra_cost"])
    spent: dict[str, int] = {}
    out: Events = []
    if verb == "attack":
        n = extra // cost
        spent["damage"] = n * cost
        out += damage_events(state, targets[0], s["attack_damage"] + n, "attack", actor,
                             pending)
    elif verb == "push":
        left = extra
        steps = 1
        if a.get("two") and left >= s["push_two_cost"]:
            steps, left = 2, left - s["push_two_cost"]
            spent["two"] = s["push_two_cost"]
        want = a.get("damage") or 0
        n = min(want, left // cost)
        if n:
            spent["damage"] = n * cost
        t = targets[0]
        toward, away = _push_sides(state, actor, a, ctx)
        for x, delta in [*((x, -steps) for x in toward), *((x, steps) for x in away)]:
            if x == t:
                continue
            was = ext.ranges.get(t, x)
            band = min(2, max(0, was + delta))
            if band != was:
                out.append(Event(ev.RANGE_CHANGED, {"a": t, "b": x, "band": band, "was": was,
                                                    "by": actor, "why": "push back"}))
        g = group_of(ext, t)
        if g and out:
            out.append(Event(ev.GROUP_LEFT, {"group": g, "participant": t}))
        out += damage_events(state, t, n * s["push_damage_per_extra"], "push back", actor,
                             pending)
    elif verb == "move":
        delta = -1 if a["way"] == "toward" else 1
        for t in targets:
            was = ext.ranges.get(actor, t)
            out.append(Event(ev.RANGE_CHANGED, {"a": actor, "b": t, "band": was + delta,
                                                "was": was, "by": actor, "why": "move"}))
        out += _group_breaks(state, actor, targets)
    elif verb == "hide":
        out.append(Event(ev.HIDDEN, {"participant": actor, "from": targets}))
    elif verb == "search":
        hidden = sorted((p for p in state.active_ids() if ext.ranges.is_hidden(p, actor)),
                        key=lambda p: (ext.ranges.get(actor, p), p))
        n = min(len(hidden), 1 + extra // cost)
        spent["more"] = (n - 1) * cost if n > 1 else 0
        want_band = a.get("band")
        for p in hidden[:n]:
            out.append(Event(ev.REVEALED, {"participant": p, "from": [actor], "by": actor,
                                           "band": None if want_band is None
                                           else BANDS.index(want_band)}))
    elif verb == "recover":
        n = extra // cost
        spent["more"] = n * cost
        kind = condenser_of(s)
        pool = ext.condenser[actor][kind]
        gain = min(s["recover_amount"] + n, pool.maximum - pool.current)
        out.append(Event(ev.RECOVERED, {"participant": actor, "amount": gain,
                                        "condenser": kind}))
    elif verb == "act" and targets and a.get("hurt"):
        out += damage_events(state, targets[0], int(a["hurt"]), a["name"], actor, pending)
    return out, {k: v for k, v in spent.items() if v}


# --------------------------------------------------------------------------- zoom, damage

def check_zoom(state: ConflictState, actor: str | None, who: list[str]) -> None:
    """ES-ACT-1, ES-ACT-2: zoom only at one's turn, never from Fast."""
    if faster(state.settings["time_scale"]) is None:
        raise IllegalCommand(
            "a Fast conflict cannot zoom in further: there is no faster time scale",
            rule="ES-ACT-2")
    if actor is not None:
        _check_turn(state, actor)
    if not who:
        raise InvalidInput("name the participants of the zoomed-in conflict", rule="ES-ACT-1")


def decide_zoom(state: ConflictState, cmd: Command, ctx: DecideContext) -> Events:
    """ES-ACT-1: open a nested conflict one time scale faster for five rounds."""
    actor = _actor(cmd)
    who = expand(state, cmd.args["who"], author=ctx.author)
    if actor not in who:
        who = [actor, *who]
    for w in who:
        if w != actor:
            _target(state, actor, w, ctx)
    check_zoom(state, actor, who)
    ext, s = ext_of(state), state.settings
    settings = copy.deepcopy(s)
    settings["time_scale"] = faster(s["time_scale"])
    if cmd.args.get("scaling"):
        settings["range_scaling"] = cmd.args["scaling"]
        settings.pop("custom_scaling", None)
    settings["groups"] = {}
    settings["lurking"] = {}
    bands = {k: v for k, v in ext.ranges.bands.items()
             if all(x in who for x in k.split("|"))}
    hidden = {h: [x for x in xs if x in who] for h, xs in ext.ranges.hidden.items() if h in who}
    data = {
        "reason": cmd.args.get("reason") or f"{name(state, actor)} zooms in",
        "opened_by": actor, "participants": who, "time_scale": settings["time_scale"],
        "round_limit": s["zoom_rounds"], "depth": state.depth + 1, "settings": settings,
        "awareness": {w: ext.awareness.get(w, 0) for w in who},
        "bands": bands, "hidden": {h: xs for h, xs in hidden.items() if xs},
        "start": bool(cmd.args.get("start")),
        "range_scaling": settings["range_scaling"],
    }
    return [Event(ZOOM_OPENED, data, actor=actor)]


def decide_damage(state: ConflictState, cmd: Command) -> Events:
    """ES-DMG-1: GM damage to the conflict's condenser."""
    who, amount = cmd.args["who"], cmd.args["amount"]
    if not active(state, who):
        state.participant(who)
        raise IllegalCommand(f"{name(state, who)} is no longer in the conflict",
                             rule="ES-DMG-1")
    if amount < 1:
        raise InvalidInput(f"damage is at least 1, not {amount}", rule="ES-DMG-1")
    out = damage_events(state, who, amount, cmd.args.get("reason") or "GM", None, {})
    ext = ext_of(state)
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur and cur.actor == who and any(e.type == PARTICIPANT_OUT for e in out):
        out += end_turn(state, {who})
    return out


def _actor(cmd: Command) -> str:
    assert cmd.actor is not None
    return cmd.actor


def _key(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"{x}|{y}"


def check_active(state: ConflictState, pid: str) -> None:
    """Refuse a command by a character who has left or is out of the conflict."""
    p = state.participant(pid)
    if not p.active:
        why = f"is out of the conflict ({p.out})" if p.out else "has left the conflict"
        raise IllegalCommand(f"{p.name} {why} and no longer acts",
                             rule="ES-DMG-1" if p.out and "condenser at 0" in p.out else None,
                             participant=pid)


def check_joiner(state: ConflictState, pid: str) -> None:
    """ES-ROUND-1: a joiner's stats hold the conflict's condenser (its base initiative)."""
    p = state.participant(pid)
    kind = condenser_of(state.settings)
    value = p.stats.get(kind)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInput(
            f"{p.name} joins without a {kind} condenser (stats.{kind} = {value!r}); it is this "
            f"conflict's base initiative: join {pid} stats='{{\"{kind}\": 10}}' (ES-ROUND-1)",
            rule="ES-ROUND-1", participant=pid)
