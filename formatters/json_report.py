"""The stable JSON contract (`"schema": "vllm-report/1"`): keys may be added, never renamed."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.report import ActivityItem, Report

SCHEMA = "vllm-report/1"


def report_to_dict(report: Report) -> dict[str, Any]:
    tz = report.window.start.tzinfo
    return {
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


def render_json(report: Report) -> str:
    return json.dumps(report_to_dict(report), ensure_ascii=False, indent=2)


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
