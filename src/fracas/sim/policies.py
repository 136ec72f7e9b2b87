"""Agent policies: a side's choice among the structured legal commands it may give now.

A policy is any callable ``policy(turn: Turn) -> Option``. It sees only ``turn.view``, the
projection its side's player would get (fracas.engine.views.view), and ``turn.options``, the
playable forms of the legal commands of its characters who may act now. Plug your own in as
``module:function`` (on the command line, ``--policy side=mypkg.tactics:berserk``, or in the
scenario's ``[sim] policies``); built-ins are named in :data:`BUILT_IN`.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pkgutil
import traceback
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from fracas.app.scenario import unknown_policy
from fracas.dice.rng import DiceRng
from fracas.engine.legal import LegalCommand
from fracas.engine.projector import Entries
from fracas.engine.suggest import did_you_mean
from fracas.errors import InvalidInput
from fracas.sim.profiles import ACCEPT, COMPROMISE, SURRENDER, Aimed, Attack, Profile

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Option:
    """One legal command with every value chosen: what a policy returns."""

    legal: LegalCommand
    values: tuple[tuple[str, Any], ...] = ()

    @property
    def verb(self) -> str:
        """The command's verb."""
        return self.legal.verb

    @property
    def actor(self) -> str | None:
        """Who gives it (None: the GM)."""
        return self.legal.actor

    def value(self, name: str, default: Any = None) -> Any:
        """The value of parameter ``name``: chosen here, or fixed by the legal command."""
        for key, value in self.values:
            if key == name:
                return value
        for c in self.legal.params:
            if c.name == name and c.fixed is not None:
                return c.fixed
        return default

    def arguments(self) -> dict[str, Any]:
        """Every value of the command: fixed ones and chosen ones."""
        args: dict[str, Any] = self.command()["args"]
        return args

    def command(self) -> dict[str, Any]:
        """The engine's JSON form of the command."""
        return self.legal.command(**dict(self.values))


@dataclass(frozen=True, slots=True)
class Offer:
    """A concession a policy may return instead of an option, where the rules allow it
    (``turn.offers``): ``surrender`` (the side's characters give up, out of the conflict),
    ``compromise`` (offered to the other side; the side then still takes its turn) or
    ``accept`` (the other side's compromise: the conflict ends in it)."""

    kind: str


_LIST_KINDS = ("ids", "keys", "ints", "dice")


