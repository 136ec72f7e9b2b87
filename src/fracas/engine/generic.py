"""Commands and events every ruleset shares: notes, narration, rolls, effects, joining and
leaving, GM overrides and the end of a conflict. Undo and redo live in :mod:`.conflict`."""

from __future__ import annotations

import copy
import dataclasses
import typing
from typing import Any

from pydantic import TypeAdapter, ValidationError

from fracas.engine import effects as fx
from fracas.engine.commands import Command, CommandSpec, Param
from fracas.engine.concealment import concealing
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    CONFLICT_CREATED,
    CONFLICT_ENDED,
    CONFLICT_STARTED,
    EFFECT_ADDED,
    EFFECT_EXPIRED,
    NARRATION,
    NOTE,
    OVERRIDE,
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    ROLL,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    ZOOM_CLOSED,
    ZOOM_OPENED,
    Event,
)
from fracas.engine.limits import check_stat_ranges
from fracas.engine.model import ConflictState, Participant, Status, TimedEffect, Visibility
from fracas.engine.overrides import normalise
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import ParticipantSetup, first_error, setup_of
from fracas.engine.suggest import did_you_mean
from fracas.errors import IllegalCommand, InvalidInput

_VIS = Param("visibility", "choice", required=False, positional=False,
             choices=("public", "gm", "owner"), default="public",
             help="who sees it: public, gm (secret) or owner (the owner and the GM)")

GENERIC_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("undo", (Param("steps", "int", required=False, default=1),),
                "take back the last STEPS commands (they can be redone)", actor="gm"),
    CommandSpec("redo", (Param("steps", "int", required=False, default=1),),
                "bring back undone commands", actor="gm"),
    CommandSpec("note", (Param("text", "text"), _VIS), "a note in the log", actor="optional"),
    CommandSpec("narrate", (Param("text", "text"), _VIS),
                "narration of an action or its effects", actor="optional"),
    CommandSpec("roll", (Param("expression", "word"), Param("dice", "dice", required=False,
                positional=False), Param("why", "text", required=False), _VIS),
                "roll any dice (visibility=gm rolls in secret)", actor="optional"),
    CommandSpec("effect", (Param("text", "text"),
                           Param("until", "choice", required=False, positional=False,
                                 choices=fx.TRIGGERS, default="round_end"),
                           Param("who", "id", required=False, positional=False),
                           Param("count", "int", required=False, positional=False, default=1),
                           _VIS),
                "a timed effect or reminder that expires at a round or turn boundary",
                actor="optional"),
    CommandSpec("expire", (Param("id", "word"),), "remove a timed effect now", actor="gm"),
    CommandSpec("override", (Param("path", "word"), Param("value", "value"),
                             Param("reason", "text", required=False, positional=False)),
                "GM correction of any value: override ada.stats.hp 12", actor="gm"),
    CommandSpec("join", (Param("id", "id"), Param("name", "text", required=False,
                                                    positional=False),
                         Param("kind", "choice", required=False, positional=False,
                               choices=("pc", "npc", "group"), default="npc"),
                         Param("side", "word", required=False, positional=False),
                         Param("player", "word", required=False, positional=False),
                         Param("stats", "value", required=False, positional=False),
                         Param("gm_only", "ids", required=False, positional=False,
                               help="stats players never see"),
                         Param("hidden", "bool", required=False, positional=False,
                               default=False,
                               help="concealed from the players from the start")),
                "a participant joins mid-conflict", actor="gm"),
    CommandSpec("leave", (Param("id", "id"), Param("reason", "text", required=False)),
                "a participant leaves the conflict", actor="gm"),
    CommandSpec("out", (Param("id", "id"), Param("reason", "text", required=False)),
                "a participant is out of the conflict (defeated, fled, surrendered)",
                actor="gm"),
    CommandSpec("end", (Param("reason", "text"),
                        Param("outcome", "text", required=False, positional=False)),
                "end the conflict (or the zoomed-in conflict) with a reason", actor="gm"),
)

GENERIC_VERBS = frozenset(s.verb for s in GENERIC_COMMANDS)
#: Verbs a character out of the conflict (or gone) may still use.
OUT_OF_PLAY_VERBS = frozenset({"note", "narrate", "roll"})
#: Verbs still allowed once a conflict has ended.
AFTER_END_VERBS = frozenset({"undo", "redo", "note", "narrate", "override", "roll"})


