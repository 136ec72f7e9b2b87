"""Tables of ``fracas serve``: a GM's campaign with the links that open it.

A table is created with a GM secret; the GM issues a link per player (bound to the name in
the ``player`` field of that player's characters), public read-only links and GM links for
their other devices, and can revoke any of them but the one they are using. A secret is 256
random bits; the store keeps only its SHA-256 digest, so a copy of the database opens nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from fracas.engine.limits import check_conflict_id, hidden_character
from fracas.engine.model import Viewer
from fracas.engine.setup import player_name_problem
from fracas.errors import InvalidInput, NotAllowed, NotAuthenticated, NotFound
from fracas.store.port import TableStore, TokenInfo

ROLES = ("gm", "player", "public")
TITLE_LIMIT = 200


def digest(secret: str) -> str:
    """The stored form of a token secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Access:
    """What a presented token grants: a table and a viewer there."""

    table: str
    token_id: str
    role: str
    player: str | None

    @property
    def viewer(self) -> Viewer:
        """The engine's viewer for this access."""
        if self.role == "gm":
            return Viewer.gm()
        if self.role == "player" and self.player:
            return Viewer.of_player(self.player)
        return Viewer.public()

    @property
    def is_gm(self) -> bool:
        """True for the table's GM."""
        return self.role == "gm"


@dataclass(frozen=True, slots=True)
class Issued:
    """A new token: what it grants, and its secret (shown once, never stored)."""

    info: TokenInfo
    secret: str


