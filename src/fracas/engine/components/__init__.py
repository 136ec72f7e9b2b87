"""Generic components the rulesets configure: turn orders, ranges, zones, tracks, ladders, pools.

Every component is a mutable dataclass of JSON-friendly fields (round-trips through
``pydantic.TypeAdapter``). ``check_…`` methods are pure and raise :class:`~fracas.errors.
IllegalCommand` / :class:`~fracas.errors.InvalidInput` for ``decide``; mutators, for
``evolve``, assume checked input and never raise.
"""

from fracas.engine.components.ladders import (
    ConditionLadder,
    LadderLevel,
    TakeResult,
    ladder_from_spec,
)
from fracas.engine.components.pools import ResourcePool
from fracas.engine.components.ranges import DEFAULT_BAND, Band, RangeBands, pair_key
from fracas.engine.components.track import Track
from fracas.engine.components.turn_orders import (
    AlternatingSides,
    Countdown,
    Popcorn,
    SideStatus,
    Slot,
    tie_groups,
)
from fracas.engine.components.zones import Zone, ZoneMap, link_key

__all__ = [
    "DEFAULT_BAND",
    "AlternatingSides",
    "Band",
    "ConditionLadder",
    "Countdown",
    "LadderLevel",
    "Popcorn",
    "RangeBands",
    "ResourcePool",
    "SideStatus",
    "Slot",
    "TakeResult",
    "Track",
    "Zone",
    "ZoneMap",
    "ladder_from_spec",
    "link_key",
    "pair_key",
    "tie_groups",
]
