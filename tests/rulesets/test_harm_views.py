"""Harm views in the engine's projection, per ruleset: where a side's harm view is ``none``
(or ``band``), what a player receives — the view as the server sends it, the log with its
sentences, the odds and every derived value (Etherscope's base initiatives and default
declarations, VERS condition penalties in a roll's breakdown, Fabula Ultima's Crisis) — is the
same in two worlds that differ only in that side's hidden harm.

And conflicts made before harm views existed (no ``settings.harm_view``): every side is
exact, and ``override settings.harm_view.SIDE MODE`` works on them — one event, undone like
any other — on a conflict imported into SQLite from records written by main before harm
views, without rewriting a stored record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fracas.app.exchange import EXPORT_FORMAT, checksum, dumps, import_conflict
from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.app.service import ConflictService
from fracas.engine import harm_view
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import InvalidInput, NotYourTurn
from fracas.store.sql import SqlEventStore

pytestmark = pytest.mark.timeout(120)
ALICE = Viewer.named("alice")

ETHERSCOPE = """
ruleset = "etherscope"
title = "In the vault"
script = \"\"\"
ada: awareness successes=2
bruno: awareness successes=1
imp: awareness successes=0
moves
ada: done
bruno: done
\"\"\"
[settings]
time_scale = "tactical"
harm_view = { vault = "MODE" }
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "crew"
player = "alice"
stats = { physical = 10, ether = 10, society = 10, awareness = 2, skills = { brawl = 2 } }
[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "crew"
player = "bob"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }
[[participants]]
id = "imp"
name = "Imp"
side = "vault"
stats = { physical = 10, ether = 10, society = 10, awareness = 1 }
"""

FABULA = """
ruleset = "fabula-ultima"
title = "At the ford"
sides = ["heroes", "bandits"]
[settings]
pc_side = "heroes"
foe_side = "bandits"
harm_view = { bandits = "MODE" }
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
stats = { dex = 10, ins = 8, mig = 8, wlp = 8, hp = 45, mp = 40, ip = 6 }
[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "heroes"
player = "bob"
stats = { dex = 8, ins = 8, mig = 10, wlp = 8, hp = 50, mp = 35, ip = 6 }
[[participants]]
id = "ogre"
name = "Ogre"
side = "bandits"
stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40, mp = 20 }
"""

VERS = """
ruleset = "vers"
title = "At the inn"
sides = ["heroes", "toughs"]
[settings]
zones = [{ id = "floor", name = "Common room" }]
harm_view = { toughs = "MODE" }
[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
stats = { strength = 2, agility = 2, zone = "floor", skills = { close_combat = 3 } }
[[participants]]
id = "imp"
name = "Imp"
side = "toughs"
[participants.stats]
strength = 2
zone = "floor"
skills = { close_combat = 2 }
weapons = { club = { ev = 4, kind = "close" } }
"""


def world(scenario: str, mode: str, *lines: str) -> Conflict:
    """The scenario with the hidden side's harm view ``mode``, then ``lines``."""
    c = play_script(parse_scenario(scenario.replace("MODE", mode)), "harm")
    for line in lines:
        c.execute(line)
    return c


def received(c: Conflict, viewer: Viewer = ALICE) -> dict[str, Any]:
    """All a player receives: the view and the log."""
    return {"view": view(c, viewer),
            "log": log_view(c, viewer)}


def _participant(data: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in data["view"]["conflict"]["participants"] if p["id"] == pid)


@pytest.mark.rule("ES-ROUND-1", "ES-DMG-1")
@pytest.mark.parametrize("mode, low", [("none", 5), ("band", 6)])
def test_etherscope_base_initiative_and_damage_tell_nothing_hidden(mode: str, low: int) -> None:
    # the imp's condenser (its base initiative, declared by default) is 9 or `low`: both
    # below Ada's 10 and above Bruno's 2, so the countdown's order is the same
    rest = ("round", "ada: declare 10", "bruno: declare 2", "countdown",
            "ada: attack imp successes=3")
    a = world(ETHERSCOPE, mode, "override imp.condensers.physical 9", *rest)
    b = world(ETHERSCOPE, mode, f"override imp.condensers.physical {low}", *rest)
    seen = received(a)
    assert seen == received(b)
    text = json.dumps(seen)
    assert "base initiative" in text and "Imp takes ? physical damage" in text
    imp = _participant(seen, "imp")
    assert "condensers" not in imp and imp.get("harm") == ("hurt" if mode == "band" else None)
    gm = json.dumps(log_view(a, Viewer.gm()))
    assert "Imp 9" in gm and "Imp takes 3 physical damage" in gm  # the GM sees all
    with pytest.raises(NotYourTurn) as refused:  # nor does a refusal name the default score
        a.decide(a.parse("bruno: done"), Viewer.named("bob"))
    assert "Imp may act now" in str(refused.value) and "9" not in str(refused.value)


@pytest.mark.rule("ES-DMG-1")
def test_etherscope_band_counts_only_the_condensers_a_character_has() -> None:
    only_physical = ETHERSCOPE.replace(
        "stats = { physical = 10, ether = 10, society = 10, awareness = 1 }",
        "stats = { physical = 10, awareness = 1 }")
    c = world(only_physical, "band")
    assert _participant(received(c), "imp").get("harm") == "unhurt"  # was "down"
    c.execute("damage imp 3")
    assert _participant(received(c), "imp").get("harm") == "hurt"
    c.execute("damage imp 7")  # its physical condenser at 0: out of the conflict
    assert _participant(received(c), "imp").get("harm") == "down"
    tiny = world(only_physical.replace("physical = 10, awareness = 1",
                                       "physical = 1, awareness = 1"), "band")
    assert _participant(received(tiny), "imp").get("harm") == "unhurt"  # a condenser of 1


@pytest.mark.rule("FU-RES-1", "FU-RES-2", "FU-RES-3")
@pytest.mark.parametrize("mode", ["none", "band"])
def test_fabula_hp_crisis_and_odds_tell_nothing_hidden(mode: str) -> None:
    rest = ("ada: initiative dice=5,5,6,4", "bruno: attack ogre dice=5,4",
            "ogre: attack ada dice=6,6")
    a = world(FABULA, mode, "override ogre.hp.current 24", *rest)  # hurt, then in crisis
    b = world(FABULA, mode, "override ogre.hp.current 22", *rest)
    seen = received(a)
    assert seen == received(b)
    ogre = _participant(seen, "ogre")
    assert not {"hp", "mp", "crisis"} & set(ogre)
    assert ogre.get("harm") == ("in crisis" if mode == "band" else None)
    lines = [line for e in seen["log"] for line in e["lines"]]
    assert any(line.startswith("Ogre takes ? physical damage") for line in lines)
    assert any(line.startswith("Ada takes") and "HP" in line for line in lines)  # her own
    assert received(a, Viewer.gm()) != received(b, Viewer.gm())


@pytest.mark.rule("VR-INJ-1", "VR-INJ-3", "VR-ROLL-2")
def test_vers_conditions_and_their_penalties_tell_nothing_hidden() -> None:
    rest = ("open imp", "imp: attack ada dice=2,2,2")
    a = world(VERS, "none", "harm imp 6", *rest)  # impaired: −2 on every roll
    b = world(VERS, "none", "harm imp 1", *rest)  # grazed: no penalty
    seen = received(a)
    assert seen == received(b)
    attack = next(e["data"] for entry in seen["log"] for e in entry["events"]
                  if e["type"] == "attack")
    assert attack["target_number"] is None and attack["dos"] is None
    assert attack["mods"] == []  # a condition's name is its label: none is left
    lines = [line for e in seen["log"] for line in e["lines"]]
    assert "Imp takes harm (injury)" in lines
    assert "tracks" not in _participant(seen, "imp")
    gm = next(e["events"][0]["data"] for e in log_view(a, Viewer.gm())
              if e["command"] == "imp: attack ada dice=2,2,2")
    assert ["impaired", -2] in gm["mods"] and gm["target_number"] is not None


@pytest.mark.rule("VR-INJ-1")
def test_vers_band_shows_the_conditions_names_and_hides_the_rest() -> None:
    c = world(VERS, "band", "harm imp 6")
    seen = received(c)
    condition = next(e["data"] for entry in seen["log"] for e in entry["events"]
                     if e["type"] == "condition")
    assert condition["level"] is not None and condition["ev"] is None
    assert _participant(seen, "imp")["harm"] == condition["level"]


# --- conflicts made before harm views --------------------------------------------------

OLD = Path(__file__).parent.parent / "engine" / "data" / "exported-by-main-7233ce4.json"


def _old_export() -> tuple[str, list[dict[str, Any]]]:
    """An export file of a Fabula Ultima conflict whose records main wrote before harm views
    (so its settings hold no ``harm_view``)."""
    records = json.loads(OLD.read_text(encoding="utf-8"))["fabula-ultima-ambush"]["records"]
    assert "harm_view" not in records[0]["events"][0]["data"]["settings"]
    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT, "fracas": "main",
        "conflict": {"id": "old-ambush", "campaign": "default", "ruleset": "fabula-ultima",
                     "title": "Ambush", "created": "", "seed": "seed"},
        "records": records}
    doc["checksum"] = checksum(doc)
    return dumps(doc), records


