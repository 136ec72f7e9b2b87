"""Decide for VERS: turns, moves, attacks, recovery and repair, one handler a command."""

from __future__ import annotations

from fracas.engine.commands import Command
from fracas.engine.components.ladders import ConditionLadder
from fracas.engine.engine_events import RoundEnded, RoundStarted
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState
from fracas.engine.secrets import Modifier, stat_is_secret
from fracas.engine.suggest import did_you_mean
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.vers.decider import (
    HANDLERS,
    action,
    active,
    actor_of,
    attack_plan,
    ext_of,
    free_attacks,
    harm,
    holding_foes,
    hostile_guards,
    name,
    object_zone,
    out_of_reach,
    own_mods,
    plan_known,
    reach_text,
    readied,
    resolve_attack,
    roll,
    start_if_needed,
    stat_mod,
    take_out,
    way,
    weapon_source,
)
from fracas.rulesets.vers.events import (
    Disengaged,
    Endured,
    Moved,
    Recovered,
    Repaired,
    Slipped,
    VersTurnEnded,
    VersTurnStarted,
)
from fracas.rulesets.vers.state import (
    RECOVERY_PENALTY,
    REPAIR_PENALTY,
    SKILL_ATTRIBUTE,
    VersObject,
    ranks,
    track_armor,
    weapons_of,
)


def _actions_of(d: Decision, pid: str) -> int:
    """Actions a go gives: one for a disabled character (VR-TURN-4), else two."""
    return 1 if ext_of(d.state).disabled(pid) else 2


@HANDLERS.decides("open")
def decide_open(d: Decision, cmd: Command) -> None:
    """VR-TURN-1/3: the GM records the table's choice of opener."""
    first = cmd.args["first"]
    p = active(d.state, first, "VR-TURN-1")
    turns = ext_of(d.state).turns
    if turns.round_opened and turns.current is not None:
        raise IllegalCommand(
            f"{name(d.state, turns.current)} is acting now; the turn is under way (opened by "
            f"{name(d.state, turns.openers[-1])})", rule="VR-TURN-1")
    start_if_needed(d)
    actions = _actions_of(d, first)
    if turns.round_opened and first not in turns.gone:
        d.emit(VersTurnStarted(participant=first, actions=actions, resumed=True))
        return
    if turns.round_opened:
        if [m for m in turns.not_gone() if d.state.participants[m].active]:
            raise IllegalCommand(f"{p.name} has already gone this turn; choose someone who "
                                 "has not", rule="VR-TURN-2", participant=first)
        d.fold(RoundEnded(round=d.state.round))  # the check below sees it
    ext_of(d.state).turns.check_open(first, "VR-TURN-1", names=d.state.names())
    d.emit(RoundStarted(round=d.state.round + 1),
           VersTurnStarted(participant=first, actions=actions, opens=True))


