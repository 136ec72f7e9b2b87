"""One simulated encounter, played to its end on the fast path.

The fast path plays every command through the same code as the table: ``Conflict.decide``
(the engine's checks — author, ended, out of play — then the engine's or the ruleset's
``decide`` with the dice of the command's version, then the round-limit and effect rules) and
``Conflict.commit`` (the engine's ``evolve`` fold, as ``Conflict.execute`` gives it the record
it decided). It skips only what a table needs:
no text is parsed or written (commands go in as their JSON form, the record's command text
is left empty), no timestamps or idempotency keys, no store, no log entries or sentences,
and no view but the one the acting side's agent looks at (the projection of the live state,
computed when read, without odds nobody reads) and the GM's characters at the end, to read
the harm. Legal commands are the ruleset's structured values (each made once, then handed out
again), asked for every character at once, once per version of the conflict; the playable
forms of a legal command that need no view are worked out once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeGuard

from fracas.app.script import opening
from fracas.dice.rng import DiceRng
from fracas.engine.commands import Command
from fracas.engine.conflict import Conflict, command_set
from fracas.engine.events import Event, Record
from fracas.engine.legal import LegalCommand, from_template, without
from fracas.engine.model import Status, Viewer, copy_json
from fracas.engine.projector import Entries, state_view
from fracas.engine.setup import Setup, hidden_joins
from fracas.errors import FracasError, InvalidInput
from fracas.rulesets import get_ruleset
from fracas.rulesets.legal import Made, frozen_key
from fracas.sim.job import (
    SimJob,
    SimSides,
    apply_overrides,
    encounter_seed,
    shown,
    side_or_default,
    sim_options,
    vary_error,
    with_side_players,
)
from fracas.sim.policies import (
    BUILT_IN,
    ByIdentity,
    Offer,
    Option,
    Playable,
    Policy,
    Sight,
    Turn,
    fault_site,
    may_concede,
    policies_for,
)
from fracas.sim.profiles import (
    ACCEPT,
    COMPROMISE,
    SURRENDER,
    SURRENDERED,
    TABLE_VERBS,
    Aimed,
    ChaseWatch,
    Profile,
    profile_of,
)
from fracas.sim.stats import NO_DECISION, NO_WINNER, EncounterResult, Refusal

_GM = Viewer.gm()
_ENDED = Status.ENDED.value  # read once: an enum member's value is slow to look up
MAX_REFUSED_PER_TURN = 64
"""How many refused commands a policy may choose in one turn before the job stops with an
error (a policy returning a refused command that is not among ``turn.options`` would otherwise
be asked again and again)."""
_NO_SIGHT = Sight(lambda full: {})  # the simulated GM fills no open values from a view


def _short(value: object) -> str:
    """A value as a policy's error shows it: its repr, cut at 200 characters."""
    text = repr(value)
    return text if len(text) <= 200 else text[:199] + "…"


def _well_formed(choice: object) -> TypeGuard[Option]:
    """Whether a policy's choice is an Option a command can be made of: a legal command and
    (name, value) pairs (a policy may choose values of its own; the rules judge them)."""
    return (isinstance(choice, Option) and isinstance(choice.legal, LegalCommand)
            and isinstance(choice.values, tuple)
            and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)
                    for v in choice.values))


