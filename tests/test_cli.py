"""The command line: fracas run, rules, errors without tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.cli import RUN_FORMAT, app
from fracas.errors import FracasError
from tests.support import helpers  # noqa: F401  (registers the toy ruleset)

TOY_FILE = str(Path(__file__).parent / "support" / "toy-brawl.toml")
runner = CliRunner()


def test_run_prints_the_log_and_the_final_state() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7"])
    assert result.exit_code == 0, result.output
    assert "v3    ada: hit gob dice=4" in result.output
    assert "Brawl in the mill" in result.output
    assert "HP 1/5" in result.output


def test_run_json_is_the_documented_stable_form() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--json"])
    data = json.loads(result.output)
    assert data["format"] == RUN_FORMAT
    assert data["version"] == 6
    assert [e["command"] for e in data["log"]][:3] == ["create", "start ada", "ada: hit gob dice=4"]
    assert data["state"]["conflict"]["round"] == 1
    again = json.loads(runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--json"]).output)
    # the envelope's time of day is when the command was stored, kept apart from the rest
    for entry in data["log"] + again["log"]:
        assert datetime.fromisoformat(entry["time"]).utcoffset() == timedelta(0), entry
    assert _without_times(again) == _without_times(data), "same seed, same script: same output"
    assert len(again["log"]) == len(data["log"]) == data["version"]


def _without_times(data: dict[str, Any]) -> dict[str, Any]:
    """The run's JSON with each log entry's stored time left out."""
    return {**data, "log": [{k: v for k, v in e.items() if k != "time"} for e in data["log"]]}


def test_run_as_a_player_hides_gm_secrets() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--as", "alice", "--json"])
    text = result.output
    assert "eyes the door" not in text and "fire" not in text and '"seed"' not in text


def test_a_bad_script_line_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(TOY_FILE).read_text().replace("ada: done gob", "gob: hit ada"))
    result = runner.invoke(app, ["run", str(bad)])
    assert result.exit_code == 2
    assert "bad.toml:" in result.output
    assert "Traceback" not in result.output


def test_a_participant_without_a_name_is_called_by_its_id_as_at_a_join(tmp_path: Path) -> None:
    nameless = tmp_path / "nameless.toml"
    nameless.write_text(Path(TOY_FILE).read_text().replace('name = "Goblin"\n', ""))
    result = runner.invoke(app, ["run", str(nameless), "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    people = json.loads(result.output)["state"]["conflict"]["participants"]
    assert {p["id"]: p["name"] for p in people} == {"ada": "Ada", "gob": "Gob"}


def test_an_unknown_ruleset_is_refused_with_the_available_ones(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "chess"\n')
    result = runner.invoke(app, ["run", str(bad)])
    assert result.exit_code == 2
    assert "unknown ruleset 'chess'" in result.output


def test_a_mistyped_ruleset_names_the_file_line_and_the_closest(tmp_path: Path) -> None:
    """`ruleset = "verz"` was refused without the file and line, and without the closest
    name, where every other key's error gives both."""
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "Brawl"\nruleset = "verz"\n')
    db = f"sqlite:///{tmp_path / 'f.db'}"
    for command in (["run", str(bad)], ["new", str(bad), "--db", db],
                    ["sim", str(bad), "-n", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "Traceback" not in result.output, command
        assert "bad.toml:2: unknown ruleset 'verz' (available: etherscope, fabula-ultima, " \
               "toy, vers); did you mean 'vers'?" in " ".join(result.output.split()), command


def test_run_raw_prints_events_in_their_text_form() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--raw"])
    assert result.exit_code == 0, result.output
    assert "ada: hit target=gob" in result.output and "damage=4" in result.output


def test_rules_print_every_mark_in_the_text() -> None:
    result = runner.invoke(app, ["rules", "etherscope", "--id", "ES-SET-3"])
    assert result.exit_code == 0
    assert "ES-SET-3 [seed]" in result.output
    assert "[default] 1 point of damage" in " ".join(result.output.split())



def test_rules_id_shows_only_the_ruleset_that_holds_it() -> None:
    result = runner.invoke(app, ["rules", "--id", "es-round-3"])
    assert result.exit_code == 0, result.output
    assert "ES-ROUND-3 [seed]" in result.output and "Etherscope" in result.output
    assert "Fabula Ultima" not in result.output and "VERS" not in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["vers", "--id", "NOPE"], "vers has no rule 'NOPE'; `fracas rules vers` lists them"),
    (["--id", "ES-RUND-3"], "no ruleset has a rule 'ES-RUND-3'; did you mean 'ES-ROUND-3'?"),
    (["vers", "--id", "VR-ROL-1"], "did you mean 'VR-ROLL-1'?"),
    (["vers", "--id", "ES-ROUND-3"], "it is a rule of etherscope (fracas rules etherscope "
                                     "--id ES-ROUND-3)"),
])
def test_rules_refuse_an_unknown_id_naming_the_closest(args: list[str], said: str) -> None:
    result = runner.invoke(app, ["rules", *args])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert "VERS: Physical Conflict (vers)" not in result.output  # no bare header


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(TOY_FILE).read_text().replace("ada: done gob", "undo 1 2"))
    result = runner.invoke(app, ["run", str(bad)])
    assert result.exit_code == 2
    assert "usage: undo [STEPS]" in " ".join(result.output.split())


def test_a_refused_script_line_shows_the_log_up_to_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = Path(TOY_FILE).read_text().replace("ada: done gob", "gob: hit ada")
    bad.write_text(text)
    line = text.splitlines().index("gob: hit ada") + 1
    result = runner.invoke(app, ["run", str(bad), "--seed", "7"])
    assert result.exit_code == 2
    assert "v3    ada: hit gob dice=4" in result.output
    assert f"bad.toml:{line}: 'gob: hit ada'" in " ".join(result.output.split())


def test_a_refused_setting_names_its_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "etherscope"\n[settings]\nnature = "physical"\ntwist = "x"\n')
    result = runner.invoke(app, ["run", str(bad)])
    assert result.exit_code == 2
    assert "bad.toml:4: settings.twist is not a setting of Etherscope" in \
        " ".join(result.output.split())


PARTY = ('[settings]\n{settings}\n[[participants]]\nid = "ada"\nside = "heroes"\n'
         'stats = {{ {ada} }}\n\n[[participants]]\nid = "bo"\nside = "foes"\n'
         'stats = {{ {bo} }}\n')


