"""Seeded, hidden-state-free random numbers that roll alike on every Python version.

fracas never calls :mod:`random`. A :class:`DiceRng` is a SHA-256 counter stream keyed by the
conflict's secret seed and a stream number (the command's version), and dice are drawn from it
by rejection sampling, so undo, reload and a second process all roll the same dice
(DESIGN.md principle 2).

The exact algorithm (pinned by ``tests/dice/test_golden.py``; changing any step changes every
roll ever replayed from a seed):

1. ``derive(seed, stream)``: ``seed`` as bytes (an ``int`` is first written in decimal, a ``str``
   encoded as UTF-8), then the key material is ``seed + b"\\x00" + ascii(decimal(stream))``.
2. ``key = SHA-256(key material)``.
3. Block ``i`` (``i = 0, 1, 2, ...``) is ``SHA-256(key + i.to_bytes(8, "big"))``, read as one
   256-bit big-endian unsigned integer; the generator holds one block at a time as a *pool* of
   bits, consumed from the least significant end.
4. ``below(n)``: ``n == 1`` returns 0 and consumes nothing. Otherwise let
   ``k = (n - 1).bit_length()``. If the pool holds fewer than ``k`` unread bits, its remaining
   bits are discarded and the next block becomes the pool (256 bits). Take ``v`` = the lowest
   ``k`` unread bits (``pool & (2**k - 1)``), shift them out; if ``v < n`` return ``v``, else
   repeat (rejection sampling, so every value is exactly uniform).
   For ``k > 256`` (bounds beyond 2**256) the pool is discarded and ``ceil(k / 256)`` fresh
   blocks are concatenated, the first most significant, masked to ``k`` bits, per attempt.
5. ``die(sides) = below(sides) + 1``; ``dice(count, sides)`` is exactly ``count`` calls of
   ``die(sides)`` in order, done in one loop for speed. (Cutting a whole block into draws at
   once was tried: in CPython it is no faster than the loop, one shift and mask per draw.)

Only integer arithmetic and SHA-256 are used, so the stream is the same on every platform and
Python version.
"""

from __future__ import annotations

import hashlib
import secrets

_BLOCK_BITS = 256


class DiceRng:
    """A deterministic source of uniform integers (see the module docstring for the algorithm)."""

    __slots__ = ("_bits", "_counter", "_key", "_pool")

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = 0
        self._bits = 0

    @classmethod
    def derive(cls, seed: str | int | bytes, stream: int = 0) -> DiceRng:
        """The generator for one ``stream`` (a command's version) of a conflict's ``seed``."""
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode("utf-8")
        return cls(seed + b"\x00" + str(stream).encode("ascii"))

    def _block(self) -> int:
        digest = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by bitmask rejection sampling."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        return self.die(n) - 1

    def die(self, sides: int) -> int:
        """One die with faces ``1 .. sides`` (``below(sides) + 1``)."""
        k = (sides - 1).bit_length()
        if sides < 2 or k > _BLOCK_BITS:
            return self._huge_or_one(sides)
        mask = (1 << k) - 1
        pool = self._pool
        bits = self._bits
        while True:
            if bits < k:
                pool = self._block()
                bits = _BLOCK_BITS
            value = pool & mask
            pool >>= k
            bits -= k
            if value < sides:
                self._pool = pool
                self._bits = bits
                return value + 1

    def _huge_or_one(self, sides: int) -> int:
        """``die`` of one side (no bits used) or of more than 2**256 sides (whole blocks)."""
        if sides <= 0:
            raise ValueError("dice need at least one side")
        if sides == 1:
            return 1
        k = (sides - 1).bit_length()
        mask = (1 << k) - 1
        self._pool = 0
        self._bits = 0
        blocks = -(-k // _BLOCK_BITS)
        while True:
            value = 0
            for _ in range(blocks):
                value = (value << _BLOCK_BITS) | self._block()
            value &= mask
            if value < sides:
                return value + 1

    def dice(self, count: int, sides: int) -> list[int]:
        """``count`` dice with faces ``1 .. sides``: the same as ``count`` calls of :meth:`die`."""
        if count == 1:
            return [self.die(sides)]
        k = (sides - 1).bit_length()
        if sides < 2 or k > _BLOCK_BITS:
            return [self._huge_or_one(sides) for _ in range(count)]
        mask = (1 << k) - 1
        pool = self._pool
        bits = self._bits
        out: list[int] = []
        append = out.append
        left = count
        while left:
            if bits < k:
                pool = self._block()
                bits = _BLOCK_BITS
            value = pool & mask
            pool >>= k
            bits -= k
            if value < sides:
                append(value + 1)
                left -= 1
        self._pool = pool
        self._bits = bits
        return out


def new_seed() -> str:
    """A fresh secret seed for a new conflict (256 bits from :mod:`secrets`, as hex)."""
    return secrets.token_hex(32)
