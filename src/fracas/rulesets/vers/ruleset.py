"""The VERS ruleset: set-up, decide, evolve and the hooks the engine calls."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar

from fracas.engine.commands import Command
from fracas.engine.components import link_key
from fracas.engine.context import DecideContext
from fracas.engine.events import Event, EventTypes
from fracas.engine.handlers import Handlers
from fracas.engine.legal import LegalCommand
from fracas.engine.limits import spelled
from fracas.engine.model import ConflictState, Status, Viewer
from fracas.engine.overrides import OverrideTarget
from fracas.engine.ruleset import Ruleset, nobody, recast_ids
from fracas.engine.secrets import stat_is_secret
from fracas.engine.setup import Setup
from fracas.engine.sheet import SheetItem
from fracas.engine.suggest import did_you_mean, refuse_mistyped_stats
from fracas.errors import InvalidInput
from fracas.rulesets.vers import actions, chases, legal, overrides, roll_odds, views
from fracas.rulesets.vers.commands import COMMANDS
from fracas.rulesets.vers.decider import HANDLERS, boundary_after_leave, plan_known, readable
from fracas.rulesets.vers.events import SPENDING, VERS_EVENTS, ObjectAdded
from fracas.rulesets.vers.evolve import add_object, join
from fracas.rulesets.vers.gm import (
    COVER_PENALTIES,
    ONE_WAY,
    cover_problem,
    cover_value_problem,
    object_spec,
)
from fracas.rulesets.vers.limits import STAT_RANGES
from fracas.rulesets.vers.placement import check_placement
from fracas.rulesets.vers.state import (
    ATTRIBUTES,
    KIND_TRACK,
    SKILL_ATTRIBUTE,
    WEAPON_KINDS,
    VersExt,
    weapons_of,
)

#: The modules whose handlers fill HANDLERS (imported for their registrations).
_DECIDERS = (actions, chases)


#: The battlefield's settings that are lists, and the rule each serves.
BATTLEFIELD_LISTS = {"zones": "VR-MOVE-1", "links": "VR-MOVE-1", "objects": "VR-OBJ-1",
                     "guards": "VR-MOVE-5", "cover": "VR-ATK-5"}


def _check_mistyped(pid: str, stats: dict[str, Any], read: frozenset[str]) -> None:
    """Refuse a stat, skill or TN of the GM's own that looks like a mistyped one of VERS's
    (``strenght``, ``athletic``): the character would go without the one it meant, its TN
    silently lower (VR-ROLL-1). Any other key is the GM's own, kept and read by no rule."""
    refuse_mistyped_stats(pid, stats, read, "VERS", "VR-ROLL-1")
    for table in ("skills", "tn"):
        given = stats.get(table)
        for skill in sorted(set(given) - set(SKILL_ATTRIBUTE) if isinstance(given, dict) else ()):
            hint = did_you_mean(str(skill).lower(), sorted(SKILL_ATTRIBUTE), cutoff=0.8)
            if hint:
                raise InvalidInput(f"{pid}: unknown skill {table}.{skill}{hint} (a background "
                                   "or special skill must not look like a standard one)",
                                   rule="VR-ROLL-1", participant=pid,
                                   key=f"{table}.{skill}")


def _cover_entry_problem(entry: object, ids: Collection[str],
                         objects: Collection[str]) -> str | None:
    """What is wrong with a ``settings.cover`` entry, or None: a table of who (a
    participant), value (1, 3 or 5; 0 for none) and, where there is one, the object it hides
    behind (VR-ATK-5; the same values the GM's ``cover`` takes)."""
    if not isinstance(entry, dict):
        return (f"{spelled(entry)} must be a table such as "
                '{ who = "vex", value = 3, object = "crate" }')
    who, value, obj = entry.get("who"), entry.get("value"), entry.get("object")
    if not isinstance(who, str) or who not in ids:
        return f"{spelled(entry)} needs who, one of the participants ({', '.join(sorted(ids))})"
    if isinstance(value, bool) or not isinstance(value, int) \
            or -abs(value) not in COVER_PENALTIES:
        return f"{who}: {cover_value_problem(value)}"
    if obj is not None and (not isinstance(obj, str) or obj not in objects):
        known = ", ".join(sorted(objects)) or "none in settings.objects"
        return f"{who}: no object {spelled(obj)} to hide behind (objects: {known})"
    return None


