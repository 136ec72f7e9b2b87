"""The text notation of Etherscope commands, as CommandSpec data."""

from __future__ import annotations

from fracas.engine.commands import CommandSpec, Param
from fracas.rulesets.etherscope.settings import SCALINGS

_BAND = ("close", "near", "distant")
SCALING_NAMES = tuple(SCALINGS)


def _named(name: str, kind: str, help: str = "", choices: tuple[str, ...] = (),
           unset: str = "") -> Param:
    return Param(name, kind, required=False, positional=False, choices=choices, help=help,
                 unset=unset)


#: A band those revealed are put into; left out, the band under the hidden flag is kept
#: (ES-RNG-3).
_REVEAL_BAND = _named("band", "choice", "the band those revealed are put into (ES-RNG-3)",
                      _BAND, unset="the band kept while hidden")


#: Parameters every rolled action takes (ES-ACT-3, ES-ACT-4, ES-ACT-6, ES-SET-3).
ROLL_PARAMS: tuple[Param, ...] = (
    _named("dice", "dice", "the pool's dice rolled at the table, a face each (5,6,2)"),
    _named("successes", "int", "the number of successes rolled at the table"),
    _named("pool", "int", "dice in the pool (default: the skill's rating)"),
    _named("skill", "word", "the skill rolled (its rating sets the pool)"),
    _named("difficulty", "int", "the difficulty (default 1)"),
    _named("nature", "choice", "the action's nature if not the conflict's (ES-SET-3)",
           ("physical", "mental", "social")),
    _named("say", "text", "what the character attempts (ES-ACT-3)"),
    _named("effect", "text", "how the effects look (ES-ACT-6)"),
)

_ROLLOFF = _named("rolloff", "word",
                  "tie roll-off dice rolled at the table: ada:5,6/bruno:2,1 (ES-ROUND-5)")

COMMANDS: tuple[CommandSpec, ...] = (
    # --- start of the conflict
    CommandSpec("awareness", (*ROLL_PARAMS[:4],),
                "roll awareness; the successes are kept for the conflict", rule="ES-START-1"),
    CommandSpec("ambush", (Param("targets", "ids", help="whom the ambush is tried on: one or "
                                 "more, each opposing it with a counter roll"),
                           *ROLL_PARAMS[:4],
                           _named("counter", "word",
                                  "targets' table dice: ada:5,6,2/bruno:3,1"),
                           _named("counter_skill", "word",
                                  "the skill the targets roll against it (default: the "
                                  "awareness roll's)")),
                "attempt an ambush, opposed by each target's counter roll",
                rule="ES-START-2"),
    CommandSpec("set-range", (Param("a", "ids", help="one side: characters or groups"),
                              Param("b", "ids", help="the other side: characters or groups"),
                              Param("band", "choice", choices=_BAND)),
                "GM sets the range between characters or groups (ids or groups, "
                "comma-separated)", actor="gm", rule="ES-START-3"),
    CommandSpec("group", (Param("name", "new-id"), Param("members", "ids")),
                "GM: these characters stand together", actor="gm", rule="ES-START-6"),
    CommandSpec("ungroup", (Param("name", "id"),), "GM dissolves a group", actor="gm",
                rule="ES-START-6"),
    CommandSpec("reveal", (Param("who", "id"), _named("from", "ids", "default: everyone"),
                           _REVEAL_BAND),
                "GM reveals a hidden character", actor="gm", rule="ES-RNG-3"),
    CommandSpec("conceal", (Param("who", "id"), _named("from", "ids", "default: everyone")),
                "GM hides a character (reinforcements arriving unseen, a lost trail)",
                actor="gm", rule="ES-RNG-1"),
    CommandSpec("moves", (_ROLLOFF,), "begin the awareness moves in descending order",
                actor="gm", rule="ES-START-5"),
    CommandSpec("step", (Param("targets", "ids"),
                         Param("way", "choice", choices=("toward", "away"))),
                "awareness move: one step toward/away from those who have not moved",
                rule="ES-START-5"),
    CommandSpec("done", (), "end your awareness move or your turn", rule="ES-START-5"),
    # --- rounds
    CommandSpec("round", (), "start the next round (base initiatives)", actor="gm",
                rule="ES-ROUND-1"),
    CommandSpec("declare", (Param("scores", "ints", help="your acting initiatives, e.g. 7,1: "
                                  "positive, at most your base initiative in all, at least 5 "
                                  "apart (or the gap the conflict sets)"),),
                "declare acting initiatives (7,1)", rule="ES-ROUND-2"),
    CommandSpec("countdown", (_ROLLOFF,),
                "everyone has declared: resolve ties, begin the countdown", actor="gm",
                rule="ES-ROUND-4"),
    # --- actions
    CommandSpec("push", (Param("target", "id"), *ROLL_PARAMS,
                         _named("toward", "ids", "move the target toward these"),
                         _named("away", "ids", "move the target away from these"),
                         _named("two", "bool", "extra: two categories"),
                         _named("damage", "int", "extra successes spent on damage")),
                "Push Back: move the target one category (extras: two, damage)",
                rule="ES-ACT-5"),
    CommandSpec("attack", (Param("target", "id"), *ROLL_PARAMS),
                "[default] attack: 1 damage + 1 per extra success", rule="ES-DMG-2"),
    CommandSpec("move", (Param("targets", "ids", help="whom the step is against: one or more"),
                         Param("way", "choice", choices=("toward", "away")), *ROLL_PARAMS),
                "[default] move one range step against chosen characters", rule="ES-RNG-4"),
    CommandSpec("hide", (*ROLL_PARAMS,
                         _named("from", "ids", "default: the other sides' characters")),
                "[default] hide from others", rule="ES-RNG-2"),
    CommandSpec("search", (*ROLL_PARAMS, _REVEAL_BAND),
                "[default] reveal characters hidden from you (1 + 1 per extra)",
                rule="ES-RNG-3"),
    CommandSpec("recover", ROLL_PARAMS,
                "[default] recover condenser points (1 + 1 per extra)", rule="ES-DMG-1"),
    CommandSpec("act", (Param("name", "word"), *ROLL_PARAMS,
                        _named("extras", "text", "the book's extras for this action"),
                        _named("target", "id", "whom the action targets"),
                        _named("hurt", "int", "damage the target takes on success")),
                "a GM-defined action: skill, difficulty and extras given at the table",
                rule="ES-ACT-4"),
    CommandSpec("zoom", (Param("who", "ids", help="who takes part with the actor (who always "
                               "does): one or more"), _named("reason", "text"),
                         _named("start", "bool", "run the start procedure inside"),
                         _named("scaling", "choice", "another range scaling inside (ranges "
                                "then do not carry back: the GM sets them)", SCALING_NAMES)),
                "resolve your action as a nested conflict one time scale faster",
                rule="ES-ACT-1"),
    CommandSpec("damage", (Param("who", "id"), Param("amount", "int"),
                           _named("reason", "text")),
                "GM deals damage to the conflict's condenser", actor="gm", rule="ES-DMG-1"),
)
