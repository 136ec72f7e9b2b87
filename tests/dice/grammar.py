"""Hypothesis strategies for random dice expressions of the whole grammar (both readings).

Every string drawn is grammatical and valid: a success count only asks for values the dice can
show, ``e``/``rr`` never pick every face, and a count glued to a bare ``!`` is written in the
explicit form ``!c>=N`` (``!>=N`` would be the explosion threshold).
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

SIDES = [1, 2, 3, 4, 6, 8, 10, 12, 20]


@st.composite
def selector(draw: st.DrawFn, sides: int, *, by_value: bool = False) -> str:
    """A d20 selector (``3``, ``h2``, ``<4``, ``>5``); ``by_value`` never picks every face."""
    cats = ["", "<", ">"] if by_value else ["", "<", ">", "h", "l"]
    cat = draw(st.sampled_from(cats))
    if cat in ("h", "l"):
        return f"{cat}{draw(st.integers(0, 4))}"
    if not by_value:
        return f"{cat}{draw(st.integers(0, sides + 1))}"
    if cat == "<":  # picks 1..n-1: leave the top face out
        return f"<{draw(st.integers(1, sides))}"
    if cat == ">":  # picks n+1..sides: leave 1 out
        return f">{draw(st.integers(1, sides))}"
    return str(draw(st.integers(1, sides)))


@st.composite
def dice_term(draw: st.DrawFn, reading: str = "fracas", *, cheap: bool = False) -> str:
    """A dice group with a random chain of operations and maybe a success count."""
    count = draw(st.integers(0 if not cheap else 1, 3 if cheap else 5))
    sides = draw(st.sampled_from(SIDES[:6] if cheap else SIDES))
    text = draw(st.sampled_from([f"{count}d{sides}", f"{count}D{sides}"]))
    if count == 1 and draw(st.booleans()):
        text = f"d{sides}"
    lo, hi = 1, sides
    bare_bang = False
    if sides > 1 and draw(st.integers(0, 4)) == 0:
        t = draw(st.integers(2, sides))
        bare_bang = t == sides and draw(st.booleans())
        text += "!" if bare_bang else f"!>={t}"
        hi = sides * 21
        ops = ["k", "p", "kh", "kl", "dh", "dl"]
    else:
        ops = ["k", "p", "kh", "kl", "dh", "dl", "ro", "ra", "mi", "ma"]
        if sides > 1:
            ops += ["rr", "e"]
    last = ""
    for _ in range(draw(st.integers(0, 2 if cheap else 3))):
        op = draw(st.sampled_from(ops))
        if op in ("rr", "e") and op == last:
            continue  # 'rr8rr<8' selects together: it could pick every face
        last = op
        if op in ("kh", "kl", "dh", "dl"):
            text += op + str(draw(st.integers(0, 4)))
        elif op in ("mi", "ma"):
            n = draw(st.integers(0, sides + 1))
            text += f"{op}{n}"
            lo, hi = (max(lo, n), max(hi, n)) if op == "mi" else (min(lo, n), min(hi, n))
        else:
            by_value = op in ("rr", "e")
            text += op + draw(selector(sides, by_value=by_value))
            if op in ("rr", "ro", "ra", "e"):
                lo, hi = min(lo, 1), max(hi, sides)
        bare_bang = False
    if draw(st.integers(0, 3)) == 0:
        cat = draw(st.sampled_from([">=", "<="]))
        target = draw(st.integers(lo, min(hi, 40)))
        short = reading == "fracas" and not bare_bang and draw(st.booleans())
        text += ("" if short else "c") + f"{cat}{target}"
    return text


def _binary(inner: st.SearchStrategy[str], reading: str) -> st.SearchStrategy[str]:
    ws = st.sampled_from(["", " "])
    ops = ["+", "-", "*"]

    @st.composite
    def build(draw: st.DrawFn) -> str:
        left, right = draw(inner), draw(inner)
        op = draw(st.sampled_from([*ops, "cmp", "div"]))
        if op == "cmp":
            cmp = draw(st.sampled_from(["==", "!=", ">=", "<=", ">", "<"]))
            # in the fracas reading a comparison right after dice would be a count: group it
            return f"({left}){draw(ws)}{cmp}{draw(ws)}{right}" if reading == "fracas" else (
                f"{left}{draw(ws)}{cmp}{draw(ws)}{right}")
        if op == "div":  # never by zero: a positive constant
            div = draw(st.sampled_from(["/", "//", "%"]))
            return f"({left}){div}{draw(st.integers(1, 4))}"
        return f"{left}{draw(ws)}{op}{draw(ws)}{right}"

    return build()


def _ends_counted(text: str) -> bool:
    """Whether a text may end in a success count (nothing may operate on counted dice)."""
    while True:
        shorter = re.sub(r"(\s*\[[^\]]*\]|[)} ])$", "", text)
        if shorter == text:
            return re.search(r"(>=|<=)\d+$", text) is not None
        text = shorter


def expressions(reading: str = "fracas", *, cheap: bool = False) -> st.SearchStrategy[str]:
    """Whole expressions: arithmetic, groups with set operations, sets, annotations, signs.

    ``cheap`` keeps them small enough for exact odds and thousands of rolls.
    """
    leaves = (
        dice_term(reading, cheap=cheap)
        | st.integers(0, 20).map(str)
        | st.sampled_from(["1.5", ".5", "2.25"])
    )

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        set_op = st.sampled_from(["", "kh1", "kl1", "k>2", "p<2", "ph1", "dl1", "kh1kl1"])
        return st.one_of(
            _binary(inner, reading),
            st.tuples(inner, set_op).map(
                lambda t: f"({t[0]})" + ("" if _ends_counted(t[0]) else t[1])
            ),
            inner.map(lambda s: f"{{{s}}}"),
            st.tuples(st.lists(inner, min_size=1, max_size=3), set_op).map(  # a set
                lambda t: f"({', '.join(t[0])}{',' if len(t[0]) == 1 else ''}){t[1]}"
            ),
            st.tuples(st.sampled_from(["-", "+"]), inner).map("".join),
            st.tuples(inner, st.sampled_from(["fire", "cold", "a b"])).map(
                lambda t: f"{t[0]} [{t[1]}]"
            ),
        )

    body = st.recursive(leaves, extend, max_leaves=3 if cheap else 5)
    comment = st.sampled_from(["", " sneak attack", " to hit"])
    prefix = "d20:" if reading == "d20" else ""
    return st.tuples(body, comment).map(lambda t: prefix + t[0] + t[1])


@st.composite
def avrae_dice(draw: st.DrawFn) -> str:
    """A dice group in the d20 library's own syntax only, as an Avrae user types it: ``NdS``
    and d20's operations (``k p rr ro ra e mi ma`` with ``h l < >`` or a value), none of
    fracas's own (``D``, ``!``, ``dh``/``dl``, a success count); never ``d%``, which d20 rolls
    as a tens die (0–90) and fracas as 1–100 (docs/dice.md, "Differences that remain")."""
    count = draw(st.integers(1, 4))
    sides = draw(st.sampled_from(SIDES[:7]))
    text = f"{count}d{sides}"
    ops = ["k", "p", "ro", "ra", "mi", "ma"] + (["rr", "e"] if sides > 1 else [])
    last = ""
    for _ in range(draw(st.integers(0, 2))):
        op = draw(st.sampled_from(ops))
        if op in ("rr", "e") and op == last:
            continue  # 'rr8rr<8' selects together: it could pick every face
        last = op
        if op in ("mi", "ma"):
            text += f"{op}{draw(st.integers(0, sides + 1))}"
        else:
            text += op + draw(selector(sides, by_value=op in ("rr", "e")))
    return text


def avrae_expressions() -> st.SearchStrategy[str]:
    """Whole expressions in the d20 library's syntax: arithmetic, comparisons, division by a
    positive constant, sets with keep/drop, groups, signs, decimals and labels."""
    leaves = avrae_dice() | st.integers(0, 20).map(str) | st.sampled_from(["1.5", ".5"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        set_op = st.sampled_from(["", "kh1", "kl1", "k>2", "p<2", "ph1", "pl1", "k2"])
        return st.one_of(
            _binary(inner, "d20"),
            st.tuples(inner, set_op).map(lambda t: f"({t[0]}){t[1]}"),
            st.tuples(st.lists(inner, min_size=1, max_size=3), set_op).map(  # a set
                lambda t: f"({', '.join(t[0])}{',' if len(t[0]) == 1 else ''}){t[1]}"),
            st.tuples(st.sampled_from(["-", "+"]), inner).map("".join),
            st.tuples(inner, st.sampled_from(["fire", "cold", "a b"])).map(
                lambda t: f"{t[0]} [{t[1]}]"),
        )

    return st.recursive(leaves, extend, max_leaves=3)
