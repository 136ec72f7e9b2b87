"""The limits on every input, and the checks that refuse what goes past them.

Every door (a scenario file, ``join``, a command in text or JSON, an import) uses these same
checks, so a value refused at one is refused at all, with a sentence naming the limit.
``docs/limits.md`` lists them for users.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from typing import Any

from fracas.errors import InvalidInput

#: Longest secret seed (characters), for ``run``, ``new`` and a scenario's ``seed``.
MAX_SEED_CHARS = 200
#: The longest idempotency key of a command (``fracas do --key``, the API's ``key``).
MAX_KEY_CHARS = 200
#: Most participants one conflict (or a zoom inside it) holds, joins included.
MAX_PARTICIPANTS = 100
#: Most commands in a scenario's script.
MAX_SCRIPT_LINES = 5_000
#: The most dice the ``roll`` commands of a scenario's script may name, all together: a
#: script is played at once, so its cost is bounded as a whole, not only line by line.
MAX_SCRIPT_DICE = 100_000
#: Largest scenario file (bytes).
MAX_SCENARIO_BYTES = 1_000_000
#: Largest export file (bytes).
MAX_EXPORT_BYTES = 64_000_000
#: Deepest nesting of tables and lists in a scenario, a JSON value or an export.
MAX_NESTING = 32
#: Longest name (of a participant, side, player, zone…).
MAX_NAME_CHARS = 80
#: Longest free text (a note, narration, reason, scene).
MAX_TEXT_CHARS = 10_000
#: Longest command in the text notation: typed, and as every record keeps it (a command given
#: in its JSON form must fit too, so that its record reads back).
MAX_LINE_CHARS = 4_000
#: Largest number (either sign) in stats, settings and command values.
MAX_NUMBER = 1_000_000
#: Longest conflict id; ids are lower-case letters, digits, ``-`` and ``_``.
MAX_ID_CHARS = 40

_CONFLICT_ID = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
#: A player's name, as their characters' ``player`` field and their link have it.
PLAYER_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
PLAYER_NAME = re.compile(PLAYER_PATTERN)
_WHOLE = re.compile(r"[+-]?[0-9]+")
#: Characters that turn text around or hide it: bidi embeddings, overrides and isolates.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def check_seed(seed: str) -> str:
    """A seed no longer than :data:`MAX_SEED_CHARS` and without control characters."""
    if not seed:
        raise InvalidInput("the seed is empty; leave it out to get a fresh secret one")
    if len(seed) > MAX_SEED_CHARS:
        raise InvalidInput(f"the seed is {len(seed)} characters long; at most "
                           f"{MAX_SEED_CHARS} (the limit on seeds)", limit=MAX_SEED_CHARS)
    _refuse_hidden(seed, "the seed", allow_newlines=False)
    return seed


def check_key(key: str) -> str:
    """An idempotency key: 1 to :data:`MAX_KEY_CHARS` characters, no control characters."""
    if not key or len(key) > MAX_KEY_CHARS:
        raise InvalidInput(f"the key is {len(key)} characters long; give 1 to {MAX_KEY_CHARS} "
                           "(the limit on keys)", limit=MAX_KEY_CHARS)
    _refuse_hidden(key, "the key", allow_newlines=False)
    return key


def check_conflict_id(cid: Any) -> str:
    """A conflict id: lower-case letters, digits, ``-`` and ``_``, at most 40 characters."""
    if not isinstance(cid, str) or not cid:
        raise InvalidInput("a conflict id must be text such as 54fdce49")
    if len(cid) > MAX_ID_CHARS or not _CONFLICT_ID.match(cid):
        shown = cid if len(cid) <= MAX_ID_CHARS else cid[:MAX_ID_CHARS] + "…"
        raise InvalidInput(f"{shown!r} is not a conflict id: ids are lower-case letters, "
                           f"digits, - and _, at most {MAX_ID_CHARS} characters",
                           limit=MAX_ID_CHARS)
    return cid


def check_name(text: str, what: str) -> str:
    """A name: not blank, at most :data:`MAX_NAME_CHARS`, no control or bidi characters."""
    if not text.strip():
        raise InvalidInput(f"{what} is empty; give it a name")
    if len(text) > MAX_NAME_CHARS:
        raise InvalidInput(f"{what} is {len(text)} characters long; names take at most "
                           f"{MAX_NAME_CHARS}", limit=MAX_NAME_CHARS)
    _refuse_hidden(text, what, allow_newlines=False)
    return text


def check_line(text: str, what: str) -> str:
    """One line of text (a link, a label): no new line, control or bidi character."""
    _refuse_hidden(text, what, allow_newlines=False)
    return text


def check_text(text: str, what: str) -> str:
    """Free text: at most :data:`MAX_TEXT_CHARS`; new lines and tabs, but no other control
    or bidi characters."""
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInput(f"{what} is {len(text)} characters long; text takes at most "
                           f"{MAX_TEXT_CHARS}", limit=MAX_TEXT_CHARS)
    _refuse_hidden(text, what, allow_newlines=True)
    return text


def hidden_character(text: str, *, allow_newlines: bool = False) -> str | None:
    """The first control, text-direction or lone surrogate character of ``text`` (None: it
    has none); new lines and tabs pass where ``allow_newlines``."""
    for ch in text:
        if allow_newlines and ch in "\n\t":
            continue
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
            return ch
    return None


def _refuse_hidden(text: str, what: str, *, allow_newlines: bool) -> None:
    ch = hidden_character(text, allow_newlines=allow_newlines)
    if ch is not None:
        raise InvalidInput(f"{what} holds the control character U+{ord(ch):04X}; names "
                           "and text may not hold control or text-direction characters")


def refuse_foreign_digits(text: str, what: str) -> str:
    """Refuse text holding a digit other than 0-9 (Arabic-Indic ``٣``, full-width ``３``,
    superscript ``²``…): Python's ``int`` and ``\\d`` read them, so every door that reads a
    number from outside asks this first, as the dice parser does."""
    for ch in text:
        if ch.isdigit() and not "0" <= ch <= "9":
            raise InvalidInput(f"{what} holds the digit {ch!r} (U+{ord(ch):04X} "
                               f"{unicodedata.name(ch, 'DIGIT')}); numbers are written "
                               "with the digits 0-9", value=text)
    return text


def as_int(value: Any, what: str) -> int:
    """``int(value)`` for a number from outside (a stat, a setting, a command's argument),
    but text only in the digits 0-9: InvalidInput for another script's digits (see
    :func:`refuse_foreign_digits`), ValueError or TypeError for what ``int`` refuses."""
    if isinstance(value, str):
        # ASCII text holds no digits but 0-9: only other text needs the character check
        text = (value if value.isascii() else refuse_foreign_digits(value, what)).strip()
        if not _WHOLE.fullmatch(text):
            raise ValueError(f"{what}: {value!r} is not a whole number")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, int):  # true is not 1, nor 7.9 7
        raise TypeError(f"{what}: {value!r} is not a whole number")
    return value


def check_number(value: Any, where: str) -> Any:
    """Refuse a number past :data:`MAX_NUMBER` (or NaN / infinity) at ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{where} holds {value}, which is not a number a table can use")
    if abs(value) > MAX_NUMBER:
        raise InvalidInput(f"{where} is {value}; numbers go up to {MAX_NUMBER:,} either side "
                           "(the limit on numbers)", limit=MAX_NUMBER)
    return value


