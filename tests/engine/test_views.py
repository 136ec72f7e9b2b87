"""Secrets stay secret: GM-only notes, stats and secret rolls never reach a player."""

from __future__ import annotations

import json

import pytest

from fracas.engine import Conflict, ConflictState, Viewer
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand, InvalidInput
from tests.support.helpers import toy_conflict, toy_setup
from tests.support.toy import Toy

ALICE = Viewer.of_player("alice")
BOB = Viewer.of_player("bob")


def test_gm_only_stats_are_hidden_from_players_and_shown_to_the_gm() -> None:
    c = toy_conflict()
    gob = {p["id"]: p for p in view(c, ALICE)["conflict"]["participants"]}["gob"]
    assert "weakness" not in gob["stats"]
    gm_gob = {p["id"]: p for p in view(c, Viewer.gm())["conflict"]["participants"]}["gob"]
    assert gm_gob["stats"]["weakness"] == "fire"
    assert "fire" not in json.dumps(view(c, ALICE))


def test_secret_notes_and_rolls_leave_no_entry_at_all_in_a_players_log() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("note 'the goblin plans to flee' visibility=gm")
    c.execute("roll 1d20 visibility=gm why=morale")
    c.execute("gob: roll 2d6 visibility=gm")
    c.execute("note 'Ada hears footsteps'")
    entries = log_view(c, ALICE)
    text = json.dumps(entries)
    assert "flee" not in text and "morale" not in text and "2d6" not in text
    assert [e["command"] for e in entries] == ["create", "start ada", "note 'Ada hears footsteps'"]
    assert [e["entry"] for e in entries] == [1, 2, 3]
    gm_text = json.dumps(log_view(c, Viewer.gm()))
    assert "flee" in gm_text and "morale" in gm_text
    # a player who calls themselves "gm" is not the author of the GM's records (the server
    # refuses such a link; a store that holds one from before still shows it nothing more)
    for name in ("gm", "public"):
        assert log_view(c, Viewer.of_player(name)) == entries, name


def test_owner_visibility_reaches_the_owner_and_the_gm_only() -> None:
    c = toy_conflict()
    c.execute("ada: note 'I suspect Bruno' visibility=owner")
    assert "suspect" in json.dumps(log_view(c, ALICE))
    assert "suspect" not in json.dumps(log_view(c, BOB))
    assert "suspect" in json.dumps(log_view(c, Viewer.gm()))


def test_the_view_never_contains_the_seed() -> None:
    c = toy_conflict("very-secret-seed")
    c.execute("start ada")
    for viewer in (Viewer.gm(), ALICE, Viewer.public()):
        assert "very-secret-seed" not in json.dumps(view(c, viewer))
        assert "very-secret-seed" not in json.dumps(log_view(c, viewer))


def test_a_player_sees_which_characters_are_theirs() -> None:
    c = toy_conflict()
    mine = [p["id"] for p in view(c, ALICE)["conflict"]["participants"] if p["mine"]]
    assert mine == ["ada"]


def test_gm_only_effects_are_hidden_from_players() -> None:
    c = toy_conflict()
    c.execute("effect 'ambush ready' visibility=gm")
    assert view(c, ALICE)["conflict"]["effects"] == []
    assert view(c, Viewer.gm())["conflict"]["effects"][0]["text"] == "ambush ready"


class Shadowy(Toy):
    """The toy ruleset where the goblin and Bruno are unknown to Alice."""

    name = "toy-shadowy"

    def can_see(self, state: ConflictState, viewer: Viewer, pid: str) -> bool:
        return viewer.player != "alice" or pid not in ("gob", "bruno")


def shadowy_conflict() -> Conflict:
    """A toy conflict in which the goblin and Bruno are unknown to Alice."""
    ruleset = Shadowy()
    setup = toy_setup().model_copy(update={"ruleset": ruleset.name})
    return Conflict.create(ruleset, setup, "seed", time="")


def test_a_zoom_and_a_side_of_only_unknown_characters_are_not_shown() -> None:
    c = shadowy_conflict()
    c.execute("start ada")
    c.execute("zoom gob,bruno")
    alice = view(c, ALICE)
    assert alice["zoom"] == []
    assert alice["conflict"]["sides"] == ["heroes"]
    assert [p["id"] for p in alice["conflict"]["participants"]] == ["ada"]
    gm = view(c, Viewer.gm())
    assert len(gm["zoom"]) == 1 and gm["conflict"]["sides"] == ["heroes", "foes"]


