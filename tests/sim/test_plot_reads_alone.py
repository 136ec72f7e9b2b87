"""A plot of ``fracas sim --plot`` read on its own — pasted into the session notes, sent to
the table: it says what was run, and nothing on it hides anything else."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fracas.app.scenario import load_scenario
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.plot import draw, plot_report  # (matplotlib is imported when it draws)

pytest.importorskip("matplotlib")


def _report(name: str, n: int, seed: str, vary: list[str] | None = None,
            policies: tuple[tuple[str, str], ...] = ()) -> dict[str, Any]:
    sc = load_scenario(name)
    return report_data(simulate(SimJob(sc.text, sc.path, n, seed, None, policies), vary,
                                Runner(1)))


def test_a_single_run_plot_names_its_encounters_seed_policies_and_each_side() -> None:
    data = _report("fabula-ultima-ambush", 4, "plot", policies=(("heroes", "weakest-first"),))
    fig = draw(data)
    try:
        title = fig._suptitle.get_text()
        assert title == ("fabula-ultima-ambush · 4 encounters · seed plot\n"
                         "policies: heroes=weakest-first · bandits=focus-fire")
        _, rounds, out = fig.axes
        assert rounds.get_ylabel() == "share of encounters"
        assert [t.get_text() for t in out.get_yticklabels()] == [
            "Ada (heroes)", "Bruno (heroes)", "Bandit Captain (bandits)",
            "Cutthroat 1 (bandits)", "Cutthroat 2 (bandits)"]
    finally:
        fig.clf()


@pytest.mark.parametrize("vary", [["pcs=1,2,3"], ["ada.stats.agility=" + ",".join(
    map(str, range(9)))]])
def test_a_sweep_plot_keeps_its_legends_off_the_bars(vary: list[str]) -> None:
    """Nine combinations of the brawl: the legend stood inside the axes, over the bars of the
    last combinations. Standing or lying, each panel's legend stands beside it, on no bar
    of any panel."""
    data = _report("vers-chase", 3, "plot", vary)
    fig = draw(data)
    try:
        fig.canvas.draw()
        bars = [p.get_window_extent() for ax in fig.axes for p in ax.patches]
        legends = [ax for ax in fig.axes if ax.get_legend()]
        assert bars and len(legends) == 2  # who wins, who is taken out
        for ax in legends:
            legend = ax.get_legend().get_window_extent()
            assert not any(legend.overlaps(b) for b in bars)
            assert legend.x0 >= ax.get_window_extent().x1  # beside the axes, not in them
        assert "3 encounters per combination · seed plot" in fig._suptitle.get_text()
    finally:
        fig.clf()


def test_a_long_sweep_is_drawn_one_row_per_combination_not_ever_wider() -> None:
    """256 combinations made a PNG 51,018 pixels wide, its labels slanted into each other;
    more than eight now lie down, one labelled row each, in the report's order."""
    data = _report("vers-chase", 1, "plot", ["ada.stats.agility=0,1,2,3,4,5,6,7,8,9"])
    fig = draw(data)
    try:
        ax = fig.axes[0]
        assert fig.get_size_inches()[0] <= 18
        fig.canvas.draw()
        rows = [t.get_text() for t in ax.get_yticklabels()]
        assert rows == [r["label"] for r in data["results"]] == [
            f"ada.stats.agility={i}" for i in range(10)]
        tops = [t.get_window_extent().y0 for t in ax.get_yticklabels()]
        assert tops == sorted(tops, reverse=True)  # the first combination on top
        assert ax.get_xlabel() == "P(side wins), 95% CI"
    finally:
        fig.clf()


def _texts(svg: Path) -> Counter[str]:
    """The texts a reader sees on an SVG plot (matplotlib writes each as a comment beside
    its outlines)."""
    return Counter(re.findall(r"<!-- (.*?) -->", svg.read_text()))


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"  # as the text report prints it


def test_a_single_run_plot_speaks_in_percent_and_prints_each_bars_value(
        tmp_path: Path) -> None:
    """Its scales read 0–1 and its bars had no values: a 0.5% bar could not be told from
    0. Now the scales read in %, and each bar carries its value as the text report has it."""
    data = _report("fabula-ultima-ambush", 30, "pct")
    texts = _texts(plot_report(data, tmp_path / "one.svg"))
    r = data["results"][0]
    values = [_pct(v["p"]) for v in r["wins"].values()]
    values += [_pct(count / r["n"]) for count in r["rounds"]["histogram"].values()]
    values += [_pct(c["taken_out"]["p"]) for c in r["characters"].values()]
    assert not Counter(values) - texts, texts  # every one, as often as it is drawn
    assert texts["100%"] == 2 and texts["0%"] == 3  # the two probability scales, the rounds'
    assert not {"0.2", "0.5", "1.0"} & set(texts)  # no proportions


def test_a_sweep_plot_shows_who_is_taken_out_and_how_long_it_lasts_per_combination(
        tmp_path: Path) -> None:
    """A sweep plotted who wins alone: whether Ada still drops with one PC more, and how long
    the fight lasts, were only in --json. Now two panels beside it, each bar with its value."""
    data = _report("fabula-ultima-ambush", 6, "pct", ["pcs=1,2"])
    fig = draw(data)
    try:
        assert [ax.get_ylabel() for ax in fig.axes] == [
            "P(side wins), 95% CI", "P(taken out), 95% CI", "mean rounds"]
        legend = fig.axes[1].get_legend()
        assert [t.get_text() for t in legend.get_texts()] == [
            "Ada", "Bruno", "Bandit Captain", "Cutthroat 1", "Cutthroat 2"]  # Bruno: pcs=2
    finally:
        fig.clf()
    texts = _texts(plot_report(data, tmp_path / "sweep.svg"))
    values = [_pct(v["p"]) for r in data["results"] for v in r["wins"].values()]
    values += [_pct(c["taken_out"]["p"]) for r in data["results"]
               for c in r["characters"].values()]
    values += [f"{r['rounds']['mean']:.1f}" for r in data["results"]]
    assert not Counter(values) - texts, texts
    assert not {"0.2", "0.5", "1.0"} & set(texts)


def test_a_sweep_of_long_values_numbers_its_combinations_and_keys_them_below() -> None:
    """Sweeping a healer's spells (a JSON list) beside the PCs: the slanted labels ran into
    each other and off the left of the picture, the panels pushed into its right half. Long
    labels are now numbered as the text report numbers them, each in full in a key below."""
    spells = ('[{"name": "Frost spike", "mp": 10, "damage": 10, "type": "ice"}],'
              '[{"name": "Heal", "mp": 10, "target": "ally", "recover": 30}]')
    data = _report("fabula-ultima-ambush", 2, "key", ["pcs=1,2", "ada.stats.spells=" + spells])
    fig = draw(data)
    try:
        fig.canvas.draw()
        _, _, rounds, key = fig.axes
        assert [t.get_text() for t in rounds.get_xticklabels()] == ["#1", "#2", "#3", "#4"]
        [text] = key.texts
        lines = " ".join(text.get_text().split())
        for i, r in enumerate(data["results"], 1):
            assert f"#{i} {' '.join(r['label'].split())}" in lines
        page = fig.bbox
        for t in [*rounds.get_xticklabels(), text, *fig.axes[0].get_yticklabels()]:
            box = t.get_window_extent()
            assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0, t
        ticks = [t.get_window_extent() for t in rounds.get_xticklabels()]
        assert not any(a.overlaps(b) for a, b in itertools.pairwise(ticks))
    finally:
        fig.clf()
