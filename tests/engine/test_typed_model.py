"""The typed model's foundations: typed events keep the JSON and text forms, marks on fields
redact what a viewer may not know, one decide pattern, structured legal commands."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any

import pytest

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.commands import Command, CommandSpec, Param
from fracas.engine.conflict import Conflict
from fracas.engine.context import DecideContext
from fracas.engine.events import (
    ENGINE_EVENTS,
    OMIT_NONE,
    Event,
    EventTypes,
    Key,
    Record,
    TypedEvent,
    event_type,
)
from fracas.engine.handlers import Decision, Handlers
from fracas.engine.legal import from_template
from fracas.engine.model import ConflictState, Participant, Viewer
from fracas.engine.ruleset import Ruleset
from fracas.engine.secrets import Derived, Modifier, Names, Setting, Stat, redact_marked
from fracas.errors import IllegalCommand
from fracas.rulesets import get_ruleset


@event_type("test_hit")
class Hit(TypedEvent):
    target: Annotated[str | None, Names()]
    mods: tuple[Modifier, ...] = ()
    ev: Annotated[int | None, Stat("actor", "weapons")] = None
    net: Annotated[int | None, Derived("ev", "mods")] = None
    tn: Annotated[int | None, Setting("base_tn")] = None
    from_: Annotated[str | None, Key("from"), OMIT_NONE] = None


@event_type("test_seen")
class Seen(TypedEvent):
    who: Annotated[str | None, Names(hide_event=True)]


def test_a_typed_event_has_the_json_and_text_form_of_the_same_generic_event() -> None:
    hit = Hit(target="thug", mods=(Modifier("reach", 1),), ev=5, net=4, actor="ada")
    generic = Event("test_hit", {"target": "thug", "mods": [["reach", 1]], "ev": 5, "net": 4,
                                 "tn": None}, "ada")
    assert hit.to_data() == generic.to_data()
    assert hit.to_text() == generic.to_text()


def test_stored_json_and_text_read_back_as_the_typed_event() -> None:
    hit = Hit(target="thug", mods=(Modifier("Thug's dodge", -2, "thug", "skills"),), ev=5,
              from_="bo", actor="ada", visibility="gm")
    assert Event.from_data(hit.to_data()) == hit
    assert Event.from_text(hit.to_text()) == hit
    record = Record(2, "ada: attack thug", (hit,))
    assert Record.from_data(record.to_data()).events == (hit,)
    assert ENGINE_EVENTS.get("test_hit") is Hit


def test_optional_keys_and_json_keys_are_written_as_before() -> None:
    assert "from" not in Hit(target="x").data
    assert Hit(target="x", from_="bo").data["from"] == "bo"


@event_type("test_turn")
class Turn(TypedEvent):
    participant: str
    extra: dict[str, Any] = field(default_factory=dict)


def test_an_engine_event_keeps_the_keys_a_ruleset_adds_after_its_own() -> None:
    turn = Turn(participant="ada", extra={"actions": 2, "opens": True})
    assert turn.to_text() == "turn_started participant=ada actions=2 opens=true".replace(
        "turn_started", "test_turn")
    assert Event.from_text(turn.to_text()) == turn


def test_two_rulesets_may_declare_the_same_tag_and_each_reads_its_own() -> None:
    first, second = EventTypes("first", ENGINE_EVENTS), EventTypes("second", ENGINE_EVENTS)

    @first.event("test_shared")
    class Mine(TypedEvent):
        hp: int

    @second.event("test_shared")
    class Theirs(TypedEvent):
        zone: str

    data = {"type": "test_shared", "data": {"zone": "bar"}}
    assert Event.from_data(data, second) == Theirs(zone="bar")
    assert type(Event.from_data(data)) is Event  # the engine does not know either
    record = Record.from_data({"version": 2, "command": "x", "events": [data]})
    assert record.typed(second).events == (Theirs(zone="bar"),)
    with pytest.raises(ValueError, match="declared twice"):
        first.event("test_hit")(Mine)  # an engine tag cannot be declared again


def test_unregistered_tags_stay_generic_events() -> None:
    event = Event.from_data({"type": "nobody_declared_this", "data": {"a": 1}})
    assert type(event) is Event and event.data == {"a": 1}


def test_data_that_does_not_fit_the_type_is_refused() -> None:
    with pytest.raises(ValueError, match="no field"):
        Event.from_data({"type": "test_hit", "data": {"target": "x", "bogus": 1}})


def test_a_secret_mark_on_a_field_that_cannot_be_masked_is_a_declaration_error() -> None:
    @event_type("test_badly_marked")
    class Bad(TypedEvent):
        ev: Annotated[int, Stat("actor", "weapons")]

    with pytest.raises(TypeError, match="must accept None"):
        Bad(ev=1)


def _state() -> ConflictState:
    return ConflictState(
        participants={"ada": Participant("ada", "Ada", owner="alice", gm_only=["weapons"]),
                      "thug": Participant("thug", "Thug", gm_only=["skills"]),
                      "lurk": Participant("lurk", "Lurker")},
        settings={"gm_only_settings": ["base_tn"]},
    )


def _can_see(pid: str) -> bool:
    return pid != "lurk"


def test_marks_mask_every_value_derived_from_a_secret_for_a_player() -> None:
    hit = Hit(target="thug", mods=(Modifier("Thug's close combat", -2, "thug", "skills"),
                                   Modifier("reach", 1)), ev=5, net=4, tn=10, actor="ada")
    seen = redact_marked(hit, _state(), Viewer.of_player("alice"), _can_see)
    assert isinstance(seen, Hit)
    assert seen.mods == (Modifier("Thug's close combat", None), Modifier("reach", 1))
    assert (seen.ev, seen.net, seen.tn) == (None, None, None)  # weapons, derived, setting
    assert seen.target == "thug"  # a character the player may know
    assert "skills" not in seen.to_text() and "-2" not in seen.to_text()


def test_a_value_derived_only_from_public_sources_is_shown() -> None:
    hit = Hit(target="thug", mods=(Modifier("reach", 1),), ev=5, net=4, actor="thug")
    seen = redact_marked(hit, _state(), Viewer.of_player("alice"), _can_see)
    assert seen is hit


def test_the_gm_sees_every_value() -> None:
    hit = Hit(target="lurk", ev=5, net=4, tn=10, actor="ada")
    assert redact_marked(hit, _state(), Viewer.gm(), lambda pid: False) is hit


def test_a_hidden_participant_is_masked_or_hides_the_event() -> None:
    masked = redact_marked(Hit(target="lurk"), _state(), Viewer.of_player("alice"), _can_see)
    assert isinstance(masked, Hit) and masked.target is None
    assert redact_marked(Seen(who="lurk"), _state(), Viewer.of_player("alice"), _can_see) is None


def test_generic_events_pass_the_marks_unchanged() -> None:
    event = Event("note", {"text": "hi"})
    assert redact_marked(event, _state(), Viewer.public(), _can_see) is event


# --- one decide pattern ----------------------------------------------------------------------
@event_type("test_counted")
class Counted(TypedEvent):
    by: int


class Counter(Ruleset):
    """A ruleset made only of handlers: ``count N`` adds N, refusing totals over 10."""

    name = "counter-test"
    commands = (CommandSpec("count", (Param("n", "int"),), actor="gm"),)
    handlers = Handlers()


@Counter.handlers.decides("count")
def _count(d: Decision, cmd: Command) -> None:
    d.fold(Counted(by=int(cmd.args["n"])))
    d.fold(Counted(by=int(cmd.args["n"])))
    if d.state.round > 10:
        raise IllegalCommand("too much")


@Counter.handlers.evolves(Counted)
def _counted(state: ConflictState, event: Counted) -> None:
    state.round += event.by


@Counter.handlers.describes(Counted)
def _say(event: Counted, state: ConflictState) -> str:
    return f"+{event.by}"


def test_handlers_fold_events_into_a_working_state_and_never_the_live_one() -> None:
    rs = Counter()
    live = ConflictState()
    ctx = DecideContext("seed", 1)
    events = rs.decide(live, Command("count", None, {"n": 2}), ctx)
    assert events == [Counted(by=2), Counted(by=2)] and live.round == 0
    with pytest.raises(IllegalCommand):
        rs.decide(live, Command("count", None, {"n": 6}), ctx)  # refused after two folds
    assert live.round == 0
    for e in events:
        rs.evolve(live, e)
    assert live.round == 4 and rs.describe(events[0], live) == "+2"


def test_a_verb_without_handler_is_refused_clearly() -> None:
    with pytest.raises(IllegalCommand, match="no command 'dance'"):
        Counter().decide(ConflictState(), Command("dance"), DecideContext("s", 1))


def test_two_handlers_for_one_verb_is_a_declaration_error() -> None:
    with pytest.raises(ValueError, match="two decide handlers"):
        Counter.handlers.decides("count")(_count)


# --- structured legal commands ---------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(bundled_scenarios()))
def test_every_legal_command_of_every_bundled_scenario_is_structured(name: str) -> None:
    """At every step of each bundled script, for the GM and every participant: each legal
    command reads as a structured value whose text is the template, and a concrete one (no
    value left to choose) is accepted by the engine's command reader as it stands."""
    sc = load_scenario(name)
    conflict = Conflict.create(get_ruleset(sc.setup.ruleset), sc.setup, "seed", time="")
    for line in [None, *sc.script]:
        if line is not None:
            conflict.execute(line.text, time="")
        for actor in [None, *conflict.state.innermost.participants]:
            texts = conflict.legal_commands(actor)
            legal = conflict.legal(actor)
            assert [c.text() for c in legal] == texts
            for c in legal:
                assert c.actor == actor or actor is None
                if all(p.is_fixed or not p.required for p in c.params):
                    cmd = conflict.to_command(c.command())
                    assert cmd.verb == c.verb


