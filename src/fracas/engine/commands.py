"""Commands and their text notation.

Every command has a text form that round-trips (DESIGN.md principle 9)::

    [ACTOR:] VERB [POSITIONAL ...] [NAME=VALUE ...]

``ada: declare 7,1`` · ``gm: end "goal achieved"`` · ``bruno: attack ada dice=5,6,2``.
The actor is a participant id (``gm`` or no prefix: the game master). Values with spaces are
quoted. The JSON form is ``{"actor": …, "verb": …, "args": {…}}``. A ruleset declares its
commands as :class:`CommandSpec` data; parsing, validation, the JSON form and the text form
are generic.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fracas.engine import limits
from fracas.engine.suggest import did_you_mean
from fracas.errors import InvalidInput, with_rule

GM = "gm"
_IDENT = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
_VERB = re.compile(r"^[a-z][a-z0-9\-]*$")
#: One word of the notation without backslashes: bare text and quoted runs, whitespace as
#: :mod:`shlex` reads it (space, tab, CR, LF); and a quoted run inside a word.
_WORD = re.compile(r"""(?:[^ \t\r\n'"]+|'[^']*'|"[^"]*")+""")
_SPACE = re.compile(r"[ \t\r\n]*")
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")
#: What a bare word of the notation may not hold: whitespace (as ``str.isspace`` reads it)
#: and the shell's special characters.
_SPECIAL = re.compile(r"[\s'\"\\#;&|<>()$`*?\[\]{}~!]")
#: What parts the numbers of a list: commas, spaces, or both (``5,6,2``, ``'5 6 2'``, ``5, 6``).
_LIST_GAP = re.compile(r"[,\s]+")

#: Parameter kinds and what their values look like in the text form.
KINDS = {
    "int": "a whole number",
    "ints": "whole numbers separated by commas (7,1)",
    "id": "a participant id",
    "ids": "participant ids separated by commas",
    "new-id": "a new id, of a participant or a group (letters, digits, - and _)",
    "keys": "stat names separated by commas (hp,mp)",
    "word": "a single word",
    "zone": "a zone id (a single word)",
    "choice": "one of the listed words",
    "text": "free text (quote it, or put it last)",
    "dice": "dice faces rolled at the table, separated by commas (5,6,2)",
    "bool": "yes or no",
    "value": "a number, true/false/null, a JSON value, or text",
}


def quote(text: str) -> str:
    """``text`` as one token of the notation, quoted only as much as needed and readably:
    ``'goal achieved'``, ``"Ada's car"``."""
    if text and not _SPECIAL.search(text):
        return text
    if "'" not in text:
        return f"'{text}'"
    if not any(c in text for c in '"\\$`'):
        return f'"{text}"'
    return shlex.quote(text)


def split_words(text: str) -> list[str]:
    """The words of ``text`` exactly as ``shlex.split(text, posix=True)`` reads them (raising
    its ValueError on an unclosed quote), several times faster for text without backslashes."""
    if "\\" in text:
        return shlex.split(text, comments=False, posix=True)
    words: list[str] = []
    pos = _SPACE.match(text).end()  # type: ignore[union-attr]  # (it matches "" too)
    while pos < len(text):
        m = _WORD.match(text, pos)
        if m is None:  # an unclosed quote: shlex says so
            return shlex.split(text, comments=False, posix=True)
        word = m.group()
        words.append(_QUOTED.sub(_unquoted, word) if "'" in word or '"' in word else word)
        pos = _SPACE.match(text, m.end()).end()  # type: ignore[union-attr]
    return words


def _unquoted(m: re.Match[str]) -> str:
    return m[1] if m[1] is not None else m[2]


class _NotFinite(ValueError):
    """A number in a JSON value that no table can use (NaN, Infinity, 1e400)."""


def _not_finite(text: str) -> float:
    raise _NotFinite(text)


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _NotFinite(text)
    return number


def _finite(value: Any) -> bool:
    """Whether a JSON-form value holds no NaN or infinity (which JSON cannot carry)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    return True


#: Control characters the split reads as spaces (U+0085, the file and record separators…):
#: refused before it, since after it nothing is left to refuse.
_SPLIT_CONTROLS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x1f\x85")
#: How a refusal names the JSON type it got where another was wanted.
_JSON_TYPES = {dict: "an object", list: "a list", str: "text"}


@dataclass(frozen=True, slots=True)
class Param:
    """One argument of a command."""

    name: str
    kind: str = "word"
    required: bool = True
    positional: bool = True
    choices: tuple[str, ...] = ()
    default: Any = None
    help: str = ""
    refers: bool = False  # a word that may name a participant (a target: one or an object)
    #: what an optional value left out stands for, in words, where no value of it says so
    #: (an Etherscope reveal's band: "the band kept while hidden"); "" when nothing is said
    unset: str = ""

    @property
    def names(self) -> bool:
        """Whether the value names participants (ids, or a word that may be one), so that a
        player naming one hidden from them is answered as if it did not exist."""
        return self.refers or self.kind in ("id", "ids")

    def convert(self, raw: str, verb: str) -> Any:
        """Turn the text of this argument into its value, or refuse it clearly."""
        def bad(what: str) -> InvalidInput:
            return InvalidInput(
                f"{verb}: {self.name} must be {what}, got {raw!r}", param=self.name, value=raw
            )

        kind = self.kind
        where = f"{verb}: {self.name}"
        if kind == "int":
            try:
                number = limits.as_int(raw, where)
            except ValueError:
                raise bad("a whole number") from None
            return limits.check_number(number, where)
        if kind in ("ints", "dice"):
            if raw.isascii() and raw.replace(",", "").isdigit():  # the common case: 5,6,2
                values = [int(p) for p in raw.split(",") if p]
            else:
                parts = [p for p in _LIST_GAP.split(raw) if p]  # 5, 6, 2 or '5 6 2' too
                try:
                    values = [limits.as_int(p, where) for p in parts]
                except ValueError:
                    raise bad(KINDS[kind]) from None
            if not values:
                raise bad(KINDS[kind])
            for v in values:
                limits.check_number(v, where)
            return values
        if kind in ("id", "new-id"):
            value = raw.strip().lower()
            if not _IDENT.match(value):
                raise bad("a participant id (letters, digits, - and _)")
            return value
        if kind in ("ids", "keys"):
            ids = [p.strip().lower() for p in raw.split(",") if p.strip()]
            if not ids or not all(_IDENT.match(i) for i in ids):
                raise bad(KINDS[kind])
            return ids
        if kind == "choice":
            value = raw.strip().lower()
            if value not in self.choices:
                raise bad("one of " + ", ".join(self.choices))
            return value
        if kind == "bool":
            value = raw.strip().lower()
            if value in ("yes", "true", "on", "1"):
                return True
            if value in ("no", "false", "off", "0"):
                return False
            raise bad("yes or no")
        if kind == "value":
            limits.check_nesting(raw, where)
            try:  # text that is not JSON stays text
                value = json.loads(raw, parse_constant=_not_finite, parse_float=_finite_float,
                                   object_pairs_hook=limits.no_key_twice)
            except _NotFinite as exc:
                raise InvalidInput(f"{where} holds {exc}, which is not a number a table can "
                                   "use", param=self.name) from None
            except ValueError:
                value = raw
            return limits.check_value(value, where)
        if kind in ("word", "zone"):
            if not raw or any(c.isspace() for c in raw):
                raise bad("a single word")
            return limits.check_text(raw, where)
        return limits.check_text(raw, where)  # text

    def check_value(self, value: Any, verb: str) -> Any:
        """Validate a value given in the JSON form: the same rules as the text form, on the
        JSON type the kind takes (a number for ``int``, a list or its text form for
        ``ints``/``dice``/``ids``, true/false for ``bool``, a string for the rest), never a
        value coerced from another type."""
        kind = self.kind
        if kind == "value":
            if not _finite(value):
                raise InvalidInput(f"{verb}: {self.name} must hold only finite numbers",
                                   param=self.name)
            return limits.check_value(value, f"{verb}: {self.name}")
        if kind in ("ints", "dice", "ids", "keys"):
            item = str if kind in ("ids", "keys") else int
            if isinstance(value, str):  # the text form: 7,1 or ada,bruno
                return self.convert(value, verb)
            if not isinstance(value, list) or not all(
                    isinstance(v, item) and not isinstance(v, bool) for v in value):
                items = KINDS[kind].split(" separated")[0]
                raise self._wrong_type(verb, value, f"a list of {items}")
            return self.convert(",".join(str(v) for v in value), verb)
        if kind == "bool":
            if not isinstance(value, bool):
                raise self._wrong_type(verb, value, "true or false")
            return value
        if kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise self._wrong_type(verb, value, "a whole number")
            return limits.check_number(value, f"{verb}: {self.name}")
        if not isinstance(value, str):
            raise self._wrong_type(verb, value, "text: " + KINDS.get(kind, "free text"))
        return self.convert(value, verb)

    def _wrong_type(self, verb: str, value: Any, what: str) -> InvalidInput:
        got = (_JSON_TYPES.get(type(value), "a value") if isinstance(value, dict | list | str)
               else json.dumps(value))
        return InvalidInput(f"{verb}: {self.name} must be {what}, got {got}",
                            param=self.name)

    def render(self, value: Any) -> str:
        """The text form of a value of this parameter."""
        if self.kind in ("ints", "dice", "ids", "keys"):
            return ",".join(str(v) for v in value)
        if self.kind == "bool":
            return "yes" if value else "no"
        if self.kind == "value":  # bare where it reads back as the same text: band, not '"band"'
            return quote(value if isinstance(value, str) and _reads_as_text(value)
                         else json.dumps(value))
        return quote(str(value))


def _reads_as_text(text: str) -> bool:
    """Whether ``text``, typed as a value, stays this text (it is not JSON: not ``12``,
    ``true`` or ``"x"``) and is not blank."""
    if not text.strip() or text != text.strip():
        return False
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """What a command is called, what it takes, who may give it and which rule it serves."""

    verb: str
    params: tuple[Param, ...] = ()
    summary: str = ""
    actor: str = "required"  # "required": an actor acts; "gm": GM only; "optional"
    rule: str | None = None

    def usage(self) -> str:
        """A one-line usage pattern, e.g. ``ACTOR: declare SCORES``."""
        parts = ["ACTOR:"] if self.actor == "required" else []
        if self.actor == "optional":
            parts.append("[ACTOR:]")
        parts.append(self.verb)
        for p in self.params:
            token = p.name.upper() if p.positional else f"{p.name}={p.kind.upper()}"
            parts.append(token if p.required else f"[{token}]")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Command:
    """A request to change a conflict, in structured form.

    ``read_by`` is the token of the :class:`CommandSet` that read and checked it (0: made by
    hand, to be checked before it is decided); it takes no part in equality."""

    verb: str
    actor: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    read_by: int = field(default=0, compare=False, repr=False)

    def to_data(self) -> dict[str, Any]:
        """The JSON form."""
        return {"actor": self.actor, "verb": self.verb, "args": dict(self.args)}


class CommandSet:
    """The commands a ruleset understands (its own plus the engine's), by verb."""

    def __init__(self, specs: Iterable[CommandSpec]) -> None:
        #: marks the commands this set read (a random number: a command pickled in another
        #: process, or read by another set, is read again)
        self.token = secrets.randbits(62) + 1
        self.specs: dict[str, CommandSpec] = {}
        # per verb, read once: the positional parameters and every parameter by name
        self._params: dict[str, tuple[list[Param], dict[str, Param]]] = {}
        for spec in specs:
            if spec.verb in self.specs:
                raise ValueError(f"duplicate command verb {spec.verb!r}")
            self.specs[spec.verb] = spec
            self._params[spec.verb] = ([p for p in spec.params if p.positional],
                                       {p.name: p for p in spec.params})

    def spec(self, verb: str, *, acted: bool = False) -> CommandSpec:
        """The spec of ``verb`` or an error listing the known verbs (``acted``: the command
        names an actor, so a GM-only verb is no likely meaning: ``ada: done`` in a ruleset
        without ``done`` is not taken for the GM's ``zone``)."""
        try:
            return self.specs[verb]
        except KeyError:
            known = [v for v, s in self.specs.items() if not (acted and s.actor == "gm")]
            hint = did_you_mean(verb, known)
            # unknown_verb: each door adds its own advice (the prompt's Tab, the page's forms,
            # the one-shot commands' guide in docs/)
            raise InvalidInput(f"unknown command {verb!r}{hint}", verb=verb,
                               unknown_verb=True) from None

    def parse(self, text: str) -> Command:
        """Parse the text notation; refuse anything malformed with :class:`InvalidInput`
        (citing the command's rule when it has one)."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("empty command", text=text)
        if len(text) > limits.MAX_LINE_CHARS:
            raise InvalidInput(f"this command is {len(text)} characters long; a command holds "
                               f"at most {limits.MAX_LINE_CHARS} (the limit on command lines)",
                               length=len(text), limit=limits.MAX_LINE_CHARS)
        if not text.isprintable() and any(c in _SPLIT_CONTROLS for c in text):
            limits.check_text(text, "the command")  # before the split makes them spaces
        try:
            # without quotes or backslashes shlex splits exactly like str.split, only slower
            quoted = "'" in text or '"' in text or "\\" in text
            tokens = split_words(text) if quoted else text.split()
        except ValueError as exc:
            raise InvalidInput(f"cannot read command {text!r}: {exc}", text=text) from None
        if not tokens:
            raise InvalidInput("empty command", text=text)
        actor: str | None = None
        head = tokens[0]
        if ":" in head and not head.startswith(("'", '"')):
            who, _, rest = head.partition(":")
            who = who.strip().lower()
            if not _IDENT.match(who):
                raise InvalidInput(f"{who!r} is not a participant id", text=text)
            actor = None if who == GM else who
            tokens = ([rest] if rest else []) + tokens[1:]
            if not tokens:
                raise InvalidInput(f"no command after {head!r}", text=text)
        verb = tokens[0].lower()
        if not _VERB.match(verb):
            raise InvalidInput(f"{tokens[0]!r} is not a command", text=text)
        spec = self.spec(verb, acted=actor is not None)
        try:
            return self._parse_args(spec, actor, tokens[1:])
        except InvalidInput as exc:
            raise with_rule(exc, spec.rule) from None

    def _parse_args(self, spec: CommandSpec, actor: str | None, rest_tokens: list[str]
                    ) -> Command:
        verb = spec.verb
        positional, by_name = self._params[verb]
        args: dict[str, Any] = {}
        free: list[str] = []
        for token in rest_tokens:
            name, eq, raw = token.partition("=")
            if eq and name in by_name:
                if name in args:
                    raise InvalidInput(f"{verb}: {name} given twice", param=name)
                args[name] = by_name[name].convert(raw, verb)
            else:
                free.append(token)
        for param in positional:
            if param.name in args:
                continue
            if not free:
                break
            if param.kind == "text" and param is positional[-1]:
                args[param.name] = param.convert(" ".join(free), verb)  # the text limits too
                free = []
            else:
                args[param.name] = param.convert(free.pop(0), verb)
        if free:
            raise InvalidInput(
                f"{verb}: unexpected {' '.join(free)!r}; usage: {spec.usage()}", extra=free
            )
        return self._complete(spec, actor, args)

    def checked(self, command: Command) -> Command:
        """``command`` as this set reads it: itself when this set read it, else its JSON form
        checked (a command made by hand, or by another ruleset's set)."""
        return command if command.read_by == self.token else self.from_data(command.to_data())

    def from_data(self, data: Any) -> Command:
        """Validate the JSON form of a command."""
        if not isinstance(data, dict):
            raise InvalidInput("a command must be a JSON object with verb, actor and args")
        verb = data.get("verb")
        if not isinstance(verb, str):
            raise InvalidInput("a command needs a verb", data=data)
        spec = self.spec(verb.lower())
        actor = data.get("actor")
        if actor is not None and (not isinstance(actor, str) or not _IDENT.match(actor.lower())):
            raise InvalidInput(f"{actor!r} is not a participant id", actor=actor)
        actor = None if actor is None or actor.lower() == GM else actor.lower()
        raw_args = data.get("args", {})
        if not isinstance(raw_args, dict):
            raise InvalidInput(f"{verb}: args must be an object")
        by_name = self._params[spec.verb][1]
        args: dict[str, Any] = {}
        try:
            for name, value in raw_args.items():
                if name not in by_name:
                    raise InvalidInput(
                        f"{verb}: unknown argument {name!r}; usage: {spec.usage()}")
                if value is None:
                    continue
                args[name] = by_name[name].check_value(value, verb)
            return self._complete(spec, actor, args)
        except InvalidInput as exc:
            raise with_rule(exc, spec.rule) from None

    def _complete(self, spec: CommandSpec, actor: str | None, args: dict[str, Any]
                  ) -> Command:
        """The command of ``spec`` with ``args`` (a fresh dict, completed in place with the
        defaults), refused if a required argument or the actor is missing."""
        for p in spec.params:
            if p.name not in args:
                if p.required:
                    raise InvalidInput(
                        f"{spec.verb}: missing {p.name}; usage: {spec.usage()}", param=p.name
                    )
                if p.default is not None:
                    args[p.name] = p.default
        if spec.actor == "required" and actor is None:
            raise InvalidInput(
                f"{spec.verb} needs an actor: write it as '{spec.usage()}'", verb=spec.verb
            )
        if spec.actor == "gm" and actor is not None:
            raise InvalidInput(f"{spec.verb} is a GM command; write it without an actor")
        return Command(spec.verb, actor, args, self.token)

    def to_text(self, cmd: Command) -> str:
        """The canonical text form of ``cmd``; ``parse(to_text(cmd)) == cmd``."""
        spec = self.spec(cmd.verb)
        parts = [f"{cmd.actor}:"] if cmd.actor else []
        parts.append(spec.verb)
        named: list[str] = []
        positional_ok = True
        for p in spec.params:
            value = cmd.args.get(p.name)
            if p.name not in cmd.args or (not p.required and value == p.default):
                positional_ok = False
                continue
            if p.positional and positional_ok and "=" not in str(value):
                parts.append(p.render(value))
            else:
                positional_ok = positional_ok and not p.positional
                named.append(f"{p.name}={p.render(value)}")
        return " ".join(parts + named)
