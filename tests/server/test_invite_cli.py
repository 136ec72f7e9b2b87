"""The README's way for a GM to invite players, run as written (``fracas table …`` and
``fracas new --campaign``) against a real server: the printed links open the table as the
GM, as Alice and as the public; a revoked link stops at once."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from tests.server.support import ROOT, Served


def fracas(db: str, *args: str) -> list[str]:
    """Run a ``fracas`` command on the server's database; its stdout lines."""
    done = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()", *args,
                           "--db", db], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    return done.stdout.split()


def test_a_gm_invites_players_with_the_readme_commands(server: Served) -> None:
    table, gm_link = fracas(server.db, "table", "new", "Friday night", "--url", server.url)
    [cid] = fracas(server.db, "new", "vers-tavern-brawl", "--campaign", table)
    [alice_link] = fracas(server.db, "table", "invite", table, "alice", "--url", server.url)
    [public_link] = fracas(server.db, "table", "invite", table, "--public", "--url",
                           server.url)
    assert all(link.startswith(server.url + "/join#")
               for link in (gm_link, alice_link, public_link))
    path = f"{server.url}/api/tables/{table}/conflicts/{cid}"

    def viewer(link: str) -> httpx.Response:
        secret = link.split("#", 1)[1]
        return httpx.get(path, headers={"Authorization": f"Bearer {secret}"})

    assert viewer(gm_link).json()["view"]["viewer"]["role"] == "gm"
    assert viewer(alice_link).json()["view"]["viewer"] == {"role": "player",
                                                           "player": "alice"}
    assert viewer(public_link).json()["view"]["viewer"]["role"] == "public"
    assert httpx.get(server.url + "/join").status_code == 200
    listed = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                             "table", "links", table, "--db", server.db], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, check=True).stdout
    link_id = next(line.split()[0] for line in listed.splitlines() if " alice " in line)
    assert alice_link.split("#")[1] not in listed, "secrets are never listed"
    fracas(server.db, "table", "revoke", table, link_id)
    assert viewer(alice_link).status_code == 401
    assert viewer(public_link).status_code == 200


def test_a_gm_who_lost_their_link_prints_a_new_one_with_gm(server: Served) -> None:
    table, _lost = fracas(server.db, "table", "new", "Friday night", "--url", server.url)
    done = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                           "table", "invite", table, "--gm", "--label", "GM (tablet)",
                           "--url", server.url, "--db", server.db], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True)
    [link] = done.stdout.split()
    assert "keep it secret, it opens the table as its GM (shown once)" in \
        " ".join(done.stderr.split())
    secret = link.removeprefix(server.url + "/join#")
    assert len(secret) >= 43
    me = httpx.get(server.url + "/api/me", headers={"Authorization": f"Bearer {secret}"})
    assert me.json()["role"] == "gm"
    listed = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                             "table", "links", table, "--db", server.db], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, check=True).stdout
    row = next(line for line in listed.splitlines() if "GM (tablet)" in line)
    assert row.split()[1] == "gm"  # listed among the links, with its role and label
    assert secret not in listed


@pytest.mark.parametrize(("args", "message"), [
    (("alice", "--gm"), "give only one of a player's name and --gm"),
    (("--public", "--gm"), "give only one of --public and --gm"),
    ((), "or --gm for a GM link"),
])
def test_a_gm_link_is_for_no_player_and_no_public(server: Served, args: tuple[str, ...],
                                                  message: str) -> None:
    table, _ = fracas(server.db, "table", "new", "Friday night")
    done = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                           "table", "invite", table, *args, "--db", server.db], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert message in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr
    listed = subprocess.run([sys.executable, "-c", "from fracas.cli import main; main()",
                             "table", "links", table, "--db", server.db], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, check=True).stdout
    assert len(listed.splitlines()) == 2  # the header and the first GM link: nothing made
