"""Stats of the GM's own on a Fabula Ultima sheet (a weakness, a plan): kept, as Etherscope
and VERS keep theirs, while a key that looks like a mistyped stat is still refused."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.views import view
from fracas.errors import InvalidInput
from tests.rulesets.fabula_ultima.support import make, npc, pc, run, seed_example


def test_a_stat_no_rule_reads_is_kept_on_the_sheet_and_changes_nothing() -> None:
    plain = run(make(pc("ada"), pc("bruno"), npc("orc")), "ada: initiative dice=6,5,4,5")
    noted = run(make(pc("ada", weakness="afraid of fire", contacts=["Ilse", "the ferryman"]),
                     pc("bruno"), npc("orc")), "ada: initiative dice=6,5,4,5")
    ada = view(noted, Viewer.gm())["conflict"]["participants"][0]
    assert ada["stats"]["weakness"] == "afraid of fire"
    assert ada["stats"]["contacts"] == ["Ilse", "the ferryman"]
    assert noted.state.ext == plain.state.ext  # the rules read none of it
    assert [r.command for r in noted.records] == [r.command for r in plain.records]
    joined = run(seed_example(), "join wolf side=foes stats='{\"dex\": 10, \"ins\": 6, "
                                 "\"mig\": 8, \"wlp\": 6, \"hp\": 18, \"lair\": \"the north "
                                 "cave\"}' gm_only=lair")
    assert joined.state.participants["wolf"].stats["lair"] == "the north cave"


@pytest.mark.parametrize(("key", "meant"), [
    ("hpp", "hp"), ("dexx", "dex"), ("defence", "defense"), ("goals", "goal"),
    ("DEX", "dex"), ("Mp", "mp"), ("bond", "bonds"),
])
def test_a_stat_that_looks_like_a_mistyped_one_is_refused_naming_it(key: str,
                                                                      meant: str) -> None:
    with pytest.raises(InvalidInput) as info:
        make(pc("ada", **{key: 12}))
    assert str(info.value) == (f"ada: unknown stat {key!r}; did you mean {meant!r}? (a stat "
                               "of your own must not look like one of Fabula Ultima's)")
    seed = seed_example()
    version = seed.version
    with pytest.raises(InvalidInput, match=rf"wolf: unknown stat '{key}'; did you mean"):
        seed.execute("join wolf side=foes stats='{\"dex\": 10, \"ins\": 6, \"mig\": 8, "
                     f"\"wlp\": 6, \"hp\": 18, \"{key}\": 3}}'", time="")
    assert seed.version == version and "wolf" not in seed.state.participants
