"""Scenario files: a conflict's set-up and an optional script of commands, in TOML.

See ``docs/scenarios.md`` for the format. Every error names the file, the line (where it can
be found) and the key.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from fracas.engine.limits import (
    MAX_SCENARIO_BYTES,
    MAX_SCRIPT_LINES,
    check_nesting,
    check_seed,
)
from fracas.engine.setup import Setup, first_error
from fracas.engine.suggest import did_you_mean
from fracas.errors import InvalidInput, NotFound
from fracas.rulesets import available, get_ruleset

_TOP_KEYS = {
    "ruleset", "title", "scene", "seed", "sides", "round_limit", "settings", "participants",
    "script", "sim",
}


@dataclass(frozen=True, slots=True)
class ScriptLine:
    """One scripted command and the file line it is on."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario file."""

    path: str
    setup: Setup
    seed: str | None = None
    script: tuple[ScriptLine, ...] = field(default_factory=tuple)
    text: str = ""  # the file's text, to point at the line of a key in later errors
    sim: dict[str, Any] = field(default_factory=dict)  # the [sim] table (read by fracas.sim)

    def where(self, key: str | None = None) -> str:
        """``FILE:LINE`` of a ``[settings]`` key such as ``actions.push`` (``FILE`` alone when
        there is no key, or no file's text: a set-up sent from the form has no lines), for
        errors found after the file was read."""
        if not key or not self.text:
            return self.path
        return f"{self.path}:{_line_of(self.text, ['settings', *key.split('.')])}"

    def where_named(self, pid: str) -> str:
        """``FILE:LINE`` of the first line of ``[settings]`` that names ``pid`` (in quotes, or
        as a key: ``[settings.lurking] spy = …``), ``FILE`` alone where none does."""
        lines, inside = self.text.splitlines(), False
        for n, text in enumerate(lines, 1):
            if _HEADER.match(text):
                inside = bool(re.match(r"\s*\[\s*settings\s*[.\]]", text))
            elif inside and re.search(rf"^\s*{re.escape(pid)}\s*=|[\"']{re.escape(pid)}[\"']",
                                      text):
                return f"{self.path}:{n}"
        return self.path

    def where_participant(self, pid: str, key: str | None = None) -> str:
        """``FILE:LINE`` of the ``[[participants]]`` entry of ``pid``: the line of its stat
        ``key`` (``hpp``, ``skills.athletic``) where the entry has one, else of its stats, else
        of its id (``FILE`` alone without the file's text, or with no such entry)."""
        line = _participant_line(self.text, pid, key)
        return self.path if line is None else f"{self.path}:{line}"


