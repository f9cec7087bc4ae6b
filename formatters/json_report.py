"""The stable JSON contract (`"schema": "vllm-report/1"`): keys may be added, never renamed."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

from bot.model.report import ActivityItem, Report
from formatters.wording import summary

SCHEMA = "vllm-report/1"


def report_to_dict(report: Report, lang: str = "en") -> dict[str, Any]:
    tz = report.window.start.tzinfo
    data = {
        "schema": SCHEMA,
        "repo": report.repo,
        "window": {
            "start": report.window.start.isoformat(),
            "end": report.window.end.isoformat(),
            "timezone": report.window.timezone,
            "label": report.window.label,
        },
        "complete": report.complete,
        "notes": list(report.notes),
        "stats": {name.value: count for name, count in report.stats.items()},
        "closures": {
            name.value: {"resolved": split.resolved, "stale": split.stale}
            for name, split in report.closures.items()
        },
        "lists": {name.value: list(numbers) for name, numbers in report.lists.items()},
        "items": {str(number): _item(item, tz) for number, item in report.items.items()},
    }
    if report.sections is not None:
        data.update(_sections(report, lang))
    if report.prose is not None:
        prose = asdict(report.prose)
        prose["item_notes"] = {str(k): v for k, v in report.prose.item_notes.items()}
        prose["discussion_notes"] = {str(k): v for k, v in report.prose.discussion_notes.items()}
        data["prose"] = prose
    return data


def render_json(report: Report, lang: str = "en") -> str:
    return json.dumps(report_to_dict(report, lang), ensure_ascii=False, indent=2)


def _sections(report: Report, lang: str) -> dict[str, Any]:
    sections = report.sections
    assert sections is not None  # noqa: S101 - called for full reports only
    return {
        "topics": {
            key: {
                "issues": list(section.issues),
                "prs": list(section.prs),
                "groups": {group: list(numbers) for group, numbers in section.groups.items()},
                "reasons": {str(n): reason for n, reason in section.reasons.items()},
            }
            for key, section in sections.topics.items()
        },
        "hot_discussions": [hot.number for hot in sections.hot_discussions],
        "hot_discussion_details": [asdict(hot) for hot in sections.hot_discussions],
        "key_changes": [change.number for change in sections.key_changes],
        "key_change_details": [asdict(change) for change in sections.key_changes],
        "notable_issues": [issue.number for issue in sections.notable_issues],
        "notable_issue_details": [asdict(issue) for issue in sections.notable_issues],
        "trends": [asdict(row) for row in sections.trends],
        "trend_baseline_days": sections.baseline_days,
        "clusters": [asdict(cluster) for cluster in sections.clusters],
        "activity": asdict(sections.activity),
        "summary": summary(report, lang),
        "summaries": {language: summary(report, language) for language in ("en", "zh")},
    }


def _item(item: ActivityItem, tz: Any) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "title": item.title,
        "author": item.author,
        "labels": list(item.labels),
        "url": item.url,
        "state": item.state,
        "created_at": _time(item.created_at, tz),
        "closed_at": _time(item.closed_at, tz),
        "merged_at": _time(item.merged_at, tz),
        "comments": item.comments,
    }


def _time(moment: datetime | None, tz: Any) -> str | None:
    return moment.astimezone(tz).isoformat() if moment is not None else None
