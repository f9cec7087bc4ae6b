"""A `radar:<plugin>` subscriber gets each warning once, and again only when its PR is
approved or merges: the daily runs of several days as the scheduler runs them, on the real
break the fake GitHub serves (tests/features/radar/predict_day.py), posted to the fake
Slack."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.fakes.github_api import FakeGitHub
from tests.features.radar.predict_day import (
    BREAK,
    DOCS,
    FAILING,
    LAYER,
    PLUGINS,
    approve,
    merge,
    now,
    predict_github,
    touch,
    window,
)


def posted(slack: Any, channel: str, since: int) -> list[tuple[str, str]]:
    """What `channel` got after the first `since` posts: (part, its text as a person reads
    it, rich_text's links and code in mrkdwn's notation)."""
    from tests.slack_text import message_text

    return [(p.part, message_text(p.payload)) for p in slack.channel_posts(channel)[since:]]


def test_a_subscriber_gets_each_warning_once_and_again_at_approval_and_merge(
    monkeypatch: pytest.MonkeyPatch, store_url: str, tmp_path: object
) -> None:
    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from bot.store import Store, Subscription
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack

    with predict_github() as github, FakeSlack() as slack:
        for name, value in {
            "DATABASE_URL": store_url,
            "VLLM_REPORT_DATA_DIR": str(tmp_path),
            "GITHUB_API_URL": github.url,
            "GITHUB_TOKEN": "ghp-test",
            "VLLM_REPORT_PLUGINS": PLUGINS,
            "VLLM_REPORT_GITHUB_REQUEST_INTERVAL": "0",
            "VLLM_REPORT_GITHUB_RETRIES": "1",
            "VLLM_REPORT_GITHUB_BACKOFF": "0",
            "VLLM_REPORT_CI_URL": "none",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
        }.items():
            monkeypatch.setenv(name, value)
        store = Store(store_url)
        store.subscriptions.add(
            Subscription("slack", "channel", "C7", "radar:tpu-inference", "U2"), now(0)
        )
        store.subscriptions.add(
            Subscription("slack", "channel", "C8", "radar:vllm-gaudi", "U3"), now(0)
        )
        store.close()

        def day(n: int, github: FakeGitHub = github) -> None:
            """Day n's daily run, two hours after the day ends."""
            for number in (BREAK, DOCS, FAILING, LAYER):
                if github.items[number].merged_at is None:
                    touch(github, number, n)
            settings = load_settings()
            bot = open_bot(settings, load_rules(None), clock=lambda: now(n))

            async def run() -> None:
                async with transports(settings) as opened:
                    await daily_job(bot, opened).post(window(n))

            try:
                asyncio.run(run())
            finally:
                bot.close()

        day(0)
        first = posted(slack, "C7", 0)
        day(1)  # still open, not pushed, not approved: the post says it, the digest does not
        second = posted(slack, "C7", len(first))
        channel = posted(slack, "C1", 0)
        approve(github, BREAK, 2)
        day(2)
        approved = posted(slack, "C7", len(first))
        day(3)
        after = posted(slack, "C7", len(first) + len(approved))
        merge(github, BREAK, 4)
        day(4)
        merged = posted(slack, "C7", len(first) + len(approved))
        gaudi = posted(slack, "C8", 0)

    assert [part for part, _ in first] == ["headline", "plugins"]
    plugins = dict(first)["plugins"]
    assert (
        "<https://github.com/vllm-project/vllm/pull/41001|vllm#41001> (open) removes "
        "`SharedFusedMoE`, used at 5 places in tpu-inference "
        "(`tpu_inference/layers/vllm/custom_ops/fused_moe.py:16`"
    ) in plugins
    assert "`tests/layers/vllm/test_unquantized.py:500`" in plugins
    assert "2 upstream PRs will break tpu-inference" in dict(first)["headline"]
    assert f"vllm#{LAYER}>" in plugins
    # Day 1: the channel's daily post warns again (it tells the day); the subscriber had it.
    assert second == []
    days_with_warning = [
        text for part, text in channel if part == "plugins" and "vllm#41001" in text
    ]
    assert len(days_with_warning) == 2
    # Approved: sent again once, said so; not again the day after.
    assert [part for part, _ in approved] == ["headline", "plugins"]
    assert "vllm#41001> (open, approved) removes `SharedFusedMoE`" in dict(approved)["plugins"]
    assert f"vllm#{LAYER}>" not in dict(approved)["plugins"]  # not approved: sent already
    assert after == []
    # Merged: once more.
    assert [part for part, _ in merged] == ["headline", "plugins"]
    assert "vllm#41001> (merged) removes `SharedFusedMoE`" in dict(merged)["plugins"]
    # vllm-gaudi's source could not be read on any day: no warning, so no message (the
    # daily post says it was not evaluated).
    assert gaudi == []
    assert any(
        "vllm-gaudi's source (not found)" in text for part, text in channel if part == "plugins"
    )