@pytest.mark.parametrize(
    ("ruleset", "settings", "ada", "bo", "said"),
    [
        ("fabula-ultima", "", "dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40",
         "dex = 8, ins = 8, mig = 8, wlp = 8, hpp = 40",
         "bad.toml:12: bo: unknown stat 'hpp'; did you mean 'hp'?"),
        ("fabula-ultima", "", "dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40",
         'dex = 8, ins = 8, mig = 8, wlp = 8, hp = "40"',
         'bad.toml:12: bo: stats.hp must be a whole number, not "40"'),
        ("etherscope", 'nature = "social"', "society = 8", "society = 0",
         "bad.toml:12: bo.stats.society is needed: the society condenser is this conflict's "
         "base initiative (ES-ROUND-1)"),
        ("vers", 'zones = ["pier", "yard"]', 'zone = "pier"', 'zone = "yrad"',
         "bad.toml:12: bo: zone 'yrad' is not in settings.zones (VR-MOVE-1)"),
    ],
)
def test_a_refused_stat_names_the_line_of_its_participant_on_every_door(
        tmp_path: Path, ruleset: str, settings: str, ada: str, bo: str, said: str) -> None:
    """A stat the rules refuse was named by its participant with no line (`bad.toml: bo: …`),
    or at the line of the first participant's stats (`ada`'s, for Bo's ES condenser); and
    `fracas sim` said it without the line, as "the simulated set-up is refused: …"."""
    bad = tmp_path / "bad.toml"
    bad.write_text(f'ruleset = "{ruleset}"\n' + PARTY.format(settings=settings, ada=ada, bo=bo))
    assert bad.read_text().splitlines()[11].startswith("stats = {")  # Bo's stats: line 12
    db = f"sqlite:///{tmp_path / 'f.db'}"
    for command in (["run", str(bad)], ["new", str(bad), "--db", db],
                    ["sim", str(bad), "-n", "1", "--workers", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        assert f"/{said}" in " ".join(result.output.split()), command
    assert runner.invoke(app, ["list", "--db", db]).output.count("bad") == 0


def test_the_scenario_file_of_docs_scenarios_md_plays_cleanly(tmp_path: Path) -> None:
    """The guide's example file is what a newcomer copies first: it must run as shown."""
    doc = (Path(__file__).parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", doc, re.S)
    assert block is not None
    example = tmp_path / "zepcar.toml"
    example.write_text(block.group(1), encoding="utf-8")
    result = runner.invoke(app, ["run", str(example)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Ada Lovelace acts at 7, 1" in said and "note [gm]: the bridge is up ahead" in said


def test_as_a_name_nobody_plays_warns_and_shows_an_onlookers_view() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--as", "zed"])
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    assert "nobody in this conflict is played by 'zed'; showing what an onlooker sees" in said
    assert "alice" not in said.split("onlooker sees")[0]  # no list of the players


def test_as_a_capitalised_name_says_names_are_lower_case() -> None:
    """`show --as Alice` warned only that nobody plays 'Alice', where `do --as Alice` says
    why: the same hint in both."""
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--as", "Alice"])
    said = " ".join(result.output.split())
    assert result.exit_code == 0
    assert "nobody in this conflict is played by 'Alice' (a player's name is lower-case); " \
           "showing what an onlooker sees" in said


def test_as_a_name_with_brackets_is_shown_as_typed_not_a_traceback() -> None:
    """`--as "[/x]"` ended in a traceback: the name was read as Rich markup."""
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "7", "--as", "[/x]"])
    assert result.exit_code == 0, result.exception
    assert "nobody in this conflict is played by '[/x]'" in " ".join(result.output.split())


def _command_paths(group: Any, prefix: list[str]) -> list[list[str]]:
    """Every command and sub-command of a command group, as the words that name it."""
    paths = [prefix]
    for name, sub in getattr(group, "commands", {}).items():
        paths += _command_paths(sub, [*prefix, name])
    return paths


def test_every_commands_help_prints_without_a_traceback() -> None:
    import typer.main

    paths = _command_paths(typer.main.get_command(app), [])
    assert ["serve"] in paths and ["sim"] in paths and len(paths) > 10
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output, result.exception)
        assert "Usage" in result.output, path


def test_a_flag_reads_as_a_flag_in_every_commands_help() -> None:
    """`fracas run --help` read "--json <bool>", as if the flag took a value (`--json true`
    is refused): Typer 0.29 marks every flag so. A flag shows no value type; an option that
    takes one still does ("--seed <str>")."""
    import typer.main

    for path in _command_paths(typer.main.get_command(app), []):
        result = runner.invoke(app, [*path, "--help"], terminal_width=200)
        assert "<bool>" not in result.output, (path, result.output)
    assert re.search(r"--seed\s+<str>", runner.invoke(app, ["run", "--help"],
                                                       terminal_width=200).output)


@pytest.mark.parametrize("port", ["0", "70000", "-1"])
def test_serve_refuses_a_port_it_cannot_listen_on_or_print_a_link_for(port: str) -> None:
    """A port out of range was a Python traceback from the socket's bind; 0 (the system picks
    one) printed a link to port 0. Each is refused before the server starts, naming the
    range."""
    result = runner.invoke(app, ["serve", "--port", port, "--db", "sqlite:///:memory:"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "Invalid value for '--port'" in result.output


def test_serve_on_a_port_already_taken_says_so_and_prints_no_link() -> None:
    """With `bash scripts/run.sh` holding port 8000, the README's `fracas serve &` printed
    "fracas serving … open http://127.0.0.1:8000/" and a fresh admin link, then died in
    uvicorn's log ("[Errno 98] … address already in use", exit code 3): the link led to the
    other server. It is refused first, in a sentence, with nothing else printed."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port), "--db", "sqlite:///:memory:"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert f"error: port {port} is already in use on 127.0.0.1" in said
    assert "give another --port" in said
    assert "http://" not in said and "Traceback" not in said


def test_serve_on_an_address_not_of_this_machine_says_so() -> None:
    """--host with an address the machine does not have failed in uvicorn's log after the
    link was printed; it is refused in a sentence naming the address."""
    result = runner.invoke(app, ["serve", "--host", "192.0.2.1", "--port", "8000",
                                 "--db", "sqlite:///:memory:"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "error: cannot listen on 192.0.2.1:8000" in said and "http://" not in said


def test_no_help_text_breaks_a_line_in_the_middle_of_a_sentence() -> None:
    """Every paragraph of a command's help reads on one line, in its own help and in the list
    of commands (`fracas new` read "or with --fresh" and "only its opening GM commands" on two
    lines: Typer keeps a docstring's line breaks)."""
    import inspect

    import typer.main

    root = typer.main.get_command(app)
    for path in _command_paths(root, []):
        command = root
        for word in path:
            command = command.commands[word]  # type: ignore[attr-defined]
        shown = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "250"}).output
        helps = [(path, command.help)] + [([*path, name], sub.short_help or sub.help)
                                          for name, sub in getattr(command, "commands",
                                                                   {}).items()]
        for where, text in helps:
            paragraphs = inspect.cleandoc(text or "").split("\n\n")
            if where != path:  # a list of commands shows the first paragraph only
                paragraphs = paragraphs[:1]
            for paragraph in paragraphs:
                line = " ".join(paragraph.split())
                assert line in shown, (path, where, line)


@pytest.mark.parametrize("name", ["vers-tavern", "vers-tavern-brawl.toml", "fabula-ambush"])
def test_a_mistyped_bundled_scenario_gets_the_closest_name(name: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.chdir(tmp_path)  # no such file here
    result = runner.invoke(app, ["run", name])
    said = " ".join(result.output.split())
    assert result.exit_code == 2
    closest = "fabula-ultima-ambush" if name.startswith("fabula") else "vers-tavern-brawl"
    assert f"{name}: no such scenario file; did you mean {closest!r}?" in said


@pytest.mark.parametrize("command", [["run"], ["new"], ["sim", "-n", "1"], ["import"]])
def test_a_folder_given_for_a_file_is_said_in_words(command: list[str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # before: "cannot read it: [Errno 21] Is a directory: 'fights'", the system's words
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fights").mkdir()
    result = runner.invoke(app, [*command, "fights", "--db", f"sqlite:///{tmp_path / 'f.db'}"]
                           if command[0] in ("new", "import") else [*command, "fights"])
    said = " ".join(result.output.split())
    assert result.exit_code == 2
    assert "fights: cannot read it: it is a folder, not a file" in said
    assert "Errno" not in said and not (tmp_path / "f.db").exists()


def test_table_links_say_what_is_missing_and_what_was_already_done(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    table = runner.invoke(app, ["table", "new", "Friday night", "--db", db]).stdout.split()[0]
    nameless = runner.invoke(app, ["table", "invite", table, "--db", db])
    assert nameless.exit_code == 2
    assert "--public for a read-only link, or --gm for a GM link" in \
        " ".join(nameless.output.split())
    assert runner.invoke(app, ["table", "invite", table, "alice", "--db", db]).exit_code == 0
    listed = runner.invoke(app, ["table", "links", table, "--db", db]).stdout
    link = next(line.split()[0] for line in listed.splitlines() if " alice " in line)
    first = runner.invoke(app, ["table", "revoke", table, link, "--db", db])
    assert first.exit_code == 0 and first.stdout.startswith(f"revoked {link} (player alice)")
    again = runner.invoke(app, ["table", "revoke", table, link, "--db", db])
    assert again.exit_code == 0, again.output
    assert f"{link} (player alice) was already revoked, at 20" in " ".join(again.stdout.split())


def test_table_new_says_the_link_is_shown_once_on_a_line_of_its_own(tmp_path: Path) -> None:
    """`fracas table new` broke its sentence at 80 columns, "shown once" alone on the next
    line, and at 60 the link itself (copied, it opened nothing): each sentence is now a line
    of its own, however long the title, and the link is one line."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    title = "The Novgorod campaign, Thursdays at Ada's, second season"
    made = runner.invoke(app, ["table", "new", title, "--db", db], env={"COLUMNS": "60"})
    assert made.exit_code == 0
    table, link = made.stdout.split()
    assert made.stderr.splitlines() == [f"created table {table} ({title})",
                                        "the GM's link (keep it secret; it is shown once):"]
    assert link.startswith("http://127.0.0.1:8000/join#")  # and whole: it was cut at 60
    assert len(link.split("#")[1]) >= 43, made.stdout


def test_a_campaign_that_is_not_a_table_says_how_to_make_it_one(tmp_path: Path) -> None:
    """Conflicts imported with --campaign under an id no table has in this database made a
    campaign no link opens, and `fracas table invite` said only "no table 't…'": it says
    what that id is, and `fracas table new TITLE --campaign ID` makes it the table."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    orphan = "t3a9f00c2b1e4"
    assert runner.invoke(app, ["new", TOY_FILE, "--campaign", orphan, "--db", db]).exit_code == 0
    refused = runner.invoke(app, ["table", "invite", orphan, "alice", "--db", db])
    assert refused.exit_code == 2 and refused.stdout == ""
    assert f"no table {orphan!r}: conflicts are kept under that name, but as a campaign, not " \
           f"a table (stored with --campaign where no table had that id); `fracas table new " \
           f"TITLE --campaign {orphan}` makes it a table" in " ".join(refused.stderr.split())
    made = runner.invoke(app, ["table", "new", "Friday night", "--campaign", orphan,
                               "--db", db])
    assert made.exit_code == 0 and made.stdout.split()[0] == orphan
    assert made.stderr.splitlines()[0] == f"campaign {orphan} is now a table (Friday night)"
    assert runner.invoke(app, ["table", "invite", orphan, "alice", "--db", db]).exit_code == 0
    listed = runner.invoke(app, ["list", "--table", "friday", "--db", db]).stdout
    assert "Brawl in the mill" in listed
    for args, said in ((["--campaign", orphan], f"a table {orphan!r} already exists"),
                       (["--campaign", "t0"], "no campaign 't0' in this database"),
                       (["--campaign", "Side plots"], "the campaign 'Side plots' cannot be a "
                                                      "table")):
        again = runner.invoke(app, ["table", "new", "Again", *args, "--db", db])
        assert again.exit_code == 2 and said in " ".join(again.stderr.split()), args
    nowhere = runner.invoke(app, ["table", "links", "t0", "--db", db])
    assert nowhere.exit_code == 2 and "error: no table 't0'" in nowhere.stderr
    assert "campaign" not in nowhere.stderr


def test_new_says_the_table_it_went_to_or_that_this_database_has_no_such_table(
        tmp_path: Path) -> None:
    """A GM who made their table with `bash scripts/run.sh` (its database .venv/table.db) ran
    `fracas new my.toml --campaign TABLE` on the default database: "created conflict … in
    campaign 't…'", as if at the table, which never showed it. The table is named when it
    is there; a table's id this database has no table of is warned about, saying where
    run.sh's table is; a table's title for its id is refused, storing nothing."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    table = runner.invoke(app, ["table", "new", "Saturday", "--db", db]).stdout.split()[0]
    there = runner.invoke(app, ["new", TOY_FILE, "--campaign", table, "--db", db])
    assert there.exit_code == 0, there.output
    assert f") at table Saturday ({table})" in " ".join(there.stderr.split())
    assert "warning" not in there.stderr
    for _ in range(2):  # the second time too: the campaign it made is still no table
        elsewhere = runner.invoke(app, ["new", TOY_FILE, "--campaign", "t3a9f00c2b1e4",
                                        "--db", db])
        assert elsewhere.exit_code == 0, elsewhere.output
        said = " ".join(elsewhere.stderr.split())
        assert f"warning: no table t3a9f00c2b1e4 in this database (sqlite:///{tmp_path}" in said
        assert "give the --db (or FRACAS_DB) of the `fracas serve` that holds the table" in said
        assert "scripts/run.sh` keeps its table in .venv/table.db" in said
        assert "in campaign 't3a9f00c2b1e4'" in said
    titled = runner.invoke(app, ["new", TOY_FILE, "--campaign", "saturday", "--db", db])
    assert titled.exit_code == 2 and titled.stdout == ""
    assert f"error: --campaign 'saturday' is the title of table Saturday ({table}): give its " \
           f"id, --campaign {table}" in " ".join(titled.stderr.split())
    listed = runner.invoke(app, ["list", "--json", "--db", db]).stdout
    assert len(json.loads(listed)) == 3


def test_the_seed_is_printed_as_it_is_typed_again() -> None:
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", "two words [x]"])
    assert result.exit_code == 0, result.output
    line = " ".join(result.output.splitlines()[0].split())
    assert line == "seed two words [x] (secret; --seed 'two words [x]' replays these rolls)"


def test_the_log_strikes_out_what_was_undone_for_every_viewer(tmp_path: Path) -> None:
    text = Path(TOY_FILE).read_text(encoding="utf-8").replace(
        "gob: hit ada\n", "gob: hit ada\nundo 2\nredo\n")
    path = tmp_path / "undone.toml"
    path.write_text(text, encoding="utf-8")
    for who in ([], ["--as", "alice"]):
        out = runner.invoke(app, ["run", str(path), "--seed", "7", *who]).output
        marked = [line.split()[1:] for line in out.splitlines() if "(undone)" in line]
        assert marked == [["gob:", "hit", "ada", "(undone)"]], (who, out)  # redo: the other


def test_free_text_of_a_script_line_is_checked_like_any_text(tmp_path: Path) -> None:
    # a note that would clear the GM's terminal (ESC [2J) is refused, as in the JSON form
    text = Path(TOY_FILE).read_text(encoding="utf-8").replace(
        "gob: hit ada\n", "gob: hit ada\nnote hello \\u001b[2J there\n")
    path = tmp_path / "esc.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["run", str(path), "--seed", "7"])
    assert result.exit_code == 2, result.output
    assert "note: text holds the control character U+001B" in " ".join(result.output.split())
    assert "\x1b" not in result.output


def test_the_terminal_log_writes_control_characters_as_their_codes() -> None:
    # no command lets them in now, but a store written before could hold one in a note
    from fracas.cli.render import entry_lines
    from fracas.engine.projector import Entry

    entry = Entry(number=3, version=3, depth=0, command="note 'hi\x1b[2J'",
                  events=(), lines=("hi\x1b[2J there\u202e", "\ud800"))
    _, _, command, lines = entry_lines(entry)
    assert command == "note 'hi\\u001b[2J'"
    assert lines == ["hi\\u001b[2J there\\u202e", "\\ud800"]


def test_a_bad_sim_table_is_refused_by_run_not_only_by_sim(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(TOY_FILE).read_text() + "\n[sim]\nmax_rounds = 0\n")
    for command in (["run", str(bad)], ["sim", str(bad), "-n", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "[sim] max_rounds must be a whole number from 1 to 10000" in \
            " ".join(result.output.split())
        assert "Traceback" not in result.output


@pytest.mark.parametrize("table, below, said", [
    ('policies = { heroes = "no-such-policy" }', 0,
     "[sim] policies for heroes: unknown policy 'no-such-policy': use one of random, "
     "focus-fire, weakest-first, defensive, flee, parley or module:function"),
    ('prologue = "undo"', 0, "[sim] prologue holds 'undo': a prologue is played straight "
                             "through at the start of every encounter and never taken back, "
                             "so it holds no undo"),
    ('prologue = """\nnote hi\ngm: redo\n"""', 2, "[sim] prologue holds 'gm: redo'"),
])
def test_a_sim_table_sim_would_refuse_is_refused_by_run_and_new_alike(
        tmp_path: Path, table: str, below: int, said: str) -> None:
    """Before: an unknown policy or an undo in the prologue passed 'fracas run' and 'fracas
    new' (stored), and 'fracas sim' refused the undo as 'record 3 ('') does not match its
    events'; now every door refuses the file, by line, in the same words, and stores nothing."""
    bad = tmp_path / "bad.toml"
    text = Path(TOY_FILE).read_text() + f"\n[sim]\n{table}\n"
    bad.write_text(text)
    line = text.splitlines().index("[sim]") + 2 + below  # the bad line of the table
    db = f"sqlite:///{tmp_path / 'f.db'}"
    for command in (["run", str(bad)], ["new", str(bad), "--db", db],
                    ["sim", str(bad), "-n", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        assert f"bad.toml:{line}: {said}" in " ".join(result.output.split()), command
        assert "Traceback" not in result.output
    listed = runner.invoke(app, ["list", "--db", db])
    assert "Brawl in the mill" not in listed.output


def test_a_campaign_name_with_control_characters_or_none_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.db'}"
    for campaign in ("a\x1bb", "a\u202eb", "", " "):
        result = runner.invoke(app, ["new", TOY_FILE, "--campaign", campaign, "--db", db])
        assert result.exit_code == 2, result.output
        assert "control character" in result.output or "the campaign is empty" in result.output
    listed = runner.invoke(app, ["list", "--db", db])
    assert listed.exit_code == 0 and "Brawl in the mill" not in listed.output


def test_commands_on_stored_conflicts_make_no_database_where_there_is_none(
        tmp_path: Path) -> None:
    db_file = tmp_path / "not" / "there.db"
    db = f"sqlite:///{db_file}"
    for command in (["do", "abcd1234", "note hi"], ["show", "abcd1234"], ["undo", "abcd1234"],
                    ["export", "abcd1234"], ["play", "abcd1234"]):
        result = runner.invoke(app, [*command, "--db", db])
        assert result.exit_code == 2, (command, result.output)
        assert "no database at" in " ".join(result.output.split()), command
    for command in (["list"], ["db", "info"]):
        result = runner.invoke(app, [*command, "--db", db])
        assert result.exit_code == 0, (command, result.output)
    assert not db_file.parent.exists()


def test_a_command_as_a_name_nobody_plays_is_refused_for_that_reason(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.db'}"
    made = runner.invoke(app, ["new", TOY_FILE, "--db", db])
    cid = made.output.split()[-1]
    for name, said in (("ALICE", "played by 'ALICE' (a player's name is lower-case)"),
                       ("zed", "played by 'zed': --as takes the player field")):
        result = runner.invoke(app, ["do", cid, "ada: note hi", "--as", name, "--db", db])
        assert result.exit_code == 2 and said in " ".join(result.output.split())
    shown = runner.invoke(app, ["show", cid, "--json", "--db", db])
    assert shown.exit_code == 0 and '"hi"' not in shown.output


def test_an_override_of_a_character_who_has_left_is_refused_and_not_stored(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.db'}"
    cid = runner.invoke(app, ["new", TOY_FILE, "--db", db]).output.split()[-1]
    assert runner.invoke(app, ["do", cid, "leave gob fled", "--db", db]).exit_code == 0
    before = runner.invoke(app, ["show", cid, "--json", "--db", db]).output
    result = runner.invoke(app, ["do", cid, "override gob.stats.hp 3", "--db", db])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "gob.stats.hp: Goblin has left the conflict" in " ".join(result.output.split())
    assert runner.invoke(app, ["show", cid, "--json", "--db", db]).output == before


def test_new_fresh_plays_only_the_opening_gm_commands_of_an_example(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.db'}"

    def version_of_new(*options: str) -> int:
        made = runner.invoke(app, ["new", "vers-tavern-brawl", "--db", db, *options])
        assert made.exit_code == 0, made.output
        shown = runner.invoke(app, ["show", made.stdout.split()[-1], "--json", "--db", db])
        return int(json.loads(shown.stdout)["version"])

    assert version_of_new("--fresh") == 2  # `open ada`, the script's head; her attack is next
    assert version_of_new() > 20  # the whole story of the brawl


def test_a_conflict_made_behind_the_screen_is_listed_so(tmp_path: Path) -> None:
    """`fracas new … --campaign TABLE --behind-screen` (and `import`) prepares a conflict the
    table's players do not see until the GM shows it; `fracas list` says which are."""
    db = f"sqlite:///{tmp_path / 'f.db'}"
    table = runner.invoke(app, ["table", "new", "Friday night", "--db", db]).stdout.split()[0]
    made = runner.invoke(app, ["new", "vers-tavern-brawl", "--fresh", "--campaign", table,
                               "--behind-screen", "--db", db])
    assert made.exit_code == 0, made.output
    assert f"at table Friday night ({table}), behind the screen" in " ".join(made.stderr.split())
    hidden = made.stdout.split()[-1]
    shown = runner.invoke(app, ["new", TOY_FILE, "--campaign", table, "--db", db])
    exported = runner.invoke(app, ["export", hidden, "--db", db]).stdout
    copy = runner.invoke(app, ["import", "-", "--new-id", "--behind-screen", "--db", db],
                         input=exported)
    assert copy.exit_code == 0 and "behind the screen" in copy.stderr, copy.output
    listed = json.loads(runner.invoke(app, ["list", "--json", "--db", db]).stdout)
    assert {c["id"]: c["shown"] for c in listed} == {
        hidden: False, shown.stdout.split()[-1]: True, copy.stdout.split()[-1]: False}
    lines = runner.invoke(app, ["list", "--db", db], env={"COLUMNS": "200"}).stdout.splitlines()
    rows = [line for line in lines if "Brawl at the Drowned Rat" in line]
    assert len(rows) == 2, lines
    assert all(row.rstrip().endswith("(behind the screen)") for row in rows), lines
    mill = next(line for line in lines if "Brawl in the mill" in line)
    assert "behind the screen" not in mill


@pytest.mark.rule("VR-TURN-3", "FU-CON-11")
def test_the_state_head_counts_in_the_games_words_and_prints_the_end_reason_as_typed(
        tmp_path: Path) -> None:
    """Before the first round the head says no 'round 0'; a VERS Turn is a turn, not a round;
    the GM's end reason is printed as typed, brackets and all (never read as markup)."""
    head = 'ruleset = "fabula-ultima"\ntitle = "Duel"\n'
    duel = ('[[participants]]\nid = "a"\nname = "A"\nside = "heroes"\n'
            'stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 30, mp = 10 }\n'
            '[[participants]]\nid = "b"\nname = "B"\nside = "foes"\n'
            'stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 30, mp = 10 }\n')
    fresh, ended = tmp_path / "fresh.toml", tmp_path / "ended.toml"
    fresh.write_text(head + "round_limit = 3\n" + duel)
    ended.write_text(head + 'script = """\nend \'[bold]truce[/] at dawn\'\n"""\n' + duel)
    result = runner.invoke(app, ["run", str(fresh)])
    assert result.exit_code == 0, result.output
    assert "Duel — setup, 3 rounds at most\n" in result.output
    result = runner.invoke(app, ["run", str(ended)])
    assert result.exit_code == 0, result.output
    assert "Duel — ended: [bold]truce[/] at dawn\n" in result.output
    brawl = runner.invoke(app, ["run", "vers-tavern-brawl"])
    assert "Brawl at the Drowned Rat — running, turn 2\n" in brawl.output


def test_undo_and_redo_count_what_is_left_in_words(tmp_path: Path) -> None:
    """`undo 99` said "only 2 command(s) can be undone": the count now agrees with its noun."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = runner.invoke(app, ["new", TOY_FILE, *db]).stdout.split()[-1]  # 5 script commands

    def refusal(*command: str) -> str:
        result = runner.invoke(app, [*command, cid, "99", *db])
        assert result.exit_code == 2 and "Traceback" not in result.output
        return " ".join(result.output.split())

    assert "only 5 commands can be undone, not 99" in refusal("undo")
    assert runner.invoke(app, ["undo", cid, "4", *db]).exit_code == 0
    assert "only 1 command can be undone, not 99" in refusal("undo")
    assert "only 4 commands can be redone, not 99" in refusal("redo")
    assert runner.invoke(app, ["redo", cid, "3", *db]).exit_code == 0
    assert "only 1 command can be redone, not 99" in refusal("redo")


@pytest.mark.rule("VR-TURN-1")
def test_the_vers_panel_names_the_turns_opener_once_and_writes_penalties_as_the_log_does(
        tmp_path: Path) -> None:
    """"Turn 1 · opened by Ada (turn 1)" said the turn twice, and the harm line wrote
    "(-1 to rolls)" where the log writes "−1"."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = runner.invoke(app, ["new", "vers-tavern-brawl", "--fresh", *db]).stdout.split()[-1]
    shown = runner.invoke(app, ["show", cid, *db])
    assert shown.exit_code == 0, shown.output
    assert "\n  Turn 1 · opened by Ada\n" in shown.output
    brawl = runner.invoke(app, ["run", "vers-tavern-brawl"]).output
    assert "wounded (−1 to rolls)" in brawl and "(-1 to rolls)" not in brawl
    assert "−1 wounded" in brawl  # the log's own sign


@pytest.mark.rule("VR-ROLL-1", "VR-MOVE-1")
def test_vers_refusals_start_lower_case_and_table_dice_that_do_not_fit_cite_the_rule(
        tmp_path: Path) -> None:
    """`link cellar nowhere` began "There is no zone" where every refusal starts lower-case;
    dice=7,7,7 for 3d6 was refused without a rule where dice=a,b,c cited one."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = runner.invoke(app, ["new", "vers-tavern-brawl", "--fresh", *db]).stdout.split()[-1]
    before = runner.invoke(app, ["show", cid, "--json", *db]).stdout
    said = {}
    for command in ("link cellar nowhere", "link bar bar", "ada: attack thug dice=7,7,7",
                    "ada: attack thug dice=1,2"):
        result = runner.invoke(app, ["do", cid, command, *db])
        assert result.exit_code == 2 and "Traceback" not in result.output, command
        said[command] = " ".join(result.output.split())
    assert "error: there is no zone 'cellar' on this battlefield" in said["link cellar nowhere"]
    assert "error: zone 'bar' cannot be linked to itself (VR-MOVE-1)" in said["link bar bar"]
    assert "die 1 shows 7, but a d6 shows 1 to 6 (3d6: [7, 7, 7]) (VR-ROLL-1)" in \
        said["ada: attack thug dice=7,7,7"]
    assert "3d6 needs 3 dice, got 2: [1, 2] (VR-ROLL-1)" in said["ada: attack thug dice=1,2"]
    assert runner.invoke(app, ["show", cid, "--json", *db]).stdout == before


ES_DUEL = '''ruleset = "etherscope"
title = "Duel"
script = """
ada: awareness successes=3
bruno: awareness successes=2
moves
ada: done
{more}"""
[settings]
time_scale = "tactical"
[[participants]]
id = "ada"
name = "Ada"
stats = {{ physical = 10, ether = 10, society = 10, awareness = 2 }}
[[participants]]
id = "bruno"
name = "Bruno"
stats = {{ physical = 10, ether = 10, society = 10, awareness = 2 }}
'''


@pytest.mark.rule("ES-ACT-1")
@pytest.mark.parametrize("more", ["", "round\ncountdown\nada: zoom bruno reason=duel\n"])
def test_the_etherscope_panel_before_the_first_round_says_so_not_round_0(
        tmp_path: Path, more: str) -> None:
    """A zoom-in (and the top level after the awareness moves) read "between rounds (round 0
    done)" and "round 0/5" before its first round."""
    path = tmp_path / "duel.toml"
    path.write_text(ES_DUEL.format(more=more), encoding="utf-8")
    result = runner.invoke(app, ["run", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    state = result.output.split("\n\n")[-1]  # the panel, after the log
    assert "round 0" not in state
    if more:
        assert "\n  zoomed in (depth 1) by Ada: duel, 5 rounds at most\n" in state


@pytest.mark.rule("ES-START-5", "ES-ROUND-1", "ES-ACT-1")
@pytest.mark.parametrize(("more", "said"), [
    ("", "before round 1: the GM starts it with 'round'\n"),
    ("round\ncountdown\nada: zoom bruno reason=duel\n", "before round 1: the GM starts it "
     "with 'round'; 'end REASON' returns to the conflict above\n"),
    ("round\ncountdown\nada: done\nbruno: done\n",
     "between rounds (round 1 done): the GM starts the next one with 'round'\n"),
])
def test_the_etherscope_panel_says_what_the_gm_types_next(
        tmp_path: Path, more: str, said: str) -> None:
    """The panel read "start: awareness still to roll: nobody", "before round 1" and "between
    rounds (round 1 done)", and left the GM at the terminal to guess the command that goes
    on: each now names it (and in a zoom-in, how to go back)."""
    path = tmp_path / "duel.toml"
    path.write_text(ES_DUEL.format(more=more), encoding="utf-8")
    result = runner.invoke(app, ["run", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"\n  {said}" in result.output.split("\n\n")[-1]
    path.write_text(ES_DUEL.split('script = """')[0] + ES_DUEL.split('"""', 2)[2].format(),
                    encoding="utf-8")
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = runner.invoke(app, ["new", str(path), *db]).stdout.split()[-1]
    for who in ("ada", "bruno"):
        runner.invoke(app, ["do", cid, f"{who}: awareness", *db])
    shown = runner.invoke(app, ["show", cid, *db], env={"COLUMNS": "200"}).stdout
    assert "\n  start: every awareness roll is made; after any ambushes and starting ranges the " \
           "GM's 'moves' begins the awareness moves\n" in shown


def test_new_refuses_a_bad_seed_without_warning_that_it_is_known(tmp_path: Path) -> None:
    """`new --seed` of 300 characters printed the "known seed" warning, then refused the seed
    (and a script refused after it the same): the warning is for a conflict stored."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    bad = tmp_path / "bad.toml"
    bad.write_text(Path(TOY_FILE).read_text().replace("ada: done gob", "gob: hit ada"))
    for args, said in ((["new", TOY_FILE, "--seed", "x" * 300], "the seed is 300 characters "
                        "long; at most"), (["new", str(bad), "--seed", "7"], "'gob: hit ada'")):
        result = runner.invoke(app, [*args, *db])
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert said in " ".join(result.output.split()), args
        assert "seed is known" not in result.output, args
    assert "no stored conflicts" in runner.invoke(app, ["list", *db]).stdout
    stored = runner.invoke(app, ["new", TOY_FILE, "--seed", "7", *db])
    assert stored.exit_code == 0
    assert "warning: this conflict's seed is known" in stored.stderr
    assert "Brawl in the mill" in runner.invoke(app, ["list", *db]).stdout


def test_scenarios_lines_their_titles_up_in_a_column() -> None:
    """`fracas scenarios` printed each title two spaces after its name, never in line."""
    from fracas.app.scenario import bundled_scenarios

    result = runner.invoke(app, ["scenarios"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["name", "title"]
    bundled = bundled_scenarios()
    rows = {line.split()[0]: line for line in lines[1:]}
    assert list(rows) == list(bundled)
    columns = {rows[name].index(title) for name, title in bundled.items()}
    assert len(columns) == 1 and max(len(line.rstrip()) for line in lines) <= 80


def test_version_is_an_option_too() -> None:
    """`fracas --version` was refused ("No such option"): it prints what `fracas version`
    prints, and runs no command given after it."""
    said = runner.invoke(app, ["version"])
    assert said.exit_code == 0 and said.output.startswith("fracas ")
    for args in (["--version"], ["--version", "run", "no-such-scenario"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        assert result.output == said.output


#: What only the commands on stored conflicts, `sim` and `serve` need: a command without a
#: store, simulator or server starts without loading them (0.7 s and more of every start).
STORE_SIM_SERVER = ("sqlalchemy", "alembic", "psycopg", "fracas.store", "fracas.sim",
                    "fracas.server", "fastapi", "starlette", "uvicorn", "prompt_toolkit")
#: What the dice and version commands do without: the engine and the rulesets.
ENGINE = ("fracas.engine", "fracas.rulesets", "fracas.app")


def _modules_loaded(*args: str) -> set[str]:
    """The modules a real ``fracas ARGS`` run imports (from ``python -X importtime``)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "from fracas.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2}


LIGHT_COMMANDS = [
    (["--version"], STORE_SIM_SERVER + ENGINE),
    (["version"], STORE_SIM_SERVER + ENGINE),
    (["--help"], STORE_SIM_SERVER + ENGINE),
    (["roll", "1d20"], STORE_SIM_SERVER + ENGINE),
    (["odds", "3d6", "--vs", "12"], STORE_SIM_SERVER + ENGINE),
    (["rules", "vers", "--id", "VR-ATK-5"], STORE_SIM_SERVER),
    (["scenarios"], STORE_SIM_SERVER),
    (["schema", "events", "--ruleset", "fabula-ultima"], STORE_SIM_SERVER),
    (["run", "etherscope-car-chase"], STORE_SIM_SERVER),
]


@pytest.mark.parametrize(("args", "never"), LIGHT_COMMANDS,
                         ids=[" ".join(args) for args, _ in LIGHT_COMMANDS])
def test_a_command_without_a_store_starts_without_loading_one(args: list[str],
                                                              never: tuple[str, ...]) -> None:
    loaded = _modules_loaded(*args)
    assert "fracas.cli.main" in loaded  # the real entry point ran
    assert sorted(m for m in loaded if m.startswith(never)) == []


def test_the_store_is_loaded_by_the_commands_that_use_it(tmp_path: Path) -> None:
    """The other side of the quick start: `fracas list` does load the store it reads."""
    loaded = _modules_loaded("list", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert "fracas.store" in loaded and "sqlalchemy" in loaded


def test_show_sheets_prints_each_characters_sheet_as_the_viewer_may_read_it(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.db'}"
    cid = runner.invoke(app, ["new", "vers-tavern-brawl", "--db", db]).output.split()[-1]
    gm = " ".join(runner.invoke(app, ["show", cid, "--sheets", "--db", db]).output.split())
    # the Thug's skills are GM-only in the example: marked for the GM, gone for Alice
    assert "skills: close combat 2, athletics 1 [GM only]" in gm
    alice = runner.invoke(app, ["show", cid, "--sheets", "--as", "alice", "--db", db])
    said = " ".join(alice.output.split())
    assert alice.exit_code == 0 and "close combat 2" not in said and "[GM only]" not in said
    assert "Ada (alice) strength 2 · agility 2 · intuition 1 · willpower 1 · RV 1 · reach 1 " \
        "skills: athletics 2, close combat 3, discipline 1 weapons: sword (EV 5, close), " \
        "knife (EV 2, thrown)" in said


@pytest.mark.rule("FU-CHK-5")
def test_show_sheets_says_what_a_player_reads_of_a_line_they_read_in_part(
        tmp_path: Path) -> None:
    """Before: Ada's bonds were "[GM only]" as a whole, though Alice reads her bond with Zed;
    only the one with the captain, concealed from her, is the GM's."""
    db = f"sqlite:///{tmp_path / 'f.db'}"
    text = load_scenario("fabula-ultima-ambush").text
    text = re.sub(r'(?s)script = """.*?"""', 'script = "conceal captain"', text, count=1)
    scenario = tmp_path / "ambush.toml"
    scenario.write_text(text.replace("bonds = { bruno = 2 }", "bonds = { captain = 2, zed = 1 }",
                                     1), encoding="utf-8")
    cid = runner.invoke(app, ["new", str(scenario), "--db", db]).output.split()[-1]
    gm = " ".join(runner.invoke(app, ["show", cid, "--sheets", "--db", db]).output.split())
    assert "bonds: Bandit Captain 2, zed 1 [alice reads: zed 1]" in gm, gm
    alice = runner.invoke(app, ["show", cid, "--sheets", "--as", "alice", "--db", db])
    assert "bonds: zed 1 Bruno" in " ".join(alice.output.split())


def test_the_seed_line_is_never_broken_in_a_narrow_terminal() -> None:
    # a stored conflict's seed is 64 hex digits: wider than a 60-column terminal; broken
    # into lines, a copy of it would be two words
    seed = "d2bcaba93fe1da988af4d1a175c8a7b689feab0625e81438b78f4a8a1d28714d"
    result = runner.invoke(app, ["run", TOY_FILE, "--seed", seed], env={"COLUMNS": "60"})
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        f"seed {seed} (secret; --seed {seed} replays these rolls)")


def test_a_wrapped_log_or_state_line_hangs_under_its_first_line(tmp_path: Path) -> None:
    # at 60 columns a log sentence or a line of the state that wraps goes on further in,
    # never back at the margin, where it read as a line (or an entry) of its own
    db = f"sqlite:///{tmp_path / 'x.db'}"
    cid = runner.invoke(app, ["new", "vers-tavern-brawl", "--db", db]).stdout.strip()
    out = runner.invoke(app, ["show", cid, "--db", db], env={"COLUMNS": "60"}).stdout
    log, state = out.split("\n\n", 1)
    # an entry, its command going on under itself, its sentences and theirs going on
    assert all(re.match(r"v\d+ +\S| {6,7}\S| {9}\S", line) for line in log.splitlines()), log
    assert any(line.startswith(" " * 9) for line in log.splitlines())  # one did wrap
    lines = state.splitlines()
    first = next(i for i, line in enumerate(lines) if re.match(r"  \S", line))
    below = lines[first:]  # the ruleset's lines and the odds, under the table
    assert all(re.match(r"  \S|    \S", line) for line in below), state
    assert any(line.startswith("    ") for line in below)
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 60


def test_raw_events_are_never_broken_into_lines(tmp_path: Path) -> None:
    # the events' text form is data: a narrow terminal (or a pipe, 80 columns) wraps it on
    # screen, but no line break is put into the text
    out = runner.invoke(app, ["run", "etherscope-car-chase", "--raw", "--seed", "1"],
                        env={"COLUMNS": "60"}).stdout
    assert ("conflict_created ruleset=etherscope title='A car chase' scene='You are chasing "
            "the escaping zepcar through the busy rush-hour lanes of the Great\n") in out


def test_do_with_a_name_for_an_id_names_the_id(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    cid = runner.invoke(app, ["new", "fabula-ultima-ambush", "--fresh", "--db", db]
                        ).stdout.strip()
    result = runner.invoke(app, ["do", cid, "cutthroat1: attack bruno", "--db", db])
    assert result.exit_code == 2
    assert ("error: no participant 'cutthroat1' in this conflict; did you mean 'cut1' "
            "(Cutthroat 1)?") in " ".join(result.output.split())


def test_an_unknown_command_says_where_the_commands_are_at_each_door(tmp_path: Path) -> None:
    """``fracas do`` sends a GM to the ruleset's guide; the engine's own refusal names no door
    (the browser read "the ruleset's guide in docs/" beside its own advice, the prompt beside
    "Tab completes the commands")."""
    db = f"sqlite:///{tmp_path / 'x.db'}"
    cid = runner.invoke(app, ["new", "fabula-ultima-ambush", "--fresh", "--db", db]
                        ).stdout.strip()
    result = runner.invoke(app, ["do", cid, "qzxw", "--db", db])
    assert result.exit_code == 2
    assert ("error: unknown command 'qzxw'; the ruleset's guide in docs/ lists the commands"
            in " ".join(result.output.split()))
    conflict = load_scenario("fabula-ultima-ambush")
    with pytest.raises(FracasError) as refused:
        play_script(conflict, "seed").parse("qzxw")
    assert str(refused.value) == "unknown command 'qzxw'"


def test_a_wrapped_sheet_line_hangs_under_its_first_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    cid = runner.invoke(app, ["new", "fabula-ultima-ambush", "--fresh", "--db", db]
                        ).stdout.strip()
    out = runner.invoke(app, ["show", cid, "--sheets", "--db", db],
                        env={"COLUMNS": "60"}).stdout
    sheets = out.rsplit("\n\n", 1)[1].splitlines()
    assert sheets[0] == "Ada (alice)"
    # a character's name, its sheet's lines, and what goes on below one of them
    assert all(re.match(r"\S|  \S|    \S", line) for line in sheets), sheets
    assert any(line.startswith("    ") for line in sheets)


#: The car chase up to Ada's zoom onto the zepcar's roof (Bruno stays in the chase).
CHASE_TO_ZOOM = ["ada: awareness dice=5,6,1", "bruno: awareness dice=5,2",
                 "zepcar: awareness dice=2,3", "moves", "ada: done", "bruno: done", "round",
                 "countdown", "ada: zoom zepcar reason='onto the roof'"]


def _chase_in_a_zoom(db: list[str]) -> str:
    cid = runner.invoke(app, ["new", "etherscope-car-chase", "--fresh", *db]).stdout.split()[-1]
    for command in CHASE_TO_ZOOM:
        done = runner.invoke(app, ["do", cid, command, *db])
        assert done.exit_code == 0, (command, done.output)
    return cid


@pytest.mark.rule("ES-ACT-1")
def test_the_panel_says_who_watches_a_zoom_in_and_that_its_parent_waits(
        tmp_path: Path) -> None:
    """At the terminal a player whose character stayed out of a zoom-in read its panel with no
    word that they only watch it (the browser's page says so), and the parent's countdown
    still read "acting now: Ada" with nothing saying that play had moved into the zoom."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = _chase_in_a_zoom(db)
    wide = {"COLUMNS": "200"}
    bob = runner.invoke(app, ["show", cid, "--as", "bob", *db], env=wide).stdout
    assert "\nBruno is not in this zoomed-in conflict: you are watching it until play returns " \
           "to A car chase.\n" in bob
    alice = runner.invoke(app, ["show", cid, "--as", "alice", *db], env=wide).stdout
    gm = runner.invoke(app, ["show", cid, *db], env=wide).stdout
    assert "watching" not in alice and "watching" not in gm
    for panel in (bob, alice, gm):
        parent, _, zoom = panel.partition("zoomed-in conflict — ")
        assert parent.rstrip().endswith(
            "paused: play goes on in the zoomed-in conflict below until it ends"), panel
        assert "paused" not in zoom
    refused = runner.invoke(app, ["do", cid, "bruno: attack zepcar", "--as", "bob", *db])
    assert refused.exit_code == 2 and "error: Bruno is not in this zoomed-in conflict: play " \
        "returns to A car chase when it ends" in " ".join(refused.output.split())
    runner.invoke(app, ["do", cid, "end 'back in the car'", *db])
    assert "paused" not in runner.invoke(app, ["show", cid, *db]).stdout


def test_a_piped_log_keeps_the_mark_of_a_dropped_die(tmp_path: Path) -> None:
    """`fracas do`/`show` into a pipe or a file showed '[3, 17]' for 2d20kh1: the strike of
    the dropped 3 is a terminal style, gone without a terminal, so the 3 read as kept. Piped,
    the log writes the marks as `fracas roll` does."""
    db = ["--db", f"sqlite:///{tmp_path / 'f.db'}"]
    cid = runner.invoke(app, ["new", "vers-tavern-brawl", "--fresh", *db]).stdout.split()[-1]
    done = runner.invoke(app, ["do", cid, "roll 2d20kh1+5 dice=3,17", *db])
    assert done.exit_code == 0, done.output
    assert "[~~3~~, 17] + 5 = 22" in done.output
    assert "[~~3~~, 17] + 5 = 22" in runner.invoke(app, ["show", cid, *db]).output


@pytest.mark.rule("FU-RES-3")
def test_a_refused_spell_names_the_line_of_its_sheets_spells(tmp_path: Path) -> None:
    """Before: a spell with an unknown target, a name given twice or no name pointed at the
    participant's stats line, far above the spell that was wrong."""
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "fabula-ultima"\n[[participants]]\nid = "ada"\nside = "heroes"\n'
                   '[participants.stats]\ndex = 8\nins = 8\nmig = 8\nwlp = 8\nhp = 40\nmp = 30\n'
                   'spells = [\n  { name = "Fire", mp = 10, damage = 10 },\n'
                   '  { name = "Heal", mp = 5, target = "friend" },\n]\n'
                   '[[participants]]\nid = "bo"\nside = "foes"\n'
                   'stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 30 }\n')
    assert bad.read_text().splitlines()[11].startswith("spells = [")  # line 12
    result = runner.invoke(app, ["run", str(bad)])
    assert result.exit_code == 2
    assert "bad.toml:12: ada: Heal: target is one of foe, ally, self, none" in " ".join(
        result.output.split())
