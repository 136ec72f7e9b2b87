"""The browser table's static assets (HTML, CSS and plain JavaScript modules, no build step).

``fracas serve`` serves them (see :mod:`fracas.server.pages`); they use only the server's
public API and WebSocket, so a page never holds more than its viewer's projection.
"""

from __future__ import annotations

from pathlib import Path

#: The folder that holds the assets (``index.html``, ``table.html``, ``css/``, ``js/``).
ASSETS = Path(__file__).resolve().parent
