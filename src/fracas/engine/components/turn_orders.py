"""Turn orders: the countdown (Etherscope), alternating sides (Fabula Ultima), popcorn (VERS).

Each is a plain mutable dataclass of JSON-friendly fields. Methods come in two kinds:

* **queries and checks** are pure; a ``check_…`` method raises :class:`IllegalCommand` (or
  :class:`NotYourTurn` / :class:`InvalidInput`) when the action is not allowed and returns
  ``None`` otherwise. The caller passes its ruleset's rule IDs in, so the components stay
  rules-agnostic, and may pass ``names`` (id → display name) for the messages.
* **mutators** assume their input was checked and never raise; out-of-range input is
  clamped or ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol, runtime_checkable

from fracas.engine.components._common import Names, join_numbers, label
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput, NotYourTurn

__all__ = [
    "AlternatingSides",
    "Countdown",
    "Popcorn",
    "SideStatus",
    "Slot",
    "TurnOrder",
    "tie_groups",
]


@runtime_checkable
class TurnOrder(Protocol):
    """What every turn order answers, the same way for every game (DESIGN.md principle 3):
    who is acting, who may start acting now, who has not acted yet, and whether the round is
    over. Every answer lists participant ids; the rules of *how* a turn passes stay in each
    order's own checks and mutators."""

    def acting(self) -> list[str]:
        """Who is acting now (empty between turns)."""
        ...

    def may_act(self) -> list[str]:
        """Who may act now: the one acting, or else those who may start the next turn."""
        ...

    def to_act(self) -> list[str]:
        """Who has not acted yet this round (the one acting now excluded)."""
        ...

    @property
    def round_over(self) -> bool:
        """Whether everyone has had their turns this round."""
        ...


# --------------------------------------------------------------------------- countdown


@dataclass(slots=True)
class Slot:
    """One action in a countdown: ``actor`` acts at acting score ``score``."""

    actor: str
    score: int


def tie_groups(entries: list[Slot]) -> list[list[Slot]]:
    """Group slots by equal score, highest score first (pure).

    Within a group the input order is kept; a group of more than one slot is a tie the
    ruleset resolves (awareness, roll-off) before calling :meth:`Countdown.start`.
    """
    groups: dict[int, list[Slot]] = {}
    for slot in entries:
        groups.setdefault(slot.score, []).append(slot)
    return [groups[score] for score in sorted(groups, reverse=True)]


