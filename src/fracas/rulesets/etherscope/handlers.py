"""The Etherscope handler tables: the engine's one decide pattern (decide by verb; evolve and
describe by event class) and Etherscope's part of the engine's own events (by tag)."""

from __future__ import annotations

from fracas.engine.handlers import Handlers
from fracas.rulesets.tables import EngineEvents

#: Decide handlers by verb; evolve and describe handlers by Etherscope event class.
HANDLERS = Handlers()
#: Etherscope's part of the engine's events (rounds, turns, joins, zooms).
ENGINE = EngineEvents()
