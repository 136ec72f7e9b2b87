"""A mechanical search of every player output for what is hidden from that player (issue 17,
"Done when"): for every bundled scenario, with a participant brought in hidden and an NPC
concealed, the text, raw and JSON outputs and the errors of ``run``, ``show``, ``watch`` and
``do`` as each player hold no hidden name, id or side, no GM-only text value, no seed and no
version number."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.service import ConflictService
from fracas.cli import app
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.redaction import Knowledge
from fracas.store import SqlEventStore

SEED = "leak-search-seed"
VERSION_LABEL = re.compile(r"\bv\d+\b|\"version\"|at version \d")


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


def secrets_of(c: Conflict, player: str) -> list[str]:
    """What ``player`` may not learn: hidden participants' ids, names and sides (of only
    hidden ones), GM-only text values (of their own characters too) and settings, the seed."""
    viewer = Viewer.of_player(player)
    knowledge = Knowledge(c.ruleset, c.state, viewer)
    out = [SEED]
    shown_sides, shown_names = set(), set()
    for p in c.state.participants.values():
        if knowledge.knows(p.id, 0):
            shown_sides.add(p.side)
            shown_names.add(p.name)
    for p in c.state.participants.values():
        if not knowledge.knows(p.id, 0):
            out.append(rf"\b{re.escape(p.id)}\b")
            if p.name not in shown_names:
                out.append(rf"\b{re.escape(p.name)}\b")
            if p.side and p.side not in shown_sides:
                out.append(rf"\b{re.escape(p.side)}\b")
        else:  # a GM-only stat is the GM's: its own player's too
            out += [rf"\b{re.escape(v)}\b" for k, v in p.stats.items()
                    if k in p.gm_only and isinstance(v, str) and len(v) > 2]
    hidden = c.state.settings.get("gm_only_settings", [])
    out += [rf"\b{re.escape(v)}\b" for k, v in c.state.settings.items()
            if k in hidden and isinstance(v, str) and len(v) > 2]
    return out


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_no_player_output_holds_anything_hidden_from_that_player(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "10000")  # not the consoles' width: it would stay fixed
    db = f"sqlite:///{tmp_path / 'leak.db'}"
    store = SqlEventStore(db)
    service = ConflictService(store)
    cid, conflict = service.new_from_scenario(load_scenario(name), seed=SEED)
    npc = next(p for p in conflict.state.innermost.participants.values() if p.owner is None)
    shapes = [f"join zqwraith name='Zq Pale Wraith' side=zqshades "
              f"'stats={json.dumps(npc.stats)}' hidden=yes", f"conceal {npc.id}",
              "note 'zqsecret' visibility=gm", "roll 1d6 why=zqsecret visibility=gm"]
    for shape in shapes:
        cli("do", cid, shape, "--db", db)
    players = sorted({p.owner for p in conflict.state.participants.values() if p.owner})
    assert players
    # hidden since the script (the NPC concealed now was seen before: its past stays)
    hidden = {player: secrets_of(conflict, player) for player in players}
    for player in players:
        mine = service.load(cid).state.innermost.owned_by(player)
        outputs = [
            cli("run", name, "--seed", SEED, "--as", player),
            cli("run", name, "--seed", SEED, "--as", player, "--raw"),
            cli("run", name, "--seed", SEED, "--as", player, "--json"),
            cli("show", cid, "--as", player, "--db", db),
            cli("show", cid, "--as", player, "--raw", "--db", db),
            cli("show", cid, "--as", player, "--json", "--db", db),
            cli("watch", cid, "--as", player, "--since", "0", "--timeout", "0.1", "--db", db),
        ]
        refusals = [cli("do", cid, f"{mine[0]}: effect x until=turn_end who={who}",
                        "--as", player, "--db", db).replace(who, "ID")
                    for who in ("zqwraith", npc.id, "zqnobody")]
        assert refusals[0] == refusals[1] == refusals[2], refusals  # hidden = missing
        outputs += refusals
        outputs.append(cli("do", cid, f"{mine[0]}: note 'zqmine'", "--as", player, "--db", db))
        outputs.append(cli("show", cid, "--as", "zqonlooker", "--db", db))
        seen = "\n".join(outputs)
        for secret in hidden[player]:
            found = re.search(secret, seen)
            assert found is None, (player, secret, seen[max(0, found.start() - 200):
                                                         found.end() + 80])
        assert "zqsecret" not in seen and "Zq Pale Wraith" not in seen and "zqshades" not in seen
        assert not VERSION_LABEL.search(seen), VERSION_LABEL.search(seen)
        assert "zqmine" in seen  # the search did see the player's own output
    store.close()
