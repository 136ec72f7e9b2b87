"""An Etherscope table in a real browser, as a GM and two phone players would play it: what
each page shows of the pairwise ranges (Hidden among them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, expect

import fracas
from tests.server.support import Served
from tests.web.browser import (
    Screen,
    command,
    create_from_example,
    invite,
    join,
    leaks,
    start_table,
    upload_scenario,
)

pytestmark = pytest.mark.timeout(120)

#: Dora lurks unseen by both players' characters; Ada (alice) is hidden from the imp.
LURKING = """
ruleset = "etherscope"
title = "The vault"
script = "ada: awareness successes=2"

[settings]
lurking = { zqdora = ["ada", "bruno"], ada = ["imp"] }

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
player = "bob"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "imp"
name = "The imp"
stats = { physical = 8, ether = 10, society = 10, awareness = 1 }

[[participants]]
id = "zqdora"
name = "Zqlurker Dora"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }
"""


def cell(screen: Screen, row: str, column: str) -> str:
    """The Ranges matrix's cell in ``row`` under ``column`` (names), as read: its text, a
    list's chosen value."""
    text: str = screen.page.evaluate("""([row, column]) => {
      const table = document.querySelector("table.matrix");
      const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
      const tr = [...table.querySelectorAll("tbody tr")]
        .find((r) => r.querySelector("th").textContent === row);
      const td = tr.children[heads.indexOf(column)];
      return [...td.childNodes].map((n) => (n.tagName === "SELECT" ? n.value : n.textContent))
        .join(" ").trim();
    }""", [row, column])
    return text


