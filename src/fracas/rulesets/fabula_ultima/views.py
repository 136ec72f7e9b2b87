"""What Fabula Ultima shows: the tracker (who acted, who has turns left), pools, the log."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from fracas.engine.describe import name_of
from fracas.engine.events import Event
from fracas.engine.model import ConflictState, Kind, Status, Viewer
from fracas.engine.secrets import stat_is_secret
from fracas.engine.sheet import SheetItem, item, stat_items
from fracas.engine.words import listed
from fracas.rulesets.fabula_ultima import events as ev
from fracas.rulesets.fabula_ultima.state import (
    ATTRIBUTES,
    STAT_KEYS,
    FabulaExt,
    defense,
    die,
    in_crisis,
    init_modifier,
    initiative_leaders,
    next_turn,
    npc_initiative,
    sheet_die,
    unassigned,
)


def tracker(state: ConflictState) -> dict[str, Any]:
    """Per side: who has acted this round and who has how many turns left; who may act next.

    Between rounds (``round_over``) ``may_act`` names who may open the next round; once the
    conflict has ended nobody may act and no turns are left (FU-CON-10, FU-CON-11)."""
    ext: FabulaExt = state.ext
    order = ext.order
    if order is None:
        return {"started": False}
    ended = state.status == Status.ENDED.value
    nxt = next_turn(ext)
    assert nxt is not None
    sides: dict[str, Any] = {}
    for side, st in order.status().items():
        sides[side] = {"acted": st.acted, "turns_left": {} if ended else dict(st.turns_left),
                       "out": [a for a in order.side_of if order.side_of[a] == side
                               and a in order.out]}
    return {"started": True, "ended": ended, "round": state.round,
            "first_side": order.first_side,
            "side_on_turn": None if ended else nxt.side_on_turn,
            "may_act": [] if ended else nxt.may_act,
            "round_over": order.round_over,
            "next_round": state.round + 1 if order.round_over and not ended else None,
            "sides": sides, "turns_per_round": dict(order.turns_per_round)}


def tracker_lines(state: ConflictState,
                  can_see: Callable[[str], bool] = lambda pid: True) -> list[str]:
    """Text lines of the tracker. They leave out whom the viewer may not know of
    (``can_see``), so that a line naming them is written without them, never dropped whole:
    no line comes or goes with a hidden one."""
    ext: FabulaExt = state.ext

    def names(pids: Iterable[str]) -> str:
        return ", ".join(name_of(state, p) for p in pids if can_see(p))

    lines: list[str] = []
    if ext.order is None:
        loose = [p for p in unassigned(state) if can_see(p.id)]
        if loose:
            lines.append("unassigned (FU-CON-13): " + ", ".join(
                f"{p.name} (side {p.side or 'none'})" for p in loose))
        if state.status == Status.SETUP.value:
            leaders = [name_of(state, p) for p in initiative_leaders(state) if can_see(p)]
            who = listed(leaders, "or") if leaders else f"a PC on {ext.pc_side}"
            lead = (f"then {who} leads the Initiative Group Check (FU-CON-3)"
                    if initiative_leaders(state) else
                    f"but {ext.pc_side} has no PC (kind = \"pc\") to lead the Initiative "
                    "Group Check (FU-CON-3)")
            lines.append(f"set-up: record goals, equip PCs, {lead}")
        return lines
    t = tracker(state)
    init = ext.initiative or {}
    if init:
        verdict = "succeeded" if init.get("success") else "failed"
        lines.append(f"initiative: the PCs {verdict} ({init.get('total')} vs DL "
                     f"{init.get('dl')}); side {t['first_side']} opens every round")
    if state.status == Status.ENDED.value:
        lines.append(f"ended: {state.end_reason}")
        return lines
    may = names(t["may_act"]) or "nobody"
    if t["round_over"]:
        lines.append(f"round {state.round} has ended; if the conflict goes on, the next turn "
                     f"opens round {t['next_round']} with side {t['side_on_turn']} — may act: "
                     f"{may}")
    else:
        lines.append(f"round {state.round}: side {t['side_on_turn']} on turn — may act: {may}")
    for side, st in t["sides"].items():
        acted = names(a for a in st["acted"] if a not in st["out"]) or "—"
        left = ", ".join(f"{name_of(state, a)} ×{n}" if n > 1 else name_of(state, a)
                         for a, n in st["turns_left"].items() if can_see(a)) or "—"
        out = names(st["out"])
        lines.append(f"{side}: acted {acted} · turns left {left}"
                     + (f" · out {out}" if out else ""))
    if extras := names(e for e in ext.extras if e in state.participants):
        lines.append("extras (no turns): " + extras)
    return lines


def view_ext(state: ConflictState, viewer: Viewer,
             can_see: Callable[[str], bool] = lambda pid: True) -> dict[str, Any]:
    """The tracker as lines (see :func:`tracker_lines`) plus structured data; the
    initiative result; before it, who may lead the Initiative Group Check."""
    ext: FabulaExt = state.ext
    out: dict[str, Any] = {"lines": tracker_lines(state, can_see), "tracker": tracker(state),
                           "pc_side": ext.pc_side, "foe_side": ext.foe_side,
                           "extras": list(ext.extras)}
    if ext.initiative is not None:
        out["initiative"] = {k: ext.initiative[k] for k in
                             ("leader", "dl", "total", "success", "first_side")}
    if state.status == Status.SETUP.value:  # the fight waits on one of them (FU-CON-3)
        out["leaders"] = [pid for pid in initiative_leaders(state) if can_see(pid)]
    return out


def secret_to(state: ConflictState, viewer: Viewer, pid: str | None, *keys: str) -> bool:
    """Whether ``viewer`` may not know one of the stats ``keys`` of ``pid`` (GM-only: even to
    the player of that very character; None: nobody's stat)."""
    return any(stat_is_secret(state, viewer, pid, k) for k in keys)


def roll_hidden(state: ConflictState, viewer: Viewer, pid: str) -> bool:
    """Whether ``viewer`` may not read the dice of ``pid``'s checks: they derive from a GM-only
    attribute die or GM-only gear (the marks of a rolled check)."""
    return secret_to(state, viewer, pid, *ev.ROLLED_FROM)


def defense_hidden(state: ConflictState, viewer: Viewer, pid: str, magic: bool) -> bool:
    """Whether ``viewer`` may not learn ``pid``'s Defense (Magic Defense): the stat is
    GM-only, or it is not on the sheet and the DEX (INS) die it comes from is, or the gear
    that adds to it is."""
    p = state.participants.get(pid)
    if p is None or viewer.is_gm:
        return False
    if "equipment" in p.gm_only:
        return True
    key = "mdef" if magic else "defense"
    if key in p.stats:
        return key in p.gm_only
    return ("ins" if magic else "dex") in p.gm_only


def initiative_hidden(state: ConflictState, viewer: Viewer, pid: str) -> bool:
    """Whether ``viewer`` may not learn an NPC's Initiative: GM-only on its sheet, or computed
    (FU-CON-4) from a GM-only DEX, INS or ``init_mod``."""
    p = state.participants.get(pid)
    if p is None or viewer.is_gm:
        return False
    if "initiative" in p.stats:
        return "initiative" in p.gm_only
    return any(k in p.gm_only
               for k in ("dex", "ins", "init_mod", "rank", "replaces", "equipment"))


def view_participant(state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
    """Pools, Crisis, Fabula Points, status effects and current dice, turns left, gear, spells,
    goal;
    GM-only stats stay hidden from players."""
    ext: FabulaExt = state.ext
    p = state.participants[pid]
    parts: list[str] = []
    out: dict[str, Any] = {"extra": pid in ext.extras,
                           "goal": None if secret_to(state, viewer, pid, "goal")
                           else ext.goals.get(pid),
                           "statuses": list(ext.statuses.get(pid, []))}
    hp = ext.hp.get(pid)
    if hp is not None and not out["extra"]:
        # Crisis is a state of those taking part (FU-RES-2): one who is out (defeated, fled,
        # gone) is not listed in it, whatever HP it was left with
        crisis = in_crisis(hp) and p.active
        out["crisis"] = crisis
        if not secret_to(state, viewer, pid, "hp"):
            out["hp"] = {"current": hp.current, "max": hp.maximum}
            parts.append(f"HP {hp.current}/{hp.maximum}")
        if crisis:
            parts.append("CRISIS")
    for key, pools in (("mp", ext.mp), ("ip", ext.ip)):
        pool = pools.get(pid)
        if pool is not None and pool.maximum and not secret_to(state, viewer, pid, key):
            out[key] = {"current": pool.current, "max": pool.maximum}
            parts.append(f"{key.upper()} {pool.current}/{pool.maximum}")
    if pid in ext.fp and not secret_to(state, viewer, pid, "fp"):
        out["fp"] = ext.fp[pid]
        parts.append(f"FP {ext.fp[pid]}")
    out["dice"] = {a: die(ext, p, a) for a in ATTRIBUTES
                   if a in p.stats and not secret_to(state, viewer, pid, a)}
    if not out["extra"] and all(a in p.stats for a in ("dex", "ins")):
        if not defense_hidden(state, viewer, pid, False):
            out["defense"] = defense(ext, p, False)
        if not defense_hidden(state, viewer, pid, True):
            out["mdef"] = defense(ext, p, True)
        if p.kind == Kind.PC.value:  # the modifier adds the gear's (FU-CON-4)
            if not secret_to(state, viewer, pid, "init_mod", "equipment"):
                out["init_mod"] = init_modifier(ext, p)
        elif not initiative_hidden(state, viewer, pid):
            out["initiative"] = npc_initiative(ext, p)
    if out["statuses"]:
        parts.append(", ".join(s.title() for s in out["statuses"]))
    if not secret_to(state, viewer, pid, "equipment"):
        out["equipment"] = [i.text() for i in ext.equipment.get(pid, [])]
    if ext.spells.get(pid) and not secret_to(state, viewer, pid, "spells"):
        out["spells"] = [spell.text() for spell in ext.spells[pid]]
    if ext.order is not None and pid in ext.order.side_of:
        left = ext.order.turns_left(pid) if state.status == Status.RUNNING.value else 0
        out["turns_left"] = left
        out["turns_per_round"] = ext.order.turns_per_round.get(pid, 1)
        if p.active and state.status == Status.RUNNING.value:
            parts.append(_turns_said(ext, pid, left))
    if out["extra"]:
        parts.append("extra")
    out["summary"] = " · ".join(parts)
    return out


def _turns_said(ext: FabulaExt, pid: str, left: int) -> str:
    """``2 turns left`` in the round; between rounds, when nobody has one left, what the next
    round gives (``1 turn next round``), not the ``0 turns left`` of one its side may be
    asked to open it with (FU-CON-10)."""
    assert ext.order is not None
    if ext.order.round_over:
        left = ext.order.turns_per_round.get(pid, 1)
        return f"{left} turn{'s' if left != 1 else ''} next round"
    return f"{left} turn{'s' if left != 1 else ''} left"


#: How a Fabula Ultima sheet labels the stats it shows as written.
_LABELS = {"hp": "max HP", "mp": "max MP", "ip": "max IP", "fp": "FP at the start"}


def sheet(state: ConflictState, entry: dict[str, Any]) -> list[SheetItem]:
    """A character's sheet from its view ``entry``: attribute dice (the current one beside
    the sheet's when a status steps it down, FU-RES-4) and the status effects it holds (kept
    by one out of the conflict: the rules end none as it leaves), pool maxima, rank, Defense
    and Magic Defense, Initiative (an NPC's, FU-CON-4) or initiative modifier (a PC's, with
    its gear), affinities, gear, spells, bonds, goal, and the GM's own stats."""
    stats, p = entry["stats"], state.participants[entry["id"]]
    dice = entry.get("dice", {})
    out = []
    for a in ATTRIBUTES:
        if a in stats:
            base, now = sheet_die(p, a), dice.get(a)
            out.append(item(a, a.upper(), f"d{base}" if now in (None, base)
                            else f"d{now} (d{base} on the sheet)"))
    if entry.get("statuses"):
        out.append(item("statuses", "status effects",
                        ", ".join(s.title() for s in entry["statuses"])))
    out += stat_items(stats, ("hp", "mp", "ip", "fp"), _LABELS)
    if "rank" in stats:
        replaces = f" (replaces {stats['replaces']})" if "replaces" in stats else ""
        out.append(item("rank", "rank", f"{stats['rank']}{replaces}"))
    for key, label in (("defense", "Defense"), ("mdef", "Magic Defense"),
                       ("initiative", "Initiative")):
        if entry.get(key) is not None:
            out.append(item(key, label, entry[key]))
    if entry.get("init_mod") is not None:
        out.append(item("init_mod", "initiative modifier", f"{entry['init_mod']:+d}"))
    out += stat_items(stats, ("affinities",))
    if entry.get("equipment"):
        out.append(item("equipment", "equipment", "; ".join(entry["equipment"])))
    if entry.get("spells"):
        out.append(item("spells", "spells", "; ".join(entry["spells"])))
    if stats.get("bonds"):
        out.append(item("bonds", "bonds", ", ".join(  # a bond with one not in the conflict:
            f"{name_of(state, who) if who in state.participants else who} {n}"  # its id
            for who, n in stats["bonds"].items())))
    if entry.get("goal"):
        out.append(item("goal", "goal", entry["goal"]))
    if entry.get("extra"):
        out.append(item("extra", "extra", "takes no turns (FU-CON-1)"))
    return out + stat_items(stats, [k for k in stats if k not in STAT_KEYS])


def redact(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """What only Fabula Ultima can judge of an event (the marks on the typed events have
    masked the rest): GM-only gear is not shown at all; a target's Defense, an NPC's
    Initiative and a pool's value depend on the data (the sheet's value or the die it comes
    from, the pool named), and a value of a secret one reads None (``?``)."""
    if viewer.is_gm:
        return event
    if isinstance(event, ev.ItemEquipped):
        return None if secret_to(state, viewer, event.participant, "equipment") else event
    if isinstance(event, ev.Attacked | ev.Cast) and event.target is not None and \
            event.dl is not None and defense_hidden(state, viewer, event.target,
                                                    bool(event.magic)):
        return dataclasses.replace(event, dl=None)
    if isinstance(event, ev.Recovered) and secret_to(state, viewer, event.target, event.pool):
        return dataclasses.replace(event, amount=None, after=None)
    if isinstance(event, ev.Spent) and secret_to(state, viewer, event.participant, event.pool):
        return dataclasses.replace(event, after=None)
    if isinstance(event, ev.InitiativeChecked):
        return _initiative_seen(state, event, viewer)
    return event


def _initiative_seen(state: ConflictState, event: ev.InitiativeChecked, viewer: Viewer
                     ) -> ev.InitiativeChecked:
    """The check without the Initiatives of NPCs whose Initiative is GM-only, nor the DL when
    it is one of them (the DL is the highest Initiative); without the dice of a roller whose
    dice or gear are GM-only (their sizes tell them), nor the leader's own modifier where it
    comes from GM-only gear or ``init_mod``."""
    shown = {k: v for k, v in (event.initiatives or {}).items()
             if not initiative_hidden(state, viewer, k)}
    secret_dl = shown != (event.initiatives or {}) and event.dl_from not in shown \
        and event.dl_from != "given"
    check = _check_seen(state, viewer, event.actor, event.check, initiative=True)
    if secret_dl and check is not None:
        check = {**check, "dl": None}

    def bond_hidden(s: dict[str, Any]) -> bool:  # a supporter's Bond is one of its stats
        return secret_to(state, viewer, s["participant"], "bonds")

    supporters = tuple(_bond_seen(_check_seen(state, viewer, s["participant"], s,
                                              initiative=True) or s, bond_hidden(s))
                       for s in event.supporters)
    # the leader's bonus adds the highest Bond among the supporters who succeeded
    bond_secret = any(s.get("success") and bond_hidden(s) for s in event.supporters)
    if bond_secret and check is not None:
        check = {**check, "roll": None, "text": None}
    own = None if secret_to(state, viewer, event.actor, "init_mod", "equipment") \
        else event.own_modifier
    seen = dataclasses.replace(event, initiatives=shown,
                               dl=None if secret_dl else event.dl,
                               dl_from=None if secret_dl else event.dl_from, check=check,
                               supporters=supporters, own_modifier=own,
                               bond=None if bond_secret else event.bond)
    return event if seen == event else seen  # the very event: nothing of it was lost


def _bond_seen(check: dict[str, Any], hidden: bool) -> dict[str, Any]:
    """A supporter's check without its Bond where that is GM-only."""
    return {**check, "bond": None} if hidden and check.get("bond") is not None else check


def _check_seen(state: ConflictState, viewer: Viewer, pid: str | None,
                check: dict[str, Any] | None, *, initiative: bool = False
                ) -> dict[str, Any] | None:
    """A check as ``viewer`` may read it: without its dice where they tell ``pid``'s GM-only
    dice or gear (as the marks of an attack's roll do) — of an ``initiative`` check, or its
    ``init_mod``, which its bonus adds (FU-CON-3, FU-CON-4)."""
    if check is None or pid is None or not (
            roll_hidden(state, viewer, pid)
            or (initiative and secret_to(state, viewer, pid, "init_mod"))):
        return check
    return {**check, "roll": None, "text": None}
