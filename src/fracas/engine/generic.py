"""Commands and events every ruleset shares: notes, narration, rolls, effects, joining and
leaving, GM overrides and the end of a conflict. Undo and redo live in :mod:`.conflict`."""

from __future__ import annotations

import copy
import dataclasses
import typing
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter, ValidationError

from fracas.engine import effects as fx
from fracas.engine import harm_view
from fracas.engine.commands import Command, CommandSpec, Param
from fracas.engine.concealment import concealing
from fracas.engine.context import DecideContext
from fracas.engine.engine_events import (
    ConflictCreated,
    ConflictEnded,
    ConflictStarted,
    EffectAdded,
    EffectExpired,
    Narration,
    Note,
    Override,
    ParticipantJoined,
    ParticipantLeft,
    ParticipantOut,
    Rolled,
    RoundEnded,
    RoundStarted,
    TurnEnded,
    TurnStarted,
    ZoomClosed,
    ZoomOpened,
)
from fracas.engine.events import Event
from fracas.engine.handlers import Decision, Handlers, Table
from fracas.engine.limits import check_name, check_stat_ranges, spelled
from fracas.engine.model import ConflictState, Participant, Status, Visibility, copy_json
from fracas.engine.overrides import OverrideTarget, normalise, refuse_left
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import (
    ParticipantSetup,
    Setup,
    default_name,
    first_error,
    read_setup,
    setup_of,
)
from fracas.engine.suggest import did_you_mean
from fracas.errors import IllegalCommand, InvalidInput

_VIS = Param("visibility", "choice", required=False, positional=False,
             choices=("public", "gm", "owner"), default="public",
             help="who sees it: public, gm (secret) or owner (the owner and the GM)")

