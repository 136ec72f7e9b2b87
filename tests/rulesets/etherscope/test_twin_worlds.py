"""A character concealed from everyone leaves no trace (ES-RNG-6): each bundled Etherscope
example is played from its start twice, once with one of its NPCs concealed from every other
character, once without that NPC at all, with the same commands (the GM playing the concealed
one at once, with commands that name no one else, where the other world has a GM-only note in
their stead, so both roll the same dice). Until the concealed one is found or gives itself
away, or changes the course of play, every viewer other than the GM reads the same log lines
and the same Etherscope part of the view in both worlds."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios
from fracas.engine import Conflict
from fracas.errors import FracasError
from tests.rulesets import twins

EXAMPLES = int(os.environ.get("FUZZ_N", "25"))
SCENARIOS = sorted(n for n in bundled_scenarios() if n.startswith("etherscope"))
#: The engine's verbs of the GM's own that name someone, end play or take it back. The GM's
#: hiding and showing of the others is played (so the hunt found a roll-off whose dice a
#: hidden tie partner shifted, ES-ROUND-5).
NOT_PLAYED = ("note", "narrate", "roll", "leave", "out", "effect", "join", "undo", "redo", "end")


def _filled(text: str) -> bool:
    """Whether a legal command's template needs nothing filled in (no ``DICE``, ``WHO``)."""
    return not any(re.fullmatch(r"[A-Z_]{2,}", w.split("=")[-1]) for w in text.split(" "))


def _own_moves(c: Conflict, x: str) -> list[str]:
    """What the GM may play for ``x`` now naming no one else."""
    others = set(c.state.innermost.participants) - {x}
    return [t for lc in c.legal(x) if lc.verb not in NOT_PLAYED and _filled(t := lc.text())
            and not others & set(re.split(r"[ ,=]", t))]


def _without(c: Conflict, x: str) -> tuple[object, ...]:
    """What the rules hold of everyone but ``x``: its flags and bands, condensers, harm."""
    ext = c.state.ext
    hidden = sorted((h, o) for h, xs in ext.ranges.hidden.items() for o in xs if x not in (h, o))
    bands = sorted((a, b, band) for a, b, band in ext.ranges.pairs() if x not in (a, b))
    pools = sorted((p, k, v.current) for p, kinds in ext.condenser.items() if p != x
                   for k, v in kinds.items())
    active = sorted(p for p in c.state.active_ids() if p != x)
    return hidden, bands, pools, active, ext.phase, c.state.round


def _table(c: Conflict) -> list[str]:
    return [t for a in [None, *c.state.innermost.participants] for t in c.legal_commands(a)
            if _filled(t) and t.split(" ")[0 if a is None else 1] not in NOT_PLAYED]


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_character_concealed_from_the_start_leaves_no_trace(
    name: str, which: int, data: st.DataObject
) -> None:
    pair = twins.start(name, which, 'conceal {x} from={others}')
    if pair is None:
        return
    x, plain, twin, follows, found = pair.x, pair.plain, pair.twin, pair.follows, pair.found

    for _ in range(data.draw(st.integers(5, 40))):
        own = _own_moves(twin, x)
        if own:  # the GM plays the concealed one at once
            twin.execute(data.draw(st.sampled_from(own)), time="")
            plain.execute(twins.ALIGN, time="")
            if found():
                return
            continue
        table = _table(plain)
        if not table:
            return
        text = data.draw(st.sampled_from(table))
        try:
            plain.execute(text, time="")
        except FracasError:
            continue
        try:
            twin.execute(text, time="")
        except FracasError:
            return  # the concealed one changed the course of play (the GM's to know)
        if found():
            return
        if _own_moves(twin, x):
            continue  # read once the GM has played the concealed one
        if _without(plain, x) != _without(twin, x):
            return  # the course of play changed (a search found the concealed one first)
        for a, b in follows:
            a.advance()
            b.advance()
            lines = ([line for e in f.entries[1:] for line in e.lines] for f in (a, b))
            assert next(lines) == next(lines), (text, a.viewer)
            assert a.view()["conflict"]["ruleset"] == b.view()["conflict"]["ruleset"], \
                (text, a.viewer)
