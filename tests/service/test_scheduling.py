"""The daily job: its schedule, a scheduled run through APScheduler, start-up catch-up."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from datetime import time as time_of_day
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.app import daily_job, open_bot, transports
from bot.model.rules import load_rules
from bot.service.scheduling import (
    JOB_ID,
    MISFIRE_GRACE_SECONDS,
    RETRY_JOB_ID,
    build_scheduler,
    post_time,
)
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack

RULES = load_rules()
CST = ZoneInfo("Asia/Shanghai")
DAY = anchor_days()[2]  # 2026-03-25, cutoff 11:43
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def slack(monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub) -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", fake.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        monkeypatch.setenv("VLLM_REPORT_SLACK_POST_INTERVAL", "0")
        monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
        yield fake


def test_the_job_runs_after_the_cutoff_and_survives_a_late_start() -> None:
    """Cron at cutoff + delay in the report zone; coalesced, one at a time, hours of grace."""

    async def scenario() -> tuple[object, ...]:
        async def job() -> None:
            return None

        scheduler = build_scheduler(CST, post_time(time_of_day(11, 45), 15), 0, job, retry=job)
        scheduler.start(paused=True)
        found = scheduler.get_job(JOB_ID)
        retry = scheduler.get_job(RETRY_JOB_ID)
        assert "interval[0:01:00]" in str(retry.trigger) and retry.max_instances == 1
        result = (
            str(found.trigger),
            found.coalesce,
            found.max_instances,
            found.misfire_grace_time,
            str(scheduler.timezone),
        )
        scheduler.shutdown(wait=False)
        return result

    trigger, coalesce, instances, grace, zone = asyncio.run(scenario())
    assert "hour='12', minute='0'" in trigger  # 11:45 + 15 minutes
    assert (coalesce, instances, grace, zone) == (True, 1, MISFIRE_GRACE_SECONDS, "Asia/Shanghai")
    assert grace >= 3600


def clock_at(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def test_a_scheduled_run_delivers_the_last_complete_window(slack: FakeSlack) -> None:
    """APScheduler fires the job; the last complete window goes out once, thread first."""
    settings = load_settings()
    now = DAY.end + timedelta(minutes=20)  # 2026-03-26 12:03 in Shanghai

    async def scenario() -> None:
        bot = open_bot(settings, RULES, clock_at(now))
        async with transports(settings) as opened:
            poster = daily_job(bot, opened)
            done = asyncio.Event()

            async def job() -> None:
                await poster.run()
                done.set()

            scheduler = build_scheduler(settings.tz, settings.cutoff_time, 15, job)
            scheduler.start()
            scheduler.get_job(JOB_ID).modify(next_run_time=datetime.now(UTC))
            await asyncio.wait_for(done.wait(), 60)
            scheduler.shutdown(wait=False)
            await poster.run()  # a second run the same day: nothing new
        bot.close()

    asyncio.run(scenario())
    posts = slack.channel_posts("C1")
    assert posts[0].payload["metadata"]["event_payload"]["window"] == DAY.label
    parts = [p.part for p in posts]
    assert len(parts) == len(set(parts))


def test_catch_up_posts_missed_days_oldest_first_and_skips_delivered_ones(
    slack: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Down for days: the missed windows (within the setting) go out in order, once."""
    monkeypatch.setenv("VLLM_REPORT_CATCH_UP_DAYS", "3")
    settings = load_settings()
    now = DAY.end + timedelta(hours=2)

    async def scenario() -> list[str]:
        bot = open_bot(settings, RULES, clock_at(now))
        async with transports(settings) as opened:
            poster = daily_job(bot, opened)
            await poster.post(poster.last_complete_window(now))  # the newest went out
            before = len(slack.posted)
            results = await poster.catch_up()
            again = await poster.catch_up()
            assert again == []
            assert all(
                DAY.label not in p.payload["files"][0]["name"]
                if p.payload.get("files")
                else p.payload["metadata"]["event_payload"]["window"] != DAY.label
                for p in slack.posted[before:]
            )
        bot.close()
        return [r.window for r in results]

    assert asyncio.run(scenario()) == ["2026-03-23", "2026-03-24"]
    headlines = [
        p.payload["metadata"]["event_payload"]["window"]
        for p in slack.posted
        if p.thread_ts is None
    ]
    assert headlines == ["2026-03-25", "2026-03-23", "2026-03-24"]


