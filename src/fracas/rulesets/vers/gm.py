"""Decide for VERS: the GM's battlefield set-up (zones, links, guards, cover, objects, harm)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from fracas.engine.commands import Command
from fracas.engine.components import link_key
from fracas.engine.handlers import Decision
from fracas.engine.limits import as_int, check_name, spelled
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.decider import HANDLERS, active, ext_of, harm
from fracas.rulesets.vers.events import (
    CoverSet,
    GuardLeft,
    GuardPosted,
    ObjectAdded,
    ObjectRestored,
    Placed,
    ZoneAdded,
    ZonesLinked,
)
from fracas.rulesets.vers.limits import MAX_OBJECT_SLOTS
from fracas.rulesets.vers.state import HARDNESS, VersExt


@HANDLERS.decides("zone")
def decide_zone(d: Decision, cmd: Command) -> None:
    """VR-MOVE-1: draw a zone."""
    a = cmd.args
    ext_of(d.state).zones.check_new_zone(a["id"], "VR-MOVE-1")
    d.emit(ZoneAdded(zone=a["id"], name=a.get("name") or a["id"]))


@HANDLERS.decides("link")
def decide_link(d: Decision, cmd: Command) -> None:
    """VR-MOVE-1: join two zones."""
    a = cmd.args
    ext_of(d.state).zones.check_link(a["a"], a["b"], "VR-MOVE-1")
    d.emit(ZonesLinked(a=a["a"], b=a["b"]))


@HANDLERS.decides("place")
def decide_place(d: Decision, cmd: Command) -> None:
    """VR-MOVE-1: put a character in a zone."""
    a = cmd.args
    active(d.state, a["who"])
    ext = ext_of(d.state)
    ext.zones.check_zone(a["zone"], "VR-MOVE-1")
    if a["zone"] != ext.zones.zone_of(a["who"]) and (
            a["who"] in ext.cover or a["who"] in ext.cover_object):
        d.emit(CoverSet(who=a["who"], value=0))  # cover belongs to the spot it left (VR-ATK-5)
    d.emit(Placed(who=a["who"], zone=a["zone"]))


@HANDLERS.decides("guard")
def decide_guard(d: Decision, cmd: Command) -> None:
    """VR-MOVE-5: a character in one of its zones guards a way."""
    a = cmd.args
    ext = ext_of(d.state)
    p = active(d.state, a["who"])
    key = link_key(a["a"], a["b"])
    ext.zones.check_guard(key, "VR-MOVE-5")
    here = ext.zones.zone_of(p.id)
    if here not in (a["a"], a["b"]):
        where = f"is in {here}" if here else "has no zone"
        raise IllegalCommand(
            f"{p.name} {where}; a guard stands at the way it guards, in {a['a']} or "
            f"{a['b']} ('place {p.id} {a['a']}' first)", rule="VR-MOVE-5")
    if p.id in ext.zones.guards.get(key, []):
        raise IllegalCommand(f"{p.name} already guards the way {a['a']}–{a['b']}",
                             rule="VR-MOVE-5")
    posted = next((link for link, who in ext.zones.guards.items() if p.id in who), None)
    if posted is not None:
        raise IllegalCommand(f"{p.name} already guards the way {posted.replace('|', '–')}; "
                             f"{ONE_WAY} ('unguard {p.id}' first)", rule="VR-MOVE-5")
    d.emit(GuardPosted(who=a["who"], link=key))


#: Why a second post is refused (VR-MOVE-5): a guard bars the way within about 2 m of it.
ONE_WAY = "a guard bars one way, the one it stands at"


@HANDLERS.decides("unguard")
def decide_unguard(d: Decision, cmd: Command) -> None:
    """VR-MOVE-5: stop guarding."""
    p = d.state.participant(cmd.args["who"])
    if not any(p.id in posted for posted in ext_of(d.state).zones.guards.values()):
        raise IllegalCommand(f"{p.name} guards no way", rule="VR-MOVE-5")
    d.emit(GuardLeft(who=cmd.args["who"]))


@HANDLERS.decides("cover")
def decide_cover(d: Decision, cmd: Command) -> None:
    """VR-ATK-5: cover 0, ⅓, ⅔ or complete, maybe behind an object."""
    a = cmd.args
    p = active(d.state, a["who"])
    value = -abs(int(a["value"]))
    if value not in COVER_PENALTIES:
        raise InvalidInput(cover_value_problem(a["value"]), rule="VR-ATK-5")
    obj = a.get("object")
    ext = ext_of(d.state)
    if obj is not None and obj not in ext.objects:
        raise InvalidInput(f"no object {obj!r}; create it with 'object {obj} material=…'",
                           rule="VR-ATK-5")
    if obj is not None:
        problem = cover_problem(p.name, ext.zones.zone_of(p.id), ext.objects[obj].name,
                                ext.objects[obj].zone)
        if problem is not None:
            raise IllegalCommand(f"{problem} ('place {p.id} {ext.objects[obj].zone}' first)",
                                 rule="VR-ATK-5")
    d.emit(CoverSet(who=a["who"], value=value, object=obj))


#: The penalties cover gives an attack on the one behind it, none included (VR-ATK-5).
COVER_PENALTIES = (0, -1, -3, -5)


def cover_value_problem(given: object) -> str:
    """What a refused cover value ``given`` should have been (VR-ATK-5)."""
    return f"cover is 1 (⅓), 3 (⅔) or 5 (complete), or 0 for none, not {spelled(given)}"


def cover_problem(who: str, here: str | None, obj: str, there: str | None) -> str | None:
    """Why ``who`` (standing in zone ``here``) cannot take cover behind the object ``obj``
    standing in zone ``there``, or None if it can: cover is behind an object at the spot
    (VR-ATK-5), so in the same zone; an object placed in no zone may shelter anyone."""
    if there is None or here == there:
        return None
    where = f"is in {here}" if here else "has no zone"
    return (f"{who} {where} and {obj} in {there}: a character takes cover behind an object "
            "in its own zone")


@HANDLERS.decides("object")
def decide_object(d: Decision, cmd: Command) -> None:
    """VR-OBJ-1/2: an object with a hardness and condition slots."""
    ext = ext_of(d.state)
    d.emit(ObjectAdded(**object_spec(cmd.args, ext, ext.zones.zones)))


@HANDLERS.decides("restore")
def decide_restore(d: Decision, cmd: Command) -> None:
    """VR-OBJ-5: the GM makes an object whole again."""
    obj = ext_of(d.state).objects.get(cmd.args["id"])
    if obj is None:
        raise InvalidInput(f"no object {cmd.args['id']!r}")
    if obj.ladder.total() == 0 and not obj.ladder.taken_out:
        raise IllegalCommand(f"{obj.name} is whole: nothing to restore", rule="VR-OBJ-5",
                             object=cmd.args["id"])
    d.emit(ObjectRestored(object=cmd.args["id"]))


@HANDLERS.decides("harm")
def decide_harm(d: Decision, cmd: Command) -> None:
    """VR-INJ-5: the GM marks a condition from net EV on a track."""
    a = cmd.args
    p = active(d.state, a["who"], "VR-INJ-5")
    if a["ev"] < 0:
        raise InvalidInput("net EV below 0 inflicts nothing", rule="VR-ROLL-2")
    d.emit(*harm(d.state, p.id, a["ev"], a["track"], a.get("why") or "GM"))


def object_spec(a: dict[str, Any], ext: VersExt | None,
                zones: Collection[str] | None = None) -> dict[str, Any]:
    """Check an object's set-up (hardness by material or rank, slots, its zone among
    ``zones`` when they are given) and return its data."""
    oid = a.get("id", "")
    if not isinstance(oid, str) or not oid.strip() or "|" in oid:
        raise InvalidInput(f"an object needs an id (a word without |), not {oid!r}",
                           rule="VR-OBJ-1")
    if ext is not None and oid in ext.objects:
        raise InvalidInput(f"object {oid!r} exists already", rule="VR-OBJ-1")
    for key in ("name", "material"):
        if a.get(key) is not None and not isinstance(a[key], str):
            raise InvalidInput(f"object {oid}: {key} is text, not {a[key]!r}", rule="VR-OBJ-1")
    if a.get("name") is not None:
        check_name(a["name"], f"object {oid}: the name")
    material = a.get("material")
    hardness = a.get("hardness")
    if hardness is None:
        if material is None:
            raise InvalidInput(f"object {oid}: give material= (one of {', '.join(HARDNESS)}) "
                               "or hardness=RANK", rule="VR-OBJ-1")
        if str(material) not in HARDNESS:
            raise InvalidInput(f"object {oid}: unknown material {material!r}; known: "
                               f"{', '.join(HARDNESS)} (or give hardness=RANK)",
                               rule="VR-OBJ-1")
        hardness = HARDNESS[str(material)]
    zone = a.get("zone")
    if zone is not None and zones is not None and (not isinstance(zone, str)
                                                   or zone not in zones):
        raise InvalidInput(f"object {oid}: zone {zone!r} is not a zone of this conflict ("
                           + (", ".join(sorted(zones)) or "it has none") + ")",
                           rule="VR-MOVE-1")
    return {"object": oid, "name": str(a.get("name") or oid), "material": material or "",
            "zone": zone,
            "hardness": _whole(hardness, "hardness", 0, oid, (-100, 100), "VR-OBJ-1"),
            "slots": _whole(a.get("slots"), "slots", 1, oid, (1, MAX_OBJECT_SLOTS), "VR-OBJ-2"),
            "penalty": -abs(_whole(a.get("penalty"), "penalty", 0, oid, (-100, 100),
                                   "VR-OBJ-2"))}


def _whole(raw: Any, key: str, default: int, oid: str, bounds: tuple[int, int],
           rule: str) -> int:
    """An object's whole-number value ``raw`` of ``key`` (text such as "2" read as a
    number; ``default`` if not given), within ``bounds``."""
    if raw is None:
        return default
    try:
        value: int | None = as_int(raw, f"object {oid}: {key}")  # "2" as 2; never "٢"
    except InvalidInput as exc:
        raise InvalidInput(exc.message, rule=rule) from None
    except (TypeError, ValueError):
        value = None
    lo, hi = bounds
    if value is None or not lo <= value <= hi:
        raise InvalidInput(f"object {oid}: {key} must be a whole number from {lo} to {hi}, "
                           f"got {raw!r}", rule=rule)
    return value
