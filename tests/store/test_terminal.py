"""At the terminal: dice marks as styles, `watch` with the state panel of `play`, the prompt's
keys and unknown prompt commands, and one warning for `--as` a name nobody plays."""

from __future__ import annotations

import json
import re

import pexpect
import pytest
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario
from fracas.app.service import ConflictService
from fracas.cli import app
from fracas.engine.model import Viewer
from fracas.store import SqlEventStore
from tests.store.conftest import TOY_SCENARIO, spawn_fracas

runner = CliRunner()


def test_dice_marks_are_plain_text_when_piped() -> None:
    """Successes are plain numbers piped (a dropped die keeps its ~~mark~~: tests/test_cli.py,
    test_a_piped_log_keeps_the_mark_of_a_dropped_die)."""
    result = runner.invoke(app, ["run", "etherscope-car-chase"])
    assert result.exit_code == 0
    assert "**" not in result.output and "~~" not in result.output
    assert "3d6>=5 → [5, 6, 1] = 2" in result.output


@pytest.mark.timeout(60)
def test_dice_marks_are_styles_on_a_terminal() -> None:
    child = spawn_fracas("run", "etherscope-car-chase", width=160)
    try:
        child.expect(pexpect.EOF)
        out = child.before
    finally:
        child.close(force=True)
    assert "**" not in out and "~~" not in out
    assert "\x1b[1;32m5\x1b[0m" in out  # a success in bold green


@pytest.mark.timeout(90)
def test_watch_shows_the_state_panel_at_once_and_keeps_it_live(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("watch", cid, "--as", "alice", "--timeout", "30", "--db", sqlite_url,
                         width=120)
    try:
        child.expect("HP 30/30")  # the current state, before anything happens
        child.expect("following")
        service.execute(cid, "ada: hit bruno dice=4", Viewer.of_player("alice"))
        child.expect("ada: hit bruno dice=4")
        child.expect("HP 26/30")  # the panel again, up to date
    finally:
        child.close(force=True)
    store.close()


def words(text: str) -> str:
    """A pattern of ``text`` as the terminal may show it: broken across lines anywhere
    between its words."""
    return r"\s+".join(re.escape(word) for word in text.split())


@pytest.mark.timeout(90)
def test_prompt_keys_and_unknown_prompt_commands(sqlite_url: str) -> None:
    store = SqlEventStore(sqlite_url)
    service = ConflictService(store)
    cid, _ = service.new_from_scenario(load_scenario(TOY_SCENARIO))
    child = spawn_fracas("play", cid, "--db", sqlite_url)
    try:
        child.expect("v2>")
        child.send(":undoo\r")
        child.expect("unknown prompt command")
        # the help after the question is a sentence of its own (it read "?; commands in")
        child.expect(words(":undoo; did you mean ':undo'? Commands in text notation"))
        child.expect("v2>")
        child.send("qzxw\r")  # an unknown verb: the prompt's own advice follows
        child.expect(words("unknown command 'qzxw'; Tab completes the commands"))
        child.expect("v2>")
        child.send("ada: hti bruno\r")  # a typo: after its question, never "?;"
        child.expect(words("unknown command 'hti'; did you mean 'hit'? Tab completes the "
                           "commands"))
        child.expect("v2>")
        child.send("note half typed")
        child.expect("half typed")
        child.send("\x03")  # Ctrl-C: the line is cleared, the prompt stays
        child.expect("v2>")
        child.send("\x04")  # Ctrl-D: quit
        child.expect("stored at version 2")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert store.info(cid).version == 2  # nothing half typed was stored
    store.close()


WARNING = "warning: nobody in this conflict is played by 'zed'; showing what an onlooker sees"


def test_as_a_name_nobody_plays_warns_alike_in_every_command(sqlite_url: str) -> None:
    cid = runner.invoke(app, ["new", str(TOY_SCENARIO), "--db", sqlite_url]).stdout.strip()
    db = ["--db", sqlite_url]
    said = {
        "run": runner.invoke(app, ["run", str(TOY_SCENARIO), "--as", "zed"]),
        "show": runner.invoke(app, ["show", cid, "--as", "zed", *db]),
        "watch": runner.invoke(app, ["watch", cid, "--as", "zed", "--timeout", "0.1", *db]),
    }
    for command, result in said.items():
        text = " ".join(result.stderr.split())
        assert WARNING in text, command
        assert "alice" not in text, command  # never a list of the players
    # a command as a name nobody plays could only be refused: it is, for that reason
    done = runner.invoke(app, ["do", cid, "ada: hit bruno", "--as", "zed", *db])
    text = " ".join(done.stderr.split())
    assert done.exit_code == 2 and "nobody in this conflict is played by 'zed'" in text
    assert "alice" not in text


def test_watch_since_takes_an_entry_number_as_the_docs_write_it(sqlite_url: str) -> None:
    cid = runner.invoke(app, ["new", str(TOY_SCENARIO), "--db", sqlite_url]).stdout.strip()
    db = ["--db", sqlite_url]
    runner.invoke(app, ["do", cid, "note 'the fire crackles'", *db])
    shown = {since: runner.invoke(app, ["watch", cid, "--as", "alice", "--since", since,
                                        "--timeout", "0.1", *db]) for since in ("#1", "1")}
    assert shown["#1"].exit_code == 0, shown["#1"].output  # before: not a valid integer
    assert shown["#1"].stdout == shown["1"].stdout
    assert "the fire crackles" in shown["#1"].stdout and "#1 " not in shown["#1"].stdout
    bad = runner.invoke(app, ["watch", cid, "--since", "#x", "--timeout", "0.1", *db])
    assert bad.exit_code == 2 and "not a version or entry number" in bad.output


@pytest.mark.parametrize("timeout", ["-1", "0", "nan"])
def test_watch_refuses_a_timeout_that_is_not_above_0_before_doing_anything(
        sqlite_url: str, timeout: str) -> None:
    """`watch --timeout -1` (or 0) was taken, showed the panel and stopped at once."""
    cid = runner.invoke(app, ["new", str(TOY_SCENARIO), "--db", sqlite_url]).stdout.strip()
    result = runner.invoke(app, ["watch", cid, "--timeout", timeout, "--db", sqlite_url])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())
    assert f"Invalid value for '--timeout': {timeout} is not a number of seconds above 0; " \
           "leave --timeout out to follow until Ctrl-C" in said
    assert "following" not in said and "HP" not in said  # nothing shown, nothing followed


def test_a_conflict_new_makes_without_campaign_is_in_the_stores_default_one(
        sqlite_url: str) -> None:
    """`fracas new` names its default campaign itself (it loads no store to start): a conflict
    it makes lands beside one the server makes without a campaign, and `list --campaign`
    finds both under that name."""
    store = SqlEventStore(sqlite_url)
    ConflictService(store).new_from_scenario(load_scenario(TOY_SCENARIO))  # the store's default
    made = runner.invoke(app, ["new", str(TOY_SCENARIO), "--db", sqlite_url])
    (campaign,) = {info.campaign for info in store.list()}
    assert f"in campaign {campaign!r}" in made.stderr
    listed = runner.invoke(app, ["list", "--campaign", campaign, "--json", "--db", sqlite_url])
    assert len(json.loads(listed.stdout)) == 2
    store.close()
