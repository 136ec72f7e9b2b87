"""Exact odds of Fabula Ultima checks (icepool via ``pair_odds``, combined with Fractions).

Query syntax::

    {dA + dB} [+|- N] vs DL
    group {dA + dB} [+|- N] vs DL [supporters {dA+dB}[+|-N], ...] [bonds N, ...]

The first gives P(success), P(critical), P(fumble) of one check (FU-CHK-1..4). The second
gives the leader's chances on a group check (FU-CHK-5): each supporter rolls its check
against DL 10; each success gives +1 and the highest Bond (listed in supporter order) among
the successful supporters is added.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from fracas.dice.odds import OddsReport, pair_odds
from fracas.engine.commands import Command
from fracas.engine.limits import refuse_foreign_digits
from fracas.engine.model import ConflictState, Participant, Status, Viewer
from fracas.engine.secrets import stat_is_secret
from fracas.errors import InvalidInput
from fracas.rulesets.fabula_ultima.actions import named_attributes, parse_attributes
from fracas.rulesets.fabula_ultima.state import (
    DIE_SIZES,
    INIT_FROM,
    STATUSES,
    UNARMED,
    FabulaExt,
    defense,
    die,
    init_modifier,
    initiative_foes,
    initiative_leaders,
    initiative_supporters,
    next_turn,
    npc_initiative,
    sheet_die,
    unassigned,
    weapons_of,
)
from fracas.rulesets.fabula_ultima.views import (
    defense_hidden,
    initiative_hidden,
    roll_hidden,
    secret_to,
)

_CHECK = r"\{?\s*d(\d+)\s*\+\s*d(\d+)\s*\}?\s*(?:([+-])\s*(\d+))?"
_SINGLE = re.compile(rf"^\s*{_CHECK}\s+vs\s+(-?\d+)\s*$", re.I | re.ASCII)
_GROUP = re.compile(
    rf"^\s*group\s+{_CHECK}\s+vs\s+(-?\d+)"
    r"(?:\s+supporters\s+(?P<sup>.+?))?(?:\s+bonds\s+(?P<bonds>[\d,\s]+))?\s*$", re.I | re.ASCII)
_ONE = re.compile(rf"^{_CHECK}$", re.I | re.ASCII)
SUPPORT_DL = 10
MAX_SUPPORTERS = 10
USAGE = ("queries: '{d8+d10}+1 vs 13' or "
         "'group {d8+d8}+1 vs 12 supporters {d8+d6},{d10+d10} bonds 2,0'")


Check = tuple[int, int, int]


def _check(a: str, b: str, sign: str | None, n: str | None) -> Check:
    sizes = (int(a), int(b))
    for s in sizes:
        if s not in DIE_SIZES:
            raise InvalidInput(f"a check die is a d6, d8, d10 or d12, not d{s}",
                               rule="FU-CHK-1", sides=s)
    mod = int(n or 0) * (-1 if sign == "-" else 1)
    return sizes[0], sizes[1], mod


def check_odds(check: Check, dl: int) -> dict[str, Fraction]:
    """P of critical, fumble, plain success and plain failure of one check (exact)."""
    a, b, mod = check

    def classify(x: int, y: int) -> str:
        if x == y and x >= 6:
            return "critical"
        if x == 1 and y == 1:
            return "fumble"
        return "success" if x + y + mod >= dl else "failure"

    got = pair_odds(a, b, classify)
    return {k: got.get(k, Fraction(0)) for k in ("critical", "fumble", "success", "failure")}


def _text(check: Check) -> str:
    a, b, mod = check
    return f"{{d{a}+d{b}}}" + (f"{mod:+d}" if mod else "")


def single(check: Check, dl: int) -> OddsReport:
    """The odds of one check against a DL."""
    o = check_odds(check, dl)
    win = o["critical"] + o["success"]
    return OddsReport(
        f"Fabula Ultima check {_text(check)} vs DL {dl}",
        [("P(success)", win), ("P(critical)", o["critical"]), ("P(fumble)", o["fumble"]),
         ("P(failure)", 1 - win)],
        notes=["a critical (doubles of 6 or more) always succeeds; a fumble (double 1s) "
               "always fails (FU-CHK-3, FU-CHK-4)"])


def support_distribution(
    supporters: list[Check], bonds: list[int]
) -> dict[int, Fraction]:
    """Distribution of the leader's bonus: successes + the highest Bond among them."""
    ps = []
    for s in supporters:
        o = check_odds(s, SUPPORT_DL)
        ps.append(o["critical"] + o["success"])
    dist: dict[int, Fraction] = {}
    for mask in itertools.product((False, True), repeat=len(supporters)):
        p = Fraction(1)
        for ok, q in zip(mask, ps, strict=True):
            p *= q if ok else 1 - q
        bonus = sum(mask) + max((b for ok, b in zip(mask, bonds, strict=True) if ok),
                                default=0)
        dist[bonus] = dist.get(bonus, Fraction(0)) + p
    return dist


