"""A small ruleset that lives under tests/ only: the engine's property tests run on it.

"Toy brawl": popcorn turns, one HP pool each, ``ACTOR: hit TARGET`` rolls 1d6 damage,
``ACTOR: done TO`` hands off, ``start ACTOR`` opens a round.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from fracas.engine import (
    Command,
    CommandSpec,
    ConflictState,
    DecideContext,
    Event,
    Param,
    Ruleset,
    Viewer,
)
from fracas.engine.components import Popcorn, ResourcePool
from fracas.engine.events import (
    CONFLICT_STARTED,
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    ZOOM_OPENED,
)
from fracas.errors import IllegalCommand


@dataclass
class ToyExt:
    turns: Popcorn = field(default_factory=Popcorn)
    hp: dict[str, ResourcePool] = field(default_factory=dict)


class Toy(Ruleset):
    name = "toy"
    title = "Toy brawl"
    ext_type = ToyExt
    commands = (
        CommandSpec("start", (Param("first", "id"),), "open a round", actor="gm"),
        CommandSpec("hit", (Param("target", "id"), Param("dice", "dice", required=False,
                                                            positional=False)), "hit someone",
                    rule="TOY-5"),
        CommandSpec("done", (Param("to", "id", required=False),), "end your go, hand off"),
        CommandSpec("zoom", (Param("who", "ids"), Param("rounds", "int", required=False,
                                                          default=2)),
                    "play a nested conflict with WHO for ROUNDS rounds", actor="gm"),
    )

    def check_zoom(self, state: ConflictState, actor: str | None, who: list[str]) -> None:
        for pid in who:
            state.participant(pid)
        if len(who) < 2:
            raise IllegalCommand("a nested conflict needs at least two participants")

    def zoom_state(self, parent: ConflictState, data: dict[str, Any]) -> ConflictState:
        child = ConflictState(
            ruleset=parent.ruleset, title=f"{parent.title} (zoomed in)",
            participants={p: copy.deepcopy(parent.participants[p]) for p in data["who"]},
            status="running", round_limit=int(data["rounds"]), depth=parent.depth + 1,
        )
        ext = ToyExt()
        for pid in data["who"]:
            ext.turns.join(pid)
            ext.hp[pid] = copy.deepcopy(parent.ext.hp[pid])
        child.ext = ext
        return child

    def merge_zoom(self, parent: ConflictState, child: ConflictState) -> None:
        for pid, pool in child.ext.hp.items():
            parent.ext.hp[pid] = copy.deepcopy(pool)
            if child.participants[pid].out:
                parent.participants[pid].out = child.participants[pid].out

    def init_ext(self, state: ConflictState, setup: dict[str, Any]) -> ToyExt:
        ext = ToyExt()
        for p in state.participants.values():
            ext.turns.join(p.id)
            hp = int(p.stats.get("hp", 6))
            ext.hp[p.id] = ResourcePool(current=hp, maximum=hp)
        return ext

    def decide(self, state: ConflictState, command: Command, ctx: DecideContext) -> list[Event]:
        ext: ToyExt = state.ext
        a = command.args
        if command.verb == "zoom":
            self.check_zoom(state, None, a["who"])
            return [Event(ZOOM_OPENED, {"who": a["who"], "rounds": a["rounds"],
                                        "reason": "a closer look"})]
        if command.verb == "start":
            if ext.turns.round_opened:
                raise IllegalCommand("the round is still going")
            ext.turns.check_open(a["first"], "TOY-1")
            out = [] if state.status == "running" else [Event(CONFLICT_STARTED)]
            return [*out, Event(ROUND_STARTED, {"round": state.round + 1}),
                    Event(TURN_STARTED, {"participant": a["first"]})]
        actor = command.actor
        assert actor is not None
        ext.turns.check_action(actor, "TOY-2", "TOY-3", n=1 if command.verb == "hit" else 0)
        if command.verb == "hit":
            target = state.participant(a["target"])
            if not target.active:
                raise IllegalCommand(f"{target.name} is out")
            roll = ctx.roll("1d6", a.get("dice"))
            events = [Event("hit", {"target": target.id, "roll": roll.to_data(),
                                    "damage": roll.total}, actor=actor)]
            if ext.hp[target.id].current - roll.total <= 0:
                events.append(Event(PARTICIPANT_OUT, {"participant": target.id,
                                                      "reason": "knocked out"}))
            return events
        # done
        events = [Event(TURN_ENDED, {"participant": actor})]
        to = a.get("to")
        rest = [p for p in ext.turns.not_gone() if p != actor and state.participants[p].active]
        if to is None:
            if rest:
                raise IllegalCommand("hand off to someone who has not gone: " + ", ".join(rest))
            return [*events, Event(ROUND_ENDED, {"round": state.round})]
        ext.turns.check_hand_off(to, "TOY-4")
        return [*events, Event(TURN_STARTED, {"participant": to})]

    def evolve(self, state: ConflictState, event: Event) -> None:
        ext: ToyExt = state.ext
        d = event.data
        if event.type == TURN_STARTED:
            if ext.turns.current is None and not ext.turns.gone:
                ext.turns.open(d["participant"], 2)
            else:
                ext.turns.hand_off(d["participant"], 2)
        elif event.type == "hit":
            ext.hp[d["target"]].damage(d["damage"])
            ext.turns.spend(1)
        elif event.type == TURN_ENDED:
            ext.turns.end_go()
        elif event.type == ROUND_ENDED:
            ext.turns.new_round()
        elif event.type == PARTICIPANT_JOINED:
            ext.turns.join(d["id"])
            ext.hp[d["id"]] = ResourcePool(current=6, maximum=6)
        elif event.type in (PARTICIPANT_LEFT, PARTICIPANT_OUT):
            ext.turns.leave(d["participant"])

    def legal_commands(self, state: ConflictState, actor: str | None) -> list[str]:
        ext: ToyExt = state.ext
        if actor is None:
            return [f"start {p}" for p in ext.turns.not_gone()] if ext.turns.current is None \
                else []
        if ext.turns.current != actor:
            return []
        out = [f"{actor}: hit {t}" for t in state.active_ids() if t != actor] \
            if ext.turns.actions_left > 0 else []
        return out + [f"{actor}: done {t}" for t in ext.turns.not_gone() if t != actor]

    def view_participant(self, state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
        pool = state.ext.hp[pid]
        return {"summary": f"HP {pool.current}/{pool.maximum}"}
