"""Odds of an Etherscope roll, exact (icepool via fracas.dice), from the same settings.

Query syntax: ``pool N vs D [die S] [threshold T]`` — N dice, difficulty D (default 1), die
size and threshold defaulting to the ruleset's defaults (d6, 5+). ``pool 5 vs 2``,
``pool 4 vs 1 die 10 threshold 8``.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from fracas.dice import OddsReport, distribution
from fracas.engine.commands import Command
from fracas.engine.limits import refuse_foreign_digits
from fracas.engine.model import ConflictState, Participant, Viewer
from fracas.engine.secrets import setting_is_secret, stat_is_secret
from fracas.errors import InvalidInput
from fracas.rulesets.etherscope.rolls import check_pool, has_rating, pool_size
from fracas.rulesets.etherscope.settings import NUMBERS
from fracas.rulesets.etherscope.state import COUNTDOWN, EsExt

#: The settings every pool's chances derive from.
_ODDS_SETTINGS = ("die_size", "threshold")

_QUERY = re.compile(
    r"^\s*pool\s+(?P<pool>\d+)(?:\s+vs\s+(?P<diff>\d+))?(?:\s+die\s+d?(?P<die>\d+))?"
    r"(?:\s+threshold\s+(?P<thr>\d+))?\s*$", re.I | re.ASCII)


def odds(query: str) -> OddsReport:
    """P(success), the distribution of successes and the expected extra successes."""
    refuse_foreign_digits(query, "the odds query")
    m = _QUERY.match(query)
    if not m:
        raise InvalidInput(
            f"cannot read {query!r}; write 'pool N vs DIFFICULTY [die SIZE] [threshold T]', "
            "e.g. 'pool 5 vs 2'", query=query, rule="ES-ACT-4")
    pool = int(m["pool"])
    diff = int(m["diff"]) if m["diff"] else NUMBERS["default_difficulty"]
    die = int(m["die"]) if m["die"] else NUMBERS["die_size"]
    thr = int(m["thr"]) if m["thr"] else NUMBERS["threshold"]
    if die < 2 or not 1 <= thr <= die:
        raise InvalidInput(f"a d{die} with threshold {thr} cannot be rolled", rule="ES-ACT-4")
    check_pool(pool)  # the same limit as a command's pool=
    probs: dict[int, Fraction] = (
        {0: Fraction(1)} if pool == 0 else dict(distribution(f"{pool}d{die}>={thr}").items()))
    p_success = sum((p for k, p in probs.items() if k >= diff), Fraction(0))
    expected_extra = sum((p * (k - diff) for k, p in probs.items() if k > diff), Fraction(0))
    mean = sum((p * k for k, p in probs.items()), Fraction(0))
    return OddsReport(
        title=f"Etherscope: {pool}d{die}, {thr}+ a success, difficulty {diff}",
        figures=[("P(success)", p_success), ("P(failure)", 1 - p_success)]
        + [(f"P({k}+ extra)", sum((p for s, p in probs.items() if s >= diff + k), Fraction(0)))
           for k in (1, 2, 3) if diff + k <= pool],
        rows=sorted(probs.items()),
        notes=[f"expected successes: {float(mean):.3f} ({mean})",
               f"expected extra successes: {float(expected_extra):.3f} ({expected_extra})",
               "successes: dice showing the threshold or more (ES-ACT-4)"],
        outcome_label="successes",
    )


#: The actions of the countdown that roll the actor's pool (ES-ACT-4): the pending odds are
#: theirs, and no other command's.
ROLLED_ACTIONS = frozenset({"attack", "push", "move", "hide", "search", "recover", "act"})


def _roller(state: ConflictState, viewer: Viewer) -> Participant | None:
    """The character acting now, if ``viewer`` may read the odds of its roll: the GM or its
    player, where the die and threshold are not the GM's."""
    ext: EsExt = state.ext
    slot = ext.countdown.current if ext.phase == COUNTDOWN and not ext.acted else None
    if slot is None or slot.actor not in state.participants:
        return None
    p = state.participants[slot.actor]
    return p if _may_read(state, viewer, p) else None


def _may_read(state: ConflictState, viewer: Viewer, p: Participant) -> bool:
    """Whether ``viewer`` may read the odds of ``p``'s roll: the GM or its player, where the
    die and threshold are not the GM's (every chance derives from them)."""
    if not (viewer.is_gm or (viewer.player is not None and p.owner == viewer.player)):
        return False
    return not any(setting_is_secret(state, viewer, name) for name in _ODDS_SETTINGS)


def _known_skills(state: ConflictState, viewer: Viewer, p: Participant) -> dict[str, Any]:
    """``p``'s skill ratings as ``viewer`` may know them (none where they are the GM's)."""
    raw = p.stats.get("skills")
    if not isinstance(raw, dict) or stat_is_secret(state, viewer, p.id, "skills"):
        return {}
    return raw


def _default_known(state: ConflictState, viewer: Viewer, p: Participant) -> bool:
    """Whether ``viewer`` may know the size of ``p``'s default pool."""
    return not (stat_is_secret(state, viewer, p.id, "pool")
                or setting_is_secret(state, viewer, "default_pool"))