def group(leader: Check, dl: int, supporters: list[Check], bonds: list[int]) -> OddsReport:
    """The leader's odds on a group check (FU-CHK-5)."""
    if len(supporters) > MAX_SUPPORTERS:
        raise InvalidInput(f"at most {MAX_SUPPORTERS} supporters, not {len(supporters)}")
    if len(bonds) > len(supporters):
        raise InvalidInput(f"{len(bonds)} bonds for {len(supporters)} supporters; give one "
                           "bond per supporter, in the same order")
    bonds = bonds + [0] * (len(supporters) - len(bonds))
    dist = support_distribution(supporters, bonds)
    win = crit = fumble = Fraction(0)
    a, b, mod = leader
    for bonus, p in dist.items():
        o = check_odds((a, b, mod + bonus), dl)
        win += p * (o["critical"] + o["success"])
        crit += p * o["critical"]
        fumble += p * o["fumble"]
    figures = [("P(leader succeeds)", win), ("P(critical)", crit), ("P(fumble)", fumble)]
    figures += [(f"P(bonus +{k})", dist[k]) for k in sorted(dist)]
    sup = ", ".join(_text(s) + (f" bond {bd}" if bd else "")
                    for s, bd in zip(supporters, bonds, strict=True)) or "none"
    return OddsReport(
        f"Group check: leader {_text(leader)} vs DL {dl}; supporters {sup}", figures,
        notes=[f"each supporter checks against DL {SUPPORT_DL}: +1 per success, plus the "
               "highest Bond among the successful supporters (FU-CHK-5)"])


def _split_checks(text: str) -> list[Check]:
    parts = re.findall(r"\{[^}]*\}\s*(?:[+-]\s*\d+)?|[^,{}]+", text)
    out = []
    for part in (p.strip().strip(",").strip() for p in parts):
        if not part:
            continue
        m = _ONE.match(part)
        if not m:
            raise InvalidInput(f"{part!r} is not a check like {{d8+d6}} or {{d8+d6}}-1; "
                               + USAGE)
        out.append(_check(*m.groups()))
    return out


def answer(query: str) -> OddsReport:
    """Answer an odds query (see the module's docstring)."""
    refuse_foreign_digits(query, "the odds query")
    m = _GROUP.match(query)
    if m:
        leader = _check(*m.groups()[:4])
        dl = int(m.group(5))
        supporters = _split_checks(m.group("sup")) if m.group("sup") else []
        bonds_text = m.group("bonds") or ""
        bonds = [int(x) for x in re.split(r"[,\s]+", bonds_text.strip()) if x]
        return group(leader, dl, supporters, bonds)
    m = _SINGLE.match(query)
    if m:
        return single(_check(*m.groups()[:4]), int(m.group(5)))
    raise InvalidInput(f"cannot read the odds query {query!r}; {USAGE}", query=query)


