"""JSON schemas of the engine's public forms, generated from the models: commands (from each
ruleset's :class:`~fracas.engine.commands.CommandSpec` data), events (from the typed event
classes), legal commands and errors — for the server, the browser table and other tools."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import TypeAdapter

from fracas.engine.commands import KINDS, CommandSet, Param
from fracas.engine.events import ENGINE_EVENTS, EventTypes, TypedEvent, event_fields

DIALECT = "https://json-schema.org/draft/2020-12/schema"

_KIND_SCHEMAS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "ints": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
    "dice": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
    "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_\\-]*$"},
    "ids": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_\\-]*$"},
            "minItems": 1},
    "new-id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_\\-]*$"},
    "keys": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_\\-]*$"},
             "minItems": 1},
    "word": {"type": "string", "pattern": "^\\S+$"},
    "zone": {"type": "string", "pattern": "^\\S+$"},
    "text": {"type": "string"},
    "bool": {"type": "boolean"},
    "value": {},
}


def param_schema(param: Param) -> dict[str, Any]:
    """The JSON schema of one command parameter's value."""
    out = dict(_KIND_SCHEMAS.get(param.kind, {}))
    if param.kind == "choice":
        out = {"enum": list(param.choices)}
    out["description"] = param.help or KINDS.get(param.kind, param.kind)
    if param.unset:
        out["description"] += f"; left out: {param.unset}"
    return out


def commands_schema(commands: CommandSet) -> dict[str, Any]:
    """The JSON form of every command (``{"actor", "verb", "args"}``), one branch per verb."""
    branches = []
    for spec in commands.specs.values():
        args = {p.name: param_schema(p) for p in spec.params}
        branch: dict[str, Any] = {
            "type": "object",
            "title": spec.verb,
            "description": spec.summary + (f" ({spec.rule})" if spec.rule else ""),
            "properties": {
                "verb": {"const": spec.verb},
                "actor": {"type": "null"} if spec.actor == "gm" else (
                    {"type": "string"} if spec.actor == "required"
                    else {"type": ["string", "null"]}),
                "args": {"type": "object", "properties": args,
                         "required": [p.name for p in spec.params if p.required],
                         "additionalProperties": False},
            },
            "required": ["verb", "args"] + (["actor"] if spec.actor == "required" else []),
        }
        branches.append(branch)
    return {"$schema": DIALECT, "title": "fracas command", "oneOf": branches}


def _value_schema(hint: Any) -> dict[str, Any]:
    """The JSON schema of a field's value as it is written (value classes by their own
    ``json_schema``, tuples as arrays)."""
    if getattr(hint, "__metadata__", None):
        hint = typing.get_args(hint)[0]
    own = getattr(hint, "json_schema", None)
    if callable(own):
        schema: dict[str, Any] = own()
        return schema
    if isinstance(hint, type) and issubclass(hint, TypedEvent):  # a nested check: its data
        return _data_schema(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": _value_schema(args[0])}
    if origin is tuple and args:
        return {"type": "array", "prefixItems": [_value_schema(a) for a in args],
                "minItems": len(args), "maxItems": len(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_value_schema(a) for a in args]}
    schema = TypeAdapter(hint).json_schema()
    schema.pop("title", None)
    if "$defs" in schema:  # a structure without a JSON form of its own: any JSON value
        return {"description": str(getattr(hint, "__name__", hint))}
    return schema


def _data_schema(cls: type[TypedEvent]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return {"type": "object",
            "properties": {key: _value_schema(hints[name]) for name, key, _ in event_fields(cls)},
            "additionalProperties": "extra" in hints}


def event_schema(cls: type[TypedEvent]) -> dict[str, Any]:
    """The JSON form of one typed event class."""
    return {
        "type": "object",
        "title": cls.TYPE,
        "description": (cls.__doc__ or "").strip().split("\n\n")[0],
        "properties": {
            "type": {"const": cls.TYPE},
            "data": _data_schema(cls),
            "actor": {"type": ["string", "null"]},
            "visibility": {"enum": ["public", "gm", "owner"]},
        },
        "required": ["type", "data"],
    }


def events_schema(types: EventTypes = ENGINE_EVENTS) -> dict[str, Any]:
    """The JSON form of every typed event of ``types`` (a ruleset's and the engine's)."""
    classes = types.classes()
    return {"$schema": DIALECT, "title": f"fracas event ({types.name})",
            "oneOf": [event_schema(classes[tag]) for tag in sorted(classes)]}


def legal_schema() -> dict[str, Any]:
    """The JSON form of a legal command (:meth:`LegalCommand.to_data`)."""
    choice = {"type": "object", "properties": {
        "name": {"type": "string"}, "kind": {"enum": sorted(KINDS)},
        "allowed": {"type": ["array", "null"]}, "required": {"type": "boolean"},
        "fixed": {}, "suggested": {"type": "array"}},
        "required": ["name", "kind", "allowed", "required", "fixed", "suggested"]}
    return {"$schema": DIALECT, "title": "fracas legal command", "type": "object",
            "properties": {"verb": {"type": "string"}, "actor": {"type": ["string", "null"]},
                           "rule": {"type": ["string", "null"]}, "text": {"type": "string"},
                           "params": {"type": "array", "items": choice},
                           "summary": {"type": "string"}},  # the server's: what it does
            "required": ["verb", "actor", "rule", "text", "params"]}


def error_schema() -> dict[str, Any]:
    """The JSON form of a refusal (:meth:`fracas.errors.FracasError.to_dict`)."""
    return {"$schema": DIALECT, "title": "fracas error", "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                           "rule": {"type": ["string", "null"]}, "values": {"type": "object"}},
            "required": ["code", "message", "rule", "values"]}
