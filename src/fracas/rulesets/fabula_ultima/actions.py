"""Decide: Fabula Ultima's commands turned into events (pure; raises typed errors)."""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from fracas.dice import Roll
from fracas.dice.errors import TableDiceError
from fracas.dice.table import misfit
from fracas.engine.commands import Command
from fracas.engine.components import AlternatingSides
from fracas.engine.context import DecideContext
from fracas.engine.engine_events import (
    ConflictStarted,
    ParticipantLeft,
    ParticipantOut,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from fracas.engine.events import Event
from fracas.engine.model import ConflictState, Kind, Participant, Status, Viewer
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.fabula_ultima import events as ev
from fracas.rulesets.fabula_ultima.handlers import decides
from fracas.rulesets.fabula_ultima.state import (
    ATTRIBUTES,
    INIT_FROM,
    RECOVERIES,
    STATUSES,
    FabulaExt,
    affinity,
    check_die,
    check_item,
    defense,
    die,
    in_crisis,
    init_modifier,
    initiative_foes,
    initiative_supporters,
    is_extra,
    npc_initiative,
    turns_left_next,
    unassigned,
    weapon_of,
)
from fracas.rulesets.fabula_ultima.views import secret_to

SUPPORT_DL = 10
_RUNNING = Status.RUNNING.value  # read once: an enum member's value is slow to look up


# --------------------------------------------------------------------------- checks


def roll_check(
    ctx: DecideContext, sizes: tuple[int, int], mod: int, dice: list[int] | None,
    who: str = "", *, secret: bool = False,
) -> Roll:
    """Roll ``{dA + dB} + mod`` (or read the table dice, refused with FU-CHK-1 when they do
    not fit the two dice). ``secret``: the command's author may not know the dice or the
    bonus (a GM-only die or gear, even of their own character), so a refusal of the table
    dice names neither."""
    expr = f"{{d{sizes[0]}+d{sizes[1]}}}" + (f"{mod:+d}" if mod else "")
    try:
        return ctx.roll(expr, dice)
    except TableDiceError as exc:
        whose = f"{possessive(who)} " if who else ""
        if secret:
            raise TableDiceError(
                f"{whose}check takes two dice, a face of each of its two dice (their sizes "
                f"are the GM's to know): {list(dice or ())} do not fit them",
                rule="FU-CHK-1", dice=dice) from None
        raise TableDiceError(f"{whose or 'the '}check is 2 dice ({expr}), but "
                             f"{misfit(exc, list(dice or ()))}", rule="FU-CHK-1",
                             dice=dice, expression=expr) from None


def named_attributes(text: str) -> tuple[str, ...]:
    """The attributes a check's ``dex+ins`` names (a die size ``d8`` names none)."""
    parts = re.split(r"[+,]", text.strip().strip("{}").lower())
    return tuple(p.strip() for p in parts if p.strip() in ATTRIBUTES)


def outcome(roll: Roll, dl: int) -> dict[str, Any]:
    """A check's result: total, High Roll, critical, fumble, success (FU-CHK-1..4)."""
    a, b = roll.dice[:2]  # the two dice of {dA + dB}, never rerolled nor exploded
    critical = a == b and a >= 6
    fumble = a == 1 and b == 1
    success = critical or (not fumble and roll.total >= dl)
    return {"roll": roll.to_data(), "text": roll.to_text(), "dl": dl, "total": roll.total,
            "hr": max(a, b), "critical": critical, "fumble": fumble, "success": success}


def parse_attributes(ext: FabulaExt, p: Participant, text: str) -> tuple[int, int]:
    """``dex+ins`` (current dice of ``p``) or ``d8+d10`` → two die sizes (FU-CHK-1)."""
    parts = [x for x in re.split(r"[+,]", text.strip().strip("{}").lower()) if x]
    if len(parts) != 2:
        raise InvalidInput(f"a check names two attributes like dex+ins, not {text!r}",
                           rule="FU-CHK-1", value=text)
    sizes: list[int] = []
    for part in parts:
        part = part.strip()
        if part in ATTRIBUTES:
            sizes.append(die(ext, p, part))
        elif part.startswith("d"):
            sizes.append(check_die(p.id, "a check die", part))
        else:
            raise InvalidInput(
                f"{part!r} is not an attribute (dex, ins, mig, wlp) or a die (d6-d12)",
                rule="FU-CHK-1", value=text)
    return sizes[0], sizes[1]


def fumble_fp(ext: FabulaExt, p: Participant, result: dict[str, Any]) -> list[Event]:
    """A PC who fumbles gains 1 Fabula Point (FU-CHK-4)."""
    if result["fumble"] and p.kind == Kind.PC.value and p.id in ext.fp:
        return [ev.FabulaChanged(participant=p.id, delta=1, fp_after=ext.fp[p.id] + 1,
                                 why="fumble")]
    return []


# --------------------------------------------------------------------------- helpers


def _running(state: ConflictState, what: str) -> None:
    if state.status != _RUNNING or state.ext.order is None:
        raise IllegalCommand(
            f"{what} needs the conflict under way: a PC leads the Initiative Group Check "
            "first (LEADER: initiative)", rule="FU-CON-3")


def _setup_only(state: ConflictState, what: str, rule: str) -> None:
    if state.status != Status.SETUP.value:
        raise IllegalCommand(f"{what} happens before the conflict starts; it has started",
                             rule=rule)


def _active(state: ConflictState, pid: str) -> Participant:
    p = state.participant(pid)
    if not p.active:
        raise IllegalCommand(f"{p.name} is no longer in the conflict ({p.out or 'left'})",
                             rule="FU-CON-12", participant=pid)
    return p


def damage_events(state: ConflictState, target: Participant, raw: int, dtype: str,
                  source: str | None = None) -> list[Event]:
    """Damage after affinities (FU-RES-3), HP kept in 0..max (FU-RES-1), Crisis (FU-RES-2),
    and the target out of the conflict at 0 HP (FU-CON-12)."""
    ext: FabulaExt = state.ext
    pool = ext.hp[target.id]
    aff = affinity(target, dtype)
    data: dict[str, Any] = {"target": target.id, "raw": raw, "damage_type": dtype,
                            "affinity": aff}
    if source:
        data["source"] = source
    if aff == "absorb":
        after = min(pool.maximum, pool.current + raw)
        data.update(amount=0, healed=after - pool.current)
    else:
        amount = raw * 2 if aff == "vulnerable" else raw // 2 if aff == "resistant" else \
            0 if aff == "immune" else raw
        after = max(0, pool.current - amount)
        data.update(amount=amount, healed=0)
    data.update(hp_after=after, crisis=after <= pool.maximum // 2,
                entered_crisis=not in_crisis(pool) and 0 < after <= pool.maximum // 2)
    events: list[Event] = [ev.Damaged(**data)]
    if after == 0 and target.active:
        events.append(ParticipantOut(participant=target.id, reason="defeated (0 HP)"))
    return events


# --------------------------------------------------------------------------- turns


def begin_turn(state: ConflictState, actor: str) -> tuple[list[Event], AlternatingSides, int]:
    """Check that ``actor`` may take a turn now (FU-CON-6/8/9/12) and return the events that
    must come first (a round left over after a defeat is closed), a copy of the order with
    the new round applied, and the round number."""
    _running(state, "taking a turn")
    ext: FabulaExt = state.ext
    assert ext.order is not None
    order = ext.order.copy()
    pre: list[Event] = []
    rnd = state.round
    if order.round_over:
        # The round has ended (FU-CON-10) and the conflict goes on: this turn opens the next.
        if not ext.round_closed:
            pre.append(RoundEnded(round=rnd))
        rnd += 1
        pre.append(RoundStarted(round=rnd))
        order.new_round()
    names = state.names()
    p = state.participant(actor)
    if p.id in ext.extras:
        raise IllegalCommand(f"{p.name} is an extra and takes no turns", rule="FU-CON-1")
    if actor not in order.side_of:
        raise IllegalCommand(f"{p.name} is on no side of the turn order; assign them to "
                             f"{ext.pc_side} or {ext.foe_side}", rule="FU-CON-13")
    if actor in order.out or not p.active:
        raise IllegalCommand(f"{p.name} is out of the conflict and takes no more turns",
                             rule="FU-CON-12", participant=actor)
    if order.turns_left(actor) == 0:
        n = order.turns_per_round.get(actor, 1)
        waiting = [names.get(a, a) for a in order.who_may_act()]
        raise IllegalCommand(
            f"{p.name} has taken {'their only turn' if n == 1 else f'all {n} turns'} this "
            f"round; {', '.join(waiting) or 'nobody'} may act now",
            rule="FU-CON-8" if n == 1 else "FU-CON-9", participant=actor)
    if order.side_of[actor] != order.side_on_turn:
        waiting = [names.get(a, a) for a in order.who_may_act()]
        raise NotYourTurn(
            f"it is the turn of side {order.side_on_turn} ({', '.join(waiting) or 'nobody'} "
            "may act), "
            f"not {possessive(p.name)} side {order.side_of[actor]}; the sides alternate",
            rule="FU-CON-6", participant=actor, side_on_turn=order.side_on_turn)
    order.check_take_turn(actor, "FU-CON-8", "FU-CON-9", names=names)
    return pre, order, rnd


def finish_turn(order: AlternatingSides, rnd: int, actor: str, pre: list[Event],
                body: list[Event]) -> list[Event]:
    """Wrap ``body`` in the turn's boundary events; end the round when nobody has a turn
    left (FU-CON-10). The next round begins with the next turn, if the conflict goes on."""
    order.take_turn(actor)
    for e in body:
        if isinstance(e, ParticipantOut):
            order.leave(e.participant)
    order.end_turn()  # settled as it ends
    events = [*pre, TurnStarted(participant=actor), *body,
              TurnEnded(participant=actor)]
    if order.round_over:
        events.append(RoundEnded(round=rnd))
    return events


def close_round(state: ConflictState, events: list[Event]) -> list[Event]:
    """``events`` (given outside a turn) plus ``round_ended`` when they leave nobody with a
    turn this round: a defeat, a departure or a change of sides (FU-CON-10, FU-CON-12)."""
    ext: FabulaExt = state.ext
    if (ext.order is None or state.status != Status.RUNNING.value or ext.round_closed
            or any(isinstance(e, RoundEnded) for e in events)):
        return events
    order = ext.order.copy()
    if order.round_over:
        return events
    for e in events:
        if isinstance(e, ParticipantOut | ParticipantLeft):
            order.leave(e.participant)
        elif isinstance(e, ev.SideAssigned) and e.participant in order.side_of:
            order.move(e.participant, e.side)
    if order.round_over:
        return [*events, RoundEnded(round=state.round)]
    return events


# --------------------------------------------------------------------------- commands


@decides("initiative")
def decide_initiative(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """The PCs' {DEX + INS} Initiative Group Check (FU-CON-3/4/5, FU-CHK-1..5)."""
    ext: FabulaExt = state.ext
    a = cmd.args
    assert cmd.actor is not None
    if state.status != Status.SETUP.value:
        first = ext.initiative["first_side"] if ext.initiative else "?"
        raise IllegalCommand(f"the Initiative Group Check is made once; side {first} opens "
                             "every round", rule="FU-CON-5")
    leader = _active(state, cmd.actor)
    if leader.kind != Kind.PC.value or leader.side != ext.pc_side or is_extra(ext, leader):
        raise IllegalCommand(f"{leader.name} cannot lead the Initiative Group Check: the "
                             f"leader is a PC on side {ext.pc_side}", rule="FU-CON-3")
    loose = unassigned(state)
    if loose:
        raise IllegalCommand(
            "turn order has exactly two sides; assign " + ", ".join(
                f"{p.name} (side {p.side or 'none'})" for p in loose)
            + f" to {ext.pc_side} or {ext.foe_side} first (assign ID SIDE)", rule="FU-CON-13")
    # FU-CON-3 [decision]: a foe the GM keeps hidden from the players is not among those
    # they face (its Initiative would tell of it); the GM reveals it, or gives dl=N
    foes = initiative_foes(state)
    pcs_side = [p for p in state.participants.values()
                if p.active and p.side == ext.pc_side and not is_extra(ext, p)]
    if not foes and a.get("dl") is None:
        raise IllegalCommand(f"side {ext.foe_side} has nobody taking part; add adversaries "
                             "or give dl=N", rule="FU-CON-3")
    if not pcs_side:
        raise IllegalCommand(f"side {ext.pc_side} has nobody taking part", rule="FU-CON-3")
    if a.get("dl") is not None:
        if not ctx.author.is_gm:
            raise IllegalCommand("only the GM sets the DL of the Initiative Group Check",
                                 rule="FU-CON-3")
        dl, dl_from = int(a["dl"]), "given"
        if dl < 0:
            raise InvalidInput(f"a DL cannot be negative ({dl})", rule="FU-CON-3", dl=dl)
        initiatives: dict[str, int] = {}
    else:
        initiatives = {p.id: npc_initiative(ext, p) for p in foes}
        dl_from = max(initiatives, key=lambda k: initiatives[k])
        dl = initiatives[dl_from]
    pcs = [state.participants[pid] for pid in initiative_supporters(state, leader.id)]
    if a.get("supporters") is not None:
        named = [p for p in pcs_side if p.kind == Kind.PC.value and p.id != leader.id]
        chosen = []
        for sid in a["supporters"]:
            s = _active(state, sid)
            if s not in named:
                raise IllegalCommand(f"{s.name} cannot support {leader.name}: supporters are "
                                     f"other PCs on side {ext.pc_side}", rule="FU-CHK-5")
            if s in chosen:
                raise InvalidInput(f"{s.name} is listed twice as a supporter", rule="FU-CHK-5")
            chosen.append(s)
        pcs = chosen
    dice = a.get("dice")
    if dice is not None and len(dice) != 2 * (len(pcs) + 1):
        raise InvalidInput(
            f"initiative needs {2 * (len(pcs) + 1)} dice: two for each supporter "
            f"({', '.join(p.name for p in pcs) or 'none'}) in order, then the leader's two; "
            f"got {len(dice)}", rule="FU-CHK-5", dice=dice)
    events: list[Event] = []
    supporters: list[dict[str, Any]] = []
    helpers = 0
    bond = 0
    for i, s in enumerate(pcs):
        r = roll_check(ctx, (die(ext, s, "dex"), die(ext, s, "ins")), init_modifier(ext, s),
                       dice[2 * i: 2 * i + 2] if dice else None, s.name,
                       secret=secret_to(state, ctx.author, s.id, *INIT_FROM))
        res = outcome(r, SUPPORT_DL)
        res["participant"] = s.id
        res["bond"] = int((s.stats.get("bonds") or {}).get(leader.id, 0))
        supporters.append(res)
        events += fumble_fp(ext, s, res)
        if res["success"]:
            helpers += 1
            bond = max(bond, res["bond"])
    mod = init_modifier(ext, leader) + helpers + bond
    r = roll_check(ctx, (die(ext, leader, "dex"), die(ext, leader, "ins")), mod,
                   dice[-2:] if dice else None, leader.name,
                   secret=secret_to(state, ctx.author, leader.id, *INIT_FROM) or any(
                       secret_to(state, ctx.author, s.id, "bonds") for s in pcs))
    res = outcome(r, dl)
    first = ext.pc_side if res["success"] else ext.foe_side
    data = {"leader": leader.id, "dl": dl, "dl_from": dl_from, "initiatives": initiatives,
            "own_modifier": init_modifier(ext, leader), "support": helpers, "bond": bond,
            "supporters": tuple(supporters), "check": res, "success": res["success"],
            "first_side": first}
    events = [ev.InitiativeChecked(**data, actor=leader.id), *events,
              *fumble_fp(ext, leader, res)]
    return [ConflictStarted(), *events, RoundStarted(round=1)]


@decides("attack")
def decide_attack(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """A weapon attack: accuracy check (plus the weapon's bonus and any the situation gives,
    FU-CHK-1) vs Defense, damage HR + weapon (FU-RES-3)."""
    ext: FabulaExt = state.ext
    assert cmd.actor is not None
    p = state.participant(cmd.actor)
    pre, order, rnd = begin_turn(state, cmd.actor)
    target = _active(state, cmd.args["target"])
    gear = secret_to(state, ctx.author, p.id, "equipment")
    w = weapon_of(ext, p, cmd.args.get("weapon"), listed=not gear)
    sizes = (die(ext, p, w.accuracy[0]), die(ext, p, w.accuracy[1]))
    bonus = w.bonus + int(cmd.args.get("bonus", 0))  # the weapon's and the situation's
    res = outcome(roll_check(ctx, sizes, bonus, cmd.args.get("dice"), p.name,
                             secret=gear or secret_to(state, ctx.author, p.id, *w.accuracy)),
                  defense(ext, target, False))
    hit = res["success"]
    body: list[Event] = [ev.Attacked(target=target.id, weapon=w.name, **res, hit=hit,
                                     magic=False, actor=p.id)]
    body += fumble_fp(ext, p, res)
    if hit:
        body += damage_events(state, target, res["hr"] + w.damage, w.type, p.id)
    return finish_turn(order, rnd, p.id, pre, body)


@decides("spell")
def decide_spell(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """A spell: spend MP; an offensive one (on a foe, or dealing damage) is a magic check vs
    the target's Magic Defense, one on an ally takes effect with no check (FU-RES-1/3)."""
    ext: FabulaExt = state.ext
    assert cmd.actor is not None
    a = as_on_sheet(state, ctx.author, cmd.actor, cmd.args)
    p = state.participant(cmd.actor)
    pre, order, rnd = begin_turn(state, cmd.actor)
    mp = int(a.get("mp", 0))
    ext.mp[p.id].check_spend(mp, "FU-RES-1", what="MP", owner=p.id, names=state.names(),
                             secret=secret_to(state, ctx.author, p.id, "mp"))
    data: dict[str, Any] = {"name": a["name"], "mp": mp,
                            "mp_after": ext.mp[p.id].current - mp}
    if a.get("damage") is not None and a["damage"] < 0:
        raise InvalidInput(f"a spell's damage cannot be negative ({a['damage']})",
                           rule="FU-RES-3")
    restores = _check_recovery(a)
    status = a.get("status")
    if a.get("target") is None:
        if status is not None:
            raise InvalidInput(f"a spell that inflicts a status ({status.title()}) needs "
                               "target=ID", rule="FU-RES-4")
        if a.get("damage") is not None or a.get("dice") is not None or restores:
            raise InvalidInput(f"a spell with {'a recovery' if restores else 'damage or dice'}"
                               " needs target=ID", rule="FU-RES-3")
        return finish_turn(order, rnd, p.id, pre, [ev.Cast(**data, actor=p.id)])
    target = _active(state, a["target"])
    held = status in ext.statuses.get(target.id, ()) if status is not None else None
    data.update(status=status)
    if restores and target.side != p.side:
        raise IllegalCommand(f"{a['name']} restores {RECOVERIES[restores[0]].upper()}: it is "
                             f"cast on "
                             f"{possessive(p.name)} side, and {target.name} is not on it",
                             rule="FU-RES-3", target=target.id)
    if target.side == p.side and a.get("damage") is None:
        # FU-RES-3 [core]: only an offensive spell is a Magic Check against the target's
        # Magic Defense; one on an ally (or the caster) that deals no damage takes effect
        rolled = [f"{k}=" for k in ("accuracy", "dice") if a.get(k) is not None]
        rolled += ["bonus="] if a.get("bonus") else []
        if rolled:
            raise InvalidInput(
                f"{a['name']} on {target.name} rolls no Magic Check: a spell on an ally that "
                f"deals no damage takes effect; leave out {', '.join(rolled)}",
                rule="FU-RES-3")
        data.update(target=target.id, held=held or None)
        return finish_turn(order, rnd, p.id, pre, [ev.Cast(**data, actor=p.id),
                                                   *recovery(state, p, target, a, mp),
                                                   *inflicted(target, status, held)])
    accuracy = a.get("accuracy") or "ins+wlp"
    acc = parse_attributes(ext, p, accuracy)
    secret = secret_to(state, ctx.author, p.id, *named_attributes(accuracy))
    res = outcome(roll_check(ctx, acc, int(a.get("bonus", 0)), a.get("dice"), p.name,
                             secret=secret), defense(ext, target, True))
    hit = res["success"]
    data.update(target=target.id, **res, hit=hit, magic=True, held=(hit and held) or None)
    body: list[Event] = [ev.Cast(**data, actor=p.id), *fumble_fp(ext, p, res)]
    if hit and a.get("damage") is not None:
        body += damage_events(state, target, res["hr"] + int(a["damage"]),
                              a.get("type") or "physical", p.id)
    if hit and not any(isinstance(e, ParticipantOut) for e in body):
        body += inflicted(target, status, held)  # (one the hit took out has left the fight)
    return finish_turn(order, rnd, p.id, pre, body)


def inflicted(target: Participant, status: str | None, held: bool | None) -> list[Event]:
    """The status effect a spell puts on ``target`` as it takes effect, as the GM's ``status``
    command does (FU-RES-4); none where it holds that one already (the cast says so)."""
    return [] if status is None or held else [status_changed(target.id, status, True)]


def status_changed(target: str, effect: str, on: bool) -> ev.StatusChanged:
    """``effect`` put on (``on``) or taken off ``target``, with the dice it steps down
    (FU-RES-4)."""
    return ev.StatusChanged(target=target, effect=effect, on=on,
                            attributes=tuple(STATUSES[effect]))


def as_on_sheet(state: ConflictState, viewer: Viewer, pid: str,
                args: dict[str, Any]) -> dict[str, Any]:
    """A spell typed in by the name of one on ``pid``'s sheet is that spell: what the command
    leaves out — its MP cost above all, its damage, type, check and recovery — is the sheet's
    (FU-RES-1, FU-RES-3); a value typed in stands. Before, ``bea: spell Heal`` cast the
    sheet's 10-MP Heal for nothing. Not where the sheet's spells are the GM's to know for
    ``viewer`` (the author): the spell typed then stands as typed, whatever its name, so
    that nothing tells them what the sheet holds."""
    name = str(args.get("name", "")).strip().lower()
    ext: FabulaExt = state.ext
    known = next((s for s in ext.spells.get(pid, ()) if s.name.lower() == name), None)
    if known is None or secret_to(state, viewer, pid, "spells"):
        return args
    return {**known.args(), **args, "name": known.name}


def _check_recovery(args: dict[str, Any]) -> list[str]:
    """The ``recover=`` and ``recover_mp=`` a spell is given, checked: whole numbers, 0 or
    more, and not beside a damage (a spell deals damage or restores; FU-RES-1, FU-RES-3)."""
    given = [key for key in RECOVERIES if args.get(key) is not None]
    for key in given:
        if args[key] < 0:
            raise InvalidInput(f"a spell's {key} cannot be negative ({args[key]})",
                               rule="FU-RES-1", **{key: args[key]})
    if given and args.get("damage") is not None:
        raise InvalidInput(f"a spell deals damage (a Magic Check) or restores "
                           f"{RECOVERIES[given[0]].upper()} ({given[0]}=), not both",
                           rule="FU-RES-3")
    return given


def recovery(state: ConflictState, caster: Participant, target: Participant,
             args: dict[str, Any], mp: int) -> list[Event]:
    """What a spell restores to ``target`` (``recover=`` HP, ``recover_mp=`` MP), each pool
    up to its maximum (FU-RES-1); the caster's own MP counted after the ``mp`` it spent."""
    ext: FabulaExt = state.ext
    out: list[Event] = []
    for key, pool_name in RECOVERIES.items():
        amount = args.get(key)
        pool = {"hp": ext.hp, "mp": ext.mp}[pool_name].get(target.id)
        if not amount or pool is None:
            continue
        now = pool.current - (mp if pool_name == "mp" and target.id == caster.id else 0)
        after = min(pool.maximum, now + int(amount))
        out.append(ev.Recovered(target=target.id, pool=pool_name, amount=after - now,
                                after=after))
    return out


@decides("check")
def decide_check(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """A check of two attributes against a DL (FU-CHK-1..4), as a turn or outside turns."""
    ext: FabulaExt = state.ext
    a = cmd.args
    assert cmd.actor is not None
    p = state.participant(cmd.actor)
    sizes = parse_attributes(ext, p, a["attributes"])
    if a["dl"] < 0:
        raise InvalidInput(f"a DL cannot be negative ({a['dl']})", rule="FU-CHK-1")
    take_turn = bool(a.get("turn", True))
    if take_turn:
        pre, order, rnd = begin_turn(state, p.id)
    secret = secret_to(state, ctx.author, p.id, *named_attributes(a["attributes"]))
    res = outcome(roll_check(ctx, sizes, int(a.get("bonus", 0)), a.get("dice"), p.name,
                             secret=secret), a["dl"])
    body: list[Event] = [ev.Checked(attributes=a["attributes"], **res, actor=p.id),
                         *fumble_fp(ext, p, res)]
    return finish_turn(order, rnd, p.id, pre, body) if take_turn else body


@decides("act")
def decide_act(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """A free-text action that takes the turn (FU-CON-6)."""
    assert cmd.actor is not None
    pre, order, rnd = begin_turn(state, cmd.actor)
    body: list[Event] = [ev.Acted(text=cmd.args.get("text") or "acts", actor=cmd.actor)]
    return finish_turn(order, rnd, cmd.actor, pre, body)


@decides("pass")
def decide_pass(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """Always refused: a character with a turn available cannot pass (FU-CON-6)."""
    ext: FabulaExt = state.ext
    assert cmd.actor is not None
    p = state.participant(cmd.actor)
    order = ext.order
    waiting = ""
    if order is not None and p.id in order.side_of and state.status == Status.RUNNING.value:
        names = state.names()
        left = [names.get(a, a) for a in order.members(order.side_of[p.id])
                if turns_left_next(ext, a) > 0]
        if left:
            waiting = (f" ({', '.join(left)} {'has' if len(left) == 1 else 'have'} a turn "
                       f"left this round on side {order.side_of[p.id]})")
    raise IllegalCommand(f"{p.name} cannot pass: nobody passes a turn{waiting}; take an "
                         "action (act TEXT) when your side is on turn", rule="FU-CON-6",
                         participant=p.id)


@decides("equip")
def decide_equip(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """Declare an equipped item before the start (FU-CON-2)."""
    assert cmd.actor is not None
    p = state.participant(cmd.actor)
    _setup_only(state, f"{p.name} declaring equipment", "FU-CON-2")
    data = {k: v for k, v in cmd.args.items() if v is not None}
    # a weapon's accuracy has a default, so only the values without one are checked for kind
    item = check_item(p.id, data, given=("bonus", "damage", "type"))
    return [ev.ItemEquipped(participant=p.id, item=asdict(item), actor=p.id)]


@decides("damage", "recover", "spend", "status", "fabula")
def decide_pools(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """damage, recover, spend, status and fabula (FU-RES-1..4, FU-CHK-4)."""
    ext: FabulaExt = state.ext
    a = cmd.args
    verb = cmd.verb
    if verb == "damage":
        target = _active(state, a["target"])
        if a["amount"] < 0:
            raise InvalidInput(f"damage cannot be negative ({a['amount']})", rule="FU-RES-1")
        return close_round(state, damage_events(state, target, a["amount"],
                                                a.get("type") or "physical"))
    if verb == "recover":
        target = _active(state, a["target"])
        pools = {"hp": ext.hp, "mp": ext.mp, "ip": ext.ip}[a["pool"]]
        if target.id not in pools:
            raise IllegalCommand(f"{target.name} has no {a['pool'].upper()} (IP is for PCs)",
                                 rule="FU-RES-1")
        pool = pools[target.id]
        pool.check_amount(a["amount"], "FU-RES-1")
        after = min(pool.maximum, pool.current + a["amount"])
        return [ev.Recovered(target=target.id, pool=a["pool"], amount=after - pool.current,
                             after=after)]
    if verb == "spend":
        assert cmd.actor is not None
        p = _active(state, cmd.actor)
        pools = {"hp": ext.hp, "mp": ext.mp, "ip": ext.ip}[a["pool"]]
        if p.id not in pools:
            raise IllegalCommand(f"{p.name} has no {a['pool'].upper()} (IP is for PCs)",
                                 rule="FU-RES-1")
        pools[p.id].check_spend(a["amount"], "FU-RES-1", what=a["pool"].upper(), owner=p.id,
                                names=state.names(),
                                secret=secret_to(state, ctx.author, p.id, a["pool"]))
        after = pools[p.id].current - a["amount"]
        events: list[Event] = [ev.Spent(participant=p.id, pool=a["pool"], amount=a["amount"],
                                        after=after, why=a.get("why") or None, actor=p.id)]
        if a["pool"] == "hp" and after == 0:
            events.append(ParticipantOut(participant=p.id, reason="defeated (0 HP)"))
        return close_round(state, events)
    if verb == "status":
        target = _active(state, a["target"])
        has = a["effect"] in ext.statuses.get(target.id, [])
        on = bool(a.get("on", True))
        if on == has:
            raise IllegalCommand(
                f"{target.name} is {'already' if has else 'not'} {a['effect'].title()}",
                rule="FU-RES-4", effect=a["effect"])
        return [status_changed(target.id, a["effect"], on)]
    # fabula
    assert cmd.actor is not None
    p = state.participant(cmd.actor)
    if p.id not in ext.fp:
        raise IllegalCommand(f"{p.name} is not a PC and has no Fabula Points", rule="FU-CHK-4")
    delta = int(a["delta"])
    if delta == 0:
        raise InvalidInput("fabula needs a change such as +1 or -1", rule="FU-CHK-4")
    if ext.fp[p.id] + delta < 0:
        if secret_to(state, ctx.author, p.id, "fp"):  # GM-only: not even its player's
            raise IllegalCommand(f"{p.name} has not enough Fabula Points to spend {-delta}",
                                 rule="FU-CHK-4")
        raise IllegalCommand(f"{p.name} has {ext.fp[p.id]} Fabula Points, not enough to spend "
                             f"{-delta}", rule="FU-CHK-4", fp=ext.fp[p.id])
    return [ev.FabulaChanged(participant=p.id, delta=delta, fp_after=ext.fp[p.id] + delta,
                             why=a.get("why") or None, actor=p.id)]


@decides("goal")
def decide_goal(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """A character's goal (FU-CON-2)."""
    assert cmd.actor is not None
    return [ev.GoalSet(participant=cmd.actor, text=cmd.args["text"], actor=cmd.actor)]


@decides("extra")
def decide_extra(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """Make a participant an extra, or not, before the start (FU-CON-1)."""
    ext: FabulaExt = state.ext
    p = state.participant(cmd.args["id"])
    if state.status != Status.SETUP.value:
        raise IllegalCommand("who takes part is settled before the conflict starts",
                             rule="FU-CON-1")
    on = bool(cmd.args.get("on", True))
    if on == is_extra(ext, p):
        raise IllegalCommand(f"{p.name} is {'already' if is_extra(ext, p) else 'not'} "
                             "an extra", rule="FU-CON-1")
    return [ev.ExtraSet(participant=p.id, on=on)]


@decides("assign")
def decide_assign(state: ConflictState, cmd: Command, ctx: DecideContext) -> list[Event]:
    """Put a participant on one of the two sides (FU-CON-13)."""
    ext: FabulaExt = state.ext
    a = cmd.args
    p = state.participant(a["id"])
    if a["side"] not in (ext.pc_side, ext.foe_side):
        raise InvalidInput(f"side {a['side']!r} is not one of the two sides "
                           f"{ext.pc_side} and {ext.foe_side}", rule="FU-CON-13")
    if p.side == a["side"]:
        raise IllegalCommand(f"{p.name} is already on side {p.side}", rule="FU-CON-13")
    if not p.active:
        raise IllegalCommand(f"{p.name} is no longer in the conflict", rule="FU-CON-12")
    return close_round(state, [ev.SideAssigned(participant=p.id, side=a["side"], was=p.side)])
