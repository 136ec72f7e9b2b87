"""What each viewer may see: the state projection and the redacted log.

Nothing leaves fracas except through :func:`view` and :func:`log_view` (DESIGN.md principle 6):
a player never receives hidden characters, GM-only notes, stats or secret rolls. Records a
player may not see collapse into a single "the GM acts" entry, so no count gives them away.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.engine.conflict import Conflict, evolve
from fracas.engine.events import (
    CONFLICT_CREATED,
    EFFECT_ADDED,
    EFFECT_EXPIRED,
    GM_ACTS,
    META_EVENTS,
    PARTICIPANT_JOINED,
    Event,
    Record,
)
from fracas.engine.model import ConflictState, Viewer, Visibility
from fracas.engine.secrets import redact_marked


def may_see_event(state: ConflictState, event: Event, viewer: Viewer) -> bool:
    """The visibility check every event passes before the ruleset's own redaction."""
    if viewer.is_gm or event.visibility == Visibility.PUBLIC.value:
        return True
    if event.visibility == Visibility.OWNER.value and viewer.player is not None:
        actor = state.participants.get(event.actor or "")
        return actor is not None and actor.owner == viewer.player
    return False


def redact(
    conflict: Conflict, event: Event, viewer: Viewer, then: ConflictState
) -> Event | None:
    """``event`` as ``viewer`` may see it (None: hidden), judged on the state ``then``."""
    if event.type in META_EVENTS:
        return event
    state = then.innermost
    if not may_see_event(state, event, viewer):
        return None
    if viewer.is_gm:
        return event
    if event.type in (EFFECT_ADDED, EFFECT_EXPIRED):
        # an effect on (or set by) a character the viewer cannot know is hidden, as in view()
        pid = event.data.get("participant")
        if any(who is not None and not conflict.ruleset.can_see(state, viewer, who)
               for who in (pid, event.actor)):
            return None
    if event.type in (CONFLICT_CREATED, PARTICIPANT_JOINED):
        event = _redact_setup(conflict, event, viewer)
        if event.type == PARTICIPANT_JOINED and not event.data:
            return None
    marked = redact_marked(event, state, viewer,
                           lambda pid: conflict.ruleset.can_see(state, viewer, pid))
    if marked is None:
        return None
    return conflict.ruleset.redact(state, marked, viewer)


def _public_participant(data: dict[str, Any]) -> dict[str, Any]:
    hidden = set(data.get("gm_only", []))
    out = {k: v for k, v in data.items() if k != "gm_only"}
    out["stats"] = {k: v for k, v in data.get("stats", {}).items() if k not in hidden}
    return out


def _redact_setup(conflict: Conflict, event: Event, viewer: Viewer) -> Event:
    """Set-up data without GM-only stats and settings, or characters the viewer cannot know
    (judged on the current state: a character hidden now was never seen; while a conflict is
    zoomed in, a character is known if the viewer may see it at some level, as in
    :func:`view`)."""
    levels = conflict.state.chain()
    ruleset = conflict.ruleset

    def visible(pid: str) -> bool:
        at = [s for s in levels if pid in s.participants]
        return not at or any(ruleset.can_see(s, viewer, pid) for s in at)

    data = dict(event.data)
    if event.type == PARTICIPANT_JOINED:
        data = _public_participant(data) if visible(data["id"]) else {}
    else:
        data["participants"] = [
            _public_participant(p) for p in data.get("participants", []) if visible(p["id"])
        ]
        data["settings"] = public_settings(data.get("settings", {}))
    return Event(event.type, data, event.actor, event.visibility)


def view(conflict: Conflict, viewer: Viewer) -> dict[str, Any]:
    """The state as ``viewer`` may see it, as JSON-native data."""
    root = conflict.state
    ruleset = conflict.ruleset
    levels = []
    for state in root.chain():
        if not viewer.is_gm and state.depth > 0 and not any(
            ruleset.can_see(state, viewer, pid) for pid in state.participants
        ):
            break  # a zoomed-in conflict among characters this viewer cannot know
        participants = []
        for p in state.participants.values():
            if not viewer.is_gm and not ruleset.can_see(state, viewer, p.id):
                continue
            stats = p.stats if viewer.is_gm else p.public_stats()
            entry: dict[str, Any] = {
                "id": p.id, "name": p.name, "kind": p.kind, "side": p.side,
                "player": p.owner, "stats": dict(stats), "present": p.present, "out": p.out,
                "mine": viewer.player is not None and p.owner == viewer.player,
            }
            if viewer.is_gm and p.gm_only:
                entry["gm_only"] = list(p.gm_only)
            entry.update(ruleset.view_participant(state, viewer, p.id))
            participants.append(entry)
        effects = [
            dataclasses.asdict(e) for e in state.effects
            if may_see_event(state, Event("effect", {}, e.owner, e.visibility), viewer)
            and (viewer.is_gm or all(who is None or ruleset.can_see(state, viewer, who)
                                     for who in (e.participant, e.owner)))
        ]
        levels.append({
            "depth": state.depth, "title": state.title, "scene": state.scene,
            "status": state.status, "end_reason": state.end_reason, "outcome": state.outcome,
            "round": state.round, "round_limit": state.round_limit,
            "sides": list(state.sides) if viewer.is_gm else _visible_sides(state, participants),
            "settings": dict(state.settings) if viewer.is_gm else public_settings(state.settings),
            "participants": participants, "effects": effects,
            "ruleset": ruleset.view_ext(state, viewer),
            "odds": ruleset.pending_odds(state, viewer) if state.status == "running" else [],
        })
    out = {"ruleset": ruleset.name, "version": conflict.version, "viewer": _viewer(viewer),
           "conflict": levels[0], "zoom": levels[1:]}
    return out


