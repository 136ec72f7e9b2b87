"""The set-up of a conflict: what a scenario file or a GM gives before play starts."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_PATTERN = r"^[a-z0-9][a-z0-9_\-]*$"


class ParticipantSetup(BaseModel):
    """One participant as the scenario describes it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=ID_PATTERN, max_length=40)
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["pc", "npc", "group"] = "npc"
    side: str | None = Field(default=None, max_length=40)
    player: str | None = Field(default=None, max_length=40)
    stats: dict[str, Any] = Field(default_factory=dict)
    gm_only: list[str] = Field(default_factory=list)

    @field_validator("player")
    @classmethod
    def _player_is_not_a_role(cls, value: str | None) -> str | None:
        if value in ("gm", "public"):
            raise ValueError(f"{value!r} is a viewer role, not a player's name")
        return value

    @field_validator("stats")
    @classmethod
    def _stats_are_finite(cls, value: dict[str, Any]) -> dict[str, Any]:
        finite(value, "stats")
        return value

    @model_validator(mode="after")
    def _gm_only_are_stats(self) -> ParticipantSetup:
        unknown = [k for k in self.gm_only if k not in self.stats]
        if unknown:
            raise ValueError(f"gm_only names stats {self.id} does not have: {unknown}")
        return self


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
    round_limit: int | None = Field(default=None, ge=1, le=10_000)
    settings: dict[str, Any] = Field(default_factory=dict)
    sides: list[str] = Field(default_factory=list)
    participants: list[ParticipantSetup] = Field(default_factory=list)

    @field_validator("settings")
    @classmethod
    def _settings_are_finite(cls, value: dict[str, Any]) -> dict[str, Any]:
        finite(value, "settings")
        return value

    @field_validator("participants")
    @classmethod
    def _unique_ids(cls, value: list[ParticipantSetup]) -> list[ParticipantSetup]:
        seen: set[str] = set()
        for p in value:
            if p.id in seen or p.id == "gm":
                raise ValueError(f"participant id {p.id!r} is used twice or reserved")
            seen.add(p.id)
        return value

    @model_validator(mode="after")
    def _sides_known(self) -> Setup:
        for p in self.participants:
            if p.side is not None and p.side not in self.sides:
                self.sides.append(p.side)
        return self