def bundled_scenarios() -> dict[str, str]:
    """Name → title of the example scenarios that ship with fracas."""
    out = {}
    for entry in sorted(resources.files("fracas.scenarios").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            text = entry.read_text(encoding="utf-8")
            try:
                title = str(tomllib.loads(text).get("title", ""))
            except tomllib.TOMLDecodeError:
                title = "(unreadable)"
            out[entry.name.removesuffix(".toml")] = title
    return out


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file, or a bundled scenario given by name."""
    p = Path(path)
    if not p.exists() and p.suffix == "" and str(path) in bundled_scenarios():
        entry = resources.files("fracas.scenarios").joinpath(f"{path}.toml")
        return parse_scenario(entry.read_text(encoding="utf-8"), str(path))
    try:
        with p.open("rb") as f:  # read no more than the limit, even from /dev/zero
            data = f.read(MAX_SCENARIO_BYTES + 1)
        if len(data) > MAX_SCENARIO_BYTES:
            raise InvalidInput(f"{p}: the file is longer than {MAX_SCENARIO_BYTES:,} bytes; "
                               "that is the limit on file size", path=str(p))
        raw = data.decode("utf-8", errors="replace")  # refused by line, as an upload is
    except FileNotFoundError:
        bundled = bundled_scenarios()
        hint = did_you_mean(p.name.removesuffix(".toml"), bundled, cutoff=0.5)
        raise InvalidInput(
            f"{p}: no such scenario file{hint} (bundled scenarios: "
            f"{', '.join(bundled) or 'none'})", path=str(p)
        ) from None
    except OSError as exc:
        raise cannot_read(p, exc) from None
    return parse_scenario(raw, str(p))


def cannot_read(path: str | Path, exc: OSError | UnicodeDecodeError) -> InvalidInput:
    """The refusal of a file that cannot be read, in words ("is a folder", "permission
    denied"), not the operating system's ``[Errno 21] Is a directory: 'x'``."""
    if isinstance(exc, IsADirectoryError):
        why = "it is a folder, not a file: give the path of a file inside it"
    elif isinstance(exc, PermissionError):
        why = "permission denied (the file's permissions do not let you read it)"
    elif isinstance(exc, UnicodeDecodeError):
        why = "it is not UTF-8 text: save it as UTF-8"
    else:
        why = (exc.strerror or str(exc)).lower()
    return InvalidInput(f"{path}: cannot read it: {why}", path=str(path))


def parse_scenario(raw: str, name: str = "<scenario>") -> Scenario:
    """Validate the text of a scenario file (``name`` is used in error messages)."""
    raw = raw.removeprefix("\ufeff")  # the byte-order mark some editors begin a file with
    if len(raw.encode("utf-8")) > MAX_SCENARIO_BYTES:
        raise InvalidInput(f"{name}: the file is longer than {MAX_SCENARIO_BYTES:,} bytes "
                           "(the limit on file size)", path=name)
    unreadable = re.search("[\x00\ufffd]", raw)
    if unreadable:  # a browser reads a file that is not UTF-8 with U+FFFD in place
        raise _not_text(name, raw.count("\n", 0, unreadable.start()) + 1)
    check_nesting(raw, name)
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(_toml_error(raw, name, str(exc)), path=name) from None
    if not data:
        raise InvalidInput(f"{name}: the file holds nothing: a scenario holds at least ruleset = "
                           f"\"…\" ({', '.join(available())}) and its [[participants]] "
                           "(docs/scenarios.md)", path=name)
    if "ruleset" not in data:
        raise InvalidInput(f"{name}: ruleset is missing: a scenario names the rules it plays "
                           f"by, ruleset = \"…\" ({', '.join(available())}), before its "
                           "first [table]", path=name, key="ruleset")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        key = unknown[0]
        hint = ("" if isinstance(data[key], dict) else
                f" (a setting such as {key!r} goes under [settings])")
        line = next((n for n, text in enumerate(raw.splitlines(), 1)  # [[participant]] too
                     if re.match(rf"\s*\[\[\s*{re.escape(key)}\s*\]\]", text)),
                    _line_of(raw, [key]))
        close = did_you_mean(key, _TOP_KEYS, cutoff=0.8)
        raise InvalidInput(
            f"{name}:{line}: unknown key {key!r}" + (close or
                f"; known keys: {', '.join(sorted(_TOP_KEYS))}{hint}"), path=name, key=key,
        )
    seed = data.pop("seed", None)
    sim = _checked_sim(data.pop("sim", {}), name, raw)
    if seed is not None and not isinstance(seed, str | int):
        raise InvalidInput(f"{name}:{_line_of(raw, ['seed'])}: seed must be text or a number")
    if seed is not None:
        try:
            check_seed(str(seed))
        except InvalidInput as exc:
            raise InvalidInput(f"{name}:{_line_of(raw, ['seed'])}: {exc}", path=name) from None
    script_raw = data.pop("script", "")
    if isinstance(script_raw, dict) and set(script_raw) <= {"commands"}:
        script_raw = script_raw.get("commands", "")
    if not isinstance(script_raw, str):
        raise InvalidInput(f"{name}:{_line_of(raw, ['script'])}: script must be a string of "
                           "commands, one per line (or a [script] table with commands = …)",
                           path=name, key="script")
    _check_participants(data, raw, name)
    try:
        setup = Setup.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(x) for x in err["loc"]]
        key, msg = first_error(exc)
        hint = ""
        if loc and loc[-1] in _TOP_KEYS and len(loc) > 1:
            hint = (f" (a top-level {loc[-1]!r} must come before the first [table]; "
                    f"or write it as a [{loc[-1]}] table)")
        raise InvalidInput(
            f"{name}:{_line_of(raw, loc)}: {key}: {msg}{hint}", path=name, key=key
        ) from None
    try:  # the ruleset is named where the file names it, as any other key's error is
        get_ruleset(setup.ruleset)
    except NotFound as exc:
        raise InvalidInput(f"{name}:{_line_of(raw, ['ruleset'])}: {exc}", path=name,
                           key="ruleset") from None
    script = tuple(_script_lines(raw, script_raw))
    if len(script) > MAX_SCRIPT_LINES:
        raise InvalidInput(f"{name}: the script has {len(script):,} commands; a script takes at "
                           f"most {MAX_SCRIPT_LINES:,} (the limit on script lines)", path=name)
    return Scenario(name, setup, None if seed is None else str(seed), script, raw, sim)


def _not_text(name: str, line: int) -> InvalidInput:
    """The refusal of a file that is not UTF-8 text (``line``: of the first byte that is not),
    in the same words from a path as from the text a browser read of an upload."""
    return InvalidInput(
        f"{name}:{line}: the file is not UTF-8 text (this line holds a character that cannot "
        "be read: a file saved as ANSI, Latin-1 or UTF-16, or no text file at all); save it "
        "as UTF-8 (in most editors: Save as…, Encoding: UTF-8)", path=name, line=line)


#: Plain words for tomllib's complaints (its message up to " (at"), with what to write.
_TOML_WORDS = {
    "Illegal character '\\n'": "a quoted text is not closed on this line: end it with the "
    "quote it opens with (a text over several lines goes between triple quotes \"\"\" … \"\"\")",
    "Unclosed array": "a list [ … ] is not closed: a ']' is missing at its end (or a ',' "
    "between two of its values)",
    "Unclosed inline table": "a table { … } is not closed on this line: it stays on one line "
    "and ends with '}' (no ',' before it)",
    "Cannot overwrite a value": "a key is given a second time: keep one of the two",
    "Invalid value": "the value here is not one TOML reads: a text goes in straight quotes "
    "(name = \"Ada\"), a number or true/false without",
    "Expected '=' after a key in a key/value pair": "a key is followed by '=' "
    "(name = \"Ada\"), not ':' or a space",
    "Expected ']' at the end of a table declaration": "a [table] header is not closed: end "
    "it with ']' (']]' for [[participants]])",
    "Invalid initial character for a key part": "a key is missing here: an inline table "
    "{ … } stays on one line, with no ',' before its '}'",
}


def _toml_error(raw: str, name: str, message: str) -> str:
    """``FILE:LINE: not valid TOML: …`` for a tomllib error, in plain words where they are
    known: the line where the file must be mended (a list left open is reported on the line
    after it: the last line it holds is named)."""
    found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.S)
    if found is None:  # "(at end of document)": a text opened with triple quotes, unclosed
        what = message.removesuffix(" (at end of document)")
        opened = [m.start() for m in re.finditer("\"\"\"|\'\'\'", raw)]
        if what == "Unterminated string" and len(opened) % 2:
            line = raw.count("\n", 0, opened[-1]) + 1
            return (f"{name}:{line}: not valid TOML: the text opened with triple quotes on "
                    "this line is never closed: end it with the same triple quotes")
        return f"{name}: not valid TOML: {message}"
    what, line, column = found[1], int(found[2]), int(found[3])
    words = _TOML_WORDS.get(what)
    table = re.fullmatch(r"Cannot declare \((.*?),?\) twice", what)
    if table:  # ('settings',) or ('settings', 'ranges')
        header = ".".join(part.strip(" '\"") for part in table[1].split(","))
        words = f"[{header}] is there twice: put all of its keys under one [{header}]"
    if what == "Invalid value" and re.search("[“”‘’]", raw.splitlines()[line - 1]):
        words = "typographic quotes “…” are not TOML's: use straight ones (\"…\")"
    if what == "Unclosed array" and column == 1:
        before = [n for n, text in enumerate(raw.splitlines()[:line - 1], 1) if text.strip()]
        line = before[-1] if before else line
        return f"{name}:{line}: not valid TOML: {words}"
    return f"{name}:{line}: not valid TOML: {words or what} (column {column})"


