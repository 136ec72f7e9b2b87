"""Debian's Chromium driven by Playwright for Python, and the screens of the table in it.

The browser is ``/usr/bin/chromium`` (scripts/test.sh installs Debian's package), never a test
tool's own download. Every helper acts through the page, as a user would: clicks, typing and
file uploads; none calls the API itself.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1400, "height": 1000}
#: The page's words for a command refused as sent from a screen the table had moved past.
STALE = "Not sent: the table changed while you chose"
#: How long a page may take to show a change (generous: 2 shared cores).
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)


@contextmanager
def chromium() -> Iterator[Browser]:
    """The browser, or a loud failure under CI=true when it is missing (else a skip)."""
    if not os.path.exists(CHROMIUM):
        message = (f"{CHROMIUM} is missing: install Debian's package (apt-get install -y "
                   "chromium; scripts/test.sh does it as root)")
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but " + message)
        pytest.skip(message)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Screen:
    """One person's page, with everything it received (for the leak checks)."""

    context: BrowserContext
    page: Page
    frames: list[str] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # what the page logged as an error

    def received(self) -> str:
        """Every WebSocket frame and API answer body the page received, as one text."""
        bodies = []
        for r in self.responses:
            try:
                bodies.append(r.text())
            except Exception:  # an answer the browser already dropped (a redirect)
                continue
        return "\n".join([*self.frames, *bodies])

    def storage(self) -> str:
        """The page's local and session storage and its cookies' readable values."""
        data: Any = self.page.evaluate(
            "() => JSON.stringify([Object.entries(localStorage), "
            "Object.entries(sessionStorage), document.cookie])")
        return str(data)


