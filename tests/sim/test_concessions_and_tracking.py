"""Outcomes beyond a side taken out: Fabula Ultima's surrender and compromise, VERS tracking
after an escape; and the agents' view is exactly the table's projection, odds on demand."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.cli.main import app
from fracas.cli.sim import print_report
from fracas.engine import Conflict
from fracas.engine.serialize import state_to_data
from fracas.engine.views import view
from fracas.errors import InvalidInput
from fracas.rulesets import get_ruleset
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.encounter import Encounter, prepare
from fracas.sim.policies import parley

TACTICS = "tests.sim.tactics"


def job(name: str, n: int, policies: dict[str, str] | None = None, extra: str = "",
        seed: str = "c") -> SimJob:
    sc = load_scenario(name)
    if extra:
        sc = parse_scenario(sc.text + extra, f"{name}.toml")
    return SimJob(sc.text, sc.path, n, seed, None, tuple((policies or {}).items()))


def replayed_at_the_table(encounter: Encounter) -> Conflict:
    """The encounter's commands given through the table's path (text, envelopes, store-free
    Conflict.execute), ended with the encounter's own reason."""
    p = encounter.p
    table = Conflict.create(get_ruleset(p.ruleset_name), p.setup, encounter.seed, time="")
    for cmd in p.prologue:
        table.execute(cmd, time="")
    for text in encounter.trace or []:
        if not text.startswith("refused "):
            table.execute(text, time="")
    state = encounter.conflict.state
    table.execute({"verb": "end", "args": {"reason": state.end_reason}}, time="")
    return table


@pytest.mark.rule("FU-CON-12")
def test_a_side_that_surrenders_is_out_and_the_other_side_wins() -> None:
    [r] = simulate(job("fabula-ultima-ambush", 6, {"heroes": f"{TACTICS}:surrender_at_once"}),
                   runner=Runner(1))
    t = r.tally
    assert t.outcomes["surrendered"] == 6 and t.wins["bandits"] == 6
    assert t.out["ada"] == t.out["bruno"] == 6 and t.out["captain"] == 0
    data = report_data([r])["results"][0]
    assert data["outcomes"]["surrendered"]["p"] == 1.0
    assert data["outcomes"]["defeated"]["count"] == 0  # listed though none happened
    assert "compromise" not in data["outcomes"]  # the bandits (focus fire) never accept one

    encounter = Encounter(prepare(job("fabula-ultima-ambush", 1, {
        "heroes": f"{TACTICS}:surrender_at_once"})), 2, [])
    encounter.play()
    assert [t for t in encounter.trace or [] if t.startswith("out ")] == [
        "out ada surrendered", "out bruno surrendered"]
    state = encounter.conflict.state
    assert {pid: p.out for pid, p in state.participants.items() if p.out} == {
        "ada": "surrendered", "bruno": "surrendered"}
    table = replayed_at_the_table(encounter)  # the same rules: the table accepts every step
    assert state_to_data(table.state) == state_to_data(state)


@pytest.mark.rule("FU-CON-11")
def test_a_compromise_ends_the_conflict_only_when_the_other_side_accepts() -> None:
    offered = {"heroes": f"{TACTICS}:offer_compromise"}
    [accepted] = simulate(job("fabula-ultima-ambush", 5, {
        **offered, "bandits": f"{TACTICS}:accept_compromise"}), runner=Runner(1))
    assert accepted.tally.outcomes["compromise"] == 5
    assert accepted.tally.wins["no winner"] == 5  # nobody wins a compromise: decided all
    assert accepted.tally.wins["no decision"] == 0  # the same
    assert accepted.tally.rounds == {1: 5} and not accepted.tally.out

    [declined] = simulate(job("fabula-ultima-ambush", 5, offered), runner=Runner(1))
    assert declined.tally.outcomes["compromise"] == 0  # focus-fire never accepts
    assert declined.tally.wins["bandits"] + declined.tally.wins["heroes"] == 5

    encounter = Encounter(prepare(job("fabula-ultima-ambush", 1, {
        **offered, "bandits": f"{TACTICS}:accept_compromise"})), 0, [])
    encounter.play()
    state = encounter.conflict.state
    assert state.status == "ended" and "compromise" in (state.end_reason or "")
    assert state_to_data(replayed_at_the_table(encounter).state) == state_to_data(state)


