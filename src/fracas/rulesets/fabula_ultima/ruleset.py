"""The Fabula Ultima ruleset: group initiative, alternating sides, HP/MP with Crisis."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from fracas.dice.odds import OddsReport
from fracas.engine.commands import Command
from fracas.engine.context import DecideContext
from fracas.engine.engine_events import ParticipantLeft
from fracas.engine.events import Event, EventTypes
from fracas.engine.handlers import Handlers
from fracas.engine.legal import LegalCommand
from fracas.engine.model import ConflictState, Participant, Viewer
from fracas.engine.overrides import OverrideTarget
from fracas.engine.ruleset import Ruleset, nobody
from fracas.engine.secrets import stat_is_secret
from fracas.engine.setup import Setup
from fracas.engine.sheet import SheetItem
from fracas.engine.suggest import did_you_mean
from fracas.errors import InvalidInput
from fracas.rulesets.fabula_ultima import (  # noqa: F401 (their handlers register on import)
    actions,
    evolve,
    legal,
    overrides,
    sentences,
    views,
)
from fracas.rulesets.fabula_ultima import events as ev
from fracas.rulesets.fabula_ultima import odds as fu_odds
from fracas.rulesets.fabula_ultima.commands import COMMANDS
from fracas.rulesets.fabula_ultima.handlers import HANDLERS
from fracas.rulesets.fabula_ultima.limits import STAT_RANGES
from fracas.rulesets.fabula_ultima.state import (
    STAT_KEYS,
    FabulaExt,
    add_participant,
    check_stats,
    is_extra,
    turns_per_round,
    weapon_of,
)


def _sides(setup: dict[str, Any]) -> tuple[str, str]:
    settings = setup.get("settings", {}) or {}
    sides = list(setup.get("sides", []))
    parts = setup.get("participants", [])
    pc = settings.get("pc_side") or next(
        (p.get("side") for p in parts if p.get("kind") == "pc" and p.get("side")), None
    ) or (sides[0] if sides else "pcs")
    foe = settings.get("foe_side") or next((s for s in sides if s != pc), None) or (
        "foes" if pc != "foes" else "enemies")
    return str(pc), str(foe)


class FabulaUltima(Ruleset):
    """Fabula Ultima (unofficial): the seed's conflict procedure with the core check rules."""

    name = "fabula-ultima"
    title = "Fabula Ultima"
    #: the two sides of the turn order are in every view
    shown_settings = frozenset({"pc_side", "foe_side"})
    settings_read = shown_settings
    stats_read = STAT_KEYS  # any other is the GM's own, unless it looks like a typo
    package = "fracas.rulesets.fabula_ultima"
    commands = COMMANDS
    ext_type = FabulaExt
    handlers: ClassVar[Handlers] = HANDLERS
    events: ClassVar[EventTypes] = ev.FU_EVENTS
    stat_ranges = STAT_RANGES  # limits.py
    live_stats = overrides.LIVE_STATS
    override_examples = ("ID.hp.current", "ID.statuses", "ID.turns_left",
                         "ruleset.tracker.side_on_turn")
    start_settings = overrides.START_SETTINGS
    harm_keys = ("hp", "mp", "crisis", "summary")
    harm_stats = ("hp", "mp")

    def stats_example(self, state: ConflictState) -> dict[str, Any]:
        """The four attributes' dice (FU-CHK-1) and HP and MP."""
        return {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 30, "mp": 20}

    def override_target(self, state: ConflictState, path: list[str]) -> OverrideTarget | None:
        """HP, MP, IP, FP, statuses, turns left and the side on turn (overrides.py)."""
        return overrides.override_target(state, path)

    # --- set-up -----------------------------------------------------------------------
    def validate_setup(self, setup: Setup) -> Setup:
        """Check every participant's stats (FU-CHK-1, FU-RES-1, FU-CON-9) and the sides."""
        for p in setup.participants:
            check_stats(p.id, p.stats)
        pc, foe = _sides(setup.model_dump())
        if pc == foe:
            raise InvalidInput(f"the PCs' side and their foes' side are both {pc!r}",
                               rule="FU-CON-13")
        known = {*setup.sides, *(p.side for p in setup.participants if p.side)}
        for key in ("pc_side", "foe_side"):
            if key in setup.settings and not isinstance(setup.settings[key], str):
                raise InvalidInput(f"settings.{key} must be a side name", rule="FU-CON-13")
            side = setup.settings.get(key)
            hint = did_you_mean(side, sorted(known), cutoff=0.8) \
                if isinstance(side, str) and side not in known else ""
            if hint:  # a mistyped side: nobody would be on it, the initiative refused
                raise InvalidInput(f"settings.{key}: nobody is on side {side!r}{hint}",
                                   rule="FU-CON-13", key=key)
        return setup

    def init_ext(self, state: ConflictState, setup: dict[str, Any]) -> FabulaExt:
        """Pools, Fabula Points, gear and extras of every participant; the two sides."""
        pc, foe = _sides(setup)
        ext = FabulaExt(pc_side=pc, foe_side=foe)
        for p in state.participants.values():
            add_participant(ext, p)
        for side in (pc, foe):
            if side not in state.sides:
                state.sides.append(side)
        return ext

    # --- decide (the verb's handler in HANDLERS) ------------------------------------------
    def on_join(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """A participant joining mid-conflict: checked stats, one of the two sides, turns
        from the current round (FU-CON-13, FU-CON-14)."""
        ext: FabulaExt = state.ext
        p = state.participants[pid]
        check_stats(p.id, p.stats)
        if p.stats.get("extra"):
            return []
        if p.side not in (ext.pc_side, ext.foe_side):
            raise InvalidInput(
                f"{p.name} would be on side {p.side or 'none'}; turn order has exactly two "
                f"sides: join with side={ext.pc_side} or side={ext.foe_side}", rule="FU-CON-13")
        rnd = state.round + 1 if ext.round_closed else state.round
        return [ev.JoinedTurns(participant=pid, side=p.side, turns=turns_per_round(p),
                               round=rnd)]

    def on_leave(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """End the round at once when the turns still to come this round were all the
        leaver's (FU-CON-10, FU-CON-12, FU-CON-14); the next turn opens the next round."""
        gone = ParticipantLeft(participant=pid)
        return actions.close_round(state, [gone])[1:]

    def end_reasons(self, state: ConflictState) -> tuple[str, ...]:
        """The seed's ways a conflict ends (FU-CON-11): a side achieved its goal, a side is
        unable or unwilling to go on, a compromise — first, a side left with nobody taking
        part (all its members defeated, fled or gone) unable to go on."""
        ext: FabulaExt = state.ext
        sides = (ext.foe_side, ext.pc_side)
        unable = [f"{side} unable or unwilling to go on" for side in sides]
        down = [reason for side, reason in zip(sides, unable, strict=True) if not any(
            p.active and p.side == side and not is_extra(ext, p)
            for p in state.participants.values())]
        reasons = ("goal achieved", *unable, "compromise")
        return (*down, *(r for r in reasons if r not in down))

    def join_sides(self, state: ConflictState) -> tuple[str, ...] | None:
        """A newcomer takes its turns on one of the two sides (FU-CON-13), in the conflict's
        order (an extra, who takes no turns, may be typed in on any other)."""
        ext: FabulaExt = state.ext
        return tuple(s for s in state.sides if s in (ext.pc_side, ext.foe_side))

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """A defeated participant takes no more turns (FU-CON-12)."""
        return "FU-CON-12"

    # --- evolve (the event class's handler, or FU's part of an engine event) ------------
    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply an event to the ruleset's state. Never raises."""
        if state.ext is not None:
            self.handlers.evolve(state, event)

    # --- views ------------------------------------------------------------------------
    def secret_words(self, state: ConflictState, pid: str) -> frozenset[str]:
        """The names of GM-only equipment: an attack lists none of its weapons (FU-CON-2);
        a GM-only goal (the GM's ``ID: goal TEXT`` for a player's character is not read to
        its player, FU-CON-2)."""
        p = state.participants.get(pid)
        if p is None:
            return frozenset()
        ext: FabulaExt = state.ext
        words: set[str] = set()
        if "equipment" in p.gm_only:
            words |= {i.name.lower() for i in ext.equipment.get(pid, [])}
        if "goal" in p.gm_only and ext.goals.get(pid):
            words.add(ext.goals[pid].lower())
        return frozenset(words)

    def offer_for(self, state: ConflictState, actor: str, viewer: Viewer,
                  offer: list[LegalCommand]) -> list[LegalCommand]:
        """A player's offer names none of the actor's GM-only gear (an attack then names no
        weapon: the GM's sheet gives its first, FU-CON-2; an "unarmed strike" left alone in
        the list would read as the only choice), and their initiative check has no ``dl``:
        only the GM sets its DL (FU-CON-3). Where the actor's Fabula Points are GM-only, the
        spending of one is offered whether or not it has one (its coming and going would
        count them, FU-CHK-4); likewise every spell on the actor's sheet is offered where its
        MP is GM-only (FU-RES-1). Nor does it cast a spell of GM-only ``spells`` (the spell
        typed in is offered still)."""
        gear = stat_is_secret(state, viewer, actor, "equipment")
        dropped = {"initiative": "dl", "attack": "weapon" if gear else ""}
        spells = stat_is_secret(state, viewer, actor, "spells")
        if not spells and stat_is_secret(state, viewer, actor, "mp"):
            offer = legal.every_spell(state, actor, offer)
        out = [dataclasses.replace(lc, params=tuple(c for c in lc.params
                                                    if c.name != dropped[lc.verb]))
               if lc.verb in dropped else lc
               for lc in super().offer_for(state, actor, viewer, offer)
               if not (spells and lc.verb == "spell" and lc.choice("name").is_fixed)]
        if stat_is_secret(state, viewer, actor, "fp") and \
                not any(lc.verb == "fabula" for lc in out):
            spend = legal.fabula_spend(state, actor)
            out += [spend] if spend is not None else []
        return out

    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """The chance each member who may act now hits each foe (FU-RES-3)."""
        return fu_odds.pending_odds(state, viewer, lambda pid: self.can_see(state, viewer, pid))

    def command_odds(self, state: ConflictState, viewer: Viewer,
                     command: Command) -> list[str]:
        """The hit chance of an attack by its actor with the weapon it names on the target it
        names, or of a spell aimed at a foe, or dealing damage to an ally, with the magic check
        of the attributes (or dice) it names (left out: ``{INS + WLP}``) and no bonus (no other
        target's: the pending line of each weapon has every foe); the chance the PCs' side
        wins the Initiative Group Check an ``initiative`` makes; a ``check``'s against its
        DL; no others (a spell with no
        target or on an ally without damage rolls nothing, one with a bonus would not roll
        the line's check)."""
        p = state.participants.get(command.actor or "")
        if p is None:
            return []
        if command.verb == "initiative":
            return fu_odds.initiative_odds(state, viewer, command,
                                           lambda pid: self.can_see(state, viewer, pid))
        if command.verb == "spell":
            return self._spell_odds(state, viewer, p, command)
        if command.verb == "check":
            a = command.args
            return fu_odds.check_line(state, viewer, p, str(a["attributes"]), int(a["dl"]),
                                      int(a.get("bonus", 0)))
        if command.verb != "attack" or command.args.get("bonus", 0) != 0:
            return []  # (a situational bonus: the pending line's check is the weapon's alone)
        try:
            weapon = weapon_of(state.ext, p, command.args.get("weapon"))
        except InvalidInput:
            return []
        head = fu_odds.attack_head(p.name, weapon.name)
        return [line for line in self._aimed_odds(state, viewer, command)
                if line.startswith(head)]

    def _aimed_odds(self, state: ConflictState, viewer: Viewer, command: Command,
                    damaging: bool = False, spell: tuple[int, int] | None = None,
                    spell_from: tuple[str, ...] = ("ins", "wlp")) -> list[str]:
        """The pending lines against the one target ``command`` names (``damaging``: a spell
        that deals damage, which rolls against an ally too; ``spell``: its magic check's
        dice, of the attributes ``spell_from``)."""
        target = command.args.get("target")
        return fu_odds.pending_odds(state, viewer, lambda pid: self.can_see(state, viewer, pid),
                                    only=None if target is None else str(target),
                                    damaging=damaging, spell=spell, spell_from=spell_from)

    def _spell_odds(self, state: ConflictState, viewer: Viewer, p: Participant,
                    command: Command) -> list[str]:
        ext: FabulaExt = state.ext
        a = actions.as_on_sheet(state, viewer, p.id, command.args)
        order, target = ext.order, a.get("target")
        damaging = a.get("damage") is not None
        if order is None or target is None or a.get("bonus", 0) != 0 \
                or str(target) not in order.side_of or (
                    not damaging and order.side_of[str(target)] == order.side_of.get(p.id)):
            return []  # an ally's spell that deals no damage takes effect unrolled (FU-RES-3)
        accuracy = str(a.get("accuracy") or "ins+wlp")
        try:
            dice = actions.parse_attributes(ext, p, accuracy)
        except InvalidInput:
            return []
        head = fu_odds.spell_head(p.name)
        return [line for line in self._aimed_odds(state, viewer, command, damaging, dice,
                                                  actions.named_attributes(accuracy))
                if line.startswith(head)]

    def odds_probe(self, state: ConflictState, viewer: Viewer, command: Command) -> Command:
        """A spell at no MP cost where the caster's MP is GM-only to ``viewer`` (even their
        own character's): whether the rules took ``mp=40``, or the cost of the spell of that
        name on the sheet, would tell the MP left."""
        if command.verb == "spell" and command.actor is not None \
                and stat_is_secret(state, viewer, command.actor, "mp"):
            return dataclasses.replace(command, args={**command.args, "mp": 0})
        return command

    def view_ext(self, state: ConflictState, viewer: Viewer,
                 names_unknown: Callable[[str], bool] = nobody) -> dict[str, Any]:
        """The tracker: per side who has acted and who has turns left (no free words to
        leave out)."""
        return views.view_ext(state, viewer, lambda pid: self.can_see(state, viewer, pid))

    def view_participant(self, state: ConflictState, viewer: Viewer,
                         pid: str) -> dict[str, Any]:
        """HP/MP/IP, Crisis, FP, statuses, dice, turns left, gear, goal."""
        return views.view_participant(state, viewer, pid)

    def sheet(self, state: ConflictState, entry: dict[str, Any]) -> list[SheetItem]:
        """Dice, pools, rank, Defenses, Initiative, affinities, gear, bonds, goal."""
        return views.sheet(state, entry)

    def harm_band(self, entry: dict[str, Any]) -> str | None:
        """Down at 0 HP, in crisis, hurt below full HP, else unhurt."""
        hp = entry.get("hp")
        if not isinstance(hp, dict):
            return None
        if hp["current"] <= 0:
            return "down"
        return "in crisis" if entry.get("crisis") else \
            "hurt" if hp["current"] < hp["max"] else "unhurt"

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """Hide GM-only pool values from players."""
        return views.redact(state, event, viewer)


    def status_lines(self, state: ConflictState) -> list[str]:
        """The tracker lines."""
        return views.tracker_lines(state)

    def legal_commands(self, state: ConflictState, actor: str | None
                       ) -> list[str | LegalCommand]:
        """What ``actor`` (None: the GM) may do now, with the values the rules allow."""
        return legal.legal_commands(state, actor)

    def legal_commands_of(self, state: ConflictState, actors: Sequence[str | None]
                          ) -> dict[str | None, list[str | LegalCommand]]:
        """What each of ``actors`` may do now, the turn order read once for all."""
        return legal.legal_commands_of(state, actors)

    # --- odds -------------------------------------------------------------------------
    def odds(self, query: str) -> OddsReport:
        """``{d8+d10}+1 vs 13`` or ``group {d8+d8}+1 vs 12 supporters {d8+d6},{d10+d10}
        bonds 2,0`` (see docs/fabula-ultima.md, "Odds")."""
        return fu_odds.answer(query)
