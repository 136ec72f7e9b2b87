"""Export and import on the GM's screen, in a real browser against a real ``fracas serve``: the
GM downloads a conflict as a file (its seed sealed) and imports it again as a new conflict that
opens and plays on; a bad file is refused in the server's words and changes nothing; a player
has neither control."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from fracas.app.exchange import checksum
from tests.server.support import Served
from tests.web.browser import Screen, command, unlabelled_controls, wait_log
from tests.web.test_table import table

pytestmark = pytest.mark.timeout(150)


def download(gm: Screen, tmp: Path) -> tuple[str, dict[str, object]]:
    """The GM presses Download this conflict: the file's suggested name and its document."""
    with gm.page.expect_download() as made:
        gm.page.get_by_role("button", name="Download this conflict").click()
    path = tmp / "downloaded.json"
    made.value.save_as(path)
    doc: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return made.value.suggested_filename, doc


def import_file(gm: Screen, path: Path) -> None:
    """The GM imports a file from under New conflict."""
    gm.page.get_by_label(re.compile("^Import a conflict file")).set_input_files(str(path))
    gm.page.get_by_role("button", name="Import the conflict").click()


def test_the_gm_downloads_a_conflict_and_imports_it_again(browser: Browser, served: Served,
                                                          tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, alice, _bob):
        command(gm, "gm", "note 'the lamps gutter'")
        first = gm.page.url.rsplit("/", 1)[-1]
        name, doc = download(gm, tmp_path)
        assert name == f"brawl-at-the-ford-inn-{first}.json"
        meta = doc["conflict"]
        assert doc["format"] == "fracas.export/1" and isinstance(meta, dict)
        assert "sealed_seed" in meta and "seed" not in meta  # the seed never leaves the server
        path = tmp_path / name
        path.write_text(json.dumps(doc), encoding="utf-8")
        import_file(gm, path)
        gm.page.wait_for_url(re.compile(r"/table/t[^/]+/(?!" + first + ")"))
        expect(gm.page.locator(".conflicts li")).to_have_count(2)
        expect(gm.page.locator(".conflicts [aria-current=page]")).to_have_text(
            "Brawl at the ford inn")
        copy = gm.page.url.rsplit("/", 1)[-1]  # the copy and its original told apart by id
        expect(gm.page.locator(".conflicts li")).to_have_text(
            [re.compile(rf"Brawl at the ford inn \(vers · ({copy}|{first})\)")] * 2)
        assert len(set(gm.page.locator(".conflicts li").all_inner_texts())) == 2
        wait_log(gm, "the lamps gutter")  # the copy holds what was played
        command(gm, "gm", "note 'the copy plays on'")
        wait_log(gm, "the copy plays on")
        assert gm.page.evaluate("document.activeElement !== document.body")
        # players have neither control (the API refuses them too: tests/server/test_access.py)
        for label in ("Download this conflict", "Import the conflict"):
            expect(alice.page.get_by_role("button", name=label)).to_have_count(0)
        expect(alice.page.get_by_label(re.compile("^Import a conflict file"))).to_have_count(0)
        assert unlabelled_controls(gm.page) == []
        assert gm.errors == [] and gm.console == [], (gm.errors, gm.console)


def test_a_bad_file_is_refused_in_the_servers_words_and_changes_nothing(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        _, doc = download(gm, tmp_path)
        meta = doc["conflict"]
        assert isinstance(meta, dict)
        sealed = str(meta["sealed_seed"])
        other = "BBBBBB" if sealed.endswith("AAAAAA") else "AAAAAA"
        meta["sealed_seed"] = sealed[:-6] + other
        doc["checksum"] = checksum(doc)  # made good: the seal itself must refuse it
        tampered = json.dumps(doc)
        titled = json.dumps({**doc, "conflict": {**meta, "title": "Edited"}})
        files = {
            "not.json": ("this is not JSON", "JSON decode error"),
            "list.json": ("[1, 2]", "valid dictionary"),
            "other.json": ('{"format": "something else"}', "not a fracas export"),
            "tampered.json": (tampered, "sealed seed"),
            "edited.json": (titled, "the checksum does not match"),
            "large.json": ("[" + "1," * (1_100_000) + "1]", "at most 2,097,152"),
        }
        url = gm.page.url
        refusal = gm.page.locator("#error")
        for name, (text, words) in files.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            import_file(gm, path)
            expect(refusal).to_be_visible()
            expect(refusal).to_contain_text(words)
            assert "Traceback" not in refusal.inner_text()
            refusal.get_by_role("button", name="Dismiss this message").click()
            expect(refusal).to_be_hidden()
        assert gm.page.url == url
        expect(gm.page.locator(".conflicts li")).to_have_count(1)
        assert len(gm.page.evaluate(
            "async () => (await (await fetch(location.pathname.replace('/table/', '/api/tables/')"
            ".split('/').slice(0, 4).join('/') + '/conflicts')).json())")) == 1


def test_a_scenario_files_refusal_names_the_file_the_gm_chose(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    # before: "upload.toml:3: …", whatever the file was called: the GM with a folder of
    # scenario files was left to guess which
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        path = tmp_path / "docks.toml"
        path.write_text("ruleset = 'vers'\ntitle = 'Docks'\nround_limt = 3\n", encoding="utf-8")
        gm.page.get_by_label(re.compile("Scenario file")).set_input_files(str(path))
        gm.page.get_by_role("button", name="Create from the file").click()
        refusal = gm.page.locator("#error")
        expect(refusal).to_contain_text("docks.toml:3: unknown key 'round_limt'; did you mean "
                                        "'round_limit'?")


def test_a_scenario_file_past_the_limit_is_refused_on_the_page_not_sent(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    # before: sent whole, the connection dropped by the server's limit on a request's body
    # (a 5 MB file), and the page said no answer came; and Create with no file did nothing
    with table(browser, served, "vers", tmp_path) as (gm, _alice, _bob):
        refusal = gm.page.locator("#error")
        gm.page.get_by_role("button", name="Create from the file").click()
        expect(refusal).to_contain_text("Choose a scenario file first")
        path = tmp_path / "huge.toml"
        path.write_text("ruleset = 'vers'\n" + "# notes\n" * 700_000, encoding="utf-8")
        sent: list[str] = []
        gm.page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
        gm.page.get_by_label(re.compile("Scenario file")).set_input_files(str(path))
        gm.page.get_by_role("button", name="Create from the file").click()
        expect(refusal).to_contain_text("huge.toml: the file is longer than 1,000,000 bytes "
                                        "(the limit on file size); nothing was created")
        assert not [url for url in sent if url.endswith("/conflicts")], sent
