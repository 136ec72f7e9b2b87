"""Etherscope rolls: the success-counting pool (ES-ACT-4) and tie roll-offs (ES-ROUND-5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fracas.dice import Roll
from fracas.dice.errors import TableDiceError
from fracas.dice.table import misfit
from fracas.engine.context import DecideContext
from fracas.engine.model import ConflictState
from fracas.engine.words import possessive
from fracas.errors import InvalidInput
from fracas.rulesets.etherscope.common import ext_of
from fracas.rulesets.etherscope.limits import MAX_POOL
from fracas.rulesets.etherscope.marks import pool_secret, rolls_secret


def expression(settings: dict[str, Any], pool: int) -> str:
    """The dice expression of a pool: ``5d6>=5``."""
    return f"{pool}d{settings['die_size']}>={settings['threshold']}"


def has_rating(state: ConflictState, pid: str, skill: str) -> bool:
    """Whether ``pid`` has a rating for ``skill`` (in ``skills`` or as a stat of its own)."""
    stats = state.participants[pid].stats
    skills = stats.get("skills", {})
    return (isinstance(skills, dict) and skill in skills) or isinstance(stats.get(skill), int)


def pool_size(state: ConflictState, pid: str, skill: str | None) -> int:
    """Dice in ``pid``'s pool for ``skill``: its rating, else ``pool``, else the default."""
    p = state.participants[pid]
    skills = p.stats.get("skills", {})
    if skill and isinstance(skills, dict) and skill in skills:
        return int(skills[skill])
    if skill and isinstance(p.stats.get(skill), int):
        return int(p.stats[skill])
    return int(p.stats.get("pool", state.settings["default_pool"]))


def check_pool(pool: int) -> int:
    """A pool of 0 to :data:`MAX_POOL` dice (a command's ``pool=``, an odds query)."""
    if pool < 0:
        raise InvalidInput(f"a pool has at least 0 dice, not {pool}", rule="ES-ACT-4")
    if pool > MAX_POOL:
        raise InvalidInput(f"a pool of {pool} dice is too large: at most {MAX_POOL} (the "
                           "limit on pools)", rule="ES-ACT-4", limit=MAX_POOL)
    return pool


def table_roll(state: ConflictState, ctx: DecideContext, pid: str, pool: int,
               dice: Sequence[int] | None, rule: str, *, secret: bool = False,
               stream: str | None = None) -> Roll:
    """``pid``'s roll of ``pool`` dice (or the dice rolled at the table: refused under
    ``rule``, saying whose roll they do not fit). ``secret``: the command's author may not
    know the pool's size or its dice (a GM-only rating — even of their own character — or
    die), so the refusal tells neither. ``stream``: the command's own generator to roll from
    (:meth:`DecideContext.stream`)."""
    expr = expression(state.settings, pool)
    try:
        return ctx.roll(expr, dice, stream=stream)
    except TableDiceError as exc:
        who = state.participants[pid].name
        if secret:
            raise unfit(state, pid, dice, rule) from None
        dice_word = "die" if pool == 1 else "dice"
        raise TableDiceError(f"{possessive(who)} roll is {pool} {dice_word} ({expr}), but "
                             f"{misfit(exc, list(dice or ()))}",
                             rule=rule, dice=list(dice or ()), expression=expr) from None


def unfit(state: ConflictState, pid: str, dice: Sequence[int] | None,
          rule: str) -> TableDiceError:
    """The refusal of table dice that do not fit a pool whose size (or dice) the command's
    author may not know: it says what is wrong, and neither."""
    return TableDiceError(f"{possessive(state.participants[pid].name)} roll: the dice rolled "
                          f"at the table, {list(dice or ())}, do not fit its pool (how many "
                          "dice, and which, is the GM's to say)", rule=rule, dice=list(dice or ()))


