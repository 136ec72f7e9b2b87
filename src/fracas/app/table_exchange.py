"""The file of whole tables ``fracas.tables/1``: a table (or every campaign) in one document.

It holds each campaign's name, its title when it is a table of ``fracas serve``, when it was
made, and each of its conflicts as a whole ``fracas.export/1`` document (seed, log, when it
was made and last played) with whether it is shown. The whole file is checksummed and
signed as an export is (the key never leaves the database); the tables' links are not in it.
Import checks the file and every conflict in it (each as ``fracas import`` checks one: its
checksum, signature and a replay of its log), then writes everything in one transaction:
tables made anew, each with a new GM link, or nothing at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fracas import __version__
from fracas.app.exchange import (
    TRUST_HINT_CLI,
    check_sealed,
    checked_conflict,
    checksum,
    dumps,
    export_conflict,
    json_document,
    new_conflict,
    signature,
    stored_time,
)
from fracas.app.service import ConflictService
from fracas.app.tables import Issued, clean_title, digest, new_table_id, new_token
from fracas.engine.limits import MAX_EXPORT_BYTES, check_nesting
from fracas.errors import InvalidInput
from fracas.store.port import CampaignInfo, NewCampaign

TABLES_FORMAT = "fracas.tables/1"
#: How much deeper a conflict's export sits in a file of tables than in a file of its own
#: (the limit on nesting applies to each export in it as to a file of its own).
DEPTH = 5


@dataclass(frozen=True, slots=True)
class Restored:
    """A campaign an import of tables stored: its id, title (None: not a table), the ids
    of its conflicts, and the GM's new link of a table."""

    name: str
    title: str | None
    conflicts: list[str]
    gm: Issued | None
    #: how many records of its conflicts are kept as an older fracas played them
    as_played: int = 0


def export_tables(service: ConflictService, campaigns: Sequence[CampaignInfo]
                  ) -> dict[str, Any]:
    """The ``fracas.tables/1`` document of ``campaigns`` and all their conflicts (it holds
    their secret seeds); refused when it would be past the limit on export files."""
    listed = []
    for campaign in campaigns:
        infos = sorted(service.store.list(campaign.name), key=lambda i: (i.created, i.id))
        listed.append({
            "id": campaign.name, "title": campaign.title, "created": campaign.created,
            "conflicts": [{"shown": i.shown, "export": export_conflict(service, i.id)}
                          for i in infos],
        })
    doc: dict[str, Any] = {"format": TABLES_FORMAT, "fracas": __version__,
                           "campaigns": listed}
    doc["signature"] = signature(doc, service.store.export_key())
    doc["checksum"] = checksum(doc)
    size = len(dumps(doc))
    if size > MAX_EXPORT_BYTES:
        raise InvalidInput(f"the file would be {size:,} characters long, past the limit of "
                           f"{MAX_EXPORT_BYTES:,} on export files; export the conflicts one by "
                           "one (fracas export ID)", limit=MAX_EXPORT_BYTES)
    return doc


def is_tables_file(text: str) -> bool:
    """Whether an import's text says it is a file of tables (the rest is checked later)."""
    head = text[:200]
    return '"format"' in head and f'"{TABLES_FORMAT}"' in head


def _checked(text: str, name: str, key: bytes, trust: bool) -> list[dict[str, Any]]:
    """The campaigns of a file of tables whose own checksum and signature are right."""
    if len(text) > MAX_EXPORT_BYTES:
        raise InvalidInput(f"{name}: the file is {len(text):,} characters long; exports take "
                           f"at most {MAX_EXPORT_BYTES:,} (the limit on export files)")
    check_nesting(text, name, deeper=DEPTH)
    doc = json_document(text, name)
    if not isinstance(doc, dict) or doc.get("format") != TABLES_FORMAT:
        raise InvalidInput(f"{name}: not a file of tables (format {TABLES_FORMAT!r})")
    check_sealed(doc, name, key, trust=trust, trust_hint=TRUST_HINT_CLI,
                 anyway="every conflict is checked all the same")
    campaigns = doc.get("campaigns")
    if not isinstance(campaigns, list) or not campaigns or not all(
            isinstance(c, dict) and isinstance(c.get("conflicts"), list) for c in campaigns):
        raise InvalidInput(f"{name}: the file has no tables, or a table without its list of "
                           "conflicts; nothing was imported")
    return campaigns


def _campaign(raw: dict[str, Any], name: str, new_id: bool) -> tuple[str, str | None,
                                                                      str | None]:
    """A campaign's id (fresh for a table with ``new_id``), title and time it was made."""
    where = f"{name}: campaign {raw.get('id')!r}"
    title = raw.get("title")
    if title is not None:
        try:
            title = clean_title(title)
        except InvalidInput as exc:
            raise InvalidInput(f"{where}: {exc.message}; nothing was imported") from None
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid.strip():
        raise InvalidInput(f"{where}: its id is missing or not text; nothing was imported")
    if title is not None and new_id:
        cid = new_table_id()
    made = None if raw.get("created") is None else stored_time(raw["created"], where,
                                                               "created")
    return cid, title, made


def import_tables(service: ConflictService, text: str, name: str = "<export>", *,
                  new_id: bool = False, trust: bool = False, shown: bool = True,
                  as_played: bool = False) -> list[Restored]:
    """Check a file of tables entirely, then store it all in one transaction: each table
    made anew under its id (a fresh one with ``new_id``, its conflicts too) with a new GM
    link, each conflict as made and last played; ``shown`` False puts every conflict
    behind the GM's screen (else each is as it was); ``as_played``: as for
    :func:`~fracas.app.exchange.checked_conflict`."""
    key = service.store.export_key()
    campaigns, made, links, kept = [], [], [], []
    seen: set[object] = set()
    for raw in _checked(text, name, key, trust):
        _once(raw.get("id"), seen, name)
        cid, title, created = _campaign(raw, name, new_id)
        conflicts, older = [], 0
        for n, entry in enumerate(raw["conflicts"], 1):
            where = f"{name}: {raw['id']}, conflict {n}"
            if not isinstance(entry, dict) or not isinstance(entry.get("export"), dict) \
                    or not isinstance(entry.get("shown"), bool):
                raise InvalidInput(f"{where}: not an exported conflict with whether it is "
                                   "shown; nothing was imported")
            meta, conflict, played = checked_conflict(service, dumps(entry["export"]), where,
                                                      trust=trust, as_played=as_played)
            older += len(played)
            _once(meta["id"], seen, name)
            conflicts.append(new_conflict(meta, conflict, where, new_id=new_id,
                                          shown=shown and entry["shown"], keep_times=True))
        gm = None if title is None else new_token(cid, "gm", None, "GM")
        campaigns.append(NewCampaign(cid, title, created, conflicts,
                                     () if gm is None else ((gm.info, digest(gm.secret)),)))
        made.append(title)
        links.append(gm)
        kept.append(older)
    ids = service.store.restore(campaigns)
    return [Restored(c.name, title, conflict_ids, gm, n)
            for c, title, conflict_ids, gm, n in zip(campaigns, made, ids, links, kept,
                                                      strict=True)]


def _once(given: object, seen: set[object], name: str) -> None:
    """Refuse a file that gives one table or one conflict twice."""
    if given in seen:
        raise InvalidInput(f"{name}: {given!r} is in the file twice; nothing was imported")
    seen.add(given)
