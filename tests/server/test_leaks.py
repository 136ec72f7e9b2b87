"""Leak tests against a real server: nothing a viewer may not see reaches them in any HTTP
body, header or WebSocket frame, and a record wholly hidden from them makes no frame at all.
The frames a viewer gets are exactly the stored conflict's projection for them."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fracas.app.scenario import bundled_scenarios, load_scenario
from fracas.engine.model import Viewer
from tests.server.leakcheck import (
    assert_no_secret,
    assert_numbered,
    dumps,
    followed,
    keys_named,
    stored_projection,
)
from tests.server.scenarios import HIDDEN_COMMANDS, LURKING, SECRETS, SEED
from tests.server.support import Api, Served, Table, frames_until_quiet, new_table

VIEWERS = {"alice": Viewer.of_player("alice"), "bob": Viewer.of_player("bob"),
           "public": Viewer.public()}


def _concrete(commands: list[str]) -> list[str]:
    return [c for c in commands if c not in ("undo", "redo")
            and not any(w.isupper() and len(w) > 1 for w in re.split(r"[ =]", c))]


def _play_some(table: Table, path: str, steps: int) -> int:
    """The GM plays up to ``steps`` legal commands of any participant; how many it did."""
    done = 0
    for _ in range(steps):
        for actor in ("ada", "bruno", "carl", "zqdora", None):
            query = {"actor": actor} if actor else {}
            legal = table.gm.get(path + "/legal", params=query).json()
            choices = _concrete(next(iter(legal.values())))
            if choices and table.gm.post(path + "/commands",
                                         json={"command": choices[0]}).status_code == 200:
                done += 1
                break
    return done


def test_nothing_hidden_reaches_a_player_or_the_public(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    cid = path.rsplit("/", 1)[1]
    apis = {"alice": table.invite("alice"), "bob": table.invite("bob"),
            "public": table.invite(None)}
    sockets = {name: api.live(path) for name, api in apis.items()}
    frames: dict[str, list[dict[str, Any]]] = {
        name: [json.loads(ws.recv(timeout=20))] for name, ws in sockets.items()}
    gm_ws = table.gm.live(path)
    gm_frames = [json.loads(gm_ws.recv(timeout=20))]

    for command in HIDDEN_COMMANDS:  # wholly hidden from the players: no frame at all
        assert table.gm.post(path + "/commands", json={"command": command}).status_code == 200
        gm_frames.append(json.loads(gm_ws.recv(timeout=20)))
    for name, ws in sockets.items():
        assert frames_until_quiet(ws) == [], f"{name} got a frame for a hidden record"
    assert all(len(f["entries"]) == 1 for f in gm_frames[1:]), "the GM sees each one"

    assert _play_some(table, path, 12) >= 6
    table.gm.post(path + "/commands", json={"command": "narrate 'the lamps flicker'"})
    for name, ws in sockets.items():
        frames[name] += frames_until_quiet(ws)
        apis[name].get(path)
        apis[name].get(path + "/legal")
        apis[name].get(path + "/odds")
        apis[name].get(f"/api/tables/{table.id}/conflicts")
        apis[name].get(f"/api/tables/{table.id}")
        ws.close()

    for name, viewer in VIEWERS.items():
        texts = dumps(frames[name]) + apis[name].seen
        assert_no_secret(texts, SECRETS, name)
        view, entries = followed(frames[name])
        want_view, want_log = stored_projection(server.db, cid, viewer)
        assert view == want_view, name
        assert entries == want_log, f"{name}: frames are not the projection"
        assert_numbered(entries, name)
        assert keys_named([json.loads(t.split("\n", 1)[1]) for t in apis[name].seen
                           if t.split("\n", 1)[1].startswith(("{", "["))], "version") == 0
        assert "Zqlurker" not in json.dumps(apis[name].get(path).json())
    # the GM sees everything, but never the seed
    gm_texts = dumps(gm_frames) + table.gm.seen + [table.gm.get(path + "/export").text]
    assert "zqdora" in "".join(gm_texts) and SEED not in "".join(gm_texts)


def test_a_hidden_character_is_answered_as_a_missing_one(server: Served) -> None:
    table = new_table(server.url)
    path = table.conflict(toml=LURKING, seed=SEED)
    alice = table.invite("alice")

    def same(hidden: Any, missing: Any, nobody: str = "nobody") -> None:
        assert hidden.status_code == missing.status_code
        assert hidden.text.replace("zqdora", "X") == missing.text.replace(nobody, "X")

    same(alice.get(path + "/characters/zqdora"), alice.get(path + "/characters/nobody"))
    assert alice.get(path + "/characters/zqdora").status_code == 404
    for template in ("ada: step {} toward", "ada: attack {} skill=shoot", "{}: done",
                     "ada: push {} skill=x toward=ada",
                     # the name typed where no name goes: echoed back as any word is (a
                     # missing name of the same first letters: the dice parser quotes one)
                     "ada: roll {}", "ada: {}", "ada: attack {0},{0} skill=shoot",
                     "ada: note hi visibility={}", "ada: roll 1d6 dice={}"):
        for route in ("/commands", "/odds"):
            same(alice.post(path + route, json={"command": template.format("zqdora")}),
                 alice.post(path + route, json={"command": template.format("zqdorx")}),
                 "zqdorx")
    # a player's own words are theirs: a note naming a hidden one reads as any other
    said = ["ada: note zqdora", "ada: note nobody", "ada: note 'Zqlurker is here'",
            "ada: roll 1d6 why=zqdora"]
    lines = [alice.post(path + "/commands", json={"command": c}).json()["entry"]["lines"]
             for c in said]
    assert [len(x) for x in lines] == [1, 1, 1, 1]
    assert lines[:3] == [["note: zqdora"], ["note: nobody"], ["note: Zqlurker is here"]]
    assert "rolls for zqdora" in lines[3][0]
    same(alice.get(path + "/legal", params={"actor": "zqdora"}),
         alice.get(path + "/legal", params={"actor": "nobody"}))


def _without_script(name: str) -> str:
    from importlib import resources

    text = resources.files("fracas.scenarios").joinpath(f"{name}.toml").read_text()
    return re.sub(r'(?ms)^script = """.*?"""\n', "", text)


def test_every_bundled_scenario_streams_exactly_each_viewers_projection(server: Served
                                                                        ) -> None:
    for name in bundled_scenarios():
        scenario = load_scenario(name)
        table = new_table(server.url)
        path = table.conflict(toml=_without_script(name), seed=SEED)
        cid = path.rsplit("/", 1)[1]
        players = sorted({p.player for p in scenario.setup.participants if p.player})
        viewers = {p: Viewer.of_player(p) for p in players} | {"public": Viewer.public()}
        apis: dict[str, Api] = {p: table.invite(None if p == "public" else p)
                                for p in viewers}
        sockets = {p: api.live(path) for p, api in apis.items()}
        for line in scenario.script:
            r = table.gm.post(path + "/commands", json={"command": line.text})
            assert r.status_code == 200, (name, line.text, r.text)
        for p, viewer in viewers.items():
            first = json.loads(sockets[p].recv(timeout=20))
            frames = [first, *frames_until_quiet(sockets[p], quiet=0.4)]
            sockets[p].close()
            view, entries = followed(frames)
            want_view, want_log = stored_projection(server.db, cid, viewer)
            assert (view, entries) == (want_view, want_log), (name, p)
            assert_numbered(entries, f"{name} {p}")
            assert_no_secret(dumps(frames), (SEED,), f"{name} {p}")
            assert keys_named(frames, "version") == 0, (name, p)


def test_a_players_refusals_read_alike_whether_or_not_someone_is_hidden(server: Served) -> None:
    """The same refused commands at two tables that differ only in a character hidden from
    Alice: each refusal reads the same (before: a missing name listed who is known only when
    someone was hidden, and a list naming the hidden one became "the rules do not allow")."""
    table = new_table(server.url)
    alice = table.invite("alice")
    plain, twin = table.conflict(scenario="vers-tavern-brawl", seed=SEED), \
        table.conflict(scenario="vers-tavern-brawl", seed=SEED)
    hidden = """join zqhid name=Zqhid side=toughs 'stats={"zone": "bar"}' hidden=yes"""
    for path in (plain, twin):
        table.gm.post(path + "/commands", json={"command": "open ada"})
    assert table.gm.post(twin + "/commands", json={"command": hidden}).status_code == 200
    for command in ("ada: recover zqmissing", "ada: attack zqmissing", "ada: handoff"):
        said = [alice.post(path + "/commands", json={"command": command}).json()
                for path in (plain, twin)]
        assert said[0] == said[1], command
        assert "the rules do not allow" not in said[0]["message"]


def test_a_player_ends_a_go_alike_whether_or_not_those_left_are_hidden(server: Served) -> None:
    """VR-TURN-2: Ada is the last to go that Alice may know of; at the twin table a character
    hidden from her has not gone either. What Alice is offered, and the answer to her
    'ada: handoff', are the same at both tables (before: no hand-off offered and a refusal at
    the twin table only; Alice could not end Ada's go)."""
    table = new_table(server.url)
    alice = table.invite("alice")
    plain, twin = table.conflict(scenario="vers-tavern-brawl", seed=SEED, fresh=True), \
        table.conflict(scenario="vers-tavern-brawl", seed=SEED, fresh=True)
    for path in (plain, twin):
        assert table.gm.post(path + "/undo").status_code == 200  # the head's 'open ada'
    hidden = """join zq name=Zqhid side=toughs 'stats={"zone": "bar"}' hidden=yes"""
    assert table.gm.post(twin + "/commands", json={"command": hidden}).status_code == 200
    for path in (plain, twin):
        for command in ("open bruno", "bruno: handoff thug", "thug: handoff mira",
                        "mira: handoff bouncer", "bouncer: handoff ada"):
            r = table.gm.post(path + "/commands", json={"command": command})
            assert r.status_code == 200, (command, r.text)
    offers = [alice.get(path + "/legal", params={"actor": "ada"}).json() for path in
              (plain, twin)]
    assert offers[0] == offers[1] and "ada: handoff" in offers[0]["ada"]
    structured = [alice.get(path + "/legal-commands", params={"actor": "ada"}).json()
                  for path in (plain, twin)]
    assert structured[0] == structured[1]
    said = [alice.post(path + "/commands", json={"command": "ada: handoff"}) for path in
            (plain, twin)]
    assert [r.status_code for r in said] == [200, 200], said[1].text
    entries = [r.json()["entry"] for r in said]
    assert [(e["command"], e["lines"][0]) for e in entries] == [("ada: handoff", "Ada is done")] * 2
    # the hidden one's id and name (not a shorter mark a random cursor or token may hold)
    assert_no_secret([r.text for r in said] + alice.seen, ("zqhid",), "alice")


def test_a_players_list_of_conflicts_keeps_its_order_whatever_the_gm_does_unseen(
        server: Served) -> None:
    """The table's list is in the order the conflicts were made, newest first, for a player
    and the public: a roll the GM makes wholly unseen in the conflict at its foot moves it
    nowhere (in the order of the last change it went to the top: a hidden action given
    away). The GM's own list still puts the conflict played last first."""
    table = new_table(server.url)
    paths = [table.conflict("vers-tavern-brawl", fresh=True) for _ in range(3)]
    readers = [table.invite("alice"), table.invite(None)]
    listed = f"/api/tables/{table.id}/conflicts"
    before = [[c["id"] for c in r.get(listed).json()] for r in readers]
    last = before[0][-1]  # the foot of their list
    time.sleep(1.1)  # the store keeps times to the second: the roll is a later change
    r = table.gm.post(f"{listed}/{last}/commands", json={"command": "roll 1d20 visibility=gm"})
    assert r.status_code == 200, r.text
    assert [[c["id"] for c in r.get(listed).json()] for r in readers] == before
    assert table.gm.get(listed).json()[0]["id"] == last
    assert len(paths) == len(before[1]) == 3
