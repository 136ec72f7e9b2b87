"""What a simulation run is: the scenario, its variations, policies, size and seed.

A :class:`SimJob` is plain data (picklable), so the same job runs in this process, in local
worker processes or on a Dask cluster. ``[sim]`` in a scenario file may give defaults::

    [sim]
    prologue = "chase c1 hunter=ada quarry=cutpurse length=2"   # GM commands played first
    max_rounds = 30
    policies = { heroes = "focus-fire", toughs = "mypackage.tactics:berserk" }
    tracking = true     # VERS: after an escape the GM turns the chase to tracking
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from fracas.app.scenario import Scenario, parse_scenario
from fracas.engine.limits import MAX_ID_CHARS
from fracas.engine.ruleset import ENGINE_SETTINGS, Ruleset
from fracas.engine.setup import ParticipantSetup, Setup, first_error
from fracas.engine.suggest import did_you_mean
from fracas.errors import InvalidInput
from fracas.rulesets import get_ruleset

DEFAULT_MAX_ROUNDS = 50

#: How to install what ``--plot`` and ``--dask`` need (matplotlib, Dask distributed): in a
#: checkout of fracas, its set-up script; else pip (docs/sim.md).
SIM_EXTRA = ("the sim extra: in a checkout of fracas, bash scripts/setup.sh sim; "
             "else pip install 'fracas[sim]'")


@dataclass(frozen=True, slots=True)
class SimJob:
    """One simulation: ``n`` encounters of a scenario's conflict (with ``overrides``)."""

    scenario_text: str
    scenario_name: str
    n: int
    seed: str
    max_rounds: int | None = None  # None: the scenario's [sim] max_rounds, else 50
    policies: tuple[tuple[str, str], ...] = ()  # (side, policy name), CLI over the scenario
    overrides: tuple[tuple[str, Any], ...] = ()  # (path, value) of one sweep combination

    def scenario(self) -> Scenario:
        """The parsed scenario file."""
        return parse_scenario(self.scenario_text, self.scenario_name)

    def label(self) -> str:
        """The combination of a sweep, e.g. ``ogre.stats.rv=3 pcs=4`` (``base`` if none)."""
        return " ".join(f"{k}={json.dumps(v)}" for k, v in self.overrides) or "base"


def encounter_seed(seed: str, index: int) -> str:
    """The dice seed of encounter ``index`` of a run: derived from the run seed and the index
    only, so any split of the encounters over workers rolls the same dice."""
    return hashlib.sha256(f"fracas-sim\x00{seed}\x00{index}".encode()).hexdigest()


def sim_options(scenario: Scenario) -> dict[str, Any]:
    """The scenario's ``[sim]`` table (checked when the file was read) with its defaults."""
    raw = scenario.sim
    return {"prologue": raw.get("prologue", ""),
            "max_rounds": raw.get("max_rounds", DEFAULT_MAX_ROUNDS),
            "policies": dict(raw.get("policies", {})), "tracking": raw.get("tracking", False)}


# --- sweeps ---------------------------------------------------------------------------------

def parse_vary(texts: list[str]) -> list[tuple[str, list[Any]]]:
    """``--vary 'ogre.stats.rv=0,1,3'`` → ``[("ogre.stats.rv", [0, 1, 3])]``; each value
    is read as JSON (a number, true/false, a quoted string) or else kept as text."""
    out: list[tuple[str, list[Any]]] = []
    for text in texts:
        path, eq, values = text.partition("=")
        path = path.strip()
        if not eq or not path or not values.strip():
            raise InvalidInput(f"--vary {text!r}: write PATH=V1,V2,… (e.g. ogre.stats.rv=0,1,3)")
        if any(path == p for p, _ in out):
            raise InvalidInput(f"--vary {path} is given twice")
        out.append((path, _values(values, path)))
    return out


