"""Structured legal commands in Etherscope (DESIGN.md principle 5): each is a value with the
exact values the rules allow — every declaration split listed is accepted, none else is."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.errors import FracasError
from fracas.rulesets.etherscope.legal import MAX_SPLITS, declarations
from fracas.server.offers import structured
from fracas.server.projection import Live

from .helpers import make, moved, pc, started


@pytest.mark.rule("ES-ROUND-2", "ES-ROUND-3")
def test_the_declaration_splits_listed_are_exactly_the_ones_accepted() -> None:
    c = started()
    (free,) = [lc for lc in c.legal("ada") if lc.verb == "declare"
               and not lc.choice("scores").is_fixed]
    allowed = {tuple(s) for s in free.choice("scores").allowed or ()}
    assert (10,) in allowed and (9, 1) in allowed and (6, 1) in allowed
    for scores in [(s,) for s in range(1, 13)] + [(a, b) for a in range(1, 12)
                                                  for b in range(1, a)]:
        try:
            c.prepare(f"ada: declare {','.join(map(str, scores))}", time="")
        except FracasError:
            assert scores not in allowed, scores
        else:
            assert scores in allowed, scores
    assert c.to_command(free.command(scores=[9, 1])).args["scores"] == [9, 1]


@pytest.mark.rule("ES-RNG-2")
def test_the_targets_listed_are_those_the_actor_may_target() -> None:
    c = started({"lurking": {"carl": ["ada"]}})
    c.execute("countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    targets = {lc.choice("target").fixed for lc in c.legal("ada") if lc.verb == "attack"}
    assert targets == {"bruno"}
    people = [pc("ada", "alice"), pc("bruno", "bob")]
    gm = {lc.verb: lc for lc in make(people=people).legal(None)}
    assert gm["damage"].choice("who").allowed == ("ada", "bruno")


@pytest.mark.rule("ES-ROUND-2", "ES-ROUND-3")
def test_up_to_200_declarations_are_listed_one_by_one_and_more_by_their_bounds() -> None:
    listed = declarations(44, 19)  # exactly 200 splits of 44 at least 19 apart
    assert listed is not None and len(listed) == MAX_SPLITS == 200
    assert [44] in listed and [25, 6] in listed and [24, 5] in listed
    assert declarations(45, 19) is None  # 214: the control takes the bounds only
    c = started({"min_gap": 19})
    (free,) = [lc for lc in c.legal("ada") if lc.verb == "declare"
               and not lc.choice("scores").is_fixed]
    assert free.choice("scores").allowed == declarations(10, 19)


@pytest.mark.rule("ES-ROUND-2")
def test_a_character_that_declared_is_offered_no_second_declaration() -> None:
    c = started()
    assert "declare" in [lc.verb for lc in c.legal("ada")]
    c.execute("ada: declare 10", time="")
    assert "declare" not in [lc.verb for lc in c.legal("ada")]
    assert "declare" in [lc.verb for lc in c.legal("bruno")]


def _sided() -> list[dict[str, object]]:
    return [{**pc("ada", "alice"), "side": "crew"}, {**pc("bruno", "bob"), "side": "crew"},
            {**pc("carl"), "side": "gang"}]


@pytest.mark.rule("ES-ACT-1")
def test_the_zoom_offered_lets_the_table_pick_among_those_the_actor_sees_foes_first() -> None:
    c = started(people=_sided())
    for line in ("ada: declare 10", "bruno: declare 9", "carl: declare 8", "countdown"):
        c.execute(line, time="")
    (zoom,) = [lc for lc in c.legal("ada") if lc.verb == "zoom"]
    who = zoom.choice("who")
    assert not who.is_fixed and who.required
    assert who.allowed == ("carl", "bruno"), "the foe first, then the ally"
    c.execute(zoom.command(who=["carl"], reason="a duel"), time="")
    assert [p for p in c.state.innermost.participants] == ["ada", "carl"]


@pytest.mark.rule("ES-START-2")
def test_the_ambush_offered_lets_the_table_pick_its_targets_foes_first() -> None:
    c = make(people=_sided())
    (ambush,) = [lc for lc in c.legal("ada") if lc.verb == "ambush"]
    targets = ambush.choice("targets")
    assert not targets.is_fixed and targets.allowed == ("carl", "bruno")
    c.execute(ambush.command(targets=["carl"], dice=[6, 6]), time="")
    (again,) = [lc for lc in c.legal("ada") if lc.verb == "ambush"]
    assert again.choice("targets").allowed == ("bruno",), "carl was tried"


@pytest.mark.rule("ES-START-6")
def test_the_gm_is_offered_to_dissolve_each_group_by_its_name() -> None:
    c = make({"groups": {"pursuers": ["ada", "bruno"]}})
    offered = [x for x in c.legal(None) if x.verb == "ungroup"]
    assert [p.allowed for x in offered for p in x.params if p.name == "name"] == [("pursuers",)]
    c.execute(offered[0].text().replace("NAME", "pursuers"))
    assert not c.state.ext.groups
    assert not [x for x in c.legal(None) if x.verb == "ungroup"]  # no group, no offer


def _params(c: Conflict, viewer: Viewer, actor: str, verb: str) -> dict[str, dict[str, Any]]:
    """The parameters of ``actor``'s first offer of ``verb``, as the server sends them to
    ``viewer`` (``…/legal-commands``)."""
    offered = structured(Live(c, viewer), actor)[actor]
    return next({p["name"]: p for p in lc["params"]} for lc in offered if lc["verb"] == verb)


@pytest.mark.rule("ES-ACT-1", "ES-ACT-5", "ES-SET-3")
def test_an_empty_choice_says_what_leaving_it_out_stands_for_unless_a_gm_only_setting() -> None:
    """Before: a zoom's start and scaling, a push's two and an action's nature read a bare
    "—" at the table; now "— (no)", "— (chase)", "— (physical)"; a nature the GM keeps to
    themselves stays a bare dash for the players."""
    c = started({"range_scaling": "chase", "nature": "physical"})
    c.execute("countdown")
    actor = c.state.ext.countdown.current.actor
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        zoom = _params(c, viewer, actor, "zoom")
        assert (zoom["start"]["default"], zoom["scaling"]["default"]) == (False, "chase")
        push = _params(c, viewer, actor, "push")
        assert (push["two"]["default"], push["nature"]["default"]) == (False, "physical")
    secret = started({"nature": "physical", "gm_only_settings": ["nature"]})
    secret.execute("countdown")
    actor = secret.state.ext.countdown.current.actor
    assert _params(secret, Viewer.gm(), actor, "attack")["nature"]["default"] == "physical"
    assert _params(secret, Viewer.of_player("alice"), actor, "attack")["nature"]["default"] \
        is None


@pytest.mark.rule("ES-ACT-1", "ES-START-2")
def test_a_list_of_several_names_says_that_one_or_more_are_picked_and_who_takes_part() -> None:
    """Before: a zoom's "who" and an ambush's "targets" were bare lists: nothing said the
    actor takes part anyway, nor that several may be picked (a zoom sent with none picked
    only met the browser's own "select an item")."""
    c = make(script=["ada: awareness successes=2", "bruno: awareness successes=1",
                     "carl: awareness successes=1"])
    ambush = _params(c, Viewer.of_player("alice"), "ada", "ambush")
    assert "one or more" in ambush["targets"]["help"]
    c = started()
    c.execute("countdown")
    actor = c.state.ext.countdown.current.actor
    who = _params(c, Viewer.gm(), actor, "zoom")["who"]["help"]
    assert "with the actor (who always does): one or more" in who


@pytest.mark.rule("ES-ROUND-3")
def test_the_declare_field_does_not_claim_a_gap_of_5_where_the_conflict_sets_another() -> None:
    """Before: under a conflict's min_gap of 3 the declare field still read "5 apart", while
    its own list offered 4,1."""
    c = make({"min_gap": 3}, script=["ada: awareness successes=3",
                                     "bruno: awareness successes=2",
                                     "carl: awareness successes=1", "moves"])
    c = moved(c, "round")
    offered = structured(Live(c, Viewer.of_player("alice")), "ada")["ada"]
    scores = next(p for lc in offered if lc["verb"] == "declare" for p in lc["params"]
                  if p["name"] == "scores" and p["fixed"] is None)
    assert [4, 1] in scores["allowed"]
    assert scores["help"].endswith("at least 3 apart")  # the conflict's own gap
    hidden = make({"min_gap": 3, "gm_only_settings": ["min_gap"]}, script=[
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "moves"])
    offered = structured(Live(moved(hidden, "round"), Viewer.of_player("alice")), "ada")["ada"]
    helps = [p["help"] for lc in offered if lc["verb"] == "declare" for p in lc["params"]]
    assert helps and not any("3" in h for h in helps)  # a GM-only gap is not told


def _offered(c: Conflict, viewer: Viewer, actor: str | None, verb: str
             ) -> list[dict[str, dict[str, Any]]]:
    """The parameters of every offer of ``verb`` by ``actor`` (None: the GM's own), as the
    server sends them to ``viewer`` (``…/legal-commands``)."""
    offered = structured(Live(c, viewer), actor)[actor or "gm"]
    return [{p["name"]: p for p in lc["params"]} for lc in offered if lc["verb"] == verb]


@pytest.mark.rule("ES-ACT-5", "ES-RNG-2")
def test_a_push_is_offered_toward_or_away_from_anyone_the_actor_sees_but_the_target() -> None:
    """Before: toward= and away= listed every character, the target itself among them (a
    push the rules refuse: "cannot be pushed toward or away from itself")."""
    c = make({"lurking": {"carl": ["ada"]}}, [pc("ada", "alice"), pc("bruno", "bob"),
                                             pc("carl"), pc("dora")],
             [f"{p}: awareness successes={n}" for p, n in
              (("ada", 4), ("bruno", 3), ("carl", 2), ("dora", 1))] + ["moves"])
    c = moved(c, "round", "countdown")
    assert c.state.ext.countdown.current.actor == "ada"
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        pushes = {p["target"]["fixed"]: p for p in _offered(c, viewer, "ada", "push")}
        assert set(pushes) == {"bruno", "dora"}  # carl is hidden from her (ES-RNG-2)
        assert pushes["bruno"]["toward"]["allowed"] == ["ada", "dora"]
        assert pushes["dora"]["away"]["allowed"] == ["ada", "bruno"]
    for target, others in (("bruno", ("ada", "dora")), ("dora", ("ada", "bruno"))):
        for other in others:
            c.prepare(f"ada: push {target} toward={other} dice=6,6", time="")  # each accepted


@pytest.mark.rule("ES-RNG-1", "ES-RNG-3")
def test_the_gm_is_never_offered_to_conceal_or_reveal_one_from_itself() -> None:
    """Before: conceal's from= listed every character, the one concealed among them ("Carl
    is never hidden from themselves"), and so did reveal's."""
    c = make({"lurking": {"carl": ["ada"]}})
    conceal = {p["who"]["fixed"]: p["from"]["allowed"]
               for p in _offered(c, Viewer.gm(), None, "conceal")}
    assert conceal == {"ada": ["bruno", "carl"], "bruno": ["ada", "carl"], "carl": ["bruno"]}
    reveal = {p["who"]["fixed"]: p["from"]["allowed"]
              for p in _offered(c, Viewer.gm(), None, "reveal")}
    assert reveal == {"carl": ["ada"]}  # revealed to those it is hidden from
    c.execute("conceal carl from=bruno", time="")
    assert "carl" not in {p["who"]["fixed"] for p in _offered(c, Viewer.gm(), None, "conceal")}


@pytest.mark.rule("ES-START-3", "ES-START-6")
def test_ranges_and_groups_are_offered_of_those_still_in_the_conflict() -> None:
    """Before: set-range's and group's lists held one taken out, whom the rules refuse
    ("Ada is no longer in the conflict")."""
    c = make(script=["out ada reason=fled"])
    (set_range,) = _offered(c, Viewer.gm(), None, "set-range")
    assert set_range["a"]["allowed"] == set_range["b"]["allowed"] == ["bruno", "carl"]
    (group,) = _offered(c, Viewer.gm(), None, "group")
    assert group["members"]["allowed"] == ["bruno", "carl"]


@pytest.mark.rule("ES-START-1", "ES-ROUND-1")
def test_the_gm_starts_the_moves_once_all_rolled_and_a_round_whoever_joined_late() -> None:
    c = make(script=["ada: awareness successes=3", "bruno: awareness successes=2"])
    assert "moves" not in [x.verb for x in c.legal(None)]  # Carl has not rolled yet
    c.execute("carl: awareness successes=1")
    assert "moves" in [x.verb for x in c.legal(None)]
    c.execute("moves")
    moved(c)
    c.execute('join dora stats=\'{"physical": 8, "ether": 8, "society": 8}\'')
    # Dora joined between rounds and has no awareness yet (0 in ties, ES-START-1): the round
    # still starts at the GM's word
    assert "dora" not in c.state.ext.awareness
    assert "round" in [x.verb for x in c.legal(None)]
    c.execute("round")
    assert c.state.ext.phase == "declare"
    assert "countdown" in [x.verb for x in c.legal(None)]


@pytest.mark.rule("ES-SET-3")
def test_the_nature_field_says_what_acting_off_the_conflicts_nature_costs_the_actor() -> None:
    """Before: it read "the action's nature if not the conflict's": a player who picked
    "physical" for a slap in a war of words learnt only from the log that it cost her a point
    of composure. It says the cost before the roll, in the conflict's own condenser, unless
    the amount or the nature is the GM's to know."""
    def nature_help(settings: dict[str, Any]) -> str:
        c = started(settings)
        c.execute("countdown")
        (attack, *_) = _offered(c, Viewer.of_player("alice"), "ada", "attack")
        return str(attack["nature"]["help"])

    social = nature_help({"nature": "social", "off_nature_damage": 2})
    assert social == ("the action's nature if not the conflict's: acting outside this social "
                      "conflict costs the actor 2 composure damage (society) (ES-SET-3)")
    assert "1 physical damage (ES-SET-3)" in nature_help({})
    secret = nature_help({"nature": "social", "gm_only_settings": ["off_nature_damage"]})
    assert secret.endswith("costs the actor composure damage (society) (ES-SET-3)")
    unsaid = nature_help({"nature": "social", "gm_only_settings": ["nature"]})
    assert unsaid == "the action's nature if not the conflict's (ES-SET-3)"
