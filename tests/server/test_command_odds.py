"""The odds shown under a command are those of its own roll: never the lines of another
command of the same actor (a ``disengage`` showing the actor's attacks), nor of a hidden one."""

from __future__ import annotations

import pytest

from fracas.app.scenario import parse_scenario
from fracas.app.script import play_script
from fracas.engine import Viewer
from fracas.engine.conflict import Conflict
from fracas.engine.views import view
from fracas.errors import FracasError
from fracas.server.projection import Live, command_odds
from tests.rulesets.test_pending_odds import cut_script


def played(name: str, keep: int) -> Conflict:
    return play_script(parse_scenario(cut_script(name, keep), "cut.toml"), "seed")


def odds(conflict: Conflict, viewer: Viewer, text: str) -> list[str]:
    return command_odds(Live(conflict, viewer), conflict.parse(text))


@pytest.mark.rule("VR-ATK-1", "VR-MOVE-4")
def test_a_vers_command_that_is_no_attack_shows_no_attack_odds() -> None:
    conflict = played("vers-tavern-brawl", 16)  # Ada acts, engaged with Mira
    legal = conflict.legal_commands("ada")
    assert "ada: disengage dice=DICE" in legal
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(conflict, viewer, "ada: attack mira weapon=knife"), viewer
        for text in ("ada: disengage", "ada: recover ada track=injury", "ada: handoff bruno"):
            lines = odds(conflict, viewer, text)
            assert all(line.startswith(f"Ada: {text.split()[1]}") for line in lines), lines
            assert not any("→ Mira" in line for line in lines), (viewer, text)
        (own,) = odds(conflict, viewer, "ada: disengage")  # its own roll's (VR-MOVE-4)
        assert "break away" in own, own


@pytest.mark.rule("ES-ACT-1", "ES-ACT-4")
def test_an_etherscope_zoom_shows_no_pool_odds_but_a_rolled_action_does() -> None:
    conflict = played("etherscope-car-chase", 13)  # Ada's slot in the countdown
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(conflict, viewer, "ada: zoom zepcar") == []
        assert odds(conflict, viewer, "ada: done") == []
        lines = odds(conflict, viewer, "ada: move zepcar toward")
        assert lines and all(line.startswith("Ada rolls") for line in lines)
    assert odds(conflict, Viewer.of_player("bob"), "ada: move zepcar toward") == []


@pytest.mark.rule("VR-ATK-1")
def test_a_vers_attacks_odds_are_those_of_the_weapon_it_names() -> None:
    conflict = played("vers-tavern-brawl", 1)  # Ada opens the turn, Thug in her zone
    gm = Viewer.gm()
    sword = odds(conflict, gm, "ada: attack thug weapon=sword")
    assert sword and all("(sword)" in line for line in sword), sword
    assert all("(knife)" in line for line in odds(conflict, gm, "ada: attack thug weapon=knife"))
    # none named: the weapon the rules take, the first on her sheet
    assert odds(conflict, gm, "ada: attack thug") == sword
    # Alice may not know Thug's close combat (GM-only), so the sword's odds are not hers to
    # read (the GM keeps them); she is never shown the knife's in their place
    alice = Viewer.of_player("alice")
    assert odds(conflict, alice, "ada: attack thug weapon=sword") == [
        "Ada → Thug (sword): odds the GM keeps"]
    assert all("(knife)" in line for line in odds(conflict, alice, "ada: attack thug weapon=knife"))


def hit(a: int, b: int, bonus: int, defense: int = 8) -> float:
    """P(an accuracy check dA+dB+bonus hits a Defense), by counting: doubles of 6 or more
    always hit, double 1s always miss (FU-CHK-3, FU-CHK-4)."""
    hits = sum(1 for x in range(1, a + 1) for y in range(1, b + 1)
               if (x == y and x >= 6) or ((x, y) != (1, 1) and x + y + bonus >= defense))
    return hits / (a * b)


