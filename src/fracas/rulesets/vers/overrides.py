"""What a VERS GM may correct with ``override``: a participant's zone, the conditions on its
harm tracks, whose go it is, the actions left and who has gone this turn — by the paths of
``fracas show --json`` (see engine/overrides.py)."""

from __future__ import annotations

from fracas.engine.components import ConditionLadder
from fracas.engine.model import ConflictState
from fracas.engine.overrides import OverrideTarget, names_of, one_of, whole
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.state import VersExt

#: Set-up stats that play keeps elsewhere: the path the GM overrides instead.
LIVE_STATS = {"zone": "{id}.zone"}
#: The battlefield's settings, read only at the set-up: the GM's commands that change it in play.
START_SETTINGS = {
    "zones": ("draw a zone with 'zone ID NAME'", "VR-MOVE-1"),
    "links": ("join two zones with 'link A B'", "VR-MOVE-1"),
    "objects": ("add an object with 'object ID …'", "VR-OBJ-1"),
    "guards": ("post a guard with 'guard WHO A B' and end it with 'unguard WHO'", "VR-MOVE-5"),
    "cover": ("give cover with 'cover WHO VALUE'", "VR-ATK-5"),
}
_NOBODY = "none"


def override_target(state: ConflictState, path: list[str]) -> OverrideTarget | None:
    """The VERS value at ``path``, or None."""
    ext: VersExt = state.ext
    if ext is None:
        return None
    if path[:1] == ["participants"] and len(path) >= 3 and path[1] in state.participants:
        return _participant(ext, path[1], path[2:])
    turns = ext.turns
    active = state.active_ids()
    if path == ["ruleset", "current"]:
        def current(value: object) -> None:
            turns.current = None if value == _NOBODY else str(value)
            if turns.current is not None:  # a go under way: the turn is open
                turns.round_opened = True
        return OverrideTarget("ruleset.current", turns.current or _NOBODY,
                              one_of("ruleset.current", [*active, _NOBODY],
                                     "a participant, or none"), current)
    if path == ["ruleset", "actions_left"]:
        def actions(value: object) -> None:
            turns.actions_left = int(str(value))
        return OverrideTarget("ruleset.actions_left", turns.actions_left,
                              whole("ruleset.actions_left", 0, 2), actions)
    if path == ["ruleset", "gone"]:
        def gone(value: object) -> None:
            turns.gone = list(value) if isinstance(value, list) else []
        return OverrideTarget("ruleset.gone", list(turns.gone),
                              names_of("ruleset.gone", active, "participants"), gone)
    return None


def _participant(ext: VersExt, pid: str, rest: list[str]) -> OverrideTarget | None:
    where = f"{pid}.{'.'.join(rest)}"
    if rest == ["zone"] and not ext.zones.zones:
        raise IllegalCommand(f"override: {where}: this conflict has no zones; draw one with "
                             "'zone ID NAME'", rule="VR-MOVE-1", path=where)
    if rest == ["zone"]:
        def move(value: object) -> None:
            ext.arrive(pid, str(value))  # as a move: cover, posts and engagements left end
        return OverrideTarget(where, ext.zones.zone_of(pid),
                              one_of(where, list(ext.zones.zones), "a zone"), move)
    if rest[0] != "tracks":
        return None
    form = f"{pid}.tracks.TRACK.conditions.LEVEL"
    ladders = ext.ladders(pid)
    if len(rest) != 4 or rest[2] != "conditions":
        raise InvalidInput(f"override: {where}: a condition is set as {form} (e.g. "
                           f"{pid}.tracks.injury.conditions.wounded 1)", rule="VR-INJ-1")
    ladder = ladders.get(rest[1])
    if ladder is None:
        raise InvalidInput(f"override: {where}: {pid} has no track {rest[1]!r} (tracks: "
                           f"{', '.join(ladders)})", rule="VR-INJ-1")
    names = [lv.name for lv in ladder.levels]
    if rest[3] not in names:
        raise InvalidInput(f"override: {where}: the {rest[1]} track has no condition "
                           f"{rest[3]!r} (conditions: {', '.join(names)})", rule="VR-INJ-1")
    level = names.index(rest[3])
    return OverrideTarget(where, ladder.count(level), whole(where, 0, ladder.levels[level].slots),
                          lambda value: _mark(ladder, level, int(value)))


def _mark(ladder: ConditionLadder, level: int, count: int) -> None:
    """Hold exactly ``count`` conditions at ``level`` (corrected by the GM)."""
    marks = ladder.marks[level]
    del marks[count:]
    marks.extend(["GM override"] * (count - len(marks)))
    top = len(ladder.levels) - 1
    if ladder.taken_out_when_full:
        ladder.taken_out = ladder.is_full(top)
