"""Sweep syntax, set-up variations, the pseudo-players of each side, and the statistics."""

from __future__ import annotations

from collections import Counter

import pytest

from fracas.app.scenario import load_scenario
from fracas.engine.setup import Setup
from fracas.errors import InvalidInput
from fracas.sim.job import (
    apply_overrides,
    combinations,
    encounter_seed,
    parse_vary,
    with_side_players,
)
from fracas.sim.stats import EncounterResult, Tally, quantile, wilson


def test_wilson_interval_matches_the_textbook_values() -> None:
    # Wilson (1927) / Agresti–Coull's tables: 0 of 10 → [0, 0.2775]; 5 of 10 → [0.2366, 0.7634]
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    low, high = wilson(500, 1000)
    assert high - low == pytest.approx(0.0618, abs=1e-3)  # ± 3.1 points at n = 1000
    assert wilson(0, 0) == (0.0, 1.0)


def _result(winner: str, rounds: int, harm: int) -> EncounterResult:
    return EncounterResult(winner, "taken out", rounds, ("ada",) if harm else (),
                           {"ada": harm})


def test_tallies_merge_to_the_same_totals_whatever_the_split() -> None:
    results = [_result("heroes" if i % 3 else "foes", i % 5, i % 4) for i in range(30)]
    whole = Tally()
    for r in results:
        whole.add(r)
    for cut in (1, 7, 29):
        left, right = Tally(), Tally()
        for r in results[:cut]:
            left.add(r)
        for r in results[cut:]:
            right.add(r)
        assert right.merge(left) == whole == left.merge(right)
    assert whole.n == 30 and whole.wins["foes"] == 10
    assert quantile(whole.rounds, 0.5) == 2 and quantile(Counter(), 0.5) == 0


def test_vary_reads_paths_and_values_and_makes_every_combination() -> None:
    vary = parse_vary(["ogre.stats.cover=0,1,3", "pcs=3,4", "settings.mode=fast,'x'"])
    assert vary[0] == ("ogre.stats.cover", [0, 1, 3])
    assert vary[2] == ("settings.mode", ["fast", "'x'"])
    combos = combinations(vary[:2])
    assert len(combos) == 6
    assert combos[0] == (("ogre.stats.cover", 0), ("pcs", 3))
    assert combinations([]) == [()]
    for bad in ("cover", "=1,2", "a.b="):
        with pytest.raises(InvalidInput, match="PATH=V1"):
            parse_vary([bad])
    with pytest.raises(InvalidInput, match="twice"):
        parse_vary(["pcs=1", "pcs=2"])


def test_overrides_change_stats_settings_and_the_number_of_pcs() -> None:
    setup = load_scenario("vers-tavern-brawl").setup
    varied = apply_overrides(setup, (("thug.stats.rv", 3), ("settings.cover.0.value", 5),
                                     ("pcs", 3), ("round_limit", 7)))
    by_id = {p.id: p for p in varied.participants}
    assert by_id["thug"].stats["rv"] == 3
    assert varied.settings["cover"][0]["value"] == 5
    assert [p.id for p in varied.participants if p.kind == "pc"] == ["ada", "bruno", "bruno-2"]
    assert by_id["bruno-2"].stats == by_id["bruno"].stats and varied.round_limit == 7
    assert [p.id for p in apply_overrides(setup, (("pcs", 1),)).participants
            if p.kind == "pc"] == ["ada"]
    assert setup.participants[2].stats["rv"] == 1  # the scenario itself is untouched
    with pytest.raises(InvalidInput, match="participants: ada, bruno"):
        apply_overrides(setup, (("ogre.stats.cover", 1),))
    with pytest.raises(InvalidInput, match="not an index"):
        apply_overrides(setup, (("settings.cover.9.value", 1),))
    for bad in ("many", -1, True):
        with pytest.raises(InvalidInput, match="whole number"):
            apply_overrides(setup, (("pcs", bad),))
    with pytest.raises(InvalidInput, match=r"changes a participant's stats, side, name .* did "
                                           r"you mean ada\.stats\.zone\?"):
        apply_overrides(setup, (("ada.zone", "street"),))
    for field in ("id", "player", "gm_only", "kind"):  # not what a sweep is for
        with pytest.raises(InvalidInput, match=rf"--vary ada\.{field}: a sweep changes"):
            apply_overrides(setup, ((f"ada.{field}", "x"),))
    with pytest.raises(InvalidInput, match=r"--vary pcs=1000: participants: 1003 participants"):
        apply_overrides(setup, (("pcs", 1000),))


