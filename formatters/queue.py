"""The review queue for delivery and other tools: chat payloads per platform (each drawn by
its renderer from the queue's outline section, formatters.queue_outline) and the JSON
contract (`"schema": "vllm-queue/1"`)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from bot.model.queue import PeriodTimes, Queue, ScopeQueue
from formatters._text import item_url
from formatters.markdown import render_queue_markdown
from formatters.queue_outline import QUEUE_SCHEMA, queue_context, queue_section, queue_title

__all__ = [
    "queue_context",
    "queue_parts",
    "queue_section",
    "queue_title",
    "queue_to_dict",
    "render_queue_json",
    "render_queue_markdown",
]


def queue_parts(platform: str, queue: Queue, lang: str) -> list[tuple[str, dict[str, Any]]]:
    """(part name, payload) pairs for delivery: the queue is one message."""
    if platform == "slack":
        from formatters.slack_blocks import render_slack_queue

        return [("queue", m) for m in render_slack_queue(queue, lang)]
    if platform == "discord":
        from formatters.discord_embeds import render_discord_queue

        return [("queue", m) for m in render_discord_queue(queue, lang)]
    raise ValueError(f"no chat renderer for {platform!r}")


# -- JSON ------------------------------------------------------------------------------------------


def queue_to_dict(queue: Queue) -> dict[str, Any]:
    """The queue for other tools: lists (numbers), counts, percentiles (hours) with n."""
    tz = queue.window.start.tzinfo
    return {
        "schema": QUEUE_SCHEMA,
        "repo": queue.repo,
        "window": {
            "start": queue.window.start.isoformat(),
            "end": queue.window.end.isoformat(),
            "timezone": queue.window.timezone,
            "label": queue.window.label,
        },
        "generated_at": queue.generated_at.astimezone(tz).isoformat(),
        "topic": queue.topic,
        "complete": queue.complete,
        "measured": queue.measured,
        "notes": list(queue.notes),
        "rules": {
            "ages_days": list(queue.rules.ages),
            "previous_days": queue.rules.previous_days,
            "stale": asdict(queue.rules.stale),
        },
        "scopes": [_scope_dict(queue, s) for s in queue.scopes],
        "first_time_contributors": [asdict(f) for f in queue.first_timers],
        "items": {
            str(n): {
                "kind": it.kind,
                "title": it.title,
                "author": it.author,
                "labels": list(it.labels),
                "url": item_url(queue.repo, it.kind, n),
                "created_at": it.created_at.astimezone(tz).isoformat(),
                "ready_at": it.ready_at.astimezone(tz).isoformat() if it.ready_at else None,
                "what": queue.what.get(n, ""),
            }
            for n, it in sorted(queue.items.items())
        },
    }


def _scope_dict(queue: Queue, scope: ScopeQueue) -> dict[str, Any]:
    tz = queue.window.start.tzinfo
    return {
        "topic": scope.key,
        "complete": scope.complete,
        "counts": {
            "waiting": scope.waiting,
            "waiting_over_days": {str(days): n for days, n in scope.over},
            "changes_requested": scope.changes_requested,
            "needs_rebase": scope.needs_rebase,
            "on_author": scope.on_author,
            "ready": scope.ready,
            "stale_soon": scope.stale_soon,
        },
        "lists": {
            "oldest_waiting": [asdict(a) for a in scope.oldest],
            "ready": list(scope.ready_items),
            "stale_soon": [
                {"number": s.number, "closes_at": s.closes_at.astimezone(tz).isoformat()}
                for s in scope.stale_items
            ],
        },
        "response_times": (
            {
                "current": _period_dict(scope.times.current, tz),
                "previous": _period_dict(scope.times.previous, tz),
            }
            if scope.times is not None
            else None
        ),
    }


def _period_dict(period: PeriodTimes, tz: Any) -> dict[str, Any]:
    return {
        "start": period.start.astimezone(tz).isoformat(),
        "end": period.end.astimezone(tz).isoformat(),
        "first_review_hours": asdict(period.first_review),
        "merge_hours": asdict(period.merge),
        "first_response_hours": asdict(period.first_response),
        "unanswered_24h": asdict(period.unanswered_24h),
        "unanswered_72h": asdict(period.unanswered_72h),
        "merged": period.merged,
        "merged_unreviewed": period.merged_unreviewed,
        "issues_opened": period.opened,
        "unknown": period.unknown,
    }


def render_queue_json(queue: Queue) -> str:
    return json.dumps(queue_to_dict(queue), ensure_ascii=False, indent=2) + "\n"