def test_out_and_leave_without_a_reason_say_no_reason() -> None:
    """`out gob` read "Goblin is out of the conflict: out" and `leave gob` "Goblin leaves:
    leave": the verb came back as its own reason."""
    c = toy_conflict()
    c.execute("start ada")
    c.execute("out gob")
    assert log_view(c, Viewer.gm())[-1]["lines"][0] == "Goblin is out of the conflict"
    c.execute("undo")
    c.execute("leave gob")
    assert log_view(c, Viewer.public())[-1]["lines"][0] == "Goblin leaves"
    c.execute("undo")
    c.execute("out gob reason='fled the mill'")
    said = log_view(c, Viewer.gm())[-1]["lines"][0]
    assert said == "Goblin is out of the conflict: fled the mill"


def test_a_character_out_of_the_conflict_can_no_longer_act() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("out gob reason='fled the mill'")
    before = c.version
    with pytest.raises(IllegalCommand, match=r"Goblin is out of the conflict \(fled the mill\)"):
        c.execute("gob: hit ada")
    c.execute("gob: note 'I will be back'")  # notes are still fine
    assert c.version == before + 1


def test_a_player_keeps_seeing_their_own_command_when_some_results_are_secret() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("ada: roll 1d20 visibility=gm why=perception", ALICE)  # all of it secret
    c.execute("ada: roll 1d20 visibility=gm why=ambush")  # the GM's, for Ada: not hers
    c.execute("effect 'hidden trap armed' visibility=gm")
    entries = log_view(c, ALICE)
    assert [(e["command"], e["events"]) for e in entries[-1:]] == [
        ("ada: roll 1d20 why=perception visibility=gm", [])]
    assert "ambush" not in json.dumps(entries)
    record = c.execute("ada: hit gob dice=3")
    assert record.events[0].type == "hit"
    assert log_view(c, ALICE)[-1]["command"] == "ada: hit gob dice=3"


def test_an_effect_on_an_unknown_character_is_hidden_when_added_and_when_it_ends() -> None:
    c = shadowy_conflict()
    c.execute("start ada")
    c.execute("effect 'the goblin lies in wait' who=gob until=turn_start")
    c.execute(f"expire {c.state.effects[0].id}")
    assert "lies in wait" not in json.dumps(log_view(c, ALICE))
    assert "lies in wait" in json.dumps(log_view(c, BOB))
    assert "lies in wait" in json.dumps(log_view(c, Viewer.gm()))


def test_an_effect_set_by_an_unknown_character_does_not_give_it_away() -> None:
    c = shadowy_conflict()
    c.execute("start ada")
    c.execute("gob: effect 'the air smells of goblin'")
    c.execute(f"expire {c.state.effects[0].id}")
    c.execute("gob: effect 'a goblin trick' count=2")
    alice = json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE))
    assert "goblin" not in alice and '"gob"' not in alice
    assert "a goblin trick" in json.dumps(view(c, BOB))


def test_a_player_sees_their_own_secret_effect_end_when_the_gm_expires_it() -> None:
    c = toy_conflict()
    c.execute("ada: effect 'hidden blade ready' visibility=owner")
    c.execute(f"expire {c.state.effects[0].id}")
    ended = [e for entry in log_view(c, ALICE) for e in entry["events"]
             if e["type"] == "effect_expired"]
    assert [e["data"]["text"] for e in ended] == ["hidden blade ready"]
    assert "hidden blade" not in json.dumps(log_view(c, BOB))


def test_a_character_joining_mid_conflict_can_have_gm_only_stats() -> None:
    c = toy_conflict()
    c.execute("join ogre name=Ogre side=foes 'stats={\"hp\": 9, \"weakness\": \"salt\"}' "
              "gm_only=weakness")
    assert "salt" not in json.dumps(view(c, ALICE)) + json.dumps(log_view(c, ALICE))
    assert "salt" in json.dumps(view(c, Viewer.gm()))
    with pytest.raises(InvalidInput, match="gm_only names stats"):
        c.execute("join troll 'stats={\"hp\": 9}' gm_only=weakness")