@dataclass(slots=True)
class Countdown:
    """Count down from the highest declared acting score (Etherscope's split initiative).

    ``declarations`` holds this round's acting scores per actor; ``queue`` is the order fixed
    when the countdown starts; ``position`` is the index in ``queue`` of the slot acting now
    (-1 before the start, ``len(queue)`` once it is over); ``joiners`` joined after the start
    and act from the next round.
    """

    declarations: dict[str, list[int]] = field(default_factory=dict)
    queue: list[Slot] = field(default_factory=list)
    position: int = -1
    joiners: list[str] = field(default_factory=list)

    # -- queries and checks

    @property
    def started(self) -> bool:
        """Whether the countdown of this round has begun (query)."""
        return self.position >= 0

    @property
    def current(self) -> Slot | None:
        """The slot acting now, or None before the start and after the end (query)."""
        if 0 <= self.position < len(self.queue):
            return self.queue[self.position]
        return None

    @property
    def is_over(self) -> bool:
        """Whether every slot of this round's countdown has acted (query)."""
        return self.started and self.position >= len(self.queue)

    def acting(self) -> list[str]:
        """The actor of the slot acting now (TurnOrder)."""
        return [self.queue[self.position].actor] if self.current is not None else []

    def may_act(self) -> list[str]:
        """Only the slot acting now may act (TurnOrder)."""
        return self.acting()

    def to_act(self) -> list[str]:
        """Actors with a slot still to come, in countdown order (TurnOrder)."""
        return list(dict.fromkeys(s.actor for s in self.remaining()
                                  if s.actor not in self.acting()))

    @property
    def round_over(self) -> bool:
        """The countdown of this round has ended (TurnOrder)."""
        return self.is_over

    def remaining(self) -> list[Slot]:
        """Slots still to come after the current one, in order (query)."""
        if not self.started:
            return list(self.queue)
        return list(self.queue[self.position + 1 :])

    def undeclared(self, actors: list[str]) -> list[str]:
        """Those of ``actors`` who have not declared this round (joiners excluded) (query)."""
        return [a for a in actors if a not in self.declarations and a not in self.joiners]

    def entries(self) -> list[Slot]:
        """All declared slots, highest score first, ties in declaration order (query)."""
        slots = [Slot(actor, s) for actor, scores in self.declarations.items() for s in scores]
        return sorted(slots, key=lambda slot: -slot.score)

    def check_declare(
        self,
        actor: str,
        scores: list[int],
        base: int,
        min_gap: int = 5,
        rule_sum: str | None = None,
        rule_gap: str | None = None,
        rule_positive: str | None = None,
        *,
        rule_started: str | None = None,
        names: Names = None,
        base_known: bool = True,
    ) -> None:
        """Refuse a declaration that is not positive, sums past ``base`` or is too close.

        Scores must be positive integers (at least one), their sum at most ``base``, and any
        two at least ``min_gap`` apart. Declaring after the countdown began, or as a joiner,
        is refused too (``rule_started``). ``base_known``: whether the one declaring may know
        the base (a refusal past it does not tell one who may not what it is).
        """
        who = label(names, actor)
        if self.started or actor in self.joiners:
            raise IllegalCommand(
                f"The countdown has already begun this round; {who} declares next round",
                rule=rule_started,
                actor=actor,
            )
        if not scores:
            raise IllegalCommand(
                f"{who} must declare at least one acting initiative",
                rule=rule_positive,
                actor=actor,
                scores=scores,
            )
        bad = [s for s in scores if s <= 0]
        if bad:
            raise IllegalCommand(
                f"{possessive(who)} acting initiatives must be positive, not {join_numbers(bad)}",
                rule=rule_positive,
                actor=actor,
                scores=scores,
            )
        total = sum(scores)
        if total > base and not base_known:
            raise IllegalCommand(
                f"{possessive(who)} acting initiatives {join_numbers(scores)} add up to {total}, "
                f"more than the base initiative", rule=rule_sum, actor=actor, scores=scores)
        if total > base:
            raise IllegalCommand(
                f"{possessive(who)} acting initiatives {join_numbers(scores)} add up to {total}, "
                f"more than the base initiative {base}",
                rule=rule_sum,
                actor=actor,
                scores=scores,
                base=base,
            )
        for x, y in combinations(sorted(scores, reverse=True), 2):
            if x - y < min_gap:
                raise IllegalCommand(
                    f"{possessive(who)} acting initiatives {x} and {y} are {x - y} apart; "
                    f"actions must be at least {min_gap} apart",
                    rule=rule_gap,
                    actor=actor,
                    scores=scores,
                    min_gap=min_gap,
                )

    # -- mutators

    def declare(self, actor: str, scores: list[int]) -> None:
        """Record ``actor``'s acting scores for this round, replacing any earlier (mutator)."""
        self.declarations[actor] = sorted(scores, reverse=True)

    def start(self, ordered: list[Slot]) -> None:
        """Fix the countdown order (ties already resolved) and begin at its first slot.

        Mutator; an empty order starts a countdown that is already over.
        """
        self.queue = [Slot(s.actor, s.score) for s in ordered]
        self.position = 0

    def advance(self) -> None:
        """End the current slot; the next one acts (mutator; no-op before start or at end)."""
        if self.started and self.position < len(self.queue):
            self.position += 1

    def remove(self, actor: str) -> None:
        """``actor`` leaves: its declaration and future slots vanish (mutator).

        A slot it is acting in right now stays current until :meth:`advance`.
        """
        self.declarations.pop(actor, None)
        if actor in self.joiners:
            self.joiners.remove(actor)
        keep = self.position + 1 if self.started else 0
        self.queue = self.queue[:keep] + [s for s in self.queue[keep:] if s.actor != actor]

    def add(self, actor: str) -> None:
        """``actor`` joins; after the start it waits for the next round (mutator)."""
        if self.started and actor not in self.joiners:
            self.joiners.append(actor)

    def new_round(self) -> None:
        """Clear declarations, order and joiners for a new round (mutator)."""
        self.declarations = {}
        self.queue = []
        self.position = -1
        self.joiners = []


