"""The possessive of a name, as every sentence of the log, a refusal and the pages write it."""

from __future__ import annotations

import pytest

from fracas.engine.words import possessive


@pytest.mark.parametrize(("name", "said"), [
    ("Ada", "Ada's"), ("The party guests", "The party guests'"), ("Boris", "Boris'"),
    ("The Novgorod boss", "The Novgorod boss's"), ("The young countess", "The young countess's"),
    ("ZEUS", "ZEUS'"), ("s", "s'"), ("the GM", "the GM's"),
])
def test_a_name_ending_in_s_takes_an_apostrophe_alone_unless_it_ends_in_ss(
        name: str, said: str) -> None:
    assert possessive(name) == said
