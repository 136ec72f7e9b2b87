"""The browser table's pages and assets, and the QR codes of invitation links.

Kept apart from the API routes (:mod:`fracas.server.app`): ``/`` (start a table),
``/table/{table}`` and ``/table/{table}/{conflict}`` (the GM's or a player's screen, by the
token in the table's cookie), ``/static/…`` (the assets of :mod:`fracas.web`) and ``POST
/api/qr`` (``POST /api/tables/{table}/qr`` for a page of that table).
Every page is sent with a Content-Security-Policy that allows only this server's own scripts.
"""


import io
from collections.abc import Awaitable, Callable
from typing import Annotated

import segno
from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field, field_validator
from segno.encoder import DataOverflowError
from starlette.staticfiles import StaticFiles

from fracas.app.tables import Access
from fracas.errors import InvalidInput, NotAllowed, NotFound
from fracas.server.models import one_line
from fracas.web import ASSETS

#: No inline script, no other origin: a name that holds markup cannot run. (The server's
#: middleware adds nosniff, no-store and no-referrer to every answer.)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' blob:; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
}
#: Where the assets of :mod:`fracas.web` are served: public files, kept out of a link's
#: request limit (:class:`fracas.server.limits.RequestLimit`).
STATIC = "/static/"


class QrIn(BaseModel):
    """A text to draw as a QR code (an invitation link)."""

    text: str = Field(min_length=1, max_length=1000)

    _one_printable_line = field_validator("text")(one_line("the text of a QR code"))


def _page(name: str) -> FileResponse:
    return FileResponse(ASSETS / name, media_type="text/html", headers=SECURITY_HEADERS)


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG (dark modules on white, a quiet zone of 4)."""
    out = io.BytesIO()
    try:
        code = segno.make(text, error="m")
    except DataOverflowError:  # 1,000 emoji are 4,000 bytes: more than a QR code holds
        raise InvalidInput(f"the text is {len(text.encode('utf-8')):,} bytes; a QR code holds "
                           "about 2,300 (a link is far shorter)") from None
    code.save(out, kind="svg", scale=4, border=4, dark="#000",
                                     light="#fff", xmldecl=False, svgns=True,
                                     title="QR code of the link")
    return out.getvalue()


def mount_pages(app: FastAPI, authenticate: Callable[[Request], Awaitable[Access]]) -> None:
    """Add the pages, the static assets and the QR codes' routes to ``app`` (``authenticate``:
    the API's dependency that answers a request's token's access)."""
    app.mount(STATIC.rstrip("/"), StaticFiles(directory=ASSETS), name="static")

    @app.get("/", include_in_schema=False)
    async def start() -> FileResponse:
        """The start page: create a table (or open one's link)."""
        return _page("index.html")

    @app.get("/table/{table}", include_in_schema=False)
    @app.get("/table/{table}/{conflict}", include_in_schema=False)
    async def table_page(table: str, conflict: str | None = None) -> FileResponse:
        """The table's screen; what it shows depends on the token in the cookie."""
        return _page("table.html")

    @app.post("/api/qr", tags=["links"], response_class=Response,
              responses={200: {"content": {"image/svg+xml": {}}}})
    @app.post("/api/tables/{table}/qr", tags=["links"], response_class=Response,
              responses={200: {"content": {"image/svg+xml": {}}}})
    async def qr(_r: Request, body: QrIn, access: Annotated[Access, Depends(authenticate)],
                 table: str | None = None) -> Response:
        """(GM) A QR code (SVG) of a text, for a player's phone to scan an invitation link
        (under a table's path, the browser's link of that table is the one asking)."""
        if table is not None and table != access.table:
            raise NotFound(f"no table {table!r}", table=table)
        if not access.is_gm:
            raise NotAllowed("only the GM draws invitation QR codes")
        return Response(qr_svg(body.text), media_type="image/svg+xml")
