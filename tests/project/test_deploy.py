"""Deployment files, checked without a Docker engine: the Dockerfile's shape, the lock, the
compose file, `.env.example` read the way `.env` loading and `docker --env-file` read it,
every setting they name known to Settings and docs/settings.md, and the image's entrypoint and
HEALTHCHECK run against a real `serve` process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
import yaml
from dotenv import dotenv_values

from config.settings import Settings, load_settings
from tests.service.test_serve import free_port

ROOT = Path(__file__).resolve().parents[2]
SETTING = re.compile(r"^#?\s*([A-Z][A-Z0-9_]+)=(.*)$")


def setting_names() -> set[str]:
    """Every environment name Settings reads."""
    names = set()
    for name, info in Settings.model_fields.items():
        alias = info.validation_alias
        choices = getattr(alias, "choices", None)
        names.add(str(choices[0]).upper() if choices else f"VLLM_REPORT_{name.upper()}")
    return names


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            rows.append((word.upper(), rest.strip()))
    return rows


def example_lines() -> dict[str, str]:
    """`.env.example`'s settings, commented or not, read as docker --env-file reads a line:
    NAME=value, the value taken literally to the end of the line."""
    found = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        match = SETTING.match(line.strip())
        if match:
            found[match.group(1)] = match.group(2)
    return found


def test_the_image_is_multi_stage_locked_unprivileged_and_checked() -> None:
    rows = dockerfile()
    stages = [args for word, args in rows if word == "FROM"]
    assert len(stages) >= 2, "a build stage and a run stage"
    order = [f"{word} {args}" for word, args in rows]
    lock_install = next(i for i, r in enumerate(order) if "--require-hashes" in r)
    code_copy = next(i for i, r in enumerate(order) if r.startswith("COPY bot"))
    assert lock_install < code_copy, "dependencies in a layer of their own, before the code"
    assert "requirements.lock" in order[lock_install]
    users = [args for word, args in rows if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert ("VOLUME", '["/data"]') in rows
    env = " ".join(args for word, args in rows if word == "ENV")
    port = re.search(r"VLLM_REPORT_HTTP_PORT=(\d+)", env)
    assert port is not None and ("EXPOSE", port.group(1)) in rows
    assert "VLLM_REPORT_DATA_DIR=/data" in env and "VLLM_REPORT_HTTP_HOST=0.0.0.0" in env
    check = next(args for word, args in rows if word == "HEALTHCHECK")
    assert "/healthz" in check
    assert ("ENTRYPOINT", '["vllm-report"]') in rows


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    pinned = {
        re.sub(r"[-_.]+", "-", m.group(1)).lower()
        for m in re.finditer(r"^([A-Za-z0-9_.-]+)==\S+ \\$", lock, re.M)
    }
    for requirement in project["dependencies"]:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=\[ ]", requirement, maxsplit=1)[0]).lower()
        assert name in pinned, f"{name} is not pinned in requirements.lock"
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", lock.split("\n\n", 1)[-1])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
    assert "file://" not in lock and "--index-url" not in lock


def test_compose_runs_the_bot_with_postgresql_on_known_settings() -> None:
    """The bot, built here, on the db service once it is healthy, with known settings (how
    its store defaults to that database: test_docker_files.py)."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    assert bot["build"] == "." and bot["env_file"] == ".env"
    assert set(bot["environment"]) <= setting_names()
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert "healthcheck" in db and db["image"].startswith("postgres:")
    assert {v.split(":")[0] for v in bot["volumes"]} <= set(compose["volumes"])
    # The values compose sets are valid settings.
    for name, value in bot["environment"].items():
        if name.startswith("VLLM_REPORT_") and name != "VLLM_REPORT_DATA_DIR":
            load_settings(**{name.removeprefix("VLLM_REPORT_").lower(): value})


def test_the_build_context_leaves_out_local_state_and_secrets() -> None:
    """No virtualenv, git history, caches or `.env` (tokens) go to the Docker daemon, and
    the licence pyproject names is there."""
    ignored = set((ROOT / ".dockerignore").read_text(encoding="utf-8").split())
    assert {".env", ".venv", ".git", "*.sqlite3"} <= ignored
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8")[:200]


def test_env_example_reads_the_same_for_dotenv_and_docker(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No inline comment, no quote, no ~ (docker --env-file takes a value literally), every
    name a setting docs/settings.md documents; uncommented, the file loads as `.env` with each
    value exactly as Docker would pass it."""
    lines = example_lines()
    readme = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert set(lines) <= setting_names()
    for name, value in lines.items():
        assert " #" not in value and "\t#" not in value, name
        assert not value.startswith(("'", '"', "~")) and "~/" not in value, name
        assert f"`{name}`" in readme, f"{name} is not in docs/settings.md"
    uncommented = "\n".join(f"{name}={value}" for name, value in lines.items())
    (clean_env / ".env").write_text(uncommented + "\n", encoding="utf-8")
    monkeypatch.delenv("VLLM_REPORT_DATA_DIR")
    assert dotenv_values(clean_env / ".env") == lines
    settings = load_settings()
    assert settings.repo == lines["VLLM_REPORT_REPO"] and settings.lang == lines["VLLM_REPORT_LANG"]
    assert str(settings.data_dir) == lines["VLLM_REPORT_DATA_DIR"]
    assert settings.llm_api_key is None  # LLM_API_KEY= means "not set"


def test_every_setting_is_in_the_settings_doc() -> None:
    readme = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    internal = {  # tuning knobs tests and benchmarks turn; documented in config/settings.py
        "VLLM_REPORT_GITHUB_TIMEOUT",
        "VLLM_REPORT_GITHUB_BACKOFF",
        "VLLM_REPORT_GITHUB_SECONDARY_RATE_WAIT",
        "VLLM_REPORT_SLACK_POST_INTERVAL",
        "VLLM_REPORT_COMMAND_LIMIT_PER_MINUTE",
    }
    missing = sorted(n for n in setting_names() - internal if f"`{n}`" not in readme)
    assert missing == []


def test_the_entrypoint_starts_and_the_healthcheck_passes(clean_env: Path) -> None:
    """The image's command (`vllm-report serve`, archive-only, HTTP on) starts, and the
    Dockerfile's own HEALTHCHECK command, run as written, passes against it."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "VLLM_REPORT_HTTP_PORT": str(port),
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "GITHUB_API_URL": "http://127.0.0.1:9",
    }
    check = json.loads(
        next(args for word, args in dockerfile() if word == "HEALTHCHECK").split("CMD ", 1)[1]
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve"],
        cwd=clean_env,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        status = None
        while status != 200 and time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    status = r.status
            except OSError:
                time.sleep(0.2)
        assert status == 200
        checked = subprocess.run(
            [sys.executable if check[0] == "python" else check[0], *check[1:]],
            env=env,
            capture_output=True,
            timeout=30,
            check=False,
        )
        assert checked.returncode == 0, checked.stderr
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert "started:" in err and "archive only" in err and "Traceback" not in err
