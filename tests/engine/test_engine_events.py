"""The engine's own events are typed: every tag it emits has a class, each reads and writes
the JSON and text forms unchanged, old exports replay, and `fracas schema` lists them."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.cli import app
from fracas.engine import events as tags
from fracas.engine.conflict import Conflict, fold
from fracas.engine.events import ENGINE_EVENTS, Event, Record, TypedEvent
from fracas.engine.serialize import state_to_data
from fracas.errors import FracasError
from fracas.rulesets import get_ruleset
from tests.support.helpers import as_stored_before

#: Every event type the engine itself emits (the tag constants of fracas.engine.events).
ENGINE_TAGS = sorted(v for k, v in vars(tags).items()
                     if k.isupper() and not k.startswith("_") and isinstance(v, str))
EXTRA = ["note 'a GM aside' visibility=gm", "roll 2d6+1 why=luck",
         "effect rain until=round_end count=2", "override round_limit 40 reason=longer",
         "undo", "redo"]


def test_every_engine_event_type_has_a_typed_class() -> None:
    classes = ENGINE_EVENTS.classes()
    assert set(ENGINE_TAGS) <= set(classes)
    assert all(issubclass(classes[t], TypedEvent) and t == classes[t].TYPE for t in ENGINE_TAGS)


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_event_of_a_played_scenario_round_trips_json_and_text_as_its_class(
        name: str) -> None:
    c = play_script(load_scenario(name), "seed")
    for line in EXTRA:
        with contextlib.suppress(FracasError):  # an effect once the conflict has ended
            c.execute(line)
    types = c.ruleset.events
    seen = set()
    for record in c.records:
        for event in record.events:
            assert isinstance(event, TypedEvent), event.type
            again = Event.from_data(json.loads(json.dumps(event.to_data())), types)
            assert type(again) is type(event) and again == event
            assert again.to_data() == event.to_data()
            text = Event.from_text(event.to_text(), types)
            assert type(text) is type(event) and text.to_text() == event.to_text()
            seen.add(event.type)
    assert {"conflict_created", "note", "roll", "override", "undone", "redone"} <= seen


def test_conflicts_exported_by_main_at_7233ce4_load_write_the_same_json_and_replay() -> None:
    """Records written before the engine's events were typed (every bundled scenario, with a
    secret note, a roll, an effect, an override, an undo and a redo) read back typed, write
    the same JSON and fold to the state that version had."""
    path = Path(__file__).parent / "data" / "exported-by-main-7233ce4.json"
    for name, data in json.loads(path.read_text(encoding="utf-8")).items():
        ruleset = get_ruleset(data["ruleset"])
        records = [Record.from_data(r, ruleset.events) for r in data["records"]]
        assert [r.to_data() for r in records] == data["records"], name
        assert all(isinstance(e, TypedEvent) for r in records for e in r.events), name
        conflict = Conflict(ruleset, "seed", records)
        for state in (fold(ruleset, records), conflict.state):
            got = as_stored_before(json.loads(json.dumps(state_to_data(state))))
            if data["ruleset"] == "vers":  # the count of openers left to the log came later
                assert got["ext"]["turns"].pop("openers_before") == 0, name
                for obj in got["ext"]["objects"].values():  # so did an object's zone
                    assert obj.pop("zone") is None, name
                for chase in got["ext"]["chases"].values():  # and the GM's tactics
                    assert (chase.pop("tactics"), chase.pop("tactics_why")) == (0, ""), name
            if data["ruleset"] == "fabula-ultima":  # and the spells on a sheet
                assert not any(got["ext"].pop("spells").values()), name
            if data["ruleset"] == "etherscope":  # so did the pools of the awareness rolls
                rolled = [e.data for r in records for e in r.events
                          if e.type == "awareness_rolled" and e.data.get("pool") is not None]
                assert got["ext"].pop("awareness_pools") == {
                    d["participant"]: d["pool"] for d in rolled}, name
                assert got["ext"].pop("awareness_skills") == {
                    d["participant"]: d.get("skill", "") for d in rolled}, name
            assert got == data["state"], name
        # read with the engine's types only (a store's first reading): the same JSON too
        plain = [Record.from_data(r) for r in data["records"]]
        assert [r.to_data() for r in plain] == data["records"], name


def test_fracas_schema_lists_the_engine_events() -> None:
    out = CliRunner().invoke(app, ["schema", "events"])
    assert out.exit_code == 0, out.output
    titles = {branch["title"] for branch in json.loads(out.output)["oneOf"]}
    assert set(ENGINE_TAGS) <= titles
    turn = next(b for b in json.loads(out.output)["oneOf"] if b["title"] == "turn_started")
    assert "participant" in turn["properties"]["data"]["properties"]


def _every_event_class() -> list[type[TypedEvent]]:
    out: dict[str, type[TypedEvent]] = {}
    for name in ("etherscope", "fabula-ultima", "vers"):
        out.update({f"{name}:{t}": c for t, c in get_ruleset(name).events.classes().items()})
    return list(out.values())


@pytest.mark.parametrize("cls", _every_event_class(), ids=lambda c: c.__qualname__)
def test_every_event_class_is_made_as_its_declaration_says(cls: type[TypedEvent]) -> None:
    """Its tag, each value given, each default, a fresh value of each default factory, a
    refusal of a missing or an unknown field, and no change after it is made."""
    fields = [f for f in dataclasses.fields(cls) if f.init and f.name not in ("actor",
                                                                           "visibility")]
    required = {f.name: f"v-{f.name}" for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    event = cls(**required, actor="ada", visibility="gm")
    assert (event.type, event.actor, event.visibility) == (cls.TYPE, "ada", "gm")
    for f in fields:
        if f.name in required:
            assert getattr(event, f.name) == required[f.name]
        elif f.default is not dataclasses.MISSING:
            assert getattr(event, f.name) == f.default
        else:
            made = f.default_factory()  # type: ignore[misc]
            assert getattr(event, f.name) == made
            if isinstance(made, dict | list):  # each event its own
                assert getattr(event, f.name) is not getattr(cls(**required), f.name)
    assert cls(**required) == cls(**required)
    if required:
        with pytest.raises(TypeError):
            cls(**dict(list(required.items())[1:]))
    with pytest.raises(TypeError):
        cls(**required, no_such_field=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.actor = "bruno"  # type: ignore[misc]