# --------------------------------------------------------------------------- alternating


@dataclass(slots=True)
class SideStatus:
    """What one side has done this round: who acted and who has turns left (and how many)."""

    side: str
    acted: list[str]
    turns_left: dict[str, int]


@dataclass(slots=True)
class AlternatingSides:
    """Two sides alternate turns; the side with turns left finishes the round (Fabula Ultima).

    ``sides`` names the two sides; ``side_of`` maps each participant to its side;
    ``turns_per_round`` and ``taken`` count turns per participant (a turn counts as taken
    when it starts); ``first_side`` opens every round; ``side_on_turn`` is the side whose turn
    comes (or is under way); ``current`` is the member acting now; ``out`` lists those
    defeated or gone, who take no more turns.
    """

    sides: list[str]
    first_side: str
    side_of: dict[str, str] = field(default_factory=dict)
    turns_per_round: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    side_on_turn: str = ""
    current: str | None = None
    out: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.side_on_turn:
            self.side_on_turn = self.first_side
            self.settle()

    def copy(self) -> AlternatingSides:
        """An independent copy to try moves on (its tables are flat: no deep copy needed)."""
        return AlternatingSides(sides=list(self.sides), first_side=self.first_side,
                                side_of=dict(self.side_of),
                                turns_per_round=dict(self.turns_per_round),
                                taken=dict(self.taken), side_on_turn=self.side_on_turn,
                                current=self.current, out=list(self.out))

    @classmethod
    def setup(
        cls,
        sides: list[str],
        first_side: str,
        members: dict[str, str],
        turns: dict[str, int] | None = None,
        *,
        rule: str | None = None,
    ) -> AlternatingSides:
        """Build the order: ``members`` maps id → side; ``turns`` defaults to 1 each.

        Raises InvalidInput unless there are exactly two distinct sides, ``first_side`` is one
        of them, every member is on one of them and turn counts are not negative.
        """
        if len(sides) != 2 or sides[0] == sides[1]:
            raise InvalidInput(
                f"Turn order needs exactly two sides, not {sides!r}", rule=rule, sides=sides
            )
        if first_side not in sides:
            raise InvalidInput(
                f"The first side {first_side!r} is not one of {sides[0]!r} and {sides[1]!r}",
                rule=rule,
                first_side=first_side,
            )
        turns = turns or {}
        for actor, side in members.items():
            if side not in sides:
                raise InvalidInput(
                    f"{actor} is on side {side!r}, which is not one of "
                    f"{sides[0]!r} and {sides[1]!r}",
                    rule=rule,
                    actor=actor,
                    side=side,
                )
            if turns.get(actor, 1) < 0:
                raise InvalidInput(
                    f"{actor} cannot have {turns[actor]} turns per round",
                    rule=rule,
                    actor=actor,
                    turns=turns[actor],
                )
        order = cls(sides=list(sides), first_side=first_side)
        for actor, side in members.items():
            order.side_of[actor] = side
            order.turns_per_round[actor] = turns.get(actor, 1)
            order.taken[actor] = 0
        order.side_on_turn = first_side
        order.settle()
        return order

    # -- queries and checks

    def other_side(self, side: str) -> str:
        """The side opposite ``side`` (query)."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def members(self, side: str) -> list[str]:
        """Participants on ``side`` still in the conflict, in joining order (query)."""
        return [a for a, s in self.side_of.items() if s == side and a not in self.out]

    def turns_left(self, actor: str) -> int:
        """Turns ``actor`` may still start this round (0 if unknown, defeated or gone)."""
        if actor not in self.side_of or actor in self.out:
            return 0
        return max(0, self.turns_per_round.get(actor, 0) - self.taken.get(actor, 0))

    def side_turns_left(self, side: str) -> int:
        """Turns the members of ``side`` may still start this round (query)."""
        out, per, taken = self.out, self.turns_per_round, self.taken
        left = 0
        for a, s in self.side_of.items():  # turns_left of each of members(side), inlined
            if s == side and a not in out:
                left += max(0, per.get(a, 0) - taken.get(a, 0))
        return left

    @property
    def round_over(self) -> bool:
        """No turn under way and nobody has a turn left (query)."""
        if self.current is not None:
            return False
        out, per, taken, sides = self.out, self.turns_per_round, self.taken, self.sides
        return not any(s in sides and a not in out and per.get(a, 0) > taken.get(a, 0)
                       for a, s in self.side_of.items())  # side_turns_left of each, inlined

    def who_may_act(self) -> list[str]:
        """Members of the side on turn with a turn left; empty while a turn is under way."""
        if self.current is not None:
            return []
        return [a for a in self.members(self.side_on_turn) if self.turns_left(a) > 0]

    def acting(self) -> list[str]:
        """The member whose turn is under way (TurnOrder)."""
        return [self.current] if self.current is not None else []

    def may_act(self) -> list[str]:
        """The member acting, or else the side on turn's members with a turn left
        (TurnOrder)."""
        return self.acting() or self.who_may_act()

    def to_act(self) -> list[str]:
        """Members with a turn left this round, both sides (TurnOrder)."""
        return [a for side in self.sides for a in self.members(side) if self.turns_left(a) > 0]

    def status(self) -> dict[str, SideStatus]:
        """Per side: who has acted this round and who has how many turns left (query)."""
        result: dict[str, SideStatus] = {}
        for side in self.sides:
            in_side = [a for a, s in self.side_of.items() if s == side]
            result[side] = SideStatus(
                side=side,
                acted=[a for a in in_side if self.taken.get(a, 0) > 0],
                turns_left={a: self.turns_left(a) for a in in_side if self.turns_left(a) > 0},
            )
        return result

    def check_take_turn(
        self,
        actor: str,
        rule_side: str | None = None,
        rule_no_turns: str | None = None,
        *,
        names: Names = None,
    ) -> None:
        """Refuse a turn while another is under way, off-side, or with no turns left.

        Raises NotYourTurn (``rule_side``) when a turn is under way or ``actor`` is not on the
        side on turn; IllegalCommand (``rule_no_turns``) when it has no turn left.
        """
        who = label(names, actor)
        if actor not in self.side_of:
            raise IllegalCommand(f"{who} is not in this conflict", rule=rule_side, actor=actor)
        if self.current is not None:
            raise NotYourTurn(
                f"{label(names, self.current)} is taking a turn now; {who} must wait",
                rule=rule_side,
                actor=actor,
                current=self.current,
            )
        if self.turns_left(actor) == 0:
            why = "is out of the conflict" if actor in self.out else "has no turns left"
            raise IllegalCommand(f"{who} {why} this round", rule=rule_no_turns, actor=actor)
        if self.side_of[actor] != self.side_on_turn:
            raise NotYourTurn(
                f"it is side {possessive(self.side_on_turn)} turn, not {possessive(who)} side "
                f"{self.side_of[actor]}",
                rule=rule_side,
                actor=actor,
                side=self.side_of[actor],
                side_on_turn=self.side_on_turn,
            )

    def check_pass(self, side: str, rule: str | None = None, *, names: Names = None) -> None:
        """Refuse passing while ``side`` still has a member with a turn available."""
        waiting = [a for a in self.members(side) if self.turns_left(a) > 0]
        if waiting:
            who = ", ".join(label(names, a) for a in waiting)
            have = "has" if len(waiting) == 1 else "have"
            raise IllegalCommand(
                f"Side {side} cannot pass: {who} still {have} a turn",
                rule=rule,
                side=side,
                waiting=waiting,
            )

    def check_join(self, actor: str, side: str, turns: int, rule: str | None = None) -> None:
        """Refuse joining an unknown side, with negative turns, or when already present."""
        if side not in self.sides:
            raise InvalidInput(
                f"Side {side!r} is not one of {self.sides[0]!r} and {self.sides[1]!r}",
                rule=rule,
                side=side,
            )
        if turns < 0:
            raise InvalidInput(
                f"{actor} cannot have {turns} turns per round", rule=rule, turns=turns
            )
        if actor in self.side_of and actor not in self.out:
            raise IllegalCommand(f"{actor} is already in this conflict", rule=rule, actor=actor)

    # -- mutators

    def take_turn(self, actor: str) -> None:
        """Start ``actor``'s turn: it becomes current and one of its turns is used (mutator)."""
        self.current = actor
        self.taken[actor] = self.taken.get(actor, 0) + 1
        self.side_on_turn = self.side_of.get(actor, self.side_on_turn)

    def end_turn(self) -> None:
        """End the turn under way; the other side is on turn if it has turns, else this one.
        (Settled as it is: either the side on turn has turns, or neither side has.)"""
        self.current = None
        other = self.other_side(self.side_on_turn)
        if self.side_turns_left(other) > 0:
            self.side_on_turn = other

    def new_round(self) -> None:
        """Reset turns taken; ``first_side`` opens (or the other, if it has no turns)."""
        self.taken = {a: 0 for a in self.side_of}
        self.current = None
        self.side_on_turn = self.first_side
        self.settle()

    def join(self, actor: str, side: str, turns: int = 1) -> None:
        """Add ``actor`` to ``side``; its ``turns`` count from this round (mutator)."""
        if side not in self.sides:
            return
        if actor in self.out:
            self.out.remove(actor)
        self.side_of[actor] = side
        self.turns_per_round[actor] = max(0, turns)
        self.taken[actor] = 0
        self.settle()

    def leave(self, actor: str) -> None:
        """``actor`` leaves (or is defeated): its remaining turns vanish (mutator).

        A turn it has under way stays current until :meth:`end_turn`.
        """
        if actor in self.side_of and actor not in self.out:
            self.out.append(actor)
        self.settle()

    def defeat(self, actor: str) -> None:
        """``actor`` is defeated: as :meth:`leave` (mutator)."""
        self.leave(actor)

    def move(self, actor: str, side: str) -> None:
        """``actor`` changes sides; turns it has taken this round stay taken (mutator)."""
        if side in self.sides and actor in self.side_of:
            self.side_of[actor] = side
            self.settle()

    def settle(self) -> None:
        """Between turns, hand the turn to the other side when this one has no turns left
        (mutator; every other mutator calls it)."""
        if self.current is not None or self.side_on_turn not in self.sides:
            return
        if self.side_turns_left(self.side_on_turn) == 0:
            other = self.other_side(self.side_on_turn)
            if self.side_turns_left(other) > 0:
                self.side_on_turn = other


