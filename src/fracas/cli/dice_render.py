"""Terminal rendering of rolls and odds reports (Rich); the dice core only gives text pieces."""

from __future__ import annotations

from typing import Any

from rich.console import Group as RichGroup
from rich.table import Table
from rich.text import Text

from fracas.dice.odds import OddsReport, bar, percent
from fracas.dice.results import Roll

_ROLL_STYLES = {"": "", "drop": "dim strike", "boom": "bold yellow", "hit": "bold green"}


def roll_to_rich(roll: Roll) -> Text:
    """A roll as Rich Text: dropped dice dim and struck, explosions and successes highlighted."""
    out = Text()
    out.append(roll.expression, style="cyan")
    out.append(" → ")
    for text, style in roll.pieces():
        out.append(text, style=_ROLL_STYLES[style])
    out.append(" = ")
    out.append(str(roll.total), style="bold")
    out.append(roll.labels_text(), style="magenta")
    return out


def report_to_rich(report: OddsReport) -> RichGroup:
    """An odds report as a Rich renderable: figures, a distribution table with bars, notes."""
    parts: list[Any] = [Text(report.title, style="bold")]
    if report.figures:
        table = Table(show_header=False, box=None, padding=(0, 2))
        table.add_column(style="cyan")
        table.add_column(justify="right", style="bold")
        table.add_column(style="dim", overflow="fold")  # an exact fraction is never cut
        for label, p in report.figures:
            table.add_row(label, percent(p), str(p))
        parts.append(table)
    if report.rows:
        top = max(p for _, p in report.rows)
        dist = Table(box=None, padding=(0, 1))
        dist.add_column(report.outcome_label, justify="right")
        dist.add_column("chance", justify="right")
        dist.add_column("")
        for outcome, p in report.rows:
            dist.add_row(str(outcome), percent(p), Text(bar(p, top), style="green"))
        parts.append(dist)
    parts.extend(Text(note, style="italic dim") for note in report.notes)
    return RichGroup(*parts)
