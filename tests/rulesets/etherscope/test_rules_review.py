"""A rules lawyer's review of Etherscope against its seed: extras, groups and what a zoom-in
carries back (ES-ACT-*, ES-START-6, ES-DMG-*)."""

from __future__ import annotations

import pytest

from fracas.engine.model import Viewer
from fracas.engine.views import log_view
from fracas.errors import InvalidInput

from .helpers import make, pc, refused, started

ALICE = Viewer.of_player("alice")


@pytest.mark.rule("ES-ACT-5", "ES-DMG-1")
def test_a_negative_damage_or_hurt_is_refused_not_spent() -> None:
    """``push … damage=-1`` was taken as "spent: damage -1", an extra success more than the
    roll made; ``act … hurt=-2`` as no damage at all. Both are refused, naming the key."""
    c = started()
    c.execute("countdown")
    msg = refused(c, "ada: push bruno successes=3 damage=-1", InvalidInput, "ES-ACT-5")
    assert "damage=-1" in msg and "negative" in msg
    msg = refused(c, "ada: act slap target=bruno hurt=-2 successes=1", InvalidInput, "ES-DMG-1")
    assert "hurt=-2" in msg
    c.execute("ada: push bruno successes=3 damage=0")  # spending none is fine
    assert c.state.ext.condenser["bruno"]["physical"].current == 10


@pytest.mark.rule("ES-RNG-6", "ES-START-6")
def test_a_move_breaking_a_group_alice_may_not_know_of_reads_as_any_move() -> None:
    """Carl stands with Dan, who is hidden from Ada (Alice's): Bruno's move toward Carl alone
    takes Carl out of the group. Alice read the entry as "Bruno: move", not the command as
    typed, which it is wherever Carl stands alone: the label told her something hidden took
    part."""
    def entry(groups: dict[str, list[str]]) -> dict[str, object]:
        people = [pc("ada", "alice"), pc("bruno", "bob"), pc("carl"), pc("dan")]
        c = make({"groups": groups, "lurking": {"dan": ["ada"]}}, people, [
            "ada: awareness successes=3", "bruno: awareness successes=2",
            "carl: awareness successes=1", "dan: awareness successes=0", "moves", "ada: done",
            "bruno: done", "carl: done", "round", "ada: declare 9", "countdown",
            "bruno: move carl toward successes=1"])
        shown = dict(log_view(c, ALICE)[-1])
        shown.pop("entry")
        return shown

    alone, grouped = entry({}), entry({"thugs": ["carl", "dan"]})
    assert grouped["command"] == "bruno: move carl toward successes=1"
    assert grouped == alone