def check_value(value: Any, where: str, depth: int = 0) -> Any:
    """Check a value from outside all the way down: nesting, numbers, keys and text."""
    if depth > MAX_NESTING:
        raise InvalidInput(f"{where} is nested more than {MAX_NESTING} deep (the limit on "
                           "nesting)", limit=MAX_NESTING)
    if isinstance(value, dict):
        for k, v in value.items():
            if not str(k).strip():
                raise InvalidInput(f"{where} holds a key that is empty: give each key a name")
            if len(str(k)) > MAX_NAME_CHARS:
                raise InvalidInput(f"a key in {where} is {len(str(k))} characters long; "
                                   f"names take at most {MAX_NAME_CHARS}", limit=MAX_NAME_CHARS)
            _refuse_hidden(str(k), f"a key in {where}", allow_newlines=False)
            check_value(v, f"{where}.{k}", depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_value(v, f"{where}.{i}", depth + 1)
    elif isinstance(value, str):
        check_text(value, where)
    else:
        check_number(value, where)
    return value


def no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A ``json.loads`` object hook that refuses an object giving one key twice (json alone
    keeps the last one quietly): every door that reads JSON from outside uses it."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidInput(f"the JSON gives the key {key[:100]!r} twice; give each key "
                               "once")
        out[key] = value
    return out


