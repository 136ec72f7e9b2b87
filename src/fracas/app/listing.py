"""Finding stored conflicts: by the words of their titles and by their table (``fracas list``).

A campaign with a title is a table of ``fracas serve``; the list names it by that title. A
GM gives a table by its id or by its title, and words that each conflict listed must hold
somewhere in its title, id, ruleset or table, as the table page's **Find a conflict** does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fracas.errors import InvalidInput
from fracas.store.port import CampaignInfo, ConflictInfo, EventStore

#: How many tables a refusal names, at most, when the one asked for is not found.
TABLES_NAMED = 6


@dataclass(frozen=True, slots=True)
class Listed:
    """A stored conflict as the list shows it: its entry, and its table's title (None when
    its campaign is not a table)."""

    info: ConflictInfo
    table: str | None

    @property
    def where(self) -> str:
        """What the list calls its table: the table's title, else the campaign's name."""
        return self.table or self.info.campaign


def find_campaign(known: Sequence[CampaignInfo], given: str) -> CampaignInfo:
    """The campaign ``given`` names: its id (a campaign's name), else a table's title, in any
    case, or a part of one table's title; a sentence naming the tables there are when it
    names none, or more than one."""
    exact = [c for c in known if c.name == given]
    if exact:
        return exact[0]
    wanted = given.strip().casefold()
    titled = [c for c in known if c.title is not None and c.title.casefold() == wanted]
    if not titled and wanted:  # a word of its title will do, if no other table has it
        titled = [c for c in known if c.title is not None and wanted in c.title.casefold()]
    if len(titled) == 1:
        return titled[0]
    if titled:
        raise InvalidInput(f"{given!r} names {len(titled)} tables: "
                           f"{', '.join(f'{c.title} ({c.name})' for c in titled)}; give the one "
                           "you mean by its id", table=given)
    tables = [c for c in known if c.title is not None]
    named = ", ".join(f"{c.title} ({c.name})" for c in tables[:TABLES_NAMED])
    more = f" and {len(tables) - TABLES_NAMED} more" if len(tables) > TABLES_NAMED else ""
    there = f"; the tables are {named}{more}" if tables else "; there is no table yet"
    raise InvalidInput(f"no table or campaign {given!r} in this database (give a table's id "
                       f"or title){there}", table=given)


def matches(listed: Listed, words: Sequence[str]) -> bool:
    """Whether every word is found, in any case, in the conflict's title, id, ruleset, table
    title or campaign."""
    info = listed.info
    haystack = " ".join((info.title, info.id, info.ruleset, info.campaign,
                         listed.table or "")).casefold()
    return all(w.casefold() in haystack for w in words)


def find_conflicts(store: EventStore, words: Sequence[str] = (), campaign: str | None = None
                   ) -> tuple[list[Listed], CampaignInfo | None]:
    """The stored conflicts holding every word, most recently played first, of the table or
    campaign ``campaign`` names (its id or title) if given; and that campaign."""
    known = store.campaigns()
    where = None if campaign is None else find_campaign(known, campaign)
    titles = {c.name: c.title for c in known}
    listed = [Listed(i, titles.get(i.campaign)) for i in
              store.list(None if where is None else where.name)]
    words = " ".join(words).split()
    return [item for item in listed if matches(item, words)], where