class TableService:
    """Create tables, issue and revoke their links, and check presented tokens."""

    def __init__(self, store: TableStore) -> None:
        """Use ``store`` for tables and token digests."""
        self.store = store

    def create_table(self, title: str, campaign: str | None = None) -> tuple[str, Issued]:
        """A new table and its GM token; ``campaign``: the campaign of that name, whose
        conflicts were stored before any table had its id, becomes the table."""
        title = clean_title(title)
        if campaign is None:
            table_id = new_table_id()
            self.store.create_table(table_id, title)
        else:
            table_id = _table_id(campaign)
            self.store.create_table(table_id, title, existing=True)
        return table_id, self._issue(table_id, "gm", None, "GM")

    def invite(self, access: Access, role: str, player: str | None = None,
               label: str = "") -> Issued:
        """A new link of the GM's table (GM only): for a player (bound to ``player``), the
        public (read-only) or the GM (another device of theirs)."""
        self._gm_only(access, "invite")
        if role not in ROLES:
            raise InvalidInput(f"a link is for the 'gm', a 'player' or the 'public', not "
                               f"{role!r}", role=role)
        if role == "player":
            if not isinstance(player, str):
                raise InvalidInput("a player link needs the player's name as their "
                                   "characters' `player` field has it", player=player)
            problem = player_name_problem(player)  # the same check as the set-up's
            if problem is not None:
                raise InvalidInput(problem, player=player)
        else:
            player = None
        label = clean_title(label or (player or ("GM" if role == "gm" else "public")), "label")
        return self._issue(access.table, role, player, label)

    def _issue(self, table_id: str, role: str, player: str | None, label: str) -> Issued:
        issued = new_token(table_id, role, player, label)
        self.store.add_token(issued.info, digest(issued.secret))
        return issued

    def authenticate(self, secret: str | None) -> Access:
        """The access a secret grants; NotAllowed for a missing, unknown or revoked one."""
        if not secret or len(secret) > 200:
            raise NotAuthenticated("this needs a valid link or token (Authorization: Bearer …)")
        token = self.store.find_token(digest(secret))
        if token is None or token.revoked is not None:
            raise NotAuthenticated("this link is unknown or was revoked; ask the GM for a new one")
        return Access(token.table, token.id, token.role, token.player)

    def new_admin_secret(self, *, renew: bool = False) -> str | None:
        """Make the server's admin secret (which lets its holder create tables) if there is
        none yet, or anew if ``renew``: the secret, shown once; None if one is kept."""
        if self.store.admin_digest() is not None and not renew:
            return None
        secret = secrets.token_urlsafe(32)  # 256 bits
        self.store.set_admin_digest(digest(secret))
        return secret

    def is_admin(self, secret: str | None) -> bool:
        """Whether ``secret`` is the server's admin secret."""
        if not secret or len(secret) > 200:
            return False
        stored = self.store.admin_digest()
        return stored is not None and hmac.compare_digest(stored, digest(secret))

    def as_owner(self, table_id: str) -> Access:
        """The GM's access for whoever holds the database itself (the ``fracas table``
        commands): NotFound if there is no such table (saying how to make one of a campaign
        of that name, if there is one)."""
        try:
            self.store.table_title(table_id)
        except NotFound as exc:
            if any(c.name == table_id for c in self.store.campaigns()):
                raise NotFound(
                    f"no table {table_id!r}: conflicts are kept under that name, but as a "
                    "campaign, not a table (stored with --campaign where no table had that "
                    f"id); `fracas table new TITLE --campaign {table_id}` makes it a table",
                    table=table_id) from None
            raise exc
        return Access(table_id, "", "gm", None)

    def title(self, access: Access) -> str:
        """The title of the table ``access`` opens."""
        return self.store.table_title(access.table)

    def links(self, access: Access) -> list[TokenInfo]:
        """Every link of the GM's table (without secrets)."""
        self._gm_only(access, "list the links")
        return self.store.list_tokens(access.table)

    def revoke(self, access: Access, token_id: str) -> TokenInfo:
        """Revoke a link of the GM's table, effective at once."""
        self._gm_only(access, "revoke links")
        if token_id == access.token_id:
            raise InvalidInput("this is the link you are using, and a link cannot revoke "
                               "itself: revoke it from another GM link, or with `fracas "
                               "table revoke` on the server's machine", link=token_id)
        # the asking link is checked again as the revoke is written: two GM links revoking
        # each other at once leave one of them, never none (the owner's access has no link)
        return self.store.revoke_token(access.table, token_id, by=access.token_id or None)

    def check_table(self, access: Access, table_id: str) -> None:
        """NotFound unless ``table_id`` is the table ``access`` opens (another table is
        indistinguishable from a missing one)."""
        if table_id != access.table:
            raise NotFound(f"no table {table_id!r}", table=table_id)

    @staticmethod
    def _gm_only(access: Access, what: str) -> None:
        if not access.is_gm:
            raise NotAllowed(f"only the GM may {what}")


def _table_id(campaign: str) -> str:
    """A campaign's name as a table's id (it goes in the table's links), or a refusal."""
    try:
        return check_conflict_id(campaign)
    except InvalidInput:
        raise InvalidInput(f"the campaign {campaign!r} cannot be a table: a table's id is "
                           "lower-case letters, digits, '-' and '_', at most 40",
                           campaign=campaign) from None


def new_table_id() -> str:
    """A fresh table id: ``t`` and 12 random hex digits."""
    return "t" + secrets.token_hex(6)


def new_token(table_id: str, role: str, player: str | None, label: str) -> Issued:
    """A new token of ``table_id`` and its secret (256 random bits), not yet stored."""
    secret = secrets.token_urlsafe(32)
    info = TokenInfo(id="k" + secrets.token_hex(6), table=table_id, role=role,
                     player=player, label=label, created=_now())
    return Issued(info, secret)


def clean_title(text: str, what: str = "title") -> str:
    """A table's title (or a link's label) stripped, or refused: 1 to 200 printable
    characters."""
    if not isinstance(text, str):
        raise InvalidInput(f"the {what} must be text")
    text = text.strip()
    if not text or len(text) > TITLE_LIMIT or hidden_character(text) is not None:
        raise InvalidInput(f"the {what} must be 1 to {TITLE_LIMIT} printable characters",
                           field=what)
    return text


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
