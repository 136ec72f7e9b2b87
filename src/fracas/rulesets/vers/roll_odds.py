"""The exact odds of a VERS character's rolls other than attacks and chase rolls: a
Disengage, a slip past guards, a two-zone dash, the Discipline roll to stay conscious, a
recovery and a repair — each with the chance of what it is rolled for and its rule.

A line reads as an attack's does, e.g. ``Ada: disengage (athletics): TN 13, −2 for 1 more
opponent: −2 → 11: break away 50% (VR-MOVE-4)``. A player reads those of their own
character, only where the roll would show them every number of it and every character it
involves is known to them (the count of opponents or guards would tell of a hidden one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fracas.engine.commands import Command
from fracas.engine.harm_view import harm_hidden
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.secrets import Modifier
from fracas.rulesets.vers.actions import (
    disengage_roll,
    recovery_mods,
    repair_mods,
    repairs_with,
    slip_roll,
)
from fracas.rulesets.vers.checks import Check, breakdown
from fracas.rulesets.vers.decider import ext_of, hostile_guards, own_mods, readable, way
from fracas.rulesets.vers.odds import p_success
from fracas.rulesets.vers.state import skill_tn


@dataclass(frozen=True)
class AskedRoll:
    """A roll a command would make: who rolls what, with which modifiers, for what, under
    which rule, and the characters it involves."""

    roller: str
    head: str  # "disengage", "slip street": the command as the line names it
    skill: str
    mods: list[Modifier]
    aim: str  # what a success does: "break away"
    rule: str
    involves: tuple[str, ...] = ()


def _zone(state: ConflictState, zid: str) -> str:
    zone = ext_of(state).zones.zones.get(zid)
    return (zone.name if zone is not None else "") or zid


def _disengage(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    foes, mods = disengage_roll(state, actor)
    return AskedRoll(actor, "disengage", "athletics", mods, "break away", "VR-MOVE-4",
                     tuple(foes)) if foes else None


def _slip(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    here, to = ext_of(state).zones.zone_of(actor), str(command.args.get("to"))
    if here is None:
        return None
    guards = hostile_guards(state, actor, [here, to])
    if not guards:
        return None
    mods = slip_roll(state, actor, guards)[2]
    return AskedRoll(actor, f"slip {to}", "athletics", mods, "get past", "VR-MOVE-5",
                     tuple(guards))


def _dash(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    here, to = ext_of(state).zones.zone_of(actor), str(command.args.get("to"))
    if here is None or to not in ext_of(state).zones.zones:
        return None
    path, guards = way(state, actor, here, to)
    if len(path) != 3 or guards:  # one zone needs no roll; a guarded way is refused
        return None
    return AskedRoll(actor, f"move {to}", "athletics", own_mods(state, actor),
                     f"reach {_zone(state, to)} in one action", "VR-MOVE-2")


def _endure(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    if actor not in ext_of(state).pending_discipline:
        return None
    return AskedRoll(actor, "endure", "discipline", own_mods(state, actor), "stay conscious",
                     "VR-INJ-3")


def _recover(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    who = str(command.args.get("who") or actor)
    track = str(command.args.get("track") or "injury")
    ladders = ext_of(state).harm.get(who, {})
    if track not in ladders or ladders[track].highest() is None:
        return None
    ladder = ladders[track]
    highest = ladder.highest()
    assert highest is not None
    level = ladder.levels[highest].name
    mods = recovery_mods(state, actor, state.participants[who].name, ladder)
    return AskedRoll(actor, f"recover {who}" if who != actor else "recover",
                     str(command.args.get("skill") or "discipline"), mods,
                     f"remove {level}", "VR-INJ-4", (who,))


def _repair(state: ConflictState, actor: str, command: Command) -> AskedRoll | None:
    obj = ext_of(state).objects.get(str(command.args.get("id")))
    highest = None if obj is None else obj.ladder.highest()
    skill = str(command.args.get("skill") or "repair")
    if obj is None or highest is None or obj.broken or not repairs_with(skill):
        return None
    level = obj.ladder.levels[highest].name
    return AskedRoll(actor, f"repair {command.args['id']}", skill, repair_mods(state, actor, obj),
                     f"mend {level}", "VR-OBJ-5")


ASKED: dict[str, Callable[[ConflictState, str, Command], AskedRoll | None]] = {
    "disengage": _disengage, "slip": _slip, "move": _dash, "endure": _endure,
    "recover": _recover, "repair": _repair,
}


def asked_roll(state: ConflictState, command: Command) -> AskedRoll | None:
    """The roll ``command`` would make, for a verb of :data:`ASKED` by a character in the
    conflict (None: no roll, or not one of these)."""
    plan = ASKED.get(command.verb)
    actor = command.actor
    if plan is None or actor is None or actor not in state.participants:
        return None
    return plan(state, actor, command)


def _may_read(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
              asked: AskedRoll, probe: Check) -> bool:
    """Whether ``viewer`` may read the line: the GM; a player, of their own character's
    roll, where they know every character it involves (and their harm, for a recovery) and
    would read every number of the roll."""
    if viewer.is_gm:
        return True
    roller = state.participants[asked.roller]
    if viewer.player is None or roller.owner != viewer.player:
        return False
    if not all(can_see(pid) and not harm_hidden(state, viewer, pid, band=True)
               for pid in asked.involves):
        return False
    return readable(state, viewer, can_see, probe)


def roll_odds(state: ConflictState, viewer: Viewer, can_see: Callable[[str], bool],
              command: Command) -> list[str]:
    """The line of the roll ``command`` would make, as ``viewer`` may read it (none for a
    command without such a roll)."""
    asked = asked_roll(state, command)
    if asked is None:
        return []
    roller = state.participants[asked.roller]
    tn = skill_tn(state, roller, asked.skill)
    target = tn + sum(m.value or 0 for m in asked.mods)
    probe = Check(actor=roller.id, skill=asked.skill, tn=tn, mods=tuple(asked.mods),
                  target_number=target)
    if not _may_read(state, viewer, can_see, asked, probe):
        return []
    return [f"{roller.name}: {asked.head} ({asked.skill.replace('_', ' ')}): TN {tn}, "
            f"{breakdown([m for m in asked.mods if m.value])} → {target}: "
            f"{asked.aim} {float(p_success(target)):.0%} ({asked.rule})"]


def discipline_odds(state: ConflictState, viewer: Viewer,
                    can_see: Callable[[str], bool]) -> list[str]:
    """The Discipline rolls to stay conscious due now (VR-INJ-3), as ``viewer`` may read
    them: the pending odds of a disabled character."""
    return [line for pid in ext_of(state).pending_discipline if pid in state.participants
            and can_see(pid) for line in roll_odds(state, viewer, can_see,
                                                   Command(verb="endure", actor=pid))]