@HANDLERS.decides("handoff")
def decide_handoff(d: Decision, cmd: Command) -> None:
    """VR-TURN-2/3: hand off to someone who has not gone, or end the turn."""
    actor = cmd.actor
    if actor is None:
        decide_gm_handoff(d, cmd)
        return
    state = d.state
    turns = ext_of(state).turns
    if turns.current != actor:
        now = (f"it is {possessive(name(state, turns.current))} go" if turns.current
               else "nobody's go")
        raise NotYourTurn(f"{name(state, actor)} is not acting now; {now}", rule="VR-TURN-2")
    if actor in ext_of(state).pending_discipline:
        raise IllegalCommand(
            f"{name(state, actor)} is disabled and rolls Discipline to stay conscious before "
            f"its go ends ('{actor}: endure')", rule="VR-INJ-3", actor=actor)
    to = cmd.args.get("to")
    rest = [m for m in turns.not_gone() if m != actor and state.participants[m].active]
    if to is None:
        if rest and all_hidden_from(d, rest):
            # those left to go are all hidden from the player handing off: the go ends as if
            # nobody were left, and the GM hands off for it (a refusal naming no one, or no
            # hand-off to offer, would tell of them; the player could not end the go)
            d.emit(VersTurnEnded(participant=actor))
            return
        if rest:
            raise IllegalCommand(
                f"{', '.join(name(state, r) for r in rest)} "
                f"{'has' if len(rest) == 1 else 'have'} not gone yet; hand off to one of them",
                rule="VR-TURN-2", waiting=rest)
        d.emit(VersTurnEnded(participant=actor),
               RoundEnded(round=state.round))
        return
    target = active(state, to, "VR-TURN-2")
    say = cmd.args.get("say") or None
    if not rest and state.settings.get("last_chooses_opener", False) and to in turns.members:
        d.emit(VersTurnEnded(participant=actor),
               RoundEnded(round=state.round),
               RoundStarted(round=state.round + 1),
               VersTurnStarted(participant=to, from_=actor, actions=_actions_of(d, to),
                               say=say, opens=True))
        return
    if (to == turns.current or to in turns.gone) and (not rest or all_hidden_from(d, rest)):
        # nobody (the player knows of) is left: the go ends with a bare hand-off, never by
        # handing off to one who has gone; worded alike whether or not hidden ones wait
        raise IllegalCommand(
            f"everyone has gone this turn; end {possessive(name(state, actor))} go with "
            f"'{actor}: handoff' (the table then picks who opens the next turn)",
            rule="VR-TURN-3", target=to)
    turns.check_hand_off(target.id, "VR-TURN-2", names=state.names())
    d.emit(VersTurnEnded(participant=actor),
           VersTurnStarted(participant=to, from_=actor, actions=_actions_of(d, to), say=say))


def all_hidden_from(d: Decision, ids: list[str]) -> bool:
    """Whether the command's author is a player from whom every one of ``ids`` is hidden."""
    author = d.ctx.author
    return not author.is_gm and not any(d.ruleset.can_see(d.state, author, m) for m in ids)


def decide_gm_handoff(d: Decision, cmd: Command) -> None:
    """VR-TURN-2: the GM hands off for a character taken out (or gone) during its go."""
    state = d.state
    turns = ext_of(state).turns
    to = cmd.args.get("to")
    if turns.current is not None:
        raise IllegalCommand(
            f"{name(state, turns.current)} is acting now and hands off itself "
            f"('{turns.current}: handoff WHO'); the GM hands off only when the one acting "
            "was taken out or left", rule="VR-TURN-2")
    if not turns.round_opened:
        raise IllegalCommand("no turn is under way; the table picks who opens it ('open WHO')",
                             rule="VR-TURN-1")
    if to is None:
        waiting = [m for m in turns.not_gone() if state.participants[m].active]
        raise InvalidInput("name who goes next: " + ", ".join(
            f"'handoff {m}'" for m in waiting), rule="VR-TURN-2")
    target = active(state, to, "VR-TURN-2")
    turns.check_hand_off(target.id, "VR-TURN-2", names=state.names())
    d.emit(VersTurnStarted(participant=to, by_gm=True, actions=_actions_of(d, to),
                           say=cmd.args.get("say") or None))


@HANDLERS.decides("endure")
def decide_endure(d: Decision, cmd: Command) -> None:
    """VR-INJ-3: the Discipline roll to stay conscious."""
    actor = actor_of(cmd)
    if actor not in ext_of(d.state).pending_discipline:
        raise IllegalCommand(f"{name(d.state, actor)} has no Discipline roll to make (only a "
                             "disabled character rolls to stay conscious)", rule="VR-INJ-3")
    c = roll(d, actor, "discipline", own_mods(d.state, actor), cmd.args.get("dice"))
    d.emit(Endured(who=actor, **c.check_fields(), actor=actor))
    if not c.success:
        d.emit(*take_out(d.state, actor, "unconscious"))


def _check_not_engaged(d: Decision, actor: str) -> None:
    """An engaged character must disengage before it moves away (VR-MOVE-4; an engagement
    with one hidden from its player does not hold it, :func:`holding_foes`)."""
    foes = holding_foes(d.state, actor)
    if foes:
        raise IllegalCommand(
            f"{name(d.state, actor)} is engaged with "
            f"{', '.join(name(d.state, f) for f in foes)}; disengage first "
            f"('{actor}: disengage')", rule="VR-MOVE-4", engaged=foes)


