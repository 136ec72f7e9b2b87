"""The plug a ruleset fills: data (rules, commands, settings) plus small hooks.

The engine knows conflicts, participants, sides, rounds, turns, notes, effects, undo and
zooming in; a ruleset adds its turn order, positioning, harm, checks and action catalogue by
subclassing :class:`Ruleset` (DESIGN.md principle 3).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

from fracas.engine.commands import Command, CommandSpec
from fracas.engine.components.turn_orders import TurnOrder
from fracas.engine.events import ENGINE_EVENTS, Event, EventTypes
from fracas.engine.handlers import Handlers
from fracas.engine.legal import LegalCommand, unnamed
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.sheet import SheetItem, stat_items
from fracas.engine.suggest import did_you_mean
from fracas.errors import IllegalCommand, InvalidInput

if TYPE_CHECKING:
    from fracas.dice.odds import OddsReport
    from fracas.engine.context import DecideContext
    from fracas.engine.overrides import OverrideTarget
    from fracas.engine.setup import Setup


_IS_TURN_ORDER: dict[type, bool] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, in order (read once per class)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _is_turn_order(value: Any) -> bool:
    """Whether ``value`` is a :class:`TurnOrder` (asked once per class: the protocol's own
    check looks every method up again each time)."""
    kind = type(value)
    known = _IS_TURN_ORDER.get(kind)
    if known is None:
        known = _IS_TURN_ORDER[kind] = isinstance(value, TurnOrder)
    return known


def recast_ids(ids: Iterable[Any], cast: Mapping[str, Sequence[str]]) -> list[Any]:
    """``ids`` with each one named in ``cast`` replaced by the ids it becomes (for
    :meth:`Ruleset.recast_settings`; anything else kept as given)."""
    return [new for pid in ids
            for new in (cast[pid] if isinstance(pid, str) and pid in cast else (pid,))]


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered rule as packaged with its ruleset."""

    id: str
    mark: str  # seed, core, default or decision
    text: str
    section: str = ""


def load_rules(package: str, filename: str = "rules.toml") -> tuple[Rule, ...]:
    """Read a ruleset's packaged rules (``[[rule]]`` tables with id, mark, section, text)."""
    raw = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    data = tomllib.loads(raw)
    return tuple(
        Rule(id=r["id"], mark=r.get("mark", ""), text=r["text"].strip(),
             section=r.get("section", ""))
        for r in data.get("rule", [])
    )

#: The settings the engine reads in every ruleset (what players see of harm; what they never see).
ENGINE_SETTINGS = frozenset({"harm_view", "gm_only_settings"})


def nobody(_text: str) -> bool:
    """A text names no one the viewer may not know (the GM's judgement: the default)."""
    return False