def _check_participants(data: dict[str, Any], raw: str, name: str) -> None:
    """Refuse, by line, an id given to two participants and a side that looks like a
    mistyped one of ``sides`` (the set-up's own checks name neither line; an unlisted side
    unlike any listed one is a side of its own, added to them)."""
    people, sides = data.get("participants"), data.get("sides")
    if not isinstance(people, list):
        return
    listed = [s for s in sides if isinstance(s, str)] if isinstance(sides, list) else []
    first: dict[str, int] = {}
    for i, person in enumerate(people):
        if not isinstance(person, dict):
            continue
        pid, side = person.get("id"), person.get("side")
        line = _line_of(raw, ["participants", str(i), "id"])
        if isinstance(pid, str) and pid in first:
            raise InvalidInput(
                f"{name}:{line}: participants.{i}.id: participant id {pid!r} is used twice "
                f"(first on line {first[pid]}); give each participant an id of its own",
                path=name, key=f"participants.{i}.id")
        if isinstance(pid, str):
            first[pid] = line
        hint = did_you_mean(side, listed, cutoff=0.8) if isinstance(side, str) \
            and listed and side not in listed else ""
        if hint:
            raise InvalidInput(
                f"{name}:{_line_of(raw, ['participants', str(i), 'side'])}: "
                f"participants.{i}.side: {side!r} is not one of the sides "
                f"({', '.join(listed)}){hint} (a side of its own goes in sides too)",
                path=name, key=f"participants.{i}.side")


