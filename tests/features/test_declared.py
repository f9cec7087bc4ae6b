"""A feature declares itself once (bot/features/<name>/feature.py) and is listed once
(`bot.features.FEATURES`): a new one — here tests/fakes/tiny_feature.py, listed by one
more line — reaches the command line, the slash-command table at its rank, `/vllm-topics`,
`doctor` and every report, with no core module changed."""

from __future__ import annotations

import asyncio
import io
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
    assert names == ["queue", "radar", "ci", "personal"]


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
        assert "tiny — what a tiny feature says" in said.text  # type: ignore[attr-defined]
    finally:
        opened.close()
    checks = asyncio.run(doctor(settings, []))
    assert any(c.name == "tiny" and c.ok for c in checks)
