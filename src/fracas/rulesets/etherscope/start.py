"""Etherscope decide, starting the conflict: awareness, ambushes, starting ranges, groups
and the awareness moves (ES-START-*, ES-RNG-3)."""

from __future__ import annotations

from fracas.engine.commands import Command
from fracas.engine.components import pair_key
from fracas.engine.events import Event
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.common import (
    active,
    actor_of,
    check_rolloffs_used,
    dice_by_character,
    expand,
    expand_seen,
    ext_of,
    group_of,
    name,
    table_rolloffs,
    unknown_to,
)
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.rolls import break_ties, pool_roll
from fracas.rulesets.etherscope.rounds import check_turn, end_turn, tie_events
from fracas.rulesets.etherscope.settings import BANDS

Events = list[Event]


@HANDLERS.decides("awareness")
def decide_awareness(d: Decision, cmd: Command) -> None:
    """ES-START-1: the awareness roll, kept for the whole conflict: at the start, or by a
    character who joined later (the awareness moves need everyone's, so after the start only
    a late joiner has none)."""
    state, ctx = d.state, d.ctx
    ext, actor = ext_of(state), actor_of(cmd)
    if actor in ext.awareness:
        raise IllegalCommand(
            f"{name(state, actor)} already rolled awareness ({ext.awareness[actor]} "
            "successes); it is kept for the whole conflict", rule="ES-START-1")
    skill = cmd.args.get("skill") or state.settings["awareness_skill"]
    result = pool_roll(state, ctx, actor, skill, cmd.args, "ES-START-1")
    d.emit(ev.AwarenessRolled(participant=actor, **result, actor=actor))


@HANDLERS.decides("ambush")
def decide_ambush(d: Decision, cmd: Command) -> None:
    """ES-START-2, ES-START-4: an ambush opposed by each target's counter roll."""
    state, ctx = d.state, d.ctx
    ext, actor = ext_of(state), actor_of(cmd)
    if ext.phase != ph.START:
        raise IllegalCommand("ambushes are attempted at the start of the conflict",
                             rule="ES-START-2")
    targets = expand_seen(state, cmd.args["targets"], actor, author=ctx.author)
    if actor in targets:
        raise InvalidInput(f"{name(state, actor)} cannot ambush itself", rule="ES-START-2")
    unseen = [t for t in targets if ext.ranges.is_hidden(t, actor)]
    if unseen:
        raise IllegalCommand(
            f"{name(state, unseen[0])} is hidden from {name(state, actor)}, who cannot ambush "
            "what it does not see: a hidden character can only be targeted to be revealed",
            rule="ES-RNG-2",
            target=unseen[0])
    tried = [t for t in targets if t in ext.ambushed.get(actor, [])]
    if tried:
        raise IllegalCommand(f"{name(state, actor)} already tried to ambush "
                             f"{', '.join(name(state, t) for t in tried)}", rule="ES-START-2")
    counters = dice_by_character(cmd.args.get("counter"), targets, "counter", "ES-START-2")
    mine = pool_roll(state, ctx, actor, cmd.args.get("skill"), cmd.args, "ES-START-2")
    against = cmd.args.get("counter_skill") or state.settings["awareness_skill"]
    results = []
    for t in targets:
        c = pool_roll(state, ctx, t, against, {"dice": counters.get(t)}, "ES-START-2")
        results.append({"target": t, **c, "ambushed": mine["successes"] > c["successes"]})
    d.emit(ev.AmbushResolved(ambusher=actor, roll=mine, targets=tuple(results), actor=actor))


@HANDLERS.decides("set-range")
def decide_set_range(d: Decision, cmd: Command) -> None:
    """ES-START-3: the GM sets the range between characters (or groups)."""
    state = d.state
    ext = ext_of(state)
    a_ids, b_ids = expand(state, cmd.args["a"]), expand(state, cmd.args["b"])
    band = BANDS.index(cmd.args["band"])
    out = []
    for a in a_ids:
        for b in b_ids:
            if a == b:
                raise InvalidInput(f"{name(state, a)} has no range to itself",
                                   rule="ES-START-3")
            was = ext.ranges.bands.get(pair_key(a, b))
            out.append(ev.RangeSet(a=a, b=b, band=band, was=was, by="gm"))
    d.emit(*out)


@HANDLERS.decides("ungroup")
def decide_ungroup(d: Decision, cmd: Command) -> None:
    """ES-START-6: the GM dissolves a group."""
    ext, g = ext_of(d.state), cmd.args["name"]
    if g not in ext.groups:
        raise InvalidInput(f"no group {g!r} (groups: {', '.join(ext.groups) or 'none'})",
                           rule="ES-START-6")
    d.emit(ev.GroupDissolved(group=g))


