"""Events have a compact text form that round-trips (DESIGN.md principle 9)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fracas.engine.events import Event
from tests.support.helpers import toy_conflict

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10,
)
keys = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)


@given(st.from_regex(r"[a-z][a-z_]{0,15}", fullmatch=True),
       st.dictionaries(keys, json_values, max_size=5),
       st.none() | st.sampled_from(["ada", "bruno-2"]),
       st.sampled_from(["public", "gm", "owner"]))
def test_any_event_round_trips_through_its_text_form(
    kind: str, data: dict[str, object], actor: str | None, visibility: str,
) -> None:
    event = Event(kind, data, actor, visibility)
    assert Event.from_text(event.to_text()) == event


def test_the_text_form_is_short_and_readable() -> None:
    c = toy_conflict()
    c.execute("start ada")
    c.execute("ada: hit gob dice=4")
    c.execute("note 'the door creaks' visibility=gm")
    lines = [e.to_text() for r in c.records[-2:] for e in r.events]
    assert lines == [
        'ada: hit target=gob roll=\'{"expression":"1d6","dice":[4],"total":4}\' damage=4',
        "note @gm text='the door creaks'",
    ]
