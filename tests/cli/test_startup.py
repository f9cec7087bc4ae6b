"""The light command-line paths import nothing heavy: no database, chart, chat, model or
GitHub library. Each runs as `python -X importtime -m bot …` in a fresh interpreter, the
way a person starts it, and every module it imported is read from importtime's lines (a
module imported and dropped again counts too). Their speed is printed by
benchmarks/startup.py, not asserted here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = (
    "sqlalchemy",
    "alembic",
    "psycopg",
    "matplotlib",
    "slack_bolt",
    "slack_sdk",
    "discord",
    "aiohttp",
    "openai",
    "github",
    "apscheduler",
    "rich",
)
IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*([\w.]+)\s*$", re.MULTILINE)


def imported(argv: list[str], folder: Path) -> tuple[int, set[str]]:
    """Exit status and the top-level packages `python -m bot ARGV` imported."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_"))
        and k != "DATABASE_URL"
    }
    env.update(PYTHONPATH=str(ROOT), VLLM_REPORT_DATA_DIR=str(folder / "data"))
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", *argv],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, {m.split(".")[0] for m in IMPORTED.findall(result.stderr)}


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["--help"], 0),
        (["--version"], 0),
        (["topics"], 0),
        (["show", "not-a-date"], 2),
        (["show", "yesterday", "--topic", "amdd"], 2),
        (["queue", "--topic", "moe"], 2),  # refused before the store is opened
        (["chart", "--kind", "pie", "-o", "x.png"], 2),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else f"exit {value}",
)
def test_a_light_path_imports_nothing_heavy(argv: list[str], status: int, tmp_path: Path) -> None:
    code, modules = imported(argv, tmp_path)
    assert code == status
    assert "bot" in modules  # importtime's lines were read
    assert sorted(modules & set(HEAVY)) == []
