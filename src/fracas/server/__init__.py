"""``fracas serve``: the HTTP and WebSocket adapter over :mod:`fracas.app` (docs/server.md)."""