class Sight:
    """What one side's player would see (the projection of ``fracas.engine.views.view``),
    computed on first use: a policy that never looks costs no view. The pending roll's exact
    odds are left out of the view (``"odds": None``) and computed only when asked for
    (:attr:`odds`); reading characters (:meth:`entry`, :attr:`basics`) does not compute the
    ruleset's part of the view (positions, ranges) until :attr:`view` is read, and until then
    a character (:meth:`entry`) or the settings (:attr:`settings`) are made on their own."""

    __slots__ = ("_asked", "_attack_odds", "_basics", "_by_id", "_entries", "_load",
                 "_load_attack_odds", "_load_odds", "_settings", "_view")

    def __init__(self, load: Callable[[bool], dict[str, Any]],
                 odds: Callable[[], list[str]] | None = None,
                 entries: Entries | None = None,
                 attack_odds: Callable[[Collection[Aimed]], Mapping[Aimed, float]] | None = None
                 ) -> None:
        """``load(full)`` gives the view; ``full=False``: without the ruleset's part.
        ``entries``, if given, make one character's entry, or the settings, of that view
        without the rest; ``attack_odds`` the chances to hit its player is shown of the
        attacks it is given (:meth:`Profile.attack_odds`)."""
        self._load = load
        self._load_odds = odds
        self._entries = entries
        self._load_attack_odds = attack_odds
        self._attack_odds: dict[Aimed, float] = {}
        self._asked: set[Aimed] = set()
        self._view: dict[str, Any] | None = None
        self._basics: dict[str, Any] | None = None
        self._by_id: dict[str, dict[str, Any] | None] = {}  # None: not known to the side
        self._settings: dict[str, Any] | None = None

    @property
    def odds(self) -> list[str]:
        """The exact odds of the roll about to be made, as this side's player sees them."""
        return self._load_odds() if self._load_odds is not None else []

    def attack_odds(self, aimed: Collection[Aimed]) -> Mapping[Aimed, float]:
        """The chance to hit of those of the ``aimed`` attacks (attacker, target, weapon)
        whose odds the side's player is shown now (:meth:`Profile.attack_odds`), each worked
        out once."""
        missing = [a for a in aimed if a not in self._asked]
        if missing and self._load_attack_odds is not None:
            self._attack_odds.update(self._load_attack_odds(missing))
            self._asked.update(missing)
        return self._attack_odds

    @property
    def view(self) -> dict[str, Any]:
        """The side's view of the conflict."""
        if self._view is None:
            self._view = self._load(True)
            self._index(self._view)
        return self._view

    @property
    def basics(self) -> dict[str, Any]:
        """The side's view, perhaps without the ruleset's part (``"ruleset": None``): its
        characters, settings, round and status."""
        if self._view is not None:
            return self._view
        if self._basics is None:
            self._basics = self._load(False)
            self._index(self._basics)
        return self._basics

    @property
    def settings(self) -> dict[str, Any]:
        """The conflict's settings as the side sees them (those of :attr:`basics`)."""
        if self._loaded() or self._entries is None:
            return self.basics["conflict"]["settings"] if self.basics else {}
        if self._settings is None:
            self._settings = self._entries.settings()
        return self._settings

    def _loaded(self) -> bool:
        return self._basics is not None or self._view is not None

    def _index(self, view: dict[str, Any]) -> None:
        self._by_id.clear()
        for level in [view["conflict"], *view["zoom"]] if view else []:
            for p in level["participants"]:
                self._by_id[p["id"]] = p

    def entry(self, pid: str | None) -> dict[str, Any] | None:
        """A character as this side sees it (None: unknown to it): from the view once it
        is loaded, else on its own (the same entry)."""
        key = pid or ""
        if not self._loaded() and self._entries is not None:
            if key not in self._by_id:
                self._by_id[key] = self._entries(key) if key else None
            return self._by_id[key]
        self.basics  # noqa: B018 (loads the view)
        return self._by_id.get(key)

    def entries(self) -> list[dict[str, Any]]:
        """Every character this side sees, in the view's order."""
        if not self._loaded() and self._entries is not None:
            found = (self.entry(pid) for pid in self._entries.ids())
            return [e for e in found if e is not None]
        self.basics  # noqa: B018 (loads the view)
        return [e for e in self._by_id.values() if e is not None]


def options_of(legal: LegalCommand, profile: Profile, sight: Sight) -> list[Option]:
    """The playable forms of one legal command: every combination of the values the rules
    allow for its required parameters (and of the optional ones the profile picks); none when
    a required value is open and the profile cannot fill it."""
    names: list[str] = []
    choices: list[list[Any]] = []
    for c in legal.params:
        if c.fixed is not None:
            continue
        if c.required:
            values = list(c.allowed) if c.allowed is not None else profile.candidates(
                legal.verb, c.name, legal.actor, sight)
            if not values:
                return []
        else:
            values = profile.optional(legal.verb, c.name, c.allowed, legal.actor, sight
                                      ) if c.name in profile.fills else None
            if not values:
                continue
        if c.kind in _LIST_KINDS:
            values = [v if isinstance(v, list | tuple) else [v] for v in values]
        names.append(c.name)
        choices.append(values)
    return [Option(legal, tuple(zip(names, combo, strict=True)))
            for combo in itertools.product(*choices)]


