"""Small builders for `ActivityItem`s in tests (real titles come from the anchor data)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.model.report import ActivityItem
from bot.model.windows import Window

REPO = "vllm-project/vllm"
CST = ZoneInfo("Asia/Shanghai")
# The reference report's window: 2026-03-26 11:45 (UTC+8) ~ 2026-03-27 11:45 (UTC+8).
WINDOW_0326 = Window(
    datetime(2026, 3, 26, 11, 45, tzinfo=CST),
    datetime(2026, 3, 27, 11, 45, tzinfo=CST),
    "Asia/Shanghai",
    "2026-03-26",
)


def item(number: int, kind: str = "issue", **fields: Any) -> ActivityItem:
    created = fields.pop("created_at", datetime(2026, 3, 1, tzinfo=UTC))
    noun = "pull" if kind == "pr" else "issues"
    values: dict[str, Any] = {
        "repo": REPO,
        "number": number,
        "kind": kind,
        "title": f"item {number}",
        "author": "someone",
        "labels": (),
        "state": "closed" if fields.get("closed_at") else "open",
        "created_at": created,
        "updated_at": max(
            t for t in (created, fields.get("closed_at"), fields.get("merged_at")) if t
        ),
        "url": f"https://github.com/{REPO}/{noun}/{number}",
    }
    values.update(fields)
    return ActivityItem(**values)


def make_report(
    settings: Any,
    window: Window,
    *,
    topic: str | None = None,
    counts_only: bool = False,
    refresh: bool = False,
) -> Any:
    """A report as the CLI makes it: the composition root's pipeline, opened and closed."""
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from bot.service.reports import ReportQuery

    bot = open_bot(settings, load_rules(settings.topics_file))
    try:
        query = ReportQuery(
            settings.repo, window, settings.lang, topic, counts_only=counts_only, refresh=refresh
        )
        return bot.reports.report(query)
    finally:
        bot.close()


def archive_link(settings: Any, report: Any, lang: str = "en") -> str | None:
    from bot.report_files import ReportFiles

    return ReportFiles(settings.report_files_dir, settings.site_url).link(report, lang)
