"""The steps VERS commands share: actions, checks, attacks and the harm they deal.

Each command is decided by its handler (``HANDLERS``, the engine's one decide pattern) on a
:class:`~fracas.engine.handlers.Decision`. The steps here read ``d.state`` and return events;
the handler emits them (folding only where a later step must see the state they leave: a turn
ended before a new one opens), so that a command copies no state; free attacks one after
another see each other's harm on a copy of the target's ladders only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fracas.engine.commands import Command
from fracas.engine.components import ConditionLadder
from fracas.engine.concealment import concealed_from
from fracas.engine.engine_events import ConflictStarted, ParticipantOut, RoundEnded
from fracas.engine.events import Event
from fracas.engine.handlers import Decision, Handlers
from fracas.engine.model import ConflictState, Participant, Status, Viewer
from fracas.engine.secrets import Modifier, redact_marked
from fracas.engine.words import possessive
from fracas.errors import FracasError, IllegalCommand, InvalidInput, NotYourTurn
from fracas.rulesets.vers.checks import Check, check, source
from fracas.rulesets.vers.events import Attack, Condition, ObjectDamaged, VersTurnEnded
from fracas.rulesets.vers.state import (
    KIND_TRACK,
    VersExt,
    VersObject,
    dodge,
    dodge_sources,
    ranks,
    reach,
    skill_tn,
    track_armor,
    track_defence,
    weapons_of,
)

#: Every VERS command's handler, and the evolve and describe handlers of its events.
HANDLERS = Handlers()

COMBAT_VERBS = frozenset({"attack", "move", "slip", "disengage"})


def ext_of(state: ConflictState) -> VersExt:
    """The VERS part of ``state``."""
    ext: VersExt = state.ext
    return ext


def name(state: ConflictState, pid: str) -> str:
    """A participant's or object's display name."""
    if pid in state.participants:
        return state.participants[pid].name
    objects = ext_of(state).objects
    return objects[pid].name if pid in objects else pid


def active(state: ConflictState, pid: str, rule: str | None = None) -> Participant:
    """The participant ``pid``, refusing one no longer in the conflict."""
    p = state.participant(pid)
    if not p.active:
        raise IllegalCommand(f"{p.name} is no longer in the conflict ({p.out or 'left'})",
                             rule=rule, participant=pid)
    return p


def actor_of(cmd: Command) -> str:
    """The character giving ``cmd`` (its spec requires one)."""
    assert cmd.actor is not None
    return cmd.actor


def start_if_needed(d: Decision) -> None:
    """The conflict begins with its first turn or chase."""
    if d.state.status == Status.SETUP.value:
        d.emit(ConflictStarted())


def action(d: Decision, cmd: Command, actor: str, n: int = 1) -> int:
    """Check that ``actor`` may take ``n`` actions now; return the actions to spend.

    Combat actions need the actor's go; other actions outside a turn (a chase on its own,
    downtime repairs) spend nothing.
    """
    ext = ext_of(d.state)
    if actor in ext.pending_discipline:
        raise IllegalCommand(
            f"{name(d.state, actor)} is disabled and must first roll Discipline to stay "
            f"conscious ('{actor}: endure')", rule="VR-INJ-3", actor=actor)
    if not ext.turns.round_opened and cmd.verb not in COMBAT_VERBS:
        return 0
    if not ext.turns.round_opened:
        raise NotYourTurn(
            f"Nobody is acting: the GM opens the turn first ('open {actor}')",
            rule="VR-TURN-1", actor=actor)
    why = (f"{name(d.state, actor)} is disabled and has a single action a go"
           if n > ext.turns.actions_left and ext.disabled(actor) else "")
    ext.turns.check_action(actor, "VR-TURN-2", "VR-TURN-4", n, names=d.state.names(), why=why)
    return n


def own_mods(state: ConflictState, pid: str) -> list[Modifier]:
    """The condition penalties ``pid`` carries to every roll (VR-INJ-3, VR-INJ-5)."""
    mods: list[Modifier] = []
    for ladder in ext_of(state).ladders(pid).values():
        for level, marks in zip(ladder.levels, ladder.marks, strict=False):  # one per level
            held = len(marks)
            if held and level.penalty:
                times = held if level.penalty_each else 1
                label = level.name + (f" ×{held}" if times > 1 else "")
                mods.append(Modifier(label, level.penalty * times))
    return mods


def roll(d: Decision, pid: str, skill: str, mods: Sequence[Modifier],
         dice: Sequence[int] | None) -> Check:
    """A check by ``pid`` in ``skill`` with ``mods`` (its own penalties not included)."""
    return check(d.ctx, skill, skill_tn(d.state, d.state.participants[pid], skill), mods, dice)


def stat_mod(state: ConflictState, label: str, value: int,
             *candidates: tuple[str, str]) -> Modifier:
    """A modifier computed from participants' stats, carrying the stat it comes from."""
    pid, stat = source(state, *candidates)
    return Modifier(label, value, pid, stat)


