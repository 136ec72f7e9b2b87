"""Secrets by structure in VERS: every value derived from a GM-only stat or setting is hidden
from players wherever it goes (attack, condition, cover hit, a guard's blow, TNs), and no view
depends on the wording of a label (issue 17 items 4 and 8, issue 10 item 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.events import Event
from fracas.engine.model import Viewer
from fracas.engine.projector import offered
from fracas.engine.secrets import Modifier
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from fracas.rulesets.vers import actions, chases, decider

from .helpers import ZONES, do, make, npc, pc, ruleset

ALICE = Viewer.of_player("ada")


def player_events(c: Conflict, viewer: Viewer = ALICE) -> list[Event]:
    """The events a player's log shows, read back as events."""
    return [Event.from_data(e, c.ruleset.events) for r in log_view(c, viewer) for e in r["events"]]


def sentences(c: Conflict, viewer: Viewer = ALICE) -> list[str]:
    """The sentence of every event a player's log shows, built from the redacted event."""
    return [ruleset().describe(e, c.state) or "" for e in player_events(c, viewer)]


def brute(**more: Any) -> dict[str, Any]:
    """A brute whose weapons are GM-only: a maul of EV 13."""
    stats = {"zone": "a", "tn": {"close_combat": 15}, "weapons": {"maul": {"ev": 13}}, **more}
    return {**npc("brute", **stats), "gm_only": ["weapons"]}


def ada(**more: Any) -> dict[str, Any]:
    return pc("ada", zone="a", rv=1, tn={"close_combat": 12, "athletics": 10}, **more)


def assert_no_maul(c: Conflict) -> None:
    """No player output carries the maul's name, its EV, or a number computed from it."""
    text = json.dumps(log_view(c, ALICE)) + json.dumps(view(c, ALICE)) + "\n".join(sentences(c))
    assert "maul" not in text
    for line in sentences(c):
        for leak in ("EV 13", "net EV 12", "RV 1 = 12", "hardness 2 = 11", "net EV 11"):
            assert leak not in line, line
    for e in player_events(c):
        for key in ("ev", "net", "weapon", "why"):
            if e.type in ("attack", "condition", "object_damaged") and key in e.data:
                assert e.data[key] is None, (e.type, key, e.data)


@pytest.mark.rule("VR-ROLL-2")
def test_a_gm_only_weapon_hides_its_ev_name_and_the_net_ev_of_the_harm() -> None:
    c = make(ada(), brute(), **ZONES)
    do(c, "open brute", "brute: attack ada dice=1,1,1")
    gm = sentences(c, Viewer.gm())
    assert any("Ada is disabled (injury, net EV 12)" in s for s in gm)
    assert any("with maul" in s and "net EV 13 − RV 1 = 12" in s for s in gm)
    assert_no_maul(c)
    assert any("Ada is disabled (injury, net EV ?)" in s for s in sentences(c))
    assert any("with ? (close)" in s and "net EV ? − RV 1 = ?" in s for s in sentences(c))


@pytest.mark.rule("VR-ATK-5", "VR-OBJ-3")
def test_a_cover_hit_by_a_gm_only_weapon_hides_the_ev_it_deals_the_cover() -> None:
    c = make(ada(), brute(), objects=[{"id": "crate", "name": "Crate", "material": "wood"}],
             cover=[{"who": "ada", "value": 5, "object": "crate"}], **ZONES)
    do(c, "open brute", "brute: attack ada dice=4,4,4")  # 12 > 15 − 5 − 0, ≤ 15: the cover
    gm = sentences(c, Viewer.gm())
    assert any("Crate is broken: EV 13 − hardness 2 = 11" in s for s in gm)
    assert_no_maul(c)
    assert any("Crate is broken: EV ? − hardness 2 = ?" in s for s in sentences(c))


@pytest.mark.rule("VR-MOVE-5")
def test_a_guards_blow_with_a_gm_only_weapon_hides_its_ev() -> None:
    c = make(ada(), brute(zone="b", skills={"close_combat": 2}), **ZONES)
    do(c, "guard brute a b", "open ada", "ada: slip b dice=6,6,6")
    gm = sentences(c, Viewer.gm())
    assert any("Ada is disabled (injury, net EV 12)" in s for s in gm)
    assert_no_maul(c)


