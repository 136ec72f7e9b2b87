"""The VERS commands as data: text notation, who gives them and the rule each serves."""

from __future__ import annotations

from fracas.engine.commands import CommandSpec, Param


def _dice(name: str = "dice", help: str = "3d6 rolled at the table (4,3,2)") -> Param:
    return Param(name, "dice", required=False, positional=False, help=help)


_FREE = _dice("free", "3d6 per free attack, in order (6,5,4,3,3,3)")
_MOD = Param("mod", "int", required=False, positional=False, default=0,
             help="the GM's own bonus (+) or penalty (−) for tactics on this roll, on top "
                  "of any set with 'tactics' (a player's roll takes none)")
_WHY = Param("why", "text", required=False, positional=False, help="narration of the roll")

COMMANDS: tuple[CommandSpec, ...] = (
    # turn order
    CommandSpec("open", (Param("first", "id", help="who opens this turn"),),
                "the table's choice of who opens this turn", actor="gm", rule="VR-TURN-1"),
    CommandSpec("handoff", (Param("to", "id", required=False),
                            Param("say", "text", required=False, positional=False)),
                "end your go and hand off to someone who has not gone (none: end the turn); "
                "the GM hands off for one taken out during its go",
                actor="optional", rule="VR-TURN-2"),
    CommandSpec("endure", (_dice(),),
                "a disabled character's Discipline roll to stay conscious", rule="VR-INJ-3"),
    # battlefield set-up
    CommandSpec("zone", (Param("id", "word"), Param("name", "text", required=False)),
                "draw a zone", actor="gm", rule="VR-MOVE-1"),
    CommandSpec("link", (Param("a", "zone"), Param("b", "zone")),
                "join two zones", actor="gm", rule="VR-MOVE-1"),
    CommandSpec("place", (Param("who", "id"), Param("zone", "zone")),
                "put a character in a zone", actor="gm", rule="VR-MOVE-1"),
    CommandSpec("guard", (Param("who", "id"), Param("a", "zone"), Param("b", "zone")),
                "a character guards the way between two zones", actor="gm", rule="VR-MOVE-5"),
    CommandSpec("unguard", (Param("who", "id"),), "stop guarding", actor="gm",
                rule="VR-MOVE-5"),
    CommandSpec("cover", (Param("who", "id"), Param("value", "int"),
                          Param("object", "word", required=False, positional=False,
                                unset="none named")),
                "cover 0, 1, 3 or 5 (⅓, ⅔, complete) behind an object", actor="gm",
                rule="VR-ATK-5"),
    CommandSpec("object", (Param("id", "word"),
                           Param("material", "word", required=False, positional=False),
                           Param("hardness", "int", required=False, positional=False),
                           Param("slots", "int", required=False, positional=False, default=1),
                           Param("penalty", "int", required=False, positional=False,
                                 default=0),
                           Param("name", "text", required=False, positional=False),
                           Param("zone", "zone", required=False, positional=False,
                                 unset="in no zone: struck from anywhere")),
                "an object with a hardness (material or rank), condition slots and a zone",
                actor="gm", rule="VR-OBJ-1"),
    CommandSpec("restore", (Param("id", "word"),),
                "GM override: an object is whole again (even broken)", actor="gm",
                rule="VR-OBJ-5"),
    CommandSpec("harm", (Param("who", "id"), Param("ev", "int"),
                         Param("track", "choice", required=False, positional=False,
                               choices=("injury", "focus", "morale"), default="injury"),
                         Param("why", "text", required=False, positional=False)),
                "GM: a condition from net EV on a track (falls, mental or social harm)",
                actor="gm", rule="VR-INJ-5"),
    # actions
    CommandSpec("move", (Param("to", "zone"), _dice(),
                         Param("onfail", "choice", required=False, positional=False,
                               choices=("short", "both"), default="short",
                               help="a failed two-zone dash: fall short or spend both actions")),
                "move one zone (two with an Athletics roll)", rule="VR-MOVE-1"),
    CommandSpec("slip", (Param("to", "zone"), _dice()),
                "get past the guards of a way out (Athletics; a failure takes the guard's "
                "blow)", rule="VR-MOVE-5"),
    CommandSpec("disengage", (_dice(), _FREE),
                "break away from close combat (Athletics)", rule="VR-MOVE-4"),
    CommandSpec("attack", (Param("target", "word", refers=True),
                           Param("weapon", "word", required=False, positional=False),
                           Param("track", "choice", required=False, positional=False,
                                 choices=("injury", "focus", "morale"),
                                 help="the track it strikes, set by the weapon's kind: injury "
                                      "(physical), focus (mental) or morale (social)"),
                           Param("skill", "word", required=False, positional=False,
                                 help="the skill of a mental or social attack"),
                           Param("ev", "int", required=False, positional=False,
                                 help="the EV of a mental or social attack"),
                           _dice()),
                "attack a character or an object: a weapon strikes the body; a mental "
                "attack strikes Focus, a social one Morale",
                rule="VR-ROLL-2"),
    CommandSpec("recover", (Param("who", "id", required=False),
                            Param("track", "choice", required=False, positional=False,
                                  choices=("injury", "focus", "morale"), default="injury"),
                            Param("skill", "word", required=False, positional=False,
                                  default="discipline"),
                            _dice()),
                "a recovery action removing the highest condition", rule="VR-INJ-4"),
    CommandSpec("repair", (Param("id", "word"),
                           Param("skill", "word", required=False, positional=False,
                                 default="repair",
                                 help="the repair skill, or the right background or special "
                                      "skill"),
                           _dice()),
                "repair an object's highest condition", rule="VR-OBJ-5"),
    # chases
    CommandSpec("chase", (Param("id", "word"), Param("hunter", "id", positional=False),
                          Param("quarry", "id", positional=False),
                          Param("length", "int", required=False, positional=False, default=3),
                          Param("start", "int", required=False, positional=False),
                          Param("roller", "id", required=False, positional=False),
                          Param("stage", "choice", required=False, positional=False,
                                choices=("pursuit", "tracking"), default="pursuit"),
                          Param("prize", "text", required=False, positional=False)),
                "start a chase (or, given a prize, a race for a stationary object)",
                actor="gm", rule="VR-CHASE-2"),
    CommandSpec("track", (Param("id", "word"),
                          Param("length", "int", required=False, positional=False)),
                "the quarry got away: the hunter starts tracking", actor="gm",
                rule="VR-CHASE-7"),
    CommandSpec("pursue", (Param("id", "word"),
                           Param("length", "int", required=False, positional=False)),
                "contact made: pursuit begins again", actor="gm", rule="VR-CHASE-7"),
    CommandSpec("abandon", (Param("id", "word"),
                            Param("why", "text", required=False, positional=False)),
                "end a chase as events end it (the hunter gives up, the quarry is cut off "
                "elsewhere): no more rolls on its scale", actor="gm", rule="VR-CHASE-1"),
    CommandSpec("tactics", (Param("id", "word"),
                            Param("mod", "int", help="bonus (+) or penalty (−); 0 lifts it"),
                            Param("why", "text", required=False, positional=False,
                                  help="the tactics, for the table")),
                "the GM's bonus or penalty for tactics, taken by the chase's next roll",
                actor="gm", rule="VR-CHASE-5"),
    CommandSpec("run", (Param("id", "word"), _MOD, _WHY,
                        Param("skill", "choice", required=False, positional=False,
                              choices=("survival", "investigation"),
                              help="a hunter's tracking skill; none: the better of Survival "
                                   "and Investigation (VR-CHASE-7)"),
                        _dice()),
                "a chase roll (pursuit: Athletics; tracking: an hour of seeking)",
                rule="VR-CHASE-3"),
    CommandSpec("interpose", (Param("id", "word"), _MOD, _WHY, _dice()),
                "at position 1 (or for a prize): capture, evade or seize", rule="VR-CHASE-6"),
)
