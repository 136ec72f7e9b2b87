"""A battlefield of zones joined by undirected links (VERS).

``links`` is the adjacency (zone → neighbours, kept symmetric and sorted); ``positions`` maps
participants to zones; ``guards`` maps a link key ``"a|b"`` (the two zone ids sorted, see
:func:`link_key`; zone ids must not contain ``|``) to the participants guarding that way.
Distance is the number of links on the shortest path (BFS).

Checks are pure and raise; mutators never raise (unknown zones are ignored).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise

from fracas.engine.components._common import Names, label, pair_key
from fracas.engine.suggest import did_you_mean
from fracas.errors import IllegalCommand, InvalidInput

__all__ = ["Zone", "ZoneMap", "link_key"]


def link_key(z1: str, z2: str) -> str:
    """The key of the link between ``z1`` and ``z2``: the ids sorted, joined by ``|``."""
    return pair_key(z1, z2)


@dataclass(slots=True)
class Zone:
    """A zone's display name and description."""

    name: str = ""
    description: str = ""


@dataclass(slots=True)
class ZoneMap:
    """Zones, links between them, who stands where and who guards which link."""

    zones: dict[str, Zone] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)
    positions: dict[str, str] = field(default_factory=dict)
    guards: dict[str, list[str]] = field(default_factory=dict)

    # -- queries and checks

    def neighbours(self, zone: str) -> list[str]:
        """Zones one link from ``zone``, sorted (query)."""
        return list(self.links.get(zone, []))

    def path(self, z1: str, z2: str) -> list[str] | None:
        """A shortest path from ``z1`` to ``z2`` inclusive, or None if unreachable (query).

        Deterministic: neighbours are explored in sorted order.
        """
        if z1 not in self.zones or z2 not in self.zones:
            return None
        came_from: dict[str, str | None] = {z1: None}
        queue = deque([z1])
        while queue:
            here = queue.popleft()
            if here == z2:
                out = [here]
                prev = came_from[here]
                while prev is not None:
                    out.append(prev)
                    prev = came_from[prev]
                return out[::-1]
            for nxt in self.links.get(here, []):
                if nxt not in came_from:
                    came_from[nxt] = here
                    queue.append(nxt)
        return None

    def shortest_paths(self, z1: str, z2: str, limit: int = 64) -> list[list[str]]:
        """Every shortest path from ``z1`` to ``z2`` inclusive (at most ``limit``, in the
        order of sorted neighbours; none if unreachable) (query)."""
        to_goal = self.distances(z2)
        if z1 not in to_goal:
            return []
        paths: list[list[str]] = [[z1]]
        while paths and paths[0][-1] != z2:
            paths = [[*p, nxt] for p in paths for nxt in self.links.get(p[-1], [])
                     if to_goal.get(nxt) == to_goal[p[-1]] - 1][:limit]
        return paths

    def distance(self, z1: str, z2: str) -> int | None:
        """Links on the shortest path between two zones; None if unreachable (query)."""
        found = self.path(z1, z2)
        return None if found is None else len(found) - 1

    def distances(self, zone: str) -> dict[str, int]:
        """Links on the shortest path from ``zone`` to every zone it reaches, itself at 0
        (query; one search for what :meth:`distance` finds pair by pair)."""
        if zone not in self.zones:
            return {}
        found = {zone: 0}
        queue = deque([zone])
        while queue:
            here = queue.popleft()
            for nxt in self.links.get(here, []):
                if nxt not in found:
                    found[nxt] = found[here] + 1
                    queue.append(nxt)
        return {z: d for z, d in found.items() if z in self.zones}

    def zone_of(self, actor: str) -> str | None:
        """The zone ``actor`` stands in, or None if not placed (query)."""
        return self.positions.get(actor)

    def occupants(self, zone: str) -> list[str]:
        """Participants in ``zone``, in placement order (query)."""
        return [a for a, z in self.positions.items() if z == zone]

    def is_linked(self, z1: str, z2: str) -> bool:
        """Whether a link joins ``z1`` and ``z2`` directly (query)."""
        return z2 in self.links.get(z1, [])

    def guards_between(self, z1: str, z2: str) -> list[str]:
        """Guards on the link between two adjacent zones (query)."""
        return list(self.guards.get(link_key(z1, z2), []))

    def guards_on_path(self, path: list[str]) -> list[str]:
        """Guards on every link along ``path`` (a list of zones), each once, in path order."""
        found: list[str] = []
        for here, nxt in pairwise(path):
            for guard in self.guards_between(here, nxt):
                if guard not in found:
                    found.append(guard)
        return found

    def check_zone(self, zone: str, rule: str | None = None) -> None:
        """Refuse a zone id that is not on the map (InvalidInput)."""
        if zone not in self.zones:
            known = ", ".join(sorted(self.zones)) or "none"
            raise InvalidInput(
                f"there is no zone {zone!r} on this battlefield (zones: {known})"
                f"{did_you_mean(zone, self.zones)}",
                rule=rule,
                zone=zone,
            )

    def check_new_zone(self, zone: str, rule: str | None = None) -> None:
        """Refuse a new zone id that exists already, is empty or contains ``|``."""
        if not zone or "|" in zone:
            raise InvalidInput(f"{zone!r} cannot be a zone id", rule=rule, zone=zone)
        if zone in self.zones:
            raise InvalidInput(f"zone {zone!r} exists already", rule=rule, zone=zone)

    def check_link(self, z1: str, z2: str, rule: str | None = None) -> None:
        """Refuse a link between unknown zones or from a zone to itself."""
        self.check_zone(z1, rule)
        self.check_zone(z2, rule)
        if z1 == z2:
            raise InvalidInput(f"zone {z1!r} cannot be linked to itself", rule=rule, zone=z1)

    def check_guard(self, link: str, rule: str | None = None) -> None:
        """Refuse a guard on a link key that is not an existing link."""
        z1, _, z2 = link.partition("|")
        if not self.is_linked(z1, z2) or link != link_key(z1, z2):
            raise InvalidInput(
                f"{link!r} is not a link between two zones on this battlefield",
                rule=rule,
                link=link,
            )

    def check_move(
        self,
        actor: str,
        to: str,
        max_steps: int = 1,
        rule: str | None = None,
        *,
        names: Names = None,
    ) -> None:
        """Refuse a move by an unplaced actor, to its own zone, or beyond ``max_steps``."""
        who = label(names, actor)
        self.check_zone(to, rule)
        here = self.zone_of(actor)
        if here is None:
            raise IllegalCommand(f"{who} is not on the battlefield", rule=rule, actor=actor)
        if here == to:
            raise IllegalCommand(f"{who} is already in {to}", rule=rule, actor=actor, to=to)
        steps = self.distance(here, to)
        if steps is None:
            raise IllegalCommand(
                f"{who} cannot reach {to} from {here}: no way joins them",
                rule=rule,
                actor=actor,
                to=to,
            )
        if steps > max_steps:
            raise IllegalCommand(
                f"{to} is {steps} zones from {who} in {here}; this move covers at most {max_steps}",
                rule=rule,
                actor=actor,
                to=to,
                steps=steps,
                max_steps=max_steps,
            )

    # -- mutators

    def add_zone(self, zone: str, name: str = "", description: str = "") -> None:
        """Add (or rename) a zone (mutator)."""
        self.zones[zone] = Zone(name=name or zone, description=description)
        self.links.setdefault(zone, [])

    def link(self, z1: str, z2: str) -> None:
        """Join two existing zones both ways (mutator; ignored for unknown or equal zones)."""
        if z1 == z2 or z1 not in self.zones or z2 not in self.zones:
            return
        for a, b in ((z1, z2), (z2, z1)):
            near = self.links.setdefault(a, [])
            if b not in near:
                near.append(b)
                near.sort()

    def unlink(self, z1: str, z2: str) -> None:
        """Remove the link between two zones and its guards (mutator)."""
        for a, b in ((z1, z2), (z2, z1)):
            if b in self.links.get(a, []):
                self.links[a].remove(b)
        self.guards.pop(link_key(z1, z2), None)

    def place(self, actor: str, zone: str) -> None:
        """Put ``actor`` in ``zone`` (mutator; same as :meth:`move`)."""
        self.positions[actor] = zone

    def move(self, actor: str, to: str) -> None:
        """Move ``actor`` to zone ``to`` (mutator)."""
        self.positions[actor] = to

    def remove_actor(self, actor: str) -> None:
        """Take ``actor`` off the battlefield, with any guard posts it holds (mutator)."""
        self.positions.pop(actor, None)
        self.remove_guard(actor)

    def place_guard(self, link: str, guard: str) -> None:
        """``guard`` guards the link with key ``link`` (mutator)."""
        posted = self.guards.setdefault(link, [])
        if guard not in posted:
            posted.append(guard)

    def remove_guard(self, guard: str, link: str | None = None) -> None:
        """``guard`` stops guarding ``link``, or every link when None (mutator)."""
        keys = [link] if link is not None else list(self.guards)
        for key in keys:
            posted = self.guards.get(key)
            if posted is not None and guard in posted:
                posted.remove(guard)
                if not posted:
                    del self.guards[key]
