"""GM-only stats on a player's OWN character, for the secret hunts (docs/scenarios.md, "GM-only
stats": the player of that very character does not see them either).

:func:`own_secrets` draws which of a bundled scenario's player characters keeps which of its
stats from its own player, and gives each such stat a *canary*: a value no public number or
word of the scenario can equal, with the patterns that would tell it in what a player receives
(a view, a log, a sentence, an offered command, a refusal). A pattern matches the value itself
and what a rule shows of it directly (a pool of 24 dice reads ``24d6``); what is derived with
other numbers (a total) is the marks' business, and the differential tests' beside them.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from fracas.app.scenario import load_scenario
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict
from fracas.engine.legal import LegalCommand
from fracas.engine.setup import Setup
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from fracas.sim.encounter import prepare
from fracas.sim.job import SimJob


def num(n: int) -> str:
    """A pattern of the number ``n`` standing alone (not a percentage, not an entry's ``#n``,
    not a part of a longer number or word)."""
    return rf"(?<![\w#.]){n}(?![\w%])"


@dataclass(frozen=True, slots=True)
class Canary:
    """One GM-only stat of the player's own character: its key, its value and what would
    tell it (regular expressions)."""

    key: str
    value: Any
    told: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OwnSecrets:
    """A scenario's conflict in which ``pid`` (``player``'s) keeps ``canaries`` GM-only."""

    conflict: Conflict
    pid: str
    player: str
    canaries: tuple[Canary, ...]
    probes: tuple[str, ...]  # commands of the player's that ask the rules about a secret
    gm: tuple[str, ...]  # the GM's commands on the character (harm, a recovery)

    def found(self, text: str) -> list[tuple[str, str]]:
        """The (key, match) of each canary ``text`` tells."""
        out = []
        for canary in self.canaries:
            for pattern in canary.told:
                m = re.search(pattern, text)
                if m:
                    lo = max(0, m.start() - 160)
                    out.append((canary.key, text[lo:m.end() + 60]))
        return out


# --- the canaries of each ruleset -----------------------------------------------------


def _etherscope(stats: dict[str, Any]) -> list[Canary]:
    skills = {k: 24 for k in (stats.get("skills") or {})} | {"zqskill": 24}
    return [
        Canary("physical", 87, (num(87),)), Canary("ether", 88, (num(88),)),
        Canary("society", 89, (num(89),)),
        Canary("awareness", 23, (r"\b23d\d", r'"pool": 23\b')),
        Canary("pool", 25, (r"\b25d\d", r'"pool": 25\b')),
        Canary("skills", skills, (r"\b24d\d", r'"pool": 24\b', "zqskill")),
    ]


def _fabula_ultima(others: list[dict[str, Any]]) -> list[Canary]:
    used = {o.get(a) for o in others for a in ("dex", "ins", "mig", "wlp")}
    free = [size for size in (12, 10, 6, 8) if size not in used]
    words = " ".join(str(o.get("affinities", "")) for o in others)
    gear = [{"kind": "weapon", "name": "Zqblade", "accuracy": "dex+mig", "bonus": 3,
             "damage": 29},
            {"kind": "armor", "name": "Zqmail", "init": -7, "defense": 3}]
    out = [Canary("hp", 947, (num(947),)), Canary("mp", 833, (num(833),)),
           Canary("ip", 77, (num(77),)), Canary("fp", 66, (num(66),)),
           # -41: a total may come to it (and a total stays the player's to read)
           Canary("init_mod", -41, (r'"init_mod": -41\b', r'"own_modifier": -41\b',
                                    r"\}-41\b")),
           # a Defense is at most 50, where a pool may stand by chance (HP 47 of 50): told
           # as the stat, a check's DL or "vs 47"
           Canary("defense", 47, (r'"(defense|dl)": 47\b', r"\bvs 47\b", r"\bDEF:? 47\b")),
           Canary("mdef", 48, (r'"(mdef|dl)": 48\b', r"\bvs 48\b", r"\bM\.?DEF:? 48\b")),
           Canary("equipment", gear, ("Zqblade", "Zqmail", r"HR ?\+ ?29")),
           Canary("goal", "zqgoal: the secret one", ("zqgoal",))]
    bonded = [o["id"] for o in others if o.get("kind") == "pc"]
    if bonded:
        out.append(Canary("bonds", {bonded[0]: 9}, (r"bond \+9", r'"bond": 9\b')))
    if "absorb" not in words:
        out.append(Canary("affinities", {"poison": "absorb"}, ("absorb",)))
    if free:  # a die size nobody else has: its name tells it
        size = free[0]
        out += [Canary(a, size, (rf"\bd{size}\b",)) for a in ("dex", "ins", "mig", "wlp")]
    return out


def _vers(stats: dict[str, Any], name: str) -> list[Canary]:
    skills = {k: 19 for k in (stats.get("skills") or {})} | {"close_combat": 19}
    tn = {k: 39 for k in (*skills, "athletics", "ranged_combat", "discipline")}
    return [
        Canary("weapons", {"zqblade": {"ev": 37, "kind": "close"},
                           "zqbow": {"ev": 38, "kind": "ranged"}},
               ("zqblade", "zqbow", r"EV 3[78]\b", r'"ev": 3[78]\b')),
        Canary("tn", tn, (r"TN 39\b", r'"tn": 39\b')),
        Canary("skills", skills, (rf"19 {re.escape(name)}'s",)),
        Canary("rv", 19, (r"RV 19\b", r'"rv": 19\b')),
        Canary("focus_rv", 17, (r"RV 17\b",)), Canary("morale_rv", 18, (r"RV 18\b",)),
        Canary("dodge", 33, (num(33),)), Canary("resolve", 34, (num(34),)),
        Canary("poise", 35, (num(35),)),
    ]


def _probes(ruleset: str, pid: str, foes: list[str]) -> tuple[list[str], list[str]]:
    """Commands of the player's that ask the rules about one of the character's stats, and
    the GM's on it, for each ruleset."""
    foe = foes[0] if foes else pid
    if ruleset == "etherscope":
        return ([f"{pid}: declare 99", f"{pid}: declare 50", f"{pid}: awareness dice=5,6",
                 f"{pid}: attack {foe} dice=5,6", f"{pid}: attack {foe} skill=zqskill dice=6",
                 f"{pid}: recover dice=6,6,6"],
                [f"damage {pid} 2"])
    if ruleset == "fabula-ultima":
        return ([f"{pid}: spend mp 900", f"{pid}: spend ip 70", f"{pid}: spend hp 900",
                 f"{pid}: fabula -60", f"{pid}: spell Zqspell mp=900 target={foe}",
                 f"{pid}: attack {foe} weapon=zqnone", f"{pid}: check dex+ins 10 dice=12,12",
                 f"{pid}: attack {foe} dice=12,12", f"{pid}: initiative dice=12,12"],
                [f"damage {pid} 7 type=poison", f"recover {pid} 3 pool=mp",
                 f"recover {pid} 2 pool=hp"])
    return ([f"{pid}: attack {foe} weapon=zqnone", f"{pid}: attack {foe}",
             f"{pid}: recover", f"{pid}: endure"],
            [f"harm {pid} 9", f"harm {pid} 6 track=focus"])


