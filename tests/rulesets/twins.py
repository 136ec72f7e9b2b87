"""The twin worlds of the concealment hunts (tests/rulesets/test_twin_worlds.py and its
Etherscope part): a bundled example played from its start once with one NPC concealed and once
without that NPC at all, the GM writing a GM-only note in the one world where the GM plays the
concealed character in the other, so both roll the same dice."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache

from fracas.app.scenario import ScriptLine, load_scenario
from fracas.app.script import from_the_start, play_script
from fracas.engine import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Projector
from fracas.engine.redaction import Knowledge
from fracas.errors import FracasError

#: What the world without the NPC does where the GM plays the concealed one in the other.
ALIGN = "note 'a GM-only note in the stead of the concealed character' visibility=gm"
#: The ``conceal`` of :func:`worlds` that sets the NPC up ``hidden = true`` instead: it joins
#: concealed right after the set-up record, where the world without it has a GM-only note.
HIDDEN = "hidden = true"


@cache
def worlds(name: str, which: int, conceal: str) -> tuple[str, Conflict, Conflict] | None:
    """(the NPC, the world without it, the world with it concealed) at the example's start,
    for the example's ``which``-th NPC; None where it has no such NPC or its set-up names it
    (a range, a group, a chase). ``conceal`` is the GM's command, with ``{x}`` for the NPC and
    ``{others}`` for everyone else, comma-separated, or :data:`HIDDEN`. What the set-up places
    of the NPC alone (VERS: its post as a guard, its cover) goes with it. Copy both before
    playing on them."""
    scenario = from_the_start(load_scenario(name))
    npcs = [p.id for p in scenario.setup.participants if not p.player]
    if len(npcs) <= which:
        return None
    x = npcs[which]
    kept = [p for p in scenario.setup.participants if p.id != x]
    placed = {k: [i for i in v if not (isinstance(i, dict) and i.get("who") == x)]
              if isinstance(v, list) else v for k, v in scenario.setup.settings.items()}
    without = scenario.setup.model_copy(update={"participants": kept, "settings": placed})
    if conceal == HIDDEN:  # the note takes the join's version: the same dice after
        hidden = scenario.setup.model_copy(update={"settings": placed, "participants": [
            p.model_copy(update={"hidden": p.id == x}) for p in scenario.setup.participants]})
        try:
            plain = play_script(dataclasses.replace(
                scenario, setup=without, script=(ScriptLine(0, ALIGN), *scenario.script)), "twin")
        except FracasError:
            return None
        return x, plain, play_script(dataclasses.replace(scenario, setup=hidden), "twin")
    try:
        plain = play_script(dataclasses.replace(scenario, setup=without), "twin")
    except FracasError:
        return None
    twin = play_script(scenario, "twin")
    twin.execute(conceal.format(x=x, others=",".join(p.id for p in kept)), time="")
    plain.execute(ALIGN, time="")
    return x, plain, twin


def copy(c: Conflict) -> Conflict:
    """A conflict of the same records, to play on without touching ``c``."""
    return Conflict(c.ruleset, c.seed, c.records)


@dataclass
class Twins:
    """Fresh copies of an example's two worlds to play on, and each viewer but the GM (the
    public, every player) following both."""

    x: str
    plain: Conflict
    twin: Conflict
    viewers: list[Viewer] = field(init=False)
    follows: list[tuple[Projector, Projector]] = field(init=False)

    def __post_init__(self) -> None:
        players = sorted({p.owner for p in self.plain.state.participants.values() if p.owner})
        self.viewers = [Viewer.public(), *map(Viewer.of_player, players)]
        self.follows = [(Projector(self.plain, v), Projector(self.twin, v))
                        for v in self.viewers]

    def found(self) -> bool:
        """Whether a viewer has come to know the concealed one."""
        return any(Knowledge(self.twin.ruleset, self.twin.state, v).knows(self.x)
                   for v in self.viewers)


def start(name: str, which: int, conceal: str) -> Twins | None:
    """:func:`worlds` copied to play on (None where the example gives none)."""
    made = worlds(name, which, conceal)
    return None if made is None else Twins(made[0], copy(made[1]), copy(made[2]))
