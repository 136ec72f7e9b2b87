"""What a VERS player's offers say they do is in words a player reads: no text notation
(``track=focus|morale``) in the line under a form."""

from __future__ import annotations

import re

import pytest

from fracas.rulesets.vers.commands import COMMANDS
from tests.server.support import Served, new_table


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
