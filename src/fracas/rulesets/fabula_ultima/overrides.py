"""What a Fabula Ultima GM may correct with ``override``: HP, MP and IP (current and maximum),
Fabula Points, status effects, turns left this round and the side on turn — by the paths of
``fracas show --json`` (see engine/overrides.py)."""

from __future__ import annotations

from fracas.engine.components import ResourcePool
from fracas.engine.model import ConflictState
from fracas.engine.overrides import OverrideTarget, names_of, one_of, whole
from fracas.engine.suggest import did_you_mean
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.fabula_ultima.state import STATUSES, FabulaExt

#: Set-up stats that play keeps elsewhere: the path the GM overrides instead.
LIVE_STATS = {"hp": "{id}.hp.max", "mp": "{id}.mp.max", "ip": "{id}.ip.max", "fp": "{id}.fp"}
#: Settings read only at the set-up (the turn order's two sides): what to do in play instead.
START_SETTINGS = dict.fromkeys(
    ("pc_side", "foe_side"), ("the two sides of the turn order are fixed; put a character on "
                              "one of them with 'assign ID SIDE'", "FU-CON-13"))


def override_target(state: ConflictState, path: list[str]) -> OverrideTarget | None:
    """The Fabula Ultima value at ``path``, or None."""
    ext: FabulaExt = state.ext
    if ext is None:
        return None
    if path[:1] == ["participants"] and len(path) >= 3 and path[1] in state.participants:
        return _participant(ext, path[1], path[2:])
    if path[:2] == ["ruleset", "tracker"]:
        return _side_on_turn(ext, path)
    return None


def _side_on_turn(ext: FabulaExt, path: list[str]) -> OverrideTarget:
    """The side whose turn it is; any other path of the tracker, or one before the
    Initiative check, is refused saying why (not "ruleset has no 'tracker'", which denied
    what the refusal then suggested)."""
    where = ".".join(path)
    if path != ["ruleset", "tracker", "side_on_turn"]:
        raise InvalidInput(f"override: {where}: of the turn tracker, only the side on turn is "
                           "corrected by hand (ruleset.tracker.side_on_turn SIDE; a "
                           "character's turns: ID.turns_left N)", path=where)
    order = ext.order
    if order is None:
        raise IllegalCommand(f"override: {where}: no side is on turn before the Initiative "
                             "check sets who goes first", rule="FU-CON-3", path=where)
    pick = one_of(where, order.sides, "a side")

    def check(value: object) -> str:
        chosen = pick(value)  # a side with no turn left would leave nobody to act
        if order.side_turns_left(chosen) == 0 and not order.round_over:
            someone = next(iter(order.members(chosen)), "ID")
            raise InvalidInput(
                f"override: side {chosen} has no turn left this round, so nobody could "
                f"act; give one of its members a turn first ('override {someone}."
                "turns_left 1')", rule="FU-CON-10", path=where)
        return chosen

    def side(value: object) -> None:
        order.side_on_turn = str(value)
    return OverrideTarget(where, order.side_on_turn, check, side)


def _participant(ext: FabulaExt, pid: str, rest: list[str]) -> OverrideTarget | None:
    where = f"{pid}.{'.'.join(rest)}"
    pools = {"hp": ext.hp, "mp": ext.mp, "ip": ext.ip}
    if rest[0] in pools and pid in pools[rest[0]]:
        if len(rest) != 2 or rest[1] not in ("current", "max"):
            typo = did_you_mean(rest[1], ["current", "max"]) if len(rest) == 2 else ""
            raise InvalidInput(f"override: {where}: {rest[0].upper()} is corrected by its "
                               f"current score or its maximum: {pid}.{rest[0]}.current N or "
                               f"{pid}.{rest[0]}.max N{typo}", path=where)
        return _pool(where, pools[rest[0]][pid], rest[1] == "current")
    if rest == ["fp"] and pid in ext.fp:
        def fp(value: object) -> None:
            ext.fp[pid] = int(str(value))
        return OverrideTarget(where, ext.fp[pid], whole(where, 0, 99), fp)
    if rest == ["statuses"]:
        def statuses(value: object) -> None:
            ext.statuses[pid] = list(value) if isinstance(value, list) else []
        return OverrideTarget(where, list(ext.statuses.get(pid, [])),
                              names_of(where, tuple(STATUSES), "status effects"), statuses)
    order = ext.order
    if rest == ["turns_left"] and order is not None and pid in order.side_of:
        per_round = order.turns_per_round.get(pid, 1)

        def turns(value: object) -> None:
            order.taken[pid] = per_round - int(str(value))
            order.settle()
        return OverrideTarget(where, order.turns_left(pid), whole(where, 0, per_round), turns)
    return None


def _pool(where: str, pool: ResourcePool, current: bool) -> OverrideTarget:
    if current:
        return OverrideTarget(where, pool.current, whole(where, pool.floor, pool.maximum),
                              lambda value: pool.set(int(value)))
    return OverrideTarget(where, pool.maximum, whole(where, 1, 9_999),
                          lambda value: pool.set_maximum(int(value)))
