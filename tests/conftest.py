"""Shared test set-up: the Hypothesis profiles and the ``rule`` marker.

A test that covers a numbered rule says so with ``@pytest.mark.rule("ES-ROUND-3")`` (several
IDs allowed); ``tests/test_rule_coverage.py`` fails when a packaged rule is named by no test.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The mutation driver (tests/mutation/driver.py): the CI profile without shrinking or the
# example database, so a test that catches a mutant fails fast and leaves nothing behind.
settings.register_profile(
    "mutation",
    parent=settings.get_profile("ci"),
    database=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
settings.register_profile("dev", deadline=None, max_examples=40)
settings.register_profile("long", deadline=None, max_examples=500)  # a longer bug hunt
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