def test_a_public_stat_naming_a_concealed_character_is_left_out_for_players() -> None:
    # a bond keyed by its id, a note naming it, in the sheet and in the join's log entry:
    # what the GM left public of a seen character never tells of one hidden from the players
    c = toy_conflict()
    c.execute("join spy name=Zqspy side=foes 'stats={\"hp\": 3}' hidden=yes", time="")
    c.execute("join orc name=Orc side=foes 'stats={\"hp\": 5, \"grudge\": \"owes Zqspy\", "
              "\"bonds\": {\"spy\": 2, \"gob\": 1}, \"note\": \"big\"}'", time="")
    for who in (ALICE, Viewer.public()):
        orc = {p["id"]: p for p in view(c, who)["conflict"]["participants"]}["orc"]
        assert orc["stats"] == {"hp": 5, "bonds": {"gob": 1}, "note": "big"}
        seen = json.dumps(view(c, who)) + json.dumps(log_view(c, who))
        assert "spy" not in seen.lower() and "owes" not in seen
        joined = log_view(c, who)[-1]["events"][0]["data"]
        assert joined["stats"] == orc["stats"]
    gm = {p["id"]: p for p in view(c, Viewer.gm())["conflict"]["participants"]}["orc"]
    assert gm["stats"]["grudge"] == "owes Zqspy" and gm["stats"]["bonds"]["spy"] == 2
    c.execute("reveal spy", time="")  # known again: the sheet reads whole
    orc = {p["id"]: p for p in view(c, ALICE)["conflict"]["participants"]}["orc"]
    assert orc["stats"]["grudge"] == "owes Zqspy" and orc["stats"]["bonds"] == {"spy": 2, "gob": 1}


@pytest.mark.parametrize(("spy", "said"), [("spy name=Zqspy", "Zqspy"),
                                           ("zqspy name=Shadow", "zqspy")])
def test_the_gms_public_words_naming_a_concealed_character_are_left_out_for_players(
        spy: str, said: str) -> None:
    # why someone is out, an effect's text, why the conflict ended and its outcome, in the
    # GM's words: where they name one hidden from the players, by its name or by its id (GMs
    # type ids all evening: "zqspy got away"; before, only a value that was the id and
    # nothing else was kept from them), the players read none of them
    c = toy_conflict()
    c.execute(f"join {spy} side=foes 'stats={{\"hp\": 3}}' hidden=yes", time="")
    c.execute(f"out bruno reason='{said} knifed him'", time="")
    c.execute(f"effect 'the lamp gutters as {said} passes'", time="")
    c.execute("effect 'rain on the roof'", time="")
    c.execute(f"end reason='{said} wins' outcome='{said} takes the crown'", time="")
    for who in (ALICE, BOB, Viewer.public()):
        seen = view(c, who)
        assert said not in json.dumps(seen) + json.dumps(log_view(c, who))
        level = seen["conflict"]
        assert level["status"] == "ended" and level["end_reason"] is None
        assert level["outcome"] is None
        assert [e["text"] for e in level["effects"]] == ["rain on the roof"]
        bruno = {p["id"]: p for p in level["participants"]}["bruno"]
        assert bruno["out"] == "out"  # out, as the log says he is; not why
    gm = view(c, Viewer.gm())["conflict"]
    assert gm["end_reason"] == f"{said} wins" and len(gm["effects"]) == 2
    assert {p["id"]: p for p in gm["participants"]}["bruno"]["out"] == f"{said} knifed him"


def test_a_sheet_set_up_before_a_character_joins_hidden_reads_as_it_did() -> None:
    # Ada's bond to Zqhawk and her note of him were on her sheet, for everyone, before he was
    # in the conflict: his joining hidden changes nothing any player reads (before, both left
    # her sheet at his joining, which told of it); what the GM writes of him once he is in is
    # kept from them, as ever
    setup = toy_setup()
    setup.participants[0].stats.update(bonds={"hawk": 2}, note="owes Zqhawk money")
    c = Conflict.create(Toy(), setup, "seed", time="")
    seen = {v: view(c, v) for v in (ALICE, Viewer.of_player("bob"), Viewer.public())}
    c.execute("join hawk name=Zqhawk side=foes 'stats={\"hp\": 3}' hidden=yes", time="")
    for v, before in seen.items():
        now = view(c, v)
        assert now["conflict"] == before["conflict"], v
    c.execute("override ada.stats.note 'Zqhawk watches her'", time="")
    c.execute("join owl name=Zqowl side=foes 'stats={\"hp\": 3}' hidden=yes", time="")
    ada = {p["id"]: p for p in view(c, ALICE)["conflict"]["participants"]}["ada"]
    assert ada["stats"] == {"hp": 6, "bonds": {"hawk": 2}}  # written once Zqhawk was in
    assert "watches" not in json.dumps(view(c, ALICE))
    with pytest.raises(InvalidInput, match="the engine's own bookkeeping"):
        c.execute("override ada.entered 9", time="")


