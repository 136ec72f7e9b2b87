"""What Fabula Ultima shows: the tracker (who acted, who has turns left), pools, the log."""

from __future__ import annotations

from typing import Any

from fracas.engine.describe import name_of
from fracas.engine.events import Event
from fracas.engine.model import ConflictState, Kind, Status, Viewer
from fracas.rulesets.fabula_ultima.state import (
    ATTRIBUTES,
    FabulaExt,
    Item,
    defense,
    die,
    in_crisis,
    init_modifier,
    next_order,
    npc_initiative,
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
    nxt = next_order(ext)
    assert nxt is not None
    sides: dict[str, Any] = {}
    for side, st in order.status().items():
        sides[side] = {"acted": st.acted, "turns_left": {} if ended else dict(st.turns_left),
                       "out": [a for a in order.side_of if order.side_of[a] == side
                               and a in order.out]}
    return {"started": True, "ended": ended, "round": state.round,
            "first_side": order.first_side,
            "side_on_turn": None if ended else nxt.side_on_turn,
            "may_act": [] if ended else nxt.who_may_act(),
            "round_over": order.round_over,
            "next_round": state.round + 1 if order.round_over and not ended else None,
            "sides": sides, "turns_per_round": dict(order.turns_per_round)}


def tracker_lines(state: ConflictState) -> list[str]:
    """Text lines of the tracker for the terminal."""
    ext: FabulaExt = state.ext
    lines: list[str] = []
    if ext.order is None:
        loose = unassigned(state)
        if loose:
            lines.append("unassigned (FU-CON-13): " + ", ".join(
                f"{p.name} (side {p.side or 'none'})" for p in loose))
        if state.status == Status.SETUP.value:
            lines.append(f"set-up: record goals, equip PCs, then a PC on {ext.pc_side} leads "
                         "the Initiative Group Check (LEADER: initiative)")
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
    if t["round_over"]:
        may = ", ".join(name_of(state, a) for a in t["may_act"]) or "nobody"
        lines.append(f"round {state.round} has ended; if the conflict goes on, the next turn "
                     f"opens round {t['next_round']} with side {t['side_on_turn']} — may act: "
                     f"{may}")
    else:
        may = ", ".join(name_of(state, a) for a in t["may_act"]) or "nobody"
        lines.append(f"round {state.round}: side {t['side_on_turn']} on turn — may act: {may}")
    for side, st in t["sides"].items():
        acted = ", ".join(name_of(state, a) for a in st["acted"] if a not in st["out"]) or "—"
        left = ", ".join(f"{name_of(state, a)} ×{n}" if n > 1 else name_of(state, a)
                         for a, n in st["turns_left"].items()) or "—"
        out = ", ".join(name_of(state, a) for a in st["out"])
        lines.append(f"{side}: acted {acted} · turns left {left}"
                     + (f" · out {out}" if out else ""))
    extras = [name_of(state, e) for e in ext.extras if e in state.participants]
    if extras:
        lines.append("extras (no turns): " + ", ".join(extras))
    return lines


def view_ext(state: ConflictState, viewer: Viewer) -> dict[str, Any]:
    """The tracker as lines plus structured data; the initiative result; goals."""
    ext: FabulaExt = state.ext
    out: dict[str, Any] = {"lines": tracker_lines(state), "tracker": tracker(state),
                           "pc_side": ext.pc_side, "foe_side": ext.foe_side,
                           "extras": list(ext.extras)}
    if ext.initiative is not None:
        out["initiative"] = {k: ext.initiative[k] for k in
                             ("leader", "dl", "total", "success", "first_side")}
    return out


def _hidden(state: ConflictState, viewer: Viewer, pid: str, key: str) -> bool:
    p = state.participants.get(pid)
    return not viewer.is_gm and p is not None and key in p.gm_only


def defense_hidden(state: ConflictState, viewer: Viewer, pid: str, magic: bool) -> bool:
    """Whether ``viewer`` may not learn ``pid``'s Defense (Magic Defense): the stat is
    GM-only, or it is not on the sheet and the DEX (INS) die it comes from is."""
    p = state.participants.get(pid)
    if p is None or viewer.is_gm:
        return False
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
    return any(k in p.gm_only for k in ("dex", "ins", "init_mod", "rank", "replaces"))


def view_participant(state: ConflictState, viewer: Viewer, pid: str) -> dict[str, Any]:
    """Pools, Crisis, Fabula Points, status effects and current dice, turns left, gear, goal;
    GM-only stats stay hidden from players."""
    ext: FabulaExt = state.ext
    p = state.participants[pid]
    parts: list[str] = []
    out: dict[str, Any] = {"extra": pid in ext.extras, "goal": ext.goals.get(pid),
                           "statuses": list(ext.statuses.get(pid, []))}
    hp = ext.hp.get(pid)
    if hp is not None and not out["extra"]:
        crisis = in_crisis(hp)
        out["crisis"] = crisis
        if not _hidden(state, viewer, pid, "hp"):
            out["hp"] = {"current": hp.current, "max": hp.maximum}
            parts.append(f"HP {hp.current}/{hp.maximum}")
        if crisis and p.active:
            parts.append("CRISIS")
    for key, pools in (("mp", ext.mp), ("ip", ext.ip)):
        pool = pools.get(pid)
        if pool is not None and pool.maximum and not _hidden(state, viewer, pid, key):
            out[key] = {"current": pool.current, "max": pool.maximum}
            parts.append(f"{key.upper()} {pool.current}/{pool.maximum}")
    if pid in ext.fp:
        out["fp"] = ext.fp[pid]
        parts.append(f"FP {ext.fp[pid]}")
    out["dice"] = {a: die(ext, p, a) for a in ATTRIBUTES
                   if a in p.stats and not _hidden(state, viewer, pid, a)}
    if not out["extra"] and all(a in p.stats for a in ("dex", "ins")):
        if not defense_hidden(state, viewer, pid, False):
            out["defense"] = defense(ext, p, False)
        if not defense_hidden(state, viewer, pid, True):
            out["mdef"] = defense(ext, p, True)
        if p.kind == Kind.PC.value:
            if not _hidden(state, viewer, pid, "init_mod"):
                out["init_mod"] = init_modifier(ext, p)
        elif not initiative_hidden(state, viewer, pid):
            out["initiative"] = npc_initiative(ext, p)
    if out["statuses"]:
        parts.append(", ".join(s.title() for s in out["statuses"]))
    if not _hidden(state, viewer, pid, "equipment"):
        out["equipment"] = [i.text() for i in ext.equipment.get(pid, [])]
    if ext.order is not None and pid in ext.order.side_of:
        left = ext.order.turns_left(pid) if state.status == Status.RUNNING.value else 0
        out["turns_left"] = left
        out["turns_per_round"] = ext.order.turns_per_round.get(pid, 1)
        if p.active and state.status == Status.RUNNING.value:
            parts.append(f"{left} turn{'s' if left != 1 else ''} left")
    if out["extra"]:
        parts.append("extra")
    out["summary"] = " · ".join(parts)
    return out


def redact(state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
    """Hide from a player what GM-only stats would give away: pool values (hp, mp, ip),
    an NPC's Initiative, a target's Defense or Magic Defense, the dice (and bonus) of a check
    rolled with GM-only attributes or gear, GM-only gear."""
    if viewer.is_gm:
        return event
    d = dict(event.data)
    t = event.type
    who = d.get("target") or d.get("participant")
    if t == "item_equipped" and _hidden(state, viewer, str(who), "equipment"):
        return None
    drop: set[str] = set()
    if t in ("attack", "spell", "check") and "roll" in d and any(
            _hidden(state, viewer, event.actor or "", k) for k in (*ATTRIBUTES, "equipment")):
        drop |= {"roll", "text"}  # the expression names the dice sizes and the bonus
    if t == "damage" and _hidden(state, viewer, str(who), "hp"):
        drop |= {"hp_after", "healed"}
    elif t in ("recovered", "spent") and isinstance(d.get("pool"), str) \
            and _hidden(state, viewer, str(who), d["pool"]):
        drop |= {"after"} if t == "spent" else {"after", "amount"}
    elif t in ("attack", "spell"):
        if t == "spell" and _hidden(state, viewer, event.actor or "", "mp"):
            drop.add("mp_after")
        if "target" in d and defense_hidden(state, viewer, d["target"], bool(d.get("magic"))):
            drop.add("dl")
    elif t == "initiative_checked":
        inits = {k: v for k, v in d.get("initiatives", {}).items()
                 if not initiative_hidden(state, viewer, k)}
        if inits != d.get("initiatives", {}):
            d["initiatives"] = inits
            if d.get("dl_from") not in inits and d.get("dl_from") != "given":
                drop.add("dl_from")
    if not drop and d == event.data:
        return event
    data = {k: v for k, v in d.items() if k not in drop}
    return Event(event.type, data, event.actor, event.visibility)


def _check_text(d: dict[str, Any]) -> str:
    tag = " — critical success!" if d.get("critical") else " — fumble!" if d.get("fumble") \
        else ""
    vs = d["dl"] if "dl" in d else "Magic Defense" if d.get("magic") else "Defense"
    text = d["text"] if "text" in d else f"total {d.get('total')}"
    return f"{text} vs {vs}, HR {d.get('hr')}{tag}"


def describe(event: Event, state: ConflictState) -> str | None:
    """One sentence per Fabula Ultima event."""
    d = event.data
    t = event.type
    who = name_of(state, event.actor)
    if t == "goal_set":
        return f"{name_of(state, d['participant'])}'s goal: {d['text']}"
    if t == "item_equipped":
        return f"{name_of(state, d['participant'])} equips {Item(**d['item']).text()}"
    if t == "extra_set":
        return f"{name_of(state, d['participant'])} " + (
            "is an extra and takes no turns" if d["on"] else "takes part actively")
    if t == "side_assigned":
        return f"{name_of(state, d['participant'])} is on side {d['side']} (was {d['was']})"
    if t == "initiative_checked":
        support = ", ".join(
            f"{name_of(state, s['participant'])} {s['total']} "
            f"{'succeeds' if s['success'] else 'fails'}" for s in d["supporters"])
        src = ("given" if d.get("dl_from") == "given" else
               f"{name_of(state, d['dl_from'])}'s Initiative" if d.get("dl_from") else
               "the highest Initiative among the foes")
        verdict = "the PCs act first" if d["success"] else "their foes act first"
        return (f"{who} leads the Initiative Group Check: {_check_text(d['check'])} (DL = "
                f"{src}; support +{d['support']}, bond +{d['bond']}"
                + (f"; {support}" if support else "") + f") — {verdict} every round")
    if t == "action":
        return f"{who}: {d['text']}"
    if t in ("attack", "spell"):
        what = f"casts {d['name']}" if t == "spell" else f"attacks with {d['weapon']}"
        cost = f" ({d['mp']} MP)" if t == "spell" and d.get("mp") else ""
        if "target" not in d:
            return f"{who} {what}{cost}"
        res = "hits" if d.get("hit") else "misses"
        return (f"{who} {what}{cost} against {name_of(state, d['target'])}: "
                f"{_check_text(d)} — {res}")
    if t == "check":
        res = "succeeds" if d["success"] else "fails"
        return f"{who} checks {{{d['attributes'].upper()}}}: {_check_text(d)} — {res}"
    if t == "damage":
        target = name_of(state, d["target"])
        aff = f" ({d['affinity']})" if d.get("affinity") else ""
        hp = f", HP {d['hp_after']}" if "hp_after" in d else ""
        crisis = " — in Crisis" if d.get("entered_crisis") else ""
        if d.get("affinity") == "absorb":
            heals = f" and heals {d['healed']}" if "healed" in d else ""
            return f"{target} absorbs {d['raw']} {d['type']} damage{heals}{hp}"
        return f"{target} takes {d['amount']} {d['type']} damage{aff}{hp}{crisis}"
    if t == "recovered":
        after = f" ({d['after']})" if "after" in d else ""
        amount = f"{d['amount']} " if "amount" in d else ""
        return f"{name_of(state, d['target'])} recovers {amount}{d['pool'].upper()}{after}"
    if t == "spent":
        why = f" for {d['why']}" if d.get("why") else ""
        after = f" ({d['after']} left)" if "after" in d else ""
        return f"{name_of(state, d['participant'])} spends {d['amount']} " \
               f"{d['pool'].upper()}{why}{after}"
    if t == "status_changed":
        target = name_of(state, d["target"])
        attrs = " and ".join(a.upper() for a in d["attributes"])
        if d["on"]:
            return f"{target} is {d['effect'].title()} ({attrs} one die size down)"
        return f"{target} is no longer {d['effect'].title()}"
    if t == "fabula_changed":
        why = f" ({d['why']})" if d.get("why") else ""
        verb = "gains" if d["delta"] > 0 else "spends"
        n = abs(d["delta"])
        who = name_of(state, d["participant"])
        return f"{who} {verb} {n} Fabula Point{'s' if n != 1 else ''}{why}: {d['fp_after']}"
    if t == "joined_turns":
        n = d["turns"]
        return (f"{name_of(state, d['participant'])} takes {n} turn{'s' if n != 1 else ''} per "
                f"round on side {d['side']}, from round {d['round']}")
    return None