def _visible_sides(state: ConflictState, shown: list[dict[str, Any]]) -> list[str]:
    """The sides of the characters a viewer may know (a side of only hidden ones is not
    shown)."""
    sides = {p["side"] for p in shown}
    return [s for s in state.sides if s in sides]


def public_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings without those the scenario lists in ``gm_only_settings`` (nor that list)."""
    hidden = set(settings.get("gm_only_settings", []))
    return {k: v for k, v in settings.items() if k not in hidden and k != "gm_only_settings"}


def _viewer(viewer: Viewer) -> dict[str, Any]:
    return {"role": viewer.role, "player": viewer.player}


def log_view(conflict: Conflict, viewer: Viewer) -> list[dict[str, Any]]:
    """The log as ``viewer`` may see it: each record with its visible events, hidden ones
    collapsed into "the GM acts" (never with a count). The GM's entries carry their versions;
    a player's are numbered 1, 2, … instead, so that no gap counts the records hidden from
    them."""
    return [entry for _, entry in log_entries(conflict, viewer)]


def log_entries(conflict: Conflict, viewer: Viewer) -> list[tuple[int, dict[str, Any]]]:
    """:func:`log_view` with the version each entry ends at (for the server side only: to
    follow a log from a version; never sent to a player)."""
    out: list[dict[str, Any]] = []
    partial = Conflict(conflict.ruleset, conflict.seed)
    unseen: set[int] = set()  # versions this viewer saw nothing of
    for record in conflict.records:
        then = partial.state
        visible = [e for e in (redact(conflict, ev, viewer, then) for ev in record.events)
                   if e is not None]
        if record.is_meta and not viewer.is_gm:
            # an undo or redo names only the versions the viewer saw: no count of the rest
            marker = record.events[0]
            shown = [v for v in marker.data["versions"] if v not in unseen]
            visible = [Event(marker.type, {"versions": shown})] if shown else []
        if not visible:
            unseen.add(record.version)
        whole = record.command == "create" or (
            len(visible) == len(record.events)
            and all(a is b for a, b in zip(visible, record.events, strict=True))
        )
        depth = then.innermost.depth  # > 0: played inside a zoomed-in conflict
        partial.append_record(record)
        if not visible:
            if out and out[-1]["events"] and out[-1]["events"][0]["type"] == GM_ACTS:
                out[-1]["version"] = record.version
                continue
            out.append({"version": record.version, "depth": depth, "command": "the GM acts",
                        "events": [{"type": GM_ACTS, "data": {}}]})
            continue
        entry: dict[str, Any] = {
            "version": record.version,
            "depth": depth,
            "command": record.command if whole or _mine(record, then, viewer) else "the GM acts",
            "events": [e.to_data() for e in visible],
        }
        if viewer.is_gm:
            entry.update({"author": record.author, "time": record.time})
        out.append(entry)
    if viewer.is_gm:
        return [(e["version"], e) for e in out]
    numbered = []
    for n, e in enumerate(out, 1):
        version = e.pop("version")
        numbered.append((version, {"entry": n, **e}))
    return numbered


def _mine(record: Record, state: ConflictState, viewer: Viewer) -> bool:
    """Whether the record's command was given for one of the viewer's own characters (the
    player knows what they asked, even where some results are hidden from them)."""
    head = record.command.partition(" ")[0]
    if viewer.player is None or not head.endswith(":"):
        return False
    actor = state.innermost.participants.get(head[:-1])
    return actor is not None and actor.owner == viewer.player


def record_view(
    conflict: Conflict, record: Record, viewer: Viewer, then: ConflictState
) -> list[Event]:
    """The events of one new record as ``viewer`` may see them (for live updates)."""
    return [e for e in (redact(conflict, ev, viewer, then) for ev in record.events)
            if e is not None]


__all__ = ["evolve", "log_view", "may_see_event", "record_view", "redact", "view"]
