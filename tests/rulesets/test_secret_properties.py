"""No view leaks (DESIGN.md principle 6): random legal commands with secrets planted among
them — GM-only notes, narration, rolls and effects, another player's owner-only notes — never
put a secret into a player's view or log, in any ruleset."""

from __future__ import annotations

import contextlib
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.cli.render import log_lines
from fracas.engine import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from tests.rulesets.test_fuzz_commands import SCENARIOS, played

EXAMPLES = int(os.environ.get("FUZZ_N", "25"))
SECRETS = ["note 'zqsecret-note' visibility=gm", "narrate 'zqsecret-narration' visibility=gm",
           "roll 1d6 why=zqsecret-roll visibility=gm", "effect 'zqsecret-effect' visibility=gm"]


def _players(c: Conflict) -> list[str]:
    return sorted({p.owner for p in c.state.participants.values() if p.owner})


def _legal(c: Conflict) -> list[str]:
    out: list[str] = []
    for actor in [None, *c.state.innermost.participants]:
        out += [t for t in c.legal_commands(actor)
                if not any(w.isupper() and len(w) > 1 for w in t.split(" "))]
    return out


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_secret_reaches_a_player(name: str, data: st.DataObject) -> None:
    c = played(name)
    players = _players(c)
    owned = {p: c.state.owned_by(p) for p in players}
    for _ in range(data.draw(st.integers(1, 12))):
        choice = data.draw(st.integers(0, 3))
        if choice == 0:
            text = data.draw(st.sampled_from(SECRETS))
        elif choice == 1 and players and owned[players[0]]:
            text = f"{owned[players[0]][0]}: note 'zqowner-{players[0]}' visibility=owner"
        else:
            legal = _legal(c)
            if not legal:
                continue
            text = data.draw(st.sampled_from(legal))
        with contextlib.suppress(FracasError):
            c.execute(text, time="")
    for viewer in [Viewer.public(), *map(Viewer.of_player, players)]:
        seen = json.dumps(view(c, viewer)) + json.dumps(log_view(c, viewer)) + json.dumps(
            log_lines(c, viewer))
        assert "zqsecret" not in seen
        for p in players:
            if p != viewer.player:
                assert f"zqowner-{p}" not in seen
        assert c.seed not in seen
