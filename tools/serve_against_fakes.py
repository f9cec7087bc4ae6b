"""Run `vllm-report serve` against the fakes and print what an operator sees.

The fake GitHub serves the real activity of 2026-03-25 (tests/data) moved to yesterday, so
the start-up catch-up collects and posts a real day; fake Slack (HTTP mode) and Discord (the
interactions endpoint) receive the posts; a signed `/vllm-report` command is sent; then
`/healthz` and `/metrics` are read and the process is stopped with SIGTERM.

    python tools/serve_against_fakes.py [--lines 15] [--json]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import REPO, anchor_days, anchor_items  # noqa: E402
from tests.fakes.discord_api import FakeDiscord  # noqa: E402
from tests.fakes.github_api import FakeGitHub  # noqa: E402
from tests.fakes.slack_api import FakeSlack, signed_command  # noqa: E402

SIGNING = "example-signing-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=15, help="log lines to print")
    parser.add_argument("--json", action="store_true", help="VLLM_REPORT_LOG_FORMAT=json")
    args = parser.parse_args()
    day = anchor_days()[2]
    zone = ZoneInfo("Asia/Shanghai")
    yesterday = datetime.now(UTC).astimezone(zone).date() - timedelta(days=1)
    shift = timedelta(days=(yesterday - day.start.astimezone(zone).date()).days)
    items = [
        replace(
            it,
            created_at=it.created_at + shift,
            updated_at=it.updated_at + shift,
            closed_at=it.closed_at + shift if it.closed_at else None,
            merged_at=it.merged_at + shift if it.merged_at else None,
        )
        for it in anchor_items()
    ]
    ports = {"http": free_port(), "slack": free_port(), "discord": free_port()}
    with (
        FakeGitHub(REPO, items) as github,
        FakeSlack() as slack,
        FakeDiscord() as discord,
        tempfile.TemporaryDirectory() as data,
    ):
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_"))
        }
        env.update(
            PYTHONPATH=str(ROOT),
            GITHUB_API_URL=github.url,
            VLLM_REPORT_DATA_DIR=data,
            VLLM_REPORT_CUTOFF=day.cutoff,
            VLLM_REPORT_CATCH_UP_DAYS="2",
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_HTTP_PORT=str(ports["http"]),
            VLLM_REPORT_SITE_URL="https://reports.example.org/vllm",
            SLACK_BOT_TOKEN="xoxb-example",
            SLACK_SIGNING_SECRET=SIGNING,
            SLACK_API_URL=slack.api_url,
            SLACK_CHANNELS="C0123ABCD",
            SLACK_PORT=str(ports["slack"]),
            VLLM_REPORT_SLACK_POST_INTERVAL="0",
            DISCORD_BOT_TOKEN="discord-example",
            DISCORD_API_URL=discord.api_url,
            DISCORD_CHANNELS="123456789012345678",
            DISCORD_PUBLIC_KEY="ab" * 32,
            DISCORD_INTERACTIONS_PORT=str(ports["discord"]),
        )
        if args.json:
            env["VLLM_REPORT_LOG_FORMAT"] = "json"
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve"],
            env=env,
            cwd=data,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        lines: list[str] = []

        def until(words: str, limit: float = 300) -> None:
            deadline = time.monotonic() + limit
            while not any(words in line for line in lines) and time.monotonic() < deadline:
                line = process.stderr.readline()  # type: ignore[union-attr]
                if not line:
                    break
                lines.append(line.rstrip("\n"))

        until("posted " + yesterday.isoformat() + " to discord")
        body, headers = signed_command(slack, "/vllm-report", yesterday.isoformat(), SIGNING)
        request = urllib.request.Request(
            f"http://127.0.0.1:{ports['slack']}/slack/events", body.encode(), headers
        )
        urllib.request.urlopen(request, timeout=30).close()
        until("answered /vllm-report")
        base = f"http://127.0.0.1:{ports['http']}"
        with urllib.request.urlopen(base + "/healthz", timeout=10) as answer:
            health = f"GET /healthz → {answer.status} {answer.read().decode()}"
        with urllib.request.urlopen(base + "/metrics", timeout=10) as answer:
            metrics = [
                line
                for line in answer.read().decode().splitlines()
                if line.startswith(("vllm_report_posts_total", "vllm_report_github_rate"))
            ]
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)[1], None
        lines += (rest or "").splitlines()
    print("\n".join(lines[: args.lines]))
    print()
    print(health)
    print("GET /metrics (some lines):")
    print("\n".join(metrics))
    print(f"exit status {process.returncode}")


if __name__ == "__main__":
    main()
