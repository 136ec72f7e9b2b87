"""What a character (or the GM) may do now in Etherscope, as structured legal commands with
the exact values the rules allow (DESIGN.md principle 5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from fracas.engine.legal import LegalCommand
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.secrets import setting_is_secret
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.commands import COMMANDS
from fracas.rulesets.etherscope.common import ext_of, group_of
from fracas.rulesets.etherscope.marks import condenser_secret
from fracas.rulesets.etherscope.settings import BANDS, condenser_of, min_gap
from fracas.rulesets.legal import LegalCommands, Made

command = LegalCommands(COMMANDS)
#: Declaration splits listed one by one up to this many (beyond: the bounds only).
MAX_SPLITS = 200


def splits(base: int, gap: int) -> Iterator[tuple[int, ...]]:
    """Every declaration the rules allow at base initiative ``base`` (ES-ROUND-2, ES-ROUND-3):
    positive scores, highest first, adding up to at most ``base``, at least ``gap`` apart."""
    def below(cap: int, budget: int) -> Iterator[tuple[int, ...]]:
        for s in range(min(cap, budget), 0, -1):
            yield (s,)
            for rest in below(s - max(1, gap), budget - s):
                yield (s, *rest)
    yield from below(base, base)


def declarations(base: int, gap: int) -> tuple[list[int], ...] | None:
    """The allowed declarations (as the JSON lists a command carries), or None when there are
    more than :data:`MAX_SPLITS`."""
    out: list[list[int]] = []
    for s in splits(base, gap):
        out.append(list(s))
        if len(out) > MAX_SPLITS:
            return None
    return tuple(out)


def legal_commands(state: ConflictState, actor: str | None) -> list[LegalCommand]:
    """What ``actor`` (None: the GM) may do now, with the values the rules allow."""
    if state.ext is None:
        return []
    if actor is None:
        return _gm_commands(state)
    ext = ext_of(state)
    me = state.participants.get(actor)
    if me is None or not me.active:
        return []
    now = _BY_PHASE.get(ext.phase, _nothing)(state, actor)
    if ext.phase != ph.START and actor not in ext.awareness:  # joined late (ES-START-1)
        now = [*_awareness(actor), *now]
    return now


def _awareness(actor: str) -> list[LegalCommand]:
    return [command("awareness", actor), command("awareness", actor, free={"dice": "DICE"})]


def _nothing(state: ConflictState, actor: str) -> list[LegalCommand]:
    return []


def _seen(state: ConflictState, actor: str) -> list[str]:
    ranges = ext_of(state).ranges
    return [t for t in state.active_ids() if t != actor and not ranges.is_hidden(t, actor)]


def foes_first(state: ConflictState, actor: str, ids: list[str]) -> tuple[str, ...]:
    """``ids`` with the foes of ``actor`` (those of another side) first, else in order."""
    side = state.participants[actor].side
    return tuple(sorted(ids, key=lambda t: state.participants[t].side == side))


def _start(state: ConflictState, actor: str) -> list[LegalCommand]:
    """Awareness, and an ambush on any of those it sees and has not tried: the table picks
    them, foes first (ES-START-2: allies too, as the rule names no side)."""
    ext = ext_of(state)
    out = [] if actor in ext.awareness else _awareness(actor)
    targets = [t for t in _seen(state, actor) if t not in ext.ambushed.get(actor, [])]
    if targets:
        out.append(command("ambush", actor, free={"targets": "TARGETS"},
                           allowed={"targets": foes_first(state, actor, targets)}))
    return out


def _moves(state: ConflictState, actor: str) -> list[LegalCommand]:
    ext = ext_of(state)
    mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
    if mover != actor:
        return []
    ids = state.active_ids()
    later = ext.move_order[ext.mover + 1:]
    free = {t for t in later if t not in ext.stepped and t in ids
            and not ext.ranges.is_hidden(t, actor)}
    out = []
    for unit in _move_units(state, actor, later):
        if all(t in free for t in unit):
            out += _steps("step", state, actor, unit)
    return [*out, command("done", actor)]


def _move_units(state: ConflictState, actor: str, later: list[str]) -> list[list[str]]:
    """Those ``actor`` may step against at once in its awareness move, in move order: one
    character, or every member of a group still to move and not hidden from it, who are
    moved together (ES-START-5, ES-START-6)."""
    ext = ext_of(state)
    units: list[list[str]] = []
    for t in later:
        g = group_of(ext, t)
        if g is not None and actor not in ext.groups[g]:
            unit = [m for m in ext.groups[g] if m in later
                    and not ext.ranges.is_hidden(m, actor)]
        else:
            unit = [t]
        if unit and unit not in units:
            units.append(unit)
    return units


def _steps(verb: str, state: ConflictState, actor: str, unit: list[str],
           told: Told = ()) -> list[LegalCommand]:
    """One step toward (not from Close) and away (not from Distant) against each of ``unit``
    (ES-RNG-4), saying what the values ``told`` stand for when left out."""
    ranges = ext_of(state).ranges
    near, far = min(ranges.get(actor, t) for t in unit), max(ranges.get(actor, t) for t in unit)
    return list(_STEPS.get((verb, actor, tuple(unit), near > 0, far < len(BANDS) - 1, told),
                           lambda: _steps_of(verb, actor, unit, near > 0,
                                             far < len(BANDS) - 1, told)))


def _steps_of(verb: str, actor: str, unit: list[str], toward: bool, away: bool, told: Told
              ) -> tuple[LegalCommand, ...]:
    return tuple(command(verb, actor, targets=list(unit), way=w, defaults=dict(told))
                 for w, ok in (("toward", toward), ("away", away)) if ok)


#: The steps by (verb, actor, unit, toward allowed, away allowed, told): made once.
_STEPS: Made[tuple[LegalCommand, ...]] = Made()


def _declare(state: ConflictState, actor: str) -> list[LegalCommand]:
    ext = ext_of(state)
    if actor not in ext.base or actor in ext.countdown.declarations:
        return []
    base, gap = ext.base[actor], min_gap(state.settings)
    return list(_DECLARED.get((actor, base, gap), lambda: _declarations_of(actor, base, gap)))


def _declarations_of(actor: str, base: int, gap: int) -> tuple[LegalCommand, ...]:
    """The declarations at base initiative ``base``: the base as one action, and any split."""
    listed = declarations(base, gap)
    return (command("declare", actor, scores=[base]),
            command("declare", actor, free={"scores": "SCORES"},
                    allowed={} if listed is None else {"scores": listed}))


#: The two legal declarations by (actor, base, gap): the splits are listed once, not per ask.
_DECLARED: Made[tuple[LegalCommand, ...]] = Made()


def offer_for(state: ConflictState, actor: str, viewer: Viewer,
              offer: list[LegalCommand]) -> list[LegalCommand]:
    """What a player is offered of ``actor``'s legal commands, ``offer``: where the base
    initiative is hidden from them (its condenser GM-only, or its harm not shown), one
    declaration of any scores, as the splits the rules allow would tell the base
    (ES-ROUND-2)."""
    offer = [_untold(state, viewer, lc) for lc in offer]
    at = next((i for i, lc in enumerate(offer) if lc.verb == "declare"), None)
    if at is None or not condenser_secret(state, viewer, actor):
        return offer
    rest = [lc for lc in offer if lc.verb != "declare"]
    return [*rest[:at], command("declare", actor, free={"scores": "SCORES"}), *rest[at:]]


#: What an action's optional values stand for when left out, by parameter (hashable, a key
#: of the commands made with it).
Told = tuple[tuple[str, Any], ...]
#: The optional values left out that stand for a setting of the conflict (the action's
#: nature, ES-SET-3; a zoom's range scaling, ES-ACT-1), by parameter.
_SETTING_UNLESS_SAID = {"nature": "nature", "scaling": "range_scaling"}


def nature_help(settings: dict[str, Any]) -> str | None:
    """What an action's ``nature`` field says: acting outside the conflict's nature costs
    the actor damage to the conflict's condenser, composure in a social conflict (ES-SET-3);
    the amount unless it is the GM's; None (the spec's words) where the nature or the reality
    that picks the condenser is."""
    secret = settings.get("gm_only_settings", ())
    if "nature" in secret or "reality" in secret:
        return None
    nature, condenser = settings["nature"], condenser_of(settings)
    amount = "" if "off_nature_damage" in secret else f"{settings['off_nature_damage']} "
    kind = "composure damage (society)" if condenser == "society" else f"{condenser} damage"
    return (f"the action's nature if not the conflict's: acting outside this {nature} "
            f"conflict costs the actor {amount}{kind} (ES-SET-3)")


def _told(state: ConflictState) -> Told:
    """What an action's optional values stand for when left out, as the decision reads
    them: "no" for a push's ``two`` (ES-ACT-5) and a zoom's ``start`` (ES-ACT-1), the
    conflict's nature and range scaling for ``nature`` and ``scaling``."""
    return (("two", False), ("start", False),
            *((param, state.settings[key]) for param, key in _SETTING_UNLESS_SAID.items()))


