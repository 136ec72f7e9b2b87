"""Every command has a text form and a JSON form that round-trip; junk is refused clearly."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.engine import Command
from fracas.engine.commands import split_words
from fracas.engine.conflict import command_set
from fracas.errors import FracasError, InvalidInput
from tests.support.helpers import TOY, toy_conflict

COMMANDS = command_set(TOY)
ids = st.sampled_from(["ada", "bruno", "gob"])
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                max_size=30).filter(lambda s: s.strip() == s and s != "")


def commands() -> st.SearchStrategy[Command]:
    return st.one_of(
        st.builds(lambda t, d: Command("hit", "ada", {"target": t, **d}), ids,
                  st.one_of(st.just({}), st.builds(lambda v: {"dice": [v]},
                                                   st.integers(1, 6)))),
        st.builds(lambda t: Command("done", "bruno", {"to": t}), ids),
        st.builds(lambda t, v: Command("note", None, {"text": t, "visibility": v}), texts,
                  st.sampled_from(["public", "gm"])),
        st.builds(lambda n: Command("undo", None, {"steps": n}), st.integers(1, 99)),
        st.builds(lambda p, v: Command("override", None, {"path": p, "value": v}),
                  st.sampled_from(["ada.stats.hp", "ext.hp.gob.current"]),
                  st.one_of(st.integers(-5, 50), texts, st.booleans())),
    )


@given(commands())
def test_text_form_round_trips(cmd: Command) -> None:
    parsed = COMMANDS.parse(COMMANDS.to_text(cmd))
    assert COMMANDS.to_text(parsed) == COMMANDS.to_text(cmd)
    assert parsed == COMMANDS.from_data(cmd.to_data())


@pytest.mark.parametrize("value, text", [
    ("band", "override settings.harm_view.heroes band"),  # as the GM would type it
    ("12", """override settings.harm_view.heroes '"12"'"""),  # bare, it would be a number
    ("true", """override settings.harm_view.heroes '"true"'"""),
    (12, "override settings.harm_view.heroes 12"),
    ("two words", "override settings.harm_view.heroes 'two words'"),
])
def test_a_value_is_written_as_typed_unless_it_would_read_back_as_another(
        value: object, text: str) -> None:
    cmd = Command("override", None, {"path": "settings.harm_view.heroes", "value": value})
    assert COMMANDS.to_text(cmd) == text
    assert COMMANDS.parse(text).args["value"] == value


@given(st.text(max_size=60))
def test_any_string_either_parses_or_is_refused_with_the_engines_error(text: str) -> None:
    c = toy_conflict()
    try:
        c.parse(text)
    except FracasError as exc:
        assert str(exc)


@given(st.text(max_size=40))
def test_any_string_given_as_a_command_is_applied_or_refused_cleanly(text: str) -> None:
    c = toy_conflict()
    c.execute("start ada")
    try:
        c.execute(text)
    except FracasError:
        assert c.version == 2


def test_parse_errors_say_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="unknown command 'fly'"):
        COMMANDS.parse("ada: fly")
    with pytest.raises(InvalidInput, match="needs an actor"):
        COMMANDS.parse("hit gob")
    with pytest.raises(InvalidInput, match=r"dice must be dice faces.*\(TOY-5\)"):
        COMMANDS.parse("ada: hit gob dice=x")
    with pytest.raises(InvalidInput, match=r"\(TOY-5\)"):
        COMMANDS.from_data({"actor": "ada", "verb": "hit", "args": {"target": "gob", "x": 1}})
    with pytest.raises(InvalidInput, match="missing target"):
        COMMANDS.parse("ada: hit")
    with pytest.raises(InvalidInput, match="GM command"):
        COMMANDS.parse("ada: undo")
    with pytest.raises(InvalidInput, match="cannot read"):
        COMMANDS.parse("note 'unclosed")


@pytest.mark.parametrize("typed", ["dice=5,6,2", "dice='5 6 2'", "dice='5, 6, 2'",
                                   'dice="5,6 2"', "dice=5,,6,2,"])
def test_dice_typed_in_may_be_parted_by_commas_or_spaces(typed: str) -> None:
    """Dice read off the table as a player says them ("5 6 2") are the same dice as 5,6,2;
    the log writes them back with commas."""
    cmd = COMMANDS.parse(f"ada: hit gob {typed}")
    assert cmd.args["dice"] == [5, 6, 2]
    assert COMMANDS.to_text(cmd) == "ada: hit gob dice=5,6,2"


def test_json_form_is_validated_like_the_text_form() -> None:
    assert COMMANDS.from_data({"actor": "ada", "verb": "hit", "args": {"target": "gob"}}) == \
        COMMANDS.parse("ada: hit gob")
    with pytest.raises(InvalidInput, match="unknown argument"):
        COMMANDS.from_data({"actor": "ada", "verb": "hit", "args": {"target": "gob", "x": 1}})
    with pytest.raises(InvalidInput, match="must be a JSON object"):
        COMMANDS.from_data(["hit"])


@pytest.mark.parametrize("args, refusal", [
    ({"steps": "1"}, "undo: steps must be a whole number, got text"),
    ({"steps": True}, "undo: steps must be a whole number, got true"),
    ({"steps": 1.5}, "undo: steps must be a whole number, got 1.5"),
])
def test_the_json_form_takes_each_value_in_its_own_type_not_coerced(
        args: dict[str, object], refusal: str) -> None:
    c = toy_conflict()
    c.execute("note one")
    version = c.version
    with pytest.raises(InvalidInput, match=refusal):
        c.execute({"verb": "undo", "args": args})
    for wrong in ({"id": 5}, {"id": "eve", "gm_only": [1]}, {"id": "eve", "side": ["x"]}):
        with pytest.raises(InvalidInput, match="must be"):
            c.execute({"verb": "join", "args": wrong})
    assert c.version == version
    # a list kind takes a list or its text form
    assert COMMANDS.from_data({"verb": "join", "args": {"id": "eve", "gm_only": ["hp"]}}) == \
        COMMANDS.from_data({"verb": "join", "args": {"id": "eve", "gm_only": "hp"}})


def test_the_json_form_is_accepted_wherever_text_is() -> None:
    c = toy_conflict()
    c.execute('{"verb": "start", "args": {"first": "ada"}}')
    record = c.execute('{"actor": "ada", "verb": "hit", "args": {"target": "gob", "dice": [4]}}')
    assert record.command == "ada: hit gob dice=4"
    with pytest.raises(InvalidInput, match="not a JSON command"):
        c.execute('{"actor": "ada", ')
    # one key given twice is refused, not read as its last value (json's quiet choice)
    with pytest.raises(InvalidInput, match=r"gives the key 'target' twice"):
        c.execute('{"actor": "ada", "verb": "hit", "args": {"target": "ada", "target": "gob"}}')
    with pytest.raises(InvalidInput, match=r"gives the key 'hp' twice"):
        c.execute("""join eve stats='{"hp": 1, "hp": 2}'""")
    assert c.version == 3  # start and the hit: nothing more


def test_a_command_made_by_hand_is_checked_before_it_is_decided() -> None:
    c = toy_conflict()
    c.execute("start ada")
    with pytest.raises(InvalidInput, match="unknown argument"):
        c.execute(Command("hit", "ada", {"target": "gob", "power": 9}))
    assert c.version == 2  # refused: nothing changed
    record = c.execute(Command("hit", "ADA", {"target": "gob", "dice": [4]}))  # read as JSON
    assert record.command == "ada: hit gob dice=4"
    read = c.parse("ada: hit gob dice=2")
    assert c.execute(read).command == "ada: hit gob dice=2"  # read once, by this conflict
    with pytest.raises(InvalidInput, match="unknown argument"):  # another set's mark: checked
        c.execute(Command("hit", "ada", {"target": "gob", "power": 9}, read.read_by + 1))


@given(st.text(alphabet=st.sampled_from(list("ab= '\"\t\n\r\xa0\\é:,")), max_size=24))
def test_the_words_of_a_command_are_those_the_shell_would_read(text: str) -> None:
    """The notation's quoting is the POSIX shell's (``shlex``), unclosed quotes refused the
    same way; the fast reading of quoted text must never differ from it."""
    try:
        want: object = shlex.split(text, comments=False, posix=True)
    except ValueError as exc:
        want = ("refused", str(exc))
    try:
        got: object = split_words(text)
    except ValueError as exc:
        got = ("refused", str(exc))
    assert got == want
