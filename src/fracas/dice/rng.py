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
and needs another for a die of 2 to 16 sides (chunks of 1 to 4 bits) cuts the new block into
all its chunks at once, in C (the block's octal, hexadecimal or binary digits, read from the
least significant end, through ``bytes.translate``), and hands out the faces that are not
rejected, in order, as long as the same size of die is asked for. Any other request first
works out how many chunks those faces used and puts the rest back into the pool. A fresh
generator that rolls a few dice (one per command) never pays for cutting a whole block.

Only integer arithmetic and SHA-256 are used, so the stream is the same on every platform and
Python version.
"""

from __future__ import annotations

import hashlib
import secrets

_BLOCK_BITS = 256
#: Chunk widths (bits) whose faces are decoded a whole block at a time: dice of 2 to 16 sides.
_RUN_BITS = 4
_DIGITS = b"0123456789abcdef"
#: A hexadecimal digit's low and high two bits, as the digits of two 2-bit chunks.
_LOW_PAIR = bytes.maketrans(_DIGITS, bytes(_DIGITS[v & 3] for v in range(16)))
_HIGH_PAIR = bytes.maketrans(_DIGITS, bytes(_DIGITS[v >> 2] for v in range(16)))
#: For each size of die 2..16: the table from a chunk's digit to its face, the digits rejected,
#: and the table marking each accepted digit as 1.
_TABLES = {
    sides: (
        bytes.maketrans(_DIGITS[:sides], bytes(range(1, sides + 1))),
        _DIGITS[sides : 1 << (sides - 1).bit_length()],
        bytes.maketrans(_DIGITS[:sides], b"\x01" * sides),
    )
    for sides in range(2, 17)
}


def _chunks(block: int, k: int) -> bytes:
    """The whole ``k``-bit chunks of a 256-bit block, least significant first, one digit each
    (``k`` of 1 to 4: a binary, base-4, octal or hexadecimal digit)."""
    if k == 3:
        return format(block, "086o")[:0:-1].encode()  # 85 chunks; the top bit is left over
    if k == 1:
        return format(block, "0256b")[::-1].encode()
    nibbles = format(block, "064x")[::-1].encode()
    if k == 4:
        return nibbles
    pairs = bytearray(128)  # k == 2: each nibble holds two chunks, the low one first
    pairs[0::2] = nibbles.translate(_LOW_PAIR)
    pairs[1::2] = nibbles.translate(_HIGH_PAIR)
    return bytes(pairs)


class DiceRng:
    """A deterministic source of uniform integers (see the module docstring for the algorithm)."""

    __slots__ = ("_at", "_bits", "_chunks", "_counter", "_faces", "_key", "_pool", "_sides")

    def __init__(self, key: bytes) -> None:
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._pool = 0
        self._bits = 0
        # a decoded block: its chunks' digits, the faces they give a d``_sides`` (0: none),
        # and how many of those faces are used; ``_pool`` is then the whole block
        self._sides = 0
        self._chunks = b""
        self._faces = b""
        self._at = 0

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
        if sides == self._sides:
            at = self._at
            if at < len(self._faces):
                self._at = at + 1
                return self._faces[at]
            return self._decoded(1, sides, [])[0]
        if self._sides:
            self._settle()
        k = (sides - 1).bit_length()
        if sides < 2 or k > _BLOCK_BITS:
            return self._huge_or_one(sides)
        mask = (1 << k) - 1
        pool = self._pool
        bits = self._bits
        while True:
            if bits < k:
                if self._counter and k <= _RUN_BITS:
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
        if sides == self._sides:
            at = self._at
            end = at + count
            if end <= len(self._faces):
                self._at = end
                return list(self._faces[at:end])
            return self._decoded(count, sides, [])
        if count == 1:
            return [self.die(sides)]
        if self._sides:
            self._settle()
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
                if self._counter and k <= _RUN_BITS:
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
            face_of, rejected, _ = _TABLES[sides]
            self._chunks = _chunks(block, (sides - 1).bit_length())
            faces, at = self._chunks.translate(face_of, rejected), 0
            self._pool, self._bits = block, _BLOCK_BITS
            self._sides, self._faces = sides, faces
        out += faces[at : at + count]
        self._at = at + count
        return out

    def _settle(self) -> None:
        """Back to the pool of bits: the decoded block less the chunks its used faces took."""
        marks = self._chunks.translate(_TABLES[self._sides][2])
        used = len(marks) - len(marks.split(b"\x01", self._at)[-1])
        shift = used * (self._sides - 1).bit_length()
        self._pool >>= shift
        self._bits -= shift
        self._sides = 0


def new_seed() -> str:
    """A fresh secret seed for a new conflict (256 bits from :mod:`secrets`, as hex)."""
    return secrets.token_hex(32)