@dataclass(slots=True)
class Prepared:
    """A job made ready to play encounters: set-up, sides, policies, prologue."""

    ruleset_name: str
    setup: Setup
    sides: SimSides
    profile: Profile
    policies: dict[str, Policy]
    prologue: tuple[Command, ...]
    max_rounds: int
    seed: str
    bystanders: frozenset[str]  # characters who do not count for their side (FU extras)
    left_out: frozenset[str] = frozenset()  # verbs no character plays: the table's, skipped
    created: Record | None = None  # the set-up record, made (and checked) once
    tracking: bool = False  # [sim] tracking: an escape in a chase is followed up
    names: dict[str, str] = field(default_factory=dict)  # every character's, joiners' too
    outcomes: tuple[str, ...] = ()  # the outcomes an encounter can come to (Profile.reachable)
    prologue_text: tuple[str, ...] = ()  # the prologue's commands, as the scenario gives them
    options: Playable = field(init=False)  # the playable forms of legal commands
    distinct: Distinct = field(init=False)  # equal legal commands told apart
    checked: Made[Command] = field(init=False)  # the commands played, checked, by JSON form
    commands_of: ByIdentity[Option, Command] = field(init=False)  # an option's checked command
    # the sides whose policy is the user's: each is shown a copy of its view (the built-in
    # policies only read theirs, which share the live state's values: no copy on the fast path)
    private_views: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.options = Playable(self.profile)
        self.distinct = Distinct()
        self.checked = Made()
        self.commands_of = ByIdentity()
        ours = list(BUILT_IN.values())
        self.private_views = frozenset(side for side, policy in self.policies.items()
                                       if not any(policy is built_in for built_in in ours))


def prepare(job: SimJob) -> Prepared:
    """Read the job's scenario, apply its variation and check it by creating the conflict
    once (a refused set-up or prologue is an error naming the file)."""
    scenario = job.scenario()
    options = sim_options(scenario)
    setup, sides = with_side_players(apply_overrides(scenario.setup, job.overrides))
    ruleset = get_ruleset(setup.ruleset)
    commands = command_set(ruleset)
    lines = [ln for ln in options["prologue"].splitlines() if ln.strip()
             and not ln.strip().startswith("#")] if options["prologue"] else [
        line.text for line in opening(scenario, TABLE_VERBS)]
    try:
        prologue = tuple(_joined_to_side(commands.parse(line), sides) for line in lines)
    except FracasError as exc:
        raise InvalidInput(f"{scenario.path}: [sim] prologue: {exc}") from None
    chosen = {**options["policies"], **dict(job.policies)}
    profile = profile_of(ruleset.name)
    prepared = Prepared(ruleset.name, setup, sides, profile,
                        policies_for(sides.sides, chosen), prologue,
                        job.max_rounds or options["max_rounds"], job.seed,
                        frozenset(), TABLE_VERBS | profile.skip,
                        tracking=options["tracking"],
                        prologue_text=tuple(line.strip() for line in lines))
    try:
        conflict = _start(prepared, "check", scenario.path)
    except InvalidInput:
        _blame_variation(scenario.setup, job.overrides)
        raise
    gm = state_view(conflict.ruleset, conflict.state, _GM, odds=False)
    prepared.bystanders = frozenset(
        p["id"] for p in gm["conflict"]["participants"] if not profile.takes_part(p))
    prepared.names = {p["id"]: p["name"] for p in gm["conflict"]["participants"]}
    _two_sides(prepared, job, scenario.path)
    chases: dict[str, ChaseWatch] = {}
    for record in conflict.records:  # the chases the prologue started
        profile.observe(chases, list(record.events))
    prepared.outcomes = profile.reachable(
        chases, prepared.tracking, sum(map(may_concede, prepared.policies.values())))
    return prepared


def _two_sides(p: Prepared, job: SimJob, where: str) -> None:
    """Refuse a set-up (a sweep's combination) in which fewer than two sides take part: a
    side alone would "win" every encounter unopposed, in no time."""
    sides: dict[str, list[str]] = {}
    for pid, name in p.names.items():
        if pid not in p.bystanders:
            sides.setdefault(p.sides.side_of.get(pid, ""), []).append(name)
    if len(sides) > 1:
        return
    what = ("--vary " + " ".join(f"{k}={shown(v)}" for k, v in job.overrides)
            if job.overrides else where)
    alone = (f"only {next(iter(sides))} ({', '.join(next(iter(sides.values())))}) takes "
             "part" if sides else "nobody takes part")
    raise InvalidInput(f"{what}: {alone}, so one side would win every encounter unopposed; "
                       "a simulation needs two sides or more (a sweep may move a character "
                       "to another side, but leave two)", sides=list(sides))


