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
   ``die(sides)`` in order.

How it is computed does not change the stream. A generator that has used up its first block
and needs another for a die of 2 to 255 sides (chunks of 1 to 8 bits) cuts the new block into
all its chunks at once, in C (its octal or hexadecimal digits, or big-integer masks and shifts
that move chunk ``i`` to byte ``i``; then ``bytes.translate`` turns the chunks into faces and
drops the rejected ones), and hands out those faces in order as long as the same size of die
is asked for. Any other request first works out how many chunks the faces handed out used and
puts the rest back into the pool, and the generator goes die by die from then on (one that
mixes sizes of dice would cut blocks for nothing). A fresh generator that rolls a few dice (one
per command) never pays for cutting a whole block.

Only integer arithmetic and SHA-256 are used, so the stream is the same on every platform and
Python version.
"""

from __future__ import annotations

import functools
import hashlib
import secrets

_BLOCK_BITS = 256
#: The largest die whose faces are decoded a whole block at a time (a byte each).
_RUN_SIDES = 255


@functools.cache
def _spreading(k: int) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """How to move each ``k``-bit chunk ``i`` of a block to bits ``8i .. 8i+k-1``: (number of
    chunks, mask of their bits, and per step a mask of the chunks to move and how far).

    Step ``j`` (highest first) moves the chunks whose index has bit ``j`` set by
    ``(8 - k) * 2**j`` bits, so after all steps chunk ``i`` has moved ``(8 - k) * i``.
    """
    n = _BLOCK_BITS // k
    at = [k * i for i in range(n)]
    steps = []
    for j in reversed(range((n - 1).bit_length())):
        moved = [i for i in range(n) if i >> j & 1]
        mask = sum(((1 << k) - 1) << at[i] for i in moved)
        shift = (8 - k) << j
        for i in moved:
            at[i] += shift
        if shift:
            steps.append((mask, shift))
    return n, (1 << (n * k)) - 1, tuple(steps)


#: An octal or hexadecimal digit's value.
_DIGIT_VALUES = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))


def _chunks(block: int, k: int) -> bytes:
    """The whole ``k``-bit chunks of a 256-bit block (``k`` of 1 to 8), least significant
    first, one byte each, all in C: 3- and 4-bit chunks are the block's octal and hexadecimal
    digits; others are moved apart by a few big-integer masks and shifts, then cut by
    ``int.to_bytes``."""
    if k == 4:
        return format(block, "064x")[::-1].encode().translate(_DIGIT_VALUES)
    if k == 3:  # 85 chunks; the top bit is left over
        return format(block, "086o")[:0:-1].encode().translate(_DIGIT_VALUES)
    n, whole, steps = _spreading(k)
    x = block & whole
    for mask, shift in steps:
        moving = x & mask
        x = (x ^ moving) | (moving << shift)
    return x.to_bytes(n, "little")


@functools.cache
def _tables(sides: int) -> tuple[bytes, bytes, bytes]:
    """For a d``sides``: the table from a chunk to its face (the chunk + 1), the chunks it
    rejects, and the table marking each chunk 1 (accepted) or 0 (rejected)."""
    accepted = bytes(range(sides))
    return (bytes.maketrans(accepted, bytes(range(1, sides + 1))), bytes(range(sides, 256)),
            bytes(1 if v < sides else 0 for v in range(256)))


class DiceRng:
    """A deterministic source of uniform integers (see the module docstring for the algorithm)."""

    __slots__ = ("_at", "_bits", "_chunks", "_counter", "_faces", "_key", "_mixed", "_pool",
                 "_sides")

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = 0
        self._bits = 0
        # a decoded block: its chunks (a byte each), the faces they give a d``_sides`` (0:
        # none) and how many of those faces are used; ``_pool`` is then the whole block
        self._sides = 0
        self._chunks = b""
        self._faces = b""
        self._at = 0
        self._mixed = False  # asked for another size of die while it handed out decoded faces

    @classmethod
    def derive(cls, seed: str | int | bytes, stream: int | str = 0) -> DiceRng:
        """The generator for one ``stream`` (a command's version, or one of its own keyed
        streams) of a conflict's ``seed``."""
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
        if self._sides:
            if sides == self._sides:
                at = self._at
                if at < len(self._faces):
                    self._at = at + 1
                    return self._faces[at]
                return self._decoded(1, sides, [])[0]
            self._settle()
        k = (sides - 1).bit_length()
        if sides < 2 or k > _BLOCK_BITS:
            return self._huge_or_one(sides)
        mask = (1 << k) - 1
        pool = self._pool
        bits = self._bits
        while True:
            if bits < k:
                if self._counter and sides <= _RUN_SIDES and not self._mixed:
                    return self._decoded(1, sides, [])[0]
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
        if self._sides:
            if sides == self._sides:
                at = self._at
                end = at + count
                if end <= len(self._faces):
                    self._at = end
                    return list(self._faces[at:end])
                return self._decoded(count, sides, [])
            self._settle()
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
                if self._counter and sides <= _RUN_SIDES and not self._mixed:
                    return self._decoded(left, sides, out)
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

    def _decoded(self, count: int, sides: int, out: list[int]) -> list[int]:
        """``out`` and ``count`` more faces of a d``sides`` from decoded blocks: the rest of
        the one decoded for ``sides`` (if any), then new ones (the pool is used up)."""
        faces, at = (self._faces, self._at) if self._sides == sides else (b"", 0)
        while at + count > len(faces):
            out += faces[at:]
            count -= len(faces) - at
            block = self._block()
            face_of, rejected, _ = _tables(sides)
            self._chunks = _chunks(block, (sides - 1).bit_length())
            faces, at = self._chunks.translate(face_of, rejected), 0
            self._pool, self._bits = block, _BLOCK_BITS
            self._sides, self._faces = sides, faces
        out += faces[at : at + count]
        self._at = at + count
        return out

    def _settle(self) -> None:
        """Back to the pool of bits: the decoded block less the chunks its used faces took."""
        marks = self._chunks.translate(_tables(self._sides)[2])
        at = self._at
        used = at  # the chunks up to the at-th accepted one: at + the rejected ones among them
        while True:
            more = at + marks.count(0, 0, used)
            if more == used:
                break
            used = more
        shift = used * (self._sides - 1).bit_length()
        self._pool >>= shift
        self._bits -= shift
        self._sides = 0
        self._mixed = True  # from now on die by die


def new_seed() -> str:
    """A fresh secret seed for a new conflict (256 bits from :mod:`secrets`, as hex)."""
    return secrets.token_hex(32)