def _values(text: str, path: str) -> list[Any]:
    """The values of ``--vary PATH=…``, split at commas; one in JSON (``"Ada, the Bold"``,
    ``["hp", "mp"]``) is read whole, commas and all. At least one; none given twice."""
    decoder = json.JSONDecoder()
    out: list[Any] = []
    seen: set[str] = set()
    i = 0
    while i < len(text):
        start = len(text) - len(text[i:].lstrip())
        if start < len(text) and text[start] in '"[{':
            try:
                value, end = decoder.raw_decode(text, start)
            except ValueError:
                raise InvalidInput(
                    f"--vary {path}: {text[start:]!r} starts like JSON but is not JSON (a "
                    'value holding a comma goes in double quotes: "Ada, the Bold")') from None
            comma = len(text) - len(text[end:].lstrip())
            if comma < len(text) and text[comma] != ",":
                raise InvalidInput(f"--vary {path}: {text[comma:]!r} follows the value "
                                   f"{text[start:end]}; values are separated by commas")
        else:
            comma = text.find(",", start)
            comma = len(text) if comma < 0 else comma
            raw = text[start:comma].strip()
            if not raw:  # an empty place between commas: nothing
                i = comma + 1
                continue
            value = _value(raw)
        key = json.dumps(value, sort_keys=True)
        if key in seen:
            raise InvalidInput(f"--vary {path}: the value {key} is given twice")
        seen.add(key)
        out.append(value)
        i = comma + 1
    if not out:
        raise InvalidInput(f"--vary {path}: give at least one value (PATH=V1,V2,…)")
    return out


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


#: The most combinations one sweep may make (each is a row of the report, and prepared
#: before any encounter is played).
MAX_COMBINATIONS = 256


def combinations(vary: list[tuple[str, list[Any]]]) -> list[tuple[tuple[str, Any], ...]]:
    """Every combination of a sweep, in the order given (one empty combination if none)."""
    count = math.prod(len(values) for _, values in vary)
    if count > MAX_COMBINATIONS:
        sizes = " × ".join(str(len(values)) for _, values in vary)
        raise InvalidInput(f"--vary makes {sizes} = {count:,} combinations; a sweep takes at "
                           f"most {MAX_COMBINATIONS} (split it into several runs)")
    paths = [p for p, _ in vary]
    return [tuple(zip(paths, combo, strict=True))
            for combo in itertools.product(*(values for _, values in vary))]


#: What a sweep may change of a participant.
SWEPT_FIELDS = ("stats", "side", "name")


def apply_overrides(setup: Setup, overrides: tuple[tuple[str, Any], ...]) -> Setup:
    """The set-up with one sweep combination applied.

    Paths: ``ID.stats.KEY[.KEY…]`` and ``ID.side`` / ``ID.name`` for a participant,
    ``settings.KEY[.KEY or list index…]``, ``round_limit``, and ``pcs=N``: the first N player
    characters take part (more than the scenario has: copies of the last one, ``ada-2``, …).
    """
    data = setup.model_dump(mode="json")
    ruleset = get_ruleset(setup.ruleset)
    out = setup
    for path, value in _in_order(data, overrides):  # each checked at once: a refusal names
        # the one at fault
        _apply_one(data, ruleset, path, value)
        out = _validated(data, path, value)
    hidden = {p.id for p in setup.participants if p.hidden}
    if not hidden or out is setup:
        return out
    # hidden at the start is never dumped (the set-up record leaves it out): set it again
    return out.model_copy(update={"participants": [
        p.model_copy(update={"hidden": p.id in hidden}) for p in out.participants]})


def _in_order(data: dict[str, Any], overrides: tuple[tuple[str, Any], ...]
              ) -> list[tuple[str, Any]]:
    """``overrides`` in the order they are applied: ``pcs`` after the paths naming the
    scenario's own participants and settings, so that those read as the file does (a PC that
    ``pcs`` leaves out may be swept beside it; a copy takes the swept stats of the one it
    copies; ``settings.cover.1`` is the file's second entry), then the paths naming someone
    else (a copy ``pcs`` makes, ``bruno-2``)."""
    own = {p["id"] for p in data["participants"]} | {"settings", "round_limit"}
    first = [o for o in overrides if o[0] != "pcs" and o[0].partition(".")[0] in own]
    return [*first, *(o for o in overrides if o[0] == "pcs"),
            *(o for o in overrides if o[0] != "pcs" and o not in first)]