@pytest.mark.rule("FU-RES-3")
def test_a_fabula_ultima_attacks_odds_are_those_of_the_weapon_it_names() -> None:
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    sword = {"kind": "weapon", "name": "Sword", "accuracy": "dex+mig", "bonus": 1}
    bow = {"kind": "weapon", "name": "Bow", "accuracy": "dex+ins", "damage": 8}
    ada = {**pc("ada", dex=10, ins=6, equipment=[sword, bow]), "player": "alice"}
    conflict = run(make(ada, npc("imp")), "ada: initiative dice=6,6")
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        with_sword = odds(conflict, viewer, "ada: attack imp weapon=sword")
        with_bow = odds(conflict, viewer, "ada: attack imp weapon=Bow")
        assert with_sword == [f"Ada attacks with Sword ({{d10+d8}}+1): hit Imp {hit(10, 8, 1):.0%}"]
        assert with_bow == [f"Ada attacks with Bow ({{d10+d6}}): hit Imp {hit(10, 6, 0):.0%}"]
        assert odds(conflict, viewer, "ada: attack imp") == with_sword  # the first weapon
        assert odds(conflict, viewer, "ada: attack imp weapon=unarmed") == []


@pytest.mark.rule("ES-ACT-4")
def test_an_etherscope_actions_odds_are_those_of_the_pool_it_rolls() -> None:
    """Before: a form's odds listed every skill's pool whatever skill was typed, and one with
    no skill did not say that it rolls the default pool."""
    conflict = played("etherscope-car-chase", 13)  # Ada (drive 4, brawl 3) acts
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(conflict, viewer, "ada: attack zepcar skill=brawl") == [
            "Ada rolls 3d6 with brawl (5+ a success): ≥1 70%, ≥2 26%, ≥3 4%"]
        assert odds(conflict, viewer, "ada: attack zepcar") == [
            "Ada rolls 2d6, the default pool (no skill named; 5+ a success): ≥1 56%, ≥2 11%"]
        assert odds(conflict, viewer, "ada: attack zepcar skill=swim") == [
            "Ada rolls 2d6, the default pool (no rating in swim; 5+ a success): ≥1 56%, "
            "≥2 11%"]
        assert odds(conflict, viewer, "ada: move zepcar toward skill=drive pool=1") == [
            "Ada rolls 1d6 (pool=1; 5+ a success): ≥1 33%"]


@pytest.mark.rule("ES-ACT-4")
def test_an_etherscope_actions_odds_tell_no_gm_only_rating() -> None:
    """With Ada's skills the GM's, a skill named shows her player nothing (a line of the
    default pool would tell that she has no rating in it); the GM reads its line."""
    from tests.rulesets.etherscope.helpers import pc, started

    ada = {**pc("ada", "alice", skills={"shoot": 4}), "gm_only": ["skills"]}
    c = started({}, [ada, pc("bruno", "bob"), pc("carl")])
    c.execute("ada: declare 10")
    c.execute("countdown")
    for skill in ("shoot", "swim"):
        assert odds(c, Viewer.of_player("alice"), f"ada: attack carl skill={skill}") == []
    assert odds(c, Viewer.gm(), "ada: attack carl skill=shoot") == [
        "Ada rolls 4d6 with shoot (5+ a success): ≥1 80%, ≥2 41%, ≥3 11%"]
    assert odds(c, Viewer.of_player("alice"), "ada: attack carl")[0].startswith(
        "Ada rolls 2d6, the default pool (no skill named;")


def test_the_odds_route_decides_no_command_of_a_player_without_lines_to_read() -> None:
    """Asking the odds of a command decides nothing where the player has no line of its roll
    to read: whether the rules take it now would tell, at no cost, a GM-only stat of their
    own character (before: ``spend mp 40`` refused, ``spend mp 33`` answered — Ada's MP)."""
    from fracas.server.projection import odds_answer
    from tests.rulesets.test_gm_only_owner import _fu_conflict

    c = _fu_conflict("mp", "dex", mp=33, dex=10)
    c.execute("ada: initiative dice=6,5,6,6", time="")
    alice = Live(c, Viewer.of_player("alice"))
    for text in ("ada: spend mp 40", "ada: spend mp 33", "ada: check dex+ins 10 dice=12,1",
                 "ada: check dex+ins 10 dice=10,1", "ada: attack imp dice=12,1"):
        assert odds_answer(alice, c.parse(text)) == [], text
    with pytest.raises(FracasError):  # the GM's answer is the rules' own
        odds_answer(Live(c, Viewer.gm()), c.parse("ada: spend mp 40"))
    with pytest.raises(FracasError):  # nor are another player's characters hers to ask of
        odds_answer(alice, c.parse("bruno: spend mp 1"))


