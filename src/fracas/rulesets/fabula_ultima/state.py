"""Fabula Ultima's part of the conflict state, participant stats and the check arithmetic.

Stats (``Participant.stats``, lower-case keys): ``dex ins mig wlp`` die sizes (6/8/10/12),
``hp mp ip`` maxima, ``fp`` starting Fabula Points (PCs, default 3), ``rank`` (soldier, elite,
champion with ``replaces`` N, or ``"champion 3"``), ``defense``/``mdef`` (default: the current
DEX / INS die size), ``init_mod``, ``initiative`` (an NPC sheet value, wins over FU-CON-4),
``affinities`` (damage type → vulnerable/resistant/immune/absorb), ``equipment`` (items),
``spells`` (those it knows, each cast with one tap), ``bonds`` (PC id → strength), ``extra``
(takes no turns, FU-CON-1) and ``goal`` (a text).
Any other key is the GM's own (a note, a weakness): kept and shown, read by no rule.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from fracas.engine.components import AlternatingSides, ResourcePool
from fracas.engine.limits import as_int, refuse_foreign_digits, spelled
from fracas.engine.model import ConflictState, Kind, Participant
from fracas.engine.suggest import did_you_mean, refuse_mistyped_stats
from fracas.errors import InvalidInput
from fracas.rulesets.fabula_ultima.limits import MAX_REPLACED

ATTRIBUTES = ("dex", "ins", "mig", "wlp")
DIE_SIZES = (6, 8, 10, 12)
DAMAGE_TYPES = ("physical", "air", "bolt", "dark", "earth", "fire", "ice", "light", "poison")
AFFINITIES = {"vulnerable": "vulnerable", "vu": "vulnerable", "resistant": "resistant",
              "rs": "resistant", "immune": "immune", "im": "immune", "absorb": "absorb",
              "ab": "absorb"}
#: FU-RES-4: which attributes each status effect steps down.
STATUSES: dict[str, tuple[str, ...]] = {
    "dazed": ("ins",), "shaken": ("wlp",), "slow": ("dex",), "weak": ("mig",),
    "enraged": ("dex", "ins"), "poisoned": ("mig", "wlp"),
}
ITEM_KINDS = ("armor", "shield", "weapon", "accessory")
STAT_KEYS = frozenset({
    *ATTRIBUTES, "hp", "mp", "ip", "fp", "rank", "replaces", "defense", "mdef", "init_mod",
    "initiative", "affinities", "equipment", "spells", "bonds", "extra", "goal",
})
_DIE_TEXT = re.compile(r"[dD](6|8|10|12)")
_RANK = re.compile(r"^(soldier|elite|champion)\s*\(?\s*(\d+)?\s*\)?$", re.ASCII)


@dataclass(slots=True)
class Item:
    """An equipped item: armor/shield (initiative modifier, defense bonuses) or a weapon."""

    kind: str
    name: str
    init: int = 0
    defense: int = 0
    mdef: int = 0
    accuracy: list[str] = field(default_factory=lambda: ["dex", "mig"])
    bonus: int = 0
    damage: int = 0
    type: str = "physical"

    def text(self) -> str:
        """``Iron sword (weapon, {DEX+MIG}+1, HR+6 physical)``, ``Bronze plate (armor,
        initiative -2, Defense +1)``: every modifier the rules add, whatever the kind (a
        weapon typed with ``defense=1`` says ``Defense +1``, as it counts)."""
        extra = [f"{what} {n:+d}" for what, n in (("initiative", self.init),
                                                   ("Defense", self.defense),
                                                   ("Magic Defense", self.mdef)) if n]
        if self.kind == "weapon":
            acc = "+".join(a.upper() for a in self.accuracy)
            bonus = f"{self.bonus:+d}" if self.bonus else ""
            extra.insert(0, f"{{{acc}}}{bonus}, HR+{self.damage} {self.type}")
        return f"{self.name} ({', '.join([self.kind, *extra])})"


#: Whom a spell on a sheet is cast on: a foe (a Magic Check against its Magic Defense), an
#: ally or the caster (it takes effect; with damage, a Magic Check), or nobody (FU-RES-3).
SPELL_TARGETS = ("foe", "ally", "self", "none")
#: What a spell on a sheet is written with.
SPELL_KEYS = ("name", "mp", "target", "damage", "type", "accuracy", "recover", "recover_mp",
              "status")
#: What a spell may restore to its target, by the pool it fills (FU-RES-1).
RECOVERIES = {"recover": "hp", "recover_mp": "mp"}


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell a character knows (its sheet's ``spells``): the ``spell`` command it stands for,
    all but the target filled in."""

    name: str
    mp: int = 0
    target: str = "foe"
    damage: int | None = None
    type: str = "physical"
    accuracy: str = "ins+wlp"
    #: HP and MP it restores to its target (0: none), up to the maximum (FU-RES-1)
    recover: int = 0
    recover_mp: int = 0
    #: the status effect it puts on its target (FU-RES-4): on a hit of its Magic Check, or as
    #: it takes effect on an ally with no check; None: none
    status: str | None = None

    @property
    def rolls(self) -> bool:
        """Whether casting it is a Magic Check: on a foe, or dealing damage (FU-RES-3)."""
        return self.target == "foe" or self.damage is not None

    def args(self) -> dict[str, Any]:
        """The values of its ``spell`` command besides the target: what the rules read."""
        out: dict[str, Any] = {"name": self.name, "mp": self.mp}
        if self.damage is not None:
            out.update(damage=self.damage, type=self.type)
        if self.rolls and self.accuracy != "ins+wlp":
            out["accuracy"] = self.accuracy
        out.update({key: n for key, n in (("recover", self.recover),
                                          ("recover_mp", self.recover_mp)) if n})
        if self.status is not None:
            out["status"] = self.status
        return out

    def text(self) -> str:
        """``Fire blast (10 MP, a foe, {INS+WLP}, HR+15 fire)``, ``Heal (10 MP, an ally,
        recovers 40 HP)``, ``Hex (10 MP, a foe, {INS+WLP}, inflicts Dazed)``: what the sheet
        shows."""
        on = {"foe": "a foe", "ally": "an ally", "self": "self", "none": "no target"}
        parts = [f"{self.mp} MP", on[self.target]]
        if self.rolls:
            parts.append("{" + self.accuracy.upper() + "}")
        if self.damage is not None:
            parts.append(f"HR+{self.damage} {self.type}")
        restored = [f"{n} {pool}" for n, pool in ((self.recover, "HP"), (self.recover_mp, "MP"))
                    if n]
        if restored:
            parts.append("recovers " + " and ".join(restored))
        if self.status is not None:
            parts.append(f"inflicts {self.status.title()}")
        return f"{self.name} ({', '.join(parts)})"


