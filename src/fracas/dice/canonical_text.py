"""The canonical text of a syntax tree (it parses back to an equal tree)."""

from __future__ import annotations

from fracas.dice.nodes import (
    D20,
    D20_PREFIX,
    FRACAS,
    BinOp,
    Const,
    Dice,
    Group,
    Node,
    Op,
    SetOf,
    Tree,
    Unary,
    Value,
)


def _number(value: Value) -> str:
    if isinstance(value, int):
        return str(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:
        rest *= 10
        digit, rest = divmod(rest, value.denominator)
        digits += str(digit)
    if value < 0:  # never produced by the parser (a minus is a Unary), kept exact anyway
        return f"-{_number(-value)}"
    return f"{whole}.{digits or '0'}"


def _ops_text(ops: tuple[Op, ...], reading: str, sides: int | None = None) -> str:
    out = []
    for i, op in enumerate(ops):
        if op.kind == "!":
            nxt = ops[i + 1] if i + 1 < len(ops) else None
            short_count = nxt is not None and _short_count(nxt, reading)
            t = op.sels[0].num
            # "!" alone explodes on the top face, but "!>=N" would read a count as the threshold
            out.append("!" if t == sides and not short_count else f"!>={t}")
        elif op.kind in ("dh", "dl"):
            out.append(f"{op.kind}{op.sels[0].num}")
        elif op.kind == "c" and _short_count(op, reading):
            out.append(str(op.sels[0]))
        else:
            out.append(str(op))
    return "".join(out)


def _short_count(op: Op, reading: str) -> bool:
    return op.kind == "c" and reading == FRACAS and op.sels[0].cat in (">=", "<=")


def _rightmost_dice(node: Node) -> Dice | None:
    """The dice group a node's text ends with, if it ends with one."""
    while isinstance(node, BinOp | Unary):
        node = node.right if isinstance(node, BinOp) else node.operand
    return node if isinstance(node, Dice) else None


def node_text(node: Node, reading: str = FRACAS) -> str:
    """The canonical text of a syntax tree node in a reading."""
    if isinstance(node, Const):
        return _number(node.value)
    if isinstance(node, Dice):
        size = "%" if node.percent else str(node.sides)
        head = f"{node.count}d{size}" if node.explicit_count else f"d{size}"
        return head + _ops_text(node.ops, reading, node.sides)
    if isinstance(node, BinOp):
        left = node_text(node.left, reading)
        last = _rightmost_dice(node.left)
        if left.endswith("!") and node.op in (">=", "==") and last is not None:
            # "10d10!" then ">=8" would read back as explosions on 8 or more
            left = f"{left}>={last.sides}"
        return f"{left}{node.op}{node_text(node.right, reading)}"
    if isinstance(node, Unary):
        return f"{node.op}{node_text(node.operand, reading)}"
    if isinstance(node, Group):
        inner = node_text(node.inner, reading)
        body = f"{{{inner}}}" if node.brace else f"({inner})"
        return body + _ops_text(node.ops, reading)
    if isinstance(node, SetOf):
        items = ",".join(node_text(i, reading) for i in node.items)
        if len(node.items) == 1:
            items += ","
        return f"({items})" + _ops_text(node.ops, reading)
    return node_text(node.inner, reading) + "".join(f"[{label}]" for label in node.labels)


def to_source(tree: Tree) -> str:
    """The canonical text of a parsed text (parses back to an equal tree)."""
    text = node_text(tree.root, tree.reading)
    if tree.reading == D20:
        text = D20_PREFIX + text
    return f"{text} {tree.comment}" if tree.comment else text