@pytest.mark.rule("FU-CON-11", "FU-CON-12")
def test_parley_offers_accepts_and_surrenders_by_the_balance_it_sees() -> None:
    talks = job("fabula-ultima-ambush", 40, {"heroes": "parley", "bandits": "parley"})
    [r] = simulate(talks, runner=Runner(1))
    t = r.tally
    assert t.outcomes["compromise"] > 0 and t.outcomes["surrendered"] > 0
    assert t.n == sum(t.outcomes.values()) and t.refused == 0 and t.stalled == 0
    assert report_data(simulate(talks, runner=Runner(2))) == report_data([r])  # same seed
    encounter = Encounter(prepare(job("fabula-ultima-ambush", 1, {"heroes": "parley"})), 0)
    turn = encounter.side_turn()
    assert turn is not None and turn.side == "heroes"
    assert [o.kind for o in turn.offers] == ["surrender", "compromise"]
    # 2 heroes at full health, 3 foes (and a mule, an extra), the elite captain counting two
    assert turn.balance() == pytest.approx(2 / 4)
    assert parley(turn) == turn.offer("compromise")


BARON = """ruleset = "fabula-ultima"
title = "The Iron Baron"
sides = ["heroes", "baron"]

[[participants]]
id = "ada"
kind = "pc"
side = "heroes"
stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40 }

[[participants]]
id = "bruno"
kind = "pc"
side = "heroes"
stats = { dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40 }

[[participants]]
id = "baron"
side = "baron"
stats = { dex = 8, ins = 8, mig = 12, wlp = 10, hp = 150, rank = "champion 3" }
"""


@pytest.mark.rule("FU-CON-9", "FU-CON-11")
def test_parley_weighs_a_champion_as_the_soldiers_it_replaces(tmp_path: Path) -> None:
    # a lone champion of three at full HP against two PCs is not losing: it used to offer a
    # compromise on its first turn (one character against two), and the PCs took it
    scenario = tmp_path / "baron.toml"
    scenario.write_text(BARON)
    run = CliRunner().invoke(app, [
        "sim", str(scenario), "-n", "10", "--seed", "c", "--workers", "1", "--json",
        "--policy", "baron=parley", "--policy", f"heroes={TACTICS}:accept_compromise"])
    r = json.loads(run.output)["results"][0]
    assert r["outcomes"]["compromise"]["count"] == 0
    assert r["wins"]["baron"]["count"] == 10


def test_a_ruleset_without_concessions_refuses_one_by_name() -> None:
    encounter = Encounter(prepare(job("vers-tavern-brawl", 1)), 0)
    for _ in range(10):
        turn = encounter.side_turn()
        if turn is not None:
            assert turn.offers == ()
            break
        encounter.step()
    with pytest.raises(InvalidInput, match=r"not one of turn\.options or turn\.offers"):
        simulate(job("vers-chase", 1, {"pcs": f"{TACTICS}:concede_anyway"}), runner=Runner(1))


@pytest.mark.rule("VR-CHASE-4", "VR-CHASE-7")
def test_with_tracking_an_escape_is_hunted_down_or_completely_away() -> None:
    plain = simulate(job("vers-chase", 60), runner=Runner(1))[0].tally
    assert plain.outcomes["escaped"] > 0 and plain.outcomes["away"] == 0
    tracked_job = job("vers-chase", 60, extra="\n[sim]\ntracking = true\n")
    tracked = simulate(tracked_job, runner=Runner(1))[0].tally
    assert tracked.outcomes["escaped"] == 0
    assert tracked.outcomes["away"] > 0 and tracked.outcomes["captured"] > plain.outcomes[
        "captured"]  # some escapes are tracked down and caught after all
    p = prepare(tracked_job)
    for i in range(60):
        encounter = Encounter(p, i, [])
        encounter.play()
        trace = encounter.trace or []
        if "pursue c1" in trace:  # escaped, tracked to contact, pursued again
            assert trace.index("track c1") < trace.index("pursue c1")
            state = encounter.conflict.state
            assert state_to_data(replayed_at_the_table(encounter).state) == \
                state_to_data(state)
            break
    else:
        pytest.fail("no encounter went from tracking back to pursuit")
    with pytest.raises(InvalidInput, match=r"\[sim\] tracking must be true or false"):
        prepare(job("vers-chase", 1, extra='\n[sim]\ntracking = "yes"\n'))