def _untold(state: ConflictState, viewer: Viewer, lc: LegalCommand) -> LegalCommand:
    """``lc`` as ``viewer`` (a player) may read it: a setting the GM keeps to themselves is
    not said as what a value left out stands for."""
    secret = {c.name: None for c in lc.params if c.name in _SETTING_UNLESS_SAID
              and c.default is not None
              and setting_is_secret(state, viewer, _SETTING_UNLESS_SAID[c.name])}
    return _with_defaults(lc, secret) if secret else lc


def _with_defaults(lc: LegalCommand, defaults: dict[str, Any]) -> LegalCommand:
    return dataclasses.replace(lc, params=tuple(
        dataclasses.replace(c, default=defaults[c.name]) if c.name in defaults else c
        for c in lc.params))


def _countdown(state: ConflictState, actor: str) -> list[LegalCommand]:
    ext = ext_of(state)
    cur = ext.countdown.current
    if cur is None or cur.actor != actor:
        return []
    if ext.acted:
        return [command("done", actor)]
    seen = tuple(_seen(state, actor))
    zoom = foes_first(state, actor, list(seen)) if state.settings["time_scale"] != "fast" \
        else None
    told = _told(state)
    # ES-RNG-1: a hide is offered from those the actor is not hidden from yet
    unhid = tuple(t for t in seen if not ext.ranges.is_hidden(actor, t))
    at_hand = _AT_HAND.get((actor, seen, unhid, zoom, told),
                           lambda: _at_hand(actor, seen, unhid, zoom, told))
    cut = 2 * len(seen)  # the moves go after the attacks and pushes
    return [*at_hand[:cut], *_moves_against(state, actor, seen, told), *at_hand[cut:]]


