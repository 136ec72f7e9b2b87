"""Checks of a dice group's operations while parsed: order, selectors, endless loops, budgets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.dice.nodes import MAX_EXPLOSIONS, MAX_GROUP_DICE, MAX_REROLLS, Op, Sel

if TYPE_CHECKING:
    from fracas.dice.parser import Parser


def show(ch: str) -> str:
    """A character quoted for an error message."""
    return f'"{ch}"' if ch == "'" else f"'{ch}'" if ch.isprintable() else repr(ch)


class OpCheck:
    """Checks a group's operations one by one: order, selectors, endless loops, budgets."""

    __slots__ = ("chain", "counted", "dice", "first", "hi", "lo", "p", "set_only", "sides")

    def __init__(self, p: Parser, set_only: bool, sides: int, members: int) -> None:
        self.p = p
        self.set_only = set_only
        self.sides = sides
        self.dice = members
        self.lo, self.hi = 1, sides
        self.first = True
        self.chain = False
        self.counted = False

    def add(self, op: Op, merged: Op, at: int) -> None:
        """Check ``op`` (at ``at``); ``merged`` is it joined with the operation before it."""
        p, kind, sides, sel = self.p, op.kind, self.sides, op.sels[0]
        first, self.first = self.first, False
        if self.counted:
            raise p.syntax("nothing can follow a success count", at)
        if kind == "!":
            if not first:
                raise p.syntax("'!' explodes whole chains and must come first after the dice", at)
            if sel.num > sides:
                raise p.syntax(f"d{sides} never shows {sel.num}, so '!>={sel.num}' never "
                               "explodes", at)
            if sel.num <= 1:
                raise p.budget(f"every face of d{sides} would explode; the chain would never "
                               "end", at)
            self.chain = True
            self.hi = sides * (MAX_EXPLOSIONS + 1)
        elif self.chain and kind in ("rr", "ro", "ra", "e", "mi", "ma"):
            raise p.syntax(f"'{kind}' cannot follow '!' (whole chains); use 'e' to explode "
                           "single dice, as d20 does", at)
        elif kind in ("mi", "ma"):
            if sel.cat:
                raise p.syntax(f"'{kind}' takes a plain number, not '{sel}'", at)
            if kind == "mi":
                self.lo, self.hi = max(self.lo, sel.num), max(self.hi, sel.num)
            else:
                self.lo, self.hi = min(self.lo, sel.num), min(self.hi, sel.num)
        elif kind in ("rr", "ro", "ra", "e"):
            self.rolls_again(op, merged, at)
        elif kind == "c":
            self.counted = True
            if not self.set_only and not self.can_succeed(sel):
                what = f"a chain of d{sides}" if self.chain else f"a d{sides}"
                written = p.text[at : p.pos]
                raise p.syntax(f"{what} never shows {_wanted(sel)}, so '{written}' never "
                               "counts a success", at)

    def rolls_again(self, op: Op, merged: Op, at: int) -> None:
        p, kind, sides, sel = self.p, op.kind, self.sides, op.sels[0]
        if kind in ("e", "rr"):
            what = "explode" if kind == "e" else "be rerolled"
            if not sel.by_value:
                raise p.budget(f"'{kind}{sel}' would never end (there is always a "
                               f"{'highest' if sel.cat == 'h' else 'lowest'} die); select by "
                               f"value: {kind}6, {kind}<3 or {kind}>5", at)
            picked = [f for f in range(1, sides + 1) if any(s.matches(f) for s in merged.sels)]
            if len(picked) == sides:
                raise p.budget(f"every face of d{sides} would {what}; the '{kind}' would never "
                               "end", at)
            if kind == "rr" and op is merged:  # expected dice: sides / faces left per die
                p.rerolls += -(-self.dice * sides // (sides - len(picked)))
                if p.rerolls > MAX_REROLLS:
                    raise p.budget(f"rerolls would take about {p.rerolls:,} dice; at most "
                                   f"{MAX_REROLLS:,}", at)
        if op is merged and kind == "e":
            self.dice *= MAX_EXPLOSIONS + 1
        elif op is merged and kind == "ra":
            self.dice += 1
        if self.dice > MAX_GROUP_DICE:
            raise p.budget(f"explosions could roll {self.dice:,} dice in this group; at "
                           f"most {MAX_GROUP_DICE:,}", at)
        self.lo, self.hi = min(self.lo, 1), max(self.hi, sides)

    def can_succeed(self, sel: Sel) -> bool:
        lo, hi, n = self.lo, self.hi, sel.num
        if sel.cat == ">=":
            return n <= hi
        if sel.cat == "<=":
            return n >= lo
        if sel.cat == ">":
            return n < hi
        if sel.cat == "<":
            return n > lo
        return lo <= n <= hi


def _wanted(sel: Sel) -> str:
    n = sel.num
    return {">=": f"{n} or more", "<=": f"{n} or less", ">": f"more than {n}",
            "<": f"less than {n}"}.get(sel.cat, str(n))