def check_nesting(raw: str, what: str, deeper: int = 0) -> None:
    """Refuse text (TOML or JSON) whose brackets nest past :data:`MAX_NESTING` (``deeper``
    more in a file that wraps others, each checked again on its own), before a parser
    recurses into it. Strings and comments are skipped."""
    most = MAX_NESTING + deeper
    depth = 0
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch in "[{":
            depth += 1
            if depth > most:
                raise InvalidInput(f"{what}: tables and lists nest more than {most} "
                                   "deep (the limit on nesting)", limit=most)
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "#":
            end = raw.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            quote = raw[i:i + 3] if raw[i:i + 3] in ('"""', "'''") else ch
            j = i + len(quote)
            while j < n:
                if raw[j] == "\\" and quote[0] == '"':
                    j += 2
                    continue
                if raw.startswith(quote, j):
                    break
                if len(quote) == 1 and raw[j] == "\n":
                    break
                j += 1
            i = j + len(quote)
            continue
        i += 1


def check_gm_only_settings(settings: dict[str, Any], shown: frozenset[str], title: str
                           ) -> None:
    """Refuse a ``gm_only_settings`` that is not a list of setting names, or that names one
    the ruleset shows every viewer (``shown``): a GM would think it hidden."""
    names = settings.get("gm_only_settings", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidInput("settings.gm_only_settings must be a list of setting names",
                           key="gm_only_settings")
    public = sorted(shown.intersection(names))
    if public:
        raise InvalidInput(
            f"settings.gm_only_settings: {', '.join(public)} cannot be hidden: {title} shows "
            f"{'it' if len(public) == 1 else 'them'} to every player (hide a character with "
            "'conceal', keep a secret in a note with visibility=gm)", key="gm_only_settings")


def spelled(value: Any) -> str:
    """``value`` as a scenario or a JSON value writes it (``true``, ``"d10"``, ``[1, 2]``), for
    a refusal that quotes what was given: never Python's ``True`` or ``None``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def check_stat_ranges(ranges: dict[str, tuple[int, int]], pid: str,
                      stats: dict[str, Any]) -> None:
    """Refuse a stat a ruleset counts with that is not a whole number in its range.

    ``ranges`` maps a stat path (``strength``, ``skills.*``, ``weapons.*.ev``; ``*`` is any
    key) to its lowest and highest value; a stat the sheet leaves out is not checked.
    """
    for path, (low, high) in ranges.items():
        for where, value in _at(stats, path.split("."), f"{pid}: stats"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"{where} must be a whole number, not {spelled(value)}",
                                   participant=pid)
            if not low <= value <= high:
                raise InvalidInput(f"{where} is {value}; it goes from {low} to {high} (the "
                                   "limit on this stat)", participant=pid)


def _at(node: Any, parts: list[str], where: str) -> list[tuple[str, Any]]:
    if not parts:
        return [(where, node)]
    if not isinstance(node, dict):
        return []
    head, rest = parts[0], parts[1:]
    keys = list(node) if head == "*" else [head] if head in node else []
    out: list[tuple[str, Any]] = []
    for k in keys:
        out += _at(node[k], rest, f"{where}.{k}")
    return out
