"""What each viewer sees: hidden-band projection (ES-RNG-1, ES-RNG-5, ES-RNG-6), log
sentences, view lines and legal commands."""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.engine.events import (
    CONFLICT_CREATED,
    EFFECT_ADDED,
    ROUND_STARTED,
    ZOOM_OPENED,
    Event,
)
from fracas.engine.model import ConflictState, Viewer
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.common import current_condenser, ext_of, invisible, name
from fracas.rulesets.etherscope.settings import BANDS, condenser_of, meaning_lines, table_line

# --------------------------------------------------------------------------- visibility


def _mine(state: ConflictState, viewer: Viewer) -> list[str]:
    if viewer.player is None:
        return []
    return state.owned_by(viewer.player)


def can_see(state: ConflictState, viewer: Viewer, pid: str) -> bool:
    """Whether ``viewer`` may know ``pid`` exists."""
    if viewer.is_gm or state.ext is None:
        return True
    return not invisible(ext_of(state).ranges, _mine(state, viewer), pid)


def band_visible(state: ConflictState, viewer: Viewer, a: str, b: str) -> bool:
    """ES-RNG-1: while one of a pair is hidden from the other, their band is the GM's."""
    if viewer.is_gm:
        return True
    r = ext_of(state).ranges
    if r.is_hidden(a, b) or r.is_hidden(b, a):
        return False
    return can_see(state, viewer, a) and can_see(state, viewer, b)