@dataclass
class FabulaExt:
    """The ruleset's state: sides, turn order, pools, statuses, Fabula Points, goals, gear."""

    pc_side: str = "pcs"
    foe_side: str = "foes"
    order: AlternatingSides | None = None
    hp: dict[str, ResourcePool] = field(default_factory=dict)
    mp: dict[str, ResourcePool] = field(default_factory=dict)
    ip: dict[str, ResourcePool] = field(default_factory=dict)
    fp: dict[str, int] = field(default_factory=dict)
    statuses: dict[str, list[str]] = field(default_factory=dict)
    goals: dict[str, str] = field(default_factory=dict)
    equipment: dict[str, list[Item]] = field(default_factory=dict)
    spells: dict[str, tuple[Spell, ...]] = field(default_factory=dict)
    extras: list[str] = field(default_factory=list)
    initiative: dict[str, Any] | None = None  # the group check's outcome
    #: The current round has ended (``round_ended`` logged) and the next has not begun: it
    #: begins with the next turn taken, only if the conflict goes on (FU-CON-10).
    round_closed: bool = False


# --------------------------------------------------------------------------- stats


def bad(pid: str, message: str, rule: str | None = None, **values: Any) -> InvalidInput:
    """An InvalidInput about participant ``pid``'s stats."""
    return InvalidInput(f"{pid}: {message}", rule=rule, participant=pid, **values)


def bad_spell(pid: str, message: str, rule: str, key: str = "spells") -> InvalidInput:
    """An InvalidInput about a spell on ``pid``'s sheet: a scenario file's refusal names the
    line of its ``key`` (one a spell has no such key, a recovery), else of ``spells``."""
    return bad(pid, message, rule, key=key)


