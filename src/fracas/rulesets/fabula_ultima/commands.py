"""Fabula Ultima's commands as CommandSpec data (text form ``[ACTOR:] VERB ARGS k=v``)."""

from __future__ import annotations

from fracas.engine.commands import CommandSpec, Param
from fracas.rulesets.fabula_ultima.state import DAMAGE_TYPES, ITEM_KINDS, STATUSES


def _dice() -> Param:
    return Param("dice", "dice", required=False, positional=False,
                 help="the faces rolled at the table, two a check in its order (6,5)")


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("goal", (Param("text", "text"),),
                "record the participant's goal in this conflict", rule="FU-CON-2"),
    CommandSpec("equip", (
        Param("kind", "choice", choices=ITEM_KINDS), Param("name", "text"),
        Param("init", "int", required=False, positional=False),
        Param("accuracy", "word", required=False, positional=False, default="dex+mig",
              help="a weapon's two attributes, e.g. dex+ins"),
        Param("bonus", "int", required=False, positional=False),
        Param("damage", "int", required=False, positional=False),
        Param("type", "choice", required=False, positional=False, choices=DAMAGE_TYPES),
        Param("defense", "int", required=False, positional=False),
        Param("mdef", "int", required=False, positional=False),
    ), "declare an equipped item before the conflict starts", rule="FU-CON-2"),
    CommandSpec("extra", (Param("id", "id"),
                          Param("on", "bool", required=False, default=True,
                                help="no: an extra no longer, who takes turns again")),
                "mark a character as an extra, who takes no turns", actor="gm",
                rule="FU-CON-1"),
    CommandSpec("assign", (Param("id", "id"), Param("side", "word")),
                "put a participant on one of the two sides", actor="gm", rule="FU-CON-13"),
    CommandSpec("initiative", (
        Param("dl", "int", required=False, positional=False),
        Param("supporters", "ids", required=False, positional=False,
              help="none picked: every other PC of the side still taking part"),
        Param("dice", "dice", required=False, positional=False,
              help="the faces rolled at the table: each supporter's two in order, then the "
                   "leader's two (5,5,6,4)"),
    ), "the leader's {DEX + INS} Initiative Group Check, each supporter's success adding to "
       "it", rule="FU-CON-3"),
    CommandSpec("act", (Param("text", "text", required=False),),
                "take a turn with a free-text action", rule="FU-CON-6"),
    CommandSpec("attack", (Param("target", "id"),
                           Param("weapon", "text", required=False, positional=False,
                                 help="left out: the first weapon on the sheet (an unarmed "
                                      "strike without one)"),
                           Param("bonus", "int", required=False, positional=False, default=0,
                                 help="a modifier the situation gives the accuracy check, "
                                      "besides the weapon's own (+2, -1)"),
                           _dice()),
                "take a turn to attack with a weapon (accuracy vs Defense)", rule="FU-RES-3"),
    CommandSpec("spell", (Param("name", "text"),
                          Param("mp", "int", required=False, positional=False,
                                help="the MP the spell costs, spent from the caster's "
                                     "(left out: its sheet's spell of that name's, else 0)"),
                          Param("target", "id", required=False, positional=False),
                          Param("damage", "int", required=False, positional=False),
                          Param("type", "choice", required=False, positional=False,
                                choices=DAMAGE_TYPES),
                          Param("accuracy", "word", required=False, positional=False,
                                help="the two attributes of the magic check, e.g. ins+wlp "
                                     "(left out: ins+wlp)"),
                          Param("bonus", "int", required=False, positional=False, default=0),
                          _dice(),
                          Param("recover", "int", required=False, positional=False,
                                help="the HP it restores to an ally (or the caster), up to "
                                     "the maximum"),
                          Param("recover_mp", "int", required=False, positional=False,
                                help="the MP it restores to an ally (or the caster), up to "
                                     "the maximum"),
                          Param("status", "choice", required=False, positional=False,
                                choices=tuple(STATUSES),
                                help="the status effect a hit (on an ally: the casting) "
                                     "puts on its target")),
                "take a turn to cast a spell: spend MP; on a foe (or dealing damage), a magic "
                "check vs Magic Defense; on an ally, it takes effect (and restores what it "
                "recovers); a hit puts its status on the target", rule="FU-RES-3"),
    CommandSpec("check", (Param("attributes", "word"), Param("dl", "int"),
                          Param("bonus", "int", required=False, positional=False, default=0),
                          Param("turn", "bool", required=False, positional=False, default=True,
                                help="no: a check outside the turn order, which takes no "
                                     "turn"),
                          _dice()),
                "a check of two attributes (dex+ins, or die sizes d8+d10) against a DL",
                rule="FU-CHK-1"),
    CommandSpec("pass", (), "refused: nobody passes a turn", rule="FU-CON-6"),
    CommandSpec("damage", (Param("target", "id"), Param("amount", "int"),
                           Param("type", "choice", required=False, positional=False,
                                 choices=DAMAGE_TYPES, default="physical")),
                "deal damage (affinities apply)", actor="gm", rule="FU-RES-3"),
    CommandSpec("recover", (Param("target", "id"), Param("amount", "int"),
                            Param("pool", "choice", required=False, positional=False,
                                  choices=("hp", "mp", "ip"), default="hp")),
                "restore HP, MP or IP up to the maximum", actor="gm", rule="FU-RES-1"),
    CommandSpec("spend", (Param("pool", "choice", choices=("mp", "ip", "hp")),
                          Param("amount", "int"), Param("why", "text", required=False)),
                "spend MP, IP or HP", rule="FU-RES-1"),
    CommandSpec("status", (Param("target", "id"),
                           Param("effect", "choice", choices=tuple(STATUSES)),
                           Param("on", "bool", required=False, default=True)),
                "give (or with no, remove) a status effect", actor="gm", rule="FU-RES-4"),
    CommandSpec("fabula", (Param("delta", "int", help="+N gains N, -N spends N (-1: one)"),
                           Param("why", "text", required=False)),
                "gain or spend Fabula Points", rule="FU-CHK-4"),
)