def _parry(state: ConflictState, t: Participant) -> Modifier:
    """The close-combat defence of ``t``: its Dodge or its Close Combat ranks, the greater
    (VR-ROLL-2). Where either is GM-only, the modifier names both, so that which one counts
    tells nothing of the secret one."""
    cc, dg = ranks(t, "close_combat"), dodge(t)
    skills, dodging = ((t.id, "skills"),), dodge_sources(t)
    if any(stat in t.gm_only for _, stat in (*skills, *dodging)):
        return stat_mod(state, f"{possessive(t.name)} close combat or dodge", -max(cc, dg), *skills,
                        *dodging)
    if dg >= cc:
        return stat_mod(state, f"{possessive(t.name)} dodge", -dg, *dodging)
    return stat_mod(state, f"{possessive(t.name)} close combat", -cc, *skills)


def weapon_source(state: ConflictState, attacker: str) -> str | None:
    """The attacker, when the EV it deals comes from its GM-only weapons (None otherwise)."""
    p = state.participants.get(attacker)
    return attacker if p is not None and "weapons" in p.gm_only else None


# --- harm ----------------------------------------------------------------------------------

def scratch(ladder: ConditionLadder) -> ConditionLadder:
    """A copy of ``ladder`` to work harm out on (its levels, never changed, are shared)."""
    return ConditionLadder(levels=ladder.levels, marks=[list(m) for m in ladder.marks],
                           taken_out=ladder.taken_out,
                           taken_out_when_full=ladder.taken_out_when_full)


def harm(state: ConflictState, pid: str, net: int, track: str, why: str,
         by: str | None = None, working: dict[str, ConditionLadder] | None = None
         ) -> list[Event]:
    """A condition for ``net`` EV on ``pid``'s ``track``, and the take-out when there is
    nowhere to go (``by``: the attacker whose GM-only weapon dealt it). ``working``: ``pid``'s
    ladders as earlier steps of the same command left them (marked here too)."""
    ext = ext_of(state)
    if net < 0 or pid not in ext.harm:
        return []
    ladder = working[track] if working is not None else scratch(ext.harm[pid][track])
    result = ladder.take(net, why)
    events: list[Event] = [Condition(
        who=pid, track=track, ev=net, why=why,
        landed=ladder.levels[result.landed].name if result.landed is not None else None,
        level=ladder.levels[result.level].name if result.level is not None else None,
        index=result.level, upgraded=result.upgraded, taken_out=result.taken_out, by=by)]
    if result.taken_out:
        events += take_out(state, pid, f"{track} track full")
    return events


def take_out(state: ConflictState, pid: str, reason: str) -> list[Event]:
    """``pid`` is out of the conflict; a go of its own under way ends (VR-TURN-2/3)."""
    return [ParticipantOut(participant=pid, reason=reason),
            *boundary_after_leave(state, pid)]


def damage_object(state: ConflictState, oid: str, ev: int, why: str,
                  by: str | None = None) -> ObjectDamaged:
    """An object takes ``ev`` against its hardness (VR-OBJ-2/3)."""
    ext = ext_of(state)
    obj = ext.objects[oid]
    net = ev - obj.hardness
    if net < 0 or obj.broken:
        return ObjectDamaged(object=oid, ev=ev, hardness=obj.hardness, net=net, why=why,
                             broken=obj.broken, by=by)
    ladder = scratch(obj.ladder)
    result = ladder.take(net, why)
    broken = result.taken_out or ladder.count(3) > 0
    return ObjectDamaged(
        object=oid, ev=ev, hardness=obj.hardness, net=net, why=why,
        level=ladder.levels[result.level].name if result.level is not None else None,
        upgraded=result.upgraded, broken=broken,
        # broken cover shelters nobody any more (VR-ATK-5, VR-OBJ-4)
        uncovered=tuple(p for p, o in ext.cover_object.items() if o == oid) if broken
        else None, by=by)