def pool_roll(
    state: ConflictState, ctx: DecideContext, pid: str, skill: str | None, args: dict[str, Any],
    rule: str = "ES-ACT-4",
) -> dict[str, Any]:
    """Roll (or take from the table) ``pid``'s pool: {pool, skill, successes, roll?} (table
    dice that do not fit it refused under ``rule``)."""
    pool = args.get("pool")
    out: dict[str, Any] = {}
    secret = rolls_secret(state, ctx.author) if pool is not None else \
        pool_secret(state, ctx.author, pid, skill)
    if pool is None:
        pool = pool_size(state, pid, skill)
        if skill and not has_rating(state, pid, skill):
            out["unrated"] = True  # the log says the default pool was used, and why
    check_pool(pool)
    out.update(pool=pool, skill=skill or "")
    if args.get("successes") is not None:
        if args.get("dice") is not None:
            raise InvalidInput("give dice= or successes=, not both", rule="ES-ACT-4")
        n = int(args["successes"])
        if n < 0:
            raise InvalidInput(f"successes cannot be negative ({n})", rule="ES-ACT-4")
        if n > pool and not ctx.author.is_gm:  # the GM may grant more: a ruling of theirs
            raise _more_than_rolled(state, pid, n, pool, secret, rule)
        out["successes"] = n
        out["table"] = True
        return out
    if pool == 0:
        if args.get("dice") and secret:
            raise unfit(state, pid, args.get("dice"), rule)
        if args.get("dice"):
            raise InvalidInput("a pool of 0 dice takes no dice", rule="ES-ACT-4")
        out["successes"] = 0
        return out
    roll = table_roll(state, ctx, pid, pool, args.get("dice"), rule, secret=secret)
    out["roll"] = roll.to_data()
    out["text"] = roll.to_text()
    out["successes"] = roll.total
    return out


def _more_than_rolled(state: ConflictState, pid: str, n: int, pool: int, secret: bool,
                      rule: str) -> InvalidInput:
    """The refusal of more successes typed in than a pool's dice can roll (one a die); where
    its size is not the author's to know, it says neither."""
    whose = possessive(state.participants[pid].name)
    if secret:
        return InvalidInput(f"{whose} roll: {n} successes typed in do not fit its pool (how "
                            "many dice, and so how many successes it may roll, is the GM's "
                            "to say)", rule=rule)
    dice = "die" if pool == 1 else "dice"
    return InvalidInput(f"{whose} roll: {n} successes typed in, but a pool of {pool} {dice} "
                        f"rolls at most {pool}", rule=rule)


def awareness_pool(state: ConflictState, pid: str) -> int:
    """The awareness roll's pool (stat ``awareness`` or the awareness skill)."""
    return pool_size(state, pid, state.settings["awareness_skill"])


def break_ties(
    state: ConflictState, ctx: DecideContext, tied: list[str], awareness: dict[str, int],
    score: int | None, table: dict[str, list[int]] | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Order ``tied`` by awareness, then roll-offs of the awareness roll, with the pool each
    character rolled it with (ES-ROUND-5).

    Returns the roll-off records (for ``tie_rolloff`` events) and the order, best first.
    The roll-offs never change the kept awareness scores. ``table`` holds dice rolled at the
    table: a character's dice are used (and removed) at its first roll-off; later roll-offs
    (still tied) are rolled by fracas, each character's from a generator of its own, so who
    else ties with it — one the viewer may not know of, too — never changes its dice.
    """
    records: list[dict[str, Any]] = []
    by_score: dict[int, list[str]] = {}
    for pid in tied:
        by_score.setdefault(awareness.get(pid, 0), []).append(pid)
    order: list[str] = []
    for aw in sorted(by_score, reverse=True):
        order.extend(_roll_off(state, ctx, by_score[aw], score, aw, records, table))
    return records, order


def _roll_off(
    state: ConflictState, ctx: DecideContext, group: list[str], score: int | None, aw: int,
    records: list[dict[str, Any]], table: dict[str, list[int]] | None = None,
) -> list[str]:
    if len(group) < 2:
        return list(group)
    for _attempt in range(20):
        rolls: dict[str, Any] = {}
        result: dict[str, int] = {}
        for pid in group:
            pool = max(1, ext_of(state).awareness_pools.get(pid) or awareness_pool(state, pid))
            dice = table.pop(pid, None) if table is not None else None
            used = (state.settings["awareness_skill"],
                    ext_of(state).awareness_skills.get(pid))  # as the marks judge its pool
            secret = any(pool_secret(state, ctx.author, pid, s) for s in used)
            roll = table_roll(state, ctx, pid, pool, dice, "ES-ROUND-5", secret=secret,
                              stream=f"rolloff:{score}:{pid}")
            rolls[pid] = roll.to_data()
            result[pid] = roll.total
        records.append({"score": score, "awareness": aw, "participants": list(group),
                        "rolls": rolls, "successes": result})
        levels = sorted(set(result.values()), reverse=True)
        if len(levels) > 1:
            out: list[str] = []
            for lv in levels:
                out.extend(_roll_off(state, ctx, [p for p in group if result[p] == lv],
                                     score, aw, records, table))
            return out
    return sorted(group)  # pragma: no cover - twenty ties in a row
