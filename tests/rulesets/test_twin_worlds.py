"""A character concealed from everyone leaves no trace in Fabula Ultima and VERS either
(as tests/rulesets/etherscope/test_twin_worlds.py proves for Etherscope): each bundled
example is played from its start twice, once with one of its NPCs concealed (``conceal``),
once without that NPC at all, with the same commands, drawn from those offered (a player's
character's as its player is offered them, and given by that player). A player is refused
nothing in the world with the concealed one that the other world took, and whenever every
viewer but the GM has read what the table did, they read the same log lines, the same view
and the same offered commands in both worlds. Its moves name no one else and no object the
players see (a blow on one is seen to land).

A concealed NPC still takes its turns, so the two worlds cannot play the very same commands.
The GM plays it as a GM who keeps it secret would, where the other world has a GM-only note
in its stead (so both roll the same dice), with moves that name no one else:

- Fabula Ultima (FU-CON-6, FU-CON-7, FU-CON-10): the sides alternate turns, one a
  character, so the concealed one's turn is one of its side's. The GM gives it its side's
  turn only when nobody else of its side has a turn left — then, in the other world, that
  side has run out of turns and the other takes its remaining ones (or the round ends),
  and the turns the players see come in the same order. (A foe's turn taken by the
  concealed one while a seen foe could have taken it would pass the turn to the PCs with
  nothing seen done: that is the GM's to avoid, not the engine's.)
- VERS (VR-TURN-2, VR-TURN-3): popcorn hand-offs. The concealed one goes last: the last
  seen character to go hands off to it (a player's, all of whose not-gone are hidden from
  them, ends the go with a bare hand-off and the GM hands off for it), and it ends the turn.
  In the other world that last hand-off is the bare one that ends the turn.

The views are compared once the concealed one has played: while it is still due, a player
sees whose turn it is not ("may act: nobody", no one acting), as they would see the GM
think. What the rules hold of everyone else must match too, else the course of play changed
(the GM's to know), and the example stops there. What still tells of it is in the docs
(docs/fabula-ultima.md, docs/vers.md: the round's or turn's end reaches the players' log on a
line of its own, "the GM acts")."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine import Conflict
from fracas.engine.legal import LegalCommand
from fracas.engine.model import Status, Viewer
from fracas.engine.projector import Projector, offered
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from fracas.rulesets.fabula_ultima.state import FabulaExt, next_turn
from fracas.rulesets.vers.state import VersExt
from tests.rulesets import twins

EXAMPLES = int(os.environ.get("FUZZ_N", "15"))
#: The engine's verbs of the GM's own that name someone, end play or take it back, not a
#: character's moves (the GM's hiding and showing of the others is played).
NOT_PLAYED = frozenset({"note", "narrate", "roll", "leave", "out", "effect", "join", "undo",
                        "redo", "end", "override", "extra", "damage", "status"})
#: What a free text value is filled with.
TEXT = "for the test"


# --------------------------------------------------------------------------- the rulesets


def _fu_due(twin: Conflict, x: str) -> bool:
    """Whether the GM plays the concealed ``x`` now: its side's turn comes (in this round, or
    opening the next) and nobody else of that side may take it (FU-CON-6, FU-CON-7,
    FU-CON-10)."""
    nxt = next_turn(twin.state.innermost.ext)
    return nxt is not None and twin.state.status == Status.RUNNING.value \
        and nxt.may_act == [x]


def _fu_rules(c: Conflict, x: str) -> tuple[object, ...]:
    """What Fabula Ultima holds of everyone but ``x``: pools, statuses, turns, the round."""
    state = c.state.innermost
    ext: FabulaExt = state.ext
    pools = sorted((k, p, v.current) for k, pools in (("hp", ext.hp), ("mp", ext.mp),
                                                      ("ip", ext.ip))
                   for p, v in pools.items() if p != x)
    statuses = sorted((p, tuple(s)) for p, s in ext.statuses.items() if p != x)
    order = ext.order
    turns = None if order is None else sorted(
        (p, order.turns_left(p)) for p in order.side_of if p != x)
    active = sorted(p for p in state.active_ids() if p != x)
    return pools, statuses, turns, active, state.round, state.status


def _vers_due(twin: Conflict, x: str) -> bool:
    """Whether the GM plays the concealed ``x`` now: it is acting, or everyone else has gone
    this turn and it has not (VR-TURN-2, VR-TURN-3)."""
    state = twin.state.innermost
    turns = state.ext.turns
    if state.status != Status.RUNNING.value or not turns.round_opened:
        return False
    if turns.current == x:
        return True
    left = [m for m in turns.not_gone() if state.participants[m].active]
    return turns.current is None and left == [x]


def _vers_rules(c: Conflict, x: str) -> tuple[object, ...]:
    """What VERS holds of everyone but ``x``: zones, engagements, conditions, objects (one
    the concealed one strikes is seen to take the blow), the turn."""
    state = c.state.innermost
    ext: VersExt = state.ext
    places = sorted((p, z) for p, z in ext.zones.positions.items() if p != x)
    engaged = sorted(k for k in ext.engaged if x not in k.split("|"))
    harm = sorted((p, t, tuple(ladder.marks)) for p, tracks in ext.harm.items() if p != x
                  for t, ladder in tracks.items())
    objects = sorted((o, tuple(v.ladder.marks), v.broken) for o, v in ext.objects.items())
    turns = ext.turns
    gone = [p for p in turns.gone if p != x]
    active = sorted(p for p in state.active_ids() if p != x)
    return places, engaged, harm, objects, gone, turns.current if turns.current != x else None, \
        active, state.round, state.status


def _vers_gm_hands_off(twin: Conflict, x: str) -> list[str | dict[str, Any]]:
    """The GM's hand-off to the concealed ``x`` once a player's character, all of whose
    not-gone were hidden from its player, ended its go (VR-TURN-2)."""
    return [] if twin.state.innermost.ext.turns.current is not None else [f"handoff {x}"]


def _vers_stead(plain: Conflict, twin: Conflict, x: str, command: dict[str, Any]
                ) -> dict[str, Any]:
    """The twin's command for ``command`` the other world plays: the bare hand-off of a
    character the GM plays that ends the turn there hands off to the concealed one, who has
    not gone yet (VR-TURN-3)."""
    state = twin.state.innermost
    turns = state.ext.turns
    if command.get("verb") == "handoff" and command.get("actor") is not None \
            and not command.get("args", {}).get("to") \
            and state.participants[command["actor"]].owner is None \
            and x in turns.not_gone() and state.participants[x].active:
        return {**command, "args": {**command.get("args", {}), "to": x}}
    return command


@dataclasses.dataclass(frozen=True)
class Part:
    """How one ruleset's twin worlds are played."""

    #: whether the GM plays the concealed one now (in the world where it is)
    due: Callable[[Conflict, str], bool]
    #: what the rules hold of everyone but the concealed one
    rules: Callable[[Conflict, str], tuple[object, ...]]
    #: what the concealed one's moves may not name besides the others: what the players see
    #: of the battlefield (a blow on a seen object is seen to land)
    seen_things: Callable[[Conflict], frozenset[str]] = lambda c: frozenset()
    #: the GM's own commands that play the concealed one now (a hand-off to it)
    gm_moves: Callable[[Conflict, str], list[str | dict[str, Any]]] = lambda c, x: []
    #: the command the world with the concealed one plays for one the other world plays
    stead: Callable[[Conflict, Conflict, str, dict[str, Any]], dict[str, Any]] = \
        lambda plain, twin, x, command: command


