"""Text of a conflict for the terminal: the log and the state, as a viewer may see them.

Rich on a terminal, plain text when piped (Rich drops colour and styles by itself). The marks
of a dice breakdown (``**6**`` a success, ``~~1~~`` a dropped die) become styles: bold and
struck through on a terminal, the bare number elsewhere.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fracas.engine.conflict import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Entry, undone_entries
from fracas.engine.suggest import did_you_mean
from fracas.engine.views import projector, view
from fracas.errors import InvalidInput


def entry_lines(entry: Entry, *, raw: bool = False) -> tuple[int, str, str, list[str]]:
    """(version, label, command, event lines) of one entry of a viewer's log: its sentences,
    or with ``raw`` the events' text form. The label is ``v7`` for the GM and ``#5`` for a
    player (whose log shows no versions); the version is for the caller's bookkeeping only."""
    lines = [e.to_text() for e in entry.events] if raw else list(entry.lines)
    command = f"{'» ' * entry.depth}{entry.command}"  # » marks a zoomed-in conflict's moves
    return entry.version, entry.label, shown(command), [shown(line) for line in lines]


#: Characters a terminal would act on rather than show (escape sequences, text direction)
#: and lone surrogates it cannot write: no command lets them in, but an older store may hold
#: them.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e"
                          "\u2066-\u2069\ud800-\udfff]")


def shown(text: str) -> str:
    """``text`` with each character a terminal would act on written as its code
    (``\\u001b``), so that a stored text can never drive the GM's terminal."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

_MARKS = re.compile(r"\*\*(.+?)\*\*|~~(.+?)~~")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
#: The style of each mark of a dice breakdown.
HIT_STYLE, DROP_STYLE = "bold green", "dim strike"


def marked(text: str, indent: str = "") -> Text:
    """A sentence whose ``**bold**`` and ``~~struck~~`` marks are styles, not characters."""
    out = Text(indent)
    pos = 0
    for match in _MARKS.finditer(text):
        out.append(text[pos:match.start()])
        hit, dropped = match.groups()
        out.append(hit if hit is not None else dropped,
                   style=HIT_STYLE if hit is not None else DROP_STYLE)
        pos = match.end()
    out.append(text[pos:])
    return out


#: How much further than its first line a wrapped line of the log or the panel is indented.
HANG = 2


def print_hanging(console: Console, text: Text | str, indent: int, more: int = HANG) -> None:
    """``text`` indented by ``indent`` columns and, where it is wider than the console, wrapped
    with its further lines ``more`` columns deeper, so a wrapped sentence never runs back to
    the margin (where it would read as a line of its own, or as the next entry)."""
    line = Text(text) if isinstance(text, str) else text
    width = max(console.width - indent - more, 20)
    for n, part in enumerate(line.wrap(console, width)):
        part.rstrip()
        console.print(Text(" " * (indent + (more if n else 0))) + part, soft_wrap=True)


def log_lines(
    conflict: Conflict, viewer: Viewer, *, raw: bool = False
) -> list[tuple[int, str, str, list[str]]]:
    """:func:`entry_lines` of every entry of the viewer's log."""
    return [entry_lines(e, raw=raw) for e in projector(conflict, viewer).entries]


def print_entries(console: Console, entries: list[Entry] | tuple[Entry, ...], *,
                  raw: bool = False, note: str = "", undone: frozenset[int] = frozenset()
                  ) -> None:
    """Entries of a viewer's log, one command a line and its events indented under it
    (``note``: Rich markup after the command; ``undone``: the numbers of the entries taken
    back, struck through and marked). Piped, a dropped die keeps its ``~~struck~~`` mark as
    written (it must not read as a kept one where no style can show it); bold is left out."""
    styled = console.is_terminal
    for entry in entries:
        _, label, command, sentences = entry_lines(entry, raw=raw)
        if entry.number in undone:
            head = (f"[bold cyan]{label:<5}[/] [strike]{escape(command)}[/] "
                    f"[dim](undone)[/]{note}")
        else:
            head = f"[bold cyan]{label:<5}[/] [bold]{escape(command)}[/]{note}"
        print_hanging(console, Text.from_markup(head), 0, len(f"{label:<5} "))
        for sentence in sentences:
            if raw:  # the data, as it is: never wrapped (docs/json.md, events in text)
                console.print(Text("       " + sentence), soft_wrap=True)
            else:
                print_hanging(console, marked(sentence) if styled
                              else Text(_BOLD.sub(r"\1", sentence)), 7)


def print_log(
    console: Console, conflict: Conflict, viewer: Viewer, *, raw: bool = False, after: int = 0
) -> None:
    """The viewer's log (``raw``: events in their text form instead of sentences; ``after``:
    only the entries past that many of the viewer's entries — for the GM, past that version)."""
    p = projector(conflict, viewer)
    print_entries(console, p.after(after), raw=raw, undone=undone_entries(p.entries))