TWO_HUNTS = """
ruleset = "vers"
title = "Two hunts"
seed = "two"

[sim]
prologue = \"\"\"
chase c1 hunter=ada quarry=cutpurse length=2 stage=tracking start=2
chase c2 hunter=bea quarry=thug length=2 stage=tracking
ada: run c1 dice=1,1,1
\"\"\"

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
side = "pcs"
stats = { skills = { athletics = 2, survival = 2 } }

[[participants]]
id = "bea"
name = "Bea"
kind = "pc"
player = "bob"
side = "pcs"
stats = { skills = { athletics = 2, survival = 2 } }

[[participants]]
id = "cutpurse"
name = "The cutpurse"
side = "npcs"
stats = { skills = { athletics = 2, stealth = 2 } }

[[participants]]
id = "thug"
name = "The thug"
side = "npcs"
stats = { skills = { athletics = 1, stealth = 1 } }
"""


@pytest.mark.rule("VR-CHASE-7")
def test_the_simulated_gm_turns_only_the_chase_that_made_contact_back_to_pursuit() -> None:
    """The GM may now turn any tracking back to pursuit (events: the quarry sighted again),
    and is offered that for both chases; the simulated GM pursues the chase whose hunter made
    contact (c1), never the other one still tracking (c2)."""
    sc = parse_scenario(TWO_HUNTS, "two-hunts.toml")
    p = prepare(SimJob(sc.text, sc.path, 1, "c", None, ()))
    for i in range(12):
        encounter = Encounter(p, i, [])
        assert encounter.chases["c1"].stage == "contact"
        assert {lc.text() for lc in encounter.conflict.legal() if lc.verb == "pursue"} == {
            "pursue c1", "pursue c2"}
        assert encounter.step()
        assert encounter.trace == ["pursue c1"], i
        assert encounter.chases["c2"].stage == "tracking"


def test_the_quarry_of_a_chase_under_way_runs_and_does_not_fight_the_hunter() -> None:
    # the cutpurse rolls no chase roll (the PC does, VR-CHASE-8), but stands in the same zone:
    # its focus fire beat Ada up with its bare hands (unarmed, EV 0: grazed at every hit)
    # while she ran after it, and her wounds counted against every chase roll she made
    tracked = simulate(job("vers-chase", 40, extra="\n[sim]\ntracking = true\n"),
                       runner=Runner(1))
    data = report_data(tracked)["results"][0]
    assert data["characters"]["ada"]["mean_harm"] == 0
    assert data["outcomes"]["taken out"]["count"] == 0
    assert data["outcomes"]["captured"]["count"] + data["outcomes"]["away"]["count"] == 40
    p = prepare(job("vers-chase", 1))
    encounter = Encounter(p, 0, [])
    encounter.play()
    assert not any(": attack " in line for line in encounter.trace or [])
    # a custom policy's turn.attacks() leaves out the other party of the chase as well
    encounter = Encounter(p, 1)
    turn = encounter.side_turn()
    while turn is not None and turn.side != "npcs":
        encounter.step()
        turn = encounter.side_turn()
    assert turn is not None and ("cutpurse", "ada") in turn.apart and turn.attacks() == []
    assert any(o.verb == "attack" for o in turn.options)  # the rules still allow a blow


def test_the_agents_view_is_the_players_projection_with_odds_on_demand() -> None:
    for name in ("etherscope-car-chase", "fabula-ultima-ambush", "vers-tavern-brawl"):
        encounter = Encounter(prepare(job(name, 1)), 1)
        looked = 0
        for _ in range(40):
            turn = encounter.side_turn()
            if turn is not None:
                player = encounter.players[turn.side]
                table = view(encounter.conflict, player)  # what the player's table shows
                seen = dict(turn.view)
                assert seen["conflict"]["odds"] is None  # not computed unless read
                assert turn.odds == table["conflict"]["odds"]
                del table["cursor"]
                table["conflict"]["odds"] = None
                assert seen == table
                looked += 1
            if encounter.verdict() or not encounter.step():
                break
        assert looked > 3


def _not_seen(name: str, policies: dict[str, str] | None = None, extra: str = "") -> str:
    """The report's line naming the outcomes no encounter reached."""
    terminal = Console(width=200, file=io.StringIO())
    print_report(terminal, report_data(simulate(job(name, 4, policies, extra),
                                                runner=Runner(1))))
    text: str = terminal.file.getvalue()  # type: ignore[attr-defined]
    return next(line for line in text.splitlines() if line.startswith("not seen:"))


