"""`serve` against the fakes, as an operator sees it: one log line per event (started, each
sync, each post per destination, each command with its latency, the site rebuilt), `/healthz`
and `/metrics` on the HTTP port, the day's page in place before the post links it, no secret
in any line — and a failing run told in one sentence and answered by 503."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import open_bot, serve
from bot.model.rules import load_rules
from bot.observe.logs import setup_logging
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub, Fault
from tests.fakes.slack_api import FakeSlack, signed_command

RULES = load_rules()
DAY = anchor_days()[2]  # 2026-03-25, cutoff 11:43
NOW = DAY.end + timedelta(hours=1)  # 2026-03-26 12:43 in Shanghai: 2026-03-25 is due
SIGNING = "CANARYsigning0123456789abcdef"
SLACK_TOKEN = "xoxb-CANARY-slack-0123456789"
DISCORD_TOKEN = "CANARY.discord.0123456789"
PUBLIC_KEY = "ab" * 32


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def chat(
    monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, store_url: str
) -> Iterator[tuple[FakeSlack, FakeDiscord, dict[str, int]]]:
    """Fake Slack (HTTP mode) and Discord (interactions endpoint, no gateway), the store on
    each backend, and the ports of the bot's own servers."""
    ports = {"http": free_port(), "slack": free_port(), "discord": free_port()}
    with FakeSlack() as slack, FakeDiscord() as discord:
        for name, value in {
            "DATABASE_URL": store_url,
            "SLACK_BOT_TOKEN": SLACK_TOKEN,
            "SLACK_SIGNING_SECRET": SIGNING,
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "SLACK_PORT": str(ports["slack"]),
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "DISCORD_BOT_TOKEN": DISCORD_TOKEN,
            "DISCORD_API_URL": discord.api_url,
            "DISCORD_CHANNELS": "111",
            "DISCORD_PUBLIC_KEY": PUBLIC_KEY,
            "DISCORD_INTERACTIONS_PORT": str(ports["discord"]),
            "VLLM_REPORT_CUTOFF": DAY.cutoff,
            "VLLM_REPORT_CATCH_UP_DAYS": "1",
            "VLLM_REPORT_HTTP_PORT": str(ports["http"]),
            "VLLM_REPORT_SITE_URL": "https://reports.example.org/vllm",
        }.items():
            monkeypatch.setenv(name, value)
        yield slack, discord, ports


Scenario = Callable[[io.StringIO, dict[str, int]], Awaitable[None]]


def run_serve(scenario: Scenario, ports: dict[str, int], fmt: str = "text") -> str:
    """`serve` in this process with the report clock at NOW; `scenario` runs beside it and
    the server stops when it returns. The log, as the operator's terminal shows it."""
    settings = load_settings()
    bot = open_bot(settings, RULES, clock=lambda: NOW)
    stream = io.StringIO()
    handler = setup_logging(0, fmt, settings.secrets(), floor=logging.INFO, stream=stream)

    async def main() -> None:
        stop = asyncio.Event()
        server = asyncio.create_task(serve(bot, stop))
        try:
            await asyncio.wait_for(scenario(stream, ports), 120)
        finally:
            stop.set()
            await asyncio.wait_for(server, 60)

    try:
        asyncio.run(main())
    finally:
        logging.getLogger().removeHandler(handler)
        bot.close()
    return stream.getvalue()


async def said(stream: io.StringIO, pattern: str) -> None:
    """Wait until the log holds a line matching `pattern` (polling the log, not sleeping for
    an ordering: the line is what is waited for)."""
    while not re.search(pattern, stream.getvalue()):
        await asyncio.sleep(0.05)


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


def test_serve_tells_each_event_and_serves_health_metrics_and_the_page(
    chat: tuple[FakeSlack, FakeDiscord, dict[str, int]],
) -> None:
    slack, discord, ports = chat
    seen: dict[str, Any] = {}

    async def scenario(stream: io.StringIO, ports: dict[str, int]) -> None:
        base = f"http://127.0.0.1:{ports['http']}"
        await said(stream, r"posted 2026-03-25 to discord:111")
        seen["health"] = await get(base + "/healthz")
        seen["page"] = await get(base + "/2026-03-25/")
        body, headers = signed_command(slack, "/vllm-report", DAY.label, SIGNING)
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{ports['slack']}/slack/events"
            async with http.post(url, data=body, headers=headers) as response:
                seen["ack"] = response.status
        await said(stream, r"answered /vllm-report")
        seen["metrics"] = await get(base + "/metrics")

    log = run_serve(scenario, ports)
    lines = log.splitlines()
    started = next(line for line in lines if "started:" in line)
    assert "Slack (HTTP mode on :" in started and "Discord (interactions on :" in started
    assert "posting to slack:C1, discord:111" in started
    assert "next run 2026-03-27 11:58 Asia/Shanghai (report day 2026-03-26)" in started
    assert re.search(r"store (sqlite:///\S+|postgresql\+psycopg://postgres:\*\*\*@\S+);", started)
    sync = next(line for line in lines if "synced 2026-03-25" in line)
    assert re.search(r"synced 2026-03-25: \d+ GitHub requests, \d{3} items", sync), sync
    assert "rate limit: 4999 left" in sync
    site = next(i for i, line in enumerate(lines) if "report site" in line)
    posted = next(i for i, line in enumerate(lines) if "posted 2026-03-25 to slack:C1" in line)
    assert site < posted  # the page exists before the post that links it
    assert re.search(r"posted 2026-03-25 to slack:C1: [1-6] messages sent, 0 already there", log)
    answered = r"answered /vllm-report 2026-03-25 for slack:U1 with the 2026-03-25 report in "
    assert re.search(answered, log)
    assert "stopped" in lines[-1]
    # Health and metrics while running, and the day's page the post links to.
    status, _, text = seen["health"]
    assert status == 200 and json.loads(text)["last_run"] == "2026-03-25"
    status, content_type, metrics = seen["metrics"]
    assert status == 200 and content_type.startswith("text/plain")
    sent = len(slack.channel_posts("C1"))
    assert (
        f'vllm_report_posts_total{{destination="slack:C1",outcome="sent",platform="slack"}} '
        f"{float(sent)}" in metrics
    )
    assert re.search(r"^vllm_report_last_post_timestamp_seconds 1\.\d+e\+09$", metrics, re.M)
    assert re.search(r"^vllm_report_last_sync_timestamp_seconds 1\.\d+e\+09$", metrics, re.M)
    assert 'vllm_report_github_rate_limit_remaining{resource="core"} 4999.0' in metrics
    assert re.search(r"^vllm_report_report_build_seconds_count 1\.0$", metrics, re.M)
    assert 'vllm_report_command_latency_seconds_count{command="vllm-report"} 1.0' in metrics
    assert seen["page"][0] == 200 and "2026-03-25" in seen["page"][2]
    assert seen["ack"] == 200
    assert len(discord.in_channel("111")) >= 1
    for secret in (SIGNING, SLACK_TOKEN, DISCORD_TOKEN):
        assert secret not in log


