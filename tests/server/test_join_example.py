"""The GM's join offers, beside its stats field, an example in the game's own stats that
makes a newcomer as typed in: Etherscope's condensers (ES-ROUND-1), Fabula Ultima's
attribute dice (FU-CHK-1), VERS's attributes and a zone of the battlefield (VR-MOVE-1).
Before, every ruleset showed Fabula Ultima's ``{"dex": 8, "hp": 20}``, which not even a
Fabula Ultima conflict took (it wants all four attributes)."""

from __future__ import annotations

import json

import pytest

from fracas.app.scenario import bundled_scenarios
from tests.server.support import Served, new_table


@pytest.mark.rule("ES-ROUND-1", "FU-CHK-1", "VR-MOVE-1")
def test_the_joins_stats_example_makes_a_newcomer_in_every_bundled_example(
        server: Served) -> None:
    table = new_table(server.url)
    for name in sorted(bundled_scenarios()):
        path = table.conflict(name, fresh=True)
        offered = table.gm.get(path + "/legal-commands").json()
        (join,) = [c for cs in offered.values() for c in cs if c["verb"] == "join"]
        params = {p["name"]: p for p in join["params"]}
        help_text = params["stats"]["help"]
        assert help_text.startswith("a JSON object, e.g. {"), (name, help_text)
        example = json.loads(help_text.removeprefix("a JSON object, e.g. "))
        side = params["side"]
        sides = side.get("allowed") or side.get("suggested") or ["newcomers"]
        r = table.gm.post(path + "/commands", json={"command": f"join zed name=Zed "
                          f"side={sides[0]} 'stats={json.dumps(example)}'"})
        assert r.status_code == 200, (name, example, r.text)
        view = table.gm.get(path).json()["view"]
        assert "Zed" in json.dumps(view["conflict"]), name