def decide_generic(
    ruleset: Ruleset, state: ConflictState, cmd: Command, ctx: DecideContext
) -> list[Event]:
    """Events of an engine-level command (not undo/redo) against the innermost conflict."""
    a = cmd.args
    vis = str(a.get("visibility", "public"))
    if vis == Visibility.OWNER and cmd.actor is None:
        raise InvalidInput("visibility=owner needs an actor whose owner may see it")
    verb = cmd.verb
    if verb in ("note", "narrate"):
        kind = NOTE if verb == "note" else NARRATION
        return [Event(kind, {"text": a["text"]}, actor=cmd.actor, visibility=vis)]
    if verb == "roll":
        result = ctx.roll(a["expression"], a.get("dice"))
        data = result.to_data()
        data["text"] = result.to_text()
        if a.get("why"):
            data["why"] = a["why"]
        return [Event(ROLL, data, actor=cmd.actor, visibility=vis)]
    if verb == "effect":
        who = a.get("who")
        trigger = a["until"]
        if trigger != "round_end" and who is None:
            raise InvalidInput(f"until={trigger} needs who=PARTICIPANT")
        if who is not None:
            state.participant(who)
        if a["count"] < 1:
            raise InvalidInput("count must be at least 1", count=a["count"])
        effect = TimedEffect(
            id=fx.new_id(ctx, state.effects), text=a["text"], trigger=trigger,
            remaining=a["count"], participant=who, visibility=vis, owner=cmd.actor,
        )
        return [Event(EFFECT_ADDED, dataclasses.asdict(effect), actor=cmd.actor,
                      visibility=vis)]
    if verb == "expire":
        for effect in state.effects:
            if effect.id == a["id"]:
                return [fx.expired(effect, "gm")]
        raise InvalidInput(f"no timed effect {a['id']!r}", id=a["id"])
    if verb == "override":
        path = parse_path(a["path"])
        target = ruleset.override_target(state, normalise(state, path))
        if target is not None:
            current = target.current
            value = target.check(a["value"])
        else:
            _refuse_setup_only(ruleset, state, path)
            current = resolve_path(state, path)
            value = check_override_value(a["path"], current, a["value"])
            check_declared_type(a["path"], slot_type(state, path), value)
        if value == current:
            raise InvalidInput(f"override: {a['path']} is already {_jsonable(current)!r}; "
                               "nothing would change", path=a["path"])
        data = {"path": path, "value": value, "was": _jsonable(current)}
        if a.get("reason"):
            data["reason"] = a["reason"]
        return [Event(OVERRIDE, data, visibility=Visibility.GM.value)]
    if verb == "join":
        return _decide_join(ruleset, state, cmd, ctx)
    if verb in ("leave", "out"):
        p = state.participant(a["id"])
        if not p.active:
            raise IllegalCommand(f"{p.name} is no longer in the conflict", participant=p.id)
        kind = PARTICIPANT_LEFT if verb == "leave" else PARTICIPANT_OUT
        event = Event(kind, {"participant": p.id, "reason": a.get("reason") or verb})
        return [event, *ruleset.on_leave(state, p.id, ctx)]
    if verb == "end":
        if state.depth > 0:
            return [Event(ZOOM_CLOSED, {"reason": a["reason"], "early": True})]
        ruleset.check_end(state, a["reason"])
        data = {"reason": a["reason"]}
        if a.get("outcome"):
            data["outcome"] = a["outcome"]
        return [Event(CONFLICT_ENDED, data)]
    raise InvalidInput(f"unknown command {verb!r}")  # pragma: no cover - specs are closed


def _refuse_setup_only(ruleset: Ruleset, state: ConflictState, path: list[str]) -> None:
    """Refuse an override of a set-up stat whose live value is kept elsewhere: it would
    change nothing the table sees; name the path that would."""
    parts = normalise(state, path)
    if len(parts) >= 4 and parts[0] == "participants" and parts[2] == "stats":
        live = ruleset.live_stats.get(parts[3])
        if live is not None:
            pid = parts[1]
            raise InvalidInput(
                f"override: {pid}.stats.{parts[3]} is only the set-up value and changes "
                f"nothing in play; override {live.format(id=pid)} instead", path=".".join(path))