@HANDLERS.decides("group")
def decide_group(d: Decision, cmd: Command) -> None:
    """ES-START-6: a GM group of characters who stand together."""
    state = d.state
    ext = ext_of(state)
    g = cmd.args["name"]
    if g in state.participants or g in ext.groups:
        raise InvalidInput(f"{g!r} is already a participant or a group", rule="ES-START-6")
    members = expand(state, cmd.args["members"])
    if len(members) < 2:
        raise InvalidInput("a group needs at least two members", rule="ES-START-6")
    taken = [m for m in members if group_of(ext, m)]
    if taken:
        raise IllegalCommand(f"{name(state, taken[0])} already stands in group "
                             f"{group_of(ext, taken[0])}", rule="ES-START-6")
    d.emit(ev.GroupFormed(group=g, members=tuple(members)))


def _not_from_itself(state: ConflictState, who: str, cmd: Command, rule: str) -> None:
    """Refuse a ``from=`` that names the character itself (a group holding it stands for its
    other members): no one is hidden from, or revealed to, itself."""
    if who in (cmd.args.get("from") or ()):
        raise IllegalCommand(f"{name(state, who)} is never hidden from themselves: leave them "
                           "out of from=", param="from", value=who, rule=rule)


@HANDLERS.decides("reveal")
def decide_reveal(d: Decision, cmd: Command) -> None:
    """ES-RNG-3: the GM reveals a hidden character (optionally into a new band)."""
    state = d.state
    ext, who = ext_of(state), cmd.args["who"]
    state.participant(who)
    _not_from_itself(state, who, cmd, "ES-RNG-3")
    hidden_from = ext.ranges.hidden.get(who, [])
    targets = expand(state, cmd.args["from"]) if cmd.args.get("from") else list(hidden_from)
    targets = [t for t in targets if t in hidden_from]
    if not targets:
        raise IllegalCommand(f"{name(state, who)} is not hidden from them", rule="ES-RNG-3")
    band = cmd.args.get("band")
    d.emit(ev.Revealed(participant=who, from_=tuple(targets),
                       band=None if band is None else BANDS.index(band)))


@HANDLERS.decides("conceal")
def decide_conceal(d: Decision, cmd: Command) -> None:
    """ES-RNG-1: the GM hides a character from others (the band under it is kept)."""
    state = d.state
    ext, who = ext_of(state), cmd.args["who"]
    p = state.participant(who)
    _not_from_itself(state, who, cmd, "ES-RNG-1")
    already = set(ext.ranges.hidden.get(who, []))
    others = [o for o in state.active_ids() if o != who]
    targets = expand(state, cmd.args["from"]) if cmd.args.get("from") else others
    targets = [t for t in targets if t != who and t not in already]
    if not targets:
        raise IllegalCommand(f"{p.name} is already hidden from them", rule="ES-RNG-1")
    d.emit(ev.Hidden(participant=who, from_=tuple(targets), by="gm"))


@HANDLERS.decides("moves")
def decide_moves(d: Decision, cmd: Command) -> None:
    """ES-START-5: fix the order of awareness moves (ties broken as ES-ROUND-5)."""
    state, ctx = d.state, d.ctx
    ext = ext_of(state)
    if ext.phase != ph.START:
        raise IllegalCommand("the awareness moves have already begun" if ext.phase == ph.MOVES
                             else "the awareness moves come only at the start of a conflict "
                             "(of a zoom-in, with start=yes), before its first round",
                             rule="ES-START-5")
    ids = state.active_ids()
    missing = [p for p in ids if p not in ext.awareness]
    if missing:
        raise IllegalCommand(
            "every character rolls awareness before the moves; still to roll: "
            + ", ".join(name(state, p) for p in missing), rule="ES-START-1")
    order: list[str] = []
    out: Events = []
    table = table_rolloffs(cmd, ids)
    for aw in sorted({ext.awareness[p] for p in ids}, reverse=True):
        group = [p for p in ids if ext.awareness[p] == aw]
        records, ordered = break_ties(state, ctx, group, ext.awareness, None, table)
        out += tie_events(records)
        order += ordered
    check_rolloffs_used(state, table)
    out.append(ev.AwarenessOrder(order=tuple(order)))
    out += _next_mover(state, order, -1)
    d.emit(*out)


def _next_mover(state: ConflictState, order: list[str], after: int,
                gone: frozenset[str] = frozenset()) -> Events:
    """The next awareness move after ``order[after]``: of the next character still taking
    part with one yet to move that it sees (a step against one hidden from it is refused,
    ES-RNG-6: a move with none to step against is none); else the moves are over."""
    ranges = ext_of(state).ranges

    def here(pid: str) -> bool:
        return active(state, pid) and pid not in gone

    for i in range(after + 1, len(order) - 1):
        if here(order[i]):
            against = [p for p in order[i + 1:] if here(p)]
            if any(not ranges.is_hidden(p, order[i]) for p in against):
                return [ev.MoverStarted(participant=order[i], against=tuple(against))]
    return [ev.MovesDone()]


