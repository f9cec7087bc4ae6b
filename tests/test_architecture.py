"""The shape of the code: every module inside a layer, heavy SDKs out of the light paths."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "config", "formatters")


def layer_names() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return [name.strip() for layer in layers for name in layer.split("|")]


def modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.append(".".join(parts))
    return found


def test_every_module_is_inside_a_layer() -> None:
    """A module outside every layer would escape the layers contract: none may."""
    layers = layer_names()

    def inside(module: str) -> bool:
        return any(module == layer or module.startswith(layer + ".") for layer in layers)

    outside = [m for m in modules() if m not in PACKAGES and not inside(m)]
    assert outside == [], f"place these in a layer package: {outside}"


def test_the_light_commands_import_no_sdk() -> None:
    """`--help` and a usage error import none of the heavy SDKs (they cost seconds)."""
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['vllm-report'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('bot', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('github', 'sqlalchemy', 'alembic', 'openai', 'discord', 'slack_sdk',\n"
        "         'slack_bolt', 'aiohttp', 'apscheduler', 'pydantic')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    for argv in (["--help"], ["show", "not-a-date"]):
        result = subprocess.run(
            [sys.executable, "-c", probe, *argv],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert result.stdout.strip().splitlines()[-1] == "[]", (argv, result.stdout)


def test_topics_imports_no_sdk_and_no_database() -> None:
    """Settings and topic rules load without PyGithub, SQLAlchemy, the model or chat SDKs."""
    probe = (
        "import sys\n"
        "from bot.cli import main\n"
        "main(['topics'])\n"
        "heavy = ('github', 'openai', 'discord', 'slack_sdk', 'slack_bolt', 'sqlalchemy')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout + result.stderr