def _moves_against(state: ConflictState, actor: str, seen: tuple[str, ...], told: Told
                   ) -> list[LegalCommand]:
    """A move of one step toward or away from one or more of those ``actor`` sees, the table
    picks them, foes first: toward those not Close, away from those not Distant (ES-RNG-4)."""
    ranges = ext_of(state).ranges
    order = foes_first(state, actor, list(seen))
    toward = tuple(t for t in order if ranges.get(actor, t) > 0)
    away = tuple(t for t in order if ranges.get(actor, t) < len(BANDS) - 1)
    return list(_MOVES.get((actor, toward, away, told), lambda: tuple(
        command("move", actor, way=way, free={"targets": "TARGETS"},
                allowed={"targets": targets}, defaults=dict(told))
        for way, targets in (("toward", toward), ("away", away)) if targets)))


#: The moves by (actor, those it may step toward, away from, told): made once.
_MOVES: Made[tuple[LegalCommand, ...]] = Made()


def _at_hand(actor: str, seen: tuple[str, ...], unhid: tuple[str, ...],
             zoom: tuple[str, ...] | None, told: Told) -> tuple[LegalCommand, ...]:
    """An acting character's commands but its moves: attacks and pushes on those it sees,
    then the rest (ES-ACT-1, ES-ACT-2); a hide from any of those it sees and is not hidden
    from yet (``unhid``); a zoom (None: none at the fastest time scale) with any of those it
    sees, foes first (``zoom``); each saying what the values ``told`` stand for when left
    out."""
    d = dict(told)
    out = [command("attack", actor, target=t, defaults=d) for t in seen]
    out += [_push(actor, t, seen, d) for t in seen]
    # a hide is from any of those (none named: the other sides'; none offered once it is
    # hidden from all it sees), an act's target one of those it sees: never the actor itself
    if unhid or not seen:
        out.append(command("hide", actor, allowed={"from": unhid} if unhid else None,
                           defaults=d))
    out += [command("search", actor, defaults=d), command("recover", actor, defaults=d),
            command("act", actor, free={"name": "NAME", "skill": "SKILL", "difficulty": "N"},
                    allowed={"target": seen} if seen else None, defaults=d),
            command("done", actor)]
    if zoom is not None:
        # ES-ACT-1: the table names who takes part (the actor always does), foes first
        out.append(command("zoom", actor, free={"who": "WHO", "reason": "TEXT"},
                           allowed={"who": zoom}, defaults=d) if zoom else
                   command("zoom", actor, who=[actor], free={"reason": "TEXT"}, defaults=d))
    return tuple(out)


