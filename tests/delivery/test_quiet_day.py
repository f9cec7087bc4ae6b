"""A quiet day (at most 10 items) is one short message on each platform: a sentence with
the counts that are not zero instead of five figures, every item once, no thread of
replies, no chart; `show` (what `/vllm-report` answers) says the same. Real titles of the
anchor days, re-dated to 2026-04-04, a Saturday with three items."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.cli import main
from tests.anchor_data import REPO, anchor_days, anchor_items
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack
from tests.slack_text import message_text

DAY = anchor_days()[2]
LABEL = "2026-04-04"
START = DAY.start + timedelta(days=10)  # 2026-04-04 at the anchor days' cutoff


@pytest.fixture
def quiet(
    monkeypatch: pytest.MonkeyPatch, store_url: str
) -> Iterator[tuple[FakeSlack, FakeDiscord]]:
    real = anchor_items()
    pr = next(it for it in real if it.kind == "pr")
    other = next(it for it in real if it.kind == "pr" and it.number != pr.number)
    issue = next(it for it in real if it.kind == "issue")
    at = [START + timedelta(hours=h) for h in (2, 5, 9)]
    items = [
        replace(
            pr, number=90001, created_at=at[0], updated_at=at[0], closed_at=None, merged_at=None
        ),
        replace(
            other, number=90002, created_at=at[1], updated_at=at[1], closed_at=None, merged_at=None
        ),
        replace(
            issue, number=90003, created_at=at[2], updated_at=at[2], closed_at=None, merged_at=None
        ),
    ]
    with FakeGitHub(REPO, items) as github, FakeSlack() as slack, FakeDiscord() as discord:
        for name, value in {
            "DATABASE_URL": store_url,
            "GITHUB_API_URL": github.url,
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "DISCORD_BOT_TOKEN": "discord-test-token",
            "DISCORD_API_URL": discord.api_url,
            "DISCORD_CHANNELS": "111",
        }.items():
            monkeypatch.setenv(name, value)
        yield slack, discord


SENTENCE = "Quiet day: 2 PRs opened, 1 issue opened, nothing merged"


def test_a_quiet_day_is_one_short_message(
    quiet: tuple[FakeSlack, FakeDiscord], capsys: pytest.CaptureFixture[str]
) -> None:
    slack, discord = quiet
    assert main(["post", LABEL, "--cutoff", DAY.cutoff]) == 0
    (posted,) = slack.channel_posts("C1")  # one message, nothing in a thread, no chart
    text = message_text(posted.payload)
    assert SENTENCE in text
    assert " 0" not in text.replace("2026-04-0", "")  # no count said as 0
    for number in (90001, 90002, 90003):
        assert text.count(f"|#{number}>") == 1
    assert "Details in the thread" not in text
    (sent,) = discord.in_channel("111")
    embed = sent.payload["embeds"][0]
    assert SENTENCE in embed["description"] and "footer" not in embed

    assert main(["show", LABEL, "--cutoff", DAY.cutoff, "--format", "slack", "--lang", "zh"]) == 0
    (answer,) = json.loads(capsys.readouterr().out)
    assert "今日较平静：新建 PR 2 个、新建 Issue 1 个、无 PR 合并" in json.dumps(
        answer, ensure_ascii=False
    )
    assert main(["show", LABEL, "--cutoff", DAY.cutoff]) == 0
    head = [line for line in capsys.readouterr().out.splitlines()[:8] if line.startswith(">")]
    assert f"> {SENTENCE}" in head  # the Markdown says it too, never an empty "Counts:"
    assert not any(line.rstrip().endswith(("Counts:", "数据统计：")) for line in head)


def test_a_day_with_nothing_says_so_in_its_one_message(
    quiet: tuple[FakeSlack, FakeDiscord],
) -> None:
    """The day after: no item at all. The message says it in a sentence, not in five zeros."""
    slack, discord = quiet
    assert main(["post", "2026-04-05", "--cutoff", DAY.cutoff]) == 0
    (posted,) = slack.channel_posts("C1")
    assert "Quiet day: nothing opened, closed or merged" in json.dumps(posted.payload["blocks"])
    (sent,) = discord.in_channel("111")
    assert "Quiet day: nothing opened, closed or merged" in sent.payload["embeds"][0]["description"]
