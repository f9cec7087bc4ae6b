"""The review queue for delivery and other tools: its one message before a platform draws it
(from the queue's outline section, bot.features.queue.outline; bot.platforms draws it) and the
JSON contract (`"schema": "vllm-queue/1"`)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from bot.features.queue.model import PeriodTimes, Queue, ScopeQueue
from bot.features.queue.outline import EVENT_TYPE as QUEUE_EVENT
from bot.features.queue.outline import QUEUE_SCHEMA, queue_context, queue_section, queue_title
from bot.model import outline_parts as ol
from bot.model.report import Report
from bot.platforms.registry import Parts, platform_named
from formatters._text import item_url
from formatters.markdown import section_text

__all__ = [
    "queue_context",
    "queue_message",
    "queue_section",
    "queue_title",
    "queue_to_dict",
    "render_queue_json",
    "render_queue_markdown",
]


def queue_message(queue: Queue, lang: str) -> ol.OneMessage:
    """The queue as one message before a platform draws it (`/vllm-queue`, the weekly
    digest); bot.platforms draws it for each platform."""
    payload = {
        "repo": queue.repo,
        "window": queue.window.label,
        "topic": queue.topic or "",
        "part": "queue",
    }
    return ol.OneMessage(
        queue_title(queue, lang),
        queue_context(queue, lang),
        queue_section(queue, lang),
        QUEUE_EVENT,
        payload,
    )


# -- JSON ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueuePart:
    """The review queue as the full report's part (a `ReportPart`): a section before the
    appendix and a JSON key; never a line or a reply of the daily chat post."""

    queue: Queue
    name: str = "queue"
    json_key: str = "queue"
    rank: int = 30
    chat_rank: int | None = None
    on_quiet_day: bool = False

    def section(self, lang: str) -> ol.Section | None:
        return queue_section(self.queue, lang, brief=False)

    def headline(self, lang: str) -> str | None:
        return None

    def chat_blocks(self, section: ol.Section, label: str, lang: str) -> tuple[ol.Block, ...]:
        return section.blocks

    def to_json(self) -> dict[str, Any]:
        return queue_to_dict(self.queue)


def queue_of(report: Report) -> Queue | None:
    """The review queue a report carries (its `queue` part), if it does."""
    part = report.part("queue")
    return part.queue if isinstance(part, QueuePart) else None


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


def render_queue_markdown(queue: Queue, lang: str = "en") -> str:
    section = queue_section(queue, lang, brief=False)
    head = f"# {queue_title(queue, lang)}\n\n> {queue_context(queue, lang)}"
    body = section_text(section).split("\n", 1)[1].lstrip("\n")  # the title is the page's
    return f"{head}\n\n{body}\n"


def queue_parts(platform: str, queue: Queue, lang: str) -> Parts:
    """(part name, payload) pairs for delivery: the queue is one message."""
    return [
        ("queue", m) for m in platform_named(platform).one_message(queue_message(queue, lang), lang)
    ]
