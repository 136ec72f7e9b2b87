"""Plots of a report (matplotlib, PNG or SVG): who wins, how long it lasts, who falls; for a
sweep, the chance of each side per combination. Reads only the report's JSON form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.errors import InvalidInput
from fracas.sim.report import all_outcomes, label, undecided_at, win_columns

FORMATS = (".png", ".svg")


def _errors(entries: list[dict[str, Any]]) -> list[list[float]]:
    return [[e["p"] - e["ci95"][0] for e in entries], [e["ci95"][1] - e["p"] for e in entries]]


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
        raise InvalidInput(f"--plot {out}: plots need matplotlib: pip install 'fracas[sim]'",
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
    fig, (ax_win, ax_rounds, ax_out) = plt.subplots(1, 3, figsize=(13, 4))
    wins = list(r["wins"].items())
    cap = undecided_at([r])
    ax_win.bar([label(k, r["outcomes"], "\n", cap) for k, _ in wins], [v["p"] for _, v in wins],
               yerr=_errors([v for _, v in wins]), capsize=4, color="#4C72B0")
    ax_win.tick_params(axis="x", labelsize="small")  # "no winner (compromise)" fits
    ax_win.set_ylim(0, 1)
    ax_win.set_title("P(side wins), 95% CI")
    hist = {int(k): v for k, v in r["rounds"]["histogram"].items()}
    ax_rounds.bar(list(hist), [v / r["n"] for v in hist.values()], color="#55A868")
    ax_rounds.set_title(f"rounds (mean {r['rounds']['mean']:.1f})")
    ax_rounds.set_xlabel("rounds played")
    ax_rounds.set_ylabel("share of encounters")
    chars = list(r["characters"].values())
    ax_out.barh([f"{c['name']} ({c['side']})" for c in chars], [c["taken_out"]["p"] for c in chars],
                xerr=_errors([c["taken_out"] for c in chars]), capsize=3, color="#C44E52")
    ax_out.set_xlim(0, 1)
    ax_out.invert_yaxis()
    ax_out.set_title("P(taken out), 95% CI")
    return fig


#: A sweep of more combinations is drawn lying down: one row per combination, the list
#: growing downwards (standing, 256 combinations made a picture 51,000 pixels wide).
STANDING_MAX = 8


def _sweep(plt: Any, results: list[dict[str, Any]], data: dict[str, Any]) -> Any:
    sides, outcomes, cap = win_columns(data), all_outcomes(data), undecided_at(results)
    lying = len(results) > STANDING_MAX
    fig, ax = plt.subplots(figsize=(
        (11, max(4.5, 1.5 + 0.14 * len(results) * len(sides))) if lying else
        (max(6, 1.2 * len(results) * len(sides) / 2 + 3), 4.5)))
    width = 0.8 / len(sides)
    none = {"p": float("nan"), "ci95": [float("nan")] * 2}  # no such side: no bar
    for i, side in enumerate(sides):
        entries = [r["wins"].get(side, none) for r in results]
        xs = [j + i * width for j in range(len(results))]
        if lying:
            ax.barh(xs, [e["p"] for e in entries], width, xerr=_errors(entries), capsize=2,
                    label=label(side, outcomes, cap=cap))
        else:
            ax.bar(xs, [e["p"] for e in entries], width, yerr=_errors(entries), capsize=3,
                   label=label(side, outcomes, cap=cap))
    ticks = [j + width * (len(sides) - 1) / 2 for j in range(len(results))]
    names = [r["label"] for r in results]
    if lying:
        ax.set_yticks(ticks)
        ax.set_yticklabels(names)
        ax.set_ylim(len(results) - 0.2, -0.6)  # the first combination on top, as listed
        ax.set_xlim(0, 1)
        ax.set_xlabel("P(side wins), 95% CI")
        ax.xaxis.set_ticks_position("both")  # the scale at the top and the bottom of a long list
        ax.tick_params(axis="x", labeltop=True)
    else:
        ax.set_xticks(ticks)
        ax.set_xticklabels(names, rotation=20, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel("P(side wins), 95% CI")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)  # beside the
    # bars, never over one
    return fig
