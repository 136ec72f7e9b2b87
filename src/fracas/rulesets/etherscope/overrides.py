"""What an Etherscope GM may correct with ``override``: a condenser's current score (and its
maximum), a character's acting initiatives before the countdown, the range band between two
characters and whose action comes now in the countdown — by the paths of ``fracas show
--json`` (see engine/overrides.py)."""

from __future__ import annotations

from typing import Any

from fracas.engine.components import Band, ResourcePool
from fracas.engine.limits import as_int, spelled
from fracas.engine.model import ConflictState
from fracas.engine.overrides import OverrideTarget, one_of, refuse_left, whole
from fracas.engine.suggest import did_you_mean
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.etherscope.common import ext_of
from fracas.rulesets.etherscope.evolve import CONDENSERS
from fracas.rulesets.etherscope.settings import min_gap
from fracas.rulesets.etherscope.state import COUNTDOWN, DECLARE

#: Set-up stats that play keeps elsewhere: the path the GM overrides instead.
LIVE_STATS = {kind: f"{{id}}.condensers.{kind}" for kind in CONDENSERS}
#: Settings read only at the set-up (into the ranges and groups of play): how to change them
#: in play instead.
START_SETTINGS = {
    "ranges.pairs": ("set a range with 'set-range A B BAND' or 'override ruleset.ranges.A.B "
                     "BAND'", "ES-START-3"),
    "groups": ("group characters with 'group NAME IDS' and part them with 'ungroup NAME'",
               "ES-START-6"),
    "lurking": ("hide a character with 'conceal WHO from=IDS'", "ES-RNG-1"),
}
_BANDS = [b.name.lower() for b in Band]


def override_target(state: ConflictState, path: list[str]) -> OverrideTarget | None:
    """The Etherscope value at ``path``, or None."""
    if state.ext is None:
        return None
    ext = ext_of(state)
    if (path[:1] == ["participants"] and len(path) in (3, 4, 5) and path[2] == "condensers"
            and ext.condenser.get(path[1])):
        return _condenser_at(state, path)
    if path[:1] == ["participants"] and path[2:] == ["declared"] and len(path) == 3 \
            and path[1] in state.participants:
        return _declared(state, path[1])
    if path == ["ruleset", "acting"]:
        return _acting(state)
    if path == ["settings", "ranges", "default"]:
        return _default_range(state)
    if path[:2] == ["ruleset", "ranges"]:
        return _range(state, path)
    return None


def _condenser_at(state: ConflictState, path: list[str]) -> OverrideTarget:
    """A condenser's current score (``ID.condensers.KIND``) or maximum (``….1``); a path that
    names none is refused naming the condensers (not "participants.ada has no 'condensers'",
    which denied what the refusal then suggested)."""
    pools = ext_of(state).condenser[path[1]]
    kinds = list(pools)
    where = ".".join(path[1:])
    if len(path) == 3 or path[3] not in pools:
        asked, hint = ("", "") if len(path) == 3 else \
            (f", not {path[3]!r}", did_you_mean(path[3], kinds))
        whose = possessive(state.participants[path[1]].name)
        raise InvalidInput(f"override: {where}: name one of {whose} "
                           f"condensers{asked}: {path[1]}.condensers.KIND ({', '.join(kinds)})"
                           f"{hint}", path=where)
    index = path[4] if len(path) == 5 else "0"
    if index not in ("0", "1"):
        base = ".".join(path[1:4])
        raise InvalidInput(f"override: {where}: a condenser holds its current score ({base}) "
                           f"and its maximum ({base}.1)", path=where)
    return _condenser(where, pools[path[3]], index == "0")


def _range(state: ConflictState, path: list[str]) -> OverrideTarget:
    """The band between two characters, ``ruleset.ranges.A.B``; a path that names no pair
    is refused saying why (an unknown id, the same id twice, no band set), never with the
    generic "ruleset has no 'ranges'" that then suggested this very path."""
    ranges = ext_of(state).ranges
    where = ".".join(path)
    present = [pid for pid, p in state.participants.items() if p.present]
    if len(path) != 4:
        example = ".".join(["ruleset.ranges", *present[:2]]) if len(present) > 1 else ""
        raise InvalidInput(f"override: {where}: a range is between two characters: "
                           "ruleset.ranges.ID.ID2 BAND"
                           + (f" (e.g. {example} near)" if example else ""), path=where)
    a, b = path[2], path[3]
    for pid in (a, b):
        if pid not in state.participants:
            raise InvalidInput(f"override: {where}: {pid!r} is no participant of this "
                               f"conflict; the ranges are between {', '.join(present)}"
                               f"{did_you_mean(pid, present)}", path=where)
    if a == b:
        raise InvalidInput(f"override: {where}: a character has no range to itself; name two "
                           "characters, ruleset.ranges.ID.ID2", path=where)
    refuse_left(state, a, where)
    refuse_left(state, b, where)
    if not ranges.has(a, b):
        raise InvalidInput(f"override: {where}: no range is set between "
                           f"{state.participants[a].name} and {state.participants[b].name}",
                           path=where)

    def band(value: object) -> None:
        ranges.set(a, b, _BANDS.index(str(value)))
    return OverrideTarget(where, _BANDS[ranges.get(a, b)], one_of(where, _BANDS, "a range band"),
                          band)


