"""No view leaks (DESIGN.md principle 6): random legal commands with secrets planted among
them — GM-only notes, narration, rolls and effects, another player's owner-only notes and
the GM's corrections told to that player alone — never put a secret into a player's view or
log, in any ruleset."""

from __future__ import annotations

import contextlib
import json
import os
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fracas.cli.render import log_lines
from fracas.engine import Conflict
from fracas.engine.model import Viewer
from fracas.engine.projector import Projector, known_players, offered
from fracas.engine.redaction import Knowledge
from fracas.engine.views import log_view, view
from fracas.errors import FracasError
from fracas.server.projection import Live, odds_answer
from tests.rulesets.own_gm_only import filled, own_secrets, playable
from tests.rulesets.test_fuzz_commands import SCENARIOS, played

EXAMPLES = int(os.environ.get("FUZZ_N", "25"))
SECRETS = ["note 'zqsecret-note' visibility=gm", "narrate 'zqsecret-narration' visibility=gm",
           "roll 1d6 why=zqsecret-roll visibility=gm", "effect 'zqsecret-effect' visibility=gm"]


def _players(c: Conflict) -> list[str]:
    return sorted({p.owner for p in c.state.participants.values() if p.owner})


def _legal(c: Conflict) -> list[str]:
    out: list[str] = []
    for actor in [None, *c.state.innermost.participants]:
        out += [t for t in c.legal_commands(actor)
                if not any(w.isupper() and len(w) > 1 for w in t.split(" "))]
    return out


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_secret_reaches_a_player(name: str, data: st.DataObject) -> None:
    c = played(name)
    players = _players(c)
    owned = {p: c.state.owned_by(p) for p in players}
    for _ in range(data.draw(st.integers(1, 12))):
        choice = data.draw(st.integers(0, 3))
        if choice == 0:
            text = data.draw(st.sampled_from(SECRETS))
        elif choice == 1 and players and owned[players[0]]:
            mine = owned[players[0]][0]
            text = f"{mine}: note 'zqowner-{players[0]}' visibility=owner"
            if data.draw(st.booleans()):  # the GM's correction, told to the owner alone
                name = c.state.participants[mine].name
                name = name[:-3] if name.endswith(" II") else f"{name} II"
                text = (f"override {mine}.name '{name}' reason='zqowner-{players[0]}' "
                        "visibility=owner")
        else:
            legal = _legal(c)
            if not legal:
                continue
            text = data.draw(st.sampled_from(legal))
        with contextlib.suppress(FracasError):
            c.execute(text, time="")
    for viewer in [Viewer.public(), *map(Viewer.of_player, players)]:
        seen = json.dumps(view(c, viewer)) + json.dumps(log_view(c, viewer)) + json.dumps(
            log_lines(c, viewer))
        assert "zqsecret" not in seen
        for p in players:
            if p != viewer.player:
                assert f"zqowner-{p}" not in seen
        assert c.seed not in seen


# --- GM-only stats of the player's own character -------------------------------------------

OWN_EXAMPLES = int(os.environ.get("FUZZ_N", "6"))


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=OWN_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_gm_only_stat_reaches_the_player_of_its_own_character(
    name: str, data: st.DataObject
) -> None:
    """A player character with some of its stats GM-only (drawn, each a canary value), played
    from the start by random legal commands — the player's own, the GM's, the GM's harm on it
    — while the player tries the commands that ask the rules about those stats (a spend past
    a pool, a declaration past the base, table dice that do not fit, a weapon it lacks): no
    view (panel, summary, pending odds), offered command, odds the odds route answers (and its
    refusals), refusal or log of any player holds one of the values, or the names of its
    gear."""
    own = data.draw(own_secrets(name))
    c, me = own.conflict, Viewer.of_player(own.player)
    seen: list[str] = []

    def look() -> None:  # what the owner is given now (the odds and offers come and go)
        shown = {k: v for k, v in view(c, me).items() if k != "cursor"}
        seen.append(json.dumps(shown))
        offers = offered(c, me, own.pid)
        seen.append(json.dumps([lc.to_data() for lc in offers]))
        for probe in own.probes:
            try:
                c.prepare(probe, me, time="")
            except FracasError as exc:
                seen.append(json.dumps(exc.to_dict()) + json.dumps(str(exc)))
        # the odds route's answer to a probe and to one command offered: its lines, or why
        # it takes none (its accept-or-refuse asks the rules)
        options = [lc for lc in offers if playable(lc)]
        asked = [*own.probes, *([data.draw(filled(data.draw(st.sampled_from(options))))]
                                if options else [])]
        live = Live(c, me)
        for text in asked:
            try:
                seen.append(json.dumps(odds_answer(live, c.to_command(text))))
            except FracasError as exc:
                seen.append(json.dumps(exc.to_dict()) + json.dumps(str(exc)))

    for _ in range(data.draw(st.integers(1, 10))):
        look()
        pick = data.draw(st.integers(0, 5))
        author = Viewer.gm()
        text: str | dict[str, Any]
        if pick == 0:
            text = data.draw(st.sampled_from(own.gm))
        elif pick == 1:
            text, author = data.draw(st.sampled_from(own.probes)), me
        elif pick == 2:  # the player's own: what they are offered (it names no secret)
            options = [lc for lc in offered(c, me, own.pid) if playable(lc)]
            if not options:
                continue
            text, author = data.draw(filled(data.draw(st.sampled_from(options)))), me
        else:
            options = [lc for actor in [None, *c.state.innermost.participants]
                       for lc in c.legal(actor) if playable(lc)]
            if not options:
                break
            text = data.draw(filled(data.draw(st.sampled_from(options))))
        with contextlib.suppress(FracasError):
            c.execute(text, author, time="")
    look()
    for viewer in [Viewer.public(), *map(Viewer.of_player, _players(c))]:
        shown = {k: v for k, v in view(c, viewer).items() if k != "cursor"}
        given = json.dumps(shown) + json.dumps(log_view(c, viewer)) + json.dumps(
            log_lines(c, viewer)) + json.dumps(log_lines(c, viewer, raw=True))
        if viewer == me:
            given += "".join(seen)
        found = own.found(given)
        assert not found, (viewer, own.pid, [c.key for c in own.canaries], found)


