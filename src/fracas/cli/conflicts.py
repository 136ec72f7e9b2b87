"""The store's commands of ``fracas``: new, list, show, do, undo, redo, export, import, play, db.

Every command takes ``--db URL`` (default ``$FRACAS_DB``, else the SQLite file in the user's
data directory). Errors are printed as one sentence with exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from fracas.cli.common import (
    GM_LINK_SAID,
    check_actor,
    check_viewer,
    console,
    err_console,
    fail,
    join_link,
    print_link,
    say,
    viewer_for,
)
from fracas.errors import ConflictExists, FracasError, InvalidInput

if TYPE_CHECKING:  # the store and the engine are imported by the commands that run them
    from fracas.app.service import ConflictService
    from fracas.engine.conflict import Conflict
    from fracas.engine.events import Record
    from fracas.engine.model import Viewer
    from fracas.store import CampaignInfo

SHOW_FORMAT = "fracas.show/1"
#: The campaign of a conflict stored without --campaign: fracas.store.DEFAULT_CAMPAIGN, written
#: out here so that loading the commands does not load the store (see fracas.cli.main).
DEFAULT_CAMPAIGN = "default"

DbOption = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: $FRACAS_DB or the SQLite file in your data dir)")]
AsOption = Annotated[str | None, typer.Option("--as", help="act or look as PLAYER")]
IdArgument = Annotated[str, typer.Argument(metavar="ID", help="the conflict's id")]


@contextmanager
def _guard() -> Iterator[None]:
    """Turn fracas and database errors into a clear message and exit code 2."""
    from fracas.store import StoreFailure

    try:
        yield
    except FracasError as exc:
        fail(exc)
    except StoreFailure as exc:
        fail(f"database error: {getattr(exc, 'orig', None) or exc}")
    except OSError as exc:
        fail(str(exc))


@contextmanager
def open_service(db: str | None, *, existing: bool = False) -> Iterator[ConflictService]:
    """The service over the store at ``db`` (closed afterwards); ``existing``: for a command
    on stored conflicts, which refuses a SQLite file that is not there rather than make it."""
    from fracas.app.service import ConflictService
    from fracas.store import default_url, missing_sqlite_file, open_store

    missing = missing_sqlite_file(db or default_url()) if existing else None
    if missing is not None:
        raise InvalidInput(f"no database at {missing} yet, so no stored conflicts: `fracas new "
                           "SCENARIO` makes the first (or give --db)")
    store = open_store(db)
    try:
        yield ConflictService(store)
    finally:
        store.close()


def print_record(conflict: Conflict, record: Record, viewer: Viewer, note: str = "") -> None:
    """One record as ``viewer`` may see it: their entry for it (labelled ``#5`` for a
    player, never with the conflict's version), or nothing if it is hidden from them."""
    from fracas.cli.render import print_entries
    from fracas.engine.views import projector

    entry = projector(conflict, viewer).entry_for(record.version)
    if entry is not None:
        print_entries(console, [entry], note=note)


#: ``--behind-screen`` of the commands that make a conflict.
BehindScreen = Annotated[bool, typer.Option(
    "--behind-screen", help="prepare it behind the GM's screen: the players and the public "
    "of its table (fracas serve; --campaign TABLE) do not see it until the GM shows it")]
BEHIND = ", behind the screen (the GM shows it to the players from the table's page)"


def new(
    scenario: Annotated[
        Path, typer.Argument(help="a scenario file (TOML) or a bundled scenario's name")
    ],
    campaign: Annotated[str, typer.Option(help="the campaign it belongs to")]
    = DEFAULT_CAMPAIGN,
    seed: Annotated[str | None, typer.Option(
        help="fix the secret seed of the dice (default: a fresh random one)")] = None,
    scenario_seed: Annotated[bool, typer.Option(
        "--scenario-seed", help="use the scenario file's own seed")] = False,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="play only the GM commands at the head of the script (a chase "
        "begun, a character concealed), not a bundled example's story: the conflict "
        "starts from the beginning")] = False,
    behind_screen: BehindScreen = False,
    db: DbOption = None,
) -> None:
    """Store a new conflict from a scenario file, its script played too; print its id.

    With --fresh only the script's opening GM commands are played: the fight from its start.

    It rolls from a fresh secret seed; --seed or --scenario-seed fixes a known one instead.

    A known seed makes every roll predictable.
    """
    from fracas.app.scenario import load_scenario
    from fracas.app.script import from_the_start

    with _guard():
        sc = load_scenario(scenario)  # (a file refused makes no database)
        if fresh:
            sc = from_the_start(sc)
        if seed is not None and scenario_seed:
            raise InvalidInput("give --seed or --scenario-seed, not both")
        with open_service(db) as service:
            known = service.store.campaigns()
            table = _table_named(known, campaign)
            cid, conflict = service.new_from_scenario(sc, seed=seed, campaign=campaign,
                                                      scenario_seed=scenario_seed,
                                                      shown=not behind_screen)
        # warned once stored: a seed or script refused gets its refusal alone
        if seed is not None or (scenario_seed and sc.seed):
            err_console.print("[yellow]warning:[/] this conflict's seed is known, so whoever "
                              "knows it can predict every roll; leave --seed and "
                              "--scenario-seed out for a secret one")
        if table is None and TABLE_ID.fullmatch(campaign):
            err_console.print(f"[yellow]warning:[/] {escape(_no_such_table(campaign, db))}")
        where = f"in campaign {campaign!r}" if table is None else f"at {_called(table)}"
        err_console.print(
            f"created conflict {cid} ({conflict.ruleset.name}, version {conflict.version}) "
            f"{escape(where)}{BEHIND if behind_screen else ''}")
        console.print(cid)


