"""A plot of ``fracas sim --plot`` read on its own — pasted into the session notes, sent to
the table: it says what was run, and nothing on it hides anything else."""

from __future__ import annotations

from typing import Any

import pytest

from fracas.app.scenario import load_scenario
from fracas.sim import Runner, SimJob, report_data, simulate
from fracas.sim.plot import draw  # (matplotlib is imported when it draws)

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


def test_a_sweep_plot_keeps_its_legend_off_the_bars() -> None:
    """Nine combinations of the brawl: the legend stood inside the axes, over the bars of the
    last combinations."""
    data = _report("vers-chase", 3, "plot", ["pcs=1,2,3"])
    fig = draw(data)
    try:
        [ax] = fig.axes
        fig.canvas.draw()
        legend = ax.get_legend().get_window_extent()
        bars = [p.get_window_extent() for p in ax.patches]
        assert bars and not any(legend.overlaps(b) for b in bars)
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
        [ax] = fig.axes
        width, height = fig.get_size_inches()
        assert width <= 12 and height > width / 2
        fig.canvas.draw()
        rows = [t.get_text() for t in ax.get_yticklabels()]
        assert rows == [r["label"] for r in data["results"]] == [
            f"ada.stats.agility={i}" for i in range(10)]
        tops = [t.get_window_extent().y0 for t in ax.get_yticklabels()]
        assert tops == sorted(tops, reverse=True)  # the first combination on top
        assert ax.get_xlabel() == "P(side wins), 95% CI"
    finally:
        fig.clf()
