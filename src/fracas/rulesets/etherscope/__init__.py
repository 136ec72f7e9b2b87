"""Etherscope (unofficial): split-initiative countdown, range bands with a directional Hidden,
condensers as harm, nested zoom-in conflicts. Rules in ``rules.toml``."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from fracas.dice import OddsReport
from fracas.engine.commands import Command
from fracas.engine.components import RangeBands
from fracas.engine.context import DecideContext
from fracas.engine.events import Event, EventTypes
from fracas.engine.handlers import Handlers
from fracas.engine.legal import LegalCommand
from fracas.engine.limits import spelled
from fracas.engine.model import ConflictState, Status, Viewer
from fracas.engine.overrides import OverrideTarget
from fracas.engine.ruleset import Ruleset, nobody
from fracas.engine.setup import Setup
from fracas.engine.sheet import SheetItem, stat_items
from fracas.engine.suggest import refuse_mistyped_stats
from fracas.errors import InvalidInput
from fracas.rulesets.etherscope import (  # noqa: F401 (their handlers register on import)
    actions,
    common,
    legal,
    overrides,
    rounds,
    sentences,
    start,
    views,
    zoom,
)
from fracas.rulesets.etherscope import state as ph
from fracas.rulesets.etherscope.commands import COMMANDS
from fracas.rulesets.etherscope.events import ES_EVENTS, Revealed
from fracas.rulesets.etherscope.evolve import CONDENSERS, init_ext
from fracas.rulesets.etherscope.handlers import HANDLERS
from fracas.rulesets.etherscope.limits import STAT_RANGES
from fracas.rulesets.etherscope.odds import (
    ROLLED_ACTIONS,
    awareness_odds,
    command_odds,
    odds,
    pending_odds,
)
from fracas.rulesets.etherscope.settings import (
    KNOWN,
    condenser_of,
    min_gap,
    normalise,
    recast,
    stored,
)
from fracas.rulesets.etherscope.state import EsExt

__all__ = ["EsExt", "Etherscope"]

def _is_rating(v: Any) -> bool:
    """A whole number ≥ 0 (a bool is not one)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


#: An Etherscope sheet's order (docs/etherscope.md), and its labels.
_SHEET = ("physical", "ether", "society", "awareness", "skills", "pool")
_LABELS = {"physical": "physical condenser", "ether": "ether condenser",
           "society": "society condenser", "pool": "pool without a skill"}


#: What a zoomed-in conflict's title adds to the title of the conflict it zooms in from.
ZOOMED = " — zoomed in"


def zoom_title(parent: str, depth: int) -> str:
    """The title of a conflict zoomed in ``depth`` levels below the one titled ``parent`` was
    zoomed from: "A car chase — zoomed in", then "… — zoomed in twice" (not "— zoomed in —
    zoomed in"), "… — zoomed in 3 times"."""
    base = parent.split(ZOOMED)[0]
    times = "" if depth <= 1 else " twice" if depth == 2 else f" {depth} times"
    return f"{base}{ZOOMED}{times}".strip(" —")


