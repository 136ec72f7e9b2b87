"""The legal commands a viewer is offered (``GET …/legal`` and ``GET …/legal-commands``).

The engine's :meth:`~fracas.engine.conflict.Conflict.legal` values per actor: for the GM their
own commands (or one character's), for a player each of their own characters'. For a player
nothing names a participant hidden from them (:func:`fracas.engine.projector.offered`): such a
value is taken out of the allowed ones, and a command that fixes one (or has no allowed value
left) is not offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.engine.commands import CommandSpec
from fracas.engine.legal import LegalCommand
from fracas.engine.model import copy_json
from fracas.engine.projector import offered
from fracas.server import projection


def offers(live: projection.Live, actor: str | None) -> dict[str, list[LegalCommand]]:
    """Actor (``gm`` for the GM's own) → what the viewer is offered for them; for a player,
    each of their own characters they are shown (``actor``: only that one)."""
    conflict, viewer = live.conflict, live.viewer
    if actor is not None:
        projection.character(live, actor)  # NotFound alike for a hidden and a missing one
    if viewer.is_gm:
        return {actor or "gm": conflict.legal(actor)}
    inner = conflict.state.innermost.participants
    mine = [p for p in projection.known_ids(live)
            if p in inner and inner[p].owner == viewer.player and actor in (None, p)]
    return {a: offered(conflict, viewer, a) for a in mine}


def structured(live: projection.Live, actor: str | None) -> dict[str, list[dict[str, Any]]]:
    """:func:`offers` as JSON values (``…/legal-commands``), each with its command's
    ``summary`` (what it does, in a sentence the controls show beside it) and each parameter's
    ``help`` (what its value is, beside its field; "" where the spec says nothing) and
    ``default`` (what an optional one left out stands for, from the spec or the offer; of a
    required one, the value offered first; null: nothing said)."""
    conflict = live.conflict
    spec = conflict.commands.spec

    def helped(verb: str, name: str) -> str | None:  # the conflict's own words, if any
        return conflict.ruleset.param_help(conflict.state.innermost, verb, name)

    return {a: [_described(c, spec(c.verb), helped) for c in cs]
            for a, cs in offers(live, actor).items()}


def _described(command: LegalCommand, spec: CommandSpec,
               helped: Callable[[str, str], str | None]) -> dict[str, Any]:
    data = command.to_data()
    by_name = {p.name: p for p in spec.params}
    for choice, param in zip(command.params, data["params"], strict=True):
        p = by_name.get(param["name"])
        param["help"] = helped(command.verb, param["name"]) or (p.help if p else "")
        param["unset"] = p.unset if p else ""  # the same as `default`, in words
        # what an optional value left out stands for: the spec's, else the offer's (the
        # weapon an attack naming none takes); of a required one, the value the offer gives
        # first (the reason an end gives that the rules name first)
        param["default"] = copy_json(choice.default) if p is None or p.required else (
            p.default if p.default is not None else copy_json(choice.default))
    return {**data, "summary": command.summary or spec.summary}


def texts(live: projection.Live, actor: str | None) -> dict[str, list[str]]:
    """:func:`offers` as text templates (``…/legal``): concrete commands first, UPPER-CASE
    placeholders for the values the user picks."""
    return {a: [c.text() for c in cs] for a, cs in offers(live, actor).items()}


__all__ = ["offers", "structured", "texts"]
