"""Attack rolls, range, engaged targets, thrown weapons, reach and cover (VR-ROLL-*, VR-ATK-*)."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.serialize import state_to_data
from fracas.engine.views import view
from fracas.errors import FracasError, InvalidInput
from fracas.rulesets.vers.decider import attack_plan

from .helpers import ZONES, do, make, npc, of, pc, refused, ruleset


def shooter(**stats):
    base = {"zone": "a", "tn": {"ranged_combat": 14, "athletics": 14, "close_combat": 12},
            "weapons": {"bow": {"ev": 5, "kind": "ranged"}, "axe": {"ev": 4, "kind": "thrown"}}}
    return pc("ada", **{**base, **stats})


@pytest.mark.rule("VR-ROLL-1")
def test_tn_from_sheet_or_base_plus_attribute_plus_ranks():
    c = make(pc("ada", agility=2, skills={"athletics": 3}, tn={"stealth": 15}))
    p = c.state.participants["ada"]
    from fracas.rulesets.vers.state import skill_tn
    assert skill_tn(c.state, p, "athletics") == 15
    assert skill_tn(c.state, p, "stealth") == 15
    c2 = make(pc("ada", agility=2, skills={"athletics": 3}), base_tn=8)
    assert skill_tn(c2.state, c2.state.participants["ada"], "athletics") == 13


@pytest.mark.rule("VR-ROLL-1")
def test_roll_under_with_degrees_and_table_dice():
    c = make(pc("ada", tn={"close_combat": 12}), npc("thug"))
    do(c, "open ada")
    with pytest.raises(InvalidInput):
        c.execute("ada: attack thug dice=7,1,1")
    events = do(c, "ada: attack thug dice=4,4,2")
    att = of(events, "attack")[0]
    assert att["total"] == 10 and att["success"] and att["dos"] == 2
    events = do(c, "ada: attack thug dice=6,4,5")
    att = of(events, "attack")[0]
    assert not att["success"] and att["dof"] == 3
    assert att["roll"]["dice"] == [6, 4, 5]


@pytest.mark.rule("VR-ROLL-2")
def test_defender_penalty_and_net_ev_against_armor():
    c = make(pc("ada", tn={"close_combat": 14}, weapons={"sword": {"ev": 5}}),
             npc("thug", agility=1, intuition=1, rv=2, skills={"close_combat": 3}))
    events = do(c, "open ada", "ada: attack thug dice=3,3,3")
    att = of(events, "attack")[0]
    assert att["mods"] == [["Thug's close combat", -3, "thug", "skills"]]  # ranks 3 beat dodge
    assert att["net"] == 3
    assert of(events, "condition")[0]["level"] == "wounded"
    c2 = make(pc("ada", tn={"close_combat": 14}, weapons={"fist": {"ev": 1}}), npc("k", rv=3))
    events = do(c2, "open ada", "ada: attack k dice=1,1,1")
    assert of(events, "attack")[0]["net"] == -2
    assert of(events, "condition") == []


@pytest.mark.rule("VR-ROLL-2", "VR-INJ-5")
def test_a_weapon_written_without_an_ev_strikes_with_none():
    """A weapon the sheet gives no EV deals EV 0, physical or social: net EV = −RV."""
    c = make(pc("ada", tn={"close_combat": 14}, presence=2, skills={"intimidation": 2},
                weapons={"stick": {}, "jeer": {"kind": "social", "skill": "intimidation"}}),
             npc("thug", rv=1))
    do(c, "open ada")
    stick = of(do(c, "ada: attack thug weapon=stick dice=1,1,1"), "attack")[0]
    assert (stick["hit"], stick["ev"], stick["net"]) == (True, 0, -1)
    jeer = of(do(c, "ada: attack thug weapon=jeer dice=1,1,1"), "attack")[0]
    assert (jeer["hit"], jeer["ev"], jeer["net"]) == (True, 0, 0)


def preview_mods(c, attacker, target, weapon=None):
    """[label, value] of each modifier of an attack before it is rolled."""
    return [[m.label, m.value] for m in attack_plan(c.state, attacker, target, weapon).mods]


@pytest.mark.rule("VR-ATK-1")
def test_ranged_penalty_by_zone_distance():
    expected = {"a": [["same zone", -2]], "b": [], "c": [["range 2 zones", -2]],
                "d": [["range 3 zones", -4]], "e": [["range 4 zones", -6]]}
    for zone, mods in expected.items():
        c = make(shooter(), npc("orc", zone=zone), **ZONES)
        assert preview_mods(c, "ada", "orc", "bow")[1:] == mods, zone


@pytest.mark.rule("VR-ATK-1")
def test_a_fight_without_zones_is_in_one_room_so_a_shot_takes_the_same_zone_penalty():
    unplaced = {k: v for k, v in shooter()["stats"].items() if k != "zone"}
    c = make(pc("ada", **unplaced), npc("orc"))  # no zones: docs/vers.md, "one room"
    assert preview_mods(c, "ada", "orc", "bow")[1:] == [["same zone", -2]]


@pytest.mark.rule("VR-ATK-2", "VR-ATK-1")
def test_shot_three_zones_away_at_target_engaged_with_two_is_minus_8():
    c = make(shooter(), npc("orc", zone="d"), npc("x", zone="d", tn={"close_combat": 3}),
             npc("y", zone="d", tn={"close_combat": 3}), **ZONES)
    do(c, "open x", "x: attack orc dice=6,6,6", "x: handoff y", "y: attack orc dice=6,6,6",
       "y: handoff ada")
    events = do(c, "ada: attack orc weapon=bow dice=2,2,2")
    att = of(events, "attack")[0]
    assert att["mods"] == [["range 3 zones", -4], ["target engaged with 2", -4]]
    assert att["modifier"] == -8 and att["target_number"] == 6
    assert att["breakdown"] == "−4 range 3 zones, −4 target engaged with 2: −8"


@pytest.mark.rule("VR-ATK-3")
def test_thrown_weapon_two_zones_needs_3_dos():
    c = make(shooter(), npc("orc", zone="c"), **ZONES)
    do(c, "open ada")
    att = of(do(c, "ada: attack orc weapon=axe dice=3,3,3"), "attack")[0]
    assert att["skill"] == "athletics" and att["target_number"] == 12
    assert att["dos"] == 3 and att["hit"]
    att = of(do(c, "ada: attack orc weapon=axe dice=3,3,4"), "attack")[0]
    assert att["success"] and att["dos"] == 2 and not att["hit"]


@pytest.mark.rule("VR-ATK-3")
def test_thrown_weapon_three_zones_needs_6_dos():
    c = make(shooter(), npc("orc", zone="d"), **ZONES)
    do(c, "open ada")
    att = of(do(c, "ada: attack orc weapon=axe dice=1,1,2"), "attack")[0]
    assert att["target_number"] == 10 and att["min_dos"] == 6  # 14, −4 three zones away
    assert att["dos"] == 6 and att["hit"]
    att = of(do(c, "ada: attack orc weapon=axe dice=1,2,2"), "attack")[0]
    assert att["success"] and att["dos"] == 5 and not att["hit"]


@pytest.mark.rule("VR-ATK-3")
def test_thrown_same_zone_and_next_zone():
    c = make(shooter(), npc("orc", zone="a"), npc("elf", zone="b"), **ZONES)
    assert preview_mods(c, "ada", "orc", "axe")[1:] == [["same zone", -2]]
    assert attack_plan(c.state, "ada", "orc", "axe").min_dos == 0
    assert preview_mods(c, "ada", "elf", "axe")[1:] == []
    assert attack_plan(c.state, "ada", "elf", "axe").min_dos == 0


@pytest.mark.rule("VR-ATK-4")
def test_reach_bonus_and_penalty_in_close_combat_only():
    c = make(pc("ada", reach=2, zone="a", weapons={"spear": {"ev": 4}}),
             npc("orc", zone="a", weapons={"dagger": {"ev": 2}}), **ZONES)
    assert preview_mods(c, "ada", "orc")[-1] == ["reach", 2]
    assert preview_mods(c, "orc", "ada")[-1] == ["reach", -2]
    c2 = make(shooter(reach=2), npc("orc", zone="b"), **ZONES)
    assert ["reach", 2] not in preview_mods(c2, "ada", "orc", "bow")


@pytest.mark.rule("VR-ATK-4")
def test_a_shorter_reach_than_most_is_a_reach_below_zero():
    c = make(pc("ada", reach=-1, zone="a", weapons={"knife": {"ev": 2}}),
             npc("orc", zone="a", weapons={"club": {"ev": 3}}), **ZONES)
    assert preview_mods(c, "ada", "orc")[-1] == ["reach", -1]
    assert preview_mods(c, "orc", "ada")[-1] == ["reach", 1]
    with pytest.raises(InvalidInput, match="reach"):
        make(pc("ada", reach=-11, zone="a"), npc("orc", zone="a"), **ZONES)


def orc_behind_a_crate():
    """Ada, with her turn open, and an orc one zone away, two thirds behind a crate (−3)."""
    c = make(shooter(), npc("orc", zone="b"), **ZONES,
             objects=[{"id": "crate", "material": "wood"}],
             cover=[{"who": "orc", "value": 3, "object": "crate"}])
    do(c, "open ada")
    return c


@pytest.mark.rule("VR-ATK-5", "VR-OBJ-2")
def test_cover_penalty_and_a_miss_by_the_cover_strikes_it():
    c = orc_behind_a_crate()
    events = do(c, "ada: attack orc weapon=bow dice=4,4,4")  # 12 > 11, ≤ 14
    att = of(events, "attack")[0]
    assert att["mods"] == [["cover", -3]] and not att["hit"] and att["cover_hit"]
    dmg = of(events, "object_damaged")[0]
    assert dmg["object"] == "crate" and dmg["net"] == 3 and dmg["level"] == "damaged"
    assert of(events, "condition") == []
    events = do(c, "ada: attack orc weapon=bow dice=5,5,5")  # 15: a plain miss
    assert not of(events, "attack")[0]["cover_hit"] and of(events, "object_damaged") == []


@pytest.mark.rule("VR-ATK-5", "VR-OBJ-2")
def test_a_miss_that_would_just_hit_without_the_cover_strikes_it():
    c = orc_behind_a_crate()
    events = do(c, "ada: attack orc weapon=bow dice=5,5,4")  # 14: the TN without the cover
    att = of(events, "attack")[0]
    assert not att["hit"] and att["cover_hit"] and att["target_number"] == 11
    assert of(events, "object_damaged")[0]["object"] == "crate"
    do(c, "cover orc 1 object=crate")  # a third of the orc hidden: −1
    events = do(c, "ada: attack orc weapon=bow dice=5,5,4")
    att = of(events, "attack")[0]
    assert not att["hit"] and att["cover_hit"] and att["target_number"] == 13


@pytest.mark.rule("VR-ATK-5")
def test_gm_sets_cover_values():
    c = make(shooter(), npc("orc", zone="b"), **ZONES)
    do(c, "cover orc 5")
    assert c.state.ext.cover["orc"] == -5
    refused(c, "cover orc 2", "VR-ATK-5")
    refused(c, "cover orc 1 object=nothing", "VR-ATK-5")


@pytest.mark.rule("VR-ATK-5")
def test_cover_reads_as_the_share_of_the_character_it_hides():
    """⅓, ⅔ or complete cover, by its −1, −3 or −5 to attacks, in the log and the view."""
    c = make(shooter(), npc("orc", zone="b"), **ZONES)
    for value, share in ((1, "⅓"), (3, "⅔"), (5, "complete")):
        do(c, f"cover orc {value}")
        line = f"Orc has {share} cover (−{value} to attacks on them)"
        assert log_lines(c, Viewer.gm())[-1][3] == [line]
        assert f"Cover: {line}" in ruleset().view_ext(c.state, Viewer.gm())["lines"]


@pytest.mark.rule("VR-ATK-5")
def test_cover_behind_an_object_in_another_zone_is_refused():
    """The orc in b cannot hide behind a crate standing in c; behind one in b, or one placed
    in no zone (a door between two rooms), it can."""
    c = make(shooter(), npc("orc", zone="b"), **ZONES,
             objects=[{"id": "crate", "name": "Crate", "material": "wood", "zone": "c"},
                      {"id": "barrel", "material": "wood", "zone": "b"},
                      {"id": "door", "material": "wood"}])
    err = refused(c, "cover orc 3 object=crate", "VR-ATK-5")
    assert str(err) == ("Orc is in b and Crate in c: a character takes cover behind an object "
                        "in its own zone ('place orc c' first) (VR-ATK-5)")
    assert "orc" not in c.state.ext.cover
    do(c, "cover orc 3 object=barrel")
    assert c.state.ext.cover_object["orc"] == "barrel"
    do(c, "cover orc 5 object=door")
    assert c.state.ext.cover_object["orc"] == "door"
    with pytest.raises(InvalidInput, match=r"settings.cover: Orc is in b and crate in c") as no:
        make(shooter(), npc("orc", zone="b"), **ZONES,
             objects=[{"id": "crate", "material": "wood", "zone": "c"}],
             cover=[{"who": "orc", "value": 3, "object": "crate"}])
    assert no.value.rule == "VR-ATK-5"


@pytest.mark.rule("VR-ATK-5", "VR-MOVE-1")
def test_a_character_the_gm_places_elsewhere_leaves_its_cover_behind():
    """As a move does: the orc behind the barrel in b, put in c by the GM, is no longer
    behind it (it kept ⅔ cover behind an object in another zone); put where it stands, it
    keeps it."""
    c = make(shooter(), npc("orc", zone="b"), **ZONES,
             objects=[{"id": "barrel", "material": "wood", "zone": "b"}])
    do(c, "cover orc 3 object=barrel", "place orc b")
    assert c.state.ext.cover == {"orc": -3} and c.state.ext.cover_object == {"orc": "barrel"}
    do(c, "place orc c")
    assert "orc" not in c.state.ext.cover and "orc" not in c.state.ext.cover_object
    c.execute("undo")
    assert c.state.ext.cover_object == {"orc": "barrel"}


def _orc_seen(c: Conflict) -> dict[str, Any]:
    """The orc as the GM's view shows it."""
    return next(p for p in view(c, Viewer.gm())["conflict"]["participants"] if p["id"] == "orc")


