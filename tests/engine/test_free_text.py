"""Free text reaches players safe by structure, not by a search for names in it.

Every text parameter of every command is of one kind (ARCHITECTURE.md, "Free text"): *marked*
(the command's own ``visibility=``), *actor* (a character's own words, shown only to those
who may know the character) or *table* (the GM's words to everyone who sees the event). The
projector's search for hidden names in sentences, view texts and refusals
(``redaction.Unknowns``) is only a belt under them: the tests marked "belt off" take it away
and check that the structure alone keeps every hidden name out.
"""

from __future__ import annotations

import json

import pytest

from fracas.app.scenario import load_scenario
from fracas.app.script import play_script
from fracas.cli.render import log_lines
from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.redaction import Unknowns
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from tests.rulesets.etherscope.helpers import make, pc

ALICE, BOB = Viewer.of_player("alice"), Viewer.of_player("bob")
SECRET = "Kimberly Lurk"

#: Every free-text parameter, by verb, with its kind (a new one must be given a kind here
#: and in ARCHITECTURE.md, after deciding whom its text is written for).
KINDS = {
    "note": "marked", "narrate": "marked", "roll": "marked", "effect": "marked",
    "override": "marked",  # its reason: the GM's alone, or the owner's too (visibility=owner)
    "join": "table", "leave": "table", "out": "table", "end": "table", "damage": "table",
    "zone": "table", "object": "table", "harm": "table", "chase": "table", "abandon": "table",
    "tactics": "table",
    "handoff": "table",  # VERS: a GM's hand-off; a character's own is that actor's words
    "push": "actor", "attack": "actor", "move": "actor", "hide": "actor", "search": "actor",
    "recover": "actor", "act": "actor", "zoom": "actor", "goal": "actor", "equip": "actor",
    "spell": "actor", "spend": "actor", "fabula": "actor", "run": "actor",
    "interpose": "actor",
}


@pytest.mark.parametrize("ruleset", ["etherscope", "fabula-ultima", "vers"])
def test_every_free_text_is_of_a_kind_its_command_enforces(ruleset: str) -> None:
    specs = Conflict(get_ruleset(ruleset), "s").commands.specs.values()
    for spec in specs:
        if not any(p.kind == "text" for p in spec.params):
            continue
        kind = KINDS.get(spec.verb)
        assert kind is not None, f"{ruleset} {spec.verb}: whom is its free text for?"
        marked = any(p.name == "visibility" for p in spec.params)
        assert marked == (kind == "marked"), spec.verb
        if kind == "actor":
            assert spec.actor == "required", spec.verb  # always a character's own words
        if kind == "table":
            assert spec.actor in ("gm", "optional"), spec.verb


@pytest.fixture
def belt_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Take the projector's search for hidden names away: only the structure is left."""
    monkeypatch.setattr(Unknowns, "named_in", lambda self, text: False)


def _lurking() -> Conflict:
    """Ada (alice) and Bruno (bob) with Kimberly Lurk lurking, hidden from both; round 1
    counting down, Kimberly's slot first."""
    kim = {**pc("kim", physical=10), "name": SECRET}
    c = make({"time_scale": "tactical", "lurking": {"kim": ["ada", "bruno"]}},
             [pc("ada", "alice"), pc("bruno", "bob"), pc("boris"), kim],
             ["ada: awareness successes=3", "bruno: awareness successes=2",
              "boris: awareness successes=1", "kim: awareness successes=4", "moves"])
    while c.state.ext.phase == "moves":
        c.execute(f"{c.state.ext.move_order[c.state.ext.mover]}: done")
    for line in ("round", "ada: declare 7", "bruno: declare 5", "kim: declare 10",
                 "countdown"):
        c.execute(line)
    return c


def _seen(c: Conflict, viewer: Viewer) -> str:
    return json.dumps(view(c, viewer)) + json.dumps(log_view(c, viewer)) + json.dumps(
        log_lines(c, viewer)) + json.dumps(log_lines(c, viewer, raw=True))


@pytest.mark.usefixtures("belt_off")
def test_belt_off_marked_gm_only_and_actor_texts_keep_a_hidden_name_out() -> None:
    c = _lurking()
    for line in (f"note '{SECRET} waits by the door' visibility=gm",  # marked
                 f"narrate '{SECRET} smiles' visibility=gm",
                 f"roll 1d6 why='{SECRET} ambush' visibility=gm",
                 f"effect '{SECRET} is poised' visibility=gm",
                 f"bruno: note '{SECRET} is near' visibility=owner",  # bob's, not alice's
                 f"override ada.condensers.physical 9 reason='{SECRET} hurt her'",  # the GM's
                 f"kim: attack ada successes=1 say='{SECRET} strikes from the dark'"):  # actor
        c.execute(line, time="")
    assert SECRET.split()[0] not in _seen(c, ALICE)
    assert "Kimberly Lurk is near" in _seen(c, BOB)  # the owner's own note, seen by its owner
    assert "strikes from the dark" in _seen(c, Viewer.gm())