def _begin_move(d: Decision, cmd: Command, steps: int, rule: str) -> tuple[str, str, int]:
    """Spend the action and check a move to ``to`` of at most ``steps`` zones (``rule``) by
    a character not engaged (VR-MOVE-4); return the mover, its zone and the actions spent."""
    actor = actor_of(cmd)
    zones = ext_of(d.state).zones
    spend = action(d, cmd, actor)
    _check_not_engaged(d, actor)
    zones.check_move(actor, cmd.args["to"], steps, rule, names=d.state.names())
    here = zones.zone_of(actor)
    assert here is not None
    return actor, here, spend


@HANDLERS.decides("move")
def decide_move(d: Decision, cmd: Command) -> None:
    """VR-MOVE-1/2/4/5: one zone, or two with an Athletics roll."""
    a = cmd.args
    actor, here, spend = _begin_move(d, cmd, 2, "VR-MOVE-1")
    ext = ext_of(d.state)
    path, guards = way(d.state, actor, here, a["to"])
    if guards:
        how = (f"'{actor}: slip {path[1]}'" if hostile_guards(d.state, actor, path[:2])
               else f"'{actor}: move {path[1]}', then '{actor}: slip {path[2]}'")
        raise IllegalCommand(
            f"{', '.join(name(d.state, g) for g in guards)} "
            f"guard{'s' if len(guards) == 1 else ''} the way; getting past needs an "
            f"Athletics roll ({how})", rule="VR-MOVE-5", guards=guards)
    if len(path) == 2:
        d.emit(Moved(who=actor, from_=here, to=a["to"], path=tuple(path), spend=spend,
                     actor=actor))
        return
    if a.get("onfail") == "both" and not d.ctx.author.is_gm:
        raise IllegalCommand(
            "what a failed dash costs is the GM's call: a player's dash that fails falls "
            f"short; the GM gives '{actor}: move {a['to']} onfail=both' where it takes both "
            "actions", rule="VR-MOVE-2")
    if a.get("onfail") == "both" and ext.turns.round_opened and ext.turns.actions_left < 2:
        raise InvalidInput(f"{name(d.state, actor)} has one action left: a failed dash "
                           "cannot take both actions (use onfail=short)", rule="VR-MOVE-2")
    c = roll(d, actor, "athletics", own_mods(d.state, actor), a.get("dice"))
    if c.success:
        dest, used, result = a["to"], spend, "made it"
    elif a.get("onfail") == "both":
        dest, used, result = a["to"], spend * 2, "both actions"
    else:
        dest, used, result = path[1], spend, "fell short"
    d.emit(Moved(who=actor, from_=here, to=dest, goal=a["to"], path=tuple(path), check=c,
                 result=result, spend=used, actor=actor))


@HANDLERS.decides("slip")
def decide_slip(d: Decision, cmd: Command) -> None:
    """VR-MOVE-5: Athletics past the guards of a way, penalty the best guard's Close Combat
    ranks (+2 a further guard); a failure always takes the guard's blow: the EV of its readied
    weapon (+2 a further guard) against the mover's armour, with no attack roll."""
    a = cmd.args
    actor, here, spend = _begin_move(d, cmd, 1, "VR-MOVE-5")
    state = d.state
    guards = hostile_guards(state, actor, [here, a["to"]])
    if not guards:
        raise InvalidInput(f"nobody guards the way from {here} to {a['to']}; just move",
                           rule="VR-MOVE-5")
    best, extra, mods = slip_roll(state, actor, guards)
    c = roll(d, actor, "athletics", mods, a.get("dice"))
    d.emit(Slipped(who=actor, from_=here, to=a["to"], guards=tuple(guards), check=c,
                   spend=spend, actor=actor))
    if not c.success:
        weapon = readied(state, best)
        ev = int(weapons_of(state.participants[best])[weapon].get("ev", 0)) + extra
        net = ev - track_armor(state.participants[actor], "injury")
        d.emit(*harm(state, actor, net, "injury",
                     f"{possessive(name(state, best))} {weapon} (guarded way)",
                     weapon_source(state, best)))


