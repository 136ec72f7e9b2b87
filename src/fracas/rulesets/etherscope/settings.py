"""Etherscope set-up: nature, reality, time scale, range scaling and the [default] numbers.

:func:`normalise` checks a scenario's ``[settings]`` and fills in every default, so the state's
settings always hold the full, validated set (shown to the GM; ``fracas rules etherscope``
lists the rules they configure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fracas.engine.limits import spelled
from fracas.engine.ruleset import recast_ids
from fracas.errors import InvalidInput

NATURES = ("physical", "mental", "social")
REALITIES = ("prime", "ether")
TIME_SCALES = ("fast", "quick", "tactical", "strategic", "logistic")  # fastest first
#: How long a round of each time scale lasts (ES-SET-4): the distances some bands mean hang on it.
ROUND_LENGTHS = {"fast": "a few seconds", "quick": "about a minute",
                 "tactical": "about 10 minutes", "strategic": "about an hour and a half",
                 "logistic": "a day"}
BANDS = ("close", "near", "distant")
#: What a conflict is where its scenario leaves a set-up choice out.
SETUP_DEFAULTS = {"nature": "physical", "reality": "prime", "time_scale": "quick",
                  "range_scaling": "battlefield"}

#: Range scalings of the seed (ES-SET-6): close, near, distant meanings.
SCALINGS: dict[str, tuple[str, str, str]] = {
    "restricted": (
        "about 2-3 inches away",
        "about a foot away",
        "anything beyond about 5 feet",
    ),
    "battlefield": (
        "melee fighting distance, about 5 feet",
        "up to one move in a round of {round} (say 30 feet in a Quick conflict)",
        "beyond that, yet still within range of perception",
    ),
    "chase": (
        "alongside each other",
        "quite close, one behind the other",
        "further away than the distance moved in one round of {round}",
    ),
    "global": (
        "in physical perceptible range",
        "in the same city, region or domain (if in the scope)",
        "as far away as another country or scope city",
    ),
    "familiarity": (
        "very close: immediate family or a close friend",
        "known to some extent: an acquaintance or an enemy",
        "unknown, or met only once or twice",
    ),
    "status": (
        "the same social circles: same town, similar levels (within one) in the same "
        "Standing gear as their highest",
        "a shared Standing gear, at any level",
        "no shared Standing gear",
    ),
}

#: The [default] numbers of the rules file, all settings.
#: The highest value of each number setting (others: 100): a die of at most 1000 faces, a
#: default pool no larger than a skill's (0-30, docs/limits.md).
HIGHEST: dict[str, int] = {"die_size": 1000, "threshold": 1000, "default_pool": 30}

#: The lowest value of a number setting (others: 0): a die has two faces at least, a
#: success needs a die of 1 or more, a zoom runs a round, and two actions of one character
#: are one initiative step apart at least (0 would let them share a score).
LOWEST: dict[str, int] = {"die_size": 2, "threshold": 1, "zoom_rounds": 1, "min_gap": 1}

#: What a number setting takes, said when it is out of range, and its rule.
TAKES: dict[str, tuple[str, str]] = {
    "min_gap": ("the fewest initiative steps between two acting initiatives of one "
                "character (the seed's 5; 1 lets any two different scores)",
                "ES-ROUND-3"),
}

def min_gap(settings: dict[str, Any]) -> int:
    """The fewest initiative steps between two acting initiatives of one character
    (ES-ROUND-3). A conflict stored before a gap below 1 was refused at set-up may hold 0:
    it plays by 1, the least gap the rules take (two actions never share a score)."""
    return max(LOWEST["min_gap"], int(settings["min_gap"]))


def stored(settings: dict[str, Any]) -> dict[str, Any]:
    """A stored conflict's settings as the set-up checks read them now: a ``min_gap`` of 0
    (taken before it was refused) as :func:`min_gap` plays it."""
    if "min_gap" not in settings or min_gap(settings) == settings["min_gap"]:
        return settings
    return {**settings, "min_gap": min_gap(settings)}


NUMBERS: dict[str, int] = {
    "die_size": 6,  # ES-ACT-4 pool die
    "threshold": 5,  # ES-ACT-4 a die this high or higher is a success
    "default_pool": 2,  # ES-ACT-4 dice when a character has no rating for the skill
    "default_difficulty": 1,  # ES-ACT-4
    "extra_cost": 1,  # ES-ACT-5 extra successes per extra
    "push_two_cost": 1,  # ES-ACT-5 Push Back's second category
    "push_damage_per_extra": 1,  # ES-ACT-5 Push Back's damage per extra spent
    "attack_damage": 1,  # ES-DMG-2 damage of a successful attack
    "off_nature_damage": 1,  # ES-SET-3
    "recover_amount": 1,  # Recover [default]
    "min_gap": 5,  # ES-ROUND-3
    "zoom_rounds": 5,  # ES-ACT-1
}

#: Default actions: their default skill and difficulty ([default], configurable under
#: ``[settings.actions.NAME]``).
ACTIONS: dict[str, dict[str, Any]] = {
    "push": {"skill": "", "difficulty": None},
    "attack": {"skill": "", "difficulty": None},
    "move": {"skill": "", "difficulty": None},
    "hide": {"skill": "", "difficulty": None},
    "search": {"skill": "", "difficulty": None},
    "recover": {"skill": "", "difficulty": None},
}

GM_ONLY = ["lurking", "ranges", "groups"]

#: Every setting Etherscope reads (an unknown key is refused: Ruleset.check_setting_names).
KNOWN = frozenset({
    "nature", "reality", "time_scale", "range_scaling", "custom_scaling", "awareness_skill",
    "ranges", "groups", "lurking", "actions", "gm_only_settings", "harm_view", *NUMBERS,
})


def _choice(settings: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    raw = settings.get(key, default)
    value = str(raw).strip().lower()
    if value not in choices:
        raise InvalidInput(
            f"settings.{key} is {raw!r}; use one of {', '.join(choices)}", key=key, value=raw
        )
    return value


def band_of(raw: Any, key: str) -> int:
    """A band name (close/near/distant) or 0..2 as its number; InvalidInput naming ``key``."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= 2:
        return raw
    text = str(raw).strip().lower()
    if text in BANDS:
        return BANDS.index(text)
    raise InvalidInput(f"{key} is {raw!r}; use close, near or distant", key=key, value=raw)