@pytest.mark.rule("FU-RES-1")
def test_an_old_conflict_gets_harm_views_by_override_without_rewriting_its_records(
        tmp_path: Path) -> None:
    store = SqlEventStore(f"sqlite:///{tmp_path / 'fracas.db'}")
    service = ConflictService(store)
    text, records = _old_export()
    cid, _, _ = import_conflict(service, text, trust=True)
    c = service.load(cid)
    bob = Viewer.named("bob")
    before = received(c, bob)
    assert "hp" in _participant(before, "ada")  # every side exact: the old default
    version = c.version
    for bad, word in (("settings.harm_view.elves band", "elves"),
                      ("settings.harm_view.heroes fuzzy", "fuzzy")):
        with pytest.raises(InvalidInput, match=word):
            service.execute(cid, f"override {bad}")
    assert service.load(cid).version == version  # refused: nothing changed

    service.execute(cid, "override settings.harm_view.heroes band")
    c = service.load(cid)
    assert c.version == version + 1 and len(c.records[-1].events) == 1
    assert c.state.settings["harm_view"] == {"heroes": "band", "bandits": "exact"}
    ada = _participant(received(c, bob), "ada")
    assert "hp" not in ada and ada["harm"] in harm_view.BANDS
    stored = [r.to_data() for r in store.load(cid).records]
    assert [{k: r[k] for k in ("version", "command", "events")} for r in stored[:len(records)]
            ] == [{k: r[k] for k in ("version", "command", "events")} for r in records]

    service.execute(cid, "undo")
    c = service.load(cid)
    assert "harm_view" not in c.state.settings
    assert received(c, bob)["view"] == before["view"]
    store.close()