def pending_odds(state: ConflictState, viewer: Viewer,
                 can_see: Callable[[str], bool] = lambda pid: True,
                 only: str | None = None, damaging: bool = False,
                 spell: tuple[int, int] | None = None,
                 spell_from: tuple[str, ...] = ("ins", "wlp")) -> list[str]:
    """For each member of the side on turn who may act: the exact chance that an attack with
    each of their equipped weapons (none: an unarmed strike) hits each foe, and for one with
    MP the chance that a spell's magic check ``{INS + WLP}`` beats each foe's Magic Defense
    (FU-RES-3); before the start, the Initiative Group Check of each PC who may lead it
    (:func:`initiative_odds`). A player sees only their own characters' odds, only where the
    roll would show them every number of it (no GM-only die or gear of the attacker), and
    only against foes they may know of (``can_see``) whose Defense (Magic Defense) is not
    GM-only. Whether a caster has a spell line never tells MP the viewer may not know (GM-only
    MP: always).
    ``only``: against that foe alone (the target a command names); with ``damaging`` (a spell
    that deals damage, whose magic check rolls against an ally too), against that character
    whichever side they are on; ``spell``: the magic check's two dice, where it is another
    than ``{INS + WLP}`` (a spell on a sheet with ``accuracy = "ins+dex"``), and
    ``spell_from`` the attributes they are of. Each line says the die a status steps down
    (:func:`stepped`)."""
    ext: FabulaExt = state.ext
    if state.status == Status.SETUP.value and only is None:
        # before the start, the roll to come is the Initiative Group Check: each PC who may
        # lead it, as its form shows it with none of its options given
        return [line for pid in initiative_leaders(state)
                for line in initiative_odds(state, viewer, Command("initiative", pid), can_see)]
    order, nxt = ext.order, next_turn(ext)
    if order is None or nxt is None or order.current is not None:
        return []
    lines = []
    for pid in nxt.may_act:
        p = state.participants[pid]
        mine = viewer.player is not None and p.owner == viewer.player
        if not (viewer.is_gm or (mine and not roll_hidden(state, viewer, pid))):
            continue
        aimed = [f for f in state.participants.values()
                 if f.active and f.id in order.side_of and f.id not in order.out
                 and can_see(f.id) and only in (None, f.id)]
        foes = [f for f in aimed if order.side_of[f.id] != order.side_of[pid]]
        armed = [f for f in foes if not defense_hidden(state, viewer, f.id, False)]
        for w in (weapons_of(ext, pid) or [UNARMED]) if armed else []:
            check = (die(ext, p, w.accuracy[0]), die(ext, p, w.accuracy[1]), w.bonus)
            lines.append(f"{attack_head(p.name, w.name)}{_text(check)}"
                         f"{stepped(ext, p, w.accuracy)}): hit "
                         + _hits(check, armed, ext, magic=False))
        warded = [f for f in (aimed if damaging and only is not None else foes)
                  if not defense_hidden(state, viewer, f.id, True)]
        pool = ext.mp.get(pid)
        casts = stat_is_secret(state, viewer, pid, "mp") or (pool is not None and pool.maximum > 0)
        if warded and casts:
            check = (*(spell or spell_dice(ext, p)), 0)
            lines.append(f"{spell_head(p.name)}{_text(check)}{stepped(ext, p, spell_from)}"
                         "): hit "
                         + _hits(check, warded, ext, magic=True))
    return lines


def stepped(ext: FabulaExt, p: Participant, attributes: Sequence[str]) -> str:
    """``; DEX d8 → d6 (Slow)``: each of a check's ``attributes`` whose die a status steps
    down now, from the sheet's to the one rolled, with the statuses that do it (FU-RES-4);
    empty when none does (a d6 stays a d6)."""
    said = []
    for attr in dict.fromkeys(attributes):
        now, base = die(ext, p, attr), sheet_die(p, attr)
        if now != base:
            why = [s.title() for s in ext.statuses.get(p.id, []) if attr in STATUSES.get(s, ())]
            said.append(f"; {attr.upper()} d{base} → d{now} ({', '.join(why)})")
    return "".join(said)


def check_line(state: ConflictState, viewer: Viewer, p: Participant, attributes: str,
               dl: int, bonus: int) -> list[str]:
    """``Cid checks {DEX+INS} ({d6+d8}; DEX d8 → d6 (Slow)) vs DL 10: success 56%``: the
    chance a check of ``p`` succeeds (FU-CHK-1..4), its dice as they are now, statuses
    included (FU-RES-4). A player reads it for their own characters only, and not where a
    die it names is GM-only (even to them); none for a check the rules refuse."""
    mine = viewer.player is not None and p.owner == viewer.player
    named = named_attributes(attributes)
    if not (viewer.is_gm or (mine and not secret_to(state, viewer, p.id, *named))) or dl < 0:
        return []
    try:
        sizes = parse_attributes(state.ext, p, attributes)
    except InvalidInput:
        return []
    check = (*sizes, bonus)
    o = check_odds(check, dl)
    label = "{" + attributes.strip().strip("{}").upper() + "} (" if named else ""
    dice = _text(check) + stepped(state.ext, p, named)
    return [f"{p.name} checks {label}{dice}{')' if named else ''} vs DL {dl}: success "
            f"{float(o['critical'] + o['success']):.0%}"]