def print_state(console: Console, conflict: Conflict, viewer: Viewer) -> None:
    """The state: status, round, participants with their harm, and the ruleset's lines."""
    data = view(conflict, viewer)
    levels = [data["conflict"], *data["zoom"]]
    for n, level in enumerate(levels):
        _print_level(console, level, conflict)
        if n + 1 < len(levels):  # commands go to the zoom; this level waits for its end
            print_hanging(console, "paused: play goes on in the zoomed-in conflict below "
                          "until it ends", 2)
    watching = watching_words(levels) if viewer.role == "player" else None
    if watching:
        print_hanging(console, watching, 0)


def watching_words(levels: list[dict[str, Any]]) -> str | None:
    """What a player reads whose characters take no part in the zoomed-in conflict in play
    (ES-ACT-1): they watch it until play returns to the level their characters are in."""
    if len(levels) < 2 or any(p.get("mine") for p in levels[-1]["participants"]):
        return None
    back = next((level for level in reversed(levels[:-1])
                 if any(p.get("mine") for p in level["participants"])), None)
    if back is None:
        return None
    mine = [p["name"] for p in back["participants"] if p.get("mine")]
    are = "are" if len(mine) > 1 else "is"
    return (f"{', '.join(mine)} {are} not in this zoomed-in conflict: you are watching it "
            f"until play returns to {back['title']}.")


def _print_level(console: Console, level: dict[str, Any], conflict: Conflict) -> None:
    depth = level["depth"]
    head = "zoomed-in conflict" if depth else (level["title"] or conflict.ruleset.title)
    status = level["status"]
    if level["end_reason"]:
        status += f": {level['end_reason']}"
    if level.get("outcome"):
        status += f" — {level['outcome']}"
    word, limit = conflict.ruleset.round_word, level["round_limit"]
    if level["round"]:  # before the first, only its limit: never "round 0"
        status += f", {word} {level['round']}" + (f"/{limit}" if limit else "")
    elif limit:
        status += f", {limit} {word}s at most"
    console.print(f"[bold]{escape(head)}[/] — {escape(status)}")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col in ("who", "side", "player", "state"):
        table.add_column(col)
    for p in level["participants"]:
        state = "out: " + p["out"] if p["out"] else ("left" if not p["present"] else "in")
        summary = p.get("summary")
        if summary:
            state += f" · {summary}"
        table.add_row(escape(p["name"]), p["side"] or "", p["player"] or "GM", escape(state))
    console.print(table)
    for line in level["ruleset"].get("lines", []):
        print_hanging(console, line, 2)
    for line in level.get("odds", []):
        print_hanging(console, Text.assemble(("odds", "magenta"), f" {line}"), 2)
    for effect in level["effects"]:
        print_hanging(console, f"effect {effect['id']}: {effect['text']} · {effect['lasts']}", 2)


def _characters(conflict: Conflict, viewer: Viewer) -> list[dict[str, Any]]:
    """The entries of every character the viewer may see, each once (the innermost level's:
    a zoomed-in conflict's own), in the order of the conflict's participants."""
    data = view(conflict, viewer)
    by_id: dict[str, dict[str, Any]] = {}
    for level in [data["conflict"], *data["zoom"]]:
        for p in level["participants"]:
            by_id[p["id"]] = p
    return list(by_id.values())


def print_sheets(console: Console, conflict: Conflict, viewer: Viewer,
                 who: str | None = None) -> None:
    """Each character's sheet as the viewer may read it (only ``who``'s, an id or a name, when
    given: InvalidInput naming the characters meant when it is none of those the viewer sees).
    The GM's marks what its player (the table, for an NPC) does not read and the GM's own
    stats."""
    entries = everyone = _characters(conflict, viewer)
    if who is not None:
        wanted = who.strip().lower()
        entries = [p for p in everyone if wanted in (p["id"].lower(), p["name"].lower())]
        if not entries:
            known = [p["id"] for p in everyone]
            raise InvalidInput(f"no character {who!r} to show{did_you_mean(wanted, known)} "
                               f"(the characters: {', '.join(known) or 'none'})")
    for p in entries:
        head = Text(shown(p["name"]), style="bold")
        if p.get("player"):
            head.append(f" ({shown(p['player'])})", style="dim")
        console.print(head)
        items = p.get("sheet", [])
        if not items:
            console.print("  [dim]nothing on the sheet to show[/]")
        reader = p.get("player") or "the table"
        short = [i for i in items if " " not in i["value"]]  # a number, a die: one line
        if short:
            line = Text()
            for n, item in enumerate(short):
                line.append(" · " if n else "")
                line.append_text(_sheet_item(item, "", reader))
            print_hanging(console, line, 2)
        for item in items:  # a table, a list, a sentence: a line of its own
            if " " in item["value"]:
                print_hanging(console, _sheet_item(item, ":", reader), 2)


def _sheet_item(item: dict[str, Any], colon: str, reader: str) -> Text:
    """One line of a sheet; on the GM's, what ``reader`` (its player, or the table) does
    not read is tagged [GM only], or [alice reads: …] where they read part of it."""
    text = Text(shown(item["label"]) + colon, style="bold")
    text.append(f" {shown(item['value'])}")
    if item.get("secret"):
        text.append(f" [{shown(reader)} reads: {shown(item['reads'])}]" if "reads" in item
                    else " [GM only]", style="magenta")
    if item.get("own"):
        text.append(" [no rule reads it]", style="dim")
    return text