PARTS = {"fabula-ultima": Part(_fu_due, _fu_rules),
         "vers": Part(_vers_due, _vers_rules, lambda c: frozenset(c.state.innermost.ext.objects),
                      _vers_gm_hands_off, _vers_stead)}
SCENARIOS = sorted(n for n in bundled_scenarios()
                   if load_scenario(n).setup.ruleset in PARTS)


# --------------------------------------------------------------------------- the worlds


def _playable(lc: LegalCommand) -> bool:
    """Every value still to choose is one of a list the rules give, or free text."""
    return lc.verb not in NOT_PLAYED and all(
        p.is_fixed or not p.required or p.kind == "text"
        or (p.allowed is not None and not p.placeholder) for p in lc.params)


def _fill(lc: LegalCommand, data: st.DataObject, avoid: frozenset[str] = frozenset()
          ) -> dict[str, Any] | None:
    """``lc`` with a value drawn for each required one (free text for a text), none of
    ``avoid``; None when one has no such value."""
    values: dict[str, Any] = {}
    for p in lc.params:
        if p.is_fixed:
            if set(p.fixed if isinstance(p.fixed, list | tuple) else [p.fixed]) & avoid:
                return None
            continue
        if p.allowed and p.required:
            allowed = [v for v in p.allowed if not (isinstance(v, str) and v in avoid)]
            if not allowed:
                return None
            values[p.name] = data.draw(st.sampled_from(allowed))
        elif p.required and p.kind == "text":
            values[p.name] = TEXT
    return lc.command(**values)