def _decide_join(
    ruleset: Ruleset, state: ConflictState, cmd: Command, ctx: DecideContext
) -> list[Event]:
    a = cmd.args
    if a["id"] in state.participants:
        raise IllegalCommand(f"{a['id']!r} is already a participant", participant=a["id"])
    stats = a.get("stats") or {}
    if not isinstance(stats, dict):
        raise InvalidInput('stats must be a JSON object, e.g. stats=\'{"dex": 8}\'')
    try:
        setup = ParticipantSetup(
            id=a["id"], name=a["id"].title() if a.get("name") is None else a["name"],
            kind=a["kind"], side=a.get("side"), player=a.get("player"), stats=stats,
            gm_only=a.get("gm_only") or [],
        )
    except ValidationError as exc:
        key, msg = first_error(exc)
        raise InvalidInput(f"join: {key}: {msg}") from None
    # exactly the checks of a scenario file: the stats' ranges, then the ruleset's set-up
    check_stat_ranges(ruleset.stat_ranges, setup.id, setup.stats)
    ruleset.validate_setup(setup_of(state, ruleset.name, setup))
    data = setup.model_dump()
    events = [Event(PARTICIPANT_JOINED, data)]
    joined = _participant_from(data)
    preview = dataclasses.replace(state, participants={**state.participants, joined.id: joined})
    events += ruleset.on_join(preview, joined.id, ctx)
    if a.get("hidden"):
        events += concealing(ruleset, state, events, joined.id, ctx)
    return events


def _participant_from(data: dict[str, Any]) -> Participant:
    # copies all the way down: the state must never share a list or dict with an event, or an
    # override of one item would rewrite the log
    return Participant(
        id=data["id"], name=data["name"], kind=data.get("kind", "npc"), side=data.get("side"),
        owner=data.get("player"), stats=copy.deepcopy(data.get("stats", {})),
        gm_only=list(data.get("gm_only", [])),
    )


# --- overrides ---------------------------------------------------------------------------

def parse_path(text: str) -> list[str]:
    """Split ``ada.stats.hp`` into its parts; a leading participant id is a shortcut for
    ``participants.ID``."""
    parts = [p for p in text.split(".") if p]
    if not parts:
        raise InvalidInput("override needs a path such as ada.stats.hp")
    return parts


