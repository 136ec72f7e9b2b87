"""A refused command tells nothing of the dice (DESIGN.md principle 6): the dice of a command
come from the secret seed and the version, and a refusal records nothing, so a refusal that
hung on what the dice showed would let a player read the dice to come — their own next roll,
the GM's roll behind the screen — and notice records hidden from them (the dice change)."""

from __future__ import annotations

import contextlib
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.engine import Command, Conflict
from fracas.engine.model import Viewer
from fracas.errors import FracasError
from tests.rulesets.own_gm_only import own_secrets
from tests.rulesets.test_fuzz_commands import SCENARIOS, commands, played

EXAMPLES = int(os.environ.get("FUZZ_N", "15"))
#: Rolls that would be refused for some dice only, were a division checked when rolled.
PROBES = [f"roll '1/(1d20-{k})+1%0'" for k in (1, 7, 20)] + [
    "roll '1d6/(1d2-1)'", "roll '3d6 % (1d4-2)'", "roll 'd20:10//(1d20-1d20)'"]


def _outcome(c: Conflict, command: str | Command, author: Viewer) -> tuple[str, ...]:
    try:
        c.decide(c.parse(command) if isinstance(command, str) else command, author)
    except FracasError as exc:
        return type(exc).__name__, exc.message, exc.rule or ""
    return ("accepted",)


def test_a_roll_that_could_divide_by_zero_is_refused_alike_whatever_the_dice() -> None:
    c = played("etherscope-car-chase")
    alice = Viewer.of_player("alice")
    for k in range(1, 21):  # before: refused at '/' when the d20 showed k, at '%' otherwise
        answers = {_outcome(Conflict(c.ruleset, seed, c.records),
                            f"ada: roll '1/(1d20-{k})+1%0'", alice)[:2]
                   for seed in ("one", "two", "three", "four")}
        assert answers == {("DiceValueError", "division by zero: the right side of '/' at "
                            f"position 1 in '1/(1d20-{k})+1%0' may be 0 (it lies between "
                            f"{1 - k} and {20 - k}); such a roll is refused before any die is "
                            "rolled")}


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whether_and_why_a_command_is_refused_never_depends_on_the_seed(
        name: str, data: st.DataObject) -> None:
    probes: tuple[str, ...] = ()
    if data.draw(st.integers(0, 3)) == 0:  # from the start, a player's own stats GM-only
        own = data.draw(own_secrets(name))
        c, probes = own.conflict, own.probes  # their refusals are worded for the player
    else:
        c = played(name)
    players = sorted({p.owner for p in c.state.participants.values() if p.owner})
    authors = [Viewer.gm(), *map(Viewer.of_player, players)]
    for _ in range(data.draw(st.integers(1, 5))):
        pick = data.draw(st.integers(0, 3 if probes else 2))
        command: str | Command
        if pick == 0:
            command = data.draw(commands(c))
        elif pick == 1:
            actor = data.draw(st.sampled_from([None, *c.state.innermost.participants]))
            legal = [t for t in c.legal_commands(actor)
                     if not any(w.isupper() and len(w) > 1 for w in t.split(" "))]
            if not legal:
                continue
            command = data.draw(st.sampled_from(legal))
        elif pick == 2:
            command = data.draw(st.sampled_from(PROBES))
        else:
            command = data.draw(st.sampled_from(probes))
        author = data.draw(st.sampled_from(authors))
        twin = Conflict(c.ruleset, c.seed + "-twin", c.records)
        assert _outcome(c, command, author) == _outcome(twin, command, author), command
        with contextlib.suppress(FracasError):
            c.execute(command, author, time="")
