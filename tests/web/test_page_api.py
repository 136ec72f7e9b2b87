"""The server routes the table's pages use, against a real ``fracas serve``: the structured
legal commands (never naming a hidden participant to a player), the conflict form (the
engine's refusals, the harm views it stores), the rulesets' set-up choices and ladders, and
the harm views enforced in every channel a player receives (view, log, WebSocket frames)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.support import Served, frames_until_quiet, new_table
from tests.web.scenarios import BY_RULESET, FABULA

pytestmark = pytest.mark.timeout(120)


def _people(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in view["conflict"]["participants"]}


@pytest.mark.rule("ES-RNG-1")
def test_structured_legal_commands_never_name_a_hidden_character(served: Served) -> None:
    t = new_table(served.url)
    path = t.conflict(toml=BY_RULESET["etherscope"])
    alice = t.invite("alice")
    for cmd in ("zqdora: done", "ada: done", "bruno: done", "round"):
        assert t.gm.post(path + "/commands", json={"command": cmd}).status_code == 200
    mine = alice.get(path + "/legal-commands").json()
    assert list(mine) == ["ada"]
    declare = [c for c in mine["ada"] if c["verb"] == "declare"]
    assert declare and all(c["actor"] == "ada" for c in declare)
    assert all("initiative" in c["summary"] for c in declare)  # what it does, for the controls
    splits = next(c for c in declare if c["params"][0]["allowed"])["params"][0]["allowed"]
    assert [7, 1] in splits  # split initiatives offered as allowed values, checked by the rules
    assert "zqdora" not in json.dumps(mine).lower() and "zqlurker" not in json.dumps(mine).lower()
    gm = t.gm.get(path + "/legal-commands", params={"actor": "zqdora"}).json()
    assert any(c["verb"] == "declare" for c in gm["zqdora"])  # the GM acts for the lurker
    refused = alice.get(path + "/legal-commands", params={"actor": "zqdora"})
    assert refused.status_code == 404  # alike for hidden and missing
    assert "zqlurker" not in refused.text.lower()


def test_the_form_creates_a_conflict_or_shows_the_engines_refusal(served: Served) -> None:
    t = new_table(served.url)
    rulesets = {r["name"]: r for r in t.gm.get("/api/rulesets").json()}
    assert set(rulesets) == {"etherscope", "fabula-ultima", "vers"}
    assert {"name": "nature", "label": "Nature", "allowed": ["physical", "mental", "social"],
            "default": "physical"} in rulesets["etherscope"]["choices"]
    injury = rulesets["vers"]["ladders"]["injury"]
    assert [(lvl["name"], lvl["slots"], lvl["penalty"]) for lvl in injury] == [
        ("grazed", 2, 0), ("wounded", 2, -1), ("impaired", 1, -2), ("disabled", 1, -4)]
    setup: dict[str, Any] = {
        "ruleset": "fabula-ultima", "title": "From the form", "sides": ["heroes", "foes"],
        "settings": {"pc_side": "heroes", "foe_side": "foes", "harm_view": {"foes": "band"}},
        "participants": [
            {"id": "ada", "name": "Ada", "kind": "pc", "side": "heroes", "player": "alice",
             "stats": {"dex": 8, "ins": 8, "mig": 8, "wlp": 8, "hp": 40, "mp": 30}},
            {"id": "ogre", "name": "Ogre", "side": "foes", "gm_only": ["hp"],
             "stats": {"dex": 8, "ins": 8, "mig": 12, "wlp": 6, "hp": 99_999}}]}
    url = f"/api/tables/{t.id}/conflicts/form"
    r = t.gm.post(url, json={"setup": setup})
    assert r.status_code == 422 and "hp" in r.json()["message"]  # over the stat's range
    assert t.gm.get(f"/api/tables/{t.id}/conflicts").json() == []  # nothing was made
    bad_side = {**setup, "settings": {**setup["settings"], "harm_view": {"elves": "band"}}}
    r = t.gm.post(url, json={"setup": bad_side})
    assert r.status_code == 422 and "elves" in r.json()["message"]
    setup["participants"][1]["stats"]["hp"] = 3917
    r = t.gm.post(url, json={"setup": setup})
    assert r.status_code == 201, r.text
    alice = t.invite("alice")
    assert alice.post(url, json={"setup": setup}).status_code == 403  # only the GM
    view = alice.get(f"/api/tables/{t.id}/conflicts/{r.json()['id']}").json()["view"]
    assert view["conflict"]["settings"]["harm_view"] == {"heroes": "exact", "foes": "band"}
    assert "3917" not in json.dumps(view)


def test_a_refusal_of_the_form_names_no_line_of_a_file(served: Served) -> None:
    """A setting the rules refuse is said "the form: KEY …": no file was typed, so no line
    (it said "the form:1: …", a line of a file that was never there)."""
    t = new_table(served.url)
    setup = {"ruleset": "etherscope", "title": "Ambush", "sides": ["agents", "domain"],
             "settings": {"lurking": {"kim": ["nobody"]}},
             "participants": [{"id": "ada", "name": "Ada", "side": "agents", "stats": {}},
                              {"id": "kim", "name": "Kim", "side": "domain", "stats": {}}]}
    r = t.gm.post(f"/api/tables/{t.id}/conflicts/form", json={"setup": setup})
    assert r.status_code == 422
    assert r.json()["message"] == ("the form: settings.lurking.kim names 'nobody', who is not "
                                   "a participant")
    assert t.gm.get(f"/api/tables/{t.id}/conflicts").json() == []  # nothing was made


@pytest.mark.rule("FU-RES-1")
def test_a_band_or_nothing_is_all_a_player_receives_of_anothers_harm(served: Served) -> None:
    t = new_table(served.url)
    path = t.conflict(toml=FABULA)
    bob = t.invite("bob")
    ws = bob.live(path)
    frames_until_quiet(ws)
    for cmd in ("override settings.harm_view.heroes band", "ada: initiative dice=5,5,6,4",
                "override ada.hp.current 17"):
        assert t.gm.post(path + "/commands", json={"command": cmd}).status_code == 200
    frames = json.dumps(frames_until_quiet(ws))
    ws.close()
    answer = bob.get(path).json()
    ada = _people(answer["view"])["ada"]
    assert ada["harm"] == "in crisis" and ada["summary"] == "in crisis"  # 17 of 45
    assert not {"hp", "mp", "crisis"} & set(ada) and "hp" not in ada["stats"]
    assert _people(answer["view"])["bruno"]["hp"] == {"current": 50, "max": 50}  # his own
    one = bob.get(path + "/characters/ada").json()  # the same on the one-character route
    assert one["harm"] == "in crisis" and "hp" not in one
    for text in (frames, json.dumps(answer), json.dumps(one)):
        assert "17/45" not in text and '"current": 17' not in text
    # a damage line of a masked character keeps who and how, never how much
    assert t.gm.post(path + "/commands", json={"command": "bruno: attack imp dice=5,4"}
                     ).status_code == 200
    assert t.gm.post(path + "/commands", json={"command": "imp: attack ada dice=6,6"}
                     ).status_code == 200
    log = bob.get(path).json()["log"]
    hits = [e for entry in log for e in entry["events"]
            if e["type"] == "damage" and e["data"].get("target") == "ada"]
    assert hits and all(e["data"]["amount"] is None and e["data"]["raw"] is None
                        and "hp_after" not in e["data"] for e in hits)
    lines = [line for entry in log for line in entry.get("lines", []) if "Ada takes" in line]
    assert lines and all(line.startswith("Ada takes ? physical damage") for line in lines)
    assert not any("HP" in line for line in lines)  # built from the masked event
    t.gm.post(path + "/commands", json={"command": "override settings.harm_view.heroes none"})
    ada = _people(bob.get(path).json()["view"])["ada"]
    assert "harm" not in ada and ada["summary"] == ""
    gm_view = _people(t.gm.get(path).json()["view"])["ada"]
    assert gm_view["hp"]["current"] < 17  # the GM always sees the values