def slip_roll(state: ConflictState, actor: str, guards: list[str]
              ) -> tuple[str, int, list[Modifier]]:
    """The guard whose blow a failed slip past ``guards`` takes (the best at Close Combat),
    the +2 a further guard adds to the penalty and the EV, and the Athletics roll's
    modifiers (VR-MOVE-5)."""
    best = max(guards, key=lambda g: ranks(state.participants[g], "close_combat"))
    extra = 2 * (len(guards) - 1)
    pen = ranks(state.participants[best], "close_combat") + extra
    return best, extra, [
        *own_mods(state, actor),
        stat_mod(state, f"guarded by {', '.join(name(state, g) for g in guards)}", -pen,
                 (best, "skills"))]


def disengage_roll(state: ConflictState, actor: str) -> tuple[list[str], list[Modifier]]:
    """The opponents holding ``actor`` in close combat (:func:`holding_foes`), and the
    modifiers of its Disengage roll: −2 for each beyond the first (VR-MOVE-4)."""
    foes = holding_foes(state, actor)
    mods = own_mods(state, actor)
    if len(foes) > 1:  # read in the breakdown: "−2 for 1 more opponent" (a stored roll keeps
        more = len(foes) - 1  # the label it was made with: "1 more opponent(s)")
        mods.append(Modifier(f"for {more} more opponent{'s' if more > 1 else ''}", -2 * more))
    return foes, mods


@HANDLERS.decides("disengage")
def decide_disengage(d: Decision, cmd: Command) -> None:
    """VR-MOVE-4: Athletics, −2 per engaged opponent beyond the first; free attacks on failure."""
    actor = actor_of(cmd)
    state = d.state
    spend = action(d, cmd, actor)
    foes, mods = disengage_roll(state, actor)
    if not foes:
        raise IllegalCommand(f"{name(state, actor)} is not engaged with anyone",
                             rule="VR-MOVE-4")
    c = roll(d, actor, "athletics", mods, cmd.args.get("dice"))
    d.emit(Disengaged(who=actor, from_=tuple(foes), check=c, spend=spend, actor=actor))
    if not c.success:
        free_attacks(d, foes, actor, cmd.args.get("free"))


@HANDLERS.decides("attack")
def decide_attack(d: Decision, cmd: Command) -> None:
    """VR-ROLL-2, VR-ATK-*: an attack with its breakdown, harm and cover hits."""
    actor = actor_of(cmd)
    a = cmd.args
    objects = ext_of(d.state).objects
    if a["target"] not in d.state.participants and a["target"] not in objects:
        # the GM is told what was meant; a player never (it could name someone hidden)
        hint = did_you_mean(a["target"], [*d.state.participants, *objects]) \
            if d.ctx.author.is_gm else ""
        raise InvalidInput(f"no character or object {a['target']!r} to attack{hint}")
    spend = action(d, cmd, actor)
    author = d.ctx.author
    secret = stat_is_secret(d.state, author, actor, "weapons")
    plan = attack_plan(d.state, actor, a["target"], a.get("weapon"), track=a.get("track"),
                       skill=a.get("skill"), ev=a.get("ev"), secret=secret)
    # a throw that cannot reach (VR-ATK-3) is refused to one who may know every number of
    # it, as it is not offered; another's is rolled, so that no refusal tells a hidden one
    if out_of_reach(plan) and (author.is_gm or (not secret and plan_known(
            d.state, author, lambda pid: d.ruleset.can_see(d.state, author, pid), plan))):
        raise IllegalCommand(reach_text(d.state, plan), rule="VR-ATK-3",
                             distance=plan.distance)
    d.emit(*resolve_attack(d, plan, a.get("dice"), spend))