def check_die(pid: str, what: str, value: Any) -> int:
    """A die size of d6, d8, d10 or d12, written as the number ``10`` or the text ``"d10"``
    (``"D10"`` too), else InvalidInput naming those forms (FU-CHK-1): ``"d 10"``, ``"d+10"``
    or ``"10"`` are no die a sheet writes."""
    size: int | None = None
    if isinstance(value, str):
        match = _DIE_TEXT.fullmatch(refuse_foreign_digits(value, f"{pid}: {what}"))
        size = int(match.group(1)) if match else None
    elif type(value) is int:  # true is no die
        size = value
    if size is not None and size in DIE_SIZES:
        return size
    label = what.upper() if what in ATTRIBUTES else what
    forms = ', written as a number (10) or as "d10"' if what in ATTRIBUTES else ""
    shown = f"d{value}" if type(value) is int else spelled(value)
    raise bad(pid, f"{label} must be a d6, d8, d10 or d12{forms}, not {shown}", "FU-CHK-1",
              value=value)


def parse_rank(pid: str, stats: dict[str, Any]) -> tuple[str, int]:
    """(rank, N) where N is the turns per round: soldier 1, elite 2, champion N (FU-CON-9)."""
    raw = refuse_foreign_digits(str(stats.get("rank", "soldier")).strip().lower(),
                                f"{pid}: rank")
    m = _RANK.match(raw)
    if not m:
        raise bad(pid, f"rank must be soldier, elite or champion N, not {raw!r}", "FU-CON-9")
    rank = m.group(1)
    if rank != "champion" and m.group(2) is not None:  # "soldier 3": a champion meant?
        raise bad(pid, f"only a champion counts the soldiers it replaces; {raw!r} would take "
                       f"{1 if rank == 'soldier' else 2} turn(s): write {rank!r}, or "
                       f"\"champion {m.group(2)}\"", "FU-CON-9")
    if rank == "soldier":
        return rank, 1
    if rank == "elite":
        return rank, 2
    n = m.group(2) or stats.get("replaces")  # a whole number: the stat ranges checked it
    count = as_int(n, f"{pid}: replaces") if n is not None else 0
    if count < 1:
        raise bad(pid, "a champion needs the number of soldiers it replaces "
                       "(rank = \"champion 3\" or replaces = 3)", "FU-CON-9")
    if count > MAX_REPLACED:
        raise bad(pid, f"a champion replaces at most {MAX_REPLACED} soldiers (a turn each), "
                       f"not {count}", "FU-CON-9")
    return rank, count


def make_item(pid: str, data: Any) -> Item:
    """An Item from its JSON form (a table in a scenario), checked."""
    if not isinstance(data, dict):
        raise bad(pid, f"an equipment entry must be a table, not {spelled(data)}", "FU-CON-2")
    if "kind" not in data:  # an armor without its kind would be read as a weapon
        raise bad(pid, f"an equipment entry needs its kind ({', '.join(ITEM_KINDS)}): "
                       f"{spelled(data)}", "FU-CON-2")
    kind = str(data["kind"]).lower()
    if kind not in ITEM_KINDS:
        raise bad(pid, f"item kind must be one of {', '.join(ITEM_KINDS)}, not {kind!r}",
                  "FU-CON-2")
    raw_name = data.get("name", "")
    if not isinstance(raw_name, str):
        raise bad(pid, f"an item's name is text, not {raw_name!r}", "FU-CON-2")
    name = raw_name.strip() or kind
    acc = data.get("accuracy", ["dex", "mig"])
    if isinstance(acc, str):
        acc = [a for a in re.split(r"[+, ]+", acc.lower()) if a]
    acc = [str(a).lower() for a in acc]
    if len(acc) != 2 or any(a not in ATTRIBUTES for a in acc):
        raise bad(pid, f"{name}: accuracy must name two attributes like dex+mig, not {acc}",
                  "FU-CHK-1")
    dtype = str(data.get("type", "physical")).lower()
    if dtype not in DAMAGE_TYPES:
        raise bad(pid, f"{name}: damage type must be one of {', '.join(DAMAGE_TYPES)}",
                  "FU-RES-3")
    try:
        numbers = {k: as_int(data.get(k, 0), f"{pid}: {name}: {k}")
                   for k in ("init", "defense", "mdef", "bonus", "damage")}
    except (TypeError, ValueError):
        raise bad(pid, f"{name}: init, defense, mdef, bonus and damage are whole numbers",
                  "FU-CON-2") from None
    if numbers["damage"] < 0:  # a weapon's damage adds to the roll's high die (FU-CON-2)
        raise bad(pid, f"{name}: damage cannot be negative ({numbers['damage']})", "FU-CON-2")
    return Item(kind=kind, name=name, accuracy=acc, type=dtype, **numbers)