@pytest.mark.rule("FU-RES-3")
def test_a_fabula_ultima_spells_odds_are_its_magic_check_against_magic_defense() -> None:
    """A spell's form shows the chance its magic check {INS + WLP} beats the foe's Magic
    Defense (before: none at all; ``fracas odds`` had to be asked by hand)."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    ada = {**pc("ada", ins=10, wlp=8, dex=6), "player": "alice"}
    imp = npc("imp", mdef=9, defense=12)
    conflict = run(make(ada, pc("bruno"), imp), "ada: initiative dice=6,6,6,6")
    line = f"Ada casts a spell ({{d10+d8}}): hit Imp {hit(10, 8, 0, 9):.0%}"
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(conflict, viewer, "ada: spell Fire mp=10 target=imp damage=15") == [line]
        assert odds(conflict, viewer, "ada: spell Fire target=imp accuracy=d10+d8") == [line]
        for other in ("ada: spell Heal mp=10 target=bruno", "ada: spell Float mp=5",
                      "ada: spell Fire target=imp bonus=1"):  # an ally, no check, a bonus
            assert odds(conflict, viewer, other) == [], (viewer, other)
    assert odds(conflict, Viewer.of_player("bob"), "ada: spell Fire target=imp") == []


@pytest.mark.rule("FU-RES-3")
def test_a_spell_of_other_attributes_shows_the_odds_of_the_check_it_rolls() -> None:
    """A Frost lance whose sheet gives it ``accuracy = "ins+dex"`` shows the chance of its
    own check ``{INS + DEX}``; before, a spell of any other check than ``{INS + WLP}`` showed
    no odds at all, cast from the sheet too."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    frost = {"name": "Frost lance", "mp": 15, "damage": 20, "type": "ice", "accuracy": "ins+dex"}
    ada = {**pc("ada", ins=10, wlp=8, dex=6, spells=[frost]), "player": "alice"}
    conflict = run(make(ada, pc("bruno"), npc("imp", mdef=9)), "ada: initiative dice=6,6,6,6")
    (cast,) = [lc for lc in conflict.legal("ada") if lc.label.startswith("cast Frost lance")]
    sent = conflict.commands.from_data(cast.command(target="imp"))
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert command_odds(Live(conflict, viewer), sent) == [
            f"Ada casts a spell ({{d10+d6}}): hit Imp {hit(10, 6, 0, 9):.0%}"]
        assert odds(conflict, viewer, "ada: spell Fire target=imp accuracy=dex+wlp") == [
            f"Ada casts a spell ({{d6+d8}}): hit Imp {hit(6, 8, 0, 9):.0%}"]
        assert odds(conflict, viewer, "ada: spell Fire target=imp accuracy=wlp+ins") == [
            f"Ada casts a spell ({{d8+d10}}): hit Imp {hit(10, 8, 0, 9):.0%}"]


