"""Dice expression grammar: a hand-written recursive-descent parser and the syntax tree.

Grammar (EBNF; whitespace may appear between tokens, but not inside ``NdS``, a number or an
operation such as ``kh3``)::

    text        = [ "d20:" ] , comparison , [ comment ] ;
    comparison  = sum , { ( "==" | "!=" | ">=" | "<=" | ">" | "<" ) , sum } ;
    sum         = product , { ( "+" | "-" ) , product } ;
    product     = unary , { ( "*" | "//" | "/" | "%" ) , unary } ;
    unary       = ( "-" | "+" ) , unary | atom ;
    atom        = ( dice | group | set | number ) , { annotation } ;
    dice        = [ integer ] , "d" , ( integer | "%" ) , { dice_op } , [ count ] ;
    group       = "(" , comparison , ")" , { set_op } , [ count ]
                | "{" , comparison , "}" , { set_op } , [ count ] ;
    set         = "(" , [ comparison , { "," , comparison } , [ "," ] ] , ")" , { set_op } ,
                  [ count ] ;
    dice_op     = "!" , [ ">=" , integer ]                 (* fracas: explode whole chains *)
                | ( "rr" | "ro" | "ra" | "e" ) , selector   (* d20: reroll, explode *)
                | ( "mi" | "ma" ) , integer                 (* d20: minimum, maximum *)
                | set_op ;
    set_op      = ( "k" | "p" ) , selector                  (* d20: keep, drop *)
                | ( "kh" | "kl" | "dh" | "dl" ) , [ integer ] ;   (* fracas spellings *)
    selector    = [ "h" | "l" | "<" | ">" ] , integer ;
    count       = "c" , [ ">=" | "<=" | ">" | "<" ] , integer      (* success count *)
                | ( ">=" | "<=" ) , integer ;              (* the same, fracas reading only *)
    number      = integer | decimal ;
    annotation  = "[" , { any character but "]" } , "]" ;
    comment     = whitespace , letter , { any character } ;

Avrae's ``adv`` / ``dis``, a word anywhere in the text but a label, is taken out before the
text is parsed and rolls the leading ``1d20`` twice (:mod:`fracas.dice.advantage`).

Letters are case-insensitive. ``d6`` means ``1d6``; ``kh`` alone means ``kh1``; ``d%`` is
``d100``. Braces group a check's attribute dice (``{d8+d10}+1``) and otherwise act like
parentheses.

Two readings differ only in what a comparison right after a dice group means: in the fracas
reading (the default) ``10d10>=7`` counts the dice showing 7 or more; in the d20 reading (the
text starts with ``d20:``) it compares the total with 7, as the d20 library and Avrae do. The
explicit ``c>=7`` counts successes in both readings.
"""

from __future__ import annotations

import re
from fractions import Fraction

from fracas.dice.advantage import advantage_words, rolled_twice
from fracas.dice.errors import DiceBudgetError, DiceSyntaxError
from fracas.dice.nodes import (
    COMPARISONS,
    D20,
    D20_PREFIX,
    FRACAS,
    MAX_DEPTH,
    MAX_DICE,
    MAX_FACES,
    MAX_INTEGER,
    MAX_LENGTH,
    MAX_OPERATORS,
    Annotated,
    BinOp,
    Const,
    Dice,
    Group,
    Node,
    Op,
    Sel,
    SetOf,
    Tree,
    Unary,
)
from fracas.dice.op_checks import OpCheck, show

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIE_OPS = ("rr", "ro", "ra", "mi", "ma", "e")
_SET_OPS = ("kh", "kl", "dh", "dl", "k", "p")
_MERGED = ("k", "p", "rr", "ro", "ra", "e")


