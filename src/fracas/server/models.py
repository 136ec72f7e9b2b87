"""The request bodies of the API (pydantic models: they make the OpenAPI document)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fracas.engine import limits
from fracas.engine.limits import PLAYER_PATTERN
from fracas.errors import InvalidInput

#: Printable text: no control, bidirectional-override or lone surrogate characters, and not
#: only spaces (the same rule as fracas.app.tables applies).
_BAD = r"\x00-\x1f\x7f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
PRINTABLE = rf"^[^{_BAD}]*[^\s{_BAD}][^{_BAD}]*$"
#: A player's name as their characters' ``player`` field has it.
PLAYER = PLAYER_PATTERN


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", regex_engine="python-re")


def one_line(what: str) -> Callable[[str | None], str | None]:
    """A validator for one printable line (the whole rule behind PRINTABLE, the pattern the
    API's schema shows): no new line, control or text-direction character
    (limits.check_line), refused in our words."""
    def check(value: str | None) -> str | None:
        if value is not None:
            try:
                limits.check_line(value, what)
            except InvalidInput as exc:
                raise ValueError(exc.message) from None
        return value
    return check


class TableIn(_Body):
    """A new table."""

    title: str = Field(min_length=1, max_length=200, pattern=PRINTABLE,
                       description="the table's name")
    _title_is_printable = field_validator("title")(one_line("the title"))


class LinkIn(_Body):
    """A new link: for one player (their characters' `player` name), the public or the GM
    (another device of theirs)."""

    role: Literal["gm", "player", "public"]
    player: str | None = Field(default=None, pattern=PLAYER,
                               description="for role player: the name in their characters' "
                               "`player` field")
    label: str | None = Field(default=None, max_length=200, pattern=PRINTABLE)
    _label_is_printable = field_validator("label")(one_line("the label"))


#: What the ``shown`` of a new or imported conflict means.
SHOWN = ("false: prepare it behind the screen (only the GM sees it, and the players learn "
         "nothing of it, until PUT …/shown shows it); default true")


class ConflictIn(_Body):
    """A new conflict: a bundled scenario's name, or the text of a scenario file."""

    scenario: str | None = Field(default=None, max_length=100)
    toml: str | None = Field(default=None, max_length=1_000_000)
    filename: str | None = Field(default=None, max_length=255,
                                 description="the name of the file `toml` was read from, for "
                                 "its refusals to name (default: upload.toml)")
    seed: str | None = Field(default=None, min_length=1, max_length=200,
                             description="fix the secret seed on purpose (default: random)")
    fresh: bool = Field(default=False,
                        description="play only the GM commands at the head of the script (a "
                        "chase begun, a character concealed), not a bundled example's story")
    shown: bool = Field(default=True, strict=True, description=SHOWN)


class ConflictFormIn(_Body):
    """A new conflict from the GM screen's form: a scenario file's set-up as JSON."""

    setup: dict[str, Any] = Field(description="ruleset, title, scene, settings, sides, "
                                  "participants: as in a scenario file (docs/scenarios.md)")
    seed: str | None = Field(default=None, min_length=1, max_length=200)
    shown: bool = Field(default=True, strict=True, description=SHOWN)


class ShownIn(_Body):
    """Show a conflict to the players, or take it behind the GM's screen."""

    shown: bool = Field(strict=True, description="true: the players see it; false: behind "
                        "the screen, it does not exist for anyone but the GM")


class CommandIn(_Body):
    """One command, in text notation or the engine's JSON form."""

    command: str | dict[str, Any] = Field(description='e.g. "ada: attack bruno" or '
                                          '{"actor": "ada", "verb": "attack", "args": {…}}')
    key: str | None = Field(default=None, min_length=1, max_length=200,
                            description="idempotency key: a retry applies once")
    cursor: str | None = Field(default=None, max_length=200,
                               description="refuse (409) if what you see changed since")


class StepsIn(_Body):
    """How many commands undo or redo takes."""

    steps: int = Field(default=1, ge=1, le=1000, strict=True)  # 2, never "2", true or 2.0
    key: str | None = Field(default=None, min_length=1, max_length=200)
    cursor: str | None = Field(default=None, max_length=200)


class OddsIn(_Body):
    """A command whose roll's odds are asked."""

    command: str | dict[str, Any]


class ErrorOut(BaseModel):
    """Every refusal: the engine's typed error."""

    code: str = Field(description="stable code: invalid_input, illegal_command, "
                      "not_your_turn, stale_version, not_allowed, not_authenticated, "
                      "not_found, rate_limited, internal_error")
    message: str = Field(description="one sentence a GM understands")
    rule: str | None = Field(description="the numbered rule that refused it, if any")
    values: dict[str, Any] = Field(description="the offending values")


#: The error answers every route may give, for the OpenAPI document.
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text} for status, text in (
        (401, "no valid token (missing, unknown or revoked)"),
        (403, "not yours: the role or the player may not do this"),
        (404, "unknown, or not visible to this viewer"),
        (405, "method not allowed"),
        (409, "illegal in this state, not your turn, or stale"),
        (413, "the request body is over the limit"),
        (422, "invalid input"),
        (429, "too many requests from this token or address: retry after Retry-After "
              "seconds"),
        (500, "internal error: nothing changed"),
        (503, "the database is out of reach or failed: nothing changed"),
    )
}
