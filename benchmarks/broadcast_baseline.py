"""The baseline of bench_server.py: a bare Starlette WebSocket broadcast with no engine.

``POST /rooms/{room}`` with ``{"text": …}`` sends ``{"entries": [{"events": [{"data":
{"text": …}}]}]}`` to every socket of ``/rooms/{room}/live``: the same fan-out as fracas
serve, without decide, store or projection.
"""

from __future__ import annotations

import json

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

rooms: dict[str, set[WebSocket]] = {}


async def say(request: Request) -> JSONResponse:
    """Broadcast one message to a room."""
    body = await request.json()
    text = json.dumps({"type": "update", "entries": [{"events": [{"data": {
        "text": body["text"]}}]}]})
    for ws in list(rooms.get(request.path_params["room"], ())):
        try:
            await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            rooms[request.path_params["room"]].discard(ws)
    return JSONResponse({"ok": True})


async def live(ws: WebSocket) -> None:
    """Join a room until the client leaves."""
    await ws.accept()
    room = rooms.setdefault(ws.path_params["room"], set())
    room.add(ws)
    await ws.send_text(json.dumps({"type": "snapshot", "entries": []}))
    try:
        while True:
            await ws.receive_text()
    except WebSocketDisconnect:
        room.discard(ws)


app = Starlette(routes=[Route("/rooms/{room}", say, methods=["POST"]),
                        WebSocketRoute("/rooms/{room}/live", live)])