def _default_range(state: ConflictState) -> OverrideTarget:
    """The band a character who joins starts at from everyone (ES-START-3), by its name as
    the scenario file writes it (it is kept as the band's number)."""
    ranges = state.settings["ranges"]
    where = "settings.ranges.default"

    def band(value: object) -> None:  # a number: a log stored before the names were taken
        ranges["default"] = value if isinstance(value, int) else _BANDS.index(str(value))
    return OverrideTarget(where, _BANDS[ranges["default"]], one_of(where, _BANDS, "a range band"),
                          band)


def _acting(state: ConflictState) -> OverrideTarget:
    """Whose action comes now: the named character's next slot moves up to the current
    place (the slots between keep their order, after it)."""
    ext = ext_of(state)
    countdown = ext.countdown
    current = countdown.current
    if ext.phase != COUNTDOWN or current is None:
        raise IllegalCommand("override: ruleset.acting is whose action comes now, so it is "
                             "open only while the countdown runs", rule="ES-ROUND-4",
                             path="ruleset.acting")
    start = countdown.position + (1 if ext.acted else 0)
    waiting = list(dict.fromkeys(s.actor for s in countdown.queue[start:]))

    def act(value: object) -> None:
        if ext.acted:  # the current action is over: the named one comes next, now
            countdown.position += 1
        queue = countdown.queue
        at = next(i for i in range(countdown.position, len(queue)) if queue[i].actor == value)
        queue.insert(countdown.position, queue.pop(at))
        ext.acted = False
    return OverrideTarget("ruleset.acting", current.actor,
                          one_of("ruleset.acting", waiting, "a character still to act"), act)


def _declared(state: ConflictState, pid: str) -> OverrideTarget:
    """``pid``'s acting initiatives this round (``7,1`` or ``[7, 1]``), checked as a
    declaration is: positive, summing to at most the base, ``min_gap`` apart (ES-ROUND-2,
    ES-ROUND-3), and only while the round's declarations are open (ES-ROUND-7)."""
    ext = ext_of(state)
    where = f"{pid}.declared"

    def check(value: Any) -> list[int]:
        if ext.phase != DECLARE or pid not in ext.base:
            raise IllegalCommand(
                f"override: {where} is open only while the round's declarations are (after "
                "'round', before 'countdown'); during the countdown override ruleset.acting",
                rule="ES-ROUND-7", path=where)
        # text is the command line's form (7,1); a list holds numbers only (["6"] is text)
        items = value.split(",") if isinstance(value, str) else \
            value if isinstance(value, list) else [value]
        try:
            scores = [as_int(v, f"override: {where}") for v in items
                      if not isinstance(v, bool) and not (isinstance(value, list)
                                                          and isinstance(v, str))]
        except (TypeError, ValueError):
            scores = []
        if not scores or len(scores) != len(items):
            raise InvalidInput(f"override: {where} takes acting initiatives, whole numbers "
                               f"such as 7,1 or [7, 1], not {spelled(value)}", path=where,
                               rule="ES-ROUND-2")
        ext.countdown.check_declare(pid, scores, ext.base[pid], min_gap(state.settings),
                                    "ES-ROUND-2", "ES-ROUND-3", "ES-ROUND-2",
                                    rule_started="ES-ROUND-7", names=state.names())
        return sorted(scores, reverse=True)

    def declare(value: object) -> None:
        ext.countdown.declare(pid, list(value) if isinstance(value, list) else [])
    return OverrideTarget(where, ext.countdown.declarations.get(pid), check, declare)


def _condenser(where: str, pool: ResourcePool, current: bool) -> OverrideTarget:
    if current:
        return OverrideTarget(where, pool.current, whole(where, pool.floor, pool.maximum),
                              lambda value: pool.set(int(value)))
    return OverrideTarget(where, pool.maximum, whole(where, 1, 100),
                          lambda value: pool.set_maximum(int(value)))