# --- side channels: counts, numbering, timing of output, player lists, errors ------------

SIDE_EXAMPLES = int(os.environ.get("FUZZ_N", "3"))
HIDDEN_ID, HIDDEN_NAME, HIDDEN_SIDE = "zqhid", "Zqhidden", "zqhiddenside"
#: Shapes wholly hidden from every player: each must leave a player's log, view and cursor
#: exactly as they were (no entry, no line, no change in any count).
WHOLLY_SECRET = [*SECRETS, "undo", "redo"]


def _hidden_join(c: Conflict) -> str:
    """A GM's ``join … hidden=yes`` of a newcomer like one of the conflict's NPCs."""
    npc = next((p for p in c.state.innermost.participants.values() if p.owner is None), None)
    stats = json.dumps(npc.stats if npc else {})
    return (f"join {HIDDEN_ID} name={HIDDEN_NAME} side={HIDDEN_SIDE} 'stats={stats}' "
            "hidden=yes")


def _keys(data: object) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def _ally_zoom(c: Conflict, data: st.DataObject) -> str | None:
    """An ally's zoom against a character hidden from another player (Etherscope)."""
    if "zoom" not in c.commands.specs:
        return None
    state = c.state.innermost
    for viewer in map(Viewer.of_player, _players(c)):
        knowledge = Knowledge(c.ruleset, c.state, viewer)
        hidden = [p for p in state.participants if not knowledge.knows(p)]
        allies = [p.id for p in state.participants.values()
                  if p.owner not in (None, viewer.player)]
        if hidden and allies:
            ally, target = data.draw(st.sampled_from(allies)), data.draw(st.sampled_from(hidden))
            return f"{ally}: zoom {target}"
    return None


def _conceal_from_one(c: Conflict, data: st.DataObject) -> str | None:
    """Hide an NPC from one player's characters only (Etherscope's directional conceal) or
    from every player (the engine's)."""
    state = c.state.innermost
    npcs = [p.id for p in state.participants.values() if p.owner is None and p.active]
    players = _players(c)
    if not npcs:
        return None
    npc = data.draw(st.sampled_from(npcs))
    spec = c.commands.specs["conceal"]
    if players and any(p.name == "from" for p in spec.params):
        mine = state.owned_by(data.draw(st.sampled_from(players)))
        return f"conceal {npc} from={','.join(mine)}" if mine else f"conceal {npc}"
    return f"conceal {npc}"