def _blame_variation(setup: Setup, overrides: tuple[tuple[str, Any], ...]) -> None:
    """When a varied set-up is refused, the sweep's value at fault, named as given (``--vary
    captain.stats.hp=abc: hp must be …``), not the scenario file: the set-up is created with
    the overrides added one at a time, and the first one the rules refuse is raised. Returns
    when each is accepted (the prologue is refused: the scenario's own error stands)."""
    ruleset = get_ruleset(setup.ruleset)
    for i, (path, value) in enumerate(overrides):
        varied, _ = with_side_players(apply_overrides(setup, overrides[:i + 1]))
        try:
            Conflict.create(ruleset, varied, "check", time="")
        except FracasError as exc:
            raise vary_error(path, value, exc.message, exc.rule) from None


def _joined_to_side(cmd: Command, sides: SimSides) -> Command:
    """A prologue's command; a ``join`` is played by the pseudo-player of the newcomer's side
    (a side of its own, when it brings one), so that side's agent sees and moves it."""
    if cmd.verb != "join":
        return cmd
    side = side_or_default(cmd.args.get("side"), cmd.args.get("kind"))
    sides.side_of[cmd.args["id"]] = side
    player = sides.player_of.setdefault(side, f"sim{len(sides.player_of) + 1}")
    return Command(cmd.verb, cmd.actor, {**cmd.args, "player": player})


def _start(p: Prepared, seed: str, where: str = "", logged: bool = False) -> Conflict:
    """The conflict of one encounter after its prologue: its set-up record, checked and made
    once per job, loaded under the encounter's seed as a store loads a conflict (``logged``:
    each record keeps its command's text, for a log to show)."""
    ruleset = get_ruleset(p.ruleset_name)
    try:
        if p.created is None:
            conflict = Conflict.create(ruleset, p.setup, seed, time="")
            p.created = conflict.records[0]
        else:  # the set-up record, and those hidden at the start joining under this seed
            conflict = Conflict(ruleset, seed, [p.created])
            for join in hidden_joins(p.setup):
                _apply(conflict, join, _GM, logged)
        for cmd in p.prologue:
            _apply(conflict, cmd, _GM, logged)
    except FracasError as exc:
        raise InvalidInput(f"{where}: the simulated set-up is refused: {exc}") from None
    return conflict


def _apply(conflict: Conflict, cmd: Command | dict[str, Any], author: Viewer,
           logged: bool = False) -> list[Event]:
    """Decide and fold one command: the engine's checks and rules, no envelope, and no text
    unless ``logged`` (the record then holds the command as typed, for a log to show)."""
    command = cmd if isinstance(cmd, Command) else conflict.commands.from_data(cmd)
    events = conflict.decide(command, author)
    text = conflict.text(command) if logged else ""
    conflict.commit(Record(conflict.version + 1, text, tuple(events), author.name, "", None))
    return events


