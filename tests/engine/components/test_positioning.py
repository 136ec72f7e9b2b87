"""Tests for range bands, the zone map and the chase track."""

from __future__ import annotations

import itertools

import pytest

from fracas.engine.components import Band, RangeBands, Track, ZoneMap, link_key, pair_key
from fracas.errors import IllegalCommand, InvalidInput

# --------------------------------------------------------------------------- ranges


def _ranges() -> RangeBands:
    rb = RangeBands()
    rb.add("ada")
    rb.add("bruno", Band.CLOSE)
    rb.add("cy", {"ada": Band.DISTANT, "bruno": Band.NEAR})
    return rb


def test_pair_key_sorted_and_symmetric() -> None:
    rb = _ranges()
    assert pair_key("zed", "ada") == "ada|zed"
    assert rb.bands == {"ada|bruno": 0, "ada|cy": 2, "bruno|cy": 1}
    rb.set("cy", "ada", Band.CLOSE)
    assert rb.get("ada", "cy") == rb.get("cy", "ada") == Band.CLOSE
    assert rb.pairs() == [("ada", "bruno", 0), ("ada", "cy", 0), ("bruno", "cy", 1)]
    assert rb.get("ada", "ada") == Band.CLOSE


def test_get_unknown_pair_raises() -> None:
    with pytest.raises(InvalidInput):
        _ranges().get("ada", "zed")


def test_step_past_distant_refused() -> None:
    rb = _ranges()
    with pytest.raises(IllegalCommand) as err:
        rb.check_step("ada", "cy", +1, rule="ES-RNG-4")
    assert "Distant" in str(err.value) and err.value.rule == "ES-RNG-4"
    with pytest.raises(IllegalCommand, match="Close"):
        rb.check_step("ada", "bruno", -1, rule="ES-RNG-4")
    with pytest.raises(IllegalCommand):
        rb.check_step("ada", "bruno", 2)
    rb.check_step("ada", "cy", -1)
    rb.step("ada", "cy", -1)
    assert rb.get("ada", "cy") == Band.NEAR
    rb.step("ada", "cy", +5)  # mutator clamps
    assert rb.get("ada", "cy") == Band.DISTANT


def test_step_against_hidden_refused() -> None:
    rb = _ranges()
    rb.hide("cy", "ada")
    assert rb.is_hidden("cy", "ada") and not rb.is_hidden("ada", "cy")
    with pytest.raises(IllegalCommand) as err:
        rb.check_step("ada", "cy", -1, rule_hidden="ES-RNG-5")
    assert err.value.rule == "ES-RNG-5"
    rb.check_step("cy", "ada", -1)  # the hidden one may step its underlying band


def test_hide_reveal_keeps_band() -> None:
    rb = _ranges()
    rb.hide("cy", "ada")
    rb.hide("cy", "ada")
    assert rb.hidden == {"cy": ["ada"]}
    rb.reveal("cy", "ada")
    assert rb.get("ada", "cy") == Band.DISTANT and rb.hidden == {}
    rb.hide("cy", "ada")
    rb.reveal("cy", "ada", Band.CLOSE)
    assert rb.get("ada", "cy") == Band.CLOSE


def test_hidden_from_all() -> None:
    rb = _ranges()
    rb.hide("cy", "ada")
    assert not rb.hidden_from_all("cy", ["ada", "bruno"])
    rb.hide("cy", "bruno")
    assert rb.hidden_from_all("cy", ["ada", "bruno", "cy"])
    assert not rb.hidden_from_all("cy", [])


def test_remove_clears_bands_and_hidden() -> None:
    rb = _ranges()
    rb.hide("cy", "ada")
    rb.hide("ada", "bruno")
    rb.remove("ada")
    assert rb.actors == ["bruno", "cy"]
    assert rb.bands == {"bruno|cy": 1}
    assert rb.hidden == {}


def test_range_checks() -> None:
    rb = _ranges()
    with pytest.raises(InvalidInput):
        rb.check_band(3)
    with pytest.raises(InvalidInput):
        rb.check_add("a|b")
    with pytest.raises(IllegalCommand):
        rb.check_add("ada")
    with pytest.raises(InvalidInput):
        rb.check_step("ada", "ada", 1)
    assert Band.NEAR.title == "Near"


# --------------------------------------------------------------------------- zones


def _map() -> ZoneMap:
    zm = ZoneMap()
    for z in "abcde":
        zm.add_zone(z, name=z.upper())
    zm.add_zone("island")
    zm.link("a", "b")
    zm.link("b", "c")
    zm.link("c", "d")
    zm.link("a", "e")
    zm.link("e", "d")
    return zm


