"""The 👍 / 👎 pair as readers see it: under each section reply of the daily post when
VLLM_REPORT_FEEDBACK is on (never under the headline, never in a digest, never when off),
within each platform's limits, and a press of the very button posted is counted."""

from __future__ import annotations

import asyncio
import json
from datetime import date, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.features.feedback.press import buttons
from bot.model.buttons import Button
from formatters.buttons import SLACK_BLOCKS, discord_buttons, slack_buttons
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack

CST = ZoneInfo("Asia/Shanghai")


def post_day(slack: FakeSlack, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, on: bool) -> None:
    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from config.settings import load_settings

    for name, value in {
        "VLLM_REPORT_DATA_DIR": str(tmp_path),
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": slack.api_url,
        "SLACK_CHANNELS": "C1",
        "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
        "VLLM_REPORT_PLUGINS": "none",
        "VLLM_REPORT_CI_URL": "none",
        "VLLM_REPORT_FEEDBACK": "true" if on else "false",
    }.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    opened = open_bot(settings, load_rules(None))
    try:
        from bot.store import Subscription

        at = opened.reports.clock()
        opened.store.subscriptions.add(Subscription("slack", "channel", "C2", "amd", "U7"), at)

        async def post() -> None:
            async with transports(settings) as chat:
                window = day_window(date(2026, 3, 25), CST, time(11, 45))
                await daily_job(opened, chat).post(window)

        asyncio.run(post())
    finally:
        opened.close()


def actions(payload: dict) -> list[dict]:
    return [b for b in payload.get("blocks", []) if b.get("type") == "actions"]


def test_each_section_reply_has_the_pair_and_a_press_of_it_counts(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with FakeSlack() as slack:
        post_day(slack, monkeypatch, tmp_path, on=True)
        posts = slack.channel_posts("C1")
        digest = slack.channel_posts("C2")
    assert digest and not any(actions(p.payload) for p in digest)  # a topic's digest: none
    assert posts[0].part == "headline" and actions(posts[0].payload) == []
    sections = [
        p
        for p in posts[1:]
        if p.part not in ("chart", "picture") and not p.part.startswith("file:")
    ]
    assert len(sections) >= 3
    for post in sections:
        (row,) = actions(post.payload)
        assert [e["action_id"] for e in row["elements"]] == [
            "vr.feedback.useful",
            "vr.feedback.not",
        ]
        assert {e["value"] for e in row["elements"]} == {f"2026-03-25|{post.part}"}
        assert len(post.payload["blocks"]) <= SLACK_BLOCKS
    pressed = actions(sections[0].payload)[0]["elements"][0]

    from bot.app import commands, open_bot
    from bot.commands.base import Asker
    from bot.features.feedback.store import Votes
    from bot.model.rules import load_rules
    from config.settings import load_settings

    opened = open_bot(load_settings(), load_rules(None))
    try:
        table = commands(opened)
        said = asyncio.run(
            table.press(pressed["action_id"], pressed["value"], Asker("slack", "U9"))
        )
        assert said.text.startswith("Thanks: ")
        votes = Votes(opened.store.transactions).since(opened.reports.clock().replace(year=2000))
        assert [(v.user, v.section, v.useful) for v in votes] == [("U9", sections[0].part, True)]
    finally:
        opened.close()


def test_off_by_default_the_post_has_no_buttons(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with FakeSlack() as slack:
        post_day(slack, monkeypatch, tmp_path, on=False)
        posts = slack.channel_posts("C1")
    assert posts and not any(actions(p.payload) for p in posts)


def test_the_pair_in_chinese_and_within_each_platform_s_limits() -> None:
    pair = buttons("2026-03-25", "vendors", "zh")
    assert [b.label for b in pair] == ["👍 有用", "👎 没用"]
    discord = discord_buttons({"content": "x"}, pair)
    (row,) = discord["components"]
    assert [c["custom_id"] for c in row["components"]] == [
        "vr.feedback.useful|2026-03-25|vendors",
        "vr.feedback.not|2026-03-25|vendors",
    ]
    assert all(len(c["custom_id"]) <= 100 for c in row["components"])
    full = {"blocks": [{"type": "divider"}] * SLACK_BLOCKS}
    assert slack_buttons(full, pair) == full  # no room: the message as it was
    assert buttons("x" * 61, "vendors", "en") == ()  # an id that would not fit: no pair
    with pytest.raises(ValueError, match=r"ours start vr\."):
        Button("x", "other.thing", "v")  # not ours: never drawn
    assert json.dumps(slack_buttons({"blocks": []}, pair), ensure_ascii=False).count("button") == 2
