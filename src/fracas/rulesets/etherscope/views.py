"""What each viewer sees: hidden-band projection (ES-RNG-1, ES-RNG-5, ES-RNG-6), the
redaction of events, and the view lines."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from fracas.engine.components import RangeBands
from fracas.engine.engine_events import ConflictCreated
from fracas.engine.events import (
    Event,
)
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.ruleset import nobody
from fracas.engine.secrets import redact_marked, setting_is_secret, shown, stat_is_secret
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.common import (
    Onlookers,
    Sight,
    active,
    current_condenser,
    ext_of,
    invisible,
    name,
    search_finds,
    sight_of,
)
from fracas.rulesets.etherscope.events import ES_EVENTS
from fracas.rulesets.etherscope.marks import default_score_secret, mask
from fracas.rulesets.etherscope.sentences import TABLE_SETTINGS, band_name
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
    ranges = ext_of(state).ranges
    if not ranges.hidden.get(pid):  # hidden from nobody: no need to ask whose they are
        return True
    return not invisible(ranges, sight_of(state, viewer), pid)


def band_visible(state: ConflictState, viewer: Viewer, a: str, b: str) -> bool:
    """ES-RNG-1: while one of a pair is hidden from the other, their band is the GM's."""
    if viewer.is_gm:
        return True
    r = ext_of(state).ranges
    if r.is_hidden(a, b) or r.is_hidden(b, a):
        return False
    return can_see(state, viewer, a) and can_see(state, viewer, b)


