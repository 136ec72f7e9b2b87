"""Decide for VERS: the GM's battlefield set-up (zones, links, guards, cover, objects, harm)."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import link_key
from fracas.engine.events import Event
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.decider import Decider
from fracas.rulesets.vers.state import (
    HARDNESS,
    VersExt,
)


def decide_gm(d: Decider) -> None:
    """Zones, links, placement, guards, cover, objects, restore and direct harm."""
    a = d.cmd.args
    ext = d.ext
    verb = d.cmd.verb
    if verb == "zone":
        ext.zones.check_new_zone(a["id"], "VR-MOVE-1")
        d.emit(Event("zone_added", {"zone": a["id"], "name": a.get("name") or a["id"]}))
    elif verb == "link":
        ext.zones.check_link(a["a"], a["b"], "VR-MOVE-1")
        d.emit(Event("zones_linked", {"a": a["a"], "b": a["b"]}))
    elif verb == "place":
        d.active(a["who"])
        d.ext.zones.check_zone(a["zone"], "VR-MOVE-1")
        d.emit(Event("placed", {"who": a["who"], "zone": a["zone"]}))
    elif verb == "guard":
        p = d.active(a["who"])
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
        d.emit(Event("guard_posted", {"who": a["who"], "link": key}))
    elif verb == "unguard":
        p = d.sim.participant(a["who"])
        if not any(p.id in posted for posted in ext.zones.guards.values()):
            raise IllegalCommand(f"{p.name} guards no way", rule="VR-MOVE-5")
        d.emit(Event("guard_left", {"who": a["who"]}))
    elif verb == "cover":
        d.active(a["who"])
        value = -abs(int(a["value"]))
        if value not in (0, -1, -3, -5):
            raise InvalidInput(f"cover is 1 (⅓), 3 (⅔) or 5 (complete), or 0 for none, "
                               f"not {a['value']}", rule="VR-ATK-5")
        obj = a.get("object")
        if obj is not None and obj not in ext.objects:
            raise InvalidInput(f"no object {obj!r}; create it with 'object {obj} material=…'",
                               rule="VR-ATK-5")
        d.emit(Event("cover_set", {"who": a["who"], "value": value, "object": obj}))
    elif verb == "object":
        d.emit(Event("object_added", object_spec(a, ext)))
    elif verb == "restore":
        if a["id"] not in ext.objects:
            raise InvalidInput(f"no object {a['id']!r}")
        d.emit(Event("object_restored", {"object": a["id"]}))
    elif verb == "harm":
        p = d.active(a["who"], "VR-INJ-5")
        if a["ev"] < 0:
            raise InvalidInput("net EV below 0 inflicts nothing", rule="VR-ROLL-2")
        d.inflict(p.id, a["ev"], a["track"], a.get("why") or "GM")


def object_spec(a: dict[str, Any], ext: VersExt | None) -> dict[str, Any]:
    """Check an object's set-up (hardness by material or rank, slots) and return its data."""
    oid = str(a.get("id", ""))
    if not oid or (ext is not None and oid in ext.objects):
        raise InvalidInput(f"object {oid!r} exists already or has no id", rule="VR-OBJ-1")
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
    slots = int(a["slots"]) if a.get("slots") is not None else 1
    if slots < 1:
        raise InvalidInput(f"object {oid}: slots must be at least 1", rule="VR-OBJ-2")
    return {"object": oid, "name": str(a.get("name") or oid), "material": material or "",
            "hardness": int(hardness), "slots": slots, "penalty": -abs(int(a.get("penalty")
                                                                            or 0))}