#: What a table's id looks like (``t`` and 12 hex digits, fracas.app.tables.new_table_id).
TABLE_ID = re.compile(r"t[0-9a-f]{12}")


def _table_named(known: list[CampaignInfo], campaign: str) -> CampaignInfo | None:
    """The table whose id ``campaign`` is, if any; a table's title given for its id is
    refused (the conflict would go to a campaign of that name, on no table's page)."""
    for info in known:
        if info.name == campaign:
            return info if info.title is not None else None
    titled = [c for c in known if c.title is not None and campaign != DEFAULT_CAMPAIGN
              and c.title.casefold() == campaign.strip().casefold()]
    if titled:
        raise InvalidInput(f"--campaign {campaign!r} is the title of {_called(titled[0])}: "
                           f"give its id, --campaign {titled[0].name}")
    return None


def _no_such_table(campaign: str, db: str | None) -> str:
    """Why a conflict stored for a table id that this database has no table of shows on no
    table's page, and where the table may be."""
    from fracas.store import default_url, safe_url

    return (f"no table {campaign} in this database ({safe_url(db or default_url())}): the "
            "conflict is kept in a campaign of that name, which no table's page shows; give "
            "the --db (or FRACAS_DB) of the `fracas serve` that holds the table (`bash "
            "scripts/run.sh` keeps its table in .venv/table.db)")