@pytest.mark.rule("FU-RES-3")
def test_a_damaging_spell_on_an_ally_shows_the_odds_of_the_check_it_rolls() -> None:
    """A spell that deals damage to an ally is a magic check against that ally's Magic
    Defense, so its form shows the chance it hits (before: none, the odds listed foes only);
    one that deals none takes effect unrolled and shows none. An ally's GM-only Magic Defense
    is the GM's to read only."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    ada = {**pc("ada", ins=10, wlp=8), "player": "alice"}
    bruno = {**pc("bruno", mdef=7), "player": "bob"}
    cleo = {**pc("cleo", mdef=11), "player": "bob", "gm_only": ["mdef"]}
    conflict = run(make(ada, bruno, cleo, npc("imp", mdef=9)),
                   "ada: initiative dice=6,6,6,6,6,6")
    on_bruno = f"Ada casts a spell ({{d10+d8}}): hit Bruno {hit(10, 8, 0, 7):.0%}"
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(conflict, viewer, "ada: spell Drain mp=10 target=bruno damage=5") == [
            on_bruno], viewer
        assert odds(conflict, viewer, "ada: spell Drain target=bruno damage=0") == [on_bruno]
        assert odds(conflict, viewer, "ada: spell Drain target=ada damage=5") == [
            f"Ada casts a spell ({{d10+d8}}): hit Ada {hit(10, 8, 0, 10):.0%}"]
        assert odds(conflict, viewer, "ada: spell Heal mp=10 target=bruno") == []
    assert odds(conflict, Viewer.of_player("alice"), "ada: spell Drain target=cleo damage=5") \
        == []
    assert odds(conflict, Viewer.gm(), "ada: spell Drain target=cleo damage=5") == [
        f"Ada casts a spell ({{d10+d8}}): hit Cleo {hit(10, 8, 0, 11):.0%}"]
    box = view(conflict, Viewer.gm())["conflict"]["odds"]  # the pending box: foes only
    assert box and not [line for line in box if "hit Bruno" in line or ", Bruno" in line]


def test_a_spells_odds_tell_no_gm_only_mp_die_or_magic_defense() -> None:
    """Ada's player may read her spell's odds though her MP is GM-only, and asking them for any
    cost answers alike (before this route left MP out, ``mp=40`` would be refused and ``mp=33``
    answered: her MP); a GM-only INS (her dice) or a foe's GM-only Magic Defense shows none."""
    from fracas.server.projection import odds_answer
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run
    from tests.rulesets.test_gm_only_owner import _fu_conflict

    c = _fu_conflict("mp", mp=33)
    c.execute("ada: initiative dice=6,5,6,6", time="")
    alice = Live(c, Viewer.of_player("alice"))
    answers = [odds_answer(alice, c.parse(f"ada: spell Fire mp={mp} target=imp"))
               for mp in (40, 33, 1)]
    assert answers[0] and answers == [answers[0]] * 3
    with pytest.raises(FracasError):  # the GM's answer is the rules' own
        odds_answer(Live(c, Viewer.gm()), c.parse("ada: spell Fire mp=40 target=imp"))
    secret_ins = {**pc("ada", ins=12), "player": "alice", "gm_only": ["ins"]}
    warded = {**npc("orc", mdef=11), "gm_only": ["mdef"]}
    c = run(make(secret_ins, npc("imp"), warded), "ada: initiative dice=6,6")
    assert odds(c, Viewer.of_player("alice"), "ada: spell Fire target=imp") == []
    assert "{d12+d8}" in odds(c, Viewer.gm(), "ada: spell Fire target=imp")[0]
    plain = {**pc("ada"), "player": "alice"}
    c = run(make(plain, npc("imp"), warded), "ada: initiative dice=6,6")
    (line,) = [x for x in view(c, Viewer.of_player("alice"))["conflict"]["odds"]
               if "casts a spell" in x]
    assert "Imp" in line and "Orc" not in line
    assert "Orc" in odds(c, Viewer.gm(), "ada: spell Fire target=orc")[0]


