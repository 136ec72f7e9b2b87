"""Spells on a sheet (``spells``): checked at set-up, listed on the sheet, offered ready to
cast on each one they may be cast on while the MP lasts, kept from players when GM-only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fracas.engine import Conflict, Viewer
from fracas.engine.legal import LegalCommand
from fracas.engine.projector import offered, state_view
from fracas.engine.views import log_view
from fracas.errors import InvalidInput
from tests.rulesets.fabula_ultima.support import events, make, npc, pc, refused, run

FIRE = {"name": "Fire blast", "mp": 10, "damage": 15, "type": "fire"}
HEAL = {"name": "Heal", "mp": 10, "target": "ally"}
WARD = {"name": "Ward", "mp": 5, "target": "self"}
CALL = {"name": "Call the storm", "mp": 20, "target": "none"}


def _fight(*ada_spells: dict[str, Any], **ada: Any) -> Conflict:
    c = make(pc("ada", spells=list(ada_spells), **ada), pc("bea"),
             npc("orc", hp=60, mdef=8, affinities={"fire": "vulnerable"}), npc("gob"))
    return run(c, "ada: initiative dice=6,6,6,6")


def _casts(c: Conflict, viewer: Viewer) -> list[tuple[str, str | None, str]]:
    """(spell, target, label) of each spell offered to ``viewer`` for Ada ready to cast."""
    return [(lc.choice("name").fixed, _target(lc), lc.label)
            for lc in offered(c, viewer, "ada")
            if lc.verb == "spell" and lc.choice("name").is_fixed]


def _target(lc: LegalCommand) -> str | None:
    return next((c.fixed for c in lc.params if c.name == "target"), None)


def _entry(c: Conflict, viewer: Viewer, pid: str) -> dict[str, Any]:
    view = state_view(c.ruleset, c.state, viewer)["conflict"]
    found: dict[str, Any] = next(p for p in view["participants"] if p["id"] == pid)
    return found


@pytest.mark.rule("FU-RES-3")
def test_each_spell_on_the_sheet_is_offered_on_each_one_it_may_be_cast_on() -> None:
    """A foe's spell on each foe, an ally's on each ally (the caster too), a spell on the
    caster on itself, one on nobody once; each labelled with its name and MP; the spell
    typed in is offered still."""
    c = _fight(FIRE, HEAL, WARD, CALL)
    assert _casts(c, Viewer.of_player("ada")) == [
        ("Fire blast", "orc", "cast Fire blast (10 MP) on {target}"),
        ("Fire blast", "gob", "cast Fire blast (10 MP) on {target}"),
        ("Heal", "ada", "cast Heal (10 MP) on {target}"),
        ("Heal", "bea", "cast Heal (10 MP) on {target}"),
        ("Ward", "ada", "cast Ward (5 MP) on {target}"),
        ("Call the storm", None, "cast Call the storm (20 MP)")]
    typed = [lc for lc in offered(c, Viewer.of_player("ada"), "ada")
             if lc.verb == "spell" and not lc.choice("name").is_fixed]
    assert len(typed) == 1


@pytest.mark.rule("FU-RES-3", "FU-RES-1")
def test_a_spell_offered_casts_as_the_sheet_writes_it() -> None:
    c = _fight(FIRE, HEAL)
    (blast,) = [lc for lc in c.legal("ada") if lc.label.startswith("cast Fire blast (10 MP)")
                and _target(lc) == "orc"]
    cmd = blast.command()
    c.execute({**cmd, "args": {**cmd["args"], "dice": [5, 4]}}, time="")
    (cast,) = events(c, "spell")
    assert cast.data["name"] == "Fire blast" and cast.data["mp_after"] == 20
    assert cast.data["hit"] and c.state.ext.hp["orc"].current == 60 - 2 * (5 + 15)
    run(c, "orc: act")
    (heal,) = [lc for lc in c.legal("bea") if lc.verb == "spell"] or [None]
    assert heal is not None and not heal.choice("name").is_fixed  # Bea has none on her sheet


@pytest.mark.rule("FU-RES-3")
def test_a_spell_offered_leaves_only_its_target_to_choose() -> None:
    """What the sheet writes is not offered again: a Heal or a Ward is cast with no damage,
    type, accuracy or dice to fill in, a spell on nobody with nothing at all, and an
    offensive one leaves its target, the dice rolled at the table and a situational bonus.
    Before, every one of them offered the damage, type, accuracy and dice of a spell typed
    in (a Heal asked for the dice of a check it never rolls)."""
    frost = {"name": "Frost lance", "mp": 15, "damage": 20, "type": "ice", "accuracy": "ins+dex"}
    c = _fight(frost, HEAL, WARD, CALL, mp=60)
    open_ = {lc.label: [ch.name for ch in lc.params if not ch.is_fixed]
             for lc in offered(c, Viewer.of_player("ada"), "ada")
             if lc.verb == "spell" and lc.choice("name").is_fixed}
    assert open_ == {"cast Frost lance (15 MP) on {target}": ["bonus", "dice"],
                     "cast Heal (10 MP) on {target}": [],
                     "cast Ward (5 MP) on {target}": [],
                     "cast Call the storm (20 MP)": []}


@pytest.mark.rule("FU-RES-1")
def test_with_gm_only_mp_the_spells_are_offered_where_they_are_with_mp_in_view() -> None:
    """Offered whatever MP is left, Ada's spells still come with the rest of her turn, before
    what she may do outside it; before, they came last, below the spending of a Fabula Point
    (on a phone, far from her attacks)."""
    def order(c: Conflict) -> list[str]:
        return [lc.label or lc.verb for lc in offered(c, Viewer.of_player("ada"), "ada")]

    hidden = make({**pc("ada", spells=[FIRE], mp=40), "gm_only": ["mp"]}, pc("bea"), npc("orc"))
    shown = make(pc("ada", spells=[FIRE], mp=40), pc("bea"), npc("orc"))
    for c in (hidden, shown):
        run(c, "ada: initiative dice=6,6,6,6")
    assert order(hidden) == order(shown)
    assert order(hidden).index("cast Fire blast (10 MP) on {target}") == \
        order(hidden).index("check") + 1


@pytest.mark.rule("FU-RES-1")
def test_a_spell_costing_more_mp_than_is_left_is_not_offered() -> None:
    c = _fight(FIRE, WARD, mp=12)
    assert [name for name, _, _ in _casts(c, Viewer.gm())] == ["Fire blast", "Fire blast",
                                                                "Ward"]
    run(c, "ada: spell 'Fire blast' mp=10 target=orc damage=15 type=fire dice=1,1", "orc: act")
    assert [name for name, _, _ in _casts(c, Viewer.gm())] == []  # 2 MP left


@pytest.mark.rule("FU-RES-1")
def test_with_gm_only_mp_every_spell_is_offered_so_the_offer_counts_no_mp() -> None:
    """Offering only what Ada can pay would tell her player her GM-only MP."""
    c = make({**pc("ada", spells=[FIRE], mp=5), "gm_only": ["mp"]}, pc("bea"), npc("orc"))
    run(c, "ada: initiative dice=6,6,6,6")
    assert [name for name, _, _ in _casts(c, Viewer.of_player("ada"))] == ["Fire blast"]
    shown = make(pc("ada", spells=[FIRE], mp=5), pc("bea"), npc("orc"))
    run(shown, "ada: initiative dice=6,6,6,6")
    assert _casts(shown, Viewer.of_player("ada")) == []  # MP she sees: nothing to offer


@pytest.mark.rule("FU-RES-3")
def test_the_sheet_lists_the_spells_and_gm_only_spells_stay_with_the_gm() -> None:
    c = make(pc("ada", spells=[FIRE]), pc("bea"),
             {**npc("lich", spells=[{"name": "Zqdoom", "mp": 5}]), "gm_only": ["spells"]})
    run(c, "ada: initiative dice=6,6,6,6")
    sheet = {i["key"]: i["value"] for i in _entry(c, Viewer.of_player("ada"), "ada")["sheet"]}
    assert sheet["spells"] == "Fire blast (10 MP, a foe, {INS+WLP}, HR+15 fire)"
    assert "Zqdoom" in json.dumps(_entry(c, Viewer.gm(), "lich"))
    assert "zqdoom" not in json.dumps(state_view(c.ruleset, c.state,
                                                 Viewer.of_player("bea"))).lower()


@pytest.mark.rule("FU-RES-3")
def test_gm_only_spells_of_a_players_character_are_not_offered_to_the_player() -> None:
    c = make({**pc("ada", spells=[{"name": "Zqcurse", "mp": 5}]), "gm_only": ["spells"]},
             pc("bea"), npc("orc"))
    run(c, "ada: initiative dice=6,6,6,6")
    assert _casts(c, Viewer.of_player("ada")) == []
    assert [name for name, _, _ in _casts(c, Viewer.gm())] == ["Zqcurse"]
    assert "zqcurse" not in json.dumps([lc.to_data() for lc in offered(
        c, Viewer.of_player("ada"), "ada")]).lower()


@pytest.mark.rule("FU-RES-3")
@pytest.mark.parametrize("spells, said", [
    ("fire", "spells is a list of tables such as"),
    (["fire"], "a spell must be a table such as"),
    ([{"mp": 5}], "a spell needs its name (a text)"),
    ([{"name": "Fire", "dammage": 5}], "Fire: a spell has no 'dammage'; did you mean 'damage'?"),
    ([{"name": "Fire", "mp": -1}], "Fire: mp is a whole number, 0 or more, not -1"),
    ([{"name": "Fire", "damage": "lots"}], "Fire: damage is a whole number, 0 or more"),
    ([{"name": "Fire", "target": "enemy"}], "Fire: target is one of foe, ally, self, none"),
    ([{"name": "Fire", "target": "none", "damage": 5}],
     "a spell dealing damage is cast on someone"),
    ([{"name": "Fire", "type": "fire"}], "without damage it would count for nothing"),
    ([{"name": "Fire", "damage": 5, "type": "lava"}], "damage type must be one of"),
    ([{"name": "Heal", "target": "ally", "accuracy": "ins+wlp"}],
     "takes effect with no Magic Check: leave out its accuracy"),
    ([{"name": "Fire", "accuracy": "dex"}], "accuracy must name two attributes"),
    ([{"name": "Fire"}, {"name": "fire"}], "the spell 'fire' is listed twice"),
    ([{"name": "Heal", "target": "ally", "recovr": 40}],
     "Heal: a spell has no 'recovr'; did you mean 'recover'?"),
    ([{"name": "Heal", "target": "ally", "recover": 0}],
     "Heal: recover is a whole number, 1 or more, not 0"),
    ([{"name": "Heal", "target": "ally", "recover_mp": "all"}],
     "Heal: recover_mp is a whole number, 1 or more"),
    ([{"name": "Heal", "recover": 40}], "Heal: a spell that restores HP (recover) is cast on "
     "the caster's side: give it target ally or self (left out, target is foe)"),
    ([{"name": "Heal", "target": "none", "recover_mp": 10}],
     "a spell that restores MP (recover_mp) is cast on the caster's side"),
    ([{"name": "Drain", "target": "ally", "damage": 5, "recover": 5}],
     "Drain: a spell deals damage (a Magic Check) or restores HP (recover), not both"),
    ([{"name": "Hex", "status": "dazzled"}], "Hex: status is one of dazed, shaken, slow, weak, "
     "enraged, poisoned, not \"dazzled\"; did you mean 'dazed'?"),
    ([{"name": "Hex", "status": 3}], "Hex: status is one of dazed, shaken, slow, weak, "
     "enraged, poisoned, not 3"),
    ([{"name": "Hex", "target": "none", "status": "weak"}],
     "Hex: a spell that inflicts a status is cast on someone: give it target foe, ally or self"),
])
def test_a_sheets_spells_are_refused_at_set_up_saying_what_is_wrong(
        spells: Any, said: str) -> None:
    with pytest.raises(InvalidInput) as info:
        make(pc("ada", spells=spells), npc("orc"))
    assert said in str(info.value) and str(info.value).startswith("ada: ")


MEND = {"name": "Mend", "mp": 10, "target": "ally", "recover": 30}


@pytest.mark.rule("FU-RES-3", "FU-RES-1", "FU-RES-2")
def test_a_spell_that_recovers_restores_its_target_up_to_the_maximum() -> None:
    """Bea's Mend (recover = 30) cast from her sheet on Ada, 15 HP of 40 left, restores 25 HP
    (the maximum caps it) in the log's sentence of a recovery; undo takes it back. Before, a
    Heal did nothing by itself: the GM followed it with a ``recover`` command."""
    c = make(pc("ada", hp=40), pc("bea", spells=[MEND]), npc("orc"))
    run(c, "ada: initiative dice=6,6,6,6", "damage ada 25", "ada: act", "orc: act")
    (mend,) = [lc for lc in c.legal("bea") if lc.label == "cast Mend (10 MP) on {target}"
               and _target(lc) == "ada"]
    assert mend.command()["args"] == {"name": "Mend", "mp": 10, "recover": 30,
                                      "target": "ada"}
    c.execute(mend.command(), time="")
    assert c.state.ext.hp["ada"].current == 40 and c.state.ext.mp["bea"].current == 20
    lines = log_view(c, Viewer.of_player("ada"))[-1]["lines"]
    assert lines[1:3] == ["Bea casts Mend (10 MP) on Ada: no Magic Check, it takes effect",
                          "Ada recovers 25 HP, HP 40 — out of Crisis"]
    run(c, "undo")
    assert c.state.ext.hp["ada"].current == 15 and c.state.ext.mp["bea"].current == 30


@pytest.mark.rule("FU-RES-1")
def test_a_spell_restoring_the_casters_own_mp_counts_what_it_spent() -> None:
    """Ada's Focus (10 MP, recover_mp = 15) on herself at 25 of 30 MP: 15 after the cost,
    back to the maximum 30 — 15 MP recovered, not the 5 a count before the cost would give."""
    focus = {"name": "Focus", "mp": 10, "target": "self", "recover_mp": 15}
    c = _fight(focus, mp=30)
    run(c, "ada: spend mp 5", "ada: spell Focus mp=10 target=ada recover_mp=15")
    assert c.state.ext.mp["ada"].current == 30
    assert "Ada recovers 15 MP, MP 30" in log_view(c, Viewer.gm())[-1]["lines"]
    sheet = {i["key"]: i["value"] for i in _entry(c, Viewer.of_player("ada"), "ada")["sheet"]}
    assert sheet["spells"] == "Focus (10 MP, self, recovers 15 MP)"


@pytest.mark.rule("FU-RES-3")
@pytest.mark.parametrize("command, said", [
    ("ada: spell Mend mp=10 target=orc recover=30",
     "Mend restores HP: it is cast on Ada's side, and Orc is not on it"),
    ("ada: spell Mend mp=10 target=bea recover=30 damage=5",
     "a spell deals damage (a Magic Check) or restores HP (recover=), not both"),
    ("ada: spell Mend mp=10 recover_mp=5", "a spell with a recovery needs target=ID"),
    ("ada: spell Mend mp=10 target=bea recover=-5", "a spell's recover cannot be negative"),
])
def test_a_recovery_typed_in_is_refused_where_it_makes_no_sense(command: str,
                                                                 said: str) -> None:
    c = _fight()
    err = refused(c, command, "FU-RES-1" if "-5" in command else "FU-RES-3")
    assert said in str(err)


@pytest.mark.rule("FU-RES-1", "FU-RES-3")
def test_a_spell_typed_by_the_name_of_one_on_the_sheet_is_that_spell() -> None:
    """Bea types ``spell mend target=ada``: it is her sheet's Mend, 10 MP and 30 HP restored.
    With 5 MP left, the same words are refused for lack of MP and change nothing. Before, it
    cast a Mend of 0 MP that restored nothing — a free turn's spell the rules refuse. A cost
    typed in stands, and a spell on no sheet typed without one costs nothing, as ever."""
    c = make(pc("ada", hp=40), pc("bea", spells=[MEND], mp=15), npc("orc"))
    run(c, "ada: initiative dice=6,6,6,6", "damage ada 25", "ada: act", "orc: act")
    run(c, "bea: spell mend target=ada")
    (cast,) = events(c, "spell")
    assert (cast.data["name"], cast.data["mp"]) == ("Mend", 10)
    assert c.state.ext.hp["ada"].current == 40 and c.state.ext.mp["bea"].current == 5
    run(c, "damage ada 25", "ada: act", "orc: act")
    err = refused(c, "bea: spell Mend target=ada", "FU-RES-1")
    assert str(err) == "Bea has only 5 MP left, not enough to spend 10 (FU-RES-1)"
    run(c, "bea: spell Mend mp=5 target=ada")  # a cost typed in stands (the GM's call)
    assert c.state.ext.mp["bea"].current == 0 and c.state.ext.hp["ada"].current == 40
    run(c, "ada: act", "orc: act", "bea: spell Glow target=bea")  # on no sheet: no cost
    assert [e.data["mp"] for e in events(c, "spell")] == [0]


@pytest.mark.rule("FU-RES-1", "FU-RES-3")
def test_a_spell_typed_by_a_name_on_gm_only_spells_stands_as_typed_for_the_player() -> None:
    """Where Ada's spells are the GM's to know, what she types is cast as typed whatever its
    name (taking the sheet's cost would tell her the sheet); the GM's own is the sheet's."""
    secret = {**pc("ada", spells=[{"name": "Zqcurse", "mp": 5}]), "gm_only": ["spells"]}
    c = make(secret, pc("bea"), npc("orc", mdef=6))
    run(c, "ada: initiative dice=6,6,6,6")
    c.execute("ada: spell Zqcurse target=orc dice=5,5", time="", author=Viewer.of_player("ada"))
    assert c.state.ext.mp["ada"].current == 30
    run(c, "undo", "ada: spell Zqcurse target=orc dice=5,5")
    assert c.state.ext.mp["ada"].current == 25


HEX = {"name": "Hex", "mp": 10, "status": "dazed"}


def _duchess(*bea_spells: dict[str, Any]) -> Conflict:
    """Bea (with ``bea_spells``) and Ada against the Bone Duchess (Magic Defense 8)."""
    c = make(pc("bea", spells=list(bea_spells)), pc("ada"),
             {**npc("duchess", hp=60, mdef=8), "name": "The Bone Duchess"})
    return run(c, "bea: initiative dice=6,6,6,6")


def _lines(c: Conflict, viewer: Viewer | None = None) -> list[str]:
    return log_view(c, viewer or Viewer.gm())[-1]["lines"]  # type: ignore[no-any-return]


@pytest.mark.rule("FU-RES-4", "FU-RES-3")
def test_a_sheet_spell_that_hits_puts_its_status_on_the_target() -> None:
    """Bea's Hex (status = "dazed"), cast from its offer, hits the Duchess: she is Dazed, in
    the very event and words of the GM's ``status duchess dazed``, and the cast's line says
    what the spell inflicts; undo takes back both. Before, the sheet refused ``status`` and
    the GM typed the status in by hand after the hit."""
    c = _duchess(HEX)
    (hex_,) = [lc for lc in c.legal("bea") if lc.label == "cast Hex (10 MP) on {target}"]
    assert hex_.command()["args"] == {"name": "Hex", "mp": 10, "status": "dazed",
                                      "target": "duchess"}
    cmd = hex_.command()
    c.execute({**cmd, "args": {**cmd["args"], "dice": [5, 4]}}, time="")
    assert c.state.ext.statuses["duchess"] == ["dazed"]
    assert _lines(c)[1:3] == [
        "Bea casts Hex (10 MP, inflicts Dazed) against The Bone Duchess: {d8+d8} → "
        "{[5] + [4]} = 9 vs 8, HR 5 — hits",
        "The Bone Duchess is Dazed (INS one die size down)"]
    (status,) = events(c, "status_changed")
    by_hand = run(_duchess(), "status duchess dazed")
    assert status.data == events(by_hand, "status_changed")[0].data
    assert _lines(by_hand) == ["The Bone Duchess is Dazed (INS one die size down)"]
    run(c, "undo")
    assert c.state.ext.statuses["duchess"] == [] and c.state.ext.mp["bea"].current == 30


@pytest.mark.rule("FU-RES-4")
def test_a_spell_that_misses_or_finds_the_status_held_adds_none() -> None:
    """A miss puts nothing on the Duchess; a hit on a Duchess Dazed already says so and adds
    nothing (as ``status duchess dazed`` would be refused, FU-RES-4)."""
    c = _duchess(HEX)
    run(c, "bea: spell Hex target=duchess dice=1,2")
    assert c.state.ext.statuses["duchess"] == [] and not events(c, "status_changed")
    assert _lines(c)[1].endswith("— misses")
    run(c, "duchess: act", "ada: act", "status duchess dazed")
    run(c, "bea: spell Hex target=duchess dice=6,5")
    assert c.state.ext.statuses["duchess"] == ["dazed"] and not events(c, "status_changed")
    (cast,) = [line for line in _lines(c) if line.startswith("Bea casts Hex")]
    assert cast.endswith("— hits; The Bone Duchess is already Dazed, nothing added (FU-RES-4)")


@pytest.mark.rule("FU-RES-4", "FU-RES-3")
def test_a_status_spell_on_an_ally_puts_it_on_as_it_takes_effect() -> None:
    """A spell on an ally rolls no check: its casting puts the status on (a second one finds
    it held)."""
    rage = {"name": "Rage", "mp": 5, "target": "ally", "status": "enraged"}
    c = _duchess(rage)
    run(c, "bea: spell Rage target=ada")
    assert c.state.ext.statuses["ada"] == ["enraged"]
    assert _lines(c)[1:3] == [
        "Bea casts Rage (5 MP, inflicts Enraged) on Ada: no Magic Check, it takes effect",
        "Ada is Enraged (DEX and INS one die size down)"]
    sheet = {i["key"]: i["value"] for i in _entry(c, Viewer.of_player("bea"), "bea")["sheet"]}
    assert sheet["spells"] == "Rage (5 MP, an ally, inflicts Enraged)"


@pytest.mark.rule("FU-RES-4", "FU-CON-12")
def test_a_hit_that_takes_the_target_out_puts_no_status_on_it() -> None:
    blight = {"name": "Blight", "mp": 10, "damage": 60, "status": "poisoned"}
    c = run(_duchess(blight), "bea: spell Blight target=duchess dice=6,5")
    assert c.state.participants["duchess"].out and c.state.ext.statuses["duchess"] == []


@pytest.mark.rule("FU-RES-4")
def test_a_spell_typed_in_may_name_a_status_and_a_wrong_one_is_refused() -> None:
    """``spell Hex target=duchess status=dazed`` typed in (no sheet) puts it on with a hit;
    a status the rules do not know, or one with nobody to put it on, is refused and changes
    nothing."""
    c = _duchess()
    run(c, "bea: spell Hex mp=5 target=duchess status=dazed dice=5,4")
    assert c.state.ext.statuses["duchess"] == ["dazed"]
    assert _lines(c)[1].startswith("Bea casts Hex (5 MP, inflicts Dazed) against")
    run(c, "duchess: act")
    err = refused(c, "ada: spell Hex target=duchess status=dazzled", "FU-RES-3")
    assert "dazed, shaken, slow, weak, enraged, poisoned" in str(err)
    err = refused(c, "ada: spell Hex status=weak", "FU-RES-4")
    assert str(err) == "a spell that inflicts a status (Weak) needs target=ID (FU-RES-4)"