class Distinct:
    """Legal commands told apart by value, as ``==`` tells them, each compared once per job.
    A legal command is an immutable value that its ruleset makes once and hands out again
    (:class:`fracas.rulesets.legal.Made`), so the same object comes back step after step: it
    is compared with those of its verb met before the first time only, not in every list it
    is in (at most ``limit`` are kept, then it starts afresh)."""

    __slots__ = ("_by_verb", "_first", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._first: dict[int, tuple[LegalCommand, LegalCommand]] = {}  # by id: (lc, first)
        self._by_verb: dict[str, list[LegalCommand]] = {}  # the distinct ones met, by verb

    def unique(self, items: list[LegalCommand]) -> list[LegalCommand]:
        """``items`` less each one equal to one before it."""
        if len(items) < 2:
            return items
        firsts, seen, out = self._first, set(), []
        for lc in items:
            known = firsts.get(id(lc))
            first = id(known[1] if known is not None and known[0] is lc else self._meet(lc))
            if first not in seen:
                seen.add(first)
                out.append(lc)
        return out

    def _meet(self, lc: LegalCommand) -> LegalCommand:
        """The first legal command met that equals ``lc`` (``lc`` itself if none did)."""
        if len(self._first) >= self.limit:
            self._first.clear()
            self._by_verb.clear()
        same = self._by_verb.setdefault(lc.verb, [])
        first = next((other for other in same if other == lc), None)
        if first is None:
            same.append(lc)
            first = lc
        self._first[id(lc)] = (lc, first)  # lc is kept: its id stays its own
        return first


def playable(conflict: Conflict, actors: Sequence[str | None], left_out: frozenset[str],
             noted: frozenset[str] = frozenset(), offered: set[tuple[str, str]] | None = None,
             distinct: Distinct | None = None, named: frozenset[str] = frozenset()
             ) -> dict[str | None, list[LegalCommand]]:
    """What each of ``actors`` (None: the GM) may do now, as ``Conflict.legal`` gives it but
    without the verbs in ``left_out`` (the table's ``note``/``narrate``/``roll`` …) and each
    value once: the ruleset's own legal commands, asked for all of them at once, a text
    template read only when its verb is played. A verb of ``noted`` left out is added to
    ``offered`` with the character it was offered to; one of ``named`` is left out only where
    its ``name`` is open (Profile.sheet_named: a spell typed in, not one the sheet lists).
    ``distinct`` tells equal legal commands apart (one kept for the job compares each once)."""
    distinct = distinct or Distinct()
    out: dict[str | None, list[LegalCommand]] = {}
    for actor, items in conflict.ruleset.legal_commands_of(conflict.state.innermost,
                                                           actors).items():
        kept: list[LegalCommand] = []
        for item in items:
            if isinstance(item, str):
                head, sep, rest = item.partition(": ")
                verb = (rest if sep and " " not in head else item).partition(" ")[0]
                if verb not in left_out:
                    item = from_template(conflict.commands, item)
            else:
                verb = item.verb
            if isinstance(item, str) or (item.verb in left_out
                                         and not (verb in named and _named(item))):
                if verb in noted and actor is not None and offered is not None:
                    offered.add((verb, actor))
                continue
            kept.append(item)
        out[actor] = distinct.unique(kept)
    return out


def _named(legal: LegalCommand) -> bool:
    """Whether ``legal`` gives its ``name`` (a spell as its caster's sheet lists it)."""
    return any(c.name == "name" and c.is_fixed for c in legal.params)


@dataclass(slots=True)
class _Now:
    """What the simulator worked out at one version of the conflict, each part when first
    asked for (:meth:`Encounter._now`)."""

    version: int
    standing: list[str] | None = None  # Encounter._characters
    legal_of: dict[str | None, list[LegalCommand]] = field(default_factory=dict)  # _playable
    mine: dict[str, list[LegalCommand]] = field(default_factory=dict)  # _legal, by character
    entries: dict[str, Entries] = field(default_factory=dict)  # _entries_of, by side
    hidden: dict[str, tuple[frozenset[str], Mapping[str, str]]] = field(
        default_factory=dict)  # _hidden_from, by side


class Encounter:
    """The state of one encounter being played."""

    def __init__(self, p: Prepared, index: int, trace: list[str] | None = None,
                 logged: bool = False) -> None:
        self.p = p
        self.trace = trace  # the commands played, in text form (None: not kept)
        self.logged = logged  # each record keeps its command's text (a log to show)
        self.seed = encounter_seed(p.seed, index)
        self.conflict = _start(p, self.seed, logged=logged)
        self.rng = DiceRng.derive(self.seed + "\x00agents")
        self.chases: dict[str, ChaseWatch] = {}
        for record in self.conflict.records:  # the prologue may have started a chase
            p.profile.observe(self.chases, list(record.events))
        self.refused = 0
        self.refusals: list[tuple[Refusal, str]] = []  # each: the refusal and its command
        self.players = {side: Viewer.of_player(name)
                        for side, name in p.sides.player_of.items()}
        self.offered: set[tuple[str, str]] = set()  # (verb, character) left out: Profile.skip
        self.proposal: str | None = None  # the side whose compromise is on the table
        self.conceded: tuple[str, str] | None = None  # (winner, outcome) of a concession
        self.options = p.options
        self._at = _Now(-1)  # what was worked out at a version (_now)
        self._all_sides: Mapping[str, str] = MappingProxyType(p.sides.side_of)

    def verdict(self) -> tuple[str, str] | None:
        """(winner, outcome) once the conflict is decided: a concession made (a surrender,
        an accepted compromise), a chase settled, or at most one side with characters still
        in it (none: no winner)."""
        if self.conceded is not None:
            return self.conceded
        settled = self.p.profile.chase_verdict(self.chases, self.p.sides.side_of,
                                               self.p.tracking)
        if settled is not None:
            return settled
        state = self.conflict.state
        standing = {self.p.sides.side_of.get(pid, "") for pid, part in
                    state.participants.items() if part.active and pid not in self.p.bystanders}
        if len(standing) > 1:
            return None
        winner = standing.pop() if standing else NO_WINNER
        return winner, self.p.profile.last_side_outcome

    def _gm_options(self, verbs: tuple[str, ...],
                    chases: tuple[tuple[str, str], ...] = ()) -> list[Option]:
        """The GM's options of the first of ``verbs`` that has one; with ``chases`` ((verb,
        chase id) pairs, :meth:`Profile.chase_turns`), those verbs on those chases only."""
        if chases:
            verbs = tuple(dict.fromkeys(verb for verb, _ in chases))
        if not verbs:
            return []
        out: list[Option] = []
        for legal in self._playable(self._now(), None):
            if legal.actor is None and legal.verb in verbs and (
                    not chases or (legal.verb, legal.choice("id").fixed) in chases):
                out += self.options(legal, _NO_SIGHT)
        order = {v: i for i, v in enumerate(verbs)}
        first = min((order[o.verb] for o in out), default=None)
        return [o for o in out if order[o.verb] == first]

    def _now(self) -> _Now:
        """What was worked out at this version of the conflict (afresh at a new one: nothing
        changes the state between two commands, so neither do the characters or their legal
        commands). The helpers below are handed it, so it is looked up once per question."""
        version = self.conflict.version
        if self._at.version != version:
            self._at = _Now(version)
        return self._at

    def _playable(self, now: _Now, actor: str | None) -> list[LegalCommand]:
        """:func:`playable` for ``actor`` (None: the GM), asked once per version."""
        found = now.legal_of.get(actor)
        if found is None:  # a character's: those of every character, asked at once
            asked = [actor] if actor is None else self._characters(now)
            now.legal_of.update(playable(self.conflict, asked, self.p.left_out,
                                         self.p.profile.skip, self.offered, self.p.distinct,
                                         self.p.profile.sheet_named))
            found = now.legal_of.setdefault(actor, [])
        return found

    def _characters(self, now: _Now) -> list[str]:
        """The characters in the conflict who count for their side, in set-up order."""
        if now.standing is None:
            bystanders = self.p.bystanders
            now.standing = [pid for pid, part in
                            self.conflict.state.innermost.participants.items()
                            if part.active and pid not in bystanders]
        return now.standing

    def _legal(self, now: _Now, pid: str) -> list[LegalCommand]:
        """The legal commands of ``pid`` the simulator plays, as its side's player is offered
        them: nothing that names a character hidden from them (none while it only has
        optional ones)."""
        mine = now.mine.get(pid)
        if mine is None:
            mine = [lc for lc in self._playable(now, pid) if lc.actor == pid]
            if mine:  # (most characters have nothing to do at most versions)
                side = self.p.sides.side_of.get(pid, "")
                if side in self.players:
                    mine = without(mine, self._hidden_from(now, side)[0])
                optional = self.p.profile.optional_verbs
                mine = mine if any(lc.verb not in optional for lc in mine) else []
            now.mine[pid] = mine
        return mine

    def _entries_of(self, now: _Now, side: str) -> Entries:
        """The side's player's view of one character at a time, made once per version."""
        found = now.entries.get(side)
        if found is None:
            conflict = self.conflict
            found = now.entries[side] = Entries(conflict.ruleset, conflict.state,
                                                self.players[side])
        return found

    def _hidden_from(self, now: _Now, side: str) -> tuple[frozenset[str], Mapping[str, str]]:
        """What the side's player may not be told, worked out once per version: the words
        no command offered to them may name (:meth:`Entries.hidden_words`), and the side of
        each character they are shown (read only)."""
        found = now.hidden.get(side)
        if found is None:
            entries = self._entries_of(now, side)
            out = {p.id for p in entries.hidden()}
            found = now.hidden[side] = (entries.hidden_words(), MappingProxyType(
                {pid: s for pid, s in self._all_sides.items() if pid not in out}
            ) if out else self._all_sides)
        return found

    def sight(self, side: str) -> Sight:
        """What the side's player would see now: the projection of the live state for its
        pseudo-player (the view a table's projector gives, without the log's entries), the
        pending roll's odds only when read."""
        conflict, viewer = self.conflict, self.players[side]

        def view(full: bool) -> dict[str, Any]:
            return state_view(conflict.ruleset, conflict.state, viewer, odds=False, ext=full)

        def odds() -> list[str]:
            return list(state_view(conflict.ruleset, conflict.state, viewer)["conflict"]["odds"])

        def attack_odds(aimed: Collection[Aimed]) -> Mapping[Aimed, float]:
            return self.p.profile.attack_odds(conflict.ruleset, conflict.state.innermost,
                                              viewer, aimed)

        if side in self.p.private_views:  # whatever the user's policy does to its copy, the
            return Sight(lambda full: copy_json(view(full)), odds,  # conflict stays as it is
                         attack_odds=attack_odds)
        return Sight(view, odds, self._entries_of(self._now(), side), attack_odds)

    def side_turn(self) -> Turn | None:
        """The first side (in set-up order of its characters) that may act now, with the
        legal commands of all its characters (the other sides are not offered theirs;
        bystanders, who take no turns, are not asked). A reaction comes first that way: a
        VERS character who must roll to endure is asked before the one acting."""
        profile = self.p.profile
        side_of = self.p.sides.side_of
        now = self._now()
        active = self._characters(now)
        tried: set[str] = set()
        for i, pid in enumerate(active):
            side = side_of.get(pid, "")
            if side in tried:
                continue
            first = self._legal(now, pid)
            if not first:
                continue
            tried.add(side)
            legal = first + [lc for q in active[i + 1:] if side_of.get(q, "") == side
                             for lc in self._legal(now, q)]
            sight = self.sight(side)
            options = tuple([o for lc in legal for o in self.options(lc, sight)])
            if options:
                return Turn(side, options, sight, self._hidden_from(now, side)[1], profile,
                            self.rng, self._offers(side), self.proposal,
                            profile.apart(self.chases))
        return None

    def _offers(self, side: str) -> tuple[Offer, ...]:
        """The concessions ``side`` may make now: its profile's (a compromise once, until
        the other side's turn), and accepting the other side's compromise."""
        kinds = [k for k in self.p.profile.concessions
                 if not (k == COMPROMISE and self.proposal == side)]
        if self.proposal is not None and self.proposal != side:
            kinds.append(ACCEPT)
        return tuple(Offer(k) for k in kinds)

    def _acting(self) -> bool:
        """Whether someone's turn is under way (the turn order's ``acting``): the GM then
        has no procedure command to give before it (and is not asked)."""
        state = self.conflict.state.innermost
        order = self.conflict.ruleset.turn_order(state)
        return order is not None and bool(order.acting())

    def step(self) -> bool:
        """Give the next command; False when nobody can act and the GM has nothing to give."""
        gm = self._gm_options((), self.p.profile.chase_turns(self.chases, self.p.tracking))
        first = self.p.profile.gm_first
        if not gm and first and not self._acting():
            gm = self._gm_options(first)
        if not gm:
            turn = self.side_turn()
            if turn is not None:
                return self._play_turn(turn)
            gm = self._gm_options(self.p.profile.gm_after)
        while gm:
            choice = gm[self.rng.below(len(gm))]
            if self._try(choice, _GM):
                return True
            gm.remove(choice)
        return False

    def _play_turn(self, turn: Turn) -> bool:
        policy = self.p.policies[turn.side]
        refused = 0
        while turn.options:
            try:
                choice = policy(turn)
            except FracasError:
                raise
            except (Exception, SystemExit) as exc:  # a user's policy: a clear error, not a
                # traceback, and not the end of the run (sys.exit in a policy)
                raise InvalidInput(f"the policy of side {turn.side} failed: {_short(exc)}"
                                   f"{fault_site(exc)}", side=turn.side) from exc
            if isinstance(choice, Offer) and choice in turn.offers:
                if self._concede(turn.side, choice):
                    return True
                turn.offers = tuple(o for o in turn.offers if o != choice)
                turn.proposal = self.proposal
                continue
            if not _well_formed(choice):
                raise InvalidInput(f"the policy of side {turn.side} returned "
                                   f"{_short(choice)}, not one of turn.options or turn.offers",
                                   side=turn.side)
            try:
                self._command(choice)
            except FracasError as exc:  # no command at all: the policy's fault, not a rule's
                raise InvalidInput(f"the policy of side {turn.side} returned an option that "
                                   f"makes no command ({exc.message}): {_short(choice)}; "
                                   "return one of turn.options or turn.offers",
                                   side=turn.side) from None
            if self._try(choice, self.players[turn.side]):
                if self.proposal is not None and self.proposal != turn.side:
                    self.proposal = None  # not accepted on the side's turn: declined
                return True
            refused += 1
            if refused > MAX_REFUSED_PER_TURN:  # a policy that insists on a refused command
                raise InvalidInput(f"the policy of side {turn.side} chose {refused} commands "
                                   "the rules refused in one turn; it must choose among "
                                   "turn.options", side=turn.side)
            turn.options = tuple(o for o in turn.options if o != choice)
        return False

    def _concede(self, side: str, offer: Offer) -> bool:
        """Make a concession; True when it settles the encounter (a surrender, an accepted
        compromise), False when the side still takes its turn (a compromise offered)."""
        if offer.kind == COMPROMISE:
            self.proposal = side
            return False
        if offer.kind == ACCEPT:
            self.conceded = (NO_WINNER, COMPROMISE)  # decided: nobody wins (FU-CON-11)
            return True
        if offer.kind == SURRENDER:
            state = self.conflict.state.innermost
            for pid, part in list(state.participants.items()):
                if part.active and self.p.sides.side_of.get(pid) == side:
                    self._gm({"verb": "out", "args": {"id": pid, "reason": SURRENDERED}})
            others = {s for s in self.p.sides.sides if s != side}
            self.conceded = (others.pop() if len(others) == 1 else NO_WINNER, SURRENDERED)
            return True
        raise InvalidInput(f"side {side}: no concession {offer.kind!r}")

    def _gm(self, command: dict[str, Any]) -> None:
        """Give a GM command the rules must accept (a refusal is a bug: it is raised)."""
        _apply(self.conflict, command, _GM, self.logged)
        if self.trace is not None:
            self.trace.append(self.conflict.text(self.conflict.commands.from_data(command)))

    def _command(self, option: Option) -> Command:
        """The command ``option`` stands for, checked against its spec once per job (a
        command is an immutable value; the rules still decide it every time), remembered
        for the option itself while it is handed out again."""
        return self.p.commands_of.get(option, lambda: self._checked(option.command()))

    def _checked(self, data: dict[str, Any]) -> Command:
        key = frozen_key(data["verb"], data["actor"], data["args"])
        return self.p.checked.get(key, lambda: self.conflict.commands.from_data(data))

    def _try(self, option: Option, author: Viewer) -> bool:
        try:
            events = _apply(self.conflict, self._command(option), author, self.logged)
        except FracasError as exc:
            self.refused += 1
            text = self.conflict.text(self._command(option))
            self.refusals.append(((option.verb, exc.rule or "", exc.message), text))
            if self.trace is not None:
                self.trace.append(f"refused {option.command()}: {exc}")
            return False
        self.p.profile.observe(self.chases, events)
        if self.trace is not None:
            self.trace.append(self.conflict.text(self._command(option)))
        return True

    def play(self) -> EncounterResult:
        """Play to the end (or the round cap) and read the result."""
        stalled = False
        cap = self.p.max_rounds
        while True:
            state = self.conflict.state
            if state.status == _ENDED or state.round > cap:
                break
            decided = self.verdict()
            if decided is not None:
                reason = self.p.profile.end_reason(*decided)
                _apply(self.conflict, {"verb": "end", "args": {"reason": reason}}, _GM,
                       self.logged)
                break
            if not self.step():
                stalled = True
                break
        return self.result(stalled)

    def result(self, stalled: bool) -> EncounterResult:
        """The encounter as the report counts it."""
        state = self.conflict.state
        decided = self.verdict()
        winner, outcome = decided if decided is not None else (NO_DECISION, NO_DECISION)
        gm = state_view(self.conflict.ruleset, state, _GM, odds=False, ext=False)
        settings = gm["conflict"]["settings"]
        harm = {e["id"]: self.p.profile.harm(e, settings) for e in gm["conflict"]["participants"]
                if e["id"] not in self.p.bystanders}
        out = tuple(pid for pid, part in state.participants.items()
                    if part.out is not None and pid not in self.p.bystanders)
        at = next(iter(self.conflict.ruleset.status_lines(state.innermost)), "") \
            if stalled else ""
        return EncounterResult(winner, outcome, min(state.round, self.p.max_rounds), out,
                               harm, self.refused, stalled, self.refusals, at,
                               frozenset(self.offered))


def play_encounter(p: Prepared, index: int) -> EncounterResult:
    """Play encounter ``index`` of a prepared job (its dice and choices depend only on the
    job's seed and the index)."""
    return Encounter(p, index).play()


def shown_encounter(p: Prepared, which: str, n: int) -> tuple[int, Encounter, EncounterResult]:
    """The encounter ``fracas sim --show WHICH`` shows, played again with its log kept: its
    index (0 for the first), the encounter and its result. ``which`` is a number 1 … ``n``
    (encounter ``which`` of the run) or a side, ``no winner``, or an outcome the run can come
    to: the first of the ``n`` encounters that side won or that ended so."""
    text = which.strip()
    if text.isdigit():
        if not 1 <= int(text) <= n:
            raise InvalidInput(f"--show {which}: the run plays encounters 1 to {n:,}")
        index = int(text) - 1
    else:
        ends = list(dict.fromkeys([*p.sides.sides, *([NO_WINNER] if COMPROMISE in p.outcomes
                                                     else []), *p.outcomes, NO_DECISION]))
        if text not in ends:
            raise InvalidInput(f"--show {which}: give an encounter's number (1 to {n:,}), "
                               f"a side or an outcome: {', '.join(ends)}")
        index = next((i for i in range(n) if text in _ends(play_encounter(p, i))), -1)
        if index < 0:
            raise InvalidInput(f"--show {which}: none of the {n:,} encounters "
                               f"{'was won by' if text in p.sides.sides else 'ended in'} "
                               f"{text}")
    encounter = Encounter(p, index, logged=True)
    return index, encounter, encounter.play()


def _ends(r: EncounterResult) -> tuple[str, str]:
    return r.winner, r.outcome
