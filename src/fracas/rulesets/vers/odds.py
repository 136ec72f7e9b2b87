"""Exact VERS odds: 3d6 roll-under checks and pursuits as absorbing Markov chains.

Query syntax (``fracas odds --ruleset vers QUERY``)::

    3d6 vs TN [MOD ...]
        P(success) of 3d6 ≤ TN + MODs, and the distribution of the margin (DoS ≥ 0 on a
        success, −DoF on a failure). Example: ``3d6 vs 12 -2``.
    chase length L tn T vs P as hunter|quarry [start S] [mod M]
        The chance that a pursuit of length L (2..6; 2L+1 positions, start S or the centre)
        ends in capture before escape, when the player character rolls Athletics TN T
        penalized by the opponent's Athletics P (and a tactics modifier M on every roll), as
        hunter or quarry, by VR-CHASE-3/4/6 (as quarry, also the chance of evading the hunter
        at 1). Example: ``chase length 3 tn 14 vs 2 as hunter``.

Everything is exact (Fractions): icepool for 3d6, Gaussian elimination for the chain.
"""

from __future__ import annotations

import re
from fractions import Fraction

from fracas.dice.odds import OddsReport, distribution
from fracas.engine.limits import refuse_foreign_digits
from fracas.errors import InvalidInput

_CHECK = re.compile(r"^\s*3d6\s+vs\s+(-?\d+)((?:\s*[+-]\s*\d+)*)\s*$", re.I | re.ASCII)
_CHASE = re.compile(
    r"^\s*chase\s+length\s+(\d+)\s+tn\s+(-?\d+)\s+vs\s+(-?\d+)\s+as\s+(hunter|quarry)"
    r"(?:\s+start\s+(\d+))?(?:\s+mod\s+([+-]?\d+))?\s*$", re.I | re.ASCII)

USAGE = ("queries: '3d6 vs TN [MOD ...]' (e.g. '3d6 vs 12 -2') or "
         "'chase length L tn T vs P as hunter|quarry [start S] [mod M]' "
         "(e.g. 'chase length 3 tn 14 vs 2 as hunter')")


def p_success(target: int) -> Fraction:
    """P(3d6 ≤ target)."""
    return distribution("3d6").p_at_most(target)


def answer(query: str) -> OddsReport:
    """Answer a query in the syntax above, or raise InvalidInput with the usage."""
    refuse_foreign_digits(query, "the odds query")
    m = _CHECK.match(query)
    if m:
        mods = [int(x.replace(" ", "")) for x in re.findall(r"[+-]\s*\d+", m.group(2))]
        return check_report(int(m.group(1)), mods)
    m = _CHASE.match(query)
    if m:
        length, tn, pen = int(m.group(1)), int(m.group(2)), int(m.group(3))
        start = int(m.group(5)) if m.group(5) else None
        mod = int(m.group(6)) if m.group(6) else 0
        return chase_report(length, tn, pen, m.group(4).lower() == "hunter", start, mod)
    raise InvalidInput(f"cannot read the vers odds query {query!r}; {USAGE}", query=query)