#: What an item is written with (``make_item`` reads these); a weapon's own (an accuracy check
#: and its damage, FU-CON-2) count for nothing on another kind.
ITEM_KEYS = ("kind", "name", "accuracy", "bonus", "damage", "type", "init", "defense", "mdef")
WEAPON_KEYS = ("accuracy", "bonus", "damage", "type")


def check_item(pid: str, data: Any, given: tuple[str, ...] = WEAPON_KEYS) -> Item:
    """:func:`make_item`, refusing what it would pass over: a key it does not read (a typo,
    ``dammage``, would leave the weapon without its damage) and, of those ``given``, a
    weapon's value on another kind (FU-CON-2)."""
    item = make_item(pid, data)
    for key in sorted(set(data) - set(ITEM_KEYS)):
        hint = did_you_mean(str(key).lower(), list(ITEM_KEYS), cutoff=0.6)
        raise bad(pid, f"{item.name}: an item has no {key!r}{hint} (it is written with "
                       f"{', '.join(ITEM_KEYS)})", "FU-CON-2", key=key)
    if item.kind != "weapon":
        for key in given:
            if key in data:
                raise bad(pid, f"{item.name}: {key} is a weapon's (its accuracy check and "
                               f"damage): on {_a(item.kind)} it would count for nothing",
                          "FU-CON-2", key=key)
    return item


def make_spell(pid: str, data: Any) -> Spell:
    """A Spell from its table on a sheet, checked: every key one it is written with, and
    nothing that would count for nothing or be refused when cast (FU-RES-1, FU-RES-3)."""
    if not isinstance(data, dict):
        raise bad_spell(pid, f"a spell must be a table such as {{ name = \"Fire blast\", mp = 10, "
                             f"damage = 15, type = \"fire\" }}, not {spelled(data)}", "FU-RES-3")
    raw_name = data.get("name")
    if not isinstance(raw_name, str) or not raw_name.strip():
        raise bad_spell(pid, f"a spell needs its name (a text): {spelled(data)}", "FU-RES-3")
    name = raw_name.strip()
    for key in sorted(set(data) - set(SPELL_KEYS)):
        hint = did_you_mean(str(key).lower(), list(SPELL_KEYS), cutoff=0.6)
        raise bad_spell(pid, f"{name}: a spell has no {key!r}{hint} (it is written with "
                             f"{', '.join(SPELL_KEYS)})", "FU-RES-3", key=key)
    numbers: dict[str, int] = {}
    for key in ("mp", "damage", *RECOVERIES):
        if key in data:
            value = data[key]
            least = 1 if key in RECOVERIES else 0  # restoring nothing would count for nothing
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                rule = "FU-RES-3" if key == "damage" else "FU-RES-1"
                raise bad_spell(pid, f"{name}: {key} is a whole number, {least} or more, not "
                                     f"{spelled(value)}", rule,
                                key=key if key in RECOVERIES else "spells")
            numbers[key] = value
    target = str(data.get("target", "foe")).strip().lower()
    if target not in SPELL_TARGETS:
        raise bad_spell(pid, f"{name}: target is one of {', '.join(SPELL_TARGETS)}, not "
                             f"{spelled(data.get('target'))}", "FU-RES-3")
    damage = numbers.get("damage")
    if damage is not None and target == "none":
        raise bad_spell(pid, f"{name}: a spell dealing damage is cast on someone: give it target "
                             "foe, ally or self", "FU-RES-3")
    if "type" in data and damage is None:
        raise bad_spell(pid, f"{name}: type is the type of a spell's damage: without damage it "
                             "would count for nothing", "FU-RES-3")
    dtype = str(data.get("type", "physical")).strip().lower()
    if dtype not in DAMAGE_TYPES:
        raise bad_spell(pid, f"{name}: damage type must be one of {', '.join(DAMAGE_TYPES)}",
                        "FU-RES-3")
    restores = [key for key in RECOVERIES if key in numbers]
    if restores and damage is not None:
        raise bad_spell(pid, f"{name}: a spell deals damage (a Magic Check) or restores "
                             f"{RECOVERIES[restores[0]].upper()} ({restores[0]}), not both: make "
                             "them two spells", "FU-RES-3", key=restores[0])
    if restores and target in ("foe", "none"):
        left_out = " (left out, target is foe)" if "target" not in data else ""
        raise bad_spell(pid, f"{name}: a spell that restores "
                             f"{RECOVERIES[restores[0]].upper()} ({restores[0]}) is cast on the "
                             f"caster's side: give it target ally or self{left_out}", "FU-RES-3",
                        key=restores[0])
    status = _spell_status(pid, name, target, data)
    spell = Spell(name, numbers.get("mp", 0), target, damage, dtype,
                  recover=numbers.get("recover", 0), recover_mp=numbers.get("recover_mp", 0),
                  status=status)
    if "accuracy" in data:
        acc = [a for a in re.split(r"[+, ]+", str(data["accuracy"]).lower()) if a]
        if len(acc) != 2 or any(a not in ATTRIBUTES for a in acc):
            raise bad_spell(pid, f"{name}: accuracy must name two attributes like ins+wlp, not "
                                 f"{spelled(data['accuracy'])}", "FU-CHK-1")
        if not spell.rolls:
            raise bad_spell(pid, f"{name}: a spell on {_a(target) if target == 'ally' else target} "
                                 "that deals no damage takes effect with no Magic Check: leave out "
                                 "its accuracy", "FU-RES-3")
        spell = dataclasses.replace(spell, accuracy="+".join(acc))
    return spell


