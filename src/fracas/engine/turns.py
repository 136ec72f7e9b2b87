"""Whose turn it is, answered the same way for every ruleset (one turn-order protocol)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fracas.engine.model import ConflictState
from fracas.engine.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class TurnView:
    """Who is acting, who may act now, who has not acted yet, and whether the round is over
    (only participants the viewer may know are listed)."""

    acting: tuple[str, ...] = ()
    may_act: tuple[str, ...] = ()
    to_act: tuple[str, ...] = ()
    round_over: bool = False

    def to_data(self) -> dict[str, object]:
        """The JSON form (part of every view)."""
        return {"acting": list(self.acting), "may_act": list(self.may_act),
                "to_act": list(self.to_act), "round_over": self.round_over}


def turn_view(ruleset: Ruleset, state: ConflictState,
              known: Callable[[str], bool] = lambda pid: True) -> TurnView:
    """The turn order of ``state`` through the :class:`TurnOrder` protocol, listing only the
    participants ``known`` says the viewer may know (none while there is no turn order)."""
    order = ruleset.turn_order(state)
    if order is None:
        return TurnView()

    def shown(ids: list[str]) -> tuple[str, ...]:
        return tuple(pid for pid in ids if known(pid))

    return TurnView(shown(order.acting()), shown(order.may_act()), shown(order.to_act()),
                    order.round_over)
