"""What one viewer may know: who exists for them (:class:`Knowledge`), and one event as they
may see it (:func:`redact`). The :class:`~fracas.engine.projector.Projector` applies both to
every record and to the state; nothing else decides what a player may see.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from fracas.engine.engine_events import (
    ConflictCreated,
    EffectAdded,
    EffectExpired,
    ParticipantJoined,
    Redone,
    Undone,
    ZoomOpened,
)
from fracas.engine.events import Event, TypedEvent, nullable_keys, untold_keys
from fracas.engine.harm_view import SETTING as HARM_VIEW
from fracas.engine.model import ConflictState, Participant, Viewer, Visibility
from fracas.engine.ruleset import Ruleset
from fracas.engine.secrets import redact_marked


class Knowledge:
    """Which participants ``viewer`` may know exist, at each level of a conflict (the
    conflict and the zoomed-in ones inside it).

    A participant is judged for the viewer's own characters: at the deepest level (up to the
    one asked about) that holds both it and one of the viewer's characters. A zoomed-in
    conflict without the viewer's characters is thus judged in the parent, so a zoom by an
    ally against a character hidden from the viewer shows nothing of it, and what a zoom
    reveals stays in the zoom. A viewer with no character at those levels (the public) knows
    only who every level holding it lets them know.
    """

    __slots__ = ("_mine", "chain", "ruleset", "viewer")

    def __init__(self, ruleset: Ruleset, root: ConflictState, viewer: Viewer) -> None:
        """Judge ``root`` (and its zoomed-in conflicts) for ``viewer``."""
        self.ruleset = ruleset
        self.viewer = viewer
        self.chain = root.chain()
        player = viewer.player
        # which levels hold one of the viewer's characters: read only within a zoom (knows)
        self._mine = [player is not None and any(p.owner == player
                                                 for p in s.participants.values())
                      for s in self.chain] if len(self.chain) > 1 else []

    def knows(self, pid: str, depth: int | None = None) -> bool:
        """Whether the viewer may know ``pid`` exists at level ``depth`` (default: the
        innermost). A name that is no participant at all is no secret."""
        if self.viewer.is_gm:
            return True
        chain = self.chain
        if len(chain) == 1:  # no zoom: judged at the conflict itself
            level = chain[0]
            return pid not in level.participants or self.ruleset.can_see(level, self.viewer,
                                                                         pid)
        last = len(chain) - 1 if depth is None else min(depth, len(chain) - 1)
        levels = [i for i in range(last + 1) if pid in self.chain[i].participants]
        if not levels:
            return True
        own = [i for i in levels if self._mine[i]]
        judged = own[-1:] or levels
        return all(self.ruleset.can_see(self.chain[i], self.viewer, pid) for i in judged)

    def unknowns(self) -> Unknowns:
        """The participants hidden from the viewer at some level, to keep out of anything
        the viewer receives."""
        if self.viewer.is_gm:
            return Unknowns(set(), set(), set())
        ids, names, shown, every = set(), set(), set(), set()
        places: set[str] = set()
        entered: dict[str, tuple[int, str]] = {}
        for i, level in enumerate(self.chain):
            places.update(place_names(level.settings))
            for p in level.participants.values():
                every.add(p.id)
                if self.knows(p.id, i):
                    shown.add(p.name)
                else:
                    ids.add(p.id)
                    names.add(p.name)
                    entered[p.id] = p.entered, p.name
        hidden = {n for n in names - shown if n}
        return Unknowns(ids, hidden, every, shown | (places - hidden), entered)

    def mine(self, pid: str) -> bool:
        """Whether ``pid`` is one of the viewer's own characters."""
        p = self.chain[0].participants.get(pid) or self.chain[-1].participants.get(pid)
        return p is not None and self.viewer.player is not None and p.owner == self.viewer.player


