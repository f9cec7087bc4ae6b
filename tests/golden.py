"""Golden files: compared, never rewritten by a test run that is meant to check them.

`UPDATE_GOLDEN=1 pytest …` on a developer's machine rewrites a golden file and skips the
comparison (read the diff, then run again); in CI (`CI` set) the variable is ignored.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).with_name("golden")


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") and not os.environ.get("CI"):
        path.write_text(actual, encoding="utf-8")
        pytest.skip(f"golden file {name} rewritten: read its diff, then run the test again")
    assert actual == path.read_text(encoding="utf-8"), f"{name} differs (UPDATE_GOLDEN=1 rewrites)"