def redact(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """``event`` as a player sees it: characters hidden from all theirs do not exist, and no
    pool, roll or number gives away a GM-only stat or setting."""
    if viewer.is_gm:
        return event
    out = _redact_hidden(state, event, viewer)
    return None if out is None else _redact_stats(state, out, viewer)


#: Settings a roll's expression and dice would give away.
_ROLL_SETTINGS = frozenset({"die_size", "threshold"})


def _redact_stats(state: ConflictState, event: Event, viewer: Viewer) -> Event:
    """Without the pool sizes (and dice) that show a GM-only skill or awareness rating, or a
    GM-only die size or threshold, and without the scores that show a GM-only condenser."""
    if state.ext is None or event.type == CONFLICT_CREATED:
        return event
    settings = state.settings
    all_rolls = bool(_ROLL_SETTINGS & set(settings.get("gm_only_settings", [])))

    def secret(pid: Any, keys: set[str]) -> bool:
        p = state.participants.get(pid) if isinstance(pid, str) else None
        return p is not None and (viewer.player is None or p.owner != viewer.player) \
            and bool(keys & set(p.gm_only))

    def pool_secret(pid: Any, skill: Any) -> bool:
        return all_rolls or secret(pid, {"skills", "pool", str(skill or "")})

    def masked(r: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in r.items() if k not in ("pool", "roll", "text")}

    t, d = event.type, event.data
    new = dict(d)
    aware = settings.get("awareness_skill")
    kind = condenser_of(settings)
    if t in (ev.AWARENESS, ev.ACTION):
        who = d.get("participant") if t == ev.AWARENESS else d.get("actor")
        if pool_secret(who, d.get("skill")):
            new = masked(d)
    elif t in (ev.AMBUSH, "counter_rolled"):
        if isinstance(d.get("roll"), dict) and pool_secret(d.get("ambusher"),
                                                           d["roll"].get("skill")):
            new["roll"] = masked(d["roll"])
        new["targets"] = [masked(r) if pool_secret(r.get("target"), r.get("skill")) else r
                          for r in d.get("targets", [])]
    elif t == ev.TIE and isinstance(d.get("rolls"), dict):
        new["rolls"] = {k: v for k, v in d["rolls"].items() if not pool_secret(k, aware)}
    elif t == ROUND_STARTED and isinstance(d.get("base"), dict):
        new["base"] = {k: v for k, v in d["base"].items()
                       if not secret(k, {str(d.get("condenser") or kind)})}
    elif t == ev.DECLARED and secret(d.get("participant"), {kind}):
        new.pop("base", None)
        new.pop("default", None)
    elif t == ev.DAMAGE and "left" in d and secret(d.get("participant"),
                                                   {str(d.get("condenser"))}):
        new.pop("left")
    if new == d:
        return event
    return Event(event.type, new, actor=event.actor, visibility=event.visibility)


def _redact_hidden(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """``event`` as a player sees it: characters hidden from all theirs do not exist."""
    if event.type == CONFLICT_CREATED:
        return _redact_created(event, viewer)
    if state.ext is None:
        return event
    ranges = ext_of(state).ranges
    mine = _mine(state, viewer)
    if event.type == ev.AMBUSH:
        return _redact_ambush(state, event, mine)
    if event.type == ev.REVEALED:
        after = dataclasses.replace(ranges, hidden={k: list(v) for k, v in
                                                    ranges.hidden.items()})
        for x in event.data["from"]:
            after.reveal(event.data["participant"], x)
        if invisible(after, mine, event.data["participant"]):
            return None
        seen = [x for x in event.data["from"] if not invisible(after, mine, x)]
        if not seen:
            return None
        if len(seen) == len(event.data["from"]):
            return event
        return Event(event.type, {**event.data, "from": seen}, actor=event.actor,
                     visibility=event.visibility)

    def gone(pid: Any) -> bool:
        return isinstance(pid, str) and invisible(ranges, mine, pid)

    d = event.data
    if gone(event.actor) or any(gone(d.get(k)) for k in ("participant", "ambusher", "a", "b",
                                                         "opened_by")):
        return None
    if event.type == EFFECT_ADDED and gone(d.get("participant")):
        return None
    ext = ext_of(state)

    def unseen_group(members: list[str]) -> bool:
        # a group is known to a player only with two members they may see
        return sum(not gone(m) for m in members) < 2

    if event.type == ev.GROUP_FORMED and unseen_group(list(d.get("members", []))):
        return None
    if event.type in (ev.GROUP_LEFT, ev.GROUP_DISSOLVED) and \
            unseen_group(ext.groups.get(d.get("group", ""), [])):
        return None
    if event.type == ev.MOVER_DONE:
        later = ext.move_order[ext.mover + 1:] if ext.mover >= 0 else []
        if not any(not gone(p) for p in later):
            return None  # a move against nobody the player knows: the GM's
    if event.type in (ev.RANGE_SET, ev.RANGE_CHANGED):
        if ranges.is_hidden(d["a"], d["b"]) or ranges.is_hidden(d["b"], d["a"]):
            return None
        return event
    new = dict(d)
    changed = False
    for key in ("targets", "order", "against", "members", "participants", "from", "toward",
                "away"):
        value = d.get(key)
        if isinstance(value, list):
            kept = [x for x in value if not gone(_pid_of(x))]
            if len(kept) != len(value):
                new[key], changed = kept, True
    for key in ("base", "rolls", "successes", "awareness"):
        value = d.get(key)
        if isinstance(value, dict):
            kept_d = {k: v for k, v in value.items() if not gone(k)}
            if len(kept_d) != len(value):
                new[key], changed = kept_d, True
    if gone(d.get("source")):
        new["source"], changed = None, True
    if event.type == ev.MOVER and not new.get("against"):
        return None
    if event.type == ev.TIE and len(new.get("participants", [])) < 2:
        return None
    if event.type == ZOOM_OPENED:
        hidden = d.get("hidden", {})

        def secret(a: str, b: str) -> bool:  # ES-RNG-1: the band under a hidden flag
            return b in hidden.get(a, []) or a in hidden.get(b, [])

        new["bands"] = {k: v for k, v in d.get("bands", {}).items()
                        if not any(gone(x) for x in k.split("|")) and not secret(*k.split("|"))}
        new["hidden"] = {}
        new.pop("settings", None)
        changed = True
    if not changed:
        return event
    return Event(event.type, new, actor=event.actor, visibility=event.visibility)


def _pid_of(x: Any) -> Any:
    if isinstance(x, list) and x:
        return x[0]
    if isinstance(x, dict):
        return x.get("target")
    return x


def _redact_created(event: Event, viewer: Viewer) -> Event:
    d = event.data
    settings = d.get("settings", {})
    lurking: dict[str, list[str]] = settings.get("lurking", {})
    mine = [p["id"] for p in d.get("participants", []) if p.get("player") == viewer.player]
    drop = {lk for lk, ts in lurking.items()
            if lk not in mine and (all(m in ts for m in mine) if mine else True)}
    hidden = set(settings.get("gm_only_settings", []))
    new = dict(d)
    new["participants"] = [
        {**p, "stats": {k: v for k, v in p.get("stats", {}).items()
                        if k not in p.get("gm_only", []) or p.get("player") == viewer.player}}
        for p in d.get("participants", []) if p["id"] not in drop]
    new["settings"] = {k: v for k, v in settings.items()
                       if k not in hidden and k != "gm_only_settings"}
    return Event(event.type, new, actor=event.actor, visibility=event.visibility)


def _redact_ambush(state: ConflictState, event: Event, mine: list[str]) -> Event | None:
    """ES-START-4: a successful ambush is never seen by those it hid from."""
    ranges = ext_of(state).ranges
    d = event.data
    who = d["ambusher"]
    after = dataclasses.replace(ranges, hidden={k: list(v) for k, v in ranges.hidden.items()})
    for r in d["targets"]:
        (after.hide if r["ambushed"] else after.reveal)(who, r["target"])
    if not invisible(after, mine, who):
        return event
    own = [r for r in d["targets"] if r["target"] in mine]
    if not own:
        return None
    # the viewer's characters rolled a counter roll: show it without the ambusher
    return Event("counter_rolled", {"targets": [{k: v for k, v in r.items() if k != "ambushed"}
                                                for r in own]})


# --------------------------------------------------------------------------- describe

#: The settings the table line and the band meanings are made of (ES-SET-7).
_TABLE_SETTINGS = frozenset({"nature", "reality", "time_scale", "range_scaling"})


def _table_secret(state: ConflictState, viewer: Viewer) -> bool:
    """Whether the table line and band meanings would show ``viewer`` a GM-only setting."""
    hidden = set(state.settings.get("gm_only_settings", []))
    return not viewer.is_gm and bool(hidden & {*_TABLE_SETTINGS, "custom_scaling"})


def _band(n: Any) -> str:
    return BANDS[int(n)].capitalize() if isinstance(n, int) and 0 <= n <= 2 else "unchanged"


def _successes(n: Any) -> str:
    return f"{n} success{'' if n == 1 else 'es'}"


def _succ(d: dict[str, Any]) -> str:
    count = _successes(d.get("successes"))
    return str(d.get("text") or (f"{count} (table)" if d.get("table") else count))


def describe(event: Event, state: ConflictState) -> str | None:
    """One log line per Etherscope event (and the table line at set-up)."""
    t, d = event.type, event.data

    def n(pid: Any) -> str:
        return name(state, pid) if isinstance(pid, str) else "someone"

    table = d.get("settings", {})
    if t == CONFLICT_CREATED and not _TABLE_SETTINGS - set(table) and (
            table.get("range_scaling") != "custom" or "custom_scaling" in table):
        return (f"conflict set up: {d.get('title') or 'Etherscope'}. "
                f"{table_line(d['settings'])} " + "; ".join(meaning_lines(d["settings"])))
    if t == ROUND_STARTED and "base" in d:
        base = ", ".join(f"{n(k)} {v}" for k, v in d["base"].items())
        return f"round {d['round']} begins; base initiative ({d.get('condenser')}): {base}"
    if t == ZOOM_OPENED:
        who = ", ".join(n(p) for p in d.get("participants", []))
        scale = f", {d['range_scaling']} scale" if d.get("range_scaling") else ""
        return (f"zoom in ({d.get('time_scale')}{scale}, {d.get('round_limit')} rounds) with "
                f"{who}: {d.get('reason')}")
    if t == ev.AWARENESS:
        return f"{n(d['participant'])} rolls awareness: {_succ(d)} (kept for the conflict)"
    if t == ev.AMBUSH:
        parts = [f"{n(r['target'])} {r['successes']} → "
                 + ("ambushed" if r["ambushed"] else "not fooled") for r in d["targets"]]
        return f"{n(d['ambusher'])} ambushes with {_succ(d['roll'])}: " + "; ".join(parts)
    if t == "counter_rolled":
        return "counter roll against an ambush: " + "; ".join(
            f"{n(r['target'])} {_successes(r['successes'])}" for r in d["targets"])
    if t == ev.RANGE_SET:
        return f"GM sets {n(d['a'])} ↔ {n(d['b'])} to {_band(d['band'])}"
    if t == ev.RANGE_CHANGED:
        return (f"{n(d['a'])} ↔ {n(d['b'])}: {_band(d.get('was'))} → {_band(d['band'])} "
                f"({d.get('why', '')})")
    if t == ev.GROUP_FORMED:
        return f"group {d['group']}: {', '.join(n(m) for m in d['members'])} stand together"
    if t == ev.GROUP_DISSOLVED:
        return f"group {d['group']} dissolved"
    if t == ev.GROUP_LEFT:
        return f"{n(d['participant'])} moved alone and leaves group {d['group']}"
    if t == ev.HIDDEN:
        return f"{n(d['participant'])} is hidden from {', '.join(n(x) for x in d['from'])}"
    if t == ev.REVEALED:
        band = f" at {_band(d['band'])}" if d.get("band") is not None else ""
        return f"{n(d['participant'])} is revealed to {', '.join(n(x) for x in d['from'])}{band}"
    if t == ev.MOVE_ORDER:
        return "awareness moves, best first: " + ", ".join(n(p) for p in d["order"])
    if t == ev.MOVER:
        against = ", ".join(n(p) for p in d["against"])
        return f"{n(d['participant'])}'s awareness move: one step against {against}"
    if t == ev.MOVER_DONE:
        return f"{n(d['participant'])}'s awareness move is over"
    if t == ev.MOVES_DONE:
        return "the awareness moves are over"
    if t == ev.DECLARED:
        how = " (nothing declared: acts once at base)" if d.get("default") else ""
        base = f" (base {d['base']})" if "base" in d else ""
        return (f"{n(d['participant'])} acts at {', '.join(map(str, d['scores']))}"
                f"{base}{how}")
    if t == ev.TIE:
        rolls = ", ".join(f"{n(k)} {v}" for k, v in d["successes"].items())
        at = f"initiative {d['score']}" if d.get("score") is not None else "awareness moves"
        return f"tie at {at} (awareness {d.get('awareness')}): roll-off {rolls}"
    if t == ev.COUNTDOWN:
        return "countdown: " + ", ".join(f"{n(a)} {s}" for a, s in d["order"])
    if t == ev.ACTION:
        return _describe_action(d, n)
    if t == ev.DAMAGE:
        src = f" from {n(d['source'])}" if d.get("source") else ""
        left = f"; {d['left']} left" if "left" in d else ""
        return (f"{n(d['participant'])} takes {d['amount']} {d['condenser']} damage{src} "
                f"({d['reason']}){left}")
    if t == ev.RECOVERED:
        return f"{n(d['participant'])} recovers {d['amount']} {d['condenser']}"
    return None


def _describe_action(d: dict[str, Any], n: Any) -> str:
    what = d.get("name") or d["action"]
    tg = f" {', '.join(n(x) for x in d['targets'])}" if d.get("targets") else ""
    res = "success" if d["success"] else "failure"
    extra = f", {d['extra']} extra" if d["extra"] else ""
    spent = f" (spent: {', '.join(f'{k} {v}' for k, v in d['spent'].items())})" \
        if d.get("spent") else ""
    say = f" — “{d['say']}”" if d.get("say") else ""
    effect = f" — effect: {d['effect']}" if d.get("effect") else ""
    extras = f" [extras: {d['extras_text']}]" if d.get("extras_text") else ""
    if d.get("not_bought"):
        extras += f" (not enough extra successes for: {', '.join(d['not_bought'])})"
    if d.get("unrated") and "pool" in d:
        what += f" (no {d['skill']} rating: pool of {d['pool']})"
    return (f"{n(d['actor'])}: {what}{tg}{say}; {_succ(d)} vs difficulty {d['difficulty']}: "
            f"{res}{extra}{spent}{extras}{effect}")


# --------------------------------------------------------------------------- views

def view_lines(state: ConflictState, viewer: Viewer) -> list[str]:
    """Text lines: the table line, band meanings, phase, whose turn, ranges."""
    s, ext = state.settings, ext_of(state)

    def see(pid: str) -> bool:
        return can_see(state, viewer, pid)

    lines = [] if _table_secret(state, viewer) else [table_line(s), *meaning_lines(s)]
    if state.depth:
        by = ext.opened_by
        why = f" by {name(state, by)}: {ext.zoom_reason}" if by and see(by) else ""
        lines.append(f"zoomed in (depth {state.depth}){why}, round {state.round}/"
                     f"{state.round_limit}")
    if state.status == "ended":
        pass  # the engine's header says how it ended; nobody's turn is pending
    elif ext.phase == ph.START:
        todo = [name(state, p) for p in state.active_ids() if p not in ext.awareness and see(p)]
        lines.append("start: awareness still to roll: " + (", ".join(todo) or "nobody"))
    elif ext.phase == ph.MOVES:
        mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
        against = [name(state, p) for p in ext.move_order[ext.mover + 1:] if see(p)]
        who = name(state, mover) if mover and see(mover) else "the GM"
        lines.append(f"awareness move: {who} against {', '.join(against) or 'nobody'}")
    elif ext.phase == ph.DECLARE:
        waiting = [name(state, p) for p in ext.base if p not in ext.countdown.declarations
                   and see(p)]
        lines.append(f"round {state.round}: declaring; still to declare: "
                     + (", ".join(waiting) or "nobody"))
    elif ext.phase == ph.COUNTDOWN:
        cur = ext.countdown.current
        now = "nobody"
        if cur is not None:
            now = f"{name(state, cur.actor)} at {cur.score}" if see(cur.actor) else "the GM"
        rest = [f"{name(state, x.actor)} {x.score}" for x in ext.countdown.remaining()
                if see(x.actor)]
        lines.append(f"round {state.round}: acting now: {now}; to come: "
                     + (", ".join(rest) or "nobody"))
    else:
        lines.append(f"between rounds (round {state.round} done)")
    for a, b, band in ext.ranges.pairs():
        if band_visible(state, viewer, a, b) and state.participants[a].active \
                and state.participants[b].active:
            lines.append(f"{name(state, a)} ↔ {name(state, b)}: {_band(band)}")
    if viewer.is_gm:
        for h, xs in ext.ranges.hidden.items():
            lines.append(f"{name(state, h)} hidden from {', '.join(name(state, x) for x in xs)}")
    else:
        mine = _mine(state, viewer)
        for h, xs in ext.ranges.hidden.items():
            if h in mine:
                lines.append(f"{name(state, h)} hidden from "
                             + ", ".join(name(state, x) for x in xs if see(x)))
    for g, members in ext.groups.items():
        vis = [name(state, m) for m in members if see(m)]
        if len(vis) > 1:
            lines.append(f"group {g}: {', '.join(vis)}")
    return lines


def view_ext(state: ConflictState, viewer: Viewer) -> dict[str, Any]:
    """Lines plus structured data, filtered for ``viewer``."""
    if state.ext is None:
        return {"lines": []}
    s, ext = state.settings, ext_of(state)

    def see(pid: str) -> bool:
        return can_see(state, viewer, pid)

    mover = ext.move_order[ext.mover] if ext.phase == ph.MOVES and \
        0 <= ext.mover < len(ext.move_order) else None
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    return {
        "lines": view_lines(state, viewer),
        "table_line": None if _table_secret(state, viewer) else table_line(s),
        "meanings": [] if _table_secret(state, viewer) else meaning_lines(s),
        "phase": ext.phase,
        "condenser": condenser_of(s),
        "mover": mover if mover and see(mover) else None,
        "move_against": [p for p in ext.move_order[ext.mover + 1:] if see(p)] if mover else [],
        "acting": [cur.actor, cur.score] if cur and see(cur.actor) else None,
        "to_come": [[x.actor, x.score] for x in ext.countdown.remaining() if see(x.actor)]
        if cur else [],
        "declared": {a: v for a, v in ext.countdown.declarations.items() if see(a)},
        "ranges": [[a, b, BANDS[band]] for a, b, band in ext.ranges.pairs()
                   if band_visible(state, viewer, a, b)],
        "groups": {g: [m for m in ms if see(m)] for g, ms in ext.groups.items()
                   if sum(map(see, ms)) > 1},
    }


def view_participant(state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
    """Condensers at a glance, awareness and declarations."""
    if state.ext is None:
        return {}
    ext = ext_of(state)
    p = state.participants[pid]
    kind = condenser_of(state.settings)
    own = viewer.is_gm or (viewer.player is not None and p.owner == viewer.player)
    pools = ext.condenser.get(pid, {})
    shown = {c: [pool.current, pool.maximum] for c, pool in pools.items()
             if own or c not in p.gm_only}
    summary = f"{kind} {current_condenser(state, pid)}/{pools[kind].maximum}" \
        if kind in shown and kind in pools else f"{kind} ?"
    aw = ext.awareness.get(pid)
    if aw is not None:
        summary += f" · awareness {aw}"
    return {"summary": summary, "condensers": shown, "awareness": aw,
            "declared": ext.countdown.declarations.get(pid)}


# --------------------------------------------------------------------------- legal commands

def legal_commands(state: ConflictState, actor: str | None) -> list[str]:
    """Concrete text commands (templates for values the user picks)."""
    if state.ext is None:
        return []
    ext = ext_of(state)
    ids = state.active_ids()
    if actor is None:
        return _gm_commands(state)
    if actor not in ids:
        return []
    p = f"{actor}:"
    if ext.phase == ph.START:
        out = [] if actor in ext.awareness else [f"{p} awareness", f"{p} awareness dice=DICE"]
        targets = [t for t in ids if t != actor and t not in ext.ambushed.get(actor, [])
                   and not ext.ranges.is_hidden(t, actor)]
        return out + ([f"{p} ambush {','.join(targets)}"] if targets else [])
    if ext.phase == ph.MOVES:
        mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
        if mover != actor:
            return []
        out = []
        for t in ext.move_order[ext.mover + 1:]:
            if t in ext.stepped or ext.ranges.is_hidden(t, actor) or t not in ids:
                continue
            band = ext.ranges.get(actor, t)
            if band > 0:
                out.append(f"{p} step {t} toward")
            if band < 2:
                out.append(f"{p} step {t} away")
        return [*out, f"{p} done"]
    if ext.phase == ph.DECLARE:
        if actor in ext.base and actor not in ext.countdown.declarations:
            return [f"{p} declare {ext.base[actor]}", f"{p} declare SCORES"]
        return []
    if ext.phase != ph.COUNTDOWN:
        return []
    cur = ext.countdown.current
    if cur is None or cur.actor != actor:
        return []
    if ext.acted:
        return [f"{p} done"]
    seen = [t for t in ids if t != actor and not ext.ranges.is_hidden(t, actor)]
    out = [f"{p} attack {t}" for t in seen] + [f"{p} push {t}" for t in seen]
    for t in seen:
        band = ext.ranges.get(actor, t)
        if band > 0:
            out.append(f"{p} move {t} toward")
        if band < 2:
            out.append(f"{p} move {t} away")
    out += [f"{p} hide", f"{p} search", f"{p} recover",
            f"{p} act NAME skill=SKILL difficulty=N", f"{p} done"]
    if state.settings["time_scale"] != "fast":
        out.append(f"{p} zoom {','.join(seen) or actor} reason=TEXT")
    return out


def _gm_commands(state: ConflictState) -> list[str]:
    ext = ext_of(state)
    out = ["set-range A B BAND", "group NAME A,B", "damage WHO N", "end REASON"]
    if ext.phase == ph.START:
        out = ["moves", *out]
    elif ext.phase == ph.READY:
        out = ["round", *out]
    elif ext.phase == ph.DECLARE:
        out = ["countdown", *out]
    return out
