"""Small builders for `ActivityItem`s in tests (real titles come from the anchor data)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.report import ActivityItem
from bot.windows import Window

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