def _push(actor: str, target: str, seen: tuple[str, ...], defaults: dict[str, Any]
          ) -> LegalCommand:
    """Push Back on ``target``: toward or away from the actor or any other it sees, never
    the target itself (ES-ACT-5, ES-RNG-2)."""
    ways = (actor, *(t for t in seen if t != target))
    return command("push", actor, target=target, allowed={"toward": ways, "away": ways},
                   defaults=defaults)


#: An acting character's commands but its moves, by (actor, those seen, those it is not
#: hidden from, those to zoom with, what values left out stand for).
_AT_HAND: Made[tuple[LegalCommand, ...]] = Made()

#: What a character may do in each phase of a round (none in the others).
_BY_PHASE: dict[str, Callable[[ConflictState, str], list[LegalCommand]]] = {
    ph.START: _start, ph.MOVES: _moves, ph.DECLARE: _declare, ph.COUNTDOWN: _countdown}


def _gm_commands(state: ConflictState) -> list[LegalCommand]:
    ext = ext_of(state)
    ids = tuple(state.active_ids())
    # ES-START-3, ES-START-6: ranges and groups are of those still in the conflict
    out = [command("set-range", None, free={"a": "A", "b": "B", "band": "BAND"},
                   allowed={"a": ids, "b": ids}),
           command("group", None, free={"name": "NAME", "members": "A,B"},
                   allowed={"members": ids}),
           command("damage", None, free={"who": "WHO", "amount": "N"}, allowed={"who": ids})]
    hidden = ext.ranges.hidden
    key = (ids, tuple((pid, tuple(by)) for pid, by in hidden.items() if by))
    out += _HIDING.get(key, lambda: (*_reveals(hidden, ids), *_conceals(hidden, ids)))
    if ext.groups:  # ES-START-6: a group the GM formed is dissolved by its name
        out.append(command("ungroup", None, free={"name": "NAME"},
                           allowed={"name": tuple(ext.groups)}))
    first = {ph.START: "moves", ph.READY: "round", ph.DECLARE: "countdown"}.get(ext.phase)
    if first == "moves" and any(pid not in ext.awareness for pid in ids):
        first = None  # ES-START-1: the moves wait until every character rolled awareness
    return [command(first, None), *out] if first else out


#: The GM's conceal and reveal commands, by (those still in the conflict, who is hidden from
#: whom).
_HIDING: Made[tuple[LegalCommand, ...]] = Made()


def _reveals(hidden: dict[str, list[str]], ids: tuple[str, ...]) -> list[LegalCommand]:
    """ES-RNG-3: each one hidden from some still in the conflict is revealed to everyone, or
    to those named of them (never to itself)."""
    return [command("reveal", None, who=pid, allowed={"from": unseen})
            for pid in ids if (unseen := tuple(x for x in ids if x in hidden.get(pid, ())))]


def _conceals(hidden: dict[str, list[str]], ids: tuple[str, ...]) -> list[LegalCommand]:
    """ES-RNG-1: the GM hides one (reinforcements arriving unseen, a lost trail) from
    everyone, or from those named of the others it is not yet hidden from (never from
    itself)."""
    return [command("conceal", None, who=pid, allowed={"from": seeing})
            for pid in ids
            if (seeing := tuple(x for x in ids if x != pid and x not in hidden.get(pid, ())))]