class Unknowns:
    """The net under every ruleset's part of a view: participants hidden from the viewer do
    not exist in it. :meth:`clean` drops from JSON-native data each mapping key that is one
    of their ids or pairs one with another (``"bo|kim"``), each mapping or list of values
    that names one (a range ``["bo", "kim", "near"]``, an entry ``{"actor": "kim", …}``), a
    hidden id from a list of ids, and a line of text that names one of them."""

    __slots__ = ("_before", "_covers", "_entered", "_every", "_hidden_names", "_ids", "_last",
                 "_listed", "_names", "_shown")

    def __init__(self, ids: set[str], names: set[str], every: set[str],
                 shown: Iterable[str] = (), entered: dict[str, tuple[int, str]] | None = None
                 ) -> None:
        """``shown``: the names the viewer may read; one holding a hidden name ("Bouncer's
        dog" beside a hidden "Bouncer") names its own, not the hidden one. ``entered``: when
        each of ``ids`` came into the conflict, and its name (:meth:`before`)."""
        self._ids = ids
        self._every = every
        self._hidden_names = names
        self._shown = set(shown)
        self._entered = entered or {}
        self._last = max((came for came, _ in self._entered.values()), default=0)
        self._before: dict[int, Unknowns] = {}
        alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
        # a sentence names one by its name or, in the GM's words, by its id as a word of its
        # own ("zqdora got away": GMs type ids in every command; not "cut" in "cut-throat")
        said = [rf"\b(?:{alternatives})\b"] if names else []
        if ids:
            keys = "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
            said.append(rf"(?<![\w-])(?:{keys})(?![\w-])")
        self._names = re.compile("|".join(said)) if said else None
        covers = [n for n in shown if self._names is not None and self._names.search(n)]
        self._covers = re.compile("|".join(sorted(map(re.escape, covers), key=len,
                                                  reverse=True))) if covers else None
        # one of them as a whole item of a list of names: "Ada, Kim, Bo" reads "Ada, Bo"; an
        # item that says more of them ("Kim 5", "Kim 9%", "Kim (turn 3)") is no bare name,
        # and its line is withheld
        bare = r"\b(?![ \t]*[\d(:=+\-−%])"
        self._listed = re.compile(rf"(?:, (?:{alternatives}){bare})|(?:\b(?:{alternatives}), )") \
            if names else None

    def __bool__(self) -> bool:
        return bool(self._ids)

    def before(self, written: int) -> Unknowns:
        """The net for words written at ``written`` (:meth:`Participant.stat_written`): only
        those who had come into the conflict by then. A character's sheet set up before one
        joined hidden reads as it did: its going away would tell of the hidden joining."""
        if written >= self._last:  # every one of them had come in
            return self
        net = self._before.get(written)
        if net is None:
            kept = {i for i in self._ids if self._entered[i][0] <= written}
            names = {self._entered[i][1] for i in kept} & self._hidden_names
            net = self._before[written] = Unknowns(kept, names, self._every, self._shown)
        return net

    def stats(self, p: Participant) -> dict[str, Any]:
        """``p``'s public stats without what names one of them who had come in when the
        stat was written (a bond keyed by its id, a note naming it)."""
        stats = p.public_stats()
        if not self._ids:
            return stats
        out: dict[str, Any] = {}
        for key, value in stats.items():
            out.update(self.before(p.stat_written(key)).clean({key: value}))
        return out

    def echoing(self, typed: Iterable[str]) -> Unknowns:
        """The net for words that echo back what their reader typed: an id of theirs among
        ``typed`` is no secret there (a refusal of "attack gob" quotes 'gob' for a hidden
        gob as for a missing zzz), their names still are."""
        echoed = self._ids & set(typed)
        if not echoed:
            return self
        return Unknowns(self._ids - echoed, self._hidden_names, self._every, self._shown,
                        {k: v for k, v in self._entered.items() if k not in echoed})

    def knows(self, pid: str) -> bool:
        """Whether participant ``pid`` is none of them."""
        return pid not in self._ids

    def named_in(self, text: str) -> bool:
        """Whether ``text`` names one of them (their id, or their name in a sentence)."""
        if text in self._ids:
            return True
        if self._names is None:
            return False
        if self._covers is not None:
            text = self._covers.sub("\x00", text)  # a shown name holding a hidden one
        return bool(self._names.search(text))

    def text(self, text: str) -> str | None:
        """``text`` as if they did not exist: their names left out of lists of names; None
        when it still names one of them (or is one of their ids)."""
        if not self.named_in(text):
            return text
        if self._listed is not None and not (self._covers and self._covers.search(text)):
            text = self._listed.sub("", text)  # (never out of a shown name that holds one)
        return None if self.named_in(text) else text

    def clean(self, value: Any) -> Any:
        """``value`` without what names them (see the class)."""
        if not self._ids:
            return value
        out, tainted = self._clean(value, top=True)
        return None if tainted else out

    def _clean(self, value: Any, *, top: bool = False) -> tuple[Any, bool]:
        if isinstance(value, str):
            text = self.text(value)
            return (value, True) if text is None else (text, False)
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if isinstance(k, str) and (k in self._ids or not self._ids.isdisjoint(
                        pair_ids(k))):
                    continue
                item, tainted = self._clean(v)
                if tainted:
                    if not top and not isinstance(v, dict | list | tuple):
                        return value, True  # a record about one of them
                    continue
                out[k] = item
            return out, False
        if isinstance(value, list | tuple):
            scalars = all(not isinstance(v, dict | list | tuple) for v in value)
            if scalars and any(isinstance(v, str) and v in self._ids for v in value) \
                    and not all(isinstance(v, str) and v in self._every for v in value):
                return value, True  # a record naming one of them (``["bo", "kim", "near"]``)
            kept = []
            for v in value:
                item, tainted = self._clean(v)
                if not tainted:
                    kept.append(item)
            return kept, False
        return value, False