@pytest.mark.rule("VR-CHASE-4", "FU-CON-11", "FU-CON-12")
def test_only_outcomes_the_scenario_can_reach_are_listed_as_not_seen() -> None:
    # a brawl has no chase (only the GM starts one, and the simulated GM never does)
    brawl = _not_seen("vers-tavern-brawl")
    assert not any(o in brawl for o in ("captured", "escaped", "evaded", "away", "won", "lost"))
    assert "no decision" in brawl
    # a pursuit: caught or escaped; with tracking an escape is followed to "away" instead
    chase = report_data(simulate(job("vers-chase", 4), runner=Runner(1)))["results"][0]
    assert list(chase["outcomes"]) == ["taken out", "captured", "escaped", "no decision"]
    tracked = report_data(simulate(job("vers-chase", 4, extra="\n[sim]\ntracking = true\n"),
                                   runner=Runner(1)))["results"][0]
    assert list(tracked["outcomes"]) == ["taken out", "captured", "away", "no decision"]
    # Fabula Ultima: focus fire never concedes; a surrender needs one side that may, a
    # compromise two (one offers, the other accepts)
    assert "surrendered" not in _not_seen("fabula-ultima-ambush")
    assert "compromise" not in _not_seen("fabula-ultima-ambush")
    one = report_data(simulate(job("fabula-ultima-ambush", 4, {"heroes": "parley"}),
                               runner=Runner(1)))["results"][0]
    assert list(one["outcomes"]) == ["defeated", "surrendered", "no decision"]
    both = report_data(simulate(job("fabula-ultima-ambush", 4, {
        "heroes": "parley", "bandits": f"{TACTICS}:accept_compromise"}), runner=Runner(1)))
    assert list(both["results"][0]["outcomes"]) == [
        "defeated", "surrendered", "compromise", "no decision"]


@pytest.mark.rule("FU-CON-11")
def test_a_compromise_is_a_decision_without_a_winner_in_every_form_of_the_report(
        tmp_path: Path) -> None:
    # the walkthrough's report read "no decision 68%" in the win table and "not seen: no
    # decision" under the outcomes: a compromise has no winner, but it is a decision
    talks = ["sim", "fabula-ultima-ambush", "-n", "12", "--seed", "c", "--workers", "1",
             "--policy", "heroes=parley", "--policy", "bandits=parley"]
    data = json.loads(CliRunner().invoke(app, [*talks, "--json"]).output)
    r = data["results"][0]
    assert list(r["wins"]) == ["heroes", "bandits", "no winner", "no decision"]
    compromises = r["outcomes"]["compromise"]["count"]
    assert compromises > 0 and r["wins"]["no winner"]["count"] == compromises
    assert r["wins"]["no decision"]["count"] == r["outcomes"]["no decision"]["count"] == 0
    terminal = Console(width=200, file=io.StringIO())
    print_report(terminal, data)
    text = terminal.file.getvalue()  # type: ignore[attr-defined]
    share = f"{100 * compromises / 12:5.1f}%"
    assert re.search(rf"│ no winner \(compromise\) +│ +{re.escape(share)} ", text), text
    assert re.search(r"│ no decision \(round cap\) +│ +0\.0% ", text), text
    assert re.search(rf"│ compromise +│ +{re.escape(share)} ", text)
    assert "not seen: no decision (each at most" in text
    # a sweep's columns and its plot name the two apart as well
    plot = tmp_path / "sweep.svg"
    sweep = CliRunner().invoke(app, [*talks, "--vary", "pcs=1,2", "--plot", str(plot)],
                               env={"COLUMNS": "200"})
    assert sweep.exit_code == 0, sweep.output
    wins = sweep.output.split("P(taken out)")[0]  # the win table, not the one below it
    heads = [line.split("┃")[1:-1] for line in wins.splitlines()
             if line.startswith("┃")]  # the column heads, a gloss on a line of its own
    assert [" ".join(c.strip() for c in cells).strip() for cells in zip(*heads, strict=True)] == [
        "#", "combination", "heroes", "bandits", "no winner (compromise)",
        "no decision (round cap)"]
    assert "no winner (compromise)" in plot.read_text()
    assert "no decision (round cap)" in plot.read_text()
    # where no compromise can be made (focus fire never concedes), there is no such row
    plain = json.loads(CliRunner().invoke(app, [*talks[:6], "--json"]).output)
    assert list(plain["results"][0]["wins"]) == ["heroes", "bandits", "no decision"]
