"""Report files and their links come from one layout, so the posted link finds the file."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.analyze import build_report
from bot.model.report import Report
from bot.model.windows import parse_window
from bot.report_files import ReportFiles
from tests.factories import REPO

NOW = datetime(2026, 3, 30, 12, tzinfo=UTC)
CST = ZoneInfo("Asia/Shanghai")


def report_for(phrase: str, complete: bool = True) -> Report:
    window = parse_window(phrase, now=NOW, tz=CST, cutoff=time(11, 45), max_days=31)
    return build_report([], window, repo=REPO, complete=complete)


def test_a_day_links_its_site_page_and_a_range_links_nothing(tmp_path: Path) -> None:
    """The site has one page per finished day (tests/service/test_site.py shows the page is there);
    `7d` is written as last-7-days.<lang>.md but has no page, so no link is posted for it."""
    files = ReportFiles(tmp_path / "archive", "https://reports.example.org/vllm/")
    week = report_for("7d")
    for lang in ("en", "zh"):
        assert files.write(week, lang, "# report", "{}")[0].name == f"last-7-days.{lang}.md"
        assert files.link(week, lang) is None
    assert files.link(report_for("2026-03-26..2026-03-27"), "en") is None
    day = report_for("2026-03-26")
    assert files.link(day, "en") == "https://reports.example.org/vllm/2026-03-26/"
    assert files.link(day, "zh") == "https://reports.example.org/vllm/2026-03-26/zh/"


def test_topic_and_partial_reports_say_so_in_their_names(tmp_path: Path) -> None:
    files = ReportFiles(tmp_path)
    partial = report_for("2026-03-26", complete=False)
    digest = replace(report_for("2026-03-26"), topic="amd")
    assert files.write(partial, "en", "", "{}")[0].name == "2026-03-26.partial.en.md"
    assert files.write(digest, "zh", "", "{}")[0].name == "2026-03-26.amd.zh.md"
    assert files.link(digest, "zh") is None  # no archive URL set
    assert not files.exists(REPO, partial.window, "en")  # a partial is not the day's report
    assert files.exists(REPO, digest.window, "en") is False