@HANDLERS.decides("step")
def decide_step(d: Decision, cmd: Command) -> None:
    """ES-START-5, ES-START-6, ES-RNG-5: one awareness step against those yet to move."""
    state, ctx = d.state, d.ctx
    ext, actor = ext_of(state), actor_of(cmd)
    _check_mover(state, actor, ctx.author)
    delta = -1 if cmd.args["way"] == "toward" else 1
    targets = expand_seen(state, cmd.args["targets"], actor, author=ctx.author)
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
        ext.ranges.check_step(actor, t, delta, "ES-RNG-4", "ES-RNG-5", names=state.names())
    for g, members in ext.groups.items():
        if actor in members:
            continue
        inside = [m for m in members if m in targets]
        eligible = [m for m in members if m in later and not ext.ranges.is_hidden(m, actor)]
        if inside and len(inside) != len(eligible):
            raise IllegalCommand(
                f"{', '.join(name(state, m) for m in eligible)} stand together (group {g}); "
                f"move against all of them: {cmd.args['way']} {g}", rule="ES-START-6")
    out: Events = [ev.RangeChanged(a=actor, b=t, band=ext.ranges.get(actor, t) + delta,
                                   was=ext.ranges.get(actor, t), by=actor,
                                   why="awareness move", actor=actor) for t in targets]
    d.emit(*out, *group_breaks(state, actor, targets))


def _check_mover(state: ConflictState, actor: str, author: Viewer | None) -> None:
    ext = ext_of(state)
    if ext.phase != ph.MOVES:
        raise IllegalCommand("it is not the time of the awareness moves", rule="ES-START-5")
    mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
    if actor != mover:
        if actor in ext.move_order and ext.move_order.index(actor) < ext.mover:
            why = f"{possessive(name(state, actor))} awareness move is over"
        else:
            why = f"{name(state, actor)} has not had its awareness move yet"
        now = "someone else is moving now" if mover is None or unknown_to(state, author, mover) \
            else f"{name(state, mover)} is moving now"
        raise NotYourTurn(f"{why}; {now}", rule="ES-START-5")


def group_breaks(state: ConflictState, mover: str, targets: list[str], *,
                 seer: str | None = None, named: set[str] | None = None) -> Events:
    """A member whose range to a third character changed alone leaves its group (logged)
    (ES-START-6): the mover, from its own group; a target whose band to the mover changed
    (``targets``: never empty) while a member of its group that ``seer`` (default: the mover)
    sees, other than the mover, was not moved with it (``named``, default ``targets``) —
    a Push Back moves its target (the ``mover``) as its actor (the ``seer``) names."""
    ext = ext_of(state)
    seer = mover if seer is None else seer
    moved = set(targets) if named is None else named
    own = group_of(ext, mover)
    out: Events = [ev.GroupLeft(group=own, participant=mover)] if own is not None else []
    for t in targets:
        g = group_of(ext, t)
        if g is None:
            continue
        seen = {m for m in ext.groups[g] if m != mover and not ext.ranges.is_hidden(m, seer)}
        if not seen <= moved:
            out.append(ev.GroupLeft(group=g, participant=t))
    return out


def zoom_group_breaks(parent: ConflictState, before: ConflictState) -> Events:
    """Those whose ranges a closed zoom-in carried back apart from their group leave it
    (logged), as a move or a push takes them out (ES-START-6, ES-ACT-1): a member whose band
    to a third character changed while another member's did not change the same way, or
    whose band to another member changed; and one taken out inside. ``before`` is the
    parent as the zoom found it."""
    now, then = ext_of(parent).ranges.bands, ext_of(before).ranges.bands

    def delta(a: str, b: str) -> int:
        key = pair_key(a, b)
        return now[key] - then[key] if key in now and key in then else 0

    out: Events = []
    for g, members in ext_of(parent).groups.items():
        group = list(members)
        for m in members:
            if len(group) < 2:
                break
            mates = [x for x in group if x != m]
            thirds = [x for x in parent.active_ids() if x not in group]
            if not active(parent, m) or any(delta(m, x) for x in mates) or any(
                    delta(m, x) and any(delta(o, x) != delta(m, x) for o in mates)
                    for x in thirds):
                out.append(ev.GroupLeft(group=g, participant=m))
                group.remove(m)
    return out


def on_leave(state: ConflictState, pid: str) -> Events:
    """A character leaving or out mid-move or mid-turn passes the move or turn on."""
    ext = ext_of(state)
    if ext.phase == ph.MOVES and 0 <= ext.mover < len(ext.move_order) \
            and ext.move_order[ext.mover] == pid:
        return [ev.MoverDone(participant=pid),
                *_next_mover(state, ext.move_order, ext.mover, frozenset({pid}))]
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur is not None and cur.actor == pid:
        return end_turn(state, {pid})
    return []


@HANDLERS.decides("done")
def decide_done(d: Decision, cmd: Command) -> None:
    """End an awareness move, or a turn without (another) action."""
    state = d.state
    ext, actor = ext_of(state), actor_of(cmd)
    if ext.phase == ph.MOVES:
        _check_mover(state, actor, d.ctx.author)
        d.emit(ev.MoverDone(participant=actor, actor=actor),
               *_next_mover(state, ext.move_order, ext.mover))
        return
    check_turn(state, actor, d.ctx.author, acted_ok=True)
    d.emit(*end_turn(state))