def test_a_template_reads_fixed_free_listed_and_ranged_values() -> None:
    rs = get_ruleset("vers")
    conflict = Conflict.create(rs, load_scenario("vers-tavern-brawl").setup, "s", time="")
    lc = from_template(conflict.commands, "chase c1 hunter=WHO quarry=ada length=2..6")
    assert lc.verb == "chase" and lc.actor is None
    assert lc.choice("id").fixed == "c1"
    assert lc.choice("hunter").fixed is None and lc.choice("hunter").placeholder == "WHO"
    assert lc.choice("quarry").fixed == "ada"
    assert lc.choice("length").allowed == (2, 3, 4, 5, 6)
    assert lc.command(hunter="thug", length=3) == {
        "actor": None, "verb": "chase",
        "args": {"id": "c1", "hunter": "thug", "quarry": "ada", "length": 3}}
    with pytest.raises(Exception, match="length must be one of"):
        lc.command(length=9)


def test_a_template_keeps_every_word_of_a_fixed_free_text() -> None:
    rs = get_ruleset("vers")
    conflict = Conflict.create(rs, load_scenario("vers-tavern-brawl").setup, "s", time="")
    lc = from_template(conflict.commands, "narrate the door creaks open slowly")
    assert lc.choice("text").fixed == "the door creaks open slowly"
    assert conflict.to_command(lc.command()).args["text"] == "the door creaks open slowly"


def test_the_handler_decorators_return_the_function_they_register() -> None:
    table = Handlers()

    def decide(d: Decision, cmd: Command) -> None:
        """A decide handler."""

    def evolve(state: ConflictState, event: Event) -> None:
        """An evolve handler."""

    def say(event: Event, state: ConflictState) -> str:
        return "said"

    assert table.decides("wave")(decide) is decide  # still callable and decoratable by name
    assert table.evolves(Event)(evolve) is evolve
    assert table.describes(Event)(say) is say
    assert table.verbs == frozenset({"wave"})