def _hits(check: Check, foes: list[Participant], ext: FabulaExt, *, magic: bool) -> str:
    """``Imp 64%, Orc 41%``: the chance ``check`` beats each foe's (Magic) Defense."""
    parts = []
    for f in foes:
        got = check_odds(check, defense(ext, f, magic))
        parts.append(f"{f.name} {float(got['critical'] + got['success']):.0%}")
    return ", ".join(parts)


def spell_dice(ext: FabulaExt, p: Participant) -> tuple[int, int]:
    """The dice of ``p``'s magic check, ``{INS + WLP}`` as they are now (FU-RES-3)."""
    return die(ext, p, "ins"), die(ext, p, "wlp")


def attack_head(actor: str, weapon: str) -> str:
    """How a pending-odds line of ``actor``'s attack with ``weapon`` begins."""
    return f"{actor} attacks with {weapon} ("


def spell_head(actor: str) -> str:
    """How a pending-odds line of ``actor``'s spell (its magic check) begins."""
    return f"{actor} casts a spell ("


def initiative_odds(state: ConflictState, viewer: Viewer, command: Command,
                    can_see: Callable[[str], bool] = lambda pid: True) -> list[str]:
    """The chance the PCs' side wins the Initiative Group Check ``command`` would make
    (FU-CON-3, FU-CHK-5): its leader's ``{DEX + INS}`` with their own modifier, helped by
    each supporter's check against DL 10 and the highest Bond among those who succeed,
    against the DL it names (the GM's) or the highest Initiative among the foes. None where
    the rules would refuse it, and none to a player but for their own leader, where every
    number of it is theirs to know: no GM-only Initiative among the foes (the DL could be
    it), nor a GM-only die, gear, modifier or Bond of a roller. A supporter the player may not
    know of is not counted (whether a line came would tell of them)."""
    ext: FabulaExt = state.ext
    a = command.args
    leaders = initiative_leaders(state)
    leader = state.participants.get(command.actor or "")
    if state.status != Status.SETUP.value or leader is None or leader.id not in leaders:
        return []
    if any(can_see(p.id) for p in unassigned(state)):
        return []  # refused until they are assigned (FU-CON-13); one hidden tells nothing
    if not viewer.is_gm and (viewer.player is None or leader.owner != viewer.player
                             or a.get("dl") is not None):
        return []
    chosen = a.get("supporters")
    if chosen is None:
        chosen = initiative_supporters(state, leader.id)
    if len(set(chosen)) != len(chosen) or any(
            pid == leader.id or pid not in leaders for pid in chosen):
        return []  # the rules refuse it (FU-CHK-5)
    supporters = [state.participants[pid] for pid in chosen if can_see(pid)]
    if a.get("dl") is not None:
        dl = int(a["dl"])
    else:
        foes = initiative_foes(state)
        if not foes or any(initiative_hidden(state, viewer, f.id) for f in foes):
            return []
        dl = max(npc_initiative(ext, f) for f in foes)
    if dl < 0 or len(supporters) > MAX_SUPPORTERS or any(
            secret_to(state, viewer, p.id, *INIT_FROM, "bonds")
            for p in (leader, *supporters)):
        return []

    def check(p: Participant) -> Check:
        return die(ext, p, "dex"), die(ext, p, "ins"), init_modifier(ext, p)

    bonds = [int((p.stats.get("bonds") or {}).get(leader.id, 0)) for p in supporters]
    report = group(check(leader), dl, [check(p) for p in supporters], bonds)
    win = dict(report.figures)["P(leader succeeds)"]
    helped = ", ".join(f"{p.name} {_text(check(p))}" + (f" bond {b}" if b else "")
                       for p, b in zip(supporters, bonds, strict=True))
    return [f"{leader.name} leads the Initiative Group Check ({_text(check(leader))} vs DL "
            f"{dl}" + (f"; supported by {helped}" if helped else "")
            + f"): side {ext.pc_side} acts first {float(win):.0%}"]