def check_report(tn: int, mods: list[int]) -> OddsReport:
    """P(success) and the margin distribution of 3d6 against ``tn`` + ``mods``."""
    target = tn + sum(mods)
    dist = distribution("3d6")
    rows = sorted(((target - total, p) for total, p in dist.items()), reverse=True)
    success = dist.p_at_most(target)
    shown = " ".join(f"{m:+d}" for m in mods)
    return OddsReport(
        title=f"3d6 roll-under vs TN {tn}{' ' + shown if shown else ''} (→ {target})",
        figures=[("P(success)", success), ("P(failure)", 1 - success),
                 ("P(3+ DoS)", dist.p_at_most(target - 3))],
        rows=rows,
        notes=["margin = TN − roll; ≥ 0 is a success with that many DoS, "
               "< 0 a failure with that many DoF (VR-ROLL-1)"],
        outcome_label="margin",
    )


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Solve ``matrix · x = rhs`` exactly (Gauss–Jordan with Fractions)."""
    n = len(rhs)
    a = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[r][n] for r in range(n)]


def _chain(positions: int, p: Fraction, hunter: bool
           ) -> tuple[list[list[Fraction]], list[Fraction], list[Fraction]]:
    """The pursuit's transient states 1..N−1 as ``(I − Q, capture, evasion)``: the matrix of
    an absorbing chain and the one-step chances of a capture and of an evasion from each.

    The roller succeeds with ``p``. Position N is escape; from 1 the roll is an interpose
    (VR-CHASE-6): a hunter's success captures, a failure goes to 2; a quarry's success evades
    the hunter, a failure is capture — both end the chase.
    """
    n = positions - 1  # transient states 1..N-1 → index 0..n-1
    q = 1 - p
    down, up = (p, q) if hunter else (q, p)
    mat = [[Fraction(0)] * n for _ in range(n)]
    capture, evasion = [Fraction(0)] * n, [Fraction(0)] * n
    for i in range(n):
        s = i + 1
        mat[i][i] = Fraction(1)
        if s == 1:
            if hunter:
                capture[i] = p
                if n > 1:
                    mat[i][1] -= q
            else:
                capture[i], evasion[i] = q, p
            continue
        mat[i][i - 1] -= down
        if s + 1 <= n:
            mat[i][i + 1] -= up
    return mat, capture, evasion


def capture_chain(positions: int, p: Fraction, hunter: bool) -> tuple[list[Fraction],
                                                                      list[Fraction]]:
    """P(capture before escape) and expected rolls from each position 1..N−1 (the roller
    succeeds with ``p``; see :func:`_chain`)."""
    mat, capture, _ = _chain(positions, p, hunter)
    return _solve(mat, capture), _solve(mat, [Fraction(1)] * len(capture))


def evasion_chance(positions: int, p: Fraction) -> list[Fraction]:
    """P(the quarry evades the hunter at 1) from each position 1..N−1, when the quarry rolls
    and succeeds with ``p`` (VR-CHASE-6)."""
    mat, _, evasion = _chain(positions, p, hunter=False)
    return _solve(mat, evasion)


def contact_chance(positions: int, p: Fraction, hunter: bool) -> list[Fraction]:
    """P(contact at 1 before the quarry is completely away at the top) from each position
    1..N−1 of a tracking scale of ``positions``, when the roller succeeds with ``p``: a
    hunter's success moves toward 1, a quarry's toward the top (VR-CHASE-7)."""
    down = p if hunter else 1 - p
    n = positions - 2  # transient positions 2..N-1 → index 0..n-1; 1 and N absorb
    mat = [[Fraction(0)] * n for _ in range(n)]
    rhs = [Fraction(0)] * n
    for i in range(n):
        mat[i][i] = Fraction(1)
        if i == 0:
            rhs[i] = down  # one step down from 2 is contact
        else:
            mat[i][i - 1] -= down
        if i + 1 < n:
            mat[i][i + 1] -= 1 - down
    return [Fraction(1), *_solve(mat, rhs)] if n else [Fraction(1)]


def chase_report(length: int, tn: int, pen: int, hunter: bool, start: int | None,
                 mod: int) -> OddsReport:
    """The pursuit report for ``answer``."""
    if not 2 <= length <= 6:
        raise InvalidInput(f"a chase length must be 2 to 6 actions, not {length}",
                           rule="VR-CHASE-2")
    positions = 2 * length + 1
    start = length + 1 if start is None else start
    if not 1 <= start < positions:
        raise InvalidInput(f"start must be 1 to {positions - 1} on a scale of {positions}",
                           rule="VR-CHASE-2")
    target = tn - pen + mod
    p = p_success(target)
    captured, rolls = capture_chain(positions, p, hunter)
    cap = captured[start - 1]
    role = "hunter" if hunter else "quarry"
    if hunter:
        ends = [("P(escape)", 1 - cap)]
    else:
        evaded = evasion_chance(positions, p)[start - 1]
        ends = [("P(evade at 1)", evaded), ("P(escape at the top)", 1 - cap - evaded)]
    return OddsReport(
        title=(f"Pursuit of length {length} ({positions} positions, start {start}): the "
               f"player as {role}, Athletics TN {tn} − {pen}{f' {mod:+d}' if mod else ''} "
               f"→ {target}"),
        figures=[("P(roll succeeds)", p), ("P(capture before escape)", cap),
                 *ends],
        notes=[f"expected rolls to the end: {rolls[start - 1]} "
               f"(≈ {float(rolls[start - 1]):.2f})",
               "exact absorbing Markov chain of VR-CHASE-3/4/6: at 1 the roll is an "
               "interpose; a failed hunter interpose returns to 2, a quarry's success "
               "evades the hunter and ends the chase"],
    )