@pytest.mark.rule("VR-ATK-5", "VR-MOVE-1")
def test_a_character_the_gm_overrides_into_another_zone_leaves_its_cover_behind():
    """As a move does: the orc ⅔ behind the crate in b, put in c by ``override orc.zone``,
    is no longer behind it — the view shows no cover and Ada's next shot takes no cover
    penalty; undone, it is behind the crate again. A zone that does not exist is refused
    and changes nothing."""
    c = make(shooter(), npc("orc", zone="b"), **ZONES,
             objects=[{"id": "crate", "material": "wood", "zone": "b"}],
             cover=[{"who": "orc", "value": 3, "object": "crate"}])
    do(c, "open ada")
    assert _orc_seen(c)["cover"] == -3
    before, version = state_to_data(c.state), c.version
    with pytest.raises(InvalidInput, match=r"override: orc.zone takes a zone \(a, b, c, d, e\)"):
        c.execute("override orc.zone nowhere")
    assert c.version == version and state_to_data(c.state) == before
    do(c, "override orc.zone c")
    assert _orc_seen(c)["cover"] == 0
    assert "Cover:" not in "\n".join(c.ruleset.status_lines(c.state))
    att = of(do(c, "ada: attack orc weapon=bow dice=4,4,4"), "attack")[0]
    assert ["cover", -3] not in att["mods"] and not att["cover_hit"]
    do(c, "undo", "undo")
    assert _orc_seen(c)["cover"] == -3 and c.state.ext.cover_object == {"orc": "crate"}