@pytest.mark.rule("ES-RNG-1", "ES-START-6")
def test_fewer_or_more_pcs_take_the_settings_that_name_them_along() -> None:
    """The car chase's settings name Bruno (distant from the zepcar; a pursuer with Ada).
    Before, ``pcs=1`` was refused ("settings.ranges.pairs[1] names 'bruno', who is not a
    participant"), and ``pcs=3``'s Bruno 2 stood near the zepcar, in no group."""
    chase = load_scenario("etherscope-car-chase").setup
    alone = apply_overrides(chase, (("pcs", 1),)).settings
    assert alone["ranges"]["pairs"] == [["ada", "zepcar", "distant"]]
    assert alone["groups"] == {}  # a group of Ada alone is no group
    assert apply_overrides(chase, (("pcs", 2),)).settings["groups"] == {
        "pursuers": ["ada", "bruno"]}  # as many as there are: as the scenario has them
    three = apply_overrides(chase, (("pcs", 3),)).settings
    assert three["ranges"]["pairs"][1:] == [["bruno", "zepcar", "distant"],
                                           ["bruno-2", "zepcar", "distant"]]
    assert three["groups"] == {"pursuers": ["ada", "bruno", "bruno-2"]}
    ambush = apply_overrides(chase, (("settings.lurking", {"bruno": ["zepcar"],
                                                           "zepcar": ["ada", "bruno"]}),))
    assert apply_overrides(ambush, (("pcs", 3),)).settings["lurking"] == {
        "bruno": ["zepcar"], "bruno-2": ["zepcar"], "zepcar": ["ada", "bruno", "bruno-2"]}
    assert apply_overrides(ambush, (("pcs", 1),)).settings["lurking"] == {"zepcar": ["ada"]}
    from_bruno = apply_overrides(chase, (("settings.lurking", {"zepcar": ["bruno"]}),))
    assert apply_overrides(from_bruno, (("pcs", 1),)).settings["lurking"] == {}


def test_copies_of_a_pc_get_ids_and_names_nobody_has() -> None:
    """Copies are Bruno 2, Bruno 3, … with ids nobody has: before, a copy of a PC whose id
    was 40 characters long got that very id (cut to 40), and one beside an NPC already
    called bruno-2 shared its id."""
    brawl = load_scenario("vers-tavern-brawl").setup
    data = brawl.model_dump(mode="json")
    data["participants"][2]["id"] = "bruno-2"  # the thug
    four = apply_overrides(Setup.model_validate(data), (("pcs", 4),)).participants
    assert [(p.id, p.name) for p in four if p.kind == "pc"] == [
        ("ada", "Ada"), ("bruno", "Bruno"), ("bruno-3", "Bruno 3"), ("bruno-4", "Bruno 4")]
    long = "b" * 40
    data = brawl.model_dump(mode="json")
    data["participants"][1]["id"] = long
    copies = [p.id for p in apply_overrides(Setup.model_validate(data), (("pcs", 3),)
                                            ).participants if p.kind == "pc"]
    assert copies == ["ada", long, "b" * 38 + "-2"]


@pytest.mark.rule("VR-ATK-5", "VR-MOVE-5")
def test_a_vers_pc_copied_by_pcs_takes_its_cover_and_guard_post() -> None:
    brawl = load_scenario("vers-tavern-brawl").setup
    with_cover = apply_overrides(brawl, (
        ("settings.cover", [{"who": "bruno", "value": 3}]),
        ("settings.guards", [{"who": "bruno", "between": ["floor", "stairs"]}])))
    more = apply_overrides(with_cover, (("pcs", 3),)).settings
    assert more["cover"] == [{"who": "bruno", "value": 3}, {"who": "bruno-2", "value": 3}]
    assert [g["who"] for g in more["guards"]] == ["bruno", "bruno-2"]
    fewer = apply_overrides(with_cover, (("pcs", 1),)).settings
    assert fewer["cover"] == [] and fewer["guards"] == []


@pytest.mark.rule("VR-ATK-5")
def test_pcs_swept_beside_a_pc_or_a_settings_entry_leaves_them_as_the_file_has_them() -> None:
    """``--vary pcs=1,2 --vary bruno.stats.agility=…`` ("what if Bruno stays home, or
    comes quicker?") was refused for ``pcs=1``: "not a participant (participants: ada,
    thug, …)", Bruno being in the file; and ``settings.cover.1`` named the file's second
    cover entry or, where ``pcs`` had dropped the first, none. ``pcs`` now comes after the
    paths naming the file's own, whatever the order given; a copy takes the swept stats."""
    brawl = load_scenario("vers-tavern-brawl").setup
    both = apply_overrides(brawl, (("settings.cover", [{"who": "bruno", "value": 1},
                                                       {"who": "mira", "value": 3}]),))
    for order in ((("pcs", 1), ("bruno.stats.agility", 4), ("settings.cover.1.value", 5)),
                  (("bruno.stats.agility", 4), ("settings.cover.1.value", 5), ("pcs", 1))):
        alone = apply_overrides(both, order)
        assert [p.id for p in alone.participants if p.kind == "pc"] == ["ada"]
        assert alone.settings["cover"] == [{"who": "mira", "value": 5}]
    three = {p.id: p for p in apply_overrides(both, (("pcs", 3), ("bruno.stats.agility", 4))
                                              ).participants}
    assert three["bruno"].stats["agility"] == three["bruno-2"].stats["agility"] == 4
    copy = {p.id: p for p in apply_overrides(both, (("pcs", 3), ("bruno-2.stats.agility", 1))
                                             ).participants}  # a copy is named after pcs
    assert (copy["bruno"].stats["agility"], copy["bruno-2"].stats["agility"]) == (3, 1)


