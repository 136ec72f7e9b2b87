"""The Fabula Ultima ruleset: group initiative, alternating sides, HP/MP with Crisis."""

from __future__ import annotations

from typing import Any

from fracas.dice.odds import OddsReport
from fracas.engine.commands import Command
from fracas.engine.components import AlternatingSides
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from fracas.engine.model import ConflictState, Kind, Status, Viewer
from fracas.engine.overrides import OverrideTarget
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import Setup
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.fabula_ultima import actions, overrides, views
from fracas.rulesets.fabula_ultima import odds as fu_odds
from fracas.rulesets.fabula_ultima.commands import COMMANDS
from fracas.rulesets.fabula_ultima.limits import STAT_RANGES
from fracas.rulesets.fabula_ultima.state import (
    FabulaExt,
    Item,
    add_participant,
    check_stats,
    is_extra,
    next_order,
    roster,
    turns_per_round,
)

#: Words an ending's reason must contain (FU-CON-11), or it must start with "note".
END_REASONS = ("goal", "unable", "unwilling", "compromise")


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
    package = "fracas.rulesets.fabula_ultima"
    commands = COMMANDS
    ext_type = FabulaExt
    stat_ranges = STAT_RANGES  # limits.py
    live_stats = overrides.LIVE_STATS

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
        for key in ("pc_side", "foe_side"):
            if key in setup.settings and not isinstance(setup.settings[key], str):
                raise InvalidInput(f"settings.{key} must be a side name", rule="FU-CON-13")
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

    # --- decide -----------------------------------------------------------------------
    def decide(self, state: ConflictState, command: Command, ctx: DecideContext) -> list[Event]:
        """The events of a Fabula Ultima command; refused commands raise and change nothing."""
        ext: FabulaExt = state.ext
        verb, a, actor = command.verb, command.args, command.actor
        if verb == "initiative":
            return actions.decide_initiative(state, command, ctx)
        if verb == "attack":
            return actions.decide_attack(state, command, ctx)
        if verb == "spell":
            return actions.decide_spell(state, command, ctx)
        if verb == "check":
            return actions.decide_check(state, command, ctx)
        if verb == "act":
            return actions.decide_act(state, command)
        if verb == "pass":
            return actions.decide_pass(state, command)
        if verb == "equip":
            return actions.decide_equip(state, command)
        if verb in ("damage", "recover", "spend", "status", "fabula"):
            return actions.decide_pools(state, command)
        if verb == "goal":
            assert actor is not None
            return [Event("goal_set", {"participant": actor, "text": a["text"]}, actor=actor)]
        if verb == "extra":
            p = state.participant(a["id"])
            if state.status != Status.SETUP.value:
                raise IllegalCommand("who takes part is settled before the conflict starts",
                                     rule="FU-CON-1")
            if bool(a.get("on", True)) == is_extra(ext, p):
                raise IllegalCommand(f"{p.name} is {'already' if is_extra(ext, p) else 'not'} "
                                     "an extra", rule="FU-CON-1")
            return [Event("extra_set", {"participant": p.id, "on": bool(a.get("on", True))})]
        if verb == "assign":
            p = state.participant(a["id"])
            if a["side"] not in (ext.pc_side, ext.foe_side):
                raise InvalidInput(f"side {a['side']!r} is not one of the two sides "
                                   f"{ext.pc_side} and {ext.foe_side}", rule="FU-CON-13")
            if p.side == a["side"]:
                raise IllegalCommand(f"{p.name} is already on side {p.side}", rule="FU-CON-13")
            if not p.active:
                raise IllegalCommand(f"{p.name} is no longer in the conflict", rule="FU-CON-12")
            return actions.close_round(state, [Event(
                "side_assigned", {"participant": p.id, "side": a["side"], "was": p.side})])
        raise IllegalCommand(f"{self.name} has no command {verb!r}")  # pragma: no cover

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
        return [Event("joined_turns", {"participant": pid, "side": p.side,
                                       "turns": turns_per_round(p), "round": rnd})]

    def on_leave(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """End the round at once when the turns still to come this round were all the
        leaver's (FU-CON-10, FU-CON-12, FU-CON-14); the next turn opens the next round."""
        gone = Event(PARTICIPANT_LEFT, {"participant": pid})
        return actions.close_round(state, [gone])[1:]

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """A defeated participant takes no more turns (FU-CON-12)."""
        return "FU-CON-12"

    def check_end(self, state: ConflictState, reason: str) -> None:
        """Refuse an ending that names none of the seed's reasons (FU-CON-11)."""
        text = reason.strip().lower()
        if text.startswith("note") or any(w in text for w in END_REASONS):
            return
        raise InvalidInput(
            f"end: {reason!r} names none of the seed's reasons; say \"goal achieved\", "
            "\"unable or unwilling to continue\", \"compromise\", or start with \"note:\"",
            rule="FU-CON-11", reason=reason)

    # --- evolve -----------------------------------------------------------------------
    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply an event to the ruleset's state. Never raises."""
        ext: FabulaExt = state.ext
        if ext is None:
            return
        t, d = event.type, event.data
        order = ext.order
        if t == "initiative_checked":
            ext.initiative = {"leader": d["leader"], "dl": d["dl"],
                              "total": d["check"]["total"], "success": d["success"],
                              "first_side": d["first_side"]}
            members, turns = roster(state)
            new = AlternatingSides(sides=[ext.pc_side, ext.foe_side],
                                   first_side=d["first_side"], side_on_turn=d["first_side"])
            for pid, side in members.items():
                new.side_of[pid] = side
                new.turns_per_round[pid] = turns[pid]
                new.taken[pid] = 0
            new.settle()
            ext.order = new
        elif t == ROUND_STARTED and order is not None:
            order.new_round()
            ext.round_closed = False
        elif t == ROUND_ENDED:
            ext.round_closed = True
        elif t == TURN_STARTED and order is not None:
            order.take_turn(d["participant"])
        elif t == TURN_ENDED and order is not None:
            order.end_turn()
            order.settle()
        elif t in (PARTICIPANT_LEFT, PARTICIPANT_OUT) and order is not None:
            order.leave(d["participant"])
            order.settle()
        elif t == PARTICIPANT_JOINED:
            p = state.participants.get(d["id"])
            if p is None:
                return
            add_participant(ext, p)
            if order is not None and not is_extra(ext, p) and p.side in order.sides:
                self._join_order(ext, p.id, p.side, turns_per_round(p))
        elif t == "goal_set":
            ext.goals[d["participant"]] = d["text"]
        elif t == "item_equipped":
            self._equip(ext, d["participant"], Item(**d["item"]))
        elif t == "extra_set":
            if d["on"] and d["participant"] not in ext.extras:
                ext.extras.append(d["participant"])
            elif not d["on"] and d["participant"] in ext.extras:
                ext.extras.remove(d["participant"])
        elif t == "side_assigned":
            self._assign(state, d["participant"], d["side"])
        elif t == "spell" and d.get("mp"):
            pool = ext.mp.get(event.actor or "")
            if pool is not None:
                pool.set(pool.current - int(d["mp"]))
        elif t == "damage" and d["target"] in ext.hp:
            ext.hp[d["target"]].set(int(d["hp_after"]))
        elif t in ("recovered", "spent"):
            pid = str(d.get("target") or d.get("participant"))
            pools = {"hp": ext.hp, "mp": ext.mp, "ip": ext.ip}.get(d["pool"], {})
            if pid in pools:
                pools[pid].set(int(d["after"]))
        elif t == "status_changed":
            have = ext.statuses.setdefault(d["target"], [])
            if d["on"] and d["effect"] not in have:
                have.append(d["effect"])
            elif not d["on"] and d["effect"] in have:
                have.remove(d["effect"])
        elif t == "fabula_changed":
            ext.fp[d["participant"]] = max(0, int(d["fp_after"]))

    @staticmethod
    def _equip(ext: FabulaExt, pid: str, item: Item) -> None:
        items = ext.equipment.setdefault(pid, [])
        single = item.kind in ("armor", "shield")
        items[:] = [i for i in items if not (
            (single and i.kind == item.kind) or i.name.lower() == item.name.lower())]
        items.append(item)

    @staticmethod
    def _assign(state: ConflictState, pid: str, side: str) -> None:
        ext: FabulaExt = state.ext
        p = state.participants.get(pid)
        if p is None:
            return
        p.side = side
        order = ext.order
        if order is None or is_extra(ext, p) or not p.active:
            return
        if pid in order.side_of:
            order.move(pid, side)
        else:
            FabulaUltima._join_order(ext, pid, side, turns_per_round(p))

    @staticmethod
    def _join_order(ext: FabulaExt, pid: str, side: str, turns: int) -> None:
        """Add ``pid`` to the turn order; after the round has ended its turns count from the
        next round, so it does not reopen the finished one (FU-CON-14)."""
        assert ext.order is not None
        ext.order.join(pid, side, turns)
        if ext.round_closed:
            ext.order.taken[pid] = ext.order.turns_per_round[pid]
        ext.order.settle()

    # --- views ------------------------------------------------------------------------
    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """The chance each member who may act now hits each foe (FU-RES-3)."""
        return fu_odds.pending_odds(state, viewer)

    def view_ext(self, state: ConflictState, viewer: Viewer) -> dict[str, Any]:
        """The tracker: per side who has acted and who has turns left."""
        return views.view_ext(state, viewer)

    def view_participant(self, state: ConflictState, viewer: Viewer,
                         pid: str) -> dict[str, Any]:
        """HP/MP/IP, Crisis, FP, statuses, dice, turns left, gear, goal."""
        return views.view_participant(state, viewer, pid)

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """Hide GM-only pool values from players."""
        return views.redact(state, event, viewer)

    def describe(self, event: Event, state: ConflictState) -> str | None:
        """A log sentence for each Fabula Ultima event."""
        return views.describe(event, state)

    def status_lines(self, state: ConflictState) -> list[str]:
        """The tracker lines."""
        return views.tracker_lines(state)

    def legal_commands(self, state: ConflictState, actor: str | None) -> list[str]:
        """What ``actor`` (None: the GM) may do now, as text commands or templates."""
        ext: FabulaExt = state.ext
        if state.status == Status.ENDED.value:
            return ["undo"]
        active = [p for p in state.participants.values() if p.active]
        if state.status == Status.SETUP.value:
            leaders = [p.id for p in active if p.kind == Kind.PC.value
                       and p.side == ext.pc_side and not is_extra(ext, p)]
            if actor is None:
                out = [f"assign {p.id} {ext.pc_side}" for p in active
                       if p.side not in (ext.pc_side, ext.foe_side)]
                out += [f"extra {p.id}" for p in active if not is_extra(ext, p)]
                return out + [f"{pid}: initiative" for pid in leaders] + ["end REASON"]
            out = [f"{actor}: goal TEXT", f"{actor}: equip weapon NAME accuracy=dex+mig "
                                          "damage=N", f"{actor}: equip armor NAME init=N"]
            return out + ([f"{actor}: initiative"] if actor in leaders else [])
        order = next_order(ext)
        if order is None:
            return []
        may = order.who_may_act()
        targets = [p.id for p in active if p.id in order.side_of]

        def turn(pid: str) -> list[str]:
            foes = [t for t in targets if order.side_of.get(t) != order.side_of.get(pid)]
            return ([f"{pid}: act TEXT"] + [f"{pid}: attack {t}" for t in foes]
                    + [f"{pid}: spell NAME mp=N target=ID", f"{pid}: check ATTR+ATTR DL"])
        if actor is None:
            out = [c for pid in may for c in turn(pid)]
            return [*out, "damage TARGET AMOUNT", "status TARGET EFFECT", "out ID",
                    "end REASON"]
        out = turn(actor) if actor in may else []
        out.append(f"{actor}: check ATTR+ATTR DL turn=no")
        if actor in ext.fp:
            out.append(f"{actor}: fabula -1 why=TEXT")
        return out

    # --- odds -------------------------------------------------------------------------
    def odds(self, query: str) -> OddsReport:
        """``{d8+d10}+1 vs 13`` or ``group {d8+d8}+1 vs 12 supporters {d8+d6},{d10+d10}
        bonds 2,0`` (see docs/fabula-ultima.md, "Odds")."""
        return fu_odds.answer(query)
