"""Counting the work of an odds query, the same on every machine and under any load."""

from __future__ import annotations

import sys
from typing import Any

import icepool

from fracas.dice import OddsBudgetError, distribution


def icepool_calls(expr: str) -> tuple[bool, int]:
    """(whether the odds query was refused, how many icepool functions it called), with
    icepool's caches cleared first."""
    icepool.Pool.clear_cache()
    calls = 0

    def count(frame: Any, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" and "icepool" in frame.f_code.co_filename:
            calls += 1

    sys.setprofile(count)
    try:
        distribution(expr)
    except OddsBudgetError:
        return True, calls
    finally:
        sys.setprofile(None)
    return False, calls