K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """Values worked out for objects, remembered by identity (each object is kept, so its
    id stays its own; at most ``limit`` of them, then it starts afresh): for immutable
    values made once and handed out again, such as legal commands and their options."""

    __slots__ = ("_known", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._known: dict[int, tuple[K, V]] = {}

    def get(self, obj: K, build: Callable[[], V]) -> V:
        """The value for ``obj``, made by ``build`` the first time."""
        known = self._known.get(id(obj))
        if known is None or known[0] is not obj:
            if len(self._known) >= self.limit:
                self._known.clear()
            known = self._known[id(obj)] = (obj, build())
        return known[1]


class Playable:
    """:func:`options_of` for one profile (and one job), remembered for each legal command
    whose options need no view: every open value listed by the rules or filled by the
    profile from the actor's sheet alone (:attr:`Profile.sheet_fills`). A legal command is
    an immutable value, made once by its ruleset, so are its options."""

    __slots__ = ("_known", "profile")

    def __init__(self, profile: Profile, limit: int = 4096) -> None:
        self.profile = profile
        #: by legal command: its options (None: they depend on the view)
        self._known: ByIdentity[LegalCommand, tuple[Option, ...] | None] = ByIdentity(limit)

    def __call__(self, legal: LegalCommand, sight: Sight) -> Sequence[Option]:
        """The playable forms of ``legal`` (see :func:`options_of`)."""
        known = self._known.get(legal, lambda: None if self._viewed(legal) else tuple(
            options_of(legal, self.profile, sight)))
        return options_of(legal, self.profile, sight) if known is None else known

    def _viewed(self, legal: LegalCommand) -> bool:
        """Whether the options of ``legal`` depend on the side's view."""
        fills, sheet = self.profile.fills, self.profile.sheet_fills
        return any(c.fixed is None and c.name not in sheet and (
            c.allowed is None if c.required else c.name in fills) for c in legal.params)


@dataclass(slots=True)
class Turn:
    """What a side's agent knows when it must choose: its options and its player's view."""

    side: str
    options: tuple[Option, ...]
    sight: Sight
    side_of: Mapping[str, str]  # the side of each character the side's view shows
    profile: Profile
    rng: DiceRng
    offers: tuple[Offer, ...] = ()  # the concessions the side may make now
    proposal: str | None = None  # the side whose compromise is on the table, if any
    #: (actor, target) pairs kept apart by a chase under way: no attack (Profile.apart)
    apart: frozenset[tuple[str, str]] = frozenset()
    #: :meth:`attacks` of the options it was last worked out for (the options may change)
    _attacks: tuple[tuple[Option, ...], tuple[Option, ...]] | None = field(
        default=None, init=False, repr=False, compare=False)

    def offer(self, kind: str) -> Offer | None:
        """The concession ``kind`` (surrender, compromise, accept) if the side may make it
        now, else None."""
        return next((o for o in self.offers if o.kind == kind), None)

    @property
    def view(self) -> dict[str, Any]:
        """The side's view of the conflict (the projection its player gets)."""
        return self.sight.view

    @property
    def odds(self) -> list[str]:
        """The exact odds of the pending roll as the side's player sees them (computed when
        read: the view leaves them out)."""
        return self.sight.odds

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly, from the encounter's own generator."""
        return items[self.rng.below(len(items))]

    def entry(self, pid: str | None) -> dict[str, Any] | None:
        """A character as this side sees it (None: unknown to it)."""
        return self.sight.entry(pid)

    def foes(self) -> list[dict[str, Any]]:
        """The characters of other sides this side can see, still in the conflict."""
        return [p for p in self.sight.entries() if self.side_of.get(p["id"]) != self.side
                and p["present"] and p["out"] is None and self.profile.takes_part(p)]

    def friends(self) -> list[dict[str, Any]]:
        """This side's characters still in the conflict."""
        return [p for p in self.sight.entries() if self.side_of.get(p["id"]) == self.side
                and p["present"] and p["out"] is None and self.profile.takes_part(p)]

    def health(self, entry: dict[str, Any] | None) -> float:
        """How much fight a character has left as this side sees it (1 when unknown)."""
        h = self.profile.health(entry, self.sight.settings) if entry else None
        return 1.0 if h is None else h

    def balance(self) -> float:
        """This side's fight left over its foes' (by the view; 1 when neither has any): each
        character's :meth:`health` times its weight (:meth:`Profile.weight`: a Fabula Ultima
        champion replacing three soldiers counts three times)."""
        weight = self.profile.weight
        mine = sum(weight(p) * self.health(p) for p in self.friends())
        theirs = sum(weight(p) * self.health(p) for p in self.foes())
        return mine / theirs if theirs else (float("inf") if mine else 1.0)

    def losing(self) -> bool:
        """Whether this side has less fight left than its foes (by the view)."""
        return self.balance() < 1.0

    def attacks(self) -> list[Option]:
        """The options that attack a character of another side (the legal commands name
        only targets the actor may attack), in the order of :attr:`options`; not the other
        party of a chase under way (:attr:`apart`: the chase, not a blow, settles it)."""
        known = self._attacks
        if known is None or known[0] is not self.options:
            verbs, side_of, side = self.profile.attack_verbs, self.side_of, self.side
            known = self._attacks = (self.options, tuple(
                o for o in self.options if o.legal.verb in verbs
                and side_of.get(o.value("target"), side) != side
                and (o.actor, o.value("target")) not in self.apart))
        return list(known[1])

    def chance(self, option: Option) -> float | None:
        """The chance that the attack ``option`` hits, exact, as this side may read it (None:
        it may not, or the rules give every target the same: :meth:`Profile.chances`)."""
        return self.profile.chances([self._attack(option)], self.sight)[0]

    def _attack(self, option: Option) -> Attack:
        """``option`` as :meth:`Profile.chances` weighs it."""
        return (option.arguments(), self.entry(option.actor) if option.actor else None,
                self.entry(option.value("target")))

    def where(self, test: Callable[[Option], bool]) -> list[Option]:
        """The options that pass ``test``."""
        return [o for o in self.options if test(o)]


Policy = Callable[[Turn], Option | Offer]


def random_legal(turn: Turn) -> Option:
    """Any playable legal command, uniformly."""
    return turn.pick(turn.options)


#: An attack is worth making when the harm it is likely to do (its chance to hit times the
#: harm of a hit) is at least this share of the most its attacker may do with another now: the
#: built-in policies pick their target among those, so focus fire piles onto a nearly beaten
#: foe it has a fair chance to hit, not onto one behind full cover it almost never hits.
WORTH_SHARE = 0.5


def _target_by(turn: Turn, key: Callable[[dict[str, Any]], float]) -> Option | None:
    """An attack on the foe ``key`` ranks first among those worth making (:class:`Weights`:
    :data:`WORTH_SHARE` of what its attacker may do at best), each attacker with its best blow
    on it. The chances of the first-ranked foe's attacks are worked out first, the others'
    only where they may decide whether those are worth making."""
    attacks = turn.attacks()
    if len(attacks) < 2:
        return turn.pick(attacks) if attacks else None
    rank = {id(o): key(turn.entry(o.value("target")) or {}) for o in attacks}
    first = min(rank.values())
    weights = Weights(turn, attacks)
    kept = weights.surely_kept([o for o in attacks if rank[id(o)] == first])
    if kept is None:
        kept = [o for o in attacks if weights.worth_making(o)]
        first = min(rank[id(o)] for o in kept)
        kept = [o for o in kept if rank[id(o)] == first]
    return turn.pick(_strongest(kept, weights.worth))


class Weights:
    """What the attacks on offer are likely to achieve: each one's expected harm — its chance
    to hit as the side may read it (:meth:`Profile.chances`; one it may not read, such as a
    GM-only Defense, counts as a sure hit: harm alone, as the policies weighed it before)
    times the harm of a hit — and its strength, which breaks ties (:meth:`Profile.blow`).
    The chances are worked out when first needed, a batch at a time (VERS reads them from
    its pending odds, which plan every attack asked about)."""

    __slots__ = ("_aimed", "_attacks", "_bound", "_known", "_turn")

    def __init__(self, turn: Turn, attacks: list[Option]) -> None:
        self._turn = turn
        self._attacks = attacks
        self._aimed = {id(o): turn._attack(o) for o in attacks}
        me = turn.profile
        #: by attack: (harm of a hit, strength); the expected harm is at most the first
        self._bound = {key: me.blow(*a) for key, a in self._aimed.items()}
        self._known: dict[int, tuple[float, float]] = {}  # by attack: (expected harm, strength)

    def worth(self, option: Option) -> tuple[float, float]:
        """(expected harm, strength) of ``option``, one of the attacks."""
        if id(option) not in self._known:
            self._weigh([option])
        return self._known[id(option)]

    def _weigh(self, options: list[Option]) -> None:
        """Work out the chances of those of ``options`` not weighed yet, in one batch."""
        todo = [o for o in options if id(o) not in self._known]
        if not todo:
            return
        turn = self._turn
        chances = turn.profile.chances([self._aimed[id(o)] for o in todo], turn.sight)
        for o, c in zip(todo, chances, strict=True):
            harm, strength = self._bound[id(o)]
            self._known[id(o)] = ((1.0 if c is None else c) * harm, strength)

    def worth_making(self, option: Option) -> bool:
        """Whether ``option`` is likely to do :data:`WORTH_SHARE` of the most its attacker
        may do now, or more (where none of its attacks does any good, the least bad)."""
        mine = [o for o in self._attacks if o.actor == option.actor]
        self._weigh(mine)
        best = max(self._known[id(o)][0] for o in mine)
        floor = WORTH_SHARE * best if best > 0 else best
        return self._known[id(option)][0] >= floor

    def surely_kept(self, front: list[Option]) -> list[Option] | None:
        """Those of ``front`` (the attacks on the first-ranked foes) worth making, found from
        their own chances alone, none of the others' — None when those may decide (an attack
        of ``front`` kept only if its attacker's others turn out to be long shots, or none of
        ``front`` kept)."""
        self._weigh(front)
        kept = []
        for o in front:
            mine = [a for a in self._attacks if a.actor == o.actor]
            most = max(max(self._bound[id(a)][0], 0.0) for a in mine)  # a sure hit's
            seen = max(self._known[id(a)][0] for a in mine if id(a) in self._known)
            worth = self._known[id(o)][0]
            if most > 0 and worth >= WORTH_SHARE * most:
                kept.append(o)
            elif not (seen > 0 and worth < WORTH_SHARE * seen):
                return None
        return kept or None


def _strongest(attacks: list[Option], worth: Callable[[Option], tuple[float, float]]
               ) -> list[Option]:
    """``attacks`` less those whose attacker has a better one against the same target
    (``worth``, :meth:`Weights.worth`): more harm to expect (a VERS sword's hit over a
    punch's graze, a Fabula Ultima spell against a low Magic Defense over a blade against a
    high Defense), then the harder blow."""
    if len(attacks) < 2:
        return attacks
    top: dict[tuple[str | None, Any], tuple[float, float]] = {}
    for o in attacks:
        at = (o.actor, o.value("target"))
        top[at] = max(top.get(at, worth(o)), worth(o))
    return [o for o in attacks if worth(o) == top[(o.actor, o.value("target"))]]


def _otherwise(turn: Turn) -> Option:
    """No attack to make: look for foes when none is in sight, else close in on one, else
    pass the go, else anything."""
    me = turn.profile
    foes = turn.foes()
    seek = turn.where(lambda o: o.verb in me.seek_verbs) if not foes else []
    if seek:
        return turn.pick(seek)
    closer = turn.where(lambda o: me.advances(o.verb, o.arguments(), turn.entry(o.actor), foes))
    if closer:
        return turn.pick(closer)
    passes = turn.where(lambda o: o.verb in me.pass_verbs)
    rest = passes or turn.where(lambda o: not _at_friends(turn, o)) or list(turn.options)
    settings = turn.sight.settings if any(o.verb in me.sized_verbs for o in rest) else {}
    kept = [o for o in rest if o.verb not in me.sized_verbs
            or not me.wasteful(o.verb, o.arguments(), turn.entry(o.actor), settings)]
    return turn.pick(kept or rest)


def _at_friends(turn: Turn, option: Option) -> bool:
    """Whether ``option`` is a hostile move (an Etherscope ambush) aimed at the side's own."""
    return option.verb in turn.profile.hostile_verbs and any(
        turn.side_of.get(t) == turn.side for t in option.value("targets") or ())


def _objective(turn: Turn) -> Option | None:
    """A move on the conflict's objective (a chase roll), if there is one to make."""
    chase = turn.where(lambda o: o.verb in turn.profile.objective_verbs)
    return turn.pick(chase) if chase else None


#: A healer of the side (a Fabula Ultima spell that recovers HP) spends its turn on the most
#: hurt of the side's characters once its health, as the side's view shows it, is at most this
#: (a half: a Fabula Ultima character in Crisis, FU-RES-2, which the view shows of hidden HP
#: too); ``defensive`` heals sooner, at :data:`DEFENSIVE_HEAL_AT`.
HEAL_AT = 0.5
DEFENSIVE_HEAL_AT = 0.75


def _heal(turn: Turn, at: float = HEAL_AT) -> Option | None:
    """A heal (:meth:`Profile.healing`) on the side's most hurt character the view shows, if
    its health is ``at`` or less: the largest heal on offer for it (the legal commands offer a
    spell only while its caster has the MP for it, FU-RES-1)."""
    def hurt(o: Option) -> float | None:
        health = turn.health(turn.entry(o.value("target")))
        return health if health <= at else None
    return _neediest(turn, turn.profile.healing, hurt)


#: An ally's MP is restored (a Fabula Ultima spell's ``recover_mp``) once it can no longer pay
#: every spell on its sheet, or has this share of its MP or less left (a healer keeps enough
#: to cast a spell that restores its own).
RESTORE_AT = 0.25


def _restore(turn: Turn) -> Option | None:
    """A restoring of means (:meth:`Profile.restoring`: a Fabula Ultima spell's MP) on the
    side's character with the least left of those the view shows short of them
    (:meth:`Profile.means`: it cannot pay every spell on its sheet, or is at
    :data:`RESTORE_AT` or less), the largest on offer for it; None when nobody is short (an
    ally with MP to spare, or whose MP the side may not read, is not worth the turn)."""
    def short(o: Option) -> float | None:
        means = turn.profile.means(turn.entry(o.value("target")) or {})
        return means[0] if means is not None and (not means[1] or means[0] <= RESTORE_AT) \
            else None
    return _neediest(turn, turn.profile.restoring, short)


def _neediest(turn: Turn, amount: Callable[[str, dict[str, Any]], float],
              need: Callable[[Option], float | None]) -> Option | None:
    """Of the side's options that help one of its own (``amount`` of the help above 0: a
    heal, a restoring of MP), one on the ally in most need (the least ``need``; None: not in
    need), the largest help on offer for it; None when no ally is in need."""
    me = turn.profile
    helps = [o for o in turn.options if o.verb in me.heal_verbs
             and turn.side_of.get(o.value("target")) == turn.side
             and amount(o.verb, o.arguments()) > 0] if me.heal_verbs else []
    needs = {id(o): n for o in helps if (n := need(o)) is not None}
    if not needs:
        return None
    least = min(needs.values())
    kept = [o for o in helps if needs.get(id(o)) == least]
    most = max(amount(o.verb, o.arguments()) for o in kept)
    return turn.pick([o for o in kept if amount(o.verb, o.arguments()) == most])


def focus_fire(turn: Turn) -> Option:
    """Press the objective (a chase roll) if there is one; else heal the side's most hurt
    character at half its health or less (:data:`HEAL_AT`) where a healer may; else restore
    MP to the one of the side shortest of it (:func:`_restore`); else attack the foe with the
    least fight left (as the view shows), so the side's attacks pile on one target;
    otherwise close in."""
    return (_objective(turn) or _heal(turn) or _restore(turn)
            or _target_by(turn, turn.health) or _otherwise(turn))


def weakest_first(turn: Turn) -> Option:
    """Heal and restore MP as focus-fire does; attack the foe whose sheet looks weakest
    (least health left in absolute terms: the ruleset's harm reading, fewest points, lowest
    condenser); otherwise close in."""
    def absolute(entry: dict[str, Any]) -> float:
        harm = turn.profile.harm(entry, turn.sight.settings)
        return turn.health(entry) - harm / 100.0
    return (_objective(turn) or _heal(turn) or _restore(turn) or _target_by(turn, absolute)
            or _otherwise(turn))


def defensive(turn: Turn) -> Option:
    """Keep cover and heal: recover when below half, heal the side's most hurt character at
    three quarters of its health or less (:data:`DEFENSIVE_HEAL_AT`), never leave cover, else
    focus fire."""
    me = turn.profile
    hurt = turn.where(lambda o: o.verb in me.recover_verbs
                      and turn.health(turn.entry(o.actor)) < 0.5)
    if hurt:
        return turn.pick(hurt)
    heal = _heal(turn, DEFENSIVE_HEAL_AT)
    if heal is not None:
        return heal
    staying = tuple(o for o in turn.options if me.keeps_cover(o.verb, turn.entry(o.actor)))
    if staying and len(staying) < len(turn.options):
        turn = dataclasses.replace(turn, options=staying)
    return focus_fire(turn)


def flee_when_losing(turn: Turn) -> Option:
    """When the side has less fight left than its foes, get away (move away, disengage, hide,
    run); otherwise focus fire."""
    if turn.losing():
        me = turn.profile
        foes = turn.foes()
        away = turn.where(lambda o: me.flees(o.verb, o.arguments(), turn.entry(o.actor),
                                             turn.sight.basics, foes))
        if away:
            return turn.pick(away)
    return focus_fire(turn)


def parley(turn: Turn) -> Option | Offer:
    """Talk where the rules allow it (Fabula Ultima): accept the other side's compromise
    unless winning by half as much again; surrender with a quarter of the foes' fight left
    or less; offer a compromise when losing (once: the offer stands until the other side's
    turn); then focus fire."""
    balance = turn.balance()
    accept = turn.offer(ACCEPT)
    if accept is not None and balance < 1.5:
        return accept
    surrender = turn.offer(SURRENDER)
    if surrender is not None and balance <= 0.25:
        return surrender
    compromise = turn.offer(COMPROMISE)
    if compromise is not None and balance < 1.0:
        return compromise
    return focus_fire(turn)


BUILT_IN: dict[str, Policy] = {
    "random": random_legal,
    "focus-fire": focus_fire,
    "weakest-first": weakest_first,
    "defensive": defensive,
    "flee": flee_when_losing,
    "parley": parley,
}
DEFAULT_POLICY = "focus-fire"


def may_concede(policy: Policy) -> bool:
    """Whether a side's policy may make a concession (``turn.offers``): ``parley``, or a
    policy of your own; the other built-in policies never do."""
    return policy is parley or not any(policy is p for p in BUILT_IN.values())


_IMPORTING = str(Path(importlib.__file__).parent)  # the import machinery's own frames


def fault_site(exc: BaseException) -> str:
    """Where a policy of your own failed, for its one-line error: `` at mytactics.py:12 in
    berserk`` — the innermost frame of the traceback outside fracas and Python's import
    machinery (so a bad id the policy handed to ``turn.entry`` is blamed on the policy's
    line), relative to the working folder where it is inside it; "" when there is none."""
    ours = str(Path(__file__).parent.parent)
    frames = [fr for fr in traceback.extract_tb(exc.__traceback__)
              if not fr.filename.startswith((ours, _IMPORTING, "<frozen"))]
    if not frames:
        return ""
    last = frames[-1]
    try:
        where = str(Path(last.filename).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        where = last.filename
    return f" at {where}:{last.lineno} in {last.name}"


def _sibling_hint(missing: str) -> str:
    """``; did you mean 'tactics.brawl'?`` for a module ``tactics.brawk`` whose package was
    found but not the module, or ``""``."""
    parent, dot, _ = missing.rpartition(".")
    try:
        path = importlib.import_module(parent).__path__ if dot else None
    except Exception:  # a hint only: the refusal says what failed
        return ""
    if path is None:
        return ""
    return did_you_mean(missing, [f"{parent}.{m.name}" for m in pkgutil.iter_modules(path)])


def load_policy(name: str) -> Policy:
    """A built-in policy by name, or ``module:function`` imported from the Python path."""
    if name in BUILT_IN:
        return BUILT_IN[name]
    refusal = unknown_policy(name)  # the words a scenario's [sim] policies are refused with
    if refusal:
        raise InvalidInput(refusal, policy=name)
    module, _, attr = name.partition(":")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        hint = (f" (a module of your own is found on the Python path: run with "
                f"PYTHONPATH=DIR, DIR the folder that holds {top}.py or the package {top}/)"
                if exc.name == top else _sibling_hint(exc.name or module))
        raise InvalidInput(f"policy {name!r} cannot be loaded: {exc}{hint}",
                           policy=name) from None
    except (Exception, SystemExit) as exc:  # any fault of the module as it loads
        raise InvalidInput(f"policy {name!r} cannot be loaded: {type(exc).__name__}: {exc}"
                           f"{fault_site(exc)}", policy=name) from None
    found = getattr(loaded, attr, None)
    if found is None:
        named = [k for k, v in vars(loaded).items() if callable(v) and not k.startswith("_")]
        raise InvalidInput(f"policy {name!r} cannot be loaded: {module} has no {attr!r}"
                           f"{did_you_mean(attr, named)}", policy=name)
    if not callable(found):
        raise InvalidInput(f"policy {name!r} is not callable", policy=name)
    policy: Policy = found
    return policy


def policies_for(sides: Iterable[str], chosen: dict[str, str]) -> dict[str, Policy]:
    """The policy of every side (``chosen`` by side name, the rest :data:`DEFAULT_POLICY`);
    a side that is not in the conflict is refused by name."""
    sides = list(sides)
    unknown = sorted(set(chosen) - set(sides))
    if unknown:
        raise InvalidInput(f"a policy is given for side {unknown[0]!r}, but there is no side "
                           f"{unknown[0]!r} in this conflict (sides: {', '.join(sides)})",
                           side=unknown[0])
    return {s: load_policy(chosen.get(s, DEFAULT_POLICY)) for s in sides}
