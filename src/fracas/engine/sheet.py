"""A character's sheet as a viewer may read it: each stat of its set-up, and what a ruleset
works out of them (a current die, a Defense), as a label and a value in words.

A sheet is built from a participant's entry of the view (:func:`~fracas.engine.projector.
state_view`), after every redaction of it — GM-only stats, harm the side's harm view hides,
a stat naming someone hidden from the viewer — so it can tell nothing the entry does not.
The GM's copy marks each item the players do not read (``secret``: not on the sheet the
table at large gets, or told otherwise there: ``reads`` says how) and each stat of the GM's
own (``own``: a note or a plan no rule reads, where the ruleset names the stats it reads).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: One line of a sheet: ``{"key": the stat (or derived value) it tells, "label": …,
#: "value": …}``, and on the GM's copy ``secret``/``own`` where true (with ``reads``, what
#: its reader reads of a secret line instead, where they read some of it).
SheetItem = dict[str, Any]


def words(key: str) -> str:
    """A stat's key as words (``close_combat`` → ``close combat``)."""
    return key.replace("_", " ")


def worded(value: Any) -> str:
    """A stat's value as words: a table as ``name value`` pairs, an item with a name as
    ``name (the rest)``, a list one item after another, true/false as yes/no."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        if "name" in value:
            rest = {k: v for k, v in value.items() if k != "name"}
            return f"{value['name']} ({worded(rest)})" if rest else str(value["name"])
        return ", ".join(f"{words(str(k))} {_inner(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(worded(v) for v in value)
    return str(value)


def _inner(value: Any) -> str:
    return f"({worded(value)})" if isinstance(value, Mapping) else worded(value)


def item(key: str, label: str, value: Any) -> SheetItem:
    """One line of a sheet (``value`` put in words)."""
    return {"key": key, "label": label, "value": value if isinstance(value, str)
            else worded(value)}


def stat_items(stats: Mapping[str, Any], keys: Iterable[str] | None = None,
               labels: Mapping[str, str] | None = None) -> list[SheetItem]:
    """The lines of ``stats`` (those of ``keys``, in their order, each once, when given),
    each labelled as ``labels`` says or by its key in words."""
    labels = labels or {}
    chosen = list(stats) if keys is None else [k for k in dict.fromkeys(keys) if k in stats]
    return [item(k, labels.get(k, words(k)), stats[k]) for k in chosen]


def marked(gm: list[SheetItem], public: list[SheetItem], stats: Mapping[str, Any],
           read: frozenset[str] | None,
           worded_as: Callable[[], list[SheetItem]] | None = None) -> list[SheetItem]:
    """The GM's sheet ``gm`` with ``secret`` on each line the ``public`` sheet lacks (or
    tells otherwise; then ``reads``: what the public sheet tells of it instead), and ``own``
    on each stat no rule of the ruleset reads (``read``: the stats it reads; None: any may be
    read, none is marked). ``worded_as`` makes the GM's sheet in the public sheet's words (a
    character its reader does not know named by its id, as on theirs): a line told there as
    the public sheet tells it is no secret (made only where a line is not told as is)."""
    told = {(i["key"], i["value"]) for i in public}
    instead = {i["key"]: i["value"] for i in public}
    words_of: dict[str, Any] | None = None
    out = []
    for line in gm:
        extra: dict[str, Any] = {}
        key = line["key"]
        if (key, line["value"]) not in told:
            if words_of is None:
                words_of = {i["key"]: i["value"] for i in (worded_as() if worded_as else ())}
            if (key, words_of.get(key, line["value"])) not in told:
                extra["secret"] = True
                if key in instead:
                    extra["reads"] = instead[key]
        if read is not None and key in stats and key not in read:
            extra["own"] = True
        out.append({**line, **extra})
    return out


__all__ = ["SheetItem", "item", "marked", "stat_items", "worded", "words"]
