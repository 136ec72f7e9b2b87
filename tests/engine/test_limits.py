"""Every input has a documented limit (docs/limits.md), refused with a sentence that names it
— never a traceback — alike at every door: a scenario file, ``join``, a JSON command, an
import."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.exchange import checksum, dumps, export_conflict, import_conflict
from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.app.service import ConflictService
from fracas.cli.main import app
from fracas.engine.conflict import Conflict
from fracas.engine.limits import (
    MAX_LINE_CHARS,
    MAX_NESTING,
    MAX_PARTICIPANTS,
    MAX_SCRIPT_DICE,
    MAX_SCRIPT_LINES,
)
from fracas.errors import FracasError, InvalidInput
from fracas.store import SqlEventStore

BRAWL = resources.files("fracas.scenarios").joinpath("vers-tavern-brawl.toml").read_text(
    encoding="utf-8")
runner = CliRunner()


def _brawl(**replace: str) -> str:
    text = BRAWL
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    return text


def _refused(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        play_script(parse_scenario(text, "f.toml"), "s")


def _flat(text: str) -> str:
    return " ".join(text.split())


# --- the scenario file -----------------------------------------------------------------

def test_deep_nesting_is_refused_before_the_toml_parser(tmp_path: Path) -> None:
    deep = _brawl(**{"strength = 2": "strength = " + "[" * 5000 + "]" * 5000})
    _refused(deep, f"nest more than {MAX_NESTING} deep")
    path = tmp_path / "deep.toml"
    path.write_text(deep, encoding="utf-8")
    result = runner.invoke(app, ["run", str(path)])
    assert result.exit_code == 2 and "limit on nesting" in _flat(result.stderr)
    assert "Traceback" not in result.output


def test_a_script_that_rolls_too_many_dice_in_all_is_refused_before_it_plays(
        tmp_path: Path) -> None:
    """Each line is within its limits, but the whole script would keep a server busy for
    seconds (5,000 lines of 1000d1000: 18 s): refused at once, nothing stored."""
    rolls = "roll 1000d1000kh1\n" * (MAX_SCRIPT_DICE // 1000 + 1)
    text = _brawl(**{'script = """\n': 'script = """\n' + rolls})
    _refused(text, f"at most {MAX_SCRIPT_DICE:,} \\(the limit on a script's dice\\)")
    path, db = tmp_path / "dice.toml", f"sqlite:///{tmp_path / 'd.db'}"
    path.write_text(text, encoding="utf-8")
    made = runner.invoke(app, ["new", str(path), "--db", db])
    assert made.exit_code == 2
    assert "the limit on a script's dice" in _flat(made.stderr)
    assert runner.invoke(app, ["list", "--db", db]).stdout.startswith("no stored conflicts")
    ok = _brawl(**{'script = """\n': 'script = """\n' + "roll 1000d1000kh1\n" * 3})
    assert play_script(parse_scenario(ok, "f.toml"), "s").version > 3


def test_brackets_inside_strings_and_comments_are_not_nesting() -> None:
    title = 'title = "' + "[" * 40 + '" # ' + "{" * 40
    text = _brawl(**{'title = "Brawl at the Drowned Rat"': title})
    assert play_script(parse_scenario(text), "s").state.title.startswith("[[[[")


def test_too_many_participants_script_lines_and_bytes(tmp_path: Path) -> None:
    many = "".join(f'\n[[participants]]\nid = "p{i}"\nname = "P{i}"\nstats = {{ zone = "bar" }}\n'
                   for i in range(MAX_PARTICIPANTS))
    _refused(BRAWL + many, f"at most {MAX_PARTICIPANTS} \\(the limit on participants\\)")
    lines = _brawl(**{'script = """\n': 'script = """\n' + "note x\n" * MAX_SCRIPT_LINES})
    _refused(lines, "the limit on script lines")
    big = tmp_path / "big.toml"
    big.write_text(BRAWL + "#" * 1_000_001, encoding="utf-8")
    result = runner.invoke(app, ["run", str(big)])
    assert result.exit_code == 2 and "the limit on file size" in _flat(result.stderr)


def test_an_endless_file_is_read_only_up_to_the_limit() -> None:
    result = runner.invoke(app, ["run", "/dev/zero"])
    assert result.exit_code == 2 and "the limit on file size" in _flat(result.stderr)


@pytest.mark.parametrize("stat, message", [
    ("strength = true", "strength must be a whole number, not true"),
    ("strength = 9.2e18", "9.2e\\+18; numbers go up to 1,000,000"),
    ("strength = 9200000000000000000", "numbers go up to 1,000,000"),
    ("strength = 21", "strength is 21; it goes from 0 to 20"),
    ('strength = 2\n"" = 3', "stats holds a key that is empty"),
    ('strength = 2\n" " = 3', "stats holds a key that is empty"),
])
def test_stats_out_of_range_or_not_numbers(stat: str, message: str) -> None:
    _refused(_brawl(**{"strength = 2": stat}), message)


@pytest.mark.parametrize("name", ["Ad\x00a", "Ada\u202eevil", "Ada\x1b[31m", " "])
def test_names_with_hidden_characters_are_refused(name: str) -> None:
    _refused(_brawl(**{'name = "Ada"': f"name = {json.dumps(name)}"}),
             "control character|is empty")


# --- join, text and JSON --------------------------------------------------------------

def _played() -> Conflict:
    return play_script(parse_scenario(BRAWL), "s")


@pytest.mark.parametrize("command, message", [
    ("join gm name=GM", "'gm' is reserved"),
    ("join public", "'public' is reserved"),
    ("join eve name=''", "the name is empty"),
    ("join eve name=Eve\u202e", "control character U\\+202E"),
    ("""join rat stats='{"zone": "bar", "strength": true}'""", "must be a whole number"),
    ("""join rat stats='{"zone": "bar", "agility": 9200000000000000000}'""",
     "numbers go up to"),
    ("join rat stats='" + "[" * 60 + "]" * 60 + "'", "limit on nesting"),
    ("note " + "x" * 3000 + " " + "y" * 3000, r"this command is 6006 characters long; a command "
     r"holds at most 4000 \(the limit on command lines\)"),
    ("override ada.stats.strength 9200000000000000000", "numbers go up to"),
    ("""join rat stats='{"zone": "bar", "": 1}'""", "a key that is empty"),
])
def test_the_join_and_command_doors(command: str, message: str) -> None:
    c = _played()
    version = c.version
    with pytest.raises(FracasError, match=message):
        c.execute(command)
    assert c.version == version


def test_the_json_door_refuses_the_same() -> None:
    c = _played()
    with pytest.raises(FracasError, match="must be a whole number"):
        c.execute({"verb": "join", "args": {"id": "rat", "stats": {"zone": "bar",
                                                                   "strength": True}}})
    with pytest.raises(FracasError, match="'gm' is reserved"):
        c.execute(json.dumps({"verb": "join", "args": {"id": "gm"}}))
    with pytest.raises(FracasError, match="limit on nesting"):
        c.execute('{"verb": "note", "args": {"text": ' + "[" * 5000 + "]" * 5000 + "}}")
    with pytest.raises(FracasError, match="text takes at most 10000"):
        c.execute({"verb": "note", "args": {"text": "x" * 10_001}})
    with pytest.raises(FracasError, match="control character"):
        c.execute({"verb": "note", "args": {"text": "a\x00b"}})


# --- import and conflict ids ----------------------------------------------------------

def test_the_import_door_refuses_the_same(tmp_path: Path) -> None:
    service = ConflictService(SqlEventStore(f"sqlite:///{tmp_path / 'f.db'}"))
    cid, _ = service.new_from_scenario(parse_scenario(BRAWL))
    doc = export_conflict(service, cid)
    setup = doc["records"][0]["events"][0]["data"]
    setup["participants"][0]["stats"]["strength"] = True
    doc["checksum"] = checksum(doc)
    with pytest.raises(InvalidInput, match="strength must be a whole number"):
        import_conflict(service, dumps(doc), new_id=True, trust=True)


@pytest.mark.parametrize("key", [5, [], "", "x" * 201, True])
def test_an_imported_records_key_is_checked_like_one_typed(tmp_path: Path, key: object) -> None:
    service = ConflictService(SqlEventStore(f"sqlite:///{tmp_path / 'f.db'}"))
    cid, _ = service.new_from_scenario(parse_scenario(BRAWL))
    doc = export_conflict(service, cid)
    doc["records"][-1]["key"] = key
    doc["checksum"] = checksum(doc)
    listed = service.store.list()
    with pytest.raises(InvalidInput, match=r"the idempotency key .* \(the limit on keys\)"):
        import_conflict(service, dumps(doc), new_id=True, trust=True)  # before: TypeError
    assert service.store.list() == listed


@pytest.mark.parametrize("bad", ["../'; drop table records;--", "A1", "x" * 41, ""])
def test_conflict_ids_are_validated_by_the_store_and_the_cli(tmp_path: Path, bad: str) -> None:
    url = f"sqlite:///{tmp_path / 'f.db'}"
    store = SqlEventStore(url)
    with pytest.raises(InvalidInput, match="conflict id"):
        store.load(bad)
    if bad:
        with pytest.raises(InvalidInput, match="conflict id"):
            ConflictService(store).new_from_scenario(parse_scenario(BRAWL), conflict_id=bad)
        result = runner.invoke(app, ["show", bad, "--db", url])
        assert result.exit_code == 2 and "is not a conflict id" in _flat(result.stderr)


def test_a_command_sent_as_json_fits_a_command_line_so_its_record_reads_back() -> None:
    """A note of 4,800 characters sent in the JSON form was stored though its record's
    command line could not be read again: Alice's own note then showed to the table as just
    'Ada: note'. Now it is refused with the line's limit; one that fits is stored and read."""
    from fracas.engine.model import Viewer
    from fracas.engine.views import log_view

    c = play_script(parse_scenario(BRAWL, "f.toml"), "s")
    alice, version = Viewer.of_player("alice"), c.version
    with pytest.raises(InvalidInput, match=f"a command holds at most {MAX_LINE_CHARS} "
                                           r"\(the limit on command lines\)"):
        c.execute({"verb": "note", "actor": "ada", "args": {"text": "x" * 4800}}, alice)
    assert c.version == version
    said = "y" * (MAX_LINE_CHARS - 100)
    record = c.execute({"verb": "note", "actor": "ada", "args": {"text": said}}, alice)
    assert c.commands.parse(record.command).args["text"] == said
    assert said in json.dumps(log_view(c, Viewer.public())[-1])
