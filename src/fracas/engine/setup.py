"""The set-up of a conflict: what a scenario file or a GM gives before play starts.

Every limit of :mod:`fracas.engine.limits` is checked here, so a scenario file, a ``join``
and an import refuse the same values with the same sentence.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from fracas.engine import limits
from fracas.engine.suggest import did_you_mean
from fracas.errors import FracasError, InvalidInput

ID_PATTERN = r"^[a-z0-9][a-z0-9_\-]*$"
#: Ids a participant may not take: the viewer roles.
RESERVED_IDS = frozenset({"gm", "public"})


def default_name(pid: str) -> str:
    """The name of a participant given none: its id with a capital (``thug-2`` is Thug-2)."""
    return pid.title()


def _checked(check: Any, *args: Any) -> Any:
    """Run a :mod:`limits` check inside a pydantic validator (which wants a ValueError)."""
    try:
        return check(*args)
    except InvalidInput as exc:
        raise ValueError(exc.message) from None


class ParticipantSetup(BaseModel):
    """One participant as the scenario describes it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN, max_length=40)
    name: str
    kind: Literal["pc", "npc", "group"] = "npc"
    side: str | None = Field(default=None, max_length=40)
    player: str | None = Field(default=None, max_length=40)
    stats: dict[str, Any] = Field(default_factory=dict)
    gm_only: list[str] = Field(default_factory=list)
    #: Concealed from the players from the start: left out of the set-up record every
    #: player reads, it joins concealed at once (``join … hidden=yes``). Never dumped: the
    #: record holds the set-up without it.
    hidden: bool = Field(default=False, exclude=True, strict=True)

    @model_validator(mode="before")
    @classmethod
    def _name_defaults_to_the_id(cls, data: Any) -> Any:
        """A participant given no name is called by its id with a capital (``thug-2`` is
        Thug-2), in a scenario file as at ``join``."""
        if isinstance(data, dict) and data.get("name") is None \
                and isinstance(data.get("id"), str):
            return {**data, "name": default_name(data["id"])}
        return data

    @field_validator("id")
    @classmethod
    def _id_is_not_a_role(cls, value: str) -> str:
        if value in RESERVED_IDS:
            raise ValueError(f"{value!r} is reserved (a viewer role), not a participant id")
        return value

    @field_validator("name")
    @classmethod
    def _name_is_printable(cls, value: str) -> str:
        return str(_checked(limits.check_name, value, "the name"))

    @field_validator("side", "player")
    @classmethod
    def _names_are_printable(cls, value: str | None) -> str | None:
        if value is not None:
            _checked(limits.check_name, value, "a side or player name")
        return value

    @field_validator("player")
    @classmethod
    def _player_is_not_a_role(cls, value: str | None) -> str | None:
        problem = None if value is None else player_name_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @field_validator("stats")
    @classmethod
    def _stats_are_finite(cls, value: dict[str, Any]) -> dict[str, Any]:
        finite(value, "stats")
        _checked(limits.check_value, value, "stats")
        return value

    @model_validator(mode="after")
    def _gm_only_are_stats(self) -> ParticipantSetup:
        unknown = [k for k in self.gm_only if k not in self.stats]
        if unknown:
            raise ValueError(f"gm_only names stats {self.id} does not have: {unknown}")
        return self


def player_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's (None: it can): a viewer role (the GM's records are
    authored "gm"), or not the form a player's link takes."""
    if name in RESERVED_IDS:
        return f"{name!r} is a viewer role, not a player's name"
    if not limits.PLAYER_NAME.fullmatch(name):  # "$" alone lets a final new line by
        return (f"{name!r} is not a player's name: a player's name is lower-case letters, "
                "digits, '_' and '-', beginning with a letter (as their link has it)")
    return None


def first_error(exc: ValidationError) -> tuple[str, str]:
    """The key path and the sentence of a validation error's first complaint (an id that
    does not match its pattern said in words, not as the pattern)."""
    err = exc.errors()[0]
    loc = [str(x) for x in err["loc"]]
    key = ".".join(loc) or "(top)"
    if err["type"] == "string_pattern_mismatch" and (err.get("ctx") or {}).get(
            "pattern") == ID_PATTERN:
        return key, (f"{err['input']!r} is not an id: an id is lower-case letters, digits, "
                     "'_' and '-', beginning with a letter or digit (ada, thug-2)")
    of_one = exc.title == "ParticipantSetup" or (len(loc) > 1 and loc[0] == "participants")
    if err["type"] == "extra_forbidden":  # "Extra inputs are not permitted"
        known = list((ParticipantSetup if of_one else Setup).model_fields)
        return key, (f"unknown key{did_you_mean(loc[-1], known)} (a "
                     f"{'participant' if of_one else 'set-up'} has {', '.join(known)})")
    if err["type"] == "missing":  # "Field required"
        return key, _MISSING.get(loc[-1], f"missing: write {loc[-1]} = …")
    if err["type"] in ("model_type", "dict_type") and of_one:
        return key, ("a participant is a table of its own: write [[participants]] with id = "
                     "\"…\" and the rest below it, once for each participant")
    if err["type"] == "list_type" and loc == ["participants"]:
        return key, ("participants is a list: write [[participants]] (double brackets) above "
                     "each participant, [participants] being one table")
    return key, str(err["msg"]).removeprefix("Value error, ")


