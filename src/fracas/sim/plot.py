"""Plots of a report (matplotlib, PNG or SVG), in %, each bar with its value: who wins, how
long it lasts, who falls; for a sweep, each side's chance, each character's chance to be
taken out and the mean rounds per combination. Reads only the report's JSON form."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from fracas.errors import InvalidInput
from fracas.sim.job import SIM_EXTRA
from fracas.sim.report import all_outcomes, characters, label, undecided_at, win_columns

FORMATS = (".png", ".svg")


def _errors(entries: list[dict[str, Any]]) -> list[list[float]]:
    return [[e["p"] - e["ci95"][0] for e in entries], [e["ci95"][1] - e["p"] for e in entries]]


def percent(p: float) -> str:
    """A probability as the text report prints it: ``0.7%``."""
    return f"{100 * p:.1f}%"


#: The ticks of a probability axis (0% … 100%); the axis itself runs on past 100% to leave
#: room for the values printed beyond the bars.
TICKS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
ROOM = 1.2


def _in_percent(ax: Any, lying: bool) -> None:
    """The axes' probability axis in % (0% … 100%), with room past 100% for the values."""
    from matplotlib.ticker import PercentFormatter

    axis = ax.xaxis if lying else ax.yaxis
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axis.set_ticks(TICKS)
    (ax.set_xlim if lying else ax.set_ylim)(0, ROOM)


def _print_values(ax: Any, at: list[float], ends: list[float], texts: list[str],
                  lying: bool, upright: bool = False) -> None:
    """Print each text beside its bar: past ``ends`` (a bar's end, or its interval's top),
    at ``at`` across the bars; ``upright``: turned a quarter, for narrow standing bars."""
    for where, end, text in zip(at, ends, texts, strict=True):
        if end != end:  # nan: no such bar
            continue
        if lying:
            ax.annotate(text, (end, where), xytext=(3, 0), textcoords="offset points",
                        ha="left", va="center", fontsize="x-small")
        else:
            ax.annotate(text, (where, end), xytext=(0, 2), textcoords="offset points",
                        ha="center", va="bottom", fontsize="x-small",
                        rotation=90 if upright else 0)


def _bars(ax: Any, at: list[float], entries: list[dict[str, Any]], width: float,
          lying: bool, upright: bool = False, **style: Any) -> None:
    """Probability bars with their 95% intervals, each with its value in %."""
    ps = [e["p"] for e in entries]
    if lying:
        ax.barh(at, ps, width, xerr=_errors(entries), capsize=2, **style)
    else:
        ax.bar(at, ps, width, yerr=_errors(entries), capsize=3, **style)
    _print_values(ax, at, [e["ci95"][1] for e in entries],
                  ["" if p != p else percent(p) for p in ps], lying, upright)


def check_target(path: str | Path) -> Path:
    """The plot's file, refused before any work if it is no ``.png`` or ``.svg`` or if
    matplotlib is not installed."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise InvalidInput(f"--plot {out}: give a .png or .svg file name", path=str(out))
    if not out.parent.is_dir():
        raise InvalidInput(f"--plot {out}: there is no folder {out.parent} to write it in",
                           path=str(out))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InvalidInput(f"--plot {out}: plots need matplotlib, {SIM_EXTRA}",
                           path=str(out)) from None
    return out


def title(data: dict[str, Any]) -> str:
    """The plot's title: what was run, so that a plot shared on its own says it — the
    scenario, the encounters, the policies and the seed (a long one cut)."""
    results = data["results"]
    n = results[0]["n"]
    each = " per combination" if len(results) > 1 else ""
    seed = data["seed"] if len(data["seed"]) <= 24 else data["seed"][:12] + "…"
    policies = " · ".join(f"{s}={p}" for s, p in data["policies"].items())
    return (f"{data['scenario']} · {n:,} encounter{'s' if n != 1 else ''}{each} · seed "
            f"{seed}\npolicies: {policies}")


def draw(data: dict[str, Any]) -> Any:
    """The report's figure (a matplotlib ``Figure``; the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = data["results"]
    with plt.rc_context({"text.parse_math": False}):  # a name such as "$5 Sam" is text
        fig = _single(plt, results[0], data) if len(results) == 1 else _sweep(plt, results, data)
        fig.suptitle(title(data))
        fig.tight_layout()
    return fig


