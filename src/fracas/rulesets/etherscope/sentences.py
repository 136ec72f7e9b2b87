"""Etherscope's log sentences: one describe handler per event class, built from the (possibly
redacted) typed event; a value the viewer may not know reads ``?``."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from fracas.engine.engine_events import ConflictCreated, ZoomClosed
from fracas.engine.model import ConflictState
from fracas.engine.secrets import shown
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope.common import name
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.settings import BANDS, meaning_lines, table_line

H = HANDLERS

#: The settings the table line and the band meanings are made of (ES-SET-7).
TABLE_SETTINGS = frozenset({"nature", "reality", "time_scale", "range_scaling"})


def _n(state: ConflictState, pid: Any) -> str:
    return name(state, pid) if isinstance(pid, str) else "someone"


def _names(state: ConflictState, ids: Any) -> str:
    return ", ".join(_n(state, p) for p in ids or ())


def band_name(n: Any) -> str:
    """A band's name for a sentence (Close, Near, Distant)."""
    return BANDS[int(n)].capitalize() if isinstance(n, int) and 0 <= n <= 2 else "unchanged"


def _successes(n: Any) -> str:
    return f"{n} success{'' if n == 1 else 'es'}"


def _succ(text: Any, successes: Any, table: Any) -> str:
    count = _successes(successes)
    return str(text or (f"{count} (table)" if table else count))


def _nested(r: dict[str, Any]) -> str:
    return _succ(r.get("text"), r.get("successes"), r.get("table"))


@H.describes(ConflictCreated)
def _created(e: ConflictCreated, state: ConflictState) -> str | None:
    table = e.settings
    if TABLE_SETTINGS - set(table) or (table.get("range_scaling") == "custom"
                                       and "custom_scaling" not in table):
        return None  # a GM-only table setting: the engine's plain sentence
    return (f"conflict set up: {e.title or 'Etherscope'}. "
            f"{table_line(table)} " + "; ".join(meaning_lines(table)))


@H.describes(ev.EsRoundStarted)
def _round(e: ev.EsRoundStarted, state: ConflictState) -> str | None:
    if e.base is None:
        return None
    base = ", ".join(f"{_n(state, k)} {v}" for k, v in e.base.items())
    return f"round {e.round} begins; base initiative ({e.condenser}): {base}"


@H.describes(ev.EsZoomOpened)
def _zoom(e: ev.EsZoomOpened, state: ConflictState) -> str:
    who = _names(state, e.participants)
    scale = f", {e.range_scaling} scale" if e.range_scaling else ""
    why = f": {e.reason}" if e.reason is not None else ""
    return f"zoom in ({shown(e.time_scale)}{scale}, {shown(e.round_limit)} rounds) with {who}{why}"


@H.describes(ZoomClosed)
def _zoom_closed(e: ZoomClosed, state: ConflictState) -> str:
    """ES-ACT-1, ES-ACT-2: the conflict play returns to — the main one, or the zoom it was
    opened from (judged, as every log sentence, on the state after the record: the closed
    zoom is gone, and the level play returns to is the innermost)."""
    back = state.innermost
    where = "the main conflict" if back.depth == 0 else \
        f"the zoomed-in conflict at depth {back.depth}"
    return f"back to {where} ({e.reason})"


H.says({
    ev.GroupFormed: "group {e.group}: {names.members} stand together",
    ev.GroupDissolved: "group {e.group} dissolved",
    ev.GroupLeft: "{who.participant} no longer stands with group {e.group} and leaves it",
    ev.AwarenessOrder: "awareness moves, best first: {names.order}",
    ev.MoverStarted: "{whose.participant} awareness move: one step against {names.against}",
    ev.MoverDone: "{whose.participant} awareness move is over",
    ev.MovesDone: "the awareness moves are over",
}, _n)


@H.describes(ev.Hidden)
def _hidden(e: ev.Hidden, state: ConflictState) -> str:
    """ES-RNG-1: whom a character is hidden from ("no one" the viewer may know of)."""
    return f"{_n(state, e.participant)} is hidden from {_names(state, e.from_) or 'no one'}"