def test_serve_without_chat_tokens_runs_and_stops_cleanly(clean_env: Path) -> None:
    """`python -m bot serve` with no tokens: the scheduler alone; SIGTERM ends it with 0."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "GITHUB_API_URL": "http://127.0.0.1:9",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "-v", "serve"],
        cwd=clean_env,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    log = ""
    while "started:" not in log and time.monotonic() < deadline:
        time.sleep(0.5)
        if process.poll() is not None:
            break
        log += os.read(process.stderr.fileno(), 65536).decode()  # type: ignore[union-attr]
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=30)
    assert "started:" in log + rest
    assert "archive only" in log + rest
    assert process.returncode == 0


def test_serve_keeps_running_when_discord_is_unreachable(clean_env: Path) -> None:
    """Discord's API down at start-up: logged and retried; the process lives on, stops with 0."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "GITHUB_API_URL": "http://127.0.0.1:9",
        "DISCORD_BOT_TOKEN": "discord-test-token",
        "DISCORD_API_URL": "http://127.0.0.1:9/api/v10",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "-v", "serve"],
        cwd=clean_env,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    log = ""
    while "Discord gateway stopped" not in log and time.monotonic() < deadline:
        time.sleep(0.5)
        if process.poll() is not None:
            break
        log += os.read(process.stderr.fileno(), 65536).decode()  # type: ignore[union-attr]
    alive = process.poll() is None
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=30)
    assert "Discord gateway stopped" in log + rest
    assert alive and process.returncode == 0
    assert "Traceback" not in log + rest


def test_a_day_that_failed_is_retried_until_posted(
    slack: FakeSlack, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitHub down at the due time: the run fails, /healthz says so, and the retry (with
    backoff: not before 5 minutes, then 10) posts the day once GitHub is back."""
    from bot.service.health import RunHealth
    from bot.service.run_observer import JobObserver
    from tests.fakes.github_api import Fault

    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    monkeypatch.setenv("VLLM_REPORT_CATCH_UP_DAYS", "1")
    settings = load_settings()
    now = [DAY.end + timedelta(minutes=20)]

    def clock() -> datetime:
        return now[0]

    health = RunHealth(now[0], lambda: now[0], leading=lambda: True)

    async def scenario() -> tuple[list[bool], list[str]]:
        bot = open_bot(settings, RULES, clock)
        healthy = []
        async with transports(settings) as opened:
            job = daily_job(bot, opened, JobObserver(health=health))
            fake_github.fault_rule = lambda index, path: Fault.server_error(502)
            failed = await job.run()
            assert not failed.complete
            healthy.append(health.check(now[0])[0])
            now[0] += timedelta(minutes=4)
            assert await job.retry() == []  # not due yet: no request to GitHub
            now[0] += timedelta(minutes=2)
            again = await job.retry()  # due, GitHub still down: the next in 10 minutes
            assert [r.complete for r in again] == [False]
            assert job.retry_at == now[0] + timedelta(minutes=10)
            fake_github.fault_rule = None
            now[0] += timedelta(minutes=10)
            posted = await job.retry()
            healthy.append(health.check(now[0])[0])
            assert await job.retry() == [] and job.retry_at is None
        bot.close()
        return healthy, [r.window for r in posted]

    healthy, posted = asyncio.run(scenario())
    assert healthy == [False, True]
    assert posted == [DAY.label]
    headlines = [p for p in slack.channel_posts("C1") if p.thread_ts is None]
    assert len(headlines) == 1


def test_serve_on_a_taken_http_port_stops_and_says_so(clean_env: Path) -> None:
    """A second `serve` on the same port would run on with /healthz off (and the health
    check failing): it stops with status 1 and one sentence instead."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "VLLM_REPORT_CATCH_UP_DAYS": "0",
            "GITHUB_API_URL": "http://127.0.0.1:9",
            "VLLM_REPORT_HTTP_PORT": str(port),
        }
        done = subprocess.run(
            [sys.executable, "-m", "bot", "serve"],
            cwd=clean_env,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
