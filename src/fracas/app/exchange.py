"""The export file ``fracas.export/1``: a stored conflict as one JSON document.

See ``docs/store.md`` for the format. The checksum is the SHA-256 of the document's canonical
JSON (keys sorted, no spaces, UTF-8) without the ``checksum`` member; it catches damage. The
signature is an HMAC-SHA256 of the same JSON without ``checksum`` and ``signature``, keyed by
a secret the store keeps (and never exports); it catches edits. Import checks the format, the
checksum, the signature (unless the GM trusts the file on purpose) and every record — it
re-decides each command with the engine and compares the events — before it writes anything.
A record an older fracas decided otherwise (its rules have changed since) is kept as it was
played when the file is this database's own export, or when the GM says so (``as_played``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime
from typing import Any, NamedTuple

from fracas import __version__
from fracas.app.service import ConflictService
from fracas.engine.conflict import Conflict
from fracas.engine.events import Record
from fracas.engine.limits import (
    MAX_EXPORT_BYTES,
    MAX_KEY_CHARS,
    check_conflict_id,
    check_nesting,
    check_seed,
    hidden_character,
    no_key_twice,
    spelled,
)
from fracas.engine.model import Viewer
from fracas.engine.ruleset import Ruleset
from fracas.engine.setup import Setup
from fracas.errors import FracasError, InvalidInput
from fracas.rulesets import get_ruleset
from fracas.store.port import DEFAULT_CAMPAIGN, NewConflict

EXPORT_FORMAT = "fracas.export/1"


def canonical(data: Any) -> bytes:
    """The canonical JSON bytes the checksum is taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                      ).encode("utf-8")


