"""Etherscope decide, zooming in (ES-ACT-1/2) and the GM's direct damage (ES-DMG-1)."""

from __future__ import annotations

import copy

from fracas.engine.commands import Command
from fracas.engine.engine_events import ParticipantOut
from fracas.engine.events import Event
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState, Viewer
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.actions import checked_target
from fracas.rulesets.etherscope.common import (
    active,
    actor_of,
    damage_events,
    expand_seen,
    ext_of,
    name,
)
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.rounds import (
    check_turn,
    end_turn,
)
from fracas.rulesets.etherscope.settings import faster

Events = list[Event]


def check_zoom(state: ConflictState, actor: str | None, who: list[str],
               author: Viewer | None = None) -> None:
    """ES-ACT-1, ES-ACT-2: zoom only at one's turn, never from Fast."""
    if faster(state.settings["time_scale"]) is None:
        raise IllegalCommand(
            "a Fast conflict cannot zoom in further: there is no faster time scale",
            rule="ES-ACT-2")
    if actor is not None:
        check_turn(state, actor, author)
    if not who:
        raise InvalidInput("name the participants of the zoomed-in conflict", rule="ES-ACT-1")


@HANDLERS.decides("zoom")
def decide_zoom(d: Decision, cmd: Command) -> None:
    """ES-ACT-1: open a nested conflict one time scale faster for five rounds. Refused from
    Fast (ES-ACT-2) or off the actor's turn before any name is read, as an action is: the
    same refusal whoever is named, one who does not exist, or is hidden, or is not."""
    state, ctx = d.state, d.ctx
    actor = actor_of(cmd)
    check_zoom(state, actor, list(cmd.args["who"]), ctx.author)
    who = expand_seen(state, cmd.args["who"], actor, author=ctx.author)
    if actor not in who:
        who = [actor, *who]
    for w in who:
        if w != actor:
            checked_target(state, actor, w, ctx)
    ext, s = ext_of(state), state.settings
    settings = copy.deepcopy(s)
    settings["time_scale"] = faster(s["time_scale"])
    if cmd.args.get("scaling"):
        settings["range_scaling"] = cmd.args["scaling"]
        settings.pop("custom_scaling", None)
    settings["groups"] = {}
    settings["lurking"] = {}
    bands = {k: v for k, v in ext.ranges.bands.items()
             if all(x in who for x in k.split("|"))}
    hidden = {h: [x for x in xs if x in who] for h, xs in ext.ranges.hidden.items() if h in who}
    data = {
        "reason": cmd.args.get("reason") or f"{name(state, actor)} zooms in",
        "opened_by": actor, "participants": who, "time_scale": settings["time_scale"],
        "round_limit": s["zoom_rounds"], "depth": state.depth + 1, "settings": settings,
        "awareness": {w: ext.awareness.get(w, 0) for w in who},
        "bands": bands, "hidden": {h: xs for h, xs in hidden.items() if xs},
        "start": bool(cmd.args.get("start")),
        "range_scaling": settings["range_scaling"],
    }
    d.emit(ev.EsZoomOpened.from_payload(data, actor))


@HANDLERS.decides("damage")
def decide_damage(d: Decision, cmd: Command) -> None:
    """ES-DMG-1: GM damage to the conflict's condenser."""
    state = d.state
    who, amount = cmd.args["who"], cmd.args["amount"]
    if not active(state, who):
        state.participant(who)
        raise IllegalCommand(f"{name(state, who)} is no longer in the conflict",
                             rule="ES-DMG-1")
    if amount < 1:
        raise InvalidInput(f"damage is at least 1, not {amount}", rule="ES-DMG-1")
    out = damage_events(state, who, amount, cmd.args.get("reason") or "GM", None, {})
    ext = ext_of(state)
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    if cur and cur.actor == who and any(isinstance(e, ParticipantOut) for e in out):
        out += end_turn(state, {who})
    d.emit(*out)