@H.describes(ev.AwarenessRolled)
def _awareness(e: ev.AwarenessRolled, state: ConflictState) -> str:
    return (f"{_n(state, e.participant)} rolls awareness: "
            f"{_succ(e.text, e.successes, e.table)} (kept for the conflict)")


@H.describes(ev.AmbushResolved)
def _ambush(e: ev.AmbushResolved, state: ConflictState) -> str:
    parts = [f"{_n(state, r['target'])} {r['successes']} → "
             + ("ambushed" if r["ambushed"] else "not fooled") for r in e.targets or ()]
    return f"{_n(state, e.ambusher)} ambushes with {_nested(e.roll or {})}: " + "; ".join(parts)


@H.describes(ev.CounterRolled)
def _counter(e: ev.CounterRolled, state: ConflictState) -> str:
    return "counter roll against an ambush: " + "; ".join(
        f"{_n(state, r['target'])} {_successes(r['successes'])}" for r in e.targets or ())


@H.describes(ev.RangeSet)
def _range_set(e: ev.RangeSet, state: ConflictState) -> str:
    return f"GM sets {_n(state, e.a)} ↔ {_n(state, e.b)} to {band_name(e.band)}"


@H.describes(ev.RangeChanged)
def _range_changed(e: ev.RangeChanged, state: ConflictState) -> str:
    return (f"{_n(state, e.a)} ↔ {_n(state, e.b)}: {band_name(e.was)} → {band_name(e.band)} "
            f"({e.why or ''})")


@H.describes(ev.Revealed)
def _revealed(e: ev.Revealed, state: ConflictState) -> str:
    """ES-RNG-3: whom a search found and at what band ("Kim finds Agent Black (Near)"), or
    whom the GM reveals to whom; a band the viewer may not know is left out."""
    if e.by is not None:
        band = f" ({band_name(e.band)})" if e.band is not None else ""
        return f"{_n(state, e.by)} finds {_n(state, e.participant)}{band}"
    band = f" at {band_name(e.band)}" if e.band is not None else ""
    return f"{_n(state, e.participant)} is revealed to {_names(state, e.from_)}{band}"


@H.describes(ev.InitiativeDeclared)
def _declared(e: ev.InitiativeDeclared, state: ConflictState) -> str:
    how = " (nothing declared: acts once at base)" if e.default else ""
    base = f" (base {e.base})" if e.base is not None else ""
    scores = shown(None) if e.scores is None else ", ".join(map(str, e.scores))
    return f"{_n(state, e.participant)} acts at {scores}{base}{how}"


@H.describes(ev.TieRolloff)
def _tie(e: ev.TieRolloff, state: ConflictState) -> str:
    rolls = ", ".join(f"{_n(state, k)} {v}" for k, v in (e.successes or {}).items())
    at = f"initiative {e.score}" if e.score is not None else "awareness moves"
    return f"tie at {at} (awareness {e.awareness}): roll-off {rolls}"


@H.describes(ev.CountdownStarted)
def _countdown(e: ev.CountdownStarted, state: ConflictState) -> str:
    order = e.order or ()
    scores = [s for _, s in order]
    tie = any(a is not None and a == b for a, b in pairwise(scores))
    # the rule whole: a tie of awareness too is settled by the roll-off logged before it
    why = (" (at the same initiative the higher awareness acts first, a roll-off settling "
           "equal awareness, ES-ROUND-5)" if tie else "")
    return "countdown: " + ", ".join(f"{_n(state, a)} {shown(s)}" for a, s in order) + why