class Ruleset:
    """Base of every ruleset. Override the hooks that the game needs; defaults are inert."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    package: ClassVar[str] = ""
    commands: ClassVar[tuple[CommandSpec, ...]] = ()
    #: The dataclass of :attr:`ConflictState.ext`, for snapshots; None if the ruleset has none.
    ext_type: ClassVar[type[Any] | None] = None
    #: The ruleset's decide, evolve and describe handlers (the one decide pattern); the default
    #: :meth:`decide`, :meth:`evolve` and :meth:`describe` dispatch through it.
    handlers: ClassVar[Handlers] = Handlers()
    #: The typed event classes its records are read with (its own over the engine's).
    events: ClassVar[EventTypes] = ENGINE_EVENTS
    #: The stats it counts with and their ranges (``skills.*``: every skill), checked at every
    #: door (scenario file, ``join``, import) by :func:`fracas.engine.limits.check_stat_ranges`.
    stat_ranges: ClassVar[dict[str, tuple[int, int]]] = {}
    #: Set-up stats whose live value is kept elsewhere once play starts: stat → the path to
    #: override instead (``{id}`` stands for the participant), e.g. ``"hp": "{id}.hp.max"``.
    live_stats: ClassVar[dict[str, str]] = {}
    #: Settings read once, when the conflict is set up, and kept elsewhere in play: the
    #: setting's path below ``settings`` (``groups``, ``ranges.pairs``) → how to change it in
    #: play instead and that command's rule (``override settings.…`` of it is refused with
    #: these words).
    start_settings: ClassVar[dict[str, tuple[str, str]]] = {}
    #: Settings every viewer is shown, whatever ``gm_only_settings`` says (a VERS map):
    #: listing one there is refused at set-up, not silently ignored.
    shown_settings: ClassVar[frozenset[str]] = frozenset()
    #: The settings it reads (the engine's ``harm_view`` and ``gm_only_settings`` besides).
    settings_read: ClassVar[frozenset[str]] = frozenset()
    #: The stats its rules read (top-level keys of a sheet); None: any stat may be read
    #: (Etherscope rolls a stat named as a skill). A sheet may hold others of the GM's own
    #: (a note, a plan) where the ruleset allows it: they change nothing in play.
    stats_read: ClassVar[frozenset[str] | None] = None
    #: Whether a key of the GM's own (``twist = "…"``, a note) may sit among the settings:
    #: then only a key that looks like a mistyped setting is refused, else every unknown key.
    own_settings: ClassVar[bool] = True
    #: Paths of live values the GM may correct through :meth:`override_target` (``ID`` for a
    #: participant), named when an override sets its own state by hand (``ext.…``). A ruleset
    #: that names some refuses those: the rest of its state is bookkeeping that holds
    #: together only as its events keep it. Empty: ``ext.…`` may be set by hand.
    override_examples: ClassVar[tuple[str, ...]] = ()
    #: Tags of its events that make a participant known to viewers it was hidden from (a
    #: search that finds someone): the projector judges each on the state after its record,
    #: so that those who may see the participant now read of it, and the rest of the record
    #: as usual (on the state before it).
    reveal_events: ClassVar[frozenset[str]] = frozenset()
    #: What the game calls the engine's round and turn, for the pages' and the terminal's
    #: words ("round 3", "the end of Ada's turn"): VERS says turn and go.
    round_word: ClassVar[str] = "round"
    turn_word: ClassVar[str] = "turn"
    #: Verbs the rules have every character use at once, each on its own (Etherscope's
    #: declarations): one such command by a character never makes another's stale, so two
    #: players sending theirs in the same second are both decided (:meth:`Projector.bears_on`).
    simultaneous: ClassVar[frozenset[str]] = frozenset()
    #: The turn rule a command for a character waiting outside a zoomed-in conflict is
    #: refused by (a zoom opens at someone's turn: "it is not Ada's turn" there).
    zoom_wait_rule: ClassVar[str | None] = None

    _rules_cache: tuple[Rule, ...] | None = None

    # --- data -------------------------------------------------------------------------
    def rules(self) -> tuple[Rule, ...]:
        """The ruleset's numbered rules, from its packaged ``rules.toml``."""
        if self._rules_cache is None:
            self._rules_cache = load_rules(self.package) if self.package else ()
        return self._rules_cache

    def rule(self, rule_id: str) -> Rule:
        """One rule by ID."""
        for r in self.rules():
            if r.id == rule_id:
                return r
        raise InvalidInput(f"{self.name} has no rule {rule_id}", rule_id=rule_id)

    # --- set-up -----------------------------------------------------------------------
    def check_setting_names(self, keys: Iterable[str]) -> None:
        """Refuse a setting the ruleset does not read (:attr:`own_settings`: only one so
        like a known name that it is a typo of it), naming the key and the closest name."""
        known = self.settings_read | ENGINE_SETTINGS
        for key in keys:
            if key in known:
                continue
            hint = did_you_mean(key, sorted(known), cutoff=0.8 if self.own_settings else 0.6)
            if self.own_settings and not hint:
                continue
            raise InvalidInput(
                f"settings.{key} is not a setting of {self.title}"
                + (hint or f"; known: {', '.join(sorted(known))}")
                + (" (a key of your own must not look like a setting)"
                   if self.own_settings else ""), key=key)

    def validate_setup(self, setup: Setup) -> Setup:
        """Check and normalise a scenario's settings and stats; raise InvalidInput if wrong."""
        return setup

    def stored_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """A stored conflict's settings as the rules read them now, for the set-up checks of
        a ``join`` or an override: a value refused at set-up only since the conflict was
        stored reads as the one the ruleset plays it by (the log itself is never changed).
        By default, the settings themselves."""
        return settings

    def recast_settings(self, settings: dict[str, Any],
                        cast: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """A scenario's ``settings`` for another cast: each participant named in ``cast``
        becomes the ids it maps to (none: left out, with the entries naming it; several: one
        entry each, a copy standing as the one it copies). Settings of a shape the set-up
        would refuse are left as they are, for it to refuse. By default (no setting names a
        participant), the settings themselves."""
        return settings

    def init_ext(self, state: ConflictState, setup: dict[str, Any]) -> Any:
        """Build :attr:`ConflictState.ext` when the conflict is created."""
        return None

    # --- decide / evolve ---------------------------------------------------------------
    def decide(self, state: ConflictState, command: Command, ctx: DecideContext) -> list[Event]:
        """Validate a ruleset command against ``state`` and return its events (by default
        through the verb's handler in :attr:`handlers`)."""
        return self.handlers.decide(self, state, command, ctx)

    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply an event to the ruleset's part of the state (by default through the event
        class's handler in :attr:`handlers`). Never raises."""
        self.handlers.evolve(state, event)

    def turn_order(self, state: ConflictState) -> TurnOrder | None:
        """The conflict's turn order (None before there is one): by default the field of the
        ruleset's state that is a :class:`~fracas.engine.components.turn_orders.TurnOrder`."""
        ext = state.ext
        if ext is None or not dataclasses.is_dataclass(ext):
            return None
        for name in _field_names(type(ext)):
            value = getattr(ext, name)
            if _is_turn_order(value):
                order: TurnOrder = value
                return order
        return None

    def override_target(self, state: ConflictState, path: list[str]) -> OverrideTarget | None:
        """The live value at ``path`` (``participants.ID.…`` or a conflict-level path, as the
        GM sees it in ``show --json``) that ``override`` may correct, or None (default)."""
        return None

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """The rule that keeps ``pid``, out of the conflict, from acting (None: no rule, e.g.
        the GM took it out)."""
        return None

    def on_join(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """Extra events when a participant joins mid-conflict (``state`` includes it)."""
        return []

    def on_leave(
        self, state: ConflictState, pid: str, ctx: DecideContext
    ) -> list[Event]:
        """Extra events after a participant leaves or is out (``state`` is from before), e.g.
        the end of a round whose remaining turns were all theirs."""
        return []

    # --- zoom in ----------------------------------------------------------------------
    def check_zoom(self, state: ConflictState, actor: str | None, who: list[str]) -> None:
        """Refuse a zoom-in the rules do not allow (default: zooming is not supported)."""
        raise IllegalCommand(f"{self.title or self.name} has no nested conflicts")

    def zoom_state(self, parent: ConflictState, data: dict[str, Any]) -> ConflictState:
        """Build the nested conflict opened by a ``zoom_opened`` event."""
        raise NotImplementedError

    def merge_zoom(self, parent: ConflictState, child: ConflictState) -> None:
        """Carry a nested conflict's effects back into its parent. Never raises."""

    def after_zoom(self, parent: ConflictState, before: ConflictState) -> list[Event]:
        """What follows in ``parent`` once a nested conflict has closed and merged back into
        it, such as the end of the turn of a character taken out inside (default: nothing).
        ``before`` is the parent as it stood while the nested conflict ran (read only), to
        tell what the merge changed."""
        return []

    # --- views ------------------------------------------------------------------------
    def can_see(self, state: ConflictState, viewer: Viewer, pid: str) -> bool:
        """Whether ``viewer`` may know participant ``pid`` exists (default: yes, unless the GM
        concealed it with the engine's ``conceal`` and it is not the viewer's own)."""
        if viewer.is_gm or pid not in state.concealed:
            return True
        p = state.participants.get(pid)
        return p is not None and viewer.player is not None and p.owner == viewer.player

    def view_ext(self, state: ConflictState, viewer: Viewer,
                 names_unknown: Callable[[str], bool] = nobody) -> dict[str, Any]:
        """The ruleset's part of a viewer's view (turn order, positions, harm…).
        ``names_unknown``: whether a text names a participant the viewer may not know, as the
        engine judges it across the levels of a zoom: free words the view would quote (an
        Etherscope zoom's reason) are left out where they do, whole, not cut by the net."""
        return {}

    def view_participant(
        self, state: ConflictState, viewer: Viewer, pid: str
    ) -> dict[str, Any]:
        """Ruleset details of one visible participant (harm tracks, pools…)."""
        return {}

    def sheet(self, state: ConflictState, entry: dict[str, Any]) -> list[SheetItem]:
        """A participant's sheet (:mod:`fracas.engine.sheet`) from its view ``entry``,
        already redacted for the viewer: built from nothing else, it can tell no secret.
        By default each stat in words, in the order of the set-up."""
        return stat_items(entry["stats"])

    #: The keys of :meth:`view_participant` that tell a participant's harm (a side's harm
    #: view other than ``exact`` takes them out, :mod:`fracas.engine.harm_view`).
    harm_keys: ClassVar[tuple[str, ...]] = ("summary",)
    #: The set-up stats that are harm maxima (beside a band they would tell a ratio).
    harm_stats: ClassVar[tuple[str, ...]] = ()

    def end_reasons(self, state: ConflictState) -> tuple[str, ...]:
        """The reasons the rules name for ending the conflict ``state`` (a level of it), the
        one that fits it best first: offered with ``end``, where any other is taken too (by
        default: none named)."""
        return ()

    def stats_example(self, state: ConflictState) -> dict[str, Any]:
        """A newcomer's stats in the game's own words, as ``join … stats=`` takes them in
        ``state``: the example the GM screen's join form gives under its stats field."""
        return {"hp": 10}

    def param_help(self, state: ConflictState, verb: str, param: str) -> str | None:
        """What the field of ``verb``'s ``param`` says of its value in ``state``, where the
        command's spec cannot say it alike for every conflict (None: the spec's help). The
        GM's join gives the game's own stats as its example."""
        if verb == "join" and param == "stats":
            return f"a JSON object, e.g. {json.dumps(self.stats_example(state))}"
        if verb == "override" and param == "path" and self.override_examples:
            return (f"what to correct, e.g. {', '.join(self.override_examples)} "
                    "(ID: a character's id)")
        return None

    def join_sides(self, state: ConflictState) -> tuple[str, ...] | None:
        """The only sides a newcomer may ``join`` on in ``state`` (a level of the conflict),
        offered to choose from; None (the default): any side, the conflict's own suggested
        and a new one taken too."""
        return None

    def round_limit_secret(self, state: ConflictState, viewer: Viewer) -> bool:
        """Whether ``viewer`` may not know the round limit of ``state`` (a level of the
        conflict), such as a zoom's taken from a GM-only setting (by default: never)."""
        return False

    def harm_band(self, entry: dict[str, Any]) -> str | None:
        """The band of a participant's view ``entry`` (``unhurt``, ``hurt``, ``in crisis``
        or ``down``, or the ruleset's own words; None: no harm to band)."""
        return None

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """The event as ``viewer`` may see it, or None to hide it (beyond visibility)."""
        return event

    def uncounted(self, state: ConflictState, event: Event, viewer: Viewer) -> Event:
        """``event`` (typed) less what it counts of the participants hidden from ``viewer``
        beyond naming them (the engine's net takes their names out), as :meth:`redact` gives
        it: such as extra successes spent on finds the viewer may not read of. The projector
        reads a command as typed when that and their names are all the viewer lost of it;
        a ruleset may also take out what no command of the event's kind could hold (the
        settings an Etherscope zoom copies from the conflict's). By default: ``event``
        itself."""
        return event

    def describe(self, event: Event, state: ConflictState) -> str | None:
        """A sentence for the log, or None to use the engine's generic text (by default from
        the event class's handler in :attr:`handlers`)."""
        return self.handlers.describe(event, state)

    def legal_commands(
        self, state: ConflictState, actor: str | None
    ) -> Sequence[str | LegalCommand]:
        """What ``actor`` (None: the GM) may do now: structured :class:`LegalCommand` values,
        or text templates read by :func:`fracas.engine.legal.from_template`."""
        return []

    def legal_commands_of(
        self, state: ConflictState, actors: Sequence[str | None]
    ) -> Mapping[str | None, Sequence[str | LegalCommand]]:
        """:meth:`legal_commands` of each of ``actors`` at once (the simulator asks for every
        character each step): one call each by default; a ruleset may share the work."""
        return {actor: self.legal_commands(state, actor) for actor in actors}

    def offer_for(self, state: ConflictState, actor: str, viewer: Viewer,
                  offer: list[LegalCommand]) -> list[LegalCommand]:
        """What ``viewer`` (a player) is offered of ``actor``'s legal commands, ``offer``
        (already naming no participant hidden from them): nothing that tells of one of the
        actor's stats the viewer may not see (by default: ``offer`` naming none of the
        :meth:`secret_words`, the variants that told them apart merged)."""
        secret = self.secret_words(state, actor)
        return unnamed(offer, secret, self.commands) if secret else offer

    def secret_words(self, state: ConflictState, pid: str) -> frozenset[str]:
        """The words (lower case) a command for ``pid`` may hold that name one of its GM-only
        stats, such as the names of GM-only weapons: neither its offers nor, where the GM
        typed it, its command in its player's log name them (by default: none)."""
        return frozenset()

    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """Exact odds of the roll(s) the character acting now is about to make, as lines
        (only those ``viewer`` may know: a player sees odds for their own characters); asked
        in set-up too (a roll that starts the conflict) and never once it has ended."""
        return []

    def command_odds(self, state: ConflictState, viewer: Viewer,
                     command: Command) -> list[str]:
        """The lines of :meth:`pending_odds` (for ``viewer``) about the roll ``command`` would
        make: none by default, nor for a command whose roll none of them is about (a
        ``disengage`` has no odds in the lines of its actor's attacks)."""
        return []

    def odds_probe(self, state: ConflictState, viewer: Viewer, command: Command) -> Command:
        """The command the odds route decides to learn whether the rules take ``command`` now
        (``viewer``'s, with lines of its roll to read): ``command`` itself, unless a part of it
        would be refused by what the viewer may not know of their own character (Fabula
        Ultima: a spell's cost in GM-only MP); it is never applied."""
        return command

    def status_lines(self, state: ConflictState) -> list[str]:
        """Short lines for a terminal: whose turn, positions, harm."""
        return []

    # --- odds -------------------------------------------------------------------------
    def odds(self, query: str) -> OddsReport:
        """Answer an odds query in this ruleset's documented syntax."""
        raise InvalidInput(f"{self.name} has no odds queries")
