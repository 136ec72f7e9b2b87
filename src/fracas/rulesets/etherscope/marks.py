"""Etherscope's own secret marks, and the redaction that applies them.

The engine's marks (:mod:`fracas.engine.secrets`) name a fixed stat or setting. Etherscope's
secrets depend on the conflict: the stat a pool comes from is named by the roll's skill, and
the conflict's condenser (the base initiative, the damage left) is physical, ether or society
by its nature and reality, and its value is the harm taken (hidden too where the side's harm
view is not exact). These marks say so on the fields of the typed events;
:func:`mask` puts None in every field the viewer may not know — and in every field
:class:`~fracas.engine.secrets.Derived` from one — without reading any label.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fracas.engine.events import Event, TypedEvent, event_fields
from fracas.engine.harm_view import harm_hidden
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.secrets import Derived, setting_is_secret, stat_is_secret


@dataclass(frozen=True, slots=True)
class Condenser:
    """The value derives from participant ``who``'s value of the conflict's condenser."""

    who: str


@dataclass(frozen=True, slots=True)
class PoolOf:
    """A pool size: it shows ``who``'s rating for the skill in field ``skill`` (a rating in
    ``skills``, a stat of that name, or the ``pool`` stat)."""

    who: str
    skill: str


@dataclass(frozen=True, slots=True)
class RollOf:
    """A nested pool roll (``{pool, skill, roll, text, successes}``) of participant ``who``."""

    who: str


@dataclass(frozen=True, slots=True)
class RollsOf:
    """Pool rolls of several participants: a list of nested rolls naming theirs in key
    ``key``, or (no key) a dict of awareness rolls by participant id."""

    key: str | None = None


@dataclass(frozen=True, slots=True)
class Bases:
    """Base initiatives by participant (each its condenser now): those the viewer may not
    know are left out."""


@dataclass(frozen=True, slots=True)
class DefaultScore:
    """A turn's score: when it is ``who``'s default declaration (the base initiative), as
    secret as that participant's condenser."""

    who: str


@dataclass(frozen=True, slots=True)
class DefaultSlots:
    """Countdown slots ``[participant, score]``: a default declaration's score is the base
    initiative, so it is as secret as that participant's condenser."""


#: The keys of a nested roll that give its pool away.
_POOL_KEYS = ("pool", "roll", "text")


class _Viewer:
    """What one viewer may not know in one state."""

    def __init__(self, state: ConflictState, viewer: Viewer) -> None:
        from fracas.rulesets.etherscope.settings import condenser_of

        self.state = state
        self.viewer = viewer
        self.condenser = condenser_of(state.settings)
        self.rolls_secret = any(setting_is_secret(state, viewer, s)
                                for s in ("die_size", "threshold"))

    def stat(self, pid: Any, stat: str) -> bool:
        return isinstance(pid, str) and pid in self.state.participants and stat_is_secret(
            self.state, self.viewer, pid, stat)

    def condenser_secret(self, pid: Any) -> bool:
        """The condenser's rating is GM-only, or its value (the harm taken) is hidden by
        the side's harm view."""
        return self.stat(pid, self.condenser) or harm_hidden(self.state, self.viewer, pid)

    def pool_secret(self, pid: Any, skill: Any) -> bool:
        return self.rolls_secret or any(
            self.stat(pid, s) for s in ("skills", "pool", str(skill or "")) if s)

    def default_slot(self, pid: str) -> bool:
        """Whether ``pid``'s slots this round are its default declaration."""
        from fracas.rulesets.etherscope import state as ph

        ext = self.state.ext
        if ext is None:
            return False
        return pid in ext.defaulted or (ext.phase == ph.DECLARE
                                        and pid not in ext.countdown.declarations)

    def slot_secret(self, pid: str) -> bool:
        return self.default_slot(pid) and self.condenser_secret(pid)

    def without_pool(self, roll: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in roll.items() if k not in _POOL_KEYS}


