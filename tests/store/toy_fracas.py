"""The ``fracas`` command with the test-only toy ruleset registered (for subprocess tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fracas.rulesets import register
from tests.support.toy import Toy

register(Toy())

from fracas.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
