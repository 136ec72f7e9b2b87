"""Policies written the way a user plugs one in (``module:function``), for the sim tests."""

from __future__ import annotations

from typing import Any

from fracas.sim.policies import Option, Turn

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


def broken(turn: Turn) -> Option:
    """A policy with a bug."""
    raise ZeroDivisionError("oops")
