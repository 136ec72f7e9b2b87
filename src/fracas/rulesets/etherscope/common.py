"""Etherscope decide helpers shared by every step: names, targets, groups, damage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fracas.engine.commands import Command
from fracas.engine.components import RangeBands
from fracas.engine.describe import name_of
from fracas.engine.engine_events import ParticipantOut
from fracas.engine.events import Event
from fracas.engine.limits import as_int
from fracas.engine.model import ConflictState, Viewer
from fracas.engine.words import listed
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.etherscope import events as ev
from fracas.rulesets.etherscope.settings import condenser_of
from fracas.rulesets.etherscope.state import EsExt

Events = list[Event]

#: A participant's display name ("the GM" for None): the engine's, under a short name.
name = name_of


def ext_of(state: ConflictState) -> EsExt:
    """The Etherscope part of ``state``."""
    ext: EsExt = state.ext
    return ext


def active(state: ConflictState, pid: str) -> bool:
    """Whether ``pid`` is still taking part."""
    p = state.participants.get(pid)
    return p is not None and p.active


def unknown_to(state: ConflictState, author: Viewer | None, pid: str) -> bool:
    """Whether ``pid`` is hidden from every character of a player ``author`` (ES-RNG-6): to
    that player it does not exist, so a command naming it is refused as naming no one."""
    if author is None or author.is_gm or author.player is None or state.ext is None:
        return False
    return invisible(ext_of(state).ranges, sight_of(state, author), pid)


def sight_of(state: ConflictState, viewer: Viewer) -> Sight:
    """What ``viewer`` (not the GM) sees by: their characters, or, without any, every
    player's (:class:`Onlookers`)."""
    mine = state.owned_by(viewer.player) if viewer.player is not None else []
    return mine or Onlookers(tuple(pid for pid, p in state.participants.items() if p.owner))


@dataclass(frozen=True, slots=True)
class Onlookers:
    """What a viewer without characters of their own (the public) sees by: ``pcs``, the
    characters of every player. Whatever the public is shown, the whole table sees, so a
    character hidden from one of them does not exist to it (ES-RNG-6)."""

    pcs: tuple[str, ...]


#: A viewer's characters, or the public's :class:`Onlookers`.
Sight = Sequence[str] | Onlookers


def invisible(ranges: RangeBands, mine: Sight, pid: str) -> bool:
    """Whether ``pid`` is hidden from all of a viewer's characters ``mine`` (ES-RNG-6): to
    that viewer it does not exist. To the public (:class:`Onlookers`): hidden from one of
    the players' characters; where no player has one, hidden from every other character,
    or from one that another sees (one hidden only from those hidden from everyone is known
    as it would be without them). A viewer without characters sees by :func:`sight_of`'s
    ``Onlookers``; an empty ``mine`` knows no one hidden from anyone."""
    if isinstance(mine, Onlookers):
        if mine.pcs:
            return any(ranges.is_hidden(pid, m) for m in mine.pcs)
        hiders = ranges.hidden.get(pid) or []
        return bool(hiders) and (ranges.hidden_from_all(pid, ranges.actors) or any(
            not ranges.hidden_from_all(h, ranges.actors) for h in hiders))
    if pid in mine:
        return False
    if not mine:
        return bool(ranges.hidden.get(pid))
    return all(ranges.is_hidden(pid, m) for m in mine)