#: The keys of a ``[sim]`` table (docs/sim.md) and the most rounds it may set.
SIM_KEYS = ("max_rounds", "policies", "prologue", "tracking")
MAX_SIM_ROUNDS = 10_000
#: The names of the simulator's built-in policies (``fracas.sim.policies.BUILT_IN`` maps each
#: to its function): named here, below the adapters, so that every door reading a scenario
#: (``run``, ``new``, the server, ``sim``) checks ``[sim] policies`` without the simulator.
POLICY_NAMES = ("random", "focus-fire", "weakest-first", "defensive", "flee", "parley")
#: Verbs a ``[sim] prologue`` may not hold: it is played straight through at the start of
#: every encounter, never taken back.
_NOT_IN_PROLOGUE = ("undo", "redo")


def unknown_policy(name: str) -> str | None:
    """Why ``name`` names no policy, or None: a built-in one, or ``module:function`` (which
    only ``fracas sim`` imports, when it plays)."""
    module, colon, attr = name.partition(":")
    if name in POLICY_NAMES or (colon and module and attr):
        return None
    hint = did_you_mean(name, POLICY_NAMES)
    if hint:
        return f"unknown policy {name!r}{hint}"
    return (f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)} or "
            "module:function")


def _prologue_refusal(prologue: str) -> tuple[int, str] | None:
    """Why a ``[sim] prologue`` cannot be played, and on which of its lines (0: the first),
    or None (its commands are checked when ``fracas sim`` plays them; only an undo, a redo or
    an end is refused at once)."""
    for index, text in enumerate(prologue.splitlines()):
        tokens = text.split()
        if not tokens or tokens[0].startswith("#"):
            continue
        if ":" in tokens[0]:  # ACTOR: VERB, or ACTOR:VERB
            rest = tokens[0].partition(":")[2]
            tokens = [rest, *tokens[1:]] if rest else tokens[1:]
        if tokens and tokens[0].lower() == "end":
            return index, (f"holds {text.strip()!r}: a prologue that ends the conflict "
                           "leaves nothing to simulate (every encounter would count as no "
                           "decision); the simulated GM ends each encounter once it is decided")
        if tokens and tokens[0].lower() in _NOT_IN_PROLOGUE:
            return index, (f"holds {text.strip()!r}: a prologue is played straight through "
                           "at the start of every encounter and never taken back, so it holds "
                           f"no {tokens[0].lower()} (leave it out, with any command it would "
                           "undo)")
    return None


def _checked_sim(sim: Any, name: str, raw: str) -> dict[str, Any]:
    """The ``[sim]`` table, its keys and their types checked, so that every door that reads a
    scenario (``new``, ``run``, the server, ``sim``) refuses a bad one at once, by line."""
    def bad(key: str, what: str) -> InvalidInput:
        return InvalidInput(f"{name}:{_line_of(raw, ['sim', key])}: [sim] {key} {what}",
                            path=name, key=f"sim.{key}")

    if not isinstance(sim, dict):
        raise InvalidInput(f"{name}:{_line_of(raw, ['sim'])}: sim must be a [sim] table",
                           path=name, key="sim")
    unknown = sorted(set(sim) - set(SIM_KEYS))
    if unknown:
        raise InvalidInput(f"{name}:{_line_of(raw, ['sim', unknown[0]])}: [sim] has no key "
                           f"{unknown[0]!r}; known keys: {', '.join(SIM_KEYS)}", path=name,
                           key=f"sim.{unknown[0]}")
    if not isinstance(sim.get("prologue", ""), str):
        raise bad("prologue", "must be commands, one per line")
    refused = _prologue_refusal(sim.get("prologue", ""))
    if refused:
        index, why = refused
        line = _line_of(raw, ["sim", "prologue"])
        if index and re.match(r"\s*prologue\s*=\s*(\"\"\"|\'\'\')[ \t]*$",
                              raw.splitlines()[line - 1]):
            line += 1  # TOML drops the new line right after the opening quotes
        raise InvalidInput(f"{name}:{line + index}: [sim] prologue {why}", path=name,
                           key="sim.prologue")
    rounds = sim.get("max_rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not (
            1 <= rounds <= MAX_SIM_ROUNDS):
        raise bad("max_rounds", f"must be a whole number from 1 to {MAX_SIM_ROUNDS}")
    policies = sim.get("policies", {})
    if not isinstance(policies, dict) or not all(
            isinstance(v, str) for v in policies.values()):
        raise bad("policies", "must map sides to policy names")
    for side, policy in policies.items():
        refusal = unknown_policy(policy)
        if refusal:
            raise bad("policies", f"for {side}: {refusal}")
    if not isinstance(sim.get("tracking", False), bool):
        raise bad("tracking", "must be true or false")
    return sim


