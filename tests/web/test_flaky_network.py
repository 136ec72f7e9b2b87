"""A player on a phone's flaky network: the wifi drops (the browser knows it is offline), an
answer is lost on its way back, a finger taps twice, the page reloads mid-command. The page
says what is going on, catches up by itself, and never applies a command twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.support import Served
from tests.web.browser import command, invite, join, start_table, upload_scenario, wait_log
from tests.web.scenarios import VERS

pytestmark = pytest.mark.timeout(150)

#: The page's timers, left long: what the page says must come from the network's own news,
#: not from a ping that went unanswered.
SLOW = {"pingMs": 600_000, "deadMs": 600_000, "conflictsMs": 600_000}


def test_a_phone_gone_offline_says_so_at_once_and_catches_up_when_back(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the page said "live" for up to a minute after the phone lost its network (until
    a ping went unanswered), while what others did never reached it."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, VERS, tmp_path)
    alice = join(browser, invite(gm, "alice"), SLOW)
    status = alice.page.locator("#connection")
    expect(status).to_have_text("live")
    alice.context.set_offline(True)
    expect(status).to_have_text(re.compile("^offline"))
    command(gm, "gm", "narrate 'The roof caves in!'")
    alice.context.set_offline(False)
    expect(status).to_have_text("live again (reconnected)")
    wait_log(alice, "The roof caves in!")
    expect(alice.page.locator(".log .entry", has_text="The roof caves in!")).to_have_count(1)
    assert alice.errors == [] and gm.errors == [], (alice.errors, gm.errors)
    alice.context.close()
    gm.context.close()