def pair_ids(key: Any) -> tuple[str, ...]:
    """The two ids of a mapping key that pairs them (``"ada|kim"``, as the engine's and the
    rulesets' bands and links are keyed); none for any other key."""
    if not isinstance(key, str):
        return ()
    first, bar, second = key.partition("|")
    return (first, second) if bar and first and second and "|" not in second else ()


def place_names(settings: dict[str, Any]) -> set[str]:
    """The names of the things on a conflict's map (each ``{"id": …, "name": …}`` in a list
    of its settings: VERS zones and objects): labels every viewer reads as written, so one
    holding a concealed character's name ("Bouncer's door") names the place, not the
    character."""
    return {thing["name"] for value in settings.values() if isinstance(value, list)
            for thing in value if isinstance(thing, dict) and isinstance(thing.get("id"), str)
            and isinstance(thing.get("name"), str)}


def may_see_event(state: ConflictState, event: Event, viewer: Viewer) -> bool:
    """The visibility check every event passes before the ruleset's own redaction."""
    if viewer.is_gm or event.visibility == Visibility.PUBLIC.value:
        return True
    if event.visibility == Visibility.OWNER.value and viewer.player is not None:
        actor = state.participants.get(event.actor or "")
        return actor is not None and actor.owner == viewer.player
    return False


def public_settings(settings: dict[str, Any], sides: Iterable[str | None] | None = None
                    ) -> dict[str, Any]:
    """Settings without those the scenario lists in ``gm_only_settings`` (nor that list);
    given the ``sides`` a player may know of, the harm views of those alone (a side whose
    every member is hidden from them is not named)."""
    hidden = set(settings.get("gm_only_settings", []))
    out = {k: v for k, v in settings.items() if k not in hidden and k != "gm_only_settings"}
    views = out.get(HARM_VIEW)
    if sides is not None and isinstance(views, dict):
        known = set(sides)
        out[HARM_VIEW] = {side: mode for side, mode in views.items() if side in known}
    return out


def public_participant(p: Participant, unknown: Unknowns) -> Participant:
    """A participant as a player may know it: without its GM-only stats, nor a stat naming
    one hidden from them (``unknown``)."""
    return dataclasses.replace(p, stats=unknown.stats(p), data={})


def redact(
    ruleset: Ruleset, event: Event, viewer: Viewer, then: ConflictState, knowledge: Knowledge,
    said: frozenset[str] = frozenset(),
) -> Event | None:
    """``event`` as ``viewer`` may see it (None: hidden), judged on the state ``then`` and
    on who the viewer may know exists there (``knowledge``). ``said``: the free text a
    player typed into the command (a note, a reason), which names no one however it reads."""
    event = ruleset.events.typed(event)  # judged by its class: never a plain event
    if isinstance(event, Undone | Redone):  # log markers: the projector words them
        return event
    state = then.innermost
    if not may_see_event(state, event, viewer):
        return None
    if viewer.is_gm:
        return event
    # an effect on (or set by) a character the viewer cannot know is hidden, as in the view
    if isinstance(event, EffectAdded | EffectExpired) and any(
            isinstance(who, str) and not knowledge.knows(who)
            for who in (event.participant, event.actor)):
        return None
    if isinstance(event, ConflictCreated | ParticipantJoined):
        setup = _redact_setup(event, knowledge)
        if setup is None:
            return None
        event = setup
    marked = redact_marked(event, state, viewer, knowledge.knows)
    if marked is None:
        return None
    out = ruleset.redact(state, marked, viewer)
    if isinstance(out, ZoomOpened) and out.actor is not None and not knowledge.knows(out.actor):
        # one they may not know opened a zoom they see (it holds one of those they know): the
        # zoom, not its opener (a field naming it is a Names one, masked) nor its words for it
        out = dataclasses.replace(out, actor=None, reason=None)
    return None if out is None else without_unknown(out, knowledge, said)


def _redact_setup(event: ConflictCreated | ParticipantJoined,
                  knowledge: Knowledge) -> Event | None:
    """Set-up data as the viewer may know it, judged like the state (the set-up record of a
    conflict at its own level, a join at the level it joins): no GM-only stats or settings,
    no characters the viewer may not know, and no side only they are on."""
    d = event.data
    unknown = knowledge.unknowns()
    if isinstance(event, ParticipantJoined):
        if not knowledge.knows(event.id):
            return None
        data = _public_entry(d, unknown)
    else:
        shown = [p for p in d.get("participants", []) if knowledge.knows(p["id"], 0)]
        sides = {p.get("side") for p in shown}
        data = {**d, "participants": [_public_entry(p, unknown) for p in shown],
                "settings": public_settings(d.get("settings", {}), sides)}
        if "sides" in d:
            data["sides"] = [s for s in d["sides"] if s in sides]
    return _rebuilt(event, data)