def mask(event: Event, state: ConflictState, viewer: Viewer) -> Event:
    """``event`` with None in each field marked with an Etherscope mark the viewer may not know
    (nested rolls lose their pool and dice), and in the fields derived from them."""
    if viewer.is_gm or not isinstance(event, TypedEvent) or state.ext is None:
        return event
    judge = _Viewer(state, viewer)
    fields = event_fields(type(event))

    def value(name: str) -> Any:
        return event.actor if name == "actor" else getattr(event, name, None)

    changes: dict[str, Any] = {}
    for name, _, marks in fields:
        v = value(name)
        if v is None:
            continue
        for m in marks:
            if isinstance(m, Condenser):
                secret_value = judge.condenser_secret(value(m.who))
            elif isinstance(m, PoolOf):
                secret_value = judge.pool_secret(value(m.who), value(m.skill))
            else:
                secret_value = False
            if secret_value:
                changes[name] = None
            elif isinstance(m, RollOf) and judge.pool_secret(value(m.who), v.get("skill")):
                changes[name] = judge.without_pool(v)
            elif isinstance(m, RollsOf):
                changes[name] = _rolls(judge, m, v)
            elif isinstance(m, DefaultScore) and judge.slot_secret(value(m.who)):
                changes[name] = None
            elif isinstance(m, Bases):
                changes[name] = {pid: v for pid, v in v.items()
                                 if not judge.condenser_secret(pid)}
            elif isinstance(m, DefaultSlots):
                changes[name] = tuple((pid, None if judge.slot_secret(pid) else score)
                                      for pid, score in v)
    secret = {n for n, v in changes.items() if v is None}
    grew = True
    while grew:  # a field derived from a masked one is masked too
        grew = False
        for name, _, marks in fields:
            if name in secret or value(name) is None:
                continue
            if any(isinstance(m, Derived) and secret & set(m.sources) for m in marks):
                changes[name] = None
                secret.add(name)
                grew = True
    changes = {k: v for k, v in changes.items() if v != value(k)}
    return dataclasses.replace(event, **changes) if changes else event


def _rolls(judge: _Viewer, mark: RollsOf, value: Any) -> Any:
    aware = judge.state.settings.get("awareness_skill")
    if mark.key is None:  # awareness roll-offs by participant: the secret ones are left out
        used = judge.state.ext.awareness_skills if judge.state.ext is not None else {}
        return {pid: r for pid, r in value.items()  # the pool of its awareness roll, or theirs
                if not judge.pool_secret(pid, aware) and not judge.pool_secret(pid, used.get(pid))}
    key = mark.key
    secret: Callable[[dict[str, Any]], bool] = lambda r: judge.pool_secret(  # noqa: E731
        r.get(key), r.get("skill"))
    return tuple(judge.without_pool(r) if secret(r) else r for r in value)


def condenser_secret(state: ConflictState, viewer: Viewer, pid: str) -> bool:
    """Whether ``viewer`` may not know ``pid``'s value of the conflict's condenser (its base
    initiative): a GM-only rating, or harm their side's harm view hides."""
    return not viewer.is_gm and _Viewer(state, viewer).condenser_secret(pid)


def default_score_secret(state: ConflictState, viewer: Viewer, pid: str) -> bool:
    """Whether ``pid``'s acting scores this round are a default declaration — its base
    initiative — of a condenser ``viewer`` may not know."""
    return not viewer.is_gm and state.ext is not None and _Viewer(state, viewer).slot_secret(pid)


def pool_secret(state: ConflictState, viewer: Viewer, pid: str, skill: str | None) -> bool:
    """Whether ``viewer`` may not know the size of ``pid``'s pool for ``skill`` (its rating
    is GM-only — even to the player of that very character — or the dice are)."""
    return not viewer.is_gm and _Viewer(state, viewer).pool_secret(pid, skill)


def rolls_secret(state: ConflictState, viewer: Viewer) -> bool:
    """Whether ``viewer`` may not know the dice of a pool (a GM-only die size or threshold)."""
    return not viewer.is_gm and _Viewer(state, viewer).rolls_secret