def list_(
    words: Annotated[list[str] | None, typer.Argument(
        metavar="WORDS", help="only the conflicts whose title, id, ruleset or table "
        "holds every word (in any case)")] = None,
    campaign: Annotated[str | None, typer.Option(
        "--table", "--campaign", metavar="TABLE",
        help="only this table's conflicts (its id or title), or a campaign's")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the JSON form")] = False,
    db: DbOption = None,
) -> None:
    """List the stored conflicts, the last played first.

    One line each, as wide as the terminal: a long title ends in "…" (--json has it whole).
    """
    from fracas.app.listing import Listed, find_conflicts
    from fracas.cli.listing import print_list
    from fracas.store import default_url, missing_sqlite_file

    items: list[Listed] = []
    where = None
    if missing_sqlite_file(db or default_url()) is None:  # else nothing stored: none is made
        with _guard(), open_service(db) as service:
            items, where = find_conflicts(service.store, words or (), campaign)
    if as_json:
        sys.stdout.write(json.dumps([{
            "id": i.info.id, "campaign": i.info.campaign, "table": i.table,
            "ruleset": i.info.ruleset, "title": i.info.title, "version": i.info.version,
            "created": i.info.created, "updated": i.info.updated, "shown": i.info.shown,
        } for i in items], indent=2) + "\n")
        return
    if not items:
        console.print(_none_listed(words or [], where.title or where.name if where else None))
        return
    print_list(console, items, one_table=where is not None)


def _none_listed(words: list[str], where: str | None) -> str:
    """What ``fracas list`` says when it lists nothing."""
    if not words and where is None:
        return "no stored conflicts; `fracas new SCENARIO` makes one"
    said = ["no stored conflict", *([f"in {where}"] if where else []),
            *([f"that holds {' '.join(words)!r}"] if words else [])]
    return escape(" ".join(said))


def show(
    conflict_id: IdArgument,
    as_player: AsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the JSON form")] = False,
    raw: Annotated[bool, typer.Option("--raw", help="events in their text form")] = False,
    with_sheets: Annotated[bool, typer.Option(
        "--sheets", help="each character's sheet too (the GM's marks what players do not "
        "read)")] = False,
    db: DbOption = None,
) -> None:
    """Print a conflict's state and log as the GM, or as PLAYER sees it (--as)."""
    from fracas.cli.render import print_log, print_sheets, print_state
    from fracas.engine.views import log_view, view

    viewer = viewer_for(as_player)
    with _guard(), open_service(db, existing=True) as service:
        conflict = service.load(conflict_id)
        check_viewer(conflict, viewer)
        if as_json:
            state = view(conflict, viewer)
            data = {"format": SHOW_FORMAT, "id": conflict_id, "ruleset": conflict.ruleset.name,
                    **({"version": conflict.version} if viewer.is_gm else {}),
                    "cursor": state["cursor"], "log": log_view(conflict, viewer),
                    "state": state}
            sys.stdout.write(json.dumps(data, indent=2) + "\n")
            return
        print_log(console, conflict, viewer, raw=raw)
        console.print()
        print_state(console, conflict, viewer)
        if with_sheets:
            console.print()
            print_sheets(console, conflict, viewer)


def _run(db: str | None, conflict_id: str, command: str, as_player: str | None,
         expect: str | None, key: str | None, dice: str | None = None) -> None:
    viewer = viewer_for(as_player)
    with _guard(), open_service(db, existing=True) as service:
        conflict = service.load(conflict_id)
        check_actor(conflict, viewer)
        if dice is not None:
            command = _with_dice(conflict, command, dice)
        version, cursor = _expectation(expect, viewer)
        out = service.execute(conflict_id, command, viewer, expected_version=version,
                              expected_cursor=cursor, key=key, conflict=conflict)
        note = " [dim](already applied: same idempotency key)[/]" if out.duplicate else ""
        print_record(out.conflict, out.record, viewer, note)


def _with_dice(conflict: Conflict, command: str, dice: str) -> str:
    """``COMMAND dice=D`` for ``--dice D``; refused when the command rolls nothing (a note's
    text would otherwise take the dice as words)."""
    from fracas.engine.conflict import command_set

    commands = command_set(conflict.ruleset)
    spec = commands.spec(commands.parse(command).verb)
    if all(p.name != "dice" for p in spec.params):
        raise InvalidInput(f"{spec.verb} rolls no dice, so --dice {dice} has nothing to go to; "
                           "leave --dice out", verb=spec.verb)
    return f"{command} dice={dice.replace(' ', '')}"


def _expectation(expect: str | None, viewer: Viewer) -> tuple[int | None, str | None]:
    """``--expect``: the GM's VERSION, or a cursor (a player's only kind: they are never
    told the conflict's version, and need not know it)."""
    if expect is None:
        return None, None
    if re.fullmatch(r"[0-9]+", expect.strip()):
        if not viewer.is_gm:
            raise InvalidInput("as a player, --expect takes your cursor: the \"cursor\" of "
                               "`fracas show ID --as PLAYER --json` (players are told no "
                               "version)")
        return int(expect), None
    return None, expect.strip()


def do(
    conflict_id: IdArgument,
    command: Annotated[str, typer.Argument(help='one command in text notation, e.g. '
                                                '"bruno: attack thug weapon=crossbow", or '
                                                'its JSON form')],
    as_player: AsOption = None,
    expect: Annotated[str | None, typer.Option(
        "--expect", metavar="CURSOR|VERSION",
        help="refuse if what you see changed: your cursor (from show --json; a player's "
             "only kind), or the GM's VERSION")] = None,
    key: Annotated[str | None, typer.Option(
        "--key", help="idempotency key: a retry with the same key applies once")] = None,
    dice: Annotated[str | None, typer.Option(
        "--dice", help="dice rolled at the table, e.g. 5,6,2")] = None,
    db: DbOption = None,
) -> None:
    """Apply one command to a stored conflict and store it."""
    if dice and command.lstrip().startswith("{"):  # the JSON form: text appended breaks it
        with _guard():
            raise InvalidInput("--dice goes with a command in text notation; in the JSON "
                               'form give the dice in args ("dice": [5, 6])')
    _run(db, conflict_id, command, as_player, expect, key, dice or None)


def undo(
    conflict_id: IdArgument,
    steps: Annotated[int, typer.Argument(help="how many commands")] = 1,
    expect: Annotated[int | None, typer.Option("--expect", help="expected VERSION")] = None,
    db: DbOption = None,
) -> None:
    """Take back the last N commands (stored as an undo event; versions only grow)."""
    _run(db, conflict_id, f"undo {steps}", None, _text(expect), None)


def redo(
    conflict_id: IdArgument,
    steps: Annotated[int, typer.Argument(help="how many commands")] = 1,
    expect: Annotated[int | None, typer.Option("--expect", help="expected VERSION")] = None,
    db: DbOption = None,
) -> None:
    """Bring back the last N undone commands (stored as a redo event)."""
    _run(db, conflict_id, f"redo {steps}", None, _text(expect), None)


def _text(version: int | None) -> str | None:
    return None if version is None else str(version)


def export(
    conflict_id: Annotated[str | None, typer.Argument(
        metavar="[ID]", help="the conflict's id (or --table, or --all)")] = None,
    table: Annotated[str | None, typer.Option(
        "--table", "--campaign", metavar="TABLE",
        help="a whole table (its id or title), or campaign: every conflict of it")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help="every table and campaign of the database")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output",
                                                help="write to FILE (default: stdout)")] = None,
    db: DbOption = None,
) -> None:
    """Write a conflict as a fracas.export/1 JSON file (it holds the secret seed).

    --table writes a whole table in one file (fracas.tables/1); --all, every table.
    """
    from fracas.app.exchange import dumps, export_conflict
    from fracas.app.listing import find_campaign
    from fracas.app.table_exchange import export_tables

    with _guard(), open_service(db, existing=True) as service:
        asked = [what for what, given in (("an ID", conflict_id is not None),
                                          ("--table", table is not None), ("--all", every))
                 if given]
        if len(asked) != 1:
            raise InvalidInput("give one of a conflict's ID, --table TABLE (a whole table) "
                               "or --all (every table)" + (f", not {' and '.join(asked)}"
                                                          if asked else ""))
        if conflict_id is not None:
            text, what, name = dumps(export_conflict(service, conflict_id)), conflict_id, \
                conflict_id
        else:
            known = service.store.campaigns()
            chosen = known if every else [find_campaign(known, table or "")]
            if not any(service.store.list(c.name) for c in chosen):
                raise InvalidInput("no conflict to export: " + (
                    "the database has none" if every else f"{_called(chosen[0])} has none"))
            text = dumps(export_tables(service, chosen))
            what = "every table" if every else _called(chosen[0])
            name = "fracas-all" if every else chosen[0].name
        if output is None:
            sys.stdout.write(text)
            return
        _write_export(output, text, name)
        err_console.print(f"exported {escape(what)} to {escape(str(output))}")


