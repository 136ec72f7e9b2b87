"""Exact distributions built as integer polynomials, faster than icepool's general operations.

A distribution of whole numbers is a polynomial: the quantity of each outcome is the
coefficient of its power. Two shapes the odds need often are built here directly:

* an exploding die, in closed form over one denominator (``sides ** (depth + 1)``), instead of
  icepool's recursive ``explode``;
* the sum of ``count`` copies of a die, by one big-integer power (Kronecker substitution:
  the coefficients are packed into one integer with room enough that none overflow into the
  next, so CPython's multiplication convolves them all at once).

Both give exactly the distributions icepool gives (``tests/dice/test_exact_sums.py``).
"""

from __future__ import annotations

from typing import Any


def _times(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials (coefficient lists, lowest power first)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def exploded(sides: int, faces: list[int], depth: int) -> Any:
    """A d``sides`` that rolls again and adds on each face of ``faces``, at most ``depth``
    extra dice (the last extra die never explodes), as icepool's ``explode`` does."""
    import icepool

    top = set(faces)
    every = [0] + [1] * sides  # t^1 + ... + t^sides
    boom = [0] + [1 if f in top else 0 for f in range(1, sides + 1)]
    stop = [0] + [0 if f in top else 1 for f in range(1, sides + 1)]
    total = [0]
    chain = [1]  # E^j: the chains of j exploding faces so far
    for j in range(depth):  # j explosions, then a face that stops: weight sides^(depth - j)
        weight = sides ** (depth - j)
        part = _times(chain, stop)
        total += [0] * (len(part) - len(total))
        for i, c in enumerate(part):
            total[i] += c * weight
        chain = _times(chain, boom)
    part = _times(chain, every)  # depth explosions: the last extra die is any face
    total += [0] * (len(part) - len(total))
    for i, c in enumerate(part):
        total[i] += c
    return icepool.Die({i: c for i, c in enumerate(total) if c})


def sum_power(die: Any, count: int) -> Any:
    """The sum of ``count`` independent copies of a die of whole numbers."""
    import icepool

    if count == 1:
        return die
    pairs = [(o, q) for o, q in die.items() if q]
    low = min(o for o, _ in pairs)
    high = max(o for o, _ in pairs)
    denominator = sum(q for _, q in pairs)
    size = ((denominator**count).bit_length() + 8) // 8  # bytes per coefficient: no overflow
    packed = bytearray(size * (high - low + 1))
    for o, q in pairs:
        at = (o - low) * size
        packed[at : at + size] = q.to_bytes(size, "little")
    power = int.from_bytes(packed, "little") ** count
    raw = power.to_bytes(size * (count * (high - low) + 1), "little")
    out = {}
    for i in range(count * (high - low) + 1):
        q = int.from_bytes(raw[i * size : (i + 1) * size], "little")
        if q:
            out[count * low + i] = q
    return icepool.Die(out)
