"""The cookies a browser keeps its links in: one per table, so that a link never takes
another table's place.

A GM running two tables from one phone, or a player invited to both, holds both links at
once: the link of table ``T`` is kept in the cookie ``fracas_token_T``, and a request about
that table (its path begins ``/api/tables/T``) presents that cookie. The plain
``fracas_token`` cookie keeps the server's admin secret, and serves as the token of any
request that finds no cookie of its table (a link kept before links had a cookie per table,
or an API client that sets it by hand).
"""

import re
from collections.abc import Mapping

#: The cookie of the admin secret, and of any request that finds no cookie of its table.
COOKIE = "fracas_token"
#: The name of a table's own cookie is this followed by the table's id.
PREFIX = COOKIE + "_"
_TABLE_PATH = re.compile(r"/api/tables/([a-z0-9_-]+)(?:/|$)")


def table_cookie(table: str) -> str:
    """The name of the cookie that keeps the link of ``table`` (a table id is lower-case
    letters, digits, ``-`` and ``_``: a cookie name as it is)."""
    return PREFIX + table


def table_in_path(path: str) -> str | None:
    """The table a request's path is about (``/api/tables/T…``), if any."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None


def presented(cookies: Mapping[str, str], table: str | None) -> str | None:
    """The token a browser's cookies present for a request about ``table``: that table's own
    cookie, else the plain one (None: neither)."""
    own = cookies.get(table_cookie(table)) if table else None
    return own or cookies.get(COOKIE) or None


def kept_links(cookies: Mapping[str, str]) -> dict[str, str]:
    """Table id → the token of each table's own cookie a browser holds."""
    return {name.removeprefix(PREFIX): value for name, value in cookies.items()
            if name.startswith(PREFIX) and value}
