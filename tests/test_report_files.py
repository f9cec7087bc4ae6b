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


def test_the_link_names_the_file_written_in_each_language(tmp_path: Path) -> None:
    """`7d` is written as last-7-days.<lang>.md, and that is what the link points at."""
    files = ReportFiles(tmp_path / "archive", "https://reports.example.org/vllm/")
    report = report_for("7d")
    for lang in ("en", "zh"):
        written = files.write(report, lang, "# report", "{}")
        link = files.link(report, lang)
        assert link is not None
        relative = link.removeprefix("https://reports.example.org/vllm/")
        assert (tmp_path / "archive" / relative) == written[0]
        assert written[0].name == f"last-7-days.{lang}.md"


def test_topic_and_partial_reports_say_so_in_their_names(tmp_path: Path) -> None:
    files = ReportFiles(tmp_path)
    partial = report_for("2026-03-26", complete=False)
    digest = replace(report_for("2026-03-26"), topic="amd")
    assert files.write(partial, "en", "", "{}")[0].name == "2026-03-26.partial.en.md"
    assert files.write(digest, "zh", "", "{}")[0].name == "2026-03-26.amd.zh.md"
    assert files.link(digest, "zh") is None  # no archive URL set
    assert not files.exists(REPO, partial.window, "en")  # a partial is not the day's report
    assert files.exists(REPO, digest.window, "en") is False
