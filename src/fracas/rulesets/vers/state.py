"""The VERS part of the conflict state, character-sheet helpers and the condition ladders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fracas.engine.components import (
    ConditionLadder,
    Popcorn,
    Track,
    ZoneMap,
    ladder_from_spec,
    pair_key,
)
from fracas.engine.model import ConflictState, Participant

#: The nine VERS attributes (physical, mental, social), as fracas names them on a sheet.
ATTRIBUTES = (
    "strength", "agility", "endurance",
    "intellect", "intuition", "willpower",
    "charisma", "presence", "composure",
)

#: The attribute behind each skill when the sheet gives no TN (VR-ROLL-1 default).
SKILL_ATTRIBUTE: dict[str, str] = {
    "athletics": "agility",
    "close_combat": "strength",
    "ranged_combat": "agility",
    "survival": "intuition",
    "investigation": "intellect",
    "stealth": "agility",
    "discipline": "willpower",
    "medicine": "intellect",
    "repair": "intellect",
    "persuasion": "charisma",
    "intimidation": "presence",
    "deception": "charisma",
}

#: The skills that fit a verb's ``skill=`` (the table suggests them as you type): its own
#: (the one an empty field stands for first), and where the rules take "the right background
#: or special skill" (``special``), any skill of the character's that is none of the standard
#: ones of :data:`SKILL_ATTRIBUTE`, all of which have other uses (VR-OBJ-5).
SKILL_FITS: dict[str, dict[str, Any]] = {"repair": {"skills": ["repair"], "special": True}}

WEAPON_KINDS = ("close", "ranged", "thrown", "mental", "social")
#: The harm track a weapon kind strikes (VR-INJ-5 default: mental → Focus, social → Morale).
KIND_TRACK = {"mental": "focus", "social": "morale"}

#: Hardness ranks of VR-OBJ-1, by material.
HARDNESS: dict[str, int] = {
    "butter": -5, "flesh": -2, "cloth": -1, "paper": -1, "leather": 0, "rope": 0,
    "glass": 1, "pottery": 1, "wood": 2, "bone": 2, "bronze": 4, "stone": 5, "iron": 5,
    "tempered-steel": 6, "steel": 6, "diamond": 8,
}

#: Track names and their levels (VR-INJ-1/2/5): name, slots, lowest net EV, penalty, each.
TRACKS: dict[str, tuple[tuple[str, int, int, int, bool], ...]] = {
    "injury": (("grazed", 2, 0, 0, False), ("wounded", 2, 3, -1, True),
               ("impaired", 1, 6, -2, False), ("disabled", 1, 9, -4, False)),
    "focus": (("distracted", 2, 0, 0, False), ("flustered", 2, 3, -1, True),
              ("disoriented", 1, 6, -2, False), ("distraught", 1, 9, -4, False)),
    "morale": (("unnerved", 2, 0, 0, False), ("shaken", 2, 3, -1, True),
               ("disheartened", 1, 6, -2, False), ("demoralized", 1, 9, -4, False)),
}
#: Recovery penalty by highest level held (VR-INJ-4), per level index.
RECOVERY_PENALTY = (0, -1, -2, -4)
#: Object levels (VR-OBJ-3/4): worn, damaged (−1), tattered (−2 more), broken.
OBJECT_LEVELS = (("worn", 0, 0), ("damaged", 3, -1), ("tattered", 6, -2), ("broken", 9, 0))
#: Repair penalty by highest object level (VR-OBJ-5); broken cannot be repaired by action.
REPAIR_PENALTY = (0, -1, -2)


#: Each track's levels, checked once (levels never change: every ladder of a track shares them).
_TRACK_LEVELS = {track: tuple(ladder_from_spec(rows).levels) for track, rows in TRACKS.items()}


def new_track(track: str) -> ConditionLadder:
    """A fresh harm ladder (injury, focus or morale). Not taken out when the top fills."""
    return ConditionLadder(levels=list(_TRACK_LEVELS[track]), taken_out_when_full=False)


def new_object_ladder(slots: int = 1) -> ConditionLadder:
    """An object's ladder: one slot per level (``slots`` for large objects); broken by the
    first broken condition (:attr:`VersObject.broken`), whatever its slots."""
    rows: list[tuple[str, int, int, int]] = [
        (name, slots, threshold, penalty) for name, threshold, penalty in OBJECT_LEVELS]
    return ladder_from_spec(rows, taken_out_when_full=True)


@dataclass
class VersObject:
    """An object that can be damaged: cover, a weapon, a door (VR-OBJ-*)."""

    name: str
    hardness: int
    ladder: ConditionLadder
    material: str = ""
    penalty: int = 0  # to attacks on it when it is small or moving (VR-OBJ-2)
    zone: str | None = None  # where it stands; None: wherever the GM says (never checked)

    @property
    def broken(self) -> bool:
        """Whether it no longer works (it holds the broken condition)."""
        return self.ladder.taken_out or self.ladder.count(3) > 0


@dataclass
class Chase:
    """One hunter–quarry scale (VR-CHASE-*). ``roller`` is who rolls (VR-CHASE-8).

    ``stage``: pursuit, tracking, escaped (top of pursuit: tracking may follow), contact
    (1 of tracking: pursuit may follow), captured, evaded, away (top of tracking), won, lost
    (a stationary prize), over. ``tactics``: the GM's bonus or penalty for tactics that the
    next roll takes (VR-CHASE-5), and ``tactics_why`` what earned it.
    """

    hunter: str
    quarry: str
    roller: str
    stage: str
    track: Track
    length: int
    prize: str = ""
    tactics: int = 0
    tactics_why: str = ""

    @property
    def roller_is_hunter(self) -> bool:
        """Whether the roller is the hunter (success moves toward 1)."""
        return self.roller == self.hunter

    @property
    def opponent(self) -> str:
        """The side that does not roll."""
        return self.quarry if self.roller_is_hunter else self.hunter


@dataclass
class VersExt:
    """Everything VERS adds to the conflict state."""

    turns: Popcorn = field(default_factory=Popcorn)
    zones: ZoneMap = field(default_factory=ZoneMap)
    engaged: list[str] = field(default_factory=list)  # pair keys "a|b"
    harm: dict[str, dict[str, ConditionLadder]] = field(default_factory=dict)
    cover: dict[str, int] = field(default_factory=dict)  # pid → −1, −3 or −5
    cover_object: dict[str, str] = field(default_factory=dict)  # pid → object id
    objects: dict[str, VersObject] = field(default_factory=dict)
    chases: dict[str, Chase] = field(default_factory=dict)
    pending_discipline: list[str] = field(default_factory=list)  # must roll to stay awake

    def engaged_with(self, pid: str) -> list[str]:
        """Those engaged with ``pid`` in close combat (VR-MOVE-3)."""
        out = []
        for key in self.engaged:
            a, _, b = key.partition("|")
            if a == pid:
                out.append(b)
            elif b == pid:
                out.append(a)
        return out

    def engage(self, a: str, b: str) -> None:
        """Mark ``a`` and ``b`` engaged (mutator)."""
        key = pair_key(a, b)
        if key not in self.engaged:
            self.engaged.append(key)

    def disengage_all(self, pid: str) -> None:
        """End every engagement of ``pid`` (mutator)."""
        self.engaged = [k for k in self.engaged if pid not in k.split("|")]

    def prune_engagements(self) -> None:
        """Drop engagements of those no longer sharing a zone (mutator)."""
        keep = []
        for key in self.engaged:
            a, _, b = key.partition("|")
            za, zb = self.zones.zone_of(a), self.zones.zone_of(b)
            if za is not None and za == zb:
                keep.append(key)
        self.engaged = keep

    def arrive(self, pid: str, zone: str) -> None:
        """``pid`` stands in ``zone`` now (a move, the GM's ``place`` or ``override``): the
        cover of the spot it left ends (VR-ATK-5), and so do its guard posts on ways away from
        ``zone`` (VR-MOVE-5) and engagements with those no longer in its zone (VR-MOVE-3)
        (mutator)."""
        if self.zones.zone_of(pid) != zone:
            self.cover.pop(pid, None)
            self.cover_object.pop(pid, None)
        self.zones.place(pid, zone)
        for key, posted in list(self.zones.guards.items()):
            if pid in posted and zone not in key.split("|"):
                self.zones.remove_guard(pid, key)
        self.prune_engagements()

    def ladders(self, pid: str) -> dict[str, ConditionLadder]:
        """The harm tracks of ``pid`` (empty if unknown)."""
        return self.harm.get(pid, {})

    def harm_penalty(self, pid: str) -> int:
        """The sum of every track's condition penalties (VR-INJ-3, VR-INJ-5)."""
        return sum(ladder.total_penalty() for ladder in self.ladders(pid).values())

    def disabled(self, pid: str) -> bool:
        """Whether ``pid`` holds the top injury condition (one action a go, VR-TURN-4)."""
        injury = self.ladders(pid).get("injury")
        return injury is not None and injury.count(3) > 0


# --- character sheets --------------------------------------------------------------------

def skills_of(p: Participant) -> dict[str, int]:
    """Skill ranks from the sheet (``skills = {athletics = 2}``)."""
    raw = p.stats.get("skills") or {}
    return {str(k): int(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def ranks(p: Participant, skill: str) -> int:
    """Ranks in ``skill`` (0 untrained)."""
    return skills_of(p).get(skill, 0)


def attribute(p: Participant, name: str) -> int:
    """An attribute value (0 when not given)."""
    try:
        return int(p.stats.get(name, 0))
    except (TypeError, ValueError):
        return 0


def skill_tn(state: ConflictState, p: Participant, skill: str) -> int:
    """The TN of ``skill``: the sheet's ``tn`` entry, else base + attribute + ranks."""
    sheet = p.stats.get("tn") or {}
    if isinstance(sheet, dict) and skill in sheet:
        return int(sheet[skill])
    base = int(state.settings.get("base_tn", 10))
    attr = SKILL_ATTRIBUTE.get(skill)
    return base + (attribute(p, attr) if attr else 0) + ranks(p, skill)


def dodge(p: Participant) -> int:
    """The Dodge penalty a defender imposes: ``dodge`` on the sheet or Intuition + Agility."""
    if "dodge" in p.stats:
        return int(p.stats["dodge"])
    return attribute(p, "intuition") + attribute(p, "agility")


def dodge_sources(p: Participant) -> tuple[tuple[str, str], ...]:
    """The stats :func:`dodge` is computed from, as (participant, stat)."""
    if "dodge" in p.stats:
        return ((p.id, "dodge"),)
    return ((p.id, "intuition"), (p.id, "agility"))


def weapons_of(p: Participant) -> dict[str, dict[str, Any]]:
    """Weapons on the sheet: name → {ev, kind, object?}. Unarmed is always there."""
    raw = p.stats.get("weapons") or {}
    out: dict[str, dict[str, Any]] = {}
    if isinstance(raw, dict):
        for name, w in raw.items():
            if isinstance(w, dict):
                out[str(name)] = dict(w)
    out.setdefault("unarmed", {"ev": 0, "kind": "close"})
    return out


def track_defence(p: Participant, track: str) -> tuple[str, int, tuple[tuple[str, str], ...]]:
    """The penalty a defender imposes on a mental (``focus``) or social (``morale``) attack:
    ``resolve`` / ``poise`` on the sheet, else Willpower + Intellect / Composure + Presence
    (VR-INJ-5 default). Returns (label, value, the (participant, stat) it comes from)."""
    label, attrs = ("resolve", ("willpower", "intellect")) if track == "focus" else (
        "poise", ("composure", "presence"))
    if label in p.stats:
        return label, int(p.stats[label]), ((p.id, label),)
    return (label, sum(attribute(p, a) for a in attrs), tuple((p.id, a) for a in attrs))


def track_armor(p: Participant, track: str) -> int:
    """The RV against harm on ``track``: ``rv`` (injury), ``focus_rv``, ``morale_rv``."""
    return int(p.stats.get("rv" if track == "injury" else f"{track}_rv", 0))


def reach(p: Participant) -> int:
    """Reach (default 0; VR-ATK-4)."""
    return int(p.stats.get("reach", 0))


def armor(p: Participant) -> int:
    """Resistance Value of worn armor (VR-ROLL-2)."""
    return int(p.stats.get("rv", 0))