def search_finds(state: ConflictState, actor: str, extra: int) -> list[str]:
    """Whom a successful search by ``actor`` with ``extra`` extra successes reveals: the
    nearest of those hidden from it, one plus one per extra bought (ES-RNG-3)."""
    ext = ext_of(state)
    hidden = sorted((p for p in state.active_ids() if ext.ranges.is_hidden(p, actor)),
                    key=lambda p: (ext.ranges.get(actor, p), p))
    return hidden[:1 + extra // max(1, state.settings["extra_cost"])]


def expand(state: ConflictState, ids: list[str], what: str = "", *,
           author: Viewer | None = None) -> list[str]:
    """Participant ids with group names replaced by their members (ES-START-6).

    For a player ``author``, characters hidden from all of theirs are unknown names (ES-RNG-6):
    the error lists only the participants and groups that player may know of.
    """
    ext = ext_of(state)

    def known(pid: str) -> bool:
        return pid in state.participants and not unknown_to(state, author, pid)

    out: list[str] = []
    for i in ids:
        members = [m for m in ext.groups.get(i, [i]) if known(m)]
        if not members:
            seen = [p for p in state.participants if known(p)]
            groups = [g for g, ms in ext.groups.items() if sum(map(known, ms)) > 1
                      or author is None or author.is_gm]
            raise InvalidInput(f"{what}no participant or group {i!r} (known: "
                               f"{', '.join([*seen, *groups])})", participant=i)
        for m in members:
            if not active(state, m):
                raise IllegalCommand(f"{name(state, m)} is no longer in the conflict",
                                     participant=m)
            if m not in out:
                out.append(m)
    return out


def expand_seen(state: ConflictState, ids: list[str], actor: str, *,
                author: Viewer | None = None) -> list[str]:
    """:func:`expand` for what ``actor`` does: a group named stands for its members ``actor``
    sees (ES-RNG-2, ES-START-6), for the GM as for a player, who knows no member hidden from
    all of theirs; one hidden from ``actor`` named by itself is kept (and refused where it is
    targeted). A group of none ``actor`` sees is refused."""
    ext = ext_of(state)
    out: list[str] = []
    for i in ids:
        members = [m for m in expand(state, [i], author=author)
                   if m == i or not ext.ranges.is_hidden(m, actor)]
        if not members:
            raise IllegalCommand(f"{name(state, actor)} sees no one of {i}: a hidden "
                                 "character can only be sought out",
                                 rule="ES-RNG-2", participant=i)
        out += [m for m in members if m not in out]
    return out


def group_of(ext: EsExt, pid: str) -> str | None:
    """The group ``pid`` stands in, if any."""
    for g, members in ext.groups.items():
        if pid in members:
            return g
    return None


def current_condenser(state: ConflictState, pid: str) -> int:
    """``pid``'s current value of the conflict's condenser (ES-ROUND-1)."""
    pools = ext_of(state).condenser.get(pid, {})
    pool = pools.get(condenser_of(state.settings))
    return pool.current if pool else 0


def damage_events(
    state: ConflictState, pid: str, amount: int, reason: str, source: str | None,
    pending: dict[str, int],
) -> Events:
    """Damage to the conflict's condenser (ES-DMG-1), and ``participant_out`` at 0."""
    if amount <= 0 or not active(state, pid):
        return []
    kind = condenser_of(state.settings)
    before = current_condenser(state, pid) - pending.get(pid, 0)
    if before <= 0:
        return []
    after = max(0, before - amount)
    pending[pid] = pending.get(pid, 0) + (before - after)
    out: Events = [ev.Damage(participant=pid, amount=amount, condenser=kind, left=after,
                             reason=reason, source=source)]
    if after == 0:
        out.append(ParticipantOut(participant=pid, reason=f"{kind} condenser at 0"))
    return out


def actor_of(cmd: Command) -> str:
    """The acting character of a command that needs one."""
    assert cmd.actor is not None
    return cmd.actor


def check_joiner(state: ConflictState, pid: str) -> None:
    """ES-ROUND-1: a joiner's stats hold the conflict's condenser (its base initiative)."""
    p = state.participant(pid)
    if pid in ext_of(state).groups:
        raise InvalidInput(f"{pid!r} is already the name of a group; join under another id "
                           "(ES-START-6)", rule="ES-START-6", participant=pid)
    kind = condenser_of(state.settings)
    value = p.stats.get(kind)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInput(
            f"{p.name} joins without a {kind} condenser (stats.{kind} = {value!r}); it is this "
            f"conflict's base initiative: join {pid} stats='{{\"{kind}\": 10}}' (ES-ROUND-1)",
            rule="ES-ROUND-1", participant=pid)


def table_rolloffs(cmd: Command, ids: list[str]) -> dict[str, list[int]]:
    """``rolloff=ada:5,6/bruno:2,1``: awareness roll-off dice rolled at the table."""
    return dice_by_character(cmd.args.get("rolloff"), ids, "rolloff", "ES-ROUND-5")


def check_rolloffs_used(state: ConflictState, table: dict[str, list[int]]) -> None:
    """Refuse roll-off dice left over for characters who were in no tie (ES-ROUND-5)."""
    if table:
        who = listed([name(state, p) for p in table])
        are = "is" if len(table) == 1 else "are"
        raise InvalidInput(f"rolloff= gives dice for {who}, who {are} in no tie to roll off "
                           "now", rule="ES-ROUND-5")


def dice_by_character(raw: str | None, targets: list[str], key: str, rule: str
                  ) -> dict[str, list[int]]:
    """Table dice per character: ``ada:5,6,2/bruno:3,1``."""
    out: dict[str, list[int]] = {}
    if not raw:
        return out
    for part in raw.split("/"):
        who, _, dice = part.partition(":")
        if who not in targets or not dice:
            raise InvalidInput(f"{key}={raw}: write ID:DICE/ID:DICE for "
                               f"{', '.join(targets) or 'nobody'}", rule=rule)
        try:
            out[who] = [as_int(d, key) for d in dice.split(",")]
        except ValueError:
            raise InvalidInput(f"{key}={raw}: {dice!r} are not dice", rule=rule) from None
    return out
