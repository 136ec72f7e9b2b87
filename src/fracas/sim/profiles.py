"""What the simulator knows of each ruleset: how the GM runs its procedure, how an encounter
is read (winner, outcome, harm), and what the built-in policies look for in its commands.

Everything else — what is legal, what a command does, the dice — comes from the engine and
the ruleset themselves (``Conflict.legal``, ``decide``, ``evolve``).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.engine.events import Event
from fracas.engine.model import ConflictState, Viewer
from fracas.errors import FracasError
from fracas.rulesets.etherscope.settings import condenser_of
from fracas.rulesets.fabula_ultima.actions import named_attributes
from fracas.rulesets.fabula_ultima.odds import check_odds
from fracas.rulesets.fabula_ultima.state import (
    AFFINITIES,
    RECOVERIES,
    UNARMED,
    make_item,
    parse_rank,
)
from fracas.rulesets.vers.events import ChaseInterpose, ChaseRoll, ChaseStage, ChaseStarted
from fracas.rulesets.vers.state import KIND_TRACK, TRACKS
from fracas.rulesets.vers.views import hit_chance, readable_attacks
from fracas.sim.stats import NO_WINNER

if TYPE_CHECKING:
    from fracas.engine.ruleset import Ruleset
    from fracas.sim.policies import Sight

#: An attack by (attacker, target, weapon): the key of :meth:`Profile.attack_odds`.
Aimed = tuple[str, str, str | None]
#: An attack as :meth:`Profile.chances` weighs it: its values, the attacker's and the
#: target's entries as the side sees them.
Attack = tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any] | None]

#: Concessions (Profile.concessions) and the outcomes they give.
SURRENDER = "surrender"
COMPROMISE = "compromise"
ACCEPT = "accept"
SURRENDERED = "surrendered"

#: Verbs the simulator never plays: bookkeeping of the table, not moves of the game.
TABLE_VERBS = frozenset({
    "note", "narrate", "roll", "effect", "override", "join", "leave", "out", "undo", "redo",
    "end",
})


@dataclass(slots=True)
class ChaseWatch:
    """The stage of each chase, read from the events of the encounter."""

    hunter: str
    quarry: str
    roller: str
    stage: str


class Profile:
    """The simulator's reading of one ruleset (see docs/sim.md, "How a win is read").

    Its reading hooks get a character's entry in a side's (or the GM's) view and the
    conflict's ``settings`` as that viewer sees them; a ``view`` they get may have None for
    the ruleset's part (``"ruleset"``), not computed."""

    ruleset: ClassVar[str] = ""
    #: GM verbs given before any character acts (e.g. opening a VERS turn).
    gm_first: ClassVar[tuple[str, ...]] = ()
    #: GM verbs given when no character can act (the procedure moving on).
    gm_after: ClassVar[tuple[str, ...]] = ()
    #: Character verbs the simulator leaves out (free text, nested conflicts, free checks).
    skip: ClassVar[frozenset[str]] = frozenset()
    #: Verbs of :attr:`skip` played where the legal command gives their ``name``, filled in
    #: from the sheet (a Fabula Ultima spell its caster's sheet lists); typed in, left out.
    sheet_named: ClassVar[frozenset[str]] = frozenset()
    #: Verbs offered only beside a character's other commands: a character whose legal
    #: commands are all of these does not hold up the procedure (an Etherscope ambush after
    #: the awareness roll).
    optional_verbs: ClassVar[frozenset[str]] = frozenset()
    #: Verbs that end a character's go without acting.
    pass_verbs: ClassVar[frozenset[str]] = frozenset()
    attack_verbs: ClassVar[frozenset[str]] = frozenset({"attack"})
    #: Verbs aimed at foes besides the attacks (an Etherscope ambush, whose ``targets`` the
    #: rules let name an ally too): the built-in policies never aim one at their own side.
    hostile_verbs: ClassVar[frozenset[str]] = frozenset()
    recover_verbs: ClassVar[frozenset[str]] = frozenset()
    #: Verbs that may restore another character's health or means (a Fabula Ultima spell
    #: that recovers HP or MP): :meth:`healing` and :meth:`restoring` say how much each does.
    heal_verbs: ClassVar[frozenset[str]] = frozenset()
    #: Verbs that pursue the conflict's objective (a chase roll): preferred over attacks.
    objective_verbs: ClassVar[frozenset[str]] = frozenset()
    #: Verbs that look for foes hidden from the actor.
    seek_verbs: ClassVar[frozenset[str]] = frozenset()
    #: The outcome of a conflict decided by one side being the last with characters in it.
    last_side_outcome: ClassVar[str] = "taken out"
    #: Every outcome the ruleset can give an encounter, in the report's order (it lists those
    #: a job can reach, :meth:`reachable`, zero counts too).
    outcomes: ClassVar[tuple[str, ...]] = ("taken out",)
    #: What the harm figures count.
    harm_unit: ClassVar[str] = "harm"
    #: What a side may concede where the rules allow it (Fabula Ultima: ``surrender``, and
    #: ``compromise`` offered to the other side, which may ``accept`` it on its turn).
    concessions: ClassVar[tuple[str, ...]] = ()

    def reachable(self, chases: dict[str, ChaseWatch], tracking: bool, conceding: int
                  ) -> tuple[str, ...]:
        """The outcomes an encounter of a job can come to, in the order of :attr:`outcomes`:
        the last side standing; a surrender where the rules allow one and a side's policy may
        make it, and a compromise where two may (one offers, the other accepts) —
        ``conceding`` is how many sides' policies may concede; the chases the prologue
        started (``chases``, VERS) with ``tracking`` as the scenario's ``[sim]`` sets it."""
        found = {self.last_side_outcome, *self._chase_outcomes(chases, tracking)}
        if SURRENDER in self.concessions and conceding >= 1:
            found.add(SURRENDERED)
        if COMPROMISE in self.concessions and conceding >= 2:
            found.add(COMPROMISE)
        return tuple(o for o in self.outcomes if o in found)

    def _chase_outcomes(self, chases: dict[str, ChaseWatch], tracking: bool) -> set[str]:
        """The outcomes the chases under way can settle the conflict with."""
        return set()

    def end_reason(self, winner: str, outcome: str) -> str:
        """The reason the simulated GM gives with ``end`` once the conflict is decided."""
        if outcome == COMPROMISE:
            return "a compromise: the sides find terms both accept"
        if winner == NO_WINNER:
            return f"unable or unwilling to continue: {outcome}; no winner"
        return f"unable or unwilling to continue: {outcome}; {winner} remain"

    # --- values the rules leave open -------------------------------------------------------
    def candidates(self, verb: str, param: str, actor: str | None, sight: Sight
                   ) -> list[Any] | None:
        """Values to try for a required parameter whose values the legal command leaves open
        (None: the simulator cannot fill it, and leaves the command out)."""
        return None

    #: The optional parameters :meth:`optional` may fill (the others keep the rules'
    #: default without asking it).
    fills: ClassVar[frozenset[str]] = frozenset()
    #: The parameters whose values :meth:`candidates` or :meth:`optional` picks from the
    #: legal command and the actor's own sheet alone, which stay the same all through a job
    #: (the simulator plays none of the table's commands that change a sheet: ``override``,
    #: ``join``): their options are worked out once per legal command, not from every turn's
    #: view.
    sheet_fills: ClassVar[frozenset[str]] = frozenset()

    def optional(self, verb: str, param: str, allowed: tuple[Any, ...] | None,
                 actor: str | None, sight: Sight) -> list[Any] | None:
        """Values to try for an optional parameter (None: leave it out, the rules' default)."""
        return None

    def strength(self, values: dict[str, Any], me: dict[str, Any] | None,
                 target: dict[str, Any] | None = None) -> float:
        """How hard an attack with ``values`` (its weapon) strikes, as the attacker's own
        sheet ``me`` shows it, on ``target`` as the attacker's side sees it: the built-in
        policies attack with the strongest of the attacker's options against a target (0 for
        all: no preference)."""
        return 0.0

    def blow(self, values: dict[str, Any], me: dict[str, Any] | None,
             target: dict[str, Any] | None = None) -> tuple[float, float]:
        """The harm a hit of an attack with ``values`` deals ``target``, as the attacker's
        side sees both (in :attr:`harm_unit` where the ruleset says how), and its
        :meth:`strength`; by default the strength twice. The built-in policies weigh the
        harm by the chance to hit (:meth:`chances`), the strength breaking ties."""
        strength = self.strength(values, me, target)
        return strength, strength

    def chances(self, attacks: Sequence[Attack], sight: Sight) -> list[float | None]:
        """The chance that each of ``attacks`` (its values, the attacker's and the target's
        entries as the side sees them) hits, exact, as the attacker's side may read it —
        from its view or the odds its player is shown (:meth:`attack_odds`, through
        ``sight``); None where the side may not know it (a GM-only Defense, Dodge or weapon)
        or the rules give every target the same (Etherscope: the action's pool against the
        action's difficulty, ES-ACT-4)."""
        return [None] * len(attacks)

    def attack_odds(self, ruleset: Ruleset, state: ConflictState, viewer: Viewer,
                    aimed: Collection[Aimed]) -> Mapping[Aimed, float]:
        """The chance to hit of those of the ``aimed`` attacks whose odds ``viewer``'s table
        shows now (the ruleset's pending odds), by (attacker, target, weapon):
        :meth:`chances` reads them where the view alone does not tell (none by default)."""
        return {}

    #: The verbs :meth:`wasteful` may judge (the others never are).
    sized_verbs: ClassVar[frozenset[str]] = frozenset()

    def wasteful(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
                 settings: dict[str, Any]) -> bool:
        """Whether a command the rules allow throws away what the actor has, as its own
        sheet ``me`` shows it (an Etherscope declaration that leaves initiative unused): the
        built-in policies play such a command only when nothing else is left."""
        return False

    def healing(self, verb: str, values: dict[str, Any]) -> float:
        """The health a command of :attr:`heal_verbs` with ``values`` restores to its target
        (0: it heals nothing), in the unit of :attr:`harm_unit`."""
        return 0.0

    def restoring(self, verb: str, values: dict[str, Any]) -> float:
        """What a command of :attr:`heal_verbs` with ``values`` restores to its target of the
        means it acts by (a Fabula Ultima spell's MP; 0: none)."""
        return 0.0

    def means(self, entry: dict[str, Any]) -> tuple[float, bool] | None:
        """The share of its means (MP) a character has left, as the side's view shows it,
        and whether that still pays for each of the moves its sheet shows they are spent on
        (a Fabula Ultima spell); None where the view does not tell, or it spends them on
        nothing."""
        return None

    def has(self, verb: str, stats: dict[str, Any]) -> bool:
        """Whether a character with ``stats`` (its set-up's) has the means to play ``verb``,
        one of :attr:`skip` its rules offer it: the report names those who do."""
        return True

    # --- reading the table ------------------------------------------------------------------
    def health(self, entry: dict[str, Any], settings: dict[str, Any]) -> float | None:
        """How much fight a character has left, 0..1, from its view entry and the settings
        (None: unknown)."""
        return None

    def harm(self, entry: dict[str, Any], settings: dict[str, Any]) -> int:
        """Harm taken by a character, from its entry in the GM's view at the end and the
        settings (the unit is the ruleset's)."""
        return 0

    def weight(self, entry: dict[str, Any]) -> float:
        """How many ordinary characters one counts for in a side's fight (1 unless the
        rules say otherwise), from its entry as the side sees it."""
        return 1.0

    def takes_part(self, entry: dict[str, Any]) -> bool:
        """Whether a character counts for its side (an extra who takes no turns does not)."""
        return True

    def flees(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
              view: dict[str, Any], foes: list[dict[str, Any]]) -> bool:
        """Whether a move gets the actor away from its foes."""
        return False

    def advances(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
                 foes: list[dict[str, Any]]) -> bool:
        """Whether a move brings the actor closer to its foes."""
        return False

    def keeps_cover(self, verb: str, me: dict[str, Any] | None) -> bool:
        """Whether a move keeps the actor where it has cover (False: it gives cover up)."""
        return True

    def observe(self, chases: dict[str, ChaseWatch], events: list[Event]) -> None:
        """Follow the chases of an encounter through its events."""

    def chase_verdict(self, chases: dict[str, ChaseWatch], side_of: dict[str, str],
                      tracking: bool = False) -> tuple[str, str] | None:
        """(winning side, outcome) when a chase has settled the conflict (``tracking``: an
        escape is followed up, not an end)."""
        return None

    def chase_turns(self, chases: dict[str, ChaseWatch], tracking: bool
                    ) -> tuple[tuple[str, str], ...]:
        """GM commands that move a chase on to its next stage, given as soon as they are
        legal, as (verb, chase id): that chase's only, where the rules also allow the verb on
        others (VERS: ``pursue`` after contact; with ``tracking``, ``track`` after an
        escape)."""
        return ()

    def apart(self, chases: dict[str, ChaseWatch]) -> frozenset[tuple[str, str]]:
        """(hunter, quarry) and (quarry, hunter) of every chase that keeps the two apart
        (VERS: pursuit, tracking): the built-in policies attack neither from the other."""
        return frozenset()


def _pool(entry: dict[str, Any], key: str) -> tuple[float, float] | None:
    pool = entry.get(key)
    if isinstance(pool, dict) and "current" in pool and "max" in pool:
        return float(pool["current"]), float(pool["max"])
    return None


_ES_ACTIONS = frozenset({"attack", "push", "move", "hide", "search", "recover"})


class EtherscopeProfile(Profile):
    """Etherscope: the GM calls the awareness moves, rounds and countdowns."""

    ruleset = "etherscope"
    gm_after = ("moves", "round", "countdown")
    skip = frozenset({"act", "zoom"})
    optional_verbs = frozenset({"ambush"})
    hostile_verbs = frozenset({"ambush"})
    pass_verbs = frozenset({"done"})
    recover_verbs = frozenset({"recover"})
    seek_verbs = frozenset({"search"})
    sized_verbs = frozenset({"declare"})
    harm_unit = "points of the conflict's condenser"
    fills = frozenset({"skill"})
    sheet_fills = frozenset({"skill"})  # the actor's skill ratings

    def _condenser(self, entry: dict[str, Any], settings: dict[str, Any]
                   ) -> tuple[int, int] | None:
        pair = entry.get("condensers", {}).get(condenser_of(settings))
        return (int(pair[0]), int(pair[1])) if pair else None

    def candidates(self, verb: str, param: str, actor: str | None, sight: Sight
                   ) -> list[Any] | None:
        """``declare``: one action at the base initiative, or two (base − 1 and 1)."""
        me = sight.entry(actor) if verb == "declare" and param == "scores" else None
        return self._declarations(me, sight.settings) if me is not None else None

    def _declarations(self, me: dict[str, Any], settings: dict[str, Any]
                      ) -> list[list[int]] | None:
        """The declarations that use the whole base initiative (the condenser, ES-ROUND-1):
        one action at it, or two at base − 1 and 1 where they are 5 apart (ES-ROUND-2/3);
        None when the side's view does not show it."""
        pair = self._condenser(me, settings)
        if pair is None or pair[0] < 1:
            return None
        base = pair[0]
        return [[base]] + ([[base - 1, 1]] if base - 2 >= 5 else [])

    def wasteful(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
                 settings: dict[str, Any]) -> bool:
        """A declaration other than one action at the base initiative or two at base − 1
        and 1 (the rules allow any split up to the base, ES-ROUND-2: a single action at 1
        among them)."""
        if verb != "declare" or me is None:
            return False
        whole = self._declarations(me, settings)
        scores = values.get("scores")
        return whole is not None and isinstance(scores, list) and scores not in whole

    def optional(self, verb: str, param: str, allowed: tuple[Any, ...] | None,
                 actor: str | None, sight: Sight) -> list[Any] | None:
        """An action rolls the actor's best skill (its rating is the pool; ES-ACT-4); the
        awareness roll and ambushes keep the rules' default pool."""
        me = sight.entry(actor) if param == "skill" and verb in _ES_ACTIONS else None
        if me is None:
            return None
        skills = me.get("stats", {}).get("skills", {})
        names = [s for s in skills if allowed is None or s in allowed]
        return [max(names, key=lambda s: (skills[s], s))] if names else None

    def health(self, entry: dict[str, Any], settings: dict[str, Any]) -> float | None:
        """The conflict's condenser, current over maximum."""
        pair = self._condenser(entry, settings)
        return pair[0] / pair[1] if pair and pair[1] else None

    def harm(self, entry: dict[str, Any], settings: dict[str, Any]) -> int:
        """Points of damage to the conflict's condenser (ES-DMG-1)."""
        pair = self._condenser(entry, settings)
        return pair[1] - pair[0] if pair else 0

    def flees(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
              view: dict[str, Any], foes: list[dict[str, Any]]) -> bool:
        """Moving or stepping away from a foe, or hiding."""
        ids = {f["id"] for f in foes}
        return verb == "hide" or (verb in ("move", "step") and values.get("way") == "away"
                                  and any(t in ids for t in values.get("targets", [])))

    def advances(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
                 foes: list[dict[str, Any]]) -> bool:
        """Moving or stepping toward a foe."""
        ids = {f["id"] for f in foes}
        return verb in ("move", "step") and values.get("way") == "toward" and any(
            t in ids for t in values.get("targets", []))


#: The high roll a simulated Fabula Ultima attacker reckons a hit adds to its damage (that of
#: two d8, about): what it weighs a spell's or a weapon's damage and the target's affinity by.
_HIGH_ROLL = 5
#: What an affinity does to the damage dealt (FU-RES-3): an absorbed blow heals.
_AFFINITY_FACTOR = {"vulnerable": 2.0, "resistant": 0.5, "immune": 0.0, "absorb": -1.0}


class FabulaUltimaProfile(Profile):
    """Fabula Ultima: no GM procedure besides the end; a PC leads the initiative check. A
    side may surrender (its characters are out, FU-CON-12) or offer a compromise, which ends
    the conflict when the other side accepts it (FU-CON-11)."""

    ruleset = "fabula-ultima"
    skip = frozenset({"goal", "equip", "check", "fabula", "spell", "spend"})
    sheet_named = frozenset({"spell"})  # the spells on a sheet are cast; others, never
    attack_verbs = frozenset({"attack", "spell"})  # a spell on a foe: the sheet's alone
    heal_verbs = frozenset({"spell"})  # a spell on an ally recovering HP or MP: the sheet's
    last_side_outcome = "defeated"
    outcomes = ("defeated", SURRENDERED, COMPROMISE)
    concessions = (SURRENDER, COMPROMISE)
    harm_unit = "HP"
    fills = frozenset({"text"})
    sheet_fills = frozenset({"text"})  # an act's text: always the same

    def has(self, verb: str, stats: dict[str, Any]) -> bool:
        """A spell needs MP (the rules offer one to everyone on their turn); one with
        ``spells`` on its sheet casts those on a foe and those that recover HP or MP on its
        side, and leaves out only the others cast on an ally, itself or nobody (a Ward: what
        it does is the GM's to apply)."""
        if verb != "spell":
            return True
        spells = stats.get("spells")
        return bool(stats.get("mp")) and (not spells or any(
            not isinstance(s, dict) or (s.get("target", "foe") != "foe" and not any(
                s.get(k) for k in RECOVERIES)) for s in spells))

    def healing(self, verb: str, values: dict[str, Any]) -> float:
        """The HP a spell's ``recover`` restores (FU-RES-1; up to the maximum)."""
        return _whole(values.get("recover")) if verb == "spell" else 0.0

    def restoring(self, verb: str, values: dict[str, Any]) -> float:
        """The MP a spell's ``recover_mp`` restores (FU-RES-1; up to the maximum)."""
        return _whole(values.get("recover_mp")) if verb == "spell" else 0.0

    def means(self, entry: dict[str, Any]) -> tuple[float, bool] | None:
        """MP left over maximum MP, and whether it pays the dearest spell on the sheet
        (FU-RES-1); None where the view shows no MP or no spells (GM-only)."""
        pool = _pool(entry, "mp")
        spells = (entry.get("stats") or {}).get("spells")
        costs = [_whole(s.get("mp")) for s in spells if isinstance(s, dict)] \
            if isinstance(spells, list) else []
        if pool is None or not pool[1] or not costs:
            return None
        return pool[0] / pool[1], pool[0] >= max(costs)

    def strength(self, values: dict[str, Any], me: dict[str, Any] | None,
                 target: dict[str, Any] | None = None) -> float:
        """The damage dealt (FU-RES-3): the high roll (taken as :data:`_HIGH_ROLL`) plus a
        spell's damage, as its sheet gives it, or a weapon's (the first equipped when none is
        named) as the attacker's own sheet shows it (0 unarmed, or for gear the sheet does not
        show: GM-only); doubled, halved, nothing or a heal by the target's affinity to its
        type, where its side may read it (a fire spell is no blow on a foe that absorbs
        fire). A spell's status effect (FU-RES-4) adds a blow of its own, the high roll, on a
        foe not holding it already: one dealing no damage weighs as a blow that no affinity
        bends (before, as a physical one: nothing on a foe immune to physical harm), and
        nothing once the foe holds it."""
        if "name" in values and values.get("status"):  # a spell inflicting a status
            held = values["status"] in ((target or {}).get("statuses") or ())
            status = 0.0 if held else float(_HIGH_ROLL)
            if values.get("damage") is None:
                return status
            return status + self.strength({k: v for k, v in values.items() if k != "status"},
                                          me, target)
        if "name" in values:  # a spell
            damage, dtype = values.get("damage") or 0, values.get("type") or "physical"
        else:
            weapon = _fu_weapon(values, me)
            damage = weapon.get("damage") if weapon is not None else 0
            dtype = (weapon or {}).get("type") or "physical"
        if not isinstance(damage, int) or isinstance(damage, bool):
            damage = 0
        affinities = ((target or {}).get("stats") or {}).get("affinities")
        felt = affinities.get(str(dtype).lower()) if isinstance(affinities, dict) else None
        return (_HIGH_ROLL + damage) * _AFFINITY_FACTOR.get(
            AFFINITIES.get(str(felt).lower(), ""), 1.0)

    def chances(self, attacks: Sequence[Attack], sight: Sight) -> list[float | None]:
        """The chance the accuracy check (a spell's magic check) beats the target's Defense
        (Magic Defense), criticals and fumbles counted (FU-CHK-1..4, FU-RES-3), from the
        side's view: the attacker's current dice and weapon, the target's Defense — None
        where the view hides one of them (GM-only)."""
        return [self._chance(values, me, target) for values, me, target in attacks]

    def _chance(self, values: dict[str, Any], me: dict[str, Any] | None,
                target: dict[str, Any] | None) -> float | None:
        if me is None or target is None:
            return None
        spell = "name" in values
        dl = target.get("mdef" if spell else "defense")
        if spell:
            attributes, bonus = named_attributes(str(values.get("accuracy") or "ins+wlp")), 0
        else:
            check = _fu_accuracy(values, me)
            if check is None:
                return None
            attributes, bonus = check
        dice = me.get("dice") or {}
        if not isinstance(dl, int) or len(attributes) != 2 or any(
                a not in dice for a in attributes):
            return None
        return _fu_hit(dice[attributes[0]], dice[attributes[1]],
                       bonus + int(_whole(values.get("bonus"))), dl)

    def optional(self, verb: str, param: str, allowed: tuple[Any, ...] | None,
                 actor: str | None, sight: Sight) -> list[Any] | None:
        """``act``: the character bides its time (a turn cannot be passed; FU-CON-6)."""
        return ["bides its time"] if verb == "act" and param == "text" else None

    def health(self, entry: dict[str, Any], settings: dict[str, Any]) -> float | None:
        """HP over maximum HP; hidden HP reads as the Crisis line (≤ half, FU-RES-2)."""
        pool = _pool(entry, "hp")
        if pool is not None:
            return pool[0] / pool[1] if pool[1] else None
        return 0.5 if entry.get("crisis") else 1.0

    def harm(self, entry: dict[str, Any], settings: dict[str, Any]) -> int:
        """HP lost."""
        pool = _pool(entry, "hp")
        return int(pool[1] - pool[0]) if pool else 0

    def takes_part(self, entry: dict[str, Any]) -> bool:
        """Extras take no turns (FU-CON-1) and do not keep their side in the conflict."""
        return not entry.get("extra")

    def weight(self, entry: dict[str, Any]) -> float:
        """An NPC's turns per round by the rank its sheet shows: an elite counts as two, a
        champion replacing N soldiers as N (FU-CON-9); a PC, or a rank kept from the side,
        as one."""
        if entry.get("kind") == "pc":
            return 1.0
        try:
            return float(parse_rank(str(entry.get("id")), entry.get("stats") or {})[1])
        except FracasError:
            return 1.0


def _fu_weapon(values: dict[str, Any], me: dict[str, Any] | None) -> dict[str, Any] | None:
    """The weapon of a Fabula Ultima attack with ``values`` on the attacker's own sheet
    ``me`` as its side sees it: the one named, else the first equipped (None: none shown —
    unarmed, or gear the sheet does not show)."""
    gear = ((me or {}).get("stats") or {}).get("equipment") or []
    arms = [i for i in gear if isinstance(i, dict) and i.get("kind", "weapon") == "weapon"]
    named = values.get("weapon")
    return next((i for i in arms if i.get("name") == named), None) if named else \
        (arms[0] if arms else None)


def _fu_accuracy(values: dict[str, Any], me: dict[str, Any]) -> tuple[tuple[str, ...], int] | None:
    """The attributes and bonus of the accuracy check of an attack with ``values``, read as
    the rules read the weapon on a sheet (an unarmed strike where none is equipped); None
    where the side may not know the attacker's gear (GM-only: its view gives no
    ``equipment``)."""
    if me.get("equipment") is None:
        return None
    weapon = _fu_weapon(values, me)
    if weapon is None:
        return None if values.get("weapon") not in (None, "unarmed", UNARMED.name) else (
            tuple(UNARMED.accuracy), UNARMED.bonus)
    accuracy, bonus = weapon.get("accuracy", "dex+mig"), weapon.get("bonus", 0)
    if isinstance(accuracy, list):
        accuracy = tuple(accuracy)
    return _fu_read_accuracy(accuracy, bonus) if isinstance(accuracy, str | tuple) and \
        isinstance(bonus, int | str) else None


@functools.lru_cache(maxsize=256)
def _fu_read_accuracy(accuracy: str | tuple[Any, ...], bonus: int | str
                      ) -> tuple[tuple[str, ...], int] | None:
    """A weapon's accuracy check as the rules read it (``make_item``): its two attributes
    and its bonus (None: the sheet's entry is no weapon the rules would read)."""
    raw = list(accuracy) if isinstance(accuracy, tuple) else accuracy
    try:
        item = make_item("", {"kind": "weapon", "accuracy": raw, "bonus": bonus})
    except FracasError:
        return None
    return tuple(item.accuracy), item.bonus


@functools.lru_cache(maxsize=1024)
def _fu_hit(a: int, b: int, bonus: int, dl: int) -> float:
    """P(a Fabula Ultima check ``{dA + dB} + bonus`` succeeds against ``dl``), exact."""
    odds = check_odds((a, b, bonus), dl)
    return float(odds["critical"] + odds["success"])


#: A VERS attack's chance to hit by (target number, DoS needed), remembered.
_vers_hit = functools.lru_cache(maxsize=256)(hit_chance)


def _whole(n: Any) -> float:
    """A whole number of a sheet's as a float; 0 for anything else."""
    return float(n) if isinstance(n, int) and not isinstance(n, bool) else 0.0


_INJURY = tuple(row[0] for row in TRACKS["injury"])  # grazed, wounded, impaired, disabled
#: The harm of a full injury track, each condition weighted by its level (2·1 + 2·2 + 3 + 4).
_INJURY_FULL = sum((level + 1) * row[1] for level, row in enumerate(TRACKS["injury"]))


class VersProfile(Profile):
    """VERS: the GM opens each turn (popcorn) and hands off for those taken out; a chase
    that reaches the top of its scale has been escaped, unless the scenario's ``[sim]
    tracking = true`` has the GM turn it to tracking (and contact back to pursuit)."""

    ruleset = "vers"
    gm_first = ("open", "handoff")
    skip = frozenset({"repair"})
    pass_verbs = frozenset({"handoff"})
    recover_verbs = frozenset({"recover"})
    objective_verbs = frozenset({"run", "interpose"})
    fills = frozenset({"weapon"})
    sheet_fills = frozenset({"weapon"})  # the weapons the legal command allows
    outcomes = ("taken out", "captured", "escaped", "evaded", "away", "won", "lost")
    harm_unit = "injury conditions, weighted grazed 1 … disabled 4; a full track 13"

    def optional(self, verb: str, param: str, allowed: tuple[Any, ...] | None,
                 actor: str | None, sight: Sight) -> list[Any] | None:
        """Every weapon the rules allow is tried as its own option."""
        if param == "weapon" and allowed:
            return list(allowed)
        return None

    def strength(self, values: dict[str, Any], me: dict[str, Any] | None,
                 target: dict[str, Any] | None = None) -> float:
        """The weapon's EV on the attacker's sheet (VR-INJ-1: the net EV sets the injury);
        unarmed, or a weapon the sheet does not show (GM-only weapons), 0."""
        weapons = ((me or {}).get("stats") or {}).get("weapons") or {}
        weapon = weapons.get(values.get("weapon")) if isinstance(weapons, dict) else None
        ev = weapon.get("ev") if isinstance(weapon, dict) else None
        return float(ev) if isinstance(ev, int | float) else 0.0

    def blow(self, values: dict[str, Any], me: dict[str, Any] | None,
             target: dict[str, Any] | None = None) -> tuple[float, float]:
        """The condition a hit lands (VR-INJ-1/5), weighted as the harm figures weigh it
        (grazed 1 … disabled 4; none below net EV 0, VR-ROLL-2): the weapon's EV on the
        attacker's sheet (:meth:`strength`) less the target's RV on the weapon's track as the
        side's view shows it (a GM-only RV: none); and the EV."""
        weapons = ((me or {}).get("stats") or {}).get("weapons") or {}
        weapon = weapons.get(values.get("weapon")) if isinstance(weapons, dict) else None
        track = values.get("track") or KIND_TRACK.get(
            str((weapon or {}).get("kind") if isinstance(weapon, dict) else ""), "injury")
        rv = ((target or {}).get("stats") or {}).get("rv" if track == "injury"
                                                     else f"{track}_rv")
        ev = self.strength(values, me, target)
        net = ev - (rv if isinstance(rv, int | float) else 0)
        rows = TRACKS.get(str(track), TRACKS["injury"])
        return float(sum(1 for row in rows if net >= row[2])), ev

    def chances(self, attacks: Sequence[Attack], sight: Sight) -> list[float | None]:
        """The chance to hit on 3d6 the acting character's player is shown for each attack
        (VR-ATK-*, VR-ROLL-1: skill, Dodge, range, cover, engagement, harm penalties); None
        where the player may not read every number of it."""
        aimed = [(me["id"], target["id"], values.get("weapon")) if me and target else None
                 for values, me, target in attacks]
        odds = sight.attack_odds([a for a in aimed if a is not None])
        return [None if a is None else odds.get(a) for a in aimed]

    def attack_odds(self, ruleset: Ruleset, state: ConflictState, viewer: Viewer,
                    aimed: Collection[Aimed]) -> Mapping[Aimed, float]:
        """The attacks of the acting character among ``aimed`` whose every number ``viewer``
        may read, as its odds give them (``readable_attacks``, ``hit_chance``)."""
        actor = state.ext.turns.current
        choices = [(t, w) for a, t, w in aimed if a == actor and w is not None]
        if not choices:
            return {}

        def see(pid: str) -> bool:
            return ruleset.can_see(state, viewer, pid)
        return {(actor, t, w): _vers_hit(plan.target_number, plan.min_dos)
                for t, w, plan in readable_attacks(state, viewer, see, choices)}

    def health(self, entry: dict[str, Any], settings: dict[str, Any]) -> float | None:
        """1 − the injury conditions held, weighted by level, over a full track's (13)."""
        return max(0.0, 1.0 - self.harm(entry, settings) / _INJURY_FULL)

    def harm(self, entry: dict[str, Any], settings: dict[str, Any]) -> int:
        """Injury conditions held, weighted by level: grazed 1, wounded 2, impaired 3,
        disabled 4 (a full injury track — two grazed, two wounded, impaired, disabled — is
        13)."""
        held = entry.get("tracks", {}).get("injury", {}).get("conditions", {})
        return sum((_INJURY.index(k) + 1) * int(n) for k, n in held.items() if k in _INJURY)

    def _foe_zones(self, foes: list[dict[str, Any]]) -> set[str]:
        return {f["zone"] for f in foes if f.get("zone")}

    def flees(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
              view: dict[str, Any], foes: list[dict[str, Any]]) -> bool:
        """Disengaging, or moving (slipping) to a zone with no foe in it; running in a chase
        as the quarry."""
        if verb in ("disengage", "run"):
            return True
        return verb in ("move", "slip") and values.get("to") not in self._foe_zones(foes)

    def advances(self, verb: str, values: dict[str, Any], me: dict[str, Any] | None,
                 foes: list[dict[str, Any]]) -> bool:
        """Moving into a zone where a foe stands."""
        return verb in ("move", "slip") and values.get("to") in self._foe_zones(foes)

    def keeps_cover(self, verb: str, me: dict[str, Any] | None) -> bool:
        """Any move gives up the cover of the actor's place (VR-ATK-5)."""
        return not (verb in ("move", "slip", "disengage") and me and me.get("cover"))

    def observe(self, chases: dict[str, ChaseWatch], events: list[Event]) -> None:
        """Chase stages from ``chase_started``, ``chase_stage``, ``chase_roll`` and
        ``chase_interpose`` events."""
        for e in events:  # typed events: their fields, not their JSON data, are read
            if isinstance(e, ChaseStarted):
                chases[e.id] = ChaseWatch(e.hunter, e.quarry, e.roller, e.stage)
            elif isinstance(e, ChaseStage) and e.id in chases:
                chases[e.id].stage = e.stage
            elif isinstance(e, ChaseRoll | ChaseInterpose) and e.id in chases:
                chases[e.id].stage = e.new_stage

    def chase_verdict(self, chases: dict[str, ChaseWatch], side_of: dict[str, str],
                      tracking: bool = False) -> tuple[str, str] | None:
        """Captured: the hunter's side wins; escaped (top of the pursuit; unless
        ``tracking``: then the hunt goes on), evaded (a quarry's successful interpose) or
        completely away (top of the tracking): the quarry's; a race for a prize: won or lost
        (VR-CHASE-4, VR-CHASE-6, VR-CHASE-7)."""
        for chase in chases.values():
            other = chase.quarry if chase.roller == chase.hunter else chase.hunter
            winner = {"captured": chase.hunter, "escaped": chase.quarry, "evaded": chase.quarry,
                      "away": chase.quarry,
                      "won": chase.roller, "lost": other}.get(chase.stage)
            if winner is not None and not (tracking and chase.stage == "escaped"):
                return side_of[winner], chase.stage
        return None

    def _chase_outcomes(self, chases: dict[str, ChaseWatch], tracking: bool) -> set[str]:
        """A race for a prize: won or lost; a pursuit or a tracking: captured, escaped (the
        top of the pursuit, unless ``tracking`` follows it up), evaded (a quarry who rolls
        interposes at 1, VR-CHASE-6), away (the top of a tracking: one the chase starts at,
        or with ``tracking``). Only the GM starts a chase (``chase``), and the simulated GM
        never does: the prologue's are all there are."""
        out: set[str] = set()
        for c in chases.values():
            if c.stage in ("interpose", "won", "lost"):
                out |= {"won", "lost"}
                continue
            out |= {"captured", c.stage} if c.stage in self.outcomes else {"captured"}
            if not tracking:
                out.add("escaped")
            if c.roller == c.quarry:
                out.add("evaded")
            if tracking or c.stage == "tracking":
                out.add("away")
        return out

    def chase_turns(self, chases: dict[str, ChaseWatch], tracking: bool
                    ) -> tuple[tuple[str, str], ...]:
        """``pursue`` for a chase whose hunter has made contact (pursuit begins again,
        VR-CHASE-7); with ``tracking``, ``track`` for one whose quarry has escaped
        (VR-CHASE-4). The GM may give either sooner, as events turn a stage (VR-CHASE-1):
        the simulated GM does not."""
        return (*(("pursue", cid) for cid, c in chases.items() if c.stage == "contact"),
                *(("track", cid) for cid, c in chases.items()
                  if tracking and c.stage == "escaped"))

    def apart(self, chases: dict[str, ChaseWatch]) -> frozenset[tuple[str, str]]:
        """The two parties of a chase still on its scale (pursuit, contact, escaped,
        tracking: VR-CHASE-1/4/7), who are not within reach of each other until it ends."""
        return frozenset(pair for c in chases.values() if c.stage in _APART
                         for pair in ((c.hunter, c.quarry), (c.quarry, c.hunter)))


#: The stages of a chase whose parties are apart on its scale.
_APART = frozenset({"pursuit", "contact", "escaped", "tracking"})


PROFILES: dict[str, Profile] = {
    p.ruleset: p for p in (EtherscopeProfile(), FabulaUltimaProfile(), VersProfile())}


def profile_of(ruleset: str) -> Profile:
    """The simulator's profile of a ruleset (a ruleset without one: a generic reading)."""
    return PROFILES.get(ruleset, Profile())
