"""Building a ruleset's structured legal commands from its command specs.

A :class:`~fracas.engine.legal.LegalCommand` is an immutable value, and a ruleset asks for the
same few again and again (every character's ``done``, an attack on each foe in sight), so each
is made once and handed out again while it is asked for with the same values
(:class:`Made`): the legal commands of a turn cost dictionary look-ups, not new objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from fracas.engine.commands import CommandSpec
from fracas.engine.concealment import CONCEALMENT_COMMANDS
from fracas.engine.legal import Choice, LegalCommand

T = TypeVar("T")


def frozen_key(*parts: Any) -> Hashable:
    """A key for the values a legal command is made from: ``parts`` as they are when they
    hash (dictionaries as their items), else with every list, tuple and dictionary spelled
    out (kept apart, so two keys are equal only for equal values of the same shapes)."""
    key = tuple([tuple(p.items()) if type(p) is dict else p for p in parts])  # (a list: faster)
    try:
        hash(key)
    except TypeError:
        return (list, tuple(_spelled(p) for p in parts))
    return key


def _spelled(value: Any) -> Hashable:
    if isinstance(value, list):
        return (list, tuple(_spelled(v) for v in value))
    if isinstance(value, tuple):
        return (tuple, tuple(_spelled(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, _spelled(v)) for k, v in value.items()))
    plain: Hashable = value
    return plain


class Made(Generic[T]):
    """The legal commands (or lists of them) made so far, by a key of the values they were
    made from (at most ``limit``; then it starts afresh, so a long-running server does not
    grow without end)."""

    __slots__ = ("_made", "limit")

    def __init__(self, limit: int = 8192) -> None:
        self._made: dict[Hashable, T] = {}
        self.limit = limit

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value made for ``key``, made by ``build`` the first time."""
        found = self._made.get(key)
        if found is None:
            if len(self._made) >= self.limit:
                self._made.clear()
            found = self._made[key] = build()
        return found


class LegalCommands:
    """Makes :class:`LegalCommand` values for the verbs of ``specs``."""

    def __init__(self, specs: Sequence[CommandSpec]) -> None:
        self.specs = {s.verb: s for s in specs}
        #: per verb, each parameter as an optional one the template leaves out
        self._unlisted = {s.verb: tuple(
            Choice(p.name, p.kind, tuple(p.choices) if p.kind == "choice" else None,
                   required=False, positional=p.positional, listed=False)
            for p in s.params) for s in specs}
        self._made: Made[LegalCommand] = Made()

    def __call__(self, verb: str, actor: str | None, *, rule: str | None = None,
                 free: dict[str, str] | None = None,
                 allowed: dict[str, tuple[Any, ...]] | None = None,
                 named: tuple[str, ...] = (), label: str = "",
                 defaults: dict[str, Any] | None = None, **fixed: Any) -> LegalCommand:
        """The legal command ``verb`` of ``actor`` (None: the GM): ``fixed`` values, ``free``
        ones shown by their placeholder, ``allowed`` values of a free or optional parameter;
        the other parameters are optional and not listed. ``named`` parameters are written
        ``name=value`` even where the notation allows them without the name; ``label`` says
        what the offer does where its verb and fixed values would not; ``defaults`` what an
        optional value left out stands for where the spec's default does not say it."""
        key = (verb, actor, named) if not (fixed or free or allowed or rule or label
                                           or defaults) \
            else frozen_key(verb, actor, rule, free, allowed, named, label, defaults, fixed)
        return self._made.get(key, lambda: self._make(verb, actor, rule, free, allowed,
                                                      named, label, defaults, fixed))

    def _make(self, verb: str, actor: str | None, rule: str | None,
              free: dict[str, str] | None, allowed: dict[str, tuple[Any, ...]] | None,
              named: tuple[str, ...], label: str, defaults: dict[str, Any] | None,
              fixed: dict[str, Any]) -> LegalCommand:
        spec = self.specs[verb]
        params = list(self._unlisted[verb])
        if fixed or free or allowed:
            free, allowed = free or {}, allowed or {}
            for i, p in enumerate(spec.params):
                if p.name not in fixed and p.name not in free and p.name not in allowed:
                    continue
                base: dict[str, Any] = {"name": p.name, "kind": p.kind,
                                        "positional": p.positional and p.name not in named}
                choices = tuple(p.choices) if p.kind == "choice" else None
                if p.name in fixed:
                    params[i] = Choice(fixed=fixed[p.name], **base)
                elif p.name in free:
                    params[i] = Choice(allowed=allowed.get(p.name, choices),
                                       placeholder=free[p.name], required=p.required, **base)
                else:
                    params[i] = Choice(allowed=allowed[p.name], required=False, listed=False,
                                       **base)
        for i, p in enumerate(spec.params):
            if defaults and p.name in defaults and not params[i].is_fixed:
                params[i] = dataclasses.replace(params[i], default=defaults[p.name])
        return LegalCommand(verb, actor, tuple(params), rule or spec.rule, label)


#: The engine's ``conceal`` and ``reveal``, for the rulesets that offer them as they are.
_CONCEALMENT = LegalCommands(CONCEALMENT_COMMANDS)
_CONCEALMENT_OFFERS: Made[tuple[LegalCommand, ...]] = Made()


def concealment_offers(active: Sequence[str], hidden: Sequence[str]
                       ) -> tuple[LegalCommand, ...]:
    """The GM's ``conceal`` of one of ``active`` the players see and ``reveal`` of one of
    ``hidden`` (those concealed from them), each offered where there is someone to name."""
    key = (tuple(active), tuple(hidden))
    return _CONCEALMENT_OFFERS.get(key, lambda: _concealment(*key))


def _concealment(active: tuple[str, ...], hidden: tuple[str, ...]
                 ) -> tuple[LegalCommand, ...]:
    shown = tuple(pid for pid in active if pid not in hidden)
    return ((_CONCEALMENT("conceal", None, free={"who": "WHO"}, allowed={"who": shown}),)
            if shown else ()) + \
        ((_CONCEALMENT("reveal", None, free={"who": "WHO"}, allowed={"who": hidden}),)
         if hidden else ())