def _step(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        if part in node:
            return node[part]
        raise KeyError(part)
    if isinstance(node, list):
        return node[int(part)]
    if (
        dataclasses.is_dataclass(node)
        and not isinstance(node, type)
        and part in {f.name for f in dataclasses.fields(node)}
        and part != "zoom"
    ):
        return getattr(node, part)
    raise KeyError(part)


def resolve_path(state: ConflictState, path: list[str]) -> Any:
    """The value at ``path`` in ``state``, or an error naming the part that does not exist."""
    node: Any = state
    parts = list(path)
    if parts[0] in state.participants:
        parts = ["participants", *parts]
    for i, part in enumerate(parts):
        try:
            node = _step(node, part)
        except (KeyError, IndexError, ValueError):
            where = ".".join(parts[:i]) or "the conflict"
            known = _keys(node) if i else [*_keys(node), *state.participants]
            raise InvalidInput(f"override: {where} has no {part!r}{did_you_mean(part, known)}",
                               path=".".join(path)) from None
    return node


def _keys(node: Any) -> list[str]:
    """The names one step below ``node`` (for a suggestion): keys, or dataclass fields."""
    if isinstance(node, dict):
        return [str(k) for k in node]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return [f.name for f in dataclasses.fields(node) if f.name != "zoom"]
    return []


def slot_type(state: ConflictState, path: list[str]) -> Any:
    """The declared type of the value at ``path`` (``Any`` where nothing declares it): the
    field's annotation in a dataclass, the item type of a typed list or dict."""
    parts = list(path)
    if parts[0] in state.participants:
        parts = ["participants", *parts]
    node: Any = state
    hint: Any = ConflictState
    for part in parts:
        if dataclasses.is_dataclass(node) and not isinstance(node, type):
            try:
                hint = typing.get_type_hints(type(node)).get(part, Any)
            except Exception:  # an annotation that cannot be resolved: not checked
                hint = Any
        else:
            origin, args = typing.get_origin(hint), typing.get_args(hint)
            if origin is dict and len(args) == 2:
                hint = args[1]
            elif origin is list and len(args) == 1:
                hint = args[0]
            else:
                hint = Any
        node = _step(node, part)
    return hint


def check_declared_type(path: str, hint: Any, value: Any) -> None:
    """Refuse a value the slot's declared type does not allow (a name where a number of
    rounds belongs, numbers in place of a list of effects…)."""
    if hint is Any:
        return
    try:
        TypeAdapter(hint).validate_python(value, strict=True)
    except ValidationError:
        raise InvalidInput(
            f"override: {path} cannot hold {value!r}", path=path, value=value
        ) from None
    except Exception:  # a type pydantic cannot check: not checked
        return


def check_override_value(path: str, current: Any, value: Any) -> Any:
    """Refuse a value of another kind than the one it replaces."""
    if dataclasses.is_dataclass(current) or isinstance(current, dict):
        raise InvalidInput(f"override: {path} is a whole record; override one of its values")
    if current is None or value is None:
        return value
    if isinstance(current, bool) != isinstance(value, bool):
        raise InvalidInput(f"override: {path} is {current!r}; give a value of the same kind")
    if isinstance(current, int | float) and isinstance(value, int | float):
        return type(current)(value) if isinstance(current, float) else _int(path, value)
    if isinstance(current, str) and isinstance(value, str | int | float):
        return str(value)
    if isinstance(current, list) and isinstance(value, list):
        return value
    if type(current) is not type(value):
        raise InvalidInput(
            f"override: {path} is {current!r}; {value!r} is not the same kind of value"
        )
    return value


def _int(path: str, value: float) -> int:
    if int(value) != value:
        raise InvalidInput(f"override: {path} takes a whole number, not {value}")
    return int(value)


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def apply_override(state: ConflictState, path: list[str], value: Any) -> None:
    """Set the value at ``path`` (checked in decide)."""
    parts = list(path)
    if parts[0] in state.participants:
        parts = ["participants", *parts]
    node: Any = state
    for part in parts[:-1]:
        node = _step(node, part)
    last = parts[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        setattr(node, last, value)


# --- evolve ------------------------------------------------------------------------------

def evolve_generic(ruleset: Ruleset, state: ConflictState, event: Event) -> None:
    """Apply an engine-level event to ``state`` (the conflict it belongs to). Never raises."""
    t, d = event.type, event.data
    if t == CONFLICT_CREATED:
        state.ruleset = d["ruleset"]
        state.title = d.get("title", "")
        state.scene = d.get("scene", "")
        state.settings = copy.deepcopy(d.get("settings", {}))
        state.round_limit = d.get("round_limit")
        state.sides = list(d.get("sides", []))
        state.participants = {p["id"]: _participant_from(p) for p in d.get("participants", [])}
        state.ext = ruleset.init_ext(state, d)
    elif t == CONFLICT_STARTED:
        state.status = Status.RUNNING.value
    elif t == CONFLICT_ENDED:
        state.status = Status.ENDED.value
        state.end_reason = d.get("reason")
        state.outcome = d.get("outcome")
    elif t == ROUND_STARTED:
        state.round = int(d.get("round", state.round + 1))
    elif t in (ROUND_ENDED, TURN_STARTED, TURN_ENDED):
        fx.tick(state.effects, event)
    elif t == PARTICIPANT_JOINED:
        p = _participant_from(d)
        state.participants[p.id] = p
        if p.side is not None and p.side not in state.sides:
            state.sides.append(p.side)
    elif t == PARTICIPANT_LEFT:
        if d["participant"] in state.participants:
            state.participants[d["participant"]].present = False
    elif t == PARTICIPANT_OUT:
        if d["participant"] in state.participants:
            state.participants[d["participant"]].out = d.get("reason") or "out"
    elif t == EFFECT_ADDED:
        state.effects.append(TimedEffect(**d))
    elif t == EFFECT_EXPIRED:
        state.effects = [e for e in state.effects if e.id != d["id"]]
    elif t == OVERRIDE:
        target = ruleset.override_target(state, normalise(state, d["path"]))
        if target is not None:
            target.apply(copy.deepcopy(d["value"]))
        else:
            apply_override(state, d["path"], copy.deepcopy(d["value"]))
    elif t == ZOOM_OPENED:
        state.zoom = ruleset.zoom_state(state, d)
    elif t == ZOOM_CLOSED and state.zoom is not None:
        ruleset.merge_zoom(state, state.zoom)
        state.zoom = None