def _recast_entries(entries: Any, cast: Mapping[str, Sequence[str]]) -> Any:
    """A list of ``{who = …}`` entries (cover, guards), one for each id its ``who`` becomes
    (any other shape as given, for the set-up to refuse)."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        return entries
    return [{**e, "who": who} for e in entries for who in recast_ids([e.get("who")], cast)]


class Vers(Ruleset):
    """VERS physical conflict: popcorn turns, zones, engagement, conditions, objects, chases."""

    name = "vers"
    title = "VERS: Physical Conflict"
    #: the battlefield is in every view (its map, objects, guards and cover)
    shown_settings = frozenset({"zones", "links", "objects", "guards", "cover"})
    settings_read = shown_settings | {"base_tn", "last_chooses_opener"}
    stats_read = frozenset({*ATTRIBUTES, "skills", "tn", "weapons", "rv", "reach", "dodge",
                            "resolve", "poise", "focus_rv", "morale_rv", "zone"})  # docs/vers.md
    package = "fracas.rulesets.vers"
    commands = COMMANDS
    ext_type = VersExt
    handlers: ClassVar[Handlers] = HANDLERS
    events: ClassVar[EventTypes] = VERS_EVENTS
    stat_ranges = STAT_RANGES  # limits.py
    live_stats = overrides.LIVE_STATS
    override_examples = ("ID.tracks.injury.conditions.wounded", "ID.zone", "ruleset.current",
                         "ruleset.actions_left")
    start_settings = overrides.START_SETTINGS
    harm_keys = ("tracks", "penalty", "disabled", "summary")
    round_word, turn_word = "turn", "go"  # a VERS Turn is the engine's round; a go its turn

    def stats_example(self, state: ConflictState) -> dict[str, Any]:
        """Attributes, a skill and a weapon, and a zone of the battlefield to stand in (a
        newcomer needs one where there are zones, VR-MOVE-1)."""
        out: dict[str, Any] = {"strength": 2, "agility": 2, "skills": {"close_combat": 2},
                               "weapons": {"club": {"ev": 4, "kind": "close"}}}
        zones = list(state.ext.zones.zones) if isinstance(state.ext, VersExt) else []
        return {**out, "zone": zones[0]} if zones else out

    def override_target(self, state: ConflictState, path: list[str]) -> OverrideTarget | None:
        """Zones, conditions and whose go it is (overrides.py)."""
        return overrides.override_target(state, path)

    # --- set-up -----------------------------------------------------------------------
    def recast_settings(self, settings: dict[str, Any],
                        cast: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """Cover and guard posts for another cast: a copy takes cover, or guards, as the
        one it copies."""
        return {**settings, **{key: _recast_entries(settings[key], cast)
                               for key in ("cover", "guards") if key in settings}}

    def validate_setup(self, setup: Setup) -> Setup:
        """Check sheets (attributes, skills, weapons) and the battlefield settings."""
        s = setup.settings
        for key, rule in BATTLEFIELD_LISTS.items():
            if s.get(key) is not None and not isinstance(s[key], list):
                raise InvalidInput(f"settings.{key} must be a list, got {s[key]!r}", rule=rule)
        zone_ids = set()
        for z in s.get("zones", []) or []:
            zid = z if isinstance(z, str) else z.get("id") if isinstance(z, dict) else None
            if not isinstance(zid, str) or not zid or "|" in zid:
                raise InvalidInput(f"settings.zones: {z!r} needs an id (text without |)",
                                   rule="VR-MOVE-1")
            for key in ("name", "description") if isinstance(z, dict) else ():
                if not isinstance(z.get(key, ""), str):
                    raise InvalidInput(f"settings.zones: zone {zid}'s {key} is text, not "
                                       f"{z[key]!r}", rule="VR-MOVE-1")
            if zid in zone_ids:
                raise InvalidInput(f"settings.zones: zone {zid!r} is given twice",
                                   rule="VR-MOVE-1")
            zone_ids.add(zid)
        for link in s.get("links", []) or []:
            if not (isinstance(link, list) and len(link) == 2
                    and all(isinstance(x, str) and x in zone_ids for x in link)
                    and link[0] != link[1]):
                raise InvalidInput(f"settings.links: {link!r} must join two different known "
                                   "zones", rule="VR-MOVE-1")
        ids = {p.id for p in setup.participants}
        objects: dict[str, Any] = {}
        for o in s.get("objects", []) or []:
            if not isinstance(o, dict):
                raise InvalidInput(f"settings.objects: {o!r} must be a table", rule="VR-OBJ-1")
            try:
                spec = object_spec(o, None, zone_ids)
            except InvalidInput as exc:  # said with the setting, as the others are
                raise InvalidInput(f"settings.objects: {exc.message}", rule=exc.rule,
                                   **exc.values) from None
            if spec["object"] in objects:
                raise InvalidInput(f"settings.objects: {spec['object']} twice", rule="VR-OBJ-1")
            objects[spec["object"]] = spec
        guarding: set[str] = set()
        for g in s.get("guards", []) or []:
            if not isinstance(g, dict) or g.get("who") not in ids or not (
                    isinstance(g.get("between"), list) and len(g["between"]) == 2
                    and list(g["between"]) in [list(x) for x in s.get("links", [])]
                    + [list(reversed(x)) for x in s.get("links", [])]):
                raise InvalidInput(f"settings.guards: {g!r} needs who (a participant) and "
                                   "between (two linked zones)", rule="VR-MOVE-5")
            if g["who"] in guarding:
                raise InvalidInput(f"settings.guards: {g['who']} is posted twice; {ONE_WAY}",
                                   rule="VR-MOVE-5")
            guarding.add(g["who"])
            guard = next(p for p in setup.participants if p.id == g["who"])
            if guard.stats.get("zone") not in g["between"]:
                raise InvalidInput(f"settings.guards: {g['who']} stands in zone "
                                   f"{guard.stats.get('zone')!r}; a guard stands in one of "
                                   f"the zones it guards ({' or '.join(g['between'])})",
                                   rule="VR-MOVE-5")
        covered: set[str] = set()
        for c in s.get("cover", []) or []:
            wrong = _cover_entry_problem(c, ids, objects)
            if wrong is not None:
                raise InvalidInput(f"settings.cover: {wrong}", rule="VR-ATK-5")
            who = next(p for p in setup.participants if p.id == c["who"])
            spot = who.stats.get("zone")
            obj = objects.get(c.get("object") or "")
            known = isinstance(spot, str) and spot in zone_ids  # else refused below
            problem = None if obj is None or not known else cover_problem(  # as `cover` says it
                who.name or c["who"], spot, obj.get("name") or obj["object"], obj["zone"])
            if problem is not None:
                raise InvalidInput(f"settings.cover: {problem}", rule="VR-ATK-5")
            if c["who"] in covered:
                raise InvalidInput(f"settings.cover: {c['who']} is given cover twice; give "
                                   "each character one entry", rule="VR-ATK-5")
            covered.add(c["who"])
        for p in setup.participants:
            st = p.stats
            _check_mistyped(p.id, st, self.stats_read)
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
            weapons = st.get("weapons", {})
            if not isinstance(weapons, dict):  # [], "" or false were taken as no weapons
                raise InvalidInput(f"{p.id}: weapons must be a table of weapons, e.g. weapons "
                                   "= { sword = { ev = 5, kind = \"close\" } }, not "
                                   f"{spelled(weapons)}; leave weapons out (or give {{}}) for "
                                   "bare hands only (unarmed, EV 0)", rule="VR-ROLL-2")
            for wname, w in weapons.items():
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
            if zone is not None and (not isinstance(zone, str) or zone not in zone_ids):
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
            add_object(ext, ObjectAdded(**object_spec(o, None)))
        for p in state.participants.values():
            join(ext, p.id, p.stats)
        for g in s.get("guards", []) or []:
            ext.zones.place_guard(link_key(*g["between"]), g["who"])
        for c in s.get("cover", []) or []:
            ext.cover[c["who"]] = -abs(int(c["value"]))
            if c.get("object"):
                ext.cover_object[c["who"]] = c["object"]
        return ext

    # --- evolve ------------------------------------------------------------------------
    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply a VERS (or boundary) event to ``state.ext``, by its class. Never raises."""
        ext: VersExt | None = state.ext
        if ext is None:
            return
        if isinstance(event, SPENDING) and event.spend:
            ext.turns.spend(event.spend)
        self.handlers.evolve(state, event)

    def on_leave(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """The end of the leaver's go, and of the turn when nobody is left to go."""
        return boundary_after_leave(state, pid)

    # --- views ------------------------------------------------------------------------
    def describe(self, event: Event, state: ConflictState) -> str | None:
        """One line per VERS event and per engine event VERS words its own way (by class)."""
        return views.describe(event, state)

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """The generic redaction by marks, on the event read as its VERS class and on a check
        nested in it (no label is read)."""
        return views.redact(self, state, event, viewer)

    def view_participant(self, state: ConflictState, viewer: Viewer, pid: str
                         ) -> dict[str, Any]:
        """Harm at a glance plus the tracks, zone, engagement and cover."""
        return views.view_participant(state, viewer, pid)

    def sheet(self, state: ConflictState, entry: dict[str, Any]) -> list[SheetItem]:
        """Attributes, skills, TNs, defences, RVs, reach, weapons (views.py)."""
        return views.sheet(self, entry)

    def harm_band(self, entry: dict[str, Any]) -> str | None:
        """Down when a track takes them out, else the names of the conditions held (the
        ladder's own words), or unhurt."""
        tracks = entry.get("tracks")
        if not isinstance(tracks, dict):
            return None
        if any(t.get("taken_out") for t in tracks.values()):
            return "down"
        names = [name for t in tracks.values() for name in t.get("conditions", {})]
        return ", ".join(names) if names else "unhurt"

    def secret_words(self, state: ConflictState, pid: str) -> frozenset[str]:
        """The names of GM-only weapons: ``pid`` is offered one attack per target naming no
        weapon (the first is used, VR-ATK-1), so neither the names nor the count show."""
        p = state.participants.get(pid)
        if p is None or "weapons" not in p.gm_only:
            return frozenset()
        return frozenset(w.lower() for w in weapons_of(p))

    def offer_for(self, state: ConflictState, actor: str, viewer: Viewer,
                  offer: list[LegalCommand]) -> list[LegalCommand]:
        """As the engine's, without the GM's calls (a failed dash's cost, VR-MOVE-2) nor the
        tracking skill a roll naming none would take where the player may not know the TNs
        that choose it (:func:`legal.known_defaults`, VR-CHASE-7), and where everyone left to
        go is hidden from the player, the hand-off that ends the go (VR-TURN-2): as it is
        offered with nobody left. Where the actor's weapons are GM-only,
        an attack on every target the player may know, whatever the weapons reach
        (:func:`legal.blind_attacks`); else a throw out of reach is left out only where the
        player may know every number of it (:func:`legal.judged_attacks`, VR-ATK-3). Once the
        conflict has ended, nothing is added: no attack or hand-off is played after the end."""
        out = super().offer_for(state, actor, viewer, offer)
        inner = state.innermost

        def known(pid: str) -> bool:
            return self.can_see(inner, viewer, pid)
        if not viewer.is_gm:
            out = legal.known_defaults(inner, actor, legal.for_player(out), functools.partial(
                readable, inner, viewer, known))
        if state.status == Status.ENDED:
            return out
        if stat_is_secret(inner, viewer, actor, "weapons"):
            out = legal.blind_attacks(inner, actor, out, known)
        elif not viewer.is_gm:  # a throw out of reach, left out only where that is known
            out = legal.judged_attacks(inner, actor, out, known, functools.partial(
                plan_known, inner, viewer, known))
        return legal.with_bare_handoff(inner, actor, out,
                                       lambda pid: not self.can_see(inner, viewer, pid))

    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """The acting character's attacks with breakdown and chance (VR-ATK-*, VR-ROLL-1);
        the chase rolls due now (VR-CHASE-*); the Discipline rolls due now (VR-INJ-3)."""
        def see(pid: str) -> bool:
            return self.can_see(state, viewer, pid)
        return [*views.pending_odds(state, viewer, see), *views.chase_odds(state, viewer, see),
                *roll_odds.discipline_odds(state, viewer, see)]

    def command_odds(self, state: ConflictState, viewer: Viewer,
                     command: Command) -> list[str]:
        """An attack's line for an attack of the acting character on the target and with the
        weapon it names (none named: the one the rules take, the first physical weapon on the
        sheet), a chase roll's for a ``run`` or an ``interpose`` in that chase, and the roll
        of a ``disengage``, ``slip``, two-zone ``move``, ``endure``, ``recover`` or ``repair``
        (:mod:`roll_odds`); no others (a sword's line is not a knife's)."""
        def see(pid: str) -> bool:
            return self.can_see(state, viewer, pid)
        if command.verb in roll_odds.ASKED:
            return roll_odds.roll_odds(state, viewer, see, command)
        if command.verb in ("run", "interpose"):  # the roll that chase waits for now
            return views.chase_odds(state, viewer, see,
                                    (str(command.args.get("id")), command.verb))
        if (command.verb != "attack" or command.actor is None
                or command.actor != state.ext.turns.current):
            return []
        weapon = command.args.get("weapon")
        if weapon is None:
            weapon = next((w for w, spec in weapons_of(state.participants[command.actor]).items()
                           if spec.get("kind", "close") not in KIND_TRACK), None)
        target = command.args.get("target")
        return views.pending_odds(state, viewer, see, (None if target is None else str(target),
                                                       None if weapon is None else str(weapon)))

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """Unconscious after a failed Discipline roll (VR-INJ-3), or a full track (VR-INJ-2)."""
        out = state.participants[pid].out or ""
        if out == "unconscious":
            return "VR-INJ-3"
        return "VR-INJ-2" if out.endswith("track full") else None

    def view_ext(self, state: ConflictState, viewer: Viewer,
                 names_unknown: Callable[[str], bool] = nobody) -> dict[str, Any]:
        """Turn tracker, battlefield, objects and chases as lines and data (no free
        words to leave out)."""
        return views.view_ext(state, viewer, lambda pid: self.can_see(state, viewer, pid))

    def status_lines(self, state: ConflictState) -> list[str]:
        """The tracker lines for a terminal."""
        return list(views.view_ext(state, Viewer.gm())["lines"])

    def legal_commands(self, state: ConflictState, actor: str | None) -> list[LegalCommand]:
        """What the GM (None) or a character may do now, with the exact values allowed."""
        return legal.legal_commands(state, actor)

    def odds(self, query: str) -> Any:
        """Exact odds: ``3d6 vs 12 -2`` or ``chase length 3 tn 12 vs 2 as hunter``."""
        from fracas.rulesets.vers.odds import answer

        return answer(query)


