"""Property tests: checked operations never make a mutator raise; pydantic round-trips."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from fracas.engine.components import (
    AlternatingSides,
    ConditionLadder,
    Countdown,
    Popcorn,
    RangeBands,
    ResourcePool,
    Slot,
    Track,
    ZoneMap,
    ladder_from_spec,
    link_key,
    tie_groups,
)
from fracas.errors import FracasError

FAST = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
ACTORS = ["ada", "bruno", "cy", "dee", "eli"]


def roundtrip(obj: Any) -> None:
    """Dump to JSON-mode python and to JSON text, load back, compare."""
    adapter: TypeAdapter[Any] = TypeAdapter(type(obj))
    plain = adapter.dump_python(obj, mode="json")
    assert adapter.validate_python(plain) == obj
    assert adapter.validate_json(adapter.dump_json(obj)) == obj


def attempt(check: Any, mutate: Any) -> bool:
    """Run ``check``; if it passes, run ``mutate`` (which must not raise)."""
    try:
        check()
    except FracasError:
        return False
    mutate()
    return True


# --------------------------------------------------------------------------- countdown


@FAST
@given(st.data())
def test_countdown_checked_ops_never_raise(data: st.DataObject) -> None:
    cd = Countdown()
    for _ in range(data.draw(st.integers(0, 30))):
        op = data.draw(st.sampled_from(["declare", "start", "advance", "remove", "add", "new"]))
        actor = data.draw(st.sampled_from(ACTORS))
        if op == "declare":
            scores = data.draw(st.lists(st.integers(-2, 12), max_size=3))
            base = data.draw(st.integers(0, 14))
            if attempt(
                lambda: cd.check_declare(actor, scores, base),  # noqa: B023
                lambda: cd.declare(actor, scores),  # noqa: B023
            ):
                assert sum(scores) <= base and all(s > 0 for s in scores)
        elif op == "start" and not cd.started:
            ordered = [s for group in tie_groups(cd.entries()) for s in group]
            cd.start(ordered)
            scores_seen = [s.score for s in cd.queue]
            assert scores_seen == sorted(scores_seen, reverse=True)
        elif op == "advance":
            cd.advance()
        elif op == "remove":
            cd.remove(actor)
            assert all(s.actor != actor for s in cd.remaining())
        elif op == "add":
            cd.add(actor)
        elif op == "new":
            cd.new_round()
    roundtrip(cd)


# --------------------------------------------------------------------------- alternating


@FAST
@given(
    st.lists(st.integers(1, 3), min_size=0, max_size=4),
    st.lists(st.integers(1, 3), min_size=0, max_size=4),
    st.booleans(),
)
def test_alternation_shape(pcs: list[int], npcs: list[int], pcs_first: bool) -> None:
    members = {f"p{i}": "pcs" for i in range(len(pcs))}
    members |= {f"n{i}": "npcs" for i in range(len(npcs))}
    turns = {f"p{i}": t for i, t in enumerate(pcs)} | {f"n{i}": t for i, t in enumerate(npcs)}
    first = "pcs" if pcs_first else "npcs"
    order = AlternatingSides.setup(["pcs", "npcs"], first, members, turns)
    seq: list[str] = []
    while not order.round_over:
        actor = order.who_may_act()[0]
        order.check_take_turn(actor)
        order.take_turn(actor)
        seq.append(order.side_of[actor])
        order.end_turn()
    n_first = sum(pcs) if pcs_first else sum(npcs)
    n_second = sum(npcs) if pcs_first else sum(pcs)
    second = "npcs" if pcs_first else "pcs"
    k = min(n_first, n_second)
    expected = [first, second] * k
    if n_first > k:
        expected += [first] * (n_first - k)
    elif n_second > k:
        expected += [second] * (n_second - k)
    assert seq == expected
    roundtrip(order)


@FAST
@given(st.data())
def test_alternating_checked_ops_never_raise(data: st.DataObject) -> None:
    members = {a: data.draw(st.sampled_from(["pcs", "npcs"])) for a in ACTORS[:4]}
    turns = {a: data.draw(st.integers(0, 2)) for a in members}
    order = AlternatingSides.setup(["pcs", "npcs"], "pcs", members, turns)
    for _ in range(data.draw(st.integers(0, 40))):
        op = data.draw(st.sampled_from(["take", "end", "leave", "join", "new"]))
        actor = data.draw(st.sampled_from(ACTORS))
        if op == "take":
            attempt(
                lambda: order.check_take_turn(actor),  # noqa: B023
                lambda: order.take_turn(actor),  # noqa: B023
            )
        elif op == "end" and order.current is not None:
            order.end_turn()
        elif op == "leave":
            order.leave(actor)
        elif op == "join":
            side = data.draw(st.sampled_from(["pcs", "npcs", "mars"]))
            n = data.draw(st.integers(-1, 2))
            attempt(
                lambda: order.check_join(actor, side, n),  # noqa: B023
                lambda: order.join(actor, side, n),  # noqa: B023
            )
        elif op == "new" and order.round_over:
            order.new_round()
        # between turns, someone may act unless the round is over
        if order.current is None:
            assert bool(order.who_may_act()) != order.round_over
    roundtrip(order)
    # a copy to try moves on (Fabula Ultima's) is equal and shares nothing with the order
    trial, before = order.copy(), copy.deepcopy(order)
    assert trial == order
    trial.leave(ACTORS[0])
    trial.join("zed", "npcs", 1)
    trial.new_round()
    assert order == before


# --------------------------------------------------------------------------- popcorn


@FAST
@given(st.data())
def test_popcorn_checked_ops_never_raise(data: st.DataObject) -> None:
    p = Popcorn(members=ACTORS[:3])
    for _ in range(data.draw(st.integers(0, 40))):
        op = data.draw(st.sampled_from(["open", "hand", "act", "end", "join", "leave", "new"]))
        actor = data.draw(st.sampled_from(ACTORS))
        n = data.draw(st.integers(1, 2))
        if op == "open":
            attempt(lambda: p.check_open(actor), lambda: p.open(actor, n))  # noqa: B023
        elif op == "hand":
            attempt(lambda: p.check_hand_off(actor), lambda: p.hand_off(actor, n))  # noqa: B023
        elif op == "act":
            attempt(lambda: p.check_action(actor, n=n), lambda: p.spend(n))  # noqa: B023
        elif op == "end":
            p.end_go()
        elif op == "join":
            p.join(actor)
        elif op == "leave":
            p.leave(actor)
        elif op == "new" and p.round_over:
            p.new_round()
        assert p.actions_left >= 0
        assert p.current is None or p.current in p.gone
    roundtrip(p)


# --------------------------------------------------------------------------- ranges


@FAST
@given(st.data())
def test_ranges_checked_ops_never_raise(data: st.DataObject) -> None:
    rb = RangeBands()
    for a in ACTORS[:3]:
        rb.add(a, data.draw(st.integers(0, 2)))
    for _ in range(data.draw(st.integers(0, 40))):
        op = data.draw(st.sampled_from(["step", "hide", "reveal", "add", "remove", "set"]))
        a = data.draw(st.sampled_from(ACTORS))
        b = data.draw(st.sampled_from(ACTORS))
        if op == "step":
            d = data.draw(st.integers(-2, 2))
            attempt(lambda: rb.check_step(a, b, d), lambda: rb.step(a, b, d))  # noqa: B023
        elif op == "set":
            band = data.draw(st.integers(-1, 3))

            def check() -> None:
                rb.check_pair(a, b)  # noqa: B023
                rb.check_band(band)  # noqa: B023

            attempt(check, lambda: rb.set(a, b, band))  # noqa: B023
        elif op == "hide":
            attempt(lambda: rb.check_pair(a, b), lambda: rb.hide(a, b))  # noqa: B023
        elif op == "reveal":
            rb.reveal(a, b, data.draw(st.none() | st.integers(0, 2)))
        elif op == "add":
            attempt(lambda: rb.check_add(a), lambda: rb.add(a))  # noqa: B023
        else:
            rb.remove(a)
        assert all(0 <= v <= 2 for v in rb.bands.values())
        for x in rb.actors:
            for y in rb.actors:
                if x != y:
                    assert rb.get(x, y) == rb.get(y, x)
    roundtrip(rb)


# --------------------------------------------------------------------------- zones


@FAST
@given(st.data())
def test_zones_checked_ops_never_raise(data: st.DataObject) -> None:
    zm = ZoneMap()
    zones = ["z0", "z1", "z2", "z3", "z4"]
    for z in zones:
        zm.add_zone(z)
    for _ in range(data.draw(st.integers(0, 6))):
        zm.link(data.draw(st.sampled_from(zones)), data.draw(st.sampled_from(zones)))
    for a in ACTORS[:3]:
        zm.place(a, data.draw(st.sampled_from(zones)))
    for _ in range(data.draw(st.integers(0, 30))):
        op = data.draw(st.sampled_from(["move", "guard", "unguard"]))
        a = data.draw(st.sampled_from(ACTORS))
        z1 = data.draw(st.sampled_from([*zones, "zz"]))
        z2 = data.draw(st.sampled_from(zones))
        if op == "move":
            steps = data.draw(st.integers(1, 3))
            here = zm.zone_of(a)
            if attempt(
                lambda: zm.check_move(a, z1, steps),  # noqa: B023
                lambda: zm.move(a, z1),  # noqa: B023
            ):
                assert here is not None
                dist = zm.distance(here, z1)
                assert dist is not None and 1 <= dist <= steps
        elif op == "guard":
            key = link_key(z1, z2)
            attempt(lambda: zm.check_guard(key), lambda: zm.place_guard(key, a))  # noqa: B023
        else:
            zm.remove_guard(a)
    for x in zones:
        for y in zones:
            assert zm.distance(x, y) == zm.distance(y, x)
    roundtrip(zm)


# --------------------------------------------------------------------------- track, ladder, pool


@FAST
@given(st.integers(2, 6), st.lists(st.integers(-20, 20), max_size=20))
def test_track_moves_stay_on_scale(length: int, moves: list[int]) -> None:
    track = Track.centred(length)
    for m in moves:
        track.move(m)
        assert 1 <= track.position <= track.length
    roundtrip(track)


@FAST
@given(st.lists(st.tuples(st.sampled_from(["take", "remove"]), st.integers(-3, 14)), max_size=25))
def test_ladder_ops_never_raise(ops: list[tuple[str, int]]) -> None:
    ladder = ladder_from_spec(
        [("grazed", 2, 0, 0), ("wounded", 2, 3, -1, True), ("impaired", 1, 6, -2), ("x", 1, 9, -4)]
    )
    for op, value in ops:
        if op == "take":
            ladder.take(value, f"v{value}")
        else:
            attempt(ladder.check_remove, ladder.remove_highest)
        for i, level in enumerate(ladder.levels):
            assert ladder.count(i) <= level.slots
    roundtrip(ladder)


@FAST
@given(
    st.integers(0, 30),
    st.lists(st.tuples(st.sampled_from(["dmg", "heal", "spend", "set"]), st.integers(-5, 40))),
)
def test_pool_ops_stay_in_bounds(maximum: int, ops: list[tuple[str, int]]) -> None:
    pool = ResourcePool(current=maximum, maximum=maximum)
    for op, n in ops:
        if op == "dmg":
            pool.damage(n)
        elif op == "heal":
            pool.heal(n)
        elif op == "set":
            pool.set(n)
        else:
            attempt(lambda: pool.check_spend(n), lambda: pool.spend(n))  # noqa: B023
        assert pool.floor <= pool.current <= pool.maximum
    roundtrip(pool)


@pytest.mark.parametrize(
    "obj",
    [
        Countdown(declarations={"ada": [7, 1]}, queue=[Slot("ada", 7)], position=0),
        AlternatingSides.setup(["pcs", "npcs"], "npcs", {"a": "pcs", "b": "npcs"}, {"b": 2}),
        Popcorn(members=["a", "b"], gone=["a"], current="a", actions_left=1, openers=["a"]),
        RangeBands(actors=["a", "b"], bands={"a|b": 2}, hidden={"a": ["b"]}),
        Track.centred(3),
        ladder_from_spec([("worn", 1, 0, 0), ("damaged", 1, 3, -1)]),
        ResourcePool(current=3, maximum=10),
    ],
)
def test_pydantic_roundtrip_examples(obj: Any) -> None:
    roundtrip(obj)


def test_pydantic_roundtrip_zone_map_and_ladder_state() -> None:
    zm = ZoneMap()
    zm.add_zone("a", "Hall", "long")
    zm.add_zone("b")
    zm.link("a", "b")
    zm.place("ada", "a")
    zm.place_guard(link_key("a", "b"), "gob")
    roundtrip(zm)
    ladder: ConditionLadder = ladder_from_spec([("g", 1, 0, 0)])
    ladder.take(5, "cut")
    ladder.take(5, "stab")
    assert ladder.taken_out
    roundtrip(ladder)