@pytest.mark.rule("VR-MOVE-4", "VR-ATK-5", "VR-OBJ-4")
def test_a_free_attack_that_breaks_the_cover_leaves_the_next_one_without_it():
    club = {"club": {"ev": 8}}
    c = make(pc("ada", zone="a", tn={"athletics": 12, "close_combat": 12}),
             npc("thug", zone="a", tn={"close_combat": 12}, weapons=club),
             npc("rat", zone="a", tn={"close_combat": 12}, weapons=club), **ZONES,
             objects=[{"id": "sheet", "material": "cloth"}],
             cover=[{"who": "ada", "value": 3, "object": "sheet"}])
    do(c, "open ada", "ada: attack thug dice=6,6,6", "ada: handoff rat",
       "rat: attack ada dice=6,6,6", "rat: handoff thug", "thug: handoff", "open ada")
    events = do(c, "ada: disengage dice=6,5,1 free=4,4,3,4,4,3")
    first, second = of(events, "attack")
    assert ["cover", -3] in first["mods"] and first["cover_hit"]  # 11 > 9: the sheet is hit
    assert of(events, "object_damaged")[0]["broken"]  # net 8 + 1 = 9
    assert ["cover", -3] not in second["mods"] and second["hit"]  # 11 ≤ 12, nothing to hide behind
    assert "ada" not in c.state.ext.cover


