"""What the GM or a character may do now in VERS, as structured legal commands.

Each :class:`~fracas.engine.legal.LegalCommand` fixes the values the rules allow now (the
targets in reach or range, each with a weapon that can strike it; the zones a character may
move or slip to; the chases it rolls in; who may open or take the hand-off), leaves free only
what the table chooses (dice, words), and names the rule behind it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from fracas.engine.legal import Choice, LegalCommand
from fracas.engine.model import ConflictState
from fracas.rulesets.legal import Made, concealment_offers, frozen_key
from fracas.rulesets.vers.chases import (
    ENDED,
    HALTED,
    PURSUIT_LENGTHS,
    STAGE_TURNS,
    hidden_from,
    roll_of,
)
from fracas.rulesets.vers.checks import Check
from fracas.rulesets.vers.commands import COMMANDS
from fracas.rulesets.vers.decider import Plan, attack_choices, holding_foes, object_zone, way
from fracas.rulesets.vers.state import HARDNESS, KIND_TRACK, VersExt, skill_tn, weapons_of

_SPECS = {spec.verb: spec for spec in COMMANDS}
TRACK_NAMES = ("injury", "focus", "morale")
#: The skills a hunter may track with (``run … skill=``, VR-CHASE-7).
TRACKING_SKILLS = next(p.choices for p in _SPECS["run"].params if p.name == "skill")
_MADE: Made[LegalCommand] = Made()


def command(actor: str | None, verb: str, *, free: dict[str, str] | None = None,
            allowed: dict[str, tuple[Any, ...]] | None = None,
            options: dict[str, tuple[Any, ...]] | None = None, label: str = "",
            drop: tuple[str, ...] = (), defaults: dict[str, Any] | None = None,
            **fixed: Any) -> LegalCommand:
    """A legal ``verb`` for ``actor``: ``fixed`` values, values ``allowed`` from a list,
    ``free`` ones the table picks (by placeholder), and the values an optional parameter may
    take now (``options``; else any of its kind), in the order of the command's spec, named
    ``label`` where the verb would not say what it does, without the optional parameters
    ``drop`` the rules do not take now, with what an optional value left out stands for where
    the spec's default does not say it (``defaults``; made once for the same values: a legal
    command is an immutable value)."""
    key = frozen_key(actor, verb, free, allowed, options, label, drop, defaults, fixed)
    return _MADE.get(key, lambda: _make(actor, verb, free, allowed, options, label, drop,
                                        defaults or {}, fixed))


def _make(actor: str | None, verb: str, free: dict[str, str] | None,
          allowed: dict[str, tuple[Any, ...]] | None,
          options: dict[str, tuple[Any, ...]] | None, label: str, drop: tuple[str, ...],
          defaults: dict[str, Any], fixed: dict[str, Any]) -> LegalCommand:
    spec = _SPECS[verb]
    params = []
    for p in spec.params:
        name = p.name
        if name in drop:
            continue
        base: dict[str, Any] = {"name": name, "kind": p.kind, "positional": p.positional}
        if name in fixed:
            params.append(Choice(fixed=fixed[name], **base))
        elif allowed and name in allowed:
            params.append(Choice(allowed=allowed[name], **base))
        elif free and name in free:
            params.append(Choice(placeholder=free[name], required=p.required, **base))
        else:
            choices = tuple(p.choices) if p.kind == "choice" else None
            if options and name in options:
                choices = options[name]
            params.append(Choice(allowed=choices, required=False, listed=False,
                                 default=defaults.get(name), **base))
    return LegalCommand(verb, actor, tuple(params), spec.rule, label)


def legal_commands(state: ConflictState, actor: str | None) -> list[LegalCommand]:
    """Concrete commands the GM (None) or ``actor`` may give now."""
    if actor is None:
        return _gm(state)
    ext: VersExt = state.ext
    turns = ext.turns
    p = state.participants.get(actor)
    if p is None or not p.active:
        return []
    out: list[LegalCommand] = []
    if actor in ext.pending_discipline:
        # VR-INJ-3: said where the player acts, not only under the conditions (offered
        # only to those who may know it: the character's own player and the GM)
        out.append(command(actor, "endure", free={"dice": "DICE"},
                           label="roll Discipline to stay conscious"))
    acting = turns.current == actor
    for cid, chase in ext.chases.items():  # a chase roll is an action (VR-CHASE-8)
        if hidden_from(state, chase, actor):
            continue
        if chase.roller == actor and (not turns.round_opened or (
                acting and turns.actions_left > 0)):
            # mod=: the GM's own tactics for the roll, left out of a player's offer
            if chase.stage == "interpose" or (chase.stage == "pursuit"
                                              and chase.track.position == 1):
                out.append(command(actor, "interpose", id=cid, free={
                    "mod": "N", "why": "TEXT", "dice": "DICE"}))  # VR-CHASE-6
            elif chase.stage in ("pursuit", "tracking"):  # skill=: the hunter's tracking
                tracks = chase.stage == "tracking" and chase.roller_is_hunter
                # none named: the better of the hunter's Survival and Investigation
                out.append(command(actor, "run", id=cid, free={"mod": "N", "why": "TEXT",
                                                                "dice": "DICE"},
                                   drop=() if tracks else ("skill",),
                                   defaults={"skill": roll_of(state, chase)[0]} if tracks
                                   else None))  # VR-CHASE-3/7
    if not acting:
        return out
    if actor in ext.pending_discipline:  # VR-INJ-3: the Discipline roll comes first
        return out
    if turns.actions_left > 0:
        out += _actions(state, actor)
    rest = [m for m in turns.not_gone() if m != actor and state.participants[m].active]
    out += [command(actor, "handoff", to=m, free={"say": "TEXT"}) for m in rest] or [
        command(actor, "handoff")]
    return out


#: The parameters a player is not offered, by verb: the GM's calls — what a failed dash
#: costs (VR-MOVE-2), a bonus or penalty for tactics (VR-CHASE-5).
GM_CALLS = {"move": "onfail", "run": "mod", "interpose": "mod"}


def for_player(offer: list[LegalCommand]) -> list[LegalCommand]:
    """``offer`` as a player is offered it: without the GM's calls (:data:`GM_CALLS`), a
    dash's ``onfail`` and a chase roll's ``mod``."""
    return [dataclasses.replace(lc, params=tuple(c for c in lc.params
                                                 if c.name != GM_CALLS[lc.verb]))
            if lc.verb in GM_CALLS else lc for lc in offer]


def known_defaults(state: ConflictState, actor: str, offer: list[LegalCommand],
                   known: Callable[[Check], bool]) -> list[LegalCommand]:
    """``offer`` (of ``actor``, as a player is offered it) without the skill a tracking roll
    left to the rules would take (the better of Survival and Investigation, VR-CHASE-7) where
    the player may not know the TNs it is chosen by (``known`` of a roll at that TN: a GM-only
    skill, attribute or TN of the actor's sheet): which one is better would tell them."""
    p = state.participants.get(actor)
    if p is None:
        return offer

    def told(c: Choice) -> bool:
        skill = c.default
        return c.name != "skill" or not isinstance(skill, str) or all(
            known(Check(actor=actor, skill=s, tn=skill_tn(state, p, s),
                        target_number=skill_tn(state, p, s))) for s in TRACKING_SKILLS)
    return [dataclasses.replace(lc, params=tuple(
        c if told(c) else dataclasses.replace(c, default=None) for c in lc.params))
        if lc.verb == "run" else lc for lc in offer]


def blind_attacks(state: ConflictState, actor: str, offer: list[LegalCommand],
                  known: Callable[[str], bool]) -> list[LegalCommand]:
    """``offer`` (of ``actor``, as a player who may not know its weapons is offered it: its
    weapons are GM-only, even to the player of that very character) with one attack on each
    target the player may know, weapon left to them, in place of the attacks the rules allow
    now: which targets a weapon reaches, and on which track, would tell the weapons."""
    ext: VersExt | None = state.ext
    if ext is None or not _may_attack(state, actor):
        return [lc for lc in offer if lc.verb != "attack"]
    targets = [*(t for t in state.active_ids() if t != actor and known(t)),
               *(oid for oid, obj in ext.objects.items() if not obj.broken)]
    return _spliced(offer, [command(actor, "attack", target=t, free={"dice": "DICE"})
                            for t in targets])


def attack_commands(state: ConflictState, actor: str,
                    choices: list[tuple[str, str]]) -> list[LegalCommand]:
    """The attacks of ``actor`` on these (target, weapon) ``choices``, each on the track its
    weapon sets (a physical blow or shot has no skill or EV to fill in; a mental or social
    one's)."""
    weapons = weapons_of(state.participants[actor])
    out = []
    for target, weapon in choices:
        track = KIND_TRACK.get(str(weapons[weapon].get("kind", "close")), "injury")
        out.append(command(actor, "attack", target=target, weapon=weapon,
                           free={"dice": "DICE"}, options={"track": (track,)},
                           drop=("track", "skill", "ev") if track == "injury" else ()))
    return out


def judged_attacks(state: ConflictState, actor: str, offer: list[LegalCommand],
                   known: Callable[[str], bool], judged: Callable[[Plan], bool]
                   ) -> list[LegalCommand]:
    """``offer`` (of ``actor``, as a player who knows its weapons is offered it) with the
    attacks on the targets the player may know, a throw out of reach (VR-ATK-3) left out only
    where the player may know every number of it (``judged``): where one of them is hidden
    (the target's GM-only Dodge, a penalty of a harm they do not see, a concealed character
    engaged with the target), the throw is offered as any other, so that neither its absence
    nor a refusal tells that number."""
    if not _may_attack(state, actor):
        return offer
    attacks = attack_commands(state, actor, [
        (t, w) for t, w in attack_choices(state, actor, judged)
        if t in state.ext.objects or known(t)])
    return _spliced(offer, attacks)


def _may_attack(state: ConflictState, actor: str) -> bool:
    """Whether ``actor`` is acting with an action left, no Discipline roll due first."""
    ext: VersExt | None = state.ext
    return (ext is not None and ext.turns.current == actor and ext.turns.actions_left >= 1
            and actor not in ext.pending_discipline)


def _spliced(offer: list[LegalCommand], attacks: list[LegalCommand]) -> list[LegalCommand]:
    """``offer`` with ``attacks`` in place of its own attacks (where there were none, after
    the moves, where the rules put the attacks)."""
    at = next((i for i, lc in enumerate(offer) if lc.verb == "attack"), None)
    if at is None:
        at = max((i + 1 for i, lc in enumerate(offer)
                  if lc.verb in ("move", "slip", "disengage")), default=0)
    rest = [lc for lc in offer if lc.verb != "attack"]
    return [*rest[:at], *attacks, *rest[at:]]


def with_bare_handoff(state: ConflictState, actor: str, offer: list[LegalCommand],
                      hidden: Callable[[str], bool]) -> list[LegalCommand]:
    """``offer`` (of ``actor``, acting, as a player is offered it) with the hand-off that ends
    its go when everyone left to go is ``hidden`` from that player: the hand-offs to them
    were left out, and the go ends as with nobody left (VR-TURN-2, VR-TURN-3; the GM then
    hands off for it), in the place the hand-off has in the offer."""
    ext: VersExt | None = state.ext
    if ext is None or ext.turns.current != actor or actor in ext.pending_discipline \
            or any(lc.verb == "handoff" for lc in offer):
        return offer
    rest = [m for m in ext.turns.not_gone() if m != actor and state.participants[m].active]
    if not rest or not all(map(hidden, rest)):
        return offer
    at = max((i + 1 for i, lc in enumerate(offer) if lc.verb in _SPECS), default=0)
    return [*offer[:at], command(actor, "handoff"), *offer[at:]]


def _gm(state: ConflictState) -> list[LegalCommand]:
    ext: VersExt = state.ext
    turns = ext.turns
    out: list[LegalCommand] = []
    if turns.round_opened and turns.current is None:
        out += [command(None, "handoff", to=p, free={"say": "TEXT"}) for p in turns.not_gone()
                if state.participants[p].active]
    elif not turns.round_opened:
        out += [command(None, "open", first=p) for p in turns.members
                if state.participants[p].active]
    out += _GM_TOOLS
    out += _battlefield_tools(ext)
    # VR-OBJ-5: the GM's override makes whole an object with a condition (a broken one
    # above all, which no repair action mends)
    out += [command(None, "restore", id=oid) for oid, obj in ext.objects.items()
            if obj.ladder.highest() is not None or obj.broken]
    out += concealment_offers([p.id for p in state.participants.values() if p.active],
                              tuple(state.concealed))
    for cid, chase in ext.chases.items():
        # at the end of a scale, or sooner as events turn the stage (VR-CHASE-1/4/7)
        # a new scale of the lengths the rules allow, the chase's own when none is picked
        out += [command(None, verb, id=cid, options={"length": tuple(PURSUIT_LENGTHS)},
                        defaults={"length": chase.length})
                for verb, (stages, *_) in STAGE_TURNS.items() if chase.stage in stages]
        if chase.stage not in ENDED and chase.stage not in HALTED:
            # VR-CHASE-5: the next roll takes it (at an end of the scale the next roll comes
            # in a new stage, and tactics lapse when the stage turns)
            out.append(command(None, "tactics", id=cid, free={"mod": "N", "why": "TEXT"}))
        if chase.stage not in ENDED:
            out.append(command(None, "abandon", id=cid, free={"why": "TEXT"}))
    return out


#: The GM's set-up tools, legal whenever the conflict runs (the same values every time).
_GM_TOOLS = (
    command(None, "zone", free={"id": "ID", "name": "NAME"}),
    command(None, "link", free={"a": "ZONE", "b": "ZONE"}),
    command(None, "place", free={"who": "WHO", "zone": "ZONE"}),
    command(None, "guard", free={"who": "WHO", "a": "ZONE", "b": "ZONE"}),
    command(None, "harm", free={"who": "WHO", "ev": "EV"}, allowed={"track": TRACK_NAMES}),
    command(None, "chase", free={"id": "ID", "hunter": "WHO", "quarry": "WHO"},
            allowed={"length": tuple(PURSUIT_LENGTHS)}),
)


def _battlefield_tools(ext: VersExt) -> list[LegalCommand]:
    """Cover behind one of the objects there are, and an object of one of the seed's
    materials (VR-OBJ-1) standing in one of the zones, each a list to pick from."""
    return [command(None, "cover", free={"who": "WHO"}, allowed={"value": (1, 3, 5)},
                    options={"object": tuple(ext.objects)}),
            command(None, "object", free={"id": "ID"},
                    options={"material": tuple(HARDNESS), "zone": tuple(ext.zones.zones)})]


def _actions(state: ConflictState, actor: str) -> list[LegalCommand]:
    """The actions of ``actor``, acting now with an action left."""
    ext: VersExt = state.ext
    out: list[LegalCommand] = []
    here = ext.zones.zone_of(actor)
    if holding_foes(state, actor):
        out.append(command(actor, "disengage", free={"dice": "DICE"}))
    elif here is not None:
        distances = ext.zones.distances(here)
        for z in ext.zones.zones:
            dist = distances.get(z)
            if dist is None or dist == 0 or dist > 2:
                continue
            guarded = way(state, actor, here, z)[1]
            if guarded and dist == 1:
                out.append(command(actor, "slip", to=z, free={"dice": "DICE"},
                                   label="get past the guard into {to}"))
            elif not guarded and dist == 1:  # a step: nothing to roll (VR-MOVE-2)
                out.append(command(actor, "move", to=z, drop=("dice", "onfail")))
            elif not guarded:  # a failed dash takes both actions only if both are left
                out.append(command(actor, "move", to=z, free={"dice": "DICE"},
                                   options={"onfail": ("short", "both")
                                            if ext.turns.actions_left >= 2 else ("short",)}))
    out += attack_commands(state, actor, attack_choices(state, actor))
    for track, lad in ext.ladders(actor).items():
        if lad.highest() is not None:
            out.append(command(actor, "recover", who=actor, track=track,
                               free={"dice": "DICE"}))
    here = ext.zones.zone_of(actor)
    for oid, obj in ext.objects.items():
        if (obj.ladder.highest() is not None and not obj.broken
                and not ((there := object_zone(state, oid)) and here and here != there)):
            out.append(command(actor, "repair", id=oid, free={"dice": "DICE"}))
    return out