# --- attacks -------------------------------------------------------------------------------

@dataclass
class Plan:
    """An attack before its roll: skill, TN and every modifier (VR-ATK-*)."""

    attacker: str
    target: str
    weapon: str
    kind: str
    skill: str
    ev: int
    tn: int
    mods: list[Modifier] = field(default_factory=list)
    is_object: bool = False
    distance: int | None = None
    min_dos: int = 0
    cover: int = 0
    cover_object: str | None = None
    track: str = "injury"

    @property
    def target_number(self) -> int:
        """TN plus every modifier."""
        return self.tn + sum(m.value or 0 for m in self.mods)


#: The lowest total of 3d6: the most degrees of success a roll can make is its target number
#: less this (VR-ROLL-1: roll-under, DoS = TN − roll).
BEST_ROLL = 3


def out_of_reach(plan: Plan) -> bool:
    """Whether a thrown attack cannot reach its target (VR-ATK-3): beyond its own zone a throw
    must succeed, with 3 DoS for each zone beyond the next, and the best roll (3) makes fewer.
    A same-zone throw, or one with either side placed nowhere, is always in reach."""
    return (plan.kind == "thrown" and bool(plan.distance)
            and plan.target_number - BEST_ROLL < plan.min_dos)


def readable(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
             probe: Check) -> bool:
    """Whether ``viewer`` would read every number of the roll ``probe`` (its marks, its
    redaction)."""
    # every modifier, 0 included: a GM-only stat that comes to 0 is a secret all the same
    seen = redact_marked(probe, state, viewer, can_see)
    return (isinstance(seen, Check) and seen.tn is not None and seen.target_number is not None
            and all(m.value is not None for m in seen.mods))


def plan_known(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
               plan: Plan) -> bool:
    """Whether ``viewer`` may know the target and every number of the roll of ``plan``."""
    if plan.target not in ext_of(state).objects and not can_see(plan.target):
        return False
    return readable(state, viewer, can_see, Check(
        actor=plan.attacker, skill=plan.skill, tn=plan.tn, mods=tuple(plan.mods),
        target_number=plan.target_number))


def reach_text(state: ConflictState, plan: Plan) -> str:
    """Why a thrown attack of :func:`out_of_reach` cannot reach (for one who may know its
    numbers): "Rook is 3 zone(s) away, beyond the throw of Ada's knife: it must succeed
    with 6 DoS, and its best roll (3 against 8) makes 5"."""
    best = plan.target_number - BEST_ROLL
    makes = f"makes {best}" if best >= 0 else "fails"
    need = f"succeed with {plan.min_dos} DoS" if plan.min_dos else "succeed"
    return (f"{name(state, plan.target)} is {plan.distance} zone(s) away, beyond the throw "
            f"of {possessive(name(state, plan.attacker))} {plan.weapon}: it must {need} (3 for "
            f"each zone beyond the next), and its best roll (3 against {plan.target_number}) "
            f"{makes}")


class Aim(NamedTuple):
    """A physical attack that has passed every check, before its modifiers."""

    weapon: str
    spec: dict[str, Any]  # the weapon's
    kind: str  # close, ranged or thrown
    target: Participant | None  # None: an object
    distance: int | None  # in zones, None when either side is not placed