@pytest.mark.usefixtures("belt_off")
def test_belt_off_a_refusal_at_a_hidden_characters_turn_names_no_one() -> None:
    """A refusal is authored for its author: VERS's turn check names whose go it is, and the
    engine rebuilds it for a player from their projection (engine/refusals.py)."""
    c = play_script(load_scenario("vers-tavern-brawl"), "s")
    c.execute("join wraith name='Pale Wraith' side=toughs hidden=yes "
              "'stats={\"zone\": \"bar\"}'")
    c.execute("override ruleset.current wraith")
    for command, viewer in (("ada: handoff", ALICE), ("bruno: attack thug", BOB)):
        with pytest.raises(FracasError) as info:
            c.execute(command, viewer, time="")
        told = json.dumps(info.value.to_dict()) + str(info.value)
        assert "Wraith" not in told and "wraith" not in told, told


def test_the_belt_catches_a_gms_slip_in_words_to_the_table(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A public note is the GM's words to the table; one naming the lurker by mistake is
    left out of the players' logs by the belt (and, the belt taken off, would be shown)."""
    c = _lurking()
    c.execute(f"note 'a shadow: {SECRET}?'", time="")
    assert SECRET not in _seen(c, ALICE)
    monkeypatch.setattr(Unknowns, "named_in", lambda self, text: False)
    c.execute("note 'the lights flicker'", time="")  # a fresh projection, without the belt
    assert SECRET in _seen(Conflict(c.ruleset, c.seed, c.records), ALICE)


@pytest.mark.parametrize(("line", "read"), [
    ("known: Ada, Kimberly Lurk, Bruno", "known: Ada, Bruno"),
    ("known: Kimberly Lurk, Ada", "known: Ada"),
    ("may act: Ada, Kimberly Lurk.", "may act: Ada."),
    ("initiatives: Ada 3, Kimberly Lurk 5, Bruno 2", None),
    ("Kimberly Lurk 5, Ada 3", None),
    ("odds: hit Ada 61%, Kimberly Lurk 9%", None),
    ("Ada, Kimberly Lurk and Bruno", "Ada and Bruno"),
    ("Bruno, Kimberly Lurk have not gone yet", "Bruno have not gone yet"),
    ("Ada 3, Kimberly Lurk (turn 2)", None),
])
def test_the_net_takes_a_hidden_name_out_of_a_list_only_as_a_bare_item(
        line: str, read: str | None) -> None:
    """A name is left out of a list only when the item is the name alone; an item that says
    more of the hidden character (its score, its odds) withholds the whole line, so no
    number of theirs is left behind ("Ada 3, 5, Bruno 2")."""
    unknown = Unknowns({"kim"}, {SECRET}, {"kim", "ada", "bruno"})
    assert unknown.text(line) == read


@pytest.mark.rule("ES-DMG-1")
def test_a_gms_reason_naming_one_hidden_reads_as_none_given_and_keeps_its_entry() -> None:
    """The GM's slip, `damage ada 2 reason='Kimberly Lurk stabs her'`, lowered Ada's
    condenser with no entry in Alice's log (the net dropped the line, the entry with it):
    she reads it now exactly as `damage ada 2`, the reason the command gives when none is
    typed; a zoom or a conflict ended for such a reason ends "the GM's call"."""
    seen = []
    for line in (f"damage ada 2 reason='{SECRET} stabs her'", "damage ada 2"):
        c = _lurking()
        c.execute(line, time="")
        seen.append(log_view(c, ALICE)[-1])
    assert seen[0] == seen[1]
    assert seen[0]["command"] == "damage ada 2"
    assert seen[0]["lines"] == ["Ada takes 2 physical damage (GM); 8 left"]
    c = _lurking()
    c.execute(f"end '{SECRET} escapes'", time="")
    assert log_view(c, ALICE)[-1]["lines"] == ["the conflict ends: the GM's call"]
    assert SECRET.split()[0] not in _seen(c, ALICE)
    c = _lurking()
    while c.state.ext.countdown.current.actor != "ada":
        c.execute(f"{c.state.ext.countdown.current.actor}: done", time="")
    c.execute("ada: zoom bruno reason='a duel'", time="")
    c.execute(f"end '{SECRET} slips out'", time="")
    assert log_view(c, ALICE)[-1]["lines"] == ["back to the main conflict (the GM's call)"]
    assert "slips out" in log_view(c, Viewer.gm())[-1]["lines"][0]