def _spell_status(pid: str, name: str, target: str, data: dict[str, Any]) -> str | None:
    """The status effect a spell's table puts on its target, checked: one the rules know
    (FU-RES-4), on a spell cast on someone (one cast on nobody would put it on no one)."""
    if "status" not in data:
        return None
    raw = data["status"]
    status = raw.strip().lower() if isinstance(raw, str) else None
    if status not in STATUSES:
        hint = did_you_mean(status, list(STATUSES)) if status else ""
        raise bad_spell(pid, f"{name}: status is one of {', '.join(STATUSES)}, not "
                             f"{spelled(raw)}{hint}", "FU-RES-4", key="status")
    if target == "none":
        raise bad_spell(pid, f"{name}: a spell that inflicts a status is cast on someone: give "
                             "it target foe, ally or self", "FU-RES-4", key="status")
    return status


def check_spells(pid: str, spells: Any) -> tuple[Spell, ...]:
    """The spells of a sheet, each checked, no name twice."""
    if not isinstance(spells, list):
        raise bad_spell(pid, "spells is a list of tables such as [{ name = \"Fire blast\", "
                             f"mp = 10, damage = 15, type = \"fire\" }}], not {spelled(spells)}",
                        "FU-RES-3")
    out = tuple(make_spell(pid, s) for s in spells)
    seen: set[str] = set()
    for spell in out:
        if spell.name.lower() in seen:
            raise bad_spell(pid, f"the spell {spell.name!r} is listed twice", "FU-RES-3")
        seen.add(spell.name.lower())
    return out


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def check_stats(pid: str, stats: dict[str, Any]) -> None:
    """Refuse stats a Fabula Ultima participant cannot have (names the key and value).

    A key the rules do not read is the GM's own (``weakness = "afraid of fire"``), kept as
    Etherscope and VERS keep theirs, unless it looks like a mistyped stat (``hpp``, ``DEX``):
    that one would leave the character without the stat it meant."""
    refuse_mistyped_stats(pid, stats, STAT_KEYS, "Fabula Ultima")
    extra = stats.get("extra", False)
    if not isinstance(extra, bool):
        raise bad(pid, f"extra is true or false, not {spelled(extra)}", "FU-CON-1")
    for attr in ATTRIBUTES:
        if attr in stats or not extra:
            if attr not in stats:
                raise bad(pid, f"needs {attr.upper()} (a die size: 6, 8, 10 or 12)", "FU-CHK-1")
            check_die(pid, attr, stats[attr])
    for key in ("hp", "mp", "ip", "fp", "defense", "mdef", "init_mod", "initiative", "replaces"):
        if key in stats and (isinstance(stats[key], bool) or not isinstance(stats[key], int)):
            raise bad(pid, f"{key} must be a whole number, not {spelled(stats[key])}", "FU-RES-1")
    for key in ("hp", "mp", "ip", "fp"):
        if stats.get(key, 0) < 0:
            raise bad(pid, f"{key} cannot be negative ({stats[key]})", "FU-RES-1")
    if not extra and stats.get("hp", 0) < 1:
        raise bad(pid, "needs hp (its maximum Hit Points, at least 1)", "FU-RES-1")
    parse_rank(pid, stats)
    aff = stats.get("affinities", {})
    if not isinstance(aff, dict):
        raise bad(pid, "affinities must be a table such as {fire = \"vulnerable\"}", "FU-RES-3")
    for dtype, value in aff.items():
        if dtype not in DAMAGE_TYPES or str(value).lower() not in AFFINITIES:
            raise bad(pid, f"affinity {dtype} = {value!r}: use a damage type "
                           f"({', '.join(DAMAGE_TYPES)}) and vulnerable, resistant, immune "
                           "or absorb", "FU-RES-3")
    goal = stats.get("goal", "")
    if not isinstance(goal, str):  # 5 would be shown as the goal "5"
        raise bad(pid, f"goal is a text such as \"cross the ford\", not {spelled(goal)}",
                  "FU-CON-2")
    gear = stats.get("equipment", [])
    if not isinstance(gear, list):  # a text would be read letter by letter, a table by key
        raise bad(pid, f"equipment is a list of tables such as [{{ kind = \"weapon\", name = "
                       f"\"Saber\", accuracy = \"dex+mig\", damage = 6 }}], not "
                       f"{spelled(gear)}", "FU-CON-2")
    for item in gear:
        check_item(pid, item)
    check_spells(pid, stats.get("spells", []))
    bonds = stats.get("bonds", {})
    if not isinstance(bonds, dict) or any(
        isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in bonds.values()
    ):
        raise bad(pid, "bonds must be a table of PC id = strength (0 or more)", "FU-CHK-5")
    if pid in bonds:  # a bond towards someone outside the conflict may well stand
        raise bad(pid, "a character has no bond towards itself; bonds are towards the other "
                       "PCs", "FU-CHK-5")


