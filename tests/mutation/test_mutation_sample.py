"""The mutation driver itself, and a small fixed sample of it run as part of the suite: every
sampled mutant of the rule and component modules (``driver.RULE_MODULES``) must be caught by
the tests (or be listed as equivalent). The whole sampled run is
``bash scripts/mutation.sh --sample 25``."""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.mutation import driver

TOY = textwrap.dedent('''
    """doc"""
    def f(x: int, flag: bool = True) -> int:
        """doc"""
        assert x >= 0, "never"
        if x < 3 and flag:
            return x + 1
        if not flag:
            raise ValueError(f"bad {x - 1}")
        return -x
''')


def test_the_driver_finds_each_kind_of_mutant_and_skips_what_it_should() -> None:
    found = [m.ident for m in driver.find_mutants("toy.py", TOY)]
    assert found == [
        "f: 'True' → 'False'",  # the default
        "f: 'x < 3 and flag' → 'not (x < 3 and flag)'",
        "f: 'x < 3 and flag' → 'x < 3 or flag'",
        "f: 'x < 3' → 'x <= 3'",
        "f: '3' → '4'",
        "f: '3' → '2'",
        "f: 'return x + 1' → 'return None'",
        "f: 'x + 1' → 'x - 1'",
        "f: '1' → '2'",
        "f: '1' → '0'",
        "f: 'not flag' → 'flag'",
        "f: 'return -x' → 'return None'",
        "f: '-x' → 'x'",
    ]  # not the annotations, the docstrings, the assert or the raise


def test_a_mutant_changes_exactly_its_node() -> None:
    mutants = driver.find_mutants("toy.py", TOY)
    flip = next(m for m in mutants if m.ident == "f: 'x < 3' → 'x <= 3'")
    mutated = driver.mutated_source(flip, TOY)
    assert "if x <= 3 and flag:" in mutated
    assert ast.dump(ast.parse(mutated).body[1].args) == ast.dump(ast.parse(TOY).body[1].args)
    assert mutated.count("<=") == 1 and "assert x >= 0" in mutated


def test_mutants_of_the_rule_modules_compile_and_have_unique_names() -> None:
    for module in driver.RULE_MODULES:
        source = (driver.SRC / module).read_text(encoding="utf-8")
        mutants = driver.find_mutants(module, source)
        assert len({m.ident for m in mutants}) == len(mutants), module
        for m in driver.sample(mutants, 8, "compile"):
            compile(driver.mutated_source(m, source), module, "exec")


def test_every_listed_equivalent_mutant_still_exists() -> None:
    listed = driver.equivalent_mutants()
    modules = {k.split(" | ", 1)[0] for k in listed}
    names = {driver.key_of(m) for mod in modules if (driver.SRC / mod).exists()
             for m in driver.find_mutants(mod)}
    stale = [k for k in listed if k not in names]
    assert not stale, ("tests/mutation/equivalent.txt names mutants that no longer exist "
                       f"(the code changed): review and drop them: {stale}")


def test_the_sample_is_fixed_by_its_seed_and_spread_over_modules() -> None:
    mutants = [m for mod in driver.RULE_MODULES for m in driver.find_mutants(mod)]
    one = driver.sample(mutants, 2, "ci")
    assert one == driver.sample(mutants, 2, "ci")
    assert one != driver.sample(mutants, 2, "other")
    assert [m.module for m in one] == [mod for mod in driver.RULE_MODULES for _ in range(2)]


@pytest.mark.mutation
@pytest.mark.timeout(900)
def test_a_fixed_sample_of_mutants_is_caught_by_the_tests() -> None:
    # one mutant a module: 20 test runs, about as long as the 18 of the first nine modules
    mutants = driver.sample([m for mod in driver.RULE_MODULES for m in driver.find_mutants(mod)],
                            1, "ci")
    outcomes = driver.run_mutants(mutants, jobs=2, check_baseline=False)
    equivalent = driver.equivalent_mutants()
    if driver.survivors(outcomes, equivalent):
        pytest.fail("a mutant survived: write the test that catches it (or, if no input can "
                    "tell it apart, list it in tests/mutation/equivalent.txt)\n"
                    + driver.report(outcomes, equivalent), pytrace=False)