class Parser:
    """The recursive-descent parser of one text (see the grammar above)."""

    __slots__ = ("begin", "depth", "dice", "group_at", "low", "n", "operators", "pos",
                 "reading", "rerolls", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # ASCII only: str.lower() would read the Kelvin sign 'K' as 'k'
        self.low = text.translate(_ASCII_LOWER)
        self.n = len(text)
        self.pos = 0
        self.depth = 0
        self.dice = 0
        self.operators = 0
        self.rerolls = 0
        self.reading = FRACAS
        self.group_at = 0  # where the dice group being read starts (for its messages)
        self.begin = 0  # where the expression starts, past a "d20:" prefix

    # -- errors -------------------------------------------------------------------------
    def syntax(self, what: str, position: int) -> DiceSyntaxError:
        return DiceSyntaxError(
            f"{what} at position {position} in '{self.text}'",
            position=position,
            expression=self.text,
        )

    def budget(self, what: str, position: int) -> DiceBudgetError:
        return DiceBudgetError(
            f"{what} (at position {position} in '{self.text}')",
            position=position,
            expression=self.text,
        )

    def unexpected(self, expected: str) -> DiceSyntaxError:
        if self.pos >= self.n:
            return self.syntax(f"unexpected end of expression, expected {expected}", self.pos)
        ch = self.text[self.pos]
        instead = _LOOKALIKES.get(ch)
        if instead is not None:
            return self.syntax(f"unexpected {show(ch)}: write {instead}", self.pos)
        return self.syntax(f"unexpected {show(ch)}, expected {expected}", self.pos)

    # -- lexing helpers -----------------------------------------------------------------
    def skip(self) -> bool:
        low, n, pos = self.low, self.n, self.pos
        start = pos
        while pos < n and low[pos] in " \t\r\n\f":
            pos += 1
        self.pos = pos
        return pos > start

    def at(self, token: str) -> bool:
        return self.low.startswith(token, self.pos)

    def digit(self) -> bool:
        return self.pos < self.n and "0" <= self.low[self.pos] <= "9"

    def integer(self, what: str) -> int:
        start = pos = self.pos
        low, n = self.low, self.n
        while pos < n and "0" <= low[pos] <= "9":
            pos += 1
        if pos == start:
            raise self.unexpected(what)
        digits = low[start:pos].lstrip("0")
        if len(digits) > 7 or int(digits or "0") > MAX_INTEGER:
            raise self.budget(
                f"number {self.text[start:pos]} is too large; at most {MAX_INTEGER:,}", start
            )
        self.pos = pos
        return int(low[start:pos])

    def operator(self, length: int) -> None:
        """Step over an arithmetic or comparison operator, counting it against the budget
        (each one is a level of the syntax tree that every later pass walks)."""
        self.operators += 1
        if self.operators > MAX_OPERATORS:
            raise self.budget(f"expression has more than {MAX_OPERATORS} operators", self.pos)
        self.pos += length

    def enter(self, position: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.budget(f"expression nests deeper than {MAX_DEPTH} levels", position)

    # -- grammar ------------------------------------------------------------------------
    def parse(self) -> Tree:
        if self.n > MAX_LENGTH:  # quoted by its start alone: the message stays a sentence
            raise DiceBudgetError(
                f"dice expression is {self.n} characters long; at most {MAX_LENGTH} are allowed "
                f"(at position {MAX_LENGTH} in the text that starts {self.text[:40]!r}…)",
                position=MAX_LENGTH,
                expression=self.text[:MAX_LENGTH])
        self.skip()
        if self.at(D20_PREFIX):
            self.reading = D20
            self.pos += len(D20_PREFIX)
            self.skip()
        word = self.advantage_word()
        self.skip()
        if self.pos >= self.n:
            if word is not None:
                raise self.syntax(f"'{word.group()}' rolls a 1d20 twice, and there is no dice "
                                  f"expression: write '1d20 {word.group()}'", self.pos)
            raise self.syntax("empty dice expression", self.pos)
        self.begin = self.pos
        avrae = _AVRAE_COMMAND.match(self.text, self.pos)
        if avrae is not None:
            raise self.syntax(_avrae_command(avrae), self.pos)
        root = self.comparison()
        self.skip()
        spaced = self.low[self.pos - 1] in " \t\r\n\f"
        comment = ""
        if self.pos < self.n:
            ch = self.text[self.pos]
            if spaced and (self.low[self.pos] in _LETTERS or ch == "#"):
                comment = self.text[self.pos :].strip()
                if word is not None:  # the word out of it, and the gap it leaves
                    comment = " ".join(self.bare(word)[self.pos :].split())
            elif ch in ")}":
                raise self.syntax(f"unexpected {show(ch)} with nothing to close", self.pos)
            elif ch in _LOOKALIKES:
                raise self.unexpected("")
            else:
                raise self.syntax(
                    f"unexpected {show(ch)}, expected an operator (+ - * / // % or a "
                    "comparison), a comment after a space, or the end",
                    self.pos,
                )
        if word is not None:
            rolled = rolled_twice(root, word.group().lower() == "adv")
            if rolled is None:
                raise self.syntax(f"'{word.group()}' rolls the leading "
                                  "1d20 twice, and this expression does not start with a "
                                  "single 1d20 (write 2d20kh1 or 2d20kl1 where the d20 is)",
                                  word.start())
            root = rolled
        return Tree(self.reading, root, comment)

    def advantage_word(self) -> re.Match[str] | None:
        """Avrae's ``adv``/``dis`` anywhere in the text but a label (:mod:`.advantage`),
        blanked out of what is parsed; a second one is refused."""
        found = advantage_words(self.text, self.pos)  # after a "d20:" prefix
        if len(found) > 1:
            raise self.syntax(f"'{found[0].group()}' and '{found[1].group()}' both given; "
                              "write adv or dis once", found[1].start())
        if not found:
            return None
        (word,) = found
        self.low = self.bare(word).translate(_ASCII_LOWER)
        return word

    def bare(self, word: re.Match[str]) -> str:
        """The text with ``word`` blanked out."""
        return self.text[: word.start()] + " " * len(word.group()) + self.text[word.end():]

    def comparison(self) -> Node:
        node = self.sum()
        while True:
            self.skip()
            for op in COMPARISONS:
                if self.at(op):
                    at = self.pos
                    self.operator(len(op))
                    node = BinOp(op, node, self.sum(), at)
                    break
            else:
                return node

    def sum(self) -> Node:
        node = self.product()
        while True:
            self.skip()
            if self.pos < self.n and self.low[self.pos] in "+-":
                op, at = self.low[self.pos], self.pos
                self.operator(1)
                node = BinOp(op, node, self.product(), at)
            else:
                return node

    def product(self) -> Node:
        node = self.unary()
        while True:
            self.skip()
            if self.at("//"):
                at = self.pos
                self.operator(2)
                node = BinOp("//", node, self.unary(), at)
            elif self.pos < self.n and self.low[self.pos] in "*/%":
                op, at = self.low[self.pos], self.pos
                self.operator(1)
                node = BinOp(op, node, self.unary(), at)
            else:
                return node

    def unary(self) -> Node:
        self.skip()
        if self.pos < self.n and self.low[self.pos] in "-+":
            start = self.pos
            op = self.low[start]
            self.pos += 1
            self.enter(start)
            node = Unary(op, self.unary())
            self.depth -= 1
            return node
        return self.atom()

    def atom(self) -> Node:
        node = self.primary()
        labels: list[str] = []
        while True:
            save = self.pos
            self.skip()
            if self.pos < self.n and self.low[self.pos] == "[":
                close = self.text.find("]", self.pos + 1)
                if close < 0:
                    raise self.syntax("annotation '[' is never closed with ']'", self.pos)
                labels.append(self.text[self.pos + 1 : close])
                self.pos = close + 1
            else:
                self.pos = save
                break
        return Annotated(node, tuple(labels)) if labels else node

    def primary(self) -> Node:
        self.skip()
        if self.pos >= self.n:
            raise self.unexpected("a number, a die or '('")
        start = self.pos
        ch = self.low[start]
        if ch in "({":
            return self.bracketed(start, ch)
        if ch == "d":
            return self.dice_group(start, 1, explicit=False)
        if "0" <= ch <= "9" or ch == ".":
            if ch == "." or self.decimal_ahead():
                return Const(self.decimal(), start)
            value = self.integer("a number")
            if self.pos < self.n and self.low[self.pos] == "d":
                return self.dice_group(start, value, explicit=True)
            return Const(value, start)
        raise self.unexpected("a number, a die or '('")

    def decimal_ahead(self) -> bool:
        pos = self.pos
        while pos < self.n and "0" <= self.low[pos] <= "9":
            pos += 1
        return pos < self.n and self.low[pos] == "."

    def decimal(self) -> Fraction:
        start = self.pos
        whole = self.integer("a number") if self.low[start] != "." else 0
        self.pos += 1  # the '.'
        if not self.digit():
            raise self.unexpected("a digit after '.'")
        frac_at = self.pos
        while self.digit():
            self.pos += 1
        digits = self.low[frac_at : self.pos]
        if len(digits) > 7:
            raise self.budget(f"decimal {self.text[start:self.pos]} has more than 7 decimals",
                              start)
        return whole + Fraction(int(digits), 10 ** len(digits))

    def bracketed(self, start: int, ch: str) -> Node:
        close = ")" if ch == "(" else "}"
        self.pos += 1
        self.enter(start)
        items: list[Node] = []
        comma = False
        self.skip()
        if ch == "(" and self.at(")"):
            comma = True  # "()" is the empty set
        else:
            while True:
                items.append(self.comparison())
                self.skip()
                if ch == "(" and self.at(","):
                    comma = True
                    self.pos += 1
                    self.skip()
                    if self.at(")"):
                        break
                    continue
                break
        self.skip()
        if ch == "{" and self.at(","):
            raise self.syntax("braces hold one expression (a check's dice: '{d8+d10}'); a set "
                              "of several is written in parentheses: "
                              f"'({self.text[start + 1:].replace('}', ')', 1)}'", self.pos)
        if self.pos >= self.n or self.low[self.pos] != close:
            found = "the end" if self.pos >= self.n else show(self.text[self.pos])
            raise self.syntax(
                f"expected '{close}' to close '{ch}' from position {start}, found {found}",
                self.pos,
            )
        self.pos += 1
        self.depth -= 1
        members = len(items) if comma else _member_count(items[0])
        ops_at = self.pos
        ops = self.operations(set_only=True, members=members)
        if ops and not comma and _counted(items[0]):
            raise self.syntax("nothing can follow a success count", ops_at)
        if comma:
            return SetOf(tuple(items), ops)
        return Group(items[0], brace=ch == "{", ops=ops)

    def dice_group(self, start: int, count: int, *, explicit: bool) -> Dice:
        self.pos += 1  # the 'd'
        sides_at = self.pos
        percent = self.at("%")
        if percent:
            self.pos += 1
            sides = 100
        elif not self.digit():
            raise self.unexpected("the number of sides after 'd'")
        else:
            sides = self.integer("the number of sides after 'd'")
        if count > MAX_DICE:
            raise self.budget(f"{count} dice is too many; at most {MAX_DICE} in all", start)
        if sides < 1:
            raise self.syntax("a die needs at least one face", sides_at)
        if sides > MAX_FACES:
            raise self.budget(f"d{sides} has too many faces; at most {MAX_FACES}", sides_at)
        self.group_at = start
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.budget(
                f"expression rolls {self.dice} dice; at most {MAX_DICE} in all", start
            )
        ops = self.operations(set_only=False, sides=sides, members=count)
        return Dice(count, sides, ops, explicit, percent, start)

    # -- operations ---------------------------------------------------------------------
    def operations(self, *, set_only: bool, sides: int = 0, members: int = 0) -> tuple[Op, ...]:
        ops: list[Op] = []
        check = OpCheck(self, set_only, sides, members)
        while True:
            save = self.pos
            spaced = self.skip()
            at = self.pos
            op = self.operation(set_only, spaced, sides)
            if op is None:
                self.pos = save
                break
            if ops and op.kind == ops[-1].kind and op.kind in _MERGED:
                merged = Op(op.kind, ops[-1].sels + op.sels)
                check.add(op, merged, at)
                ops[-1] = merged
            else:
                check.add(op, op, at)
                ops.append(op)
        return tuple(ops)

    def operation(self, set_only: bool, spaced: bool, sides: int) -> Op | None:
        """The operation at the current position, or None when there is none."""
        if self.pos >= self.n:
            return None
        low, at = self.low, self.pos
        if low[at] == "!" and not set_only and not self.at("!="):
            self.pos += 1
            if self.at(">="):
                self.pos += 2
                return Op("!", (Sel(">=", self.integer("the lowest exploding face after "
                                                       "'!>='")),))
            return Op("!", (Sel(">=", sides),))
        if self.reading == FRACAS and not set_only and (self.at(">=") or self.at("<=")):
            cat = low[at : at + 2]
            self.pos += 2
            if self.pos < self.n and self.text[self.pos] == " ":
                raise self.syntax(f"right after dice, '{cat}N' with no space counts: "
                                  f"{self.compared(at, self.pos, cat)}", self.pos)
            return Op("c", (Sel(cat, self.integer(f"a target number after '{cat}'")),))
        if self.reading == FRACAS and not set_only and low[at] in "<>":
            raise self.syntax(
                f"unexpected {show(self.text[at])}; right after dice a success count is "
                f"written 'c{low[at]}N', '>=N' or '<=N': {self.compared(at, at + 1, low[at])}",
                at)
        if low[at] not in _LETTERS:
            return None
        if low[at] == "c" and (self.digit_at(at + 1) or low[at + 1 : at + 2] in ("<", ">")):
            self.pos += 1
            cat = ""
            for c in (">=", "<=", ">", "<"):
                if self.at(c):
                    cat = c
                    self.pos += len(c)
                    break
            return Op("c", (Sel(cat, self.integer("a target number after 'c'")),))
        names = _SET_OPS if set_only else _DIE_OPS + _SET_OPS
        for name in names:
            if not self.at(name):
                continue
            after = at + len(name)
            if name in ("kh", "kl", "dh", "dl"):
                if not self.digit_at(after) and low[after : after + 1] in tuple(_LETTERS):
                    continue  # "kl" of "klaxon" in a comment: not an operation
                self.pos = after
                n = self.integer("a number of dice") if self.digit() else 1
                if name in ("kh", "kl"):
                    return Op("k", (Sel(name[1], n),))
                return Op(name, (Sel("", n),))
            sel = self.selector(after)
            if sel is None:
                if spaced:
                    return None  # a comment such as "poison" after a space
                self.pos = after
                raise self.unexpected(f"a selector after '{name}' (a number, or h, l, < or > "
                                      "and a number)")
            return Op(name, (sel,))
        if spaced:
            return None
        raise self.unexpected("an operation (k, p, kh, kl, dh, dl, rr, ro, ra, e, mi, ma, !, c)"
                              " or an operator")

    def compared(self, at: int, after: int, cat: str) -> str:
        """What to write instead of a comparison ``cat`` at ``at`` right after dice, in the
        text's own words: the count, the total compared, and the text in the d20 reading."""
        number = re.match(r"\s*(\d{1,7})", self.text[after:])
        target = number.group(1) if number else "N"
        dice = " ".join(self.text[self.group_at:at].split())
        # the whole left side at the top level ("1d20+1d20 >= 15"), else the dice alone
        left = " ".join(self.text[self.begin if self.depth == 0 else self.group_at:at].split())
        count = f"{dice}{cat}{target}" if len(cat) == 2 else f"{dice}c{cat}{target}"
        shows = {">=": f"{target} or more", "<=": f"{target} or less",
                 ">": f"more than {target}", "<": f"less than {target}"}[cat]
        return (f"'{count}' counts the dice that show {shows}; to compare the total, "
                f"write '({left}) {cat} {target}', or start with "
                f"'d20:' to read it as Avrae does ('d20:{self.text.strip()}')")

    def digit_at(self, pos: int) -> bool:
        return pos < self.n and "0" <= self.low[pos] <= "9"

    def selector(self, pos: int) -> Sel | None:
        low = self.low
        cat = ""
        if pos < self.n and low[pos] in "hl<>":
            cat = low[pos]
            pos += 1
        if not self.digit_at(pos):
            return None
        self.pos = pos
        return Sel(cat, self.integer("a number"))


#: Characters a phone or a word processor types for an operator, and what to write instead.
_LOOKALIKES = {"−": "'-' for minus", "–": "'-' for minus", "—": "'-' for minus",
               "×": "'*' for times", "÷": "'/' to divide", "＋": "'+'", "％": "'%' or 'd%'"}

#: Avrae's roll commands typed before the dice: "!r 1d20", "!rr 6 4d6kh3", "!rrr 3 1d20 15".
_AVRAE_COMMAND = re.compile(
    r"[!/.](?P<cmd>r|roll|rr|multiroll|rrr|iterroll)(?![^\s\d])\s*(?:(?P<n>\d{1,3})\s+)?",
    re.IGNORECASE | re.ASCII)


def _avrae_command(found: re.Match[str]) -> str:
    """What to type instead of an Avrae command written before the dice."""
    cmd, times = found.group("cmd").lower(), found.group("n")
    said = f"'{found.group().strip()}' is Avrae's command, not dice: type the dice alone"
    rest = found.string[found.end():].strip() or "1d20"
    if cmd in ("r", "roll") or times is None:
        return f"{said}, '{rest}'"
    dc = re.match(r"(\S+)\s+(\d{1,7})\b\s*(.*)", rest) if cmd in ("rrr", "iterroll") else None
    if dc is None:
        return f"{said}, '{rest}' (fracas roll --times {times} {rest} rolls it {times} times)"
    dice = " ".join(part for part in (dc.group(1), dc.group(3)) if part)
    return (f"{said}, '{dice}' (fracas roll --times {times} --dc {dc.group(2)} {dice} rolls "
            f"it {times} times against DC {dc.group(2)})")


def _counted(node: Node) -> bool:
    """Whether the members a group's operations would act on were already counted."""
    while isinstance(node, Annotated):
        node = node.inner
    if isinstance(node, Dice | SetOf) or (isinstance(node, Group) and node.ops):
        return bool(node.ops) and node.ops[-1].kind == "c"
    if isinstance(node, Group):
        return _counted(node.inner)
    return False


def _member_count(node: Node) -> int:
    """How many members a group's set operations select among (a group of one value: 1)."""
    if isinstance(node, Dice):
        return node.count
    if isinstance(node, SetOf):
        return len(node.items)
    if isinstance(node, Group) and not isinstance(node.inner, Const | BinOp | Unary):
        return _member_count(node.inner)
    return 1



def parse_tree(text: str) -> Tree:
    """Parse ``text`` into a syntax tree, or raise DiceSyntaxError / DiceBudgetError."""
    return Parser(text).parse()