def test_zone_bfs_distances() -> None:
    zm = _map()
    assert zm.distance("a", "a") == 0
    assert zm.distance("a", "b") == 1
    assert zm.distance("a", "c") == 2
    assert zm.distance("a", "d") == 2  # via e
    assert zm.distance("b", "d") == 2
    assert zm.path("a", "d") == ["a", "e", "d"]
    assert zm.neighbours("a") == ["b", "e"]


def test_every_shortest_path_in_order_of_the_sorted_neighbours() -> None:
    zm = _map()
    zm.link("b", "e")
    assert zm.shortest_paths("b", "d") == [["b", "c", "d"], ["b", "e", "d"]]
    assert zm.shortest_paths("a", "a") == [["a"]]
    assert zm.shortest_paths("a", "island") == [] and zm.shortest_paths("a", "nowhere") == []
    assert zm.shortest_paths("b", "d", limit=1) == [["b", "c", "d"]]
    assert all(len(p) - 1 == zm.distance(p[0], p[-1]) for p in zm.shortest_paths("a", "c"))


def test_shortest_paths_are_bounded_on_a_map_with_very_many() -> None:
    zm = ZoneMap()  # a ladder of 7 rungs, two zones each: 2**7 = 128 ways across
    rungs = [["start"], *[[f"{i}a", f"{i}b"] for i in range(7)], ["end"]]
    for rung in rungs:
        for z in rung:
            zm.add_zone(z)
    for here, there in itertools.pairwise(rungs):
        for z1 in here:
            for z2 in there:
                zm.link(z1, z2)
    paths = zm.shortest_paths("start", "end")
    assert len(paths) == 64 and len({tuple(p) for p in paths}) == 64  # at most 64, distinct
    assert len(zm.shortest_paths("start", "end", limit=200)) == 128


def test_zone_unreachable() -> None:
    zm = _map()
    assert zm.distance("a", "island") is None
    assert zm.distance("a", "nowhere") is None
    zm.place("ada", "a")
    with pytest.raises(IllegalCommand, match="no way"):
        zm.check_move("ada", "island", 5)


def test_zone_moves() -> None:
    zm = _map()
    zm.place("ada", "a")
    zm.place("gob", "a")
    assert zm.occupants("a") == ["ada", "gob"]
    zm.check_move("ada", "b", 1)
    with pytest.raises(IllegalCommand, match="at most 1") as err:
        zm.check_move("ada", "c", 1, rule="VR-MOVE-1")
    assert err.value.rule == "VR-MOVE-1"
    zm.check_move("ada", "c", 2)
    with pytest.raises(IllegalCommand, match="at most 1"):  # a move is one zone unless said
        zm.check_move("ada", "c")
    with pytest.raises(InvalidInput):
        zm.check_move("ada", "zz")
    with pytest.raises(IllegalCommand):
        zm.check_move("ada", "a")
    with pytest.raises(IllegalCommand):
        zm.check_move("nobody", "a")
    zm.move("ada", "c")
    assert zm.zone_of("ada") == "c" and zm.zone_of("nobody") is None


def test_zone_guards() -> None:
    zm = _map()
    key = link_key("b", "a")
    assert key == "a|b"
    zm.check_guard(key)
    with pytest.raises(InvalidInput):
        zm.check_guard("a|c")
    zm.place_guard(key, "gob")
    zm.place_guard(link_key("b", "c"), "orc")
    zm.place_guard(link_key("b", "c"), "gob")
    assert zm.guards_between("b", "a") == ["gob"]
    assert zm.guards_on_path(["a", "b", "c"]) == ["gob", "orc"]
    zm.remove_guard("gob", key)
    assert zm.guards_between("a", "b") == []
    zm.remove_guard("gob")
    assert zm.guards == {"b|c": ["orc"]}
    zm.remove_actor("orc")
    assert zm.guards == {}


def test_zone_checks() -> None:
    zm = _map()
    with pytest.raises(InvalidInput):
        zm.check_new_zone("a")
    with pytest.raises(InvalidInput):
        zm.check_new_zone("x|y")
    with pytest.raises(InvalidInput):
        zm.check_link("a", "a")
    zm.unlink("a", "e")
    assert zm.distance("a", "d") == 3


# --------------------------------------------------------------------------- track


@pytest.mark.parametrize(("length", "size", "start"), [(2, 5, 3), (4, 9, 5), (6, 13, 7)])
def test_centred_sizes(length: int, size: int, start: int) -> None:
    track = Track.centred(length)
    assert (track.length, track.position) == (size, start)
    assert track.centre() == start


def test_track_clamps() -> None:
    track = Track.centred(2)
    assert track.move(-1) == -1 and track.position == 2
    assert track.move(-5) == -1 and track.at_bottom
    assert track.move(+10) == 4 and track.at_top and track.position == 5
    assert Track.centred(3, start=99).position == 7
    with pytest.raises(InvalidInput):
        track.check_position(6)