def plot_report(data: dict[str, Any], path: str | Path) -> Path:
    """Draw the report to ``path`` (``.png`` or ``.svg``) and return the path."""
    out = check_target(path)
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.parse_math": False}):
        fig = draw(data)
        try:
            fig.savefig(out, dpi=110, metadata={"Software": None} if out.suffix == ".png" else
                        {"Date": None})
        except OSError as exc:
            raise InvalidInput(f"--plot {out}: cannot write it: {exc}", path=str(out)) from None
        finally:
            plt.close(fig)
    return out


def _single(plt: Any, r: dict[str, Any], data: dict[str, Any]) -> Any:
    from matplotlib.ticker import PercentFormatter

    fig, (ax_win, ax_rounds, ax_out) = plt.subplots(1, 3, figsize=(13, 4))
    wins = list(r["wins"].items())
    cap = undecided_at([r])
    _bars(ax_win, list(range(len(wins))), [v for _, v in wins], 0.8, False, color="#4C72B0")
    ax_win.set_xticks(range(len(wins)), [label(k, r["outcomes"], "\n", cap) for k, _ in wins])
    ax_win.tick_params(axis="x", labelsize="small")  # "no winner (compromise)" fits
    _in_percent(ax_win, False)
    ax_win.set_title("P(side wins), 95% CI")
    hist = {int(k): v / r["n"] for k, v in r["rounds"]["histogram"].items()}
    upright = len(hist) > 8  # narrow bars: their values turned a quarter
    ax_rounds.bar(list(hist), list(hist.values()), color="#55A868")
    _print_values(ax_rounds, list(map(float, hist)), list(hist.values()),
                  [percent(v) for v in hist.values()], False, upright)
    ax_rounds.set_ylim(0, max(hist.values(), default=1) * (1.35 if upright else 1.15))
    ax_rounds.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_rounds.set_title(f"rounds (mean {r['rounds']['mean']:.1f})")
    ax_rounds.set_xlabel("rounds played")
    ax_rounds.set_ylabel("share of encounters")
    chars = list(r["characters"].values())
    _bars(ax_out, list(range(len(chars))), [c["taken_out"] for c in chars], 0.8, True,
          color="#C44E52")
    ax_out.set_yticks(range(len(chars)), [f"{c['name']} ({c['side']})" for c in chars])
    _in_percent(ax_out, True)
    ax_out.invert_yaxis()
    ax_out.set_title("P(taken out), 95% CI")
    return fig


#: A sweep of more combinations is drawn lying down: one row per combination, the list
#: growing downwards (standing, 256 combinations made a picture 51,000 pixels wide).
STANDING_MAX = 8
#: The height of the tallest plot, in inches (at 110 dpi, 22,000 pixels: a sweep of 256
#: combinations of six characters' bars; more, and the bars grow thinner).
TALLEST = 200


#: A standing sweep's combination whose label is longer than this is named on the axis by
#: its number, as the text report numbers it (``#1``), and in full in a key below the panels:
#: slanted side by side, long labels ran into each other and off the picture.
LABEL_MAX = 28
#: The width of the key's lines, in characters, and the height of one, in inches.
KEY_WIDTH, KEY_LINE = 100, 0.2


def _key(labels: list[str]) -> list[str]:
    """The lines of the key naming each combination by its number (``#1 pcs=2 …``), wrapped."""
    return [line for i, text in enumerate(labels, 1)
            for line in textwrap.wrap(f"#{i}  {text}", KEY_WIDTH, subsequent_indent="     ",
                                      break_on_hyphens=False)]


