"""Building a ruleset's structured legal commands from its command specs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fracas.engine.commands import CommandSpec
from fracas.engine.legal import Choice, LegalCommand


class LegalCommands:
    """Makes :class:`LegalCommand` values for the verbs of ``specs``."""

    def __init__(self, specs: Sequence[CommandSpec]) -> None:
        self.specs = {s.verb: s for s in specs}
        #: per verb, each parameter as an optional one the template leaves out
        self._unlisted = {s.verb: tuple(
            Choice(p.name, p.kind, tuple(p.choices) if p.kind == "choice" else None,
                   required=False, positional=p.positional, listed=False)
            for p in s.params) for s in specs}

    def __call__(self, verb: str, actor: str | None, *, rule: str | None = None,
                 free: dict[str, str] | None = None,
                 allowed: dict[str, tuple[Any, ...]] | None = None,
                 named: tuple[str, ...] = (), **fixed: Any) -> LegalCommand:
        """The legal command ``verb`` of ``actor`` (None: the GM): ``fixed`` values, ``free``
        ones shown by their placeholder, ``allowed`` values of a free or optional parameter;
        the other parameters are optional and not listed. ``named`` parameters are written
        ``name=value`` even where the notation allows them without the name."""
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
                                       placeholder=free[p.name], **base)
                else:
                    params[i] = Choice(allowed=allowed[p.name], required=False, listed=False,
                                       **base)
        return LegalCommand(verb, actor, tuple(params), rule or spec.rule)
