"""``override`` corrects the values a GM corrects most — current HP and MP, conditions,
positions, ranges, whose go it is — by the paths of ``show --json``; what it sets is what
the table then sees, it undoes and replays, and an override that would change nothing is
refused naming the path that would."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.serialize import state_to_data
from fracas.engine.views import view
from fracas.errors import FracasError, IllegalCommand, InvalidInput


def _conflict(name: str, undo: int = 0) -> Conflict:
    c = play_script(load_scenario(name), "s")
    if undo:
        c.execute(f"undo {undo}")
    return c


def _seen(c: Conflict, pid: str) -> dict[str, Any]:
    """The participant as the GM sees it in ``show --json``."""
    people = view(c, Viewer.gm())["conflict"]["participants"]
    return next(p for p in people if p["id"] == pid)


def _at(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def _corrects(c: Conflict, line: str, pid: str | None, shown: str, value: Any) -> None:
    """Override, check what the GM then sees, then that undo and replay agree."""
    before = state_to_data(c.state)
    c.execute(line)
    seen = _seen(c, pid) if pid else view(c, Viewer.gm())["conflict"]["ruleset"]
    assert _at(seen, shown) == value, line
    assert state_to_data(c.replay()) == state_to_data(c.state)
    with pytest.raises(InvalidInput, match="nothing would change"):
        c.execute(line)
    c.execute("undo")
    assert state_to_data(c.state) == before


@pytest.mark.parametrize("line, pid, shown, value", [
    ("override captain.hp.current 50", "captain", "hp.current", 50),
    ("override captain.hp.max 70", "captain", "hp.max", 70),
    ("override ada.mp.current 10", "ada", "mp.current", 10),
    ("override ada.statuses dazed,weak", "ada", "statuses", ["dazed", "weak"]),
    ("override ada.fp 1", "ada", "fp", 1),
    ("override ada.turns_left 1", "ada", "turns_left", 1),
    ("override ruleset.tracker.side_on_turn heroes", None, "tracker.side_on_turn", "heroes"),
])
def test_fabula_ultima_live_values(line: str, pid: str | None, shown: str, value: Any) -> None:
    c = _conflict("fabula-ultima-ambush", undo=1)  # before the end: still running
    _corrects(c, line, pid, shown, value)


@pytest.mark.parametrize("line, pid, shown, value", [
    ("override ada.zone bar", "ada", "zone", "bar"),
    ("override thug.tracks.injury.conditions.impaired 1", "thug",
     "tracks.injury.conditions.impaired", 1),
    ("override ruleset.current bruno", None, "current", "bruno"),
    ("override ruleset.actions_left 1", None, "actions_left", 1),
    ("override ruleset.gone ada,thug", None, "gone", ["ada", "thug"]),
])
def test_vers_live_values(line: str, pid: str | None, shown: str, value: Any) -> None:
    _corrects(_conflict("vers-tavern-brawl"), line, pid, shown, value)


@pytest.mark.parametrize("line, pid, shown, value", [
    ("override ada.condensers.physical 5", "ada", "condensers.physical.0", 5),
    ("override ada.condensers.physical.1 14", "ada", "condensers.physical.1", 14),
    ("override ruleset.ranges.zepcar.ada close", None, "ranges.1", ["ada", "zepcar", "close"]),
])
def test_etherscope_live_values(line: str, pid: str | None, shown: str, value: Any) -> None:
    _corrects(_conflict("etherscope-car-chase"), line, pid, shown, value)


@pytest.mark.rule("ES-ROUND-4")
def test_etherscope_whose_action_comes_now() -> None:
    """In the countdown Kim acts, then agent 2, then agent 1: the GM lets agent 1 act now."""
    c = _conflict("etherscope-agents-domain")
    _corrects(c, "override ruleset.acting agent1", None, "acting", ["agent1", 3])
    c.execute("override ruleset.acting agent1")
    assert [[s.actor, s.score] for s in c.state.ext.countdown.remaining()] == [
        ["kim", 8], ["agent2", 6]]  # the others still come, in their order
    with pytest.raises(InvalidInput, match="a character still to act"):
        c.execute("override ruleset.acting bruno")


def _declaring() -> Conflict:
    """The car chase just after 'round': Ada (base 12) has not declared yet."""
    sc = load_scenario("etherscope-car-chase")
    n = next(i for i, line in enumerate(sc.script) if line.text == "ada: declare 8,2")
    return play_script(dataclasses.replace(sc, script=sc.script[:n]), "s")


@pytest.mark.rule("ES-ROUND-2")
@pytest.mark.rule("ES-ROUND-3")
def test_etherscope_acting_initiatives_are_overridden_like_a_declaration() -> None:
    """The GM corrects Ada's declaration by its show --json path; the countdown then runs on
    it, and a correction the rules would refuse as a declaration is refused the same way."""
    c = _declaring()
    _corrects(c, "override ada.declared 7,2", "ada", "declared", [7, 2])
    c.execute("override ada.declared '[2, 7]'")
    for line, refusal in [("override ada.declared 7,4", "at least 5 apart.*ES-ROUND-3"),
                          ("override ada.declared 9,5", "more than the base.*ES-ROUND-2"),
                          ("override ada.declared 0", "must be positive"),
                          ("override ada.declared soon", "takes acting initiatives")]:
        version = c.version
        with pytest.raises((InvalidInput, IllegalCommand), match=refusal):
            c.execute(line)
        assert c.version == version
    assert _seen(c, "ada")["declared"] == [7, 2]
    c.execute("bruno: declare 9")
    c.execute("countdown")
    assert [[s.actor, s.score] for s in c.state.ext.countdown.queue] == [
        ["zepcar", 10], ["bruno", 9], ["ada", 7], ["ada", 2]]
    with pytest.raises(IllegalCommand, match=r"override ruleset.acting.*ES-ROUND-7"):
        c.execute("override ada.declared 8")  # the countdown's order is fixed now


@pytest.mark.rule("ES-ROUND-2")
@pytest.mark.parametrize("value", ['\'["6"]\'', '\'["6", 1]\'', "'[6, \"1\"]'"])
def test_etherscope_declared_takes_numbers_not_text_in_a_list(value: str) -> None:
    """A list of acting initiatives holds numbers: the text "6" in it is a typo, not a 6
    (text alone, 7,1, is the command line's form and stays)."""
    c = _declaring()
    version = c.version
    with pytest.raises(InvalidInput, match=r"takes acting initiatives, whole numbers such as "
                                           r"7,1 or \[7, 1\], not \[.*\(ES-ROUND-2\)"):
        c.execute(f"override ada.declared {value}")
    assert c.version == version and _seen(c, "ada")["declared"] is None


@pytest.mark.parametrize("name, undo, who, lines", [
    ("fabula-ultima-ambush", 1, "captain", ["override captain.hp.current 5",
                                            "override captain.stats.defense 9"]),
    ("vers-tavern-brawl", 0, "thug", ["override thug.zone bar",
                                      "override thug.tracks.injury.conditions.wounded 1"]),
    ("etherscope-car-chase", 0, "zepcar", ["override zepcar.condensers.physical 5",
                                           "override ruleset.ranges.ada.zepcar close",
                                           "override participants.zepcar.name Zep"]),
])
def test_a_character_who_has_left_is_not_overridden(name: str, undo: int, who: str,
                                                    lines: list[str]) -> None:
    """After 'leave', a correction of the one who left is a slip for someone still here:
    refused saying they have left, and nothing changes; one who is only 'out' (taken out,
    still in the scene) may still be corrected."""
    c = _conflict(name, undo=undo)
    c.execute(f"leave {who} fled")
    before, version = state_to_data(c.state), c.version
    for line in lines:
        with pytest.raises(IllegalCommand, match=r"has left the conflict, so nothing of "
                                                 r"theirs is corrected any more"):
            c.execute(line)
    assert c.version == version and state_to_data(c.state) == before
    c.execute("undo")  # back in the conflict, then only taken out: still corrected
    c.execute(f"out {who}")
    c.execute(lines[0])


@pytest.mark.parametrize("name, undo, line, instead", [
    pytest.param("fabula-ultima-ambush", 1, "override settings.pc_side zzz",
                 r"put a character on one of them with 'assign ID SIDE' \(FU-CON-13\)",
                 marks=pytest.mark.rule("FU-CON-13")),
    pytest.param("fabula-ultima-ambush", 1, "override settings.foe_side heroes",
                 r"'assign ID SIDE' \(FU-CON-13\)", marks=pytest.mark.rule("FU-CON-13")),
    pytest.param("vers-tavern-brawl", 0, "override settings.cover '[]'",
                 r"'cover WHO VALUE' \(VR-ATK-5\)", marks=pytest.mark.rule("VR-ATK-5")),
    pytest.param("vers-tavern-brawl", 0, "override settings.links.0.0 cellar",
                 r"'link A B' \(VR-MOVE-1\)", marks=pytest.mark.rule("VR-MOVE-1")),
    pytest.param("etherscope-car-chase", 0, "override settings.ranges.pairs.0.2 0",
                 r"'set-range A B BAND' or 'override ruleset.ranges.A.B BAND' \(ES-START-3\)",
                 marks=pytest.mark.rule("ES-START-3")),
    pytest.param("etherscope-car-chase", 0, "override settings.groups.pursuers '[\"ada\"]'",
                 r"'group NAME IDS' .*\(ES-START-6\)", marks=pytest.mark.rule("ES-START-6")),
])
def test_a_setting_read_only_at_the_set_up_is_not_overridden(name: str, undo: int, line: str,
                                                             instead: str) -> None:
    """Before: stored, shown in the settings, and then ignored by play (the turn order's
    sides, a map, ranges and groups are kept elsewhere once the conflict is set up); now
    refused, saying so and naming the command that changes it in play."""
    c = _conflict(name, undo=undo)
    before, version = state_to_data(c.state), c.version
    with pytest.raises(InvalidInput, match=r"is read once, when the conflict is set up, and "
                                           r"changes nothing in play; .*" + instead):
        c.execute(line)
    assert c.version == version and state_to_data(c.state) == before


def test_a_setting_play_reads_is_still_overridden() -> None:
    """Etherscope reads the default range whenever someone joins: it may be corrected."""
    c = _conflict("etherscope-car-chase")
    c.execute("override settings.ranges.default close")
    c.execute("join eve name=Eve 'stats={\"physical\": 8}'")
    assert c.state.ext.ranges.get("eve", "ada") == 0  # Close, as the corrected default


@pytest.mark.rule("VR-MOVE-3")
def test_a_vers_zone_override_moves_for_real() -> None:
    """Moved away by the GM, Ada is no longer engaged and cannot be struck in close combat."""
    c = _conflict("vers-tavern-brawl")
    c.execute("override ada.zone floor")
    c.execute("override ruleset.current thug")
    c.execute("override ruleset.actions_left 2")
    c.execute("thug: attack ada dice=1,1,1")  # same zone now: a close attack is allowed
    c.execute("override ada.zone stairs")
    assert "ada" not in c.state.ext.engaged_with("thug")
    with pytest.raises(IllegalCommand, match="a close attack needs the same zone"):
        c.execute("thug: attack ada dice=6,6,6")


@pytest.mark.parametrize("name, line, instead", [
    ("fabula-ultima-ambush", "override captain.stats.hp 60", "override captain.hp.max"),
    ("vers-tavern-brawl", "override ada.stats.zone bar", "override ada.zone"),
    ("etherscope-car-chase", "override ada.stats.physical 3", "override ada.condensers.physical"),
])
def test_a_set_up_stat_that_changes_nothing_names_the_path_that_would(
        name: str, line: str, instead: str) -> None:
    c = _conflict(name)
    version = c.version
    with pytest.raises(InvalidInput, match=f"changes nothing in play; {instead} instead"):
        c.execute(line)
    assert c.version == version


@pytest.mark.parametrize("line, message", [
    ("override captain.hp.current 500", "goes from 0 to 60"),
    ("override captain.hp.current true", "whole number"),
    ("override ada.statuses sleepy", "status effects"),
])
def test_a_live_value_out_of_range_is_refused(line: str, message: str) -> None:
    c = _conflict("fabula-ultima-ambush", undo=1)
    with pytest.raises(InvalidInput, match=message):
        c.execute(line)


@pytest.mark.parametrize("name, line, message", [
    # before: a name given twice was dropped without a word ("ada,ada" stored as ["ada"])
    ("vers-tavern-brawl", "override ruleset.gone ada,ada",
     "override: ruleset.gone names ada twice; name each of the participants once"),
    ("vers-tavern-brawl", """override ruleset.gone '["thug", "Thug"]'""",
     "override: ruleset.gone names thug twice"),
    ("vers-tavern-brawl", "override ruleset.gone 'ada, zed'",
     'override: ruleset.gone takes a list of participants (ada, '),
    ("vers-tavern-brawl", "override ruleset.gone 'ada, zed'", '); "zed" is none of them'),
    ("vers-tavern-brawl", """override ruleset.gone '["ada", [1]]'""", "[1] is none of them"),
    ("fabula-ultima-ambush", "override ada.statuses dazed,weak,dazed",
     "override: ada.statuses names dazed twice; name each of the status effects once"),
])
def test_a_list_override_naming_one_twice_or_one_unknown_is_refused(
        name: str, line: str, message: str) -> None:
    c = _conflict(name, undo=1 if name.startswith("fabula") else 0)
    before, version = state_to_data(c.state), c.version
    with pytest.raises(InvalidInput, match=re.escape(message)):
        c.execute(line)
    assert c.version == version and state_to_data(c.state) == before


def test_vers_refuses_a_zone_that_does_not_exist() -> None:
    with pytest.raises(InvalidInput, match="takes a zone"):
        _conflict("vers-tavern-brawl").execute("override ada.zone nowhere")


@pytest.mark.parametrize("name, line, instead", [
    ("etherscope-car-chase", "override ext.phase waiting", "ID.condensers.physical"),
    ("etherscope-car-chase", "override ext.ranges.bands.ada|bruno 3", "ruleset.ranges.ID.ID2"),
    ("vers-tavern-brawl", "override ext.objects.table.zone nowhere", "ID.zone"),
    ("vers-tavern-brawl", "override ext.harm.ada.injury.marks []",
     "ID.tracks.injury.conditions.wounded"),
    ("fabula-ultima-ambush", "override ext.round_closed true", "ID.hp.current"),
])
def test_the_rulesets_bookkeeping_is_not_set_by_hand_and_the_table_still_shows(
        name: str, line: str, instead: str) -> None:
    """A phase, a range band or a mark list set by hand left a state no screen could show:
    every later view and command of the conflict failed. The GM is pointed at the live
    values it may correct instead, and nothing is stored."""
    c = _conflict(name)
    version, before = c.version, state_to_data(c.state)
    with pytest.raises(InvalidInput, match=f"own bookkeeping.*such as .*{re.escape(instead)}"):
        c.execute(line)
    assert c.version == version and state_to_data(c.state) == before
    assert view(c, Viewer.gm())["conflict"]["participants"]


@pytest.mark.parametrize("name, line, said", [
    pytest.param("etherscope-car-chase", "override ruleset.acting ada",
                 r"ruleset.acting is whose action comes now, so it is open only while the "
                 r"countdown runs \(ES-ROUND-4\)", marks=pytest.mark.rule("ES-ROUND-4")),
    pytest.param("vers-chase", "override ada.zone bar",
                 r"ada.zone: this conflict has no zones; draw one with 'zone ID NAME' "
                 r"\(VR-MOVE-1\)", marks=pytest.mark.rule("VR-MOVE-1")),
])
def test_a_live_value_that_does_not_exist_now_says_why(name: str, line: str, said: str
                                                        ) -> None:
    """Before: 'ruleset has no 'acting'' between rounds, and 'participants.ada has no 'zone';
    did you mean 'owner'?' in a chase without a map."""
    c = _conflict(name)
    version = c.version
    with pytest.raises(IllegalCommand, match=said):
        c.execute(line)
    assert c.version == version


@pytest.mark.parametrize("name, line, hint", [
    ("fabula-ultima-ambush", "override ada.health 12", "ID.hp.current"),
    ("vers-tavern-brawl", "override ada.injury 2", "ID.tracks.injury.conditions.wounded"),
    ("etherscope-car-chase", "override ada.physical 3", "ID.condensers.physical"),
])
def test_a_path_that_names_nothing_points_at_the_live_values(name: str, line: str,
                                                            hint: str) -> None:
    """'ada.hp' meant 'ada.hp.current': the refusal says what is missing and names the paths
    of the live values the GM corrects in this ruleset."""
    c = _conflict(name)
    with pytest.raises(InvalidInput, match=r"has no '\w+'; the live values are corrected by "
                                           rf"paths such as .*{re.escape(hint)}"):
        c.execute(line)


@pytest.mark.parametrize("line, said", [
    ("override ruleset.ranges.ada.boris close", "ruleset.ranges.ada.boris: 'boris' is no "
     "participant of this conflict; the ranges are between ada, bruno, zepcar"),
    ("override ruleset.ranges.boris.ada close", "'boris' is no participant"),
    ("override ruleset.ranges.ada.zepcr near", "did you mean 'zepcar'?"),
    ("override ruleset.ranges.ada.ada close", "a character has no range to itself"),
    ("override ruleset.ranges.ada close", "a range is between two characters: "
     "ruleset.ranges.ID.ID2 BAND (e.g. ruleset.ranges.ada.bruno near)"),
    ("override ruleset.ranges close", "a range is between two characters"),
])
def test_an_etherscope_range_that_names_no_pair_says_why(line: str, said: str) -> None:
    """Before: "ruleset has no 'ranges'; the live values are corrected by paths such as …
    ruleset.ranges.ID.ID2" — it denied the ranges, then suggested them."""
    c = _conflict("etherscope-car-chase")
    version, before = c.version, state_to_data(c.state)
    with pytest.raises(InvalidInput) as refused:
        c.execute(line)
    assert said in str(refused.value) and "has no 'ranges'" not in str(refused.value)
    assert c.version == version and state_to_data(c.state) == before


@pytest.mark.parametrize("line, said", [
    ("override ada.hp 12", "ada.hp: HP is corrected by its current score or its maximum: "
     "ada.hp.current N or ada.hp.max N"),
    ("override captain.hp.curent 5", "captain.hp.current N or captain.hp.max N; did you mean "
     "'current'?"),
])
def test_a_fabula_ultima_pool_named_without_current_or_max_says_which(line: str,
                                                                      said: str) -> None:
    """Before: "participants.captain has no 'hp'" — the pool exists; the typo was after it."""
    c = _conflict("fabula-ultima-ambush")
    version, before = c.version, state_to_data(c.state)
    with pytest.raises(InvalidInput) as refused:
        c.execute(line)
    assert said in str(refused.value) and "has no 'hp'" not in str(refused.value)
    assert c.version == version and state_to_data(c.state) == before


def test_a_player_giving_a_range_override_is_refused_as_the_gms_command_only() -> None:
    """The refusal that names the conflict's ids is the GM's: a player never reaches it."""
    c = _conflict("etherscope-car-chase")
    for line in ("override ruleset.ranges.ada.boris close",
                 "ada: override ruleset.ranges.ada.x 1"):
        with pytest.raises(FracasError) as refused:
            c.execute(line, Viewer.named("alice"))
        assert "zepcar" not in str(refused.value) and "GM" in str(refused.value)


@pytest.mark.parametrize("line, said", [
    ("override ada.condensers.physcal 3", "ada.condensers.physcal: name one of Ada's "
     "condensers, not 'physcal': ada.condensers.KIND (physical, ether, society); did you mean "
     "'physical'?"),
    ("override ada.condensers 3", "name one of Ada's condensers: ada.condensers.KIND"),
    ("override ada.condensers.physical.2 3", "a condenser holds its current score "
     "(ada.condensers.physical) and its maximum (ada.condensers.physical.1)"),
])
def test_an_etherscope_condenser_path_that_names_none_says_why(line: str, said: str) -> None:
    """Before: "participants.ada has no 'condensers'; … such as ID.condensers.physical"."""
    c = _conflict("etherscope-car-chase")
    version = c.version
    with pytest.raises(InvalidInput) as refused:
        c.execute(line)
    assert said in str(refused.value) and "has no 'condensers'" not in str(refused.value)
    assert c.version == version