def _public_entry(data: dict[str, Any], unknown: Unknowns) -> dict[str, Any]:
    """A set-up's participant as the view shows it: no GM-only stats, nor one naming someone
    hidden from the viewer (a bond, a note)."""
    hidden = set(data.get("gm_only", []))
    out = {k: v for k, v in data.items() if k != "gm_only"}
    out["stats"] = unknown.clean({k: v for k, v in data.get("stats", {}).items()
                                  if k not in hidden})
    return out


def without_unknown(event: Event, knowledge: Knowledge,
                    said: frozenset[str] = frozenset()) -> Event | None:
    """The structural net under every ruleset's redaction: in what a player receives, a
    participant they may not know does not exist. An event whose actor, or any single value
    (but one of the words a player ``said``), names one is hidden; list items and mapping
    keys naming one are dropped."""
    if event.actor is not None and not knowledge.knows(event.actor):
        return None
    unknown = _Unknown(knowledge, said)
    data = unknown.scrub(event.data)
    if unknown.hide:
        return None
    if not unknown.changed:
        return event
    return _rebuilt(event, data)


def names_unknown(event: Event, knowledge: Knowledge) -> bool:
    """Whether ``event`` names, as its actor or anywhere in its data, a participant the viewer
    may not know."""
    if event.actor is not None and not knowledge.knows(event.actor):
        return True
    net = _Unknown(knowledge, frozenset())
    net.scrub(event.data)
    return net.hide or net.changed


class _Unknown:
    """One pass over an event's data, dropping what names participants the viewer may not
    know."""

    __slots__ = ("changed", "hide", "knowledge", "said")

    def __init__(self, knowledge: Knowledge, said: frozenset[str]) -> None:
        self.knowledge = knowledge
        self.said = said
        self.changed = False
        self.hide = False

    def names_unknown(self, value: Any) -> bool:
        return isinstance(value, str) and not self.knowledge.knows(value) \
            and value not in self.said

    def key_names_unknown(self, key: Any) -> bool:
        """Whether a mapping key is one of them, or a pair of ids holding one (``"ada|kim"``:
        a band between two, :func:`pair_ids`)."""
        return self.names_unknown(key) or any(map(self.names_unknown, pair_ids(key)))

    def scrub(self, value: Any) -> Any:
        if self.names_unknown(value):
            self.hide = True
            return value
        if isinstance(value, dict):
            kept = {k: self.scrub(v) for k, v in value.items()
                    if not self.key_names_unknown(k)}
            self.changed |= len(kept) != len(value)
            return kept
        if isinstance(value, list | tuple):
            items = []
            for item in value:
                if self.names_unknown(item) or (
                        isinstance(item, list | tuple) and item and self.names_unknown(item[0])):
                    self.changed = True
                    continue
                items.append(self.scrub(item))
            return items
        return value


def untold(event: Event, unknown: Unknowns, own: frozenset[str]) -> Event | None:
    """``event`` without a text of its data that names, by name, one of those ``unknown``
    holds (a GM's reason): the text is left out (None) where the event may go without it, or
    read as the command words it where the GM gives none (:class:`~fracas.engine.events.
    Untold`: "Ada takes 2 physical damage (GM)"), else the event is not shown. A player's
    ``own`` words are theirs, whatever they name."""
    told = {k for k, v in event.data.items()
            if isinstance(v, str) and v not in own and unknown.named_in(v)}
    if not told:
        return event
    said = untold_keys(type(event)) if isinstance(event, TypedEvent) else {}
    if not isinstance(event, TypedEvent) or not told <= nullable_keys(type(event)) | said.keys():
        return None
    return _rebuilt(event, {**event.data, **{k: said.get(k) for k in told}})


def _rebuilt(event: Event, data: dict[str, Any]) -> Event | None:
    """``event`` with new JSON data, as the same typed class where it has one (None when the
    data no longer fits it: a player then sees nothing of the event)."""
    if not isinstance(event, TypedEvent):
        return Event(event.type, data, event.actor, event.visibility)
    try:
        return type(event).from_payload(data, event.actor, event.visibility)
    except (TypeError, ValueError, KeyError):
        return None


def visible_depth(knowledge: Knowledge) -> int:
    """How deep into the zoomed-in conflicts the viewer may look: a zoom among characters
    they may not know (and all inside it) is not shown to them."""
    depth = 0
    for i, level in enumerate(knowledge.chain[1:], 1):
        if not any(knowledge.knows(pid, i) for pid in level.participants):
            break
        depth = i
    return depth


__all__ = ["Knowledge", "Unknowns", "may_see_event", "public_participant", "public_settings",
           "redact", "untold", "visible_depth", "without_unknown"]
