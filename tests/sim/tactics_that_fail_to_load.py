"""A policy module with a fault at import (the sim tests load it as a user's module)."""

from __future__ import annotations

RATIO = 1 / 0