@pytest.mark.rule("FU-RES-3")
def test_an_attacks_odds_name_only_the_target_it_chose() -> None:
    """An attack's (a spell's) form with one target shows the chance against that foe alone
    (before: every foe's, 'hit Imp 67%, Orc 41%'); the pending box still lists them all."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    ada = {**pc("ada", dex=10, ins=10), "player": "alice"}
    c = run(make(ada, npc("imp", defense=7, mdef=9), npc("orc", defense=10, mdef=8)),
            "ada: initiative dice=6,6")
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(c, viewer, "ada: attack orc") == [
            f"Ada attacks with unarmed strike ({{d10+d8}}): hit Orc {hit(10, 8, 0, 10):.0%}"]
        assert odds(c, viewer, "ada: spell Fire target=imp damage=5") == [
            f"Ada casts a spell ({{d10+d8}}): hit Imp {hit(10, 8, 0, 9):.0%}"]
        (box,) = [x for x in view(c, viewer)["conflict"]["odds"] if "attacks" in x]
        assert "Imp" in box and "Orc" in box


def _group_win(leader: tuple[int, int, int], dl: int,
               supporters: list[tuple[int, int, int, int]]) -> float:
    """P(the leader of a group check succeeds), by counting every face of every roller:
    each supporter (dA, dB, modifier, Bond) succeeds at 10 (doubles of 6 or more always,
    double 1s never), giving +1 and the highest Bond among the successful (FU-CHK-5)."""
    import itertools

    def ok(x: int, y: int, mod: int, target: int) -> bool:
        return (x == y and x >= 6) or ((x, y) != (1, 1) and x + y + mod >= target)

    rollers = [*supporters, (*leader, 0)]
    faces = [list(itertools.product(range(1, a + 1), range(1, b + 1))) for a, b, *_ in rollers]
    wins = total = 0
    for roll in itertools.product(*faces):
        helped = [s for s, (x, y) in zip(supporters, roll, strict=False) if ok(x, y, s[2], 10)]
        bonus = len(helped) + max((s[3] for s in helped), default=0)
        x, y = roll[-1]
        wins += ok(x, y, leader[2] + bonus, dl)
        total += 1
    return wins / total


@pytest.mark.rule("FU-CON-3", "FU-CHK-5")
def test_the_initiative_form_shows_the_chance_the_pcs_act_first() -> None:
    """The initiative's form shows the chance the PCs' side wins the group check, with the
    supporters and Bonds it counts and the DL it is made against (before: no odds at all);
    none where the rules refuse the supporters it names (the leader, one twice, a foe)."""
    from fracas.server.projection import odds_answer
    from tests.rulesets.fabula_ultima.support import make, npc, pc

    armor = {"kind": "armor", "name": "Plate", "init": -1}
    ada = {**pc("ada", dex=10, equipment=[armor]), "player": "alice"}
    bruno = {**pc("bruno", bonds={"ada": 2}), "player": "bob"}
    c = make(ada, bruno, pc("cid", ins=6), npc("orc"), npc("imp", initiative=9))
    both = _group_win((10, 8, -1), 9, [(8, 8, 0, 2), (8, 6, 0, 0)])
    line = (f"Ada leads the Initiative Group Check ({{d10+d8}}-1 vs DL 9; supported by Bruno "
            f"{{d8+d8}} bond 2, Cid {{d8+d6}}): side pcs acts first {both:.0%}")
    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds_answer(Live(c, viewer), c.parse("ada: initiative")) == [line], viewer
        alone = odds(c, viewer, "ada: initiative supporters=cid")
        assert alone == [f"Ada leads the Initiative Group Check ({{d10+d8}}-1 vs DL 9; supported"
                         f" by Cid {{d8+d6}}): side pcs acts first "
                         f"{_group_win((10, 8, -1), 9, [(8, 6, 0, 0)]):.0%}"]
    gm_dl = odds(c, Viewer.gm(), "ada: initiative dl=14")
    hard = _group_win((10, 8, -1), 14, [(8, 8, 0, 2), (8, 6, 0, 0)])
    assert gm_dl == [line.replace("vs DL 9", "vs DL 14").replace(f"{both:.0%}", f"{hard:.0%}")]
    assert odds(c, Viewer.of_player("alice"), "ada: initiative dl=14") == []  # the GM's DL
    assert odds(c, Viewer.of_player("bob"), "ada: initiative") == []  # not his character
    for wrong in ("supporters=ada", "supporters=cid,cid", "supporters=orc"):  # refused
        with pytest.raises(FracasError, match="FU-CHK-5"):
            odds_answer(Live(c, Viewer.gm()), c.parse(f"ada: initiative {wrong}"))
        assert odds(c, Viewer.gm(), f"ada: initiative {wrong}") == [], wrong


@pytest.mark.rule("FU-CON-3", "FU-CHK-5", "FU-CON-5")
def test_before_the_start_the_pending_box_shows_the_initiative_odds() -> None:
    """Before the conflict starts, the roll to come is the Initiative Group Check: the odds
    box (the view's, which the table and ``fracas show`` print) holds the line its form shows,
    one for each PC who may lead it, a player's for their own leader only (before: the box was
    empty until the conflict had started). A foe's GM-only Initiative keeps it from a player
    (the DL could be it), never from the GM; once the check is made, the box holds the turn's
    rolls, and the initiative's form none (the rules refuse a second check)."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    ada = {**pc("ada", dex=10), "player": "alice"}
    bruno = {**pc("bruno", bonds={"ada": 2}), "player": "bob"}
    c = make(ada, bruno, npc("imp", initiative=9))

    def box(conflict: Conflict, viewer: Viewer) -> list[str]:
        return list(view(conflict, viewer)["conflict"]["odds"])

    led_by_ada = odds(c, Viewer.gm(), "ada: initiative")
    led_by_bruno = odds(c, Viewer.gm(), "bruno: initiative")
    assert led_by_ada and led_by_bruno and led_by_ada[0].startswith("Ada leads the Initiative")
    assert box(c, Viewer.gm()) == led_by_ada + led_by_bruno
    assert box(c, Viewer.of_player("alice")) == led_by_ada
    assert box(c, Viewer.of_player("bob")) == led_by_bruno
    assert box(c, Viewer.public()) == []
    boss = {**npc("boss", initiative=11), "gm_only": ["initiative"]}
    secret = make(ada, bruno, boss)
    assert box(secret, Viewer.of_player("alice")) == []
    assert [line[:40] for line in box(secret, Viewer.gm())] == [
        "Ada leads the Initiative Group Check ({d", "Bruno leads the Initiative Group Check ("]
    started = run(c, "ada: initiative dice=6,6,6,6")
    assert not [line for line in box(started, Viewer.gm()) if "Initiative" in line]
    # nor does the initiative's form once the check is made: it rolls nothing now
    from fracas.server.projection import odds_answer

    for viewer in (Viewer.gm(), Viewer.of_player("alice")):
        assert odds(started, viewer, "ada: initiative") == [], viewer
    assert odds_answer(Live(started, Viewer.of_player("alice")),
                       started.parse("ada: initiative")) == []
    with pytest.raises(FracasError, match=r"made once.*FU-CON-5"):  # the rules' refusal
        odds_answer(Live(started, Viewer.gm()), started.parse("ada: initiative"))


