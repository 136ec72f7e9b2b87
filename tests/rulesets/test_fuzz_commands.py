"""Any command thrown at any ruleset, well-formed or not, is either applied or refused with
fracas's own error — never a crash — and a refused one changes nothing. An applied one leaves a
state that every viewer's view and log can show (a value stored that no view can read would
break every later screen of the conflict)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.engine import Command, Conflict, Viewer
from fracas.engine.commands import Param
from fracas.engine.serialize import state_to_data
from fracas.engine.views import log_view, view
from fracas.errors import FracasError, InternalError

SCENARIOS = sorted(bundled_scenarios())
#: Examples per scenario; FUZZ_N=600 for a longer hunt than CI's.
EXAMPLES = int(os.environ.get("FUZZ_N", "40"))
_cache: dict[str, list[Any]] = {}


def played(name: str) -> Conflict:
    """The scenario's conflict after its script (records cached; a fresh Conflict each time)."""
    if name not in _cache:
        c = play_script(load_scenario(name), "fuzz")
        _cache[name] = [c.ruleset, c.seed, c.records]
    ruleset, seed, records = _cache[name]
    return Conflict(ruleset, seed, records)


#: Shapes past the limits of docs/limits.md: each must be refused with a sentence.
HOSTILE_TEXT = st.sampled_from(["a\x00b", "Eve\u202e", "\x1b[31m", "", "x" * 10_001])
HOSTILE_VALUES = st.one_of(
    HOSTILE_TEXT, st.sampled_from([9.2e18, 2**63, -(10**7), True]),
    st.integers(1, 80).map(lambda n: json_nest(n)),
    st.dictionaries(st.sampled_from(["zone", "strength", "hp", "physical", "name"]),
                    st.sampled_from([True, 9.2e18, "nowhere", "\x00", None]), max_size=3),
)


def json_nest(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def values(param: Param, ids: list[str]) -> st.SearchStrategy[Any]:
    words = st.sampled_from([*ids, "nobody", "x", "near", "toward", "away", "close", "1"])
    kind = param.kind
    if kind == "int":
        return st.one_of(st.integers(-3, 30), st.sampled_from([2**63, -(10**7)]))
    if kind in ("ints", "dice"):
        return st.lists(st.integers(-1, 13), min_size=1, max_size=5)
    if kind == "id":
        return st.sampled_from([*ids, "nobody", "gm", "public"])
    if kind == "ids":
        return st.lists(st.sampled_from([*ids, "nobody"]), min_size=1, max_size=3)
    if kind == "choice":
        return st.sampled_from(param.choices)
    if kind == "bool":
        return st.booleans()
    if kind == "text":
        return st.one_of(st.text(max_size=12), HOSTILE_TEXT)
    if kind == "value":
        return st.one_of(st.integers(-5, 50), st.sampled_from([101, 1001, 10**6]),
                         st.text(max_size=5), st.booleans(),
                         st.dictionaries(st.sampled_from(["hp", "dex", "physical"]),
                                         st.integers(0, 20), max_size=2), HOSTILE_VALUES)
    return words


@st.composite
def commands(draw: st.DrawFn, conflict: Conflict) -> Command:
    specs = list(conflict.commands.specs.values())
    spec = draw(st.sampled_from(specs))
    ids = list(conflict.state.innermost.participants)
    args = {}
    for p in spec.params:
        if p.required or draw(st.booleans()):
            args[p.name] = draw(values(p, ids))
    if spec.verb == "override" and draw(st.booleans()):  # a path the GM can see
        args["path"] = draw(st.sampled_from(override_paths(conflict)))
    actor = None if spec.actor == "gm" else draw(st.sampled_from([*ids, None]))
    return Command(spec.verb, actor, args)


def override_paths(conflict: Conflict) -> list[str]:
    """The paths of the values in ``fracas show --json`` (a participant's also by its id:
    ``ada.stats.hp``)."""
    def leaves(value: Any, path: tuple[str, ...]) -> list[str]:
        if isinstance(value, dict) and value:
            return [leaf for k, v in value.items() for leaf in leaves(v, (*path, str(k)))]
        return [".".join(path)]
    out = leaves(state_to_data(conflict.state), ())
    return out + [p.removeprefix("participants.") for p in out if p.startswith("participants.")]


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_commands_are_applied_or_refused_cleanly(name: str, data: st.DataObject) -> None:
    c = played(name)
    for _ in range(data.draw(st.integers(1, 6))):
        cmd = data.draw(commands(c))
        before, version = state_to_data(c.state), c.version
        try:
            c.execute(cmd)
        except FracasError as exc:
            assert str(exc) and not isinstance(exc, InternalError), exc
            assert c.version == version and state_to_data(c.state) == before, cmd
        else:
            shown(c)
    assert state_to_data(c.replay()) == state_to_data(c.state)


def shown(c: Conflict) -> None:
    """Every viewer's view and log, and every actor's legal commands, made without an error."""
    players = sorted({p.owner for p in c.state.participants.values() if p.owner})
    for viewer in [Viewer.gm(), Viewer.public(), *map(Viewer.of_player, players)]:
        assert isinstance(view(c, viewer), dict)
        log_view(c, viewer)
    for actor in [None, *c.state.innermost.participants]:
        c.legal_commands(actor)


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=5 * EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_override_of_any_value_is_refused_or_leaves_a_conflict_every_viewer_sees(
        name: str, data: st.DataObject) -> None:
    c = played(name)
    path = data.draw(st.sampled_from(override_paths(c)))
    value = data.draw(st.one_of(st.sampled_from([0, 3, -1, 1001, "x", "near", "none", True,
                                                 [], {}, [1], ["x"]]),
                                values(Param("value", "value"), list(c.state.participants))))
    version = c.version
    try:
        c.execute(Command("override", None, {"path": path, "value": value}))
    except FracasError as exc:
        assert not isinstance(exc, InternalError), exc
        assert c.version == version
    else:
        shown(c)


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=40)
@given(text=st.text(max_size=40))
def test_random_text_is_parsed_or_refused_cleanly(name: str, text: str) -> None:
    c = played(name)
    version = c.version
    try:
        c.execute(text)
    except FracasError as exc:
        assert not isinstance(exc, InternalError), exc
        assert c.version == version