@cache
def _scenario(name: str) -> tuple[dict[str, Any], tuple[Command, ...]]:
    sc = load_scenario(name)
    return sc.setup.model_dump(), prepare(SimJob(sc.text, name, 1, "own")).prologue


@st.composite
def own_secrets(draw: st.DrawFn, name: str) -> OwnSecrets:
    """A bundled scenario's conflict, at its start (its script not played: the start is where
    checks like Fabula Ultima's initiative roll), in which one player character keeps a drawn
    set of its stats GM-only, each with a canary value."""
    data, prologue = _scenario(name)
    data = copy.deepcopy(data)
    pcs = [p for p in data["participants"] if p.get("player")]
    me = draw(st.sampled_from(pcs))
    others = [p for p in data["participants"] if p is not me]
    flat = [{**p["stats"], "id": p["id"], "kind": p.get("kind")} for p in others]
    ruleset = data["ruleset"]
    if ruleset == "etherscope":
        canaries = _etherscope(me["stats"])
    elif ruleset == "fabula-ultima":
        canaries = _fabula_ultima(flat)
    else:
        canaries = _vers(me["stats"], me["name"])
    chosen = draw(st.lists(st.sampled_from(canaries), min_size=1, max_size=4,
                           unique_by=lambda c: c.key))
    me["stats"].update({c.key: copy.deepcopy(c.value) for c in chosen})
    me["gm_only"] = sorted({*me.get("gm_only", []), *(c.key for c in chosen)})
    setup = Setup.model_validate(data)
    conflict = Conflict.create(get_ruleset(ruleset), setup, f"own-{name}", time="")
    for command in prologue:  # the table's opening (a VERS chase)
        try:
            conflict.execute(command, time="")
        except FracasError:
            break
    foes = [p["id"] for p in others if p.get("side") != me.get("side") or p.get("side") is None]
    probes, gm = _probes(ruleset, me["id"], foes)
    return OwnSecrets(conflict, me["id"], me["player"], tuple(chosen), tuple(probes), tuple(gm))


def playable(lc: LegalCommand) -> bool:
    """Whether every value ``lc`` still needs is one the rules list (or free text)."""
    return lc.verb not in ("undo", "redo", "end") and all(
        p.is_fixed or not p.required or p.kind == "text"
        or (p.allowed is not None and not p.placeholder) for p in lc.params)


@st.composite
def filled(draw: st.DrawFn, lc: LegalCommand) -> dict[str, Any]:
    """``lc`` with a listed value for each value it needs, and now and then for an optional
    one (the command's JSON form)."""
    values: dict[str, Any] = {}
    for p in lc.params:
        if p.is_fixed:
            continue
        if p.allowed and (p.required or draw(st.integers(0, 3)) == 0):
            values[p.name] = draw(st.sampled_from(p.allowed))
        elif p.required and p.kind == "text":
            values[p.name] = "for the hunt"
    return lc.command(**values)