# --------------------------------------------------------------------------- derived values


def is_extra(ext: FabulaExt, p: Participant) -> bool:
    """Whether ``p`` is an extra who takes no turns (FU-CON-1)."""
    return p.id in ext.extras


#: The stats an Initiative check's dice and bonus come from (FU-CON-3, FU-CON-4).
INIT_FROM = ("dex", "ins", "equipment", "init_mod")


def initiative_foes(state: ConflictState) -> list[Participant]:
    """The adversaries whose Initiative the Initiative Group Check's DL is the highest of:
    the foes' side still taking part, extras aside. FU-CON-3 [decision]: a foe the GM keeps
    hidden from the players is not among those they face (its Initiative would tell of it)."""
    ext: FabulaExt = state.ext
    return [p for p in state.participants.values()
            if p.active and p.side == ext.foe_side and not is_extra(ext, p)
            and p.id not in state.concealed]


def initiative_leaders(state: ConflictState) -> list[str]:
    """Who may lead the Initiative Group Check: the PCs of the PCs' side still taking part,
    extras aside (FU-CON-3)."""
    ext: FabulaExt = state.ext
    return [p.id for p in state.participants.values() if p.active and p.kind == Kind.PC.value
            and p.side == ext.pc_side and not is_extra(ext, p)]


