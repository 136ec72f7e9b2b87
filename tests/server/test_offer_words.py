"""What a VERS player's offers say they do is in words a player reads: no text notation
(``track=focus|morale``) in the line under a form."""

from __future__ import annotations

import re

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import from_the_start, play_script
from fracas.engine import Viewer
from fracas.rulesets.vers.commands import COMMANDS
from fracas.server.offers import structured
from fracas.server.projection import Live
from tests.server.support import Served, new_table

#: Text notation in a line meant for reading: ``name=value``, ``a|b``, an upper-case
#: placeholder (``STEPS``) outside a game's own braces (Fabula Ultima's ``{DEX + INS}``).
NOTATION = re.compile(r"\w=|\||\b[A-Z]{3,}\b(?![^{]*\})")


@pytest.mark.rule("VR-ROLL-2", "VR-INJ-5")
def test_a_vers_players_attack_says_in_words_what_it_strikes(server: Served) -> None:
    table = new_table(server.url)
    alice = table.invite("alice")
    path = table.conflict("vers-tavern-brawl", fresh=True)
    offered = alice.get(path + "/legal-commands", params={"actor": "ada"}).json()["ada"]
    (attack, *_) = [c for c in offered if c["verb"] == "attack"]
    assert attack["summary"] == ("attack a character or an object: a weapon strikes the body; "
                                 "a mental attack strikes Focus, a social one Morale")
    own = {spec.verb for spec in COMMANDS}
    for command in offered:  # none of VERS's own offers to a player reads in notation
        if command["verb"] in own:
            assert not re.search(r"\w=|\|", command["summary"]), command


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_no_offer_says_what_it_does_in_notation(name: str) -> None:
    """The line under every form, the GM's and each player's, at the start of each bundled
    example and at the end of its script, is in words (before: "take back the last STEPS
    commands", "roll any dice (visibility=gm rolls in secret)", "start a chase (or, with
    prize=, …)")."""
    for scenario in (from_the_start(load_scenario(name)), load_scenario(name)):
        c = play_script(scenario, "words")
        players = sorted({p.owner for p in c.state.participants.values() if p.owner})
        for viewer in (Viewer.gm(), *map(Viewer.of_player, players)):
            for offered in structured(Live(c, viewer), None).values():
                for command in offered:
                    assert not NOTATION.search(command["summary"]), (viewer, command["summary"])


@pytest.mark.parametrize("name", ["etherscope-car-chase", "vers-tavern-brawl",
                                  "fabula-ultima-ambush"])
def test_the_gms_override_names_the_paths_of_its_own_game(name: str) -> None:
    """Before: every game's override form read "(e.g. override ada.hp.current 12)", a path
    Etherscope and VERS have not; its path field now names the game's own."""
    scenario = load_scenario(name)
    c = play_script(from_the_start(scenario), "words")
    (override,) = [o for o in structured(Live(c, Viewer.gm()), None)["gm"]
                   if o["verb"] == "override"]
    path = next(p for p in override["params"] if p["name"] == "path")
    assert "hp.current" not in override["summary"]
    assert path["help"] == (f"what to correct, e.g. {', '.join(c.ruleset.override_examples)} "
                            "(ID: a character's id)")
    assert "hp" not in path["help"] or c.ruleset.name == "fabula-ultima"


@pytest.mark.parametrize("name", sorted(n for n in bundled_scenarios()
                                        if not n.startswith("etherscope")))
def test_no_offer_speaks_of_a_zoom_where_the_game_has_none(name: str) -> None:
    """Fabula Ultima and VERS have no zoom-ins (Etherscope's alone): the GM's end reads
    "End the conflict with a reason" (before: "… (or the zoomed-in conflict) …", words
    the GM of the dragon's lair could not place)."""
    c = play_script(from_the_start(load_scenario(name)), "words")
    summaries = [command["summary"] for offered in structured(Live(c, Viewer.gm()), None).values()
                 for command in offered]
    assert "end the conflict with a reason" in summaries
    assert not [s for s in summaries if "zoom" in s]
