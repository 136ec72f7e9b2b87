"""A rules lawyer's review of Etherscope against its seed: extras, groups and what a zoom-in
carries back (ES-ACT-*, ES-START-6, ES-DMG-*)."""

from __future__ import annotations

import pytest

from fracas.errors import InvalidInput

from .helpers import refused, started


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
