"""Whole simulated encounters: they end, they repeat, they play the table's rules, and each
side's agent sees only what its player would see."""

from __future__ import annotations

import dataclasses

import pytest

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.engine import Conflict
from fracas.engine.legal import Choice, LegalCommand
from fracas.engine.serialize import state_to_data
from fracas.errors import InvalidInput
from fracas.rulesets import get_ruleset
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.encounter import Distinct, Encounter, prepare
from fracas.sim.policies import (
    defensive,
    flee_when_losing,
    focus_fire,
    options_of,
    weakest_first,
)
from tests.sim import tactics


def job(name: str, n: int, seed: str = "t", **kw: object) -> SimJob:
    sc = load_scenario(name)
    return SimJob(sc.text, sc.path, n, seed, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("name, n", [("etherscope-car-chase", 5), ("fabula-ultima-ambush", 6),
                                     ("vers-tavern-brawl", 3)])
def test_each_ruleset_plays_encounters_to_a_decision(name: str, n: int) -> None:
    [r] = simulate(job(name, n), runner=Runner(1))
    t = r.tally
    assert t.n == n == sum(t.wins.values()) == sum(t.outcomes.values()) == sum(t.rounds.values())
    decided = n - t.wins["no decision"]
    assert decided > 0 and t.stalled == 0
    assert sum(t.out.values()) >= decided  # a side won: someone on the other was taken out
    data = report_data([r])["results"][0]
    assert set(data["wins"]) == {*r.prepared.sides.sides, "no decision"}
    for c in data["characters"].values():
        assert 0 <= c["taken_out"]["ci95"][0] <= c["taken_out"]["p"] <= c["taken_out"]["ci95"][1]


def test_same_seed_same_report_whatever_the_number_of_workers() -> None:
    base = job("fabula-ultima-ambush", 12, "workers")
    one = report_data(simulate(base, runner=Runner(1)))
    two = report_data(simulate(base, runner=Runner(2)))
    assert one == two
    other = report_data(simulate(dataclasses.replace(base, seed="another"), runner=Runner(1)))
    assert other["results"] != one["results"]


def test_an_encounter_past_the_round_cap_is_no_decision_not_dropped() -> None:
    [r] = simulate(job("fabula-ultima-ambush", 4, max_rounds=1), runner=Runner(1))
    assert r.tally.n == 4 and r.tally.wins["no decision"] == 4
    assert r.tally.outcomes["no decision"] == 4 and dict(r.tally.rounds) == {1: 4}


@pytest.mark.parametrize("name", ["etherscope-car-chase", "fabula-ultima-ambush", "vers-chase"])
def test_the_fast_path_plays_exactly_what_the_table_would(name: str) -> None:
    p = prepare(job(name, 1))
    trace: list[str] = []
    encounter = Encounter(p, 3, trace)
    encounter.play()
    table = Conflict.create(get_ruleset(p.ruleset_name), p.setup, encounter.seed, time="")
    for cmd in p.prologue:
        table.execute(cmd, time="")
    for text in trace:
        if not text.startswith("refused "):
            table.execute(text, time="")
    table.execute({"verb": "end", "args": {"reason": encounter.conflict.state.end_reason}}
                  if encounter.conflict.state.end_reason else "note 'capped'", time="")
    fast = encounter.conflict.state
    if fast.end_reason is None:  # capped: the table has one note more, nothing else differs
        table_state = state_to_data(table.replay(table.version - 1))
    else:
        table_state = state_to_data(table.state)
    assert table_state == state_to_data(fast)
    assert [r.events for r in table.records][:len(encounter.conflict.records)] == \
        [r.events for r in encounter.conflict.records]


def test_agents_see_only_their_own_sides_view() -> None:
    tactics.SEEN.clear()
    base = job("fabula-ultima-ambush", 2, policies=(("heroes", "tests.sim.tactics:recording"),
                                                    ("bandits", "tests.sim.tactics:recording")))
    [r] = simulate(base, runner=Runner(1))
    sides = r.prepared.sides
    assert {s["side"] for s in tactics.SEEN} == {"heroes", "bandits"}
    for seen in tactics.SEEN:
        viewer = seen["view"]["viewer"]
        assert viewer == {"role": "player", "player": sides.player_of[seen["side"]]}
        assert all(sides.side_of[a] == seen["side"] for a in seen["actors"])
        captain = next(p for p in seen["view"]["conflict"]["participants"]
                       if p["id"] == "captain")
        assert "hp" not in captain and "hp" not in captain["stats"]  # gm_only stays hidden
        assert "seed" not in seen["view"]


def test_a_side_is_offered_nothing_that_names_a_character_hidden_from_it() -> None:
    """As at the table, a concealed character is not there for the other side's agents: no
    option names it (its id or its name), so none is refused for naming it, nor does the
    turn's table of sides; its own side is offered its commands."""
    tactics.OFFERED.clear()
    sc = load_scenario("vers-tavern-brawl")
    hidden = parse_scenario(sc.text + '\n[sim]\nprologue = "conceal mira"\n', sc.path)
    policy = "tests.sim.tactics:offered_at_random"
    [r] = simulate(SimJob(hidden.text, hidden.path, 4, "hidden", None,
                          (("heroes", policy), ("toughs", policy))), runner=Runner(1))

    def names_mira(value: object) -> bool:
        if isinstance(value, dict):
            return any(names_mira(k) or names_mira(v) for k, v in value.items())
        if isinstance(value, list | tuple):
            return any(names_mira(v) for v in value)
        return isinstance(value, str) and value.lower() in ("mira", "mira the knife")

    heroes = [cmd for side, cmd in tactics.OFFERED if side == "heroes"]
    toughs = [cmd for side, cmd in tactics.OFFERED if side == "toughs"]
    assert heroes and not any(names_mira(cmd) for cmd in heroes)
    assert any(cmd.get("actor") == "mira" for cmd in toughs)
    assert any("mira" in told.get("sides", {}) for told in toughs)
    assert r.tally.n == 4 and not [k for k in r.tally.refusals if "mira" in str(k).lower()]


def test_one_hidden_at_the_start_joins_and_fights_in_every_encounter() -> None:
    """A participant marked ``hidden = true`` comes in concealed at the head of every
    encounter, played by its side's agent and never offered to the other side (before the
    simulation reused the set-up record alone, without the joins that follow it, and the
    thug took no part in any fight the report counted)."""
    tactics.OFFERED.clear()
    sc = load_scenario("vers-tavern-brawl")
    text = sc.text.replace('id = "thug"', 'id = "thug"\nhidden = true', 1)
    policy = "tests.sim.tactics:offered_at_random"
    [r] = simulate(SimJob(text, sc.path, 3, "hidden", None,
                          (("heroes", policy), ("toughs", policy))), runner=Runner(1))
    heroes = [cmd for side, cmd in tactics.OFFERED if side == "heroes"]
    toughs = [cmd for side, cmd in tactics.OFFERED if side == "toughs"]
    assert any(cmd.get("actor") == "thug" for cmd in toughs)
    assert heroes and "thug" not in str(heroes).lower()
    assert r.tally.n == 3
    p = prepare(SimJob(text, sc.path, 3, "hidden"))
    for i in range(3):  # the first encounter creates the set-up; the others reuse its record
        assert "thug" in Encounter(p, i).conflict.state.concealed


def test_built_in_policies_choose_as_documented() -> None:
    checked = {"focus": 0, "weakest": 0, "flee": 0, "defend": 0}
    for name in ("etherscope-car-chase", "vers-tavern-brawl"):
        encounter = Encounter(prepare(job(name, 1)), 0)
        for _ in range(120):
            turn = encounter.side_turn()
            if turn is not None and turn.attacks():
                healths = [turn.health(turn.entry(o.value("target"))) for o in turn.attacks()]
                choice = focus_fire(turn)
                assert choice.verb == "attack"
                assert turn.health(turn.entry(choice.value("target"))) == min(healths)
                assert weakest_first(turn).verb == "attack"
                checked["focus"] += 1
                checked["weakest"] += 1
            if turn is not None and turn.losing():
                foes = turn.foes()
                away = [o for o in turn.options if turn.profile.flees(
                    o.verb, o.arguments(), turn.entry(o.actor), turn.view, foes)]
                if away:
                    assert flee_when_losing(turn) in away
                    checked["flee"] += 1
            if turn is not None:
                hurt = [o for o in turn.options if o.verb in turn.profile.recover_verbs
                        and turn.health(turn.entry(o.actor)) < 0.5]
                if hurt:
                    assert defensive(turn) in hurt
                    checked["defend"] += 1
            if encounter.conflict.state.status == "ended" or encounter.verdict() or \
                    not encounter.step():
                break
    assert checked["focus"] > 0 and checked["weakest"] > 0


@pytest.mark.parametrize("name", ["etherscope-car-chase", "etherscope-agents-domain",
                                  "vers-tavern-brawl", "fabula-ultima-ambush"])
def test_options_remembered_for_a_job_are_those_the_turns_view_gives(name: str) -> None:
    """The playable forms of a legal command, worked out once per job where they need at
    most the actor's sheet, are at every turn the ones the side's view of that turn gives."""
    p = prepare(job(name, 1))
    compared = 0
    for index in range(3):
        encounter = Encounter(p, index)
        while encounter.verdict() is None and encounter.conflict.state.status != "ended":
            turn = encounter.side_turn()
            if turn is not None:
                for legal in {id(o.legal): o.legal for o in turn.options}.values():
                    fresh = options_of(legal, p.profile, encounter.sight(turn.side))
                    assert list(p.options(legal, turn.sight)) == fresh
                    compared += 1
            if not encounter.step():
                break
    assert compared > 20


def test_equal_legal_commands_are_offered_once_however_often_they_were_made() -> None:
    """A character's list keeps the first of legal commands equal by value, made twice or
    handed out again, in the ruleset's order; the job remembers which it compared."""
    done, again = LegalCommand("done", "ada"), LegalCommand("done", "ada")
    hit = LegalCommand("attack", "ada", (Choice("target", "id", fixed="gob"),))
    hit_bo = LegalCommand("attack", "ada", (Choice("target", "id", fixed="bo"),))
    distinct = Distinct()
    for _ in range(2):
        kept = distinct.unique([hit, done, hit_bo, again, hit, dataclasses.replace(hit_bo)])
        assert kept == [hit, done, hit_bo] and kept[1] is done
    assert distinct.unique([again]) == [again]


@pytest.mark.rule("VR-INJ-1", "VR-INJ-2")
def test_a_vers_sides_reading_of_health_reaches_nothing_left_only_with_the_track_full() -> None:
    """Harm is each injury condition weighted by its level; a full track (two grazed, two
    wounded, impaired, disabled) is 13, the only harm read as no fight left."""
    p = prepare(job("vers-tavern-brawl", 1))
    encounter = Encounter(p, 0)
    read = []
    for ev in (0, 0, 3, 3, 6, 9):  # the net EV of each hit: grazed, grazed, wounded, …
        encounter.conflict.execute(f"harm thug {ev}", time="")
        sight = encounter.sight("heroes")
        thug = sight.entry("thug")
        assert thug is not None
        read.append((p.profile.harm(thug, sight.settings),
                     p.profile.health(thug, sight.settings)))
    assert read == [(1, 12 / 13), (2, 11 / 13), (4, 9 / 13), (6, 7 / 13), (9, 4 / 13), (13, 0.0)]


def test_bad_policies_and_sim_tables_are_refused_by_name() -> None:
    with pytest.raises(InvalidInput, match="random, focus-fire, weakest-first"):
        prepare(job("vers-chase", 1, policies=(("pcs", "berserk"),)))
    with pytest.raises(InvalidInput, match=r"no side 'ogres'.*sides: pcs, npcs"):
        prepare(job("vers-chase", 1, policies=(("ogres", "random"),)))
    with pytest.raises(InvalidInput, match="cannot be loaded"):
        prepare(job("vers-chase", 1, policies=(("pcs", "tests.sim.tactics:nothing"),)))
    text = load_scenario("vers-chase").text
    with pytest.raises(InvalidInput, match=r"x\.toml:\d+: \[sim\] has no key 'rounds'"):
        prepare(SimJob(text + '\n[sim]\nrounds = 3\n', "x.toml", 1, "s"))
    refused = parse_scenario(text + '\n[sim]\nprologue = "chase c1 hunter=ada quarry=ada"\n',
                             "y.toml")
    with pytest.raises(InvalidInput, match=r"y\.toml: the simulated set-up is refused"):
        prepare(SimJob(refused.text, refused.path, 1, "s"))


def test_the_policy_names_a_scenario_is_checked_with_are_the_simulators() -> None:
    """app/ names the built-in policies (it may not import sim/) so that run, new and the
    server check [sim] policies: the names must be exactly the simulator's."""
    from fracas.app.scenario import POLICY_NAMES
    from fracas.sim.policies import BUILT_IN

    assert tuple(BUILT_IN) == POLICY_NAMES


def test_a_character_the_prologue_brings_in_plays_on_its_side_and_is_reported() -> None:
    text = load_scenario("vers-tavern-brawl").text.replace("\n[settings]", (
        '\n[sim]\nprologue = """\n'
        """join rat name=Rat side=toughs stats='{"zone": "floor"}'\n"""
        '"""\n\n[settings]'), 1)
    sim = SimJob(text, "rat.toml", 6, "rat")
    [r] = simulate(sim, runner=Runner(1))  # before: KeyError '' in the first encounter
    rat = report_data([r])["results"][0]["characters"]["rat"]
    assert rat["name"] == "Rat" and rat["side"] == "toughs"
    assert r.tally.harm["rat"] > 0  # it stood in the fight: the heroes struck it


@pytest.mark.rule("ES-START-2")
def test_the_built_in_policies_ambush_foes_never_their_own_side() -> None:
    # the rules let an ambush name an ally (ES-START-2 names no side), but a side's agent
    # that picked among the opening's options at random hid its agents from each other
    sc = load_scenario("etherscope-agents-domain")
    p = prepare(SimJob(sc.text, sc.path, 1, "amb"))
    ambushes = []
    for i in range(30):
        trace: list[str] = []
        Encounter(p, i, trace).play()
        ambushes += [line.split(": ambush ") for line in trace if ": ambush " in line]
    side = p.sides.side_of
    assert ambushes and all(side[who] != side[target.split()[0]] for who, target in ambushes)