def normalise(settings: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    """The settings checked and completed with every default (InvalidInput names the key)."""
    out: dict[str, Any] = {
        "nature": _choice(settings, "nature", NATURES, SETUP_DEFAULTS["nature"]),
        "reality": _choice(settings, "reality", REALITIES, SETUP_DEFAULTS["reality"]),
        "time_scale": _choice(settings, "time_scale", TIME_SCALES, SETUP_DEFAULTS["time_scale"]),
        "range_scaling": _choice(settings, "range_scaling", (*SCALINGS, "custom"),
                                 SETUP_DEFAULTS["range_scaling"]),
    }
    if out["range_scaling"] == "custom":
        custom = settings.get("custom_scaling")
        if not isinstance(custom, dict) or not all(
            isinstance(custom.get(b), str) and custom.get(b) for b in BANDS
        ):
            raise InvalidInput(
                "settings.custom_scaling needs close, near and distant texts for a custom "
                "range scaling (ES-SET-6)", key="custom_scaling")
        out["custom_scaling"] = {
            "name": str(custom.get("name", "custom")), **{b: str(custom[b]) for b in BANDS}}
    elif "custom_scaling" in settings:
        raise InvalidInput("settings.custom_scaling is only for range_scaling = \"custom\"",
                           key="custom_scaling")
    for key, default in NUMBERS.items():
        value = settings.get(key, default)
        low, high = LOWEST.get(key, 0), HIGHEST.get(key, 100)
        whole = isinstance(value, int) and not isinstance(value, bool)
        if key in TAKES and not (whole and low <= value <= high):
            what, rule = TAKES[key]
            raise InvalidInput(f"settings.{key} takes a whole number from {low} to {high}, "
                               f"not {spelled(value)}: {what}", key=key, rule=rule)
        if not whole:
            raise InvalidInput(f"settings.{key} must be a whole number, not {spelled(value)}",
                               key=key)
        if value < low:
            raise InvalidInput(f"settings.{key} must be at least {low}, not {value}", key=key)
        if value > high:  # a pool of more dice, or of dice of more faces, than a roll holds
            raise InvalidInput(f"settings.{key} is {value}; it goes up to {high} (the limit "
                               "on this setting)", key=key)
        out[key] = value
    if out["threshold"] > out["die_size"]:
        raise InvalidInput(
            f"settings.threshold {out['threshold']} is higher than the die size "
            f"{out['die_size']}: no die could succeed", key="threshold")
    out["awareness_skill"] = str(settings.get("awareness_skill", "awareness"))
    out["actions"] = _actions(settings.get("actions", {}))
    out["ranges"] = _ranges(settings.get("ranges", {}), ids)
    out["groups"] = _groups(settings.get("groups", {}), ids)
    out["lurking"] = _lurking(settings.get("lurking", {}), ids)
    # a list of names (fracas.engine.limits.check_gm_only_settings): the GM's, and those
    # Etherscope always keeps to the GM
    out["gm_only_settings"] = sorted({*GM_ONLY, *settings.get("gm_only_settings", [])})
    if "harm_view" in settings:  # what players see of others' harm (fracas.engine.harm_view)
        out["harm_view"] = settings["harm_view"]
    return out


def _actions(raw: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(raw, dict):
        raise InvalidInput("settings.actions must be a table of actions", key="actions")
    out = {name: dict(spec) for name, spec in ACTIONS.items()}
    for name, spec in raw.items():
        if name not in ACTIONS or not isinstance(spec, dict):
            raise InvalidInput(
                f"settings.actions.{name}: configure one of {', '.join(ACTIONS)} with skill "
                "and difficulty", key=f"actions.{name}")
        for k, v in spec.items():
            if k == "skill" and isinstance(v, str):
                out[name]["skill"] = v
            elif k == "difficulty" and (v is None or (
                    isinstance(v, int) and not isinstance(v, bool) and v >= 0)):
                out[name]["difficulty"] = v  # None: the conflict's default difficulty
            else:
                raise InvalidInput(
                    f"settings.actions.{name}.{k} = {v!r}: use skill (text) or difficulty "
                    "(a whole number, 0 or more)", key=f"actions.{name}.{k}")
    return out


def _known(pid: Any, ids: list[str], key: str) -> str:
    if pid not in ids:
        raise InvalidInput(f"{key} names {pid!r}, who is not a participant", key=key)
    return str(pid)


def _ranges(raw: Any, ids: list[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidInput("settings.ranges must be a table (default, pairs)", key="ranges")
    for k in raw:
        if k not in ("default", "pairs"):
            raise InvalidInput(f"settings.ranges.{k}: use default or pairs", key=f"ranges.{k}")
    default = band_of(raw.get("default", "near"), "settings.ranges.default")
    pairs = []
    if not isinstance(raw.get("pairs", []), list):
        raise InvalidInput("settings.ranges.pairs must be a list of [A, B, BAND]",
                           key="ranges.pairs")
    for i, pair in enumerate(raw.get("pairs", [])):
        key = f"settings.ranges.pairs[{i}]"
        if not isinstance(pair, list) or len(pair) != 3:
            raise InvalidInput(f"{key} must be [A, B, BAND]", key=key)
        a, b = _known(pair[0], ids, key), _known(pair[1], ids, key)
        if a == b:
            raise InvalidInput(f"{key} pairs {a} with itself", key=key)
        pairs.append([a, b, band_of(pair[2], key)])
    return {"default": default, "pairs": pairs}


def _groups(raw: Any, ids: list[str]) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        raise InvalidInput("settings.groups must be a table NAME = [ids]", key="groups")
    out: dict[str, list[str]] = {}
    for name, members in raw.items():
        key = f"settings.groups.{name}"
        if name in ids:
            raise InvalidInput(f"{key}: a group cannot share a participant's id", key=key,
                               rule="ES-START-6")
        if not isinstance(members, list) or len(members) < 2:
            raise InvalidInput(f"{key} needs at least two members", key=key)
        out[str(name)] = [_known(m, ids, key) for m in members]
    return out


def _lurking(raw: Any, ids: list[str]) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        raise InvalidInput("settings.lurking must be a table AMBUSHER = [targets]",
                           key="lurking")
    out: dict[str, list[str]] = {}
    for pid, targets in raw.items():
        key = f"settings.lurking.{pid}"
        _known(pid, ids, key)
        if not isinstance(targets, list) or not targets:
            raise InvalidInput(f"{key} must list the characters it is hidden from", key=key)
        out[str(pid)] = [_known(t, ids, key) for t in targets if t != pid]
    return out


def recast(settings: dict[str, Any], cast: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """``settings`` for another cast (:meth:`Ruleset.recast_settings`): a range pair for
    every pair of those its two become, groups and ambushers (and whom they hide from)
    recast; a group the recasting leaves with fewer than two, or an ambusher with no one left
    to hide from, is left out (one given short from the start stays, for the set-up to
    refuse)."""
    out = dict(settings)
    ranges, groups, lurking = (settings.get(k) for k in ("ranges", "groups", "lurking"))
    if isinstance(ranges, dict) and isinstance(pairs := ranges.get("pairs"), list) \
            and all(isinstance(p, list) and len(p) == 3 for p in pairs):
        out["ranges"] = {**ranges, "pairs": [
            [a, b, band] for x, y, band in pairs
            for a in recast_ids([x], cast) for b in recast_ids([y], cast)]}
    if isinstance(groups, dict) and all(isinstance(m, list) for m in groups.values()):
        out["groups"] = {name: kept for name, members in groups.items()
                         if len(kept := recast_ids(members, cast)) >= 2 or len(members) < 2}
    if isinstance(lurking, dict) and all(isinstance(t, list) for t in lurking.values()):
        out["lurking"] = {new: kept for pid, targets in lurking.items()
                          for new in recast_ids([pid], cast)
                          if (kept := [t for t in recast_ids(targets, cast) if t != new])
                          or not targets}
    return out


def condenser_of(settings: dict[str, Any]) -> str:
    """The conflict's condenser (ES-ROUND-1): physical, ether or society."""
    if settings["nature"] == "social":
        return "society"
    if settings["nature"] == "mental" or settings["reality"] == "ether":
        return "ether"
    return "physical"


def scaling_meanings(settings: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The scaling's name and what Close, Near and Distant mean in it (ES-SET-6)."""
    name = settings["range_scaling"]
    if name == "custom":
        custom = settings["custom_scaling"]
        return custom["name"], {b: custom[b] for b in BANDS}
    length = ROUND_LENGTHS[settings["time_scale"]]
    return name, {b: text.format(round=length)
                  for b, text in zip(BANDS, SCALINGS[name], strict=True)}


def table_line(settings: dict[str, Any]) -> str:
    """The line the GM reads to the table (ES-SET-7)."""
    name, _ = scaling_meanings(settings)
    article = "an" if settings["reality"][0] in "aeiou" else "a"
    return (f"This is {article} {settings['reality']}, {settings['nature']}, "
            f"{settings['time_scale']}, {name} scale conflict.")


def meaning_lines(settings: dict[str, Any]) -> list[str]:
    """One line per band: what it means in this scaling."""
    _, meanings = scaling_meanings(settings)
    return [f"{b.capitalize()}: {meanings[b]}" for b in BANDS]


def faster(time_scale: str) -> str | None:
    """The time scale one step faster, or None for Fast (ES-ACT-1, ES-ACT-2)."""
    i = TIME_SCALES.index(time_scale)
    return TIME_SCALES[i - 1] if i > 0 else None