@pytest.mark.rule("VR-TURN-4", "VR-INJ-3")
def test_vers_a_disabled_characters_single_action_tells_nothing_hidden() -> None:
    a = world(VERS, "none", "harm imp 9", "open imp")  # disabled: one action, then endure
    b = world(VERS, "none", "harm imp 1", "open imp")
    assert a.state.ext.disabled("imp") and not b.state.ext.disabled("imp")
    assert received(a) == received(b)
    assert received(a)["view"]["conflict"]["ruleset"]["actions_left"] is None
    assert any("Imp opens the turn (? actions)" in e["lines"] for e in received(a)["log"])
    assert received(a, Viewer.gm())["view"]["conflict"]["ruleset"]["actions_left"] == 1


@pytest.mark.rule("FU-RES-1")
def test_fracas_show_as_a_player_gives_the_band_not_the_numbers(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fracas.cli import app

    scenario = tmp_path / "ford.toml"
    script = 'script = """\nada: initiative dice=5,5,6,4\nbruno: attack ogre dice=5,4\n"""\n'
    scenario.write_text(script + FABULA.replace("MODE", "band"), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'fracas.db'}"
    runner = CliRunner()
    made = runner.invoke(app, ["new", str(scenario), "--db", db])
    assert made.exit_code == 0, made.output
    cid = made.output.strip().split()[-1]
    gm = runner.invoke(app, ["show", cid, "--db", db, "--json"])
    alice = runner.invoke(app, ["show", cid, "--db", db, "--json", "--as", "alice"])
    assert gm.exit_code == 0 and alice.exit_code == 0, alice.output

    def ogre(output: str) -> dict[str, Any]:
        data = json.loads(output)
        return next(p for p in data["state"]["conflict"]["participants"] if p["id"] == "ogre")

    assert ogre(gm.output)["hp"]["current"] < 40
    seen = ogre(alice.output)
    assert seen["harm"] == "hurt" and seen["summary"] == "hurt"
    assert not {"hp", "mp", "crisis"} & set(seen) and "hp" not in seen["stats"]
    text = runner.invoke(app, ["show", cid, "--db", db, "--as", "alice"]).output
    row = next(line for line in text.splitlines() if line.strip().startswith("Ogre  "))
    assert "hurt" in row and "HP" not in row