def aim(state: ConflictState, attacker: str, target: str, weapon: str | None,
        free: bool = False, distances: dict[str, int] | None = None, *,
        secret: bool = False) -> Aim:
    """The checks of a physical attack, raising its refusal: the weapon is the attacker's and
    works (VR-OBJ-4), the target is in the conflict and can be reached (VR-MOVE-1), a close
    attack is made in the same zone unless ``free`` (VR-MOVE-3). ``distances``: the zone
    distances from the attacker's zone (:meth:`ZoneMap.distances`), when already known.
    ``secret``: the command's author may not know the attacker's weapons (GM-only, even to
    the player of that very character): a refusal names none it was not given, nor the kind
    of the one the rules took."""
    ext = ext_of(state)
    a = state.participants[attacker]
    weapons = weapons_of(a)
    wname = weapon or next(w for w, spec in weapons.items()
                           if spec.get("kind", "close") not in KIND_TRACK)
    if wname not in weapons:
        listed = "" if secret else f" (weapons: {', '.join(weapons)})"
        raise InvalidInput(f"{a.name} has no weapon {wname!r}{listed}", weapon=wname)
    w = weapons[wname]
    kind = str(w.get("kind", "close"))
    taken = secret and weapon is None  # the rules took it: its name and kind are the GM's
    if not works(ext.objects, w):
        if taken:
            raise IllegalCommand(f"{possessive(a.name)} weapon is broken and no longer works",
                                 rule="VR-OBJ-4")
        raise IllegalCommand(f"{possessive(a.name)} {wname} is broken and no longer works",
                             rule="VR-OBJ-4", weapon=wname)
    t: Participant | None = None
    if target in ext.objects and target not in state.participants:
        what, zt = ext.objects[target].name, object_zone(state, target)
    else:
        t = active(state, target)
        if t.id == attacker:
            raise InvalidInput(f"{a.name} cannot attack itself")
        what, zt = t.name, ext.zones.zone_of(target)
    za = ext.zones.zone_of(attacker)
    dist = None if ext.zones.zones else 0  # no zones: a fight in one room, one zone
    if za and zt:
        dist = ext.zones.distance(za, zt) if distances is None else distances.get(zt)
        if dist is None:
            raise IllegalCommand(f"{what} in {zt} cannot be reached from {za}",
                                 rule="VR-MOVE-1")
    if kind == "close" and dist not in (None, 0) and not free:
        if taken:
            raise IllegalCommand(f"{what} is {dist} zone(s) away, out of reach of "
                                 f"{possessive(a.name)} weapon", rule="VR-MOVE-3", distance=dist)
        raise IllegalCommand(
            f"{what} is {dist} zone(s) away; a close attack needs the same zone",
            rule="VR-MOVE-3", distance=dist)
    return Aim(wname, w, kind, t, dist)



def attack_plan(state: ConflictState, attacker: str, target: str, weapon: str | None,
                free: bool = False, track: str | None = None, skill: str | None = None,
                ev: int | None = None, own: Sequence[Modifier] | None = None, *,
                secret: bool = False) -> Plan:
    """Skill, TN and every modifier of an attack, before the roll (VR-ATK-*).

    A ``free`` attack (an engaged opponent's) is in reach by definition. ``track`` focus or
    morale (or a mental/social weapon) makes a mental or social attack (VR-INJ-5 default).
    ``own``: the attacker's :func:`own_mods`, when already worked out for this state.
    ``secret``: the command's author may not know the attacker's weapons (:func:`aim`).
    """
    ext = ext_of(state)
    a = state.participants[attacker]
    weapons = weapons_of(a)
    if track in KIND_TRACK.values() or (weapon in weapons
                                         and weapons[weapon].get("kind") in KIND_TRACK):
        return harm_plan(state, attacker, target, weapon, track, skill, ev, own,
                         secret=secret)
    if skill is not None or ev is not None:
        raise InvalidInput("skill= and ev= go with a mental or social attack "
                           "(track=focus or track=morale); a physical attack uses its "
                           "weapon's skill and EV", rule="VR-INJ-5")
    wname, w, kind, t, dist = aim(state, attacker, target, weapon, free, secret=secret)
    skill = {"close": "close_combat", "ranged": "ranged_combat",
             "thrown": "athletics"}.get(kind, "close_combat")
    plan = Plan(attacker, target, wname, kind, skill, int(w.get("ev", 0)),
                skill_tn(state, a, skill),
                list(own) if own is not None else own_mods(state, attacker))
    mods = plan.mods
    oid = w.get("object")
    if oid and oid in ext.objects and ext.objects[oid].ladder.total_penalty():
        worn = ext.objects[oid].ladder  # the weapon's own wear
        mods.append(Modifier(f"{wname} {worn.highest_name()}", worn.total_penalty()))
    if t is None:  # only its size or motion penalizes the roll (VR-OBJ-2); the reach holds
        obj = ext.objects[target]
        if obj.penalty:
            mods.append(Modifier("small or moving", obj.penalty))
        plan.is_object = True
        plan.distance = dist
        if kind == "thrown" and dist is not None and dist > 1:
            plan.min_dos = 3 * (dist - 1)
        return plan
    plan.distance = dist
    if kind == "close":
        mods.append(_parry(state, t))
        diff = reach(a) - reach(t)
        if diff:
            mods.append(stat_mod(state, "reach", diff, (t.id, "reach"),
                                 (attacker, "reach")))
    else:
        mods.append(stat_mod(state, f"{possessive(t.name)} dodge", -dodge(t), *dodge_sources(t)))
        if dist == 0:
            mods.append(Modifier("same zone", -2))
        elif dist is not None and dist > 1:
            mods.append(Modifier(f"range {dist} zones", -2 * (dist - 1)))
        # those in close combat with the target, the attacker too if it is one of them; one
        # the GM has concealed counts apart, sourced to it, so that a player who may not know
        # of it reads that modifier masked (as a GM-only stat's), never "target engaged"
        engaged = [o for o in ext.engaged_with(target) if state.participants[o].active]
        k = len([o for o in engaged if o not in state.concealed])
        if k:
            mods.append(Modifier("target engaged" + (f" with {k}" if k > 1 else ""), -2 * k))
        mods += [Modifier("target engaged", -2, o, "engaged") for o in engaged
                 if o in state.concealed]
        if kind == "thrown" and dist is not None and dist > 1:
            plan.min_dos = 3 * (dist - 1)
    plan.cover = ext.cover.get(target, 0)
    if plan.cover:
        mods.append(Modifier("cover", plan.cover))
    plan.cover_object = ext.cover_object.get(target)
    return plan