def _line(state: ConflictState, p: Participant, pool: int, what: str, why: str = "",
          difficulty: int | None = None) -> str:
    """``p``'s chances of 1 to 3 successes with ``pool`` dice, ``what`` saying which pool
    ("with brawl", ", the default pool") and ``why`` how it came to be rolled; against a
    ``difficulty`` above 1 (one the viewer may know), of that many successes (success) and
    the two counts above it (ES-ACT-4)."""
    s = state.settings
    first = difficulty if difficulty is not None and difficulty > 1 else 1
    if pool == 0:
        line = f"{p.name} has no dice in the pool {what}{f' ({why})' if why else ''}: " \
            "every roll fails"
    else:
        dist = distribution(f"{pool}d{s['die_size']}>={s['threshold']}")
        chances = ", ".join(f"≥{d} {float(dist.p_at_least(d)):.0%}"
                            for d in (first, first + 1, first + 2) if d <= pool) or \
            f"no chance: {first} successes are more than the pool's dice"
        how = "; ".join(x for x in (why, f"{s['threshold']}+ a success",
                                    f"difficulty {first}" if first > 1 else "") if x)
        line = f"{p.name} rolls {pool}d{s['die_size']} {what} ({how}): {chances}"
    return line.replace("  ", " ").replace(" ,", ",").replace(" :", ":")


def pending_odds(state: ConflictState, viewer: Viewer) -> list[str]:
    """The acting character's pool odds at difficulties 1 to 3, for each of its skills and for
    any other (the default pool) — to the GM and its player only."""
    p = _roller(state, viewer)
    if p is None:
        return []
    skills = _known_skills(state, viewer, p)
    lines = [_line(state, p, pool_size(state, p.id, skill), f"with {skill}")
             for skill in sorted(skills)]
    if _default_known(state, viewer, p):  # any other skill: the default pool
        lines.append(_line(state, p, pool_size(state, p.id, None),
                           "otherwise" if skills else ""))
    return lines


def command_odds(state: ConflictState, viewer: Viewer, command: Command) -> list[str]:
    """The odds of the pool ``command`` (an action of the one acting now) rolls, one line:
    its ``pool=``; else its skill's (named, or the action's own from the settings); else the
    default pool's, saying so ("2d6, the default pool (no skill named; …)"). None where the
    viewer may not know the pool: a skill named while the ratings are the GM's says nothing,
    so that the answer does not tell which skills are rated (ES-ACT-4)."""
    p = _roller(state, viewer)
    if p is None or p.id != command.actor:
        return []
    if not command.args.get("skill") and setting_is_secret(state, viewer, "actions"):
        return []  # the action's own skill, if any, is the GM's
    conf = state.settings["actions"].get(command.verb, {})
    return _pool_line(state, viewer, p, command.args, str(conf.get("skill") or ""),
                      _difficulty(state, viewer, command.args, conf))


def _difficulty(state: ConflictState, viewer: Viewer, a: dict[str, Any],
                conf: dict[str, Any]) -> int | None:
    """The difficulty an action with args ``a`` rolls against, as the actions do: its
    ``difficulty=``, else the action's own in the settings (``conf``), else the default —
    None where ``viewer`` may not know it (a GM-only setting) or it is no number yet."""
    if a.get("difficulty") is not None:
        raw: Any = a["difficulty"]
    elif conf.get("difficulty") is not None:
        if setting_is_secret(state, viewer, "actions"):
            return None
        raw = conf["difficulty"]
    elif setting_is_secret(state, viewer, "default_difficulty"):
        return None
    else:
        raw = state.settings["default_difficulty"]
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


def awareness_odds(state: ConflictState, viewer: Viewer, command: Command) -> list[str]:
    """The odds of the awareness roll (ES-START-1) of one who has not made it yet, as an
    action's (:func:`command_odds`): its skill named, else the conflict's awareness skill;
    to the GM and its player only."""
    p = state.participants.get(command.actor or "")
    if p is None or p.id in state.ext.awareness or not _may_read(state, viewer, p):
        return []
    if not command.args.get("skill") and setting_is_secret(state, viewer, "awareness_skill"):
        return []
    return _pool_line(state, viewer, p, command.args, str(state.settings["awareness_skill"]))


def _pool_line(state: ConflictState, viewer: Viewer, p: Participant, a: dict[str, Any],
               default_skill: str, difficulty: int | None = None) -> list[str]:
    """The line of the pool ``p`` rolls with args ``a``: its ``pool=``, else the skill named
    (or ``default_skill``), else the default pool, saying so; none where the viewer may not
    know which (a GM-only rating). Against ``difficulty``, as :func:`_line` says."""
    if a.get("pool") is not None:
        return [_line(state, p, int(a["pool"]), "", f"pool={int(a['pool'])}", difficulty)]
    skill = str(a.get("skill") or default_skill)
    if skill and (stat_is_secret(state, viewer, p.id, "skills")
                  or stat_is_secret(state, viewer, p.id, skill)):
        return []
    if skill and has_rating(state, p.id, skill):
        return [_line(state, p, pool_size(state, p.id, skill), f"with {skill}", "",
                      difficulty)]
    if not _default_known(state, viewer, p):
        return []
    why = f"no rating in {skill}" if skill else "no skill named"
    return [_line(state, p, pool_size(state, p.id, None), ", the default pool", why,
                  difficulty)]
