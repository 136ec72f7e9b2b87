"""The Etherscope handler table: the engine's one decide pattern (decide by verb; evolve and
describe by event class, Etherscope's and the engine's own)."""

from __future__ import annotations

from fracas.engine.handlers import Handlers

#: Decide handlers by verb; evolve and describe handlers by event class.
HANDLERS = Handlers()
