"""The hidden band as players see it (ES-RNG-1, ES-RNG-5, ES-RNG-6)."""

from __future__ import annotations

import json

import pytest

from fracas.engine.conflict import Conflict
from fracas.engine.legal import LegalCommand
from fracas.engine.model import Viewer
from fracas.engine.views import log_view, view
from fracas.errors import IllegalCommand
from fracas.rulesets.etherscope import events as ev

from .helpers import ES, make, moved, pc, refused

ALICE = Viewer.of_player("alice")


def hidden_carl_conflict() -> Conflict:
    """Carl (GM) ambushes Ada (alice); Bruno (bob) sees him. Every event type happens."""
    people = [pc("ada", "alice", skills={"hunt": 2}), pc("bruno", "bob"), pc("carl"),
              pc("dora")]
    c = make({"time_scale": "tactical", "ranges": {"default": "near"},
              "lurking": {"carl": ["ada"]}}, people, [
        "ada: awareness successes=1", "bruno: awareness successes=1",
        "carl: awareness successes=3", "dora: awareness successes=0",
        "carl: ambush ada,bruno dice=6,6 counter=ada:1,2/bruno:6,6",
        "set-range carl ada distant", "set-range carl bruno close",
        "group gang carl,dora", "moves",
    ])
    mover = c.state.ext.move_order[0]
    assert mover == "carl"
    c.execute("carl: step bruno away")
    c.execute("carl: done")
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    c.execute("round")
    c.execute("ada: declare 10")
    c.execute("carl: declare 10")
    c.execute("bruno: declare 10")
    c.execute("countdown")
    for _ in range(8):
        cur = c.state.ext.countdown.current
        if cur is None:
            break
        who = cur.actor
        if who == "carl":
            c.execute("carl: attack ada successes=2 say='a shot from nowhere'")
        elif who == "bruno":
            c.execute("bruno: hide successes=1 from=carl,dora")
        elif who == "dora":
            c.execute("dora: push ada successes=1 away=carl")
        else:
            c.execute("ada: recover successes=1")
    c.execute("reveal bruno from=carl")
    c.execute("round")
    c.execute("countdown")
    while c.state.ext.countdown.current.actor != "carl":
        c.execute(f"{c.state.ext.countdown.current.actor}: done")
    c.execute("carl: zoom dora reason='carl and dora plot'")
    c.execute("end 'plotted'")
    c.execute("carl: done")
    c.execute("group pair carl,dora")
    c.execute("ungroup pair")
    c.execute("damage dora 10")
    return c


@pytest.mark.rule("ES-RNG-6", "ES-START-4", "ES-RNG-1")
def test_a_character_hidden_from_all_of_a_players_characters_does_not_exist_for_them() -> None:
    c = hidden_carl_conflict()
    gm_types = {e.type for r in c.records for e in r.events}
    assert set(ev.ALL) - gm_types == set(), set(ev.ALL) - gm_types
    log = log_view(c, ALICE)
    state = view(c, ALICE)
    text = json.dumps(log) + json.dumps(state)
    assert "carl" not in text.lower()
    assert "a shot from nowhere" not in text
    # Ada did feel the damage, without a source
    damage = [e for r in log for e in r["events"] if e["type"] == "damage"]
    assert damage and all(e["data"]["source"] is None for e in damage
                          if e["data"]["participant"] == "ada")
    # her counter roll is shown without the ambusher
    assert any(e["type"] == "counter_rolled" for r in log for e in r["events"])
    # Bruno (bob) sees carl, but not the band between carl and ada (ES-RNG-1)
    bob = json.dumps(view(c, Viewer.of_player("bob")))
    assert "carl" in bob
    assert not any({"ada", "carl"} <= set(r[:2])
                   for r in view(c, Viewer.of_player("bob"))["conflict"]["ruleset"]["ranges"])


@pytest.mark.rule("ES-RNG-6")
def test_lurking_character_absent_from_the_set_up_and_legal_commands() -> None:
    c = make({"lurking": {"carl": ["ada"]}})
    created = log_view(c, ALICE)[0]
    assert "carl" not in json.dumps(created).lower()
    assert "carl" in json.dumps(log_view(c, Viewer.gm())[0])
    c.execute("ada: awareness successes=1")
    assert all("carl" not in cmd for cmd in (lc.text() for lc in ES.legal_commands(c.state, "ada")))


@pytest.mark.rule("ES-RNG-6", "ES-ROUND-5")
def test_roll_offs_and_turns_of_a_hidden_character_are_the_gms() -> None:
    c = make({"lurking": {"carl": ["ada"]}}, script=[
        "ada: awareness successes=2", "bruno: awareness successes=1",
        "carl: awareness successes=2", "moves"])
    log = log_view(c, ALICE)
    assert "tie_rolloff" not in json.dumps(log)
    assert "carl" not in json.dumps(log).lower()
    gm = log_view(c, Viewer.gm())
    assert "tie_rolloff" in json.dumps(gm)


@pytest.mark.rule("ES-RNG-1", "ES-RNG-6")
def test_the_gm_conceals_arriving_reinforcements_from_the_players() -> None:
    from fracas.errors import IllegalCommand

    from .helpers import started

    c = started()
    # brought in hidden from the start (a join, then a conceal, would have shown the join)
    c.execute('join dmitri name="Dmitri the Cleaner" side=villains '
              '\'stats={"physical": 9, "ether": 5, "society": 5}\' hidden=yes')
    for player in ("alice", "bob"):
        seen = json.dumps(view(c, Viewer.of_player(player))) + \
            json.dumps(log_view(c, Viewer.of_player(player)))
        assert "Dmitri" not in seen
    assert c.state.ext.ranges.is_hidden("dmitri", "ada")
    with pytest.raises(IllegalCommand, match="already hidden"):
        c.execute("conceal dmitri from=ada")
    c.execute("reveal dmitri from=ada")
    assert "Dmitri" in json.dumps(view(c, Viewer.of_player("alice")))


