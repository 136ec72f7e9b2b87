"""The rules-agnostic conflict engine: state, commands, events, log, undo, views.

See ARCHITECTURE.md for the path of a command through it.
"""

from fracas.engine.commands import Command, CommandSet, CommandSpec, Param
from fracas.engine.conflict import Conflict, command_set, counting_records, evolve, fold
from fracas.engine.context import DecideContext
from fracas.engine.events import Event, Record
from fracas.engine.model import (
    ConflictState,
    Kind,
    Participant,
    Status,
    TimedEffect,
    Viewer,
    Visibility,
)
from fracas.engine.ruleset import Rule, Ruleset, load_rules
from fracas.engine.setup import ParticipantSetup, Setup

__all__ = [
    "Command",
    "CommandSet",
    "CommandSpec",
    "Conflict",
    "ConflictState",
    "DecideContext",
    "Event",
    "Kind",
    "Param",
    "Participant",
    "ParticipantSetup",
    "Record",
    "Rule",
    "Ruleset",
    "Setup",
    "Status",
    "TimedEffect",
    "Viewer",
    "Visibility",
    "command_set",
    "counting_records",
    "evolve",
    "fold",
    "load_rules",
]
