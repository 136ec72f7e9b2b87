"""`fracas schema`: the JSON schemas describe the forms the engine really reads and writes."""

from __future__ import annotations

import json

import jsonschema
import pytest
from typer.testing import CliRunner

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.cli import app
from fracas.engine.conflict import command_set
from fracas.engine.events import TypedEvent
from fracas.engine.schema import commands_schema, events_schema, legal_schema
from fracas.rulesets import get_ruleset


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_command_event_and_legal_command_of_a_bundled_script_fits_its_schema(
        name: str) -> None:
    sc = load_scenario(name)
    conflict = play_script(sc, "seed")
    commands = jsonschema.Draft202012Validator(commands_schema(conflict.commands))
    events = jsonschema.Draft202012Validator(events_schema())
    legal = jsonschema.Draft202012Validator(legal_schema())
    for record in conflict.records[1:]:
        if record.is_meta:
            continue
        commands.validate(conflict.to_command(record.command).to_data())
        for event in record.events:
            if isinstance(event, TypedEvent):
                events.validate(event.to_data())
    for actor in [None, *conflict.state.innermost.participants]:
        for lc in conflict.legal(actor):
            legal.validate(lc.to_data())


def test_a_command_the_engine_refuses_for_its_shape_does_not_fit_the_schema() -> None:
    schema = commands_schema(command_set(get_ruleset("etherscope")))
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({"actor": "ada", "verb": "declare", "args": {"scores": "x"}})
    assert not validator.is_valid({"verb": "no-such-verb", "args": {}})
    assert validator.is_valid({"actor": "ada", "verb": "declare", "args": {"scores": [7, 1]}})


def test_fracas_schema_prints_json_and_refuses_unknown_parts() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["schema", "commands", "--ruleset", "vers"])
    assert out.exit_code == 0 and "attack" in {b["title"] for b in json.loads(out.output)["oneOf"]}
    bad = runner.invoke(app, ["schema", "views"])
    assert bad.exit_code == 2 and "no schema 'views'" in bad.output
