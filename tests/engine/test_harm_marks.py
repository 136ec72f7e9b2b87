"""Harm by structure: every event field that tells a participant's harm carries a mark.

Walks the engine's event registry and every ruleset's: each class either marks its harm
fields (:class:`~fracas.engine.secrets.Harm`, directly, in a nested typed value such as a VERS
check, or Etherscope's condenser marks, which judge the harm view too) or is listed here as
telling no harm — so a new harm event without a mark fails until it is marked (or shown to
tell none). A second test plays every bundled scenario and checks that each record changing
someone's harm holds a marked field about them, so a list here cannot lie either.
"""

from __future__ import annotations

import typing
from typing import Any

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.app.script import play_script
from fracas.engine.conflict import Conflict
from fracas.engine.engine_events import Override
from fracas.engine.events import ENGINE_EVENTS, TypedEvent, event_fields
from fracas.engine.model import Viewer
from fracas.engine.secrets import Harm
from fracas.engine.views import view
from fracas.rulesets import get_ruleset
from fracas.rulesets.etherscope.marks import Bases, Condenser, DefaultScore, DefaultSlots

pytestmark = pytest.mark.timeout(300)

#: The events that tell nobody's harm, by registry (the engine's, then each ruleset's).
HARMLESS: dict[str, set[str]] = {
    "the engine": {
        "conflict_created", "conflict_started", "conflict_ended", "round_ended", "turn_ended",
        "participant_joined", "participant_left", "participant_out",  # out: the band's "down"
        "note", "narration", "roll", "effect_added", "effect_expired", "zoom_opened",
        "zoom_closed", "undone", "redone", "gm_acts", "participant_concealed",
        "participant_revealed",
        "override",  # the GM's only (visibility gm): no player ever receives one
        "round_started", "turn_started",  # a ruleset's harm keys on them: its subclass's
    },
    "Etherscope": {
        "awareness_rolled", "ambush_resolved", "counter_rolled", "range_set", "range_changed",
        "group_formed", "group_dissolved", "group_left", "hidden", "revealed",
        "awareness_order", "mover_started", "mover_done", "awareness_moves_done", "tie_rolloff",
        "action_resolved", "zoom_opened",
    },
    "Fabula Ultima": {
        "goal_set", "extra_set", "side_assigned", "joined_turns", "initiative_checked", "action",
        "attack", "check", "status_changed", "fabula_changed", "item_equipped",
    },
    "VERS": {
        "zone_added", "zones_linked", "placed", "guard_posted", "guard_left", "cover_set",
        "object_added", "object_restored", "chase_started", "chase_stage", "chase_abandoned",
        "chase_tactics",
        "turn_ended",  # its "out" is the band's "down", told by participant_out anyway
    },
}
#: Marks that judge the harm view (the engine's, and Etherscope's condenser marks).
HARM_MARKS = (Harm, Condenser, DefaultSlots, DefaultScore, Bases)
REGISTRIES = [ENGINE_EVENTS, *(get_ruleset(n).events for n in ("etherscope", "fabula-ultima",
                                                                "vers"))]


def harm_fields(cls: type[TypedEvent]) -> list[str]:
    """The fields of ``cls`` marked as telling harm (a nested typed value's count)."""
    hints = typing.get_type_hints(cls)
    out = []
    for name, _, marks in event_fields(cls):
        nested = [t for t in (hints[name], *typing.get_args(hints[name]))
                  if isinstance(t, type) and issubclass(t, TypedEvent)]
        if any(isinstance(m, HARM_MARKS) for m in marks) or any(harm_fields(t) for t in nested):
            out.append(name)
    return out


@pytest.mark.parametrize("types", REGISTRIES, ids=lambda t: t.name)
def test_every_event_marks_its_harm_or_is_known_to_tell_none(types: Any) -> None:
    harmless = HARMLESS[types.name]
    shipped = {tag: cls for tag, cls in types.own.items()  # not the tests' own events
               if cls.__module__.startswith("fracas.")}
    unmarked = sorted(tag for tag, cls in shipped.items()
                      if tag not in harmless and not harm_fields(cls))
    assert unmarked == [], f"{types.name}: events with no harm mark: {unmarked}"
    marked = sorted(tag for tag in harmless if tag in shipped and harm_fields(shipped[tag]))
    assert marked == [], f"{types.name}: listed as harmless, yet marked: {marked}"
    assert harmless <= set(shipped), sorted(harmless - set(shipped))


def _harm(c: Conflict) -> dict[str, Any]:
    data = view(c, Viewer.gm())
    keys = c.ruleset.harm_keys
    return {p["id"]: {k: p.get(k) for k in keys if k != "summary"}
            for level in [data["conflict"], *data["zoom"]] for p in level["participants"]}


def _about(event: Any, pid: str) -> bool:
    """Whether a harm-marked field of ``event`` (or its nested values) is about ``pid``."""
    if not isinstance(event, TypedEvent):
        return False
    for name in harm_fields(type(event)):
        marks = dict((n, m) for n, _, m in event_fields(type(event)))[name]
        whos = [m.who for m in marks if isinstance(m, Harm)] or ["participant", "target",
                                                                  "who", "actor"]
        if any(pid in _ids(getattr(event, w, None) if w != "actor" else event.actor)
               for w in whos):
            return True
    return False


def _ids(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_each_record_that_changes_harm_holds_a_marked_field_about_it(name: str) -> None:
    played = play_script(load_scenario(name), "golden")
    records = list(played.records)
    c = Conflict(played.ruleset, "golden", records[:1])
    before = _harm(c)
    changed_by_marked = 0
    for record in records[1:]:
        c.append_record(record)
        after = _harm(c)
        for pid in after:
            if pid not in before or after[pid] == before[pid] or record.is_meta:
                continue
            events = list(record.events)
            assert any(isinstance(e, Override) for e in events) or any(
                _about(e, pid) for e in events), (name, record.command, pid)
            changed_by_marked += 1
        before = after
    assert changed_by_marked > 0 or name in NO_HARM, name


#: The bundled scenarios in which nobody is harmed (a chase).
NO_HARM = {"vers-chase"}