#: What a missing key's refusal says to write.
_MISSING = {
    "ruleset": 'missing: a scenario names the rules it plays by, ruleset = "…"',
    "id": 'missing: every participant has an id = "…" (lower-case letters, digits, \'_\' '
          "and '-'), which commands name it by",
}


def setup_of(state: Any, ruleset: str, extra: ParticipantSetup | None = None, *,
             settings: dict[str, Any] | None = None) -> Setup:
    """The set-up a conflict state stands for now (its settings — or ``settings`` — sides and
    participants, plus ``extra``): what a ``join`` is validated against, exactly as a
    scenario file would be."""
    people = [ParticipantSetup.model_construct(
        id=p.id, name=p.name, kind=p.kind, side=p.side, player=p.owner, stats=p.stats,
        gm_only=p.gm_only) for p in state.participants.values()]
    if extra is not None:
        people.append(extra)
    if len(people) > limits.MAX_PARTICIPANTS:
        raise InvalidInput(f"{len(people)} participants; a conflict holds at most "
                           f"{limits.MAX_PARTICIPANTS} (the limit on participants)")
    return Setup.model_construct(ruleset=ruleset, title=state.title, scene=state.scene,
                                 round_limit=state.round_limit,
                                 settings=state.settings if settings is None else settings,
                                 sides=list(state.sides), participants=people)


def finite(value: Any, where: str) -> None:
    """Refuse a number inside ``value`` that is not finite (NaN, inf)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where} holds {value}, which is not a number a table can use")
    if isinstance(value, dict):
        for k, v in value.items():
            finite(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            finite(v, f"{where}.{i}")


class Setup(BaseModel):
    """A whole conflict's set-up: ruleset, settings, sides and participants."""

    model_config = ConfigDict(extra="forbid")

    ruleset: str
    title: str = Field(default="", max_length=200)
    scene: str = Field(default="", max_length=10_000)
    round_limit: int | None = Field(default=None, ge=1, le=10_000, strict=True)  # not true
    settings: dict[str, Any] = Field(default_factory=dict)
    sides: list[str] = Field(default_factory=list)
    participants: list[ParticipantSetup] = Field(default_factory=list)

    @field_validator("settings")
    @classmethod
    def _settings_are_finite(cls, value: dict[str, Any]) -> dict[str, Any]:
        finite(value, "settings")
        _checked(limits.check_value, value, "settings")
        return value

    @field_validator("title", "scene")
    @classmethod
    def _text_is_printable(cls, value: str) -> str:
        return str(_checked(limits.check_text, value, "the title or scene"))

    @field_validator("sides")
    @classmethod
    def _sides_are_names(cls, value: list[str]) -> list[str]:
        for side in value:
            _checked(limits.check_name, side, "a side")
        if len(set(value)) < len(value):
            raise ValueError(f"a side is named twice: {', '.join(value)}")
        return value

    @field_validator("participants")
    @classmethod
    def _unique_ids(cls, value: list[ParticipantSetup]) -> list[ParticipantSetup]:
        if len(value) > limits.MAX_PARTICIPANTS:
            raise ValueError(f"{len(value)} participants; a conflict holds at most "
                             f"{limits.MAX_PARTICIPANTS} (the limit on participants)")
        seen: set[str] = set()
        for p in value:
            if p.id in seen:
                raise ValueError(f"participant id {p.id!r} is used twice")
            seen.add(p.id)
        return value

    @model_validator(mode="after")
    def _sides_known(self) -> Setup:
        for p in self.participants:
            if p.side is not None and p.side not in self.sides:
                self.sides.append(p.side)
        return self


_T = TypeVar("_T")

#: What a value of the wrong shape raises where a ruleset reads it (a list where a table
#: goes, text where a number goes).
SHAPE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError)


def words_in(value: Any) -> set[str]:
    """Every text in a JSON value, its keys too: where a set-up's settings name someone."""
    if isinstance(value, dict):
        return {str(k) for k in value} | {w for v in value.values() for w in words_in(v)}
    if isinstance(value, list):
        return {w for v in value for w in words_in(v)}
    return {value} if isinstance(value, str) else set()


def hidden_joins(setup: Setup) -> list[dict[str, Any]]:
    """The ``join … hidden=yes`` (as commands' JSON forms) that bring in, concealed, each
    participant of ``setup`` hidden at the start, in its order: played right after the set-up
    record, which leaves them out."""
    return [{"verb": "join", "args": {
        **{k: v for k, v in p.model_dump(mode="json").items() if v not in (None, [])},
        "hidden": True}} for p in setup.participants if p.hidden]


def read_setup(title: str, read: Callable[[], _T]) -> _T:
    """``read()`` (a ruleset checking or reading a set-up), with a value of a shape it cannot
    read refused as bad input, never a crash: the net under the ruleset's own checks, which
    name the key and the rule."""
    try:
        return read()
    except FracasError:
        raise
    except SHAPE_ERRORS as exc:
        raise InvalidInput(f"the set-up holds a value of a shape the {title} rules cannot read "
                           f"({exc}); see the ruleset's guide for the form of each setting "
                           "and stat") from None
