"""docs/dice.md tells the truth: every expression of its d20 table rolls and has exact odds,
every roll text it shows comes out of the roller, and every command it shows runs."""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app
from fracas.dice import DiceRng, OddsBudgetError, TableDiceError, distribution, from_table, roll

DOC = (Path(__file__).resolve().parents[2] / "docs" / "dice.md").read_text(encoding="utf-8")


def _table(title: str) -> list[list[str]]:
    section = DOC.split(title, 1)[1].split("\n\n", 2)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]


def _snippets(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


D20_TABLE = _table("### From d20 / Avrae to fracas")
FRACAS_EXAMPLES = [s for row in D20_TABLE for s in _snippets(row[2])]
D20_EXAMPLES = [s for row in D20_TABLE for s in _snippets(row[3])]
AVRAE_EXAMPLES = [s for row in D20_TABLE for s in _snippets(row[0])]


def test_the_table_covers_every_d20_operator() -> None:
    written = " ".join(AVRAE_EXAMPLES)
    for op in ["kh", "kl", "k6", "k>", "k<", "p1", "ph", "pl", "p<", "p>", "ro", "rr", "ra", "e6",
               "e>", "e<", "mi", "ma", "d%", "/", "//", "%", "+1", ".5", "==", "!=", "<", ">=",
               "(1,)", "[fire]"]:
        assert op in written, op
    assert len(D20_TABLE) >= 20


@pytest.mark.parametrize("expr", FRACAS_EXAMPLES + D20_EXAMPLES)
def test_every_table_example_rolls_and_has_exact_odds(expr: str) -> None:
    r = roll(expr, DiceRng.derive("docs", 1))
    assert from_table(expr, r.dice) == r
    try:
        dist = distribution(expr)
    except OddsBudgetError:  # the doc's examples are all small enough
        pytest.fail(f"no odds for {expr}")
    assert r.total in dist or dist.truncated > 0


@pytest.mark.parametrize("expr", AVRAE_EXAMPLES)
def test_every_avrae_example_reads_in_the_d20_reading(expr: str) -> None:
    roll("d20:" + expr, DiceRng.derive("docs", 2))


ROLL_TEXTS = re.findall(r"`([^`]+ → [^`]+ = -?\d+(?: \([^`)]*\))?)`", DOC)


@pytest.mark.parametrize("text", ROLL_TEXTS)
def test_every_roll_text_in_the_doc_comes_from_the_roller(text: str) -> None:
    expr, body = text.split(" → ", 1)
    faces = []
    for group in re.findall(r"\[([^\]]*)\]", body.rsplit(" = ", 1)[0]):
        for item in group.split(", "):
            item = item.replace("~~", "").replace("**", "").rstrip("!").split("→")[0]
            if item.isdigit():
                faces.append(int(item))
    found = set()
    for order in itertools.permutations(faces):  # shown by die, rolled in operation order
        try:
            found.add(from_table(expr, list(order)).to_text())
        except TableDiceError:
            continue
    assert text in found


def _doc_commands() -> list[str]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", DOC, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("$ fracas ") and "bench" not in line:
                out.append(line.removeprefix("$ "))
    return out


@pytest.mark.parametrize("line", _doc_commands())
def test_every_command_in_the_doc_runs(line: str) -> None:
    result = CliRunner().invoke(app, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


def test_the_readme_roll_with_rerolls_and_labels_is_true() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    r = from_table("2d6ro<3 [slashing] + 1d8 [radiant] smite", [1, 5, 4, 6])
    shown = r.to_text().split(" → ", 1)[1]  # the totals by label that end the line too
    assert f"`{shown}`" in readme.replace("\n", " ")
    assert '"annotations": {"slashing": 9, "radiant": 6}' in readme
    assert r.to_data()["annotations"] == {"slashing": 9, "radiant": 6}


def test_the_opening_snippet_runs_and_quotes_what_it_gives() -> None:
    """Each line of the first ```python block that ends in '# VALUE' gives that value (it
    used an undefined seed, and quoted dice that no seed gave)."""
    block = re.search(r"```python\n(.*?)```", DOC, re.S)
    assert block is not None
    scope: dict[str, object] = {}
    quoted = 0
    for line in block.group(1).splitlines():
        code, _, comment = line.partition("  #")
        said = comment.strip().split("   —")[0].split(":")[0].strip()
        if code.startswith(("r.", "from_table")) and said:
            got = eval(code, scope)
            assert (repr(got) if isinstance(got, str) else str(got).strip("()")) == said, line
            quoted += 1
        else:
            exec(line, scope)
    assert quoted == 3