@pytest.mark.rule("VR-INJ-5")
def test_an_attacks_track_help_names_the_values_offered_and_decide_takes_them():
    from fracas.app.scenario import parse_scenario
    from fracas.app.script import play_script
    from tests.rulesets.test_pending_odds import cut_script

    c = play_script(parse_scenario(cut_script("vers-tavern-brawl", 1), "cut.toml"), "seed")
    attacks = [lc for lc in c.legal("ada") if lc.verb == "attack"]
    assert attacks
    (track,) = [p.help for p in c.commands.spec("attack").params if p.name == "track"]
    for lc in attacks:
        if all(p.name != "track" for p in lc.params):  # a physical one: the weapon sets it
            c.prepare(lc.command(dice=[3, 3, 3]), time="")  # not refused
            continue
        for value in lc.choice("track").allowed or ():
            c.prepare(lc.command(track=value, dice=[3, 3, 3]), time="")  # not refused
            assert value in track, track


def _thrown_at(c: Conflict, viewer: Viewer | None = None) -> list[str]:
    """The targets of Ada's axe in the attacks offered to ``viewer`` (None: the GM)."""
    from fracas.engine.projector import offered

    return [lc.choice("target").fixed for lc in offered(c, viewer or Viewer.gm(), "ada")
            if lc.verb == "attack" and lc.choice("weapon").fixed == "axe"]