@pytest.mark.rule("VR-ROLL-1")
def test_a_gm_only_base_tn_shows_through_no_tn() -> None:
    c = make(ada(), npc("sneak", zone="b", agility=2, skills={"ranged_combat": 3},
                        weapons={"bow": {"ev": 3, "kind": "ranged"}}),
             base_tn=11, gm_only_settings=["base_tn"], **ZONES)
    do(c, "open sneak", "sneak: attack ada dice=6,6,6")
    gm = sentences(c, Viewer.gm())
    assert any("Sneak attacks Ada" in s and "TN 16" in s for s in gm)
    for line in sentences(c):
        assert "TN 16" not in line and "TN 11" not in line
    attack = next(e for e in player_events(c) if e.type == "attack")
    assert attack.data["tn"] is None and attack.data["target_number"] is None
    assert any("Sneak attacks Ada" in s and "TN ?" in s for s in sentences(c))
    assert "11" not in json.dumps(view(c, ALICE)["conflict"]["settings"])


@pytest.mark.rule("VR-ATK-4", "VR-ROLL-2")
def test_a_gm_only_reach_shows_as_a_question_mark_whichever_side_it_is_on() -> None:
    """The reach modifier comes from both fighters' reach: a GM-only reach hides it from a
    player whether its owner is the target (the first source) or the attacker (the second)."""
    c = make(pc("ada", zone="a", reach=1, tn={"close_combat": 12}, weapons={"sword": {"ev": 4}}),
             {**npc("thug", zone="a", reach=2, tn={"close_combat": 13},
                    weapons={"club": {"ev": 3}}), "gm_only": ["reach"]}, **ZONES)
    do(c, "open ada", "ada: attack thug dice=2,2,2", "ada: handoff thug",
       "thug: attack ada dice=2,2,2")
    gm = [s for s in sentences(c, Viewer.gm()) if " attacks " in s]
    assert "Close combat TN 12 (−1 reach: −1) → 11: rolled [2, 2, 2] = 6" in gm[0]
    assert "Close combat TN 13 (−1 wounded, +1 reach: +0) → 13: rolled [2, 2, 2] = 6" in gm[1]
    ada_reads = [s for s in sentences(c) if " attacks " in s]
    assert "Close combat TN 12 (? reach: ?): rolled [2, 2, 2] = 6, success → hit" in ada_reads[0]
    assert ("Close combat TN 13 (−1 wounded, ? reach: ?): rolled [2, 2, 2] = 6, success "
            "→ hit") in ada_reads[1]
    reach_values = [m[1] for e in player_events(c) if e.type == "attack"
                    for m in e.data["mods"] if m[0] == "reach"]
    assert reach_values == [None, None]


#: Stats of every kind a label could name, GM-only for the thug.
HIDDEN = ["dodge", "skills", "reach", "rv", "weapons", "tn", "agility", "intuition"]
SCRIPT = ["open ada", "ada: attack thug dice=2,2,3", "ada: handoff thug",
          "thug: attack ada dice=2,2,2", "thug: handoff bruno", "bruno: attack thug dice=3,3,3",
          "bruno: slip c dice=6,6,6", "bruno: handoff guard", "guard: handoff",
          "open thug", "thug: disengage dice=1,1,1", "thug: move b", "thug: handoff ada",
          "ada: move b", "ada: attack thug dice=6,6,6", "ada: handoff bruno",
          "bruno: handoff guard", "guard: handoff", "chase c1 hunter=ada quarry=thug",
          "ada: run c1 dice=3,3,3"]


def _played() -> Conflict:
    c = make(pc("ada", zone="a", reach=1, skills={"close_combat": 2}, weapons={"sword": {"ev": 5}}),
             {**npc("thug", zone="a", dodge=3, reach=2, rv=2, agility=2, intuition=1,
                    skills={"close_combat": 3, "athletics": 2}, tn={"close_combat": 13},
                    weapons={"club": {"ev": 6}}), "gm_only": HIDDEN},
             pc("bruno", zone="b", weapons={"bow": {"ev": 4, "kind": "ranged"}}),
             npc("guard", zone="b", skills={"close_combat": 1}), **ZONES)
    do(c, "guard guard b c")
    do(c, *SCRIPT)
    return c