def open_screen(browser: Browser, url: str, viewport: dict[str, int],
                timing: dict[str, int] | None = None, touch: bool = False,
                locale: str | None = None) -> Screen:
    """A new browser context (its own cookies) on ``url``, recording what it receives;
    ``timing`` shortens the page's timers (``pingMs``, ``deadMs``, ``conflictsMs``); ``touch``
    makes it a phone's touch screen (a coarse pointer); ``locale`` the browser's language, in
    the UTC time zone (a date the page writes is then known)."""
    zone = {"locale": locale, "timezone_id": "UTC"} if locale else {}
    context = browser.new_context(viewport=viewport,  # type: ignore[arg-type]
                                  has_touch=touch, is_mobile=touch, **zone)
    context.set_default_timeout(WAIT_MS)
    if timing:
        context.add_init_script(f"window.fracasTiming = {json.dumps(timing)};")
    page = context.new_page()
    screen = Screen(context, page)
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: screen.frames.append(str(payload))))
    page.on("response", lambda r: screen.responses.append(r) if "/api/" in r.url else None)
    page.on("dialog", lambda d: (screen.dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: screen.errors.append(str(e)))
    page.on("console", lambda m: screen.console.append(f"{m.text} ({m.location.get('url')})")
            if m.type == "error" and not _refused(m.text, m.location.get("url", "")) else None)
    page.goto(url)
    return screen


def _refused(text: str, url: str) -> bool:
    """Whether a console error is the browser's note of an API answer that refused (a 4xx the
    page shows in its own words) or of a live connection that could not be made (the page
    reconnects and says so); every other one is a fault of the page."""
    return "/api/" in url or "/api/" in text


def start_table(browser: Browser, base: str, title: str = "Friday night") -> Screen:
    """The GM creates a table on the start page, is shown its GM link and opens the table
    with it."""
    gm = open_screen(browser, base + "/", DESK)
    gm.page.get_by_label("Name of the table").fill(title)
    gm.page.get_by_role("button", name="Create the table").click()
    gm.page.get_by_role("link", name="Open the table").click()
    gm.page.wait_for_url(re.compile(r"/table/t"))
    expect(gm.page.locator("#table-title")).to_have_text(title)
    return gm


def upload_scenario(gm: Screen, toml: str, tmp: Path) -> None:
    """The GM creates a conflict from a scenario file (an upload) and waits for its screen."""
    path = tmp / "scenario.toml"
    path.write_text(toml, encoding="utf-8")
    before = gm.page.url
    gm.page.get_by_label(re.compile("Scenario file")).set_input_files(str(path))
    gm.page.get_by_role("button", name="Create from the file").click()
    # the new conflict's own screen, not the one open before it (still drawn while it is made)
    gm.page.wait_for_function("url => location.href !== url", arg=before)
    gm.page.locator(".person").first.wait_for()


def create_from_example(gm: Screen, scenario: str, story: bool = False) -> None:
    """The GM creates a conflict from a bundled example (``story``: with the example's whole
    script played) and waits for its screen."""
    before = gm.page.url
    gm.page.get_by_label("Bundled example").select_option(scenario)
    gm.page.get_by_label(re.compile("Play the example's story")).set_checked(story)
    gm.page.get_by_role("button", name="Create from the example").click()
    gm.page.wait_for_function("url => location.href !== url", arg=before)
    gm.page.locator(".person").first.wait_for()
    expect(gm.page.locator(".conflicts [aria-current=page]")).to_have_count(1)


def invite(gm: Screen, player: str | None) -> str:
    """The GM invites a player (None: a public link for a shared screen); answers the link
    shown (beside its QR code)."""
    if player is None:
        gm.page.get_by_role("button", name="Public link").click()
        player = "the public"
    else:
        gm.page.get_by_label("Player's name (as in the scenario)").fill(player)
        gm.page.get_by_role("button", name="Invite the player").click()
    expect(gm.page.get_by_alt_text(f"QR code of the link for {player}")).to_be_visible()
    link = gm.page.get_by_label(f"Link for {player}").input_value()
    assert "/join#" in link
    return link


def join(browser: Browser, link: str, timing: dict[str, int] | None = None,
         touch: bool = False) -> Screen:
    """A player opens their link on a phone-sized screen (``touch``: a touch screen) and lands
    on the table."""
    screen = open_screen(browser, link, PHONE, timing, touch)
    screen.page.wait_for_url(re.compile(r"/table/t"))
    screen.page.locator(".person").first.wait_for()
    return screen


def command(screen: Screen, actor: str, text: str) -> None:
    """Send a command from the actor's group of controls (``gm``: the GM's own): the button of
    a legal command with nothing to fill in when ``text`` is just its verb, else the group's
    field for a command in the text notation."""
    group = screen.page.locator(f"section.actor[data-actor='{actor}']")
    group.wait_for()
    words = text.split(": ", 1)[-1].split()
    if len(words) == 1:
        button = group.locator(
            f"form.command[data-verb='{words[0]}']:not(:has(input, select)) > button")
        if button.count() == 1:
            for again in (True, True, False):
                button.click()
                answered = screen.page.locator("#notice p.done").or_(
                    screen.page.locator("#error:not([hidden])"))
                answered.first.wait_for()
                refusal = screen.page.locator("#error:not([hidden])")
                if not (again and refusal.count() and STALE in refusal.inner_text()
                        and button.count() == 1):
                    return  # (a refusal of another kind is the test's to read)
    line = group.locator("form.command-line")
    line.locator("input").fill(text)
    refusal = screen.page.locator("#error:not([hidden])")
    for again in (True, True, False):
        line.get_by_role("button", name="Send").click()
        done = screen.page.locator("#notice", has_text=f"Done: {text}")
        try:
            done.or_(refusal).first.wait_for()
        except Exception as exc:
            state = screen.page.evaluate("""() => [
                document.getElementById("notice").textContent,
                document.getElementById("error").textContent,
                [...document.querySelectorAll("form.command-line input")].map(i => i.value)]""")
            raise AssertionError(f"{text!r}: no answer on the page: {state}") from exc
        # another screen's command had not reached this one yet when it was sent (the page
        # sends what it shows: refused as stale): as its user would, send it again
        if not (again and refusal.count() and STALE in refusal.inner_text()):
            break
    assert refusal.count() == 0, f"{text!r} was refused: {refusal.inner_text()}"


def undo(gm: Screen) -> None:
    """The GM's Undo button (beside the log)."""
    gm.page.locator(".log-region").get_by_role("button", name="Undo").click()


def wait_log(screen: Screen, text: str) -> None:
    """Wait until the page's log shows ``text``."""
    screen.page.locator(".log").get_by_text(text).first.wait_for()


UNLABELLED_JS = """() => {
  const bad = [];
  const controls = "input, select, textarea, button, summary, a[href]";
  for (const el of document.querySelectorAll(controls)) {
    const label = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    const by = el.getAttribute("aria-labelledby");
    const named = (el.getAttribute("aria-label") || "").trim()
      || (by && document.getElementById(by))
      || (label && label.textContent.trim())
      || (el.closest("label") && el.closest("label").textContent.trim())
      || (["BUTTON", "SUMMARY", "A"].includes(el.tagName) && el.textContent.trim());
    if (!named) bad.push(el.outerHTML.slice(0, 120));
  }
  return bad;
}"""


def unlabelled_controls(page: Page) -> list[str]:
    """The page's controls without an accessible name (an axe-style check)."""
    found: list[str] = page.evaluate(UNLABELLED_JS)
    return found


def jumps_take_there(page: Page, parts: list[tuple[str, str, str]],
                     height: int = PHONE["height"]) -> None:
    """On a phone, from the foot of the page: each button of the bar of the page's parts
    (name, its heading, something in that part) puts the focus on the part's heading, with it
    and the thing in view below the bar, which stays at the top of the screen; every button
    a thumb's size, on the screen."""
    bar = page.get_by_role("navigation", name="Parts of the page")
    for button in bar.get_by_role("button").all():
        box = button.bounding_box()
        assert box and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"], box
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    for name, heading, then in parts:
        bar.get_by_role("button", name=name).tap()
        expect(page.locator(heading)).to_be_focused()
        top = bar.bounding_box()
        assert top and top["y"] == 0, top  # the bar stays at the top of the screen
        for part in (heading, then):
            box = page.locator(part).first.bounding_box()
            assert box and top["height"] <= box["y"] < height, (name, part, box)


def everything_on(screen: Screen) -> str:
    """What a user or a script could read of the page: its whole DOM with every attribute,
    its title, its storage, and every frame and answer it received."""
    dom = screen.page.content()
    return "\n".join([dom, screen.page.title(), screen.storage(), screen.received()])


def leaks(screen: Screen, secrets: tuple[str, ...]) -> list[str]:
    """The secrets found anywhere on the screen (case-insensitive; a number only as a number
    of its own, not as digits inside another or inside a word: a timestamp's microseconds, a
    random hex key, cursor or id such as ``a92953f0``)."""
    text = everything_on(screen).lower()
    return [s for s in secrets if (re.search(rf"(?<![0-9a-z.]){s}(?![0-9a-z])", text)
                                   if s.isdigit() else s.lower() in text)]


def sent_log(screen: Screen) -> list[list[str]]:
    """The sentences of the log the server sent the page (its WebSocket frames: a snapshot
    starts the log again, anything else adds to it), newest entry first, as a reader sees
    them (without the **marks** of bold and the ~~marks~~ of a dropped die)."""
    log: list[list[str]] = []
    for text in screen.frames:
        frame = json.loads(text)
        if not isinstance(frame, dict) or "entries" not in frame:
            continue
        lines = [[line.replace("**", "").replace("~~", "") for line in e["lines"]]
                 for e in frame["entries"]]
        log = lines if frame.get("type") == "snapshot" else log + lines
    return log[::-1]


def shown_log(screen: Screen) -> list[list[str]]:
    """The sentences the page's log shows, newest entry first."""
    return [entry.locator(".events li").all_inner_texts()
            for entry in screen.page.locator(".log .entry").all()]


def log_json(screen: Screen) -> str:
    """The frames received, for a failure message."""
    return json.dumps(screen.frames[-3:])[:2000]