def test_a_failing_run_is_one_sentence_and_makes_healthz_503(
    chat: tuple[FakeSlack, FakeDiscord, dict[str, int]],
    fake_github: FakeGitHub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GitHub down for the catch-up: one WARNING line saying what failed and what to do (not
    dropped by the task gathering), /healthz 503 naming the reason; JSON lines on request."""
    _, _, ports = chat
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    fake_github.fault_rule = lambda index, path: Fault.server_error(502)
    seen: dict[str, Any] = {}

    async def scenario(stream: io.StringIO, ports: dict[str, int]) -> None:
        await said(stream, r"run-failed")
        seen["health"] = await get(f"http://127.0.0.1:{ports['http']}/healthz")

    log = run_serve(scenario, ports, fmt="json")
    records = [json.loads(line) for line in log.splitlines()]
    failed = [r for r in records if r.get("event") == "run-failed"]
    assert len(failed) == 1 and failed[0]["level"] == "warning"
    assert "the 2026-03-25 run failed: GitHub" in failed[0]["message"]
    assert "try again later" in failed[0]["message"]
    assert "Traceback" not in log and "traceback" not in failed[0]
    status, _, text = seen["health"]
    body = json.loads(text)
    assert status == 503 and body["status"] == "failing" and "GitHub" in body["reason"]
    assert {r.get("event") for r in records} >= {"started", "catch-up", "run-failed", "stopped"}


def test_half_configured_slack_says_commands_are_off(
    monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, store_url: str
) -> None:
    """A bot token without SLACK_APP_TOKEN or SLACK_SIGNING_SECRET: posts would go out, and
    start-up says in one line that slash commands are off and what to set."""
    ports = {"http": free_port()}
    for name, value in {
        "DATABASE_URL": store_url,
        "SLACK_BOT_TOKEN": SLACK_TOKEN,
        "SLACK_API_URL": "http://127.0.0.1:9/api/",
        "SLACK_CHANNELS": "C1",
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "VLLM_REPORT_HTTP_PORT": str(ports["http"]),
    }.items():
        monkeypatch.setenv(name, value)

    async def scenario(stream: io.StringIO, ports: dict[str, int]) -> None:
        await said(stream, r"slash commands are off")

    log = run_serve(scenario, ports)
    warning = next(line for line in log.splitlines() if "slash commands are off" in line)
    assert " WARNING " in warning and "SLACK_APP_TOKEN" in warning
    assert "SLACK_SIGNING_SECRET" in warning
    assert "Slack (posting only, commands off)" in log
    assert SLACK_TOKEN not in log


def test_an_unwritable_archive_fails_the_run_in_one_sentence(
    fake_github: FakeGitHub,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The catch-up's archive write fails: `attempt` tells it in one WARNING line (what and
    what to do), records it for /healthz, and never raises into the task that ran it."""
    from bot.app import daily_job
    from bot.service.health import RunHealth
    from bot.service.run_observer import JobObserver

    data = tmp_path / "blocked"
    data.mkdir()
    (data / "archive").write_text("a file where the archive folder should be\n")
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(data))
    monkeypatch.setenv("DATABASE_URL", store_url)
    monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
    monkeypatch.setenv("VLLM_REPORT_CATCH_UP_DAYS", "1")
    settings = load_settings()
    bot = open_bot(settings, RULES, clock=lambda: NOW)
    health = RunHealth(NOW, lambda: NOW)
    job = daily_job(bot, {}, JobObserver(health=health))
    caplog.set_level(logging.INFO)
    try:
        results = asyncio.run(job.catch_up())
    finally:
        bot.close()
    assert [r.complete for r in results] == [False]
    failed = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(failed) == 1 and failed[0].exc_info is None
    assert "the 2026-03-25 run failed: cannot write" in failed[0].getMessage()
    assert "VLLM_REPORT_DATA_DIR" in failed[0].getMessage()
    ok, facts = health.check(NOW)
    assert ok is False and "cannot write" in facts["reason"]
