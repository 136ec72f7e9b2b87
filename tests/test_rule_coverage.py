"""The rules travel with the code: every packaged rule is named by a test, and the packaged
rules match the brief in ../shared/rules/ (checked only where that folder exists)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fracas.rulesets import SHIPPED, get_ruleset

TESTS = Path(__file__).parent
SHARED_RULES = TESTS.parent.parent / "shared" / "rules"
MARKER = re.compile(r"""mark\.rule\(((?:\s*["'][A-Z]+-[A-Z]+-\d+["']\s*,?)+)\)""")


def named_by_tests() -> set[str]:
    """Rule IDs named by a ``@pytest.mark.rule(...)`` marker anywhere under tests/."""
    found: set[str] = set()
    for path in TESTS.rglob("*.py"):
        for match in MARKER.finditer(path.read_text(encoding="utf-8")):
            found.update(re.findall(r"[A-Z]+-[A-Z]+-\d+", match.group(1)))
    return found


def shipped_rulesets() -> list[str]:
    out = []
    for name in SHIPPED:
        try:
            get_ruleset(name)
        except Exception:  # not written yet
            continue
        out.append(name)
    return out


@pytest.mark.parametrize("name", shipped_rulesets())
def test_every_packaged_rule_is_named_by_a_test(name: str) -> None:
    missing = [r.id for r in get_ruleset(name).rules() if r.id not in named_by_tests()]
    assert not missing, f"{name}: rules named by no @pytest.mark.rule test: {missing}"


@pytest.mark.parametrize("name", shipped_rulesets())
def test_packaged_rules_match_the_brief(name: str) -> None:
    brief = SHARED_RULES / f"{name}.md"
    if not brief.exists():
        pytest.skip("../shared/rules is not beside this checkout (a development-only check)")
    ids = re.findall(r"^- ((?:ES|FU|VR)-[A-Z]+-\d+)\b", brief.read_text(), re.M)
    packaged = [r.id for r in get_ruleset(name).rules()]
    assert sorted(packaged) == sorted(ids)
    for rule in get_ruleset(name).rules():
        assert rule.text and rule.mark in {"seed", "core", "default", "decision"}, rule.id
