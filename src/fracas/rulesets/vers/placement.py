"""Where a VERS participant stands when it enters: a battlefield with zones needs every
participant in one of them (VR-MOVE-1), or it could attack and be attacked from nowhere."""

from __future__ import annotations

from fracas.engine.setup import Setup
from fracas.errors import InvalidInput


def check_placement(setup: Setup, zone_ids: set[str]) -> None:
    """Refuse a participant with no zone on a battlefield that has zones."""
    if not zone_ids:
        return
    for p in setup.participants:
        if p.stats.get("zone") is None:
            raise InvalidInput(f"{p.id}: needs a zone (stats.zone, one of "
                               f"{', '.join(sorted(zone_ids))}) on this battlefield",
                               rule="VR-MOVE-1", participant=p.id)
