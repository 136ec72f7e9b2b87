"""Structured legal commands: what an actor may do now, as values a program can fill in.

``Conflict.legal(actor)`` answers "what can Ada do now" (DESIGN.md principle 5) with
:class:`LegalCommand` values: the verb, the actor, each parameter with its kind and the values
the rules allow now (or None: any value of the kind), which ones are already fixed, and the
rule behind the command. The browser table builds its controls from them, the simulator's
agents choose among them, and the CLI's completion shows their :meth:`LegalCommand.text`.

A ruleset may still describe a legal command by a text template (``ada: attack TARGET
weapon=sword|knife``, ``chase ID length=2..6``); :func:`from_template` reads one against the
command's :class:`~fracas.engine.commands.CommandSpec`: an UPPER-CASE word is a free value,
``a|b`` lists the allowed values, ``2..6`` is a range of whole numbers, anything else is fixed.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from fracas.engine.commands import GM, CommandSet, CommandSpec, Param
from fracas.engine.model import Participant, copy_json
from fracas.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Choice:
    """One parameter of a legal command."""

    name: str  # the parameter's name in its CommandSpec
    kind: str  # the parameter's kind (see fracas.engine.commands.KINDS)
    allowed: tuple[Any, ...] | None = None  # the values allowed now; None: any of the kind
    required: bool = True
    fixed: Any = None  # the value, when it is already decided
    positional: bool = True
    placeholder: str = ""  # the word shown for a free value (TARGET, DICE, …)
    listed: bool = True  # shown in the text template (an optional extra need not be)
    #: what an optional value left out stands for where the spec's default does not say it
    #: (the decision reads it so; the command is not filled in with it); of a required free
    #: one, the value offered first (one of ``suggested``): None, nothing said
    default: Any = None
    #: values the rules name for a free one (the ways a conflict ends): any other value of
    #: its kind is taken too, unlike ``allowed``
    suggested: tuple[Any, ...] = ()

    @property
    def is_fixed(self) -> bool:
        """Whether the value is already decided."""
        return self.fixed is not None

    def to_data(self) -> dict[str, Any]:
        """The JSON form (for the server and the browser table): a copy, as one legal command
        is shared by every conflict that is offered it (:class:`fracas.rulesets.legal.Made`)."""
        return {"name": self.name, "kind": self.kind,
                "allowed": None if self.allowed is None else list(self.allowed),
                "required": self.required, "fixed": copy_json(self.fixed),
                "suggested": copy_json(list(self.suggested))}


@dataclass(frozen=True, slots=True)
class LegalCommand:
    """A command the rules allow now, with the values still to choose."""

    verb: str
    actor: str | None
    params: tuple[Choice, ...] = ()
    rule: str | None = None
    #: what this offer does in a few words, where its verb and fixed values would not say it
    #: ("check outside the turn" for ``check turn=no``; "get past the guard into {to}", where
    #: ``{to}`` stands for the value of ``to``); "": they say it
    label: str = ""
    #: what this offer does, where its command's own summary would not say it (the end of a
    #: zoomed-in conflict: play returns to the one around it); "": the command's
    summary: str = ""

    def text(self) -> str:
        """The template in the text notation (``ada: attack TARGET weapon=sword|knife``)."""
        parts = [f"{self.actor}:"] if self.actor else []
        parts.append(self.verb)
        for c in self.params:
            if not c.listed:
                continue
            if c.is_fixed:
                value = _render(c, c.fixed)
            elif c.placeholder:
                value = c.placeholder
            elif c.allowed is not None and _is_range(c.allowed):
                value = f"{c.allowed[0]}..{c.allowed[-1]}"
            elif c.allowed is not None:
                value = "|".join(_render(c, v) for v in c.allowed)
            else:
                value = c.name.upper()
            parts.append(value if c.positional else f"{c.name}={value}")
        return " ".join(parts)

    def choice(self, name: str) -> Choice:
        """The parameter called ``name``."""
        for c in self.params:
            if c.name == name:
                return c
        raise KeyError(name)

    def command(self, **values: Any) -> dict[str, Any]:
        """The engine's JSON form of this command with ``values`` filled in (fixed values
        included; a value outside the allowed ones is refused)."""
        args: dict[str, Any] = {}
        for c in self.params:
            if c.name in values:
                value = values[c.name]
                if c.allowed is not None and not _allowed(value, c.allowed):
                    raise InvalidInput(f"{self.verb}: {c.name} must be one of "
                                       f"{', '.join(map(str, c.allowed))}", param=c.name)
                args[c.name] = value
            elif c.is_fixed:
                args[c.name] = c.fixed
        unknown = set(values) - {c.name for c in self.params}
        if unknown:
            raise InvalidInput(f"{self.verb} has no parameter {', '.join(sorted(unknown))}")
        return {"actor": self.actor, "verb": self.verb, "args": args}

    def to_data(self) -> dict[str, Any]:
        """The JSON form (for the server and the browser table)."""
        return {"verb": self.verb, "actor": self.actor, "rule": self.rule, "text": self.text(),
                "label": self.label, "params": [c.to_data() for c in self.params]}

    def without(self, hidden: Collection[str]) -> LegalCommand | None:
        """This command as a viewer may be offered it, ``hidden`` being the ids and names
        (lower case, :func:`hidden_words`) of the participants they may not know of: the
        allowed values naming one taken out; None when its actor or a fixed value names one,
        or a required parameter has no allowed value left."""
        if not hidden:
            return self
        if self.actor is not None and self.actor.lower() in hidden:
            return None
        params: list[Choice] = []
        for c in self.params:
            if c.is_fixed and _names_one(c.fixed, hidden):
                return None
            if c.allowed is not None:
                allowed = tuple(v for v in c.allowed if not _names_one(v, hidden))
                if not allowed and c.required:
                    return None
                c = dataclasses.replace(c, allowed=allowed)
            params.append(_unsaid(c, hidden))
        return dataclasses.replace(self, params=tuple(params))

    def unnamed(self, secret: Collection[str], optional: Collection[str]) -> LegalCommand:
        """This command without naming any of the ``secret`` values (lower case: a GM-only
        weapon of its own actor, say): an allowed value naming one is left out (with none
        left, any value of the kind), a fixed value naming one is left to the user, unlisted
        and, where the command's spec makes it ``optional`` (names), optional."""
        params = []
        for c in self.params:
            if c.is_fixed and _names_one(c.fixed, secret):
                c = Choice(c.name, c.kind, required=c.name not in optional,
                           positional=c.positional, listed=False)
            elif c.allowed is not None and any(_names_one(v, secret) for v in c.allowed):
                allowed = tuple(v for v in c.allowed if not _names_one(v, secret))
                c = dataclasses.replace(c, allowed=allowed or None)
            params.append(_unsaid(c, secret))
        return dataclasses.replace(self, params=tuple(params))