class Etherscope(Ruleset):
    """The Etherscope conflict system."""

    name = "etherscope"
    title = "Etherscope"
    settings_read = KNOWN
    own_settings = False  # every setting is a number or a choice the rules read
    package = "fracas.rulesets.etherscope"
    commands = COMMANDS
    ext_type = EsExt
    handlers: ClassVar[Handlers] = HANDLERS
    events: ClassVar[EventTypes] = ES_EVENTS
    stat_ranges = STAT_RANGES  # limits.py
    live_stats = overrides.LIVE_STATS
    override_examples = ("ID.condensers.physical", "ID.declared", "ruleset.ranges.ID.ID2",
                         "ruleset.acting")
    start_settings = overrides.START_SETTINGS
    harm_keys = ("condensers", "summary")
    harm_stats = ("physical", "ether", "society")
    reveal_events = frozenset({Revealed.TYPE})  # ES-RNG-3: a search or the GM reveals
    simultaneous = frozenset({"awareness", "declare"})  # ES-START-1, ES-ROUND-7
    zoom_wait_rule = "ES-ROUND-4"  # a zoom opens at a turn of the countdown (ES-ACT-1)

    def param_help(self, state: ConflictState, verb: str, param: str) -> str | None:
        """A declaration's scores name the conflict's own gap between them (ES-ROUND-3),
        and an action's nature what acting off the conflict's costs (ES-SET-3), unless
        those settings are the GM's."""
        if verb == "declare" and param == "scores" \
                and "min_gap" not in state.settings.get("gm_only_settings", []):
            return ("your acting initiatives, e.g. 7,1: positive, at most your base "
                    f"initiative in all, at least {min_gap(state.settings)} apart")
        if param == "nature":
            return legal.nature_help(state.settings)
        return super().param_help(state, verb, param)

    def stats_example(self, state: ConflictState) -> dict[str, Any]:
        """A character's condensers (a joiner needs the conflict's, ES-ROUND-1), awareness and
        a skill."""
        return {"physical": 8, "ether": 6, "society": 5, "awareness": 2, "skills": {"brawl": 3}}

    def override_target(self, state: ConflictState, path: list[str]) -> OverrideTarget | None:
        """Condensers and range bands (overrides.py)."""
        return overrides.override_target(state, path)

    # --- set-up
    def validate_setup(self, setup: Setup) -> Setup:
        """Check settings (naming the key) and every character's condensers and skills."""
        ids = [p.id for p in setup.participants]
        settings = normalise(dict(setup.settings), ids)
        for pid in settings["lurking"]:
            if any(p.id == pid and p.hidden for p in setup.participants):
                raise InvalidInput(
                    f"settings.lurking.{pid}: {pid} is hidden = true, hidden from every player "
                    "already; [settings.lurking] hides one from some characters only: keep "
                    "one of the two", key=f"lurking.{pid}", rule="ES-RNG-6")
        kind = condenser_of(settings)
        for p in setup.participants:
            refuse_mistyped_stats(p.id, p.stats, _SHEET, "Etherscope", "ES-ACT-4")
            for c in CONDENSERS:
                v = p.stats.get(c)
                if v is not None and not _is_rating(v):
                    raise InvalidInput(f"{p.id}.stats.{c} must be a whole number ≥ 0, not "
                                       f"{spelled(v)}",
                                       key=f"{p.id}.stats.{c}")
            if not isinstance(p.stats.get(kind), int) or p.stats[kind] < 1:
                raise InvalidInput(
                    f"{p.id}.stats.{kind} is needed: the {kind} condenser is this conflict's "
                    "base initiative (ES-ROUND-1)", key=f"{p.id}.stats.{kind}",
                    rule="ES-ROUND-1")
            skills = p.stats.get("skills", {})
            if not isinstance(skills, dict) or not all(_is_rating(v) for v in skills.values()):
                raise InvalidInput(f"{p.id}.stats.skills must map skill names to ratings ≥ 0",
                                   key=f"{p.id}.stats.skills")
            for k in ("awareness", "pool"):
                v = p.stats.get(k)
                if v is not None and not _is_rating(v):
                    raise InvalidInput(f"{p.id}.stats.{k} must be a rating ≥ 0, not {spelled(v)}",
                                       key=f"{p.id}.stats.{k}")
        return setup.model_copy(update={"settings": settings})

    def stored_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """A ``min_gap`` of 0, stored before it was refused, read as 1 (ES-ROUND-3)."""
        return stored(settings)

    def recast_settings(self, settings: dict[str, Any],
                        cast: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        """Range pairs, groups and ambushers for another cast."""
        return recast(settings, cast)

    def init_ext(self, state: ConflictState, setup: dict[str, Any]) -> EsExt:
        """Ranges, groups, condensers and lurking ambushers from the set-up."""
        return init_ext(state)

    # --- decide / evolve (decide: the verb's handler in HANDLERS)
    def on_leave(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """Whose awareness move or turn it was passes on (ES-START-5, ES-ROUND-4)."""
        return start.on_leave(state, pid)

    def on_join(self, state: ConflictState, pid: str, ctx: DecideContext) -> list[Event]:
        """A joiner needs the conflict's condenser (ES-ROUND-1); it acts from the next round."""
        common.check_joiner(state, pid)
        return []

    def evolve(self, state: ConflictState, event: Event) -> None:
        """Apply an event to the Etherscope state: its class's handler (Etherscope's or the
        engine's event)."""
        if state.ext is not None:
            self.handlers.evolve(state, event)

    # --- zoom
    def check_zoom(self, state: ConflictState, actor: str | None, who: list[str]) -> None:
        """Refuse zooming from Fast (ES-ACT-2) or off one's turn."""
        zoom.check_zoom(state, actor, who)

    def zoom_state(self, parent: ConflictState, data: dict[str, Any]) -> ConflictState:
        """The nested conflict: chosen participants, one time scale faster, five rounds."""
        who = [p for p in data["participants"] if p in parent.participants]
        child = ConflictState(
            # the reason stays in ext: the scene of a level is shown to every player, and a
            # zoom opened by a hidden character must not give it away (ES-RNG-6)
            ruleset=parent.ruleset, title=zoom_title(parent.title, int(data["depth"])),
            scene="", settings=copy.deepcopy(data["settings"]),
            status=Status.RUNNING.value,
            participants={p: copy.deepcopy(parent.participants[p]) for p in who},
            sides=list(parent.sides), round_limit=int(data["round_limit"]),
            depth=int(data["depth"]), zoom_origin=data.get("opened_by"),
        )
        pext = common.ext_of(parent)
        ext = EsExt(phase=ph.START if data.get("start") else ph.READY,
                    opened_by=data.get("opened_by"), zoom_reason=str(data.get("reason", "")))
        ext.ranges = RangeBands(actors=list(who), bands=dict(data["bands"]),
                                hidden={k: list(v) for k, v in data["hidden"].items()})
        ext.condenser = {p: copy.deepcopy(pext.condenser[p]) for p in who}
        if not data.get("start"):  # the awareness rolls carry in: a tie rolls them again
            ext.awareness = {p: int(v) for p, v in data["awareness"].items()}
            ext.awareness_pools = {p: v for p, v in pext.awareness_pools.items() if p in who}
            ext.awareness_skills = {p: v for p, v in pext.awareness_skills.items() if p in who}
        child.ext = ext
        return child

    def merge_zoom(self, parent: ConflictState, child: ConflictState) -> None:
        """Damage (condensers), outs and hiding carry back; ranges too when the scaling is
        the same (the Hidden band means the same at every scaling, ES-RNG-2). Only those of
        the parent conflict carry back: one who joined inside takes part there alone."""
        pext, cext = common.ext_of(parent), common.ext_of(child)
        back = [p for p in cext.ranges.actors if p in parent.participants]
        for pid, pools in cext.condenser.items():
            if pid not in parent.participants:
                continue
            pext.condenser[pid] = copy.deepcopy(pools)
            cp = child.participants.get(pid)
            if cp is not None and cp.out:
                parent.participants[pid].out = f"{cp.out} (in the zoomed-in conflict)"
                pext.countdown.remove(pid)
        if child.settings.get("range_scaling") == parent.settings.get("range_scaling"):
            pext.ranges.bands.update({k: v for k, v in cext.ranges.bands.items()
                                      if all(x in back for x in k.split("|"))})
        for pid in back:
            for other in back:
                if cext.ranges.is_hidden(pid, other):
                    pext.ranges.hide(pid, other)
                else:
                    pext.ranges.reveal(pid, other)

    def after_zoom(self, parent: ConflictState, before: ConflictState) -> list[Event]:
        """Those whose ranges carried back apart from their group leave it (ES-START-6); the
        turn of a character taken out in the zoomed-in conflict ends: the action returns to
        the main conflict's countdown (ES-ACT-1), to the next still in it."""
        out = start.zoom_group_breaks(parent, before)
        ext = common.ext_of(parent)
        cur = ext.countdown.current if ext.phase == ph.COUNTDOWN else None
        if cur is None or common.active(parent, cur.actor):
            return out
        return [*out, *rounds.end_turn(parent)]

    # --- views
    def can_see(self, state: ConflictState, viewer: Viewer, pid: str) -> bool:
        """Whether ``viewer`` may know ``pid`` exists (ES-RNG-6)."""
        return views.can_see(state, viewer, pid)

    def redact(self, state: ConflictState, event: Event, viewer: Viewer) -> Event | None:
        """The event as ``viewer`` may see it (ES-RNG-6)."""
        return views.redact(state, event, viewer)

    def round_limit_secret(self, state: ConflictState, viewer: Viewer) -> bool:
        """A zoom's round limit where ``zoom_rounds``, which set it, is GM-only (ES-ACT-1)."""
        return views.round_limit_secret(state, viewer)

    def uncounted(self, state: ConflictState, event: Event, viewer: Viewer) -> Event:
        """A search's extras spent on finds hidden from ``viewer`` left unspent (ES-RNG-6)."""
        return views.uncounted(state, event, viewer)

    def out_rule(self, state: ConflictState, pid: str) -> str | None:
        """ES-DMG-1 when the conflict's condenser reached 0."""
        pools = state.ext.condenser.get(pid, {})
        pool = pools.get(condenser_of(state.settings))
        return "ES-DMG-1" if pool is not None and pool.current <= 0 else None

    def pending_odds(self, state: ConflictState, viewer: Viewer) -> list[str]:
        """The acting character's pool odds (ES-ACT-4)."""
        return pending_odds(state, viewer)

    def command_odds(self, state: ConflictState, viewer: Viewer,
                     command: Command) -> list[str]:
        """The pool odds for an action its actor rolls now (no others: a ``zoom`` or a
        ``done`` rolls no pool)."""
        if command.verb == "awareness":  # ES-START-1: before the moves
            return awareness_odds(state, viewer, command)
        if command.verb not in ROLLED_ACTIONS:
            return []
        return command_odds(state, viewer, command)

    def view_ext(self, state: ConflictState, viewer: Viewer,
                 names_unknown: Callable[[str], bool] = nobody) -> dict[str, Any]:
        """Table line, phase, whose turn or move, visible ranges and groups."""
        return views.view_ext(state, viewer, names_unknown)

    def view_participant(self, state: ConflictState, viewer: Viewer, pid: str
                         ) -> dict[str, Any]:
        """Condensers and awareness at a glance."""
        return views.view_participant(state, viewer, pid)

    def sheet(self, state: ConflictState, entry: dict[str, Any]) -> list[SheetItem]:
        """Condenser maxima, awareness, skills, pool, then any other stat (a skill rolled
        by its name, a note)."""
        return stat_items(entry["stats"], [*_SHEET, *entry["stats"]], _LABELS)

    def harm_band(self, entry: dict[str, Any]) -> str | None:
        """Hurt below any maximum, else unhurt (a condenser the character does not have, at
        0 of 0, counts for nothing; "down" is the engine's, for those out)."""
        pools = list((entry.get("condensers") or {}).values())
        if not pools:
            return None
        return "hurt" if any(cur < top for cur, top in pools) else "unhurt"

    def describe(self, event: Event, state: ConflictState) -> str | None:
        """One log line per event: its class's sentence (None: the engine's)."""
        return self.handlers.describe(event, state)

    def legal_commands(self, state: ConflictState, actor: str | None) -> list[LegalCommand]:
        """What ``actor`` (None: the GM) may do now, with the values the rules allow."""
        return legal.legal_commands(state, actor)

    def offer_for(self, state: ConflictState, actor: str, viewer: Viewer,
                  offer: list[LegalCommand]) -> list[LegalCommand]:
        """A declaration that tells nothing of a hidden base initiative (ES-ROUND-2)."""
        return legal.offer_for(state, actor, viewer, offer)

    def status_lines(self, state: ConflictState) -> list[str]:
        """The GM's view lines."""
        return views.view_lines(state, Viewer.gm()) if state.ext is not None else []

    def odds(self, query: str) -> OddsReport:
        """``pool N vs D [die S] [threshold T]``: exact odds of an Etherscope roll."""
        return odds(query)
