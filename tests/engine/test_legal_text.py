"""How a legal command reads as text (what `fracas play` completes, what the browser table and
the server's legal commands show as ``text``): fixed values, placeholders, listed values,
ranges of whole numbers, and a free value without a placeholder; and templates whose words
happen to be a parameter's name."""

from __future__ import annotations

import re

import pytest

from fracas.app.scenario import load_scenario
from fracas.engine.commands import CommandSet
from fracas.engine.conflict import Conflict
from fracas.engine.legal import Choice, LegalCommand, from_template, hidden_words
from fracas.rulesets import get_ruleset


@pytest.fixture(scope="module")
def commands() -> CommandSet:
    """The VERS commands (attack, chase, narrate …) of a bundled table."""
    conflict = Conflict.create(get_ruleset("vers"), load_scenario("vers-tavern-brawl").setup,
                               "s", time="")
    return conflict.commands


@pytest.mark.parametrize("template", [
    "ada: attack TARGET weapon=sword|knife",
    "chase c1 hunter=WHO quarry=ada length=2..4",
    "chase c1 hunter=ada quarry=bo length=2..6",
    "chase c1 hunter=ada quarry=bo length=1|3|5",
    "chase c1 hunter=ada quarry=bo length=2|3",
])
def test_a_template_reads_back_as_the_same_text(commands: CommandSet, template: str) -> None:
    assert from_template(commands, template).text() == template


def test_three_or_more_whole_numbers_in_a_row_read_as_a_range(commands: CommandSet) -> None:
    lc = from_template(commands, "chase c1 hunter=ada quarry=bo length=2|3|4")
    assert lc.choice("length").allowed == (2, 3, 4)
    assert lc.text() == "chase c1 hunter=ada quarry=bo length=2..4"
    assert from_template(commands, "chase c1 hunter=ada quarry=bo length=-1..1").text() == (
        "chase c1 hunter=ada quarry=bo length=-1..1")


def test_a_structured_command_reads_as_text_without_a_template() -> None:
    """How a ruleset's own legal commands (built as values, not templates) read."""
    lc = LegalCommand("attack", "ada", (
        Choice("target", "word"),  # free, no placeholder: the parameter's name
        Choice("weapon", "word", ("sword", "knife"), positional=False),
        Choice("ev", "int", (4, 5, 6), positional=False),
        Choice("skill", "word", fixed="athletics", positional=False),
        Choice("track", "choice", ("injury", "focus"), listed=False),
    ))
    assert lc.text() == "ada: attack TARGET weapon=sword|knife ev=4..6 skill=athletics"
    assert LegalCommand("handoff", None, (Choice("to", "word", ("bo",)),)).text() == (
        "handoff bo")


def test_a_free_text_may_begin_with_a_parameters_name(commands: CommandSet) -> None:
    lc = from_template(commands, "narrate text messages arrive at dawn")
    assert lc.choice("text").fixed == "text messages arrive at dawn"
    assert lc.text() == "narrate text messages arrive at dawn"


def test_the_json_form_of_a_legal_command_is_a_copy_a_caller_may_change() -> None:
    from fracas.engine.legal import Choice, LegalCommand

    offer = LegalCommand("zoom", "ada", (Choice("who", "ids", fixed=["ada", "bruno"]),))
    sent = offer.to_data()
    sent["params"][0]["fixed"].append("kim")  # a caller editing what it was handed
    assert offer.to_data()["params"][0]["fixed"] == ["ada", "bruno"]
    assert offer.text() == "ada: zoom ada,bruno"


def test_a_command_offered_to_a_viewer_names_nobody_hidden_from_them() -> None:
    """LegalCommand.without: a hidden one's id or name (any case) is taken out of the allowed
    values; a command whose actor or fixed value names one, or with no required value left,
    is not offered; an optional parameter may be left with none."""
    from fracas.engine.model import Participant

    kim = Participant("kim", "Kim Lee")
    hidden = hidden_words([kim])
    assert hidden == {"kim", "kim lee"}
    lc = LegalCommand("zoom", "ada", (
        Choice("who", "ids", (["ada", "kim"], ["ada", "bo"], "KIM")),
        Choice("why", "text", ("Kim Lee",), required=False)))
    offered = lc.without(hidden)
    assert offered is not None
    assert offered.choice("who").allowed == (["ada", "bo"],)
    assert offered.choice("why").allowed == ()
    assert lc.without(frozenset()) is lc
    assert LegalCommand("move", "kim", ()).without(hidden) is None
    assert LegalCommand("attack", "ada", (Choice("target", "id", fixed="Kim"),)).without(
        hidden) is None
    assert LegalCommand("attack", "ada", (Choice("target", "id", ("kim",)),)).without(
        hidden) is None
    # what a value left out stands for names nobody hidden either (nor a secret word)
    armed = LegalCommand("attack", "ada", (
        Choice("weapon", "text", ("Kim Lee", "axe"), required=False, default="Kim Lee"),))
    kept = armed.without(hidden)
    assert kept is not None and kept.choice("weapon").default is None
    assert armed.unnamed({"kim lee"}, ()).choice("weapon").default is None
    assert armed.unnamed({"bo"}, ()).choice("weapon").default == "Kim Lee"
    # an id names one participant: a shown one stays on offer though a hidden one is named so
    thug, thug2 = Participant("thug", "Thug"), Participant("thug2", "Thug")
    assert hidden_words([thug2], [thug.id]) == {"thug2"}


def test_a_template_with_a_range_of_three_bounds_is_refused_by_name(
        commands: CommandSet) -> None:
    """A ruleset's template is read strictly: ``2..3..4`` is no range, and the value is
    refused as the parameter's kind, not a crash."""
    from fracas.errors import InvalidInput

    refusal = re.escape("length must be a whole number, got '2..3..4'")
    with pytest.raises(InvalidInput, match=refusal):
        from_template(commands, "chase c1 hunter=ada quarry=bo length=2..3..4")