@pytest.mark.rule("VR-ROLL-2")
def test_rewording_every_label_changes_nothing_a_player_may_know(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every modifier label of the ruleset gets a random prefix; each player's log, view and
    sentences reveal exactly the same, up to the prefix (so no redaction reads a label)."""
    players = [Viewer.of_player("ada"), Viewer.of_player("bruno")]
    c = _played()
    before = [json.dumps([log_view(c, v), view(c, v), sentences(c, v)]) for v in players]
    prefix = "zq" + "".join(__import__("secrets").choice("xyzw") for _ in range(6)) + " "

    def reworded(label: str, value: int | None, of: str | None = None,
                 stat: str | None = None) -> Modifier:
        return Modifier(prefix + label, value, of, stat)

    for module in (decider, actions, chases):
        monkeypatch.setattr(module, "Modifier", reworded)
    c = _played()
    after = [json.dumps([log_view(c, v), view(c, v), sentences(c, v)]) for v in players]
    assert prefix in "".join(after)  # the labels did change
    assert [a.replace(prefix, "") for a in after] == before
    gm = json.dumps(log_view(c, Viewer.gm()))
    assert f'"{prefix}Thug\'s dodge", -3, "thug", "dodge"' in gm  # the GM sees the values
    assert f'"{prefix}Thug\'s dodge", null' in after[0]  # a player does not


@pytest.mark.rule("VR-ATK-1")
def test_a_player_is_offered_attacks_that_name_none_of_their_gm_only_weapons() -> None:
    c = make({**ada(weapons={"zqmaul": {"ev": 13}, "zqknife": {"ev": 2}}),
              "gm_only": ["weapons"]}, npc("thug", zone="a"), pc("bo", zone="a"), **ZONES)
    do(c, "open ada")
    gm = [lc for lc in offered(c, Viewer.gm(), "ada") if lc.verb == "attack"]
    assert {lc.choice("weapon").fixed for lc in gm} == {"zqmaul", "zqknife", "unarmed"}
    mine = [lc for lc in offered(c, ALICE, "ada") if lc.verb == "attack"]
    assert "zq" not in json.dumps([lc.to_data() for lc in mine])
    assert [lc.text() for lc in mine] == ["ada: attack thug dice=DICE", "ada: attack bo dice=DICE"]
    assert all(lc.choice("weapon").fixed is None and not lc.choice("weapon").required
               for lc in mine)
    c.execute(mine[0].command(dice=[2, 2, 2]), time="")  # the first weapon: the maul
    assert c.records[-1].events[0].data["weapon"] == "zqmaul"


@pytest.mark.rule("VR-TURN-1")
def test_a_concealed_opener_leaves_no_trace_in_the_turn_line_or_its_data() -> None:
    c = make(ada(), npc("spy", zone="a"), npc("brute", zone="a"), **ZONES)
    do(c, "conceal spy", "open brute", "brute: handoff ada", "ada: handoff spy", "spy: handoff",
       "open spy")
    turn = view(c, ALICE)["conflict"]["ruleset"]
    assert turn["lines"][0] == "Turn 2 · earlier openers: Brute (turn 1)"
    assert turn["openers"] == [[1, "brute"]]
    assert turn["current"] is None and turn["actions_left"] is None
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]
    assert gm["openers"] == [[1, "brute"], [2, "spy"]] and gm["actions_left"] == 2


@pytest.mark.rule("VR-ROLL-2")
def test_whether_a_gm_only_close_combat_beats_the_dodge_shows_in_no_odds_or_roll() -> None:
    """The close defence is the greater of Dodge and Close Combat ranks: with the ranks
    GM-only, neither the player's odds nor the roll's modifier may tell which counted (before:
    the odds line was there while the secret ranks were at most the dodge, and gone above)."""
    seen = set()
    for ranks in range(4):
        c = make(pc("ada", zone="a", tn={"close_combat": 12}, weapons={"sword": {"ev": 4}}),
                 {**npc("thug", zone="a", dodge=1, skills={"close_combat": ranks}),
                  "gm_only": ["skills"]}, **ZONES)
        do(c, "open ada")
        odds = [line for line in view(c, ALICE)["conflict"]["odds"] if "Thug" in line]
        do(c, "ada: attack thug dice=2,2,2")
        mods = [e.data["mods"] for e in player_events(c) if e.type == "attack"]
        seen.add((json.dumps(odds), json.dumps(mods)))
    kept = ["Ada → Thug (sword): odds the GM keeps", "Ada → Thug (unarmed): odds the GM keeps"]
    assert seen == {(json.dumps(kept), json.dumps([[["Thug's close combat or dodge", None]]]))}


@pytest.mark.rule("VR-MOVE-4", "VR-MOVE-5")
def test_a_concealed_character_leaves_no_engaged_pair_or_guarded_way_in_a_players_view():
    c = make(pc("ada", zone="a", tn={"close_combat": 12}, weapons={"sword": {"ev": 4}}),
             npc("thug", zone="a", weapons={"club": {"ev": 3}}),
             npc("sentry", zone="b"), **ZONES)
    do(c, "guard sentry a b", "open ada", "ada: attack thug dice=6,6,6",
       "conceal thug", "conceal sentry")
    seen = view(c, ALICE)["conflict"]["ruleset"]
    # before: "engaged": ["ada|thug"] and "guards": {"a|b": []} told of both
    assert seen["engaged"] == [] and seen["guards"] == {}
    assert "thug" not in json.dumps(view(c, ALICE)) and "sentry" not in json.dumps(seen)


@pytest.mark.rule("VR-ATK-2")
def test_a_target_engaged_with_a_concealed_one_tells_a_player_no_engagement() -> None:
    """A concealed character in close combat with Thug makes Bruno's shot at Thug harder
    (−2, VR-ATK-2; the GM reads it so). Bob's view lists no engagement, and nor may his odds or
    his attack's line: before, they read '−2 target engaged', telling Bob that someone he may
    not know of was fighting Thug. Now that modifier is masked like a GM-only stat's, with
    no label, and so is what it makes (TN, DoS); the odds of a shot at Thug are the GM's."""
    from fracas.app.scenario import load_scenario
    from fracas.app.script import from_the_start, play_script

    bob = Viewer.of_player("bob")
    c = play_script(from_the_start(load_scenario("vers-tavern-brawl")), "seed", time=None)
    for line in ("""join zq name=Zqhid side=heroes 'stats={"zone": "floor"}' hidden=yes""",
                 "ada: handoff zq", "zq: attack thug weapon=unarmed dice=1,1,1",
                 "zq: handoff bruno"):
        c.execute(line, time="")
    assert view(c, bob)["conflict"]["ruleset"]["engaged"] == []
    assert not any("engaged" in line for line in view(c, bob)["conflict"]["odds"])
    assert [line for line in view(c, bob)["conflict"]["odds"] if line.startswith(
        "Bruno → Thug")] == ["Bruno → Thug (crossbow): odds the GM keeps"]  # no number
    c.execute("bruno: attack thug weapon=crossbow dice=3,3,3", time="")
    gm = log_view(c, Viewer.gm())[-1]["lines"][0]
    assert "−2 target engaged: −3) → 13" in gm  # the GM's game is unchanged
    for viewer in (bob, ALICE, Viewer.public()):
        seen = json.dumps(log_view(c, viewer)[-1])
        assert "engaged" not in seen and "zq" not in seen.lower(), viewer
        assert "(−1 Thug's dodge, ? GM-only: ?)" in log_view(c, viewer)[-1]["lines"][0]


@pytest.mark.rule("VR-ROLL-2")
def test_a_mistyped_target_gets_a_did_you_mean_for_the_gm_and_none_for_a_player() -> None:
    c = make(pc("ada", skills={"close_combat": 1}), npc("bruiser"), npc("sniper"))
    do(c, "conceal sniper", "open ada")

    def told(line: str, viewer: Viewer | None = None) -> str:
        with pytest.raises(FracasError) as info:
            c.execute(line, viewer)
        return str(info.value)

    # before: "no character or object 'brusier' to attack", where a mistyped name anywhere
    # else (a hand-off, a move) says what was meant
    assert told("ada: attack brusier") == \
        "no character or object 'brusier' to attack; did you mean 'bruiser'?"
    # a player is told the same of a typo, of a hidden one and of a name that is nobody's
    assert told("ada: attack brusier", ALICE) == "no character or object 'brusier' to attack"
    assert told("ada: attack sniper", ALICE) == "no character or object 'sniper' to attack"
    assert told("ada: attack snipr", ALICE) == "no character or object 'snipr' to attack"
    assert told("ada: attack zzz") == "no character or object 'zzz' to attack"


@pytest.mark.rule("VR-INJ-1")
def test_the_gms_reason_for_harm_naming_a_concealed_character_is_left_out_of_the_players_log(
) -> None:
    c = make(ada(), npc("lurker", zone="a"), seed="why", **ZONES)
    do(c, "conceal lurker", "harm ada 1 why=\"the Lurker's trap bites\"")
    entry = log_view(c, ALICE)[-1]
    # Ada's harm still reads (the reason stands beside the sentence, which never said it)
    assert entry["lines"] == ["Ada is grazed (injury, net EV 1)"], entry
    assert entry["events"][0]["data"]["why"] is None
    assert "Lurker" not in json.dumps(entry)
    assert log_view(c, Viewer.gm())[-1]["events"][0]["data"]["why"] == "the Lurker's trap bites"
    do(c, "reveal lurker", "harm ada 1 why='the Lurker strikes again'")  # known: it reads
    assert log_view(c, ALICE)[-1]["events"][0]["data"]["why"] == "the Lurker strikes again"


@pytest.mark.rule("VR-MOVE-1", "VR-OBJ-1")
def test_a_place_named_for_a_concealed_character_stays_on_the_players_map() -> None:
    """The Lurker's den and the Lurker's chest are places on the map, read at set-up: when
    the Lurker is concealed they stay on Ada's map under their names (before, both dropped
    out of it, the link to the den left dangling, and that told of the concealment); what
    names the Lurker himself is still withheld."""
    zones = [{"id": "a", "name": "Hall"}, {"id": "den", "name": "Lurker's den"}]
    c = make(ada(), npc("lurker", zone="den"), seed="den", zones=zones, links=[["a", "den"]],
             objects=[{"id": "chest", "name": "Lurker's chest", "material": "wood",
                       "zone": "den"}])
    before = view(c, ALICE)["conflict"]["settings"]
    do(c, "conceal lurker", "note 'the Lurker waits in the dark'",
       "note \"Ada eyes the Lurker's chest\"")
    settings = view(c, ALICE)["conflict"]["settings"]
    assert settings["zones"] == before["zones"] == zones
    assert [o["name"] for o in settings["objects"]] == ["Lurker's chest"]
    lines = [line for e in log_view(c, ALICE) for line in e["lines"]]
    assert "note: Ada eyes the Lurker's chest" in lines
    assert not any("waits" in line for line in lines)



def ada_with_a_sword() -> dict[str, Any]:
    return pc("ada", zone="a", tn={"close_combat": 12, "athletics": 10},
              weapons={"sword": {"ev": 4}})


@pytest.mark.rule("VR-MOVE-4")
def test_an_engagement_with_a_concealed_one_does_not_hold_a_player_character() -> None:
    """Before, Ada's player was offered only 'disengage' (no moves) and a move was refused
    with 'Ada is engaged with Thug': both told of a Thug the player may not know. A concealed
    opponent must show itself to hold her, as a concealed guard must to stop her."""
    def engaged(*then: str) -> Conflict:
        c = make(ada_with_a_sword(), npc("thug", zone="a"), **ZONES)
        do(c, "open ada", "ada: attack thug dice=1,1,1", *then)
        return c

    shown = engaged("conceal thug", "reveal thug")
    assert [lc.verb for lc in offered(shown, ALICE, "ada")].count("disengage") == 1
    c = engaged("conceal thug")
    for viewer in (ALICE, Viewer.gm()):
        verbs = [lc.verb for lc in offered(c, viewer, "ada")]
        assert "disengage" not in verbs and "move" in verbs, (viewer, verbs)
    do(c, "ada: move b")
    gm = view(c, Viewer.gm())["conflict"]["ruleset"]
    assert gm["engaged"] == [] and gm["positions"]["ada"] == "b"
    assert log_view(c, ALICE)[-1]["lines"] == ["Ada moves from a to b"]  # and no blow of Thug's


@pytest.mark.rule("VR-MOVE-4")
def test_a_disengage_from_a_seen_and_a_concealed_opponent_counts_the_seen_one_alone() -> None:
    """Ada is held by Brute, whom her player sees, and engaged with the concealed Thug: her
    Disengage roll has no '−2 for 1 more opponent', and a failure gives Brute alone a free
    attack."""
    c = make(ada_with_a_sword(), npc("thug", zone="a"),
             npc("brute", zone="a", weapons={"maul": {"ev": 1}}), **ZONES)
    do(c, "open brute", "brute: attack ada dice=1,1,1", "brute: handoff ada",
       "ada: attack thug dice=1,1,1", "conceal thug")
    assert [lc.verb for lc in offered(c, ALICE, "ada")].count("disengage") == 1
    failed = do(c, "ada: disengage dice=6,6,6 free=1,1,1")
    assert failed[0].data["from"] == ["brute"] and failed[0].data["check"]["mods"] == []
    assert [e.data["weapon"] for e in failed if e.type == "attack"] == ["maul"]
