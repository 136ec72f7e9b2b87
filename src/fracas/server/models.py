"""The request bodies of the API (pydantic models: they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableIn(_Body):
    """A new table."""

    title: str = Field(min_length=1, max_length=200, description="the table's name")


class LinkIn(_Body):
    """A new link: for one player (their characters' `player` name) or the public."""

    role: Literal["player", "public"]
    player: str | None = Field(default=None, max_length=40)
    label: str | None = Field(default=None, max_length=200)


class ConflictIn(_Body):
    """A new conflict: a bundled scenario's name, or the text of a scenario file."""

    scenario: str | None = Field(default=None, max_length=100)
    toml: str | None = Field(default=None, max_length=1_000_000)
    seed: str | None = Field(default=None, min_length=1, max_length=200,
                             description="fix the secret seed on purpose (default: random)")


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

    steps: int = Field(default=1, ge=1, le=1000)
    key: str | None = Field(default=None, min_length=1, max_length=200)
    cursor: str | None = Field(default=None, max_length=200)


class OddsIn(_Body):
    """A command whose roll's odds are asked."""

    command: str | dict[str, Any]