def _script_lines(raw: str, script: str) -> list[ScriptLine]:
    first = 1
    match = re.search(r"^\s*script\s*=", raw, re.M) or re.search(
        r"^\s*\[\s*script\s*\][^\n]*\n(?:\s*(?:#[^\n]*)?\n)*\s*commands\s*=", raw, re.M
    )
    if match:
        first = raw.count("\n", 0, match.end()) + 1
        after = raw[match.end():].lstrip(" \t")
        if after.startswith(('"""', "'''")) and after[3:4] == "\n":
            first += 1  # TOML drops a newline right after the opening quotes
    out = []
    for offset, text in enumerate(script.splitlines()):
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            out.append(ScriptLine(first + offset, stripped))
    return out


#: A ``[table]`` or ``[[array]]`` header (not a line of a list written over several lines).
_HEADER = re.compile(r"\s*\[\[?\s*[A-Za-z_][\w.\-\s\"']*\]\]?\s*(#.*)?$")


def _participant_line(raw: str, pid: str, key: str | None) -> int | None:
    """The line of ``key`` in the ``[[participants]]`` entry whose id is ``pid`` (its last
    part first: ``skills.athletic`` is found on the line of ``athletic``), else of its
    stats, else of its id."""
    lines = raw.splitlines()
    heads = [n for n, text in enumerate(lines) if _HEADER.match(text)] + [len(lines)]
    for start, end in itertools.pairwise(heads):
        if not re.match(r"\s*\[\[\s*participants\s*\]\]", lines[start]):
            continue
        while end < len(lines) and re.match(r"\s*\[+\s*participants\.", lines[end]):
            end = next((h for h in heads if h > end), len(lines))  # [participants.stats]
        ids = [n for n in range(start, end)
               if re.match(rf"\s*id\s*=\s*[\"']{re.escape(pid)}[\"']", lines[n])]
        if not ids:
            continue
        for part in ([] if not key else [key.split(".")[-1], key.split(".")[0]]) + ["stats"]:
            found = [n for n in range(start, end)
                     if re.search(rf"(?<![\w-])[\"']?{re.escape(part)}[\"']?\s*=", lines[n])]
            if found:
                return found[0] + 1
        return ids[0] + 1
    return None


def _line_of(raw: str, loc: list[str]) -> int:
    """Best-effort line number of a key path such as ``participants.2.stats`` (1 if unknown)."""
    lines = raw.splitlines()
    pos = 0
    i = 0
    while i < len(loc):
        part = loc[i]
        if i + 1 < len(loc) and loc[i + 1].isdigit():
            # the n-th [[part]] array table
            wanted, seen = int(loc[i + 1]), -1
            for n in range(pos, len(lines)):
                if re.match(rf"^\s*\[\[\s*{re.escape(part)}\s*\]\]", lines[n]):
                    seen += 1
                    if seen == wanted:
                        pos = n
                        break
            else:  # an inline list, participants = [ … ]: its key's line
                pos = next((n for n in range(pos, len(lines))
                            if re.match(rf"^\s*{re.escape(part)}\s*=", lines[n])), pos)
            i += 2
            continue
        for n in range(pos, len(lines)):
            text = lines[n]
            if re.match(rf"^\s*\[\s*([\w.\-]*\.)?{re.escape(part)}\s*\]", text) or re.match(
                rf"^\s*\"?{re.escape(part)}\"?\s*=", text
            ):
                pos = n
                break
        i += 1
    return pos + 1