def harm_plan(state: ConflictState, attacker: str, target: str, weapon: str | None,
              track: str | None, skill: str | None, ev: int | None,
              own: Sequence[Modifier] | None = None, *, secret: bool = False) -> Plan:
    """A mental (Focus) or social (Morale) attack: the attacker's skill penalized by the
    target's resolve or poise; net EV = EV − the track's RV (VR-INJ-5 default)."""
    a = state.participants[attacker]
    weapons = weapons_of(a)
    w: dict[str, Any] = {}
    if weapon is not None:
        if weapon not in weapons:
            listed = "" if secret else f" (weapons: {', '.join(weapons)})"
            raise InvalidInput(f"{a.name} has no weapon {weapon!r}{listed}", weapon=weapon)
        w = weapons[weapon]
        kind = str(w.get("kind", "close"))
        if kind not in KIND_TRACK:
            raise InvalidInput(
                f"{possessive(a.name)} {weapon} is a {kind} weapon; a {track} attack uses a mental "
                "or social weapon, or skill= and ev= without a weapon", rule="VR-INJ-5")
        wtrack = KIND_TRACK[kind]
        if track not in (None, wtrack):
            raise InvalidInput(f"{possessive(a.name)} {weapon} is {kind}: it strikes {wtrack}, "
                               f"not {track}", rule="VR-INJ-5")
        track = wtrack
    assert track is not None
    if target not in state.participants:
        raise InvalidInput(f"{name(state, target)} is an object: it has no {track} track",
                           rule="VR-INJ-5")
    skill = skill or (str(w["skill"]) if w.get("skill") else None)
    if skill is None:
        raise InvalidInput(f"a {track} attack needs the skill it is rolled with, e.g. "
                           f"skill={'intimidation' if track == 'morale' else 'deception'}",
                           rule="VR-INJ-5")
    t = active(state, target)
    if t.id == attacker:
        raise InvalidInput(f"{a.name} cannot attack itself")
    label, defence, sources = track_defence(t, track)
    mods = [*(own_mods(state, attacker) if own is None else own),
            stat_mod(state, f"{possessive(t.name)} {label}", -defence, *sources)]
    return Plan(attacker, target, weapon or skill,
                "mental" if track == "focus" else "social", skill,
                int(ev if ev is not None else w.get("ev", 0)),
                skill_tn(state, a, skill), mods, track=track)


