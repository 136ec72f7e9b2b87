"""The generator draws exactly the stream its docstring specifies, however its calls are mixed.

``SpecRng`` below is the algorithm of ``fracas/dice/rng.py``'s docstring written as plainly as
possible (one chunk at a time). ``DiceRng`` decodes whole blocks for small dice once it has used
its first block; every replayed roll depends on the two agreeing draw for draw.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.dice import DiceRng


class SpecRng:
    """The documented algorithm, step by step, with no shortcut."""

    def __init__(self, seed: str, stream: int) -> None:
        self.key = hashlib.sha256(seed.encode() + b"\x00" + str(stream).encode()).digest()
        self.counter = 0
        self.pool = 0
        self.bits = 0

    def block(self) -> int:
        digest = hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
        self.counter += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        k = (n - 1).bit_length()
        while True:
            if k > 256:
                self.pool = self.bits = 0
                value = 0
                for _ in range(-(-k // 256)):
                    value = (value << 256) | self.block()
                value &= (1 << k) - 1
            else:
                if self.bits < k:
                    self.pool, self.bits = self.block(), 256
                value = self.pool & ((1 << k) - 1)
                self.pool >>= k
                self.bits -= k
            if value < n:
                return value


SIDES = st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 17, 20, 100, 128, 129, 255, 256,
                         1000, 2**300])
CALLS = st.lists(
    st.tuples(st.sampled_from(["die", "dice", "below"]), SIDES, st.integers(0, 90)),
    min_size=1,
    max_size=40,
)


@settings(max_examples=200)
@given(st.text(max_size=8), st.integers(0, 50), CALLS)
def test_mixed_calls_draw_the_specified_stream(seed: str, stream: int, calls: list) -> None:
    rng, spec = DiceRng.derive(seed, stream), SpecRng(seed, stream)
    for kind, sides, count in calls:
        if kind == "dice":
            got = rng.dice(count, sides)
            assert got == [spec.below(sides) + 1 for _ in range(count)], (kind, sides, count)
        elif kind == "die":
            assert rng.die(sides) == spec.below(sides) + 1, (kind, sides)
        else:
            assert rng.below(sides) == spec.below(sides), (kind, sides)


def test_a_long_run_of_one_small_die_then_others_follows_the_stream() -> None:
    # thousands of d6 cross many decoded blocks; each other die then continues from the
    # exact chunk where the d6 stopped
    rng, spec = DiceRng.derive("long", 1), SpecRng("long", 1)
    for sides in (6, 10, 20, 4, 2, 16, 3, 100, 255, 129, 6):
        assert rng.dice(3000, sides) == [spec.below(sides) + 1 for _ in range(3000)]
        assert rng.die(7) == spec.below(7) + 1
        assert [rng.die(sides) for _ in range(50)] == [spec.below(sides) + 1 for _ in range(50)]