def _sweep(plt: Any, results: list[dict[str, Any]], data: dict[str, Any]) -> Any:
    """Three panels, one place per combination in each: who wins, who is taken out (one bar
    per character) and the mean rounds; standing side by side (long labels numbered, with
    a key below), or lying one row each."""
    sides, outcomes, cap = win_columns(data), all_outcomes(data), undecided_at(results)
    names = characters(data)
    lying = len(results) > STANDING_MAX
    most = len(results) * max(len(sides), len(names))  # bars in the fullest panel
    labels = [r["label"] for r in results]
    key = [] if lying or max(map(len, labels)) <= LABEL_MAX else _key(labels)
    if lying:
        fig, axes = plt.subplots(1, 3, sharey=True, width_ratios=[2, 2, 1],
                                 figsize=(17, min(TALLEST, max(4.5, 1.5 + 0.14 * most))))
    elif key:
        height = KEY_LINE * (len(key) + 1)
        fig, (*axes, ax_key) = plt.subplots(4, 1, height_ratios=[4, 4, 2, height],
                                            figsize=(max(9, 0.3 * most + 4), 10 + height))
        for ax in axes[1:]:
            ax.sharex(axes[0])
        ax_key.axis("off")
        ax_key.text(0, 1, "\n".join(key), transform=ax_key.transAxes, ha="left", va="top",
                    fontsize="small", family="monospace")
        labels = [f"#{i}" for i in range(1, len(labels) + 1)]
    else:
        fig, axes = plt.subplots(3, 1, sharex=True, height_ratios=[2, 2, 1],
                                 figsize=(max(7, 0.3 * most + 4), 10))
    ax_win, ax_out, ax_rounds = axes
    none = {"p": float("nan"), "ci95": [float("nan")] * 2}  # no such side: no bar
    _grouped(ax_win, [[r["wins"].get(side, none) for r in results] for side in sides],
             [label(side, outcomes, cap=cap) for side in sides], lying)
    _grouped(ax_out, [[r["characters"][pid]["taken_out"] if pid in r["characters"] else none
                       for r in results] for pid in names], list(names.values()), lying)
    means = [r["rounds"]["mean"] for r in results]
    at = [float(j) for j in range(len(results))]  # each combination's place: its bars
    (ax_rounds.barh if lying else ax_rounds.bar)(at, means, 0.5, color="#55A868")
    _print_values(ax_rounds, at, means, [f"{m:.1f}" for m in means], lying)
    (ax_rounds.set_xlim if lying else ax_rounds.set_ylim)(0, max(means) * 1.25 or 1)
    for ax, what in ((ax_win, "P(side wins), 95% CI"), (ax_out, "P(taken out), 95% CI"),
                     (ax_rounds, "mean rounds")):
        (ax.set_xlabel if lying else ax.set_ylabel)(what)
    if lying:
        ax_win.set_yticks(at, labels)
        ax_win.set_ylim(len(results) - 0.5, -0.5)  # the first combination on top, as listed
        for ax in axes:
            ax.xaxis.set_ticks_position("both")  # the scale at the top and the bottom
            ax.tick_params(axis="x", labeltop=True)
    elif key:
        ax_rounds.set_xticks(at, labels)
        for ax in (ax_win, ax_out):
            ax.tick_params(labelbottom=False)
    else:
        ax_rounds.set_xticks(at, labels, rotation=20, ha="right")
    return fig


def _grouped(ax: Any, rows: list[list[dict[str, Any]]], names: list[str], lying: bool) -> None:
    """One bar per row (a side, a character) in each combination's place (0, 1, …), each
    with its interval and value, and the legend beside the bars, never over one."""
    width = 0.8 / len(rows)
    upright = not lying and len(rows) > 3  # narrow standing bars: values turned a quarter
    for i, (entries, name) in enumerate(zip(rows, names, strict=True)):
        at = [j - 0.4 + (i + 0.5) * width for j in range(len(entries))]
        _bars(ax, at, entries, width, lying, upright, label=name)
    _in_percent(ax, lying)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize="small")