def resolve_attack(d: Decision, plan: Plan, dice: Sequence[int] | None, spend: int,
                   free: bool = False, working: dict[str, ConditionLadder] | None = None
                   ) -> list[Event]:
    """Roll an attack planned by :func:`attack_plan`: the attack and its consequences
    (``working``: the target's ladders as earlier attacks of the command left them)."""
    state = d.state
    c = check(d.ctx, plan.skill, plan.tn, plan.mods, dice)
    hit = c.success and (c.dos or 0) >= plan.min_dos
    cover_hit = False
    if not hit and plan.cover < 0:
        cover_hit = (c.target_number or 0) - plan.cover - c.total >= plan.min_dos
    target = plan.target
    rv = net = None
    if not plan.is_object and hit:
        rv = track_armor(state.participants[target], plan.track)
        net = plan.ev - rv
    events: list[Event] = [Attack(
        **c.check_fields(), target=target, weapon=plan.weapon, kind=plan.kind, ev=plan.ev,
        distance=plan.distance, min_dos=plan.min_dos, hit=hit, cover_hit=cover_hit, free=free,
        spend=spend, track=None if plan.track == "injury" else plan.track, rv=rv, net=net,
        actor=plan.attacker)]
    why = f"{possessive(name(state, plan.attacker))} {plan.weapon}"
    by = weapon_source(state, plan.attacker)
    if hit and plan.is_object:
        events.append(damage_object(state, target, plan.ev, why, by))
    elif hit and net is not None:
        events += harm(state, target, net, plan.track, why, by, working)
    elif cover_hit and plan.cover_object in ext_of(state).objects:
        assert plan.cover_object is not None
        events.append(damage_object(state, plan.cover_object, plan.ev, f"{why} (cover hit)",
                                    by))
    return events


def free_attacks(d: Decision, attackers: list[str], target: str,
                 dice: Sequence[int] | None) -> None:
    """Free attacks of engaged opponents, one after another, while the target stays in
    (VR-MOVE-4). Each sees the harm of those before it on the target's ladders, worked out on
    a copy of those ladders only; a cover hit, which changes the cover, is folded."""
    chunks: list[Sequence[int] | None] = [None] * len(attackers)
    if dice is not None:
        if len(dice) != 3 * len(attackers):
            raise InvalidInput(
                f"free= needs 3 dice for each of the {len(attackers)} free attack(s), "
                f"got {len(dice)}", dice=list(dice))
        chunks = [dice[3 * i:3 * i + 3] for i in range(len(attackers))]
    working = {track: scratch(ladder) for track, ladder in ext_of(d.state).ladders(target).items()}
    for i, (who, chunk) in enumerate(zip(attackers, chunks, strict=True)):
        plan = attack_plan(d.state, who, target, readied(d.state, who), free=True)
        events = resolve_attack(d, plan, chunk, 0, free=True, working=working)
        if any(isinstance(e, ParticipantOut) for e in events):
            d.emit(*events)
            break
        if i < len(attackers) - 1 and any(isinstance(e, ObjectDamaged) for e in events):
            d.fold(*events)  # a cover hit: the next attack sees the cover it left
        else:
            d.emit(*events)


def attacks_open_to(state: ConflictState, actor: str,
                    choices: Iterable[tuple[str, str]] | None = None
                    ) -> list[tuple[str, str, Plan]]:
    """(target, weapon, plan) of every attack ``actor`` may make now (VR-ATK-*, VR-MOVE-3),
    or of those (target, weapon) ``choices`` of them alone."""
    own = own_mods(state, actor)  # the same for every attack it might make now
    return [(t, w, attack_plan(state, actor, t, w, own=own))
            for t, w in (attack_choices(state, actor) if choices is None else choices)]