def initiative_supporters(state: ConflictState, leader: str) -> list[str]:
    """Who supports ``leader``'s Initiative Group Check unless the command names them: the
    other PCs who may lead it (FU-CHK-5). FU-CON-3 [decision]: not a PC the GM keeps hidden
    from the players (its roll, and the number of dice the check asks for, would tell of it);
    the GM names it in ``supporters=`` to count it."""
    return [pid for pid in initiative_leaders(state)
            if pid != leader and pid not in state.concealed]


def sheet_die(p: Participant, attr: str) -> int:
    """The die size the sheet gives ``attr``, written ``10`` or ``"d10"`` (FU-CHK-1)."""
    raw = p.stats.get(attr, 8)
    if type(raw) is int:
        return raw
    try:
        return check_die(p.id, attr, raw)
    except InvalidInput:  # a set-up logged before the forms were checked: "d 10", "d+10" and
        # "10" were read as a d10 then, and it replays as it was played
        return as_int(raw[1:] if str(raw).lower().startswith("d") else raw, f"{p.id}: {attr}")


def die(ext: FabulaExt, p: Participant, attr: str) -> int:
    """The current die size of ``attr``: the sheet's, stepped down once per status effect
    that touches it, never below d6 (FU-RES-4)."""
    base = sheet_die(p, attr)
    steps = sum(1 for s in ext.statuses.get(p.id, []) if attr in STATUSES.get(s, ()))
    size = base - 2 * steps
    return max(6, min(12, size))


def equipment_init(ext: FabulaExt, pid: str) -> int:
    """The sum of the initiative modifiers of ``pid``'s equipped armor and shields."""
    return sum(i.init for i in ext.equipment.get(pid, []))


def init_modifier(ext: FabulaExt, p: Participant) -> int:
    """A PC's own initiative modifier: ``init_mod`` plus its armor and shields (FU-CON-3)."""
    return int(p.stats.get("init_mod", 0)) + equipment_init(ext, p.id)


def npc_initiative(ext: FabulaExt, p: Participant) -> int:
    """An NPC's Initiative (FU-CON-4): the sheet's value, else (DEX + INS die sizes) / 2,
    +2 elite, +N champion, plus ``init_mod`` and armor/shield modifiers. Uses the sheet's
    dice, not ones stepped down by status effects."""
    if "initiative" in p.stats:
        return int(p.stats["initiative"])
    base = (sheet_die(p, "dex") + sheet_die(p, "ins")) // 2
    rank, n = parse_rank(p.id, p.stats)
    bonus = 2 if rank == "elite" else n if rank == "champion" else 0
    return base + bonus + init_modifier(ext, p)


@dataclass(frozen=True, slots=True)
class NextTurn:
    """Who may take the next turn: the side on turn and its members with a turn left."""

    side_on_turn: str
    may_act: list[str]


def next_turn(ext: FabulaExt) -> NextTurn | None:
    """Who may take the next turn, read from the order without changing or copying it: when
    nobody has a turn left in this round (FU-CON-10) the next turn opens the next one, where
    the first side opens (or the other, if the first has nobody with turns). None before the
    start; while a turn is under way nobody may start one (``may_act`` is empty)."""
    order = ext.order
    if order is None:
        return None
    if not order.round_over:
        return NextTurn(order.side_on_turn, order.who_may_act())

    def fresh(side: str) -> list[str]:
        return [a for a in order.members(side) if order.turns_per_round.get(a, 0) > 0]

    side = order.first_side
    if not fresh(side) and fresh(order.other_side(side)):
        side = order.other_side(side)
    return NextTurn(side, fresh(side))


def turns_left_next(ext: FabulaExt, pid: str) -> int:
    """Turns ``pid`` may still start before the round after next begins: this round's, or
    (when this round is over) all of the next round's."""
    order = ext.order
    if order is None:
        return 0
    if order.round_over:
        return 0 if pid in order.out or pid not in order.side_of else \
            order.turns_per_round.get(pid, 0)
    return order.turns_left(pid)


def turns_per_round(p: Participant) -> int:
    """Turns per round: PCs 1, NPCs by rank (FU-CON-9)."""
    if p.kind == Kind.PC.value:
        return 1
    return parse_rank(p.id, p.stats)[1]


