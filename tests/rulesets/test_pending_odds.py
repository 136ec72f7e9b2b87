"""The state shows the exact odds of the roll the acting character is about to make, to the GM
and that character's player only."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fracas.app.scenario import load_scenario, parse_scenario
from fracas.app.script import play_script
from fracas.dice import distribution
from fracas.engine import Viewer
from fracas.engine.views import view
from fracas.rulesets.fabula_ultima.odds import check_odds


def cut_script(name: str, keep: int) -> str:
    """A bundled scenario's text with only the first ``keep`` commands of its script."""
    from importlib import resources

    text = resources.files("fracas.scenarios").joinpath(f"{name}.toml").read_text()
    drop = {step.line for step in load_scenario(name).script[keep:]}
    return "\n".join(line for i, line in enumerate(text.splitlines(), 1) if i not in drop)


def odds_lines(text: str, viewer: Viewer) -> list[str]:
    conflict = play_script(parse_scenario(text, "cut.toml"), "seed")
    return list(view(conflict, viewer)["conflict"]["odds"])


def test_etherscope_shows_the_acting_pool_odds() -> None:
    sc = load_scenario("etherscope-car-chase")
    n = next(i for i, s in enumerate(sc.script) if s.text == "countdown") + 1
    text = cut_script("etherscope-car-chase", n)
    lines = odds_lines(text, Viewer.gm())
    drive, other = distribution("3d6>=5"), distribution("2d6>=5")  # drive 3, else 2 dice

    def pct(dist: Any, n: int) -> str:
        return f"≥{n} {float(dist.p_at_least(n)):.0%}"

    assert lines == [
        "The zepcar driver rolls 3d6 with drive (5+ a success): "
        + ", ".join(pct(drive, n) for n in (1, 2, 3)),
        "The zepcar driver rolls 2d6 otherwise (5+ a success): "
        + ", ".join(pct(other, n) for n in (1, 2)),
    ]
    assert odds_lines(text, Viewer.of_player("alice")) == [], "not Alice's character"


def test_fabula_ultima_shows_hit_chances_of_the_side_on_turn() -> None:
    sc = load_scenario("fabula-ultima-ambush")
    n = next(i for i, s in enumerate(sc.script) if " initiative " in s.text) + 1
    text = cut_script("fabula-ultima-ambush", n)  # up to the initiative check
    lines = odds_lines(text, Viewer.of_player("alice"))
    assert [line.split(" (")[0] for line in lines] == ["Ada attacks with Twin daggers",
                                                       "Ada casts a spell"]
    hit = check_odds((10, 8, 1), 10)
    assert f"Cutthroat 1 {float(hit['success'] + hit['critical']):.0%}" in lines[0]
    spell = check_odds((8, 8, 0), 6)  # {INS + WLP} against the cutthroat's Magic Defense
    assert f"Cutthroat 1 {float(spell['success'] + spell['critical']):.0%}" in lines[1]
    assert len(odds_lines(text, Viewer.gm())) == 4  # Bruno's hammer and spell too


def test_vers_shows_each_attack_with_its_breakdown_and_chance_to_the_gm() -> None:
    text = cut_script("vers-tavern-brawl", 1)  # Ada opens the turn
    lines = odds_lines(text, Viewer.gm())
    thug = next(line for line in lines if "Thug (sword)" in line)
    assert "+1 reach" in thug
    target = int(thug.split("→ ")[-1].split(":")[0])
    assert thug.endswith(f"hit {float(distribution('3d6').p_at_most(target)):.0%}")
    assert Fraction(0) <= distribution("3d6").p_at_most(target) <= 1
    assert odds_lines(text, Viewer.of_player("bob")) == [], "not Bob's character"


def test_a_vers_player_reads_the_odds_their_roll_would_show_them() -> None:
    text = cut_script("vers-tavern-brawl", 1)  # Ada opens the turn; the thug's skills GM-only
    gm, alice = odds_lines(text, Viewer.gm()), odds_lines(text, Viewer.of_player("alice"))
    kept = [line for line in alice if line.endswith(": odds the GM keeps")]
    assert alice and all(line in gm for line in alice if line not in kept), \
        "the GM's words, never other numbers"
    assert "Ada → Thug (sword): odds the GM keeps" in kept  # no number of it
    assert any("Thug (knife)" in line for line in alice), "a dodge from a stat she sees"
    # the sword is parried with the thug's close combat, a GM-only skill: its roll would
    # show Alice "? Thug's close combat", so no odds tell it beforehand
    assert not any("Thug's close combat" in line for line in alice)
    assert any("Thug's close combat" in line for line in gm)
    # with her own weapons GM-only, each weapon's odds would tell them: none
    hidden = text.replace('name = "Ada"', 'name = "Ada"\ngm_only = ["weapons"]', 1)
    assert odds_lines(hidden, Viewer.of_player("alice")) == [] != odds_lines(hidden, Viewer.gm())
