"""Scenario files: valid ones load with their script; invalid ones name file, line and key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.errors import InvalidInput
from tests.support import helpers  # noqa: F401  (registers the toy ruleset its files name)

TOY_FILE = Path(__file__).parent.parent / "support" / "toy-brawl.toml"


def test_a_scenario_loads_with_its_script_and_line_numbers() -> None:
    sc = load_scenario(TOY_FILE)
    assert sc.setup.ruleset == "toy"
    assert [p.id for p in sc.setup.participants] == ["ada", "gob"]
    lines = TOY_FILE.read_text().splitlines()
    for step in sc.script:
        assert lines[step.line - 1].strip() == step.text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('ruleset = "toy"\ncolour = 3\n', r"x\.toml:2: unknown key 'colour'"),
        ('ruleset = "toy"\ngm_only_settings = ["twist"]\n',
         r"x\.toml:2: unknown key 'gm_only_settings'.*goes under \[settings\]"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\n\n[[participants]]\n'
         'id = "Bad Id"\nname = "B"\n', r"x\.toml:7: participants\.1\.id: 'Bad Id' is not an id: "
         r"an id is lower-case letters, digits, '_' and '-'"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\nkind = "dragon"\n',
         r"x\.toml:5: participants\.0\.kind"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\n[[participants]]\n'
         'id = "ada"\nname = "Twin"\n', "used twice"),
        ("ruleset = \n", "not valid TOML"),
        ('ruleset = "toy"\nround_limit = true\n', r"x\.toml:2: round_limit: Input should be a "
         "valid integer"),  # not read as 1
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\nplayer = "Alice"\n',
         "'Alice' is not a player's name: a player's name is lower-case letters"),
        ('ruleset = "toy"\nscript = 5\n', r"x\.toml:2: script must be a string"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\ngm_only = ["hp"]\n',
         "gm_only names stats ada does not have"),
    ],
)
def test_invalid_files_name_the_file_line_and_key(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_scenario(text, "x.toml")


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such scenario file"):
        load_scenario(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\nstats = { hp = nan }\n',
         "stats.hp holds nan"),
        ('ruleset = "toy"\n[settings]\nodds = inf\n', "settings.odds holds inf"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Ada"\nplayer = "gm"\n',
         "'gm' is a viewer role"),
    ],
)
def test_numbers_a_table_cannot_use_and_reserved_names_are_refused(
    text: str, message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_scenario(text, "x.toml")


def test_a_file_saved_with_a_byte_order_mark_loads() -> None:
    # as some Windows editors save UTF-8
    sc = parse_scenario("\ufeff" + TOY_FILE.read_text(encoding="utf-8"), "bom.toml")
    assert [p.id for p in sc.setup.participants] == ["ada", "gob"]


AMBUSH = """
ruleset = "vers"
title = "The warehouse"
[settings]
zones = [{ id = "dock" }, { id = "catwalk" }]
links = [["dock", "catwalk"]]
[[participants]]
id = "ada"
kind = "pc"
player = "alice"
stats = { zone = "dock" }
[[participants]]
id = "rook"
stats = { zone = "dock" }
[[participants]]
id = "zqvex"
name = "Zqsniper Vex"
hidden = true
gm_only = ["weapons"]
stats = { zone = "catwalk", weapons = { rifle = { ev = 7, kind = "ranged" } } }
"""


def test_one_hidden_at_the_start_leaves_no_trace_in_a_players_log_until_revealed() -> None:
    """``hidden = true`` keeps a participant out of the set-up record every player reads (its
    sheet and the count of participants): it joins concealed right after, as
    ``join … hidden=yes``; before, one listed and then concealed had been seen set up."""
    from fracas.app.script import play_script
    from fracas.engine import Viewer
    from fracas.engine.views import log_view, view

    c = play_script(parse_scenario(AMBUSH, "ambush.toml"), "seed", time=None)
    alice = Viewer.of_player("alice")
    seen = json.dumps(log_view(c, alice)) + json.dumps(view(c, alice))
    assert "zq" not in seen.lower()
    assert log_view(c, alice)[0]["lines"] == ["conflict set up: The warehouse (2 participants)"]
    assert [r.command.split(" ")[0] for r in c.records] == ["create", "join"]
    assert "zqvex" in c.state.concealed and c.state.participants["zqvex"].stats["zone"] == \
        "catwalk"
    c.execute("reveal zqvex", time=None)
    assert "Zqsniper Vex" in json.dumps(view(c, alice))


@pytest.mark.parametrize("line, said", [
    ("hidden = 1", "participants.2.hidden"),
    ('hidden = "yes"', "participants.2.hidden"),
])
def test_hidden_takes_true_or_false(line: str, said: str) -> None:
    with pytest.raises(InvalidInput, match=said):
        parse_scenario(AMBUSH.replace("hidden = true", line), "ambush.toml")


def test_settings_naming_one_hidden_at_the_start_are_refused_with_how_to_give_them() -> None:
    """A guard posted in the set-up by one hidden at the start would stand in the set-up
    every player reads (VERS's battlefield is shown to all): refused, saying to post it in
    the script once it has joined."""
    from fracas.app.script import run_script

    text = AMBUSH.replace('links = [["dock", "catwalk"]]', 'links = [["dock", "catwalk"]]\n'
                          'guards = [{ who = "zqvex", between = ["dock", "catwalk"] }]')
    run = run_script(parse_scenario(text, "ambush.toml"), "seed")
    assert run.conflict is None and run.error is not None
    assert run.error.message.startswith("ambush.toml:7: the settings name zqvex, hidden from "
                                        "the players at the start")
    assert "in the script, once they have joined" in run.error.message


def test_a_side_only_one_hidden_at_the_start_is_on_is_not_named_to_the_players() -> None:
    """The harm view the GM set for the assassins, whose only member is hidden, is kept from
    the players' set-up and settings until the sniper is revealed: its name would tell them
    of a side they have not met."""
    from fracas.app.script import play_script
    from fracas.engine import Viewer
    from fracas.engine.views import log_view, view

    text = AMBUSH.replace('name = "Zqsniper Vex"', 'name = "Zqsniper Vex"\nside = "zqassassins"')
    text = text.replace("[settings]", '[settings]\nharm_view = { zqassassins = "none" }')
    c = play_script(parse_scenario(text, "ambush.toml"), "seed", time=None)
    alice = Viewer.of_player("alice")
    assert "zq" not in (json.dumps(log_view(c, alice)) + json.dumps(view(c, alice))).lower()
    assert view(c, Viewer.gm())["conflict"]["settings"]["harm_view"]["zqassassins"] == "none"
    c.execute("reveal zqvex", time=None)
    assert view(c, alice)["conflict"]["settings"]["harm_view"]["zqassassins"] == "none"


NOT_UTF8 = ("the file is not UTF-8 text (this line holds a character that cannot be read: a "
            "file saved as ANSI, Latin-1 or UTF-16, or no text file at all); save it as UTF-8")


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nname = "Renée"\n'.encode("cp1252"), 4),
        ('ruleset = "toy"\n'.encode("utf-16"), 1),  # as Notepad's "Unicode"
        (bytes(range(256)) * 4, 1),  # no text at all
    ],
)
def test_a_file_that_is_not_utf8_is_refused_by_line_as_its_upload_is(
    tmp_path: Path, data: bytes, line: int
) -> None:
    # The browser reads an upload as UTF-8, putting U+FFFD for what it cannot read: the upload
    # stored "Ren\ufffde" for Renée, and fracas run said "'utf-8' codec can't decode byte 0xe9".
    path = tmp_path / "friday.toml"
    path.write_bytes(data)
    with pytest.raises(InvalidInput) as cli:
        load_scenario(path)
    assert cli.value.message == f"{path}:{line}: {NOT_UTF8} (in most editors: Save as…, " \
                                "Encoding: UTF-8)"
    with pytest.raises(InvalidInput) as upload:
        parse_scenario(data.decode("utf-8", errors="replace"), "upload.toml")
    assert upload.value.message == cli.value.message.replace(str(path), "upload.toml")


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ('ruleset = "toy"\ntitle = "The salon\nscene = "x"\n',
         'x.toml:2: not valid TOML: a quoted text is not closed on this line: end it with the '
         'quote it opens with (a text over several lines goes between triple quotes """ … """) '
         '(column 19)'),
        ('ruleset = "toy"\nscript = """\nround\n',
         "x.toml:2: not valid TOML: the text opened with triple quotes on this line is never "
         "closed: end it with the same triple quotes"),
        ('ruleset = "toy"\n[settings]\nzones = ["pier", "yard"\n\n[[participants]]\nid = "a"\n',
         "x.toml:3: not valid TOML: a list [ … ] is not closed: a ']' is missing at its end (or "
         "a ',' between two of its values)"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nstats = { hp = 3\n',
         "x.toml:4: not valid TOML: a table { … } is not closed on this line"),
        ('ruleset = "toy"\n[settings]\na = 1\n[settings]\nb = 2\n',
         "x.toml:4: not valid TOML: [settings] is there twice: put all of its keys under one "
         "[settings]"),
        ('ruleset = "toy"\ntitle = “Salon”\n', "x.toml:2: not valid TOML: typographic quotes"),
        ('ruleset: "toy"\n', "x.toml:1: not valid TOML: a key is followed by '='"),
        ('ruleset = toy\n', "x.toml:1: not valid TOML: the value here is not one TOML reads: a "
         'text goes in straight quotes (name = "Ada")'),
    ],
)
def test_a_file_that_is_no_toml_names_the_line_to_mend_in_plain_words(
    text: str, start: str
) -> None:
    # tomllib's own words put the line in brackets at the end, and said "Illegal character
    # '\n'" for a quote left open, or "Unclosed array" on the line after the list
    with pytest.raises(InvalidInput) as exc:
        parse_scenario(text, "x.toml")
    assert exc.value.message.startswith(start)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\nsied = "heroes"\n',
         "x.toml:4: participants.0.sied: unknown key; did you mean 'side'? (a participant has "
         "id, name, kind, side, player, stats, gm_only, hidden)"),  # "Extra inputs are not
        ('ruleset = "toy"\n[[participants]]\nname = "Ada"\n',  # permitted"
         "x.toml:2: participants.0.id: missing: every participant has an id = \"…\""),
        ('title = "x"\n[settings]\nruleset = "toy"\n',  # "ruleset: Field required", line 1
         'x.toml: ruleset is missing: a scenario names the rules it plays by, ruleset = "…" ('),
        ("# Friday\n", "x.toml: the file holds nothing: a scenario holds at least ruleset"),
        ('ruleset = "toy"\nparticipants = ["ada", "bo"]\n',  # "a valid dictionary or
         "x.toml:2: participants.0: a participant is a table of its own: write "  # instance
         "[[participants]] with id"),  # of ParticipantSetup"
        ('ruleset = "toy"\n[participants]\nid = "ada"\n',  # "Input should be a valid list"
         "x.toml:2: participants: participants is a list: write [[participants]] (double "
         "brackets) above each participant"),
        ('ruleset = "toy"\n[[participants]]\nid = "ada"\n\n[[participants]]\nid = "ada"\n',
         "x.toml:6: participants.1.id: participant id 'ada' is used twice (first on line 3); "
         "give each participant an id of its own"),  # was line 1
        ('ruleset = "toy"\nsides = ["heroes", "court"]\n[[participants]]\nid = "ada"\n'
         'side = "heroes"\n[[participants]]\nid = "imp"\nside = "cort"\n',
         "x.toml:8: participants.1.side: 'cort' is not one of the sides (heroes, court); did "
         "you mean 'court'? (a side of its own goes in sides too)"),  # was a third side
    ],
)
def test_a_mistake_in_a_participant_entry_says_what_to_write_on_its_line(
        text: str, said: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_scenario(text, "x.toml")
    assert exc.value.message.startswith(said)


def test_a_side_of_its_own_beside_the_listed_ones_is_still_added() -> None:
    sc = parse_scenario('ruleset = "toy"\nsides = ["heroes"]\n[[participants]]\nid = "ada"\n'
                        'side = "heroes"\n[[participants]]\nid = "wolf"\nside = "wilds"\n',
                        "x.toml")
    assert sc.setup.sides == ["heroes", "wilds"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('ruleset = "toy"\nround_limt = 6\n',  # was: "…; known keys: …, (a setting such as
         "x.toml:2: unknown key 'round_limt'; did you mean 'round_limit'?"),  # goes under…)"
        ('ruleset = "toy"\n\n[[participant]]\nid = "ada"\n',  # was line 1
         "x.toml:3: unknown key 'participant'; did you mean 'participants'?"),
    ],
)
def test_a_mistyped_top_level_key_names_the_closest(text: str, said: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_scenario(text, "x.toml")
    assert exc.value.message == said


@pytest.mark.rule("VR-MOVE-1", "VR-ATK-5")
@pytest.mark.parametrize(
    ("change", "said"),
    [
        ('links = [["dock", "catwalk"]]', 'links = [["dock", "catwlk"]]'),
        ('links = [["dock", "catwalk"]]', 'links = [["dock", "catwalk"]]\n'
         'objects = [{ id = "crate", material = "wood", zone = "catwalk" }]\n'
         'cover = [{ who = "rook", value = 3, object = "crate" }]'),
    ],
)
def test_a_refused_battlefield_setting_names_its_line(change: str, said: str) -> None:
    """VERS's zones, links, objects, guards and cover were refused with no line."""
    from fracas.app.script import run_script

    text = AMBUSH.replace("hidden = true\n", "").replace(change, said)
    run = run_script(parse_scenario(text, "v.toml"), "seed")
    assert run.error is not None
    wanted = said.splitlines()[-1].split(" =")[0]  # links, or cover
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(wanted + " ="))
    assert run.error.message.startswith(f"v.toml:{line}: settings.{wanted}")