@pytest.mark.parametrize("path, said", [
    # read "a stat is ada.stats.stat.agility", the typo kept and "stats" put before it
    ("ada.stat.agility", "did you mean ada.stats.agility?"),
    ("ada.sied", "did you mean ada.side?"),
    ("adda.stats.agility", "not a participant, settings or round_limit path; did you mean "
                           "'ada'? (participants: ada, bruno,"),
    ("ada", "--vary ada: say what of ada to sweep: ada.stats.KEY, ada.side or ada.name"),
    ("ada.stats.agilty", "reads no stat 'agilty', so the sweep would change nothing (a stat "
                         "of your own is kept, but no rule reads it); did you mean "
                         "'agility'? Its stats: "),
])
def test_a_mistyped_sweep_path_says_the_path_it_looks_like(path: str, said: str) -> None:
    brawl = load_scenario("vers-tavern-brawl").setup
    with pytest.raises(InvalidInput) as refused:
        apply_overrides(brawl, ((path, 2),))
    assert said in refused.value.message


def test_a_sweep_of_a_stat_or_setting_no_rule_reads_is_refused() -> None:
    # VERS keeps stats and settings of the GM's own, which change nothing in play: a sweep of
    # one would print the same figures for every value, as if cover did not matter
    brawl = load_scenario("vers-tavern-brawl").setup
    with pytest.raises(InvalidInput, match=r"--vary thug\.stats\.cover: VERS: Physical Conflict "
                                           r"reads no stat 'cover', so the sweep would change "
                                           r"nothing .* cover is a setting: --vary settings"):
        apply_overrides(brawl, (("thug.stats.cover", 3),))
    # Mira has cover behind the counter: the refusal names the path of hers
    with pytest.raises(InvalidInput, match=r"--vary mira\.stats\.cover: .* cover is a setting, "
                                           r"and mira's is --vary settings\.cover\.0\.value=…$"):
        apply_overrides(brawl, (("mira.stats.cover", 3),))
    with pytest.raises(InvalidInput, match=r"reads no setting 'mood'.*its settings: base_tn, "):
        apply_overrides(brawl, (("settings.mood", "grim"),))
    varied = apply_overrides(brawl, (("thug.stats.dodge", 4), ("thug.stats.weapons.club.ev", 6),
                                     ("settings.base_tn", 11)))
    assert varied.participants[2].stats["dodge"] == 4 and varied.settings["base_tn"] == 11
    ambush = load_scenario("fabula-ultima-ambush").setup  # a stat no sheet has yet, but read
    assert apply_overrides(ambush, (("cut1.stats.rank", "elite"),)).participants[3].stats[
        "rank"] == "elite"
    car = load_scenario("etherscope-car-chase").setup  # any stat may be rolled as a skill
    assert apply_overrides(car, (("ada.stats.perception", 2),)).participants[0].stats[
        "perception"] == 2


def test_each_side_is_played_by_its_own_pseudo_player() -> None:
    setup, sides = with_side_players(load_scenario("vers-chase").setup)
    assert sides.side_of == {"ada": "pcs", "cutpurse": "npcs"}  # no sides: PCs against NPCs
    owners = {p.id: p.player for p in setup.participants}
    assert owners == {"ada": sides.player_of["pcs"], "cutpurse": sides.player_of["npcs"]}
    assert owners["ada"] != owners["cutpurse"]
    brawl, brawl_sides = with_side_players(load_scenario("vers-tavern-brawl").setup)
    assert brawl_sides.sides == ["heroes", "toughs"]
    assert len({p.player for p in brawl.participants}) == 2


def test_encounter_seeds_depend_on_the_run_seed_and_the_index_only() -> None:
    seeds = {encounter_seed("s", i) for i in range(100)}
    assert len(seeds) == 100
    assert encounter_seed("s", 5) == encounter_seed("s", 5) != encounter_seed("t", 5)
