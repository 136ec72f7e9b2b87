"""Odds before a roll, through a real server: the pending roll's exact odds for the viewer's
character, and the odds of one legal command; nobody else's."""

from __future__ import annotations

from tests.rulesets.test_pending_odds import cut_script
from tests.server.support import Served, new_table


def test_a_player_asks_the_odds_of_their_pending_attack(server: Served) -> None:
    from fracas.app.scenario import load_scenario

    sc = load_scenario("fabula-ultima-ambush")
    n = next(i for i, s in enumerate(sc.script) if " initiative " in s.text) + 1
    table = new_table(server.url)
    path = table.conflict(toml=cut_script("fabula-ultima-ambush", n))
    alice, bob = table.invite("alice"), table.invite("bob")
    pending = alice.get(path + "/odds").json()["odds"]
    assert pending and all(line.startswith(("Ada attacks", "Ada casts")) for line in pending)
    assert table.gm.get(path + "/odds").json()["odds"] != pending  # the GM sees more
    legal = alice.get(path + "/legal").json()["ada"]
    attack = next(c for c in legal if " attack " in c)
    target = attack.split()[2]
    r = alice.post(path + "/odds", json={"command": attack})
    assert r.status_code == 200, r.text
    lines = r.json()["odds"]
    name = table.gm.get(path + f"/characters/{target}").json()["name"]
    # a pending line's attack, with the chance against its target alone (FU-RES-3)
    heads = {line.split(": hit ")[0] for line in pending}
    assert lines and all(line.split(": hit ")[0] in heads for line in lines)
    assert all(line.split(": hit ")[1].startswith(f"{name} ") and ", " not in line
               for line in lines), lines
    # another player may not ask for Ada's odds, nor for a command that is not legal
    assert bob.post(path + "/odds", json={"command": attack}).status_code == 403
    assert alice.post(path + "/odds", json={"command": "ada: fly"}).status_code == 422


def test_a_players_odds_of_a_hidden_target_read_as_of_a_missing_one(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(scenario="vers-tavern-brawl")
    for command in ("conceal mira", "open ada"):
        assert table.gm.post(path + "/commands", json={"command": command}).status_code == 200
    alice = table.invite("alice")
    hidden = alice.post(path + "/odds", json={"command": "ada: attack mira"})
    missing = alice.post(path + "/odds", json={"command": "ada: attack zqx"})
    # no odds of hers to read of either, so neither is decided (that would be a free oracle
    # of GM-only stats: projection.odds_answer): answered alike
    assert hidden.status_code == missing.status_code == 200, (hidden.text, missing.text)
    assert hidden.json()["odds"] == missing.json()["odds"] == []
    seen = alice.post(path + "/odds", json={"command": "ada: attack thug weapon=knife"})
    assert seen.status_code == 200 and seen.json()["odds"], seen.text