@HANDLERS.decides("recover")
def decide_recover(d: Decision, cmd: Command) -> None:
    """VR-INJ-4: a recovery action with the penalty of the patient's highest condition held,
    on top of the roller's own condition penalties (VR-INJ-3: "−1 to all skills")."""
    actor = actor_of(cmd)
    a = cmd.args
    state = d.state
    who = a.get("who") or actor
    patient = active(state, who, "VR-INJ-4")
    track = a["track"]
    ladder = ext_of(state).harm[patient.id][track]
    ladder.check_remove("VR-INJ-4", owner=who, names=state.names())
    spend = action(d, cmd, actor)
    highest = ladder.highest()
    assert highest is not None
    c = roll(d, actor, a["skill"], recovery_mods(state, actor, patient.name, ladder),
             a.get("dice"))
    d.emit(Recovered(who=who, by=actor, track=track,
                     level=ladder.levels[highest].name if c.success else None, check=c,
                     spend=spend, actor=actor))


def recovery_mods(state: ConflictState, actor: str, patient: str, ladder: ConditionLadder
                  ) -> list[Modifier]:
    """The modifiers of ``actor``'s recovery roll on ``patient``'s ``ladder``: the roller's
    own condition penalties (VR-INJ-3) and that of the highest condition held (VR-INJ-4)."""
    highest = ladder.highest()
    assert highest is not None
    return [*own_mods(state, actor),
            Modifier(f"recovery ({patient} {ladder.levels[highest].name})",
                     RECOVERY_PENALTY[highest])]


def repair_mods(state: ConflictState, actor: str, obj: VersObject) -> list[Modifier]:
    """The modifiers of ``actor``'s repair roll on ``obj``: the roller's own condition
    penalties and that of the object's highest condition (VR-OBJ-5)."""
    highest = obj.ladder.highest()
    assert highest is not None
    return [*own_mods(state, actor),
            Modifier(f"{obj.name} {obj.ladder.levels[highest].name}", REPAIR_PENALTY[highest])]


def repairs_with(skill: str) -> bool:
    """Whether ``skill`` may repair an object: the repair skill or a background or special
    one (the seed: "the right background or special skill"), never another standard skill,
    which has other uses (Persuasion would mend a crossbow at the TN of Charisma, VR-OBJ-5)."""
    return skill == "repair" or skill not in SKILL_ATTRIBUTE


@HANDLERS.decides("repair")
def decide_repair(d: Decision, cmd: Command) -> None:
    """VR-OBJ-5: repair the highest condition of an object (never a broken one by action)."""
    actor = actor_of(cmd)
    a = cmd.args
    objects = ext_of(d.state).objects
    obj = objects.get(a["id"])
    if obj is None:
        raise InvalidInput(f"no object {a['id']!r} (objects: {', '.join(objects)})")
    highest = obj.ladder.highest()
    if highest is None:
        raise IllegalCommand(f"{obj.name} has no condition to repair", rule="VR-OBJ-5",
                             object=a["id"])
    if obj.broken:
        raise IllegalCommand(f"{obj.name} is broken; no repair action mends it (the GM may "
                             f"restore it: 'restore {a['id']}')", rule="VR-OBJ-5")
    zones = ext_of(d.state).zones
    here, there = zones.zone_of(actor), object_zone(d.state, a["id"])
    if there and here and here != there:
        raise IllegalCommand(f"{obj.name} is in {zones.zones[there].name or there}; "
                             f"{d.state.participants[actor].name} must be there to repair it",
                             rule="VR-OBJ-5", object=a["id"])
    if not repairs_with(a["skill"]):
        raise IllegalCommand(f"{a['skill'].replace('_', ' ').capitalize()} repairs nothing: "
                             "an object is repaired with the repair skill or a background or "
                             "special skill (smithing)", rule="VR-OBJ-5", skill=a["skill"])
    spend = action(d, cmd, actor)
    c = roll(d, actor, a["skill"], repair_mods(d.state, actor, obj), a.get("dice"))
    d.emit(Repaired(object=a["id"], by=actor, check=c, spend=spend,
                    level=obj.ladder.levels[highest].name if c.success else None,
                    actor=actor))
