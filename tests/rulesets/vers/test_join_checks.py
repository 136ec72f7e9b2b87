"""A participant who joins mid-conflict is checked exactly as a scenario file's would be."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.errors import FracasError, InvalidInput
from fracas.rulesets.vers.state import weapons_of

BRAWL = resources.files("fracas.scenarios").joinpath("vers-tavern-brawl.toml").read_text(
    encoding="utf-8")


@pytest.mark.rule("VR-MOVE-1")
@pytest.mark.parametrize("stats, message", [
    ('{"zone": "nowhere"}', "zone 'nowhere' is not in settings.zones"),
    ("{}", "rat: needs a zone"),
    ('{"zone": "bar", "weapons": {"claws": {"ev": 3, "kind": "bite"}}}', "needs ev"),
])
def test_join_is_validated_like_the_scenario_loader(stats: str, message: str) -> None:
    c = play_script(parse_scenario(BRAWL), "s")
    version = c.version
    with pytest.raises(FracasError, match=message) as joined:
        c.execute(f"join rat name=Rat stats='{stats}'")
    assert c.version == version and "rat" not in c.state.participants
    # the same participant in the scenario file is refused with the same sentence
    entry = f'\n[[participants]]\nid = "rat"\nname = "Rat"\nstats = {_toml(stats)}\n'
    with pytest.raises(InvalidInput) as loaded:
        play_script(parse_scenario(BRAWL + entry, "f.toml"), "s")
    assert joined.value.message.removeprefix("join: ") in loaded.value.message


@pytest.mark.rule("VR-ROLL-2")
@pytest.mark.parametrize("weapons", ["[]", '""', "false", "0", "null"])
def test_weapons_that_are_no_table_are_refused_even_empty(weapons: str) -> None:
    """Weapons are a table; [] (and "", false) was taken as no weapons where [1, 2] was
    refused. Bare hands are what a sheet without weapons (or with {}) fights with."""
    c = play_script(parse_scenario(BRAWL), "s")
    version = c.version
    with pytest.raises(InvalidInput, match=re.escape(
            f"rat: weapons must be a table of weapons, e.g. weapons = {{ sword = {{ ev = 5, "
            f'kind = "close" }} }}, not {weapons}; leave weapons out (or give {{}}) for bare '
            "hands only (unarmed, EV 0)")) as no:
        c.execute(f"""join rat name=Rat stats='{{"zone": "bar", "weapons": {weapons}}}'""")
    assert no.value.rule == "VR-ROLL-2"
    assert c.version == version and "rat" not in c.state.participants
    c.execute("""join rat name=Rat stats='{"zone": "bar"}'""")
    c.execute("""join cat name=Cat stats='{"zone": "bar", "weapons": {}}'""")
    for pid in ("rat", "cat"):
        assert weapons_of(c.state.participants[pid]) == {"unarmed": {"ev": 0, "kind": "close"}}


@pytest.mark.rule("VR-MOVE-1")
def test_a_rat_in_a_zone_joins_and_fights() -> None:
    c = play_script(parse_scenario(BRAWL), "s")
    c.execute("""join rat name=Rat side=toughs stats='{"zone": "door"}'""")
    assert c.state.ext.zones.zone_of("rat") == "door"


def _toml(stats: str) -> str:
    import json

    def inline(value: object) -> str:
        if isinstance(value, dict):
            return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + " }"
        return json.dumps(value)

    return inline(json.loads(stats))


@pytest.mark.rule("VR-MOVE-1")
@pytest.mark.parametrize("line, message", [
    ("override ada.stats.strength 21", "stats.strength is 21; it goes from 0 to 20"),
    ("override ada.stats.weapons.sword.ev 101", "it goes from 0 to 100"),
    ("override ada.stats.reach 11", "it goes from -10 to 10"),
    ("override settings.zones []", "read once, when the conflict is set up"),
])
def test_an_override_of_the_set_up_is_checked_like_the_scenario_file(line: str,
                                                                      message: str) -> None:
    c = play_script(parse_scenario(BRAWL), "s")
    version = c.version
    with pytest.raises(InvalidInput, match=message):
        c.execute(line)
    assert c.version == version
    c.execute("""join rat name=Rat stats='{"zone": "bar"}'""")  # the conflict still takes joins


@pytest.mark.rule("VR-ROLL-1")
@pytest.mark.parametrize(("stats", "message"), [
    ('{"zone": "bar", "strenght": 3}',
     "rat: unknown stat 'strenght'; did you mean 'strength'? (a stat of your own must not "
     "look like one of VERS's)"),
    ('{"zone": "bar", "Agility": 3}', "rat: unknown stat 'Agility'; did you mean 'agility'?"),
    ('{"zone": "bar", "skills": {"athletic": 3}}',
     "rat: unknown skill skills.athletic; did you mean 'athletics'? (a background or special "
     "skill must not look like a standard one)"),
    ('{"zone": "bar", "tn": {"close_combt": 14}}',
     "rat: unknown skill tn.close_combt; did you mean 'close_combat'?"),
])
def test_a_stat_or_skill_that_looks_mistyped_is_refused(stats: str, message: str) -> None:
    """A typo left the character without the stat it meant (strength 0, its TN lower) with
    nothing said; a stat or skill of the GM's own that looks like no VERS one is kept."""
    c = play_script(parse_scenario(BRAWL), "s")
    version = c.version
    with pytest.raises(InvalidInput, match=re.escape(message)):
        c.execute(f"join rat name=Rat stats='{stats}'")
    assert c.version == version and "rat" not in c.state.participants
    entry = f'\n[[participants]]\nid = "rat"\nname = "Rat"\nstats = {_toml(stats)}\n'
    line = len((BRAWL + entry).splitlines())  # the file names the line of the stats
    with pytest.raises(InvalidInput, match=re.escape(f"f.toml:{line}: {message}")):
        play_script(parse_scenario(BRAWL + entry, "f.toml"), "s")
    c.execute("""join rat name=Rat stats='{"zone": "bar", "grudge": "Rook", """
              """"skills": {"smithing": 2}}'""")
    assert c.state.participants["rat"].stats["skills"] == {"smithing": 2}
