"""A feature declares itself once (bot/features/<name>/feature.py) and is listed once
(`bot.features.FEATURES`): a new one — here tests/fakes/tiny_feature.py, listed by one
more line — reaches the command line, the slash-command table at its rank, `/vllm-topics`,
`doctor`, every report, `--section` and the slash commands' section words, and
`/vllm-subscribe` with its own subscription kind, whose digest the daily run sends, with no
core module changed."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout
from datetime import date, time
from zoneinfo import ZoneInfo

import pytest

import bot.features
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]  # 2026-03-25


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(
        bot.features, "FEATURES", (*bot.features.FEATURES, "tests.fakes.tiny_feature")
    )
    bot.features.declared.cache_clear()
    yield
    bot.features.declared.cache_clear()


def test_the_shipped_features_are_each_declared_once() -> None:
    names = [feature.name for feature in bot.features.declared()]
    assert names == ["queue", "radar", "ci", "personal", "releases", "feedback"]


def test_a_new_feature_has_its_subcommand(tiny: None) -> None:
    from bot.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["tiny"]) == 0
    assert out.getvalue() == "tiny\n"


def test_a_new_feature_s_slash_command_takes_its_rank(tiny: None) -> None:
    from bot.app import table

    names = [command.name for command in table()]
    assert names == [
        "vllm-report",
        "vllm-queue",
        "vllm-radar",
        "vllm-ci",
        "vllm-subscribe",
        "vllm-unsubscribe",
        "vllm-subscriptions",
        "vllm-me",
        "vllm-tiny",
        "vllm-topics",
    ]


def test_a_new_feature_s_section_reaches_the_report_and_its_line_topics_and_doctor(
    tiny: None, fake_github: FakeGitHub, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.app import commands, doctor, open_bot
    from bot.commands.base import Asker
    from bot.model.query import ReportQuery
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from config.settings import load_settings
    from formatters.json_report import report_to_dict
    from formatters.markdown import render_markdown

    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
    settings = load_settings()
    opened = open_bot(settings, load_rules(None))
    try:
        window = day_window(date.fromisoformat(DAY.label), ZoneInfo("Asia/Shanghai"), time(11, 45))
        report = opened.reports.report(ReportQuery(settings.repo, window))
        assert "## 🐣 Tiny\n" in render_markdown(report, "en")
        assert report_to_dict(report)["tiny"] == {"here": True}
        table = commands(opened)
        topics = next(c for c in table if c.name == "vllm-topics")
        said = asyncio.run(topics.answer(table.services, Asker("slack", "U1"), None))
        assert "tiny, tiny:<word> — what a tiny feature says" in said.text  # type: ignore[attr-defined]
    finally:
        opened.close()
    checks = asyncio.run(doctor(settings, []))
    assert any(c.name == "tiny" and c.ok for c in checks)


def test_a_new_feature_s_section_word_is_asked_for_by_the_command_line_and_slash_commands(
    tiny: None,
) -> None:
    from bot.app import table
    from bot.cli.common import check_section
    from bot.commands import Commands, Services
    from bot.features import section_words
    from bot.model.asking import AskError
    from bot.model.rules import load_rules
    from config.settings import load_settings

    rules = load_rules(None)
    assert section_words()[-2:] == ("tiny", "appendix")  # its part's place: before the appendix
    assert check_section("TINY", rules) == "tiny"
    with pytest.raises(AskError, match=r"Sections: summary, .*, ci, tiny, appendix, or a topic"):
        check_section("tinny", rules)
    services = Services(load_settings(), rules, None, None, None, section_words=section_words())  # type: ignore[arg-type]
    commands = Commands(services, table=table())
    asked = commands.read(commands.table["vllm-report"], "tiny zh")
    assert (asked.section, asked.lang) == ("tiny", "zh")  # type: ignore[attr-defined]


def test_a_new_feature_s_subscription_kind_is_subscribed_named_and_sent_its_digest(
    tiny: None, fake_github: FakeGitHub, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/vllm-subscribe tiny:Hello` in a channel: stored as `tiny:hello`, named as the
    feature names it, and after the day's post the channel gets the feature's digest."""
    from bot.app import commands, daily_job, open_bot, transports
    from bot.commands.base import Asker
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack

    async def manages() -> bool:
        return True

    with FakeSlack() as slack:
        for name, value in {
            "VLLM_REPORT_DATA_DIR": str(tmp_path),
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "VLLM_REPORT_PLUGINS": "none",
            "VLLM_REPORT_CI_URL": "none",
        }.items():
            monkeypatch.setenv(name, value)
        settings = load_settings()
        opened = open_bot(settings, load_rules(None))
        try:
            table = commands(opened)
            asker = Asker("slack", "U1", "C2", may_manage=manages)
            subscribe = table.table["vllm-subscribe"]
            request = table.read(subscribe, "tiny:Hello")
            said = asyncio.run(table.answer(subscribe, asker, request))
            assert (
                said.text
                == "this channel will get the Tiny of hello digest after each daily report"
            )  # type: ignore[attr-defined]
            stored = opened.store.subscriptions.list("slack", ["C2"])
            assert [str(s.key) for s in stored] == ["tiny:hello"]
            window = day_window(
                date.fromisoformat(DAY.label), ZoneInfo("Asia/Shanghai"), time(11, 45)
            )

            async def post() -> None:
                async with transports(settings) as chat:
                    await daily_job(opened, chat).post(window)

            asyncio.run(post())
        finally:
            opened.close()
        digest = slack.channel_posts("C2")
        assert digest, "the tiny subscriber got nothing"
        assert "a tiny feature was here" in json.dumps([p.payload for p in digest])