def defense(ext: FabulaExt, p: Participant, magic: bool) -> int:
    """Defense (or Magic Defense): the sheet's value, else the current DEX (INS) die size;
    plus equipped bonuses."""
    key = "mdef" if magic else "defense"
    base = p.stats.get(key)
    value = int(base) if base is not None else die(ext, p, "ins" if magic else "dex")
    return value + sum(i.mdef if magic else i.defense for i in ext.equipment.get(p.id, []))


def affinity(p: Participant, dtype: str) -> str | None:
    """``p``'s affinity to a damage type (normalised), or None."""
    raw = (p.stats.get("affinities") or {}).get(dtype)
    return AFFINITIES.get(str(raw).lower()) if raw is not None else None


def in_crisis(pool: ResourcePool) -> bool:
    """Crisis: HP at most half the maximum, rounded down (FU-RES-2)."""
    return pool.current <= pool.maximum // 2


def roster(state: ConflictState) -> tuple[dict[str, str], dict[str, int]]:
    """(id → side, id → turns) of the active non-extra participants on the two sides."""
    ext: FabulaExt = state.ext
    members: dict[str, str] = {}
    turns: dict[str, int] = {}
    for p in state.participants.values():
        if p.active and not is_extra(ext, p) and p.side in (ext.pc_side, ext.foe_side):
            members[p.id] = p.side
            turns[p.id] = turns_per_round(p)
    return members, turns


def unassigned(state: ConflictState) -> list[Participant]:
    """Active non-extras on neither of the two sides (FU-CON-13)."""
    ext: FabulaExt = state.ext
    return [p for p in state.participants.values()
            if p.active and not is_extra(ext, p) and p.side not in (ext.pc_side, ext.foe_side)]


def add_participant(ext: FabulaExt, p: Participant) -> None:
    """Set up pools, Fabula Points, gear and the extra flag of a new participant."""
    s = p.stats
    hp = int(s.get("hp", 0))
    ext.hp[p.id] = ResourcePool(current=hp, maximum=hp)
    mp = int(s.get("mp", 0))
    ext.mp[p.id] = ResourcePool(current=mp, maximum=mp)
    if p.kind == Kind.PC.value:
        ip = int(s.get("ip", 0))
        ext.ip[p.id] = ResourcePool(current=ip, maximum=ip)
        ext.fp[p.id] = int(s.get("fp", 3))
    ext.statuses.setdefault(p.id, [])
    try:  # a set-up logged before an entry needed its kind read one without as a weapon:
        # it replays as it was played
        ext.equipment[p.id] = [make_item(p.id, {"kind": "weapon", **i} if isinstance(i, dict)
                                         else i) for i in s.get("equipment", []) or []]
    except InvalidInput:
        ext.equipment[p.id] = []
    try:
        ext.spells[p.id] = check_spells(p.id, s.get("spells", []) or [])
    except InvalidInput:  # a set-up logged while ``spells`` was a key of the GM's own
        ext.spells[p.id] = ()
    if s.get("goal"):
        ext.goals[p.id] = str(s["goal"])
    if s.get("extra") and p.id not in ext.extras:
        ext.extras.append(p.id)


UNARMED = Item(kind="weapon", name="unarmed strike", accuracy=["dex", "mig"], damage=0)


def weapons_of(ext: FabulaExt, pid: str) -> list[Item]:
    """The weapons ``pid`` has equipped, in the order declared."""
    return [i for i in ext.equipment.get(pid, []) if i.kind == "weapon"]


def weapon_of(ext: FabulaExt, p: Participant, name: str | None, *,
              listed: bool = True) -> Item:
    """The equipped weapon called ``name`` (None: the first equipped, or an unarmed strike).
    ``listed``: a refusal lists the weapons equipped (not to one who may not know them: GM-only
    equipment, even of their own character)."""
    weapons = weapons_of(ext, p.id)
    if name is None:
        return weapons[0] if weapons else UNARMED
    for w in weapons:
        if w.name.lower() == name.strip().lower():
            return w
    if name.strip().lower() in ("unarmed", UNARMED.name):
        return UNARMED
    known = ", ".join(w.name for w in weapons) or "none"
    equipped = f" (equipped: {known})" if listed else ""
    raise InvalidInput(f"{p.name} has no weapon {name!r} equipped{equipped}",
                       rule="FU-CON-2", weapon=name)