@pytest.mark.rule("VR-ATK-3")
def test_a_throw_that_cannot_reach_its_target_is_neither_offered_nor_taken():
    """The seed: a thrown weapon reaches the next zone "with a successful Athletics roll, and
    an additional zone over for every 3 Degrees of Success". Four zones away, Ada's axe (TN
    14, −6 range → 8) needs 9 DoS and her best roll, a 3, makes 5. Before, that throw was
    offered (and its odds line read "hit 0%") and rolled to a sure miss; the orc three zones
    away (−4 → 10, 6 DoS: a 3 or a 4) is still in reach, as is anything the bow shoots."""
    alice = Viewer.of_player("ada")
    c = make(shooter(), npc("orc", zone="e"), npc("elf", zone="d"), **ZONES)
    do(c, "open ada")
    assert _thrown_at(c) == _thrown_at(c, alice) == ["elf"]
    bows = [lc.choice("target").fixed for lc in c.legal("ada") if lc.verb == "attack"
            and lc.choice("weapon").fixed == "bow"]
    assert bows == ["orc", "elf"]
    odds = view(c, Viewer.gm())["conflict"]["odds"]
    assert not any("(axe)" in line and "Orc" in line for line in odds)
    assert any("Ada → Elf (axe)" in line for line in odds)
    err = refused(c, "ada: attack orc weapon=axe dice=1,1,1", "VR-ATK-3")
    assert err.message == (
        "Orc is 4 zone(s) away, beyond the throw of Ada's axe: it must succeed with 9 DoS (3 "
        "for each zone beyond the next), and its best roll (3 against 8) makes 5")
    version = c.version
    with pytest.raises(FracasError) as info:  # the same to her player, who knows it all
        c.execute("ada: attack orc weapon=axe dice=1,1,1", alice)
    assert info.value.rule == "VR-ATK-3" and c.version == version
    att = of(do(c, "ada: attack elf weapon=axe dice=1,1,2"), "attack")[0]
    assert att["dos"] == 6 and att["hit"]


