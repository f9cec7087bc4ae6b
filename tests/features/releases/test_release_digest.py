"""A `releases` subscriber, as a channel meets it: subscribed by `/vllm-subscribe releases`,
it gets nothing on a day no release came out, and after the daily run of the day one was
published, one digest of the work merged since the release before it (titled with both
tags), once, however often the run is repeated.

The release times are the test's own (not vLLM's real publication times); the items are the
real anchor days'."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack

CST = ZoneInfo("Asia/Shanghai")
V17 = datetime(2026, 3, 24, 4, 30, tzinfo=UTC)  # 12:30 in Shanghai, in the 03-24 window
V18 = datetime(2026, 3, 25, 6, 0, tzinfo=UTC)  # 14:00 in Shanghai, in the 03-25 window


@pytest.fixture
def slack(
    fake_github: FakeGitHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FakeSlack]:
    fake_github.releases = [
        ("v0.17.0", V17, False, False),
        ("v0.18.0rc1", datetime(2026, 3, 25, 1, 0, tzinfo=UTC), True, False),
        ("v0.18.0", V18, False, False),
    ]
    with FakeSlack() as fake:
        for name, value in {
            "VLLM_REPORT_DATA_DIR": str(tmp_path),
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": fake.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "VLLM_REPORT_PLUGINS": "none",
            "VLLM_REPORT_CI_URL": "none",
            "VLLM_REPORT_CUTOFF": "11:45",
        }.items():
            monkeypatch.setenv(name, value)
        yield fake


def run_day(label: str, subscribe: bool = False) -> None:
    from bot.app import commands, daily_job, open_bot, transports
    from bot.commands.base import Asker
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from config.settings import load_settings

    async def manages() -> bool:
        return True

    settings = load_settings()
    clock = lambda: datetime(2026, 3, 27, 4, 0, tzinfo=UTC)  # noqa: E731 - after the days
    opened = open_bot(settings, load_rules(None), clock=clock)
    try:
        if subscribe:
            table = commands(opened)
            command = table.table["vllm-subscribe"]
            said = asyncio.run(
                table.answer(
                    command,
                    Asker("slack", "U1", "C2", may_manage=manages),
                    table.read(command, "releases"),
                )
            )
            assert said.text == (  # type: ignore[attr-defined]
                "this channel will get the release digest after each daily report"
            )
        window = day_window(date.fromisoformat(label), CST, time(11, 45))

        async def post() -> None:
            async with transports(settings) as chat:
                await daily_job(opened, chat).post(window)

        asyncio.run(post())
    finally:
        opened.close()


def test_a_release_day_sends_its_digest_once_and_another_day_nothing(slack: FakeSlack) -> None:
    assert {"2026-03-24", "2026-03-25"} <= {d.label for d in anchor_days()}
    run_day("2026-03-24", subscribe=True)  # v0.17.0 came out that day, but none before it
    assert slack.channel_posts("C2") == []
    run_day("2026-03-25")
    digest = slack.channel_posts("C2")
    text = json.dumps([p.payload for p in digest], ensure_ascii=False)
    assert "vLLM report · v0.17.0..v0.18.0" in text
    assert "daily report" not in text and "The day's" not in text
    assert "The weightiest work: " in text  # a window between releases is no day
    assert len({p.part for p in digest}) == len(digest)  # each part once
    run_day("2026-03-25")  # the run again: nothing twice
    assert len(slack.channel_posts("C2")) == len(digest)


def test_a_release_after_a_long_pause_sends_no_year_s_report(
    slack: FakeSlack, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The release before v0.18.0 came out a year earlier: the digest would be a year's
    report, longer than any command may ask (VLLM_REPORT_MAX_RANGE_DAYS), so none is sent
    and the daily post still goes out."""
    fake_github.releases = [
        ("v0.17.0", datetime(2025, 3, 20, 4, 30, tzinfo=UTC), False, False),
        ("v0.18.0", V18, False, False),
    ]
    run_day("2026-03-25", subscribe=True)
    assert slack.channel_posts("C2") == []
    assert slack.channel_posts("C1")  # the day's post went out
