"""Etherscope decide, resolving an action: the roll, extras, Push Back and the catalogue
(ES-ACT-*, ES-DMG-2, ES-SET-3)."""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command
from fracas.engine.context import DecideContext
from fracas.engine.engine_events import ParticipantOut
from fracas.engine.events import Event
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope.common import (
    active,
    actor_of,
    damage_events,
    expand,
    expand_seen,
    ext_of,
    name,
    search_finds,
)
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.rolls import pool_roll
from fracas.rulesets.etherscope.rounds import (
    check_turn,
    end_turn,
)
from fracas.rulesets.etherscope.settings import BANDS, condenser_of
from fracas.rulesets.etherscope.start import group_breaks

Events = list[Event]


def allies(state: ConflictState, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` stand on one side (a character of no side has no allies)."""
    side = state.participants[a].side
    return side is not None and state.participants[b].side == side


def checked_target(state: ConflictState, actor: str, tid: str, ctx: DecideContext) -> str:
    """A target the actor may name: present, not itself, not hidden from it (ES-RNG-2)."""
    ext = ext_of(state)
    hidden = tid in state.participants and ext.ranges.is_hidden(tid, actor)
    if tid not in state.participants or (hidden and not ctx.author.is_gm):
        raise IllegalCommand(f"{name(state, actor)} sees no {tid!r} to target",
                             rule="ES-RNG-2", target=tid)
    if hidden:
        raise IllegalCommand(
            f"{name(state, tid)} is hidden from {name(state, actor)}; a hidden character can "
            "only be sought out: a search reveals the nearest hidden from its searcher "
            f"('{actor}: search')", rule="ES-RNG-2", target=tid)
    if tid == actor:
        raise InvalidInput(f"{name(state, actor)} cannot target itself", target=tid)
    if not active(state, tid):
        raise IllegalCommand(f"{name(state, tid)} is no longer in the conflict", target=tid)
    return tid


@HANDLERS.decides("push", "attack", "move", "hide", "search", "recover", "act")
def decide_action(d: Decision, cmd: Command) -> None:
    """ES-ACT-3..6: describe, roll against the difficulty, spend extras, narrate effects."""
    state, ctx = d.state, d.ctx
    ext, actor, a, verb = ext_of(state), actor_of(cmd), cmd.args, cmd.verb
    check_turn(state, actor, ctx.author)
    s = state.settings
    # validate targets before rolling
    targets: list[str] = []
    if verb in ("push", "attack") or (verb == "act" and a.get("target")):
        targets = [checked_target(state, actor, a["target"], ctx)]
    elif verb == "move":
        targets = expand_seen(state, a["targets"], actor, author=ctx.author)
        for t in targets:
            checked_target(state, actor, t, ctx)
            ext.ranges.check_step(actor, t, -1 if a["way"] == "toward" else 1, "ES-RNG-4",
                                  "ES-RNG-5", names=state.names())
    elif verb == "hide":
        targets = expand(state, a["from"], author=ctx.author) if a.get("from") else \
            [p for p in state.active_ids() if p != actor and not allies(state, actor, p)]
        if actor in targets:
            raise InvalidInput(f"{name(state, actor)} cannot hide from itself; name those it "
                               "hides from", rule="ES-RNG-1", participant=actor)
    if verb == "push":
        toward, away = _push_sides(state, actor, targets[0], a, ctx)
        if a.get("two"):
            _check_two(state, targets[0], toward, away)
    _check_amounts(a)
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
        effects, spent, unmoved = _effects(state, verb, actor, targets, extra, a, pending, ctx)
        if unmoved:
            data["unmoved"] = tuple(unmoved)
    data["spent"] = spent
    data["unspent"] = extra - sum(spent.values())
    if verb == "push" and success:  # extras asked for but not paid for are said so
        short = []
        if a.get("two") and extra < s["push_two_cost"]:
            short.append("two categories")
        wanted = int(a.get("damage") or 0)
        bought = spent.get("damage", 0) // max(1, s["extra_cost"])
        if wanted > bought:
            short.append(f"damage {wanted} (bought {bought})")
        if short:
            data["not_bought"] = tuple(short)
    for key in ("targets", "toward", "away"):
        if key in data:
            data[key] = tuple(data[key])
    data["doer"] = data.pop("actor")
    data["surplus"] = data.pop("extra")
    out: Events = [ev.ActionResolved(**data, actor=actor), *effects]
    if nature != s["nature"]:
        out += damage_events(state, actor, s["off_nature_damage"],
                             f"acting {nature} in a {s['nature']} conflict", None, pending)
    outs = {e.participant for e in out if isinstance(e, ParticipantOut)}
    d.emit(*out, *end_turn(state, outs))


#: Amounts an action takes, each 0 or more: Push Back's extra successes spent on damage
#: (ES-ACT-5) and a GM-defined action's damage (ES-DMG-1).
_AMOUNTS = (("damage", "extra successes spent on damage", "ES-ACT-5"),
            ("hurt", "the damage the target takes", "ES-DMG-1"))


def _check_amounts(a: dict[str, Any]) -> None:
    """Refuse a negative ``damage=`` or ``hurt=``: no extra success is spent below nothing,
    and no action heals by dealing less than no damage."""
    for key, what, rule in _AMOUNTS:
        value = a.get(key)
        if value is not None and value < 0:
            raise InvalidInput(f"{key}={value}: {what} cannot be negative (0 or more)",
                               rule=rule, param=key, value=value)


def _push_sides(state: ConflictState, actor: str, target: str, a: dict[str, Any],
                ctx: DecideContext) -> tuple[list[str], list[str]]:
    """Push Back's ``toward=`` and ``away=`` characters (default: away from the actor only),
    refused when one is named twice, is the target itself or is hidden from the actor
    (ES-ACT-5, ES-RNG-2)."""
    ext = ext_of(state)
    toward = expand_seen(state, a.get("toward") or [], actor, author=ctx.author)
    away = expand_seen(state, a.get("away") or [], actor, author=ctx.author) \
        if a.get("away") or a.get("toward") else [actor]
    if target in (*toward, *away):
        raise InvalidInput(
            f"{name(state, target)} cannot be pushed toward or away from itself; name the "
            "characters it moves toward or away from", rule="ES-ACT-5", participant=target)
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


def _check_two(state: ConflictState, target: str, toward: list[str], away: list[str]) -> None:
    """Refuse ``two=yes`` where it can buy nothing: the target can move no second category
    from anyone it is pushed toward or away from (ES-ACT-5). Not where a band concerned is
    under a hidden flag: that band is the GM's (ES-RNG-1), and a refusal would tell it."""
    ranges = ext_of(state).ranges
    ways = [*((x, -1) for x in toward), *((x, 1) for x in away)]
    if any(ranges.is_hidden(target, x) or ranges.is_hidden(x, target) for x, _ in ways):
        return
    if any(0 <= ranges.get(target, x) + 2 * way <= 2 for x, way in ways):
        return
    where = " and ".join(
        f"{'toward' if way < 0 else 'away from'} {name(state, x)} "
        f"({BANDS[ranges.get(target, x)].capitalize()})" for x, way in ways)
    raise IllegalCommand(
        f"two=yes would buy nothing: {name(state, target)} can be pushed at most one category "
        f"{where}, as the bands end at Close and Distant; push without two=",
        rule="ES-ACT-5", param="two")


def _effects(
    state: ConflictState, verb: str, actor: str, targets: list[str], extra: int,
    a: dict[str, Any], pending: dict[str, int], ctx: DecideContext,
) -> tuple[Events, dict[str, int], list[str]]:
    """The effects of a successful action, the extras spent, and (Push Back) those the target
    is already as far from, or as close to, as bands go (ES-ACT-5)."""
    s, ext = state.settings, ext_of(state)
    cost = max(1, s["extra_cost"])
    spent: dict[str, int] = {}
    out: Events = []
    unmoved: list[str] = []
    if verb == "attack":
        n = extra // cost
        spent["damage"] = n * cost
        out += damage_events(state, targets[0], s["attack_damage"] + n, "attack", actor,
                             pending)
    elif verb == "push":
        t = targets[0]
        toward, away = _push_sides(state, actor, t, a, ctx)
        ways = [*((x, -1) for x in toward), *((x, 1) for x in away)]
        left, steps = extra, 1
        # bought only if a second band moves, or where a band is the GM's (under a hidden
        # flag, ES-RNG-1): whether it moves must not show in what the roll spent
        gm_band = any(ext.ranges.is_hidden(t, x) or ext.ranges.is_hidden(x, t) for x, _ in ways)
        if (a.get("two") and left >= s["push_two_cost"]
                and (gm_band or any(0 <= ext.ranges.get(t, x) + 2 * way <= 2
                                    for x, way in ways))):
            steps, left = 2, left - s["push_two_cost"]
            spent["two"] = s["push_two_cost"]
        want = a.get("damage") or 0
        n = min(want, left // cost)
        if n:
            spent["damage"] = n * cost
        moved: list[str] = []
        for x, way in ways:
            was = ext.ranges.get(t, x)
            band = min(2, max(0, was + steps * way))
            if band != was:
                out.append(ev.RangeChanged(a=t, b=x, band=band, was=was, by=actor,
                                           why="push back"))
                moved.append(x)
            else:
                unmoved.append(x)
        if moved:  # the target, and those it moved from without their group (ES-START-6)
            out += group_breaks(state, t, moved, seer=actor, named={x for x, _ in ways})
        out += damage_events(state, t, n * s["push_damage_per_extra"], "push back", actor,
                             pending)
    elif verb == "move":
        delta = -1 if a["way"] == "toward" else 1
        for t in targets:
            was = ext.ranges.get(actor, t)
            out.append(ev.RangeChanged(a=actor, b=t, band=was + delta, was=was, by=actor,
                                       why="move"))
        out += group_breaks(state, actor, targets)
    elif verb == "hide":
        out.append(ev.Hidden(participant=actor, from_=tuple(targets)))
    elif verb == "search":
        found = search_finds(state, actor, extra)
        spent["more"] = (len(found) - 1) * cost if len(found) > 1 else 0
        want_band = a.get("band")
        for p in found:  # the band found at is said, asked for or kept (ES-RNG-3)
            band = ext.ranges.get(actor, p) if want_band is None else BANDS.index(want_band)
            out.append(ev.Revealed(participant=p, from_=(actor,), by=actor, band=band))
    elif verb == "recover":
        n = extra // cost  # every extra buys more: the room left is not the player's to see
        spent["more"] = n * cost
        kind = condenser_of(s)
        pool = ext.condenser[actor][kind]
        bought = s["recover_amount"] + n
        gain = min(bought, pool.maximum - pool.current)
        out.append(ev.Recovered(participant=actor, amount=gain, condenser=kind, bought=bought))
    elif verb == "act" and targets and a.get("hurt"):
        out += damage_events(state, targets[0], int(a["hurt"]), a["name"], actor, pending)
    return out, {k: v for k, v in spent.items() if v}, unmoved