def checksum(doc: dict[str, Any]) -> str:
    """``sha256:HEX`` of the document without its checksum member."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(canonical(body)).hexdigest()


def signature(doc: dict[str, Any], key: bytes) -> str:
    """``hmac-sha256:HEX`` of the document without its checksum and signature members."""
    body = {k: v for k, v in doc.items() if k not in ("checksum", "signature")}
    return "hmac-sha256:" + hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


def export_conflict(service: ConflictService, conflict_id: str) -> dict[str, Any]:
    """The export document of a stored conflict (it holds the secret seed)."""
    stored = service.store.load(conflict_id)
    info = stored.info
    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "fracas": __version__,
        "conflict": {
            "id": info.id, "campaign": info.campaign, "ruleset": info.ruleset,
            "title": info.title, "created": info.created, "updated": info.updated,
            "seed": stored.seed,
        },
        "records": [r.to_data() for r in stored.records],
    }
    doc["signature"] = signature(doc, service.store.export_key())
    doc["checksum"] = checksum(doc)
    return doc


def dumps(doc: dict[str, Any]) -> str:
    """The text of an export file."""
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


#: How to import a file this store did not sign, on purpose (said in the refusal).
TRUST_HINT_CLI = "import it with --trust"
#: What a refusal of a record adds: the way to keep what an older fracas played.
AS_PLAYED_ADVICE = (". If an older fracas played it, import it with --trust --as-played to keep "
                    "it as it was played")
#: The same through the server, which imports only its own exports.
TRUST_HINT_SERVER = ("import it on the server's machine with "
                     "`fracas import FILE --trust --campaign TABLE`")


def json_document(text: str, name: str) -> Any:
    """The JSON of an export file, or a refusal naming the file (each key given once)."""
    try:
        return json.loads(text, object_pairs_hook=no_key_twice)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: not a fracas export ({exc.message})") from None
    except (ValueError, RecursionError) as exc:
        raise InvalidInput(f"{name}: not a fracas export (not valid JSON: {exc})") from None


def parse_export(text: str, name: str = "<export>", *, key: bytes | None = None,
                 trust: bool = False, trust_hint: str = TRUST_HINT_CLI
                 ) -> tuple[dict[str, Any], list[Record], bool]:
    """Check an export file's text; return its conflict member, its records and whether
    ``key`` (the importing store's) signed it (or raise).

    The signature is checked with ``key`` unless ``trust``; a refusal of it ends with
    ``trust_hint``.
    """
    if len(text) > MAX_EXPORT_BYTES:
        raise InvalidInput(f"{name}: the file is {len(text):,} characters long; exports take "
                           f"at most {MAX_EXPORT_BYTES:,} (the limit on export files)")
    check_nesting(text, name)
    doc = json_document(text, name)
    if not isinstance(doc, dict):
        raise InvalidInput(f"{name}: not a fracas export (no JSON object)")
    fmt = doc.get("format")
    if fmt != EXPORT_FORMAT:
        if isinstance(fmt, str) and fmt.startswith("fracas.export/"):
            raise InvalidInput(f"{name}: unknown export format {fmt!r}; this fracas "
                               f"({__version__}) reads {EXPORT_FORMAT!r} — upgrade fracas",
                               format=fmt)
        raise InvalidInput(f"{name}: not a fracas export (format {fmt!r}, expected "
                           f"{EXPORT_FORMAT!r})", format=fmt)
    check_sealed(doc, name, key, trust=trust, trust_hint=trust_hint,
                 anyway="every record is replayed all the same")
    meta = doc.get("conflict")
    raw = doc.get("records")
    if not isinstance(meta, dict) or not isinstance(raw, list) or not raw:
        raise InvalidInput(f"{name}: the export has no conflict or no records")
    for k in ("id", "ruleset", "seed"):
        if not isinstance(meta.get(k), str) or not meta[k]:
            raise InvalidInput(f"{name}: conflict.{k} is missing or not text")
    for k in ("title", "campaign"):
        if not isinstance(meta.get(k, ""), str | None):
            raise InvalidInput(f"{name}: conflict.{k} is not text")
    try:
        check_conflict_id(meta["id"])
        check_seed(meta["seed"])
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: conflict: {exc}; nothing was imported") from None
    try:
        records = [Record.from_data(r) for r in raw]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidInput(f"{name}: a record is malformed: {exc!r}") from None
    return meta, records, signed_by(doc, key)


def check_sealed(doc: dict[str, Any], name: str, key: bytes | None, *, trust: bool,
                 trust_hint: str, anyway: str) -> None:
    """Refuse a file whose checksum does not match (damaged, or edited by hand), or, unless
    ``trust``, that this store's ``key`` did not sign; ``anyway``: what is checked even so."""
    try:
        summed = checksum(doc)
    except UnicodeEncodeError:  # "\ud800": JSON allows it, UTF-8 (and a database) does not
        raise InvalidInput(f"{name}: the file holds text that is not valid Unicode (a lone "
                           "surrogate escape such as \\ud800); nothing was imported") from None
    if doc.get("checksum") != summed:
        raise InvalidInput(f"{name}: the checksum does not match: the file was damaged or "
                           "edited by hand; nothing was imported. If you edited it on purpose, "
                           f'set its "checksum" to "{summed}" and {trust_hint} ({anyway})')
    if not trust:
        check_signature(doc, key, name, trust_hint)


def check_signature(doc: dict[str, Any], key: bytes | None, name: str, hint: str) -> None:
    """Refuse a document that this store's ``key`` did not sign (or not signed at all)."""
    if doc.get("signature") is None:
        raise InvalidInput(
            f"{name}: the export is not signed (it was made by an older fracas, before "
            "exports were signed), so nothing shows it was not edited; nothing was imported. "
            f"If you know where the file came from, {hint}")
    if not signed_by(doc, key):
        raise InvalidInput(
            f"{name}: the signature does not match this database's key: the file was edited "
            "after it was exported, or it was exported from another database; nothing was "
            f"imported. Only if you know the file is what was exported, {hint}")


def signed_by(doc: dict[str, Any], key: bytes | None) -> bool:
    """Whether ``key`` (a store's) signed the document."""
    given = doc.get("signature")
    return key is not None and isinstance(given, str) and hmac.compare_digest(
        given, signature(doc, key))


def _wrong_key(key: object) -> str | None:
    """What is wrong with an imported record's idempotency key (None: nothing)."""
    if not isinstance(key, str):
        return f"must be text, not {spelled(key)}"
    if not key:
        return f"is empty; a key is 1 to {MAX_KEY_CHARS} characters"
    if len(key) > MAX_KEY_CHARS:
        return f"is too long ({len(key)} characters; at most {MAX_KEY_CHARS})"
    if hidden_character(key) is not None:
        return "holds a control or text-direction character"
    return None


def replay_check(meta: dict[str, Any], records: list[Record], name: str, *,
                 as_played: bool = False) -> tuple[Conflict, list[Record]]:
    """Re-decide every record with the engine and compare; the rebuilt conflict and the
    records kept as they were played (or raise).

    A record the engine now decides otherwise (or refuses) is refused, unless ``as_played``:
    then it is kept and folded as it was played (by an older fracas, whose rules differed).
    """
    ruleset = get_ruleset(meta["ruleset"])
    seed = meta["seed"]
    first = records[0]
    for r in records:  # a key is what `do --key` and the API take, or none
        wrong = None if r.key is None else _wrong_key(r.key)
        if wrong is not None:
            raise InvalidInput(f"{name}: record {r.version}: the idempotency key {wrong} (the "
                               "limit on keys); nothing was imported")
    keys = [(r.author, r.key) for r in records if r.key is not None]
    if len(keys) != len(set(keys)):
        author, twice = next(k for k in keys if keys.count(k) > 1)
        raise InvalidInput(f"{name}: the idempotency key {twice!r} is used by two records of "
                           f"{author}; nothing was imported")
    kept: list[Record] = []
    advice = ""  # what to do when the engine decides a record otherwise than the file
    try:
        if first.version != 1 or first.command != "create" or len(first.events) != 1:
            raise InvalidInput("record 1 is not the creation of the conflict")
        created = _created(ruleset, seed, first)
        if isinstance(created, FracasError):
            if not as_played:
                advice = AS_PLAYED_ADVICE
                raise created
            conflict = Conflict(ruleset, seed, [first])  # its set-up folded as it was played
            kept.append(first)
        else:
            conflict = created
        for rec in records[1:]:
            if rec.version != conflict.version + 1:
                raise InvalidInput(f"record {rec.version} does not follow {conflict.version}")
            differs = _decided_otherwise(conflict, rec)
            if differs is not None:
                if not as_played:
                    advice = AS_PLAYED_ADVICE
                    raise InvalidInput(
                        f"record {rec.version} ({rec.command!r}) is not what the engine decides "
                        f"for it ({differs}): the file was edited after it was exported, or an "
                        "older fracas played it by rules that have changed since")
                kept.append(rec)
            conflict.append_record(rec)
    except FracasError as exc:
        raise InvalidInput(f"{name}: the log does not replay: {exc}; nothing was imported"
                           f"{advice}") from None
    except Exception as exc:
        raise InvalidInput(f"{name}: the log does not replay ({exc!r}); nothing was imported"
                           ) from None
    return conflict, kept


def _created(ruleset: Ruleset, seed: str, first: Record) -> Conflict | FracasError:
    """The conflict record 1's set-up creates today, or why it is not record 1: today's rules
    refuse the set-up (an older fracas took it: a stat its checks let through), or create
    another record from it."""
    try:
        setup = Setup.model_validate(first.events[0].data)
        conflict = Conflict.create(ruleset, setup, seed, author=first.author, time=first.time)
    except FracasError as exc:
        return InvalidInput(f"record 1 (the set-up) is refused: {exc}")
    if conflict.records[0].payload() != first.payload():
        return InvalidInput("record 1 does not match its set-up")
    return conflict


def _decided_otherwise(conflict: Conflict, record: Record) -> str | None:
    """How the engine decides ``record``'s command otherwise than the record says, or None
    when it gives exactly the record's events."""
    try:
        again = conflict.prepare(record.command, Viewer.named(record.author), key=record.key,
                                 time=record.time)
    except FracasError as exc:
        return f"it refuses it now: {exc}"
    if again.payload() != record.payload():
        return "it gives other events now"
    return None


def stored_time(value: object, name: str, what: str) -> str:
    """A time of an export file (``2026-11-29T16:40:00+00:00``), as the store keeps its own:
    in UTC, to the second; refused if it is not a time with its offset."""
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError(value)
        when = datetime.fromisoformat(value)
        if when.tzinfo is None:
            raise ValueError(value)
        return when.astimezone(UTC).isoformat(timespec="seconds")
    except (ValueError, OverflowError):
        raise InvalidInput(f"{name}: {what} is {spelled(value)}, not a time with its offset "
                           "such as 2026-11-29T16:40:00+00:00; nothing was imported") from None


def conflict_times(meta: dict[str, Any], records: list[Record], name: str
                   ) -> tuple[str | None, str | None]:
    """When an exported conflict was made and last played: its ``created`` and ``updated``
    (a file from before ``updated``: its last record's time, when it has one; None: not
    known)."""
    # none given, or "" (a file written by hand or by a test): not known, so now
    created = stored_time(meta["created"], name, "conflict.created") \
        if meta.get("created") not in (None, "") else None
    if meta.get("updated") not in (None, ""):
        return created, stored_time(meta["updated"], name, "conflict.updated")
    try:
        return created, stored_time(records[-1].time, name, "the last record's time")
    except InvalidInput:  # a log with no times (a script played by a test): when it was made
        return created, created


class Imported(NamedTuple):
    """A conflict an import stored: its id, the conflict, and the records kept as an older
    fracas played them."""

    id: str
    conflict: Conflict
    as_played: list[Record]


class Checked(NamedTuple):
    """An export file that passed every check: its conflict member, its conflict, and the
    records kept as an older fracas played them (its rules decide them otherwise now)."""

    meta: dict[str, Any]
    conflict: Conflict
    as_played: list[Record]


def checked_conflict(service: ConflictService, text: str, name: str, *, trust: bool,
                     trust_hint: str = TRUST_HINT_CLI, as_played: bool = False) -> Checked:
    """An export file's conflict, every check passed (or raise).

    Records an older fracas decided otherwise are kept as played when ``as_played``, or when
    this store signed the file (its own export: what it holds and plays on already).
    """
    meta, records, signed = parse_export(text, name, key=service.store.export_key(),
                                         trust=trust, trust_hint=trust_hint)
    conflict, kept = replay_check(meta, records, name, as_played=as_played or signed)
    return Checked(meta, conflict, kept)


def new_conflict(meta: dict[str, Any], conflict: Conflict, name: str, *, new_id: bool,
                 shown: bool, keep_times: bool) -> NewConflict:
    """What the store is given to keep a checked conflict of an export file."""
    created, updated = conflict_times(meta, conflict.records, name) if keep_times \
        else (None, None)
    return NewConflict(ruleset=conflict.ruleset.name, seed=meta["seed"],
                       title=str(meta.get("title") or ""), records=conflict.records,
                       conflict_id=None if new_id else meta["id"], shown=shown,
                       created=created, updated=updated)


def import_conflict(service: ConflictService, text: str, name: str = "<export>", *,
                    new_id: bool = False, campaign: str | None = None,
                    trust: bool = False, trust_hint: str = TRUST_HINT_CLI,
                    shown: bool = True, keep_times: bool = False, as_played: bool = False
                    ) -> Imported:
    """Validate an export file entirely, then store it in one transaction (``shown``
    False: behind the GM's screen; an export never says whether it was; ``keep_times``:
    made and last played when the file says, else now).

    A file this store did not sign (edited, from another database, or from a fracas before
    signatures) is refused unless ``trust``; every record is replayed either way, and one
    the engine decides otherwise now is refused unless the file is this store's own export
    or ``as_played`` (see :func:`checked_conflict`).
    """
    meta, conflict, kept = checked_conflict(service, text, name, trust=trust,
                                            trust_hint=trust_hint, as_played=as_played)
    new = new_conflict(meta, conflict, name, new_id=new_id, shown=shown, keep_times=keep_times)
    cid = service.store.create(
        ruleset=new.ruleset, seed=new.seed, title=new.title,
        campaign=campaign or str(meta.get("campaign") or DEFAULT_CAMPAIGN),
        records=new.records, conflict_id=new.conflict_id, shown=shown, created=new.created,
        updated=new.updated,
    )
    return Imported(cid, conflict, kept)


#: What an export made by ``fracas serve`` holds instead of the seed.
SEALED_SEED = "sealed_seed"


def export_sealed(service: ConflictService, conflict_id: str, key: bytes) -> dict[str, Any]:
    """An export document whose seed is sealed with the server's ``key``: the seed never
    leaves the server, and only a server with that key can import the file again."""
    from fracas.app.sealed import seal

    doc = export_conflict(service, conflict_id)
    meta = doc["conflict"]
    meta[SEALED_SEED] = seal(key, meta.pop("seed").encode("utf-8"), "fracas.seed/1")
    doc["checksum"] = checksum(doc)
    return doc


def import_sealed(service: ConflictService, text: str, key: bytes, campaign: str,
                  name: str = "<upload>", *, shown: bool = True) -> tuple[str, Conflict]:
    """Import a document of :func:`export_sealed` (or a plain export) into ``campaign``,
    under a fresh id (``shown`` False: behind the GM's screen)."""
    from fracas.app.sealed import unseal

    doc = json_document(text, name)
    meta = doc.get("conflict") if isinstance(doc, dict) else None
    if isinstance(meta, dict) and isinstance(meta.get(SEALED_SEED), str):
        if doc.get("checksum") != checksum(doc):
            raise InvalidInput(f"{name}: the checksum does not match: the file was damaged or "
                               "edited by hand; nothing was imported")
        sealed = meta.pop(SEALED_SEED)
        meta["seed"] = unseal(key, sealed, "fracas.seed/1", "sealed seed").decode("utf-8")
        doc["checksum"] = checksum(doc)
        text = json.dumps(doc, ensure_ascii=False)
    imported = import_conflict(service, text, name, new_id=True, campaign=campaign,
                               trust_hint=TRUST_HINT_SERVER, shown=shown)
    return imported.id, imported.conflict
