"""The README's examples work: every `fracas …` line of its shell blocks runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli import app

README = Path(__file__).parent.parent / "README.md"


def readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("fracas ") and "my-fight.toml" not in line:
                out.append(line)
    return out


def test_the_readme_shows_fracas_commands() -> None:
    assert len(readme_commands()) >= 6


@pytest.mark.parametrize("line", readme_commands())
def test_a_readme_command_runs(line: str) -> None:
    result = CliRunner().invoke(app, shlex.split(line)[1:])
    assert result.exit_code == 0, result.output
    assert result.output.strip()


def test_the_readme_opens_with_the_two_commands_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block is not None
    lines = [ln.split("#")[0].strip() for ln in first_block.group(1).splitlines() if ln.strip()]
    assert lines == ["bash scripts/run.sh", "bash scripts/test.sh"]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in ci


DOCS = [README, *sorted((README.parent / "docs").glob("*.md"))]


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_of_the_manual_leads_somewhere(doc: Path) -> None:
    """A newcomer follows the README's and the guides' links: each file they name is there,
    and each `#anchor` is a heading of it."""
    text = doc.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'src="([^"]+)"', text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        dest = doc.parent / path if path else doc
        assert dest.exists(), f"{doc.name}: {target} leads nowhere"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest.read_text(encoding="utf-8")), \
                f"{doc.name}: {target}: no such heading"


def console_commands() -> list[tuple[str, str]]:
    """Every `$ fracas …` line of the README's and the guides' console blocks, with its file
    (a pipe, a redirection and the comment cut off)."""
    out = []
    for doc in DOCS:
        for block in re.findall(r"```console\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                if line.startswith("$ fracas "):
                    words = shlex.split(line[2:], comments=True)
                    cut = [i for i, word in enumerate(words) if word in ("|", ">", "&")]
                    out.append((doc.name, shlex.join(words[:cut[0]] if cut else words)))
    return out


def test_the_manual_shows_console_commands() -> None:
    assert len(console_commands()) >= 40


@pytest.mark.parametrize(("doc", "line"), console_commands())
def test_a_console_command_of_the_manual_names_a_real_command_and_options(
        doc: str, line: str) -> None:
    """The console examples hold ids and addresses of the writer's machine, so they are not
    run; but each names a command and options `fracas` has (with `--help` after them, an
    unknown command or option is refused before anything runs)."""
    result = CliRunner().invoke(app, [*shlex.split(line)[1:], "--help"])
    assert result.exit_code == 0, f"{doc}: {line}: {result.output}"
    assert "Usage" in result.output
