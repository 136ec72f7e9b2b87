"""Avrae's ``adv`` and ``dis``: a word of the text that rolls the expression's leading
``1d20`` twice and keeps the higher or the lower, as Avrae's ``!roll`` does
(``1d20+5 adv to hit`` is ``2d20kh1+5 to hit``).

Avrae hands the word to the d20 library, which changes the leftmost die of the expression
only when it is a single d20 and otherwise rolls as if the word were not there; fracas refuses
such a text instead (``5+1d20 adv``, ``2d20 adv``), and a text with the word twice.
"""

from __future__ import annotations

import dataclasses
import re

from fracas.dice.nodes import Annotated, BinOp, Const, Dice, Group, Node, Op, Sel, SetOf, Unary

#: The word, alone between spaces (or the ends of the text), in any case.
ADVANTAGE_WORD = re.compile(r"(?<!\S)(?:adv|dis)(?!\S)", re.IGNORECASE | re.ASCII)


def advantage_words(text: str, start: int = 0) -> list[re.Match[str]]:
    """Every ``adv``/``dis`` of a text from ``start`` on (past a ``d20:`` prefix, where a word
    may begin) outside its ``[labels]``, as Avrae finds the word anywhere (``1d20+5 adv >= 15``
    compares ``2d20kh1+5`` with 15)."""
    words = []
    for word in ADVANTAGE_WORD.finditer(" " * start + text[start:]):
        before = text[: word.start()]
        if before.count("[") == before.count("]"):  # not inside a label
            words.append(word)
    return words


def rolled_twice(node: Node, highest: bool) -> Node | None:
    """``node`` with its leftmost die, a single d20, rolled twice keeping the higher
    (``highest``) or the lower; None when the leftmost die is something else."""
    if isinstance(node, Dice):
        if node.count != 1 or node.sides != 20 or node.percent:
            return None
        keep = Op("k", (Sel("h" if highest else "l", 1),))
        return dataclasses.replace(node, count=2, ops=(keep, *node.ops), explicit_count=True)
    if isinstance(node, BinOp):
        left = rolled_twice(node.left, highest)
        return None if left is None else dataclasses.replace(node, left=left)
    if isinstance(node, Unary):
        operand = rolled_twice(node.operand, highest)
        return None if operand is None else dataclasses.replace(node, operand=operand)
    if isinstance(node, Group | Annotated):
        inner = rolled_twice(node.inner, highest)
        return None if inner is None else dataclasses.replace(node, inner=inner)
    if isinstance(node, SetOf) and node.items:
        first = rolled_twice(node.items[0], highest)
        return None if first is None else dataclasses.replace(
            node, items=(first, *node.items[1:]))
    assert isinstance(node, Const | SetOf)
    return None