def redact(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """``event`` as a player sees it: characters hidden from all theirs do not exist (the one
    thing Etherscope judges itself); the values the marks of its fields call secret are masked
    (:func:`fracas.rulesets.etherscope.marks.mask`)."""
    if viewer.is_gm:
        return event
    out = _redact_hidden(state, event, viewer)
    if out is None or _tie_secret(state, out, viewer):
        return None
    return mask(out, state, viewer)


def _tie_secret(state: ConflictState, event: Event, viewer: Viewer) -> bool:
    """Whether ``event`` is a countdown tie among default declarations ``viewer`` may not
    know, each the base initiative of a GM-only (or harm-hidden) condenser: its score, and
    that they tie at all, would tell those bases (ES-ROUND-5). One with a score the viewer
    knows (a declaration they saw, or a base they see) is theirs to read: it tells nothing."""
    return isinstance(event, ev.TieRolloff) and event.score is not None and all(
        default_score_secret(state, viewer, p) for p in event.participants)


def _rebuilt(event: Event, data: dict[str, Any]) -> Event:
    return ES_EVENTS.make(event.type, data, event.actor, event.visibility)


def _after_reveal(ranges: RangeBands, who: Sequence[str], from_: Sequence[str]) -> RangeBands:
    """A copy of ``ranges`` with each of ``who`` revealed to each of ``from_``."""
    after = dataclasses.replace(ranges, hidden={k: list(v) for k, v in ranges.hidden.items()})
    for p in who:
        for x in from_:
            after.reveal(p, x)
    return after


def _redact_revealed(state: ConflictState, event: ev.Revealed, sight: Sight) -> Event | None:
    """A reveal as a player sees it, judged on the ranges after it: only by those who may know
    its participant now, and to whom of its ``from`` they may know; the band only where the
    pair's band is theirs to know (ES-RNG-1, ES-RNG-3, ES-RNG-6)."""
    after = _after_reveal(ext_of(state).ranges, (event.participant,), event.from_)
    if invisible(after, sight, event.participant):
        return None
    seen = tuple(x for x in event.from_ if not invisible(after, sight, x))
    if not seen:
        return None
    band = event.band if all(not after.is_hidden(x, event.participant) for x in seen) \
        else None  # the one found still hidden from: their band is the GM's (ES-RNG-1)
    if seen == event.from_ and band == event.band:
        return event
    return dataclasses.replace(event, from_=seen, band=band)


def _seen_mover(state: ConflictState, viewer: Viewer, order: Sequence[str]) -> int | None:
    """The first of ``order`` (awareness movers in turn) whose move ``viewer`` may know of:
    one taking part they see, moving against a later one they see; None: none is."""
    seen = [active(state, p) and can_see(state, viewer, p) for p in order]
    return next((i for i in range(len(order) - 1) if seen[i] and any(seen[i + 1:])), None)


def phase_seen(state: ConflictState, viewer: Viewer) -> str:
    """The phase as ``viewer`` is shown it: the moves over where :func:`moves_over_to`."""
    ext = ext_of(state)
    return ph.READY if moves_over_to(state, viewer) else ext.phase


def moves_over_to(state: ConflictState, viewer: Viewer) -> bool:
    """Whether the awareness moves run on only among those hidden from all of ``viewer``'s
    characters: to them the moves are over, as they would be without those (ES-START-5,
    ES-RNG-6) — the log said so when the last move they know of ended."""
    ext = ext_of(state)
    return not viewer.is_gm and ext.phase == ph.MOVES and ext.mover >= 0 and \
        _seen_mover(state, viewer, ext.move_order[ext.mover:]) is None


def _moves_as_seen(state: ConflictState, event: ev.MoverStarted | ev.MovesDone,
                   viewer: Viewer) -> Event | None:
    """A move's start, or the moves' end, as a player sees it: the moves are over once none
    is left that they may know of — where the last move they know of ends, not where a move
    among hidden characters (or against them only) does (ES-START-5, ES-RNG-6). ``event``
    itself where that changes nothing."""
    told = moves_over_to(state, viewer)
    if isinstance(event, ev.MovesDone):
        return None if told else event
    if _seen_mover(state, viewer, (event.participant, *event.against)) is not None:
        return event
    return None if told else ev.MovesDone()


def uncounted(state: ConflictState, event: Event, viewer: Viewer) -> Event:
    """``event`` less what it counts of those hidden from ``viewer``: a search's finds; and
    all of a member's leaving a group that stands with someone hidden from all of theirs (a
    group they may not know of: a copy, as nothing of it is theirs to miss, so the move or
    push that broke it reads as typed, ES-RNG-6); and a zoom as every player reads it,
    whose settings no zoom command holds."""
    if viewer.is_gm or state.ext is None:
        return event
    if isinstance(event, ev.MoverStarted):  # a move they may not know of ends their moves
        seen = _moves_as_seen(state, event, viewer)
        return event if seen is None else seen
    if isinstance(event, ev.EsZoomOpened):
        return _zoom_as_read(state, event, viewer)
    if isinstance(event, ev.GroupLeft):
        members = ext_of(state).groups.get(event.group, [])
        sight = sight_of(state, viewer)
        known = sum(not invisible(ext_of(state).ranges, sight, m) for m in members)
        return dataclasses.replace(event) if known < 2 else event
    if not isinstance(event, ev.ActionResolved) or event.action != "search":
        return event
    return _search_as_seen(state, event, sight_of(state, viewer))


def _zoom_as_read(state: ConflictState, event: ev.EsZoomOpened, viewer: Viewer) -> Event:
    """A zoom as every player reads it: without its settings, the bands under a hidden flag
    and the GM-only settings it derives from (ES-RNG-1), none of which its command's text
    (whom, why, whether it starts anew, its scaling) holds — so a player who sees the zoom
    reads its command as typed, not as "Ada: zoom" (ES-ACT-1)."""
    marked = redact_marked(event, state, viewer, lambda pid: can_see(state, viewer, pid))
    out = None if marked is None else redact(state, marked, viewer)
    return event if out is None else out


def _search_as_seen(state: ConflictState, event: ev.ActionResolved,
                    sight: Sight) -> ev.ActionResolved:
    """A search's extras spent on finding more, counting only the finds the player may read
    of: a find hidden from them reads as no find, its extra success unspent (ES-RNG-6)."""
    more = (event.spent or {}).get("more", 0)
    if not more:
        return event
    found = search_finds(state, event.doer, event.surplus or 0)
    after = _after_reveal(ext_of(state).ranges, found, (event.doer,))
    cost = max(1, state.settings["extra_cost"])
    shown = max(0, sum(not invisible(after, sight, p) for p in found) - 1) * cost
    if shown == more:
        return event
    spent = {k: v for k, v in (event.spent or {}).items() if k != "more"}
    if shown:
        spent["more"] = shown
    return dataclasses.replace(event, spent=spent, unspent=(event.unspent or 0) + more - shown)


def _redact_hidden(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """``event`` as a player sees it: characters hidden from all theirs do not exist."""
    if isinstance(event, ConflictCreated):
        return _redact_created(event, viewer)
    if state.ext is None:
        return event
    ranges = ext_of(state).ranges
    sight = sight_of(state, viewer)
    if isinstance(event, ev.AmbushResolved):
        return _redact_ambush(state, event, sight)
    if isinstance(event, ev.Revealed):
        return _redact_revealed(state, event, sight)
    if isinstance(event, ev.MoverStarted | ev.MovesDone):
        seen = _moves_as_seen(state, event, viewer)
        if seen is not event:
            return seen

    def gone(pid: Any) -> bool:
        return isinstance(pid, str) and invisible(ranges, sight, pid)

    d = event.data
    zoom = isinstance(event, ev.EsZoomOpened)  # (its opener is judged below)
    if (gone(event.actor) and not zoom) \
            or any(gone(d.get(k)) for k in ("participant", "ambusher", "a", "b")):
        return None
    if isinstance(event, ev.ActionResolved) and event.action == "search":
        event = _search_as_seen(state, event, sight)
        d = event.data
    ext = ext_of(state)

    def unseen_group(members: Sequence[str]) -> bool:
        # a group is known to a player only with two members they may see
        return sum(not gone(m) for m in members) < 2

    if isinstance(event, ev.GroupFormed) and unseen_group(event.members):
        return None
    if isinstance(event, ev.GroupLeft | ev.GroupDissolved) and \
            unseen_group(ext.groups.get(event.group, [])):
        return None
    if isinstance(event, ev.MoverDone):
        later = ext.move_order[ext.mover + 1:] if ext.mover >= 0 else []
        if not any(not gone(p) for p in later):
            return None  # a move against nobody the player knows: the GM's
    if isinstance(event, ev.RangeSet | ev.RangeChanged):
        if ranges.is_hidden(event.a, event.b) or ranges.is_hidden(event.b, event.a):
            return None
        if isinstance(event, ev.RangeChanged) and gone(event.by):
            # a push by one they may not know of: the bands it moved, without its mover
            return dataclasses.replace(event, by=None)
        return event
    new = dict(d)
    changed = False
    for key in ("targets", "order", "against", "members", "participants", "from", "toward",
                "away", "unmoved"):
        value = d.get(key)
        if isinstance(value, list):
            kept = [x for x in value if not gone(_pid_of(x))]
            if len(kept) != len(value):
                new[key], changed = kept, True
    if isinstance(event, ev.ActionResolved) and event.unmoved and event.targets:
        # the edge a push stopped at is the band's: not where it is the GM's (ES-RNG-1)
        t = event.targets[0]
        edge = [x for x in new["unmoved"]
                if not (ranges.is_hidden(t, x) or ranges.is_hidden(x, t))]
        if len(edge) != len(new["unmoved"]):
            new["unmoved"], changed = edge, True
    for key in ("base", "rolls", "successes", "awareness"):
        value = d.get(key)
        if isinstance(value, dict):
            kept_d = {k: v for k, v in value.items() if not gone(k)}
            if len(kept_d) != len(value):
                new[key], changed = kept_d, True
    if gone(d.get("source")):
        new["source"], changed = None, True
    if isinstance(event, ev.MoverStarted) and not new.get("against"):
        return None
    if isinstance(event, ev.TieRolloff) and len(new.get("participants", [])) < 2:
        return None
    if isinstance(event, ev.EsZoomOpened):
        if not new.get("participants"):
            return None  # a zoom among those the player may not know: none of it is theirs
        if gone(d.get("opened_by")) or gone(event.actor):
            # one they may not know pulled theirs in: the zoom they see, not its opener nor
            # the opener's words for it
            new["opened_by"], new["reason"] = None, None
            event = dataclasses.replace(event, actor=None)
        hidden = d.get("hidden", {})

        def secret(a: str, b: str) -> bool:  # ES-RNG-1: the band under a hidden flag
            return b in hidden.get(a, []) or a in hidden.get(b, [])

        new["bands"] = {k: v for k, v in d.get("bands", {}).items()
                        if not any(gone(x) for x in k.split("|")) and not secret(*k.split("|"))}
        new["hidden"] = {}
        new.pop("settings", None)
        changed = True
    return _rebuilt(event, new) if changed else event


def _pid_of(x: Any) -> Any:
    if isinstance(x, list) and x:
        return x[0]
    if isinstance(x, dict):
        return x.get("target")
    return x


def _redact_created(event: ConflictCreated, viewer: Viewer) -> Event:
    d = event.data
    settings = d.get("settings", {})
    lurking: dict[str, list[str]] = settings.get("lurking", {})
    mine = [p["id"] for p in d.get("participants", []) if p.get("player") == viewer.player]
    drop = {lk for lk, ts in lurking.items()
            if lk not in mine and (all(m in ts for m in mine) if mine else True)}
    hidden = set(settings.get("gm_only_settings", []))
    new = dict(d)
    new["participants"] = [  # GM-only stats are the GM's alone: their owner's player's too
        {**p, "stats": {k: v for k, v in p.get("stats", {}).items()
                        if k not in p.get("gm_only", [])}}
        for p in d.get("participants", []) if p["id"] not in drop]
    new["settings"] = {k: v for k, v in settings.items()
                       if k not in hidden and k != "gm_only_settings"}
    return _rebuilt(event, new)


def _redact_ambush(state: ConflictState, event: ev.AmbushResolved, sight: Sight
                   ) -> Event | None:
    """ES-START-4: a successful ambush is never seen by those it hid from."""
    ranges = ext_of(state).ranges
    who = event.ambusher
    after = dataclasses.replace(ranges, hidden={k: list(v) for k, v in ranges.hidden.items()})
    for r in event.targets or ():
        (after.hide if r["ambushed"] else after.reveal)(who, r["target"])
    if not invisible(after, sight, who):  # seen: without the targets the viewer cannot know
        seen = tuple(r for r in event.targets or () if not invisible(ranges, sight, r["target"]))
        return event if seen == (event.targets or ()) else dataclasses.replace(
            event, targets=seen)
    own = [] if isinstance(sight, Onlookers) else [
        r for r in event.targets or () if r["target"] in sight]
    if not own:
        return None
    # the viewer's characters rolled a counter roll: show it without the ambusher
    return ev.CounterRolled(targets=tuple({k: v for k, v in r.items() if k != "ambushed"}
                                          for r in own))


def _table_secret(state: ConflictState, viewer: Viewer) -> bool:
    """Whether the table line and band meanings would show ``viewer`` a GM-only setting."""
    hidden = set(state.settings.get("gm_only_settings", []))
    return not viewer.is_gm and bool(hidden & {*TABLE_SETTINGS, "custom_scaling"})


def _score(state: ConflictState, viewer: Viewer, pid: str, score: int) -> int | None:
    """A countdown score as ``viewer`` may know it (a secret default declaration: None)."""
    return None if default_score_secret(state, viewer, pid) else score


# --------------------------------------------------------------------------- views

def view_lines(state: ConflictState, viewer: Viewer,
               names_unknown: Callable[[str], bool] = nobody) -> list[str]:
    """Text lines: the table line, band meanings, phase, whose turn, ranges (a zoom's opener
    and reason as :func:`_zoom_origin` gives them)."""
    s, ext = state.settings, ext_of(state)

    def see(pid: str) -> bool:
        return can_see(state, viewer, pid)

    lines = [] if _table_secret(state, viewer) else [table_line(s), *meaning_lines(s)]
    origin = _zoom_origin(state, viewer, names_unknown)
    if state.depth:
        by, reason = (origin["by"], origin["reason"]) if origin else (None, None)
        why = (f" by {name(state, by)}" if by else "") + (f": {reason}" if reason else "")
        limit = "?" if round_limit_secret(state, viewer) else state.round_limit
        when = (f"round {state.round}/{limit}" if state.round
                else f"{limit} rounds at most")  # never "round 0/5"
        lines.append(f"zoomed in (depth {state.depth}){why}, {when}")
    if state.status == "ended":
        pass  # the engine's header says how it ended; nobody's turn is pending
    elif ext.phase == ph.START:
        todo = [name(state, p) for p in state.active_ids() if p not in ext.awareness and see(p)]
        lines.append("start: awareness still to roll: " + ", ".join(todo) if todo else
                     "start: every awareness roll is made; after any ambushes and starting "
                     "ranges the GM's 'moves' begins the awareness moves")
    elif phase_seen(state, viewer) == ph.MOVES:
        mover = ext.move_order[ext.mover] if 0 <= ext.mover < len(ext.move_order) else None
        if mover and see(mover):
            against = [name(state, p) for p in ext.move_order[ext.mover + 1:] if see(p)]
            lines.append(f"awareness move: {name(state, mover)} against {', '.join(against)}")
        else:  # whom a hidden one moves against would tell of it; who is still to move
            # after it, of those the viewer knows, does not (they read the move order)
            later = [name(state, p) for p in ext.move_order[ext.mover + 1:]
                     if see(p) and state.participants[p].active]
            lines.append("awareness move: the GM; still to move: " + (", ".join(later)
                                                                      or "nobody"))
    elif ext.phase == ph.DECLARE:
        waiting = [name(state, p) for p in ext.base if p not in ext.countdown.declarations
                   and see(p)]
        lines.append(f"round {state.round}: declaring; still to declare: "
                     + (", ".join(waiting) or "nobody"))
    elif ext.phase == ph.COUNTDOWN:
        cur = ext.countdown.current
        now = "nobody"
        if cur is not None:
            score = shown(_score(state, viewer, cur.actor, cur.score))
            now = f"{name(state, cur.actor)} at {score}" if see(cur.actor) else "the GM"
        rest = [f"{name(state, x.actor)} {shown(_score(state, viewer, x.actor, x.score))}"
                for x in ext.countdown.remaining() if see(x.actor)]
        lines.append(f"round {state.round}: acting now: {now}; to come: "
                     + (", ".join(rest) or "nobody"))
    else:
        lines.append((f"between rounds (round {state.round} done): the GM starts the next one"
                      if state.round else "before round 1: the GM starts it")  # never round 0
                     + " with 'round'" + ("; 'end REASON' returns to the conflict above"
                                          if state.depth else ""))
    late = [name(state, p) for p in state.active_ids() if p not in ext.awareness and see(p)]
    if late and ext.phase != ph.START:
        lines.append("joined late, awareness still to roll (0 in ties until then): "
                     + ", ".join(late))
    for a, b, band in ext.ranges.pairs():
        if band_visible(state, viewer, a, b) and state.participants[a].active \
                and state.participants[b].active:
            lines.append(f"{name(state, a)} ↔ {name(state, b)}: {band_name(band)}")
    if viewer.is_gm:
        for h, xs in ext.ranges.hidden.items():
            lines.append(f"{name(state, h)} hidden from {', '.join(name(state, x) for x in xs)}")
    else:
        mine = _mine(state, viewer)
        for h, xs in ext.ranges.hidden.items():
            seen = [name(state, x) for x in xs if see(x)] if h in mine else []
            if seen:  # hidden from none they know of: nothing to say
                lines.append(f"{name(state, h)} hidden from {', '.join(seen)}")
    for g, members in ext.groups.items():
        vis = [name(state, m) for m in members if see(m)]
        if len(vis) > 1:
            lines.append(f"group {g}: {', '.join(vis)}")
    return lines


def round_limit_secret(state: ConflictState, viewer: Viewer) -> bool:
    """Whether ``viewer`` may not know a zoom's round limit: ``zoom_rounds``, which set it,
    is GM-only (ES-ACT-1)."""
    return state.depth > 0 and setting_is_secret(state, viewer, "zoom_rounds")


def phase_text(state: ConflictState, phase: str) -> str:
    """The phase ``phase`` in words for the table: before the first round (after the start,
    or at a zoom's start) "before round 1", never "between rounds" (ES-ROUND-1)."""
    if state.status == "ended":
        return "the conflict is over"
    if phase == ph.READY and not state.round:
        return ph.BEFORE_FIRST
    return ph.PHASE_TEXT[phase]


def view_ext(state: ConflictState, viewer: Viewer,
             names_unknown: Callable[[str], bool] = nobody) -> dict[str, Any]:
    """Lines plus structured data, filtered for ``viewer`` (``names_unknown``:
    :meth:`Ruleset.view_ext`)."""
    if state.ext is None:
        return {"lines": []}
    s, ext = state.settings, ext_of(state)

    def see(pid: str) -> bool:
        return can_see(state, viewer, pid)

    phase = phase_seen(state, viewer)
    mover = ext.move_order[ext.mover] if phase == ph.MOVES and \
        0 <= ext.mover < len(ext.move_order) else None
    if mover is not None and not see(mover):
        mover = None  # and whom it moves against would tell of it
    cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
    return {
        "lines": view_lines(state, viewer, names_unknown),
        "table_line": None if _table_secret(state, viewer) else table_line(s),
        "meanings": [] if _table_secret(state, viewer) else meaning_lines(s),
        "phase": phase,
        "phase_text": phase_text(state, phase),
        "condenser": condenser_of(s),
        "mover": mover,
        "move_against": [p for p in ext.move_order[ext.mover + 1:] if see(p)] if mover else [],
        # those still to move that the viewer knows of, whoever moves now (one hidden from
        # them as well: they read the order and every move before it, so this tells nothing)
        "to_move": [p for p in ext.move_order[ext.mover + 1:]
                    if see(p) and state.participants[p].active] if phase == ph.MOVES else [],
        "acting": [cur.actor, _score(state, viewer, cur.actor, cur.score)]
        if cur and see(cur.actor) else None,
        "to_come": [[x.actor, _score(state, viewer, x.actor, x.score)]
                    for x in ext.countdown.remaining() if see(x.actor)] if cur else [],
        "declared": {a: None if default_score_secret(state, viewer, a) else v
                     for a, v in ext.countdown.declarations.items() if see(a)},
        "lane": _lane(state, viewer),
        "to_declare": [p for p in ext.base if p not in ext.countdown.declarations and see(p)]
        if ext.phase == ph.DECLARE else [],
        # ES-START-1: the moves wait until every character has rolled awareness
        "to_roll": [p for p in state.active_ids() if p not in ext.awareness and see(p)]
        if ext.phase == ph.START else [],
        "ranges": [[a, b, BANDS[band]] for a, b, band in ext.ranges.pairs()
                   if band_visible(state, viewer, a, b)],
        "groups": {g: [m for m in ms if see(m)] for g, ms in ext.groups.items()
                   if sum(map(see, ms)) > 1},
        "hidden": hidden_from(state, viewer),
        "zoom": _zoom_origin(state, viewer, names_unknown),
    }


def _lane(state: ConflictState, viewer: Viewer) -> list[list[Any]]:
    """This round's countdown, once begun (between rounds, the last round's), in the order it
    acts: ties as ES-ROUND-5 settled them, a slot the GM let act now where it was moved to
    (ES-ROUND-4); each slot ``[participant, score, when]``, ``when`` "done", "now" or "to
    come". Only those ``viewer`` may see, a secret default declaration's score None."""
    cd = ext_of(state).countdown
    if not cd.started:
        return []
    return [[x.actor, _score(state, viewer, x.actor, x.score),
             "done" if i < cd.position else "now" if i == cd.position else "to come"]
            for i, x in enumerate(cd.queue)
            if x.actor in cd.declarations and can_see(state, viewer, x.actor)]


def _zoom_origin(state: ConflictState, viewer: Viewer,
                 names_unknown: Callable[[str], bool] = nobody) -> dict[str, str | None] | None:
    """A zoomed-in conflict's opener and reason (ES-ACT-1), to head its level, as the view's
    line says them: only to those who may know the opener (None otherwise, and at depth 0),
    the reason left out (None) where it names one they may not know (``names_unknown``) —
    never cut short by the net, which would drop the whole or take a name out of it as if
    from a list of names."""
    by, reason = ext_of(state).opened_by, ext_of(state).zoom_reason
    if not state.depth or by is None or not can_see(state, viewer, by) or names_unknown(by):
        return None
    return {"by": by, "reason": None if names_unknown(reason) else reason}


def hidden_from(state: ConflictState, viewer: Viewer) -> dict[str, list[str]]:
    """Who is hidden from whom, as ``viewer`` may know it (ES-RNG-1): every flag for the GM; for
    a player, their own characters' flags, against those they may see (as the view lines say)."""
    hidden = ext_of(state).ranges.hidden
    if viewer.is_gm:
        return {h: list(xs) for h, xs in hidden.items() if xs}
    mine = _mine(state, viewer)
    out = {h: [x for x in xs if can_see(state, viewer, x)] for h, xs in hidden.items()
           if h in mine}
    return {h: xs for h, xs in out.items() if xs}


def view_participant(state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
    """Condensers at a glance, awareness and declarations."""
    if state.ext is None:
        return {}
    ext = ext_of(state)
    kind = condenser_of(state.settings)
    pools = ext.condenser.get(pid, {})  # GM-only means the GM's only, the owner's too
    pools_shown = {c: [pool.current, pool.maximum] for c, pool in pools.items()
                   if not stat_is_secret(state, viewer, pid, c)}
    summary = f"{kind} {current_condenser(state, pid)}/{pools[kind].maximum}" \
        if kind in pools_shown and kind in pools else f"{kind} ?"
    aw = ext.awareness.get(pid)
    if aw is not None:
        summary += f" · awareness {aw}"
    declared = None if default_score_secret(state, viewer, pid) else \
        ext.countdown.declarations.get(pid)
    out: dict[str, Any] = {"summary": summary, "condensers": pools_shown, "awareness": aw,
                           "declared": declared}
    if viewer.is_gm:  # the flags of others are the GM's (ES-RNG-1)
        out["hidden_from"] = hidden_from_players(state, pid)
    return out


def hidden_from_players(state: ConflictState, pid: str) -> list[str]:
    """The names of the players' characters ``pid`` is hidden from (ES-RNG-1), for the GM's
    card of it."""
    ranges = ext_of(state).ranges
    return [p.name for q, p in state.participants.items()
            if p.owner and q != pid and ranges.is_hidden(pid, q)]
