"""Commands the rules have everyone make at once, against a real server: two players who
declare in the same second (each on the screen they chose on) both have their declaration
stored; anything else they were shown since still makes a command stale."""

from __future__ import annotations

import pytest

from tests.server.support import Api, Served, Table, new_table

SETUP = ("ada: awareness dice=5,6,1", "bruno: awareness dice=5,2", "zepcar: awareness dice=2,3",
         "moves", "ada: done", "bruno: done", "round")


def _declaring(server: Served) -> tuple[Table, str, Api, Api]:
    """The car chase's first round, open for declarations, and Alice's and Bob's clients."""
    table = new_table(server.url)
    path = table.conflict("etherscope-car-chase", fresh=True)
    for line in SETUP:
        assert table.gm.post(path + "/commands", json={"command": line}).status_code == 200
    return table, path, table.invite("alice"), table.invite("bob")


def _declare(player: Api, path: str, line: str, cursor: str) -> tuple[int, str]:
    r = player.post(path + "/commands", json={"command": line, "cursor": cursor})
    return r.status_code, r.json().get("code", "")


@pytest.mark.rule("ES-ROUND-7")
def test_two_players_declaring_at_once_are_both_stored(server: Served) -> None:
    """Bob's declaration reaches the server first; Alice chose hers on the screen before it:
    it is no stale command (another's declaration bears on nothing of hers), both count."""
    table, path, alice, bob = _declaring(server)
    seen_by_alice = alice.get(path).json()["cursor"]
    assert _declare(bob, path, "bruno: declare 9", bob.get(path).json()["cursor"])[0] == 200
    assert _declare(alice, path, "ada: declare 8,2", seen_by_alice) == (200, "")
    lines = [line for e in table.gm.get(path).json()["log"] for line in e["lines"]]
    assert "Bruno acts at 9 (base 9)" in lines and "Ada acts at 8, 2 (base 12)" in lines


@pytest.mark.rule("ES-START-1")
def test_two_awareness_rolls_at_once_are_both_stored(server: Served) -> None:
    """Every character rolls awareness at the start, each on their own: Bob's roll first
    makes Alice's, sent from the screen before it, no stale command."""
    table = new_table(server.url)
    path = table.conflict("etherscope-car-chase", fresh=True)
    alice, bob = table.invite("alice"), table.invite("bob")
    seen_by_alice = alice.get(path).json()["cursor"]
    assert _declare(bob, path, "bruno: awareness dice=5,2",
                    bob.get(path).json()["cursor"])[0] == 200
    assert _declare(alice, path, "ada: awareness dice=5,6,1", seen_by_alice) == (200, "")


def test_what_else_changed_still_makes_a_declaration_stale(server: Served) -> None:
    """The GM's narration, or a declaration for Alice's own character (the GM's screen),
    since Alice's screen: her declaration is refused as stale, and nothing is stored."""
    table, path, alice, _ = _declaring(server)
    seen = alice.get(path).json()["cursor"]
    table.gm.post(path + "/commands", json={"command": "narrate 'The zepcar swerves'"})
    assert _declare(alice, path, "ada: declare 8,2", seen) == (409, "stale_version")
    seen = alice.get(path).json()["cursor"]
    table.gm.post(path + "/commands", json={"command": "ada: declare 12"})
    assert _declare(alice, path, "ada: declare 8,2", seen) == (409, "stale_version")
    lines = [line for e in table.gm.get(path).json()["log"] for line in e["lines"]]
    assert "Ada acts at 12 (base 12)" in lines and "Ada acts at 8, 2 (base 12)" not in lines