def attack_choices(state: ConflictState, actor: str,
                   judged: Callable[[Plan], bool] | None = None) -> list[tuple[str, str]]:
    """(target, weapon) of every attack ``actor`` may make now: those :func:`attack_plan`
    would not refuse, found by its checks alone (VR-ATK-*, VR-MOVE-1/3, VR-OBJ-4), less the
    throws that cannot reach their target (:func:`out_of_reach`, VR-ATK-3) where ``judged``
    (None: always) says the one asking may know that (every number of the throw), on the
    characters and then on the objects not yet broken."""
    ext = ext_of(state)
    weapons = weapons_of(state.participants[actor])
    here = ext.zones.zone_of(actor)
    distances = ext.zones.distances(here) if here else {}
    own: list[Modifier] | None = None
    out = []
    targets = [*(t for t in state.active_ids() if t != actor),
               *(oid for oid, obj in ext.objects.items() if not obj.broken)]
    for t in targets:
        for w, spec in weapons.items():
            try:
                if spec.get("kind") in KIND_TRACK:
                    harm_plan(state, actor, t, w, None, None, None, ())
                else:
                    aimed = aim(state, actor, t, w, distances=distances)
                    if aimed.kind == "thrown" and aimed.distance:
                        own = own_mods(state, actor) if own is None else own
                        plan = attack_plan(state, actor, t, w, own=own)
                        if out_of_reach(plan) and (judged is None or judged(plan)):
                            continue
            except FracasError:
                continue
            out.append((t, w))
    return out


def readied(state: ConflictState, pid: str) -> str:
    """The close weapon ``pid`` has ready for a free attack or a guard's blow: the first that
    still works (a broken one no longer functions, VR-OBJ-4; bare hands always do)."""
    objects = ext_of(state).objects
    return next(w for w, spec in weapons_of(state.participants[pid]).items()
                if spec.get("kind", "close") == "close" and works(objects, spec))


def works(objects: Mapping[str, VersObject], spec: Mapping[str, Any]) -> bool:
    """Whether a weapon still works: the object it is, if any, is not broken (VR-OBJ-4)."""
    obj = objects.get(spec.get("object", ""))
    return obj is None or not obj.broken


def object_zone(state: ConflictState, oid: str) -> str | None:
    """Where object ``oid`` stands: its own zone, else, tied to a weapon (``object = ID``),
    its wielder's — a carried weapon goes where its wielder goes (VR-OBJ-2, VR-MOVE-1); else
    none (struck from anywhere). A wielder the GM conceals leaves it in no zone, so that no
    offer or refusal tells where they stand."""
    obj = ext_of(state).objects[oid]
    if obj.zone:
        return obj.zone
    for p in state.participants.values():
        if (p.active and p.id not in state.concealed
                and any(w.get("object") == oid for w in weapons_of(p).values())):
            return ext_of(state).zones.zone_of(p.id)
    return None


def way(state: ConflictState, mover: str, here: str, to: str) -> tuple[list[str], list[str]]:
    """The shortest way from ``here`` to ``to`` that the fewest guards bar to ``mover``, and
    those guards (VR-MOVE-5: a move is stopped only when every way is guarded); ([], []):
    none."""
    found: tuple[list[str], list[str]] = ([], [])
    for path in ext_of(state).zones.shortest_paths(here, to):
        guards = hostile_guards(state, mover, path)
        if not guards:
            return path, []
        if not found[0] or len(guards) < len(found[1]):
            found = (path, guards)
    return found


def holding_foes(state: ConflictState, pid: str) -> list[str]:
    """Those engaged with ``pid`` who hold it in close combat: still in the conflict and not
    hidden from its player (VR-MOVE-4 [decision], as VR-MOVE-5 reads a guard: a concealed
    opponent must show itself to hold a player's character; it would otherwise bar a move, or
    ask for a Disengage roll, that tells the player of someone they may not know)."""
    return [f for f in ext_of(state).engaged_with(pid)
            if state.participants[f].active and not concealed_from(state, f, pid)]


def hostile_guards(state: ConflictState, mover: str, path: list[str]) -> list[str]:
    """The guards on ``path`` that stop ``mover``: still in the conflict, not on its side,
    and not hidden from its player (VR-MOVE-5 [decision]: a concealed guard must show itself
    to stop a player's character; it would otherwise bar a way the player sees open)."""
    me = state.participants[mover]
    out = []
    for g in ext_of(state).zones.guards_on_path(path):
        p = state.participants.get(g)
        if p is None or not p.active or g == mover:
            continue
        if me.side is not None and p.side == me.side:
            continue
        if concealed_from(state, g, mover):
            continue
        out.append(g)
    return out


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
        events.append(VersTurnEnded(participant=pid, out=True))
    if (acting or turns.current is None) and not rest:
        events.append(RoundEnded(round=state.round))
    return events