def _own_moves(c: Conflict, x: str) -> list[LegalCommand]:
    """What the GM may play for ``x`` now (to fill in naming no one else)."""
    return [lc for lc in c.legal(x) if _playable(lc)]


def _table(c: Conflict) -> list[tuple[LegalCommand, Viewer]]:
    """What the table may play now, each with who gives it: the GM's own moves and those of
    the characters they play; each player's character's as its player is offered them."""
    out = [(lc, Viewer.gm()) for lc in c.legal(None) if _playable(lc)]
    for p in c.state.innermost.participants.values():
        if p.owner is None:
            out += [(lc, Viewer.gm()) for lc in c.legal(p.id) if _playable(lc)]
        else:
            me = Viewer.of_player(p.owner)
            out += [(lc, me) for lc in offered(c, me, p.id) if _playable(lc)]
    return out


def _first_difference(a: object, b: object, path: str = "") -> str:
    """Where two JSON-native values first differ, and how (for a failure's message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (u, v) in enumerate(zip(a, b, strict=True)):
            if u != v:
                return _first_difference(u, v, f"{path}[{i}]")
    return f"{path}: {a!r} without it, {b!r} with it concealed"


def _seen(a: Projector, b: Projector, conflicts: tuple[Conflict, Conflict]) -> None:
    """Assert both worlds' new entries read the same to one viewer, and their views and the
    commands offered to them (for each of their characters) are the same."""
    a.advance()
    b.advance()
    lines = ([line for e in p.entries[1:] for line in e.lines] for p in (a, b))
    assert next(lines) == next(lines), a.viewer
    views = [{k: v for k, v in p.view().items() if k != "cursor"} for p in (a, b)]
    assert views[0] == views[1], (a.viewer, _first_difference(*views))
    if a.viewer.player is not None:
        mine = sorted(p.id for p in conflicts[0].state.innermost.participants.values()
                      if p.owner == a.viewer.player)
        offers = ([[lc.text() for lc in offered(c, a.viewer, pid)] for pid in mine]
                  for c in conflicts)
        assert next(offers) == next(offers), a.viewer


@pytest.mark.rule("FU-CON-6", "FU-CON-7", "FU-CON-10", "VR-TURN-2", "VR-TURN-3")
@pytest.mark.parametrize("how", ["conceal {x}", twins.HIDDEN])
@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_character_concealed_from_the_start_leaves_no_trace(
    name: str, which: int, how: str, data: st.DataObject
) -> None:
    """Concealed by the GM once the conflict is set up, or set up ``hidden = true``; the
    latter leaves even the set-up's log entry and view as they are without it."""
    pair = twins.start(name, which, how)
    if pair is None:
        return
    x, plain, twin, follows, found = pair.x, pair.plain, pair.twin, pair.follows, pair.found
    if how == twins.HIDDEN:
        for viewer in pair.viewers:
            assert log_view(plain, viewer) == log_view(twin, viewer), viewer
            assert view(plain, viewer) == view(twin, viewer), viewer
    part = PARTS[plain.ruleset.name]
    others = frozenset(twin.state.innermost.participants) - {x} | part.seen_things(twin)

    for _ in range(data.draw(st.integers(5, 40))):
        if part.due(twin, x):  # the GM plays the concealed one, naming no one else
            own: list[str | dict[str, Any]] = [
                c for lc in _own_moves(twin, x) if (c := _fill(lc, data, others))
                and not others & set(map(str, c.get("args", {}).values()))]
            own += part.gm_moves(twin, x)
            if not own:
                return
            record = twin.execute(data.draw(st.sampled_from(own)), time="")
            plain.execute(twins.ALIGN, time="")
            note(f"concealed: {record.command}")
            if found():
                return
            continue
        table = _table(plain)
        if not table:
            return
        lc, author = data.draw(st.sampled_from(table))
        command = _fill(lc, data)
        assert command is not None
        try:
            plain.execute(command, author, time="")
        except FracasError:
            continue
        try:
            record = twin.execute(part.stead(plain, twin, x, command), author, time="")
        except FracasError as refusal:
            # a player is refused nothing for a character they may not know of
            assert author.is_gm, (command, str(refusal))
            return  # the concealed one changed the course of play (the GM's to know)
        note(f"{author.player or 'gm'}: {plain.record(plain.version).command}"
             f" / {record.command}")
        if found():
            return
        if part.due(twin, x):
            continue  # read once the GM has played the concealed one
        if part.rules(plain, x) != part.rules(twin, x):
            return  # the course of play changed
        for a, b in follows:
            _seen(a, b, (plain, twin))