def _apply_one(data: dict[str, Any], ruleset: Ruleset, path: str, value: Any) -> None:
    """Apply one override ``path`` = ``value`` to the set-up's JSON form ``data``."""
    if path == "pcs":
        _set_pcs(data, ruleset, value)
        return
    head, _, rest = path.partition(".")
    if head == "round_limit" and not rest:
        data["round_limit"] = value
        return
    if head == "settings" and rest:
        _check_read(ruleset, path, "setting", rest.split(".")[0])
        _set_path(data["settings"], rest.split("."), value, path)
        return
    part = next((p for p in data["participants"] if p["id"] == head), None)
    if part is not None and not rest:
        raise InvalidInput(f"--vary {path}: say what of {head} to sweep: {head}.stats.KEY, "
                           f"{head}.side or {head}.name")
    if part is None or not rest:
        ids = [p["id"] for p in data["participants"]]
        hint = did_you_mean(head, [*ids, "settings", "round_limit", "pcs"]) if rest else ""
        raise InvalidInput(f"--vary {path}: not a participant, settings or round_limit path"
                           f"{hint} (participants: {', '.join(ids)}; pcs=N for the number "
                           "of PCs)")
    keys = rest.split(".")
    if keys[0] not in SWEPT_FIELDS:
        meant = did_you_mean(keys[0], SWEPT_FIELDS).removeprefix("; did you mean ")
        fixed = ".".join([head, meant[1:-2], *keys[1:]]) if meant else f"{head}.stats.{rest}"
        raise InvalidInput(f"--vary {path}: a sweep changes a participant's "
                           f"{', '.join(SWEPT_FIELDS)} ({head}.stats.KEY, {head}.side, "
                           f"{head}.name); did you mean {fixed}?")
    if keys[0] == "stats" and len(keys) > 1:
        _check_read(ruleset, path, "stat", keys[1], _own_entry(data, keys[1], head))
    elif keys == ["stats"] and not isinstance(value, dict):
        raise vary_error(path, value, "a participant's stats are a table of KEY = value, not "
                                      f"one value; sweep one stat: --vary {head}.stats.KEY=…")
    _set_path(part, keys, value, path)


def _validated(data: dict[str, Any], path: str, value: Any) -> Setup:
    """The set-up ``data`` as a checked set-up; a refusal names the override ``path`` =
    ``value`` just applied, and a participant by its id, not its place in the list."""
    try:
        return Setup.model_validate(data)
    except ValidationError as exc:
        key, message = first_error(exc)
        where = key.split(".")
        if where[0] == "participants" and len(where) > 1 and where[1].isdigit() \
                and int(where[1]) < len(data["participants"]):
            key = ".".join([str(data["participants"][int(where[1])].get("id")), *where[2:]])
        raise vary_error(path, value, f"{key}: {message}") from None


def shown(value: Any) -> str:
    """A swept value as the user typed it: text as text (``abc``), anything else in JSON."""
    if isinstance(value, str) and "," not in value and _value(value) == value:
        return value
    return json.dumps(value)


def vary_error(path: str, value: Any, message: str, rule: str | None = None) -> InvalidInput:
    """A refusal of one value of a sweep, named as the user gave it (``--vary
    captain.stats.hp=abc: hp must be a whole number …``): the set-up's words for the
    participant the path names (``captain: stats.hp``, ``captain.stats.hp``) are left out."""
    head, _, rest = path.partition(".")
    for prefix in (f"{head}: ", f"{head}."):
        message = message.removeprefix(prefix)
    if rest.startswith("stats.") and message.startswith("stats."):
        message = message.removeprefix("stats.")
    return InvalidInput(f"--vary {path}={shown(value)}: {message}", rule=rule, path=path)


def _own_entry(data: dict[str, Any], key: str, pid: str) -> str | None:
    """The path of participant ``pid``'s value in the setting ``key``, where that setting is
    a list with an entry for it (VERS's cover: ``settings.cover.0.value``), else None."""
    entries = data["settings"].get(key)
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, dict) and entry.get("who") == pid and "value" in entry:
            return f"settings.{key}.{i}.value"
    return None


def _check_read(ruleset: Ruleset, path: str, kind: str, key: str,
                entry: str | None = None) -> None:
    """Refuse to sweep a ``kind`` ("stat" or "setting") named ``key`` that the ruleset's
    rules never read (a key of the GM's own): every combination would play the same.
    ``entry``: the path of the participant's own entry in a setting of that name, which the
    refusal of a stat names."""
    if kind == "setting":
        ruleset.check_setting_names([key])  # a typo of a setting: in the set-up's words
    read = ruleset.settings_read | ENGINE_SETTINGS if kind == "setting" else ruleset.stats_read
    if read is None or key in read:
        return
    other = ("setting", "settings." + key) if kind == "stat" and key in ruleset.settings_read \
        else ("stat", "ID.stats." + key) if kind == "setting" and key in (
            ruleset.stats_read or ()) else None
    if other is None:
        close = did_you_mean(key.lower(), read, cutoff=0.8) if kind == "stat" else ""
        hint = f"{close.removeprefix('; ')} Its" if close else "its"
        hint += f" {kind}s: {', '.join(sorted(read))}"
    elif entry is not None and kind == "stat":  # the participant's own: ogre's cover
        hint = f"{key} is a setting, and {path.split('.')[0]}'s is --vary {entry}=…"
    else:
        hint = f"{key} is a {other[0]}: --vary {other[1]}…"
    raise InvalidInput(
        f"--vary {path}: {ruleset.title} reads no {kind} {key!r}, so the sweep would change "
        f"nothing (a {kind} of your own is kept, but no rule reads it); {hint}", path=path)