def _refusals_alike(c: Conflict, viewer: Viewer) -> None:
    """A command naming a participant the player may not know gets exactly the refusal of a
    command naming one that does not exist, and is never accepted."""
    assert viewer.player is not None
    knowledge = Knowledge(c.ruleset, c.state, viewer)
    state = c.state.innermost
    hidden = [p for p in state.participants if not knowledge.knows(p)]
    mine = state.owned_by(viewer.player)
    if not hidden or not mine:
        return
    specs = [s for s in c.commands.specs.values() if s.actor != "gm"]
    for spec in specs[:6]:
        first = next((p for p in spec.params if p.kind in ("id", "ids") and p.positional), None)
        if spec.actor == "gm" or first is None or spec.params[0] is not first:
            continue
        answers = []
        for who in (hidden[0], "zqmissing"):
            version = c.version
            try:
                c.execute(f"{mine[0]}: {spec.verb} {who}", viewer, time="")
            except FracasError as exc:
                text = str(exc).replace(f"'{who}'", "'ID'")
                answers.append((type(exc), text))
            else:
                raise AssertionError(f"{spec.verb} {who} was accepted for {viewer.player}")
            assert c.version == version
        assert answers[0] == answers[1], (spec.verb, answers)


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=SIDE_EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_side_channel_counts_numbers_or_times_what_is_hidden(
    name: str, data: st.DataObject
) -> None:
    c = played(name)
    players = _players(c)
    watchers = {v: Projector(c, v) for v in [Viewer.public(), *map(Viewer.of_player, players)]}
    for _ in range(data.draw(st.integers(1, 6))):
        choice = data.draw(st.integers(0, 5))
        secret = False
        if choice == 0:
            text: str | None = data.draw(st.sampled_from(WHOLLY_SECRET))
            secret = text in SECRETS
        elif choice == 1:
            text, secret = _hidden_join(c), True
        elif choice == 2:
            text = _ally_zoom(c, data) or _conceal_from_one(c, data)
        else:
            legal = _legal(c)
            text = data.draw(st.sampled_from(legal)) if legal else None
        if text is None:
            continue
        try:
            c.execute(text, time="")
        except FracasError:
            continue
        for viewer, follow in watchers.items():
            before = (follow.view(), follow.cursor, len(follow.entries)) if secret else None
            update = follow.advance()
            if secret:  # timing: nothing at all reaches the player, not even a changed count
                assert update.entries == () and update.view is None, (text, viewer)
                assert (follow.view(), follow.cursor, len(follow.entries)) == before
            # what reaches them now names no one they may not know now
            _names_no_one_hidden(c, viewer, [e.to_data() for e in update.entries],
                                 _without_texts(follow.view()))
            if viewer.player is not None:  # refusals at every turn state
                _refusals_name_no_one_hidden(c, viewer)
    for viewer, follow in watchers.items():
        shown = follow.view()
        log = [e.to_data() for e in follow.entries]
        seen = json.dumps(shown) + json.dumps(log) + json.dumps(log_lines(c, viewer, raw=True)) \
            + json.dumps(log_lines(c, viewer))
        # numbering: the player's own count, no version, no gap
        assert [e["entry"] for e in log] == list(range(1, len(log) + 1))
        assert "version" not in _keys(shown) | _keys(log) and "versions" not in _keys(log)
        assert follow.cursor.split(".")[0] == str(len(log))
        assert all(label.startswith("#") for _, label, _, _ in log_lines(c, viewer))
        # no effect id counts records
        assert not re.search(r'"id": "e\d+"', seen)
        # player lists: only the players of characters the viewer may know
        known = {p["player"] for level in [shown["conflict"], *shown["zoom"]]
                 for p in level["participants"] if p["player"]}
        assert set(known_players(c, viewer)) <= known
        if viewer.player is not None:
            _refusals_alike(c, viewer)
            _refusals_name_no_one_hidden(c, viewer)


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=SIDE_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_entry_is_called_alike_whether_or_not_someone_hidden_took_part(
    name: str, data: st.DataObject
) -> None:
    """The same commands played with and without a character hidden from the players: where
    a player's entry reads the same in both, it is called the same — a "round" among hidden
    characters is "round", never "the GM acts" (the label alone told of them)."""
    plain, twin = played(name), played(name)
    try:
        twin.execute(_hidden_join(twin), time="")
    except FracasError:  # an ended conflict: no one joins it
        return
    viewers = [Viewer.public(), *map(Viewer.of_player, _players(plain))]
    follows = [(Projector(plain, v), Projector(twin, v)) for v in viewers]
    for _ in range(data.draw(st.integers(1, 10))):
        legal = _legal(plain)
        if not legal:
            break
        text = data.draw(st.sampled_from(legal))
        try:
            plain.execute(text, time="")
        except FracasError:
            continue
        try:
            twin.execute(text, time="")
        except FracasError:
            break  # the hidden character has changed the course of play
        for a, b in follows:
            for x, y in zip(a.advance().entries, b.advance().entries, strict=False):
                if x.lines == y.lines:
                    assert x.command == y.command, (text, a.viewer, x.lines)