@H.describes(ev.ActionResolved)
def _action(e: ev.ActionResolved, state: ConflictState) -> str:
    what = e.name or e.action
    tg = f" {_names(state, e.targets)}" if e.targets else ""
    res = "success" if e.success else "failure"
    extra = f", {shown(e.surplus)} extra" if e.success and e.surplus != 0 else ""
    spent = f" (spent: {', '.join(f'{_spent_on(e.action, k)} {v}' for k, v in e.spent.items())})" \
        if e.spent else ""
    say = f" — “{e.say}”" if e.say else ""
    effect = f" — effect: {e.effect}" if e.effect else ""
    extras = f" [extras: {e.extras_text}]" if e.extras_text else ""
    extras += _unspent(e, state)
    if e.not_bought:
        extras += f" (not enough extra successes for: {', '.join(e.not_bought)})"
    if e.unmoved:
        target = _names(state, e.targets)
        extras += (f" ({target} cannot be pushed any further relative to "
                   f"{_names(state, e.unmoved)}: already at the last band)")
    if e.unrated and e.pool is not None:
        what += f" (no {e.skill} rating: pool of {e.pool})"
    return (f"{_n(state, e.doer)}: {what}{tg}{say}; {_succ(e.text, e.successes, e.table)} "
            f"vs difficulty {shown(e.difficulty)}: {res}{extra}{spent}{extras}{effect}")


#: The harm of a condenser where the table calls it otherwise: a social conflict's, off the
#: society condenser, is composure (the seed's "composure damage", ES-SET-3).
HARM_OF = {"society": "composure"}


@H.describes(ev.Damage)
def _damage(e: ev.Damage, state: ConflictState) -> str:
    """ES-DMG-1: "Ada takes 2 physical damage …; 8 left"; in a social conflict "Ada takes 2
    composure damage …; society 8 left"."""
    src = f" from {_n(state, e.source)}" if e.source else ""
    harm = HARM_OF.get(e.condenser)
    left = f"{shown(e.left)} left" if harm is None else f"{e.condenser} {shown(e.left)} left"
    return (f"{_n(state, e.participant)} takes {shown(e.amount)} {harm or e.condenser} "
            f"damage{src} ({e.reason}); {left}")


def _unspent(e: ev.ActionResolved, state: ConflictState) -> str:
    """What the extra successes nothing bought are left to (ES-ACT-4, ES-ACT-5): a search's
    to no one more to find (as the viewer may know of finds), too few for another find; a
    GM-defined action's to the GM (the players read the same words: no GM command); a move's
    or a hide's (which buy no extras) to the GM's ruling; a Push Back's left over by what it
    asked for. Nothing where they are unknown."""
    left = e.unspent
    if not e.success or not isinstance(left, int) or left <= 0:
        return ""
    if e.action == "search":
        cost = state.settings.get("extra_cost")  # absent where it is the GM's
        why = "" if not isinstance(cost, int) else ": no one more to find" \
            if left >= max(1, cost) else ": too few for another find"
        return f" ({left} unspent{why})"
    if e.action not in ("act", "move", "hide"):
        return f" ({left} unspent)"
    if e.action != "act":
        return f" ({left} unspent: {e.action} buys no extras; for the GM to rule on)"
    how = "as its extras say" if e.extras_text else "as they rule"
    return f" ({left} unspent: for the GM to apply {how})"  # every viewer reads it: no command


#: What an action's extras bought, in the log's words, where its key is not them: a
#: recovery's and a search's "more" (more condenser regained; one more hidden character
#: found, ES-RNG-3), a Push Back's "two" (a second category moved, ES-ACT-5).
SPENT_ON = {("recover", "more"): "recovery", ("search", "more"): "finding more",
            ("push", "two"): "two categories"}


def _spent_on(action: str, key: str) -> str:
    """What extra successes were spent on, as the log says it ("recovery", "finding more",
    "two categories": never a bare "more" or "two")."""
    return SPENT_ON.get((action, key), key)


@H.describes(ev.Recovered)
def _recovered(e: ev.Recovered, state: ConflictState) -> str:
    """ES-DMG-1: what a recovery regained, and of how much the roll bought when the
    condenser's room took less (already full, or full again) or is the GM's to know."""
    who, amount, bought = _n(state, e.participant), e.amount, e.bought
    harm = HARM_OF.get(e.condenser)
    what = e.condenser if harm is None else f"{harm} ({e.condenser})"  # composure (society)
    if bought is None or amount == bought:
        return f"{who} recovers {shown(amount)} {what}"
    full = "" if amount is None else ": already full" if amount == 0 else ": full again"
    return f"{who} recovers {shown(amount)} of {bought} {what}{full}"