def _called(campaign: CampaignInfo) -> str:
    """A table as a sentence names it (its title and id), or a campaign (its name)."""
    if campaign.title is None:
        return f"campaign {campaign.name!r}"
    return f"table {campaign.title} ({campaign.name})"


def _write_export(output: Path, text: str, name: str) -> None:
    """Write an export file whole, or leave nothing (it holds secret seeds)."""
    if output.is_dir():
        raise InvalidInput(f"{output} is a folder: give a file name, e.g. "
                           f"{output / (name + '.json')}")
    if not output.parent.is_dir():
        raise InvalidInput(f"no folder {output.parent} to write {output.name} in")
    tmp = output.with_name(output.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(output)
    except OSError as exc:  # it holds the seed: no half-written copy is left behind
        tmp.unlink(missing_ok=True)
        raise InvalidInput(f"cannot write {output}: {exc.strerror or exc}") from None


def import_(
    file: Annotated[Path, typer.Argument(help="a fracas.export/1 file, or a fracas.tables/1 "
                                              "file of whole tables ('-': stdin)")],
    new_id: Annotated[bool, typer.Option(
        "--new-id", help="store it under a fresh id (when the id is taken); a table's "
                         "conflicts too")] = False,
    campaign: Annotated[str | None, typer.Option(help="put it in this campaign")] = None,
    trust: Annotated[bool, typer.Option(
        "--trust", help="import a file this database did not sign (edited, from another "
                        "database, or from an older fracas): only if you know it")] = False,
    as_played: Annotated[bool, typer.Option(
        "--as-played", help="keep the records an older fracas played as they were played, "
                            "where this fracas's rules decide them otherwise")] = False,
    behind_screen: BehindScreen = False,
    url: Annotated[str, typer.Option(
        "--url", help="the address of `fracas serve`, for the GM's link of an imported "
        "table")] = "http://127.0.0.1:8000",
    db: DbOption = None,
) -> None:
    """Check an export file (checksum, signature, and a replay of every record), store it.

    A file of whole tables (fracas export --table) makes each table anew, with a new GM link.
    """
    from fracas.app.exchange import import_conflict
    from fracas.app.scenario import cannot_read
    from fracas.app.table_exchange import is_tables_file
    from fracas.engine.limits import MAX_EXPORT_BYTES

    with _guard():
        most = MAX_EXPORT_BYTES + 1  # never read past the limit (the import names it)
        if str(file) == "-":
            text, name = sys.stdin.read(most), "<stdin>"
        else:
            try:
                with file.open(encoding="utf-8") as f:
                    text, name = f.read(most), str(file)
            except (OSError, UnicodeDecodeError) as exc:
                raise cannot_read(file, exc) from None
        with open_service(db) as service:
            if is_tables_file(text):
                if campaign is not None:
                    raise InvalidInput(f"{name} holds whole tables, which it makes anew: leave "
                                       "--campaign out")
                _import_tables(service, text, name, new_id=new_id, trust=trust,
                               behind_screen=behind_screen, url=url, as_played=as_played)
                return
            try:
                cid, conflict, played = import_conflict(
                    service, text, name, new_id=new_id, campaign=campaign, trust=trust,
                    shown=not behind_screen, keep_times=True, as_played=as_played)
            except ConflictExists as exc:
                err_console.print("[dim]hint: --new-id imports it as a copy under a new id[/]")
                fail(exc)
        err_console.print(f"imported conflict {cid} (version {conflict.version})"
                          f"{BEHIND if behind_screen else ''}")
        if played:
            say(escape(_as_played_note(len(played), played[0].version, played[0].command)))
        console.print(cid)


def _as_played_note(count: int, first: int, command: str) -> str:
    """What the GM is told of the records of an import kept as an older fracas played them."""
    if command == "create":
        command = "the set-up"
    if count == 1:
        return (f"note: record {first} ({command}) was played with an older fracas, whose "
                "rules decide it otherwise now; it is kept as it was played")
    return (f"note: {count} records (the first: record {first}, {command}) were played with "
            "an older fracas, whose rules decide them otherwise now; they are kept as they "
            "were played")


def _import_tables(service: ConflictService, text: str, name: str, *, new_id: bool,
                   trust: bool, behind_screen: bool, url: str, as_played: bool) -> None:
    """``fracas import`` of a file of tables: each table and its GM's new link."""
    from fracas.app.table_exchange import import_tables

    try:
        restored = import_tables(service, text, name, new_id=new_id, trust=trust,
                                 shown=not behind_screen, as_played=as_played)
    except (ConflictExists, InvalidInput) as exc:
        if "already exists" in str(exc):
            err_console.print("[dim]hint: --new-id imports it as a copy under new ids[/]")
        fail(exc)
    for r in restored:
        count = f"{len(r.conflicts)} conflict{'s' if len(r.conflicts) != 1 else ''}"
        behind = ", all behind the screen" if behind_screen else ""
        if r.as_played:
            them = "them" if r.as_played != 1 else "it"
            behind += (f", {r.as_played} record{'s' if r.as_played != 1 else ''} kept as an "
                       f"older fracas played {them} (its rules differed)")
        if r.gm is None:
            err_console.print(f"imported {count} into campaign {escape(repr(r.name))}{behind}")
            continue
        say(f"imported table {r.name} ({escape(r.title or '')}) with {count}{behind}")
        say(GM_LINK_SAID)
        console.print(r.name)
        print_link(join_link(url, r.gm.secret))
    if any(r.gm is not None for r in restored):
        say("[dim]the players' links are not in the file: `fracas table invite TABLE NAME` "
            "makes each player a new one[/]")


def play(
    conflict_id: IdArgument,
    as_player: AsOption = None,
    db: DbOption = None,
) -> None:
    """Run a conflict at the table: a live state panel, commands with completion, undo keys."""
    from fracas.cli.play import run_play

    viewer = viewer_for(as_player)
    with _guard(), open_service(db, existing=True) as service:
        check_viewer(service.load(conflict_id), viewer)
        run_play(service, conflict_id, viewer)


db_app = typer.Typer(help="The database: schema upgrade, information, snapshots.",
                     no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Create or migrate the database schema to this fracas's version."""
    from fracas.store import open_store, safe_url

    with _guard():
        store = open_store(db, migrate=False)
        try:
            older = store.older_revision()
            if older is not None:
                copy = store.keep_copy(f".schema-{older}.bak")
                if copy is not None:
                    say(f"kept a copy of the database as it is (schema {older}, which the "
                        f"fracas that wrote it still opens): {escape(str(copy))}")
                say(f"upgrading the schema from {older}…")
            rev = store.upgrade()
        finally:
            store.close()
        came = "" if older is None else f"upgraded from {older}, now "
        console.print(f"{safe_url(store.url)}: schema {rev} ({came}up to date)")


@db_app.command("info")
def db_info(db: DbOption = None) -> None:
    """Print the database URL, its schema revision and whether this fracas can use it."""
    from fracas.store import default_url, missing_sqlite_file, open_store, safe_url

    missing = missing_sqlite_file(db or default_url())
    if missing is not None:
        console.print(f"no database at {missing} yet: `fracas new SCENARIO` or `fracas db "
                      "upgrade` makes it")
        return
    with _guard():
        store = open_store(db, migrate=False)
        try:
            state, rev = store.schema_state(), store.schema_revision()
        finally:
            store.close()
        console.print(f"database {safe_url(store.url)}\nschema   {rev or '(none)'}\n"
                             f"status   {state}")


@db_app.command("snapshot")
def db_snapshot(
    conflict_id: IdArgument,
    db: DbOption = None,
) -> None:
    """Rebuild a conflict's snapshot from its log (snapshots are only a cache)."""
    with _guard(), open_service(db, existing=True) as service:
        version = service.rebuild_snapshot(conflict_id)
        console.print(f"snapshot of {conflict_id} rebuilt at version {version}")


def _since(text: str) -> int:
    """``--since``: a version or entry number, written ``20``, ``v20`` or ``#20``."""
    digits = text.strip().removeprefix("#").removeprefix("v")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        raise typer.BadParameter(f"{text!r} is not a version or entry number (20, v20 or #20)",
                                 param_hint="'--since'")
    return int(digits)


def _timeout(seconds: float | None) -> float | None:
    """``--timeout``: a number of seconds above 0 (left out: follow until Ctrl-C)."""
    if seconds is not None and not seconds > 0:  # NaN too
        raise typer.BadParameter(f"{seconds:g} is not a number of seconds above 0; leave "
                                 "--timeout out to follow until Ctrl-C",
                                 param_hint="'--timeout'")
    return seconds


def watch(
    conflict_id: IdArgument,
    as_player: AsOption = None,
    since: Annotated[str | None, typer.Option(
        help="print the log after this version first (as a player: after your entry #N); "
             "20, v20 or #20")]
    = None,
    timeout: Annotated[float | None, typer.Option(
        help="stop after this many seconds without a change (default: follow until Ctrl-C)",
        callback=_timeout)]
    = None,
    db: DbOption = None,
) -> None:
    """Follow a conflict played elsewhere: the live panel of `play` and each new command.

    Everything is shown as PLAYER may see it (--as), or as the GM without it."""
    from fracas.cli.play import render_panel
    from fracas.cli.render import print_entries
    from fracas.engine.projector import Projector

    viewer = viewer_for(as_player)
    who = "the GM" if viewer.is_gm else (viewer.player or "the public")
    with _guard(), open_service(db, existing=True) as service:
        conflict = service.load(conflict_id)
        check_viewer(conflict, viewer)
        follow = Projector(conflict, viewer)
        if since is not None:
            print_entries(console, follow.after(_since(since)))
        render_panel(console, conflict, viewer, conflict_id)
        at = f" at v{conflict.version}" if viewer.is_gm else ""  # a player is told no version
        err_console.print(f"[dim]following {conflict_id}{at} as {escape(who)}; Ctrl-C stops[/]")
        idle = 0.0
        try:
            while timeout is None or idle < timeout:
                wait = 5.0 if timeout is None else min(5.0, timeout - idle)
                started = time.monotonic()
                version = service.store.wait_for_change(conflict_id, conflict.version, wait)
                if version <= conflict.version:
                    idle += time.monotonic() - started
                    continue
                idle = 0.0
                conflict = service.load(conflict_id)
                # records wholly hidden from the viewer print nothing, not even a line or a
                # fresh panel (its timing would give them away)
                update = follow.advance(conflict)
                print_entries(console, update.entries)
                if viewer.is_gm or update.seen:
                    render_panel(console, conflict, viewer, conflict_id)
        except KeyboardInterrupt:
            pass
        at = f" at v{conflict.version}" if viewer.is_gm else ""
        err_console.print(f"[dim]stopped{at}[/]")


def register(app: typer.Typer) -> None:
    """Add the store's commands to the ``fracas`` app."""
    app.command("new")(new)
    app.command("list")(list_)
    app.command("show")(show)
    app.command("do")(do)
    app.command("undo")(undo)
    app.command("redo")(redo)
    app.command("export")(export)
    app.command("import")(import_)
    app.command("play")(play)
    app.command("watch")(watch)
    app.add_typer(db_app, name="db")