def _refusals_name_no_one_hidden(c: Conflict, viewer: Viewer) -> None:
    """Whatever turn state the conflict is in (a hidden character acting, or on the side on
    turn, or moving), each refusal of a command by one of the player's characters — naming
    only participants the player may know — names no one hidden: not in its text, not in its
    values (the turn checks of every ruleset included). ``prepare`` decides and changes
    nothing."""
    assert viewer.player is not None
    knowledge = Knowledge(c.ruleset, c.state, viewer)
    state = c.state.innermost
    known = [p for p in state.participants if knowledge.knows(p)]
    mine = state.owned_by(viewer.player)
    specs = [s for s in c.commands.specs.values() if s.actor == "required"]
    for me in mine:
        others = [p for p in known if p != me] or [me]
        for spec in specs:
            first = next((p for p in spec.params if p.positional), None)
            target = f" {others[0]}" if first is not None and first.kind in ("id", "ids") \
                else ""
            try:
                c.prepare(f"{me}: {spec.verb}{target}", viewer, time="")
            except FracasError as exc:
                _refusal_names_no_one_hidden(c, viewer, json.dumps(exc.to_dict())
                                             + json.dumps(str(exc)))


def _without_texts(view: dict[str, Any]) -> list[dict[str, Any]]:
    """A view's levels (the conflict, then each zoom-in) without the scenario's own texts (a
    scene may well name a character the GM conceals later)."""
    return [{k: v for k, v in level.items() if k not in ("title", "scene")}
            for level in [view["conflict"], *view["zoom"]]]


def _hidden_by_level(c: Conflict, viewer: Viewer) -> list[tuple[int, str, bool]]:
    """Each participant hidden from ``viewer`` at a level: (the level's depth, its id,
    whether the viewer knows it at another level, as one concealed only inside a zoom-in,
    ES-ACT-1, is known in the parent)."""
    knowledge = Knowledge(c.ruleset, c.state, viewer)
    chain = c.state.chain()
    known = {q.id for level in chain for q in level.participants.values()
             if knowledge.knows(q.id, level.depth)}
    return [(level.depth, pid, pid in known) for level in chain for pid in level.participants
            if not knowledge.knows(pid, level.depth)]


def _names_no_one_hidden(c: Conflict, viewer: Viewer, entries: list[dict[str, Any]],
                         levels: list[dict[str, Any]]) -> None:
    """What reaches a player names no one they may not know: one hidden at every level is
    named nowhere, one hidden at a level only is named nowhere at that level (neither in
    its view nor in its entries)."""
    for depth, pid, known_elsewhere in _hidden_by_level(c, viewer):
        if known_elsewhere:
            _not_named(c, viewer, pid, json.dumps(
                [levels[depth], *(e for e in entries if e["depth"] == depth)]))
        else:
            _not_named(c, viewer, pid, json.dumps(entries) + json.dumps(levels))


def _refusal_names_no_one_hidden(c: Conflict, viewer: Viewer, seen: str) -> None:
    """A refusal names no one hidden where commands act (the innermost level) nor anyone
    hidden at every level, bare or quoted (``'kim'``, ``kim's``)."""
    for depth, pid, known_elsewhere in _hidden_by_level(c, viewer):
        if known_elsewhere and depth != c.state.innermost.depth:
            continue
        _not_named(c, viewer, pid, seen)
        found = re.search(rf"(?<![\w-]){re.escape(pid)}(?![\w-])", seen)
        assert not found, (pid, viewer, seen)


def _not_named(c: Conflict, viewer: Viewer, pid: str, seen: str) -> None:
    """``seen`` holds neither ``pid`` (as a value or a key, or a part of one without spaces: a
    pair ``"ada|kim"``; words, a player's own included, are judged by name) nor its name
    (unless another character the viewer knows bears it), nor the hidden newcomer's side."""
    knowledge = Knowledge(c.ruleset, c.state, viewer)
    bare = re.compile(rf"(?<![\w-]){re.escape(pid)}(?![\w-])")
    at = next((m.start() for m in re.finditer(r'"([^"\s\\]*)"', seen)
               if bare.search(m.group(1))), -1)
    assert at < 0, (pid, viewer, seen[max(0, at - 300):at + 80])
    shown = {q.name for level in c.state.chain() for q in level.participants.values()
             if knowledge.knows(q.id, level.depth)}
    name = next(q.name for level in c.state.chain() for q in level.participants.values()
                if q.id == pid)
    if name not in shown:
        found = re.search(rf"\b{re.escape(name)}\b", seen)
        assert not found, (name, viewer, found and seen[max(0, found.start() - 300):
                                                        found.end() + 80])
    if pid == HIDDEN_ID and not knowledge.knows(HIDDEN_ID):
        assert HIDDEN_SIDE not in seen
