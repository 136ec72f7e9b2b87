"""The VERS ruleset: set-up, decide, evolve and the hooks the engine calls."""

from __future__ import annotations

from typing import Any

from fracas.engine.commands import Command
from fracas.engine.components import Track, link_key
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    PARTICIPANT_JOINED,
    PARTICIPANT_LEFT,
    PARTICIPANT_OUT,
    ROUND_ENDED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.overrides import OverrideTarget
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import Setup
from fracas.errors import InvalidInput
from fracas.rulesets.vers import overrides, views
from fracas.rulesets.vers.commands import COMMANDS
from fracas.rulesets.vers.decider import Decider, boundary_after_leave
from fracas.rulesets.vers.gm import object_spec
from fracas.rulesets.vers.handlers import HANDLERS
from fracas.rulesets.vers.limits import STAT_RANGES
from fracas.rulesets.vers.placement import check_placement
from fracas.rulesets.vers.state import (
    ATTRIBUTES,
    TRACKS,
    WEAPON_KINDS,
    Chase,
    VersExt,
    VersObject,
    new_object_ladder,
    new_track,
)


class Vers(Ruleset):
    """VERS physical conflict: popcorn turns, zones, engagement, conditions, objects, chases."""

    name = "vers"
    title = "VERS: Physical Conflict"
    package = "fracas.rulesets.vers"
    commands = COMMANDS
    ext_type = VersExt
    stat_ranges = STAT_RANGES  # limits.py
    live_stats = overrides.LIVE_STATS

    def override_target(self, state: ConflictState, path: list[str]) -> OverrideTarget | None:
        """Zones, conditions and whose go it is (overrides.py)."""
        return overrides.override_target(state, path)

    # --- set-up -----------------------------------------------------------------------
    def validate_setup(self, setup: Setup) -> Setup:
        """Check sheets (attributes, skills, weapons) and the battlefield settings."""
        s = setup.settings
        zone_ids = set()
        for z in s.get("zones", []) or []:
            zid = z if isinstance(z, str) else z.get("id") if isinstance(z, dict) else None
            if not isinstance(zid, str) or not zid or "|" in zid:
                raise InvalidInput(f"settings.zones: {z!r} needs an id (text without |)",
                                   rule="VR-MOVE-1")
            zone_ids.add(zid)
        for link in s.get("links", []) or []:
            if not (isinstance(link, list) and len(link) == 2
                    and all(x in zone_ids for x in link) and link[0] != link[1]):
                raise InvalidInput(f"settings.links: {link!r} must join two different known "
                                   "zones", rule="VR-MOVE-1")
        ids = {p.id for p in setup.participants}
        objects: dict[str, Any] = {}
        for o in s.get("objects", []) or []:
            if not isinstance(o, dict):
                raise InvalidInput(f"settings.objects: {o!r} must be a table", rule="VR-OBJ-1")
            spec = object_spec(o, None)
            if spec["object"] in objects:
                raise InvalidInput(f"settings.objects: {spec['object']} twice", rule="VR-OBJ-1")
            objects[spec["object"]] = spec
        for g in s.get("guards", []) or []:
            if not isinstance(g, dict) or g.get("who") not in ids or not (
                    isinstance(g.get("between"), list) and len(g["between"]) == 2
                    and list(g["between"]) in [list(x) for x in s.get("links", [])]
                    + [list(reversed(x)) for x in s.get("links", [])]):
                raise InvalidInput(f"settings.guards: {g!r} needs who (a participant) and "
                                   "between (two linked zones)", rule="VR-MOVE-5")
            guard = next(p for p in setup.participants if p.id == g["who"])
            if guard.stats.get("zone") not in g["between"]:
                raise InvalidInput(f"settings.guards: {g['who']} stands in zone "
                                   f"{guard.stats.get('zone')!r}; a guard stands in one of "
                                   f"the zones it guards ({' or '.join(g['between'])})",
                                   rule="VR-MOVE-5")
        for c in s.get("cover", []) or []:
            if not isinstance(c, dict) or c.get("who") not in ids or abs(
                    int(c.get("value", 0))) not in (0, 1, 3, 5) or (
                    c.get("object") is not None and c["object"] not in objects):
                raise InvalidInput(f"settings.cover: {c!r} needs who, value 1/3/5 and a known "
                                   "object", rule="VR-ATK-5")
        for p in setup.participants:
            st = p.stats
            for attr in ATTRIBUTES:
                if attr in st and not isinstance(st[attr], int):
                    raise InvalidInput(f"{p.id}: {attr} must be a whole number",
                                       rule="VR-ROLL-1")
            for key in ("skills", "tn"):
                raw = st.get(key, {})
                if not isinstance(raw, dict) or not all(
                        isinstance(v, int) and not isinstance(v, bool) for v in raw.values()):
                    raise InvalidInput(f"{p.id}: {key} must map skill names to whole numbers",
                                       rule="VR-ROLL-1")
            for wname, w in (st.get("weapons") or {}).items():
                if not isinstance(w, dict) or w.get("kind", "close") not in WEAPON_KINDS \
                        or not isinstance(w.get("ev", 0), int):
                    raise InvalidInput(f"{p.id}: weapon {wname} needs ev (a number) and kind "
                                       f"({', '.join(WEAPON_KINDS)})", rule="VR-ROLL-2")
                if w.get("kind") in ("mental", "social") and not isinstance(w.get("skill"), str):
                    raise InvalidInput(f"{p.id}: {w['kind']} weapon {wname} needs skill (the "
                                       "skill it is rolled with, e.g. skill = "
                                       "\"intimidation\")", rule="VR-INJ-5")
                if w.get("object") is not None and w["object"] not in objects:
                    raise InvalidInput(f"{p.id}: weapon {wname} names unknown object "
                                       f"{w['object']!r}", rule="VR-OBJ-4")
            zone = st.get("zone")
            if zone is not None and zone not in zone_ids:
                raise InvalidInput(f"{p.id}: zone {zone!r} is not in settings.zones",
                                   rule="VR-MOVE-1")
        check_placement(setup, zone_ids)  # placement.py
        return setup

    def init_ext(self, state: ConflictState, setup: dict[str, Any]) -> VersExt:
        """The turn order, battlefield, harm tracks and objects of a new conflict."""
        ext = VersExt()
        s = state.settings
        for z in s.get("zones", []) or []:
            if isinstance(z, str):
                ext.zones.add_zone(z)
            else:
                ext.zones.add_zone(z["id"], z.get("name", ""), z.get("description", ""))
        for a, b in s.get("links", []) or []:
            ext.zones.link(a, b)
        for o in s.get("objects", []) or []:
            _add_object(ext, object_spec(o, None))
        for p in state.participants.values():
            _join(ext, p.id, p.stats)
        for g in s.get("guards", []) or []:
            ext.zones.place_guard(link_key(*g["between"]), g["who"])
        for c in s.get("cover", []) or []:
            ext.cover[c["who"]] = -abs(int(c["value"]))
            if c.get("object"):
                ext.cover_object[c["who"]] = c["object"]
        return ext

    # --- decide / evolve --------------------------------------------------------------
    def decide(self, state: ConflictState, command: Command, ctx: DecideContext) -> list[Event]:
        """Validate a VERS command and return its events (pure)."""
        handler = HANDLERS.get(command.verb)
        if handler is None:
            return super().decide(state, command, ctx)
        d = Decider(state, command, ctx, self)
        handler(d)
        return d.events

    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply a VERS (or boundary) event to ``state.ext``. Never raises."""
        ext: VersExt = state.ext
        if ext is None:
            return
        t, d = event.type, event.data
        if d.get("spend"):
            ext.turns.spend(int(d["spend"]))
        if t == TURN_STARTED:
            pid = d["participant"]
            if d.get("opens"):
                ext.turns.open(pid, int(d.get("actions", 2)))
            else:
                ext.turns.hand_off(pid, int(d.get("actions", 2)))
            if ext.disabled(pid) and pid not in ext.pending_discipline:
                ext.pending_discipline.append(pid)
        elif t == TURN_ENDED:
            ext.turns.end_go()
        elif t == ROUND_ENDED:
            ext.turns.new_round()
        elif t == PARTICIPANT_JOINED:
            _join(ext, d["id"], d.get("stats", {}))
        elif t in (PARTICIPANT_LEFT, PARTICIPANT_OUT):
            pid = d["participant"]
            ext.turns.leave(pid)
            ext.disengage_all(pid)
            ext.zones.remove_actor(pid)
            if pid in ext.pending_discipline:
                ext.pending_discipline.remove(pid)
        elif t == "condition":
            ladder = ext.harm.get(d["who"], {}).get(d["track"])
            if ladder is not None:
                ladder.take(int(d["ev"]), d.get("why", ""))
                if d["track"] == "injury" and d.get("index") == 3 and not d.get("taken_out"):
                    if d["who"] not in ext.pending_discipline:
                        ext.pending_discipline.append(d["who"])
                    if ext.turns.current == d["who"]:
                        # one action a turn: an action already spent this go counts
                        ext.turns.actions_left = max(0, ext.turns.actions_left - 1)
        elif t == "endured":
            if d["who"] in ext.pending_discipline:
                ext.pending_discipline.remove(d["who"])
        elif t == "moved" or (t == "slipped" and d["check"]["success"]):
            if d["to"] != d["from"]:
                ext.cover.pop(d["who"], None)  # cover belongs to the spot it left
                ext.cover_object.pop(d["who"], None)
            ext.zones.move(d["who"], d["to"])
            _leave_posts(ext, d["who"])
            ext.prune_engagements()
        elif t == "disengaged" and d["check"]["success"]:
            ext.disengage_all(d["who"])
        elif t == "attack":
            if d.get("kind") == "close" and d["target"] in state.participants:
                ext.engage(event.actor or "", d["target"])
        elif t == "recovered" and d.get("level"):
            ladder = ext.harm[d["who"]][d["track"]]
            ladder.remove_highest()
            if not ext.disabled(d["who"]) and d["who"] in ext.pending_discipline:
                ext.pending_discipline.remove(d["who"])
        elif t == "object_damaged" and d.get("level") is not None:
            obj = ext.objects.get(d["object"])
            if obj is not None:
                obj.ladder.take(int(d["net"]), d.get("why", ""))
                for pid in d.get("uncovered", []):  # broken cover shelters nobody
                    ext.cover.pop(pid, None)
                    ext.cover_object.pop(pid, None)
        elif t == "repaired" and d.get("level"):
            ext.objects[d["object"]].ladder.remove_highest()
        elif t == "object_restored":
            ext.objects[d["object"]].ladder.clear()
        elif t == "object_added":
            _add_object(ext, d)
        else:
            self._evolve_more(ext, event)

    def _evolve_more(self, ext: VersExt, event: Event) -> None:
        t, d = event.type, event.data
        if t == "zone_added":
            ext.zones.add_zone(d["zone"], d.get("name", ""))
        elif t == "zones_linked":
            ext.zones.link(d["a"], d["b"])
        elif t == "placed":
            ext.zones.place(d["who"], d["zone"])
            _leave_posts(ext, d["who"])
            ext.prune_engagements()
        elif t == "guard_posted":
            ext.zones.place_guard(d["link"], d["who"])
        elif t == "guard_left":
            ext.zones.remove_guard(d["who"])
        elif t == "cover_set":
            if d["value"]:
                ext.cover[d["who"]] = int(d["value"])
            else:
                ext.cover.pop(d["who"], None)
            if d.get("object"):
                ext.cover_object[d["who"]] = d["object"]
            else:
                ext.cover_object.pop(d["who"], None)
        elif t == "chase_started":
            ext.chases[d["id"]] = Chase(
                hunter=d["hunter"], quarry=d["quarry"], roller=d["roller"], stage=d["stage"],
                track=Track(length=int(d["positions"]), position=int(d["position"])),
                length=int(d["length"]), prize=d.get("prize", ""))
        elif t == "chase_stage":
            chase = ext.chases[d["id"]]
            chase.stage = d["stage"]
            chase.length = int(d["length"])
            chase.track = Track(length=int(d["positions"]), position=int(d["position"]))
        elif t in ("chase_roll", "chase_interpose"):
            chase = ext.chases[d["id"]]
            chase.track.set(int(d["to"]))
            chase.stage = d["new_stage"]

    def on_leave(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """The end of the leaver's go, and of the turn when nobody is left to go."""
        return boundary_after_leave(state, pid)

    # --- views ------------------------------------------------------------------------
    def describe(self, event: Event, state: ConflictState) -> str | None:
        """One line per VERS event."""
        return views.describe(event, state)

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """Numbers that GM-only stats would give away, hidden from players."""
        return views.redact(state, event, viewer)

    def view_participant(self, state: ConflictState, viewer: Viewer, pid: str
                         ) -> dict[str, Any]:
        """Harm at a glance plus the tracks, zone, engagement and cover."""
        return views.view_participant(state, viewer, pid)

    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """The acting character's attacks with breakdown and chance (VR-ATK-*, VR-ROLL-1)."""
        return views.pending_odds(state, viewer)

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """Unconscious after a failed Discipline roll (VR-INJ-3), or a full track (VR-INJ-2)."""
        out = state.participants[pid].out or ""
        if out == "unconscious":
            return "VR-INJ-3"
        return "VR-INJ-2" if out.endswith("track full") else None

    def view_ext(self, state: ConflictState, viewer: Viewer) -> dict[str, Any]:
        """Turn tracker, battlefield, objects and chases as lines and data."""
        return views.view_ext(state, viewer)

    def status_lines(self, state: ConflictState) -> list[str]:
        """The tracker lines for a terminal."""
        return list(views.view_ext(state, Viewer.gm())["lines"])

    def legal_commands(self, state: ConflictState, actor: str | None) -> list[str]:
        """What the GM (None) or a character may do now, with attack breakdowns."""
        return views.legal_commands(self, state, actor)

    def odds(self, query: str) -> Any:
        """Exact odds: ``3d6 vs 12 -2`` or ``chase length 3 tn 12 vs 2 as hunter``."""
        from fracas.rulesets.vers.odds import answer

        return answer(query)


def _join(ext: VersExt, pid: str, stats: dict[str, Any]) -> None:
    ext.turns.join(pid)
    ext.harm[pid] = {track: new_track(track) for track in TRACKS}
    zone = stats.get("zone")
    if isinstance(zone, str) and zone in ext.zones.zones:
        ext.zones.place(pid, zone)


def _leave_posts(ext: VersExt, pid: str) -> None:
    """A guard that moves away from a way it guarded stops guarding it (VR-MOVE-5)."""
    here = ext.zones.zone_of(pid)
    for key, posted in list(ext.zones.guards.items()):
        if pid in posted and here not in key.split("|"):
            ext.zones.remove_guard(pid, key)


def _add_object(ext: VersExt, d: dict[str, Any]) -> None:
    ext.objects[d["object"]] = VersObject(
        name=d["name"], hardness=int(d["hardness"]), material=d.get("material", ""),
        ladder=new_object_ladder(int(d.get("slots", 1))), penalty=int(d.get("penalty", 0)))