@pytest.mark.rule("ES-RNG-1")
def test_the_ranges_say_who_is_hidden_from_whom_as_each_may_know_it(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    gm = start_table(browser, served.url)
    upload_scenario(gm, LURKING, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    bob = join(browser, invite(gm, "bob"))
    # the GM: Dora is hidden from Ada and Bruno, Ada from the imp; the bands stay in view
    expect(gm.page.locator("table.matrix")).to_contain_text("hidden")
    assert cell(gm, "Ada", "Zqlurker Dora") == "near hidden"  # the GM edits it there
    assert cell(gm, "Bruno", "Zqlurker Dora") == "near hidden"
    assert cell(gm, "The imp", "Ada") == "near hidden"
    assert cell(gm, "Ada", "The imp") == "near"  # the imp is not hidden from Ada
    hint = gm.page.locator("table.matrix .tag", has_text="hidden").first
    expect(hint).to_have_attribute("title", "Zqlurker Dora is hidden from Ada")
    # alice: her Ada is hidden from the imp; the band under it is the GM's (ES-RNG-1)
    expect(alice.page.locator("table.matrix")).to_contain_text("hidden")
    assert cell(alice, "The imp", "Ada") == "hidden"
    assert cell(alice, "Ada", "The imp") == "?"
    # bob: none of his is hidden, nor from him that he may know; the band between Ada and
    # the imp is the GM's, and the "?" in its place says so in words (ES-RNG-1)
    expect(bob.page.locator("table.matrix")).to_contain_text("?")
    expect(bob.page.locator("table.matrix")).not_to_contain_text("hidden")
    unknown = "?: a range only the GM knows: one of the two is hidden from the other (ES-RNG-1)"
    for player in (alice, bob):
        expect(player.page.get_by_role("region", name="Ranges")).to_contain_text(unknown)
    expect(gm.page.get_by_role("region", name="Ranges")).not_to_contain_text(unknown)
    for player in (alice, bob):
        assert leaks(player, ("zqlurker", "zqdora")) == []


#: The tags of the Ranges matrix that do not stand wholly in its box's width (scrolled away).
CUT_TAGS_JS = """() => {
  const box = document.querySelector("table.matrix").closest(".scroll").getBoundingClientRect();
  return [...document.querySelectorAll("table.matrix .tag")]
    .map((tag) => [tag.title, tag.getBoundingClientRect()])
    .filter(([, r]) => r.right > box.right + 0.5 || r.left < box.left - 0.5)
    .map(([title, r]) => `${title} @ ${Math.round(r.left)}-${Math.round(r.right)}`);
}"""


@pytest.mark.rule("ES-RNG-1")
def test_a_gms_laptop_shows_every_hidden_in_the_ranges_without_scrolling(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """On a 1366×768 laptop the GM's Ranges of four characters stand whole in their column,
    each "hidden" in view beside or under its range (before: a range's list and its tag side by
    side made the last column too wide for its box: its "hidden" was cut off, scrolled away)."""
    gm = start_table(browser, served.url)
    gm.page.set_viewport_size({"width": 1366, "height": 768})
    upload_scenario(gm, LURKING, tmp_path)
    tags = gm.page.locator("table.matrix .tag", has_text="hidden")
    expect(tags).to_have_count(3)  # Dora from Ada and from Bruno, Ada from the imp
    assert gm.page.evaluate(CUT_TAGS_JS) == []
    box = gm.page.locator("table.matrix").locator("xpath=..")
    widths = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] <= widths[1], widths  # nothing to scroll to
    assert cell(gm, "Ada", "Zqlurker Dora") == "near hidden"  # still edited in its cell
    gm.context.close()


def test_an_optional_list_says_what_leaving_it_empty_stands_for(browser: Browser,
                                                                served: Served) -> None:
    """A GM's note left at "—" is public: the list says so before it is sent, and the
    effect's boundaries read as words."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    own = gm.page.locator("section.actor[data-actor='gm']")
    for verb in ("note", "effect"):
        own.locator("details.command", has=gm.page.locator(f"form[data-verb='{verb}']")) \
            .locator("> summary").click()
    note = own.locator("form[data-verb='note']")
    expect(note.get_by_label("visibility").locator("option")).to_have_text(
        ["— (public)", "public", "gm", "owner"])
    effect = own.locator("form[data-verb='effect']")
    expect(effect.get_by_label("until").locator("option")).to_have_text(
        ["— (round end)", "round end", "turn start", "turn end"])
    effect.get_by_label("text", exact=True).fill("Rain on the windscreen")
    effect.get_by_label("until").select_option(label="round end")
    effect.get_by_role("button", name="effect").click()
    expect(gm.page.locator("#notice")).to_contain_text("Done: effect")
    expect(gm.page.locator(".log .entry").first).to_contain_text(
        "Rain on the windscreen (until the end of round 1)")
    # set-range's two fields, named "a" and "b" in the notation, say what each takes
    set_range = own.locator("form[data-verb='set-range']")
    expect(set_range).to_contain_text("one side: characters or groups")
    expect(set_range).to_contain_text("the other side: characters or groups")


def test_an_ended_conflict_says_so_and_asks_nobody_to_act(browser: Browser,
                                                          served: Served) -> None:
    """Before: an ended chase still read "Acting: nobody · between rounds: the GM starts the
    next one", on every page."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase", story=True)
    alice = join(browser, invite(gm, "alice"))
    end = gm.page.locator("section.actor[data-actor='gm'] details.command",
                          has=gm.page.locator("form[data-verb='end']"))
    end.locator("> summary").click()
    end.get_by_label("reason").fill("the zepcar gets away")
    end.get_by_role("button", name="end").click()
    for screen in (gm, alice):
        head = screen.page.locator(".round-region")
        expect(head).to_contain_text("ended (the zepcar gets away)")
        expect(head).not_to_contain_text("Acting:")
        countdown = screen.page.get_by_role("region", name="Countdown")
        expect(countdown).to_contain_text("the conflict is over")
        expect(countdown).not_to_contain_text("the GM starts the next one")


@pytest.mark.rule("ES-ACT-1")
def test_a_character_chosen_under_act_for_and_left_outside_a_zoom_is_chosen_no_more(
        browser: Browser, served: Served) -> None:
    """Before: the GM who had picked the zepcar under Act for kept its controls inside a
    zoom-in it takes no part in (its list showed "the one acting now")."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    for line in ("ada: awareness successes=3", "bruno: awareness successes=2",
                 "zepcar: awareness successes=1", "moves", "ada: done", "bruno: done",
                 "round", "countdown"):
        command(gm, "gm", line)
    act_for = gm.page.get_by_label("Act for")
    act_for.select_option(label="The zepcar driver")
    expect(gm.page.locator("section.actor[data-actor='zepcar']")).to_have_count(1)
    command(gm, "gm", "ada: zoom bruno reason=duel")
    expect(gm.page.locator(".round-region")).to_contain_text("zoomed in")
    expect(act_for).to_have_value("")
    expect(gm.page.locator("section.actor[data-actor='zepcar']")).to_have_count(0)


@pytest.mark.rule("ES-RNG-1")
def test_a_turn_of_a_character_hidden_from_the_player_reads_as_the_gms(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: while Agent Black (hidden from Kim) took its turn, Kate's phone read "Acting:
    nobody" with Kim still to act, as if the table waited on no one."""
    bundled = (Path(fracas.__file__).parent / "scenarios" / "etherscope-agents-domain.toml")
    toml = re.sub(r'(?s)script = """.*?"""', 'script = """\n' + "\n".join((
        "kim: awareness dice=6,5,5", "agent1: awareness dice=5,1", "agent2: awareness dice=1,1",
        "agent2: ambush kim dice=6,6 counter=kim:1,2,3", "moves", "kim: done",
        "agent1: done", "round", "kim: declare 9,2", "agent1: declare 7", "countdown",
        "kim: done", "agent1: done")) + '\n"""', bundled.read_text(encoding="utf-8"), count=1)
    gm = start_table(browser, served.url)
    upload_scenario(gm, toml, tmp_path)
    kate = join(browser, invite(gm, "kate"))
    expect(gm.page.locator(".round-region")).to_contain_text("Acting: Agent Black")
    head = kate.page.locator(".round-region")
    expect(head).to_contain_text("Acting: the GM")
    expect(head).to_contain_text("Still to act: Kim")
    expect(kate.page.get_by_role("region", name="Countdown")).to_contain_text("acting: the GM")
    assert leaks(kate, ("agent black", "agent2")) == []


@pytest.mark.rule("ES-DMG-1")
def test_one_taken_out_leaves_the_ranges_matrix(browser: Browser, served: Served) -> None:
    """Before: Ada, out, kept her row and column, and the GM's lists in them sent a
    set-range the rules refused ("Ada is no longer in the conflict")."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    expect(gm.page.get_by_label("Range from Ada to Bruno")).to_have_count(1)
    command(gm, "gm", "out ada reason=crashed")
    for screen in (gm, alice):
        matrix = screen.page.locator("table.matrix")
        expect(matrix.locator("thead th")).to_have_text(["from \\ to", "Bruno",
                                                         "The zepcar driver"])
    expect(gm.page.get_by_label("Range from Ada to Bruno")).to_have_count(0)
    expect(gm.page.get_by_label("Range from Bruno to The zepcar driver")).to_have_count(1)
    # her card says why; one taken out with no reason reads "out" (before: "out: out")
    command(gm, "gm", "out bruno")
    cards = gm.page.locator("li.person.out .summary")
    expect(cards).to_have_text(["out: crashed", "out"])


def shown_options(form: Locator, label: str) -> list[str]:
    """The choices a list of ``form`` shows now (those the choices before it leave)."""
    names: list[str] = form.get_by_label(label).evaluate(
        "el => [...el.options].filter((o) => !o.hidden).map((o) => o.text)")
    return names


@pytest.mark.rule("ES-ACT-5", "ES-RNG-1")
def test_no_list_offers_a_character_as_pushed_or_hidden_from_itself(
        browser: Browser, served: Served) -> None:
    """Before: the push's toward and away lists held its target, and conceal's from= the one
    concealed: commands the rules refuse."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    own = gm.page.locator("section.actor[data-actor='gm']")
    conceal = own.locator("form[data-verb='conceal']")
    own.locator("details.command", has=gm.page.locator("form[data-verb='conceal']")) \
        .locator("> summary").click()
    conceal.get_by_label("who").select_option(label="The zepcar driver")
    expect(conceal.get_by_label("from (optional)")).to_be_visible()
    assert shown_options(conceal, "from (optional)") == ["Ada", "Bruno"]
    conceal.get_by_label("who").select_option(label="Bruno")
    assert shown_options(conceal, "from (optional)") == ["Ada", "The zepcar driver"]
    for line in ("ada: awareness successes=3", "bruno: awareness successes=2",
                 "zepcar: awareness successes=1", "moves", "ada: done", "bruno: done",
                 "round", "countdown"):
        command(gm, "gm", line)
    mine = alice.page.locator("section.actor[data-actor='ada']")
    push = mine.locator("form[data-verb='push']")
    mine.locator("details.command", has=alice.page.locator("form[data-verb='push']")) \
        .locator("> summary").click()
    push.get_by_label("target").select_option(label="The zepcar driver")
    for way in ("toward (optional)", "away (optional)"):
        assert shown_options(push, way) == ["Ada", "Bruno"]
    push.get_by_label("target").select_option(label="Bruno")
    assert shown_options(push, "away (optional)") == ["Ada", "The zepcar driver"]


@pytest.mark.rule("ES-DMG-1")
def test_one_out_is_acted_for_apart_for_the_notes_rolls_and_narration_left_to_it(
        browser: Browser, served: Served) -> None:
    """Before: Ada, out, stood under Act for among those in play, as if she could still act;
    the rules leave her only notes, narration and rolls."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    command(gm, "gm", "out ada reason=crashed")
    act_for = gm.page.get_by_label("Act for")
    expect(act_for.locator(":scope > option")).to_have_text(
        ["the one acting now", "Bruno", "The zepcar driver"])
    apart = act_for.locator("optgroup")
    expect(apart).to_have_attribute("label", "out of the conflict (notes, narration, rolls only)")
    expect(apart.locator("option")).to_have_text(["Ada"])
    act_for.select_option(label="Ada")
    ada = gm.page.locator("section.actor[data-actor='ada'] form.command:not(.command-line)")
    expect(ada).to_have_count(3)
    assert sorted(ada.evaluate_all("fs => fs.map((f) => f.dataset.verb)")) == [
        "narrate", "note", "roll"]


#: Zqdora, hidden from Ada, makes her awareness move between Ada's and Bruno's.
UNSEEN_MOVER = LURKING.replace('script = "ada: awareness successes=2"', """script = \"\"\"
ada: awareness successes=4
zqdora: awareness successes=3
bruno: awareness successes=2
imp: awareness successes=1
moves
ada: done
\"\"\"""").replace('{ zqdora = ["ada", "bruno"], ada = ["imp"] }', '{ zqdora = ["ada"] }')


@pytest.mark.rule("ES-RNG-6", "ES-START-5")
def test_while_an_unseen_one_makes_its_awareness_move_the_rest_still_to_move_are_named(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: while Dora (hidden from Ada) moved, Alice's page read "Still to act: nobody",
    as if nobody she knew were still to move."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, UNSEEN_MOVER, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    expect(gm.page.locator(".round-region")).to_contain_text("Acting: Zqlurker Dora")
    head = alice.page.locator(".round-region")
    expect(head).to_contain_text("Acting: the GM")
    expect(head).to_contain_text("Still to act: Bruno, The imp")
    command(gm, "gm", "zqdora: done")
    expect(head).to_contain_text("Acting: Bruno")
    expect(head).to_contain_text("Still to act: The imp")
    assert leaks(alice, ("zqlurker", "zqdora")) == []


@pytest.mark.rule("ES-ROUND-1")
def test_between_rounds_nobody_is_said_to_be_still_to_act(browser: Browser, served: Served
                                                          ) -> None:
    """Before: between rounds a player's Round panel read "Acting: nobody · between rounds:
    the GM starts the next one" and under it "Still to act: nobody"."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase", story=True)
    alice = join(browser, invite(gm, "alice"))
    for screen in (gm, alice):
        head = screen.page.locator(".round-region")
        expect(head).to_contain_text("between rounds: the GM starts the next one")
        expect(head).not_to_contain_text("Still to act")
    command(gm, "gm", "round")  # declaring: those still to declare are named
    expect(alice.page.locator(".round-region")).to_contain_text("Still to declare")


def _bob_watching_a_zoom(browser: Browser, served: Served) -> tuple[Screen, Screen]:
    """The car chase on the GM's screen and Bob's phone, Ada zoomed in with the driver in the
    first round's countdown: Bruno is left out of the zoom."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    bob = join(browser, invite(gm, "bob"))
    for line in ("ada: awareness successes=3", "bruno: awareness successes=2",
                 "zepcar: awareness successes=1", "moves", "ada: done", "bruno: done",
                 "round", "countdown", "ada: zoom zepcar reason='a fight on the roof'"):
        command(gm, "gm", line)
    return gm, bob


@pytest.mark.rule("ES-ACT-1")
def test_a_player_left_outside_a_zoom_reads_that_their_character_waits_in_the_parent(
        browser: Browser, served: Served) -> None:
    """Before: while Ada zoomed in with the driver, Bob's phone read "You have no character in
    this conflict: you are watching", and Bruno was nowhere on it, as if he had left."""
    gm, bob = _bob_watching_a_zoom(browser, served)
    head = bob.page.locator(".round-region")
    expect(head).to_contain_text("zoomed in")
    expect(head).to_contain_text("Bruno is not in this zoomed-in conflict: you are watching "
                                 "it until play returns to A car chase.")
    expect(head).not_to_contain_text("You have no character in this conflict")
    command(gm, "gm", "end 'the driver jumps'")
    expect(head).not_to_contain_text("zoomed-in conflict")
    expect(bob.page.locator("section.actor[data-actor='bruno']")).to_have_count(1)


@pytest.mark.rule("ES-SET-1", "ES-SET-4", "ES-SET-6")
def test_the_forms_set_up_choices_name_what_leaving_them_stands_for(
        browser: Browser, served: Served) -> None:
    """Before: each read "— (the rules' default)", and a GM could not tell which nature, time
    scale or range scaling a conflict left at it would have."""
    gm = start_table(browser, served.url)
    page = gm.page
    page.get_by_text("Set up a conflict (form)").click()
    form = page.locator("#from-form")
    form.get_by_label("Ruleset").select_option("etherscope")
    for label, said in (("Nature", "— (physical)"), ("Reality", "— (prime)"),
                        ("Time scale", "— (quick)"), ("Range scaling", "— (battlefield)")):
        expect(form.get_by_label(label, exact=True).locator("option").first).to_have_text(said)
    form.get_by_label("Title").fill("The docks")
    form.get_by_label("Sides (comma-separated)").fill("crew")
    row = form.locator("fieldset").nth(0)
    row.get_by_label("Id", exact=True).fill("ada")
    row.get_by_label("Name", exact=True).fill("Ada")
    for stat in ("physical", "ether", "society", "awareness"):
        row.get_by_label(stat, exact=True).fill("8")
    form.get_by_role("button", name="Create from the form").click()
    expect(page.get_by_role("region", name="Set-up")).to_contain_text(
        "This is a prime, physical, quick, battlefield scale conflict.")


@pytest.mark.rule("ES-ROUND-1")
def test_the_join_form_shows_the_stats_field_with_an_example_in_etherscopes_stats(
        browser: Browser, served: Served) -> None:
    """Before: the stats an Etherscope joiner needs (its conflict's condenser) were folded
    under "more options", with the hint {"dex": 8, "hp": 20}: another game's stats, which
    typed in as shown were refused."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    own = gm.page.locator("section.actor[data-actor='gm']")
    own.locator("details.command", has=gm.page.locator("form[data-verb='join']")) \
        .locator("> summary").click()
    join_form = own.locator("form[data-verb='join']")
    stats = join_form.get_by_label("stats (optional)")
    expect(stats).to_be_visible()  # no fold to open first
    example = '{"physical": 8, "ether": 6, "society": 5, "awareness": 2, "skills": {"brawl": 3}}'
    expect(join_form).to_contain_text(f"a JSON object, e.g. {example}")
    expect(join_form).not_to_contain_text("dex")
    join_form.get_by_label("id", exact=True).fill("eve")
    stats.fill(example)
    join_form.get_by_role("button", name="join").click()
    expect(gm.page.locator("#notice")).to_contain_text("Eve joins the conflict")


@pytest.mark.rule("ES-ACT-1")
def test_a_player_outside_a_zoom_keeps_the_parents_ranges_and_their_condensers_in_view(
        browser: Browser, served: Served) -> None:
    """Before: while Ada zoomed in with the driver, Bob's phone showed only the zoom's panels
    (Bruno's condensers and the chase's ranges were gone until it ended), under the heading
    "Zoomed in: A car chase — zoomed in"."""
    gm, bob = _bob_watching_a_zoom(browser, served)
    for screen in (gm, bob):
        zoom = screen.page.locator(".zoom-level.innermost > h2")
        expect(zoom).to_have_text("A car chase — zoomed in · 5 rounds at most")
        expect(screen.page.locator(".field-region")).not_to_contain_text("Zoomed in:")
        # the zoom's own panels, then the parent's, apart and titled with the parent's name
        ranges = screen.page.get_by_role("region", name="Ranges in A car chase")
        expect(ranges.locator("thead th")).to_have_text(["from \\ to", "Ada", "Bruno",
                                                         "The zepcar driver"])
        waiting = screen.page.get_by_role("region", name="Condensers in A car chase")
        expect(waiting).to_contain_text("Those waiting outside the zoom-in.")
        expect(waiting).to_contain_text("Bruno physical 9/9")
        expect(waiting).not_to_contain_text("Ada")
        expect(screen.page.get_by_role("region", name="Condensers", exact=True)) \
            .not_to_contain_text("Bruno")
    # the parent's ranges are read only: the GM's commands go to the zoom
    expect(gm.page.get_by_label("Range from Ada to Bruno")).to_have_count(0)
    expect(gm.page.get_by_label("Range from Ada to The zepcar driver")).to_have_count(1)
    command(gm, "gm", "end 'the driver jumps'")
    for screen in (gm, bob):
        expect(screen.page.get_by_role("region", name="Ranges in A car chase")).to_have_count(0)
        expect(screen.page.get_by_role("region", name="Condensers", exact=True)) \
            .to_contain_text("Bruno")


def countdown_begun(gm: Screen) -> None:
    """The car chase, its awareness and moves done and round 1's countdown begun (Ada acts)."""
    for line in ("ada: awareness successes=3", "bruno: awareness successes=2",
                 "zepcar: awareness successes=1", "moves", "ada: done", "bruno: done",
                 "round", "countdown"):
        command(gm, "gm", line)


def opened(screen: Screen, actor: str, verb: str) -> Locator:
    """The form of ``actor``'s ``verb``, its control opened."""
    group = screen.page.locator(f"section.actor[data-actor='{actor}']")
    group.locator("details.command", has=screen.page.locator(f"form[data-verb='{verb}']")) \
        .locator("> summary").click()
    return group.locator(f"form[data-verb='{verb}']")


@pytest.mark.rule("ES-ACT-4", "ES-ACT-5")
def test_what_an_action_spends_its_successes_on_is_in_view_not_folded(
        browser: Browser, served: Served) -> None:
    """Before: an act's difficulty, extras and hurt, and a Push Back's damage (one of its two
    extras), were folded under "more options" with the rarely typed successes and pool."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    countdown_begun(gm)
    act = opened(alice, "ada", "act")
    for name in ("difficulty (optional)", "extras (optional)", "hurt (optional)"):
        expect(act.get_by_label(name)).to_be_visible()  # no fold to open first
    expect(act.locator("details.more > summary")).to_have_text(
        "more options: successes, pool, say, effect")
    push = opened(alice, "ada", "push")
    expect(push.get_by_label("damage (optional)")).to_be_visible()
    expect(push.get_by_label("two (optional)")).to_be_visible()
    expect(push.locator("details.more > summary")).to_have_text(
        "more options: successes, pool, difficulty, say, effect")
    act.get_by_label("name", exact=True).fill("grapple")
    act.get_by_label("skill (optional)").fill("brawl")
    act.get_by_label("dice (optional)").fill("6,6,5")
    act.get_by_label("difficulty (optional)").fill("2")
    act.get_by_label("target (optional)").select_option(label="The zepcar driver")
    act.get_by_label("hurt (optional)").fill("2")
    act.get_by_role("button", name="act").click()
    expect(alice.page.locator("#notice")).to_contain_text(
        "Done: Ada: act grapple dice=6,6,5 skill=brawl difficulty=2 target=zepcar hurt=2")


@pytest.mark.rule("ES-RNG-3")
def test_a_reveals_empty_band_says_the_band_kept_while_hidden(browser: Browser,
                                                               served: Served) -> None:
    """Before: a search's and the GM's reveal's band read a bare "—", which did not say that
    those found keep the band they had while hidden."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    countdown_begun(gm)
    command(gm, "gm", "conceal zepcar from=ada")
    said = ["— (the band kept while hidden)", "close", "near", "distant"]
    search = opened(alice, "ada", "search")
    expect(search.get_by_label("band (optional)").locator("option")).to_have_text(said)
    expect(search).to_contain_text("the band those revealed are put into (ES-RNG-3)")
    reveal = opened(gm, "gm", "reveal")
    expect(reveal.get_by_label("band (optional)").locator("option")).to_have_text(said)
    reveal.get_by_role("button", name="reveal").click()
    expect(gm.page.locator("#notice")).to_contain_text("The zepcar driver is revealed to Ada")
    expect(gm.page.locator("table.matrix")).not_to_contain_text("hidden")
    assert cell(gm, "Ada", "The zepcar driver") == "distant"  # the band it had, kept


@pytest.mark.rule("ES-ACT-4")
def test_a_forms_odds_are_those_of_the_skill_typed_or_say_the_default_pool(
        browser: Browser, served: Served) -> None:
    """Before: a form's odds kept listing every skill's pool after a skill was typed, and with
    none typed did not say that the default 2 dice are rolled."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    countdown_begun(gm)
    attack = opened(alice, "ada", "attack")
    lines = attack.locator("output.odds .odds-line")
    expect(lines).to_have_text(
        ["Ada rolls 2d6, the default pool (no skill named; 5+ a success): ≥1 56%, ≥2 11%"])
    attack.get_by_label("skill (optional)").fill("brawl")
    attack.get_by_label("skill (optional)").press("Tab")
    expect(lines).to_have_text(["Ada rolls 3d6 with brawl (5+ a success): ≥1 70%, ≥2 26%, ≥3 4%"])


def test_a_name_ending_in_s_owns_with_an_apostrophe_alone_on_the_page(
        browser: Browser, served: Served) -> None:
    """Before: the log read "The party guests's turn", and the sheet "The party guests's
    sheet"."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-war-of-words", story=True)
    expect(gm.page.locator(".log")).to_contain_text("The party guests' turn")
    expect(gm.page.locator(".log")).not_to_contain_text("guests's")
    expect(gm.page.get_by_label("The party guests' sheet")).to_have_count(1)
    expect(gm.page.get_by_label("The young countess's sheet")).to_have_count(1)


@pytest.mark.rule("ES-RNG-4")
def test_a_move_steps_against_several_picked_at_once(browser: Browser, served: Served) -> None:
    """Before: the move form took one target at a time, though a move steps against all the
    characters it names; now its list allows several, and offers only the ways each takes."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    countdown_begun(gm)
    move = opened(alice, "ada", "move")
    targets = move.get_by_label("targets")
    expect(targets).to_have_attribute("multiple", "")
    assert shown_options(move, "targets") == ["The zepcar driver", "Bruno"]  # foes first
    expect(move).to_contain_text("whom the step is against: one or more")
    targets.select_option(label=["The zepcar driver", "Bruno"])
    assert shown_options(move, "way") == ["toward"]  # the driver is Distant: no step away
    targets.select_option(label=["Bruno"])
    assert shown_options(move, "way") == ["toward", "away"]
    targets.select_option(label=["The zepcar driver", "Bruno"])
    move.get_by_label("dice (optional)").fill("6,6")
    move.get_by_role("button", name="move").click()
    notice = alice.page.locator("#notice")
    expect(notice).to_contain_text("Done: Ada: move zepcar,bruno toward dice=6,6")
    expect(notice).to_contain_text("Ada ↔ The zepcar driver: Distant → Near (move)")
    expect(notice).to_contain_text("Ada ↔ Bruno: Near → Close (move)")


def test_a_phones_ranges_caption_is_read_whole_while_the_matrix_scrolls_sideways(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the matrix's caption was part of the table that scrolls sideways in its box,
    so a phone showed "Who is Close, Near, Distant or Hidden from whor", cut off."""
    gm = start_table(browser, served.url)
    wide = LURKING.replace('name = "Bruno"', 'name = "Bruno the Magnificent Wanderer"') \
        .replace('name = "The imp"', 'name = "Theimpwithanunbreakablylongname"')
    upload_scenario(gm, wide, tmp_path)
    alice = join(browser, invite(gm, "alice"))
    ranges = alice.page.get_by_role("region", name="Ranges")
    box = ranges.locator(".scroll")
    expect(box.locator("table.matrix")).to_be_visible()
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # it scrolls sideways
    caption = ranges.get_by_text("Who is Close, Near, Distant or Hidden from whom")
    expect(caption).to_be_visible()
    assert caption.evaluate("""el => { const c = el.getBoundingClientRect();
      const b = el.closest("section").getBoundingClientRect();
      return c.left >= b.left && c.right <= b.right && el.scrollWidth <= el.clientWidth; }""")
    expect(alice.page.get_by_role("table", name="Who is Close, Near, Distant or Hidden from "
                                               "whom")).to_have_count(1)


@pytest.mark.rule("ES-RNG-1", "ES-RNG-6")
def test_the_gms_card_of_a_character_says_which_players_characters_it_is_hidden_from(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Before: the card of a listener behind a screen read like any NPC's on the GM's screen
    (only the cells of the Ranges matrix told that no player sees it). The GM's card says
    from which players' characters it is hidden; a player's never does (the flags of others
    are the GM's)."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, LURKING, tmp_path)
    alice = join(browser, invite(gm, "alice"))

    def card(screen: Screen, name: str) -> Locator:
        return screen.page.locator(".person", has=screen.page.locator(".name", has_text=name))

    expect(card(gm, "Zqlurker Dora").locator(".tag.secret")).to_have_text(
        "hidden from Ada, Bruno")
    expect(card(gm, "Ada").locator(".tag.secret")).to_have_count(0)  # only from the imp
    command(gm, "gm", "reveal zqdora from=ada")
    expect(card(gm, "Zqlurker Dora").locator(".tag.secret")).to_have_text("hidden from Bruno")
    expect(card(alice, "Zqlurker Dora")).to_be_visible()  # Ada sees her now
    expect(alice.page.locator(".person .tag.secret")).to_have_count(0)
    expect(alice.page.locator(".people")).not_to_contain_text("hidden from")


#: A tie at 8 (Bruno's better awareness acts first, though Ada declared first) and the imp's
#: default declaration, its base kept from the players (a GM-only condenser).
TIED = """
ruleset = "etherscope"
title = "The tie"
script = '''
ada: awareness successes=1
bruno: awareness successes=2
imp: awareness successes=0
moves
bruno: done
ada: done
round
ada: declare 8,2
bruno: declare 8,1
countdown
'''

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
player = "bob"
stats = { physical = 9, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "imp"
name = "The imp"
gm_only = ["physical"]
stats = { physical = 12, ether = 10, society = 10, awareness = 1 }
"""


@pytest.mark.rule("ES-ROUND-4", "ES-ROUND-5")
def test_the_countdown_lane_follows_the_order_the_countdown_acts_in(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    """Ada and Bruno both act at 8: Bruno, the more aware, first (ES-ROUND-5). Before, the
    Countdown panel listed a tie in the order of the declarations (Ada, then Bruno) while
    Bruno acted; it outlined both of Ada's chips while she acted at 8, offered the GM's "act
    now" beside a slot already played, and left out the imp whose score the players may not
    know, though it was the one acting (the log reads "The imp ?")."""
    gm = start_table(browser, served.url)
    upload_scenario(gm, TIED, tmp_path)
    alice = join(browser, invite(gm, "alice"))

    def lane(screen: Screen) -> Locator:
        return screen.page.get_by_role("region", name="Countdown").locator(".lane li")

    def acting(screen: Screen) -> Locator:
        return lane(screen).and_(screen.page.locator(".acting"))

    expect(lane(alice)).to_have_text(["? The imp", "8 Bruno", "8 Ada", "2 Ada", "1 Bruno"])
    expect(lane(gm)).to_have_text([re.compile(f"^{chip}") for chip in (
        "12 The imp", "8 Bruno", "8 Ada", "2 Ada", "1 Bruno")])
    expect(acting(alice)).to_have_text(["? The imp"])
    command(gm, "gm", "imp: done")
    command(gm, "gm", "bruno: done")
    for screen in (gm, alice):  # her slot at 8 acts, not the one at 2
        expect(acting(screen)).to_have_count(1)
        expect(acting(screen)).to_contain_text("8 Ada")
    # the GM may let Bruno act now: beside his slot to come, not the one he played
    act_now = gm.page.get_by_role("button", name="Let Bruno act now")
    expect(act_now).to_have_count(1)
    expect(lane(gm).filter(has=act_now)).to_contain_text("1 Bruno")
    act_now.click()  # his slot comes before hers, in the lane as in the countdown
    expect(lane(alice)).to_have_text(["? The imp", "8 Bruno", "1 Bruno", "8 Ada", "2 Ada"])
    expect(acting(alice)).to_have_text(["1 Bruno"])


@pytest.mark.rule("ES-ACT-1", "ES-ROUND-2")
def test_a_zoom_ins_first_declaration_is_not_the_one_chosen_in_its_parents_round(
        browser: Browser, served: Served) -> None:
    """Before: a zoom-in is played under its parent's id, and its declare list came up on the
    phone with the parent round's choice (11) picked already, one tap from being declared in
    the zoom; back in the parent, the zoom's choice came up in the next round's list."""
    gm = start_table(browser, served.url)
    create_from_example(gm, "etherscope-car-chase")
    alice = join(browser, invite(gm, "alice"))
    for line in ("ada: awareness successes=3", "bruno: awareness successes=2",
                 "zepcar: awareness successes=1", "moves", "ada: done", "bruno: done",
                 "round"):
        command(gm, "gm", line)

    def declare(scores: str | None) -> Locator:
        form = alice.page.locator("section.actor[data-actor='ada'] form[data-verb='declare']")
        if not form.is_visible():  # (its control opened once stays open in that level)
            form = opened(alice, "ada", "declare")
        if scores:
            form.get_by_label("scores").select_option(scores)
            form.get_by_role("button", name="declare").click()
            expect(alice.page.locator("#notice")).to_contain_text(f"Done: Ada: declare {scores}")
        return form.get_by_label("scores")

    declare("11")
    command(gm, "gm", "countdown")
    command(gm, "gm", "ada: zoom zepcar reason='a fight on the roof'")
    command(gm, "gm", "round")
    expect(alice.page.locator(".round-region")).to_contain_text("Still to declare")
    listed = declare(None)
    expect(listed).to_have_value(listed.locator("option").first.get_attribute("value") or "")
    declare("8")
    for line in ("end 'the driver jumps'", "ada: done", "zepcar: done", "bruno: done", "round"):
        command(gm, "gm", line)
    expect(alice.page.locator(".round-region")).to_contain_text("round 2")
    expect(declare(None)).to_have_value("11")  # the parent's own choice, kept in it
