"""What the GM screen's conflict-creation form offers and sends.

:func:`rulesets` tells the form each ruleset's set-up choices (with the values the rules
allow), the stats a participant counts with (with their ranges), and, for VERS, the condition
ladders with their slots and penalties (public rules text, nothing of any conflict).
:func:`scenario_of` reads what the form sent as a scenario: the same checks and the same
error texts as a scenario file's (docs/scenarios.md).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from fracas.app.scenario import Scenario
from fracas.engine import harm_view
from fracas.engine.conflict import command_set
from fracas.engine.setup import Setup, first_error
from fracas.errors import InvalidInput
from fracas.rulesets import available, get_ruleset
from fracas.rulesets.etherscope.settings import (
    BANDS,
    NATURES,
    REALITIES,
    SCALINGS,
    SETUP_DEFAULTS,
    TIME_SCALES,
)
from fracas.rulesets.fabula_ultima.limits import MAX_REPLACED
from fracas.rulesets.fabula_ultima.state import ATTRIBUTES as FU_ATTRIBUTES
from fracas.rulesets.fabula_ultima.state import DIE_SIZES
from fracas.rulesets.vers.state import ATTRIBUTES as VERS_ATTRIBUTES
from fracas.rulesets.vers.state import HARDNESS, SKILL_ATTRIBUTE, SKILL_FITS, TRACKS

#: Each ruleset's set-up choices: the setting, what the form calls it, the allowed values and
#: (where the rules have one) the value a conflict takes when it is left out.
CHOICES: dict[str, list[dict[str, Any]]] = {
    "etherscope": [
        {"name": name, "label": label, "allowed": list(allowed),
         "default": SETUP_DEFAULTS[name]}
        for name, label, allowed in (("nature", "Nature", NATURES),
                                     ("reality", "Reality", REALITIES),
                                     ("time_scale", "Time scale", TIME_SCALES),
                                     ("range_scaling", "Range scaling", SCALINGS))
    ] + [{"name": "ranges.default", "label": "Starting range (between everyone; a pair's own "
          "under Ranges of pairs)", "allowed": list(BANDS), "default": "near"}],
    "fabula-ultima": [
        {"name": "pc_side", "label": "The player characters' side", "allowed": "sides"},
        {"name": "foe_side", "label": "The foes' side", "allowed": "sides"},
    ],
    "vers": [],
}
#: The stats the form asks for a participant (others go in as ``name=value``), with their
#: range or the values allowed (and what leaving one out stands for).
STATS: dict[str, list[dict[str, Any]]] = {
    "etherscope": [{"name": n, "min": 0, "max": 100} for n in ("physical", "ether", "society")]
    + [{"name": "awareness", "min": 0, "max": 30}],
    "fabula-ultima": [{"name": n, "allowed": list(DIE_SIZES)} for n in FU_ATTRIBUTES]
    + [{"name": "hp", "min": 0, "max": 9_999}, {"name": "mp", "min": 0, "max": 9_999},
       {"name": "rank", "allowed": ["soldier", "elite", *(f"champion {n}" for n in
                                                          range(1, MAX_REPLACED + 1))],
        "default": "soldier"}],
    "vers": [{"name": n, "min": 0, "max": 20} for n in VERS_ATTRIBUTES],
}


def rulesets() -> list[dict[str, Any]]:
    """Each shipped ruleset: name, title, set-up choices, stats, harm views, the paths of the
    live values a GM overrides most (``ID``: a participant's id), the GM's own verbs (given
    without an actor: a player's page does not put their character before them), what the
    game calls a round and a turn, and (VERS) ladders, the skills that fit a verb and the
    materials an object is made of."""
    out = []
    for name in available():
        rs = get_ruleset(name)
        item: dict[str, Any] = {"name": name, "title": rs.title,
                                "choices": CHOICES.get(name, []),
                                "stats": STATS.get(name, []), "harm_views": list(harm_view.MODES),
                                "override_paths": list(rs.override_examples),
                                "gm_verbs": sorted(s.verb for s in command_set(rs).specs.values()
                                                   if s.actor == "gm"),
                                "words": {"round": rs.round_word, "turn": rs.turn_word}}
        if name == "vers":
            item["ladders"] = {track: [{"name": n, "slots": slots, "penalty": penalty,
                                        "each": each} for n, slots, _, penalty, each in rows]
                               for track, rows in TRACKS.items()}
            # the skills a verb's skill= is suggested (repair: the repair skill, or a
            # background or special one: none of the standard skills, VR-OBJ-5)
            item["skills"] = {"standard": list(SKILL_ATTRIBUTE), "fits": SKILL_FITS}
            item["materials"] = list(HARDNESS)  # an object's hardness by its material (VR-OBJ-1)
        out.append(item)
    return out


def scenario_of(setup: dict[str, Any]) -> Scenario:
    """The form's set-up as a scenario (InvalidInput with the scenario file's error text)."""
    try:
        checked = Setup.model_validate(setup)
    except ValidationError as exc:
        key, message = first_error(exc)
        raise InvalidInput(f"the form: {key}: {message}", key=key) from None
    return Scenario("the form", with_harm_views(checked))


def with_harm_views(setup: Setup) -> Setup:
    """``setup`` with a harm view for each of its sides (see :mod:`fracas.engine.harm_view`)."""
    settings = harm_view.with_defaults(setup.settings, setup.sides)  # with the participants'
    return setup.model_copy(update={"settings": settings})


__all__ = ["CHOICES", "STATS", "rulesets", "scenario_of", "with_harm_views"]