def _unsaid(c: Choice, words: Collection[str]) -> Choice:
    """``c`` without a default or suggested value naming one of ``words``."""
    if _names_one(c.default, words):
        c = dataclasses.replace(c, default=None)
    if any(_names_one(v, words) for v in c.suggested):
        c = dataclasses.replace(c, suggested=tuple(
            v for v in c.suggested if not _names_one(v, words)))
    return c


def unnamed(legal: Iterable[LegalCommand], secret: Collection[str],
            specs: Iterable[CommandSpec]) -> list[LegalCommand]:
    """``legal`` naming none of the ``secret`` values (:meth:`LegalCommand.unnamed`; a value
    left to the user is optional where its verb's spec among ``specs`` says so); the variants
    that differed only in such a value are one command."""
    optional = {s.verb: {p.name for p in s.params if not p.required} for s in specs}
    out: list[LegalCommand] = []
    for lc in legal:
        kept = lc.unnamed(secret, optional.get(lc.verb, ()))
        if kept not in out:
            out.append(kept)
    return out


def without(legal: Iterable[LegalCommand], hidden: Collection[str]) -> list[LegalCommand]:
    """``legal`` as a viewer may be offered it (:meth:`LegalCommand.without` of each; those
    with nothing left to offer dropped)."""
    if not hidden:
        return list(legal)
    return [k for lc in legal if (k := lc.without(hidden)) is not None]