@pytest.mark.rule("FU-CON-3", "FU-CHK-5")
def test_the_initiative_odds_tell_a_player_no_gm_only_initiative_die_or_bond() -> None:
    """A player is shown no initiative odds where a number of the check is the GM's: a foe's
    GM-only Initiative (the DL could be it, and a line for some DLs would tell it), a
    roller's GM-only die or Bond; the GM still sees them. A PC hidden from the player does not
    support unless the GM names it (the line is as it would be without them)."""
    from tests.rulesets.fabula_ultima.support import make, npc, pc, run

    ada = {**pc("ada"), "player": "alice"}
    secret_init = {**npc("boss", initiative=11), "gm_only": ["initiative"]}
    for foe, friend in ((secret_init, pc("bruno")),
                        (npc("orc"), {**pc("bruno"), "gm_only": ["dex"]}),
                        (npc("orc"), {**pc("bruno", bonds={"ada": 1}), "gm_only": ["bonds"]})):
        c = make(ada, friend, foe)
        assert odds(c, Viewer.of_player("alice"), "ada: initiative") == [], foe
        assert odds(c, Viewer.gm(), "ada: initiative"), foe
    c = run(make(ada, pc("bruno"), npc("orc")), "conceal bruno")
    (seen,) = odds(c, Viewer.of_player("alice"), "ada: initiative")
    assert "Bruno" not in seen and seen == odds(make(ada, npc("orc")), Viewer.gm(),
                                                "ada: initiative")[0]
    # nor in the GM's: a PC kept hidden supports only when named (FU-CON-3 decision)
    assert "Bruno" not in odds(c, Viewer.gm(), "ada: initiative")[0]
    assert "Bruno" in odds(c, Viewer.gm(), "ada: initiative supporters=bruno")[0]