@pytest.mark.rule("VR-ATK-3")
def test_a_throw_out_of_reach_by_a_number_the_player_may_not_know_is_offered_and_rolled():
    """Three zones away the orc's Dodge 2 puts Ada's axe out of reach (14 −4 −2 → 8: 5 of the
    6 DoS it needs). Where that Dodge is the GM's secret, Alice is offered the throw and may
    make it (it misses): leaving it out, or refusing it, would tell her the Dodge."""
    alice = Viewer.of_player("ada")

    def table(gm_only: list[str]) -> Conflict:
        c = make(shooter(), {**npc("orc", zone="d", dodge=2), "gm_only": gm_only}, **ZONES)
        do(c, "open ada")
        return c

    known = table([])
    assert _thrown_at(known) == _thrown_at(known, alice) == []
    refused(known, "ada: attack orc weapon=axe", "VR-ATK-3")
    secret = table(["dodge"])
    assert _thrown_at(secret) == [] and _thrown_at(secret, alice) == ["orc"]
    refused(secret, "ada: attack orc weapon=axe dice=1,1,1", "VR-ATK-3")  # the GM knows
    att = of(list(secret.execute("ada: attack orc weapon=axe dice=1,1,1", alice).events),
             "attack")[0]
    assert att["success"] and att["dos"] == 5 and not att["hit"]


@pytest.mark.rule("VR-ATK-3")
def test_a_throw_offered_only_to_the_player_comes_after_the_moves_as_attacks_do():
    """Ada's axe is all she has to reach the orc three zones away, and its GM-only Dodge puts
    it out of reach: the GM is offered no attack at all, Alice the throw, in the place the
    attacks have (after the moves, before the hand-off), so its place tells nothing either."""
    from fracas.engine.projector import offered

    alice = Viewer.of_player("ada")
    c = make(shooter(weapons={"axe": {"ev": 4, "kind": "thrown"}}),
             {**npc("orc", zone="d", dodge=2), "gm_only": ["dodge"]}, **ZONES)
    do(c, "open ada")
    assert "attack" not in [lc.verb for lc in offered(c, Viewer.gm(), "ada")]
    verbs = [lc.verb for lc in offered(c, alice, "ada")]
    last_move = max(i for i, v in enumerate(verbs) if v == "move")
    assert verbs[last_move + 1:last_move + 3] == ["attack", "handoff"], verbs