GENERIC_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("undo", (Param("steps", "int", required=False, default=1),),
                "take back the last commands, as many as steps (they can be redone)", actor="gm"),
    CommandSpec("redo", (Param("steps", "int", required=False, default=1),),
                "bring back undone commands", actor="gm"),
    CommandSpec("note", (Param("text", "text"), _VIS), "a note in the log", actor="optional"),
    CommandSpec("narrate", (Param("text", "text"), _VIS),
                "narration of an action or its effects", actor="optional"),
    # the expression is every free word, as Avrae's !roll reads it: "roll 1d20 + 5 adv to
    # hit" rolls 2d20kh1+5, its comment "to hit" (the words were the reason, the +5 lost)
    CommandSpec("roll", (Param("expression", "text"), Param("dice", "dice", required=False,
                positional=False), Param("why", "text", required=False, positional=False),
                _VIS),
                "roll any dice (seen by the GM alone when its visibility is gm)", actor="optional"),
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
                             Param("reason", "text", required=False, positional=False),
                             Param("visibility", "choice", required=False, positional=False,
                                   choices=("gm", "owner"), default="gm",
                                   help="who reads the correction in the log: gm (the GM "
                                        "alone) or owner (the player of the character it "
                                        "corrects too)")),
                "GM correction of a live value by its path in fracas show --json",
                actor="gm"),
    CommandSpec("join", (Param("id", "new-id"), Param("name", "text", required=False,
                                                    positional=False),
                         Param("kind", "choice", required=False, positional=False,
                               choices=("pc", "npc", "group"), default="npc"),
                         Param("side", "word", required=False, positional=False,
                               help="the side the newcomer takes part on"),
                         Param("player", "word", required=False, positional=False),
                         Param("stats", "value", required=False, positional=False,
                               help="a JSON object of the newcomer's stats, in the game's names"),
                         Param("gm_only", "keys", required=False, positional=False,
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
                "end the conflict with a reason", actor="gm"),
)

GENERIC_VERBS = frozenset(s.verb for s in GENERIC_COMMANDS)
#: Verbs a character out of the conflict (or gone) may still use.
OUT_OF_PLAY_VERBS = frozenset({"note", "narrate", "roll"})
#: Verbs still allowed once a conflict has ended.
AFTER_END_VERBS = frozenset({"undo", "redo", "note", "narrate", "override", "roll"})


#: The engine's verbs (undo and redo are the log's own: see :mod:`.conflict`).
ENGINE = Handlers()


def decide_generic(
    ruleset: Ruleset, state: ConflictState, cmd: Command, ctx: DecideContext
) -> list[Event]:
    """Events of an engine-level command (not undo/redo) against the innermost conflict."""
    return ENGINE.decide(ruleset, state, cmd, ctx)


def _visibility(cmd: Command) -> str:
    vis = str(cmd.args.get("visibility", "public"))
    if vis == Visibility.OWNER and cmd.actor is None:
        raise InvalidInput("visibility=owner needs an actor whose owner may see it")
    return vis


@ENGINE.decides("note")
def _note(d: Decision, cmd: Command) -> None:
    d.emit(Note(text=cmd.args["text"], actor=cmd.actor, visibility=_visibility(cmd)))


@ENGINE.decides("narrate")
def _narrate(d: Decision, cmd: Command) -> None:
    d.emit(Narration(text=cmd.args["text"], actor=cmd.actor, visibility=_visibility(cmd)))


@ENGINE.decides("roll")
def _roll(d: Decision, cmd: Command) -> None:
    a = cmd.args
    vis = _visibility(cmd)
    result = d.ctx.roll(a["expression"], a.get("dice"))
    d.emit(Rolled.from_payload({**result.to_data(), "text": result.to_text(),
                                "why": a.get("why") or None}, cmd.actor, vis))


@ENGINE.decides("effect")
def _effect(d: Decision, cmd: Command) -> None:
    a, state = cmd.args, d.state
    vis = _visibility(cmd)
    who = a.get("who")
    trigger = a["until"]
    if trigger != "round_end" and who is None:
        raise InvalidInput(f"until={trigger} needs who=PARTICIPANT")
    if who is not None:
        state.participant(who)
    if a["count"] < 1:
        raise InvalidInput("count must be at least 1", count=a["count"])
    d.emit(EffectAdded(id=fx.new_id(d.ctx, state.effects), text=a["text"], trigger=trigger,
                       remaining=a["count"], participant=who, shown_to=vis, owner=cmd.actor,
                       actor=cmd.actor, visibility=vis))


@ENGINE.decides("expire")
def _expire(d: Decision, cmd: Command) -> None:
    for effect in d.state.effects:
        if effect.id == cmd.args["id"]:
            d.emit(fx.expired(effect, "gm"))
            return
    raise InvalidInput(f"no timed effect {cmd.args['id']!r}", id=cmd.args["id"])


@ENGINE.decides("override")
def _override(d: Decision, cmd: Command) -> None:
    a, state, ruleset = cmd.args, d.state, d.ruleset
    path = parse_path(a["path"])
    parts = normalise(state, path)
    if parts[0] == "participants" and len(parts) > 1:
        refuse_left(state, parts[1], a["path"])
        if len(parts) > 2 and parts[2] in _ENGINE_KEPT:
            raise InvalidInput(f"override: {a['path']} is the engine's own bookkeeping (when "
                               "the character came in, when its stats were written); correct "
                               "a stat by its path, such as ID.stats.KEY", path=a["path"])
        if parts[2:] in (["out"], ["present"]) and parts[1] in state.participants:
            # before the value's kind is checked
            _refuse_in_or_out(state, parts[1], parts[2], a["value"], a["path"])
    target = _target(ruleset, state, path)
    if target is not None:
        current = target.current
        value = target.check(a["value"])
    else:
        _refuse_setup_only(ruleset, state, path)
        _refuse_bookkeeping(ruleset, path)
        if _new_entry_of_a_stat(state, parts):
            current, value = None, a["value"]  # checked below, as a scenario file's
        else:
            current = _resolve(ruleset, state, path)
            value = check_override_value(a["path"], current, a["value"])
        check_declared_type(a["path"], slot_type(state, path), value)
        _check_as_set_up(ruleset, state, path, value)
    if value == current:
        raise InvalidInput(f"override: {a['path']} is already {spelled(_jsonable(current))}; "
                           "nothing would change", path=a["path"])
    shown_to = _override_reader(state, parts, a) if a.get("visibility") == "owner" else None
    d.emit(Override(path=path, value=value, was=_jsonable(current),
                    reason=a.get("reason") or None, actor=shown_to,
                    visibility=Visibility.GM.value if shown_to is None
                    else Visibility.OWNER.value))


def _override_reader(state: ConflictState, parts: list[str], args: dict[str, Any]) -> str:
    """The character whose player reads an override given ``visibility=owner``: the one it
    corrects, played by a player, in a value that player sees."""
    path = args["path"]
    p = state.participants.get(parts[1]) if parts[0] == "participants" else None
    if p is None:
        raise InvalidInput(f"override: visibility=owner shows the correction to the player of "
                           f"the character it corrects; {path} is no character's value, so it "
                           "stays in the GM's log (leave visibility out)", path=path)
    if p.owner is None:
        raise InvalidInput(f"override: visibility=owner shows the correction to the player of "
                           f"the character it corrects; {p.name} has no player (the GM plays "
                           "them), so it stays in the GM's log (leave visibility out)",
                           path=path)
    if parts[2:3] == ["gm_only"] or (parts[2:3] == ["stats"] and len(parts) > 3
                                     and parts[3] in p.gm_only):
        raise InvalidInput(f"override: {path} is kept from {p.owner} (a GM-only stat of "
                           f"{p.name}), so its correction stays in the GM's log (leave "
                           "visibility out)", path=path)
    return p.id


@ENGINE.decides("leave")
def _leave(d: Decision, cmd: Command) -> None:
    p = _still_in(d.state, cmd.args["id"])
    d.emit(ParticipantLeft(participant=p.id, reason=cmd.args.get("reason") or "leave"),
           *d.ruleset.on_leave(d.state, p.id, d.ctx))


@ENGINE.decides("out")
def _out(d: Decision, cmd: Command) -> None:
    p = _still_in(d.state, cmd.args["id"])
    d.emit(ParticipantOut(participant=p.id, reason=cmd.args.get("reason") or "out"),
           *d.ruleset.on_leave(d.state, p.id, d.ctx))


def _still_in(state: ConflictState, pid: str) -> Participant:
    p = state.participant(pid)
    if not p.active:
        raise IllegalCommand(f"{p.name} is no longer in the conflict", participant=p.id)
    return p


@ENGINE.decides("end")
def _end(d: Decision, cmd: Command) -> None:
    reason = cmd.args["reason"]
    if d.state.depth > 0:
        if cmd.args.get("outcome"):
            raise InvalidInput("a zoomed-in conflict ends with a reason alone (end REASON): "
                               "an outcome is said when the whole conflict ends",
                               param="outcome")
        d.emit(ZoomClosed(reason=reason, early=True))
        return
    d.emit(ConflictEnded(reason=reason, outcome=cmd.args.get("outcome") or None))


def _target(ruleset: Ruleset, state: ConflictState, path: list[str]) -> OverrideTarget | None:
    """The live value ``path`` names, where it is not a plain slot of the state: a side's
    harm view (present or not: engine/harm_view.py), or one the ruleset names."""
    parts = normalise(state, path)
    return harm_view.override_target(state, parts) or ruleset.override_target(state, parts)


#: What the set-up of a conflict holds (an override of it is checked as a scenario file is).
SET_UP_PARTS = frozenset({"participants", "settings", "sides", "title", "scene", "round_limit"})
#: What only a command changes, and which (a hand-set value would break what they keep).
COMMANDED_PARTS = {"concealed": "conceal WHO / reveal WHO",
                   "zoom_origin": "zoom WHO reason=…"}


def _check_as_set_up(ruleset: Ruleset, state: ConflictState, path: list[str],
                     value: Any) -> None:
    """Refuse an override that no scenario file could hold (a stat out of its range, a
    blank name, an unknown kind, a battlefield the rules refuse), with the same words; and
    the values no override may change: a participant's id (every record names it by it),
    the ruleset and the round below 0."""
    parts, where = normalise(state, path), ".".join(path)
    if parts[0] in ("ruleset", "depth") or (parts[0] == "participants" and parts[2:] == ["id"]):
        raise InvalidInput(f"override: {where} cannot change (every record of the conflict "
                           "reads it)", path=where)
    if parts[0] == "round" and not (isinstance(value, int) and value >= 0):
        raise InvalidInput(f"override: the round is a whole number from 0, got {value!r}",
                           path=where)
    if parts[0] in COMMANDED_PARTS:
        raise InvalidInput(f"override: {where} is changed by its commands, not set by hand "
                           f"({COMMANDED_PARTS[parts[0]]})", path=where)
    if parts == ["status"] and value not in {s.value for s in Status}:
        raise InvalidInput(f"override: status is one of {', '.join(s.value for s in Status)}, "
                           f"got {value!r}", path=where)
    if parts[0] in ("end_reason", "outcome") and value is not None:
        if len(parts) > 1 or not isinstance(value, str):
            raise InvalidInput(f"override: {where} is a text or null, got {value!r}",
                               path=where)
        check_name(value, f"override: {where}")
    if parts[0] not in SET_UP_PARTS:
        return
    preview = copy.deepcopy(state)
    preview.settings = ruleset.stored_settings(preview.settings)  # as stored, read now
    apply_override(preview, path, value)
    try:
        setup = Setup.model_validate(setup_of(preview, ruleset.name).model_dump())
    except ValidationError as exc:
        key, msg = first_error(exc)
        raise InvalidInput(f"override: {where}: {key}: {msg}", path=where) from None
    for p in setup.participants:
        check_stat_ranges(ruleset.stat_ranges, p.id, p.stats)
    read_setup(ruleset.title, lambda: ruleset.validate_setup(setup))


def _new_entry_of_a_stat(state: ConflictState, parts: list[str]) -> bool:
    """Whether ``parts`` names an entry a character's stat record lacks yet
    (``participants.ada.stats.skills.stealth``: a skill forgotten at set-up): the GM adds
    it, checked as a scenario file holding it would be. A record's own new stats
    (``stats.zone``) are not added: some are read once, at set-up."""
    if len(parts) != 5 or parts[0] != "participants" or parts[2] != "stats":
        return False
    p = state.participants.get(parts[1])
    record = p.stats.get(parts[3]) if p is not None else None
    return isinstance(record, dict) and parts[4] not in record


def _refuse_in_or_out(state: ConflictState, pid: str, key: str, value: Any,
                      where: str) -> None:
    """Who is in the conflict is changed by commands, never by hand: taking a character out
    clears its turns, its place and its engagements, which a hand-set value would leave
    behind (and bringing one back by hand would leave it without a turn). Only why a
    character is out may be reworded."""
    p = state.participants[pid]
    if key == "out" and p.out is not None and isinstance(value, str) and value.strip():
        return  # an empty reason would read as "not out": back in by hand
    if key == "out" and p.out is not None:
        raise IllegalCommand(f"override: {where}: {p.name} was taken out by a command of the "
                             "log; undo it to bring them back (set by hand, they would come "
                             "back without a turn or a place)", path=where, participant=pid)
    raise InvalidInput(f"override: {where} is changed by its commands, not set by hand "
                       f"(out {pid} reason=TEXT takes a character out; leave {pid} takes "
                       "one away)", path=where)


def _resolve(ruleset: Ruleset, state: ConflictState, path: list[str]) -> Any:
    """The value an override replaces; a path that names none is refused naming the live
    values the ruleset lets the GM correct too (``ada.hp`` meant ``ada.hp.current``)."""
    try:
        return resolve_path(state, path)
    except InvalidInput as error:
        if not ruleset.override_examples:
            raise
        raise InvalidInput(f"{error.message}; the live values are corrected by paths such as "
                           f"{', '.join(ruleset.override_examples)}", **error.values) from None


#: A participant's slots the engine keeps (:attr:`Participant.entered`, ``written``).
_ENGINE_KEPT = frozenset({"entered", "written"})


def _refuse_bookkeeping(ruleset: Ruleset, path: list[str]) -> None:
    """Refuse a hand-set slot of the ruleset's own state where the ruleset names the live
    values the GM may correct (a phase or a range set by hand broke every later view)."""
    if path[0] == "ext" and ruleset.override_examples:
        raise InvalidInput(
            f"override: {'.'.join(path)} is the ruleset's own bookkeeping, kept by its "
            "commands; correct a live value by its path in `fracas show --json`, such as "
            f"{', '.join(ruleset.override_examples)}", path=".".join(path))


def _refuse_setup_only(ruleset: Ruleset, state: ConflictState, path: list[str]) -> None:
    """Refuse an override of a set-up stat or setting whose live value is kept elsewhere: it
    would change nothing the table sees; name the path or command that would."""
    parts = normalise(state, path)
    if parts[0] == "settings":
        for key, (instead, rule) in ruleset.start_settings.items():
            if parts[1:1 + key.count(".") + 1] == key.split("."):
                raise InvalidInput(
                    f"override: {'.'.join(path)} is read once, when the conflict is set up, "
                    f"and changes nothing in play; {instead}", rule=rule, path=".".join(path))
    if len(parts) >= 4 and parts[0] == "participants" and parts[2] == "stats":
        live = ruleset.live_stats.get(parts[3])
        if live is not None:
            pid = parts[1]
            raise InvalidInput(
                f"override: {pid}.stats.{parts[3]} is only the set-up value and changes "
                f"nothing in play; override {live.format(id=pid)} instead", path=".".join(path))


@ENGINE.decides("join")
def _join(d: Decision, cmd: Command) -> None:
    ruleset, state, ctx, a = d.ruleset, d.state, d.ctx, cmd.args
    if a["id"] in state.participants:
        raise IllegalCommand(f"{a['id']!r} is already a participant", participant=a["id"])
    stats = a.get("stats") or {}
    if not isinstance(stats, dict):
        raise InvalidInput('stats must be a JSON object, e.g. stats=\'{"dex": 8}\'')
    try:
        setup = ParticipantSetup(
            id=a["id"], name=default_name(a["id"]) if a.get("name") is None else a["name"],
            kind=a["kind"], side=a.get("side"), player=a.get("player"), stats=stats,
            gm_only=a.get("gm_only") or [],
        )
    except ValidationError as exc:
        key, msg = first_error(exc)
        raise InvalidInput(f"join: {key}: {msg}") from None
    # exactly the checks of a scenario file: the stats' ranges, then the ruleset's set-up
    check_stat_ranges(ruleset.stat_ranges, setup.id, setup.stats)
    settings = ruleset.stored_settings(state.settings)  # as stored, read now
    read_setup(ruleset.title, lambda: ruleset.validate_setup(
        setup_of(state, ruleset.name, setup, settings=settings)))
    data = setup.model_dump()
    events: list[Event] = [ParticipantJoined.from_payload(data)]
    joined = _participant_from(data)
    preview = dataclasses.replace(state, participants={**state.participants, joined.id: joined})
    events += ruleset.on_join(preview, joined.id, ctx)
    if a.get("hidden"):
        events += concealing(ruleset, state, events, joined.id, ctx)
    d.emit(*events)


def _participant_from(data: dict[str, Any]) -> Participant:
    # copies all the way down: the state must never share a list or dict with an event, or an
    # override of one item would rewrite the log
    return Participant(
        id=data["id"], name=data["name"], kind=data.get("kind", "npc"), side=data.get("side"),
        owner=data.get("player"), stats=copy_json(data.get("stats", {})),
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
    parts = normalise(state, path)
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
    parts = normalise(state, path)
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
        if part is not parts[-1]:  # (the slot itself need not hold a value yet)
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


#: The words a yes/no value is given by (as every yes/no parameter takes them).
YES_WORDS, NO_WORDS = ("yes", "true", "on"), ("no", "false", "off")


def check_override_value(path: str, current: Any, value: Any) -> Any:
    """The value an override sets, read by the kind of the one it replaces (yes/no, a
    number, a text, a list); a value of another kind is refused naming what the field
    takes."""
    if dataclasses.is_dataclass(current) or isinstance(current, dict):
        raise InvalidInput(f"override: {path} is a whole record; override one of its values")
    if current is None or value is None:
        return value
    if isinstance(current, bool):  # before the numbers: a bool is an int to Python
        return _yes_no(path, value)
    if isinstance(current, int | float):
        return _number(path, value, whole=not isinstance(current, float))
    if isinstance(current, str):
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise _takes(path, "a text", value)
        return str(value)
    if isinstance(current, list):
        if not isinstance(value, list):
            raise _takes(path, "a list (in JSON, e.g. '[\"a\", \"b\"]')", value)
        return value
    if type(current) is not type(value):
        raise _takes(path, f"a value of the kind of {spelled(current)}", value)
    return value


def _yes_no(path: str, value: Any) -> bool:
    """A yes/no value: true/false, or the words yes/no, on/off; never a number."""
    if isinstance(value, bool):
        return value
    word = value.strip().lower() if isinstance(value, str) else None
    if word in YES_WORDS or word in NO_WORDS:
        return word in YES_WORDS
    raise _takes(path, "yes or no (true or false)", value)


def _number(path: str, value: Any, *, whole: bool) -> int | float:
    """A number (a whole one where the value replaced is whole); never true/false."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _takes(path, "a whole number" if whole else "a number", value)
    if not whole:
        return float(value)
    if int(value) != value:
        raise _takes(path, "a whole number", value)
    return int(value)


def _takes(path: str, what: str, value: Any) -> InvalidInput:
    """The refusal of an override's value: the field, what it takes, what was given."""
    return InvalidInput(f"override: {path} takes {what}, not {spelled(value)}", path=path,
                        value=value)


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def apply_override(state: ConflictState, path: list[str], value: Any) -> None:
    """Set the value at ``path`` (checked in decide)."""
    parts = normalise(state, path)
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

EvolveFn = Callable[[Ruleset, ConflictState, Any], None]
#: How each engine event changes the conflict it belongs to, by class (never raises).
EVOLVERS: Table[type[Event], EvolveFn] = Table("evolve")


def evolve_generic(ruleset: Ruleset, state: ConflictState, event: Event) -> None:
    """Apply an engine-level event to ``state`` (the conflict it belongs to). Never raises."""
    handler = EVOLVERS.get(type(event))
    if handler is not None:
        handler(ruleset, state, event)


@EVOLVERS.register(ConflictCreated)
def _created(ruleset: Ruleset, state: ConflictState, e: ConflictCreated) -> None:
    state.ruleset = e.ruleset
    state.title = e.title
    state.scene = e.scene
    state.settings = copy_json(e.settings)
    state.round_limit = e.round_limit
    state.sides = list(e.sides)
    state.participants = {p["id"]: _participant_from(p) for p in e.participants}
    state.ext = ruleset.init_ext(state, e.data)


@EVOLVERS.register(ConflictStarted)
def _started(ruleset: Ruleset, state: ConflictState, e: ConflictStarted) -> None:
    state.status = Status.RUNNING.value


@EVOLVERS.register(ConflictEnded)
def _ended(ruleset: Ruleset, state: ConflictState, e: ConflictEnded) -> None:
    state.status = Status.ENDED.value
    state.end_reason = e.reason
    state.outcome = e.outcome


@EVOLVERS.register(RoundStarted)
def _round_started(ruleset: Ruleset, state: ConflictState, e: RoundStarted) -> None:
    state.round = int(e.round)


@EVOLVERS.register(RoundEnded, TurnStarted, TurnEnded)
def _boundary(ruleset: Ruleset, state: ConflictState, e: Event) -> None:
    fx.tick(state.effects, e)


@EVOLVERS.register(ParticipantJoined)
def _joined(ruleset: Ruleset, state: ConflictState, e: ParticipantJoined) -> None:
    p = _participant_from(e.data)
    state.participants[p.id] = p
    p.entered = len(state.participants)
    if p.side is not None and p.side not in state.sides:
        state.sides.append(p.side)


@EVOLVERS.register(ParticipantLeft)
def _left(ruleset: Ruleset, state: ConflictState, e: ParticipantLeft) -> None:
    if e.participant in state.participants:
        state.participants[e.participant].present = False


@EVOLVERS.register(ParticipantOut)
def _gone_out(ruleset: Ruleset, state: ConflictState, e: ParticipantOut) -> None:
    if e.participant in state.participants:
        state.participants[e.participant].out = e.reason or "out"


@EVOLVERS.register(EffectAdded)
def _effect_added(ruleset: Ruleset, state: ConflictState, e: EffectAdded) -> None:
    state.effects.append(e.effect())


@EVOLVERS.register(EffectExpired)
def _effect_expired(ruleset: Ruleset, state: ConflictState, e: EffectExpired) -> None:
    state.effects = [x for x in state.effects if x.id != e.id]


@EVOLVERS.register(Override)
def _overridden(ruleset: Ruleset, state: ConflictState, e: Override) -> None:
    target = _target(ruleset, state, list(e.path))
    if target is not None:
        target.apply(copy.deepcopy(e.value))
    else:
        apply_override(state, list(e.path), copy.deepcopy(e.value))
    parts = normalise(state, list(e.path))
    if len(parts) > 3 and parts[0] == "participants" and parts[2] == "stats" \
            and (p := state.participants.get(parts[1])) is not None:  # (a stat, never all)
        p.written[parts[3]] = len(state.participants)


@EVOLVERS.register(ZoomOpened)
def _zoom_opened(ruleset: Ruleset, state: ConflictState, e: ZoomOpened) -> None:
    state.zoom = ruleset.zoom_state(state, e.data)


@EVOLVERS.register(ZoomClosed)
def _zoom_closed(ruleset: Ruleset, state: ConflictState, e: ZoomClosed) -> None:
    if state.zoom is not None:
        ruleset.merge_zoom(state, state.zoom)
        state.zoom = None
