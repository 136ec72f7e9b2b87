"""Policies written the way a user plugs one in (``module:function``), for the sim tests."""

from __future__ import annotations

import dataclasses
from typing import Any

from fracas.sim.policies import Offer, Option, Turn

SEEN: list[dict[str, Any]] = []  # the views the recording policy was shown (one process)


def only_pass(turn: Turn) -> Option:
    """Never act: end the go (a quarry that only runs when the hunter rolls)."""
    passes = [o for o in turn.options if o.verb in turn.profile.pass_verbs]
    return passes[0] if passes else turn.options[0]


def recording(turn: Turn) -> Option:
    """Remember what the side was shown, then play the first option."""
    SEEN.append({"side": turn.side, "view": turn.view,
                 "actors": sorted({o.actor or "" for o in turn.options})})
    return turn.options[0]


#: (side, what it was told) of every turn: each option's command, and the sides it was shown
OFFERED: list[tuple[str, dict[str, Any]]] = []


def offered_at_random(turn: Turn) -> Option:
    """Remember every option the side was offered and the sides it was told of, then play
    one of the options at random."""
    OFFERED.extend((turn.side, o.command()) for o in turn.options)
    OFFERED.append((turn.side, {"sides": dict(turn.side_of)}))
    return turn.pick(turn.options)


def broken(turn: Turn) -> Option:
    """A policy with a bug."""
    raise ZeroDivisionError("oops")


def surrender_at_once(turn: Turn) -> Option | Offer:
    """Give up on the side's first turn (where the rules allow it)."""
    return turn.offer("surrender") or turn.options[0]


def offer_compromise(turn: Turn) -> Option | Offer:
    """Offer a compromise whenever it may, then play the first option."""
    return turn.offer("compromise") or turn.options[0]


def accept_compromise(turn: Turn) -> Option | Offer:
    """Accept a compromise on the table, else play the first option."""
    return turn.offer("accept") or turn.options[0]


def concede_anyway(turn: Turn) -> Option | Offer:
    """Surrender even where the rules offer no concession (a user's mistake)."""
    return Offer("surrender")


_MISJUDGED: list[Turn] = []  # the last turn in which misjudging erred (held: no id reuse)


def misjudging(turn: Turn) -> Option:
    """Once a turn, try an attack at difficulty -1 (the engine refuses it, ES-ACT-4), then
    play the first option."""
    attacks = [o for o in turn.options if o.verb == "attack"]
    if attacks and not (_MISJUDGED and _MISJUDGED[0] is turn):
        _MISJUDGED[:] = [turn]
        return Option(attacks[0].legal, (*attacks[0].values, ("difficulty", -1)))
    return turn.options[0]


def insisting(turn: Turn) -> Option:
    """Always try an attack at difficulty -1 (refused every time, ES-ACT-4): a policy bug."""
    attacks = [o for o in turn.options if o.verb == "attack"]
    if attacks:
        return Option(attacks[0].legal, (*attacks[0].values, ("difficulty", -1)))
    return turn.options[0]


def not_a_choice(turn: Turn) -> Option:
    """Returns an Option that holds no legal command."""
    return Option("hello")  # type: ignore[arg-type]


def exits(turn: Turn) -> Option:
    """Ends the whole program, as a script would."""
    raise SystemExit(3)


def chatty(turn: Turn) -> Option:
    """Prints as it plays (a user's debugging), then plays the first option."""
    print("thinking about", turn.side)
    return turn.options[0]


def first(turn: Turn) -> Option:
    """Plays the first option (looking at the view, as ``vandal`` does)."""
    turn.view  # noqa: B018
    return turn.options[0]


def vandal(turn: Turn) -> Option:
    """Scribbles over every character's stats in its view, then plays as ``first``."""
    for level in [turn.view["conflict"], *turn.view["zoom"]]:
        for entry in level["participants"]:
            for value in entry.get("stats", {}).values():
                if isinstance(value, dict):
                    value.clear()
                    value["scribbled"] = 1
            entry.get("stats", {}).clear()
    return turn.options[0]


def picks_from_nothing(turn: Turn) -> Option:
    """A bug that fracas raises on: a pick among no options (the fault is this line's)."""
    return turn.pick([])


def names_a_parameter_it_lacks(turn: Turn) -> Option:
    """Returns the first option with a value for a parameter its command does not have."""
    return Option(turn.options[0].legal, (*turn.options[0].values, ("target", "zzz")))


def makes_up_a_verb(turn: Turn) -> Option:
    """Returns an option of a verb the rules do not know."""
    legal = turn.options[0].legal
    return Option(dataclasses.replace(legal, verb="fly"), turn.options[0].values)
