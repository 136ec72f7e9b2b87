"""What a character (or the GM) may do now in Fabula Ultima, as structured legal commands
with the exact values the rules allow (DESIGN.md principle 5)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from fracas.engine.generic import GENERIC_COMMANDS
from fracas.engine.legal import LegalCommand
from fracas.engine.model import ConflictState, Status, Viewer
from fracas.engine.secrets import stat_is_secret
from fracas.engine.words import listed
from fracas.rulesets.fabula_ultima.commands import COMMANDS
from fracas.rulesets.fabula_ultima.state import (
    RECOVERIES,
    STATUSES,
    UNARMED,
    FabulaExt,
    Spell,
    initiative_leaders,
    initiative_supporters,
    is_extra,
    next_turn,
    weapons_of,
)
from fracas.rulesets.legal import LegalCommands, Made, concealment_offers

command = LegalCommands(COMMANDS)
#: the engine's verbs the GM is offered with the values the rules allow now
engine_command = LegalCommands(GENERIC_COMMANDS)
_ENDED, _SETUP = Status.ENDED.value, Status.SETUP.value  # read once: an enum's value is slow


def legal_commands(state: ConflictState, actor: str | None) -> list[str | LegalCommand]:
    """What ``actor`` (None: the GM) may do now."""
    return legal_commands_of(state, (actor,))[actor]


def legal_commands_of(state: ConflictState, actors: Sequence[str | None]
                      ) -> dict[str | None, list[str | LegalCommand]]:
    """What each of ``actors`` (None: the GM) may do now, the turn order read once for all."""
    ext: FabulaExt = state.ext
    if state.status == _ENDED:
        return {actor: ["undo"] for actor in actors}
    if state.status == _SETUP:
        return {actor: _setup(state, actor) for actor in actors}
    nxt = next_turn(ext)
    if nxt is None:
        return {actor: [] for actor in actors}
    order = ext.order
    assert order is not None
    active = tuple(p.id for p in state.participants.values() if p.active and p.id in order.side_of)

    def turn(pid: str) -> tuple[LegalCommand, ...]:
        foes = tuple(t for t in active if order.side_of.get(t) != order.side_of.get(pid))
        arms = weapons(ext, pid)
        base = _TURNS.get((pid, foes, active, arms), lambda: _turn(pid, foes, active, arms))
        spells = castable(ext, pid)
        return base + spell_offers(ext, pid, spells, active) if spells else base

    def of(actor: str | None) -> list[str | LegalCommand]:
        if actor is None:
            out: list[str | LegalCommand] = [c for pid in nxt.may_act for c in turn(pid)]
            hidden = tuple(state.concealed)
            held = tuple(tuple(ext.statuses.get(pid, ())) for pid in active)
            return [*out, *_GM_TOOLS.get((active, hidden, held),
                                         lambda: _gm_tools(active, hidden, held))]
        p = state.participants.get(actor)
        if p is None or not p.active:  # out of the conflict: it no longer acts (FU-CON-12)
            return []
        out = list(turn(actor)) if actor in nxt.may_act else []
        spend = ext.fp.get(actor, 0) > 0  # a Fabula Point to spend (FU-CHK-4)
        pools = _pools(state, actor)
        return out + list(_ANYTIME.get((actor, spend, pools),
                                       lambda: _anytime(actor, spend, pools)))

    return {actor: of(actor) for actor in actors}


def fabula_spend(state: ConflictState, actor: str) -> LegalCommand | None:
    """The spending of a Fabula Point ``actor`` is offered when it has one (FU-CHK-4), for
    one who may not know whether it has any (GM-only Fabula Points, even its own player):
    None where it may not spend one whatever its points."""
    ext: FabulaExt = state.ext
    p = state.participants.get(actor)
    if state.status != Status.RUNNING.value or next_turn(ext) is None or p is None \
            or not p.active or actor not in ext.fp:
        return None
    return _anytime(actor, True, _pools(state, actor))[1]


def _pools(state: ConflictState, actor: str) -> tuple[str, ...]:
    """The pools ``actor`` may spend from (IP: a PC's; FU-RES-1): each with points left, and
    one its player may not know the points of (GM-only) whatever is left in it, as the offer
    must not tell them; one its player sees, or of an NPC no player plays (whose offers the GM
    alone sees), is not offered empty (an NPC without MP is offered no MP to spend)."""
    ext: FabulaExt = state.ext
    p = state.participants[actor]
    player = None if p.owner is None else Viewer.of_player(p.owner)
    return tuple(name for name, pools in (("mp", ext.mp), ("ip", ext.ip), ("hp", ext.hp))
                 if actor in pools and (pools[actor].current > 0 or (
                     player is not None and stat_is_secret(state, player, actor, name))))


def weapons(ext: FabulaExt, pid: str) -> tuple[str, ...]:
    """The weapons ``pid`` may attack with: those equipped, and an unarmed strike."""
    return (*(w.name for w in weapons_of(ext, pid)), UNARMED.name)


def _turn(pid: str, foes: tuple[str, ...], active: tuple[str, ...], arms: tuple[str, ...]
          ) -> tuple[LegalCommand, ...]:
    """What ``pid`` may do with its turn (FU-CON-6, FU-CON-8): an attack with any of its
    ``arms`` (left out: the first, which the offer says)."""
    return (command("act", pid, free={"text": "TEXT"}),
            *(command("attack", pid, target=t, allowed={"weapon": arms},
                      defaults={"weapon": arms[0]}) for t in foes),
            _free_spell(pid, active),
            command("check", pid, free={"attributes": "ATTR+ATTR", "dl": "DL"}))


def _free_spell(pid: str, active: tuple[str, ...]) -> LegalCommand:
    """A spell of the table's own (FU-RES-3): any name, cost and target. Not the status it
    inflicts, which needs a target (FU-RES-4): the offer's values are each free of the
    others, so that one is typed in with its target (``spell Hex target=imp status=dazed``)."""
    offer = command("spell", pid, free={"name": "NAME", "mp": "N", "target": "ID"},
                    allowed={"target": active}, defaults=_SPELL_DEFAULTS)
    return dataclasses.replace(offer, params=tuple(c for c in offer.params
                                                   if c.name != "status"))


def castable(ext: FabulaExt, pid: str) -> tuple[Spell, ...]:
    """The spells on ``pid``'s sheet it has the MP for (FU-RES-1)."""
    known = ext.spells.get(pid, ())
    pool = ext.mp.get(pid)
    left = pool.current if pool is not None else 0
    return tuple(spell for spell in known if spell.mp <= left) if known else known


def spell_offers(ext: FabulaExt, pid: str, spells: tuple[Spell, ...],
                 active: tuple[str, ...]) -> tuple[LegalCommand, ...]:
    """The casting of ``spells`` by ``pid`` on whom each may be cast on, of those ``active``
    (taking part in the turn order)."""
    assert ext.order is not None
    side_of = ext.order.side_of
    foes = tuple(t for t in active if side_of.get(t) != side_of.get(pid))
    allies = tuple(t for t in active if side_of.get(t) == side_of.get(pid))
    return _SPELLS.get((pid, spells, foes, allies), lambda: _spells(pid, spells, foes, allies))


def every_spell(state: ConflictState, actor: str, offer: list[LegalCommand]
                ) -> list[LegalCommand]:
    """``offer`` casting every spell on ``actor``'s sheet, whatever MP is left, when it may
    take a turn: for one who may not know its MP (GM-only), whom an offer of only the spells
    it can pay would tell the MP (one it cannot pay is refused when cast, FU-RES-1)."""
    ext: FabulaExt = state.ext
    nxt = next_turn(ext) if state.status == Status.RUNNING.value else None
    if nxt is None or actor not in nxt.may_act or not ext.spells.get(actor):
        return offer
    assert ext.order is not None
    active = tuple(p.id for p in state.participants.values()
                   if p.active and p.id in ext.order.side_of)
    kept = [lc for lc in offer if not (lc.verb == "spell" and lc.choice("name").is_fixed)]
    # where the spells it can pay are offered: after the rest of its turn, before what it
    # may do outside it (a phone lists them beside its attacks, not below its notes)
    at = next((i + 1 for i in range(len(kept) - 1, -1, -1) if _takes_a_turn(kept[i])), 0)
    return [*kept[:at], *spell_offers(ext, actor, ext.spells[actor], active), *kept[at:]]


def _takes_a_turn(offer: LegalCommand) -> bool:
    """Whether ``offer`` is one of a turn's (an act, an attack, a spell, a check on the turn)."""
    if offer.verb == "check":
        return not any(c.name == "turn" and c.is_fixed for c in offer.params)
    return offer.verb in ("act", "attack", "spell")


def _spells(pid: str, spells: tuple[Spell, ...], foes: tuple[str, ...],
            allies: tuple[str, ...]) -> tuple[LegalCommand, ...]:
    """The casting of each spell on ``pid``'s sheet, on each one it may be cast on (as an
    attack is offered on each foe), its values filled in from the sheet (FU-RES-3)."""
    out: list[LegalCommand] = []
    for spell in spells:
        targets: tuple[str | None, ...] = {"foe": foes, "ally": allies, "self": (pid,),
                                           "none": (None,)}[spell.target]
        cast = f"cast {spell.name} ({spell.mp} MP)"
        out += [_as_written(spell, command("spell", pid, label=cast, **spell.args()))
                if t is None else
                _as_written(spell, command("spell", pid, label=cast + " on {target}", target=t,
                                           **spell.args()))
                for t in targets]
    return tuple(out)


def _as_written(spell: Spell, offer: LegalCommand) -> LegalCommand:
    """``offer`` without the values its sheet decides: its magic check's attributes, its
    damage and type (none: it deals none), what it restores (none: nothing), the status it
    inflicts (none: none), its target when cast on nobody, and the dice and
    bonus of a check it does not roll — only whom it is cast on is left to choose (and, for
    one that rolls, the dice rolled at the table and a situational bonus) (FU-RES-3)."""
    decided = {"accuracy", "damage", "type", "status", *RECOVERIES,
               *(() if spell.rolls else ("dice", "bonus")),
               *(("target",) if spell.target == "none" else ())}
    return dataclasses.replace(offer, params=tuple(c for c in offer.params
                                                   if c.is_fixed or c.name not in decided))


#: what a spell's damage type and magic check left out stand for (FU-RES-3): the command is
#: not filled in with them, the decision reads them so
_SPELL_DEFAULTS = {"type": "physical", "accuracy": "ins+wlp"}


def _anytime(actor: str, spend: bool, pools: tuple[str, ...]) -> tuple[LegalCommand, ...]:
    """What ``actor`` may do outside its turn: a free check, a Fabula Point (FU-CHK-4), a
    spend from its ``pools`` (an item's IP, a skill's MP: FU-RES-1)."""
    check = command("check", actor, free={"attributes": "ATTR+ATTR", "dl": "DL"}, turn=False,
                    label="check outside the turn")
    fabula = (command("fabula", actor, delta=-1, free={"why": "TEXT"}, named=("why",),
                      label="spend a Fabula Point"),) if spend else ()
    points = (command("spend", actor, free={"pool": "POOL", "amount": "N", "why": "TEXT"},
                      allowed={"pool": pools}, label=_spend_label(pools)),) if pools else ()
    return (check, *fabula, *points)


def _spend_label(pools: tuple[str, ...]) -> str:
    """``spend MP, IP or HP``: the title of the spending of ``pools``."""
    return "spend " + listed([p.upper() for p in pools], "or")


def _gm_tools(active: tuple[str, ...], hidden: tuple[str, ...],
              held: tuple[tuple[str, ...], ...]) -> tuple[LegalCommand, ...]:
    """The GM's damage, recovery (a Heal spell, a potion: FU-RES-1) and status on anyone
    still in the conflict, taking one out, and hiding or revealing one (``hidden``: those
    concealed from the players; ``held``: the statuses each of ``active`` holds)."""
    return (command("damage", None, free={"target": "TARGET", "amount": "AMOUNT"},
                    allowed={"target": active}),
            command("recover", None, free={"target": "TARGET", "amount": "AMOUNT"},
                    allowed={"target": active}),
            *_statuses(active, held),
            engine_command("out", None, free={"id": "ID"}, allowed={"id": active}),
            *concealment_offers(active, hidden))


def _statuses(active: tuple[str, ...], held: tuple[tuple[str, ...], ...]
              ) -> tuple[LegalCommand, ...]:
    """The status effects the GM may put on each of ``active`` — those it does not hold — and
    take off it — those it holds (``held``, in the same order): the ``status`` command refuses
    the others (FU-RES-4). Before, every effect was offered both ways on everyone."""
    out: list[LegalCommand] = []
    for pid, have in zip(active, held, strict=True):
        new = tuple(s for s in STATUSES if s not in have)
        if new:
            out.append(command("status", None, target=pid, free={"effect": "EFFECT"},
                               allowed={"effect": new, "on": (True,)}))
        if have:
            out.append(command("status", None, target=pid, on=False, free={"effect": "EFFECT"},
                               allowed={"effect": have}))
    return tuple(out)


#: The legal commands above, made once for the same characters (immutable values).
_TURNS: Made[tuple[LegalCommand, ...]] = Made()
_SPELLS: Made[tuple[LegalCommand, ...]] = Made()
_ANYTIME: Made[tuple[LegalCommand, ...]] = Made()
_GM_TOOLS: Made[tuple[LegalCommand, ...]] = Made()


def _setup(state: ConflictState, actor: str | None) -> list[str | LegalCommand]:
    ext: FabulaExt = state.ext
    active = [p for p in state.participants.values() if p.active]
    leaders = initiative_leaders(state)

    def initiative(leader: str) -> LegalCommand:
        return command("initiative", leader,
                       allowed={"supporters": tuple(initiative_supporters(state, leader))})

    if actor is None:
        out: list[str | LegalCommand] = [
            command("assign", None, id=p.id, side=ext.pc_side) for p in active
            if p.side not in (ext.pc_side, ext.foe_side)]
        # make one an extra, or an extra take turns again (FU-CON-1): one form, its "on"
        # following the character chosen
        out += [command("extra", None, id=p.id, on=not is_extra(ext, p),
                        label="make {id} an extra" if not is_extra(ext, p)
                        else "make {id} take turns again") for p in active]
        return [*out, *(initiative(pid) for pid in leaders),
                *concealment_offers(tuple(p.id for p in active), tuple(state.concealed))]
    out = [command("goal", actor, free={"text": "TEXT"}),
           *_EQUIP.get(actor, lambda: _equip(actor))]
    return out + ([initiative(actor)] if actor in leaders else [])


def _equip(actor: str) -> tuple[LegalCommand, ...]:
    """The items ``actor`` may declare (FU-CON-2), each kind with the values it uses (an
    :class:`~fracas.rulesets.fabula_ultima.state.Item`'s): a weapon none of an armor's, an
    armor none of a weapon's."""
    out = []
    for kind, free, others in _ITEMS:
        lc = command("equip", actor, kind=kind, free=free)
        uses = {"kind", *free, *others}
        out.append(dataclasses.replace(lc, params=tuple(c for c in lc.params if c.name in uses)))
    return tuple(out)


#: The items a PC declares at the start (FU-CON-2), each kind with the values it is written
#: with and the others it may be given: a weapon's accuracy, bonus, damage and type; an
#: armor's, a shield's or an accessory's initiative modifier, Defense and Magic Defense.
_ITEMS: tuple[tuple[str, dict[str, str], tuple[str, ...]], ...] = (
    ("weapon", {"name": "NAME", "damage": "N"}, ("accuracy", "bonus", "type")),
    ("armor", {"name": "NAME", "init": "N"}, ("defense", "mdef")),
    ("shield", {"name": "NAME", "init": "N"}, ("defense", "mdef")),
    ("accessory", {"name": "NAME"}, ("init", "defense", "mdef")),
)
_EQUIP: Made[tuple[LegalCommand, ...]] = Made()
