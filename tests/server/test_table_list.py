"""The table's list of conflicts says how each stands, as the viewer's own view of it says: which
have ended and how (the GM's and a player's list alike), and to a player where it is their
turn now. One request tells a page all of it, however many conflicts the table holds: a page no
longer asks each conflict in turn (which, past about 60, met the rate limit of its own link)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.leakcheck import assert_no_secret
from tests.server.scenarios import LURKING, SECRETS, SEED
from tests.server.support import Api, Served, Table, new_table


def _listed(who: Api, table: Table) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in who.get(f"/api/tables/{table.id}/conflicts").json()}


def _id(path: str) -> str:
    return path.rsplit("/", 1)[1]


def test_the_list_says_which_conflicts_have_ended_and_how(server: Served) -> None:
    table = new_table(server.url)
    running, over = (table.conflict("vers-tavern-brawl", fresh=True) for _ in range(2))
    r = table.gm.post(over + "/commands", json={
        "command": "end 'the watch arrives' outcome='the brawlers scatter'"})
    assert r.status_code == 200, r.text
    for who in (table.gm, table.invite("alice"), table.invite(None)):
        listed = _listed(who, table)
        assert {k: listed[_id(over)][k] for k in ("status", "end_reason", "outcome")} == {
            "status": "ended", "end_reason": "the watch arrives",
            "outcome": "the brawlers scatter"}
        assert {k: listed[_id(running)][k] for k in ("status", "end_reason", "outcome")} == {
            "status": "running", "end_reason": None, "outcome": None}
    # an undo of the end runs it again, in the list as everywhere
    assert table.gm.post(over + "/undo").status_code == 200
    assert _listed(table.gm, table)[_id(over)]["status"] == "running"


def test_a_players_list_says_where_a_character_of_theirs_acts_now(server: Served) -> None:
    """Ada (Alice's) opens a fresh brawl; Bruno (Bob's) waits: only Alice's list says it is
    her turn there. Once Ada hands off to Bruno, it is Bob's turn and no longer Alice's. The
    GM and the public have no characters of their own: no such field."""
    table = new_table(server.url)
    brawl = table.conflict("vers-tavern-brawl", fresh=True)
    alice, bob, public = table.invite("alice"), table.invite("bob"), table.invite(None)
    assert _listed(alice, table)[_id(brawl)]["your_turn"] is True
    assert _listed(bob, table)[_id(brawl)]["your_turn"] is False
    assert "your_turn" not in _listed(table.gm, table)[_id(brawl)]
    assert "your_turn" not in _listed(public, table)[_id(brawl)]
    r = alice.post(brawl + "/commands", json={"command": "ada: handoff bruno"})
    assert r.status_code == 200, r.text
    assert _listed(alice, table)[_id(brawl)]["your_turn"] is False
    assert _listed(bob, table)[_id(brawl)]["your_turn"] is True
    table.gm.post(brawl + "/commands", json={"command": "end 'the watch arrives'"})
    assert _listed(bob, table)[_id(brawl)]["your_turn"] is False  # nobody acts once ended


@pytest.mark.rule("FU-CON-3")
def test_before_a_fabula_ultima_fight_the_list_says_the_pcs_may_lead_its_initiative(
        server: Served) -> None:
    """The ambush waits on Ada or Bruno to lead the Initiative Group Check: both players'
    lists say so (it said nobody's turn until the first round); then it is the heroes' side."""
    table = new_table(server.url)
    ambush = table.conflict("fabula-ultima-ambush", fresh=True)
    alice, bob = table.invite("alice"), table.invite("bob")
    assert _listed(alice, table)[_id(ambush)]["your_turn"] is True
    assert _listed(bob, table)[_id(ambush)]["your_turn"] is True
    for command in ("bruno: equip armor 'Bronze plate' init=-2 defense=1",
                    "ada: initiative dice=5,5,6,4"):
        r = table.gm.post(ambush + "/commands", json={"command": command})
        assert r.status_code == 200, r.text
    view = alice.get(ambush + "?log=false").json()["view"]["conflict"]["ruleset"]
    assert _listed(alice, table)[_id(ambush)]["your_turn"] is ("ada" in view["tracker"]["may_act"])
    assert "leaders" not in view


def test_the_list_tells_a_player_nothing_their_view_does_not(server: Served) -> None:
    """A lurker hidden from the players moves first: the GM's view names it, Alice's says
    someone unseen moves, and her list says it is not her turn (her own view's word), not
    that anyone is acting; a reason for the end that names the lurker is kept from her list
    as from her view; and a roll the GM makes unseen changes nothing of her list."""
    table = new_table(server.url)
    lurk = table.conflict(toml=LURKING, seed=SEED)
    alice = table.invite("alice")
    listed = f"/api/tables/{table.id}/conflicts"
    mine = _listed(alice, table)[_id(lurk)]
    assert mine["status"] == "setup" and mine["your_turn"] is False  # before round 1
    gm_view = table.gm.get(lurk + "?log=false").json()["view"]["conflict"]["ruleset"]
    assert (gm_view["phase"], gm_view["mover"]) == ("moves", "zqdora")
    before = alice.get(listed).json()
    r = table.gm.post(lurk + "/commands", json={"command": "roll 1d20 visibility=gm"})
    assert r.status_code == 200, r.text
    assert alice.get(listed).json() == before, "a hidden roll moved the player's list"
    assert table.gm.post(lurk + "/commands", json={"command": "zqdora: done"}).status_code == 200
    assert _listed(alice, table)[_id(lurk)]["your_turn"] is True  # Ada moves now: her view
    r = table.gm.post(lurk + "/commands", json={"command": "end 'Zqlurker Dora got away'"})
    assert r.status_code == 200, r.text
    view = alice.get(lurk + "?log=false").json()["view"]["conflict"]
    mine = _listed(alice, table)[_id(lurk)]
    assert (mine["status"], mine["end_reason"]) == ("ended", view["end_reason"]) == ("ended", None)
    assert_no_secret(alice.seen, SECRETS, "alice")  # every answer she had
    assert _listed(table.gm, table)[_id(lurk)]["end_reason"] == "Zqlurker Dora got away"


def test_the_gm_s_list_says_where_a_character_of_the_gm_s_acts_now(server: Served) -> None:
    """Ada (Alice's) opens a fresh brawl: the table waits on her, not on the GM. Once she
    hands off to the thug, an NPC, it waits on the GM: so says the GM's list (a GM running
    two tables is told so at the other one); the players' lists have no such field."""
    table = new_table(server.url)
    brawl = table.conflict("vers-tavern-brawl", fresh=True)
    alice = table.invite("alice")
    assert _listed(table.gm, table)[_id(brawl)]["gm_turn"] is False
    r = alice.post(brawl + "/commands", json={"command": "ada: handoff thug"})
    assert r.status_code == 200, r.text
    assert _listed(table.gm, table)[_id(brawl)]["gm_turn"] is True
    assert "gm_turn" not in _listed(alice, table)[_id(brawl)]
    assert "gm_turn" not in _listed(table.invite(None), table)[_id(brawl)]
    table.gm.post(brawl + "/commands", json={"command": "end 'the watch arrives'"})
    assert _listed(table.gm, table)[_id(brawl)]["gm_turn"] is False  # nobody acts once ended
