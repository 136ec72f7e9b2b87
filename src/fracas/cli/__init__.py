"""The ``fracas`` command line: thin adapters over :mod:`fracas.app` and the engine's views."""

from fracas.cli.main import RUN_FORMAT, app, main

__all__ = ["RUN_FORMAT", "app", "main"]