# --------------------------------------------------------------------------- popcorn

OPENERS_KEPT = 6
"""How many rounds' openers a :class:`Popcorn` order keeps (earlier ones are in the log)."""


@dataclass(slots=True)
class Popcorn:
    """Whoever finishes hands off to someone who has not gone this round (VERS).

    ``members`` are in the conflict; ``gone`` have started their go this round (the one
    acting now included); ``current`` is acting now with ``actions_left`` actions;
    ``openers`` records who opened the last :data:`OPENERS_KEPT` rounds, oldest first, and
    ``openers_before`` how many earlier openings are left to the log (so the state, and what
    an undo or a snapshot copies, stays the same size however long the conflict runs).
    """

    members: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    current: str | None = None
    actions_left: int = 0
    openers: list[str] = field(default_factory=list)
    round_opened: bool = False
    openers_before: int = 0

    def recent_openers(self) -> list[tuple[int, str]]:
        """(round, who opened it) of the rounds whose opener is kept, oldest first (query)."""
        return [(self.openers_before + i + 1, who) for i, who in enumerate(self.openers)]

    # -- queries and checks

    def not_gone(self) -> list[str]:
        """Members who have not gone this round, in member order (query)."""
        return [m for m in self.members if m not in self.gone]

    @property
    def round_over(self) -> bool:
        """Everyone has gone and no go is under way (query)."""
        return self.round_opened and self.current is None and not self.not_gone()

    def acting(self) -> list[str]:
        """The member whose go is under way (TurnOrder)."""
        return [self.current] if self.current is not None else []

    def may_act(self) -> list[str]:
        """The member acting, or else anyone who has not gone (the table or the GM picks)
        (TurnOrder)."""
        return self.acting() or self.not_gone()

    def to_act(self) -> list[str]:
        """Members who have not gone this round (TurnOrder)."""
        return self.not_gone()

    def check_open(self, actor: str, rule: str | None = None, *, names: Names = None) -> None:
        """Refuse opening a round already opened, or by someone not in the conflict."""
        who = label(names, actor)
        if self.round_opened:
            raise IllegalCommand(
                "This round has already been opened"
                + (f" by {label(names, self.openers[-1])}" if self.openers else ""),
                rule=rule,
                actor=actor,
            )
        if actor not in self.members:
            raise IllegalCommand(f"{who} is not in this conflict", rule=rule, actor=actor)

    def check_hand_off(self, to: str, rule: str | None = None, *, names: Names = None) -> None:
        """Refuse a hand-off to someone acting, already gone, or not in the conflict."""
        who = label(names, to)
        if to not in self.members:
            raise IllegalCommand(
                f"{who} is not in this conflict; hand off to someone who is",
                rule=rule,
                target=to,
            )
        if to == self.current:
            raise IllegalCommand(
                f"{who} is acting now; hand off to someone who has not gone this round",
                rule=rule,
                target=to,
            )
        if to in self.gone:
            raise IllegalCommand(
                f"{who} has already gone this round; hand off to someone who has not",
                rule=rule,
                target=to,
            )
        if not self.round_opened:
            raise IllegalCommand(
                f"This round has not been opened yet; open it with {who} instead",
                rule=rule,
                target=to,
            )

    def check_action(
        self,
        actor: str,
        rule_turn: str | None = None,
        rule_actions: str | None = None,
        n: int = 1,
        *,
        names: Names = None,
        why: str = "",
    ) -> None:
        """Refuse an action off one's go (NotYourTurn) or beyond the actions left (``why``:
        what the refusal adds, such as why the go has so few)."""
        who = label(names, actor)
        if actor != self.current:
            now = f"it is {possessive(label(names, self.current))} go" if self.current \
                else "nobody's go"
            raise NotYourTurn(
                f"{who} is not acting now; {now}",
                rule=rule_turn,
                actor=actor,
                current=self.current,
            )
        if n > self.actions_left:
            left = self.actions_left
            raise IllegalCommand(
                f"{who} has {left} action{'s' if left != 1 else ''} left this go, not {n}"
                + (f": {why}" if why else ""),
                rule=rule_actions,
                actor=actor,
                actions_left=left,
                needed=n,
            )

    # -- mutators

    def open(self, actor: str, actions: int = 2) -> None:
        """``actor`` opens the round and starts its go with ``actions`` actions (mutator)."""
        self.round_opened = True
        self.openers.append(actor)
        if len(self.openers) > OPENERS_KEPT:
            del self.openers[0]
            self.openers_before += 1
        self._start_go(actor, actions)

    def hand_off(self, to: str, actions: int = 2) -> None:
        """End the go under way; ``to`` starts its go with ``actions`` actions (mutator)."""
        self._start_go(to, actions)

    def spend(self, n: int = 1) -> None:
        """Spend ``n`` actions of the current go, not below zero (mutator)."""
        self.actions_left = max(0, self.actions_left - max(0, n))

    def end_go(self) -> None:
        """End the go under way with nobody handed to (e.g. the last of the round)."""
        self.current = None
        self.actions_left = 0

    def new_round(self) -> None:
        """Start a fresh, unopened round; the openers' history is kept (mutator)."""
        self.gone = []
        self.current = None
        self.actions_left = 0
        self.round_opened = False

    def join(self, actor: str) -> None:
        """``actor`` joins; it has not gone yet this round (mutator)."""
        if actor not in self.members:
            self.members.append(actor)

    def leave(self, actor: str) -> None:
        """``actor`` leaves; a go it has under way ends (mutator)."""
        if actor in self.members:
            self.members.remove(actor)
        if self.current == actor:
            self.end_go()

    def _start_go(self, actor: str, actions: int) -> None:
        self.current = actor
        self.actions_left = max(0, actions)
        if actor not in self.gone:
            self.gone.append(actor)
