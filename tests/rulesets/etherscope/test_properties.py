"""Random legal play: evolve never breaks, replay and snapshots agree with the live state, and
no player's view ever holds a character hidden from all of theirs (ES-RNG-6)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fracas.engine.model import Viewer
from fracas.engine.serialize import state_from_data, state_to_data
from fracas.engine.views import log_view, view
from fracas.errors import FracasError

from .helpers import ES, make

PLAYERS = {"alice": ["ada"], "bob": ["bruno"]}


def concrete(options: list[str]) -> list[str]:
    return [o for o in options if not any(w.isupper() for w in o.replace(":", " ").split())]


@pytest.mark.rule("ES-RNG-6", "ES-ROUND-4")
@given(st.lists(st.integers(0, 10_000), min_size=5, max_size=60), st.sampled_from("abc"))
def test_random_legal_play_stays_consistent_and_never_leaks(picks: list[int], seed: str) -> None:
    c = make(seed=seed, people=[
        {"id": "ada", "name": "Ada", "kind": "pc", "player": "alice",
         "stats": {"physical": 12, "ether": 8, "society": 9, "awareness": 2, "pool": 3}},
        {"id": "bruno", "name": "Bruno", "kind": "pc", "player": "bob",
         "stats": {"physical": 8, "ether": 10, "society": 9, "awareness": 1}},
        {"id": "carl", "name": "Carl the Knife", "stats": {"physical": 9, "ether": 6,
                                                          "society": 6, "awareness": 3,
                                                          "stealth": 4}},
    ])
    for pick in picks:
        options = [o for a in (None, "ada", "bruno", "carl")
                   for o in concrete(c.legal_commands(a))]
        if not options:
            break
        text = options[pick % len(options)]
        try:
            c.execute(text, time="")
        except FracasError as exc:  # a legal command may still be refused by its roll's needs
            assert exc.rule is None or exc.rule.startswith("ES-"), (text, str(exc))
    data = state_to_data(c.state)
    assert state_to_data(c.replay()) == data
    assert state_to_data(state_from_data(ES, data)) == data
    ranges = c.state.ext.ranges
    for player, mine in PLAYERS.items():
        viewer = Viewer.of_player(player)
        seen = json.dumps(view(c, viewer)) + json.dumps(log_view(c, viewer))
        if ranges.hidden_from_all("carl", mine) and c.state.participants["carl"].active:
            assert "Carl the Knife" not in json.dumps(view(c, viewer)), player
        assert '"seed"' not in seen