def test_a_seen_name_holding_a_concealed_ones_name_is_read_as_its_own() -> None:
    # "Zqbo's dog" beside a concealed "Zqbo": what names the dog reaches the players (before,
    # every sentence naming the dog was withheld as if it named Zqbo), what names Zqbo not
    c = toy_conflict()
    c.execute("join bo name=Zqbo side=foes 'stats={\"hp\": 3}' hidden=yes", time="")
    c.execute("join dog name=\"Zqbo's dog\" side=foes 'stats={\"hp\": 3}'", time="")
    c.execute("note \"Zqbo's dog growls at Ada\"", time="")
    c.execute("note \"Zqbo whistles, Zqbo's dog comes\"", time="")
    c.execute("effect \"Zqbo's dog guards the door\"", time="")
    lines = [line for e in log_view(c, ALICE) for line in e["lines"]]
    assert "note: Zqbo's dog growls at Ada" in lines
    assert not any("whistles" in line for line in lines)
    effects = view(c, ALICE)["conflict"]["effects"]
    assert [e["text"] for e in effects] == ["Zqbo's dog guards the door"]


def test_an_undo_of_secret_commands_names_none_of_them_to_a_player() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("ada: hit gob dice=2")  # v3, seen by Alice
    c.execute("note 'the goblin has a key' visibility=gm")  # v4, secret
    c.execute("undo 2")  # takes back v4 and v3
    markers = [e for r in log_view(c, ALICE) for e in r["events"] if e["type"] == "undone"]
    # the undo names what it took back as Alice saw it, by her own entry's number, and no
    # version or count
    mine = next(r["entry"] for r in log_view(c, ALICE) if r["command"] == "ada: hit gob dice=2")
    assert markers == [{"type": "undone", "data": {"commands": ["ada: hit gob dice=2"],
                                                   "entries": [mine]}}]
    assert log_view(c, ALICE)[-1]["command"] == "undo"
    assert log_view(c, ALICE)[-1]["lines"] == ["undo: ada: hit gob dice=2"]
    # the GM reads the versions, each with its command
    assert log_view(c, Viewer.gm())[-1]["lines"] == [
        "undo: v4 (note 'the goblin has a key' visibility=gm); v3 (ada: hit gob dice=2)"]
    c.execute("redo")  # brings back v3 only
    assert log_view(c, Viewer.gm())[-1]["lines"] == ["redo: v3 (ada: hit gob dice=2)"]
    c.execute("undo")
    seen = log_view(c, ALICE)
    c.execute("note 'another secret' visibility=gm")
    c.execute("undo")  # only the secret note: Alice sees nothing at all
    assert log_view(c, ALICE) == seen


def test_an_undone_reveal_and_a_redone_conceal_still_say_what_they_took_back() -> None:
    # a reveal of the wrong character, undone: before, Alice's log had no undo at all (its
    # line named Zqspy, hidden again), so the reveal and her hit on him stayed unstruck
    c = toy_conflict()
    c.execute("join zq name=Zqspy side=foes 'stats={\"hp\": 3}' hidden=yes", time="")
    c.execute("start ada")
    c.execute("reveal zq")
    c.execute("ada: hit zq dice=2")
    seen = {e["command"]: e["entry"] for e in log_view(c, ALICE)}
    c.execute("undo 2")
    last = log_view(c, ALICE)[-1]
    hit, reveal = seen["ada: hit zq dice=2"], seen["reveal zq"]
    assert last["command"] == "undo"
    assert last["lines"] == [f"undo: #{hit}; #{reveal}"]  # her own entries, by number
    assert last["events"][0]["data"]["entries"] == [hit, reveal]
    # the same for a conceal redone: the redo of her hit on one now hidden is said
    c.execute("redo 2")
    c.execute("conceal zq")
    c.execute("undo 2")
    c.execute("redo 2")
    last = log_view(c, ALICE)[-1]
    assert last["command"] == "redo"
    assert last["lines"] == [f"redo: #{hit}"]
    assert "zq" not in json.dumps(last).lower()


def test_a_players_log_is_numbered_so_no_gap_counts_hidden_records() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("note 'secret one' visibility=gm")
    c.execute("note 'secret two' visibility=gm")
    c.execute("ada: hit gob dice=1")
    entries = log_view(c, ALICE)
    assert [e.get("entry") for e in entries] == [1, 2, 3]
    assert all("version" not in e for e in entries)
    assert [e["command"] for e in entries][2:] == ["ada: hit gob dice=1"]
    assert [e["version"] for e in log_view(c, Viewer.gm())] == [1, 2, 3, 4, 5]


def test_a_log_read_since_an_entry_gives_just_the_entries_after_it() -> None:
    c = toy_conflict()
    c.execute("start ada")
    seen = log_view(c, ALICE)
    c.execute("note 'the goblin plans to flee' visibility=gm")  # no entry for Alice
    assert log_view(c, ALICE, since=len(seen)) == []
    c.execute("note 'Ada hears footsteps'")
    new = log_view(c, ALICE, since=len(seen))
    assert new == log_view(c, ALICE)[len(seen):]
    assert [e["entry"] for e in new] == [len(seen) + 1]
    assert new[0]["command"] == "note 'Ada hears footsteps'"