def hidden_words(hidden: Iterable[Participant], shown: Iterable[str] = ()) -> frozenset[str]:
    """The ids and names, lower case, of participants hidden from a viewer (for
    :meth:`LegalCommand.without`), less the ids of those ``shown`` to them: an id names one
    participant, so a shown one stays on offer when a hidden one bears its id as a name."""
    return frozenset(w.lower() for p in hidden for w in (p.id, p.name)) - {
        pid.lower() for pid in shown}


def _allowed(value: Any, allowed: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of ``allowed``, or (a list of ids picked from single ones)
    made only of them."""
    if value in allowed:
        return True
    return (isinstance(value, list | tuple) and bool(value)
            and not any(isinstance(a, list | tuple) for a in allowed)
            and all(v in allowed for v in value))


def _names_one(value: Any, hidden: Collection[str]) -> bool:
    items = value if isinstance(value, list | tuple) else [value]
    return any(isinstance(v, str) and v.lower() in hidden for v in items)


def _render(choice: Choice, value: Any) -> str:
    return Param(choice.name, choice.kind).render(value) if choice.kind != "text" else str(value)


def _is_range(values: tuple[Any, ...]) -> bool:
    return (len(values) > 2 and all(type(v) is int for v in values)
            and list(values) == list(range(values[0], values[0] + len(values))))


@functools.lru_cache(maxsize=4096)
def from_template(commands: CommandSet, text: str, rule: str | None = None) -> LegalCommand:
    """Read a text template (see the module's docstring) into a :class:`LegalCommand` (read
    once: a legal command is an immutable value)."""
    actor: str | None = None
    head, sep, rest = text.partition(": ")
    if sep and " " not in head:
        actor = None if head == GM else head
    else:
        rest = text
    verb, _, tail = rest.partition(" ")
    spec = commands.spec(verb)
    given: dict[str, str] = {}
    by_key: set[str] = set()
    positional = [p for p in spec.params if p.positional]
    words = tail.split()
    i = 0
    while i < len(words):
        word = words[i]
        key, eq, value = word.partition("=")
        if eq and any(p.name == key for p in spec.params):
            given[key] = value
            by_key.add(key)
            positional = [p for p in positional if p.name != key]
        elif positional:
            p = positional.pop(0)
            if p.kind == "text":  # free text takes the rest of the positional words
                run = [word]
                while i + 1 < len(words) and "=" not in words[i + 1]:
                    i += 1
                    run.append(words[i])
                word = " ".join(run)
            given[p.name] = word
        i += 1
    params = []
    for p in spec.params:
        raw = given.get(p.name)
        base: dict[str, Any] = {"name": p.name, "kind": p.kind,
                                "positional": p.positional and p.name not in by_key,
                                "required": p.required and raw is not None}
        choices = tuple(p.choices) if p.kind == "choice" else None
        if raw is None:  # a parameter the template leaves out: optional here
            params.append(Choice(allowed=choices, listed=False, **base))
        elif raw.isupper():
            params.append(Choice(allowed=choices, placeholder=raw, **base))
        elif ".." in raw and all(x.lstrip("-").isdigit() for x in raw.split("..", 1)):
            low, high = (int(x) for x in raw.split("..", 1))
            params.append(Choice(allowed=tuple(range(low, high + 1)), **base))
        elif "|" in raw:
            allowed = tuple(p.convert(v, verb) for v in raw.split("|"))
            params.append(Choice(allowed=allowed, **base))
        else:
            params.append(Choice(fixed=p.convert(raw, verb), **base))
    return LegalCommand(verb, actor, tuple(params), rule or spec.rule)


__all__ = ["Choice", "LegalCommand", "from_template"]