@pytest.mark.rule("ES-RNG-1", "ES-RNG-6")
def test_the_view_says_who_is_hidden_from_whom_as_the_viewer_may_know_it() -> None:
    """The GM reads every hidden flag; a player those of their own characters, against those
    they may see, and never one of a character hidden from them."""
    c = make({"lurking": {"carl": ["ada", "bruno"], "ada": ["bruno"]}},
             [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dora")],
             ["ada: awareness successes=1"])

    def hidden(viewer: Viewer) -> dict[str, list[str]]:
        flags: dict[str, list[str]] = view(c, viewer)["conflict"]["ruleset"]["hidden"]
        return flags

    assert hidden(Viewer.gm()) == {"carl": ["ada", "bruno"], "ada": ["bruno"]}
    assert hidden(ALICE) == {"ada": ["bruno"]}
    assert hidden(Viewer.of_player("bob")) == {}


@pytest.mark.rule("ES-RNG-1")
def test_the_gms_command_naming_a_hidden_one_among_others_reads_as_typed_without_them() -> None:
    """``set-range ada bruno,carl distant`` with Carl hidden from Alice's Ada read "the GM
    acts" in her log, where the same without Carl reads as typed: the label told her the GM
    had named someone hidden. Now both entries read alike."""
    people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl")]

    def alice_reads(command: str) -> list[dict[str, object]]:
        c = make({"lurking": {"carl": ["ada", "bruno"]}}, people, [command])
        return log_view(c, ALICE)

    named = alice_reads("set-range ada bruno,carl distant")
    assert named == alice_reads("set-range ada bruno distant")
    assert named[-1]["command"] == "set-range ada bruno distant"
    gm = log_view(make({"lurking": {"carl": ["ada", "bruno"]}}, people,
                       ["set-range ada bruno,carl distant"]), Viewer.gm())
    assert gm[-1]["command"] == "set-range ada bruno,carl distant"
    # a list of none but hidden ones leaves nothing to read: an entry the player never sees
    alone = alice_reads("set-range bruno carl distant")
    assert [e["command"] for e in alone] == ["create"]


@pytest.mark.rule("ES-RNG-1", "ES-RNG-3")
def test_the_gm_is_offered_to_conceal_anyone_and_to_reveal_the_hidden() -> None:
    """The GM's controls at the table are the offered commands: reveal and conceal were never
    among them, so a GM at the browser had to type them."""
    c = make({"lurking": {"carl": ["ada"]}}, None, [
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "moves", "ada: done", "bruno: done", "round"])
    def offered(verb: str) -> dict[str, LegalCommand]:
        return {lc.choice("who").fixed: lc for lc in c.legal(None) if lc.verb == verb}

    assert list(offered("reveal")) == ["carl"]  # the only one hidden from someone
    assert set(offered("conceal")) == set(c.state.active_ids())
    c.execute(offered("conceal")["bruno"].command(**{"from": ["ada"]}), time="")
    assert c.state.ext.ranges.is_hidden("bruno", "ada")
    assert set(offered("reveal")) == {"bruno", "carl"}
    c.execute(offered("reveal")["carl"].command(), time="")
    assert not c.state.ext.ranges.hidden.get("carl")
    assert list(offered("reveal")) == ["bruno"]


@pytest.mark.rule("ES-RNG-1", "ES-RNG-3")
def test_conceal_or_reveal_from_the_character_itself_is_refused_as_such() -> None:
    """Before: "conceal carl from=carl" (the GM's form offers every character in from=) was
    refused as "Carl is already hidden from them", and its reveal as "not hidden from them"."""
    c = make()
    for command, rule in (("conceal carl from=carl", "ES-RNG-1"),
                          ("conceal carl from=ada,carl", "ES-RNG-1"),
                          ("reveal carl from=carl", "ES-RNG-3")):
        msg = refused(c, command, IllegalCommand, rule)
        assert "Carl is never hidden from themselves: leave them out of from=" in msg
    c.execute("group pair ada,carl")
    c.execute("conceal carl from=pair")  # a group holding it stands for its other members
    assert c.state.ext.ranges.hidden["carl"] == ["ada"]


@pytest.mark.rule("ES-RNG-6", "ES-ACT-5")
def test_a_push_by_one_hidden_from_the_player_still_tells_them_the_bands_it_moved() -> None:
    """Before: Carl, hidden from Bruno, pushed Ada away from Bruno; Bob's page read only "Ada
    takes 1 physical damage (push back)" while his matrix showed Ada Distant from Bruno, with
    no line saying why (the change named Carl as its mover, so it went whole)."""
    c = make({"lurking": {"carl": ["bruno"]}, "ranges": {"default": "near"}}, script=[
        "ada: awareness successes=3", "bruno: awareness successes=2",
        "carl: awareness successes=1", "moves"])
    moved(c, "round", "carl: declare 10", "ada: declare 9", "bruno: declare 8", "countdown",
          "carl: push ada successes=3 away=bruno damage=1")
    lines = [line for r in log_view(c, Viewer.of_player("bob")) for line in r["lines"]]
    assert "Ada ↔ Bruno: Near → Distant (push back)" in lines
    assert "carl" not in json.dumps(log_view(c, Viewer.of_player("bob"))).lower()
    # Alice sees Carl: the change and the one who made it, as ever
    assert "Ada ↔ Bruno: Near → Distant (push back)" in [
        line for r in log_view(c, ALICE) for line in r["lines"]]
