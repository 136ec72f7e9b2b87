"""Fabula Ultima's log sentences: one describe handler per event class, built from the
(possibly redacted) typed event; a value the viewer may not know reads ``?``."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import ResourcePool
from fracas.engine.describe import name_of
from fracas.engine.model import ConflictState
from fracas.engine.secrets import shown
from fracas.engine.words import possessive
from fracas.rulesets.fabula_ultima import events as ev
from fracas.rulesets.fabula_ultima.handlers import HANDLERS
from fracas.rulesets.fabula_ultima.state import Item

H = HANDLERS


def _check_text(text: Any, total: Any, dl: Any, hr: Any, critical: Any, fumble: Any,
                against: str = "?") -> str:
    """``TEXT vs DL, HR n``; a DL the viewer may not know reads as ``against`` (the target's
    Defense, or ``?``)."""
    tag = " — critical success!" if critical else " — fumble!" if fumble else ""
    vs = against if dl is None else str(dl)
    rolled = text if text else f"total {shown(total)}"
    return f"{rolled} vs {vs}, HR {shown(hr)}{tag}"


def _nested_check(d: dict[str, Any]) -> str:
    return _check_text(d.get("text"), d.get("total"), d.get("dl"), d.get("hr"),
                       d.get("critical"), d.get("fumble"))


H.says({
    ev.GoalSet: "{whose.participant} goal: {shown.text}",
    ev.Acted: "{who.actor}: {e.text}",
    ev.SideAssigned: "{who.participant} is on side {e.side} (was {e.was})",
}, name_of)


@H.describes(ev.ItemEquipped)
def _equipped(e: ev.ItemEquipped, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)} equips {Item(**e.item).text()}"


@H.describes(ev.ExtraSet)
def _extra(e: ev.ExtraSet, state: ConflictState) -> str:
    return f"{name_of(state, e.participant)} " + (
        "is an extra and takes no turns" if e.on else "takes part actively")


@H.describes(ev.InitiativeChecked)
def _initiative(e: ev.InitiativeChecked, state: ConflictState) -> str:
    support = ", ".join(
        f"{name_of(state, s['participant'])} {s['total']} "
        f"{'succeeds' if s['success'] else 'fails'}" for s in e.supporters)
    src = ("given" if e.dl_from == "given" else
           f"{possessive(name_of(state, e.dl_from))} Initiative" if e.dl_from else
           "the highest Initiative among the foes")
    verdict = "the PCs act first" if e.success else "their foes act first"
    return (f"{name_of(state, e.actor)} leads the Initiative Group Check: "
            f"{_nested_check(e.check or {})} (DL = {src}; support +{e.support}, bond "
            f"+{shown(e.bond)}" + (f"; {support}" if support else "")
            + f") — {verdict} every round")


@H.describes(ev.Attacked)
def _attacked(e: ev.Attacked, state: ConflictState) -> str:
    res = "hits" if e.hit else "misses"
    check = _check_text(e.text, e.total, e.dl, e.hr, e.critical, e.fumble, "Defense")
    return (f"{name_of(state, e.actor)} attacks with {shown(e.weapon)} against "
            f"{name_of(state, e.target)}: {check} — {res}")


@H.describes(ev.Cast)
def _cast(e: ev.Cast, state: ConflictState) -> str:
    """``Bea casts Hex (10 MP, inflicts Dazed) against Duchess: 5+4 = 9 vs 8, HR 5 — hits``;
    where the target holds that status already, ``…; Duchess is already Dazed, nothing added
    (FU-RES-4)``."""
    does = [f"{e.mp} MP"] if e.mp else []
    does += [f"inflicts {e.status.title()}"] if e.status else []
    who = f"{name_of(state, e.actor)} casts {e.name}" + (f" ({', '.join(does)})" if does else "")
    if e.target is None:
        return who
    target = name_of(state, e.target)
    held = f"; {target} is already {e.status.title()}, nothing added (FU-RES-4)" \
        if e.held and e.status else ""
    if e.hit is None:  # on an ally, no Magic Check: it takes effect (FU-RES-3)
        return f"{who} on {target}: no Magic Check, it takes effect{held}"
    res = "hits" if e.hit else "misses"
    check = _check_text(e.text, e.total, e.dl, e.hr, e.critical, e.fumble, "Magic Defense")
    return f"{who} against {target}: {check} — {res}{held}"


@H.describes(ev.Checked)
def _checked(e: ev.Checked, state: ConflictState) -> str:
    res = "succeeds" if e.success else "fails"
    check = _check_text(e.text, e.total, e.dl, e.hr, e.critical, e.fumble)
    return f"{name_of(state, e.actor)} checks {{{e.attributes.upper()}}}: {check} — {res}"


@H.describes(ev.Damaged)
def _damaged(e: ev.Damaged, state: ConflictState) -> str:
    target = name_of(state, e.target)
    hp = f", HP {e.hp_after}" if e.hp_after is not None else ""
    crisis = " — in Crisis" if e.entered_crisis else ""
    if e.affinity == "absorb":
        heals = f" and heals {e.healed}" if e.healed is not None else ""
        return f"{target} absorbs {shown(e.raw)} {e.damage_type} damage{heals}{hp}"
    aff = f" ({e.affinity})" if e.affinity else ""
    return f"{target} takes {shown(e.amount)} {e.damage_type} damage{aff}{hp}{crisis}"


@H.describes(ev.Recovered)
def _recovered(e: ev.Recovered, state: ConflictState) -> str:
    """``Ada recovers 26 HP, HP 45 — out of Crisis``: the pool after it, as a damage says it
    (a GM-only pool: neither), and the end of a Crisis it brings (FU-RES-2)."""
    pool = e.pool.upper()
    after = f", {pool} {e.after}" if e.after is not None else ""
    return f"{name_of(state, e.target)} recovers {shown(e.amount)} {pool}{after}" + (
        " — out of Crisis" if _leaves_crisis(e, state) else "")


def _leaves_crisis(e: ev.Recovered, state: ConflictState) -> bool:
    """Whether HP recovered takes its target from half its maximum or less to above it."""
    hp: ResourcePool | None = state.ext.hp.get(e.target) if e.pool == "hp" else None
    if hp is None or e.after is None or e.amount is None:
        return False
    return e.after - e.amount <= hp.maximum // 2 < e.after


@H.describes(ev.Spent)
def _spent(e: ev.Spent, state: ConflictState) -> str:
    why = f" for {e.why}" if e.why else ""
    after = f" ({e.after} left)" if e.after is not None else ""
    return (f"{name_of(state, e.participant)} spends {shown(e.amount)} {e.pool.upper()}{why}"
            f"{after}")


@H.describes(ev.StatusChanged)
def _status(e: ev.StatusChanged, state: ConflictState) -> str:
    target = name_of(state, e.target)
    attrs = " and ".join(a.upper() for a in e.attributes)
    if e.on:
        return f"{target} is {e.effect.title()} ({attrs} one die size down)"
    return f"{target} is no longer {e.effect.title()}"


@H.describes(ev.FabulaChanged)
def _fabula(e: ev.FabulaChanged, state: ConflictState) -> str:
    """``Ada spends 1 Fabula Point for a reroll; 2 left``, ``Ada gains 1 Fabula Point
    (fumble); now 4``: what the points were spent for (gained by) and how many remain."""
    n = abs(e.delta)
    points = f"{n} Fabula Point{'s' if n != 1 else ''}"
    who = name_of(state, e.participant)
    if e.delta > 0:
        why = f" ({e.why})" if e.why else ""
        return f"{who} gains {points}{why}; now {shown(e.fp_after)}"
    why = f" for {e.why}" if e.why else ""
    return f"{who} spends {points}{why}; {shown(e.fp_after)} left"


@H.describes(ev.JoinedTurns)
def _joined(e: ev.JoinedTurns, state: ConflictState) -> str:
    """``Cid takes 1 turn per round on side pcs, from round 2``; one joining before the start
    (recorded at round 0) plays from round 1."""
    n = e.turns
    return (f"{name_of(state, e.participant)} takes {n} turn{'s' if n != 1 else ''} per "
            f"round on side {e.side}, from round {max(e.round, 1)}")
