"""The answer to an odds question that every ruleset returns, and its text and JSON forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any


def approx(x: Fraction) -> str:
    """``x`` to 4 significant digits, even beyond the range of a float."""
    try:
        return f"{float(x):.4g}"
    except OverflowError:
        return f"{Decimal(x.numerator) / Decimal(x.denominator):.4g}"


def percent(p: Fraction) -> str:
    """A probability as a percentage with two decimals."""
    return f"{float(p) * 100:.2f}%"


_EIGHTHS = " ▏▎▍▌▋▊▉█"


def bar(p: Fraction, top: Fraction, width: int = 24) -> str:
    """A bar of block characters, ``width`` long for the most likely outcome ``top``."""
    if top <= 0:
        return ""
    eighths = round(p / top * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


@dataclass
class OddsReport:
    """An answer to an odds question: exact figures, an optional distribution table and notes.

    ``figures`` are (label, probability) pairs; ``rows`` are (outcome, probability) pairs of a
    distribution whose outcomes ``outcome_label`` names (a total, successes, a margin…);
    ``notes`` are plain sentences (mean, truncation, rule references).
    """

    title: str
    figures: list[tuple[str, Fraction]] = field(default_factory=list)
    rows: list[tuple[int, Fraction]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    outcome_label: str = "total"

    def to_text(self) -> str:
        """Plain text: title, figures as percentages with their exact fractions, table, notes."""
        lines = [self.title]
        width = max((len(label) for label, _ in self.figures), default=0)
        for label, p in self.figures:
            lines.append(f"  {label.ljust(width)}  {percent(p):>8}  ({p})")
        if self.rows:
            top = max(p for _, p in self.rows)
            ow = max(len(self.outcome_label), *(len(str(o)) for o, _ in self.rows))
            lines.append("")
            lines.append(f"  {self.outcome_label.rjust(ow)}  {'chance':>8}")
            for outcome, p in self.rows:
                lines.append(f"  {str(outcome).rjust(ow)}  {percent(p):>8}  {bar(p, top)}")
        if self.notes:
            lines.append("")
            lines.extend(f"  {note}" for note in self.notes)
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        """JSON-native form; each probability as an exact ``"n/d"`` string and a float."""
        return {
            "title": self.title,
            "figures": [
                {"label": label, "fraction": str(p), "probability": float(p)}
                for label, p in self.figures
            ],
            "rows": [
                {"outcome": outcome, "fraction": str(p), "probability": float(p)}
                for outcome, p in self.rows
            ],
            "notes": list(self.notes),
            "outcome": self.outcome_label,
        }


#: Distributions with more totals than this are summarised, not tabled, in a report.
MAX_REPORT_ROWS = 120