def _set_path(obj: Any, keys: list[str], value: Any, path: str) -> None:
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        if isinstance(obj, list):
            if not key.isdigit() or int(key) >= len(obj):
                raise InvalidInput(f"--vary {path}: {key!r} is not an index of a list of "
                                   f"{len(obj)}")
            if last:
                obj[int(key)] = value
            else:
                obj = obj[int(key)]
        elif isinstance(obj, dict):
            if last:
                obj[key] = value
            else:
                obj = obj.setdefault(key, {})
        else:
            raise InvalidInput(f"--vary {path}: {'.'.join(keys[:i])} is not a table")


def _set_pcs(data: dict[str, Any], ruleset: Ruleset, value: Any) -> None:
    """The first ``value`` player characters of the set-up's JSON form ``data``, and copies
    of the last one beyond those it has, with the settings that name them recast."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInput(f"--vary pcs={value!r}: the number of player characters is a whole "
                           "number ≥ 0")
    pcs = [p for p in data["participants"] if p["kind"] == "pc"]
    if not pcs:
        raise InvalidInput("--vary pcs: the scenario has no player characters")
    keep = {p["id"] for p in pcs[:value]}
    parts = [p for p in data["participants"] if p["kind"] != "pc" or p["id"] in keep]
    cast: dict[str, list[str]] = {p["id"]: [] for p in pcs[value:]}
    last, taken = pcs[-1]["id"], {p["id"] for p in data["participants"]}
    number = 1
    for _ in range(value - len(pcs)):
        number, pid = _free_copy_id(last, number + 1, taken)
        copy = json.loads(json.dumps(pcs[-1]))
        copy["id"], copy["name"] = pid, f"{pcs[-1]['name']} {number}"
        parts.append(copy)
        taken.add(pid)
        cast.setdefault(last, [last]).append(pid)
    data["participants"] = parts
    data["settings"] = ruleset.recast_settings(data["settings"], cast)


def _free_copy_id(pid: str, number: int, taken: set[str]) -> tuple[int, str]:
    """The first number from ``number`` on whose copy id (``bruno-2``; ``pid`` cut short to
    stay an id's length) nobody has, and that id."""
    while True:
        suffix = f"-{number}"
        copy = pid[:MAX_ID_CHARS - len(suffix)] + suffix
        if copy not in taken:
            return number, copy
        number += 1


@dataclass(frozen=True, slots=True)
class SimSides:
    """Who is on which side for the simulation, and the pseudo-player playing each side."""

    side_of: dict[str, str] = field(default_factory=dict)  # participant → side
    player_of: dict[str, str] = field(default_factory=dict)  # side → pseudo-player

    @property
    def sides(self) -> list[str]:
        """The sides, in set-up order."""
        return list(self.player_of)


def sim_side(p: ParticipantSetup) -> str:
    """A participant's side; one without a side is on ``pcs`` (a PC) or ``npcs``."""
    return side_or_default(p.side, p.kind)


def side_or_default(side: str | None, kind: str | None) -> str:
    """``side``, or ``pcs`` for a PC without one and ``npcs`` for anyone else."""
    return side or ("pcs" if kind == "pc" else "npcs")


def with_side_players(setup: Setup) -> tuple[Setup, SimSides]:
    """A copy of the set-up where each side's characters are owned by one pseudo-player
    (``sim1``, ``sim2``, …), so an agent sees exactly what that side's player would see."""
    side_of = {p.id: sim_side(p) for p in setup.participants}
    player_of: dict[str, str] = {}
    for side in side_of.values():
        player_of.setdefault(side, f"sim{len(player_of) + 1}")
    parts = [p.model_copy(update={"player": player_of[side_of[p.id]]})
             for p in setup.participants]
    return setup.model_copy(update={"participants": parts}), SimSides(side_of, player_of)
